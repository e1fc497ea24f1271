/**
 * The special numbers of the storage layer, named: what a pattern position, a row lookup and
 * an insertion return when there is no term or row to give, so that callers test names rather
 * than `-1` or `-(row + 1)`.
 * @module
 */

/** A pattern position that matches any term (also: a variable slot with no value yet). */
export const ANY = -1;

/** What a row lookup returns when the tuple has no row. */
export const NO_ROW = -1;

/**
 * The result of `TupleTable.findOrAdd` for a tuple it appended at `row`: negative, so
 * that it is told apart from an existing row (>= 0). Decode it with {@link appendedRowOf}.
 */
export function appendedRowResult(row: number): number {
  return -(row + 1);
}

/** Whether a result of `TupleTable.findOrAdd` says the tuple was appended (rather than found). */
export function wasAppended(result: number): boolean {
  return result < 0;
}

/** The row of a tuple appended by `TupleTable.findOrAdd`, from its (negative) result. */
export function appendedRowOf(result: number): number {
  return -result - 1;
}
