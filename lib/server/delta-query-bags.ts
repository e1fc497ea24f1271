/**
 * Answers of delta queries as bags: rows counted by a key of their terms, so that two answers
 * can be compared (what a re-run query added and removed) and a kept answer brought forward by
 * a version's additions and deletions.
 * @module
 */
import { termToKey } from '../model/terms.js';
import type { DeltaQueryRow } from './delta-query-watch.js';

/** A bag of rows by key. */
export type Bag = Map<string, { values: DeltaQueryRow; count: number }>;

/** The key of a row: its terms' keys, each ended by NUL. */
export function rowKey(values: DeltaQueryRow): string {
  let key = '';
  for (const v of values) key += `${v === undefined ? '' : termToKey(v)}\u0000`;
  return key;
}

/** Rows of a whole answer turned into its bag between two yields to the event loop. */
export const BAG_SLICE = 8192;

/** Adds `rows[from..to)` to `bag`. */
export function addTo(bag: Bag, rows: readonly DeltaQueryRow[], from: number, to: number): void {
  for (let i = from; i < to; i++) {
    const values = rows[i]!;
    const key = rowKey(values);
    const entry = bag.get(key);
    if (entry) entry.count++;
    else bag.set(key, { values, count: 1 });
  }
}

/** The rows of a bag, each as often as it counts. */
export function rowsOf(bag: Bag): DeltaQueryRow[] {
  const rows: DeltaQueryRow[] = [];
  for (const { values, count } of bag.values()) for (let i = 0; i < count; i++) rows.push(values);
  return rows;
}

/** Rows of `after` beyond those of `before` (with multiplicity). */
export function bagMinus(after: Bag, before: Bag): DeltaQueryRow[] {
  const rows: DeltaQueryRow[] = [];
  for (const [key, { values, count }] of after) {
    const n = count - (before.get(key)?.count ?? 0);
    for (let i = 0; i < n; i++) rows.push(values);
  }
  return rows;
}

/** Brings a bag forward by a version's deletions and additions. */
export function applyTo(bag: Bag, additions: readonly DeltaQueryRow[], deletions: readonly DeltaQueryRow[]): void {
  for (const values of deletions) {
    const key = rowKey(values);
    const entry = bag.get(key);
    if (entry && --entry.count === 0) bag.delete(key);
  }
  for (const values of additions) {
    const key = rowKey(values);
    const entry = bag.get(key);
    if (entry) entry.count++;
    else bag.set(key, { values, count: 1 });
  }
}
