/**
 * A two-column index of a tuple table: for each pair of terms (one from column `a`, one from
 * column `b`), the chain of rows holding that pair, newest first, and the number of rows of
 * the current state holding it. Tables build these on demand, when a lookup binds both
 * columns and the single-column chains are long (a subject with many triples, a popular
 * predicate), which turns a join step over such chains from O(chain) into O(matches).
 * @module
 */

/** What the index reads from its table. */
export interface PairSource {
  /** The term id at a row and column. */
  get(row: number, column: number): number;
}

function pairHash(x: number, y: number): number {
  let h = Math.imul(x ^ 0x9e3779b9, 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13) ^ y, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Chains of rows by the pair of values in two columns. */
export class PairIndex {
  /** Slot → newest row + 1 of a pair (0 = empty). */
  private slots = new Uint32Array(64);
  /** Slot → rows of the pair in the current state. */
  private counts = new Uint32Array(64);
  private mask = 63;
  private used = 0;
  /** Row → next older row + 1 with the same pair (0 = end). */
  private next: Uint32Array;

  /** Creates the index over columns `a` and `b` for rows [0, rows) of `source`. */
  constructor(
    private readonly source: PairSource,
    /** First column. */
    readonly a: number,
    /** Second column. */
    readonly b: number,
    rows: number,
    live: (row: number) => boolean,
  ) {
    this.next = new Uint32Array(Math.max(16, rows));
    let cap = 64;
    while (cap * 3 < rows * 4) cap *= 2;
    this.resize(cap);
    for (let row = 0; row < rows; row++) this.add(row, live(row));
  }

  /** Bytes held. */
  get byteSize(): number {
    return this.slots.byteLength + this.counts.byteLength + this.next.byteLength;
  }

  /** Newest row (or -1) with the pair (x, y). */
  head(x: number, y: number): number {
    const i = this.find(x, y);
    return i < 0 ? -1 : this.slots[i]! - 1;
  }

  /** Next older row (or -1) with the same pair as `row`. */
  nextRow(row: number): number {
    return this.next[row]! - 1;
  }

  /** Rows of the current state holding (x, y). */
  count(x: number, y: number): number {
    const i = this.find(x, y);
    return i < 0 ? 0 : this.counts[i]!;
  }

  /** Links a newly appended row in; `live` says whether it counts in the current state. */
  add(row: number, live: boolean): void {
    if (row >= this.next.length) {
      const n = new Uint32Array(Math.max(row + 1, Math.ceil(this.next.length * 1.5)));
      n.set(this.next);
      this.next = n;
    }
    if ((this.used + 1) * 4 > this.slots.length * 3) this.resize(this.slots.length * 2);
    const x = this.source.get(row, this.a);
    const y = this.source.get(row, this.b);
    let i = this.find(x, y);
    if (i < 0) {
      i = this.emptySlot(x, y);
      this.used++;
      this.next[row] = 0;
    } else this.next[row] = this.slots[i]!;
    this.slots[i] = row + 1;
    if (live) this.counts[i] = this.counts[i]! + 1;
  }

  /** Adjusts the current-state count of a row's pair (a row retired or revived). */
  recount(row: number, delta: number): void {
    const i = this.find(this.source.get(row, this.a), this.source.get(row, this.b));
    if (i >= 0) this.counts[i] = this.counts[i]! + delta;
  }

  /** Unlinks the newest row of its pair (rollback truncates rows newest first). */
  unlinkNewest(row: number, live: boolean): void {
    const i = this.find(this.source.get(row, this.a), this.source.get(row, this.b));
    if (i < 0) return;
    if (live) this.counts[i] = this.counts[i]! - 1;
    const older = this.next[row]!;
    this.next[row] = 0;
    if (older !== 0) this.slots[i] = older;
    else this.deleteSlot(i);
  }

  private find(x: number, y: number): number {
    const mask = this.mask;
    let i = pairHash(x, y) & mask;
    for (;;) {
      const v = this.slots[i]!;
      if (v === 0) return -1;
      if (this.source.get(v - 1, this.a) === x && this.source.get(v - 1, this.b) === y) return i;
      i = (i + 1) & mask;
    }
  }

  private emptySlot(x: number, y: number): number {
    const mask = this.mask;
    let i = pairHash(x, y) & mask;
    while (this.slots[i] !== 0) i = (i + 1) & mask;
    return i;
  }

  private home(v: number): number {
    return pairHash(this.source.get(v - 1, this.a), this.source.get(v - 1, this.b)) & this.mask;
  }

  private deleteSlot(i: number): void {
    const slots = this.slots;
    const counts = this.counts;
    const mask = this.mask;
    let j = i;
    this.used--;
    for (;;) {
      slots[i] = 0;
      counts[i] = 0;
      for (;;) {
        j = (j + 1) & mask;
        const v = slots[j]!;
        if (v === 0) return;
        const home = this.home(v);
        if (i <= j ? home <= i || home > j : home <= i && home > j) break;
      }
      slots[i] = slots[j]!;
      counts[i] = counts[j]!;
      i = j;
    }
  }

  private resize(capacity: number): void {
    const oldSlots = this.slots;
    const oldCounts = this.counts;
    this.slots = new Uint32Array(capacity);
    this.counts = new Uint32Array(capacity);
    this.mask = capacity - 1;
    for (let k = 0; k < oldSlots.length; k++) {
      const v = oldSlots[k]!;
      if (v === 0) continue;
      let i = this.home(v);
      while (this.slots[i] !== 0) i = (i + 1) & this.mask;
      this.slots[i] = v;
      this.counts[i] = oldCounts[k]!;
    }
  }
}
