/**
 * Evaluating SPARQL algebra (sparqlalgebrajs) over a {@link QuadSource}.
 *
 * Solutions are Int32Arrays of term ids, one slot per variable of the query (-1 unbound).
 * Operators push solutions to a callback (returning true stops the evaluation), so answers
 * stream; ORDER BY, GROUP BY, MINUS and joins whose right side cannot take bindings hold
 * what they need. A join feeds the left solution into the right side as bindings when the
 * right side is made only of patterns, paths, VALUES, unions, joins and GRAPH blocks of those
 * (where substituting bindings is the same as joining); everything else is evaluated on its
 * own and joined.
 *
 * Every operator is evaluated against an active graph: the default graph of the dataset, or
 * a named graph inside `GRAPH`. Queries are translated without quads, so `GRAPH` operators
 * stay in the algebra and a triple pattern (graph term `DefaultGraph`) matches in the active
 * graph; `GRAPH ?g { P }` evaluates P once per named graph, with that graph active, and joins
 * the result with `?g` bound to the graph (§18.6, eval(D(G), Graph(var, P))). Patterns that
 * carry their own graph (updates are translated with quads) keep it.
 *
 * Queries run through {@link Engine.runAsync}: basic graph patterns become an iterative join
 * over resumable scans, one stored row per step, and closures with both ends free search one
 * start node at a time, so that the evaluation can stop for backpressure, yield to the event
 * loop and be interrupted at any depth. Operators over one input (filters, projections,
 * slices, optionals, MINUS, ordering, grouping) are shared by both ways of running
 * ({@link SingleInputOperator}); what runs inside a join for each binding stays synchronous.
 * @module
 */
import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import { Algebra } from '../expressions/sparql-libraries.js';
import { InterruptedError, QueryCompilationError } from '../model/errors.js';
import { compareForOrder, compileExpression, effectiveBooleanValue, type EvaluationContext, ExpressionError, forEachVariable, type Value } from '../expressions/index.js';
import type { Interrupter } from '../model/control.js';
import { PathEvaluator } from './paths.js';
import { ExistsIndex, JoinIndex, MinusIndex, patternProbe } from './anti-join.js';
import { type AggregateSpec, Grouping } from './grouping.js';
import { JoinOrders, type PatternRef } from './join-order.js';
import { memoized } from './memo.js';
import { aggregateValueBytes, groupBytes, HOLDERS, keyBytes, type QueryBudget, solutionBytes, sortRowBytes, timeWaiting } from './query-budget.js';
import { ANY_NAMED_GRAPH, DEFAULT_GRAPH, type QuadSource, UNBOUND } from './quad-source.js';
import type { QueryTerm, QueryTerms } from './query-terms.js';
import { describeTupleAtom, type TupleAtomPlan, type TupleAtomSplit, tupleAtomsOf, type TupleTableReader } from './tuple-table-access.js';

/** Receives solutions; returning true stops the evaluation. */
export type Emit = (solution: Int32Array) => boolean | void;

/**
 * An operator over the solutions of one input: the input (evaluated under `seed`), the
 * callback its solutions go to, and what to do once it is exhausted (`stopped`: whether the
 * callback asked to stop); the result says whether the caller must stop.
 */
interface SingleInputOperator {
  readonly input: Op;
  readonly seed: Int32Array;
  readonly emit: Emit;
  readonly finish?: (stopped: boolean) => boolean;
}

/** The steps of a basic graph pattern's join plan over one shared solution. */
interface BgpPlan {
  /** The number of patterns. */
  readonly size: number;
  /** The shared solution the steps bind. */
  readonly solution: Int32Array;
  /** Binds the slots of the k-th pattern to a match (s, p, o, g); false (nothing bound) when it conflicts. */
  readonly bindAt: (k: number, match: ArrayLike<number>) => boolean;
  /** Unbinds what the last {@link BgpPlan.bindAt} of the k-th pattern bound. */
  readonly unbindAt: (k: number) => void;
  /** Matches the patterns from the k-th on (in plan order), emitting each full solution. */
  readonly step: (k: number) => boolean;
  /** The match arguments of the k-th pattern under the current bindings; undefined when nothing can match. */
  readonly argsOf: (k: number) => [number, number, number, number] | undefined;
  /** The callback binding a match of the k-th pattern and going on with the next ones. */
  readonly onMatchAt: (k: number) => (s: number, p: number, o: number, g: number) => boolean;
}

/** A basic graph pattern's positions (per pattern: subject, predicate, object, graph) and its join orders. */
interface PreparedBgp {
  readonly compiled: ReadonlyArray<readonly [PatternRef, PatternRef, PatternRef, PatternRef]>;
  readonly orders: JoinOrders;
}

/** A path's ends and graph: references, values under the seed, graphs, and the zero-length rule. */
interface PathRefs {
  readonly sRef: { slot: number } | { id: number };
  readonly oRef: { slot: number } | { id: number };
  readonly gRef: { slot: number } | { id: number };
  readonly sv: number;
  readonly ov: number;
  readonly graphs: readonly number[];
  /** Both ends are variables and one is bound by the seed (then (x, x) needs x in the graph). */
  readonly seeded: boolean;
}

/** The solution an expression reads before its first evaluation. */
const EMPTY_ROW = new Int32Array(0);

/** Solutions a `FILTER (NOT) EXISTS` tests one by one before it evaluates its pattern once for all ({@link ExistsIndex}). */
const EXISTS_ONE_BY_ONE = 16;

/** About how many solutions of a pattern can be hashed in the time one test with bindings (a plan and a probe) takes. */
const SOLUTIONS_PER_TEST = 64;

/** Rows the scan of a basic graph pattern's last pattern visits per step of the join loop. */
const LAST_SCAN_BATCH = 16;

/** Raised when a query uses something the engine does not evaluate (SERVICE). */
export class UnsupportedQueryError extends QueryCompilationError {}

type Op = Algebra.Operation;

/** Prefix of the labels of blank nodes made by BNODE() (random, so that they do not meet the store's). */
const BNODE_PREFIX = `q${Math.floor(Math.random() * 0x100000).toString(36)}_`;
let bnodeCounter = 0;

/** Evaluates the algebra of one query. */
export class Engine {
  /** Slot of each variable name. */
  readonly slots = new Map<string, number>();
  private readonly now = new Date();
  /** The role evaluating the query, for AGENT() (undefined: AGENT() is an error). */
  agent: string | undefined;
  private ticks = 0;
  /** performance.now() after which evaluation stops with InterruptedError (Infinity: no limit). */
  deadline = Infinity;
  /** What the evaluation may hold in memory (query-budget.ts; undefined: no limit). */
  budget: QueryBudget | undefined;
  /** The path evaluator of each graph (they cache closures for the query's lifetime). */
  private readonly pathEvaluators = new Map<number, PathEvaluator>();
  /** The named graphs of the dataset (computed on first use). */
  private graphList: number[] | undefined;
  private graphSet: Set<number> | undefined;
  /** The solution whose expressions are being evaluated (for BNODE(label)). */
  private current: Int32Array | undefined;
  /** BNODE(label) nodes of each solution; solutions extended by BIND or SELECT expressions share their input's. */
  private readonly bnodeScopes = new WeakMap<Int32Array, Map<string, RDF.BlankNode>>();
  /** Reads tuple table atoms (`TT name { … }`, `(…) rdfox:TT "name"`); without it, a query using them fails. */
  tupleTables: TupleTableReader | undefined;
  /** The prepared basic graph patterns (by their pattern list, or their one pattern), per active graph and graph slot. */
  private readonly preparedBgps = new WeakMap<object, Map<number | string, PreparedBgp | null>>();
  /** The plans of the tuple table atoms of each basic graph pattern that has some. */
  private readonly tuplePlans = new Map<TupleAtomSplit, TupleAtomPlan>();

  /** Prepares an evaluation. */
  constructor(
    private readonly source: QuadSource,
    /** The query's term ids. */
    readonly terms: QueryTerms,
    private readonly interrupter: Interrupter,
    private readonly baseIRI: string | undefined,
    private readonly namedGraphs: () => number[],
  ) {}

  /** Every 1024 steps: stop when interrupted or past the deadline. */
  private tick(): void {
    if ((++this.ticks & 1023) === 0) {
      this.interrupter.check();
      if (performance.now() > this.deadline) throw new InterruptedError('the query exceeded its time limit');
    }
  }

  /** When set, every distinct join order chosen for a basic graph pattern is described here. */
  plan: string[] | undefined;

  private logOrder(patterns: readonly Algebra.Pattern[], order: readonly number[], seed: Int32Array): void {
    const name = (t: RDF.Term): string => (t.termType === 'Variable' ? `?${t.value}` : t.termType === 'DefaultGraph' ? '' : t.termType === 'Literal' ? JSON.stringify(t.value) : `<${t.value}>`);
    const preBound = [...this.slots].filter(([, s]) => seed[s]! !== -1).map(([n]) => `?${n}`);
    const lines = order.map((i, k) => {
      const p = patterns[i]!;
      const g = name(p.graph);
      return `  ${k + 1}. ${name(p.subject)} ${name(p.predicate)} ${name(p.object)}${g ? ` ${g}` : ''}`;
    });
    const text = `join order${preBound.length > 0 ? ` (bound: ${preBound.join(' ')})` : ''}:\n${lines.join('\n')}`;
    if (!this.plan!.includes(text)) this.plan!.push(text);
  }

  /** The slot of a variable (allocated on first use). */
  slot(name: string): number {
    let s = this.slots.get(name);
    if (s === undefined) {
      s = this.slots.size;
      this.slots.set(name, s);
    }
    return s;
  }

  /** Allocates slots for every variable of an operation (call before evaluating). */
  collectVariables(op: unknown): void {
    forEachVariable(op, (name) => void this.slot(name));
  }

  /** A fresh solution with every slot unbound. */
  empty(): Int32Array {
    return new Int32Array(this.slots.size).fill(-1);
  }

  /** All solutions of `op` against the default graph (for operators that need them at once). */
  collect(op: Op, seed: Int32Array): Int32Array[] {
    return this.collectIn(op, seed, DEFAULT_GRAPH);
  }

  private collectIn(op: Op, seed: Int32Array, active: number): Int32Array[] {
    const out: Int32Array[] = [];
    const held = this.budget?.account(HOLDERS.held);
    this.evaluate(op, seed, active, (s) => {
      held?.add(solutionBytes(s.length));
      out.push(s);
    });
    return out;
  }

  /** The named graphs of the dataset. */
  private graphs(): number[] {
    return (this.graphList ??= this.namedGraphs());
  }

  private isNamedGraph(id: number): boolean {
    return (this.graphSet ??= new Set(this.graphs())).has(id);
  }

  /** Evaluates `op` under `seed` with `active` (DEFAULT_GRAPH or a named graph's id) as the active graph. */
  private evaluate(op: Op, seed: Int32Array, active: number, emit: Emit): boolean {
    this.tick();
    const u = this.singleInputOperator(op, seed, active, emit);
    if (u) {
      const stopped = this.evaluate(u.input, u.seed, active, u.emit);
      return u.finish ? u.finish(stopped) : stopped;
    }
    switch (op.type) {
      case Algebra.types.BGP:
        return this.bgp(op.patterns, seed, active, emit);
      case Algebra.types.PATTERN:
        return this.bgp([op], seed, active, emit);
      case Algebra.types.PATH:
        return this.path(op, seed, active, emit);
      case Algebra.types.JOIN:
        return this.join(op.input, 0, seed, active, emit);
      case Algebra.types.UNION:
        for (const child of op.input) if (this.evaluate(child, seed, active, emit)) return true;
        return false;
      case Algebra.types.VALUES:
        return this.values(op, seed, emit);
      case Algebra.types.GRAPH:
        return this.graph(op, seed, emit);
      case Algebra.types.SLICE: // LIMIT 0 (any other slice is unary)
        return false;
      case Algebra.types.GROUP: // COUNT(*) from the counts (any other grouping is unary)
        return this.emitCountStar(op, seed, active, emit);
      case Algebra.types.NOP:
        return emit(seed.slice()) === true;
      case Algebra.types.SERVICE:
        throw new UnsupportedQueryError('SERVICE (federated query) is not supported');
      default:
        throw new UnsupportedQueryError(`unsupported query operation '${op.type}'`);
    }
  }

  /**
   * Evaluates `op` under `seed` bindings against the default graph, pushing solutions (which
   * include the seed), and lets the event loop in: basic graph patterns (through filters,
   * projections, slices, joins, optionals, unions, ordering and grouping) advance one stored
   * row per step, and closures with both ends free one start node at a time; in between the
   * engine waits for {@link Engine.pause} and yields when its time slice is used up, stopping
   * there when interrupted. What runs for each binding inside a join stays synchronous.
   */
  runAsync(op: Op, seed: Int32Array, emit: Emit): Promise<boolean> {
    return this.evaluateAsync(op, seed, DEFAULT_GRAPH, emit);
  }

  /** Called between batches of the driving scan; a promise it returns is awaited (backpressure). */
  pause: (() => Promise<void> | undefined) | undefined;

  private async evaluateAsync(op: Op, seed: Int32Array, active: number, emit: Emit): Promise<boolean> {
    const u = this.singleInputOperator(op, seed, active, emit);
    if (u) {
      const stopped = await this.evaluateAsync(u.input, u.seed, active, u.emit);
      return u.finish ? u.finish(stopped) : stopped;
    }
    switch (op.type) {
      case Algebra.types.BGP:
        return this.bgpAsync(op.patterns, seed, active, emit);
      case Algebra.types.PATTERN:
        return this.bgpAsync([op], seed, active, emit);
      case Algebra.types.PATH:
        return this.pathAsync(op, seed, active, emit);
      case Algebra.types.JOIN: {
        const held = new Map<number, Int32Array[]>();
        return this.evaluateAsync(op.input[0]!, seed, active, (s) => this.join(op.input, 1, s, active, emit, held));
      }
      case Algebra.types.UNION:
        for (const child of op.input) if (await this.evaluateAsync(child, seed, active, emit)) return true;
        return false;
      case Algebra.types.GRAPH:
        if (op.name.termType === 'Variable' && seed[this.slot(op.name.value)]! === -1 && op.input.type === Algebra.types.BGP && op.input.patterns.length > 0) {
          return this.bgpAsync(op.input.patterns, seed, DEFAULT_GRAPH, emit, this.slot(op.name.value));
        }
        return this.evaluate(op, seed, active, emit);
      default:
        return this.evaluate(op, seed, active, emit);
    }
  }

  /**
   * The operators that transform the solutions of one input (evaluated with `seed`): the
   * callback that transforms them, and what to do once the input is exhausted (ORDER BY and
   * GROUP BY emit then). Undefined for every other operator.
   */
  private singleInputOperator(op: Op, seed: Int32Array, active: number, emit: Emit): SingleInputOperator | undefined {
    switch (op.type) {
      case Algebra.types.FILTER: {
        const test = this.existsFilter(op.expression, active) ?? memoized(op.expression, (name) => this.slot(name), this.condition(op.expression, active));
        return { input: op.input, seed, emit: (s) => (test(s) ? emit(s) : false) };
      }
      case Algebra.types.EXTEND: {
        const f = this.expression(op.expression, active);
        // the id of the value (undefined: an error), once per distinct input when the expression allows
        const idOf = memoized(op.expression, (name) => this.slot(name), (s: Int32Array): number | undefined => {
          const v = f(s);
          return v === undefined ? undefined : this.terms.idOf(v);
        });
        const slot = this.slot(op.variable.value);
        return {
          input: op.input,
          seed,
          emit: (s) => {
            if (s[slot]! !== -1) return emit(s) === true;
            const id = idOf(s);
            if (id === undefined) return emit(s) === true;
            const out = s.slice();
            out[slot] = id;
            // the extended solution is the same solution: BNODE(label) keeps its nodes
            const scope = this.bnodeScopes.get(s);
            if (scope) this.bnodeScopes.set(out, scope);
            return emit(out) === true;
          },
        };
      }
      case Algebra.types.PROJECT:
        return this.project(op, seed, emit);
      case Algebra.types.DISTINCT:
      case Algebra.types.REDUCED: {
        const seen = new Set<string>();
        const held = this.budget?.account(HOLDERS.distinct);
        return {
          input: op.input,
          seed,
          emit: (s) => {
            const k = s.join(',');
            if (seen.has(k)) return false;
            held?.add(keyBytes(k));
            seen.add(k);
            return emit(s) === true;
          },
          finish: (stopped) => {
            held?.release();
            return stopped;
          },
        };
      }
      case Algebra.types.SLICE: {
        let skip = op.start;
        let left = op.length ?? Infinity;
        if (left <= 0) return undefined;
        // a slice stops its input when full; only a stop from downstream stops the caller
        let stopped = false;
        return {
          input: op.input,
          seed,
          emit: (s) => {
            if (skip > 0) {
              skip--;
              return false;
            }
            if (emit(s)) {
              stopped = true;
              return true;
            }
            return --left <= 0;
          },
          finish: () => stopped,
        };
      }
      case Algebra.types.FROM:
        return { input: op.input, seed, emit };
      case Algebra.types.LEFT_JOIN:
        return this.leftJoin(op, active, emit, seed);
      case Algebra.types.MINUS:
        return this.minus(op, active, emit, seed);
      case Algebra.types.ORDER_BY:
        return this.orderBy(op, seed, active, emit);
      case Algebra.types.GROUP:
        return this.group(op, seed, active, emit);
      default:
        return undefined;
    }
  }

  // ---- patterns ----

  /** A term of a pattern as {id} or {slot}; the graph `DefaultGraph` is the active graph. */
  private termRef(t: RDF.Term, active: number): { slot: number } | { id: number } {
    if (t.termType === 'Variable') return { slot: this.slot(t.value) };
    if (t.termType === 'DefaultGraph') return { id: active };
    return { id: this.terms.idOf(t as QueryTerm) };
  }

  /**
   * The join plan of a basic graph pattern (greedy order from the estimates), as steps over
   * one shared solution; undefined when a constant cannot match. With `graphSlot`, patterns
   * without a graph of their own match in any named graph and bind that slot to it (for
   * `GRAPH ?g { BGP }`, which is the same as evaluating the BGP in each named graph, in one
   * pass).
   */
  private bgpPlan(patterns: readonly Algebra.Pattern[], seed: Int32Array, active: number, emit: Emit, graphSlot?: number): BgpPlan | undefined {
    const prepared = this.preparedBgp(patterns, active, graphSlot);
    if (!prepared) return undefined;
    const { compiled } = prepared;
    // greedy order: the connected pattern with the smallest estimated result first
    const order = prepared.orders.orderFor(seed);
    if (this.plan) this.logOrder(patterns, order, seed);
    const solution = seed.slice();
    /** The match arguments of the k-th pattern under the current bindings, or undefined when nothing can match. */
    const valueOf = (r: { slot: number } | { id: number }): number => ('id' in r ? r.id : solution[r.slot]!);
    const argsOf = (k: number): [number, number, number, number] | undefined => {
      const refs = compiled[order[k]!]!;
      const sv = valueOf(refs[0]);
      const pv = valueOf(refs[1]);
      const ov = valueOf(refs[2]);
      // a constant (or binding) the store does not hold matches nothing
      // (below UNBOUND: a query-local id; in the graph position, below DEFAULT_GRAPH)
      if (sv < UNBOUND || pv < UNBOUND || ov < UNBOUND) return undefined;
      const g = valueOf(refs[3]);
      if (g < DEFAULT_GRAPH) return undefined;
      const graph = 'id' in refs[3] ? refs[3].id : g >= 0 ? g : ANY_NAMED_GRAPH;
      return [sv, pv, ov, graph];
    };
    /** Binds the k-th pattern's slots to a match and goes on with the next pattern. */
    const onMatchAt = (k: number): ((s: number, p: number, o: number, g: number) => boolean) => {
      const refs = compiled[order[k]!]!;
      const assigned: number[] = [];
      /** Binds one position's slot to `value` (recording it in `assigned`); false when it holds another value. */
      const bind = (r: { slot: number } | { id: number }, value: number): boolean => {
        if (!('slot' in r)) return true;
        const cur = solution[r.slot]!;
        if (cur === -1) {
          solution[r.slot] = value;
          assigned.push(r.slot);
          return true;
        }
        return cur === value;
      };
      return (s, p, o, gg) => {
        assigned.length = 0;
        const ok = bind(refs[0], s) && bind(refs[1], p) && bind(refs[2], o) && bind(refs[3], gg);
        const stop = ok ? step(k + 1) : false;
        for (const a of assigned) solution[a] = -1;
        return stop;
      };
    };
    const step = (k: number): boolean => {
      this.tick();
      if (k === order.length) return emit(solution.slice()) === true;
      const args = argsOf(k);
      return args ? this.source.match(args[0], args[1], args[2], args[3], onMatchAt(k)) : false;
    };
    const boundAt: number[][] = order.map(() => []);
    const bindAt = (k: number, vals: ArrayLike<number>): boolean => {
      const refs = compiled[order[k]!]!;
      const assigned = boundAt[k]!;
      for (let c = 0; c < 4; c++) {
        const r = refs[c]!;
        if (!('slot' in r)) continue;
        const cur = solution[r.slot]!;
        if (cur === -1) {
          solution[r.slot] = vals[c]!;
          assigned.push(r.slot);
        } else if (cur !== vals[c]) {
          unbindAt(k);
          return false;
        }
      }
      return true;
    };
    const unbindAt = (k: number): void => {
      const assigned = boundAt[k]!;
      for (const a of assigned) solution[a] = -1;
      assigned.length = 0;
    };
    return { size: order.length, solution, step, argsOf, onMatchAt, bindAt, unbindAt };
  }

  /**
   * The positions of a basic graph pattern's patterns and its join orders, made once per
   * query, active graph and graph slot (a BGP evaluated with each outer solution is planned
   * once per set of bound variables); null when a constant cannot match.
   */
  private preparedBgp(patterns: readonly Algebra.Pattern[], active: number, graphSlot: number | undefined): PreparedBgp | null {
    const owner: object = patterns.length === 1 ? patterns[0]! : patterns;
    let byGraph = this.preparedBgps.get(owner);
    if (!byGraph) this.preparedBgps.set(owner, (byGraph = new Map<number | string, PreparedBgp | null>()));
    const key = graphSlot === undefined ? active : `${active} ${graphSlot}`;
    let prepared = byGraph.get(key);
    if (prepared === undefined) {
      prepared = this.prepareBgp(patterns, active, graphSlot);
      byGraph.set(key, prepared);
    }
    return prepared;
  }

  private prepareBgp(patterns: readonly Algebra.Pattern[], active: number, graphSlot: number | undefined): PreparedBgp | null {
    // a constant the store does not hold (a query-local id) can match nothing
    for (const p of patterns) {
      for (const t of [p.subject, p.predicate, p.object]) {
        if (t.termType !== 'Variable' && t.termType !== 'DefaultGraph' && this.terms.idOf(t as QueryTerm) < -1) return null;
      }
    }
    const graphRef = (t: RDF.Term): { slot: number } | { id: number } =>
      graphSlot !== undefined && t.termType === 'DefaultGraph' ? { slot: graphSlot } : this.termRef(t, active);
    const compiled = patterns.map((p) => [this.termRef(p.subject, active), this.termRef(p.predicate, active), this.termRef(p.object, active), graphRef(p.graph)] as const);
    const estimate = this.source.estimate?.bind(this.source);
    const orders = new JoinOrders(compiled, (refs) => {
      if (!estimate) return 1000;
      const constant = (c: number): number => {
        const r = refs[c]!;
        return 'id' in r ? r.id : UNBOUND;
      };
      const graph = constant(3);
      return estimate(constant(0), constant(1), constant(2), graph === UNBOUND ? ANY_NAMED_GRAPH : graph);
    });
    return { compiled, orders };
  }

  /** The plan of the tuple table atoms of a basic graph pattern (made on first use). */
  private tupleAtomPlan(split: TupleAtomSplit, active: number, graphSlot: number | undefined): TupleAtomPlan {
    let plan = this.tuplePlans.get(split);
    if (!plan) {
      if (!this.tupleTables) throw new UnsupportedQueryError('tuple table atoms (TT, rdfox:TT) cannot be used here');
      const patternSlots = new Set<number>();
      for (const p of split.patterns) for (const t of [p.subject, p.predicate, p.object, p.graph]) if (t.termType === 'Variable') patternSlots.add(this.slot(t.value));
      if (graphSlot !== undefined && split.patterns.length > 0) patternSlots.add(graphSlot);
      plan = this.tupleTables.plan(split, (t) => this.termRef(t, active), patternSlots);
      this.tuplePlans.set(split, plan);
      if (this.plan) this.plan.push(`tuple table atoms (each once its arguments allow):\n${split.atoms.map((a, k) => `  ${k + 1}. ${describeTupleAtom(a)}`).join('\n')}`);
    }
    return plan;
  }

  /** `GRAPH ?g { … }` over tuple table atoms alone: once per named graph, with ?g bound to it. */
  private tupleAtomsInEachGraph(patterns: readonly Algebra.Pattern[], seed: Int32Array, emit: Emit, graphSlot: number): boolean {
    for (const g of this.graphs()) {
      const s = seed.slice();
      s[graphSlot] = g;
      if (this.bgp(patterns, s, g, emit)) return true;
    }
    return false;
  }

  /** A basic graph pattern (see {@link Engine.bgpPlan}); its tuple table atoms around its patterns. */
  private bgp(patterns: readonly Algebra.Pattern[], seed: Int32Array, active: number, emit: Emit, graphSlot?: number): boolean {
    const split = tupleAtomsOf(patterns);
    if (split && graphSlot !== undefined && split.patterns.length === 0) return this.tupleAtomsInEachGraph(patterns, seed, emit, graphSlot);
    if (split) return this.tupleAtomPlan(split, active, graphSlot).run(seed, emit, (s, e) => this.bgp(split.patterns, s, active, e, graphSlot));
    const plan = this.bgpPlan(patterns, seed, active, emit, graphSlot);
    return plan ? plan.step(0) : false;
  }

  /**
   * A basic graph pattern evaluated as an iterative nested-loop join (one resumable scan per
   * pattern, a row at a time) that pauses every few hundred rows for backpressure and yields
   * when its time slice is used up, so that no pattern's scan, however deep, holds the event
   * loop. Emits the same solutions in the same order as {@link Engine.bgp}.
   */
  private async bgpAsync(patterns: readonly Algebra.Pattern[], seed: Int32Array, active: number, emit: Emit, graphSlot?: number): Promise<boolean> {
    const split = tupleAtomsOf(patterns);
    if (split && graphSlot !== undefined && split.patterns.length === 0) return this.tupleAtomsInEachGraph(patterns, seed, emit, graphSlot);
    if (split) return this.tupleAtomPlan(split, active, graphSlot).run(seed, emit, (s, e) => this.bgpAsync(split.patterns, s, active, e, graphSlot));
    const plan = this.bgpPlan(patterns, seed, active, emit, graphSlot);
    if (!plan) return false;
    const matcher = this.source.matcher?.bind(this.source);
    if (plan.size === 0 || !matcher) return plan.step(0);
    const found = new Int32Array(4);
    let hit!: boolean;
    let stopped = false;
    const last = plan.size - 1;
    // above the last pattern a match is recorded and the loop descends; a match of the last
    // pattern is emitted at once (so its scan can take many rows per step)
    const record = (s: number, p: number, o: number, g: number): boolean => {
      found[0] = s;
      found[1] = p;
      found[2] = o;
      found[3] = g;
      hit = true;
      return false;
    };
    const emitLast = (s: number, p: number, o: number, g: number): boolean => {
      found[0] = s;
      found[1] = p;
      found[2] = o;
      found[3] = g;
      if (!plan.bindAt(last, found)) return false;
      stopped = emit(plan.solution.slice()) === true;
      plan.unbindAt(last);
      return stopped;
    };
    const open = (k: number): ((budget: number) => boolean) | undefined => {
      const args = plan.argsOf(k);
      return args ? matcher(args[0], args[1], args[2], args[3], k === last ? emitLast : record) : undefined;
    };
    const scans: Array<((budget: number) => boolean) | undefined> = new Array<undefined>(plan.size);
    scans[0] = open(0);
    let k = 0;
    let rows = 0;
    for (;;) {
      const scan = scans[k];
      hit = false;
      const done = scan === undefined || scan(k === last ? LAST_SCAN_BATCH : 1);
      if (stopped) return true;
      if (hit) {
        plan.unbindAt(k);
        if (plan.bindAt(k, found)) scans[++k] = open(k);
      } else if (done) {
        plan.unbindAt(k);
        if (k === 0) return false;
        k--;
      }
      if ((++rows & 255) === 0) await this.pauseBetweenBatches();
    }
  }

  private path(op: Algebra.Path, seed: Int32Array, active: number, emit: Emit, r: PathRefs = this.pathRefs(op, seed, active)): boolean {
    for (const g of r.graphs) {
      const stop = this.pathEvaluator(g).evaluate(op.predicate, r.sv, r.ov, (s, o) => {
        const out = this.pathSolution(r, seed, g, s, o);
        return out !== undefined && emit(out) === true;
      });
      if (stop) return true;
    }
    return false;
  }

  /**
   * A path; a closure (`*`, `+`) with both ends free runs one search per start node, with
   * backpressure and yields between batches of starts. Other paths are evaluated at once.
   */
  private async pathAsync(op: Algebra.Path, seed: Int32Array, active: number, emit: Emit): Promise<boolean> {
    const closure = op.predicate.type === Algebra.types.ZERO_OR_MORE_PATH || op.predicate.type === Algebra.types.ONE_OR_MORE_PATH ? op.predicate : undefined;
    const r = this.pathRefs(op, seed, active);
    if (!closure || r.sv !== UNBOUND || r.ov !== UNBOUND) return this.path(op, seed, active, emit, r);
    for (const g of r.graphs) {
      const free = this.pathEvaluator(g).freeClosure(closure.path, closure.type === Algebra.types.ZERO_OR_MORE_PATH);
      const sink = (s: number, o: number): boolean => {
        const out = this.pathSolution(r, seed, g, s, o);
        return out !== undefined && emit(out) === true;
      };
      let batchStart = performance.now();
      for (const start of free.starts) {
        if (free.from(start, sink)) return true;
        if (performance.now() - batchStart > 1) {
          await this.pauseBetweenBatches();
          batchStart = performance.now();
        }
      }
    }
    return false;
  }

  /** The evaluator of paths in graph `g` (one per query and graph: it caches closures). */
  private pathEvaluator(g: number): PathEvaluator {
    let paths = this.pathEvaluators.get(g);
    if (!paths) this.pathEvaluators.set(g, (paths = new PathEvaluator(this.source, g)));
    return paths;
  }

  /** A path's ends and graph as references, their values under `seed`, and the graphs to evaluate it in. */
  private pathRefs(op: Algebra.Path, seed: Int32Array, active: number): PathRefs {
    const sRef = this.termRef(op.subject, active);
    const oRef = this.termRef(op.object, active);
    const gRef = this.termRef(op.graph, active);
    const sv = 'id' in sRef ? sRef.id : seed[sRef.slot]!;
    const ov = 'id' in oRef ? oRef.id : seed[oRef.slot]!;
    const graphs: number[] = [];
    if ('id' in gRef) graphs.push(gRef.id);
    else if (seed[gRef.slot]! >= 0) graphs.push(seed[gRef.slot]!);
    else if (seed[gRef.slot]! === -1) graphs.push(...this.graphs());
    // With variables at both ends, the zero-length part of a path relates only the nodes of
    // the graph (§18.5, ZeroLengthPath between two variables): a binding substituted from the
    // seed that is not a node of the graph must not be related to itself. A pair (x, x) with
    // such an x can only come from the zero-length part (any step would put x in the graph).
    const seeded = 'slot' in sRef && 'slot' in oRef && (sv !== UNBOUND || ov !== UNBOUND);
    return { sRef, oRef, gRef, sv, ov, graphs, seeded };
  }

  /** The solution a path pair (s, o) in graph g gives under `seed`, or undefined. */
  private pathSolution(r: PathRefs, seed: Int32Array, g: number, s: number, o: number): Int32Array | undefined {
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

  /** Between batches: backpressure, then a yield when the time slice is used up (or an interrupt). */
  private async pauseBetweenBatches(): Promise<void> {
    const wait = this.pause?.();
    // waiting for the reader (backpressure, a cursor's next page) does not count against the time limit
    if (wait) this.deadline += await timeWaiting(wait);
    if (this.interrupter.due()) await this.interrupter.yield();
    else this.interrupter.check();
    if (performance.now() > this.deadline) throw new InterruptedError('the query exceeded its time limit');
  }

  /** Whether a term occurs in a graph as a subject or an object. */
  private isNode(id: number, graph: number): boolean {
    if (id < 0) return false;
    const found = (): boolean => true;
    return this.source.match(id, UNBOUND, UNBOUND, graph, found) || this.source.match(UNBOUND, UNBOUND, id, graph, found);
  }

  /**
   * `GRAPH name { P }`: P with the named graph as the active graph, once per named graph of
   * the dataset when the name is a variable, joined with the variable bound to the graph. P
   * sees the variable bound only when it takes bindings (where that equals joining), so that
   * e.g. `GRAPH ?g { FILTER(BOUND(?g)) }` and OPTIONAL/MINUS/subqueries inside follow §18.6.
   */
  private graph(op: Algebra.Graph, seed: Int32Array, emit: Emit): boolean {
    const name = op.name;
    if (name.termType !== 'Variable') {
      const id = this.terms.idOf(name);
      return this.isNamedGraph(id) ? this.evaluate(op.input, seed, id, emit) : false;
    }
    const slot = this.slot(name.value);
    const bound = seed[slot]!;
    const input = op.input;
    if (bound === -1 && input.type === Algebra.types.BGP && input.patterns.length > 0) return this.bgp(input.patterns, seed, DEFAULT_GRAPH, emit, slot);
    const graphs = bound === -1 ? this.graphs() : this.isNamedGraph(bound) ? [bound] : [];
    const seedable = this.seedable(op.input);
    for (const g of graphs) {
      let stop: boolean;
      if (seedable) {
        const s = seed.slice();
        s[slot] = g;
        stop = this.evaluate(op.input, s, g, emit);
      } else {
        stop = this.evaluate(op.input, seed, g, (r) => {
          if (r[slot]! === g) return emit(r) === true;
          if (r[slot]! !== -1) return false;
          const out = r.slice();
          out[slot] = g;
          return emit(out) === true;
        });
      }
      if (stop) return true;
    }
    return false;
  }

  // ---- joins ----

  /** Whether substituting bindings into `op` equals joining with it. */
  private seedable(op: Op): boolean {
    switch (op.type) {
      case Algebra.types.BGP:
      case Algebra.types.PATTERN:
      case Algebra.types.PATH:
      case Algebra.types.VALUES:
        return true;
      case Algebra.types.JOIN:
      case Algebra.types.UNION:
        return op.input.every((c) => this.seedable(c));
      case Algebra.types.GRAPH:
        return this.seedable(op.input);
      default:
        return false;
    }
  }

  private join(inputs: readonly Op[], i: number, seed: Int32Array, active: number, emit: Emit, held = new Map<number, Int32Array[]>()): boolean {
    if (i === inputs.length) return emit(seed) === true;
    const op = inputs[i]!;
    if (i === 0 || this.seedable(op)) return this.evaluate(op, seed, active, (s) => this.join(inputs, i + 1, s, active, emit, held));
    // evaluated once on its own, then joined with each solution so far
    let right = held.get(i);
    if (!right) held.set(i, (right = this.collectIn(op, this.empty(), active)));
    for (const r of right) {
      const merged = merge(seed, r);
      if (merged && this.join(inputs, i + 1, merged, active, emit, held)) return true;
    }
    return false;
  }

  /**
   * OPTIONAL. A right side made of patterns is evaluated with each left solution's bindings
   * until that has cost more than evaluating it once (see {@link Engine.existsFilter}); then,
   * as any other right side, its solutions are hashed on the variables each left solution
   * binds ({@link JoinIndex}) and probed.
   */
  private leftJoin(op: Algebra.LeftJoin, active: number, emit: Emit, seed: Int32Array): SingleInputOperator {
    const [left, right] = op.input;
    const test = op.expression ? this.condition(op.expression, active) : undefined;
    const seeded = this.seedable(right);
    const variables = this.slotsOf(right);
    const index = ExistsIndex.usable(variables) ? new JoinIndex(variables, () => this.collectIn(right, this.empty(), active)) : undefined;
    const rightAll = seeded || index ? undefined : this.collectIn(right, this.empty(), active);
    const oneByOne = seeded ? Math.max(EXISTS_ONE_BY_ONE, this.estimateSolutions(right, active) / SOLUTIONS_PER_TEST) : -1;
    let tested = 0;
    return {
      input: left,
      seed,
      emit: (l) => {
        let matched = false;
        const each = (merged: Int32Array | undefined): boolean => {
          if (!merged || (test && !test(merged))) return false;
          matched = true;
          return emit(merged) === true;
        };
        const found = index && ++tested > oneByOne ? index.matches(l) : undefined;
        if (found) {
          for (const r of found) if (each(merge(l, r))) return true;
        } else if (seeded) {
          if (this.evaluate(right, l, active, each)) return true;
        } else {
          for (const r of index ? index.all() : rightAll!) if (each(merge(l, r))) return true;
        }
        return matched ? false : emit(l);
      },
    };
  }

  /** The slots of the variables of an operation (in order of first occurrence). */
  private slotsOf(op: Op): number[] {
    const slots: number[] = [];
    forEachVariable(op, (name) => {
      const slot = this.slot(name);
      if (!slots.includes(slot)) slots.push(slot);
    });
    return slots;
  }

  private minus(op: Algebra.Minus, active: number, emit: Emit, seed: Int32Array): SingleInputOperator {
    const [left, right] = op.input;
    // the right side's solutions hashed on the variables each left solution shares with them
    const index = new MinusIndex(this.collectIn(right, this.empty(), active));
    return { input: left, seed, emit: (l) => (index.removes(l) ? false : emit(l) === true) };
  }

  private values(op: Algebra.Values, seed: Int32Array, emit: Emit): boolean {
    for (const binding of op.bindings) {
      const out = seed.slice();
      let ok = true;
      for (const v of op.variables) {
        const t = binding[`?${v.value}`] ?? (binding as Record<string, RDF.Term | undefined>)[v.value];
        if (!t) continue;
        const id = this.terms.idOf(t as QueryTerm);
        const s = this.slot(v.value);
        if (out[s]! === -1) out[s] = id;
        else if (out[s] !== id) ok = false;
      }
      if (ok && emit(out)) return true;
    }
    return false;
  }

  private project(op: Algebra.Project, seed: Int32Array, emit: Emit): SingleInputOperator {
    const keep = op.variables.map((v) => this.slot(v.value));
    const inner = this.empty();
    // a subquery sees only the projected variables of the outer bindings
    for (const s of keep) inner[s] = seed[s]!;
    return {
      input: op.input,
      seed: inner,
      emit: (s) => {
        const out = seed.slice();
        for (const k of keep) {
          if (s[k]! === -1) continue;
          if (out[k]! === -1) out[k] = s[k]!;
          else if (out[k] !== s[k]) return false;
        }
        return emit(out) === true;
      },
    };
  }

  // ---- ordering and grouping ----

  private orderBy(op: Algebra.OrderBy, seed: Int32Array, active: number, emit: Emit): SingleInputOperator {
    const keys = op.expressions.map((e) => {
      const desc = e.expressionType === Algebra.expressionTypes.OPERATOR && (e).operator === 'desc';
      const inner = desc || (e.expressionType === Algebra.expressionTypes.OPERATOR && (e).operator === 'asc') ? (e).args[0]! : e;
      return { f: this.expression(inner, active), desc };
    });
    const rows: Array<{ s: Int32Array; k: Array<Value | undefined> }> = [];
    const held = this.budget?.account(HOLDERS.orderBy);
    return {
      input: op.input,
      seed,
      emit: (s) => {
        held?.add(sortRowBytes(s.length, keys.length));
        rows.push({ s, k: keys.map((k) => k.f(s)) });
      },
      finish: () => {
        held?.release();
        rows.sort((a, b) => {
          for (let i = 0; i < keys.length; i++) {
            const c = compareForOrder(a.k[i], b.k[i]);
            if (c !== 0) return keys[i]!.desc ? -c : c;
          }
          return 0;
        });
        for (const r of rows) if (emit(r.s)) return true;
        return false;
      },
    };
  }

  /** The number of solutions of a single-pattern BGP, when the statistics give it exactly. */
  private countFromStatistics(op: Op, seed: Int32Array, active: number): number | undefined {
    if (op.type !== Algebra.types.BGP || op.patterns.length !== 1 || active !== DEFAULT_GRAPH) return undefined;
    const p = op.patterns[0]!;
    if (p.graph.termType !== 'DefaultGraph') return undefined;
    const seen = new Set<string>();
    const ids: number[] = [];
    for (const t of [p.subject, p.predicate, p.object]) {
      if (t.termType === 'Variable') {
        if (seen.has(t.value) || seed[this.slot(t.value)]! !== -1) return undefined;
        seen.add(t.value);
        ids.push(UNBOUND);
      } else {
        const id = this.terms.idOf(t as QueryTerm);
        if (id < 0) return 0;
        ids.push(id);
      }
    }
    return this.source.exactCount!(ids[0]!, ids[1]!, ids[2]!, DEFAULT_GRAPH);
  }

  /** COUNT(*) of one pattern of distinct variables, from the running counts: the aggregate's slot and the count. */
  private countStar(op: Algebra.Group, seed: Int32Array, active: number): { slot: number; n: number } | undefined {
    if (op.variables.length !== 0 || op.aggregates.length !== 1 || !this.source.exactCount) return undefined;
    const a = op.aggregates[0]!;
    if (a.expression.expressionType !== Algebra.expressionTypes.WILDCARD || a.distinct || a.aggregator !== 'count') return undefined;
    const n = this.countFromStatistics(op.input, seed, active);
    return n === undefined ? undefined : { slot: this.slot(a.variable.value), n };
  }

  /** Emits the COUNT(*) that {@link Engine.countStar} found. */
  private emitCountStar(op: Algebra.Group, seed: Int32Array, active: number, emit: Emit): boolean {
    const { slot, n } = this.countStar(op, seed, active)!;
    const out = seed.slice();
    out[slot] = this.terms.idOf(DataFactory.literal(String(n), DataFactory.namedNode('http://www.w3.org/2001/XMLSchema#integer')));
    return emit(out) === true;
  }

  private group(op: Algebra.Group, seed: Int32Array, active: number, emit: Emit): SingleInputOperator | undefined {
    if (this.countStar(op, seed, active)) return undefined;
    const keySlots = op.variables.map((v) => this.slot(v.value));
    const held = this.budget?.account(HOLDERS.group);
    const aggs = op.aggregates.map((a): AggregateSpec => {
      const e = a.expression;
      const star = e.expressionType === Algebra.expressionTypes.WILDCARD;
      let value = star ? undefined : memoized(e, (name) => this.slot(name), this.expression(e, active));
      if (held && value && a.aggregator === 'group_concat') {
        const f = value;
        value = (s) => {
          const v = f(s);
          held.add(aggregateValueBytes(v));
          return v;
        };
      }
      const variableSlot = e.expressionType === Algebra.expressionTypes.TERM && e.term.termType === 'Variable' ? this.slot(e.term.value) : undefined;
      return { slot: this.slot(a.variable.value), fn: a.aggregator, distinct: a.distinct, separator: (a as Algebra.GroupConcatExpression).separator, star, variableSlot, value };
    });
    const counts = new Map<number, number>();
    const ids = {
      idOf: (v: Value): number => this.terms.idOf(v),
      termOf: (id: number): Value => this.terms.termOf(id),
      countId: (n: number): number => {
        let id = counts.get(n);
        if (id === undefined) counts.set(n, (id = this.terms.idOf(DataFactory.literal(String(n), DataFactory.namedNode('http://www.w3.org/2001/XMLSchema#integer')))));
        return id;
      },
    };
    const onNewGroup = held ? (s: Int32Array): void => held.add(groupBytes(keySlots.map((x) => s[x]).join(','), s.length, aggs.length)) : undefined;
    const grouping = new Grouping(keySlots, aggs, seed, ids, onNewGroup);
    return {
      input: op.input,
      seed,
      emit: (s) => grouping.add(s),
      finish: () => {
        held?.release();
        return grouping.emitAll(emit);
      },
    };
  }

  // ---- expressions ----

  /** A blank node no other term of the query or the store has. */
  private freshBlankNode(): RDF.BlankNode {
    for (;;) {
      const b = DataFactory.blankNode(`${BNODE_PREFIX}${(bnodeCounter++).toString(36)}`);
      if (this.terms.idOf(b) < 0) return b;
    }
  }

  /** BNODE(label): the same node for the same label within the current solution, else fresh. */
  private blankNodeFor(label?: string): RDF.BlankNode {
    const s = this.current;
    if (label === undefined || s === undefined) return this.freshBlankNode();
    let scope = this.bnodeScopes.get(s);
    if (!scope) this.bnodeScopes.set(s, (scope = new Map<string, RDF.BlankNode>()));
    let b = scope.get(label);
    if (!b) scope.set(label, (b = this.freshBlankNode()));
    return b;
  }

  /** Compiles an expression over solutions, with `active` as the graph of EXISTS patterns; undefined on error. */
  expression(e: Algebra.Expression, active: number = DEFAULT_GRAPH): (s: Int32Array) => Value | undefined {
    const context: EvaluationContext = {
      now: this.now,
      ...(this.baseIRI !== undefined ? { baseIRI: this.baseIRI } : {}),
      ...(this.agent !== undefined ? { agent: this.agent } : {}),
      exists: (pattern: Op, get: (v: string) => Value | undefined): boolean => {
        const seed = this.empty();
        for (const [name, slot] of this.slots) {
          const v = get(name);
          if (v !== undefined) seed[slot] = this.terms.idOf(v);
        }
        // what the pattern held is garbage once it is tested: give it back to the budget
        const mark = this.budget?.mark();
        try {
          return this.evaluate(pattern, seed, active, () => true);
        } finally {
          if (mark !== undefined) this.budget!.resetTo(mark);
        }
      },
      bnode: (label?: string) => this.blankNodeFor(label),
    };
    const f = compileExpression(e, context);
    // one variable reader per expression (not one per solution), reading the solution being evaluated
    let row: Int32Array = EMPTY_ROW;
    const get = (name: string): Value | undefined => {
      const slot = this.slots.get(name);
      if (slot === undefined) return undefined;
      const id = row[slot]!;
      return id === undefined || id === -1 ? undefined : this.terms.termOf(id);
    };
    return (s) => {
      const previous = this.current;
      const previousRow = row;
      this.current = s;
      row = s;
      try {
        return f(get);
      } catch (e) {
        // an expression error is the SPARQL error value; anything else (an interruption inside EXISTS) stops the query
        if (e instanceof ExpressionError) return undefined;
        throw e;
      } finally {
        this.current = previous;
        row = previousRow;
      }
    };
  }

  /**
   * `FILTER (NOT) EXISTS { P }` when substituting bindings into P equals joining with it: after
   * {@link EXISTS_ONE_BY_ONE} solutions tested one by one, P is evaluated once and its
   * solutions hashed on the variables each solution binds ({@link ExistsIndex}). Undefined for
   * any other condition.
   */
  private existsFilter(e: Algebra.Expression, active: number): ((s: Int32Array) => boolean) | undefined {
    if (e.expressionType !== Algebra.expressionTypes.EXISTENCE || !this.seedable(e.input)) return undefined;
    const pattern = e.input;
    const negated = e.not;
    // one triple pattern: one probe of the store per solution
    const single = pattern.type === Algebra.types.PATTERN ? pattern : pattern.type === Algebra.types.BGP && pattern.patterns.length === 1 ? pattern.patterns[0]! : undefined;
    if (single && !tupleAtomsOf([single])) {
      const prepared = this.preparedBgp([single], active, undefined);
      if (prepared === null) return () => negated;
      const probe = patternProbe(prepared.compiled[0]!, (s, p, o, g, onMatch) => this.source.match(s, p, o, g, onMatch));
      if (probe) return (s) => probe(s) !== negated;
    }
    const variables = this.slotsOf(pattern);
    if (!ExistsIndex.usable(variables)) return undefined;
    const index = new ExistsIndex(variables, () => this.collectIn(pattern, this.empty(), active));
    // one by one while that costs less than the pattern's solutions (a test with bindings is a
    // few index probes, but also a plan; a solution for the index costs much less)
    const oneByOne = Math.max(EXISTS_ONE_BY_ONE, this.estimateSolutions(pattern, active) / SOLUTIONS_PER_TEST);
    let tested = 0;
    return (s) => {
      const found = ++tested > oneByOne ? index.test(s) : undefined;
      return (found ?? this.evaluate(pattern, s, active, () => true)) !== negated;
    };
  }

  /** A rough estimate of the solutions of a seedable pattern without bindings (Infinity: unknown). */
  private estimateSolutions(op: Op, active: number): number {
    switch (op.type) {
      case Algebra.types.BGP:
        return op.patterns.reduce((least, p) => Math.min(least, this.estimateSolutions(p, active)), op.patterns.length === 0 ? 1 : Infinity);
      case Algebra.types.PATTERN: {
        if (!this.source.estimate) return Infinity;
        const ids = [op.subject, op.predicate, op.object, op.graph].map((t) => {
          const r = this.termRef(t, active);
          return 'id' in r ? r.id : UNBOUND;
        });
        return this.source.estimate(ids[0]!, ids[1]!, ids[2]!, ids[3] === UNBOUND ? ANY_NAMED_GRAPH : ids[3]!);
      }
      case Algebra.types.VALUES:
        return op.bindings.length;
      case Algebra.types.JOIN:
        return op.input.reduce((least, c) => Math.min(least, this.estimateSolutions(c, active)), Infinity);
      case Algebra.types.UNION:
        return op.input.reduce((sum, c) => sum + this.estimateSolutions(c, active), 0);
      default:
        return Infinity;
    }
  }

  /** Compiles a condition (effective boolean value; errors are false). */
  condition(e: Algebra.Expression, active: number = DEFAULT_GRAPH): (s: Int32Array) => boolean {
    const f = this.expression(e, active);
    return (s) => {
      const v = f(s);
      if (v === undefined) return false;
      try {
        return effectiveBooleanValue(v);
      } catch (e) {
        if (e instanceof ExpressionError) return false;
        throw e;
      }
    };
  }
}

/** The merge of two compatible solutions, or undefined. */
export function merge(a: Int32Array, b: Int32Array): Int32Array | undefined {
  const out = a.slice();
  for (let i = 0; i < b.length; i++) {
    const v = b[i]!;
    if (v === -1) continue;
    if (out[i]! === -1) out[i] = v;
    else if (out[i] !== v) return undefined;
  }
  return out;
}

export { UNBOUND };
