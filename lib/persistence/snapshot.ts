/**
 * Snapshot files: a store's whole state as named sections, typed arrays stored as their raw
 * little-endian bytes (so loading is a read per section into a fresh buffer and a checksum,
 * with no per-element parsing) and JSON values. A snapshot is written atomically (see
 * `atomic-file.ts`): a crash while writing leaves the previous snapshot in place.
 *
 * Layout (offsets in bytes, little-endian):
 *
 * | offset | size | content |
 * |---:|---:|---|
 * | 0 | 32 | file header, kind `SNAP`, sequence = the last transaction the snapshot includes (see `framing.ts`) |
 * | 32 | 16 + T + pad | one framed record, tag 1: the table of contents, UTF-8 JSON `{"sections":[{"name","type","offset","length","crc"}, …]}` |
 * | each `offset` | `length` + pad | a section's bytes, at a multiple of 8, zero-padded to a multiple of 8 (padding checked) |
 *
 * `type` is `uint8`, `int8`, `uint16`, `int16`, `uint32`, `int32`, `float32`, `float64`,
 * `bigint64`, `biguint64` (a typed array, elements little-endian) or `json` (UTF-8 JSON text);
 * `crc` is the CRC-32 of the section's `length` bytes. Sections follow each other in the
 * order of the table, and the file ends right after the last one's padding: a file of any
 * other size is reported as truncated or as having trailing data.
 *
 * On a big-endian machine the arrays are byte-swapped on write (a copy) and on read (in place),
 * so files move between machines unchanged.
 * @module
 */
import { open, type FileHandle } from 'node:fs/promises';
import { writeFileAtomically } from './atomic-file.js';
import { CorruptFileError } from './errors.js';
import { align8, crc32, decodeFileHeader, encodeFileHeader, encodeRecord, FILE_HEADER_SIZE, fromLittleEndianInPlace, littleEndianBytes, paddingFor, readFully, RECORD_HEADER_SIZE, recordSize, SNAPSHOT_FILE } from './framing.js';

/** The typed arrays a snapshot section can hold. */
export type SectionArray = Uint8Array | Int8Array | Uint16Array | Int16Array | Uint32Array | Int32Array | Float32Array | Float64Array | BigInt64Array | BigUint64Array;

/** A constructor of one of the {@link SectionArray} types. */
export interface SectionArrayType<T extends SectionArray> {
  /** Creates a view. */
  new (buffer: ArrayBuffer, byteOffset: number, length: number): T;
  /** Bytes per element. */
  readonly BYTES_PER_ELEMENT: number;
}

const ARRAY_TYPES = {
  uint8: Uint8Array,
  int8: Int8Array,
  uint16: Uint16Array,
  int16: Int16Array,
  uint32: Uint32Array,
  int32: Int32Array,
  float32: Float32Array,
  float64: Float64Array,
  bigint64: BigInt64Array,
  biguint64: BigUint64Array,
} as const;

/** The type name of a section as stored in the table of contents. */
export type SectionType = keyof typeof ARRAY_TYPES | 'json';

/** One section to write: a typed array or a JSON value, under a unique name. */
export type SnapshotSection =
  | {
      /** The section's name (unique within the snapshot). */
      readonly name: string;
      /** The array; its bytes are written as they are (little-endian). */
      readonly array: SectionArray;
    }
  | {
      /** The section's name (unique within the snapshot). */
      readonly name: string;
      /** Any value JSON.stringify accepts (not undefined). */
      readonly json: unknown;
    };

/** One entry of a snapshot's table of contents. */
export interface SectionInfo {
  /** The section's name. */
  readonly name: string;
  /** What it holds. */
  readonly type: SectionType;
  /** Byte offset in the file (a multiple of 8). */
  readonly offset: number;
  /** Byte length (without padding). */
  readonly length: number;
  /** CRC-32 of the bytes. */
  readonly crc: number;
}

/** Record tag of the table of contents. */
const TOC_TAG = 1;

function typeOf(array: SectionArray): keyof typeof ARRAY_TYPES {
  for (const [name, ctor] of Object.entries(ARRAY_TYPES)) if (array instanceof ctor) return name as keyof typeof ARRAY_TYPES;
  throw new TypeError('a snapshot section must be a typed array or a JSON value');
}

/** Options of {@link writeSnapshot}. */
export interface SnapshotWriteOptions {
  /** The header sequence number: the last transaction the snapshot includes. */
  readonly sequence: number;
  /** Flush before returning (default true; see `atomic-file.ts`). */
  readonly durable?: boolean;
  /**
   * Called between pieces of the work that does not wait for the disk (checksums of a few
   * MiB each): a writer that must not hold the event loop long awaits a yield here.
   */
  readonly pause?: () => Promise<void>;
}

/** A section's bytes, type and checksum, ready to be laid out. */
interface SectionBody {
  readonly name: string;
  readonly type: SectionType;
  readonly bytes: Uint8Array;
  crc: number;
}

/** Bytes checksummed between two pauses of a paced write. */
const CRC_PIECE = 2 << 20;

/** The byte chunks of a snapshot file (for {@link writeSnapshot}, and for tests that build files by hand). */
export function encodeSnapshot(sections: readonly SnapshotSection[], sequence: number): { chunks: Uint8Array[]; toc: SectionInfo[]; size: number } {
  const bodies = sectionBodies(sections);
  for (const b of bodies) b.crc = crc32(b.bytes);
  return layOut(bodies, sequence);
}

/** {@link encodeSnapshot}, computing the checksums a piece at a time with `pause` between pieces. */
export async function encodeSnapshotPaced(sections: readonly SnapshotSection[], sequence: number, pause: () => Promise<void>): Promise<{ chunks: Uint8Array[]; toc: SectionInfo[]; size: number }> {
  const bodies = sectionBodies(sections);
  for (const b of bodies) {
    let crc = 0;
    for (let at = 0; at < b.bytes.length; at += CRC_PIECE) {
      crc = crc32(b.bytes.subarray(at, Math.min(b.bytes.length, at + CRC_PIECE)), crc);
      await pause();
    }
    b.crc = crc;
  }
  return layOut(bodies, sequence);
}

/** The sections' bytes and types (checksums still to be computed), their names checked. */
function sectionBodies(sections: readonly SnapshotSection[]): SectionBody[] {
  const names = new Set<string>();
  const bodies: SectionBody[] = [];
  for (const s of sections) {
    if (typeof s.name !== 'string' || s.name === '') throw new TypeError('a snapshot section needs a non-empty name');
    if (names.has(s.name)) throw new TypeError(`two snapshot sections are named '${s.name}'`);
    names.add(s.name);
    let type: SectionType;
    let bytes: Uint8Array;
    if ('array' in s) {
      type = typeOf(s.array);
      bytes = littleEndianBytes(s.array);
    } else {
      const text = JSON.stringify(s.json);
      if (text === undefined) throw new TypeError(`snapshot section '${s.name}': the value cannot be written as JSON`);
      type = 'json';
      bytes = Buffer.from(text, 'utf8');
    }
    bodies.push({ name: s.name, type, bytes, crc: 0 });
  }
  return bodies;
}

/** The file's chunks, table of contents and size for sections whose checksums are known. */
function layOut(bodies: readonly SectionBody[], sequence: number): { chunks: Uint8Array[]; toc: SectionInfo[]; size: number } {
  // the table's size depends on the offsets it holds: iterate until the layout settles
  let tocBytes = new Uint8Array(0);
  let toc: SectionInfo[] = [];
  for (let start = -1; ; ) {
    const first = FILE_HEADER_SIZE + recordSize(tocBytes.length);
    if (first === start) break;
    start = first;
    let offset = first;
    toc = bodies.map((b) => {
      const info: SectionInfo = { name: b.name, type: b.type, offset, length: b.bytes.length, crc: b.crc };
      offset += align8(b.bytes.length);
      return info;
    });
    tocBytes = Buffer.from(JSON.stringify({ sections: toc }), 'utf8');
  }
  const chunks: Uint8Array[] = [encodeFileHeader(SNAPSHOT_FILE, sequence), ...encodeRecord(TOC_TAG, [tocBytes])];
  for (const b of bodies) chunks.push(b.bytes, paddingFor(b.bytes.length));
  const last = toc[toc.length - 1];
  const size = last === undefined ? FILE_HEADER_SIZE + recordSize(tocBytes.length) : last.offset + align8(last.length);
  return { chunks, toc, size };
}

/**
 * Writes a snapshot atomically (temporary file, write, fsync, rename, fsync of the directory):
 * after a crash at any point, `path` holds the old snapshot or the new one, whole.
 * @throws StorageWriteError (the old snapshot is then unchanged).
 */
export async function writeSnapshot(path: string, sections: readonly SnapshotSection[], options: SnapshotWriteOptions): Promise<{ readonly bytes: number }> {
  const { chunks, size } = options.pause === undefined ? encodeSnapshot(sections, options.sequence) : await encodeSnapshotPaced(sections, options.sequence, options.pause);
  await writeFileAtomically(path, chunks, { durable: options.durable ?? true, what: 'the snapshot' });
  return { bytes: size };
}

/** Options of {@link readSnapshot}. */
export interface SnapshotReadOptions {
  /**
   * The capacity in bytes to allocate for a section (at least its length; the extra bytes are
   * zero), so that a table can grow in place before its first reallocation: reach the whole
   * capacity with `new Uint32Array(view.buffer)`. Default: the length.
   */
  readonly reserve?: (section: SectionInfo) => number;
}

/** A snapshot read into memory: its sections' arrays and JSON values. */
export class LoadedSnapshot {
  /** @internal */
  constructor(
    /** The file it was read from. */
    readonly path: string,
    /** The last transaction it includes (its header sequence number). */
    readonly sequence: number,
    /** The file's size. */
    readonly size: number,
    /** The table of contents, in file order. */
    readonly sections: readonly SectionInfo[],
    private readonly arrays: ReadonlyMap<string, SectionArray>,
    private readonly values: ReadonlyMap<string, unknown>,
  ) {}

  /** Whether a section of that name exists. */
  has(name: string): boolean {
    return this.arrays.has(name) || this.values.has(name);
  }

  /**
   * The array of a section, as `type` (which must be the type it was written as): a view over
   * a buffer of its own, starting at offset 0.
   * @throws CorruptFileError when the section is missing or holds another type.
   */
  array<T extends SectionArray>(name: string, type: SectionArrayType<T>): T {
    const info = this.info(name);
    const a = this.arrays.get(name);
    if (a === undefined || !(a instanceof type)) throw new CorruptFileError(this.path, info.offset, `section '${name}' holds ${info.type}, not the ${type.name} expected`);
    return a;
  }

  /** The value of a JSON section. @throws CorruptFileError when missing or not JSON. */
  json(name: string): unknown {
    const info = this.info(name);
    if (!this.values.has(name)) throw new CorruptFileError(this.path, info.offset, `section '${name}' holds ${info.type}, not JSON`);
    return this.values.get(name);
  }

  private info(name: string): SectionInfo {
    const info = this.sections.find((s) => s.name === name);
    if (info === undefined) throw new CorruptFileError(this.path, FILE_HEADER_SIZE, `the snapshot has no section '${name}'`);
    return info;
  }
}

function checkToc(path: string, value: unknown, tocOffset: number, first: number): SectionInfo[] {
  const bad = (why: string): CorruptFileError => new CorruptFileError(path, tocOffset, `the table of contents is invalid: ${why}`);
  if (typeof value !== 'object' || value === null || !Array.isArray((value as { sections?: unknown }).sections)) throw bad('no list of sections');
  const out: SectionInfo[] = [];
  const names = new Set<string>();
  let next = first;
  for (const raw of (value as { sections: unknown[] }).sections) {
    if (typeof raw !== 'object' || raw === null) throw bad('an entry is not an object');
    const { name, type, offset, length, crc } = raw as Record<string, unknown>;
    if (typeof name !== 'string' || name === '' || names.has(name)) throw bad(`a section name is missing or repeated (${JSON.stringify(name)})`);
    names.add(name);
    if (typeof type !== 'string' || (type !== 'json' && !Object.hasOwn(ARRAY_TYPES, type))) throw bad(`section '${name}' has unknown type ${JSON.stringify(type)}`);
    if (offset !== next) throw bad(`section '${name}' is at byte ${String(offset)}, expected ${next}`);
    const elementSize = type === 'json' ? 1 : ARRAY_TYPES[type as keyof typeof ARRAY_TYPES].BYTES_PER_ELEMENT;
    if (!Number.isSafeInteger(length) || (length as number) < 0 || (length as number) % elementSize !== 0) throw bad(`section '${name}' has an invalid length ${String(length)}`);
    if (!Number.isInteger(crc) || (crc as number) < 0 || (crc as number) > 0xffffffff) throw bad(`section '${name}' has an invalid checksum ${String(crc)}`);
    out.push({ name, type: type as SectionType, offset, length: length as number, crc: crc as number });
    next = offset + align8(length as number);
  }
  return out;
}

async function readToc(handle: FileHandle, path: string, size: number): Promise<{ sequence: number; toc: SectionInfo[]; end: number }> {
  const head = new Uint8Array(Math.min(size, FILE_HEADER_SIZE + RECORD_HEADER_SIZE));
  await readFully(handle, path, head, 0);
  const header = decodeFileHeader(head.subarray(0, Math.min(size, FILE_HEADER_SIZE)), path, SNAPSHOT_FILE);
  if (size < FILE_HEADER_SIZE + RECORD_HEADER_SIZE) throw new CorruptFileError(path, size, 'the snapshot ends before its table of contents (truncated)');
  const rh = new DataView(head.buffer, FILE_HEADER_SIZE, RECORD_HEADER_SIZE);
  if (rh.getUint32(12, true) !== crc32(head.subarray(FILE_HEADER_SIZE, FILE_HEADER_SIZE + 12))) throw new CorruptFileError(path, FILE_HEADER_SIZE, 'the header of the table of contents is damaged (checksum mismatch)');
  const length = rh.getUint32(0, true);
  if (rh.getUint32(4, true) !== TOC_TAG) throw new CorruptFileError(path, FILE_HEADER_SIZE + 4, `expected the table of contents (record tag ${TOC_TAG}), found tag ${rh.getUint32(4, true)}`);
  const end = FILE_HEADER_SIZE + recordSize(length);
  if (end > size) throw new CorruptFileError(path, size, `the snapshot ends inside its table of contents (truncated: ${end} bytes needed)`);
  const body = new Uint8Array(end - FILE_HEADER_SIZE - RECORD_HEADER_SIZE);
  await readFully(handle, path, body, FILE_HEADER_SIZE + RECORD_HEADER_SIZE);
  const text = body.subarray(0, length);
  if (crc32(text) !== rh.getUint32(8, true)) throw new CorruptFileError(path, FILE_HEADER_SIZE + RECORD_HEADER_SIZE, 'the table of contents is damaged (checksum mismatch)');
  for (let i = length; i < body.length; i++) if (body[i] !== 0) throw new CorruptFileError(path, FILE_HEADER_SIZE + RECORD_HEADER_SIZE + i, 'padding after the table of contents is not zero');
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text.buffer, text.byteOffset, text.length).toString('utf8'));
  } catch {
    throw new CorruptFileError(path, FILE_HEADER_SIZE + RECORD_HEADER_SIZE, 'the table of contents is not valid JSON');
  }
  return { sequence: header.sequence, toc: checkToc(path, value, FILE_HEADER_SIZE + RECORD_HEADER_SIZE, end), end };
}

/**
 * Reads a snapshot: checks the header and table of contents, then reads each section with one
 * read into a buffer of its own (the arrays are views over these buffers: no per-element
 * work) and checks its checksum and padding.
 * @throws ForeignFileError, FileVersionError, or CorruptFileError naming the path, the byte
 * offset and (for a section) the section's name.
 */
export async function readSnapshot(path: string, options: SnapshotReadOptions = {}): Promise<LoadedSnapshot> {
  const handle = await open(path, 'r');
  try {
    return await readSnapshotFrom(handle, path, options);
  } finally {
    await handle.close();
  }
}

/**
 * Reads a snapshot held in memory (as {@link encodeSnapshot} lays it out; kept in a database
 * by `persistence=postgresql`), with the checks of {@link readSnapshot}; `label` names it in
 * errors as a path would.
 */
export async function decodeSnapshot(label: string, bytes: Uint8Array, options: SnapshotReadOptions = {}): Promise<LoadedSnapshot> {
  // the few calls readSnapshot makes on a file handle, over the bytes
  const handle = {
    read(into: Uint8Array, offset: number, length: number, position: number): Promise<{ bytesRead: number; buffer: Uint8Array }> {
      const piece = bytes.subarray(Math.min(position, bytes.length), Math.min(position + length, bytes.length));
      into.set(piece, offset);
      return Promise.resolve({ bytesRead: piece.length, buffer: into });
    },
    stat(): Promise<{ size: number }> {
      return Promise.resolve({ size: bytes.length });
    },
  };
  return readSnapshotFrom(handle as unknown as FileHandle, label, options);
}

/** {@link readSnapshot} on an open handle. */
async function readSnapshotFrom(handle: FileHandle, path: string, options: SnapshotReadOptions): Promise<LoadedSnapshot> {
  {
    const size = (await handle.stat()).size;
    const { sequence, toc, end } = await readToc(handle, path, size);
    const last = toc[toc.length - 1];
    const expected = last === undefined ? end : last.offset + align8(last.length);
    if (size < expected) throw new CorruptFileError(path, size, `the snapshot is truncated: its sections need ${expected} bytes, the file has ${size}`);
    if (size > expected) throw new CorruptFileError(path, expected, `${size - expected} bytes of unknown data follow the last section`);
    const arrays = new Map<string, SectionArray>();
    const values = new Map<string, unknown>();
    for (const info of toc) {
      const padded = align8(info.length);
      const capacity = Math.max(padded, info.type === 'json' ? 0 : Math.ceil((options.reserve?.(info) ?? 0) / 8) * 8);
      const buffer = new ArrayBuffer(capacity);
      const bytes = new Uint8Array(buffer, 0, padded);
      await readFully(handle, path, bytes, info.offset);
      const data = bytes.subarray(0, info.length);
      const actual = crc32(data);
      if (actual !== info.crc) throw new CorruptFileError(path, info.offset, `section '${info.name}' (${info.length} bytes of ${info.type}) is damaged: checksum ${actual.toString(16)}, expected ${info.crc.toString(16)}`);
      for (let i = info.length; i < padded; i++) if (bytes[i] !== 0) throw new CorruptFileError(path, info.offset + i, `padding after section '${info.name}' is not zero`);
      if (info.type === 'json') {
        try {
          values.set(info.name, JSON.parse(Buffer.from(buffer, 0, info.length).toString('utf8')));
        } catch {
          throw new CorruptFileError(path, info.offset, `section '${info.name}' is not valid JSON`);
        }
      } else {
        const ctor = ARRAY_TYPES[info.type];
        fromLittleEndianInPlace(data, ctor.BYTES_PER_ELEMENT);
        arrays.set(info.name, new ctor(buffer, 0, info.length / ctor.BYTES_PER_ELEMENT));
      }
    }
    return new LoadedSnapshot(path, sequence, size, toc, arrays, values);
  }
}

/** Reads only the header and table of contents of a snapshot (for inspection tools). */
export async function readSnapshotContents(path: string): Promise<{ readonly sequence: number; readonly sections: readonly SectionInfo[] }> {
  const handle = await open(path, 'r');
  try {
    const { sequence, toc } = await readToc(handle, path, (await handle.stat()).size);
    return { sequence, sections: toc };
  } finally {
    await handle.close();
  }
}
