/**
 * Reading one graph of a store (the default graph or a named graph) by term ids, through
 * table cursors: the objects of a subject and predicate, the subjects of a predicate and
 * object, membership, the triples of a subject or a predicate, and RDF lists.
 * @module
 */
import type { StoreState } from '../storage/fact-store.js';
import { DEFAULT_TRIPLES_ID, QUADS_ID } from '../storage/fact-store.js';
import { CURSOR_END, CURSOR_PAUSED, TableCursor } from '../storage/table-cursor.js';
import { ANY, DERIVED, EXPLICIT, type TableView, type TupleTable } from '../storage/tuple-table.js';

/** Rows a resumable walk reads between two pauses. */
const STEP_ROWS = 4096;

/** A term id no term has, for a named graph the store has no id for (an empty graph). */
const NO_GRAPH = 0x7fffffff;

/** The status mask the shapes graph is read with: all its facts, whatever the data graph's domain. */
export const SHAPES_MASK = EXPLICIT | DERIVED;

/** A reader of the triples of one graph of a store state. */
export class GraphReader {
  private readonly table: TupleTable;
  private readonly view: TableView;
  private readonly pattern: Int32Array;
  private readonly cursor = new TableCursor();
  private readonly graph: number;

  /** A reader of `graph` (a named graph's term id, or 'default') with the facts whose status has a bit of `mask`. */
  constructor(state: StoreState, graph: number | 'default', private readonly mask: number) {
    const id = graph === 'default' ? DEFAULT_TRIPLES_ID : QUADS_ID;
    this.table = state.table(id);
    this.view = state.view(id);
    // (a negative id is no graph's: the storage's wildcard must not stand for it)
    this.graph = graph === 'default' ? ANY : graph < 0 ? NO_GRAPH : graph;
    this.pattern = new Int32Array(this.table.arity);
  }

  private open(s: number, p: number, o: number): TableCursor {
    const pattern = this.pattern;
    pattern[0] = s;
    pattern[1] = p;
    pattern[2] = o;
    if (pattern.length === 4) pattern[3] = this.graph;
    return this.cursor.open(this.table, this.view, pattern, this.mask);
  }

  /** The objects of the triples with subject `s` and predicate `p` (distinct). */
  objects(s: number, p: number): number[] {
    const out: number[] = [];
    if (s < 0 || p < 0) return out;
    const c = this.open(s, p, ANY);
    for (let row = c.next(); row >= 0; row = c.next()) out.push(this.table.get(row, 2));
    return out;
  }

  /** The first object of `s` and `p`, or -1. */
  object(s: number, p: number): number {
    if (s < 0 || p < 0) return -1;
    const c = this.open(s, p, ANY);
    const row = c.next();
    c.close();
    return row >= 0 ? this.table.get(row, 2) : -1;
  }

  /** The subjects of the triples with predicate `p` and object `o` (distinct). */
  subjects(p: number, o: number): number[] {
    const out: number[] = [];
    if (o < 0 || p < 0) return out;
    const c = this.open(ANY, p, o);
    for (let row = c.next(); row >= 0; row = c.next()) out.push(this.table.get(row, 0));
    return out;
  }

  /**
   * Calls `f` with the subject of every triple with predicate `p` and object `o` (or, with
   * `o` ANY, with subject and object of every triple of `p`), awaiting `pause()` every few
   * thousand rows read (a long chain does not hold the event loop).
   */
  async forEachAsync(p: number, o: number, f: (s: number, o: number) => void, pause: () => Promise<void>): Promise<void> {
    if (p < 0 || (o < 0 && o !== ANY)) return;
    const pattern = new Int32Array(this.table.arity);
    pattern[0] = ANY;
    pattern[1] = p;
    pattern[2] = o;
    if (pattern.length === 4) pattern[3] = this.graph;
    const cursor = new TableCursor().open(this.table, this.view, pattern, this.mask);
    let paused = 0;
    for (;;) {
      const row = cursor.step(STEP_ROWS);
      if (row === CURSOR_END) return;
      if (row >= 0) f(this.table.get(row, 0), this.table.get(row, 2));
      if (row === CURSOR_PAUSED || cursor.rowsRead - paused >= STEP_ROWS) {
        paused = cursor.rowsRead;
        await pause();
      }
    }
  }

  /** Whether the graph holds the triple. */
  has(s: number, p: number, o: number): boolean {
    if (s < 0 || p < 0 || o < 0) return false;
    const c = this.open(s, p, o);
    const found = c.next() >= 0;
    c.close();
    return found;
  }

  /** Whether `s` has a triple with predicate `p`. */
  hasAny(s: number, p: number): boolean {
    if (s < 0 || p < 0) return false;
    const c = this.open(s, p, ANY);
    const found = c.next() >= 0;
    c.close();
    return found;
  }

  /** Whether some triple has predicate `p` and object `o`. */
  hasSubjectOf(p: number, o: number): boolean {
    if (o < 0 || p < 0) return false;
    const c = this.open(ANY, p, o);
    const found = c.next() >= 0;
    c.close();
    return found;
  }

  /** The predicate and object of every triple with subject `s`, as [p, o, p, o, …]. */
  outgoing(s: number): number[] {
    const out: number[] = [];
    if (s < 0) return out;
    const c = this.open(s, ANY, ANY);
    for (let row = c.next(); row >= 0; row = c.next()) out.push(this.table.get(row, 1), this.table.get(row, 2));
    return out;
  }

  /** Calls `f` with subject and object of every triple with predicate `p` (none when `p` is no term's id). */
  forEachWithPredicate(p: number, f: (s: number, o: number) => void): void {
    // (-1, an IRI the store does not know, is also the storage's wildcard: it must match nothing here)
    if (p < 0) return;
    const rows: number[] = [];
    const c = this.open(ANY, p, ANY);
    for (let row = c.next(); row >= 0; row = c.next()) rows.push(row);
    for (const row of rows) f(this.table.get(row, 0), this.table.get(row, 2));
  }

  /**
   * The members of the RDF list at `head` (rdf:first / rdf:rest), or undefined when it is not
   * a well-formed list; `first`, `rest` and `nil` are the term ids of rdf:first, rdf:rest and
   * rdf:nil.
   */
  list(head: number, first: number, rest: number, nil: number): number[] | undefined {
    const out: number[] = [];
    const seen = new Set<number>();
    let node = head;
    while (node !== nil) {
      if (node < 0 || seen.has(node)) return undefined;
      seen.add(node);
      const f = this.objects(node, first);
      const r = this.objects(node, rest);
      if (f.length !== 1 || r.length !== 1) return undefined;
      out.push(f[0]!);
      node = r[0]!;
    }
    return out;
  }
}
