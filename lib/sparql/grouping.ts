/**
 * GROUP BY and aggregates over solutions of term ids: groups found by their key ids (one key
 * variable: a map of numbers; none: one group), groups numbered in order of appearance, and
 * each aggregate held as a column over the group numbers. COUNT (without DISTINCT) counts in a
 * Float64Array without making a term per solution; the other aggregates keep one
 * {@link Aggregator} per group and read the values of their expressions.
 * @module
 */
import { DataFactory } from 'n3';
import { createAggregator, type AggregateFunction, type Aggregator, type Value } from '../expressions/index.js';
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
 * SUM, MIN and MAX (without DISTINCT) of a bare variable, while its values are xsd:integer
 * literals in canonical form and the sums stay exact: a number per group, read from a cache
 * of the values of term ids. A group meeting any other value (or an unbound one for SUM)
 * goes on in an {@link Aggregator} that starts from what the group has so far.
 */
class IntegerColumn implements Column {
  private acc = new Float64Array(16);
  private best = new Int32Array(16);
  /** Per group: 0 nothing yet, 1 numbers, 2 the generic aggregator. */
  private state = new Uint8Array(16);
  private readonly generic: GenericColumn;
  private readonly values = new Map<number, number>();
  private readonly slot: number;
  private readonly sum: boolean;
  private readonly sign: number;

  constructor(
    private readonly spec: AggregateSpec,
    private readonly ids: ResultIds,
  ) {
    this.generic = new GenericColumn(spec, ids);
    this.slot = spec.variableSlot!;
    this.sum = spec.fn === 'sum';
    this.sign = spec.fn === 'min' ? -1 : 1;
  }

  /** Whether an aggregate can be held by this column. */
  static fits(a: AggregateSpec): boolean {
    return !a.distinct && a.variableSlot !== undefined && (a.fn === 'sum' || a.fn === 'min' || a.fn === 'max');
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
    if (state === 2) return this.generic.result(group);
    if (state === 1) return this.sum ? this.ids.countId(this.acc[group]!) : this.best[group]!;
    return this.sum ? this.ids.countId(0) : undefined;
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
}

/** The value COUNT(*) adds for a solution (any bound value). */
const STAR_VALUE: Value = DataFactory.literal('');

/** The groups of one GROUP BY and their aggregates. */
export class Grouping {
  private readonly columns: Column[];
  private readonly keys: Int32Array[] = [];
  private readonly byId = new Map<number, number>();
  private readonly byText = new Map<string, number>();

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
    this.columns = aggregates.map((a) => (a.fn === 'count' && !a.distinct ? new CountColumn(a, ids) : IntegerColumn.fits(a) ? new IntegerColumn(a, ids) : new GenericColumn(a, ids)));
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
      let k = String(s[keySlots[0]!]);
      for (let i = 1; i < keySlots.length; i++) k += `,${s[keySlots[i]!]}`;
      g = this.byText.get(k);
      if (g === undefined) this.byText.set(k, (g = this.newGroup(s)));
    }
    return g;
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
    if (this.keys.length === 0 && this.keySlots.length === 0) this.keys.push(this.seed.slice());
    for (let g = 0; g < this.keys.length; g++) {
      const out = this.keys[g]!.slice();
      for (let i = 0; i < this.columns.length; i++) {
        const r = this.columns[i]!.result(g);
        if (r !== undefined) out[this.aggregates[i]!.slot] = r;
      }
      if (emit(out) === true) return true;
    }
    return false;
  }
}
