/**
 * Request bytes as text: bodies read whole (SPARQL queries and updates, IRI lists, prefixes,
 * scripts, passwords, form bodies) and percent-decoded parameters must be UTF-8. A malformed
 * byte sequence is a {@link ParsingError} (400) naming its byte offset, line and column, worded
 * like the import's ("invalid UTF-8 byte sequence"), instead of becoming U+FFFD.
 *
 * Well-formed text is checked with Node's `isUtf8` and decoded once; only malformed text is
 * scanned byte by byte, to say where, by the scanner the import's check uses too
 * (`firstInvalidUtf8`).
 * @module
 */
import { isUtf8 } from 'node:buffer';
import { firstInvalidUtf8, ParsingError } from '../index.js';

/** Where an offset of UTF-8 bytes lies: its line and column (in characters), both from 1. */
function positionOf(bytes: Uint8Array, offset: number): { readonly line: number; readonly column: number } {
  let line = 1;
  let column = 1;
  for (let p = 0; p < offset; p++) {
    const b = bytes[p]!;
    if (b === 0x0a) {
      line++;
      column = 1;
    } else if ((b & 0xc0) !== 0x80) column++;
  }
  return { line, column };
}

/**
 * The error of malformed UTF-8 in `bytes` at `offset`; `what` names the text (e.g. "the
 * request body", "parameter 'query' (percent-decoded)").
 */
export function invalidUtf8(bytes: Uint8Array, offset: number, what: string): ParsingError {
  const { line, column } = positionOf(bytes, offset);
  return new ParsingError(`invalid UTF-8 byte sequence at byte offset ${offset} (line ${line}, column ${column}) of ${what}`);
}

/**
 * The UTF-8 text of bytes.
 * @throws ParsingError naming `what`, the byte offset, line and column of the first malformed sequence.
 */
export function utf8Text(bytes: Buffer, what: string): string {
  if (isUtf8(bytes)) return bytes.toString('utf8');
  throw invalidUtf8(bytes, firstInvalidUtf8(bytes), what);
}
