/**
 * Loading a module of lib/sparql the first time it is needed (the evaluator, the execution of
 * updates), rather than when quadlog is imported.
 *
 * quadlog is an ES module, and a dynamic `import()` loads the module into the graph of those
 * imported statically: one copy of each module, so that `instanceof` holds across them (an
 * error class, for one). A test runner may load lib/ as CommonJS instead (mocha requires the
 * TypeScript specs, which tsx compiles to CommonJS); there `import()` would load a second copy
 * of every module the lazy one imports, and `require` is what finds the copies already loaded.
 * Callers therefore write both, with literal specifiers:
 *
 * ```ts
 * loadedAsCommonJS ? requireSparqlModule('./evaluation.js') : import('./evaluation.js')
 * ```
 * @module
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/**
 * Whether lib/sparql was loaded as CommonJS: then this module has a `__filename` of its own.
 * (A global `__filename`, which `node -e` defines, names another file.)
 */
export const loadedAsCommonJS = typeof __filename === 'string' && __filename === fileURLToPath(import.meta.url);

/** Requires a module of this directory (where lib/ was loaded as CommonJS). */
export function requireSparqlModule<T>(specifier: `./${string}.js`): Promise<T> {
  return Promise.resolve(createRequire(import.meta.url)(specifier) as T);
}
