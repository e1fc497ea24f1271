/**
 * The explicit resource management types (`Disposable`, `AsyncDisposable`, `Symbol.dispose`,
 * `Symbol.asyncDispose`) for the published declarations: connections, cursors and servers are
 * disposable (`using`, `await using`), and a TypeScript consumer whose `lib` stops at ES2023
 * and who has no `@types/node` would otherwise not know these names. Declared the way Node's
 * type package declares them, so they merge with TypeScript's own `esnext.disposable` library
 * and with Node's types alike. Modules whose public classes are disposable import this one.
 * @module
 */
export {};

declare global {
  interface SymbolConstructor {
    /** The method `using` calls at the end of its block. */
    readonly dispose: unique symbol;
    /** The method `await using` calls (and awaits) at the end of its block. */
    readonly asyncDispose: unique symbol;
  }
  /** An object that `using` disposes of. */
  interface Disposable {
    [Symbol.dispose](): void;
  }
  /** An object that `await using` disposes of. */
  interface AsyncDisposable {
    [Symbol.asyncDispose](): PromiseLike<void>;
  }
}
