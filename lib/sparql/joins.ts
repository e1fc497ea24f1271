/**
 * Joins of the engine: a join feeds each left solution into the right side as bindings when
 * the right side is made only of patterns, paths, VALUES, unions, joins and GRAPH blocks of
 * those (where substituting bindings is the same as joining, {@link seedable}); any other
 * right side is evaluated once on its own and merged. OPTIONAL and `FILTER (NOT) EXISTS` start
 * with bindings and switch to a hash of the right side's solutions once that is cheaper
 * ({@link JoinIndex}, {@link ExistsIndex}); MINUS always hashes ({@link MinusIndex}).
 * @module
 */
import type * as RDF from '@rdfjs/types/data-model.js';
import { forEachVariable } from '../expressions/index.js';
import { Algebra } from '../expressions/sparql-libraries.js';
import { ExistsIndex, JoinIndex, MinusIndex, patternProbe } from './anti-join.js';
import type { Engine } from './engine.js';
import { ANY_NAMED_GRAPH, UNBOUND } from './quad-source.js';
import type { QueryTerm } from './query-terms.js';
import { type AsyncEmit, type Emit, merge, type SingleInputOperator } from './solutions.js';
import { tupleAtomsOf } from './tuple-table-access.js';

type Op = Algebra.Operation;

/** Solutions a `FILTER (NOT) EXISTS` tests one by one before it evaluates its pattern once for all ({@link ExistsIndex}). */
const EXISTS_ONE_BY_ONE = 16;

/** Rows of the other side merged with one solution at once, without a chance to yield (more are merged between pauses). */
const ROWS_AT_ONCE = 256;

/** About how many solutions of a pattern can be hashed in the time one test with bindings (a plan and a probe) takes. */
const SOLUTIONS_PER_TEST = 64;

/** Whether substituting bindings into `op` equals joining with it. */
export function seedable(op: Op): boolean {
  switch (op.type) {
    case Algebra.types.BGP:
    case Algebra.types.PATTERN:
    case Algebra.types.PATH:
    case Algebra.types.VALUES:
      return true;
    case Algebra.types.JOIN:
    case Algebra.types.UNION:
      return op.input.every((c) => seedable(c));
    case Algebra.types.GRAPH:
      return seedable(op.input);
    default:
      return false;
  }
}

/**
 * The join of `inputs` from the i-th on with the solution `seed` so far: a seedable input
 * takes the bindings, any other is evaluated once (kept in `held`) and merged.
 */
export function join(engine: Engine, inputs: readonly Op[], i: number, seed: Int32Array, active: number, emit: Emit, held = new Map<number, Int32Array[]>()): boolean {
  if (i === inputs.length) return emit(seed) === true;
  const op = inputs[i]!;
  if (i === 0 || seedable(op)) return engine.evaluate(op, seed, active, (s) => join(engine, inputs, i + 1, s, active, emit, held));
  // evaluated once on its own, then joined with each solution so far
  let right = held.get(i);
  if (!right) held.set(i, (right = engine.collectIn(op, engine.empty(), active)));
  for (const r of right) {
    const merged = merge(seed, r);
    if (merged && join(engine, inputs, i + 1, merged, active, emit, held)) return true;
  }
  return false;
}

/**
 * The same join for an evaluation that lets the event loop in: the inputs that are evaluated on
 * their own are collected first, without holding the loop; a seedable input is evaluated with
 * each solution so far as a driver that waits for the inputs after it ({@link Engine.evaluateStepwise}).
 */
export async function joinAsync(engine: Engine, inputs: readonly Op[], seed: Int32Array, active: number, emit: Emit): Promise<boolean> {
  const held = new Map<number, Int32Array[]>();
  for (let i = 1; i < inputs.length; i++) if (!seedable(inputs[i]!)) held.set(i, await engine.collectInAsync(inputs[i]!, engine.empty(), active));
  return joinFrom(engine, inputs, 0, seed, active, emit, held);
}

/**
 * The join from input `i` on: a path that ends the join and needs no pause answers at once (no
 * promise per solution of the inputs before it), the rest through {@link joinFromAsync}.
 */
function joinFrom(engine: Engine, inputs: readonly Op[], i: number, seed: Int32Array, active: number, emit: Emit, held: Map<number, Int32Array[]>): boolean | Promise<boolean> {
  const op = inputs[i]!;
  if (i > 0 && i + 1 === inputs.length && op.type === Algebra.types.PATH) {
    const now = engine.evaluatePathNow(op, seed, active, emit);
    if (now !== undefined) return now;
  }
  return joinFromAsync(engine, inputs, i, seed, active, emit, held);
}

async function joinFromAsync(engine: Engine, inputs: readonly Op[], i: number, seed: Int32Array, active: number, emit: Emit, held: Map<number, Int32Array[]>): Promise<boolean> {
  const op = inputs[i]!;
  const last = i + 1 === inputs.length;
  const next = (s: Int32Array): boolean | Promise<boolean> => (last ? emit(s) === true : joinFrom(engine, inputs, i + 1, s, active, emit, held));
  if (i === 0 || seedable(op)) {
    if (last) return engine.evaluateAsync(op, seed, active, emit);
    return engine.evaluateStepwise(op, seed, active, next) ?? engine.evaluateAsync(op, seed, active, (s) => join(engine, inputs, i + 1, s, active, emit, held));
  }
  const right = held.get(i)!;
  for (let k = 0; k < right.length; k++) {
    const merged = merge(seed, right[k]!);
    if (merged) {
      const answer = next(merged);
      if ((answer instanceof Promise ? await answer : answer) === true) return true;
    }
    if ((k & 255) === 255) await engine.pauseIfDue();
  }
  return false;
}

/** The slots of the variables of an operation (in order of first occurrence). */
function slotsOf(engine: Engine, op: Op): number[] {
  const slots: number[] = [];
  forEachVariable(op, (name) => {
    const slot = engine.slot(name);
    if (!slots.includes(slot)) slots.push(slot);
  });
  return slots;
}

/** A rough estimate of the solutions of a seedable pattern without bindings (Infinity: unknown). */
function estimateSolutions(engine: Engine, op: Op, active: number): number {
  switch (op.type) {
    case Algebra.types.BGP:
      return op.patterns.reduce((least, p) => Math.min(least, estimateSolutions(engine, p, active)), op.patterns.length === 0 ? 1 : Infinity);
    case Algebra.types.PATTERN: {
      const source = engine.source;
      if (!source.estimate) return Infinity;
      const ids = [op.subject, op.predicate, op.object, op.graph].map((t) => {
        const r = engine.termRef(t, active);
        return 'id' in r ? r.id : UNBOUND;
      });
      return source.estimate(ids[0]!, ids[1]!, ids[2]!, ids[3] === UNBOUND ? ANY_NAMED_GRAPH : ids[3]!);
    }
    case Algebra.types.VALUES:
      return op.bindings.length;
    case Algebra.types.JOIN:
      return op.input.reduce((least, c) => Math.min(least, estimateSolutions(engine, c, active)), Infinity);
    case Algebra.types.UNION:
      return op.input.reduce((sum, c) => sum + estimateSolutions(engine, c, active), 0);
    default:
      return Infinity;
  }
}

/**
 * OPTIONAL. A right side made of patterns is evaluated with each left solution's bindings
 * until that has cost more than evaluating it once (see {@link existsFilter}); then, as any
 * other right side, its solutions are hashed on the variables each left solution binds
 * ({@link JoinIndex}) and probed. An evaluation that lets the event loop in collects the right
 * side without holding it, and evaluates it with bindings as a driver that waits.
 */
export function leftJoin(engine: Engine, op: Algebra.LeftJoin, active: number, emit: Emit, seed: Int32Array): SingleInputOperator {
  const [left, right] = op.input;
  const test = op.expression ? engine.condition(op.expression, active) : undefined;
  const seeded = seedable(right);
  const variables = slotsOf(engine, right);
  const index = ExistsIndex.usable(variables) ? new JoinIndex(variables, () => engine.collectIn(right, engine.empty(), active)) : undefined;
  let rightAll: Int32Array[] | undefined;
  const oneByOne = seeded ? Math.max(EXISTS_ONE_BY_ONE, estimateSolutions(engine, right, active) / SOLUTIONS_PER_TEST) : -1;
  let tested = 0;
  /** The right solutions to merge with `l`; undefined when the right side is to be evaluated with l's bindings. */
  const rowsFor = (l: Int32Array): readonly Int32Array[] | undefined => {
    const found = index && ++tested > oneByOne ? index.matches(l) : undefined;
    if (found || seeded) return found;
    return index ? index.all() : (rightAll ??= engine.collectIn(right, engine.empty(), active));
  };
  /** Receives the merges of `l` that pass the condition, and tells whether there was one. */
  const receiver = (): { each: (merged: Int32Array | undefined) => boolean; matched: () => boolean } => {
    let matched = false;
    return {
      each: (merged) => {
        if (!merged || (test && !test(merged))) return false;
        matched = true;
        return emit(merged) === true;
      },
      matched: () => matched,
    };
  };
  return {
    input: left,
    seed,
    emit: (l) => {
      const { each, matched } = receiver();
      const rows = rowsFor(l);
      if (rows) {
        for (const r of rows) if (each(merge(l, r))) return true;
      } else if (engine.evaluate(right, l, active, each)) return true;
      return matched() ? false : emit(l);
    },
    prepareAsync: seeded
      ? undefined
      : async () => {
          const rows = await engine.collectInAsync(right, engine.empty(), active);
          if (index) index.provide(rows);
          else rightAll = rows;
        },
    // synchronous where the work for `l` is small (a few rows of the index), a promise where it may be long
    emitAsync: (l) => {
      if (index && tested + 1 > oneByOne && !index.solved) {
        return engine.collectInAsync(right, engine.empty(), active).then((rows) => {
          index.provide(rows);
          return withRight(l);
        });
      }
      return withRight(l);
    },
  };
  /** `l` with its matches on the right, or alone: at once when they are few rows, else letting the event loop in. */
  function withRight(l: Int32Array): boolean | Promise<boolean> {
    const { each, matched } = receiver();
    const rows = rowsFor(l);
    if (rows && rows.length <= ROWS_AT_ONCE) {
      for (const r of rows) if (each(merge(l, r))) return true;
      return matched() ? false : emit(l) === true;
    }
    return (async () => {
      if (rows) {
        for (let k = 0; k < rows.length; k++) {
          if (each(merge(l, rows[k]!))) return true;
          if ((k & 255) === 255) await engine.pauseIfDue();
        }
      } else if (await engine.evaluateAsync(right, l, active, each)) return true;
      return matched() ? false : emit(l) === true;
    })();
  }
}

/**
 * MINUS: the right side's solutions hashed on the variables each left solution shares with
 * them, collected before the first left solution (without holding the event loop where the
 * evaluation lets it in).
 */
export function minus(engine: Engine, op: Algebra.Minus, active: number, emit: Emit, seed: Int32Array): SingleInputOperator {
  const [left, right] = op.input;
  let index: MinusIndex | undefined;
  return {
    input: left,
    seed,
    emit: (l) => ((index ??= new MinusIndex(engine.collectIn(right, engine.empty(), active))).removes(l) ? false : emit(l) === true),
    prepareAsync: async () => {
      index = new MinusIndex(await engine.collectInAsync(right, engine.empty(), active));
    },
  };
}

/** VALUES: each binding row merged with `seed`. */
export function values(engine: Engine, op: Algebra.Values, seed: Int32Array, emit: Emit): boolean {
  for (const binding of op.bindings) {
    const s = valuesRow(engine, op, binding, seed);
    if (s && emit(s) === true) return true;
  }
  return false;
}

/**
 * VALUES driving an evaluation: the rows in turn, with a pause (a yield when the time slice is
 * used up, the time limit and interrupts checked) whenever the slice is used up, so that a long
 * VALUES block lets the event loop in; an answer of `emit` that is a promise is awaited.
 */
export async function valuesAsync(engine: Engine, op: Algebra.Values, seed: Int32Array, emit: AsyncEmit, pause: () => Promise<void>, due: () => boolean): Promise<boolean> {
  const bindings = op.bindings;
  for (let i = 0; i < bindings.length; i++) {
    const s = valuesRow(engine, op, bindings[i]!, seed);
    if (s) {
      const answer = emit(s);
      if ((answer instanceof Promise ? await answer : answer) === true) return true;
    }
    if (due()) await pause();
  }
  return false;
}

/** One VALUES row merged with `seed`; undefined when it contradicts the seed. */
function valuesRow(engine: Engine, op: Algebra.Values, binding: Algebra.Values['bindings'][number], seed: Int32Array): Int32Array | undefined {
  engine.tick();
  const out = seed.slice();
  for (const v of op.variables) {
    const t = binding[`?${v.value}`] ?? (binding as Record<string, RDF.Term | undefined>)[v.value];
    if (!t) continue;
    const id = engine.terms.idOf(t as QueryTerm);
    const s = engine.slot(v.value);
    if (out[s]! === -1) out[s] = id;
    else if (out[s] !== id) return undefined;
  }
  return out;
}

/** The test of `FILTER (NOT) EXISTS`, and the same without holding the event loop where it could. */
export interface ExistsTest {
  /** Whether the solution passes. */
  readonly test: (s: Int32Array) => boolean;
  /** The same for an evaluation that lets the event loop in, as a promise where the test may be long (absent when the test is one probe). */
  readonly testAsync?: (s: Int32Array) => boolean | Promise<boolean>;
}

/**
 * `FILTER (NOT) EXISTS { P }`. When substituting bindings into P equals joining with it: after
 * {@link EXISTS_ONE_BY_ONE} solutions tested one by one, P is evaluated once and its
 * solutions hashed on the variables each solution binds ({@link ExistsIndex}); otherwise P is
 * evaluated with each solution's bindings. Undefined for any other condition.
 */
export function existsFilter(engine: Engine, e: Algebra.Expression, active: number): ExistsTest | undefined {
  if (e.expressionType !== Algebra.expressionTypes.EXISTENCE) return undefined;
  const pattern = e.input;
  const negated = e.not;
  if (!seedable(pattern)) return existsBySubstitution(engine, pattern, negated, active);
  // one triple pattern: one probe of the store per solution
  const single = pattern.type === Algebra.types.PATTERN ? pattern : pattern.type === Algebra.types.BGP && pattern.patterns.length === 1 ? pattern.patterns[0]! : undefined;
  if (single && !tupleAtomsOf([single])) {
    const prepared = engine.preparedBgp([single], active, undefined);
    if (prepared === null) return { test: () => negated };
    const source = engine.source;
    const probe = patternProbe(prepared.compiled[0]!, (s, p, o, g, onMatch) => source.match(s, p, o, g, onMatch));
    if (probe) return { test: (s) => probe(s) !== negated };
  }
  const variables = slotsOf(engine, pattern);
  if (!ExistsIndex.usable(variables)) return undefined;
  const index = new ExistsIndex(variables, () => engine.collectIn(pattern, engine.empty(), active));
  // one by one while that costs less than the pattern's solutions (a test with bindings is a
  // few index probes, but also a plan; a solution for the index costs much less)
  const oneByOne = Math.max(EXISTS_ONE_BY_ONE, estimateSolutions(engine, pattern, active) / SOLUTIONS_PER_TEST);
  let tested = 0;
  return {
    test: (s) => {
      const found = ++tested > oneByOne ? index.test(s) : undefined;
      return (found ?? engine.evaluate(pattern, s, active, () => true)) !== negated;
    },
    // synchronous once the index answers, a promise while the pattern is evaluated with bindings
    testAsync: (s) => {
      if (++tested > oneByOne && !index.solved) {
        return engine.collectInAsync(pattern, engine.empty(), active).then((rows) => {
          index.provide(rows);
          return index.test(s) ?? engine.evaluateAsync(pattern, s, active, () => true);
        }).then((found) => found !== negated);
      }
      const found = tested > oneByOne ? index.test(s) : undefined;
      return found !== undefined ? found !== negated : engine.evaluateAsync(pattern, s, active, () => true).then((f) => f !== negated);
    },
  };
}

/** `FILTER (NOT) EXISTS { P }` evaluated with each solution's bindings; what P held given back to the budget after each test. */
function existsBySubstitution(engine: Engine, pattern: Op, negated: boolean, active: number): ExistsTest {
  const budget = engine.budget;
  return {
    test: (s) => {
      const mark = budget?.mark();
      try {
        return engine.evaluate(pattern, s, active, () => true) !== negated;
      } finally {
        if (mark !== undefined) budget!.resetTo(mark);
      }
    },
    testAsync: async (s) => {
      const mark = budget?.mark();
      try {
        return (await engine.evaluateAsync(pattern, s, active, () => true)) !== negated;
      } finally {
        if (mark !== undefined) budget!.resetTo(mark);
      }
    },
  };
}
