/**
 * A tuple table: an append-only row store of fixed-arity tuples of term ids, versioned by
 * row position and removal stamps, with a chained hash index per column and a full-tuple
 * membership hash.
 *
 * Visibility: a row is visible to a {@link TableView} `{version, limit}` when `row < limit`
 * (rows are appended in commit order, so the row count at a commit is that version's limit)
 * and it is not removed at a version `<= view.version`. Each view sees at most one row per tuple.
 *
 * A status change that keeps the fact (explicit ⇄ derived, or either gaining the other) is made
 * in place: the row's status byte takes the new bits, keeps the bits it had before the
 * transaction as its prior status and a CHANGED mark, and the version of the change is stamped;
 * a reader of an older version reads the prior status ({@link TupleTable.statusAt}). A row whose
 * status was changed in place by an earlier transaction that a reader may still see the other
 * side of is changed the old way instead: removed, and the tuple appended again. Compaction
 * forgets the stamps no reader needs any more.
 *
 * Per column `c`, `heads[c][term]` is the newest row (+1) whose column `c` is `term`, and
 * `next[c][row]` the next older such row (+1); 0 ends a chain. Chains are indexed by term id
 * directly (ids are dense), so a lookup is one array read. `counts[c][term]` counts the rows
 * of the current state, for choosing the shortest chain. Lookups by pattern read through a
 * {@link TableCursor} (table-cursor.ts), which chooses the chain, a pair index or a scan.
 * @module
 */

import { RowStamps } from './row-stamps.js';
import { BadRequestError } from '../model/errors.js';
import { PairIndex } from './pair-index.js';
import { ANY, appendedRowResult } from './sentinels.js';
import { PAIR_MIN_CHAIN, TableCursor } from './table-cursor.js';

/** Fact status bit: the fact was imported or inserted. */
export const EXPLICIT = 1;
/** Fact status bit: the fact follows from rules. */
export const DERIVED = 2;

/** Which facts an operation sees: explicit ones, derived ones, or all. */
export type FactDomain = 'explicit' | 'derived' | 'all';

/**
 * The status bits a fact domain selects (`fallback` when none is given); an unknown domain
 * fails with an error of class `error` (BadRequestError unless the caller says otherwise).
 */
export function factDomainMask(domain: string | undefined, fallback: FactDomain, error: new (message: string) => Error = BadRequestError): number {
  switch (domain ?? fallback) {
    case 'explicit':
      return EXPLICIT;
    case 'derived':
      return DERIVED;
    case 'all':
      return EXPLICIT | DERIVED;
    default:
      throw new error(`invalid fact-domain '${domain}' (expected explicit, derived or all)`);
  }
}
/** Row mark: removed at the version its stamp gives (table-cursor.ts repeats the literal). */
const REMOVED = 4;
/** Status byte mark: the status bits were changed in place at the version the row's stamp holds. */
const CHANGED = 8;
/** Where a changed row's status byte keeps the status bits older readers see. */
const PRIOR_SHIFT = 4;
/** The prior status bits of a changed row's status byte. */
const PRIOR_BITS = (EXPLICIT | DERIVED) << PRIOR_SHIFT;

/** Which rows a reader sees: rows below `limit`, minus those removed at versions `<= version`. */
export interface TableView {
  /** The reader's version number. */
  readonly version: number;
  /** Rows at or above this index are invisible. */
  readonly limit: number;
}

/** A position inside a write transaction to roll back to (see {@link TupleTable.savepoint}). */
export interface TableSavepoint {
  /** Row count at the savepoint. */
  readonly rows: number;
  /** Length of the removal undo list at the savepoint. */
  readonly removed: number;
  /** Length of the slot-replacement undo list at the savepoint. */
  readonly replaced: number;
  /** Length of the in-place status undo list at the savepoint. */
  readonly status: number;
}

export { ANY } from './sentinels.js';

const GROW = 1.5;

function grow32(a: Uint32Array, min: number): Uint32Array {
  const b = new Uint32Array(Math.max(min, Math.ceil(a.length * GROW), 16));
  b.set(a);
  return b;
}

/** The hash of the tuple at `data[base..base+arity)` that the membership hash places it by (its low bits are the home slot). */
export function hashTuple(data: Uint32Array, base: number, arity: number): number {
  let h = 0x9e3779b9 ^ arity;
  for (let i = 0; i < arity; i++) {
    h = Math.imul(h ^ data[base + i]!, 0x85ebca6b);
    h ^= h >>> 13;
  }
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

export { PAIR_MIN_CHAIN } from './table-cursor.js';
/** How many rows of a chain `pairFor` reads to decide whether a pair index is worth building. */
const PAIR_SAMPLE = 64;
/** A pair index is built once lookups walked this many times the table's rows in vain (building costs about 4–5 walked rows per row). */
const PAIR_BUILD_COST = 4;

/** Membership tables of at least this many slots are rebuilt block by block (see `rehash`). */
const SORTED_REHASH_MIN = 1 << 16;
/** log2 of the slots in one block of a sorted rehash (4 KiB of slots: within the L1 cache). */
const REHASH_BLOCK_BITS = 10;

/** One fact table of a data store. */
export class TupleTable {
  /** Number of positions of every tuple. */
  readonly arity: number;
  private data: Uint32Array;
  private flags: Uint8Array;
  private removedAt = new RowStamps();
  /** No row was removed at a later version than this (an upper bound: rollbacks leave it). */
  private latestRemoval = 0;
  /** The version of each row's latest in-place status change (rows with the CHANGED mark). */
  private statusChangedAt = new RowStamps();
  /** No status was changed in place at a later version than this (an upper bound). */
  private latestStatusChange = 0;
  /** No status stamp held is older than this (a lower bound; Infinity when none is held). */
  private earliestStatusChange = Infinity;
  private readonly next: Uint32Array[] = [];
  private readonly heads: Uint32Array[] = [];
  private readonly counts: Uint32Array[] = [];
  /**
   * Membership hash (linear probing). A slot holds `row + 1` in its low `rowBits` bits and
   * the tuple hash's high bits above them, so most probes are rejected without reading rows.
   */
  private slots = new Uint32Array(64);
  private slotMask = 63;
  private rowBits = 20;
  private rowMask = (1 << 20) - 1;
  private highMask = ~((1 << 20) - 1);
  private rows = 0;
  private live = 0;
  private pairs = new Map<number, PairIndex>();
  /** Per column pair without an index: the rows lookups walked that such an index would have skipped (estimated). */
  private readonly pairWaste = new Map<number, number>();
  /** Incremented by compaction, which renumbers rows (suspended scans cannot go on). */
  private epoch = 0;
  private tuples = 0; // occupied membership slots (distinct tuples)
  /** Scratch for hashing a probe tuple. */
  private probeBuf: Uint32Array;
  /** Scratch for the tuple of a row whose status changes. */
  private readonly statusBuf: Uint32Array;
  // undo state of the open write transaction
  private mark = -1;
  private undoRemoved: number[] = [];
  private undoReplaced: number[] = []; // pairs (newRow, oldRow) whose slot was overwritten
  private undoStatus: number[] = []; // pairs (row, status byte before an in-place change)

  /** Creates an empty table of the given arity. */
  constructor(arity: number) {
    if (!Number.isInteger(arity) || arity < 1) throw new RangeError(`invalid arity ${arity}`);
    this.arity = arity;
    this.data = new Uint32Array(16 * arity);
    this.flags = new Uint8Array(16);
    this.probeBuf = new Uint32Array(arity);
    this.statusBuf = new Uint32Array(arity);
    for (let c = 0; c < arity; c++) {
      this.next.push(new Uint32Array(16));
      this.heads.push(new Uint32Array(16));
      this.counts.push(new Uint32Array(16));
    }
  }

  /** The number of slots of the membership hash (a power of two; a tuple's home slot is its hash's low bits). */
  get membershipSlots(): number {
    return this.slots.length;
  }

  /** Rows ever appended and not yet compacted away (the writer's limit). */
  get rowCount(): number {
    return this.rows;
  }

  /** Facts in the current (writer's) state. */
  get liveCount(): number {
    return this.live;
  }

  /** Bytes held by the table's arrays. */
  get byteSize(): number {
    let n = this.data.byteLength + this.flags.byteLength + this.slots.byteLength;
    for (const p of this.pairs.values()) n += p.byteSize;
    for (let c = 0; c < this.arity; c++) n += this.next[c]!.byteLength + this.heads[c]!.byteLength + this.counts[c]!.byteLength;
    return n + this.removedAt.byteSize + this.statusChangedAt.byteSize;
  }

  /** How many times compaction renumbered the rows (a cursor opened before a compaction cannot go on). */
  get compactions(): number {
    return this.epoch;
  }

  /**
   * The rows' term ids, `arity` per row (for {@link TableCursor}). The array is replaced when
   * the table grows: read it again after any write.
   * @internal
   */
  get tupleData(): Uint32Array {
    return this.data;
  }

  /**
   * The rows' status bytes (EXPLICIT, DERIVED, and a removal mark; for {@link TableCursor}).
   * Replaced when the table grows: read it again after any write.
   * @internal
   */
  get rowFlags(): Uint8Array {
    return this.flags;
  }

  /**
   * The links of the chains of `column`: entry `row` is the next older row + 1 holding the same
   * term (0 ends the chain; see {@link TupleTable.nextRow}). Replaced when the table grows.
   * @internal
   */
  chainLinks(column: number): Uint32Array {
    return this.next[column]!;
  }

  /** The term id at a row and column. */
  get(row: number, column: number): number {
    return this.data[row * this.arity + column]!;
  }

  /** The status bits (EXPLICIT, DERIVED) of a row in the current (writer's) state. */
  statusOf(row: number): number {
    return this.flags[row]! & (EXPLICIT | DERIVED);
  }

  /**
   * The status bits of a row as a reader of `version` sees them: a status changed in place
   * at a later version reads as it was before.
   */
  statusAt(row: number, version: number): number {
    const f = this.flags[row]!;
    if ((f & CHANGED) !== 0 && version < this.latestStatusChange && this.statusChangedAt.get(row) > version) return (f & PRIOR_BITS) >>> PRIOR_SHIFT;
    return f & (EXPLICIT | DERIVED);
  }

  /** The status bits of a row as `view` sees it (see {@link TupleTable.statusAt}). */
  statusIn(row: number, view: TableView): number {
    return this.statusAt(row, view.version);
  }

  /** Whether a row is visible to a view. */
  visible(row: number, view: TableView): boolean {
    if (row >= view.limit) return false;
    if ((this.flags[row]! & REMOVED) === 0) return true;
    return this.removedAfter(row, view.version);
  }

  /**
   * Whether a removed row was removed after `version` (so that a reader at that version still
   * sees it). Cursors call it with the version they keep, not the view: storing each new view
   * object into a long-lived cursor cost a write barrier per lookup.
   */
  removedAfter(row: number, version: number): boolean {
    // a view at or past every removal sees no removed row: no stamp needs to be looked up
    return version < this.latestRemoval && this.removedAt.get(row) > version;
  }

  /**
   * Calls `onRow` with every row visible to `view` whose status has a bit of `statusMask`
   * (EXPLICIT, DERIVED or both), in row order; the rows appended during the walk are not
   * visited (the view's limit is read once).
   */
  forEachVisibleRow(view: TableView, statusMask: number, onRow: (row: number) => void): void {
    // (a plain loop, not a TableCursor: a walk of every row has no path to choose, and a call
    // per row through a cursor only costs)
    const limit = view.limit;
    const wanted = statusMask & (EXPLICIT | DERIVED);
    for (let row = 0; row < limit; row++) {
      const f = this.flags[row]!;
      if (((f & CHANGED) === 0 ? f & wanted : this.statusAt(row, view.version) & wanted) !== 0 && this.visible(row, view)) onRow(row);
    }
  }

  /** Newest row (or -1) of the chain of rows whose `column` holds `term`. */
  head(column: number, term: number): number {
    const h = this.heads[column]!;
    return term < h.length ? h[term]! - 1 : -1;
  }

  /** Next older row (or -1) after `row` in its chain for `column`. */
  nextRow(column: number, row: number): number {
    return this.next[column]![row]! - 1;
  }

  /** Rows of the current state whose `column` holds `term` (a planning estimate for older views). */
  countOf(column: number, term: number): number {
    const c = this.counts[column]!;
    return term < c.length ? c[term]! : 0;
  }

  /**
   * The index of rows by the pair of values in columns `a` < `b`, built on first use and
   * maintained from then on (see {@link PairIndex}).
   */
  pairIndex(a: number, b: number): PairIndex {
    const key = a * 64 + b;
    let index = this.pairs.get(key);
    if (!index) {
      index = new PairIndex(this, a, b, this.rows, (row) => (this.flags[row]! & REMOVED) === 0);
      this.pairs.set(key, index);
    }
    return index;
  }

  /**
   * The pair index to walk instead of the chain of `column` (`count` rows) for a lookup that
   * binds the columns of `values` that are not ANY, or undefined to walk the chain. Only a
   * chain longer than {@link PAIR_MIN_CHAIN} is worth it. An index is built once the rows
   * lookups walked on such chains add up to a few passes over the table (building it costs
   * about one pass), and then only when most of the first rows of the chain at hand hold
   * another value in the second column (a chain that nearly all matches, the rows of
   * `rdf:type` and one class found by the class, gains nothing from it); otherwise the count
   * starts again.
   */
  pairFor(column: number, count: number, values: ArrayLike<number>): PairIndex | undefined {
    if (count <= PAIR_MIN_CHAIN) return undefined;
    const term = values[column]!;
    for (let c = 0; c < this.arity; c++) {
      const v = values[c]!;
      if (c === column || v === ANY) continue;
      const a = Math.min(column, c);
      const b = Math.max(column, c);
      let index = this.pairs.get(a * 64 + b);
      if (index === undefined) {
        // rent before buying: walk the chains until the rows they walked would have paid for
        // building the index several times over had they been walked in vain; only then does
        // a sample of this chain tell whether they were (sampling at every lookup cost more
        // than the short chains it was deciding about)
        const wasted = (this.pairWaste.get(a * 64 + b) ?? 0) + count;
        if (wasted < PAIR_BUILD_COST * this.rows) {
          this.pairWaste.set(a * 64 + b, wasted);
          continue;
        }
        if (this.otherShare(column, term, c, v) <= 0.5) {
          this.pairWaste.set(a * 64 + b, 0);
          continue;
        }
        index = this.pairIndex(a, b);
      }
      if (index.count(values[a]!, values[b]!) < count) return index;
    }
    return undefined;
  }

  /** The share of the first rows of the chain of `column` = `term` that hold another value than `value` in `other`. */
  private otherShare(column: number, term: number, other: number, value: number): number {
    let sampled = 0;
    let matching = 0;
    for (let row = this.head(column, term); row >= 0 && sampled < PAIR_SAMPLE; row = this.nextRow(column, row)) {
      sampled++;
      if (this.data[row * this.arity + other] === value) matching++;
    }
    return sampled === 0 ? 0 : (sampled - matching) / sampled;
  }

  /** The visible row holding exactly `tuple`, or -1. */
  find(tuple: ArrayLike<number>, view: TableView): number {
    const row = this.newestRow(tuple);
    if (row < 0) return -1;
    if (this.visible(row, view)) return row;
    // an older row of the same tuple may still be visible to an older view
    for (let r = this.nextRow(0, row); r >= 0; r = this.nextRow(0, r)) {
      if (this.sameTuple(r, tuple) && this.visible(r, view)) return r;
    }
    return -1;
  }

  /**
   * Calls `onRow` for every row visible to `view` matching `pattern` (ANY = unbound), in the
   * order of the path a {@link TableCursor} chooses for it; stops early when `onRow` returns
   * false. (Readers that nest or resume scans keep cursors of their own.)
   */
  scan(pattern: ArrayLike<number>, view: TableView, onRow: (row: number) => boolean | void): void {
    const cursor = new TableCursor().open(this, view, pattern, EXPLICIT | DERIVED);
    for (let row = cursor.next(); row >= 0; row = cursor.next()) if (onRow(row) === false) return;
  }

  /** Counts rows visible to `view` matching `pattern`. */
  count(pattern: ArrayLike<number>, view: TableView): number {
    const cursor = new TableCursor().open(this, view, pattern, EXPLICIT | DERIVED);
    let n = 0;
    while (cursor.next() >= 0) n++;
    return n;
  }

  /** Starts recording undo information for a write transaction. */
  beginWrite(): void {
    this.mark = this.rows;
    this.undoRemoved = [];
    this.undoReplaced = [];
    this.undoStatus = [];
  }

  /** Forgets the undo information: the transaction's rows become permanent. */
  endWrite(): void {
    this.mark = -1;
    this.undoRemoved = [];
    this.undoReplaced = [];
    this.undoStatus = [];
  }

  /**
   * Adds status bits to a tuple in the writer's state (pending `version`).
   * Returns true when the fact was absent or its status changed.
   */
  add(tuple: ArrayLike<number>, status: number, version: number): boolean {
    const row = this.newestRow(tuple);
    if (row >= 0 && (this.flags[row]! & REMOVED) === 0) {
      const old = this.flags[row]!;
      if ((old & status) === status) return false;
      if (this.changeInPlace(row, (old | status) & (EXPLICIT | DERIVED), version)) return true;
      this.retire(row, version);
      this.append(tuple, old | status, row);
      return true;
    }
    this.append(tuple, status, row);
    return true;
  }

  /**
   * The writer's row of a tuple; when the tuple is absent, appends it with `status` first.
   * Returns the existing row (>= 0), or for an appended one {@link appendedRowResult} of the
   * new row (test it with `wasAppended`, decode it with `appendedRowOf`, both in sentinels.ts).
   */
  findOrAdd(tuple: ArrayLike<number>, status: number): number {
    const row = this.newestRow(tuple);
    if (row >= 0 && (this.flags[row]! & REMOVED) === 0) return row;
    this.append(tuple, status, row);
    return appendedRowResult(this.rows - 1);
  }

  /**
   * Clears status bits of a tuple in the writer's state; a fact left with no status is
   * deleted. Returns true when the fact's status changed.
   */
  remove(tuple: ArrayLike<number>, status: number, version: number): boolean {
    const row = this.newestRow(tuple);
    if (row < 0 || (this.flags[row]! & REMOVED) !== 0) return false;
    const old = this.flags[row]!;
    if ((old & status) === 0) return false;
    const rest = old & ~status & (EXPLICIT | DERIVED);
    if (rest !== 0 && this.changeInPlace(row, rest, version)) return true;
    this.retire(row, version);
    if (rest !== 0) this.append(tuple, rest, row);
    return true;
  }

  /**
   * Sets the status bits of the writer's current row of a fact (as `find` returns it), which
   * spares the membership probe of {@link TupleTable.add} and {@link TupleTable.remove} when
   * the caller already holds the row. Status 0 deletes the fact. Returns whether it changed.
   */
  setStatus(row: number, status: number, version: number): boolean {
    const old = this.flags[row]!;
    if ((old & REMOVED) !== 0) throw new RangeError(`row ${row} is not a current row`);
    if ((old & (EXPLICIT | DERIVED)) === status) return false;
    if (status !== 0 && this.changeInPlace(row, status, version)) return true;
    this.retire(row, version);
    if (status !== 0) {
      const tuple = this.statusBuf;
      const base = row * this.arity;
      for (let c = 0; c < this.arity; c++) tuple[c] = this.data[base + c]!;
      this.append(tuple, status, row);
    }
    return true;
  }

  /**
   * The net change made by the open write transaction (since {@link TupleTable.beginWrite})
   * to the facts whose status has a bit of `mask`, against `base`, the view of the state the
   * transaction started from: the tuples that are in that set now and were not at the start
   * (`added`), and those that were and are not any more (`removed`), each flattened. With
   * EXPLICIT these are the explicit changes, with EXPLICIT | DERIVED the changes of presence
   * (the `all` domain), with DERIVED those of derived status. A tuple whose status changed
   * but stayed inside (or outside) the set is in neither. The work is proportional to the
   * rows the transaction appended, removed and changed, read from the undo information.
   */
  changes(base: TableView, mask: number): { added: Uint32Array; removed: Uint32Array } {
    const wanted = mask & (EXPLICIT | DERIVED);
    if (this.mark < 0 || wanted === 0) return { added: new Uint32Array(0), removed: new Uint32Array(0) };
    const arity = this.arity;
    // the row each appended row replaced (the tuple's previous row), from the undo information
    const older = new Map<number, number>();
    for (let i = 0; i < this.undoReplaced.length; i += 2) older.set(this.undoReplaced[i]!, this.undoReplaced[i + 1]!);
    // the status byte each row changed in place had when the transaction started (its first entry)
    const startFlags = new Map<number, number>();
    for (let i = 0; i < this.undoStatus.length; i += 2) {
      const row = this.undoStatus[i]!;
      if (row < this.mark && !startFlags.has(row)) startFlags.set(row, this.undoStatus[i + 1]!);
    }
    const startStatus = (row: number): number => (startFlags.get(row) ?? this.flags[row]!) & (EXPLICIT | DERIVED);
    let added = new Uint32Array(Math.max(16, (this.rows - this.mark) * arity));
    let removed = new Uint32Array(16);
    let na = 0;
    let nr = 0;
    const push = (into: 'added' | 'removed', row: number): void => {
      const at = row * arity;
      if (into === 'added') {
        for (let c = 0; c < arity; c++) added[na++] = this.data[at + c]!;
        return;
      }
      if (nr + arity > removed.length) {
        const grown = new Uint32Array(removed.length * 2 + arity);
        grown.set(removed.subarray(0, nr));
        removed = grown;
      }
      for (let c = 0; c < arity; c++) removed[nr++] = this.data[at + c]!;
    };
    for (let row = this.mark; row < this.rows; row++) {
      if ((this.flags[row]! & REMOVED) !== 0) continue;
      const now = (this.flags[row]! & wanted) !== 0;
      // the tuple's row in the state the transaction started from, if any
      let previous = older.get(row);
      while (previous !== undefined && previous >= this.mark) previous = older.get(previous);
      const before = previous !== undefined && this.visible(previous, base) && (startStatus(previous) & wanted) !== 0;
      if (now && !before) push('added', row);
      else if (!now && before) push('removed', row);
    }
    // rows of the starting state removed by the transaction, whose tuple has no current row
    for (const row of this.undoRemoved) {
      if (row >= this.mark || (startStatus(row) & wanted) === 0) continue;
      const current = this.newestRow(this.data.subarray(row * arity, row * arity + arity));
      if (current < 0 || (this.flags[current]! & REMOVED) !== 0) push('removed', row);
    }
    // rows of the starting state whose status the transaction changed in place (a row removed
    // since is counted above)
    for (const [row, start] of startFlags) {
      const f = this.flags[row]!;
      if ((f & REMOVED) !== 0) continue;
      const now = (f & wanted) !== 0;
      const before = (start & wanted) !== 0;
      if (now && !before) {
        if (na + arity > added.length) {
          const grown = new Uint32Array(added.length * 2 + arity);
          grown.set(added.subarray(0, na));
          added = grown;
        }
        push('added', row);
      } else if (!now && before) push('removed', row);
    }
    added = added.slice(0, na);
    return { added, removed: removed.slice(0, nr) };
  }

  /**
   * The live rows of the current state, for a snapshot: their tuples flattened (`data`) and
   * their status bits (`flags`, EXPLICIT and DERIVED), which {@link TupleTable.restoreRows}
   * takes back.
   */
  exportRows(): { data: Uint32Array; flags: Uint8Array } {
    const arity = this.arity;
    if (this.live === this.rows) {
      // the status bits only (a row changed in place also holds its prior status and a mark)
      const flags = this.flags.slice(0, this.rows);
      for (let row = 0; row < flags.length; row++) flags[row] = flags[row]! & (EXPLICIT | DERIVED);
      return { data: this.data.slice(0, this.rows * arity), flags };
    }
    const data = new Uint32Array(this.live * arity);
    const flags = new Uint8Array(this.live);
    let n = 0;
    for (let row = 0; row < this.rows; row++) {
      const f = this.flags[row]!;
      if ((f & REMOVED) !== 0) continue;
      data.set(this.data.subarray(row * arity, row * arity + arity), n * arity);
      flags[n++] = f & (EXPLICIT | DERIVED);
    }
    return { data, flags };
  }

  /**
   * The rows among `[from, to)` that `view` sees, as {@link TupleTable.exportRows} gives the
   * current ones: copies their tuples into `data` and their status bits into `flags` from row
   * `at` on (the arrays must have room for `to - from` more rows) and returns how many it
   * copied. A snapshot of a published version is taken this way a slice at a time while
   * writers go on: rows appended later are past the view's limit, a row removed later is
   * still visible to the view, and a status changed in place later reads as it was (see
   * {@link TupleTable.statusAt}), so the rows are exactly those of the view's version. Rows are numbered afresh when the table is compacted ({@link TupleTable.compactions}
   * changes): the view must then be taken again and the export started over.
   */
  exportVisibleRows(view: TableView, from: number, to: number, data: Uint32Array, flags: Uint8Array, at: number): number {
    const arity = this.arity;
    const source = this.data;
    const status = this.flags;
    const end = Math.min(to, view.limit, this.rows);
    let n = at;
    for (let row = from; row < end; row++) {
      const f = status[row]!;
      if ((f & REMOVED) !== 0 && !this.removedAfter(row, view.version)) continue;
      const s = row * arity;
      const d = n * arity;
      for (let c = 0; c < arity; c++) data[d + c] = source[s + c]!;
      flags[n++] = (f & CHANGED) === 0 ? f & (EXPLICIT | DERIVED) : this.statusAt(row, view.version);
    }
    return n - at;
  }

  /**
   * Fills an empty table with rows as {@link TupleTable.exportRows} gave them, taking the
   * arrays over (not copied) and building the indexes in one pass each: the fast path of
   * loading a snapshot. `flags` must hold only EXPLICIT and DERIVED bits, each row some.
   */
  restoreRows(data: Uint32Array, flags: Uint8Array): void {
    if (this.rows !== 0) throw new RangeError('rows can only be restored into an empty table');
    const rows = flags.length;
    if (data.length !== rows * this.arity) throw new RangeError(`${data.length} ids do not make ${rows} rows of arity ${this.arity}`);
    for (let row = 0; row < rows; row++) {
      const f = flags[row]!;
      if (f === 0 || (f & ~(EXPLICIT | DERIVED)) !== 0) throw new RangeError(`row ${row} has invalid status bits ${f}`);
    }
    let maxTerm = 0;
    for (let i = 0; i < data.length; i++) if (data[i]! > maxTerm) maxTerm = data[i]!;
    if (rows < 16) {
      const d = new Uint32Array(16 * this.arity);
      d.set(data);
      const f = new Uint8Array(16);
      f.set(flags);
      data = d;
      flags = f;
    }
    this.data = data;
    this.flags = flags;
    this.rows = rows;
    for (let c = 0; c < this.arity; c++) {
      this.heads[c] = new Uint32Array(maxTerm + 1);
      this.counts[c] = new Uint32Array(maxTerm + 1);
    }
    this.epoch++;
    this.rebuildIndexes(true);
  }

  /** A point inside the write transaction that {@link TupleTable.rollbackTo} can return to. */
  savepoint(): TableSavepoint {
    return { rows: this.rows, removed: this.undoRemoved.length, replaced: this.undoReplaced.length, status: this.undoStatus.length };
  }

  /** Undoes everything since {@link TupleTable.beginWrite}. */
  rollback(): void {
    if (this.mark < 0) return;
    this.rollbackTo({ rows: this.mark, removed: 0, replaced: 0, status: 0 });
    this.endWrite();
  }

  /** Undoes everything since a savepoint of the open write transaction. */
  rollbackTo(sp: TableSavepoint): void {
    const target = sp.rows;
    const replaced = new Map<number, number>();
    for (let i = sp.replaced; i < this.undoReplaced.length; i += 2) replaced.set(this.undoReplaced[i]!, this.undoReplaced[i + 1]!);
    for (let row = this.rows - 1; row >= target; row--) {
      if ((this.flags[row]! & REMOVED) === 0) {
        this.live--;
        this.recount(row, -1);
      } else this.removedAt.delete(row);
      for (let c = 0; c < this.arity; c++) {
        const t = this.data[row * this.arity + c]!;
        this.heads[c]![t] = this.next[c]![row]!;
        this.next[c]![row] = 0;
      }
      for (const p of this.pairs.values()) p.unlinkNewest(row, false);
      const older = replaced.get(row);
      if (older !== undefined) this.repoint(row, older);
      else this.deleteSlot(row);
      this.flags[row] = 0;
    }
    this.rows = target;
    for (let i = this.undoRemoved.length - 1; i >= sp.removed; i--) {
      const row = this.undoRemoved[i]!;
      if (row < target) {
        this.flags[row] = this.flags[row]! & ~REMOVED;
        this.removedAt.delete(row);
        this.live++;
        this.recount(row, 1);
      }
    }
    // status changes in place, newest first: each row gets back the byte it had before
    for (let i = this.undoStatus.length - 2; i >= sp.status; i -= 2) {
      const row = this.undoStatus[i]!;
      if (row >= target) continue;
      const old = this.undoStatus[i + 1]!;
      this.flags[row] = (this.flags[row]! & REMOVED) | (old & ~REMOVED);
      if ((old & CHANGED) === 0) this.statusChangedAt.delete(row);
    }
    this.undoRemoved.length = sp.removed;
    this.undoReplaced.length = sp.replaced;
    this.undoStatus.length = sp.status;
  }

  /**
   * Drops rows removed at or before `oldestLiveVersion` (no reader can see them) and rebuilds
   * the indexes. Returns a function mapping an old view limit to the new one.
   */
  compact(oldestLiveVersion: number): (limit: number) => number {
    const arity = this.arity;
    const keep = new Uint32Array(this.rows + 1); // keep[i] = kept rows below i
    let kept = 0;
    for (let row = 0; row < this.rows; row++) {
      keep[row] = kept;
      const gone = (this.flags[row]! & REMOVED) !== 0 && this.removedAt.get(row) <= oldestLiveVersion;
      if (!gone) kept++;
    }
    keep[this.rows] = kept;
    if (kept === this.rows) {
      this.forgetStatusStamps(oldestLiveVersion, null);
      this.shrink();
      return (limit) => limit;
    }
    this.forgetStatusStamps(oldestLiveVersion, keep);
    const data = new Uint32Array(Math.max(16, kept) * arity);
    const flags = new Uint8Array(Math.max(16, kept));
    const removedAt = new RowStamps();
    let w = 0;
    for (let row = 0; row < this.rows; row++) {
      if (keep[row + 1] === keep[row]) continue;
      data.set(this.data.subarray(row * arity, row * arity + arity), w * arity);
      flags[w] = this.flags[row]!;
      const stamp = this.removedAt.get(row);
      if (stamp >= 0) removedAt.set(w, stamp);
      w++;
    }
    this.data = data;
    this.flags = flags;
    this.removedAt = removedAt;
    this.rows = kept;
    this.epoch++;
    this.rebuildIndexes();
    return (limit) => keep[Math.min(limit, keep.length - 1)]!;
  }

  /**
   * Forgets the in-place status changes no reader can see the other side of (stamped at or
   * before `oldestLiveVersion`): their rows lose the CHANGED mark and prior status. With
   * `keep` (compaction's map of kept rows below each row), the stamps kept move to the rows'
   * new numbers, and those of rows dropped go.
   */
  private forgetStatusStamps(oldestLiveVersion: number, keep: Uint32Array | null): void {
    if (this.statusChangedAt.size === 0 || (keep === null && oldestLiveVersion < this.earliestStatusChange)) return;
    const stamps = new RowStamps();
    let earliest = Infinity;
    this.statusChangedAt.forEach((row, stamp) => {
      if (stamp <= oldestLiveVersion) {
        this.flags[row] = this.flags[row]! & ~(CHANGED | PRIOR_BITS);
        return;
      }
      earliest = Math.min(earliest, stamp);
      if (keep === null) stamps.set(row, stamp);
      else if (keep[row + 1] !== keep[row]) stamps.set(keep[row]!, stamp);
    });
    this.statusChangedAt = stamps;
    this.earliestStatusChange = earliest;
  }

  /**
   * Forgets the in-place status changes that no reader of `oldestLiveVersion` or later can
   * see the other side of (called after a commit with the oldest version an open reader
   * holds, or the new version when none is open), so that a status change stamps memory only
   * while a reader needs it. Not inside a write transaction.
   */
  forgetStatusChanges(oldestLiveVersion: number): void {
    if (this.mark >= 0) throw new RangeError('status stamps cannot be forgotten inside a write transaction');
    this.forgetStatusStamps(oldestLiveVersion, null);
  }

  /** Releases unused capacity of the row arrays (after a bulk load). */
  shrink(): void {
    const cap = Math.max(16, this.rows + (this.rows >>> 4));
    if (this.flags.length <= cap * 1.1) return;
    this.data = this.data.slice(0, cap * this.arity);
    const flags = new Uint8Array(cap);
    flags.set(this.flags.subarray(0, Math.min(cap, this.flags.length)));
    this.flags = flags;
    for (let c = 0; c < this.arity; c++) this.next[c] = this.next[c]!.slice(0, cap);
  }

  // ---- internals ----

  private sameTuple(row: number, tuple: ArrayLike<number>): boolean {
    const base = row * this.arity;
    for (let c = 0; c < this.arity; c++) if (this.data[base + c] !== tuple[c]) return false;
    return true;
  }

  private newestRow(tuple: ArrayLike<number>): number {
    const probe = this.probeBuf;
    for (let c = 0; c < this.arity; c++) probe[c] = tuple[c]!;
    const mask = this.slotMask;
    const h = hashTuple(probe, 0, this.arity);
    const high = this.highMask;
    const rowMask = this.rowMask;
    const slots = this.slots;
    let i = h & mask;
    for (;;) {
      const v = slots[i]!;
      if (v === 0) return -1;
      if (((v ^ h) & high) === 0 && this.sameTuple((v & rowMask) - 1, probe)) return (v & rowMask) - 1;
      i = (i + 1) & mask;
    }
  }

  /** The slot pointing at `row`. */
  private slotOf(row: number): number {
    const mask = this.slotMask;
    let i = hashTuple(this.data, row * this.arity, this.arity) & mask;
    while ((this.slots[i]! & this.rowMask) !== row + 1) i = (i + 1) & mask;
    return i;
  }

  /** Makes the slot that points at `from` point at `to` (a row of the same tuple). */
  private repoint(from: number, to: number): void {
    const i = this.slotOf(from);
    this.slots[i] = ((this.slots[i]! & this.highMask) | (to + 1)) >>> 0;
  }

  /** The slot holding the tuple of `row` (whichever row of that tuple it points to). */
  private slotOf0(row: number): number {
    const mask = this.slotMask;
    const base = row * this.arity;
    const h = hashTuple(this.data, base, this.arity);
    let i = h & mask;
    for (;;) {
      const v = this.slots[i]!;
      if (v === 0) return i;
      if (((v ^ h) & this.highMask) !== 0) {
        i = (i + 1) & mask;
        continue;
      }
      const other = ((v & this.rowMask) - 1) * this.arity;
      let same = true;
      for (let c = 0; c < this.arity; c++) {
        if (this.data[other + c] !== this.data[base + c]) {
          same = false;
          break;
        }
      }
      if (same) return i;
      i = (i + 1) & mask;
    }
  }

  /**
   * Gives a live row the (non-zero) status `status` in place, when no reader can need a status
   * it would overwrite: the row was not changed in place before, or only by this version (whose
   * prior status, the one before the transaction, stays). False when the caller must retire the
   * row and append the tuple again instead.
   */
  private changeInPlace(row: number, status: number, version: number): boolean {
    const old = this.flags[row]!;
    let prior: number;
    if ((old & CHANGED) === 0) {
      prior = (old & (EXPLICIT | DERIVED)) << PRIOR_SHIFT;
      this.statusChangedAt.set(row, version);
      if (version > this.latestStatusChange) this.latestStatusChange = version;
      if (version < this.earliestStatusChange) this.earliestStatusChange = version;
    } else if (this.statusChangedAt.get(row) === version) prior = old & PRIOR_BITS;
    else return false;
    this.flags[row] = prior | CHANGED | status;
    if (this.mark >= 0) this.undoStatus.push(row, old);
    return true;
  }

  /** Marks a live row removed at `version` and takes it out of the current counts. */
  private retire(row: number, version: number): void {
    this.flags[row] = this.flags[row]! | REMOVED;
    this.removedAt.set(row, version);
    if (version > this.latestRemoval) this.latestRemoval = version;
    if (this.mark >= 0) this.undoRemoved.push(row);
    this.live--;
    this.recount(row, -1);
  }

  private recount(row: number, delta: number): void {
    for (const p of this.pairs.values()) p.recount(row, delta);
    const base = row * this.arity;
    for (let c = 0; c < this.arity; c++) {
      const counts = this.counts[c]!;
      const t = this.data[base + c]!;
      counts[t] = counts[t]! + delta;
    }
  }

  /** Appends a row; `older` is the previous row of the same tuple (or -1). */
  private append(tuple: ArrayLike<number>, status: number, older: number): void {
    const arity = this.arity;
    const row = this.rows;
    if (row >= this.flags.length) {
      const cap = Math.ceil(this.flags.length * GROW) + 16;
      const flags = new Uint8Array(cap);
      flags.set(this.flags);
      this.flags = flags;
      this.data = grow32(this.data, cap * arity);
      for (let c = 0; c < arity; c++) this.next[c] = grow32(this.next[c]!, cap);
    }
    const base = row * arity;
    for (let c = 0; c < arity; c++) {
      const t = tuple[c]!;
      this.data[base + c] = t;
      let heads = this.heads[c]!;
      if (t >= heads.length) {
        const n = Math.max(t + 1, Math.ceil(heads.length * GROW));
        heads = grow32(heads, n);
        this.heads[c] = heads;
        this.counts[c] = grow32(this.counts[c]!, n);
      }
      this.next[c]![row] = heads[t]!;
      heads[t] = row + 1;
      const counts = this.counts[c]!;
      counts[t] = counts[t]! + 1;
    }
    this.flags[row] = status;
    this.rows = row + 1;
    this.live++;
    for (const p of this.pairs.values()) p.add(row, true);
    if (older >= 0) {
      // the tuple's slot now points at the new row
      this.repoint(older, row);
      if (this.mark >= 0) this.undoReplaced.push(row, older);
    } else {
      // grow first (the new row is placed after, into the new table)
      if ((this.tuples + 1) * 4 > this.slots.length * 3) this.rehash(this.slots.length * 2);
      else if (row + 1 > this.rowMask) this.rehash(this.slots.length);
      this.placeSlot(row);
    }
  }

  private placeSlot(row: number): void {
    const mask = this.slotMask;
    const h = hashTuple(this.data, row * this.arity, this.arity);
    let i = h & mask;
    while (this.slots[i] !== 0) i = (i + 1) & mask;
    this.slots[i] = ((h & this.highMask) | (row + 1)) >>> 0;
    this.tuples++;
  }

  private deleteSlot(row: number): void {
    const slots = this.slots;
    const mask = this.slotMask;
    let i = this.slotOf(row);
    let j = i;
    this.tuples--;
    for (;;) {
      slots[i] = 0;
      for (;;) {
        j = (j + 1) & mask;
        const v = slots[j]!;
        if (v === 0) return;
        const home = hashTuple(this.data, ((v & this.rowMask) - 1) * this.arity, this.arity) & mask;
        if (i <= j ? home <= i || home > j : home <= i && home > j) break;
      }
      slots[i] = slots[j]!;
      i = j;
    }
  }

  /** Room for row numbers up to the row capacity (the rest of a slot's bits is fingerprint). */
  private widenRowBits(): void {
    while (this.rowBits < 31 && Math.max(this.rows, this.flags.length) + 1 > this.rowMask) {
      this.rowBits = Math.min(31, this.rowBits + 2);
      this.rowMask = 2 ** this.rowBits - 1;
      this.highMask = ~this.rowMask;
    }
  }

  /**
   * Grows the membership hash. The occupied slots name the newest row of each tuple; those
   * rows are flagged in a bitset and then re-placed in row order, which reads the row data
   * sequentially instead of at random.
   */
  private rehash(capacity: number): void {
    const oldSlots = this.slots;
    const oldRowMask = this.rowMask;
    // the rows the table indexes: the newest row of each tuple. The caller is appending a row
    // (placed after the rehash); when every row before it is indexed, no bitmap is needed.
    const live = this.tuples;
    let newest: Uint8Array | undefined;
    if (live !== this.rows - 1) {
      newest = new Uint8Array((this.rows >>> 3) + 1);
      for (let k = 0; k < oldSlots.length; k++) {
        const v = oldSlots[k]!;
        if (v === 0) continue;
        const row = (v & oldRowMask) - 1;
        newest[row >>> 3] = newest[row >>> 3]! | (1 << (row & 7));
      }
    }
    this.widenRowBits();
    const slots = (this.slots = new Uint32Array(capacity));
    this.slotMask = capacity - 1;
    const mask = this.slotMask;
    const high = this.highMask;
    const arity = this.arity;
    const data = this.data;
    const rows = newest === undefined ? this.rows - 1 : this.rows;
    const indexed = (row: number): boolean => newest === undefined || (newest[row >>> 3]! & (1 << (row & 7))) !== 0;
    if (capacity < SORTED_REHASH_MIN) {
      for (let row = 0; row < rows; row++) {
        if (!indexed(row)) continue;
        const h = hashTuple(data, row * arity, arity);
        let i = h & mask;
        while (slots[i] !== 0) i = (i + 1) & mask;
        slots[i] = ((h & high) | (row + 1)) >>> 0;
      }
      return;
    }
    // A large table: inserting rows in row order writes all over the slot array, a cache miss
    // per row. Instead the rows are bucketed (a counting sort) by the block of slots they hash
    // to, then inserted block after block. Each row is hashed once (the hashes are kept in
    // row order, then moved with the rows).
    const shift = Math.log2(capacity) - REHASH_BLOCK_BITS;
    const starts = new Uint32Array((capacity >>> shift) + 1);
    const hashes = new Uint32Array(rows);
    for (let row = 0; row < rows; row++) {
      if (!indexed(row)) continue;
      const h = hashTuple(data, row * arity, arity);
      hashes[row] = h;
      starts[((h & mask) >>> shift) + 1]!++;
    }
    for (let b = 1; b < starts.length; b++) starts[b]! += starts[b - 1]!;
    const sortedHash = new Uint32Array(live);
    const sortedRow = new Uint32Array(live);
    for (let row = 0; row < rows; row++) {
      if (!indexed(row)) continue;
      const h = hashes[row]!;
      const at = starts[(h & mask) >>> shift]!++;
      sortedHash[at] = h;
      sortedRow[at] = row;
    }
    for (let j = 0; j < live; j++) {
      const h = sortedHash[j]!;
      let i = h & mask;
      while (slots[i] !== 0) i = (i + 1) & mask;
      slots[i] = ((h & high) | (sortedRow[j]! + 1)) >>> 0;
    }
  }

  /**
   * Builds the membership hash of rows that all hold distinct tuples (no lookups needed): the
   * rows are bucketed by the block of slots they hash to and placed block after block, so
   * that the slot array is written in order rather than with a cache miss per row.
   */
  private placeDistinctRows(capacity: number): void {
    this.widenRowBits();
    const slots = (this.slots = new Uint32Array(capacity));
    this.slotMask = capacity - 1;
    const mask = this.slotMask;
    const high = this.highMask;
    const arity = this.arity;
    const data = this.data;
    const rows = this.rows;
    const hashes = new Uint32Array(rows);
    for (let row = 0; row < rows; row++) hashes[row] = hashTuple(data, row * arity, arity);
    const shift = Math.max(0, Math.log2(capacity) - REHASH_BLOCK_BITS);
    const starts = new Uint32Array((capacity >>> shift) + 1);
    for (let row = 0; row < rows; row++) starts[((hashes[row]! & mask) >>> shift) + 1]!++;
    for (let b = 1; b < starts.length; b++) starts[b]! += starts[b - 1]!;
    const sortedRow = new Uint32Array(rows);
    for (let row = 0; row < rows; row++) sortedRow[starts[(hashes[row]! & mask) >>> shift]!++] = row;
    for (let j = 0; j < rows; j++) {
      const row = sortedRow[j]!;
      const h = hashes[row]!;
      let i = h & mask;
      while (slots[i] !== 0) i = (i + 1) & mask;
      slots[i] = ((h & high) | (row + 1)) >>> 0;
    }
    this.tuples = rows;
  }

  /** Builds the membership hash from the rows (after compaction renumbered them). */
  private rebuildSlots(capacity: number): void {
    this.widenRowBits();
    this.slots = new Uint32Array(capacity);
    this.slotMask = capacity - 1;
    this.tuples = 0;
    // newest row per tuple wins: walk rows newest first and place only unseen tuples
    for (let row = this.rows - 1; row >= 0; row--) {
      const i = this.slotOf0(row);
      if (this.slots[i] === 0) {
        const h = hashTuple(this.data, row * this.arity, this.arity);
        this.slots[i] = ((h & this.highMask) | (row + 1)) >>> 0;
        this.tuples++;
      }
    }
  }

  /** Rebuilds every index from the rows; `distinct` when no two rows hold the same tuple (a restore). */
  private rebuildIndexes(distinct = false): void {
    const arity = this.arity;
    this.pairs = new Map();
    let cap = 64;
    while (cap * 3 < this.rows * 4) cap *= 2;
    for (let c = 0; c < arity; c++) {
      this.heads[c]!.fill(0);
      this.counts[c]!.fill(0);
      this.next[c] = new Uint32Array(this.flags.length);
    }
    this.live = 0;
    for (let row = 0; row < this.rows; row++) {
      const base = row * arity;
      for (let c = 0; c < arity; c++) {
        const t = this.data[base + c]!;
        this.next[c]![row] = this.heads[c]![t]!;
        this.heads[c]![t] = row + 1;
      }
    }
    if (distinct) this.placeDistinctRows(cap);
    else this.rebuildSlots(cap);
    for (let row = 0; row < this.rows; row++) {
      if ((this.flags[row]! & REMOVED) === 0) {
        this.live++;
        this.recount(row, 1);
      }
    }
  }
}
