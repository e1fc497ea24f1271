/**
 * The framing shared by every persistence file: a fixed file header (magic bytes, kind,
 * format version, a sequence number, a checksum) and checksummed, length-prefixed records,
 * with a reader that walks the records of a file and says exactly what follows the last whole
 * one: a clean end, a torn tail (a write cut short) or a damaged record.
 *
 * File header, 32 bytes, little-endian:
 *
 * | offset | size | field |
 * |---:|---:|---|
 * | 0 | 4 | magic `89 51 44 4C` (`\x89QDL`: the high byte catches 7-bit transfers and text files) |
 * | 4 | 4 | kind tag, 4 ASCII bytes (`TLOG` log, `SNAP` snapshot, `SDOC` server document) |
 * | 8 | 4 | u32 format version ({@link FORMAT_VERSION}) |
 * | 12 | 4 | u32 flags, 0 (a reader refuses flags it does not know) |
 * | 16 | 8 | u64 sequence number (meaning per kind: the transaction a snapshot includes, the one a log follows) |
 * | 24 | 4 | reserved, 0 |
 * | 28 | 4 | u32 CRC-32 of bytes 0–27 |
 *
 * Bytes 0–11 keep this layout in every future version, so that any version can tell a foreign
 * file from a newer one.
 *
 * Record, at an offset that is a multiple of 8, 16 + L + padding bytes:
 *
 * | offset | size | field |
 * |---:|---:|---|
 * | 0 | 4 | u32 payload length L |
 * | 4 | 4 | u32 tag: the record type, never 0 (meaning per file kind) |
 * | 8 | 4 | u32 CRC-32 of the payload |
 * | 12 | 4 | u32 CRC-32 of bytes 0–11 (so a damaged length is told from a torn tail) |
 * | 16 | L | payload |
 * | 16 + L | 0–7 | zero padding to a multiple of 8 (checked) |
 *
 * Every byte of a record is covered: the header by its own checksum, the payload by the
 * payload checksum, the padding by being zero. Payloads start at multiples of 8 in the file
 * and in the buffers the reader hands out, so typed-array views over them need no copy.
 *
 * CRC-32 is `zlib.crc32` (Node ≥ 20.15), with a table-driven fallback of the same polynomial.
 * @module
 */
import type { FileHandle } from 'node:fs/promises';
import * as zlib from 'node:zlib';
import { CorruptFileError, FileVersionError, ForeignFileError } from './errors.js';

// ---- CRC-32 ----

let crcTable: Uint32Array | undefined;

/** CRC-32 (IEEE 802.3, the polynomial of zlib and PNG) in plain TypeScript; `initial` continues an earlier value. */
export function crc32Portable(data: Uint8Array, initial = 0): number {
  if (crcTable === undefined) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  const table = crcTable;
  let c = ~initial >>> 0;
  for (let i = 0; i < data.length; i++) c = table[(c ^ data[i]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}

const nativeCrc32 = (zlib as { crc32?: (data: Uint8Array, value?: number) => number }).crc32;

/** Whether CRC-32 is computed by zlib (true on Node ≥ 20.15) rather than by {@link crc32Portable}. */
export const NATIVE_CRC32 = typeof nativeCrc32 === 'function';

/** CRC-32 of `data`, continuing `initial` (0 to start). */
export const crc32: (data: Uint8Array, initial?: number) => number = NATIVE_CRC32 ? (data, initial = 0) => nativeCrc32!(data, initial) : crc32Portable;

// ---- constants ----

/** The format version this code writes, and the newest it reads. */
export const FORMAT_VERSION = 1;
/** The oldest format version this code reads. */
export const OLDEST_FORMAT_VERSION = 1;
/** Size of the file header. */
export const FILE_HEADER_SIZE = 32;
/** Size of a record header. */
export const RECORD_HEADER_SIZE = 16;
/** The largest record payload (4 GiB − 16). */
export const MAX_RECORD_PAYLOAD = 0xffff_fff0;
/** The magic bytes every persistence file starts with (`\x89QDL`). */
export const MAGIC: Readonly<Uint8Array> = Uint8Array.of(0x89, 0x51, 0x44, 0x4c);

/** A kind of persistence file: its 4-byte tag and a description for messages. */
export interface FileKind {
  /** Four ASCII characters, stored at bytes 4–7 of the header. */
  readonly tag: string;
  /** What such a file is, for messages (`transaction log`). */
  readonly description: string;
}

/** A store's append-only transaction log. */
export const LOG_FILE: FileKind = { tag: 'TLOG', description: 'transaction log' };
/** A store's snapshot. */
export const SNAPSHOT_FILE: FileKind = { tag: 'SNAP', description: 'snapshot' };
/** A server-level document (the catalogue of stores, the role database). */
export const DOCUMENT_FILE: FileKind = { tag: 'SDOC', description: 'server document' };
/** The kept answers of one delta query of a store (a log of the same framing as the transaction log). */
export const DELTA_ANSWERS_FILE: FileKind = { tag: 'DQAN', description: 'delta query answers file' };

const KNOWN_KINDS: readonly FileKind[] = [LOG_FILE, SNAPSHOT_FILE, DOCUMENT_FILE, DELTA_ANSWERS_FILE];

/** The decoded header of a file. */
export interface FileHeader {
  /** The kind of the file. */
  readonly kind: FileKind;
  /** The format version it was written in. */
  readonly version: number;
  /** The sequence number of the header (meaning per kind). */
  readonly sequence: number;
}

/** `n` rounded up to a multiple of 8. */
export function align8(n: number): number {
  return Math.ceil(n / 8) * 8;
}

const ZEROS = new Uint8Array(8);

/** Zero bytes that pad `length` bytes to a multiple of 8 (a shared, read-only buffer). */
export function paddingFor(length: number): Uint8Array {
  return ZEROS.subarray(0, align8(length) - length);
}

function view(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join(' ');
}

// ---- byte order ----

/** Whether this machine stores typed-array elements little-endian (true on x64 and arm64). */
export const LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;

function swapInPlace(bytes: Uint8Array, elementSize: number): void {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (elementSize === 2) b.swap16();
  else if (elementSize === 4) b.swap32();
  else if (elementSize === 8) b.swap64();
}

/**
 * The little-endian bytes of an array: a view of it on a little-endian machine (`littleEndian`
 * true), a byte-swapped copy otherwise.
 */
export function littleEndianBytes(array: NodeJS.TypedArray, littleEndian = LITTLE_ENDIAN): Uint8Array {
  const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
  if (littleEndian || array.BYTES_PER_ELEMENT === 1) return bytes;
  const copy = new Uint8Array(bytes);
  swapInPlace(copy, array.BYTES_PER_ELEMENT);
  return copy;
}

/** Turns little-endian element bytes into this machine's order, in place (nothing to do when `littleEndian`). */
export function fromLittleEndianInPlace(bytes: Uint8Array, elementSize: number, littleEndian = LITTLE_ENDIAN): void {
  if (!littleEndian && elementSize > 1) swapInPlace(bytes, elementSize);
}

// ---- file header ----

/** The 32 header bytes of a file of `kind` whose header sequence number is `sequence`. */
export function encodeFileHeader(kind: FileKind, sequence: number): Uint8Array {
  if (!Number.isSafeInteger(sequence) || sequence < 0) throw new RangeError(`invalid sequence number ${sequence}`);
  const bytes = new Uint8Array(FILE_HEADER_SIZE);
  bytes.set(MAGIC, 0);
  for (let i = 0; i < 4; i++) bytes[4 + i] = kind.tag.charCodeAt(i);
  const dv = view(bytes);
  dv.setUint32(8, FORMAT_VERSION, true);
  dv.setUint32(12, 0, true);
  dv.setBigUint64(16, BigInt(sequence), true);
  dv.setUint32(24, 0, true);
  dv.setUint32(28, crc32(bytes.subarray(0, 28)), true);
  return bytes;
}

/**
 * Checks and decodes the header at the start of `bytes` (the first bytes of the file at
 * `path`, as many as it has up to {@link FILE_HEADER_SIZE}).
 * @throws ForeignFileError when the file is not a quadlog file of `expected` kind,
 * FileVersionError when it was written in a format version this code does not read,
 * CorruptFileError when the header is truncated or damaged.
 */
export function decodeFileHeader(bytes: Uint8Array, path: string, expected: FileKind): FileHeader {
  const n = Math.min(bytes.length, 4);
  for (let i = 0; i < n; i++) {
    if (bytes[i] !== MAGIC[i]) {
      throw new ForeignFileError(path, i, `not a quadlog ${expected.description}: the file starts with ${hex(bytes.subarray(0, Math.min(bytes.length, 8)))}, expected the magic bytes ${hex(MAGIC)}`);
    }
  }
  if (bytes.length < 12) {
    throw new CorruptFileError(path, bytes.length, bytes.length === 0 ? `the ${expected.description} is empty (it has no header)` : `the file ends inside its ${FILE_HEADER_SIZE}-byte header (truncated)`);
  }
  const dv = view(bytes);
  const version = dv.getUint32(8, true);
  if (version > FORMAT_VERSION) {
    throw new FileVersionError(path, 8, version, `the ${expected.description} has format version ${version}, written by a newer version of quadlog; this one reads versions ${OLDEST_FORMAT_VERSION} to ${FORMAT_VERSION} (if no newer quadlog wrote it, the header is damaged)`);
  }
  const intact = bytes.length >= FILE_HEADER_SIZE && dv.getUint32(28, true) === crc32(bytes.subarray(0, 28));
  if (version < OLDEST_FORMAT_VERSION && intact) {
    throw new FileVersionError(path, 8, version, `the ${expected.description} has format version ${version}, which this version of quadlog no longer reads (it reads ${OLDEST_FORMAT_VERSION} to ${FORMAT_VERSION})`);
  }
  if (bytes.length < FILE_HEADER_SIZE) throw new CorruptFileError(path, bytes.length, `the file ends inside its ${FILE_HEADER_SIZE}-byte header (truncated)`);
  const stored = dv.getUint32(28, true);
  const actual = crc32(bytes.subarray(0, 28));
  if (stored !== actual) throw new CorruptFileError(path, 0, `the file header (bytes 0–31) is damaged: its checksum is ${stored.toString(16)}, the bytes give ${actual.toString(16)}`);
  const tag = String.fromCharCode(...bytes.subarray(4, 8));
  if (tag !== expected.tag) {
    const other = KNOWN_KINDS.find((k) => k.tag === tag);
    throw new ForeignFileError(path, 4, other ? `this is a quadlog ${other.description}, not a ${expected.description}` : `unknown kind of quadlog file '${tag.replace(/[^\x20-\x7e]/g, '?')}' (expected a ${expected.description})`);
  }
  const flags = dv.getUint32(12, true);
  if (flags !== 0) throw new FileVersionError(path, 12, version, `the ${expected.description} uses features this version of quadlog does not know (flags ${flags.toString(16)})`);
  if (dv.getUint32(24, true) !== 0) throw new CorruptFileError(path, 24, 'reserved header bytes 24–27 are not zero');
  const sequence = dv.getBigUint64(16, true);
  if (sequence > BigInt(Number.MAX_SAFE_INTEGER)) throw new CorruptFileError(path, 16, `sequence number ${sequence} is out of range`);
  return { kind: expected, version, sequence: Number(sequence) };
}

// ---- records ----

/** The bytes a record with a payload of `payloadLength` bytes takes in a file. */
export function recordSize(payloadLength: number): number {
  return RECORD_HEADER_SIZE + align8(payloadLength);
}

/**
 * The byte chunks of one record: header, the payload parts (not copied) and padding, for a
 * gathered write. `tag` is the record type (1 to 2^32 − 1).
 */
export function encodeRecord(tag: number, parts: readonly Uint8Array[]): Uint8Array[] {
  if (!Number.isInteger(tag) || tag < 1 || tag > 0xffffffff) throw new RangeError(`invalid record tag ${tag}`);
  let length = 0;
  let crc = 0;
  for (const p of parts) {
    length += p.byteLength;
    crc = crc32(p, crc);
  }
  if (length > MAX_RECORD_PAYLOAD) throw new RangeError(`a record payload of ${length} bytes is larger than the limit of ${MAX_RECORD_PAYLOAD}`);
  const header = new Uint8Array(RECORD_HEADER_SIZE);
  const dv = view(header);
  dv.setUint32(0, length, true);
  dv.setUint32(4, tag, true);
  dv.setUint32(8, crc, true);
  dv.setUint32(12, crc32(header.subarray(0, 12)), true);
  const out = [header, ...parts.filter((p) => p.byteLength > 0)];
  const pad = paddingFor(length);
  if (pad.length > 0) out.push(pad);
  return out;
}

/** One whole record as the reader found it. */
export interface FramedRecord {
  /** Byte offset of the record (its header) in the file. */
  readonly offset: number;
  /** Offset just past the record and its padding. */
  readonly end: number;
  /** The record type. */
  readonly tag: number;
  /** The payload: a view starting at a multiple of 8 in its buffer, valid as long as it is kept. */
  readonly payload: Uint8Array;
}

/** What follows the last whole record of a file. */
export type RecordTail =
  | {
      /** The file ends right after the last whole record. */
      readonly kind: 'clean';
    }
  | {
      /** A record was cut short (a write interrupted by a crash), or the tail is zero-filled. */
      readonly kind: 'torn';
      /** Where the incomplete record starts (the end of the last whole record). */
      readonly offset: number;
      /** Bytes from `offset` to the end of the file. */
      readonly bytes: number;
      /** What was found there. */
      readonly reason: string;
    }
  | {
      /** A record is damaged (a checksum mismatch, non-zero padding, a bad tag). */
      readonly kind: 'corrupt';
      /** Where the damaged record starts (the end of the last whole record). */
      readonly offset: number;
      /** Bytes from `offset` to the end of the file. */
      readonly bytes: number;
      /** What is wrong. */
      readonly reason: string;
      /**
       * Offset of a later whole record, when one follows the damage: the damage is then
       * inside the file, not at its tail. Undefined when nothing valid follows.
       */
      readonly resumesAt: number | undefined;
    };

/** What {@link walkRecords} found. */
export interface WalkResult {
  /** The file header. */
  readonly header: FileHeader;
  /** The file's size in bytes. */
  readonly size: number;
  /** Offset just past the last whole record (the header's end when there is none). */
  readonly end: number;
  /** Number of whole records. */
  readonly records: number;
  /** What follows the last whole record. */
  readonly tail: RecordTail;
}

/** Reads a byte range fully, or throws when the file is shorter than it said. */
export async function readFully(handle: FileHandle, path: string, into: Uint8Array, position: number): Promise<void> {
  let done = 0;
  while (done < into.length) {
    const { bytesRead } = await handle.read(into, done, into.length - done, position + done);
    if (bytesRead === 0) throw new CorruptFileError(path, position + done, 'the file ended unexpectedly (it is truncated, or shrank while being read)');
    done += bytesRead;
  }
}

/**
 * Sequential reads of a file in chunks. Each chunk is a new buffer (never overwritten), so
 * views handed out stay valid; a view at a multiple of 8 in the file is at a multiple of 8 in
 * its buffer when the chunk started at one.
 */
class ChunkReader {
  private chunk = new Uint8Array(0);
  private chunkStart = 0;

  constructor(
    private readonly handle: FileHandle,
    private readonly path: string,
    readonly size: number,
    private readonly chunkSize: number,
  ) {}

  /** The bytes [position, position + length), which must lie within the file. */
  async view(position: number, length: number): Promise<Uint8Array> {
    const from = position - this.chunkStart;
    if (from >= 0 && from + length <= this.chunk.length) return this.chunk.subarray(from, from + length);
    const n = Math.min(Math.max(length, this.chunkSize), this.size - position);
    const chunk = Buffer.allocUnsafeSlow(n);
    await readFully(this.handle, this.path, chunk, position);
    this.chunk = new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length);
    this.chunkStart = position;
    return this.chunk.subarray(0, length);
  }

  /** Whether every byte from `position` to the end of the file is zero. */
  async zeroFrom(position: number): Promise<boolean> {
    for (let p = position; p < this.size; ) {
      const n = Math.min(this.chunkSize, this.size - p);
      const bytes = await this.view(p, n);
      for (let i = 0; i < n; i++) if (bytes[i] !== 0) return false;
      p += n;
    }
    return true;
  }
}

/** What one record at an offset is: whole, or why not. */
type Probe =
  | { readonly ok: true; readonly record: FramedRecord }
  | { readonly ok: false; readonly kind: 'torn' | 'corrupt'; readonly reason: string; readonly next?: number };

async function probeRecord(reader: ChunkReader, offset: number): Promise<Probe> {
  const remaining = reader.size - offset;
  if (remaining < RECORD_HEADER_SIZE) return { ok: false, kind: 'torn', reason: `${remaining} bytes, less than a record header (${RECORD_HEADER_SIZE} bytes)` };
  const header = await reader.view(offset, RECORD_HEADER_SIZE);
  const dv = view(header);
  const headerCrc = crc32(header.subarray(0, 12));
  if (dv.getUint32(12, true) !== headerCrc) return { ok: false, kind: 'corrupt', reason: 'the record header is damaged (header checksum mismatch)' };
  const length = dv.getUint32(0, true);
  const tag = dv.getUint32(4, true);
  if (tag === 0) return { ok: false, kind: 'corrupt', reason: 'the record has tag 0, which no writer uses' };
  if (length > MAX_RECORD_PAYLOAD) return { ok: false, kind: 'corrupt', reason: `the record length ${length} exceeds the limit` };
  const size = recordSize(length);
  if (size > remaining) return { ok: false, kind: 'torn', reason: `a record of ${size} bytes of which only ${remaining} were written` };
  const body = await reader.view(offset + RECORD_HEADER_SIZE, size - RECORD_HEADER_SIZE);
  const payload = body.subarray(0, length);
  const payloadCrc = crc32(payload);
  if (payloadCrc !== dv.getUint32(8, true)) return { ok: false, kind: 'corrupt', reason: `the payload of the record (${length} bytes) is damaged (payload checksum mismatch)`, next: offset + size };
  for (let i = length; i < body.length; i++) {
    if (body[i] !== 0) return { ok: false, kind: 'corrupt', reason: `padding byte ${offset + RECORD_HEADER_SIZE + i} of the record is not zero`, next: offset + size };
  }
  return { ok: true, record: { offset, end: offset + size, tag, payload } };
}

/** The offset of the first whole record at or after `from` (multiples of 8 only), or undefined. */
async function findRecord(reader: ChunkReader, from: number): Promise<number | undefined> {
  for (let o = Math.ceil(from / 8) * 8; o + RECORD_HEADER_SIZE <= reader.size; o += 8) {
    const header = await reader.view(o, RECORD_HEADER_SIZE);
    const dv = view(header);
    if (dv.getUint32(12, true) !== crc32(header.subarray(0, 12))) continue;
    const probe = await probeRecord(reader, o);
    if (probe.ok) return o;
  }
  return undefined;
}

/** Options of {@link walkRecords}. */
export interface WalkOptions {
  /** Offset of the first record (default: right after the file header). */
  readonly start?: number;
  /** Bytes read at a time (default 1 MiB; a larger record is read whole). */
  readonly chunkSize?: number;
}

/**
 * Walks the records of the open file `handle` (named `path` in errors): checks the header
 * against `kind`, then calls `onRecord` for each whole record in order (awaiting it), and
 * stops at the first record that is not whole. The result says where the whole records end
 * and what follows them; nothing past that point is ever passed to `onRecord`.
 * @throws ForeignFileError, FileVersionError or CorruptFileError for a bad header.
 */
export async function walkRecords(
  handle: FileHandle,
  path: string,
  kind: FileKind,
  onRecord: (record: FramedRecord, header: FileHeader) => void | Promise<void>,
  options: WalkOptions = {},
): Promise<WalkResult> {
  const size = (await handle.stat()).size;
  const reader = new ChunkReader(handle, path, size, options.chunkSize ?? 1 << 20);
  const header = decodeFileHeader(await reader.view(0, Math.min(size, FILE_HEADER_SIZE)), path, kind);
  let offset = options.start ?? FILE_HEADER_SIZE;
  let records = 0;
  for (;;) {
    if (offset === size) return { header, size, end: offset, records, tail: { kind: 'clean' } };
    const probe = await probeRecord(reader, offset);
    if (probe.ok) {
      await onRecord(probe.record, header);
      records++;
      offset = probe.record.end;
      continue;
    }
    const bytes = size - offset;
    if (probe.kind === 'torn') return { header, size, end: offset, records, tail: { kind: 'torn', offset, bytes, reason: probe.reason } };
    if (await reader.zeroFrom(offset)) return { header, size, end: offset, records, tail: { kind: 'torn', offset, bytes, reason: `${bytes} zero bytes (space allocated but never written)` } };
    const resumesAt = await findRecord(reader, probe.next ?? offset + 8);
    return { header, size, end: offset, records, tail: { kind: 'corrupt', offset, bytes, reason: probe.reason, resumesAt } };
  }
}

/** Words for a tail that is not clean, for messages: `a torn record at byte 120 (40 bytes: …)`. */
export function describeTail(tail: RecordTail): string {
  if (tail.kind === 'clean') return 'a clean end';
  const what = tail.kind === 'torn' ? 'an incomplete record' : 'a damaged record';
  return `${what} at byte ${tail.offset} (${tail.bytes} bytes to the end of the file: ${tail.reason})`;
}
