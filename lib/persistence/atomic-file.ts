/**
 * Durable, atomic file replacement: a new version of a file is written to a temporary file in
 * the same directory, flushed (fsync), renamed over the old one, and the directory is flushed,
 * so that after a crash at any point the path holds either the whole old file or the whole
 * new one. Leftover temporary files of a crash are recognised by their names
 * (`<name>.tmp-<pid>-<random>`) and removed by {@link removeTemporaryFiles}.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { open, readdir, rename, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { errorCode, StorageWriteError } from './errors.js';

/** Whether a file name is that of a temporary file of {@link writeFileAtomically}. */
export function isTemporaryFileName(name: string): boolean {
  return /\.tmp-\d+-[0-9a-f]{12}$/.test(name);
}

/** A fresh temporary path next to `path`. */
export function temporaryPathFor(path: string): string {
  return `${path}.tmp-${process.pid}-${randomBytes(6).toString('hex')}`;
}

/** IOV_MAX on common systems: the most buffers one writev call takes. */
const MAX_BUFFERS = 1024;

/**
 * Writes every byte of `chunks` at `position` of an open file, continuing after short writes
 * (a single write call moves at most about 2 GiB).
 */
export async function writeChunks(handle: FileHandle, chunks: readonly Uint8Array[], position: number): Promise<number> {
  let pending = chunks.filter((c) => c.byteLength > 0);
  let at = position;
  while (pending.length > 0) {
    const batch = pending.slice(0, MAX_BUFFERS);
    const { bytesWritten } = await handle.writev(batch, at);
    at += bytesWritten;
    let left = bytesWritten;
    let k = 0;
    while (k < pending.length && left >= pending[k]!.byteLength) left -= pending[k++]!.byteLength;
    pending = pending.slice(k);
    if (left > 0) pending[0] = pending[0]!.subarray(left);
    if (bytesWritten === 0 && pending.length > 0) throw Object.assign(new Error('the write made no progress'), { code: 'EIO' });
  }
  return at - position;
}

/**
 * Flushes a directory's entries (after a rename or file creation in it). Platforms that cannot
 * open or flush a directory (Windows) skip it: there, rename is made durable by the file system.
 */
export async function fsyncDirectory(directory: string): Promise<void> {
  let handle: FileHandle;
  try {
    handle = await open(directory, 'r');
  } catch (e) {
    if (process.platform === 'win32' || errorCode(e) === 'EISDIR') return;
    throw e;
  }
  try {
    await handle.sync();
  } catch (e) {
    const code = errorCode(e);
    if (code !== 'EINVAL' && code !== 'EPERM' && code !== 'EISDIR' && code !== 'ENOTSUP') throw e;
  } finally {
    await handle.close();
  }
}

/** Options of {@link writeFileAtomically}. */
export interface AtomicWriteOptions {
  /** Flush the file and its directory before returning (default true); without it a crash may lose the new version, though never half of it past a rename the disk kept. */
  readonly durable?: boolean;
  /** The file's permission bits (default 0o644; the role database uses 0o600). */
  readonly mode?: number;
  /** What the file is, for error messages (default `the file`). */
  readonly what?: string;
}

/**
 * Replaces the file at `path` with `chunks`, atomically: temporary file, write, fsync, rename,
 * fsync of the directory. On failure the temporary file is removed and the old file (if any)
 * is left as it was.
 * @throws StorageWriteError naming the path and the cause (for ENOSPC: the disk is full).
 */
export async function writeFileAtomically(path: string, chunks: readonly Uint8Array[], options: AtomicWriteOptions = {}): Promise<void> {
  const durable = options.durable ?? true;
  const what = options.what ?? 'the file';
  const temporary = temporaryPathFor(path);
  let handle: FileHandle | undefined;
  try {
    handle = await open(temporary, 'wx', options.mode ?? 0o644);
    await writeChunks(handle, chunks, 0);
    if (durable) await handle.sync();
    await handle.close();
    handle = undefined;
    await rename(temporary, path);
  } catch (e) {
    if (handle !== undefined) await handle.close().catch(() => undefined);
    await unlink(temporary).catch(() => undefined);
    throw new StorageWriteError(path, `could not write ${what}`, e, 'the previous version of the file is unchanged');
  }
  if (durable) {
    try {
      await fsyncDirectory(dirname(path));
    } catch (e) {
      throw new StorageWriteError(dirname(path), `wrote ${what} ${basename(path)} but could not flush its directory`, e, 'the new version may not survive a crash');
    }
  }
}

/**
 * Removes the temporary files that an interrupted {@link writeFileAtomically} left in
 * `directory` (call it only while holding the directory's lock, when no write is under way).
 * Returns the names removed.
 */
export async function removeTemporaryFiles(directory: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(directory);
  } catch (e) {
    if (errorCode(e) === 'ENOENT') return [];
    throw e;
  }
  const removed: string[] = [];
  for (const name of names) {
    if (!isTemporaryFileName(name)) continue;
    try {
      await unlink(join(directory, name));
      removed.push(name);
    } catch (e) {
      if (errorCode(e) !== 'ENOENT') throw e;
    }
  }
  return removed;
}
