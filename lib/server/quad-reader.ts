/**
 * Reading a store's quads as RDF/JS terms, pattern by pattern, from one state: what the api's
 * `match()`, `countQuads()` and dataset views read. A pattern's bound terms are looked up in the
 * store's indexes (a term the store lacks matches nothing); graphs the role may not read are
 * invisible; scans are resumable, so that a stream hands out its quads as they are asked for.
 * @module
 */
import type * as RDF from '@rdfjs/types/data-model.js';
import { DataFactory } from 'n3';
import type { TermDictionary } from '../model/dictionary.js';
import { keyToTerm, termToKey } from '../model/terms.js';
import type { FactAccess } from '../storage/fact-access.js';
import type { StoreState } from '../storage/fact-store.js';
import { DERIVED, EXPLICIT } from '../storage/tuple-table.js';
import { StoreQuadSource } from '../sparql/dataset.js';
import { ANY_NAMED_GRAPH, DEFAULT_GRAPH, UNBOUND } from '../sparql/quad-source.js';

/** A term of a pattern: undefined, null and variables match anything. */
export type PatternTerm = RDF.Term | null | undefined;

/** How many terms a reader keeps by id before it forgets them (a full scan meets every term). */
const TERM_CACHE_SIZE = 1 << 16;

/** A pattern as term ids: each position an id or UNBOUND, and the graphs to read (DEFAULT_GRAPH, ANY_NAMED_GRAPH or a graph's id). */
interface IdPattern {
  readonly s: number;
  readonly p: number;
  readonly o: number;
  readonly graphs: readonly number[];
}

/** Whether a pattern term matches anything. */
function open(term: PatternTerm): term is null | undefined | RDF.Variable {
  return term === undefined || term === null || term.termType === 'Variable';
}

/**
 * The quads of one store state that a role may read, by RDF/JS pattern (see the module's
 * header). A reader on a snapshot holds it until {@link QuadReader.release}.
 * @internal
 */
export class QuadReader {
  private readonly source: StoreQuadSource;
  private readonly terms = new Map<number, RDF.Term>();
  private readonly defaultGraph = DataFactory.defaultGraph();
  private released = false;

  /** A reader of `state`'s explicit and derived quads as `access` allows; `onRelease` lets the state go. */
  constructor(
    private readonly state: StoreState,
    private readonly dictionary: TermDictionary,
    private readonly access: FactAccess | undefined,
    private readonly onRelease: () => void = () => undefined,
  ) {
    this.source = new StoreQuadSource(state, dictionary, EXPLICIT | DERIVED, {}, access);
  }

  /** A source whose exact counts may be used now: only while the tables' running counts describe the state (it is the latest). */
  private counting(): StoreQuadSource | undefined {
    return this.state.countsExact ? new StoreQuadSource(this.state, this.dictionary, EXPLICIT | DERIVED, {}, this.access) : undefined;
  }

  /** Whether the reader was released. */
  get isReleased(): boolean {
    return this.released;
  }

  /** Lets the state go (once); the reader may not be used after. */
  release(): void {
    if (this.released) return;
    this.released = true;
    this.onRelease();
  }

  /** The id of a pattern's bound term, or undefined when the store lacks it. */
  private idOf(term: RDF.Term): number | undefined {
    if (term.termType !== 'NamedNode' && term.termType !== 'BlankNode' && term.termType !== 'Literal') return undefined;
    const id = this.dictionary.lookup(termToKey(term));
    return id < 0 ? undefined : id;
  }

  /** A pattern as ids, or undefined when nothing can match it. */
  private pattern(subject: PatternTerm, predicate: PatternTerm, object: PatternTerm, graph: PatternTerm): IdPattern | undefined {
    let s = UNBOUND;
    let p = UNBOUND;
    let o = UNBOUND;
    if (!open(subject)) {
      if (subject.termType === 'Literal') return undefined;
      const id = this.idOf(subject);
      if (id === undefined) return undefined;
      s = id;
    }
    if (!open(predicate)) {
      if (predicate.termType !== 'NamedNode') return undefined;
      const id = this.idOf(predicate);
      if (id === undefined) return undefined;
      p = id;
    }
    if (!open(object)) {
      const id = this.idOf(object);
      if (id === undefined) return undefined;
      o = id;
    }
    let graphs: readonly number[];
    if (open(graph)) graphs = [DEFAULT_GRAPH, ANY_NAMED_GRAPH];
    else if (graph.termType === 'DefaultGraph') graphs = [DEFAULT_GRAPH];
    else {
      if (graph.termType === 'Literal') return undefined;
      const id = this.idOf(graph);
      if (id === undefined) return undefined;
      graphs = [id];
    }
    return { s, p, o, graphs };
  }

  /** The RDF/JS term of an id (remembered for the next quads). */
  private term(id: number): RDF.Term {
    let term = this.terms.get(id);
    if (term === undefined) {
      if (this.terms.size >= TERM_CACHE_SIZE) this.terms.clear();
      term = keyToTerm(this.dictionary.keyOf(id));
      this.terms.set(id, term);
    }
    return term;
  }

  /** Fails once the reader was released. */
  private checkOpen(): void {
    if (this.released) throw new Error('the snapshot of this reader was released: it can no longer be read');
  }

  /**
   * The quads matching a pattern as a resumable scan: each call of the step function visits at
   * most `budget` stored rows, handing each match to `onQuad`, and returns true once the scan is
   * over. The graphs of a pattern without one are the default graph, then the named graphs.
   */
  matcher(subject: PatternTerm, predicate: PatternTerm, object: PatternTerm, graph: PatternTerm, onQuad: (quad: RDF.Quad) => void): (budget: number) => boolean {
    this.checkOpen();
    const pattern = this.pattern(subject, predicate, object, graph);
    if (pattern === undefined) return () => true;
    const steps = pattern.graphs.map((g) =>
      this.source.matcher(pattern.s, pattern.p, pattern.o, g, (s, p, o, gid) => {
        onQuad(DataFactory.quad(this.term(s) as RDF.Quad_Subject, this.term(p) as RDF.Quad_Predicate, this.term(o) as RDF.Quad_Object, gid === DEFAULT_GRAPH ? this.defaultGraph : (this.term(gid) as RDF.Quad_Graph)));
      }),
    );
    let at = 0;
    return (budget) => {
      this.checkOpen();
      while (at < steps.length && steps[at]!(budget)) at++;
      return at >= steps.length;
    };
  }

  /** The number of quads matching a pattern (a scan of the index the pattern's bound terms select). */
  count(subject: PatternTerm, predicate: PatternTerm, object: PatternTerm, graph: PatternTerm): number {
    this.checkOpen();
    const pattern = this.pattern(subject, predicate, object, graph);
    if (pattern === undefined) return 0;
    let n = 0;
    // the running counts of the tables, when they describe this state; else a scan
    const counting = this.counting();
    for (const g of pattern.graphs) {
      const exact = counting?.exactCount(pattern.s, pattern.p, pattern.o, g);
      if (exact !== undefined) n += exact;
      else this.source.match(pattern.s, pattern.p, pattern.o, g, () => void n++);
    }
    return n;
  }

  /** Whether a quad is in the state (and readable). */
  has(quad: RDF.Quad): boolean {
    this.checkOpen();
    const pattern = this.pattern(quad.subject, quad.predicate, quad.object, quad.graph ?? this.defaultGraph);
    if (pattern === undefined || pattern.s < 0 || pattern.p < 0 || pattern.o < 0) return false;
    let found = false;
    for (const g of pattern.graphs) if (!found) this.source.match(pattern.s, pattern.p, pattern.o, g, () => (found = true));
    return found;
  }
}
