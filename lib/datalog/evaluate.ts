/**
 * Evaluating rule bodies over the tuple tables: join plans (per rule and set of pre-bound
 * variables, cached) whose atoms the join planner orders (`planner/join-order.ts`, the cost
 * model SPARQL's basic graph patterns use too), executed with one Int32Array of variable
 * slots and no allocation per matched row. A row filter selects which rows count (the old or the current
 * materialisation during maintenance).
 * @module
 */
import type { StoreState } from '../storage/fact-store.js';
import { DATA_SOURCE_TABLE_TYPE, mountedReaderOf, type TupleTableInfo } from '../storage/catalogue.js';
import { ANY, PAIR_MIN_CHAIN, type TupleTable, type TableView } from '../storage/tuple-table.js';
import type { PairIndex } from '../storage/pair-index.js';
import { chainColumn } from '../storage/table-cursor.js';
import { DataFactory } from 'n3';
import { aggregateArguments } from './ast.js';
import { aggregateArity, compileExpression, createAggregator, effectiveBooleanValue, ExpressionError, type Aggregator } from '../expressions/index.js';
import { termToKey } from '../model/terms.js';
import type { CompiledAtom, CompiledLiteral, CompiledRule, VariableScope } from './program.js';
import type { TermValue, TermValues } from './term-values.js';
import { evaluateSkolem, skolemReady } from './skolem.js';
import { type CompiledTripleTerm, evaluateTripleTerm, tripleTermReady } from './triple-term-patterns.js';
import { cheapest, constantRows, NONE, type PlanAtom, type TableStatistics } from '../planner/join-order.js';

/** Which rows count for a scan; null means every visible row. */
export type RowFilter = ((tableId: number, row: number) => boolean) | null;

/** Called for each match; returning true stops the evaluation. */
export type MatchCallback = (slots: Int32Array) => boolean | void;

type Step =
  | { readonly kind: 'scan'; readonly atom: CompiledAtom }
  | { readonly kind: 'skolem'; readonly args: Int32Array }
  | { readonly kind: 'tripleTerm'; readonly literal: CompiledTripleTerm }
  | { readonly kind: 'filter'; readonly test: (slots: Int32Array) => boolean }
  | { readonly kind: 'bind'; readonly slot: number; readonly compute: (slots: Int32Array) => number }
  | { readonly kind: 'not'; readonly steps: readonly Step[]; readonly local: readonly number[] }
  | {
      readonly kind: 'aggregate';
      readonly steps: readonly Step[];
      readonly groupSlots: readonly number[];
      readonly resultSlots: readonly number[];
      readonly innerSlots: readonly number[];
      readonly makeAggregators: () => Aggregator[];
      /** Per binding: adds the values of one solution to its aggregator. */
      readonly feeds: ReadonlyArray<(aggregator: Aggregator, slots: Int32Array) => void>;
    };

declare const JOIN_PLAN: unique symbol;

/**
 * A rule body's join plan for one set of pre-bound slots, made by
 * {@link RuleEvaluator.planFor} and run by {@link RuleEvaluator.runPlan}; opaque elsewhere.
 */
export interface JoinPlan {
  /** Marks the type (a plan is the evaluator's list of steps). */
  readonly [JOIN_PLAN]: true;
}

/** Evaluates the bodies of compiled rules against a store state. */
export class RuleEvaluator {
  private readonly plans = new Map<CompiledRule, Map<number | string, Step[]>>();
  /** The tables mounted on data sources, by id (found on first use). */
  private mounted: Map<number, TupleTableInfo> | undefined;
  /** Row filter applied to every scan. */
  accept: RowFilter = null;
  private readonly probes: Array<Uint32Array | undefined> = [];
  /** Per arity: the values a lookup binds (ANY elsewhere), to choose a pair index (made on first use). */
  private readonly values: Array<Int32Array | undefined> = [];
  /** The atoms of the rules as the planner sees them. */
  private readonly planAtoms = new WeakMap<CompiledAtom, PlanAtom>();

  /**
   * Creates an evaluator for one reasoning run; `now` is the value of NOW() for every rule
   * firing of the run (the time the evaluator is created unless given).
   */
  constructor(
    private readonly state: StoreState,
    private readonly terms: TermValues,
    private readonly now: Date = new Date(),
  ) {}

  /** Evaluates `rule`'s body with `slots` pre-bound (>= 0) and the literal `skip` left out. */
  run(rule: CompiledRule, slots: Int32Array, skip: number, onMatch: MatchCallback): boolean {
    const steps = this.plan(rule, slots, skip);
    return this.exec(steps, 0, slots, onMatch);
  }

  /** The plan for `rule` with the slots of `bound` pre-bound and `skip` left out (cached). */
  planFor(rule: CompiledRule, bound: Int32Array, skip: number): JoinPlan {
    return this.plan(rule, bound, skip) as unknown as JoinPlan;
  }

  /** Runs a plan from {@link RuleEvaluator.planFor} (the same slots must be bound). */
  runPlan(plan: JoinPlan, slots: Int32Array, onMatch: MatchCallback): boolean {
    return this.exec(plan as unknown as Step[], 0, slots, onMatch);
  }

  /** Binds `atom`'s variables to the tuple at `row` of its table; false when constants or repeats clash. */
  unify(atom: CompiledAtom, table: TupleTable, row: number, slots: Int32Array): boolean {
    const args = atom.args;
    for (let c = 0; c < args.length; c++) {
      const a = args[c]!;
      const v = table.get(row, c);
      if (a >= 0) {
        if (a !== v) return false;
      } else {
        const s = -a - 1;
        if (slots[s]! < 0) slots[s] = v;
        else if (slots[s] !== v) return false;
      }
    }
    return true;
  }

  private plan(rule: CompiledRule, slots: Int32Array, skip: number): Step[] {
    // key: the skipped literal and a bit per bound slot (a string past 40 slots)
    let key: number | string = skip + 1;
    if (slots.length <= 40) {
      for (let i = 0; i < slots.length; i++) if (slots[i]! >= 0) key += 2 ** (i + 12);
    } else {
      for (let i = 0; i < slots.length; i++) if (slots[i]! >= 0) key = `${key},${i}`;
    }
    let byKey = this.plans.get(rule);
    if (!byKey) this.plans.set(rule, (byKey = new Map<number | string, Step[]>()));
    let steps = byKey.get(key);
    if (!steps) {
      const bound = new Set<number>();
      for (let i = 0; i < slots.length; i++) if (slots[i]! >= 0) bound.add(i);
      steps = this.order(rule, rule.body.filter((_, i) => i !== skip), bound, slots);
      byKey.set(key, steps);
    }
    return steps;
  }

  /**
   * Greedy ordering: cheap literals (filters, NOT, BIND, SKOLEM) as soon as their variables
   * are bound, then the cheapest atom by the planner's cost model (`planner/join-order.ts`),
   * with the values of `values` known when the plan is made.
   */
  private order(rule: CompiledRule, literals: readonly CompiledLiteral[], bound: Set<number>, values?: Int32Array): Step[] {
    const remaining = [...literals];
    const steps: Step[] = [];
    const ready = (l: CompiledLiteral): boolean => l.vars.every((v) => bound.has(v));
    const flags = new Uint8Array(Math.max(rule.slotCount, values?.length ?? 0));
    for (;;) {
      let progress = true;
      while (progress) {
        progress = false;
        for (let i = 0; i < remaining.length; i++) {
          const l = remaining[i]!;
          if ((l.kind === 'filter' || l.kind === 'not') && ready(l)) {
            steps.push(this.compileLiteral(rule, l, bound));
            remaining.splice(i--, 1);
            progress = true;
          } else if (l.kind === 'bind' && ready(l)) {
            steps.push(this.compileLiteral(rule, l, bound));
            bound.add(l.slot);
            remaining.splice(i--, 1);
            progress = true;
          } else if (l.kind === 'skolem' && skolemReady(l, bound)) {
            // a function of its leading arguments (or unpacking its last one): as cheap as a BIND
            steps.push({ kind: 'skolem', args: l.args });
            for (const v of l.vars) bound.add(v);
            remaining.splice(i--, 1);
            progress = true;
          } else if (l.kind === 'tripleTerm' && tripleTermReady(l, bound)) {
            // a lookup of the triple term index by the triple term or by all its parts
            steps.push({ kind: 'tripleTerm', literal: l });
            for (const v of l.vars) bound.add(v);
            remaining.splice(i--, 1);
            progress = true;
          }
        }
      }
      const atoms: PlanAtom[] = [];
      const bases: number[] = [];
      const candidates: number[] = [];
      for (let i = 0; i < remaining.length; i++) {
        const l = remaining[i]!;
        if (l.kind !== 'atom') continue;
        const atom = this.planAtom(l.atom);
        atoms.push(atom);
        bases.push(constantRows(atom));
        candidates.push(i);
      }
      let best = -1;
      if (atoms.length > 0) {
        flags.fill(0);
        for (const s of bound) if (s < flags.length) flags[s] = 1;
        best = candidates[cheapest(atoms, bases, atoms.map((_, k) => k), flags, values, bound.size > 0)]!;
      }
      if (best < 0) best = remaining.findIndex((l) => l.kind === 'aggregate');
      // no atom left to bind a triple term pattern's term: the index's triple terms with the bound parts
      if (best < 0) best = remaining.findIndex((l) => l.kind === 'tripleTerm');
      if (best < 0) break;
      const l = remaining.splice(best, 1)[0]!;
      steps.push(this.compileLiteral(rule, l, bound));
      for (const v of l.vars) bound.add(v);
    }
    if (remaining.length > 0) {
      // unsafe leftovers cannot occur for checked rules; evaluate them last anyway
      for (const l of remaining) steps.push(this.compileLiteral(rule, l, bound));
    }
    return steps;
  }

  /** An atom as the planner sees it, with the statistics of its table in this evaluator's state (cached). */
  private planAtom(atom: CompiledAtom): PlanAtom {
    let planned = this.planAtoms.get(atom);
    if (planned === undefined) {
      const args = atom.args;
      const slots = Int32Array.from(args, (a) => (a >= 0 ? NONE : -a - 1));
      const constants = Int32Array.from(args, (a) => (a >= 0 ? a : NONE));
      planned = { slots, constants, table: this.statistics(atom.tableId) };
      this.planAtoms.set(atom, planned);
    }
    return planned;
  }

  /** The planner's view of a table: its live rows and per-value counts (unknown size for a table mounted on a data source). */
  private statistics(tableId: number): TableStatistics {
    if (this.mountedInfo(tableId)) return { size: Infinity, countOf: () => 0 };
    const state = this.state;
    return {
      get size() {
        return state.table(tableId).liveCount;
      },
      countOf: (column, value) => state.table(tableId).countOf(column, value),
    };
  }

  private compileLiteral(rule: CompiledRule, l: CompiledLiteral, bound: Set<number>): Step {
    switch (l.kind) {
      case 'atom':
        return { kind: 'scan', atom: l.atom };
      case 'skolem':
        return { kind: 'skolem', args: l.args };
      case 'tripleTerm':
        return { kind: 'tripleTerm', literal: l };
      case 'filter': {
        const f = compileExpression(l.source.expression, { now: this.now });
        const get = this.getter(l.scope);
        return {
          kind: 'filter',
          test: (slots) => {
            try {
              return effectiveBooleanValue(f(get(slots)));
            } catch (e) {
              // an expression error fails the filter; anything else (an interruption, a bug) stops the run
              if (e instanceof ExpressionError) return false;
              throw e;
            }
          },
        };
      }
      case 'bind': {
        const f = compileExpression(l.source.expression, { now: this.now });
        const get = this.getter(l.scope);
        return {
          kind: 'bind',
          slot: l.slot,
          compute: (slots) => {
            let value: TermValue;
            try {
              value = f(get(slots));
            } catch (e) {
              if (e instanceof ExpressionError) return -1;
              throw e;
            }
            return this.terms.id(value);
          },
        };
      }
      case 'not': {
        const inner = new Set(bound);
        const steps = this.order(
          rule,
          [...l.atoms.map((atom): CompiledLiteral => ({ kind: 'atom', atom, vars: [...atom.args].filter((x) => x < 0).map((x) => -x - 1) })), ...l.patterns],
          inner,
        );
        return { kind: 'not', steps, local: l.local };
      }
      case 'aggregate': {
        const inner = new Set(bound);
        const before = new Set(bound);
        const steps = this.order(rule, l.inner, inner);
        const innerSlots = [...inner].filter((s) => !before.has(s));
        const get = this.getter(l.scope);
        const compile = (e: Parameters<typeof compileExpression>[0]): ((slots: Int32Array) => TermValue | undefined) => {
          const f = compileExpression(e, { now: this.now });
          return (slots) => {
            try {
              return f(get(slots));
            } catch (e) {
              if (e instanceof ExpressionError) return undefined;
              throw e;
            }
          };
        };
        const feeds = l.source.bindings.map((b): ((aggregator: Aggregator, slots: Int32Array) => void) => {
          const args = aggregateArguments(b).map(compile);
          if (aggregateArity(b.fn) === 2) return (a, slots) => a.add(args[0]!(slots), args[1]!(slots));
          if (args.length === 0) {
            // COUNT(*): with DISTINCT, a term that identifies the solution (its inner bindings)
            if (!b.distinct) return (a) => a.add(undefined);
            return (a, slots) => a.add(DataFactory.literal(innerSlots.map((x) => slots[x]).join(',')));
          }
          if (args.length === 1) return (a, slots) => a.add(args[0]!(slots));
          // COUNT(e1, …, en): the solutions where every expression has a value (distinct tuples with DISTINCT)
          return (a, slots) => {
            const values = args.map((f) => f(slots));
            if (values.some((v) => v === undefined)) a.add(undefined);
            else a.add(b.distinct ? DataFactory.literal(values.map((v) => termToKey(v!)).join('\u0000')) : values[0]);
          };
        });
        const makeAggregators = (): Aggregator[] => l.source.bindings.map((b) => createAggregator(b.fn, b.distinct, { countStar: aggregateArguments(b).length === 0 }));
        return { kind: 'aggregate', steps, groupSlots: l.groupSlots, resultSlots: l.resultSlots, innerSlots, makeAggregators, feeds };
      }
    }
  }

  /** Reads the variables of an expression (by the slots of its scope) from the slots of a match. */
  private getter(scope: VariableScope): (slots: Int32Array) => (name: string) => TermValue | undefined {
    return (slots) => (name) => {
      const s = scope.get(name);
      if (s === undefined) return undefined;
      const id = slots[s]!;
      return id >= 0 ? this.terms.value(id) : undefined;
    };
  }

  /** Runs steps from `i`; returns true when the callback asked to stop. */
  private exec(steps: readonly Step[], i: number, slots: Int32Array, onMatch: MatchCallback): boolean {
    if (i === steps.length) return onMatch(slots) === true;
    const step = steps[i]!;
    switch (step.kind) {
      case 'scan':
        return this.scan(step.atom, steps, i, slots, onMatch);
      case 'skolem':
        return evaluateSkolem(step.args, slots, this.terms, (check) => this.exec(steps, i + 1, slots, check ? (s) => check(s) && onMatch(s) === true : onMatch));
      case 'tripleTerm':
        return evaluateTripleTerm(step.literal, slots, this.terms, () => this.exec(steps, i + 1, slots, onMatch));
      case 'filter':
        return step.test(slots) ? this.exec(steps, i + 1, slots, onMatch) : false;
      case 'bind': {
        const id = step.compute(slots);
        if (id < 0) return false;
        // a variable bound already: the BIND tests that its value is the same term
        const old = slots[step.slot]!;
        if (old >= 0) return old === id ? this.exec(steps, i + 1, slots, onMatch) : false;
        slots[step.slot] = id;
        const stop = this.exec(steps, i + 1, slots, onMatch);
        slots[step.slot] = -1;
        return stop;
      }
      case 'not': {
        const found = this.exec(step.steps, 0, slots, () => true);
        for (const s of step.local) slots[s] = -1;
        return found ? false : this.exec(steps, i + 1, slots, onMatch);
      }
      case 'aggregate':
        return this.aggregate(step, steps, i, slots, onMatch);
    }
  }

  /** The catalogue entry of a table mounted on a data source, or undefined for other tables. */
  private mountedInfo(tableId: number): TupleTableInfo | undefined {
    if (this.mounted === undefined) {
      this.mounted = new Map();
      for (const info of this.state.catalogue.tupleTables.values()) if (info.type === DATA_SOURCE_TABLE_TYPE) this.mounted.set(info.id, info);
    }
    return this.mounted.get(tableId);
  }

  /** A scan of a table mounted on a data source: the source is read with the bound arguments pushed down. */
  private scanMounted(info: TupleTableInfo, atom: CompiledAtom, steps: readonly Step[], i: number, slots: Int32Array, onMatch: MatchCallback): boolean {
    const args = atom.args;
    const bound = [...args].map((a) => {
      const v = a >= 0 ? a : slots[-a - 1]!;
      return v >= 0 ? this.terms.key(v) : undefined;
    });
    return mountedReaderOf(info).scan(bound, (row) => {
      let boundMask = 0;
      let ok = true;
      for (let c = 0; c < args.length && ok; c++) {
        const a = args[c]!;
        // constants and values bound before the atom: the reader checked them
        if (a >= 0 || bound[c] !== undefined) continue;
        const v = this.terms.internKey(row[c]!);
        const s = -a - 1;
        if (slots[s]! < 0) {
          slots[s] = v;
          boundMask |= 1 << c;
        } else if (slots[s] !== v) ok = false;
      }
      const stop = ok && this.exec(steps, i + 1, slots, onMatch);
      for (let c = 0; boundMask !== 0; c++, boundMask >>>= 1) if ((boundMask & 1) !== 0) slots[-args[c]! - 1] = -1;
      return stop;
    });
  }

  private scan(atom: CompiledAtom, steps: readonly Step[], i: number, slots: Int32Array, onMatch: MatchCallback): boolean {
    const mounted = this.mountedInfo(atom.tableId);
    if (mounted) return this.scanMounted(mounted, atom, steps, i, slots, onMatch);
    const table = this.state.table(atom.tableId);
    const view: TableView = this.state.view(atom.tableId);
    const args = atom.args;
    const arity = args.length;
    // every position bound: one membership probe
    const probe = (this.probes[arity] ??= new Uint32Array(arity));
    let ground = true;
    for (let c = 0; c < arity && ground; c++) {
      const a = args[c]!;
      const v = a >= 0 ? a : slots[-a - 1]!;
      if (v < 0) ground = false;
      else probe[c] = v;
    }
    if (ground) {
      const row = table.find(probe, view);
      if (row < 0 || (this.accept !== null && !this.accept(atom.tableId, row))) return false;
      return this.exec(steps, i + 1, slots, onMatch);
    }
    // the column the table's lookups walk (the bound one with the fewest rows), chosen as a
    // TableCursor chooses it. The walk is this loop's own: rows handed out by a cursor, one
    // call per row between the joins of the steps below, made RDFS reasoning on LUBM(1) take
    // 13-20 % more CPU than this loop (both run in one process, alternating), however the
    // cursor was trimmed; rule bodies read their tables through a cursor nowhere else either.
    // Nor did a cursor that walks with the state in locals and hands each row to a visitor
    // (one reused frame per nesting depth, no allocation) pay: RDFS recomputation on LUBM(1)
    // took a median 18 % more CPU over 25 alternating rounds in one process (OWL 2 RL: 2 %)
    const values = (this.values[arity] ??= new Int32Array(arity));
    for (let c = 0; c < arity; c++) {
      const a = args[c]!;
      values[c] = a >= 0 ? a : slots[-a - 1]! < 0 ? ANY : slots[-a - 1]!;
    }
    const best = chainColumn(table, values);
    const accept = this.accept;
    const tableId = atom.tableId;
    let row = -1;
    let limit = 0;
    // a long single-column chain with a second bound column: maybe the pair index instead
    let pair: PairIndex | undefined;
    if (best >= 0) {
      const count = table.countOf(best, values[best]!);
      if (count > PAIR_MIN_CHAIN) pair = table.pairFor(best, count, values);
      if (pair !== undefined) row = pair.head(values[pair.a]!, values[pair.b]!);
    }
    if (pair !== undefined) {
      // row is the pair chain's head
    } else if (best >= 0) {
      row = table.head(best, values[best]!);
    } else {
      row = 0;
      limit = view.limit;
      if (limit === 0) return false;
    }
    while (row >= 0) {
      const current = row;
      row = pair !== undefined ? pair.nextRow(current) : best >= 0 ? table.nextRow(best, current) : current + 1 < limit ? current + 1 : -1;
      if (!table.visible(current, view) || (accept !== null && !accept(tableId, current))) continue;
      let ok = true;
      let boundMask = 0; // columns whose variable this row bound
      for (let c = 0; c < arity; c++) {
        const a = args[c]!;
        const v = table.get(current, c);
        if (a >= 0) {
          if (a !== v) {
            ok = false;
            break;
          }
        } else {
          const s = -a - 1;
          const b = slots[s]!;
          if (b < 0) {
            slots[s] = v;
            boundMask |= 1 << c;
          } else if (b !== v) {
            ok = false;
            break;
          }
        }
      }
      let stop = false;
      if (ok) stop = this.exec(steps, i + 1, slots, onMatch);
      for (let c = 0; boundMask !== 0; c++, boundMask >>>= 1) if ((boundMask & 1) !== 0) slots[-args[c]! - 1] = -1;
      if (stop) return true;
    }
    return false;
  }

  private aggregate(step: Step & { kind: 'aggregate' }, steps: readonly Step[], i: number, slots: Int32Array, onMatch: MatchCallback): boolean {
    const groups = new Map<string, { key: number[]; aggregators: Aggregator[] }>();
    const wasBound = step.groupSlots.map((s) => slots[s]! >= 0);
    this.exec(step.steps, 0, slots, (inner) => {
      const key = step.groupSlots.map((s) => inner[s]!);
      const k = key.join(',');
      let g = groups.get(k);
      if (!g) {
        g = { key, aggregators: step.makeAggregators() };
        groups.set(k, g);
      }
      for (let b = 0; b < g.aggregators.length; b++) step.feeds[b]!(g.aggregators[b]!, inner);
    });
    for (const s of step.innerSlots) slots[s] = -1;
    if (groups.size === 0 && step.groupSlots.length === 0) groups.set('', { key: [], aggregators: step.makeAggregators() });
    for (const g of groups.values()) {
      const values: number[] = [];
      let ok = true;
      for (const a of g.aggregators) {
        const r = a.result();
        if (r === undefined) {
          ok = false;
          break;
        }
        values.push(this.terms.id(r));
      }
      if (!ok) continue;
      const set: number[] = [];
      for (let k = 0; k < step.groupSlots.length; k++) {
        const s = step.groupSlots[k]!;
        if (!wasBound[k]) {
          slots[s] = g.key[k]!;
          set.push(s);
        }
      }
      for (let k = 0; k < step.resultSlots.length; k++) {
        const s = step.resultSlots[k]!;
        if (slots[s]! < 0) {
          slots[s] = values[k]!;
          set.push(s);
        } else if (slots[s] !== values[k]) ok = false;
      }
      const stop = ok && this.exec(steps, i + 1, slots, onMatch);
      for (const s of set) slots[s] = -1;
      if (stop) return true;
    }
    return false;
  }
}
