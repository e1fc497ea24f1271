/**
 * What a role may do with the facts of a store, as the layers that read and write facts see
 * it: a check before a table is read, a check before an explicit fact is written, which
 * named graphs are visible, and a check before the rules change. The server layer builds one per call from the role's privileges;
 * `undefined` where a FactAccess is expected means "no restriction".
 *
 * {@link readableFacts} is the one filter every reader of stored facts applies (SPARQL graph
 * patterns and tuple table atoms, cursors, exports, explanation): a fact of `Quads` whose graph
 * the role may not read does not exist for it.
 * @module
 */
import { QUADS_ID } from './fact-store.js';

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
  /** The same by the graph's term key (`<iri>`), for graphs that may hold no facts yet; undefined when every named graph is readable. */
  readonly readableGraphName: ((graphKey: string) => boolean) | undefined;
  /** Throws AccessDeniedError when the role may not change the store's (user) rules. */
  checkRules(): void;
}

/** The column of a table's facts that names their graph: the fourth of `Quads`; -1 for tables that hold no graph names. */
export function graphColumnOf(tableId: number): number {
  return tableId === QUADS_ID ? 3 : -1;
}

/**
 * The one filter of what a role may read of a table's facts: undefined when it may read every
 * fact of the table, else a test of a fact by its values (`get(column)`), true when the role
 * may read it (for `Quads`: when it may read the fact's graph).
 * @throws AccessDeniedError when the role may not read the table at all.
 */
export function readableFacts(access: FactAccess | undefined, tableId: number): ((get: (column: number) => number) => boolean) | undefined {
  if (access === undefined) return undefined;
  access.checkRead(tableId);
  const graph = access.readableGraph;
  const column = graphColumnOf(tableId);
  if (graph === undefined || column < 0) return undefined;
  return (get) => graph(get(column));
}
