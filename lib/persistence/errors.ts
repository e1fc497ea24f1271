/**
 * The errors of the persistence layer: a file that cannot be loaded (foreign, written by a
 * newer version, truncated or damaged: always with its path and the byte offset of the
 * problem), a write that failed (disk full, I/O error: with the path and what was being
 * written), and a server directory held by another process.
 * @module
 */
import { QuadlogError } from '../model/errors.js';

/** Base class of the errors of the persistence layer; `path` names the file or directory. */
export class PersistenceError extends QuadlogError {
  /** The file or directory concerned. */
  readonly path: string;
  /** Creates the error with a message (which should name `path`). */
  constructor(message: string, path: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'PersistenceError';
    this.path = path;
  }
}

/**
 * A file cannot be loaded as what it should be: `offset` is the byte offset where the problem
 * was found and `reason` says what it is. Nothing of such a file past `offset` is ever used as
 * data.
 */
export class FileFormatError extends PersistenceError {
  /** Byte offset of the problem within the file. */
  readonly offset: number;
  /** What is wrong, without the path and offset. */
  readonly reason: string;
  /** Creates the error; the message is `<path>: at byte <offset>: <reason>`. */
  constructor(path: string, offset: number, reason: string, options?: ErrorOptions) {
    super(`${path}: at byte ${offset}: ${reason}`, path, options);
    this.name = 'FileFormatError';
    this.offset = offset;
    this.reason = reason;
  }
}

/** A file is damaged: truncated, a checksum mismatch, an impossible length or structure. */
export class CorruptFileError extends FileFormatError {
  /** Creates the error; the message is `<path>: at byte <offset>: <reason>`. */
  constructor(path: string, offset: number, reason: string, options?: ErrorOptions) {
    super(path, offset, reason, options);
    this.name = 'CorruptFileError';
  }
}

/** A file is not a quadlog file of the expected kind (wrong magic bytes, or another kind). */
export class ForeignFileError extends FileFormatError {
  /** Creates the error; the message is `<path>: at byte <offset>: <reason>`. */
  constructor(path: string, offset: number, reason: string, options?: ErrorOptions) {
    super(path, offset, reason, options);
    this.name = 'ForeignFileError';
  }
}

/** A file was written in a format version this version of quadlog does not read. */
export class FileVersionError extends FileFormatError {
  /** The format version found in the file. */
  readonly version: number;
  /** Creates the error; the message is `<path>: at byte <offset>: <reason>`. */
  constructor(path: string, offset: number, version: number, reason: string, options?: ErrorOptions) {
    super(path, offset, reason, options);
    this.name = 'FileVersionError';
    this.version = version;
  }
}

const WRITE_FAILURES: Readonly<Record<string, string>> = {
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is exhausted',
  EFBIG: 'the file is larger than the file system allows',
  EROFS: 'the file system is read-only',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EIO: 'an I/O error occurred',
  EBADF: 'the file is not open for writing',
};

/**
 * Writing to a file failed. `code` is the system error code (`ENOSPC`, `EIO`, …) when there is
 * one; the message names the path, what was being written and the cause in words ("the disk
 * is full" for ENOSPC). HTTP 507 for a full disk or quota, otherwise 500.
 */
export class StorageWriteError extends PersistenceError {
  override readonly status: number;
  /** The system error code, or undefined. */
  readonly code: string | undefined;
  /** Creates the error: `action` says what failed (e.g. `could not append a transaction to the log`). */
  constructor(path: string, action: string, cause: unknown, consequence = '') {
    const code = errorCode(cause);
    const words = code !== undefined ? (WRITE_FAILURES[code] ?? (cause as Error).message) : cause instanceof Error ? cause.message : String(cause);
    super(`${action} ${path}: ${words}${code !== undefined && WRITE_FAILURES[code] !== undefined ? ` (${code})` : ''}${consequence === '' ? '' : `; ${consequence}`}`, path, { cause });
    this.name = 'StorageWriteError';
    this.code = code;
    this.status = code === 'ENOSPC' || code === 'EDQUOT' ? 507 : 500;
  }
}

/** A server directory is in use by another live process (or by this one). HTTP 409. */
export class DirectoryLockedError extends PersistenceError {
  override readonly status: number = 409;
  /** The process id of the holder. */
  readonly pid: number;
  /** The host name the holder runs on. */
  readonly host: string;
  /** Creates the error with a message naming the directory and the holder. */
  constructor(message: string, directory: string, pid: number, host: string) {
    super(message, directory);
    this.name = 'DirectoryLockedError';
    this.pid = pid;
    this.host = host;
  }
}

/** The `code` of a system error (`ENOENT`, `ENOSPC`, …), or undefined. */
export function errorCode(e: unknown): string | undefined {
  if (typeof e === 'object' && e !== null && 'code' in e && typeof e.code === 'string') return e.code;
  return undefined;
}
