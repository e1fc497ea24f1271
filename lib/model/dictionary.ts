/**
 * The term dictionary of a data store: canonical term bytes ⇄ dense 32-bit ids.
 *
 * Terms are kept in one growing byte arena (UTF-8 of the canonical form, see `terms.ts`)
 * with an offset per id, and found through an open-addressing hash table of ids. Lookups
 * from the bulk parsers hash the bytes of the input chunk directly, so a known term costs
 * one probe sequence and no allocation. The dictionary is append-only between commits;
 * a rolled-back transaction truncates it back to its mark.
 *
 * A triple term (RDF 1.2) is interned after its parts, so its parts have smaller ids, and is
 * recorded in the dictionary's {@link TripleTermIndex} with their ids: a snapshot that lists
 * the terms in id order restores every triple term after its parts. Its canonical key
 * `(S P O)` holds its parts' keys, and may be long; the arena holds instead a short form of
 * 13 bytes, {@link TRIPLE_IDS} and the ids of its parts (32 bits each, little-endian), which
 * is hashed, compared and copied like any key ({@link TermDictionary.keyOf} and
 * {@link TermDictionary.canonicalTerms} give the canonical key again, so snapshots and logs
 * hold canonical keys only). A canonical key given to the dictionary is turned into that form
 * after its parts are found.
 * @module
 */
import { TripleTermIndex } from './triple-terms.js';

const EMPTY = 0; // slot value: 0 = empty, otherwise id + 1
/** First byte of a triple term's canonical key (see terms.ts, KIND_TRIPLE). */
const TRIPLE = 0x28;
/**
 * First byte of a triple term in the arena, followed by the ids of its subject, predicate and
 * object. No canonical key starts with it, and the dictionary takes no key that does.
 */
const TRIPLE_IDS = 0x01;
/** Length of a triple term in the arena: {@link TRIPLE_IDS} and three 32-bit ids. */
const TRIPLE_IDS_LENGTH = 13;
const SPACE = 0x20;

/** A multiplicative hash over a byte range, mixing four bytes per step, with a final avalanche. */
function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5 ^ (end - start);
  let i = start;
  for (const stop = end - 3; i < stop; i += 4) {
    h = Math.imul(h ^ (bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24)), 0x9e3779b1);
    h ^= h >>> 15;
  }
  for (; i < end; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h >>> 0;
}

/** Dense id assignment for canonical term forms. */
export class TermDictionary {
  private arena = new Uint8Array(1 << 16);
  private arenaView = Buffer.from(this.arena.buffer, 0, this.arena.length);
  private arenaUsed = 0;
  /** offsets[id] = start of term id; offsets[size] = arenaUsed. */
  private offsets = new Uint32Array(1 << 12);
  private hashes = new Uint32Array(1 << 12);
  /** Slots hold `id + 1` in the low `idBits` bits and the term hash's high bits above them. */
  private slots = new Uint32Array(1 << 13);
  private mask = (1 << 13) - 1;
  private idBits = 22;
  private idMask = (1 << 22) - 1;
  private highMask = ~((1 << 22) - 1);
  /** Direct-mapped cache of recently seen ids (`id + 1`) by hash, for repeated terms in bulk input. */
  private readonly recent = new Uint32Array(4096);
  /** Direct-mapped cache of recently seen ids (`id + 1`) by length and last bytes (checked before hashing). */
  private readonly sketches = new Uint32Array(8192);
  private count = 0;
  /**
   * At least the byte length of the longest term held (it may stay above it after a
   * truncation): a longer key is not in the dictionary, found without encoding or hashing it.
   */
  private longest = 0;
  /** By term id: the leading arguments of the SKOLEM terms created in this store (see skolem.ts). */
  private readonly skolems = new Map<number, Uint32Array>();
  /** The ids of `skolems` in the order they were remembered (for persistence). */
  private skolemOrder: number[] = [];
  private truncationCount = 0;
  /** The triple terms among the terms, by their parts. */
  readonly tripleTerms = new TripleTermIndex();
  /** Where a triple term's arena form is composed before it is looked up. */
  private readonly tripleKey = new Uint8Array(TRIPLE_IDS_LENGTH);
  private scratch = Buffer.alloc(256);
  /** The scratch buffer as a plain Uint8Array (keeps the byte loops monomorphic). */
  private scratchBytes = new Uint8Array(this.scratch.buffer, this.scratch.byteOffset, this.scratch.length);

  /**
   * How many times {@link TermDictionary.truncate} removed ids (ids that went may be given to
   * other terms later, so a cache of terms by id is stale once this changes).
   */
  get truncations(): number {
    return this.truncationCount;
  }

  /** Number of terms. Ids are 0 .. size-1. */
  get size(): number {
    return this.count;
  }

  /** Bytes held by the dictionary's arrays (for component info and benchmarks). */
  get byteSize(): number {
    return this.arena.byteLength + this.offsets.byteLength + this.hashes.byteLength + this.slots.byteLength;
  }

  /** The id of the canonical bytes in [start, end), interning them if new. */
  internBytes(bytes: Uint8Array, start: number, end: number): number {
    return this.idOf(bytes, start, end, true);
  }

  /** The id of the canonical bytes in [start, end), or -1 when unknown. */
  lookupBytes(bytes: Uint8Array, start: number, end: number): number {
    if (end - start > this.longest && bytes[start] !== TRIPLE) return -1;
    return this.idOf(bytes, start, end, false);
  }

  /** The id of the triple term of these parts, interning it if new when `add` (otherwise -1 when it is not there). */
  private tripleIds(subject: number, predicate: number, object: number, add: boolean): number {
    const key = this.tripleKey;
    key[0] = TRIPLE_IDS;
    writeId(key, 1, subject);
    writeId(key, 5, predicate);
    writeId(key, 9, object);
    const h = hashBytes(key, 0, TRIPLE_IDS_LENGTH);
    let id = this.probe(key, 0, TRIPLE_IDS_LENGTH, h);
    if (id < 0 && add) {
      id = this.insert(key, 0, TRIPLE_IDS_LENGTH, h);
      this.tripleTerms.add(id, subject, predicate, object);
    }
    return id;
  }

  /**
   * The id of a triple term given by its canonical key `(S P O)` in bytes[start, end): its
   * parts are found (interned when `add`) first. -1 when a part or the triple term is not
   * there and not `add`.
   */
  private tripleKeyId(bytes: Uint8Array, start: number, end: number, add: boolean): number {
    // the spaces after the subject and the predicate (which hold none)
    let first = start + 1;
    while (first < end && bytes[first] !== SPACE) first++;
    let second = first + 1;
    while (second < end && bytes[second] !== SPACE) second++;
    if (second >= end - 1 || bytes[end - 1] !== 0x29) throw new RangeError('a triple term key needs a subject, a predicate and an object in parentheses');
    const subject = this.idOf(bytes, start + 1, first, add);
    if (subject < 0) return -1;
    const predicate = this.idOf(bytes, first + 1, second, add);
    if (predicate < 0) return -1;
    const object = this.idOf(bytes, second + 1, end - 1, add);
    if (object < 0) return -1;
    return this.tripleIds(subject, predicate, object, add);
  }

  /** The id of the bytes; a new term is interned when `add`, otherwise it gives -1. */
  private idOf(bytes: Uint8Array, start: number, end: number, add: boolean): number {
    const first = bytes[start];
    if (first === TRIPLE) return this.tripleKeyId(bytes, start, end, add);
    if (first === TRIPLE_IDS) throw new RangeError('a term key cannot start with byte 0x01');
    // bulk input repeats terms: try the id last seen with the same length and last bytes
    const len = end - start;
    const sketch = len > 4 ? (Math.imul(len, 0x9e3779b1) ^ (bytes[end - 2]! | (bytes[end - 3]! << 8) | (bytes[end - 4]! << 16) | (bytes[end - 5]! << 24))) >>> 0 : len;
    const slot = (sketch ^ (sketch >>> 12)) & 8191;
    const seen = this.sketches[slot]!;
    if (seen !== 0 && seen <= this.count && this.same(seen - 1, bytes, start, end)) return seen - 1;
    const h = hashBytes(bytes, start, end);
    let id = this.probe(bytes, start, end, h);
    if (id < 0) {
      if (!add) return -1;
      id = this.insert(bytes, start, end, h);
    }
    this.sketches[slot] = id + 1;
    return id;
  }

  /** The id of a canonical key string, interning it if new. */
  intern(key: string): number {
    const n = this.encode(key);
    return this.internBytes(this.scratchBytes, 0, n);
  }

  /** The id of a canonical key string, or -1 when unknown. */
  lookup(key: string): number {
    // a key's UTF-8 form has at least as many bytes as the key has UTF-16 code units (a triple term's is held shorter)
    if (key.length > this.longest && key.charCodeAt(0) !== TRIPLE) return -1;
    const n = this.encode(key);
    return this.lookupBytes(this.scratchBytes, 0, n);
  }

  /** The canonical key string of an id. */
  keyOf(id: number): string {
    if (id < 0 || id >= this.count) throw new RangeError(`unknown term id ${id}`);
    const start = this.offsets[id]!;
    if (this.arena[start] === TRIPLE_IDS) return `(${this.keyOf(readId(this.arena, start + 1))} ${this.keyOf(readId(this.arena, start + 5))} ${this.keyOf(readId(this.arena, start + 9))})`;
    return this.arenaView.toString('utf8', start, this.offsets[id + 1]);
  }

  /** The first byte of an id's canonical key: `<` IRI, `_` blank node, `"` literal, `(` triple term. */
  kindOf(id: number): number {
    const first = this.arena[this.offsets[id]!]!;
    return first === TRIPLE_IDS ? TRIPLE : first;
  }

  /**
   * Byte offset of an id's form in {@link TermDictionary.arenaBytes}: its canonical key, except
   * for a triple term ({@link TRIPLE_IDS} and the ids of its parts).
   */
  startOf(id: number): number {
    return this.offsets[id]!;
  }

  /** End byte offset (exclusive) of an id's form in the arena. */
  endOf(id: number): number {
    return this.offsets[id + 1]!;
  }

  /** The arena holding every term's form (see {@link TermDictionary.startOf}); valid until the next insertion. */
  get arenaBytes(): Uint8Array {
    return this.arena;
  }

  /**
   * Fills an empty dictionary with the terms of a snapshot in one pass: `bytes` holds their
   * canonical forms one after another and `ends[i]` is where term i ends (ids 0, 1, … in
   * order). The terms must be distinct, as a dictionary's export is. `hashes`, when given,
   * are the terms' hashes as {@link TermDictionary.exportHashes} gave them (spares hashing).
   * @throws RangeError when the dictionary is not empty or the ends do not fit the bytes.
   */
  restore(bytes: Uint8Array, ends: Uint32Array, hashes?: Uint32Array): void {
    if (this.count !== 0) throw new RangeError('terms can only be restored into an empty dictionary');
    const n = ends.length;
    if ((n === 0 && bytes.length !== 0) || (n > 0 && ends[n - 1] !== bytes.length)) throw new RangeError(`the term ends do not end at the ${bytes.length} term bytes`);
    // a snapshot holds canonical keys: one with triple terms is restored a term at a time
    let triples = false;
    for (let id = 0, start = 0; id < n; start = ends[id++]!) {
      if (bytes[start] === TRIPLE) triples = true;
      else if (bytes[start] === TRIPLE_IDS) throw new RangeError(`term ${id} starts with byte 0x01, which no canonical key does`);
    }
    if (triples) return this.restoreEach(bytes, ends);
    const arena = new Uint8Array(Math.max(1 << 16, bytes.length + (bytes.length >>> 4)));
    arena.set(bytes);
    let cap = 1 << 12;
    while (cap < n + 2) cap *= 2;
    const offsets = new Uint32Array(cap);
    let given = hashes !== undefined && hashes.length === n ? hashes : undefined;
    // hashes made by another hash function (another version) are not used: check a sample
    for (let id = 0, from = 0; given !== undefined && id < Math.min(n, 64); from = ends[id++]!) if (hashBytes(bytes, from, ends[id]!) !== given[id]) given = undefined;
    const termHashes = new Uint32Array(cap);
    let start = 0;
    let longest = 0;
    for (let id = 0; id < n; id++) {
      const end = ends[id]!;
      if (end < start) throw new RangeError(`term ${id} ends before it starts`);
      offsets[id + 1] = end;
      if (end - start > longest) longest = end - start;
      termHashes[id] = given !== undefined ? given[id]! : hashBytes(arena, start, end);
      start = end;
    }
    this.arena = arena;
    this.arenaView = Buffer.from(arena.buffer, 0, arena.length);
    this.arenaUsed = bytes.length;
    this.longest = longest;
    this.offsets = offsets;
    this.hashes = termHashes;
    this.count = n;
    let slots = 1 << 13;
    while (slots < n * 2 + 2) slots *= 2;
    this.rehash(slots);
  }

  /**
   * Fills an empty dictionary with terms one by one (as a log's replay does), for a snapshot
   * that holds triple terms: each is found by its parts, which come before it, and recorded in
   * the triple term index.
   */
  private restoreEach(bytes: Uint8Array, ends: Uint32Array): void {
    for (let id = 0, start = 0; id < ends.length; start = ends[id++]!) {
      if (this.internBytes(bytes, start, ends[id]!) !== id) throw new RangeError(`term ${id} of the snapshot is not distinct or comes before one of its parts`);
    }
  }

  /**
   * The canonical keys (UTF-8) of the terms with ids [from, to), one after another, and where
   * each ends (relative to the first): what snapshots and log records hold, and what
   * {@link TermDictionary.restore} and {@link TermDictionary.internBytes} take back.
   */
  canonicalTerms(from: number, to: number): { readonly ends: Uint32Array; readonly bytes: Uint8Array } {
    const ends = new Uint32Array(Math.max(0, to - from));
    if (to <= from) return { ends, bytes: new Uint8Array(0) };
    const start = this.offsets[from]!;
    let triples = false;
    for (let id = from; id < to; id++) {
      ends[id - from] = this.offsets[id + 1]! - start;
      if (this.arena[this.offsets[id]!] === TRIPLE_IDS) triples = true;
    }
    if (!triples) return { ends, bytes: this.arena.slice(start, this.offsets[to]) };
    const keys: Buffer[] = [];
    let length = 0;
    for (let id = from; id < to; id++) {
      const key = this.arena[this.offsets[id]!] === TRIPLE_IDS ? Buffer.from(this.keyOf(id), 'utf8') : this.arenaView.subarray(this.offsets[id], this.offsets[id + 1]);
      keys.push(key);
      length += key.length;
      ends[id - from] = length;
    }
    const bytes = Buffer.concat(keys, length);
    return { ends, bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length) };
  }

  /** The hash of every term by id (a copy), for {@link TermDictionary.restore}. */
  exportHashes(): Uint32Array {
    return this.hashes.slice(0, this.count);
  }

  /** Releases unused arena and offset capacity (after a bulk load). */
  shrink(): void {
    const keep = this.arenaUsed + (this.arenaUsed >>> 4) + 256;
    if (this.arena.length > keep * 1.1) {
      this.arena = this.arena.slice(0, keep);
      this.arenaView = Buffer.from(this.arena.buffer, 0, this.arena.length);
    }
    const ids = this.count + (this.count >>> 4) + 16;
    if (this.offsets.length > ids * 1.1) {
      this.offsets = this.offsets.slice(0, ids);
      this.hashes = this.hashes.slice(0, ids);
    }
  }

  /**
   * Remembers that SKOLEM made term `id` from the leading arguments `inputs` (term ids), so
   * that the term can be unpacked; a term already remembered keeps its first arguments.
   */
  recordSkolem(id: number, inputs: ArrayLike<number>): void {
    if (!this.skolems.has(id)) {
      this.skolems.set(id, Uint32Array.from(inputs));
      this.skolemOrder.push(id);
    }
  }

  /** How many SKOLEM terms the dictionary remembers the arguments of. */
  get skolemCount(): number {
    return this.skolemOrder.length;
  }

  /**
   * The SKOLEM terms remembered from the `start`-th on (in the order they were remembered),
   * flat: for each, its id, the number of its arguments, then the arguments' ids.
   */
  exportSkolems(start = 0): Uint32Array {
    let length = 0;
    for (let i = start; i < this.skolemOrder.length; i++) length += 2 + this.skolems.get(this.skolemOrder[i]!)!.length;
    const out = new Uint32Array(length);
    let at = 0;
    for (let i = start; i < this.skolemOrder.length; i++) {
      const id = this.skolemOrder[i]!;
      const inputs = this.skolems.get(id)!;
      out[at++] = id;
      out[at++] = inputs.length;
      out.set(inputs, at);
      at += inputs.length;
    }
    return out;
  }

  /**
   * Remembers the SKOLEM terms of an {@link TermDictionary.exportSkolems} array again.
   * @throws RangeError when the array is malformed or names a term id the dictionary lacks.
   */
  restoreSkolems(flat: ArrayLike<number>): void {
    let at = 0;
    while (at < flat.length) {
      if (at + 2 > flat.length) throw new RangeError(`the SKOLEM entry at index ${at} is cut short`);
      const id = flat[at]!;
      const n = flat[at + 1]!;
      if (at + 2 + n > flat.length) throw new RangeError(`the SKOLEM entry at index ${at} is cut short`);
      const inputs = Array.from({ length: n }, (_, i) => flat[at + 2 + i]!);
      for (const t of [id, ...inputs]) if (t >= this.count) throw new RangeError(`the SKOLEM entry at index ${at} uses term id ${t}, but the dictionary has ${this.count} terms`);
      this.recordSkolem(id, inputs);
      at += 2 + n;
    }
  }

  /** The leading arguments SKOLEM made term `id` from, or undefined when SKOLEM did not make it here. */
  skolemInputs(id: number): Uint32Array | undefined {
    return this.skolems.get(id);
  }

  /** Removes every id >= mark (rolls the dictionary back to an earlier size). */
  truncate(mark: number): void {
    if (mark < this.count) {
      this.truncationCount++;
      this.tripleTerms.truncate(mark);
      this.recent.fill(0);
      this.sketches.fill(0);
      // SKOLEM terms made from (or being) terms that go are forgotten
      if (this.skolems.size > 0) {
        for (const [id, inputs] of this.skolems) if (id >= mark || inputs.some((t) => t >= mark)) this.skolems.delete(id);
        if (this.skolems.size !== this.skolemOrder.length) this.skolemOrder = this.skolemOrder.filter((id) => this.skolems.has(id));
      }
    }
    for (let id = this.count - 1; id >= mark; id--) this.removeSlot(id);
    if (mark < this.count) {
      this.arenaUsed = this.offsets[mark]!;
      this.count = mark;
    }
  }

  private encode(key: string): number {
    const max = key.length * 3;
    if (max > this.scratch.length) {
      this.scratch = Buffer.alloc(Math.max(max, this.scratch.length * 2));
      this.scratchBytes = new Uint8Array(this.scratch.buffer, this.scratch.byteOffset, this.scratch.length);
    }
    return this.scratch.write(key, 0, 'utf8');
  }

  private probe(bytes: Uint8Array, start: number, end: number, h: number): number {
    const r = this.recent[h & 4095]!;
    if (r !== 0 && this.hashes[r - 1] === h && this.same(r - 1, bytes, start, end)) return r - 1;
    const slots = this.slots;
    const mask = this.mask;
    const high = this.highMask;
    let i = h & mask;
    for (;;) {
      const v = slots[i]!;
      if (v === EMPTY) return -1;
      if (((v ^ h) & high) === 0) {
        const id = (v & this.idMask) - 1;
        if (this.hashes[id] === h && this.same(id, bytes, start, end)) {
          this.recent[h & 4095] = id + 1;
          return id;
        }
      }
      i = (i + 1) & mask;
    }
  }

  /** Whether id's canonical bytes equal bytes[start, end). */
  private same(id: number, bytes: Uint8Array, start: number, end: number): boolean {
    const a = this.offsets[id]!;
    const len = end - start;
    if (this.offsets[id + 1]! - a !== len) return false;
    const arena = this.arena;
    let k = 0;
    while (k < len && arena[a + k] === bytes[start + k]) k++;
    return k === len;
  }

  private insert(bytes: Uint8Array, start: number, end: number, h: number): number {
    const len = end - start;
    if (this.arenaUsed + len > this.arena.length) {
      let cap = this.arena.length * 2;
      while (cap < this.arenaUsed + len) cap *= 2;
      const grown = new Uint8Array(cap);
      grown.set(this.arena.subarray(0, this.arenaUsed));
      this.arena = grown;
      this.arenaView = Buffer.from(grown.buffer, 0, grown.length);
    }
    const id = this.count;
    if (id + 2 > this.offsets.length) {
      const offsets = new Uint32Array(this.offsets.length * 2);
      offsets.set(this.offsets);
      this.offsets = offsets;
      const hashes = new Uint32Array(this.hashes.length * 2);
      hashes.set(this.hashes);
      this.hashes = hashes;
    }
    const arena = this.arena;
    const at = this.arenaUsed;
    // a short key is copied by a loop: a view for set() costs more than that
    if (len <= 32) for (let k = 0; k < len; k++) arena[at + k] = bytes[start + k]!;
    else arena.set(bytes.subarray(start, end), at);
    if (len > this.longest) this.longest = len;
    this.offsets[id] = this.arenaUsed;
    this.arenaUsed += len;
    this.offsets[id + 1] = this.arenaUsed;
    this.hashes[id] = h;
    this.count = id + 1;
    this.recent[h & 4095] = id + 1;
    if (this.count * 2 > this.slots.length) this.rehash(this.slots.length * 2);
    else if (id + 1 > this.idMask) this.rehash(this.slots.length);
    else this.place(id);
    return id;
  }

  private place(id: number): void {
    const mask = this.mask;
    const h = this.hashes[id]!;
    let i = h & mask;
    while (this.slots[i] !== EMPTY) i = (i + 1) & mask;
    this.slots[i] = ((h & this.highMask) | (id + 1)) >>> 0;
  }

  private rehash(capacity: number): void {
    while (this.idBits < 31 && this.offsets.length + 1 > this.idMask) {
      this.idBits = Math.min(31, this.idBits + 2);
      this.idMask = 2 ** this.idBits - 1;
      this.highMask = ~this.idMask;
    }
    this.slots = new Uint32Array(capacity);
    this.mask = capacity - 1;
    for (let id = 0; id < this.count; id++) this.place(id);
  }

  /** Deletes an id's slot with backward-shift deletion (linear probing stays valid). */
  private removeSlot(id: number): void {
    const slots = this.slots;
    const mask = this.mask;
    let i = this.hashes[id]! & mask;
    while ((slots[i]! & this.idMask) !== id + 1) i = (i + 1) & mask;
    let j = i;
    for (;;) {
      slots[i] = EMPTY;
      for (;;) {
        j = (j + 1) & mask;
        const v = slots[j]!;
        if (v === EMPTY) return;
        const home = this.hashes[(v & this.idMask) - 1]! & mask;
        // move v to i when its home is not cyclically in (i, j]
        if (i <= j ? home <= i || home > j : home <= i && home > j) break;
      }
      slots[i] = slots[j]!;
      i = j;
    }
  }
}

/** Writes a term id (32 bits, little-endian) at `at`. */
function writeId(bytes: Uint8Array, at: number, id: number): void {
  bytes[at] = id & 0xff;
  bytes[at + 1] = (id >>> 8) & 0xff;
  bytes[at + 2] = (id >>> 16) & 0xff;
  bytes[at + 3] = id >>> 24;
}

/** Reads a term id written by {@link writeId}. */
function readId(bytes: Uint8Array, at: number): number {
  return (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24)) >>> 0;
}
