/**
 * Request bytes as text: bodies read whole (SPARQL queries and updates, IRI lists, prefixes,
 * scripts, passwords, form bodies) and percent-decoded parameters must be UTF-8. A malformed
 * byte sequence is a {@link ParsingError} (400) naming its byte offset, line and column, worded
 * like the import's ("invalid UTF-8 byte sequence"), instead of becoming U+FFFD.
 *
 * Well-formed text is checked with Node's `isUtf8` and decoded once; only malformed text is
 * scanned byte by byte, to say where. (The import has the same check for streamed content in
 * `formats/utf8-validation.ts`, a layer this adapter does not import from.)
 * @module
 */
import { isUtf8 } from 'node:buffer';
import { ParsingError } from '../index.js';

/** The offset of the first malformed UTF-8 sequence in `bytes` (a cut-off sequence at the end included), or -1. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  for (let p = 0; p < bytes.length; ) {
    const c0 = bytes[p]!;
    if (c0 < 0x80) {
      p++;
      continue;
    }
    const length = c0 >= 0xc2 && c0 <= 0xdf ? 2 : c0 >= 0xe0 && c0 <= 0xef ? 3 : c0 >= 0xf0 && c0 <= 0xf4 ? 4 : 0;
    if (length === 0) return p;
    for (let k = 1; k < length; k++) {
      const c = bytes[p + k];
      // the second byte of E0, ED, F0 and F4 is narrower (no overlong forms, surrogates or code points above U+10FFFF)
      const low = k === 1 && c0 === 0xe0 ? 0xa0 : k === 1 && c0 === 0xf0 ? 0x90 : 0x80;
      const high = k === 1 && c0 === 0xed ? 0x9f : k === 1 && c0 === 0xf4 ? 0x8f : 0xbf;
      if (c === undefined || c < low || c > high) return p;
    }
    p += length;
  }
  return -1;
}

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
