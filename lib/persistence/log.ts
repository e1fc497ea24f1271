/**
 * A store's append-only transaction log: one framed record per committed transaction (see
 * `framing.ts`), numbered by a sequence that continues the one in the file header.
 *
 * Layout: the file header (kind `TLOG`, sequence = the base: the last transaction included in
 * the snapshot this log follows), then records. A record's payload is a u64 little-endian
 * transaction sequence number (base + 1 for the first record, then + 1 each) followed by the
 * body the caller appended (e.g. `transaction-record.ts`); bodies therefore start at a
 * multiple of 8.
 *
 * Opening a log walks it: a torn tail (a write cut short by a crash) or a damaged last record
 * is cut off by truncating the file to the end of the last whole record, and reported. Damage
 * followed by whole records is damage inside the log, not a torn tail: opening refuses it
 * (unless asked to repair, which drops everything from the damage on), since cutting there
 * would silently drop committed transactions.
 *
 * Appends are serialised. A failed write truncates the file back to its previous length, so
 * the log never keeps half a record that a later append would follow; if even that fails, or
 * a flush (fsync) fails, the log refuses further appends until it is reopened.
 *
 * Durability (`durability` option):
 * - `sync` (default): an append resolves only after the record is flushed to the disk
 *   (fdatasync). A commit that was acknowledged survives a crash of the process, of the
 *   operating system and a power loss. Costs one flush per commit (typically 0.1–10 ms).
 * - `relaxed`: an append resolves once the record is handed to the operating system (written,
 *   not flushed); {@link TransactionLog.sync} and {@link TransactionLog.close} flush. An
 *   acknowledged commit survives a crash or kill of the process (the data is in the kernel's
 *   cache), but an operating-system crash or power loss may lose the commits of the last
 *   seconds, since the kernel writes back on its own schedule. Such a loss may leave the log
 *   with a damaged record followed by whole ones (the kernel writes pages in any order);
 *   opening it with `repair: true` then keeps the transactions before the damage.
 * @module
 */
import { link, open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fsyncDirectory, temporaryPathFor, writeChunks } from './atomic-file.js';
import { CorruptFileError, errorCode, PersistenceError, StorageWriteError } from './errors.js';
import { decodeFileHeader, describeTail, encodeFileHeader, encodeRecord, FILE_HEADER_SIZE, type FileKind, LOG_FILE, readFully, type RecordTail, recordSize, walkRecords, type WalkResult } from './framing.js';

/** How an append is made durable: see the module documentation. */
export type Durability = 'sync' | 'relaxed';

/** The record tag of a transaction (the only tag written so far). */
export const TRANSACTION_TAG = 1;

/** One record of the log as it is read back. */
export interface LogRecord {
  /** The transaction's sequence number. */
  readonly sequence: number;
  /** The record tag. */
  readonly tag: number;
  /** The record's byte offset in the log. */
  readonly offset: number;
  /** The body that was appended (a view at a multiple of 8 in its buffer). */
  readonly body: Uint8Array;
}

/**
 * The file operations the log uses while appending. @internal Tests replace them (see
 * {@link LogOptions.wrapIO}) to make writes, flushes or truncation fail.
 */
export interface LogFileIO {
  /** Writes every byte of `chunks` at `position`. */
  write(chunks: readonly Uint8Array[], position: number): Promise<void>;
  /** Flushes the file's data (fdatasync). */
  datasync(): Promise<void>;
  /** Sets the file's length. */
  truncate(length: number): Promise<void>;
  /** Closes the file. */
  close(): Promise<void>;
}

function handleIO(handle: FileHandle): LogFileIO {
  return {
    write: async (chunks, position) => {
      await writeChunks(handle, chunks, position);
    },
    datasync: () => handle.datasync(),
    truncate: (length) => handle.truncate(length),
    close: () => handle.close(),
  };
}

/** Options of {@link TransactionLog.create} and {@link TransactionLog.open}. */
export interface LogOptions {
  /** `sync` (default) or `relaxed`: see the module documentation. */
  readonly durability?: Durability;
  /** @internal Wraps the file operations (tests inject failures with it). */
  readonly wrapIO?: (io: LogFileIO) => LogFileIO;
  /** The kind in the file header (default: the transaction log's; delta-query answers use their own). */
  readonly kind?: FileKind;
}

/** Options of {@link TransactionLog.open}. */
export interface LogOpenOptions extends LogOptions {
  /**
   * Called with each whole record, in order, while the log is walked (awaited). Records are
   * passed before the walk has seen the whole file: when `open` then throws (damage inside the
   * log, a record out of sequence), whatever was built from them must be discarded.
   */
  readonly onRecord?: (record: LogRecord) => void | Promise<void>;
  /**
   * Cut the log at damage that whole records follow, instead of refusing to open it (default
   * false). The records after the damage are lost; the report says how many bytes were cut.
   */
  readonly repair?: boolean;
}

/** What opening a log found. */
export interface LogOpenReport {
  /** The sequence number in the header: the transaction the log follows. */
  readonly baseSequence: number;
  /** The sequence number of the last whole record (the base when there is none). */
  readonly lastSequence: number;
  /** Whole records found. */
  readonly records: number;
  /** What followed the last whole record; not `clean` means that many bytes were cut off. */
  readonly tail: RecordTail;
  /** A sentence describing the cut (undefined when the tail was clean). */
  readonly cut: string | undefined;
}

/** An open transaction log: see the module documentation. */
export class TransactionLog {
  private end: number;
  private last: number;
  private queue: Promise<unknown> = Promise.resolve();
  private broken: PersistenceError | undefined;
  private closed = false;
  private unsynced = false;

  private constructor(
    /** The log's path. */
    readonly path: string,
    private readonly io: LogFileIO,
    /** The sequence number the log follows (the header's). */
    readonly baseSequence: number,
    lastSequence: number,
    end: number,
    /** The durability of appends. */
    readonly durability: Durability,
  ) {
    this.end = end;
    this.last = lastSequence;
  }

  /**
   * Creates an empty log following transaction `baseSequence`, atomically (a temporary file
   * with the header, flushed, renamed to `path`, the directory flushed). With `replace`, an
   * existing log at `path` is replaced; without it, an existing file makes it fail (compaction
   * seals the log and starts the next one with {@link TransactionLog.rotate}).
   */
  static async create(path: string, baseSequence: number, options: LogOptions & { readonly replace?: boolean } = {}): Promise<TransactionLog> {
    const temporary = temporaryPathFor(path);
    let handle: FileHandle | undefined;
    try {
      handle = await open(temporary, 'wx+');
      await writeChunks(handle, [encodeFileHeader(options.kind ?? LOG_FILE, baseSequence)], 0);
      await handle.sync();
      if (options.replace === true) await rename(temporary, path);
      else await linkExclusively(temporary, path);
      await fsyncDirectory(dirname(path));
    } catch (e) {
      await handle?.close().catch(() => undefined);
      await unlink(temporary).catch(() => undefined);
      if (errorCode(e) === 'EEXIST') throw new PersistenceError(`cannot create the transaction log ${path}: the file exists`, path, { cause: e });
      throw new StorageWriteError(path, 'could not create the transaction log', e);
    }
    const io = options.wrapIO ? options.wrapIO(handleIO(handle)) : handleIO(handle);
    return new TransactionLog(path, io, baseSequence, baseSequence, FILE_HEADER_SIZE, options.durability ?? 'sync');
  }

  /**
   * Opens a log for appending: walks its records (passing each to `onRecord`), cuts a torn or
   * damaged tail (truncating the file and flushing it) and returns the log with a report.
   * @throws ForeignFileError, FileVersionError or CorruptFileError (with path and byte offset)
   * for a bad header, a record out of sequence, or damage inside the log (unless `repair`).
   */
  static async open(path: string, options: LogOpenOptions = {}): Promise<{ log: TransactionLog; report: LogOpenReport }> {
    const handle = await open(path, 'r+');
    try {
      const { result, lastSequence } = await walkLog(handle, path, options.onRecord, options.kind);
      const { tail } = result;
      if (tail.kind === 'corrupt' && tail.resumesAt !== undefined && options.repair !== true) {
        throw new CorruptFileError(
          path,
          tail.offset,
          `${tail.reason}; whole records follow at byte ${tail.resumesAt}, so this is damage inside the log, not an interrupted write. ` +
            `The transactions from here on cannot be replayed: restore the file from a backup, or open the log with repair to drop everything from byte ${tail.offset}`,
        );
      }
      let cut: string | undefined;
      if (tail.kind !== 'clean') {
        try {
          await handle.truncate(result.end);
          await handle.datasync();
        } catch (e) {
          throw new StorageWriteError(path, `could not cut ${describeTail(tail)} from the transaction log`, e);
        }
        cut = `cut ${describeTail(tail)} from ${path}; ${result.records} whole records kept`;
      }
      const io = options.wrapIO ? options.wrapIO(handleIO(handle)) : handleIO(handle);
      const log = new TransactionLog(path, io, result.header.sequence, lastSequence, result.end, options.durability ?? 'sync');
      return { log, report: { baseSequence: result.header.sequence, lastSequence, records: result.records, tail, cut } };
    } catch (e) {
      await handle.close().catch(() => undefined);
      throw e;
    }
  }

  /**
   * Seals this log and starts the next one (compaction; see `layout.ts`): writes the header of
   * a new log following the last transaction appended here to a temporary file and flushes it,
   * renames this log's file to `sealedPath` (which must not exist), gives the new file this
   * log's path and flushes the directory. No append may be under way (the caller holds the
   * store's write lock). This log stays open on its file, now named `sealedPath`, until the
   * caller closes it. A crash between the two renames leaves the sealed log and no log at the
   * path: loading then starts a new log after the sealed one.
   * @throws StorageWriteError when the new log cannot be written or renamed (the files are
   * then as they were, this log at its path); when only the final flush of the directory
   * fails, the new log is returned refusing appends (the renames may not survive a crash).
   */
  async rotate(sealedPath: string, options: LogOptions = {}): Promise<TransactionLog> {
    if (this.closed) throw new PersistenceError(`the transaction log ${this.path} is closed`, this.path);
    if (this.broken) throw this.broken;
    const base = this.last;
    const temporary = temporaryPathFor(this.path);
    let handle: FileHandle | undefined;
    let sealed = false;
    try {
      handle = await open(temporary, 'wx+');
      await writeChunks(handle, [encodeFileHeader(LOG_FILE, base)], 0);
      await handle.sync();
      await rename(this.path, sealedPath);
      sealed = true;
      await rename(temporary, this.path);
    } catch (e) {
      if (sealed) await rename(sealedPath, this.path).catch(() => undefined);
      await handle?.close().catch(() => undefined);
      await unlink(temporary).catch(() => undefined);
      throw new StorageWriteError(this.path, 'could not seal the transaction log and start a new one', e, 'the log is as it was');
    }
    const io = options.wrapIO ? options.wrapIO(handleIO(handle)) : handleIO(handle);
    const next = new TransactionLog(this.path, io, base, base, FILE_HEADER_SIZE, options.durability ?? this.durability);
    try {
      await fsyncDirectory(dirname(this.path));
    } catch (e) {
      next.broken = new StorageWriteError(this.path, 'started a new transaction log but could not flush its directory', e, 'it accepts no appends until the server restarts');
    }
    return next;
  }

  /** The sequence number of the last record appended (the base when there is none). */
  get lastSequence(): number {
    return this.last;
  }

  /** The log's length in bytes up to the last whole record (for a compaction threshold). */
  get size(): number {
    return this.end;
  }

  /** Whether the log refuses appends after a failure it could not undo (reopen it). */
  get isBroken(): boolean {
    return this.broken !== undefined;
  }

  /**
   * Appends one transaction record whose body is the concatenation of `body` (not copied) and
   * resolves to its sequence number once it is durable as {@link TransactionLog.durability} says.
   * Appends run one after another in call order.
   * @throws StorageWriteError when the write fails (the log is then as it was before: the
   * transaction is not in it), or when the log was broken by an earlier failure.
   */
  append(body: Uint8Array | readonly Uint8Array[], tag = TRANSACTION_TAG): Promise<number> {
    const parts = body instanceof Uint8Array ? [body] : body;
    const run = this.queue.then(() => this.appendNow(parts, tag));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async appendNow(parts: readonly Uint8Array[], tag: number): Promise<number> {
    if (this.closed) throw new PersistenceError(`the transaction log ${this.path} is closed`, this.path);
    if (this.broken) throw this.broken;
    const sequence = this.last + 1;
    const prefix = new Uint8Array(8);
    new DataView(prefix.buffer).setBigUint64(0, BigInt(sequence), true);
    const chunks = encodeRecord(tag, [prefix, ...parts]);
    const length = recordSize(parts.reduce((n, p) => n + p.byteLength, prefix.byteLength));
    let written = false;
    try {
      await this.io.write(chunks, this.end);
      written = true;
      if (this.durability === 'sync') await this.io.datasync();
      else this.unsynced = true;
    } catch (e) {
      await this.undo(e, written);
      throw new StorageWriteError(this.path, `could not append transaction ${sequence} to the transaction log`, e, this.broken ? 'the transaction was not committed and the log accepts no more appends until the server restarts' : 'the transaction was not committed and the log is as it was before it');
    }
    this.end += length;
    this.last = sequence;
    return sequence;
  }

  /** After a failed append: truncate back to the last whole record; a failed flush or truncation breaks the log. */
  private async undo(cause: unknown, afterWrite: boolean): Promise<void> {
    try {
      await this.io.truncate(this.end);
    } catch (e) {
      this.broken = new StorageWriteError(this.path, 'after a failed append, could not truncate the transaction log', e, 'it accepts no more appends until it is reopened (which cuts the incomplete record)');
      return;
    }
    // a failed flush leaves the kernel's cached pages of the file in an unknown state
    if (afterWrite) this.broken = new StorageWriteError(this.path, 'could not flush the transaction log', cause, 'it accepts no more appends until it is reopened');
  }

  /** Flushes relaxed appends to the disk. */
  sync(): Promise<void> {
    const run = this.queue.then(async () => {
      if (this.closed || !this.unsynced) return;
      try {
        await this.io.datasync();
        this.unsynced = false;
      } catch (e) {
        this.broken ??= new StorageWriteError(this.path, 'could not flush the transaction log', e, 'it accepts no more appends until it is reopened');
        throw this.broken;
      }
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Waits for pending appends, flushes (relaxed mode) and closes the file. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    await this.queue;
    if (this.closed) return;
    this.closed = true;
    try {
      if (this.unsynced && !this.broken) await this.io.datasync();
    } finally {
      await this.io.close();
    }
  }
}

/** Gives `temporary` the name `path` unless `path` exists (EEXIST), then drops the temporary name. */
async function linkExclusively(temporary: string, path: string): Promise<void> {
  try {
    await link(temporary, path);
  } catch (e) {
    const code = errorCode(e);
    if (code === 'EEXIST') throw e;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS' && code !== 'EOPNOTSUPP') throw e;
    // a file system without hard links: claim the name with an empty file, then replace it
    await (await open(path, 'wx')).close();
    await rename(temporary, path);
    return;
  }
  await unlink(temporary);
}

async function walkLog(handle: FileHandle, path: string, onRecord: ((r: LogRecord) => void | Promise<void>) | undefined, kind: FileKind = LOG_FILE): Promise<{ result: WalkResult; lastSequence: number }> {
  let last = -1;
  const result = await walkRecords(handle, path, kind, async (r, header) => {
    if (r.payload.length < 8) throw new CorruptFileError(path, r.offset, `the record is ${r.payload.length} bytes long, too short for a transaction sequence number`);
    const sequence = Number(new DataView(r.payload.buffer, r.payload.byteOffset, 8).getBigUint64(0, true));
    const expected = last < 0 ? header.sequence + 1 : last + 1;
    if (sequence !== expected) {
      throw new CorruptFileError(path, r.offset, `the record holds transaction ${sequence}, expected ${expected} (records are missing, repeated or from another log)`);
    }
    last = sequence;
    if (onRecord) await onRecord({ sequence, tag: r.tag, offset: r.offset, body: r.payload.subarray(8) });
  });
  return { result, lastSequence: result.records > 0 ? last : result.header.sequence };
}

/**
 * The base sequence in the header of the log at `path` (the transaction it follows), read
 * without walking its records.
 * @throws ForeignFileError, FileVersionError or CorruptFileError for a bad header; the
 * file system's error (ENOENT) when the file cannot be opened.
 */
export async function readLogBase(path: string): Promise<number> {
  const handle = await open(path, 'r');
  try {
    const size = (await handle.stat()).size;
    const head = new Uint8Array(Math.min(size, FILE_HEADER_SIZE));
    await readFully(handle, path, head, 0);
    return decodeFileHeader(head, path, LOG_FILE).sequence;
  } finally {
    await handle.close();
  }
}

/**
 * Reads a log without changing it (for inspection tools and tests): its base, its whole
 * records and what follows them.
 */
export async function readLog(path: string): Promise<{ readonly baseSequence: number; readonly records: LogRecord[]; readonly tail: RecordTail; readonly end: number }> {
  const handle = await open(path, 'r');
  try {
    const records: LogRecord[] = [];
    const { result } = await walkLog(handle, path, (r) => {
      records.push(r);
    });
    return { baseSequence: result.header.sequence, records, tail: result.tail, end: result.end };
  } finally {
    await handle.close();
  }
}
