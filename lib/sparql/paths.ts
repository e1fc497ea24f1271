/**
 * SPARQL 1.1 property path evaluation (§9, §18.4/§18.5 of the Recommendation) over term ids.
 *
 * Paths arrive as sparqlalgebrajs algebra ({@link Algebra.PropertyPathSymbol}). sparqlalgebrajs
 * already rewrites top-level `link`, `inv` and `seq` paths into triple patterns, so what reaches
 * this module is usually an `alt`, a closure (`*`, `+`, `?`) or a negated property set, whose
 * operands can be any path again. A negated property set mixing forward and inverse members,
 * `!(:p|^:q)`, is given as `alt(nps([:p]), inv(nps([:q])))`, exactly the spec's translation, so it
 * needs no special handling here.
 *
 * Multiplicities follow the spec's evaluation rules:
 * - `link` (one solution per matching triple), `inv`, `seq` (a join through a fresh variable:
 *   one solution per intermediate node combination) and `alt` (multiset union) keep duplicates;
 * - `nps` is defined as a set (`{ μ | ∃ triple(μ(x) p μ(y)) in G, p ∉ S }`), so two triples
 *   `:a :p :b`, `:a :q :b` give `:a !:r :b` once;
 * - `ZeroOrMorePath`, `OneOrMorePath` and `ZeroOrOnePath` give distinct (s, o) pairs (ALP).
 *
 * Evaluation always starts from a bound end: with only the object bound the path is walked in
 * reverse (sequences right to left, closures by a backward breadth-first search). Closures use a
 * breadth-first search with a visited set of ids, so cycles terminate; with both ends unbound the
 * one-step pairs are found once and the search runs over them from every start (O(nodes × reach)
 * steps on arrays, without touching the store again).
 * @module
 */

import { Algebra } from '../expressions/sparql-libraries.js';
import { ANY_NAMED_GRAPH, UNBOUND } from './quad-source.js';
import type { QuadSource } from './quad-source.js';

/** Receives one path solution; returning true stops the evaluation. */
export type PairSink = (s: number, o: number) => boolean | void;

/** Receives one node reached by a closure search; returning true stops the search. */
type NodeSink = (node: number) => boolean;

/**
 * Evaluates `path` between `subject` and `object` (term ids, or UNBOUND) in `graph`
 * (DEFAULT_GRAPH or a graph term id; the caller iterates named graphs itself).
 *
 * Calls `emit(s, o)` for each solution, with the multiplicity SPARQL 1.1 §18.4/§18.5 prescribes:
 * `link`, `inv`, `seq` (a join, bag semantics) and `alt` (bag union) keep duplicates; the negated
 * property set, `ZeroOrMorePath`, `OneOrMorePath` and `ZeroOrOnePath` produce distinct (s, o)
 * pairs. Zero-length paths relate every node of the graph (every subject and object, from
 * {@link QuadSource.nodes}) to itself, and a bound end that does not occur in the graph to itself
 * too (`<x> :p* ?o` gives `?o = <x>` even when `<x>` is absent). Cycles terminate.
 *
 * When subject and object are the same variable the caller passes UNBOUND for both and keeps
 * only the pairs with `s === o`.
 *
 * IRIs of the path are resolved with {@link QuadSource.iriId}; an unknown IRI makes its `link`
 * match nothing (zero-length paths still apply) and is simply absent from a negated set.
 * The source may be called re-entrantly (a `match` from inside another `match` callback).
 *
 * @param path - The property path expression.
 * @param subject - The subject's term id (non-negative, possibly absent from the graph), a
 *   query-local id (below -1: a term the store does not hold, which only the zero-length part
 *   relates to itself), or UNBOUND.
 * @param object - The object's term id, as for `subject`.
 * @param graph - DEFAULT_GRAPH or a named graph's term id; ANY_NAMED_GRAPH is rejected, since a
 *   path must stay within one graph.
 * @param source - The quads to evaluate against.
 * @param emit - Receives each solution; returning true stops the evaluation.
 * @returns true when `emit` returned true (evaluation stopped early), false otherwise.
 * @throws RangeError when `graph` is ANY_NAMED_GRAPH.
 */
export function evaluatePath(
  path: Algebra.PropertyPathSymbol,
  subject: number,
  object: number,
  graph: number,
  source: QuadSource,
  emit: (s: number, o: number) => boolean | void,
): boolean {
  if (graph === ANY_NAMED_GRAPH) {
    throw new RangeError('evaluatePath needs one graph: iterate the named graphs and evaluate the path in each');
  }
  return new PathEvaluator(source, graph).evaluate(path, subject, object, emit);
}

/** The most node ids a {@link PathEvaluator} keeps in its closure cache. */
const REACH_CACHE_LIMIT = 1 << 20;

/**
 * Evaluates paths in one graph of a source that does not change while the evaluator lives (a
 * query's snapshot), remembering IRI ids and, up to a limit, the nodes a closure reaches from
 * each start, so that a path joined with many bindings of the same node searches once.
 */
export class PathEvaluator {
  private readonly iriIds = new Map<string, number>();
  private readonly reached = new Map<Algebra.PropertyPathSymbol, Map<number, readonly number[]>>();
  private cached = 0;

  /** What the evaluator reads of the source: every stored row and node it visits first calls `tick` when given. */
  private readonly source: Pick<QuadSource, 'match' | 'nodes' | 'iriId'>;

  /**
   * An evaluator over `graph` (DEFAULT_GRAPH or a named graph's id) of `source`; `tick` runs for
   * every triple and node visited (it throws to stop the evaluation: the time limit, an interrupt).
   */
  constructor(
    source: QuadSource,
    private readonly graph: number,
    tick?: () => void,
  ) {
    this.source = tick === undefined
      ? source
      : {
          match: (s, p, o, g, onMatch) =>
            source.match(s, p, o, g, (ms, mp, mo, mg) => {
              tick();
              return onMatch(ms, mp, mo, mg);
            }),
          nodes: (g, onNode) =>
            source.nodes(g, (node) => {
              tick();
              return onNode(node);
            }),
          iriId: (iri) => source.iriId(iri),
        };
  }

  /** Evaluates `path` between `s` and `o` (ids or UNBOUND); true when `emit` asked to stop. */
  evaluate(path: Algebra.PropertyPathSymbol, s: number, o: number, emit: PairSink): boolean {
    switch (path.type) {
      case Algebra.types.LINK:
        return this.link(this.iriId(path.iri.value), s, o, emit);
      case Algebra.types.INV:
        return this.evaluate(path.path, o, s, (a, b) => emit(b, a));
      case Algebra.types.SEQ:
        return this.seq(path.input, s, o, emit);
      case Algebra.types.ALT:
        for (const input of path.input) {
          if (this.evaluate(input, s, o, emit)) return true;
        }
        return false;
      case Algebra.types.NPS:
        return this.nps(this.excludedSet(path.iris), s, o, emit);
      case Algebra.types.ZERO_OR_ONE_PATH:
        return this.zeroOrOne(path.path, s, o, emit);
      case Algebra.types.ZERO_OR_MORE_PATH:
        return this.closure(path.path, true, s, o, emit);
      case Algebra.types.ONE_OR_MORE_PATH:
        return this.closure(path.path, false, s, o, emit);
      default: {
        const unexpected: never = path;
        throw new Error(`Unsupported property path operator: ${(unexpected as { type: string }).type}`);
      }
    }
  }

  /** The id of an IRI (cached), or -1 when the store has no such term. */
  private iriId(iri: string): number {
    let id = this.iriIds.get(iri);
    if (id === undefined) {
      id = this.source.iriId(iri);
      this.iriIds.set(iri, id);
    }
    return id;
  }

  /** `link(iri)`: one solution per matching triple. */
  private link(predicate: number, s: number, o: number, emit: PairSink): boolean {
    // a term the store does not hold (id below -1) is in no triple; to the source it would be a wildcard
    if (predicate < 0 || s < UNBOUND || o < UNBOUND) return false;
    return this.source.match(s, predicate, o, this.graph, (ms, _p, mo) => emit(ms, mo) === true);
  }

  /** The ids of a negated set's IRIs; unknown IRIs exclude nothing. */
  private excludedSet(iris: readonly { value: string }[]): Set<number> {
    const excluded = new Set<number>();
    for (const iri of iris) {
      const id = this.iriId(iri.value);
      if (id >= 0) excluded.add(id);
    }
    return excluded;
  }

  /** `seq`: a join through the intermediate nodes, walked from the bound end. */
  private seq(inputs: readonly Algebra.PropertyPathSymbol[], s: number, o: number, emit: PairSink): boolean {
    if (inputs.length === 0) return this.zeroLength(s, o, emit);
    if (s === UNBOUND && o !== UNBOUND) return this.seqBackward(inputs, inputs.length - 1, o, emit);
    return this.seqForward(inputs, 0, s, o, emit);
  }

  /** Solutions of `inputs[i..]` from `s` (id or UNBOUND) to `o`, left to right. */
  private seqForward(inputs: readonly Algebra.PropertyPathSymbol[], i: number, s: number, o: number, emit: PairSink): boolean {
    const step = pathAt(inputs, i);
    if (i === inputs.length - 1) return this.evaluate(step, s, o, emit);
    return this.evaluate(step, s, UNBOUND, (a, mid) =>
      this.seqForward(inputs, i + 1, mid, o, (_mid, b) => emit(a, b)));
  }

  /** Solutions of `inputs[..j]` from an unbound subject to the bound `o`, right to left. */
  private seqBackward(inputs: readonly Algebra.PropertyPathSymbol[], j: number, o: number, emit: PairSink): boolean {
    const step = pathAt(inputs, j);
    if (j === 0) return this.evaluate(step, UNBOUND, o, emit);
    return this.evaluate(step, UNBOUND, o, (mid, b) =>
      this.seqBackward(inputs, j - 1, mid, (a) => emit(a, b)));
  }

  /** A negated property set: distinct (s, o) pairs linked by a triple whose predicate is not excluded. */
  private nps(excluded: ReadonlySet<number>, s: number, o: number, emit: PairSink): boolean {
    const { source, graph } = this;
    if (s < UNBOUND || o < UNBOUND) return false;
    if (s !== UNBOUND && o !== UNBOUND) {
      let found = false;
      source.match(s, UNBOUND, o, graph, (_s, p) => {
        if (excluded.has(p)) return false;
        found = true;
        return true;
      });
      return found && emit(s, o) === true;
    }
    if (s !== UNBOUND) {
      const seen = new Set<number>();
      return source.match(s, UNBOUND, UNBOUND, graph, (_s, p, mo) => {
        if (excluded.has(p) || seen.has(mo)) return false;
        seen.add(mo);
        return emit(s, mo) === true;
      });
    }
    if (o !== UNBOUND) {
      const seen = new Set<number>();
      return source.match(UNBOUND, UNBOUND, o, graph, (ms, p) => {
        if (excluded.has(p) || seen.has(ms)) return false;
        seen.add(ms);
        return emit(ms, o) === true;
      });
    }
    // Subject by subject, so that distinctness only needs a set of the current subject's objects.
    return source.nodes(graph, (node) => this.nps(excluded, node, UNBOUND, emit));
  }

  /** The zero-length path: every node of the graph to itself, or a bound end to itself. */
  private zeroLength(s: number, o: number, emit: PairSink): boolean {
    if (s !== UNBOUND && o !== UNBOUND) return s === o && emit(s, o) === true;
    if (s !== UNBOUND) return emit(s, s) === true;
    if (o !== UNBOUND) return emit(o, o) === true;
    return this.source.nodes(this.graph, (node) => emit(node, node) === true);
  }

  /** `path?`: the zero-length pairs and the one-step pairs, distinct. */
  private zeroOrOne(path: Algebra.PropertyPathSymbol, s: number, o: number, emit: PairSink): boolean {
    if (s !== UNBOUND && o !== UNBOUND) {
      if (s === o || this.holds(path, s, o)) return emit(s, o) === true;
      return false;
    }
    if (s !== UNBOUND) {
      if (emit(s, s) === true) return true;
      const seen = new Set<number>([s]);
      return this.evaluate(path, s, UNBOUND, (_a, b) => {
        if (seen.has(b)) return false;
        seen.add(b);
        return emit(s, b) === true;
      });
    }
    if (o !== UNBOUND) {
      if (emit(o, o) === true) return true;
      const seen = new Set<number>([o]);
      return this.evaluate(path, UNBOUND, o, (a) => {
        if (seen.has(a)) return false;
        seen.add(a);
        return emit(a, o) === true;
      });
    }
    // Every node is a start; every end of a non-empty path is a node of the graph.
    return this.source.nodes(this.graph, (node) => this.zeroOrOne(path, node, UNBOUND, emit));
  }

  /** `path*` (`includeZero`) or `path+`: distinct pairs of the transitive (reflexive) closure. */
  private closure(path: Algebra.PropertyPathSymbol, includeZero: boolean, s: number, o: number, emit: PairSink): boolean {
    if (s !== UNBOUND && o !== UNBOUND) {
      if (includeZero && s === o) return emit(s, o) === true;
      const reached = this.search(path, s, true, includeZero, (node) => node === o);
      return reached && emit(s, o) === true;
    }
    if (s !== UNBOUND) {
      for (const node of this.reach(path, s, true, includeZero)) if (emit(s, node) === true) return true;
      return false;
    }
    if (o !== UNBOUND) {
      for (const node of this.reach(path, o, false, includeZero)) if (emit(node, o) === true) return true;
      return false;
    }
    const free = this.freeClosure(path, includeZero);
    for (const start of free.starts) if (free.from(start, emit)) return true;
    return false;
  }

  /**
   * `path*` (`includeZero`) or `path+` with both ends free, as the nodes a search starts from
   * and the search from one of them: the one-step pairs are found once, as successor lists, and
   * each search runs over those. The pairs of all the searches are the closure's distinct pairs.
   */
  freeClosure(path: Algebra.PropertyPathSymbol, includeZero: boolean): { readonly starts: readonly number[]; readonly from: (start: number, emit: PairSink) => boolean } {
    const next = new Map<number, number[]>();
    this.evaluate(path, UNBOUND, UNBOUND, (a, b) => {
      const list = next.get(a);
      if (list) list.push(b);
      else next.set(a, [b]);
    });
    const seen = new Map<number, number>(); // node → the search that reached it last
    let searchId = 0;
    const from = (start: number, emit: PairSink): boolean => {
      const id = ++searchId;
      if (includeZero) {
        seen.set(start, id);
        if (emit(start, start) === true) return true;
      }
      const queue = [start];
      for (let head = 0; head < queue.length; head++) {
        const successors = next.get(queue[head]!);
        if (!successors) continue;
        for (const node of successors) {
          if (seen.get(node) === id) continue;
          seen.set(node, id);
          if (node !== start) queue.push(node);
          if (emit(start, node) === true) return true;
        }
      }
      return false;
    };
    // `path*` relates every node to itself; `path+` can only start where one step starts
    const starts: number[] = [];
    if (includeZero) this.source.nodes(this.graph, (node) => void starts.push(node));
    else starts.push(...next.keys());
    return { starts, from };
  }

  /** Every node {@link PathEvaluator.search} reaches from `start`, in search order (cached). */
  private reach(path: Algebra.PropertyPathSymbol, start: number, forward: boolean, includeZero: boolean): readonly number[] {
    let byStart = this.reached.get(path);
    if (!byStart) this.reached.set(path, (byStart = new Map<number, readonly number[]>()));
    const key = start * 4 + (forward ? 2 : 0) + (includeZero ? 1 : 0);
    let nodes = byStart.get(key);
    if (!nodes) {
      const found: number[] = [];
      this.search(path, start, forward, includeZero, (node) => {
        found.push(node);
        return false;
      });
      nodes = found;
      if (this.cached + found.length <= REACH_CACHE_LIMIT) {
        byStart.set(key, found);
        this.cached += found.length + 1;
      }
    }
    return nodes;
  }

  /**
   * Breadth-first search of the nodes reachable from `start` by repeating `path` (forward) or its
   * inverse (backward); each reached node is visited once, `start` itself only when `includeZero`
   * or when a cycle leads back to it. True when `visit` returned true.
   */
  private search(path: Algebra.PropertyPathSymbol, start: number, forward: boolean, includeZero: boolean, visit: NodeSink): boolean {
    const visited = new Set<number>();
    if (includeZero) {
      visited.add(start);
      if (visit(start)) return true;
    }
    const queue: number[] = [start];
    const reach = (node: number): boolean => {
      if (visited.has(node)) return false;
      visited.add(node);
      // `start` was expanded first; reaching it again (a cycle) adds nothing new to expand.
      if (node !== start) queue.push(node);
      return visit(node);
    };
    for (let head = 0; head < queue.length; head++) {
      const node = queue[head] as number;
      const stopped = forward
        ? this.evaluate(path, node, UNBOUND, (_a, b) => reach(b))
        : this.evaluate(path, UNBOUND, node, (a) => reach(a));
      if (stopped) return true;
    }
    return false;
  }

  /** Whether `path` relates the bound `s` to the bound `o` at least once. */
  private holds(path: Algebra.PropertyPathSymbol, s: number, o: number): boolean {
    let found = false;
    this.evaluate(path, s, o, () => {
      found = true;
      return true;
    });
    return found;
  }
}

/** `paths[i]`, which the callers keep in range. */
function pathAt(paths: readonly Algebra.PropertyPathSymbol[], i: number): Algebra.PropertyPathSymbol {
  const path = paths[i];
  if (path === undefined) throw new RangeError(`No path operand at index ${i}`);
  return path;
}
