/**
 * GROUP BY and aggregates over solutions of term ids: groups found by their key ids (one key
 * variable: a map of numbers; none: one group; more: a hash table over the key ids), groups
 * numbered in order of appearance, and each aggregate held as a column over the group numbers.
 * Columns that work on ids alone, without making a term per solution: COUNT (without
 * DISTINCT) in a Float64Array; COUNT(DISTINCT ?x) as a set of (group, id) pairs (a term has
 * one id within a query); SAMPLE(?x) as the first bound id; SUM, MIN, MAX and AVG of ?x while
 * its values are canonical xsd:integer literals. The other aggregates keep one
 * {@link Aggregator} per group and read the values of their expressions.
 * @module
 */
import { DataFactory } from 'n3';
import { averageOf, createAggregator, type AggregateFunction, type Aggregator, type Value } from '../expressions/index.js';
import { XSD_INTEGER } from '../expressions/vocabulary.js';
import type { Emit } from './engine.js';

/** One aggregate of a GROUP: where its result goes and how its values are read. */
export interface AggregateSpec {
  /** The slot the result is bound to. */
  readonly slot: number;
  /** The aggregate function. */
  readonly fn: AggregateFunction;
  /** DISTINCT. */
  readonly distinct: boolean;
  /** GROUP_CONCAT's separator. */
  readonly separator: string | undefined;
  /** The argument is `*`. */
  readonly star: boolean;
  /** The slot of the argument when it is a bare variable. */
  readonly variableSlot: number | undefined;
  /** The argument's value in a solution (undefined for `*`). */
  readonly value: ((s: Int32Array) => Value | undefined) | undefined;
}

/** The id of a term, of an xsd:integer, and the term of an id. */
export interface ResultIds {
  /** The id of an aggregate's result. */
  idOf(v: Value): number;
  /** The id of the xsd:integer `n`. */
  countId(n: number): number;
  /** The term of an id. */
  termOf(id: number): Value;
}

/** An aggregate's values per group number. */
interface Column {
  add(group: number, s: Int32Array): void;
  /** The result id of a group (undefined: unbound). */
  result(group: number): number | undefined;
}

/** COUNT(*), COUNT(?x) and COUNT(expr) without DISTINCT. */
class CountColumn implements Column {
  private counts = new Float64Array(16);
  constructor(
    private readonly spec: AggregateSpec,
    private readonly ids: ResultIds,
  ) {}
  add(group: number, s: Int32Array): void {
    if (group >= this.counts.length) {
      const grown = new Float64Array(this.counts.length * 2);
      grown.set(this.counts);
      this.counts = grown;
    }
    const { star, variableSlot, value } = this.spec;
    if (star || (variableSlot !== undefined ? s[variableSlot]! !== -1 : value!(s) !== undefined)) this.counts[group]!++;
  }
  result(group: number): number {
    return this.ids.countId(group < this.counts.length ? this.counts[group]! : 0);
  }
}

/** A canonical integer lexical form. */
const CANONICAL_INTEGER = /^(?:0|-?[1-9][0-9]{0,15})$/;

/**
 * SUM, MIN, MAX and AVG (without DISTINCT) of a bare variable, while its values are xsd:integer
 * literals in canonical form and the sums stay exact: a number per group, read from a cache
 * of the values of term ids (AVG also counts its values). A group meeting any other value (or
 * an unbound one for SUM and AVG) goes on in an {@link Aggregator} (SUM's for AVG) that starts
 * from what the group has so far.
 */
class IntegerColumn implements Column {
  private acc = new Float64Array(16);
  private best = new Int32Array(16);
  /** AVG: the number of values per group (all of them, also those the generic aggregator took). */
  private n = new Float64Array(16);
  /** Per group: 0 nothing yet, 1 numbers, 2 the generic aggregator. */
  private state = new Uint8Array(16);
  private readonly generic: GenericColumn;
  private readonly values = new Map<number, number>();
  private readonly slot: number;
  /** SUM or AVG. */
  private readonly sum: boolean;
  private readonly avg: boolean;
  private readonly sign: number;

  constructor(
    private readonly spec: AggregateSpec,
    private readonly ids: ResultIds,
  ) {
    this.avg = spec.fn === 'avg';
    this.generic = new GenericColumn(this.avg ? { ...spec, fn: 'sum' } : spec, ids);
    this.slot = spec.variableSlot!;
    this.sum = spec.fn === 'sum' || this.avg;
    this.sign = spec.fn === 'min' ? -1 : 1;
  }

  /** Whether an aggregate can be held by this column. */
  static fits(a: AggregateSpec): boolean {
    return !a.distinct && a.variableSlot !== undefined && (a.fn === 'sum' || a.fn === 'min' || a.fn === 'max' || a.fn === 'avg');
  }

  /** The integer value of a term id (NaN: not a canonical xsd:integer, or not a safe integer). */
  private integerOf(id: number): number {
    let v = this.values.get(id);
    if (v === undefined) {
      const t = this.ids.termOf(id);
      v = t.termType === 'Literal' && t.datatype.value === XSD_INTEGER && t.language === '' && CANONICAL_INTEGER.test(t.value) ? Number(t.value) : NaN;
      if (!Number.isSafeInteger(v)) v = NaN;
      this.values.set(id, v);
    }
    return v;
  }

  private grow(group: number): void {
    if (group < this.state.length) return;
    const n = Math.max(group + 1, this.state.length * 2);
    const acc = new Float64Array(n);
    acc.set(this.acc);
    this.acc = acc;
    const best = new Int32Array(n);
    best.set(this.best);
    this.best = best;
    const count = new Float64Array(n);
    count.set(this.n);
    this.n = count;
    const state = new Uint8Array(n);
    state.set(this.state);
    this.state = state;
  }

  /** Moves a group to the generic aggregator, starting from its value so far. */
  private fallBack(group: number): void {
    if (this.state[group] === 1) {
      const so = this.sum ? this.ids.termOf(this.ids.countId(this.acc[group]!)) : this.ids.termOf(this.best[group]!);
      this.generic.addValue(group, so);
    }
    this.state[group] = 2;
  }

  add(group: number, s: Int32Array): void {
    this.grow(group);
    if (this.avg) this.n[group]!++;
    if (this.state[group] === 2) {
      this.generic.add(group, s);
      return;
    }
    const id = s[this.slot]!;
    if (id === -1 && !this.sum) return; // MIN and MAX skip unbound values
    const n = id === -1 ? NaN : this.integerOf(id);
    if (this.sum) {
      const next = this.acc[group]! + n;
      if (Number.isSafeInteger(next)) {
        this.acc[group] = next;
        this.state[group] = 1;
        return;
      }
    } else if (!Number.isNaN(n)) {
      if (this.state[group] === 0 || (n - this.acc[group]!) * this.sign > 0) {
        this.acc[group] = n;
        this.best[group] = id;
        this.state[group] = 1;
      }
      return;
    }
    this.fallBack(group);
    this.generic.add(group, s);
  }

  result(group: number): number | undefined {
    const state = group < this.state.length ? this.state[group]! : 0;
    if (this.avg) {
      const n = group < this.n.length ? this.n[group]! : 0;
      if (state === 0) return this.ids.countId(0);
      const sum = state === 2 ? this.generic.resultValue(group) : this.ids.termOf(this.ids.countId(this.acc[group]!));
      const avg = averageOf(sum, BigInt(n));
      return avg === undefined ? undefined : this.ids.idOf(avg);
    }
    if (state === 2) return this.generic.result(group);
    if (state === 1) return this.sum ? this.ids.countId(this.acc[group]!) : this.best[group]!;
    return this.sum ? this.ids.countId(0) : undefined;
  }
}

/**
 * A set of (id, group) pairs: open addressing over two Int32Arrays, at most half full, without
 * an allocation per pair.
 */
class PairSet {
  private ids = new Int32Array(64);
  private groups = new Int32Array(64).fill(-1);
  private size = 0;

  private static slot(id: number, group: number, mask: number): number {
    let h = Math.imul(id ^ Math.imul(group, 0x9e3779b1), 0x85ebca6b);
    h ^= h >>> 13;
    return h & mask;
  }

  /** Adds a pair; false when it was there already. */
  add(id: number, group: number): boolean {
    const mask = this.groups.length - 1;
    let at = PairSet.slot(id, group, mask);
    for (;;) {
      const g = this.groups[at]!;
      if (g === -1) break;
      if (g === group && this.ids[at] === id) return false;
      at = (at + 1) & mask;
    }
    this.ids[at] = id;
    this.groups[at] = group;
    if (++this.size * 2 > this.groups.length) this.grow();
    return true;
  }

  private grow(): void {
    const ids = this.ids;
    const groups = this.groups;
    this.ids = new Int32Array(ids.length * 2);
    this.groups = new Int32Array(groups.length * 2).fill(-1);
    const mask = this.groups.length - 1;
    for (let i = 0; i < groups.length; i++) {
      const g = groups[i]!;
      if (g === -1) continue;
      let at = PairSet.slot(ids[i]!, g, mask);
      while (this.groups[at] !== -1) at = (at + 1) & mask;
      this.ids[at] = ids[i]!;
      this.groups[at] = g;
    }
  }
}

/**
 * COUNT(DISTINCT ?x) of a bare variable: the distinct ids of each group (within a query a term
 * has one id, so distinct ids are distinct terms), as one set of (id, group) pairs.
 */
class DistinctCountColumn implements Column {
  private counts = new Float64Array(16);
  private readonly pairs = new PairSet();
  private readonly slot: number;
  constructor(
    spec: AggregateSpec,
    private readonly ids: ResultIds,
  ) {
    this.slot = spec.variableSlot!;
  }
  static fits(a: AggregateSpec): boolean {
    return a.fn === 'count' && a.distinct && a.variableSlot !== undefined;
  }
  add(group: number, s: Int32Array): void {
    const id = s[this.slot]!;
    if (id === -1) return; // COUNT leaves out unbound values
    if (group >= this.counts.length) {
      const grown = new Float64Array(Math.max(group + 1, this.counts.length * 2));
      grown.set(this.counts);
      this.counts = grown;
    }
    if (this.pairs.add(id, group)) this.counts[group]!++;
  }
  result(group: number): number {
    return this.ids.countId(group < this.counts.length ? this.counts[group]! : 0);
  }
}

/** SAMPLE(?x) of a bare variable: the first bound id of each group. */
class SampleColumn implements Column {
  private first = new Int32Array(16).fill(-1);
  private readonly slot: number;
  constructor(spec: AggregateSpec) {
    this.slot = spec.variableSlot!;
  }
  static fits(a: AggregateSpec): boolean {
    return a.fn === 'sample' && a.variableSlot !== undefined;
  }
  add(group: number, s: Int32Array): void {
    if (group >= this.first.length) {
      const grown = new Int32Array(Math.max(group + 1, this.first.length * 2)).fill(-1);
      grown.set(this.first);
      this.first = grown;
    }
    if (this.first[group] === -1) this.first[group] = s[this.slot]!;
  }
  result(group: number): number | undefined {
    const id = group < this.first.length ? this.first[group]! : -1;
    return id === -1 ? undefined : id;
  }
}

/** Any other aggregate: one aggregator per group. */
class GenericColumn implements Column {
  private readonly aggregators: Aggregator[] = [];
  constructor(
    private readonly spec: AggregateSpec,
    private readonly ids: ResultIds,
  ) {}
  private at(group: number): Aggregator {
    let a = this.aggregators[group];
    if (!a) {
      const { fn, distinct, separator, star } = this.spec;
      a = createAggregator(fn, distinct, { ...(separator !== undefined ? { separator } : {}), countStar: star });
      this.aggregators[group] = a;
    }
    return a;
  }
  /** Adds a value to a group's aggregator. */
  addValue(group: number, v: Value | undefined): void {
    this.at(group).add(v);
  }
  add(group: number, s: Int32Array): void {
    const { star, distinct, value } = this.spec;
    // COUNT(DISTINCT *) needs a value that identifies the solution; COUNT(*) any value
    const v = star ? (distinct ? DataFactory.literal(s.join(',')) : STAR_VALUE) : value!(s);
    this.at(group).add(v);
  }
  result(group: number): number | undefined {
    const r = this.at(group).result();
    return r === undefined ? undefined : this.ids.idOf(r);
  }
  /** The result of a group as a term (undefined: unbound). */
  resultValue(group: number): Value | undefined {
    return this.at(group).result();
  }
}

/** The value COUNT(*) adds for a solution (any bound value). */
const STAR_VALUE: Value = DataFactory.literal('');

/** The groups of one GROUP BY and their aggregates. */
export class Grouping {
  private readonly columns: Column[];
  private readonly keys: Int32Array[] = [];
  private readonly byId = new Map<number, number>();
  /** Two or more key variables: open addressing over the group numbers (-1: free), at most half full. */
  private table = new Int32Array(64).fill(-1);

  /**
   * @param keySlots - the slots of the GROUP BY variables
   * @param aggregates - the aggregates
   * @param seed - the solution the groups' rows start from
   */
  constructor(
    private readonly keySlots: readonly number[],
    private readonly aggregates: readonly AggregateSpec[],
    private readonly seed: Int32Array,
    ids: ResultIds,
    /** Called with the first solution of each new group (memory accounting). */
    private readonly onNewGroup?: (s: Int32Array) => void,
  ) {
    this.columns = aggregates.map((a): Column => {
      if (a.fn === 'count' && !a.distinct) return new CountColumn(a, ids);
      if (DistinctCountColumn.fits(a)) return new DistinctCountColumn(a, ids);
      if (SampleColumn.fits(a)) return new SampleColumn(a);
      if (IntegerColumn.fits(a)) return new IntegerColumn(a, ids);
      return new GenericColumn(a, ids);
    });
  }

  /** The number of the group of `s` (a new group when none). */
  private groupOf(s: Int32Array): number {
    const keySlots = this.keySlots;
    if (keySlots.length === 0) return this.keys.length === 0 ? this.newGroup(s) : 0;
    let g: number | undefined;
    if (keySlots.length === 1) {
      const id = s[keySlots[0]!]!;
      g = this.byId.get(id);
      if (g === undefined) this.byId.set(id, (g = this.newGroup(s)));
    } else {
      g = this.probe(s);
    }
    return g;
  }

  /** The hash of the key ids of a solution. */
  private hash(s: Int32Array): number {
    const keySlots = this.keySlots;
    let h = 0x811c9dc5;
    for (let i = 0; i < keySlots.length; i++) h = Math.imul(h ^ s[keySlots[i]!]!, 0x01000193);
    return (h ^ (h >>> 15)) >>> 0;
  }

  /** The group of a solution by two or more key variables, found in {@link table} (a new group when none). */
  private probe(s: Int32Array): number {
    const keySlots = this.keySlots;
    const mask = this.table.length - 1;
    for (let at = this.hash(s) & mask; ; at = (at + 1) & mask) {
      const g = this.table[at]!;
      if (g === -1) {
        const n = this.newGroup(s);
        this.table[at] = n;
        if (this.keys.length * 2 > this.table.length) this.rehash();
        return n;
      }
      const key = this.keys[g]!;
      let same = true;
      for (let i = 0; i < keySlots.length; i++) {
        const x = keySlots[i]!;
        if (key[x] !== s[x]) {
          same = false;
          break;
        }
      }
      if (same) return g;
    }
  }

  /** Doubles {@link table}. */
  private rehash(): void {
    const table = new Int32Array(this.table.length * 2).fill(-1);
    const mask = table.length - 1;
    for (let g = 0; g < this.keys.length; g++) {
      let at = this.hash(this.keys[g]!) & mask;
      while (table[at] !== -1) at = (at + 1) & mask;
      table[at] = g;
    }
    this.table = table;
  }

  private newGroup(s: Int32Array): number {
    this.onNewGroup?.(s);
    const key = this.seed.slice();
    for (const x of this.keySlots) key[x] = s[x]!;
    this.keys.push(key);
    return this.keys.length - 1;
  }

  /** Adds a solution to its group. */
  add(s: Int32Array): void {
    const g = this.groupOf(s);
    const columns = this.columns;
    for (let i = 0; i < columns.length; i++) columns[i]!.add(g, s);
  }

  /** Emits one solution per group (one for no solutions and no GROUP BY variables); true when `emit` stopped. */
  emitAll(emit: Emit): boolean {
    const n = this.groupCount();
    for (let g = 0; g < n; g++) if (emit(this.solutionOf(g)) === true) return true;
    return false;
  }

  /** The same, with a pause (a yield, the time limit checked) whenever `due` says the time slice is used up. */
  async emitAllAsync(emit: Emit, pause: () => Promise<void>, due: () => boolean): Promise<boolean> {
    const n = this.groupCount();
    for (let g = 0; g < n; g++) {
      if (emit(this.solutionOf(g)) === true) return true;
      if ((g & 255) === 255 && due()) await pause();
    }
    return false;
  }

  /** The number of groups (a grouping without keys has its one group even when empty). */
  private groupCount(): number {
    if (this.keys.length === 0 && this.keySlots.length === 0) this.keys.push(this.seed.slice());
    return this.keys.length;
  }

  /** The g-th group's solution: its keys and its aggregates' values. */
  private solutionOf(g: number): Int32Array {
    const out = this.keys[g]!.slice();
    for (let i = 0; i < this.columns.length; i++) {
      const r = this.columns[i]!.result(g);
      if (r !== undefined) out[this.aggregates[i]!.slot] = r;
    }
    return out;
  }
}
