/**
 * Scripts as text: a script file (`quadlog shell -f`, `exec`) or a script on standard input
 * must be UTF-8. One holding a malformed byte sequence is refused whole, before any of its
 * commands runs, with the byte offset, line and column of the sequence, worded like the HTTP
 * adapter's check of request text ("invalid UTF-8 byte sequence"), instead of running with
 * U+FFFD in place of the bytes.
 *
 * Well-formed text is checked with Node's `isUtf8` and decoded once; only malformed text is
 * scanned byte by byte, to say where, by the package's scanner (`firstInvalidUtf8`).
 * @module
 */
import { isUtf8 } from 'node:buffer';
import { readFile } from 'node:fs/promises';
import { firstInvalidUtf8, ParsingError } from '../index.js';

/**
 * The UTF-8 text of a script's bytes.
 * @throws ParsingError "invalid UTF-8 byte sequence at byte offset N (line L, column C)" at
 *   the first malformed sequence (offset from 0, line and column in characters from 1).
 */
export function scriptText(bytes: Buffer): string {
  if (isUtf8(bytes)) return bytes.toString('utf8');
  const offset = firstInvalidUtf8(bytes);
  // the bytes before the malformed sequence are well-formed
  const lines = bytes.subarray(0, offset).toString('utf8').split('\n');
  const column = [...lines[lines.length - 1]!].length + 1;
  throw new ParsingError(`invalid UTF-8 byte sequence at byte offset ${offset} (line ${lines.length}, column ${column})`);
}

/**
 * Reads a script file as UTF-8 text.
 * @throws ParsingError at a malformed sequence (see {@link scriptText}); the errors of
 *   `readFile` when the file cannot be read.
 */
export async function readScriptFile(path: string): Promise<string> {
  return scriptText(await readFile(path));
}
