/**
 * Checking that input is UTF-8 before it becomes text: the formats parsed as text (Turtle,
 * TriG and Datalog; N-Triples and N-Quads check their bytes themselves) refuse a malformed
 * byte sequence instead of replacing it with U+FFFD.
 *
 * {@link Utf8Validator} checks chunks as they stream (a sequence may be split between chunks),
 * with Node's `isUtf8` over each chunk, so that the text is still decoded once, by the caller's
 * decoder; only when a chunk fails is it scanned byte by byte, to find where. The error names
 * the byte offset of the malformed sequence in the input (counted from 0), its line and, when
 * known, its column (counted in characters from 1), worded like the N-Triples parser's
 * ("invalid UTF-8 byte sequence").
 * @module
 */
import { isUtf8 } from 'node:buffer';
import { ParsingError } from '../model/errors.js';
import { firstInvalidUtf8, sequenceLength } from '../model/utf8.js';

const LF = 0x0a;

/** A malformed UTF-8 byte sequence in input that is read as text. HTTP 400. */
export class InvalidUtf8Error extends ParsingError {
  /** The offset of the first byte of the malformed sequence in the input, from 0. */
  readonly offset: number;
  /** The line of the malformed sequence, from 1. */
  readonly line: number;
  /** Its column, in characters from 1, when known. */
  readonly column: number | undefined;
  /** What is wrong, without the line and column (for a notification row, which has them apart). */
  readonly description: string;

  /** Creates the error for a malformed sequence at `offset`, on `line` (and `column`). */
  constructor(offset: number, line: number, column: number | undefined) {
    const description = `invalid UTF-8 byte sequence at byte offset ${offset}`;
    super(`line ${line}: ${column !== undefined ? `column ${column}: ` : ''}${description}`);
    this.name = 'ParsingError';
    this.offset = offset;
    this.line = line;
    this.column = column;
    this.description = description;
  }
}

/** The characters of `bytes[start, end)` (bytes that do not continue a sequence). */
function characters(bytes: Uint8Array, start: number, end: number): number {
  let n = 0;
  for (let p = start; p < end; p++) if ((bytes[p]! & 0xc0) !== 0x80) n++;
  return n;
}

/**
 * Checks a stream of chunks as UTF-8. {@link Utf8Validator.write} each chunk before decoding
 * it, then {@link Utf8Validator.end}; both throw {@link InvalidUtf8Error} at the first
 * malformed sequence. A byte order mark is valid UTF-8 and is left to the decoder.
 */
export class Utf8Validator {
  /** Bytes of the input before the current chunk. */
  private consumed = 0;
  /** The start of a sequence cut off at the end of the previous chunk. */
  private readonly pending = new Uint8Array(4);
  private pendingLength = 0;
  /** The line at the start of the current chunk. */
  private line = 1;
  /** The characters of that line before the current chunk. */
  private column = 0;

  /**
   * Checks the next chunk.
   * @throws InvalidUtf8Error at a malformed sequence.
   */
  write(chunk: Uint8Array): void {
    let start = 0;
    if (this.pendingLength > 0) {
      // complete the sequence carried over from the previous chunk
      const pendingAt = this.consumed - this.pendingLength;
      const length = sequenceLength(this.pending[0]!);
      while (this.pendingLength < length && start < chunk.length) this.pending[this.pendingLength++] = chunk[start++]!;
      const sequence = this.pending.subarray(0, this.pendingLength);
      if (firstInvalidUtf8(sequence, 0, sequence.length, false) >= 0) this.fail(pendingAt, undefined, 0);
      if (this.pendingLength < length) {
        this.consumed += chunk.length;
        return;
      }
      this.pendingLength = 0;
      this.column++;
    }
    // a sequence cut off at the end of the chunk waits for the next one
    let cut = chunk.length;
    for (let i = chunk.length - 1; i >= start && i >= chunk.length - 3; i--) {
      const b = chunk[i]!;
      if (b < 0x80) break;
      if (b >= 0xc0) {
        if (chunk.length - i < sequenceLength(b)) cut = i;
        break;
      }
    }
    if (!isUtf8(chunk.subarray(start, cut))) this.fail(this.consumed + firstInvalidUtf8(chunk, start, cut), chunk, start);
    for (let i = cut; i < chunk.length; i++) this.pending[this.pendingLength++] = chunk[i]!;
    this.advance(chunk, start, cut);
    this.consumed += chunk.length;
  }

  /**
   * Ends the input.
   * @throws InvalidUtf8Error when it ends inside a sequence.
   */
  end(): void {
    if (this.pendingLength > 0) this.fail(this.consumed - this.pendingLength, undefined, 0);
  }

  /** Moves the line and column past `chunk[start, end)`. */
  private advance(chunk: Uint8Array, start: number, end: number): void {
    let last = -1;
    for (let i = chunk.indexOf(LF, start); i >= 0 && i < end; i = chunk.indexOf(LF, i + 1)) {
      this.line++;
      last = i;
    }
    if (last >= 0) this.column = characters(chunk, last + 1, end);
    else this.column += characters(chunk, start, end);
  }

  /** Throws the error of a malformed sequence at `offset` (in `chunk`, whose checked part begins at `start`, when given). */
  private fail(offset: number, chunk: Uint8Array | undefined, start: number): never {
    if (chunk) this.advance(chunk, start, offset - this.consumed);
    throw new InvalidUtf8Error(offset, this.line, this.column + 1);
  }
}
