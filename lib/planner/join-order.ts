/**
 * The one join planner of quadlog: the order in which the atoms of a rule body (for rule
 * firings and for the proof checks of incremental maintenance) and the triple patterns of a
 * SPARQL basic graph pattern are matched, greedily, with one cost model.
 *
 * An atom is a list of positions, each a variable's slot, a constant, or neither (SPARQL's
 * active graph, which is no column of the table). What the planner knows of the data comes
 * through {@link TableStatistics}: the size of the atom's table and how many of its rows hold
 * a value in a column; the planner knows nothing of storage.
 *
 * The cost model (the estimated rows an atom yields at its place in the plan):
 * - the atom's constants count once, through the smallest of their counts (`rdf:type` and a
 *   class go together: their counts are never multiplied, which once made an OWL run take
 *   460 s instead of seconds);
 * - a variable bound when the plan is made, whose value is known, keeps its share of the
 *   table's rows (the rows holding that value in its column, over all rows);
 * - a position bound only by an earlier atom of the plan divides the estimate by
 *   {@link LATER_BOUND_DIVISOR};
 * - an atom with every position bound is a membership probe (at most one row); no estimate
 *   goes below one row; between equal costs the lower estimate before that floor goes first
 *   (of two probes, the likelier to fail), then the atom with more bound positions;
 * - an atom of a table of unknown size (mounted on a data source) costs
 *   {@link UNKNOWN_ROWS}, divided per bound position, so it goes after the atoms that bind
 *   its columns;
 * - an atom sharing no bound variable with what is already bound (once something is) goes
 *   after every connected one: a cross product only when nothing else is left.
 *
 * Each atom's part from its constants is asked of the statistics once per plan; a round of the
 * greedy loop rescans the remaining atoms' bound positions only, which makes ordering n atoms
 * O(n²) steps of a few comparisons (a path sequence of thousands of steps becomes a basic graph
 * pattern of thousands of patterns).
 * @module
 */

/** A position of an {@link PlanAtom} that holds no variable (in `slots`) or no counted constant (in `constants`). */
export const NONE = -1;

/** A position bound only by an earlier atom of the plan divides the atom's estimate by this. */
export const LATER_BOUND_DIVISOR = 8;

/** The estimated rows of an atom of a table whose size is unknown (a table mounted on a data source). */
export const UNKNOWN_ROWS = 1e11;

/** Added to the cost of an atom that shares no bound variable with the plan so far: it goes after every connected atom. */
const DISCONNECTED = 1e20;

/** What the planner knows of the rows of one atom's table. */
export interface TableStatistics {
  /** The number of rows; Infinity when unknown (a table mounted on a data source). */
  readonly size: number;
  /** The number of rows holding `value` in `column` (an estimate is enough). */
  countOf(column: number, value: number): number;
}

/** An atom (a rule body atom, a triple pattern) as the planner sees it. */
export interface PlanAtom {
  /** Per position: the slot of the variable there, or {@link NONE}. */
  readonly slots: ArrayLike<number>;
  /** Per position: the constant there that the statistics can count, or {@link NONE}. */
  readonly constants: ArrayLike<number>;
  /** The statistics of the atom's table. */
  readonly table: TableStatistics;
}

/**
 * The estimated rows of an atom from its constants alone: the smallest count of one of them
 * (plus one), or the table's size (plus one) without constants; the counts of two constants
 * are never multiplied. {@link UNKNOWN_ROWS} for a table of unknown size.
 */
export function constantRows(atom: PlanAtom): number {
  const table = atom.table;
  if (!Number.isFinite(table.size)) return UNKNOWN_ROWS;
  let rows = table.size + 1;
  const constants = atom.constants;
  for (let c = 0; c < constants.length; c++) {
    const k = constants[c]!;
    if (k !== NONE) rows = Math.min(rows, table.countOf(c, k) + 1);
  }
  return rows;
}

/** What {@link rate} found of an atom: its cost, its estimated rows before the floor of one row, its bound positions. */
const rating = new Float64Array(3);

/**
 * Rates `atom` as the next atom of the plan into {@link rating}: the cost (see
 * {@link atomCost}), the estimate before the floor of one row (which orders probes among
 * themselves: the likelier to fail first) and the number of bound positions.
 */
function rate(atom: PlanAtom, base: number, bound: ArrayLike<number>, values: ArrayLike<number> | undefined, anyBound: boolean): void {
  const slots = atom.slots;
  const constants = atom.constants;
  const table = atom.table;
  const unknown = !Number.isFinite(table.size);
  let rows = base;
  let free = 0;
  let variables = 0;
  let positions = 0;
  let connected = !anyBound;
  for (let c = 0; c < slots.length; c++) {
    const s = slots[c]!;
    if (s === NONE) {
      if (constants[c] !== NONE) {
        positions++;
        if (unknown) rows /= LATER_BOUND_DIVISOR;
      }
      continue;
    }
    variables++;
    if (bound[s] !== 1) {
      free++;
      continue;
    }
    positions++;
    connected = true;
    const v = values === undefined ? -1 : (values[s] ?? -1);
    if (v >= 0 && !unknown) rows *= (table.countOf(c, v) + 1) / (table.size + 1);
    else rows /= LATER_BOUND_DIVISOR;
  }
  if (variables === 0) connected = true;
  // a probe yields at most one row; no estimate goes below one row
  const cost = free === 0 && !unknown ? 1 : Math.max(1, rows);
  rating[0] = connected ? cost : cost + DISCONNECTED;
  rating[1] = rows;
  rating[2] = positions;
}

/**
 * The cost of matching `atom` next (lower is better; see the module comment), given the part
 * `base` of its constants ({@link constantRows}), the slots bound so far (`bound[slot] === 1`),
 * the values known when the plan is made (`values[slot] >= 0`; -1 or undefined: not known)
 * and whether anything at all is bound yet (else every atom counts as connected).
 */
export function atomCost(atom: PlanAtom, base: number, bound: ArrayLike<number>, values: ArrayLike<number> | undefined, anyBound: boolean): number {
  rate(atom, base, bound, values, anyBound);
  return rating[0]!;
}

/**
 * Picks the atom to match next among `candidates` (indexes into `atoms`): the lowest
 * {@link atomCost}; between equal costs (probes, atoms at the floor of one row) the lower
 * estimate before the floor, then the more bound positions, then the first. Returns an index
 * into `candidates`, or -1 when there are none.
 */
export function cheapest(
  atoms: readonly PlanAtom[],
  bases: ArrayLike<number>,
  candidates: readonly number[],
  bound: ArrayLike<number>,
  values: ArrayLike<number> | undefined,
  anyBound: boolean,
): number {
  let best = -1;
  let bestCost = Infinity;
  let bestRows = Infinity;
  let bestPositions = -1;
  for (let k = 0; k < candidates.length; k++) {
    const i = candidates[k]!;
    rate(atoms[i]!, bases[i]!, bound, values, anyBound);
    const cost = rating[0]!;
    if (cost > bestCost) continue;
    const rows = rating[1]!;
    const positions = rating[2]!;
    if (cost < bestCost || rows < bestRows || (rows === bestRows && positions > bestPositions)) {
      best = k;
      bestCost = cost;
      bestRows = rows;
      bestPositions = positions;
    }
  }
  return best;
}

/**
 * The greedy join order of `atoms` (indexes into it) given the slots `seed` binds (>= 0 or
 * another value than -1: bound, its value known when >= 0): repeatedly the cheapest atom by
 * {@link atomCost}. `bases` gives each atom's part from its constants (computed here when
 * omitted).
 */
export function greedyJoinOrder(atoms: readonly PlanAtom[], seed: Int32Array, bases?: ArrayLike<number>): number[] {
  const n = atoms.length;
  if (n <= 1) return n === 1 ? [0] : [];
  const base = bases ?? Float64Array.from(atoms, constantRows);
  let width = seed.length;
  for (const atom of atoms) for (let c = 0; c < atom.slots.length; c++) width = Math.max(width, atom.slots[c]! + 1);
  const bound = new Uint8Array(width);
  let anyBound = false;
  for (let i = 0; i < seed.length; i++) {
    if (seed[i]! !== -1) {
      bound[i] = 1;
      anyBound = true;
    }
  }
  const remaining: number[] = [];
  for (let i = 0; i < n; i++) remaining.push(i);
  const order: number[] = [];
  while (remaining.length > 0) {
    const k = cheapest(atoms, base, remaining, bound, seed, anyBound);
    const i = remaining.splice(k, 1)[0]!;
    order.push(i);
    const slots = atoms[i]!.slots;
    for (let c = 0; c < slots.length; c++) {
      const s = slots[c]!;
      if (s !== NONE) {
        bound[s] = 1;
        anyBound = true;
      }
    }
  }
  return order;
}

/**
 * The join orders of one conjunction of atoms (a basic graph pattern), made once per set of
 * bound slots: the atoms' constant parts are asked of the statistics once, and a conjunction
 * evaluated again with every binding of an outer solution (a join, OPTIONAL, EXISTS) reuses
 * the order made for the first solution that bound the same slots.
 */
export class JoinOrders {
  private bases: Float64Array | undefined;
  /** The distinct slots of the atoms. */
  private readonly slots: readonly number[];
  private readonly orders = new Map<number | string, readonly number[]>();

  /** @param atoms - the atoms, in their written order */
  constructor(private readonly atoms: readonly PlanAtom[]) {
    const slots = new Set<number>();
    for (const atom of atoms) for (let c = 0; c < atom.slots.length; c++) if (atom.slots[c] !== NONE) slots.add(atom.slots[c]!);
    this.slots = [...slots];
  }

  /** The greedy order given the slots `seed` binds (see {@link greedyJoinOrder}). */
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
      if (this.atoms.length > 1) this.bases ??= Float64Array.from(this.atoms, constantRows);
      order = greedyJoinOrder(this.atoms, seed, this.bases);
      this.orders.set(key, order);
    }
    return order;
  }
}
