/**
 * What a role may do with the facts of a store, as the layers that read and write facts see
 * it: a check before a table is read, a check before an explicit fact is written, which
 * named graphs are visible, and a check before the rules change. The server layer builds one per call from the role's privileges;
 * `undefined` where a FactAccess is expected means "no restriction".
 * @module
 */

/** The fact-level access of one role to one store for one call. */
export interface FactAccess {
  /** Throws AccessDeniedError when the role may not read the facts of a tuple table. */
  checkRead(tableId: number): void;
  /** Throws AccessDeniedError when the role may not write this fact (its table; for quads, its graph). */
  checkWrite(tableId: number, tuple: ArrayLike<number>): void;
  /**
   * Whether the facts of a named graph (by term id) are visible; undefined when every named
   * graph is. Graphs the role may not read are treated as if they did not exist.
   */
  readonly readableGraph: ((graph: number) => boolean) | undefined;
  /** Throws AccessDeniedError when the role may not change the store's (user) rules. */
  checkRules(): void;
}
