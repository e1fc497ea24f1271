/**
 * Explicit fact changes of a write transaction waiting for the next reasoning run.
 * Additions are applied to the tables at once (the new rows are remembered); deletions of
 * explicit facts are only recorded, so that the old materialisation stays readable until
 * maintenance has decided what else goes.
 * @module
 */
import type { WriteTransaction } from '../storage/fact-store.js';
import { EXPLICIT } from '../storage/tuple-table.js';
import type { Rule } from './ast.js';

/** Pending explicit changes and rule changes of one transaction. */
export class PendingChanges {
  /** Rows of facts that became present through explicit additions, per table id. */
  readonly added = new Map<number, number[]>();
  /** Rows whose explicit status is to be removed, per table id. */
  readonly deleted = new Map<number, Set<number>>();
  /** Keys of rules added since the last run. */
  readonly rulesAdded = new Set<string>();
  /** Rules removed since the last run, by key. */
  readonly rulesRemoved = new Map<string, Rule>();
  /** Whether a from-scratch materialisation was requested. */
  full = false;

  /** Whether there is nothing to do. */
  get empty(): boolean {
    return !this.full && this.added.size === 0 && this.deleted.size === 0 && this.rulesAdded.size === 0 && this.rulesRemoved.size === 0;
  }

  /** A deep copy (for savepoints). */
  clone(): PendingChanges {
    const c = new PendingChanges();
    for (const [t, rows] of this.added) c.added.set(t, [...rows]);
    for (const [t, rows] of this.deleted) c.deleted.set(t, new Set(rows));
    for (const k of this.rulesAdded) c.rulesAdded.add(k);
    for (const [k, v] of this.rulesRemoved) c.rulesRemoved.set(k, v);
    c.full = this.full;
    return c;
  }

  /** Makes a fact explicit; returns whether its explicit status changed. */
  addExplicit(tx: WriteTransaction, tableId: number, tuple: ArrayLike<number>): boolean {
    const table = tx.table(tableId);
    const row = table.find(tuple, tx.view(tableId));
    if (row >= 0) {
      const deleted = this.deleted.get(tableId);
      if (deleted?.delete(row)) return true;
      if ((table.statusOf(row) & EXPLICIT) !== 0) return false;
      table.add(tuple, EXPLICIT, tx.version); // derived fact becomes explicit too: presence unchanged
      return true;
    }
    table.add(tuple, EXPLICIT, tx.version);
    let rows = this.added.get(tableId);
    if (!rows) this.added.set(tableId, (rows = []));
    rows.push(table.rowCount - 1);
    return true;
  }

  /** Records that a fact is no longer explicit; returns whether its explicit status changed. */
  removeExplicit(tx: WriteTransaction, tableId: number, tuple: ArrayLike<number>): boolean {
    const table = tx.table(tableId);
    const row = table.find(tuple, tx.view(tableId));
    if (row < 0 || (table.statusOf(row) & EXPLICIT) === 0) return false;
    let deleted = this.deleted.get(tableId);
    if (!deleted) this.deleted.set(tableId, (deleted = new Set()));
    if (deleted.has(row)) return false;
    deleted.add(row);
    return true;
  }
}
