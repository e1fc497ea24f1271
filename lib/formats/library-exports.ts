/**
 * The exports of a CommonJS library loaded with `import()`, whoever runs the code: Node gives
 * them as the namespace's `default` (and some as named exports), the bundle (scripts/
 * bundle-package.ts) only as `default`, and a loader that compiles TypeScript on the fly (tsx,
 * for the tests) only as named exports when the library marks itself `__esModule`.
 * @module
 */

/**
 * The library's exports from the namespace `import()` gave: its `default` when there is one
 * (the libraries this is used for have no default export of their own), else the namespace.
 */
export function libraryExports<T>(namespace: object): T {
  const exports = (namespace as { readonly default?: unknown }).default;
  return (typeof exports === 'object' && exports !== null ? exports : namespace) as T;
}
