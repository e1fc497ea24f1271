/**
 * Basic graph patterns: their patterns' positions, the statistics the join planner
 * (`planner/join-order.ts`) reads from the dataset, and the join plan as steps over one shared
 * solution, run either recursively ({@link BgpPlan.step}) or as an iterative nested-loop join
 * over resumable scans that yields to the event loop ({@link runBgpIteratively}).
 *
 * Matching allocates nothing per match: each pattern's callback is made once per plan, records
 * the slots it bound in a bit mask, and only a complete solution is copied (it escapes to the
 * consumer).
 * @module
 */
import type * as RDF from '@rdfjs/types/data-model.js';
import type { Algebra } from '../expressions/sparql-libraries.js';
import type { TripleTermIndex } from '../model/triple-terms.js';
import { TransactionError } from '../model/errors.js';
import { JoinOrders, NONE, type PlanAtom, type TableStatistics } from '../planner/join-order.js';
import { ANY_NAMED_GRAPH, DEFAULT_GRAPH, type MatchCallback, type QuadSource, UNBOUND } from './quad-source.js';
import type { AsyncEmit, Emit } from './solutions.js';

/** A position of a pattern: a variable's slot or a constant's id. */
export type PatternRef = { readonly slot: number } | { readonly id: number };

/**
 * A pattern's subject, predicate, object and graph; or, for a triple-term atom (see
 * {@link TripleTermAtoms}), the triple term's subject, predicate, object and the triple term.
 */
export type PatternRefs = readonly [PatternRef, PatternRef, PatternRef, PatternRef];

/**
 * The triple-term atoms of a basic graph pattern: a triple term written with variables
 * (`?r rdf:reifies <<( ?s :p ?o )>>`) stands in its pattern as a hidden variable, and an atom
 * (subject, predicate, object, triple term) relates that variable to the parts. The atoms come
 * after the patterns in `compiled` and are matched on the dictionary's index of triple terms,
 * by whichever parts are bound — never by enumerating facts.
 */
export interface TripleTermAtoms {
  /** The index of the first triple-term atom in `compiled` (those before are quad patterns). */
  readonly from: number;
  /** The dictionary's triple terms. */
  readonly index: TripleTermIndex;
}

/** A basic graph pattern's positions (per pattern: subject, predicate, object, graph) and its join orders. */
export interface PreparedBgp {
  /** The positions of each pattern, in written order, then those of its triple-term atoms. */
  readonly compiled: readonly PatternRefs[];
  /** The join orders, one per set of bound slots. */
  readonly orders: JoinOrders;
  /** The triple-term atoms among `compiled`, if any. */
  readonly tripleTerms?: TripleTermAtoms;
}

/** Rows the scan of a basic graph pattern's last pattern visits per step of the iterative join. */
const LAST_SCAN_BATCH = 16;

/** What a dataset without estimates is assumed to hold per pattern. */
const NO_ESTIMATE = 1000;

/**
 * The planner's view of the quads a pattern matches in one graph argument (DEFAULT_GRAPH,
 * ANY_NAMED_GRAPH or a graph's id): the dataset's estimates, the size asked once.
 */
class GraphStatistics implements TableStatistics {
  private rows = -1;

  constructor(
    private readonly source: QuadSource,
    private readonly graph: number,
  ) {}

  get size(): number {
    if (this.rows < 0) this.rows = this.source.estimate ? this.source.estimate(UNBOUND, UNBOUND, UNBOUND, this.graph) : NO_ESTIMATE;
    return this.rows;
  }

  countOf(column: number, value: number): number {
    const source = this.source;
    if (!source.estimate) return NO_ESTIMATE;
    // a term the store does not hold matches nothing
    if (value < 0) return 0;
    if (column === 3) return source.estimate(UNBOUND, UNBOUND, UNBOUND, value);
    return source.estimate(column === 0 ? value : UNBOUND, column === 1 ? value : UNBOUND, column === 2 ? value : UNBOUND, this.graph);
  }
}

/** The planner's view of the triple terms a triple-term atom matches: the index's counts by part. */
class TripleTermStatistics implements TableStatistics {
  constructor(private readonly index: TripleTermIndex) {}

  get size(): number {
    return this.index.size;
  }

  countOf(column: number, value: number): number {
    if (value < 0) return 0;
    if (column === 3) return 1;
    return this.index.estimate(column === 0 ? value : UNBOUND, column === 1 ? value : UNBOUND, column === 2 ? value : UNBOUND);
  }
}

/**
 * Calls `onMatch(s, p, o, t)` for each triple term t with parts (s, p, o) matching the
 * arguments (UNBOUND: any): by its parts when `t` is bound, one lookup when every part is,
 * else the index's list of a bound part. Returns true when `onMatch` returned true (stop).
 */
export function matchTripleTerms(index: TripleTermIndex, s: number, p: number, o: number, t: number, onMatch: MatchCallback): boolean {
  // the index goes on while its callback returns true, and returns false when stopped
  return !index.matchTerm(t, s, p, o, (id, ms, mp, mo) => onMatch(ms, mp, mo, id) !== true);
}

/**
 * {@link matchTripleTerms} as a resumable scan (see {@link QuadSource.matcher}): `budget`
 * triple terms are read per call, so that a scan of many of them lets the event loop in. A
 * triple term given by its id is one check.
 */
function tripleTermMatcher(index: TripleTermIndex, s: number, p: number, o: number, t: number, onMatch: MatchCallback): (budget: number) => boolean {
  if (t >= 0) {
    let done = false;
    return () => {
      if (!done) {
        done = true;
        matchTripleTerms(index, s, p, o, t, onMatch);
      }
      return true;
    };
  }
  const walk = index.walk(s, p, o);
  const report = (id: number, ms: number, mp: number, mo: number): boolean => onMatch(ms, mp, mo, id) !== true;
  return (budget) => {
    try {
      return index.resume(walk, budget, report);
    } catch (e) {
      if (e instanceof RangeError) throw new TransactionError('a transaction rolled back while a scan of triple terms was suspended; run the query again');
      throw e;
    }
  };
}

/**
 * The join orders of a basic graph pattern's patterns (made once per query, active graph and
 * graph slot; the orders once per set of bound variables). With `tripleTerms`, the atoms of
 * `compiled` from `tripleTerms.from` on are triple-term atoms, counted by the triple-term index.
 */
export function prepareBgp(compiled: readonly PatternRefs[], source: QuadSource, tripleTerms?: TripleTermAtoms): PreparedBgp {
  const statistics = new Map<number, GraphStatistics>();
  const tripleTermTable = tripleTerms ? new TripleTermStatistics(tripleTerms.index) : undefined;
  const atoms = compiled.map((refs, i): PlanAtom => {
    const slots = new Int32Array(4);
    const constants = new Int32Array(4);
    for (let c = 0; c < 4; c++) {
      const r = refs[c]!;
      slots[c] = 'slot' in r ? r.slot : NONE;
      constants[c] = 'id' in r && r.id >= 0 ? r.id : NONE;
    }
    if (tripleTermTable && i >= tripleTerms!.from) return { slots, constants, table: tripleTermTable };
    const g = refs[3];
    const graph = 'id' in g ? g.id : ANY_NAMED_GRAPH;
    let table = statistics.get(graph);
    if (!table) statistics.set(graph, (table = new GraphStatistics(source, graph)));
    return { slots, constants, table };
  });
  return tripleTerms ? { compiled, orders: new JoinOrders(atoms), tripleTerms } : { compiled, orders: new JoinOrders(atoms) };
}

/** A textual join order (for EXPLAIN): the patterns in plan order and the variables bound before. */
export function describeJoinOrder(patterns: readonly Algebra.Pattern[], order: readonly number[], seed: Int32Array, slots: ReadonlyMap<string, number>): string {
  const name = (t: RDF.Term): string =>
    t.termType === 'Variable' ? `?${t.value}` : t.termType === 'DefaultGraph' ? '' : t.termType === 'Literal' ? JSON.stringify(t.value) : t.termType === 'Quad' ? `<<( ${name(t.subject)} ${name(t.predicate)} ${name(t.object)} )>>` : `<${t.value}>`;
  const preBound = [...slots].filter(([, s]) => seed[s]! !== -1).map(([n]) => `?${n}`);
  const lines = order.map((i, k) => {
    const p = patterns[i]!;
    const g = name(p.graph);
    return `  ${k + 1}. ${name(p.subject)} ${name(p.predicate)} ${name(p.object)}${g ? ` ${g}` : ''}`;
  });
  return `join order${preBound.length > 0 ? ` (bound: ${preBound.join(' ')})` : ''}:\n${lines.join('\n')}`;
}

/** The steps of a basic graph pattern's join plan over one shared solution. */
export interface BgpPlan {
  /** The number of patterns. */
  readonly size: number;
  /** The shared solution the steps bind. */
  readonly solution: Int32Array;
  /** Binds the slots of the k-th pattern to a match (s, p, o, g); false (nothing bound) when it conflicts or a condition due then fails. */
  readonly bindAt: (k: number, match: ArrayLike<number>) => boolean;
  /** Unbinds what the last {@link BgpPlan.bindAt} of the k-th pattern bound. */
  readonly unbindAt: (k: number) => void;
  /** Matches the patterns from the k-th on (in plan order), emitting a copy of each full solution. */
  readonly step: (k: number) => boolean;
  /**
   * Sets {@link BgpPlan.args} to the match arguments (s, p, o, graph) of the k-th pattern
   * under the current bindings; false when nothing can match.
   */
  readonly argsOf: (k: number) => boolean;
  /** The match arguments {@link BgpPlan.argsOf} set last. */
  readonly args: Int32Array;
  /** Per step: 1 when it is a triple-term atom, matched on {@link BgpPlan.tripleTerms}. */
  readonly tripleTermAt: Uint8Array;
  /** The index the triple-term atoms are matched on. */
  readonly tripleTerms: TripleTermIndex | undefined;
}

/**
 * A FILTER over a basic graph pattern, tested inside the plan as soon as the slots it reads
 * are bound (its value depends on those slots alone), so that the later patterns are not
 * matched for solutions it rejects.
 */
export interface PlanCondition {
  /** The slots the condition reads. */
  readonly slots: readonly number[];
  /** Whether the (partial) solution passes. */
  readonly test: (solution: Int32Array) => boolean;
}

/**
 * Per step of a plan in `order`: the conditions to test once that step has bound its slots —
 * each at the first step after which every slot it reads is bound (by `seed` or an earlier
 * pattern), or at the last step when some slot is never bound.
 */
function conditionsPerStep(compiled: readonly PatternRefs[], order: readonly number[], seed: Int32Array, conditions: readonly PlanCondition[]): Array<Array<PlanCondition['test']> | undefined> {
  const n = order.length;
  const at = new Array<Array<PlanCondition['test']> | undefined>(n);
  const bound = new Set<number>();
  for (let i = 0; i < seed.length; i++) if (seed[i]! !== -1) bound.add(i);
  let left = [...conditions];
  for (let k = 0; k < n && left.length > 0; k++) {
    for (const r of compiled[order[k]!]!) if ('slot' in r) bound.add(r.slot);
    const ready = left.filter((c) => c.slots.every((x) => bound.has(x)));
    if (ready.length === 0) continue;
    (at[k] ??= []).push(...ready.map((c) => c.test));
    left = left.filter((c) => !ready.includes(c));
  }
  if (left.length > 0) (at[n - 1] ??= []).push(...left.map((c) => c.test));
  return at;
}

/** Per step of a plan (four positions each): the slot of each position (-1: a constant) and the constant's id. */
interface StepPositions {
  readonly slotAt: Int32Array;
  readonly idAt: Int32Array;
}

/** The positions of each join order (orders are made once per set of bound slots and kept, so these are too). */
const stepPositions = new WeakMap<readonly number[], StepPositions>();

/** The positions of the patterns of `compiled` in `order`, per step. */
function positionsInOrder(compiled: readonly PatternRefs[], order: readonly number[]): StepPositions {
  let positions = stepPositions.get(order);
  if (positions === undefined) {
    const n = order.length;
    const slotAt = new Int32Array(n * 4).fill(-1);
    const idAt = new Int32Array(n * 4);
    for (let k = 0; k < n; k++) {
      const refs = compiled[order[k]!]!;
      for (let c = 0; c < 4; c++) {
        const r = refs[c]!;
        if ('slot' in r) slotAt[k * 4 + c] = r.slot;
        else idAt[k * 4 + c] = r.id;
      }
    }
    positions = { slotAt, idAt };
    stepPositions.set(order, positions);
  }
  return positions;
}

/**
 * The join plan of a basic graph pattern in `order` (indexes into `compiled`) under `seed`,
 * matching in `source`; each full solution goes to `emit` as a copy; `tick` runs before every
 * step (it throws to interrupt). Each of `conditions` is tested as soon as its slots are bound
 * ({@link PlanCondition}): a partial solution that fails one goes no further.
 */
export function bgpPlan(
  compiled: readonly PatternRefs[],
  order: readonly number[],
  seed: Int32Array,
  source: QuadSource,
  emit: Emit,
  tick: () => void,
  conditions: readonly PlanCondition[] = [],
  tripleTerms?: TripleTermAtoms,
): BgpPlan {
  const n = order.length;
  const tripleTermAt = new Uint8Array(n);
  if (tripleTerms) for (let k = 0; k < n; k++) tripleTermAt[k] = order[k]! >= tripleTerms.from ? 1 : 0;
  const index = tripleTerms?.index;
  const solution = seed.slice();
  const { slotAt, idAt } = positionsInOrder(compiled, order);
  const checks = conditions.length === 0 || n === 0 ? undefined : conditionsPerStep(compiled, order, seed, conditions);
  /** Whether the solution passes the conditions due after the k-th step. */
  const passes = (k: number): boolean => {
    const tests = checks?.[k];
    if (tests === undefined) return true;
    for (const t of tests) if (!t(solution)) return false;
    return true;
  };
  const args = new Int32Array(4);
  const argsOf = (k: number): boolean => {
    const base = k * 4;
    for (let c = 0; c < 3; c++) {
      const s = slotAt[base + c]!;
      const v = s >= 0 ? solution[s]! : idAt[base + c]!;
      // a constant (or binding) the store does not hold matches nothing (below UNBOUND: a query-local id)
      if (v < UNBOUND) return false;
      args[c] = v;
    }
    const gs = slotAt[base + 3]!;
    if (gs < 0) {
      const g = idAt[base + 3]!;
      if (g < DEFAULT_GRAPH) return false;
      args[3] = g;
    } else {
      // a graph variable: its graph when bound, else any named graph (below DEFAULT_GRAPH: not a graph)
      const g = solution[gs]!;
      if (g < DEFAULT_GRAPH) return false;
      args[3] = g >= 0 ? g : ANY_NAMED_GRAPH;
    }
    return true;
  };
  /** Binds the k-th pattern's slots to (s, p, o, g) and goes on with the next pattern. */
  const onMatch = (k: number): MatchCallback => {
    const base = k * 4;
    const s0 = slotAt[base]!;
    const s1 = slotAt[base + 1]!;
    const s2 = slotAt[base + 2]!;
    const s3 = slotAt[base + 3]!;
    return (s, p, o, g) => {
      // every stored row visited counts, kept or not: a scan whose rows all fail a condition still stops
      tick();
      let mask = 0;
      let ok = true;
      if (s0 >= 0) {
        const cur = solution[s0]!;
        if (cur === -1) {
          solution[s0] = s;
          mask |= 1;
        } else ok = cur === s;
      }
      if (ok && s1 >= 0) {
        const cur = solution[s1]!;
        if (cur === -1) {
          solution[s1] = p;
          mask |= 2;
        } else ok = cur === p;
      }
      if (ok && s2 >= 0) {
        const cur = solution[s2]!;
        if (cur === -1) {
          solution[s2] = o;
          mask |= 4;
        } else ok = cur === o;
      }
      if (ok && s3 >= 0) {
        const cur = solution[s3]!;
        if (cur === -1) {
          solution[s3] = g;
          mask |= 8;
        } else ok = cur === g;
      }
      const stop = ok && passes(k) ? step(k + 1) : false;
      if ((mask & 1) !== 0) solution[s0] = -1;
      if ((mask & 2) !== 0) solution[s1] = -1;
      if ((mask & 4) !== 0) solution[s2] = -1;
      if ((mask & 8) !== 0) solution[s3] = -1;
      return stop;
    };
  };
  const callbacks: Array<MatchCallback | undefined> = new Array<undefined>(n);
  const step = (k: number): boolean => {
    tick();
    if (k === n) return emit(solution.slice()) === true;
    if (!argsOf(k)) return false;
    const callback = (callbacks[k] ??= onMatch(k));
    if (tripleTermAt[k] === 1) return matchTripleTerms(index!, args[0]!, args[1]!, args[2]!, args[3]!, callback);
    return source.match(args[0]!, args[1]!, args[2]!, args[3]!, callback);
  };
  // the slots each step's last bindAt bound, as a bit mask of positions
  const boundMasks = new Int32Array(n);
  const unbindAt = (k: number): void => {
    const mask = boundMasks[k]!;
    for (let c = 0; c < 4; c++) if ((mask & (1 << c)) !== 0) solution[slotAt[k * 4 + c]!] = -1;
    boundMasks[k] = 0;
  };
  const bindAt = (k: number, values: ArrayLike<number>): boolean => {
    let mask = 0;
    for (let c = 0; c < 4; c++) {
      const s = slotAt[k * 4 + c]!;
      if (s < 0) continue;
      const cur = solution[s]!;
      if (cur === -1) {
        solution[s] = values[c]!;
        mask |= 1 << c;
      } else if (cur !== values[c]) {
        boundMasks[k] = mask;
        unbindAt(k);
        return false;
      }
    }
    boundMasks[k] = mask;
    if (!passes(k)) {
      unbindAt(k);
      return false;
    }
    return true;
  };
  return { size: n, solution, step, argsOf, args, bindAt, unbindAt, tripleTermAt, tripleTerms: index };
}

/**
 * A basic graph pattern's plan run as an iterative nested-loop join (one resumable scan per
 * pattern, a row at a time; the last pattern's scan takes {@link LAST_SCAN_BATCH} rows per step)
 * that calls `pause` every 256 steps, so that no pattern's scan, however deep, holds the event
 * loop. Emits the same solutions in the same order as {@link BgpPlan.step}.
 */
export async function runBgpIteratively(plan: BgpPlan, matcher: NonNullable<QuadSource['matcher']>, emit: Emit, pause: () => Promise<void>, due: () => boolean = () => false): Promise<boolean> {
  if (plan.size === 0) return plan.step(0);
  return iterate(plan, matcher, emit, pause, due, false);
}

/**
 * The same join for a receiver that may answer with a promise ({@link AsyncEmit}): each
 * solution of the last pattern is emitted between steps and its answer awaited, so that what
 * the receiver evaluates for it lets the event loop in too.
 */
export async function runBgpStepwise(plan: BgpPlan, matcher: NonNullable<QuadSource['matcher']>, emit: AsyncEmit, pause: () => Promise<void>, due: () => boolean): Promise<boolean> {
  if (plan.size === 0) return (await emit(plan.solution.slice())) === true;
  return iterate(plan, matcher, emit, pause, due, true);
}

async function iterate(plan: BgpPlan, matcher: NonNullable<QuadSource['matcher']>, emit: AsyncEmit, pause: () => Promise<void>, due: () => boolean, stepwise: boolean): Promise<boolean> {
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
  const args = plan.args;
  const open = (k: number): ((budget: number) => boolean) | undefined => {
    if (!plan.argsOf(k)) return undefined;
    const onMatch = k === last && !stepwise ? emitLast : record;
    if (plan.tripleTermAt[k] === 1) return tripleTermMatcher(plan.tripleTerms!, args[0]!, args[1]!, args[2]!, args[3]!, onMatch);
    return matcher(args[0]!, args[1]!, args[2]!, args[3]!, onMatch);
  };
  const scans: Array<((budget: number) => boolean) | undefined> = new Array<undefined>(plan.size);
  scans[0] = open(0);
  let k = 0;
  let rows = 0;
  // rows of the last pattern per step; once a step outlasts the time slice (each solution costs
  // much downstream: a join with a large VALUES, say), one row per step, so that pauses come in time
  let lastBatch = LAST_SCAN_BATCH;
  let sincePause = 0;
  for (;;) {
    const scan = scans[k];
    hit = false;
    const done = scan === undefined || scan(k === last && !stepwise ? lastBatch : 1);
    if (stopped) return true;
    if (hit) {
      plan.unbindAt(k);
      if (!plan.bindAt(k, found)) {
        // a conflict or a failed condition: the next row
      } else if (k < last) scans[++k] = open(k);
      else {
        const answer = emit(plan.solution.slice());
        if ((answer instanceof Promise ? await answer : answer) === true) return true;
      }
    } else if (done) {
      plan.unbindAt(k);
      if (k === 0) return false;
      k--;
    }
    ++sincePause;
    if ((++rows & 255) === 0) {
      // (this pause yields only when the slice is used up: the steps since the last yield are
      // not counted again from here, or a slice that ends a few steps later would look slow)
      await pause();
    } else if ((lastBatch === 1 || (rows & 15) === 0) && due()) {
      // (the clock is read every 16 steps, and every step once steps are slow: it costs as much
      // as a step.) A slice used up within 16 steps means slow steps: one row per step from now
      if (sincePause <= 16) lastBatch = 1;
      await pause();
      sincePause = 0;
    }
  }
}
