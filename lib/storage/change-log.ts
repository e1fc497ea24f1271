/**
 * The change log of one write transaction: the only way explicit facts are written, the work
 * waiting for the next reasoning run, and the one view of what the transaction changed.
 *
 * Explicit writes: while the store has no rules and no reasoning work is waiting, a fact is
 * written to its table at once. Otherwise additions are applied at once too (their new rows
 * are remembered for the run), but deletions of explicit facts are only recorded, so that the
 * old materialisation stays readable until maintenance has decided what else goes.
 *
 * Rule changes (keys added, rules removed, a from-scratch run requested) are recorded here by
 * the reasoner; the rule type `R` is the caller's (storage does not know rules).
 *
 * What the transaction changed is read from the tables' undo information
 * ({@link TupleTable.changes}) by {@link transactionChanges}: persistence writes it as the log
 * record and the commit feed publishes it, so both see exactly what the store shows.
 * @module
 */
import { is } from 'immutable';
import { storesFacts } from './catalogue.js';
import type { WriteTransaction } from './fact-store.js';
import { DERIVED, EXPLICIT } from './tuple-table.js';

/** The net change of one tuple table: tuples flattened, `arity` ids each. */
export interface TableDelta {
  /** The number of ids of each tuple. */
  readonly arity: number;
  /** The tuples that entered the set of facts considered. */
  readonly added: Uint32Array;
  /** The tuples that left it. */
  readonly removed: Uint32Array;
}

/** The net changes of a transaction by table id; only tables with a change are listed. */
export type TransactionChanges = ReadonlyMap<number, TableDelta>;

/**
 * The net change made by the open write transaction `tx` to the facts whose status has a bit
 * of `mask` (EXPLICIT: explicit facts; EXPLICIT | DERIVED: presence, the `all` domain),
 * against the state it started from, for every table that stores facts. Proportional to
 * the rows the transaction appended and removed. Pending explicit deletions of a
 * {@link ChangeLog} are not applied yet: read this once reasoning is up to date.
 */
export function transactionChanges(tx: WriteTransaction, mask: number): TransactionChanges {
  const out = new Map<number, TableDelta>();
  for (const info of tx.catalogue.tupleTables.values()) {
    if (!storesFacts(info)) continue;
    const table = tx.table(info.id);
    const { added, removed } = table.changes({ version: tx.base.version, limit: tx.base.limits.get(info.id) ?? 0 }, mask);
    if (added.length > 0 || removed.length > 0) out.set(info.id, { arity: table.arity, added, removed });
  }
  return out;
}

/** The reasoning work recorded by a change log, as maintenance reads it. */
export interface PendingWork {
  /** Rows of facts that became present through explicit additions, per table id. */
  readonly added: ReadonlyMap<number, readonly number[]>;
  /** Rows whose explicit status is to be removed, per table id. */
  readonly deleted: ReadonlyMap<number, ReadonlySet<number>>;
  /** Keys of rules added since the last run. */
  readonly rulesAdded: ReadonlySet<string>;
  /** Whether a from-scratch materialisation was requested. */
  readonly full: boolean;
}

/** The state of a change log at a savepoint (see {@link ChangeLog.savepoint}). */
export interface ChangeLogSavepoint<R> {
  /** Rows added, per table id (a copy). */
  readonly added: Map<number, number[]>;
  /** Rows to lose their explicit status, per table id (a copy). */
  readonly deleted: Map<number, Set<number>>;
  /** Keys of rules added (a copy). */
  readonly rulesAdded: Set<string>;
  /** Rules removed, by key (a copy). */
  readonly rulesRemoved: Map<string, R>;
  /** Whether a from-scratch run was requested. */
  readonly full: boolean;
  /** Whether explicit changes were waiting for reasoning. */
  readonly waiting: boolean;
}

/** The change log of one write transaction; `R` is the type of the rules it records. */
export class ChangeLog<R> implements PendingWork {
  private addedRows = new Map<number, number[]>();
  private deletedRows = new Map<number, Set<number>>();
  private addedRules = new Set<string>();
  private removedRules = new Map<string, R>();
  private fullRun = false;
  /** Whether explicit changes wait for reasoning even without rules (work was recorded, or {@link ChangeLog.track}). */
  private waiting = false;
  /** Whether explicit changes are applied at once whatever the rules (see {@link ChangeLog.applyAtOnce}). */
  private atOnce = false;

  /** Creates the empty log of a transaction. */
  constructor(
    /** The transaction whose changes this log holds. */
    readonly tx: WriteTransaction,
  ) {}

  /** Rows of facts that became present through explicit additions since the last run, per table id. */
  get added(): ReadonlyMap<number, readonly number[]> {
    return this.addedRows;
  }

  /** Rows whose explicit status is to be removed at the next run, per table id. */
  get deleted(): ReadonlyMap<number, ReadonlySet<number>> {
    return this.deletedRows;
  }

  /** Keys of rules added since the last run. */
  get rulesAdded(): ReadonlySet<string> {
    return this.addedRules;
  }

  /** Rules removed since the last run, by key. */
  get rulesRemoved(): ReadonlyMap<string, R> {
    return this.removedRules;
  }

  /** Whether a from-scratch materialisation was requested. */
  get full(): boolean {
    return this.fullRun;
  }

  /** Whether no reasoning work is recorded. */
  get empty(): boolean {
    return !this.fullRun && this.addedRows.size === 0 && this.deletedRows.size === 0 && this.addedRules.size === 0 && this.removedRules.size === 0;
  }

  /** Whether a reasoning run is due. */
  get requiresReasoning(): boolean {
    return this.waiting && !this.empty;
  }

  /** Whether explicit changes are recorded for reasoning (the store has rules, or work is waiting). */
  get tracks(): boolean {
    return !this.atOnce && (this.waiting || this.tx.catalogue.rules.size > 0);
  }

  /**
   * Makes a fact explicit; returns whether its explicit status changed. The role's write
   * access (`tx.access`) is checked first.
   */
  addExplicit(tableId: number, tuple: ArrayLike<number>): boolean {
    const tx = this.tx;
    tx.access?.checkWrite(tableId, tuple);
    const table = tx.table(tableId);
    if (!this.tracks) return table.add(tuple, EXPLICIT, tx.version);
    this.waiting = true;
    const row = table.find(tuple, tx.view(tableId));
    if (row >= 0) {
      const deleted = this.deletedRows.get(tableId);
      if (deleted?.delete(row)) return true;
      if ((table.statusOf(row) & EXPLICIT) !== 0) return false;
      table.add(tuple, EXPLICIT, tx.version); // a derived fact becomes explicit too: presence unchanged
      return true;
    }
    table.add(tuple, EXPLICIT, tx.version);
    let rows = this.addedRows.get(tableId);
    if (!rows) this.addedRows.set(tableId, (rows = []));
    rows.push(table.rowCount - 1);
    return true;
  }

  /**
   * Makes a fact no longer explicit (a deletion waiting for reasoning when the log tracks
   * changes); returns whether its explicit status changed. The role's write access is checked first.
   */
  removeExplicit(tableId: number, tuple: ArrayLike<number>): boolean {
    const tx = this.tx;
    tx.access?.checkWrite(tableId, tuple);
    const table = tx.table(tableId);
    if (!this.tracks) return table.remove(tuple, EXPLICIT, tx.version);
    this.waiting = true;
    const row = table.find(tuple, tx.view(tableId));
    if (row < 0 || (table.statusOf(row) & EXPLICIT) === 0) return false;
    let deleted = this.deletedRows.get(tableId);
    if (!deleted) this.deletedRows.set(tableId, (deleted = new Set()));
    if (deleted.has(row)) return false;
    deleted.add(row);
    return true;
  }

  /** Records that a rule was added (cancelling its removal in this run, if any). */
  ruleAdded(key: string): void {
    this.waiting = true;
    if (!this.removedRules.delete(key)) this.addedRules.add(key);
  }

  /** Records that a rule was removed (cancelling its addition in this run, if any). */
  ruleRemoved(key: string, rule: R): void {
    this.waiting = true;
    if (!this.addedRules.delete(key)) this.removedRules.set(key, rule);
  }

  /** Requests a from-scratch materialisation at the next run. */
  requestRecompute(): void {
    this.waiting = true;
    this.fullRun = true;
  }

  /**
   * From now on explicit changes wait for reasoning also while the store has no rules (for
   * replaying a log onto a materialised state, so that one incremental run follows them all).
   */
  track(): void {
    this.waiting = true;
  }

  /**
   * From now on explicit changes are applied at once, whatever the rules (for replaying a log
   * onto a state that will be materialised from scratch).
   */
  applyAtOnce(): void {
    this.atOnce = true;
  }

  /** Forgets the recorded rows of tables that no longer exist (dropped during a log replay). */
  forgetTables(exists: (tableId: number) => boolean): void {
    for (const id of [...this.addedRows.keys()]) if (!exists(id)) this.addedRows.delete(id);
    for (const id of [...this.deletedRows.keys()]) if (!exists(id)) this.deletedRows.delete(id);
  }

  /**
   * Called after a reasoning run: the recorded work is done. Changes keep waiting for
   * reasoning while the store has rules.
   */
  settle(): void {
    this.clearWork();
    this.waiting = this.tx.catalogue.rules.size > 0;
  }

  /** Forgets the recorded work, whose effect was applied directly (clear, clear-rules-explicate-facts). */
  discard(): void {
    this.clearWork();
    this.waiting = false;
  }

  /**
   * Deletes every fact (explicit and derived) of every table that stores facts, at once, and
   * forgets the recorded work (the caller has taken the rules away).
   */
  deleteAllFacts(): void {
    const tx = this.tx;
    this.discard();
    for (const info of tx.catalogue.tupleTables.values()) {
      if (!storesFacts(info)) continue;
      const table = tx.table(info.id);
      const tuple = new Uint32Array(table.arity);
      table.forEachVisibleRow(tx.view(info.id), EXPLICIT | DERIVED, (row) => {
        for (let c = 0; c < table.arity; c++) tuple[c] = table.get(row, c);
        table.remove(tuple, EXPLICIT | DERIVED, tx.version);
      });
    }
  }

  /**
   * Makes every derived fact explicit and not derived, at once, and forgets the recorded work
   * (the caller has taken the rules away, after reasoning was brought up to date).
   */
  explicateDerivedFacts(): void {
    const tx = this.tx;
    this.discard();
    for (const info of tx.catalogue.tupleTables.values()) {
      if (!storesFacts(info)) continue;
      const table = tx.table(info.id);
      const arity = table.arity;
      const flat: number[] = [];
      table.forEachVisibleRow(tx.view(info.id), DERIVED, (row) => {
        for (let c = 0; c < arity; c++) flat.push(table.get(row, c));
      });
      const tuple = new Uint32Array(arity);
      for (let i = 0; i < flat.length; i += arity) {
        for (let c = 0; c < arity; c++) tuple[c] = flat[i + c]!;
        table.add(tuple, EXPLICIT, tx.version);
        table.remove(tuple, DERIVED, tx.version);
      }
    }
  }

  /** A copy of the recorded work, to return to with {@link ChangeLog.rollbackTo}. */
  savepoint(): ChangeLogSavepoint<R> {
    const added = new Map<number, number[]>();
    for (const [t, rows] of this.addedRows) added.set(t, [...rows]);
    const deleted = new Map<number, Set<number>>();
    for (const [t, rows] of this.deletedRows) deleted.set(t, new Set(rows));
    return { added, deleted, rulesAdded: new Set(this.addedRules), rulesRemoved: new Map(this.removedRules), full: this.fullRun, waiting: this.waiting };
  }

  /**
   * Returns to a savepoint (the tables are rolled back by the fact store): the savepoint's
   * copies become the log's state.
   */
  rollbackTo(sp: ChangeLogSavepoint<R>): void {
    this.addedRows = sp.added;
    this.deletedRows = sp.deleted;
    this.addedRules = sp.rulesAdded;
    this.removedRules = sp.rulesRemoved;
    this.fullRun = sp.full;
    this.waiting = sp.waiting;
  }

  /**
   * The net change of the facts whose status has a bit of `mask` (see
   * {@link transactionChanges}). Explicit deletions waiting for reasoning are not applied
   * yet, so this fails while there are some: read it once reasoning is up to date.
   */
  changes(mask: number): TransactionChanges {
    for (const rows of this.deletedRows.values()) if (rows.size > 0) throw new Error('the changes of a transaction are read before reasoning has applied its explicit deletions');
    return transactionChanges(this.tx, mask);
  }

  /** Whether the transaction changed the catalogue (rules, axioms, prefixes, base IRI, tuple tables, …). */
  get catalogueChanged(): boolean {
    const { catalogue } = this.tx;
    const before = this.tx.base.catalogue;
    return catalogue !== before && !is(catalogue, before);
  }

  private clearWork(): void {
    this.addedRows = new Map();
    this.deletedRows = new Map();
    this.addedRules = new Set();
    this.removedRules = new Map();
    this.fullRun = false;
  }
}
