/**
 * A set of solutions (Int32Arrays of term ids, compared slot by slot; a slot past a
 * solution's end counts as unbound): their values side by side in one growing Int32Array,
 * found by open addressing over their hashes (the table at most half full). DISTINCT and
 * REDUCED keep the solutions they have passed on here, in about 4 bytes per slot, without a
 * string key or an object per solution.
 * @module
 */

/** The value of an unbound slot. */
const UNBOUND = -1;

/** A set of solutions, kept by value (the caller may reuse its arrays). */
export class SolutionSet {
  /** Slots per solution kept (grows when a longer solution comes). */
  private width = -1;
  private values: Int32Array = new Int32Array(256);
  private hashes: Int32Array = new Int32Array(64);
  private count = 0;
  /** Per table slot: 1 + the number of a kept solution, or 0 (free). */
  private table: Int32Array = new Int32Array(64);

  /** The number of solutions kept. */
  get size(): number {
    return this.count;
  }

  /** Adds `s`; false when an equal solution is kept already. */
  add(s: Int32Array): boolean {
    if (s.length > this.width) this.widen(s.length);
    const width = this.width;
    const h = hash(s, width);
    const table = this.table;
    const mask = table.length - 1;
    for (let at = h & mask; ; at = (at + 1) & mask) {
      const entry = table[at]!;
      if (entry === 0) break;
      if (this.hashes[entry - 1] === h && this.equals(entry - 1, s)) return false;
    }
    const n = this.count;
    if ((n + 1) * width > this.values.length) this.values = grown(this.values, (n + 1) * width);
    if (n + 1 > this.hashes.length) this.hashes = grown(this.hashes, n + 1);
    const base = n * width;
    for (let i = 0; i < width; i++) this.values[base + i] = i < s.length ? s[i]! : UNBOUND;
    this.hashes[n] = h;
    this.count = n + 1;
    if (this.count * 2 > table.length) this.rehash(table.length * 2);
    else this.place(n);
    return true;
  }

  /** Whether kept solution `k` equals `s`. */
  private equals(k: number, s: Int32Array): boolean {
    const width = this.width;
    const base = k * width;
    for (let i = 0; i < width; i++) if (this.values[base + i] !== (i < s.length ? s[i]! : UNBOUND)) return false;
    return true;
  }

  private place(k: number): void {
    const mask = this.table.length - 1;
    let at = this.hashes[k]! & mask;
    while (this.table[at] !== 0) at = (at + 1) & mask;
    this.table[at] = k + 1;
  }

  private rehash(size: number): void {
    this.table = new Int32Array(size);
    for (let k = 0; k < this.count; k++) this.place(k);
  }

  /** Lays the kept solutions out `width` slots apart (the new slots unbound) and rehashes them. */
  private widen(width: number): void {
    const old = this.width;
    if (old > 0 && this.count > 0) {
      const values = new Int32Array(Math.max(256, this.count * width * 2)).fill(UNBOUND);
      for (let k = 0; k < this.count; k++) values.set(this.values.subarray(k * old, (k + 1) * old), k * width);
      this.values = values;
      for (let k = 0; k < this.count; k++) this.hashes[k] = hash(this.values.subarray(k * width, (k + 1) * width), width);
      this.width = width;
      this.rehash(this.table.length);
    } else {
      this.width = width;
    }
  }
}

/** The hash of a solution's first `width` slots (unbound past its end). */
function hash(s: Int32Array, width: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < width; i++) h = Math.imul(h ^ (i < s.length ? s[i]! : UNBOUND), 0x01000193);
  return (h ^ (h >>> 15)) & 0x7fffffff;
}

/** A copy of `a` with room for at least `n` entries (doubling). */
function grown(a: Int32Array, n: number): Int32Array {
  const b = new Int32Array(Math.max(n, a.length * 2));
  b.set(a);
  return b;
}
