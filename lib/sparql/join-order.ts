/**
 * The greedy join order of a basic graph pattern: repeatedly the pattern with the smallest
 * estimated result among those connected to what is already bound (a bound variable divides
 * the estimate: by 2 in the predicate position, by 100 elsewhere; an unconnected pattern
 * costs far more than any connected one). Each pattern's estimate from the store depends only
 * on its constants, so it is computed once; a round rescans the remaining patterns' bound
 * positions only, which makes ordering n patterns O(n²) steps of a few comparisons (a path
 * sequence of thousands of steps becomes a BGP of thousands of patterns).
 * @module
 */

/** A position of a pattern: a variable's slot or a constant's id. */
export type PatternRef = { readonly slot: number } | { readonly id: number };

/**
 * The greedy order of `patterns` (indexes into it) given the slots `seed` binds; `estimate`
 * gives a pattern's estimated number of matches from its constants alone (and its index).
 */
export function greedyJoinOrder(patterns: readonly (readonly PatternRef[])[], seed: Int32Array, estimate: (refs: readonly PatternRef[], index: number) => number): number[] {
  const n = patterns.length;
  if (n <= 1) return n === 1 ? [0] : [];
  const base = new Float64Array(n);
  // the slots of each pattern's four positions (-1: a constant)
  const slots = new Int32Array(n * 4).fill(-1);
  let width = seed.length;
  for (let i = 0; i < n; i++) {
    const refs = patterns[i]!;
    base[i] = estimate(refs, i);
    for (let c = 0; c < 4; c++) {
      const r = refs[c];
      if (r !== undefined && 'slot' in r) {
        slots[i * 4 + c] = r.slot;
        if (r.slot >= width) width = r.slot + 1;
      }
    }
  }
  const bound = new Uint8Array(width);
  for (let i = 0; i < seed.length; i++) if (seed[i]! !== -1) bound[i] = 1;
  const remaining: number[] = [];
  for (let i = 0; i < n; i++) remaining.push(i);
  const order: number[] = [];
  while (remaining.length > 0) {
    let best = 0;
    let bestCost = Infinity;
    const first = order.length === 0;
    for (let k = 0; k < remaining.length; k++) {
      const i = remaining[k]!;
      let cost = base[i]!;
      let connected = first;
      for (let c = 0; c < 4; c++) {
        const s = slots[i * 4 + c]!;
        if (s >= 0 && bound[s] === 1) {
          connected = true;
          cost /= c === 1 ? 2 : 100;
        }
      }
      if (!connected) cost = cost * 1e6 + 1e9;
      if (cost < bestCost) {
        bestCost = cost;
        best = k;
      }
    }
    const i = remaining.splice(best, 1)[0]!;
    order.push(i);
    for (let c = 0; c < 4; c++) {
      const s = slots[i * 4 + c]!;
      if (s >= 0) bound[s] = 1;
    }
  }
  return order;
}

/**
 * The join orders of one basic graph pattern, made once per set of bound variables: the
 * pattern's estimates are asked of the store once, and a BGP evaluated again with every
 * binding of an outer solution (a join, OPTIONAL, EXISTS) reuses its order.
 */
export class JoinOrders {
  private readonly base: Float64Array;
  /** The distinct slots of the patterns. */
  private readonly slots: readonly number[];
  private readonly orders = new Map<number | string, readonly number[]>();

  /**
   * @param patterns - the patterns' positions
   * @param estimate - a pattern's estimated number of matches from its constants alone
   */
  constructor(
    private readonly patterns: readonly (readonly PatternRef[])[],
    estimate: (refs: readonly PatternRef[]) => number,
  ) {
    this.base = Float64Array.from(patterns, (refs) => (patterns.length <= 1 ? 0 : estimate(refs)));
    const slots = new Set<number>();
    for (const refs of patterns) for (const r of refs) if ('slot' in r) slots.add(r.slot);
    this.slots = [...slots];
  }

  /** The greedy order given the slots `seed` binds. */
  orderFor(seed: Int32Array): readonly number[] {
    const slots = this.slots;
    let key: number | string;
    if (slots.length <= 30) {
      let mask = 0;
      for (let i = 0; i < slots.length; i++) if (slots[i]! < seed.length && seed[slots[i]!]! !== -1) mask |= 1 << i;
      key = mask;
    } else {
      key = slots.map((s) => (s < seed.length && seed[s]! !== -1 ? '1' : '0')).join('');
    }
    let order = this.orders.get(key);
    if (order === undefined) {
      const base = this.base;
      order = greedyJoinOrder(this.patterns, seed, (_, i) => base[i]!);
      this.orders.set(key, order);
    }
    return order;
  }
}
