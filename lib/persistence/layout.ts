/**
 * Where the files of a server live under its server directory, and the server-level documents
 * (the catalogue of stores, the role database) written atomically:
 *
 * ```text
 * <server-directory>/
 *   lock                        directory lock (directory-lock.ts)
 *   server-catalogue.qdoc       server document: the stores with their parameters
 *   roles.qdoc                  server document: the role database (mode 0600: password hashes)
 *   stores/
 *     <encoded store name>/
 *       snapshot.qsnap          the store's latest snapshot (snapshot.ts)
 *       transactions.qlog       transactions committed since it (log.ts)
 *       transactions.<n>.qlog   sealed logs (only while a compaction is under way, or after one failed)
 * ```
 *
 * A compaction seals the log (renames it to `transactions.<n>.qlog`, `<n>` its base sequence)
 * and starts a new `transactions.qlog` after it, then writes the new snapshot and deletes the
 * sealed logs. Loading reads the snapshot, then the sealed logs in the order of their base
 * sequence and the log, skipping what the snapshot already holds.
 *
 * A store's directory name is its name encoded so that it is a safe file name on every common
 * file system whatever the name holds: `a`–`z`, `0`–`9`, `_` and `-` stay; an upper-case letter
 * becomes `^` and the letter in lower case (so names differing in case never collide on a
 * case-insensitive file system); every other byte of the UTF-8 form becomes `%XX` (upper-case
 * hex), the first letter of a name reserved on Windows (`con`, `nul`, `com1`, …) too. A name
 * whose encoding exceeds {@link MAX_ENCODED_NAME} characters is shortened and given a hash
 * suffix after `~`; such a name cannot be decoded, so the server catalogue records each store's
 * directory name. Encoded names never hold `.`, which marks the other entries of `stores/`
 * (directories being deleted).
 *
 * A server document is the file header (kind `SDOC`, sequence = the document's generation)
 * followed by exactly one framed record (tag 1) holding UTF-8 JSON.
 * @module
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, readdir, rename, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fsyncDirectory, writeFileAtomically } from './atomic-file.js';
import { CorruptFileError, errorCode, StorageWriteError } from './errors.js';
import { describeTail, DOCUMENT_FILE, encodeFileHeader, encodeRecord, type FramedRecord, walkRecords } from './framing.js';
import { LOCK_FILE_NAME } from './directory-lock.js';

/** File name of the server catalogue document. */
export const SERVER_CATALOGUE_FILE = 'server-catalogue.qdoc';
/** File name of the role database document. */
export const ROLES_FILE = 'roles.qdoc';
/** Name of the directory holding one directory per store. */
export const STORES_DIRECTORY = 'stores';
/** File name of a store's snapshot. */
export const STORE_SNAPSHOT_FILE = 'snapshot.qsnap';
/** File name of a store's transaction log. */
export const STORE_LOG_FILE = 'transactions.qlog';
/** The name of a sealed log of a store: `transactions.<base>.qlog`, with `-<suffix>` after the base when that name is taken. */
const SEALED_LOG = /^transactions\.\d+(-[0-9a-f]+)?\.qlog$/;
/** The longest encoded store name used as it is. */
export const MAX_ENCODED_NAME = 200;

/** The paths of a server directory. */
export interface ServerLayout {
  /** The server directory (absolute). */
  readonly directory: string;
  /** The lock file. */
  readonly lockFile: string;
  /** The server catalogue document. */
  readonly catalogueFile: string;
  /** The role database document. */
  readonly rolesFile: string;
  /** The directory of the stores' directories. */
  readonly storesDirectory: string;
}

/** The paths of one store. */
export interface StoreLayout {
  /** The store's name. */
  readonly name: string;
  /** Its directory. */
  readonly directory: string;
  /** Its snapshot file. */
  readonly snapshotFile: string;
  /** Its transaction log. */
  readonly logFile: string;
}

/** The paths under a server directory. */
export function serverLayout(directory: string): ServerLayout {
  const dir = resolve(directory);
  return {
    directory: dir,
    lockFile: join(dir, LOCK_FILE_NAME),
    catalogueFile: join(dir, SERVER_CATALOGUE_FILE),
    rolesFile: join(dir, ROLES_FILE),
    storesDirectory: join(dir, STORES_DIRECTORY),
  };
}

/** The paths of a store, in the directory {@link encodeStoreName} gives it (or `directoryName`, as the catalogue recorded it). */
export function storeLayout(server: ServerLayout, name: string, directoryName = encodeStoreName(name)): StoreLayout {
  if (directoryName === '' || directoryName.includes('.') || directoryName.includes('/') || directoryName.includes('\\')) throw new RangeError(`invalid store directory name '${directoryName}'`);
  const directory = join(server.storesDirectory, directoryName);
  return { name, directory, snapshotFile: join(directory, STORE_SNAPSHOT_FILE), logFile: join(directory, STORE_LOG_FILE) };
}

/**
 * The path a compaction gives the log of a store it seals, the log's base sequence in its
 * name (`suffix`, when given, tells apart two sealed logs of the same base).
 */
export function sealedLogFile(store: StoreLayout, base: number, suffix?: string): string {
  return join(store.directory, `transactions.${base}${suffix === undefined ? '' : `-${suffix}`}.qlog`);
}

/** The paths of a store's sealed logs (see the module documentation), in no particular order. */
export async function listSealedLogs(store: StoreLayout): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(store.directory);
  } catch (e) {
    if (errorCode(e) === 'ENOENT') return [];
    throw e;
  }
  return names.filter((n) => SEALED_LOG.test(n)).map((n) => join(store.directory, n));
}

/** Names Windows reserves (as encoded: only lower-case ASCII can match). */
const RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/;

function hex(byte: number): string {
  return `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
}

/** The directory name of a store name (see the module documentation). */
export function encodeStoreName(name: string): string {
  if (name === '') throw new RangeError('a store name must not be empty');
  let out = '';
  for (const byte of Buffer.from(name, 'utf8')) {
    const c = String.fromCharCode(byte);
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c === '_' || c === '-') out += c;
    else if (c >= 'A' && c <= 'Z') out += `^${c.toLowerCase()}`;
    else out += hex(byte);
  }
  if (RESERVED.test(out)) out = hex(out.charCodeAt(0)) + out.slice(1);
  if (out.length > MAX_ENCODED_NAME) {
    const digest = createHash('sha256').update(name, 'utf8').digest('hex').slice(0, 16);
    let cut = MAX_ENCODED_NAME - 17;
    // do not split an escape
    while (cut > 0 && (out[cut - 1] === '^' || out[cut - 1] === '%' || out[cut - 2] === '%')) cut--;
    out = `${out.slice(0, cut)}~${digest}`;
  }
  return out;
}

/** The store name of a directory name made by {@link encodeStoreName}; undefined for a shortened name or another entry. */
export function decodeStoreName(directoryName: string): string | undefined {
  const bytes: number[] = [];
  for (let i = 0; i < directoryName.length; i++) {
    const c = directoryName[i]!;
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c === '_' || c === '-') bytes.push(c.charCodeAt(0));
    else if (c === '^') {
      const next = directoryName[i + 1];
      if (next === undefined || next < 'a' || next > 'z') return undefined;
      bytes.push(next.toUpperCase().charCodeAt(0));
      i++;
    } else if (c === '%') {
      const h = directoryName.slice(i + 1, i + 3);
      if (!/^[0-9A-F]{2}$/.test(h)) return undefined;
      bytes.push(parseInt(h, 16));
      i += 2;
    } else return undefined;
  }
  const name = new TextDecoder('utf-8', { fatal: false }).decode(Uint8Array.from(bytes));
  return name !== '' && encodeStoreName(name) === directoryName ? name : undefined;
}

/**
 * Creates the server directory (mode 0700) and its `stores` directory if missing, flushing
 * the parents so that they survive a crash, and returns its layout.
 */
export async function prepareServerDirectory(directory: string): Promise<ServerLayout> {
  const layout = serverLayout(directory);
  try {
    await mkdir(layout.directory, { recursive: true, mode: 0o700 });
    await mkdir(layout.storesDirectory, { recursive: true, mode: 0o700 });
    await fsyncDirectory(layout.directory);
    await fsyncDirectory(resolve(layout.directory, '..'));
  } catch (e) {
    throw new StorageWriteError(layout.directory, 'could not prepare the server directory', e);
  }
  return layout;
}

/** The directory names under `stores/` that can be store directories (no `.` in them). */
export async function listStoreDirectories(server: ServerLayout): Promise<string[]> {
  try {
    const entries = await readdir(server.storesDirectory, { withFileTypes: true });
    return entries.filter((e) => e.isDirectory() && !e.name.includes('.')).map((e) => e.name).sort();
  } catch (e) {
    if (errorCode(e) === 'ENOENT') return [];
    throw e;
  }
}

/** Creates a store's directory (it must not exist) and flushes `stores/`. */
export async function createStoreDirectory(server: ServerLayout, store: StoreLayout): Promise<void> {
  try {
    await mkdir(store.directory, { mode: 0o700 });
    await fsyncDirectory(server.storesDirectory);
  } catch (e) {
    throw new StorageWriteError(store.directory, 'could not create the store directory', e);
  }
}

/**
 * Deletes a store's directory: renames it out of the way first (atomic: after a crash the store
 * is either whole or gone), flushes `stores/`, then removes the renamed directory.
 */
export async function removeStoreDirectory(server: ServerLayout, store: StoreLayout): Promise<void> {
  const doomed = join(server.storesDirectory, `.deleted-${randomBytes(6).toString('hex')}`);
  try {
    await rename(store.directory, doomed);
    await fsyncDirectory(server.storesDirectory);
  } catch (e) {
    if (errorCode(e) === 'ENOENT') return;
    throw new StorageWriteError(store.directory, 'could not delete the store directory', e);
  }
  await rm(doomed, { recursive: true, force: true });
}

/** Removes what interrupted store deletions left under `stores/`. */
export async function removeDeletedStoreDirectories(server: ServerLayout): Promise<void> {
  let names: string[];
  try {
    names = await readdir(server.storesDirectory);
  } catch {
    return;
  }
  for (const name of names) if (name.startsWith('.deleted-')) await rm(join(server.storesDirectory, name), { recursive: true, force: true });
}

/** Record tag of a document's content. */
const DOCUMENT_TAG = 1;

/** Options of {@link writeDocument}. */
export interface DocumentWriteOptions {
  /** The document's generation, stored in the header (default 0). */
  readonly sequence?: number;
  /** Flush before returning (default true). */
  readonly durable?: boolean;
  /** Permission bits (default 0o600: documents may hold password hashes). */
  readonly mode?: number;
}

/**
 * Replaces a server document atomically with `value` as JSON (see `atomic-file.ts`).
 * @throws StorageWriteError (the previous document is then unchanged).
 */
export async function writeDocument(path: string, value: unknown, options: DocumentWriteOptions = {}): Promise<void> {
  const text = JSON.stringify(value);
  if (text === undefined) throw new TypeError('the document cannot be written as JSON');
  const chunks = [encodeFileHeader(DOCUMENT_FILE, options.sequence ?? 0), ...encodeRecord(DOCUMENT_TAG, [Buffer.from(text, 'utf8')])];
  await writeFileAtomically(path, chunks, { durable: options.durable ?? true, mode: options.mode ?? 0o600, what: 'the server document' });
}

/**
 * Reads a server document: its generation and value, or undefined when the file does not exist.
 * @throws ForeignFileError, FileVersionError or CorruptFileError (with path and byte offset).
 */
export async function readDocument(path: string): Promise<{ readonly sequence: number; readonly value: unknown } | undefined> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (e) {
    if (errorCode(e) === 'ENOENT') return undefined;
    throw e;
  }
  try {
    const records: FramedRecord[] = [];
    const result = await walkRecords(handle, path, DOCUMENT_FILE, (r) => {
      records.push(r);
    });
    if (result.tail.kind !== 'clean') throw new CorruptFileError(path, result.end, `the server document ends with ${describeTail(result.tail)}`);
    const record = records[0];
    if (record === undefined || records.length !== 1) throw new CorruptFileError(path, result.end, `a server document holds one record, this one has ${records.length}`);
    if (record.tag !== DOCUMENT_TAG) throw new CorruptFileError(path, record.offset + 4, `unknown record tag ${record.tag}`);
    let value: unknown;
    try {
      value = JSON.parse(Buffer.from(record.payload.buffer, record.payload.byteOffset, record.payload.length).toString('utf8'));
    } catch {
      throw new CorruptFileError(path, record.offset + 16, 'the document is not valid JSON');
    }
    return { sequence: result.header.sequence, value };
  } finally {
    await handle.close();
  }
}
