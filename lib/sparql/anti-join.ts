/**
 * Semi-joins and anti-joins evaluated set-at-a-time: `FILTER (NOT) EXISTS { P }` and
 * `MINUS { P }` against a set of solutions of P computed once, hashed on the variables the
 * outer solution shares with them, then probed once per outer solution (instead of evaluating
 * P again for every outer solution, or comparing each outer solution with every solution of P).
 *
 * Solutions are Int32Arrays of term ids, one slot per variable (-1 unbound), as in the engine.
 * @module
 */
import type { PatternRef } from './bgp.js';
import { type MatchCallback, type QuadSource, UNBOUND } from './quad-source.js';

/** The slot value of an unbound variable. */
const UNBOUND_SLOT = -1;

/** The solutions of an inner pattern projected on some slots: a set of keys. */
class ProjectionIndex {
  private readonly single: Set<number> | undefined;
  private readonly multi: Set<string> | undefined;

  /** Indexes `rows` on `slots` (every row must bind every slot). */
  constructor(
    rows: readonly Int32Array[],
    private readonly slots: readonly number[],
  ) {
    if (slots.length === 1) {
      const s = slots[0]!;
      this.single = new Set<number>();
      for (const r of rows) this.single.add(r[s]!);
    } else {
      this.multi = new Set<string>();
      for (const r of rows) this.multi.add(keyOf(r, slots));
    }
  }

  /** Whether some indexed row has the values `row` has in the index's slots. */
  has(row: Int32Array): boolean {
    return this.single ? this.single.has(row[this.slots[0]!]!) : this.multi!.has(keyOf(row, this.slots));
  }
}

/** The text key of a row's values in `slots`. */
function keyOf(row: Int32Array, slots: readonly number[]): string {
  let k = String(row[slots[0]!]);
  for (let i = 1; i < slots.length; i++) k += `,${row[slots[i]!]}`;
  return k;
}

/** The bits (over `candidates`) of the slots `row` binds. */
function boundMask(row: Int32Array, candidates: readonly number[]): number {
  let mask = 0;
  for (let i = 0; i < candidates.length; i++) if (row[candidates[i]!]! !== UNBOUND_SLOT) mask |= 1 << i;
  return mask;
}

/** The slots of `candidates` whose bits are set in `mask`. */
function slotsOf(mask: number, candidates: readonly number[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < candidates.length; i++) if ((mask & (1 << i)) !== 0) out.push(candidates[i]!);
  return out;
}

/** At most this many variables in the inner pattern (their bound subsets are masks of an int). */
const MAX_SHARED = 30;

/** The solutions of a pattern P that an index is built on: evaluated once on first need, or given. */
abstract class PatternSolutions {
  private rows: Int32Array[] | undefined;

  /**
   * @param variables - the slots of P's variables
   * @param solve - evaluates P with no bindings and returns all its solutions
   */
  constructor(
    protected readonly variables: readonly number[],
    private readonly solve: () => Int32Array[],
  ) {}

  /** Whether P's solutions are known (given, or evaluated on first need). */
  get solved(): boolean {
    return this.rows !== undefined;
  }

  /** Gives P's solutions, evaluated elsewhere (without holding the event loop). */
  provide(rows: Int32Array[]): void {
    this.rows = rows;
  }

  /** P's solutions (evaluated now when not known yet). */
  protected solutions(): Int32Array[] {
    return (this.rows ??= this.solve());
  }
}

/**
 * The test of `EXISTS { P }` for outer solutions, when substituting an outer solution's
 * bindings into P equals joining with P's solutions (P made of patterns, paths, VALUES, joins
 * and unions: see the engine's `seedable`). P's solutions (`solve`, called at most once) are
 * hashed per subset of P's variables that outer solutions bind. Returns undefined for an outer
 * solution the index cannot decide (a solution of P leaves one of the shared variables
 * unbound); the caller then evaluates P for that solution.
 */
export class ExistsIndex extends PatternSolutions {
  private readonly byMask = new Map<number, ProjectionIndex | null>();


  /** Whether the index can be used for P's variables (not too many). */
  static usable(variables: readonly number[]): boolean {
    return variables.length <= MAX_SHARED;
  }

  /** Whether P has a solution compatible with `row`; undefined when the index cannot tell. */
  test(row: Int32Array): boolean | undefined {
    const rows = this.solutions();
    const mask = boundMask(row, this.variables);
    if (mask === 0) return rows.length > 0;
    let index = this.byMask.get(mask);
    if (index === undefined) {
      const slots = slotsOf(mask, this.variables);
      const total = rows.every((r) => slots.every((s) => r[s]! !== UNBOUND_SLOT));
      index = total ? new ProjectionIndex(rows, slots) : null;
      this.byMask.set(mask, index);
    }
    return index === null ? undefined : index.has(row);
  }
}

/**
 * `MINUS`: whether a left solution is removed by some right solution (one that shares a bound
 * variable with it and agrees on all the variables both bind). The right solutions are grouped
 * by the set of variables they bind; each group is hashed, on first need, on the variables a
 * left solution binds among them.
 */
export class MinusIndex {
  private readonly groups: Array<{ readonly slots: readonly number[]; readonly rows: Int32Array[]; readonly byMask: Map<number, ProjectionIndex> }> = [];
  /** Right solutions whose domain has more than {@link MAX_SHARED} variables (compared one by one). */
  private readonly wide: Int32Array[] = [];

  /** Groups the right solutions by domain. */
  constructor(right: readonly Int32Array[]) {
    const byDomain = new Map<string, { slots: number[]; rows: Int32Array[]; byMask: Map<number, ProjectionIndex> }>();
    for (const r of right) {
      const slots: number[] = [];
      for (let i = 0; i < r.length; i++) if (r[i]! !== UNBOUND_SLOT) slots.push(i);
      if (slots.length === 0) continue; // shares no variable with anything
      if (slots.length > MAX_SHARED) {
        this.wide.push(r);
        continue;
      }
      const key = slots.join(',');
      let g = byDomain.get(key);
      if (!g) byDomain.set(key, (g = { slots, rows: [], byMask: new Map() }));
      g.rows.push(r);
    }
    this.groups.push(...byDomain.values());
  }

  /** Whether `left` is removed. */
  removes(left: Int32Array): boolean {
    for (const g of this.groups) {
      const mask = boundMask(left, g.slots);
      if (mask === 0) continue;
      let index = g.byMask.get(mask);
      if (!index) g.byMask.set(mask, (index = new ProjectionIndex(g.rows, slotsOf(mask, g.slots))));
      if (index.has(left)) return true;
    }
    for (const r of this.wide) if (removesOne(left, r)) return true;
    return false;
  }
}

/** Whether one right solution removes `left` (shares a bound variable and is compatible). */
function removesOne(left: Int32Array, right: Int32Array): boolean {
  let shared = false;
  for (let i = 0; i < left.length; i++) {
    const a = left[i]!;
    const b = right[i]!;
    if (a !== UNBOUND_SLOT && b !== UNBOUND_SLOT) {
      if (a !== b) return false;
      shared = true;
    }
  }
  return shared;
}

/**
 * The solutions of a pattern P hashed for a join with outer solutions (OPTIONAL's right side):
 * like {@link ExistsIndex}, on the subset of P's variables an outer solution binds, each key
 * holding the solutions of P that have it.
 */
export class JoinIndex extends PatternSolutions {
  private readonly byMask = new Map<number, { readonly slots: readonly number[]; readonly groups: Map<number | string, Int32Array[]> } | null>();


  /** All the solutions of P. */
  all(): readonly Int32Array[] {
    return this.solutions();
  }

  /** The solutions of P that agree with `row` on the variables both bind; undefined when the index cannot tell. */
  matches(row: Int32Array): readonly Int32Array[] | undefined {
    const rows = this.solutions();
    const mask = boundMask(row, this.variables);
    if (mask === 0) return rows;
    let index = this.byMask.get(mask);
    if (index === undefined) {
      const slots = slotsOf(mask, this.variables);
      index = rows.every((r) => slots.every((s) => r[s]! !== UNBOUND_SLOT)) ? { slots, groups: group(rows, slots) } : null;
      this.byMask.set(mask, index);
    }
    if (index === null) return undefined;
    const { slots, groups } = index;
    return groups.get(slots.length === 1 ? row[slots[0]!]! : keyOf(row, slots)) ?? NONE;
  }
}

const NONE: readonly Int32Array[] = [];

/** `rows` grouped by their values in `slots` (a number key for one slot, text otherwise). */
function group(rows: readonly Int32Array[], slots: readonly number[]): Map<number | string, Int32Array[]> {
  const out = new Map<number | string, Int32Array[]>();
  for (const r of rows) {
    const k = slots.length === 1 ? r[slots[0]!]! : keyOf(r, slots);
    const list = out.get(k);
    if (list) list.push(r);
    else out.set(k, [r]);
  }
  return out;
}

/**
 * `EXISTS` of one triple pattern as a single probe of the store per outer solution: its
 * positions filled from the solution (a variable it leaves unbound matches anything), stopping
 * at the first match. Undefined when the pattern's graph is a variable.
 * @param refs - the pattern's subject, predicate, object and graph (a graph's id, DEFAULT_GRAPH for the default graph)
 * @param match - the store's match
 */
export function patternProbe(refs: readonly [PatternRef, PatternRef, PatternRef, PatternRef], match: QuadSource['match']): ((row: Int32Array) => boolean) | undefined {
  const graph = refs[3];
  if (!('id' in graph)) return undefined;
  const g = graph.id;
  const slot = refs.slice(0, 3).map((r) => ('slot' in r ? r.slot : -1));
  const ids = refs.slice(0, 3).map((r) => ('id' in r ? r.id : UNBOUND));
  // positions holding the same variable must match the same term when it is unbound
  const same: Array<[number, number]> = [];
  for (let i = 0; i < 3; i++) for (let j = i + 1; j < 3; j++) if (slot[i]! >= 0 && slot[i] === slot[j]) same.push([i, j]);
  const found = new Int32Array(3);
  const onMatch: MatchCallback =
    same.length === 0
      ? () => true
      : (s, p, o) => {
          found[0] = s;
          found[1] = p;
          found[2] = o;
          return same.every(([i, j]) => found[i] === found[j]);
        };
  const [s0, s1, s2] = slot as [number, number, number];
  const [i0, i1, i2] = ids as [number, number, number];
  return (row) => {
    const s = s0 >= 0 ? row[s0]! : i0;
    const p = s1 >= 0 ? row[s1]! : i1;
    const o = s2 >= 0 ? row[s2]! : i2;
    // a term the store does not hold (a query-local id) matches nothing
    if (s < UNBOUND || p < UNBOUND || o < UNBOUND) return false;
    return match(s, p, o, g, onMatch);
  };
}
