/**
 * The dataset a query reads: the store's default graph (or the merge of FROM graphs) and its
 * named graphs (or the FROM NAMED ones), restricted to a fact domain, as a {@link QuadSource}
 * over term ids. Its tables are read through storage's TableCursor: one per nesting depth for
 * `match`, and one per resumable scan (`matcher`), reused once the scan is over.
 * @module
 */
import type { TermDictionary } from '../model/dictionary.js';
import type { FactAccess } from '../storage/fact-access.js';
import { DEFAULT_TRIPLES_ID, QUADS_ID, type StoreState } from '../storage/fact-store.js';
import { ANY, DERIVED, EXPLICIT, type TableView, type TupleTable } from '../storage/tuple-table.js';
import { CURSOR_END, TableCursor } from '../storage/table-cursor.js';
import { ANY_NAMED_GRAPH, DEFAULT_GRAPH, type MatchCallback, type QuadSource, UNBOUND } from './quad-source.js';

/** Which graphs form the dataset (term ids); undefined = the store's own default / all named graphs. */
export interface DatasetGraphs {
  /** Graphs merged into the default graph (FROM). */
  readonly defaultGraphs?: readonly number[];
  /** The named graphs (FROM NAMED). */
  readonly namedGraphs?: readonly number[];
}

/** Quads of a store state as a query dataset. */
export class StoreQuadSource implements QuadSource {
  private readonly triples: TupleTable;
  private readonly quads: TupleTable;
  private readonly tripleView: TableView;
  private readonly quadView: TableView;
  private readonly named: ReadonlySet<number> | undefined;
  private readonly countsExact: boolean;
  private readonly readable: ((graph: number) => boolean) | undefined;
  /** The pattern of the lookup being opened (cursors copy it). */
  private readonly scratch = new Int32Array(4);
  /** One cursor per nesting depth of {@link StoreQuadSource.match} (a match's callback may match again). */
  private readonly cursors: TableCursor[] = [];
  /** The depth of the innermost match running. */
  private depth = 0;
  /** Cursors of finished resumable scans, for the next ones. */
  private readonly spare: TableCursor[] = [];

  /**
   * Creates the source; `mask` selects fact statuses (explicit, derived). With `access`,
   * reading a table the role may not read fails, and graphs it may not read are invisible.
   */
  constructor(
    state: StoreState,
    private readonly dictionary: TermDictionary,
    private readonly mask: number,
    private readonly dataset: DatasetGraphs,
    private readonly access?: FactAccess,
  ) {
    this.readable = access?.readableGraph;
    this.triples = state.table(DEFAULT_TRIPLES_ID);
    this.quads = state.table(QUADS_ID);
    this.tripleView = state.view(DEFAULT_TRIPLES_ID);
    this.quadView = state.view(QUADS_ID);
    this.named = dataset.namedGraphs ? new Set(dataset.namedGraphs) : undefined;
    this.countsExact = state.countsExact;
  }

  /** The id of an IRI, or -1. */
  iriId(iri: string): number {
    return this.dictionary.lookup(`<${iri}>`);
  }

  match(s: number, p: number, o: number, graph: number, onMatch: MatchCallback): boolean {
    let graphs: GraphFilter;
    let report = UNBOUND;
    if (graph === DEFAULT_GRAPH) {
      const from = this.defaultGraphs();
      if (!from) return this.matchIn(this.triples, this.tripleView, this.pattern3(s, p, o), ALL_GRAPHS, DEFAULT_GRAPH, onMatch);
      // a merge of several graphs reports each triple once: the resumable path keeps what it saw
      if (from.length !== 1) {
        let stopped = false;
        const step = this.matcher(s, p, o, graph, (a, b, c, g) => (stopped = onMatch(a, b, c, g) === true));
        while (!step(Infinity));
        return stopped;
      }
      graph = from[0]!;
      graphs = ALL_GRAPHS;
      report = DEFAULT_GRAPH;
    } else {
      this.access?.checkRead(QUADS_ID);
      if (graph === ANY_NAMED_GRAPH) graphs = this.namedFilter();
      else if (!this.graphVisible(graph)) return false;
      else graphs = ALL_GRAPHS;
    }
    return this.matchIn(this.quads, this.quadView, this.pattern4(s, p, o, graph), graphs, report, onMatch);
  }

  matcher(s: number, p: number, o: number, graph: number, onMatch: MatchCallback): (budget: number) => boolean {
    if (graph === DEFAULT_GRAPH) {
      const from = this.defaultGraphs();
      if (!from) return this.stepper(this.triples, this.tripleView, this.pattern3(s, p, o), ALL_GRAPHS, DEFAULT_GRAPH, onMatch);
      if (from.length === 1) return this.stepper(this.quads, this.quadView, this.pattern4(s, p, o, from[0]!), ALL_GRAPHS, DEFAULT_GRAPH, onMatch);
      // a merge of several graphs: report each triple once
      const seen = new Set<string>();
      let stopped = false;
      const parts = from.map((g) =>
        this.stepper(this.quads, this.quadView, this.pattern4(s, p, o, g), ALL_GRAPHS, DEFAULT_GRAPH, (a, b, c) => {
          const k = `${a},${b},${c}`;
          if (seen.has(k)) return false;
          seen.add(k);
          return (stopped = onMatch(a, b, c, DEFAULT_GRAPH) === true);
        }),
      );
      let i = 0;
      // one part per call, so that a call visits at most `budget` rows
      return (budget) => {
        if (i < parts.length && !stopped && parts[i]!(budget)) i++;
        return i >= parts.length || stopped;
      };
    }
    this.access?.checkRead(QUADS_ID);
    if (graph === ANY_NAMED_GRAPH) return this.stepper(this.quads, this.quadView, this.pattern4(s, p, o, UNBOUND), this.namedFilter(), UNBOUND, onMatch);
    if (!this.graphVisible(graph)) return () => true;
    return this.stepper(this.quads, this.quadView, this.pattern4(s, p, o, graph), ALL_GRAPHS, UNBOUND, onMatch);
  }

  exactCount(s: number, p: number, o: number, graph: number): number | undefined {
    if (!this.countsExact || this.mask !== (EXPLICIT | DERIVED) || graph !== DEFAULT_GRAPH || this.dataset.defaultGraphs) return undefined;
    this.access?.checkRead(DEFAULT_TRIPLES_ID);
    const bound = [s, p, o].filter((x) => x >= 0).length;
    if (bound === 0) return this.triples.liveCount;
    if (bound > 1) return undefined;
    return s >= 0 ? this.triples.countOf(0, s) : p >= 0 ? this.triples.countOf(1, p) : this.triples.countOf(2, o);
  }

  estimate(s: number, p: number, o: number, graph: number): number {
    const table = graph === DEFAULT_GRAPH && !this.dataset.defaultGraphs ? this.triples : this.quads;
    let n = table.liveCount;
    if (s >= 0) n = Math.min(n, table.countOf(0, s));
    if (p >= 0) n = Math.min(n, table.countOf(1, p));
    if (o >= 0) n = Math.min(n, table.countOf(2, o));
    if (graph >= 0 && table === this.quads) n = Math.min(n, table.countOf(3, graph));
    return n;
  }

  nodes(graph: number, onNode: (node: number) => boolean | void): boolean {
    const seen = new Set<number>();
    return this.match(UNBOUND, UNBOUND, UNBOUND, graph, (s, _p, o) => {
      if (!seen.has(s)) {
        seen.add(s);
        if (onNode(s) === true) return true;
      }
      if (!seen.has(o)) {
        seen.add(o);
        if (onNode(o) === true) return true;
      }
      return false;
    });
  }

  /** The named graphs of the dataset that hold at least one quad. */
  graphNames(): number[] {
    this.access?.checkRead(QUADS_ID);
    const readable = this.readable ?? ((): boolean => true);
    if (this.dataset.namedGraphs) return this.dataset.namedGraphs.filter(readable);
    const out = new Set<number>();
    this.matchIn(this.quads, this.quadView, this.pattern4(UNBOUND, UNBOUND, UNBOUND, UNBOUND), ALL_GRAPHS, UNBOUND, (_s, _p, _o, g) => void out.add(g));
    return [...out].filter(readable);
  }

  /** The graphs FROM merges into the default graph that the role may read (undefined: the store's default graph); checks the read. */
  private defaultGraphs(): readonly number[] | undefined {
    const readable = this.readable;
    const from = readable && this.dataset.defaultGraphs ? this.dataset.defaultGraphs.filter((g) => readable(g)) : this.dataset.defaultGraphs;
    this.access?.checkRead(from ? QUADS_ID : DEFAULT_TRIPLES_ID);
    return from;
  }

  /** Whether a named graph is in the dataset and readable. */
  private graphVisible(graph: number): boolean {
    return (this.named === undefined || this.named.has(graph)) && (this.readable === undefined || this.readable(graph));
  }

  /** The test of a quad's graph for ANY_NAMED_GRAPH: in the dataset's named graphs, and readable. */
  private namedFilter(): GraphFilter {
    return this.named === undefined && this.readable === undefined ? ALL_GRAPHS : (g) => this.graphVisible(g);
  }

  /** The pattern of a triple lookup (the scratch array: cursors copy their patterns). */
  private pattern3(s: number, p: number, o: number): Int32Array {
    const pat = this.scratch;
    pat[0] = s < 0 ? ANY : s;
    pat[1] = p < 0 ? ANY : p;
    pat[2] = o < 0 ? ANY : o;
    pat[3] = ANY;
    return pat;
  }

  /** The pattern of a quad lookup (the scratch array). */
  private pattern4(s: number, p: number, o: number, g: number): Int32Array {
    const pat = this.pattern3(s, p, o);
    pat[3] = g < 0 ? ANY : g;
    return pat;
  }

  /**
   * Reports every row of `table` matching `pattern` to `onMatch`, graph `report` for every row
   * (or the row's own graph when UNBOUND), through a cursor of this source's stack (matches
   * nest: each depth has its own).
   */
  private matchIn(table: TupleTable, view: TableView, pattern: Int32Array, graphs: GraphFilter, report: number, onMatch: MatchCallback): boolean {
    const depth = this.depth;
    const cursor = (this.cursors[depth] ??= new TableCursor()).open(table, view, pattern, this.mask);
    const quads = table.arity === 4;
    this.depth = depth + 1;
    // (catch, not finally, which V8 deoptimizes hot functions at)
    try {
      for (let row = cursor.next(); row >= 0; row = cursor.next()) {
        const g = quads ? table.get(row, 3) : DEFAULT_GRAPH;
        if (graphs !== ALL_GRAPHS && !graphs(g)) continue;
        if (onMatch(table.get(row, 0), table.get(row, 1), table.get(row, 2), report === UNBOUND ? g : report) === true) {
          this.depth = depth;
          return true;
        }
      }
    } catch (e) {
      this.depth = depth;
      throw e;
    }
    this.depth = depth;
    return false;
  }

  /**
   * The matches of {@link StoreQuadSource.matchIn} as a resumable step function, on a cursor
   * of its own: taken from the spare ones, and given back once the scan is over (a scan left
   * unfinished keeps its cursor; the garbage collector takes both).
   */
  private stepper(table: TupleTable, view: TableView, pattern: Int32Array, graphs: GraphFilter, report: number, onMatch: MatchCallback): (budget: number) => boolean {
    const cursor = (this.spare.pop() ?? new TableCursor()).open(table, view, pattern, this.mask);
    const quads = table.arity === 4;
    let over = false;
    // (no named closure here: the transform that runs the TypeScript sources names each one
    // with a call as it is made, which showed in the profile of a small query)
    return (budget) => {
      if (over) return true;
      const stopAt = cursor.rowsRead + budget;
      for (;;) {
        const row = cursor.step(stopAt - cursor.rowsRead);
        if (row < 0) {
          if (row !== CURSOR_END) return false;
        } else {
          const g = quads ? table.get(row, 3) : DEFAULT_GRAPH;
          if (graphs !== ALL_GRAPHS && !graphs(g)) continue;
          if (onMatch(table.get(row, 0), table.get(row, 1), table.get(row, 2), report === UNBOUND ? g : report) !== true) continue;
        }
        over = true;
        this.recycle(cursor);
        return true;
      }
    };
  }

  /** Takes back the cursor of a finished resumable scan. */
  private recycle(cursor: TableCursor): void {
    cursor.close();
    this.spare.push(cursor);
  }
}

/** Which graphs of a quad scan count (ALL_GRAPHS: no test). */
type GraphFilter = ((graph: number) => boolean) | typeof ALL_GRAPHS;

/** The graph filter that takes every graph. */
const ALL_GRAPHS = null;
