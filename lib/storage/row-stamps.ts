/**
 * A version per row of a tuple table (the version a removed row was removed at, or the one
 * whose transaction changed a row's status in place): a hash map from row
 * numbers to versions in two typed arrays (open addressing, linear probing, deletion by
 * shifting back), in place of a `Map<number, number>`. A reasoning run that changes the status
 * of 100,000 facts retires as many rows, and each insertion into a `Map` of that size cost
 * about 400 ns (growth included); here it is a hash, a probe and two stores.
 * @module
 */

/** Entries per slot at most before the arrays double. */
const MAX_LOAD = 0.5;

/** A version per row, by row number. */
export class RowStamps {
  /** row + 1 per slot; 0 marks an empty slot. */
  private keys = new Int32Array(16);
  private stamps = new Float64Array(16);
  private mask = 15;
  private count = 0;

  /** The number of rows held. */
  get size(): number {
    return this.count;
  }

  /** Bytes held by the arrays. */
  get byteSize(): number {
    return this.keys.byteLength + this.stamps.byteLength;
  }

  /** The version held for `row`, or -1 when none is. */
  get(row: number): number {
    const keys = this.keys;
    const key = row + 1;
    for (let i = slotOf(row, this.mask); ; i = (i + 1) & this.mask) {
      const k = keys[i]!;
      if (k === key) return this.stamps[i]!;
      if (k === 0) return -1;
    }
  }

  /** Holds `version` for `row` (replacing what was held for it). */
  set(row: number, version: number): void {
    if ((this.count + 1) > (this.mask + 1) * MAX_LOAD) this.grow();
    const keys = this.keys;
    const key = row + 1;
    let i = slotOf(row, this.mask);
    for (; keys[i] !== 0; i = (i + 1) & this.mask) {
      if (keys[i] === key) {
        this.stamps[i] = version;
        return;
      }
    }
    keys[i] = key;
    this.stamps[i] = version;
    this.count++;
  }

  /** Forgets `row` (nothing happens when it is not held). */
  delete(row: number): void {
    const keys = this.keys;
    const mask = this.mask;
    const key = row + 1;
    let i = slotOf(row, mask);
    for (; keys[i] !== key; i = (i + 1) & mask) if (keys[i] === 0) return;
    this.count--;
    // shift back the entries after the hole that would no longer be found past it
    for (let j = i; ; ) {
      keys[i] = 0;
      for (;;) {
        j = (j + 1) & mask;
        const k = keys[j]!;
        if (k === 0) return;
        const home = slotOf(k - 1, mask);
        // the entry at j may move to the hole at i unless its home lies cyclically in (i, j]
        if (i <= j ? home <= i || home > j : home <= i && home > j) break;
      }
      keys[i] = keys[j]!;
      this.stamps[i] = this.stamps[j]!;
      i = j;
    }
  }

  /** Calls `onEntry` with every row held and its version, in no particular order. */
  forEach(onEntry: (row: number, version: number) => void): void {
    const keys = this.keys;
    for (let i = 0; i < keys.length; i++) if (keys[i] !== 0) onEntry(keys[i]! - 1, this.stamps[i]!);
  }

  /** Forgets every row. */
  clear(): void {
    this.keys = new Int32Array(16);
    this.stamps = new Float64Array(16);
    this.mask = 15;
    this.count = 0;
  }

  private grow(): void {
    const oldKeys = this.keys;
    const oldStamps = this.stamps;
    const capacity = oldKeys.length * 2;
    this.keys = new Int32Array(capacity);
    this.stamps = new Float64Array(capacity);
    this.mask = capacity - 1;
    for (let s = 0; s < oldKeys.length; s++) {
      const k = oldKeys[s]!;
      if (k === 0) continue;
      let i = slotOf(k - 1, this.mask);
      while (this.keys[i] !== 0) i = (i + 1) & this.mask;
      this.keys[i] = k;
      this.stamps[i] = oldStamps[s]!;
    }
  }
}

/** The home slot of a row (a multiplicative hash: neighbouring rows spread over the table). */
function slotOf(row: number, mask: number): number {
  const h = Math.imul(row, 0x9e3779b1);
  return (h ^ (h >>> 15)) & mask;
}
