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
 * ({@link SingleInputOperator}). The other side of a join, an OPTIONAL or an EXISTS that is
 * evaluated with each solution's bindings runs the same way when those solutions come from a
 * basic graph pattern or VALUES, and sides evaluated on their own are collected so first; every
 * stored row a scan visits counts towards the time limit.
 *
 * This module holds the engine's state and the dispatch of the algebra; its parts live in
 * modules of their own: basic graph patterns and their join plans (`bgp.ts`, planned by
 * `planner/join-order.ts`), joins, OPTIONAL, MINUS, VALUES and EXISTS (`joins.ts`), `GRAPH`
 * (`graph-patterns.ts`), property path patterns (`path-patterns.ts`), ORDER BY and GROUP BY
 * (`ordering.ts`), expressions over solutions (`expression-glue.ts`) and BNODE() scopes
 * (`blank-node-scope.ts`).
 * @module
 */
import type * as RDF from '@rdfjs/types/data-model.js';
import { DataFactory } from 'n3';
import { termToKey } from '../model/terms.js';
import { Algebra } from '../expressions/sparql-libraries.js';
import { InterruptedError, QueryCompilationError } from '../model/errors.js';
import { forEachVariable, type Value } from '../expressions/index.js';
import type { Interrupter } from '../model/control.js';
import { bgpPlan, describeJoinOrder, type PatternRef, type PatternRefs, type PlanCondition, prepareBgp, type PreparedBgp, runBgpIteratively, runBgpStepwise } from './bgp.js';
import { BlankNodeScopes } from './blank-node-scope.js';
import { compileCondition, compileOverSolutions, type ExpressionHost } from './expression-glue.js';
import { graph, graphAsync, NamedGraphs } from './graph-patterns.js';
import { existsFilter, join, joinAsync, leftJoin, minus, values, valuesAsync } from './joins.js';
import { memoized, pureVariables } from './memo.js';
import { emitCountStar, group, orderBy } from './ordering.js';
import { PathPatterns } from './path-patterns.js';
import { distinctSolutionBytes, HOLDERS, type QueryBudget, solutionBytes, timeWaiting } from './query-budget.js';
import { SolutionSet } from './solution-set.js';
import { DEFAULT_GRAPH, type QuadSource, UNBOUND } from './quad-source.js';
import type { QueryTerm, QueryTerms } from './query-terms.js';
import type { AsyncEmit, Emit, SingleInputOperator } from './solutions.js';
import { forEachTripleTermPattern, hasVariable } from './triple-term-patterns.js';
import { describeTupleAtom, type TupleAtomPlan, type TupleAtomSplit, tupleAtomsOf, type TupleTableReader } from './tuple-table-access.js';

export type { Emit } from './solutions.js';
export { merge } from './solutions.js';

/** Raised when a query uses something the engine does not evaluate (SERVICE). */
export class UnsupportedQueryError extends QueryCompilationError {}

type Op = Algebra.Operation;

/** Evaluates the algebra of one query. */
export class Engine implements ExpressionHost {
  /** Slot of each variable name. */
  readonly slots = new Map<string, number>();
  /** The value of NOW() for the whole query. */
  readonly now = new Date();
  /** The role evaluating the query, for AGENT() (undefined: AGENT() is an error). */
  agent: string | undefined;
  private ticks = 0;
  /** performance.now() after which evaluation stops with InterruptedError (Infinity: no limit). */
  deadline = Infinity;
  /** What the evaluation may hold in memory (query-budget.ts; undefined: no limit). */
  budget: QueryBudget | undefined;
  /** The named graphs of the dataset (asked on first use). */
  readonly namedGraphs: NamedGraphs;
  /** The BNODE() nodes of the query's solutions. */
  readonly blankNodes: BlankNodeScopes;
  /** The query's property path patterns. */
  private readonly paths: PathPatterns;
  /** Reads tuple table atoms (`TT name { … }`, `(…) rdfox:TT "name"`); without it, a query using them fails. */
  tupleTables: TupleTableReader | undefined;
  /** The prepared basic graph patterns (by their pattern list, or their one pattern), per active graph and graph slot. */
  private readonly preparedBgps = new WeakMap<object, Map<number | string, PreparedBgp | null>>();
  /** The plans of the tuple table atoms of each basic graph pattern that has some. */
  private readonly tuplePlans = new Map<TupleAtomSplit, TupleAtomPlan>();

  /** Prepares an evaluation. */
  constructor(
    /** The quads of the query's dataset. */
    readonly source: QuadSource,
    /** The query's term ids. */
    readonly terms: QueryTerms,
    private readonly interrupter: Interrupter,
    /** The base IRI of the query, for IRI(). */
    readonly baseIRI: string | undefined,
    namedGraphs: () => number[],
  ) {
    this.namedGraphs = new NamedGraphs(namedGraphs);
    this.blankNodes = new BlankNodeScopes((b) => terms.idOf(b) >= 0);
    this.paths = new PathPatterns(this);
  }

  /** Every 1024 steps: stop when interrupted or past the deadline. */
  readonly tick = (): void => {
    if ((++this.ticks & 1023) === 0) {
      this.interrupter.check();
      if (performance.now() > this.deadline) throw new InterruptedError('the query exceeded its time limit');
    }
  };

  /** When set, every distinct join order chosen for a basic graph pattern is described here. */
  plan: string[] | undefined;

  /** The slot of a variable (allocated on first use). */
  slot(name: string): number {
    let s = this.slots.get(name);
    if (s === undefined) {
      s = this.slots.size;
      this.slots.set(name, s);
    }
    return s;
  }

  /** Allocates slots for every variable of an operation (call before evaluating), and for each triple term written with variables in its patterns. */
  collectVariables(op: unknown): void {
    forEachVariable(op, (name) => void this.slot(name));
    forEachTripleTermPattern(op, (t) => void this.slot(this.tripleTermName(t)));
  }

  /**
   * The name of the hidden variable standing for a triple term written with variables: its
   * text, after a space (no query can name it). Equal triple terms share it: their values are
   * equal whenever their variables' are, and a copy of a pattern finds the slot given before
   * evaluation.
   */
  private tripleTermName(t: RDF.Quad): string {
    const text = (x: RDF.Term): string => (x.termType === 'Variable' ? `?${x.value}` : x.termType === 'Quad' ? `<<( ${text(x.subject)} ${text(x.predicate)} ${text(x.object)} )>>` : termToKey(x));
    return ` ${text(t)}`;
  }

  /** A fresh solution with every slot unbound. */
  empty(): Int32Array {
    return new Int32Array(this.slots.size).fill(-1);
  }

  /** All solutions of `op` against the default graph (for operators that need them at once). */
  collect(op: Op, seed: Int32Array): Int32Array[] {
    return this.collectIn(op, seed, DEFAULT_GRAPH);
  }

  /** All solutions of `op` under `seed` with `active` as the active graph, held against the budget. */
  collectIn(op: Op, seed: Int32Array, active: number): Int32Array[] {
    const out: Int32Array[] = [];
    const held = this.budget?.account(HOLDERS.held);
    this.evaluate(op, seed, active, (s) => {
      held?.add(solutionBytes(s.length));
      out.push(s);
    });
    return out;
  }

  /** The same, evaluated without holding the event loop ({@link Engine.evaluateAsync}). */
  async collectInAsync(op: Op, seed: Int32Array, active: number): Promise<Int32Array[]> {
    const out: Int32Array[] = [];
    const held = this.budget?.account(HOLDERS.held);
    await this.evaluateAsync(op, seed, active, (s) => {
      held?.add(solutionBytes(s.length));
      out.push(s);
    });
    return out;
  }

  /** The named graphs of the dataset. */
  graphs(): number[] {
    return this.namedGraphs.all();
  }

  /** Evaluates `op` under `seed` with `active` (DEFAULT_GRAPH or a named graph's id) as the active graph. */
  evaluate(op: Op, seed: Int32Array, active: number, emit: Emit): boolean {
    this.tick();
    const pushed = this.pushableFilter(op, active);
    if (pushed) {
      const plan = this.bgpPlan(pushed.patterns, seed, active, emit, undefined, [pushed.condition]);
      return plan ? plan.step(0) : false;
    }
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
        return this.paths.evaluate(op, seed, active, emit);
      case Algebra.types.JOIN:
        return join(this, op.input, 0, seed, active, emit);
      case Algebra.types.UNION:
        for (const child of op.input) if (this.evaluate(child, seed, active, emit)) return true;
        return false;
      case Algebra.types.VALUES:
        return values(this, op, seed, emit);
      case Algebra.types.GRAPH:
        return graph(this, op, seed, emit);
      case Algebra.types.SLICE: // LIMIT 0 (any other slice is unary)
        return false;
      case Algebra.types.GROUP: // COUNT(*) from the counts (any other grouping is unary)
        return emitCountStar(this, op, seed, active, emit);
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
   * there when interrupted. The other side of a join, an OPTIONAL or an EXISTS evaluated with
   * each solution's bindings is evaluated the same way when the solutions come from a basic
   * graph pattern or VALUES ({@link Engine.evaluateStepwise}); sides evaluated on their own are
   * collected the same way first.
   */
  runAsync(op: Op, seed: Int32Array, emit: Emit): Promise<boolean> {
    return this.evaluateAsync(op, seed, DEFAULT_GRAPH, emit);
  }

  /** The number of rows an ORDER BY must keep when a LIMIT above it cuts its answer (set by the SLICE). */
  readonly orderLimits = new WeakMap<Algebra.OrderBy, number>();

  /** Called between batches of the driving scan; a promise it returns is awaited (backpressure). */
  pause: (() => Promise<void> | undefined) | undefined;

  /** A path evaluated at once when its async evaluation would be at once too (see `PathPatterns.evaluateNow`); else undefined. */
  evaluatePathNow(op: Algebra.Path, seed: Int32Array, active: number, emit: Emit): boolean | undefined {
    return this.paths.evaluateNow(op, seed, active, emit);
  }

  /** {@link Engine.runAsync} with `active` as the active graph. */
  async evaluateAsync(op: Op, seed: Int32Array, active: number, emit: Emit): Promise<boolean> {
    const pushed = this.pushableFilter(op, active);
    if (pushed) return this.bgpAsync(pushed.patterns, seed, active, emit, undefined, [pushed.condition]);
    const u = this.singleInputOperator(op, seed, active, emit);
    if (u) {
      if (u.prepareAsync) await u.prepareAsync();
      const stepwise = u.emitAsync ? this.evaluateStepwise(u.input, u.seed, active, u.emitAsync) : undefined;
      const stopped = await (stepwise ?? this.evaluateAsync(u.input, u.seed, active, u.emit));
      if (u.finishAsync) return u.finishAsync(stopped, () => this.pauseBetweenBatches(), () => this.interrupter.due());
      return u.finish ? u.finish(stopped) : stopped;
    }
    switch (op.type) {
      case Algebra.types.BGP:
        return this.bgpAsync(op.patterns, seed, active, emit);
      case Algebra.types.PATTERN:
        return this.bgpAsync([op], seed, active, emit);
      case Algebra.types.PATH:
        return this.paths.evaluateAsync(op, seed, active, emit);
      case Algebra.types.JOIN:
        return joinAsync(this, op.input, seed, active, emit);
      case Algebra.types.UNION:
        for (const child of op.input) if (await this.evaluateAsync(child, seed, active, emit)) return true;
        return false;
      case Algebra.types.VALUES:
        return valuesAsync(this, op, seed, emit, () => this.pauseBetweenBatches(), () => this.interrupter.due());
      case Algebra.types.GRAPH:
        if (op.name.termType === 'Variable' && seed[this.slot(op.name.value)]! === -1 && op.input.type === Algebra.types.BGP && op.input.patterns.length > 0) {
          return this.bgpAsync(op.input.patterns, seed, DEFAULT_GRAPH, emit, this.slot(op.name.value));
        }
        return graphAsync(this, op, seed, emit);
      default:
        return this.evaluate(op, seed, active, emit);
    }
  }

  /**
   * `op` evaluated as a driver that waits for each answer of `emit` that is a promise: a basic
   * graph pattern of triple patterns (under a FILTER that can be tested in its plan) or VALUES.
   * Undefined for any other operation.
   */
  evaluateStepwise(op: Op, seed: Int32Array, active: number, emit: AsyncEmit): Promise<boolean> | undefined {
    if (op.type === Algebra.types.VALUES) return valuesAsync(this, op, seed, emit, () => this.pauseBetweenBatches(), () => this.interrupter.due());
    const pushed = this.pushableFilter(op, active);
    const patterns = pushed ? pushed.patterns : op.type === Algebra.types.BGP ? op.patterns : op.type === Algebra.types.PATTERN ? [op] : undefined;
    const matcher = this.source.matcher?.bind(this.source);
    if (!patterns || !matcher || tupleAtomsOf(patterns)) return undefined;
    const plan = this.bgpPlan(patterns, seed, active, () => false, undefined, pushed ? [pushed.condition] : undefined);
    if (!plan) return Promise.resolve(false);
    return runBgpStepwise(plan, matcher, emit, () => this.pauseBetweenBatches(), () => this.interrupter.due());
  }

  /**
   * A FILTER directly over a basic graph pattern of triple patterns (no tuple table atoms)
   * whose value depends on its variables alone (no EXISTS, BNODE, RAND, other named
   * functions than casts): the pattern and the condition that its plan tests as soon as those
   * variables are bound, which gives the solutions the filter would keep, in the same order.
   * Undefined when the filter stays on top of its input.
   */
  private pushableFilter(op: Op, active: number): { patterns: readonly Algebra.Pattern[]; condition: PlanCondition } | undefined {
    if (op.type !== Algebra.types.FILTER || op.input.type !== Algebra.types.BGP) return undefined;
    const patterns = op.input.patterns;
    if (patterns.length === 0 || tupleAtomsOf(patterns)) return undefined;
    const variables = pureVariables(op.expression);
    if (variables === undefined) return undefined;
    const slotOf = (name: string): number => this.slot(name);
    return { patterns, condition: { slots: variables.map(slotOf), test: memoized(op.expression, slotOf, this.condition(op.expression, active)) } };
  }

  /**
   * The operators that transform the solutions of one input (evaluated with `seed`): the
   * callback that transforms them, and what to do once the input is exhausted (ORDER BY and
   * GROUP BY emit then). Undefined for every other operator.
   */
  private singleInputOperator(op: Op, seed: Int32Array, active: number, emit: Emit): SingleInputOperator | undefined {
    switch (op.type) {
      case Algebra.types.FILTER: {
        const exists = existsFilter(this, op.expression, active);
        const test = exists?.test ?? memoized(op.expression, (name) => this.slot(name), this.condition(op.expression, active));
        const testAsync = exists?.testAsync;
        const passAsync = testAsync && ((s: Int32Array): boolean | Promise<boolean> => {
          const passes = testAsync(s);
          if (passes instanceof Promise) return passes.then((ok) => (ok ? emit(s) === true : false));
          return passes ? emit(s) === true : false;
        });
        return { input: op.input, seed, emit: (s) => (test(s) ? emit(s) : false), emitAsync: passAsync };
      }
      case Algebra.types.EXTEND:
        return this.extend(op, seed, active, emit);
      case Algebra.types.PROJECT:
        return this.project(op, seed, emit);
      case Algebra.types.DISTINCT:
      case Algebra.types.REDUCED: {
        const seen = new SolutionSet();
        const held = this.budget?.account(HOLDERS.distinct);
        return {
          input: op.input,
          seed,
          emit: (s) => {
            if (!seen.add(s)) return false;
            held?.add(distinctSolutionBytes(s.length));
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
        // ORDER BY (under a projection, which keeps the number of rows) needs to keep only the first start + length rows
        const inner = op.input.type === Algebra.types.PROJECT ? op.input.input : op.input;
        if (inner.type === Algebra.types.ORDER_BY && op.length !== undefined) this.orderLimits.set(inner, op.start + op.length);
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
        return leftJoin(this, op, active, emit, seed);
      case Algebra.types.MINUS:
        return minus(this, op, active, emit, seed);
      case Algebra.types.ORDER_BY:
        return orderBy(this, op, seed, active, emit);
      case Algebra.types.GROUP:
        return group(this, op, seed, active, emit);
      default:
        return undefined;
    }
  }

  /** BIND and SELECT expressions: the input's solutions with one more variable bound (the same solution for BNODE(label)). */
  private extend(op: Algebra.Extend, seed: Int32Array, active: number, emit: Emit): SingleInputOperator {
    const e = op.expression;
    // a bare variable (as the translation of `(COUNT(?x) AS ?n)` binds ?n to the aggregate's
    // variable): its id, without making its term and looking it up again
    const from = e.expressionType === Algebra.expressionTypes.TERM && e.term.termType === 'Variable' ? this.slot(e.term.value) : -1;
    const f = this.expression(e, active);
    // the id of the value (undefined: an error), once per distinct input when the expression allows
    const idOf =
      from >= 0
        ? (s: Int32Array): number | undefined => (s[from]! === -1 ? undefined : s[from])
        : memoized(e, (name) => this.slot(name), (s: Int32Array): number | undefined => {
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
        this.blankNodes.share(s, out);
        return emit(out) === true;
      },
    };
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

  // ---- basic graph patterns ----

  /** A term of a pattern as {id} or {slot}; the graph `DefaultGraph` is the active graph. */
  termRef(t: RDF.Term, active: number): PatternRef {
    if (t.termType === 'Variable') return { slot: this.slot(t.value) };
    if (t.termType === 'DefaultGraph') return { id: active };
    return { id: this.terms.idOf(t as QueryTerm) };
  }

  /**
   * The positions of a basic graph pattern's patterns and its join orders, made once per
   * query, active graph and graph slot (a BGP evaluated with each outer solution is planned
   * once per set of bound variables); null when a constant cannot match. With `graphSlot`,
   * patterns without a graph of their own match in any named graph and bind that slot to it
   * (for `GRAPH ?g { BGP }`, which is the same as evaluating the BGP in each named graph, in
   * one pass).
   */
  preparedBgp(patterns: readonly Algebra.Pattern[], active: number, graphSlot: number | undefined): PreparedBgp | null {
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
        if (t.termType !== 'Variable' && t.termType !== 'DefaultGraph' && !hasVariable(t) && this.terms.idOf(t as QueryTerm) < -1) return null;
      }
    }
    const graphRef = (t: RDF.Term): PatternRef => (graphSlot !== undefined && t.termType === 'DefaultGraph' ? { slot: graphSlot } : this.termRef(t, active));
    // a triple term written with variables: a hidden variable, and an atom relating it to its parts (nested ones too)
    const tripleTermAtoms: PatternRefs[] = [];
    const ref = (t: RDF.Term): PatternRef => {
      if (t.termType !== 'Quad' || !hasVariable(t)) return this.termRef(t, active);
      const at = { slot: this.slot(this.tripleTermName(t as RDF.Quad)) };
      tripleTermAtoms.push([ref(t.subject), ref(t.predicate), ref(t.object), at]);
      return at;
    };
    const compiled = patterns.map((p): PatternRefs => [ref(p.subject), ref(p.predicate), ref(p.object), graphRef(p.graph)]);
    if (tripleTermAtoms.length === 0) return prepareBgp(compiled, this.source);
    return prepareBgp([...compiled, ...tripleTermAtoms], this.source, { from: compiled.length, index: this.terms.tripleTerms });
  }

  /** The plan of the tuple table atoms of a basic graph pattern (made on first use). */
  private tupleAtomPlan(split: TupleAtomSplit, active: number, graphSlot: number | undefined): TupleAtomPlan {
    let plan = this.tuplePlans.get(split);
    if (!plan) {
      if (!this.tupleTables) throw new UnsupportedQueryError('tuple table atoms (TT, rdfox:TT) cannot be used here');
      const patternSlots = new Set<number>();
      for (const p of split.patterns) for (const t of [p.subject, p.predicate, p.object, p.graph]) if (t.termType === 'Variable') patternSlots.add(this.slot(t.value));
      if (graphSlot !== undefined && split.patterns.length > 0) patternSlots.add(graphSlot);
      plan = this.tupleTables.plan(split, (t) => this.termRef(t, active), patternSlots, this.tick);
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

  /**
   * The join plan of a basic graph pattern under `seed` (the planner's order for the slots the
   * seed binds); undefined when a constant cannot match.
   */
  private bgpPlan(patterns: readonly Algebra.Pattern[], seed: Int32Array, active: number, emit: Emit, graphSlot: number | undefined, conditions?: readonly PlanCondition[]): ReturnType<typeof bgpPlan> | undefined {
    const prepared = this.preparedBgp(patterns, active, graphSlot);
    if (!prepared) return undefined;
    const order = prepared.orders.orderFor(seed);
    if (this.plan) {
      const text = describeJoinOrder(this.atomPatterns(patterns, prepared), order, seed, this.slots);
      if (!this.plan.includes(text)) this.plan.push(text);
    }
    return bgpPlan(prepared.compiled, order, seed, this.source, emit, this.tick, conditions, prepared.tripleTerms);
  }

  /** The patterns of a prepared basic graph pattern as EXPLAIN shows them, its triple-term atoms as `s p o ?<triple term>` after them. */
  private atomPatterns(patterns: readonly Algebra.Pattern[], prepared: PreparedBgp): readonly Algebra.Pattern[] {
    if (!prepared.tripleTerms) return patterns;
    const byName = new Map([...this.slots].map(([name, s]) => [s, name]));
    const term = (r: PatternRef): RDF.Term => ('slot' in r ? DataFactory.variable(byName.get(r.slot)!.trim().replaceAll(' ', '_')) : this.terms.termOf(r.id));
    const atoms = prepared.compiled.slice(prepared.tripleTerms.from).map((refs) => ({ type: 'pattern', subject: term(refs[0]), predicate: term(refs[1]), object: term(refs[2]), graph: term(refs[3]) }) as unknown as Algebra.Pattern);
    return [...patterns, ...atoms];
  }

  /**
   * A basic graph pattern (see `bgp.ts`); its tuple table atoms around its patterns. With
   * `graphSlot`, see {@link Engine.preparedBgp}.
   */
  bgp(patterns: readonly Algebra.Pattern[], seed: Int32Array, active: number, emit: Emit, graphSlot?: number): boolean {
    const split = tupleAtomsOf(patterns);
    if (split && graphSlot !== undefined && split.patterns.length === 0) return this.tupleAtomsInEachGraph(patterns, seed, emit, graphSlot);
    if (split) return this.tupleAtomPlan(split, active, graphSlot).run(seed, emit, (s, e) => this.bgp(split.patterns, s, active, e, graphSlot));
    const plan = this.bgpPlan(patterns, seed, active, emit, graphSlot);
    return plan ? plan.step(0) : false;
  }

  /**
   * A basic graph pattern evaluated as an iterative nested-loop join ({@link runBgpIteratively})
   * that pauses for backpressure and yields when its time slice is used up. Emits the same
   * solutions in the same order as {@link Engine.bgp}.
   */
  private async bgpAsync(patterns: readonly Algebra.Pattern[], seed: Int32Array, active: number, emit: Emit, graphSlot?: number, conditions?: readonly PlanCondition[]): Promise<boolean> {
    const split = tupleAtomsOf(patterns);
    if (split && graphSlot !== undefined && split.patterns.length === 0) return this.tupleAtomsInEachGraph(patterns, seed, emit, graphSlot);
    if (split) return this.tupleAtomPlan(split, active, graphSlot).run(seed, emit, (s, e) => this.bgpAsync(split.patterns, s, active, e, graphSlot));
    const plan = this.bgpPlan(patterns, seed, active, emit, graphSlot, conditions);
    if (!plan) return false;
    const matcher = this.source.matcher?.bind(this.source);
    if (!matcher) return plan.step(0);
    return runBgpIteratively(plan, matcher, emit, () => this.pauseBetweenBatches(), () => this.interrupter.due());
  }

  /** A yield when the time slice is used up (the time limit and interrupts checked then). */
  async pauseIfDue(): Promise<void> {
    if (this.interrupter.due()) await this.pauseBetweenBatches();
  }

  /** Between batches: backpressure, then a yield when the time slice is used up (or an interrupt). */
  async pauseBetweenBatches(): Promise<void> {
    const wait = this.pause?.();
    // waiting for the reader (backpressure, a cursor's next page) does not count against the time limit
    if (wait) this.deadline += await timeWaiting(wait);
    if (this.interrupter.due()) await this.interrupter.yield();
    else this.interrupter.check();
    if (performance.now() > this.deadline) throw new InterruptedError('the query exceeded its time limit');
  }

  // ---- expressions ----

  /** Compiles an expression over solutions, with `active` as the graph of EXISTS patterns; undefined on error. */
  expression(e: Algebra.Expression, active: number = DEFAULT_GRAPH): (s: Int32Array) => Value | undefined {
    return compileOverSolutions(this, e, active);
  }

  /** Compiles a condition (effective boolean value; errors are false). */
  condition(e: Algebra.Expression, active: number = DEFAULT_GRAPH): (s: Int32Array) => boolean {
    return compileCondition(this, e, active);
  }
}

export { UNBOUND };
