/**
 * The one way to read the rows of a tuple table that match a pattern: a cursor, opened on a
 * table, a view and a pattern (ANY where a position is free) with a status mask, that hands
 * out the matching rows one at a time. Graph patterns, tuple-table atoms, the fact lookups
 * of proofs and {@link TupleTable.scan} read through it. Rule bodies choose their chain as it
 * does ({@link chainColumn}) but walk it themselves: their rows, handed out one call at a time
 * between the joins of the steps after each, cost 13-20 % more CPU in RDFS reasoning, and
 * handed to a visitor by a walk that keeps its state in locals, 18 % (see datalog/evaluate.ts).
 *
 * Opening chooses the access path, as every scan of a table always has:
 * - every position bound: one probe of the membership hash (`point`);
 * - some bound: the chain of the bound column with the fewest rows holding its value
 *   (`chain`), or, when that chain is long and a second column is bound, the pair index of the
 *   two columns when it is worthwhile (`pair`, see {@link TupleTable.pairFor});
 * - none bound: every row below the view's limit (`scan`).
 *
 * A cursor holds no closure and allocates nothing per row or per opening (its pattern and the
 * columns left to check are typed arrays it keeps), so that a reader keeps one per nesting
 * depth and opens it again for each lookup. {@link TableCursor.next} walks on; a scan that is
 * resumed later steps with {@link TableCursor.step} and a budget of rows to read: between two
 * steps other work may run, commits included (rows are only appended, and chains are walked
 * from newest to oldest, so the walk goes on where it was); a compaction in between renumbers
 * rows, and the next step then fails with TransactionError.
 *
 * The module's hot constants are literals of its own: V8 folds those, while every read of an
 * imported binding is a load from the exporting module (walks measured 10-20 % slower with the
 * status bits imported).
 * @module
 */
import { TransactionError } from '../model/errors.js';
import type { PairIndex } from './pair-index.js';
import type { TableView, TupleTable } from './tuple-table.js';

/** What {@link TableCursor.next} returns once every matching row was handed out (rows are >= 0). */
export const CURSOR_END = -1;

/** What {@link TableCursor.step} returns when it read its budget of rows without finding a match (step again to go on). */
export const CURSOR_PAUSED = -2;

/** Chains longer than this may be walked through a pair index instead (see {@link TupleTable.pairFor}). */
export const PAIR_MIN_CHAIN = 16;

/** The access paths a cursor can take (see the module comment). */
export type CursorPath = 'empty' | 'point' | 'chain' | 'pair' | 'scan';

const EMPTY = 0;
const POINT = 1;
const CHAIN = 2;
const PAIR = 3;
const SCAN = 4;
const PATHS: readonly CursorPath[] = ['empty', 'point', 'chain', 'pair', 'scan'];

/** A budget no walk reaches (a small integer, so that budget tests stay integer compares). */
const NO_BUDGET = 0x3fffffff;

/**
 * The removal mark of a row's status byte (TupleTable's REMOVED, repeated as a literal: V8
 * folds a module's own constants, not imported ones, and the walk tests it for every row).
 */
const REMOVED = 4;
/** The in-place status change mark of a row's status byte (TupleTable's CHANGED, a literal for the same reason). */
const CHANGED = 8;

/** The error of a walk over a table that was compacted since the cursor opened. */
function compacted(): TransactionError {
  return new TransactionError('the table was compacted while a scan of it was suspended; run the query again');
}

/**
 * The column whose chain a lookup of `pattern` (a term id per column, ANY where free) walks:
 * the bound column with the fewest rows holding its value in the table's current state (the
 * first on a tie), or -1 when no column is bound. {@link TableCursor.open} chooses with it,
 * and so do rule bodies, which walk their chains themselves (see the module comment).
 */
export function chainColumn(table: TupleTable, pattern: ArrayLike<number>): number {
  let best = -1;
  let bestCount = 0;
  for (let c = 0; c < table.arity; c++) {
    const t = pattern[c]!;
    // (ANY is the only negative value of a pattern)
    if (t < 0) continue;
    const n = table.countOf(c, t);
    if (best < 0 || n < bestCount) {
      bestCount = n;
      best = c;
    }
  }
  return best;
}

/** A reusable reader of the rows of one table that match a pattern (see the module comment). */
export class TableCursor {
  // (the fields `next` reads come first, so that a walk touches as few cache lines as it can)
  private mode = EMPTY;
  /** The next candidate row: a chain's next row (-1 = end), or the next row of a scan. */
  private row = -1;
  private table: TupleTable | undefined = undefined;
  /**
   * The links of the chain walked (see {@link TupleTable.chainLinks}). A table that grows
   * replaces the array, but never changes the links of rows it holds, and every row of a
   * chain is older than its head: the array taken when the cursor opened serves the whole walk.
   */
  private links: Uint32Array = new Uint32Array(0);
  /** The view's row limit. */
  private limit = 0;
  private mask = 0;
  private checks = 0;
  /** The view's version (kept as a number: see {@link TupleTable.removedAfter}). */
  private version = 0;
  /** The pair index walked (PAIR). */
  private pair: PairIndex | undefined = undefined;
  /** The table's compaction count when opened. */
  private epoch = 0;
  /** The column whose chain is walked (CHAIN). */
  private column = -1;
  /**
   * The pattern, copied, at [0, capacity), then the bound columns that the path does not
   * guarantee and their values, in pairs from `capacity` on: one array, so that opening and
   * walking touch little memory besides the table's.
   */
  private values = new Int32Array(12);
  /** The columns `values` has room for. */
  private capacity = 4;
  /** The tuple of a point lookup (made on the first). */
  private probe: Uint32Array | undefined = undefined;
  /** Whether a point lookup found the tuple (whatever its status). */
  private found = false;
  /** Rows read by {@link TableCursor.step} since the cursor was opened (matching or not). */
  private read = 0;

  /**
   * Opens the cursor on the rows of `table` that `view` sees, that match `pattern` (a term id
   * per column, ANY where the column is free) and whose status has a bit of `statusMask`
   * (EXPLICIT, DERIVED or both; no other bits). The pattern is copied: the caller may reuse
   * its array at once. Returns the cursor.
   */
  open(table: TupleTable, view: TableView, pattern: ArrayLike<number>, statusMask: number): this {
    const arity = table.arity;
    if (this.capacity < arity) this.widen(arity);
    const values = this.values;
    this.table = table;
    this.version = view.version;
    this.limit = view.limit;
    this.mask = statusMask;
    this.epoch = table.compactions;
    this.read = 0;
    this.checks = 0;
    let bound = 0;
    for (let c = 0; c < arity; c++) {
      const t = pattern[c]!;
      values[c] = t;
      if (t >= 0) bound++;
    }
    if (bound === 0 || bound === arity || statusMask === 0) return this.openWhole(table, view, bound, arity);
    const best = chainColumn(table, values);
    if (bound > 1) {
      // a long chain with a second bound column: the pair index instead, when worthwhile
      const bestCount = table.countOf(best, values[best]!);
      const pair = bestCount > PAIR_MIN_CHAIN ? table.pairFor(best, bestCount, values) : undefined;
      if (pair !== undefined) {
        this.pair = pair;
        this.addChecks(arity, pair.a, pair.b);
        this.mode = PAIR;
        this.row = pair.head(values[pair.a]!, values[pair.b]!);
        return this;
      }
      this.addChecks(arity, best, best);
    }
    if (this.pair !== undefined) this.pair = undefined;
    this.mode = CHAIN;
    this.column = best;
    this.links = table.chainLinks(best);
    this.row = table.head(best, values[best]!);
    return this;
  }

  /** The access path the cursor took when it was opened ('empty' before it was, and once closed). */
  get path(): CursorPath {
    return PATHS[this.mode]!;
  }

  /**
   * The rows of the table's current state on the chosen path: the chain's or the pair's rows
   * holding the pattern's values, 0 or 1 for a point lookup, every live row for a scan (the
   * planner's measure of a lookup; an estimate for older views).
   */
  get pathRows(): number {
    const table = this.table;
    if (table === undefined) return 0;
    switch (this.mode) {
      case CHAIN:
        return table.countOf(this.column, this.values[this.column]!);
      case PAIR:
        return this.pair!.count(this.values[this.pair!.a]!, this.values[this.pair!.b]!);
      case POINT:
        return this.found ? 1 : 0;
      case SCAN:
        return table.liveCount;
      default:
        return 0;
    }
  }

  /** The pattern's value at a column as opened (ANY where the column is free). */
  patternAt(column: number): number {
    return this.values[column]!;
  }

  /** The rows {@link TableCursor.step} read since the cursor was opened, matching or not (what budgets count). */
  get rowsRead(): number {
    return this.read;
  }

  /**
   * The next matching row (>= 0), or {@link CURSOR_END} when there is none left. For walks
   * that run to their end (or are closed) without other work in between: a walk that is
   * suspended while other transactions may commit steps with {@link TableCursor.step}.
   */
  next(): number {
    if (this.mode !== CHAIN) return this.nextOffChain(NO_BUDGET);
    // the common path, kept short: a chain of the table
    let row = this.row;
    if (row < 0) return CURSOR_END;
    const table = this.table!;
    const links = this.links;
    const flags = table.rowFlags;
    const limit = this.limit;
    const mask = this.mask;
    do {
      const current = row;
      row = links[current]! - 1;
      const f = flags[current]!;
      if (current < limit && ((f & CHANGED) === 0 ? f & mask : table.statusAt(current, this.version) & mask) !== 0 && ((f & REMOVED) === 0 || table.removedAfter(current, this.version)) && (this.checks === 0 || this.holds(table, current))) {
        this.row = row;
        return current;
      }
    } while (row >= 0);
    this.row = -1;
    return CURSOR_END;
  }

  /**
   * {@link TableCursor.next} for a resumable walk: reads at most `budget` rows, and returns
   * {@link CURSOR_PAUSED} when none of them matched and rows are left (a budget of 0 only tells
   * whether the cursor is at its end). The rows read count in {@link TableCursor.rowsRead}.
   * @throws TransactionError when the table was compacted since the cursor was opened.
   */
  step(budget: number): number {
    const table = this.table;
    if (table === undefined) return CURSOR_END;
    if (table.compactions !== this.epoch) throw compacted();
    if (this.mode !== CHAIN) return this.nextOffChain(budget);
    const links = this.links;
    const flags = table.rowFlags;
    const limit = this.limit;
    const mask = this.mask;
    let row = this.row;
    let read = 0;
    while (row >= 0) {
      if (read >= budget) break;
      read++;
      const current = row;
      row = links[current]! - 1;
      const f = flags[current]!;
      if (current < limit && ((f & CHANGED) === 0 ? f & mask : table.statusAt(current, this.version) & mask) !== 0 && ((f & REMOVED) === 0 || table.removedAfter(current, this.version)) && (this.checks === 0 || this.holds(table, current))) {
        this.row = row;
        this.read += read;
        return current;
      }
    }
    this.row = row;
    this.read += read;
    return row < 0 ? CURSOR_END : CURSOR_PAUSED;
  }

  /** Ends the walk early: {@link TableCursor.next} returns {@link CURSOR_END} from now on. */
  close(): void {
    this.mode = EMPTY;
    this.row = -1;
    this.pair = undefined;
    this.table = undefined;
  }

  /** Opens the paths that bind no column or every column (or none when the mask selects nothing). */
  private openWhole(table: TupleTable, view: TableView, bound: number, arity: number): this {
    this.pair = undefined;
    if (this.mask === 0) {
      this.mode = EMPTY;
      this.row = -1;
    } else if (bound === 0) {
      this.mode = SCAN;
      this.row = 0;
    } else {
      // (the tuple as the table's writers hand it over, so that find's reads stay monomorphic)
      let probe = this.probe;
      if (probe === undefined || probe.length < arity) probe = this.probe = new Uint32Array(this.capacity);
      const values = this.values;
      for (let c = 0; c < arity; c++) probe[c] = values[c]!;
      const row = table.find(probe, view);
      this.mode = POINT;
      this.found = row >= 0;
      this.row = this.found && (table.statusAt(row, view.version) & this.mask) !== 0 ? row : -1;
    }
    return this;
  }

  private widen(arity: number): void {
    this.capacity = arity;
    this.values = new Int32Array(3 * arity);
  }

  /** Lists the bound columns other than `a` and `b` (which the path guarantees). */
  private addChecks(arity: number, a: number, b: number): void {
    const values = this.values;
    let at = this.capacity;
    for (let c = 0; c < arity; c++) {
      const t = values[c]!;
      if (t < 0 || c === a || c === b) continue;
      values[at++] = c;
      values[at++] = t;
    }
    this.checks = (at - this.capacity) >> 1;
  }

  /** Whether a row holds the values of the bound columns the path does not guarantee. */
  private holds(table: TupleTable, row: number): boolean {
    const data = table.tupleData;
    const base = row * table.arity;
    const values = this.values;
    const end = this.capacity + 2 * this.checks;
    for (let k = this.capacity; k < end; k += 2) if (data[base + values[k]!] !== values[k + 1]) return false;
    return true;
  }


  /** {@link TableCursor.next} on the paths other than a table's chain. */
  private nextOffChain(budget: number): number {
    const table = this.table;
    if (table === undefined || this.mode === EMPTY) return CURSOR_END;
    if (this.mode === SCAN) return this.nextInScan(table, budget);
    if (this.mode === POINT) {
      const row = this.row;
      if (row < 0) return CURSOR_END;
      if (budget <= 0) return CURSOR_PAUSED;
      this.row = -1;
      this.read++;
      return row;
    }
    // the chain of a pair index
    const pair = this.pair!;
    const flags = table.rowFlags;
    const limit = this.limit;
    const mask = this.mask;
    let row = this.row;
    let read = 0;
    while (row >= 0) {
      if (read >= budget) break;
      read++;
      const current = row;
      row = pair.nextRow(current);
      const f = flags[current]!;
      if (current < limit && ((f & CHANGED) === 0 ? f & mask : table.statusAt(current, this.version) & mask) !== 0 && ((f & REMOVED) === 0 || table.removedAfter(current, this.version)) && (this.checks === 0 || this.holds(table, current))) {
        this.row = row;
        this.read += read;
        return current;
      }
    }
    this.row = row;
    this.read += read;
    return row < 0 ? CURSOR_END : CURSOR_PAUSED;
  }

  /** {@link TableCursor.next} on a scan of every row below the view's limit. */
  private nextInScan(table: TupleTable, budget: number): number {
    const flags = table.rowFlags;
    // rows appended since the cursor opened are not the view's; a rollback may have cut rows
    const end = Math.min(this.limit, table.rowCount);
    const mask = this.mask;
    let row = this.row;
    let read = 0;
    while (row < end) {
      if (read >= budget) break;
      read++;
      const current = row++;
      const f = flags[current]!;
      if (((f & CHANGED) === 0 ? f & mask : table.statusAt(current, this.version) & mask) !== 0 && ((f & REMOVED) === 0 || table.removedAfter(current, this.version))) {
        this.row = row;
        this.read += read;
        return current;
      }
    }
    this.row = row;
    this.read += read;
    return row >= end ? CURSOR_END : CURSOR_PAUSED;
  }
}
