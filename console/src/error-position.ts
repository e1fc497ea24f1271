/**
 * Where an error of the endpoint is in the text sent: the line and column its message names.
 * @module
 */

/** A place in a text: a line and a column, both counted from 1. */
export interface TextPosition {
  /** The line (1 = first). */
  readonly line: number;
  /** The column (1 = first character of the line). */
  readonly column: number;
}

/**
 * The line and column an endpoint's error message names (`… at line 4, column 15: …`, or
 * RDFox's `line 4: column 15:`), if it names one.
 */
export function errorPosition(message: string): TextPosition | undefined {
  const m = /\bline (\d+)(?:,|:)? column (\d+)/i.exec(message);
  if (!m) return undefined;
  const line = Number(m[1]);
  const column = Number(m[2]);
  return line >= 1 && column >= 1 ? { line, column } : undefined;
}
