/**
 * Property path patterns (`?s path ?o`) as solutions: the path's ends and graph under the
 * bindings, the graphs to evaluate it in, the zero-length rule for two variables (§18.5), and
 * closures with both ends free evaluated one start node at a time so that a long search can
 * yield to the event loop. The paths themselves are evaluated by {@link PathEvaluator}.
 * @module
 */
import { Algebra } from '../expressions/sparql-libraries.js';
import type { PatternRef } from './bgp.js';
import { PathEvaluator } from './paths.js';
import { type QuadSource, UNBOUND } from './quad-source.js';
import type { Emit } from './solutions.js';

/** What path patterns need of the engine evaluating them. */
export interface PathHost {
  /** The quads of the query's dataset. */
  readonly source: QuadSource;
  /** A term of a pattern as {id} or {slot}; the graph `DefaultGraph` is the active graph. */
  termRef(t: Algebra.Pattern['subject'], active: number): PatternRef;
  /** The named graphs of the dataset. */
  graphs(): readonly number[];
  /** Between batches: backpressure, then a yield when the time slice is used up (or an interrupt). */
  pauseBetweenBatches(): Promise<void>;
  /** Counts a step of the evaluation; throws when the time limit has passed or the query is interrupted. */
  readonly tick: () => void;
}

/** A path's ends and graph: references, values under the seed, graphs, and the zero-length rule. */
interface PathRefs {
  readonly sRef: PatternRef;
  readonly oRef: PatternRef;
  readonly gRef: PatternRef;
  readonly sv: number;
  readonly ov: number;
  readonly graphs: readonly number[];
  /** Both ends are variables and one is bound by the seed (then (x, x) needs x in the graph). */
  readonly seeded: boolean;
}

/** The path patterns of one query (with a {@link PathEvaluator} per graph: they cache closures for the query's lifetime). */
export class PathPatterns {
  private readonly evaluators = new Map<number, PathEvaluator>();

  /** @param host - the engine evaluating the query */
  constructor(private readonly host: PathHost) {}

  /** Evaluates a path pattern under `seed` in the active graph `active`, at once. */
  evaluate(op: Algebra.Path, seed: Int32Array, active: number, emit: Emit, r: PathRefs = this.refs(op, seed, active)): boolean {
    for (const g of r.graphs) {
      const stop = this.evaluator(g).evaluate(op.predicate, r.sv, r.ov, (s, o) => {
        const out = this.solution(r, seed, g, s, o);
        return out !== undefined && emit(out) === true;
      });
      if (stop) return true;
    }
    return false;
  }

  /**
   * A path evaluated at once, when that is how {@link PathPatterns.evaluateAsync} would
   * evaluate it too (not a closure with both ends free): the answer, else undefined. A join
   * that evaluates a path once per solution then pays no promise per solution.
   */
  evaluateNow(op: Algebra.Path, seed: Int32Array, active: number, emit: Emit): boolean | undefined {
    const closure = op.predicate.type === Algebra.types.ZERO_OR_MORE_PATH || op.predicate.type === Algebra.types.ONE_OR_MORE_PATH;
    const r = this.refs(op, seed, active);
    if (!closure || r.sv !== UNBOUND || r.ov !== UNBOUND) return this.evaluate(op, seed, active, emit, r);
    return undefined;
  }

  /**
   * A path; a closure (`*`, `+`) with both ends free runs one search per start node, with
   * backpressure and yields between batches of starts. Other paths are evaluated at once.
   */
  async evaluateAsync(op: Algebra.Path, seed: Int32Array, active: number, emit: Emit): Promise<boolean> {
    const now = this.evaluateNow(op, seed, active, emit);
    if (now !== undefined) return now;
    const closure = op.predicate as Algebra.ZeroOrMorePath | Algebra.OneOrMorePath;
    const r = this.refs(op, seed, active);
    for (const g of r.graphs) {
      const free = this.evaluator(g).freeClosure(closure.path, closure.type === Algebra.types.ZERO_OR_MORE_PATH);
      const sink = (s: number, o: number): boolean => {
        const out = this.solution(r, seed, g, s, o);
        return out !== undefined && emit(out) === true;
      };
      let batchStart = performance.now();
      for (const start of free.starts) {
        if (free.from(start, sink)) return true;
        if (performance.now() - batchStart > 1) {
          await this.host.pauseBetweenBatches();
          batchStart = performance.now();
        }
      }
    }
    return false;
  }

  /** The evaluator of paths in graph `g` (one per query and graph: it caches closures). */
  private evaluator(g: number): PathEvaluator {
    let paths = this.evaluators.get(g);
    if (!paths) this.evaluators.set(g, (paths = new PathEvaluator(this.host.source, g, this.host.tick)));
    return paths;
  }

  /** A path's ends and graph as references, their values under `seed`, and the graphs to evaluate it in. */
  private refs(op: Algebra.Path, seed: Int32Array, active: number): PathRefs {
    const sRef = this.host.termRef(op.subject, active);
    const oRef = this.host.termRef(op.object, active);
    const gRef = this.host.termRef(op.graph, active);
    const sv = 'id' in sRef ? sRef.id : seed[sRef.slot]!;
    const ov = 'id' in oRef ? oRef.id : seed[oRef.slot]!;
    const graphs: number[] = [];
    if ('id' in gRef) graphs.push(gRef.id);
    else if (seed[gRef.slot]! >= 0) graphs.push(seed[gRef.slot]!);
    else if (seed[gRef.slot]! === -1) graphs.push(...this.host.graphs());
    // With variables at both ends, the zero-length part of a path relates only the nodes of
    // the graph (§18.5, ZeroLengthPath between two variables): a binding substituted from the
    // seed that is not a node of the graph must not be related to itself. A pair (x, x) with
    // such an x can only come from the zero-length part (any step would put x in the graph).
    const seeded = 'slot' in sRef && 'slot' in oRef && (sv !== UNBOUND || ov !== UNBOUND);
    return { sRef, oRef, gRef, sv, ov, graphs, seeded };
  }

  /** The solution a path pair (s, o) in graph g gives under `seed`, or undefined. */
  private solution(r: PathRefs, seed: Int32Array, g: number, s: number, o: number): Int32Array | undefined {
    if (r.seeded && s === o && !this.isNode(s, g)) return undefined;
    const out = seed.slice();
    if ('slot' in r.sRef) {
      if (out[r.sRef.slot]! === -1) out[r.sRef.slot] = s;
      else if (out[r.sRef.slot] !== s) return undefined;
    }
    if ('slot' in r.oRef) {
      if (out[r.oRef.slot]! === -1) out[r.oRef.slot] = o;
      else if (out[r.oRef.slot] !== o) return undefined;
    }
    if ('slot' in r.gRef && out[r.gRef.slot]! === -1) out[r.gRef.slot] = g;
    return out;
  }

  /** Whether a term occurs in a graph as a subject or an object. */
  private isNode(id: number, graph: number): boolean {
    if (id < 0) return false;
    const found = (): boolean => true;
    const source = this.host.source;
    return source.match(id, UNBOUND, UNBOUND, graph, found) || source.match(UNBOUND, UNBOUND, id, graph, found);
  }
}
