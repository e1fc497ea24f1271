/**
 * One server process per directory: a lock file holding the owner's identity (process id,
 * host name, a process start token), created exclusively with its whole content at once
 * (written to a private file, flushed, then hard-linked under the lock's name, which fails
 * when the name exists).
 *
 * A second process finds the lock, checks whether its owner still runs and refuses to start
 * with an error naming the directory and the owner's pid. A lock whose owner is gone (a
 * process killed with `kill -9`, a machine that rebooted) is stale and is taken over.
 *
 * The start token tells a live owner from an unrelated process that got the same pid later
 * (common in containers, where the server is often pid 1 on every start): on Linux it is the
 * boot id and the process's start time from `/proc`; elsewhere it is empty and only the pid's
 * liveness is checked. A lock written on another host is never judged (its processes cannot
 * be seen from here): the error says to remove the file if no server runs there.
 *
 * Taking over is safe against racing processes: the lock file of a dead owner O may be removed
 * only by the process that created the marker `<lock>.takeover-<id of O>` exclusively, and
 * only after it read the lock again and found O's content, so a fresh lock that replaced the
 * stale one is never removed. A marker whose own creator died is stale in turn and is removed
 * by the same rule, one level up.
 * @module
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, unlinkSync } from 'node:fs';
import { link, open, readdir, readFile, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { DirectoryLockedError, errorCode, PersistenceError } from './errors.js';

/** Who holds a lock. */
export interface LockOwner {
  /** Process id. */
  readonly pid: number;
  /** Host name. */
  readonly host: string;
  /** Process start token (`<boot id>:<start time>` on Linux, '' where unknown). */
  readonly token: string;
  /** When the lock was taken (ISO 8601), which also tells two locks of the same process apart. */
  readonly acquired: string;
}

/** The default name of the lock file in a directory. */
export const LOCK_FILE_NAME = 'lock';

const FORMAT = 'quadlog-directory-lock';

let bootId: string | undefined;

function readBootId(): string {
  if (bootId === undefined) {
    try {
      bootId = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    } catch {
      bootId = '';
    }
  }
  return bootId;
}

/** The /proc stat fields after the command name, or undefined where there is no /proc. */
function procStat(pid: number): string[] | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name is in parentheses and may itself hold spaces and parentheses
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/**
 * The start token of a running process: `<boot id>:<start time in clock ticks>` on Linux,
 * '' where it cannot be known; undefined when the process does not exist (or is a zombie).
 */
export function processStartToken(pid: number): string | undefined {
  const boot = readBootId();
  if (boot === '') return processExists(pid) ? '' : undefined;
  const fields = procStat(pid);
  if (fields === undefined) return processExists(pid) ? '' : undefined;
  if (fields[0] === 'Z' || fields[0] === 'X') return undefined;
  // field 22 of /proc/<pid>/stat, the 20th after the command name
  return `${boot}:${fields[19] ?? ''}`;
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return errorCode(e) === 'EPERM';
  }
}

/** The identity of this process as a new lock owner. */
function me(): LockOwner {
  return { pid: process.pid, host: hostname(), token: processStartToken(process.pid) ?? '', acquired: new Date().toISOString() };
}

/** Whether the owner of a lock still runs: `alive`, `dead`, or `unknown` (another host). */
export function ownerStatus(owner: LockOwner): 'alive' | 'dead' | 'unknown' {
  if (owner.host !== hostname()) return 'unknown';
  const boot = readBootId();
  if (owner.token !== '' && boot !== '' && !owner.token.startsWith(`${boot}:`)) return 'dead'; // written before a reboot
  const token = processStartToken(owner.pid);
  if (token === undefined) return 'dead';
  if (owner.token !== '' && token !== '' && token !== owner.token) return 'dead'; // the pid now belongs to another process
  return 'alive';
}

function sameOwner(a: LockOwner, b: LockOwner): boolean {
  return a.pid === b.pid && a.host === b.host && a.token === b.token && a.acquired === b.acquired;
}

function ownerId(owner: LockOwner): string {
  return createHash('sha256').update(JSON.stringify([owner.pid, owner.host, owner.token, owner.acquired])).digest('hex').slice(0, 24);
}

/** @internal The marker whose exclusive creation gives the right to remove the lock at `lockPath` held by `stale`. */
export function takeoverMarkerPath(lockPath: string, stale: LockOwner): string {
  return `${lockPath}.takeover-${ownerId(stale)}`;
}

/** @internal The content of a lock file held by `owner`. */
export function encodeOwner(owner: LockOwner): string {
  return `${JSON.stringify({ format: FORMAT, version: 1, ...owner })}\n`;
}

function decodeOwner(text: string): LockOwner | undefined {
  try {
    const v = JSON.parse(text) as Record<string, unknown>;
    if (v.format !== FORMAT || !Number.isSafeInteger(v.pid) || typeof v.host !== 'string' || typeof v.token !== 'string' || typeof v.acquired !== 'string') return undefined;
    return { pid: v.pid as number, host: v.host, token: v.token, acquired: v.acquired };
  } catch {
    return undefined;
  }
}

/** The owner recorded in a lock file; undefined when there is no file; 'unreadable' for content that is not a lock. */
async function readOwner(path: string): Promise<LockOwner | 'unreadable' | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    if (errorCode(e) === 'ENOENT') return undefined;
    throw e;
  }
  return decodeOwner(text) ?? 'unreadable';
}

/** The name prefix of the private files a lock's content is written to before it is linked. */
function pendingPrefix(lockPath: string): string {
  return `${basename(lockPath)}.pending-`;
}

/** Creates `path` holding `owner`, whole, or fails with EEXIST when the name is taken; `lockPath` names the pending file. */
async function createExclusive(path: string, owner: LockOwner, lockPath: string): Promise<void> {
  const pending = join(dirname(lockPath), `${pendingPrefix(lockPath)}${process.pid}-${randomBytes(6).toString('hex')}`);
  const handle = await open(pending, 'wx', 0o644);
  try {
    await handle.writeFile(encodeOwner(owner), 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await link(pending, path);
  } catch (e) {
    const code = errorCode(e);
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS' && code !== 'EOPNOTSUPP') throw e;
    // no hard links on this file system: create and fill in place (not atomic: a kill in
    // between leaves an unreadable lock, which is refused with a message, never taken over)
    const h = await open(path, 'wx', 0o644);
    try {
      await h.writeFile(encodeOwner(owner), 'utf8');
      await h.sync();
    } finally {
      await h.close();
    }
  } finally {
    await unlink(pending).catch(() => undefined);
  }
}

/** Removes pending files of processes that no longer run (a kill between write and link). */
async function removeDeadPending(lockPath: string): Promise<void> {
  const prefix = pendingPrefix(lockPath);
  let names: string[];
  try {
    names = await readdir(dirname(lockPath));
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number(name.slice(prefix.length).split('-')[0]);
    if (Number.isSafeInteger(pid) && pid !== process.pid && processStartToken(pid) === undefined) await unlink(join(dirname(lockPath), name)).catch(() => undefined);
  }
}

/** Removes takeover markers whose creators died (called while holding the lock, when no takeover can be under way but a dead one). */
async function removeDeadMarkers(lockPath: string): Promise<void> {
  const prefix = `${basename(lockPath)}.takeover-`;
  let names: string[];
  try {
    names = await readdir(dirname(lockPath));
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const path = join(dirname(lockPath), name);
    const taker = await readOwner(path).catch(() => undefined);
    if (taker !== undefined && taker !== 'unreadable' && ownerStatus(taker) === 'dead') await unlink(path).catch(() => undefined);
  }
}

/** Options of {@link DirectoryLock.acquire}. */
export interface DirectoryLockOptions {
  /** The lock file's name in the directory (default {@link LOCK_FILE_NAME}). */
  readonly fileName?: string;
  /** How long to wait for another process that is taking over a stale lock right now (default 10 s). */
  readonly takeoverTimeoutMs?: number;
}

/** Why an acquisition took over a lock: the stale owner. */
export interface TakenOver {
  /** The owner that was gone. */
  readonly owner: LockOwner;
}

const MAX_DEPTH = 8;

/** A held lock on a directory: see the module documentation. */
export class DirectoryLock {
  private released = false;

  private constructor(
    /** The locked directory. */
    readonly directory: string,
    /** The lock file. */
    readonly path: string,
    /** This process's identity as written in the lock. */
    readonly owner: LockOwner,
    /** The stale owners whose locks were taken over on the way (usually none). */
    readonly tookOver: readonly TakenOver[],
  ) {}

  /**
   * Takes the lock of `directory` (which must exist).
   * @throws DirectoryLockedError naming the directory and the owner's pid while another live
   * process (or this one) holds it, or when it was taken on another host; PersistenceError
   * for a lock file that is not a lock.
   */
  static async acquire(directory: string, options: DirectoryLockOptions = {}): Promise<DirectoryLock> {
    const dir = resolve(directory);
    const path = join(dir, options.fileName ?? LOCK_FILE_NAME);
    const owner = me();
    const tookOver: TakenOver[] = [];
    const deadline = Date.now() + (options.takeoverTimeoutMs ?? 10_000);
    await removeDeadPending(path);
    for (let attempt = 0; ; attempt++) {
      try {
        await createExclusive(path, owner, path);
        await removeDeadMarkers(path);
        return new DirectoryLock(dir, path, owner, tookOver);
      } catch (e) {
        if (errorCode(e) !== 'EEXIST') throw new PersistenceError(`cannot create the lock file ${path}: ${(e as Error).message}`, path, { cause: e });
      }
      const holder = await readOwner(path);
      if (holder === undefined) continue; // released in between: try again
      if (holder === 'unreadable') {
        throw new PersistenceError(`the server directory ${dir} has a lock file ${path} that is not a quadlog lock; if no quadlog server uses the directory, delete the file`, dir);
      }
      const status = ownerStatus(holder);
      if (status === 'alive') {
        const who = holder.pid === process.pid && holder.token === owner.token ? 'this process' : `process ${holder.pid}`;
        throw new DirectoryLockedError(`the server directory ${dir} is in use by ${who} (since ${holder.acquired}); only one server process can use a directory`, dir, holder.pid, holder.host);
      }
      if (status === 'unknown') {
        throw new DirectoryLockedError(
          `the server directory ${dir} is locked by process ${holder.pid} on host ${holder.host} (since ${holder.acquired}); if no server runs there any more, delete ${path}`,
          dir,
          holder.pid,
          holder.host,
        );
      }
      if (await displace(path, path, holder, owner, deadline, 0)) tookOver.push({ owner: holder });
      if (attempt > 100) throw new PersistenceError(`could not take the lock ${path}: it keeps changing`, dir);
    }
  }

  /** Whether {@link DirectoryLock.release} was called. */
  get isReleased(): boolean {
    return this.released;
  }

  /** Removes the lock file (if it is still this process's). Idempotent. */
  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    const holder = await readOwner(this.path);
    if (holder !== undefined && holder !== 'unreadable' && sameOwner(holder, this.owner)) await unlink(this.path).catch(() => undefined);
  }

  /** {@link DirectoryLock.release} for an exit handler, where nothing asynchronous runs. */
  releaseSync(): void {
    if (this.released) return;
    this.released = true;
    try {
      const holder = decodeOwner(readFileSync(this.path, 'utf8'));
      if (holder !== undefined && sameOwner(holder, this.owner)) unlinkSync(this.path);
    } catch {
      // nothing to release
    }
  }

  /** Releases the lock, for `await using`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.release();
  }
}

/**
 * Removes the file at `path` (the lock at `lockPath`, or a takeover marker of it) if it still
 * holds `stale` (whose owner is gone), under the marker that makes this process the only one
 * allowed to. Returns whether it removed it.
 */
async function displace(lockPath: string, path: string, stale: LockOwner, self: LockOwner, deadline: number, depth: number): Promise<boolean> {
  if (depth > MAX_DEPTH) throw new PersistenceError(`could not take over the stale lock ${lockPath}: too many interrupted takeovers`, lockPath);
  const marker = takeoverMarkerPath(lockPath, stale);
  for (;;) {
    try {
      await createExclusive(marker, self, lockPath);
      break;
    } catch (e) {
      if (errorCode(e) !== 'EEXIST') throw e;
    }
    const taker = await readOwner(marker);
    if (taker === undefined) continue;
    if (taker === 'unreadable') throw new PersistenceError(`the takeover marker ${marker} is not readable; if no quadlog server is starting, delete it`, marker);
    const status = ownerStatus(taker);
    if (status === 'dead') {
      await displace(lockPath, marker, taker, self, deadline, depth + 1);
      continue;
    }
    // another live process is taking this stale lock over right now: it finishes at once
    if (Date.now() > deadline) throw new DirectoryLockedError(`the stale lock ${lockPath} is being taken over by process ${taker.pid}, which does not finish`, dirname(lockPath), taker.pid, taker.host);
    await sleep(10);
    const current = await readOwner(path);
    if (current === undefined || current === 'unreadable' || !sameOwner(current, stale)) return false;
  }
  try {
    const current = await readOwner(path);
    if (current === undefined || current === 'unreadable' || !sameOwner(current, stale)) return false;
    await unlink(path);
    return true;
  } finally {
    await unlink(marker).catch(() => undefined);
  }
}
