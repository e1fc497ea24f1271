/**
 * The dataset a query reads: the store's default graph (or the merge of FROM graphs) and its
 * named graphs (or the FROM NAMED ones), restricted to a fact domain, as a {@link QuadSource}
 * over term ids.
 * @module
 */
import type { TermDictionary } from '../model/dictionary.js';
import type { FactAccess } from '../storage/fact-access.js';
import { DEFAULT_TRIPLES_ID, QUADS_ID, type StoreState } from '../storage/fact-store.js';
import { ANY, DERIVED, EXPLICIT, type TableView, type TupleTable } from '../storage/tuple-table.js';
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
    let stopped = false;
    const pump = this.matcher(s, p, o, graph, (a, b, c, g) => {
      if (onMatch(a, b, c, g) !== true) return false;
      stopped = true;
      return true;
    });
    while (!pump(Infinity));
    return stopped;
  }

  matcher(s: number, p: number, o: number, graph: number, onMatch: MatchCallback): (budget: number) => boolean {
    if (graph === DEFAULT_GRAPH) {
      const readable = this.readable;
      const from = readable && this.dataset.defaultGraphs ? this.dataset.defaultGraphs.filter((g) => readable(g)) : this.dataset.defaultGraphs;
      this.access?.checkRead(from ? QUADS_ID : DEFAULT_TRIPLES_ID);
      if (!from) return this.scanner3(s, p, o, onMatch);
      if (from.length === 1) return this.scanner4(s, p, o, from[0]!, (a, b, c) => onMatch(a, b, c, DEFAULT_GRAPH));
      // a merge of several graphs: report each triple once
      const seen = new Set<string>();
      let stopped = false;
      const parts = from.map((g) =>
        this.scanner4(s, p, o, g, (a, b, c) => {
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
    if (graph === ANY_NAMED_GRAPH) {
      const named = this.named;
      const readable = this.readable;
      if (readable) return this.scanner4(s, p, o, UNBOUND, (a, b, c, g) => ((named === undefined || named.has(g)) && readable(g) ? onMatch(a, b, c, g) : false));
      return this.scanner4(s, p, o, UNBOUND, (a, b, c, g) => (named === undefined || named.has(g) ? onMatch(a, b, c, g) : false));
    }
    if ((this.named !== undefined && !this.named.has(graph)) || (this.readable && !this.readable(graph))) return () => true;
    return this.scanner4(s, p, o, graph, onMatch);
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
    this.scanner4(UNBOUND, UNBOUND, UNBOUND, UNBOUND, (_s, _p, _o, g) => void out.add(g))(Infinity);
    return [...out].filter(readable);
  }

  private scanner3(s: number, p: number, o: number, onMatch: MatchCallback): (budget: number) => boolean {
    const t = this.triples;
    const mask = this.mask;
    const pat = new Int32Array(3); // not shared: scans nest
    pat[0] = s < 0 ? ANY : s;
    pat[1] = p < 0 ? ANY : p;
    pat[2] = o < 0 ? ANY : o;
    return t.scanner(pat, this.tripleView, (row) => (t.statusOf(row) & mask) === 0 || onMatch(t.get(row, 0), t.get(row, 1), t.get(row, 2), DEFAULT_GRAPH) !== true);
  }

  private scanner4(s: number, p: number, o: number, g: number, onMatch: MatchCallback): (budget: number) => boolean {
    const t = this.quads;
    const mask = this.mask;
    const pat = new Int32Array(4);
    pat[0] = s < 0 ? ANY : s;
    pat[1] = p < 0 ? ANY : p;
    pat[2] = o < 0 ? ANY : o;
    pat[3] = g < 0 ? ANY : g;
    return t.scanner(pat, this.quadView, (row) => (t.statusOf(row) & mask) === 0 || onMatch(t.get(row, 0), t.get(row, 1), t.get(row, 2), t.get(row, 3)) !== true);
  }
}
