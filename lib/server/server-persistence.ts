/**
 * The server directory of a persistent server (chosen by the server parameters of
 * `persistence-parameters.ts`): the lock, the role database and catalogue documents, and the creation, deletion and loading of
 * the stores' files. Changes that are not transactions (stores created or deleted, roles) are
 * written in the background, one after another, in the order they happened;
 * {@link ServerFiles.settled} resolves when everything so far is on disk.
 *
 * The server loads this module (and with it the whole of persistence/) only when its
 * parameters ask for persistence, so that an in-memory server starts without it.
 * @module
 */
import { WriteQueue } from './write-queue.js';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { removeTemporaryFiles } from '../persistence/atomic-file.js';
import { DirectoryLock } from '../persistence/directory-lock.js';
import { CorruptFileError } from '../persistence/errors.js';
import {
  createStoreDirectory,
  encodeStoreName,
  listStoreDirectories,
  prepareServerDirectory,
  readDocument,
  removeDeletedStoreDirectories,
  removeStoreDirectory,
  type ServerLayout,
  storeLayout,
  writeDocument,
} from '../persistence/layout.js';
import { type DataSourceRegistration, isRegistrationList } from './data-sources.js';
import type { DataStore } from './data-store.js';
import type { AccessFor } from './delta-queries.js';
import type { PersistedRole } from './roles.js';
import { type PersistenceSettings, StorePersistence } from './store-persistence.js';
import type { CatalogueEntry, ServerStorage } from './persistence-target.js';
import type { StoreLoadReport } from './recovery.js';

export type { CatalogueEntry } from './persistence-target.js';

function checkEntries(value: unknown, path: string): CatalogueEntry[] {
  const stores = (value as { stores?: unknown } | null)?.stores;
  if (!Array.isArray(stores)) throw new CorruptFileError(path, 0, 'the server catalogue has no list of stores');
  for (const e of stores as Array<Partial<CatalogueEntry>>) {
    if (typeof e.name !== 'string' || typeof e.directory !== 'string' || typeof e.type !== 'string' || typeof e.uniqueId !== 'string' || typeof e.parameters !== 'object' || e.parameters === null) {
      throw new CorruptFileError(path, 0, `the server catalogue has an invalid entry ${JSON.stringify(e.name)}`);
    }
    if (e.dataSources !== undefined && !isRegistrationList(e.dataSources)) throw new CorruptFileError(path, 0, `the server catalogue has invalid data source registrations for data store ${JSON.stringify(e.name)}`);
  }
  return stores as CatalogueEntry[];
}

/** @internal The open server directory of a persistent server (works on the internal DataStore). */
export class ServerFiles implements ServerStorage {
  private readonly queue = new WriteQueue();
  private readonly entries = new Map<string, CatalogueEntry>();
  private generation = 0;

  private constructor(
    /** The paths. */
    readonly layout: ServerLayout,
    /** How stores are written. */
    readonly settings: PersistenceSettings,
    private readonly lock: DirectoryLock,
  ) {}

  /**
   * Opens a server directory (creating it if missing): takes its lock, removes the temporary
   * files and half-deleted store directories an interrupted run left.
   * @throws DirectoryLockedError while another process uses the directory.
   */
  static async open(directory: string, settings: PersistenceSettings): Promise<ServerFiles> {
    const layout = await prepareServerDirectory(directory);
    const lock = await DirectoryLock.acquire(layout.directory);
    try {
      await removeTemporaryFiles(layout.directory);
      await removeDeletedStoreDirectories(layout);
      return new ServerFiles(layout, settings, lock);
    } catch (e) {
      await lock.release();
      throw e;
    }
  }

  /**
   * Whether the server directory was made by the short path (`open()`), whose only role has a
   * random password made anew at every start: kept in the role database, so that `open()`
   * never takes over (and resets the password of) a directory a server with chosen passwords
   * made. Set by the server when it makes the directory; read from the role database.
   */
  madeByOpen = false;

  /**
   * The persisted roles and the role database's generation when they were written, or
   * undefined for a new server directory. Sets {@link ServerFiles.madeByOpen} from the database.
   */
  async readRoles(): Promise<{ roles: PersistedRole[]; generation: number } | undefined> {
    const doc = await readDocument(this.layout.rolesFile);
    if (doc === undefined) return undefined;
    const value = doc.value as { roles?: unknown; generation?: unknown } | null;
    const roles = value?.roles;
    if (!Array.isArray(roles)) throw new CorruptFileError(this.layout.rolesFile, 0, 'the role database has no list of roles');
    const generation = value?.generation ?? 0;
    if (typeof generation !== 'number' || !Number.isSafeInteger(generation) || generation < 0) throw new CorruptFileError(this.layout.rolesFile, 0, 'the role database has an invalid generation');
    this.madeByOpen = (value as { madeByOpen?: unknown }).madeByOpen === true;
    return { roles: roles as PersistedRole[], generation };
  }

  /** The stores of the catalogue; removes store directories it does not list (creations that never finished). */
  async readCatalogue(): Promise<CatalogueEntry[]> {
    const doc = await readDocument(this.layout.catalogueFile);
    const entries = doc === undefined ? [] : checkEntries(doc.value, this.layout.catalogueFile);
    this.generation = doc?.sequence ?? 0;
    for (const e of entries) this.entries.set(e.name, e);
    const listed = new Set(entries.map((e) => e.directory));
    for (const name of await listStoreDirectories(this.layout)) if (!listed.has(name)) await removeStoreDirectory(this.layout, storeLayout(this.layout, name, name));
    return entries;
  }

  /** Resolves once every write queued so far has finished. */
  settled(): Promise<void> {
    return this.queue.settled();
  }

  /** Queues a rewrite of the role database (mode 0600: it holds password hashes). */
  writeRoles(roles: readonly PersistedRole[], generation: number): Promise<void> {
    const document = this.madeByOpen ? { roles, generation, madeByOpen: true } : { roles, generation };
    return this.queue.run(() => writeDocument(this.layout.rolesFile, document, { mode: 0o600 }));
  }

  private writeCatalogue(): Promise<void> {
    return writeDocument(this.layout.catalogueFile, { stores: [...this.entries.values()] }, { sequence: ++this.generation, mode: 0o600 });
  }

  /** Queues the files of a new store: its directory and empty log, then the catalogue listing it. */
  createStore(store: DataStore): Promise<StorePersistence> {
    return this.queue.run(async () => {
      const directory = encodeStoreName(store.name);
      const layout = storeLayout(this.layout, store.name, directory);
      await removeStoreDirectory(this.layout, layout);
      await createStoreDirectory(this.layout, layout);
      const files = await StorePersistence.create(layout, this.settings);
      this.entries.set(store.name, { name: store.name, directory, type: store.type, parameters: store.parameters, uniqueId: store.uniqueId });
      try {
        await this.writeCatalogue();
      } catch (e) {
        this.entries.delete(store.name);
        throw e;
      }
      return files;
    });
  }

  /**
   * Queues a rewrite of the catalogue with the data source registrations of a store (nothing
   * when the catalogue does not list that store, or lists another store of that name).
   */
  writeDataSources(store: Pick<DataStore, 'name' | 'uniqueId'>, registrations: readonly DataSourceRegistration[]): Promise<void> {
    return this.queue.run(async () => {
      const entry = this.entries.get(store.name);
      if (entry === undefined || entry.uniqueId !== store.uniqueId) return;
      const rest: CatalogueEntry = { name: entry.name, directory: entry.directory, type: entry.type, parameters: entry.parameters, uniqueId: entry.uniqueId };
      this.entries.set(store.name, registrations.length > 0 ? { ...rest, dataSources: registrations } : rest);
      try {
        await this.writeCatalogue();
      } catch (e) {
        this.entries.set(store.name, entry);
        throw e;
      }
    });
  }

  /** Queues the deletion of a store's files: the catalogue first, then its directory. */
  deleteStore(name: string, files: Promise<StorePersistence> | undefined): Promise<void> {
    return this.queue.run(async () => {
      const persistence = await files?.catch(() => undefined);
      await persistence?.close().catch(() => undefined);
      const entry = this.entries.get(name);
      if (entry === undefined) return;
      this.entries.delete(name);
      await this.writeCatalogue();
      await removeStoreDirectory(this.layout, storeLayout(this.layout, name, entry.directory));
    });
  }

  /**
   * Loads a listed store's files into `store`; `roleAccess` gives the access of the role that
   * registered each of its delta queries (undefined when that role no longer exists).
   */
  async loadStore(store: DataStore, entry: CatalogueEntry, roleAccess?: (role: string) => AccessFor | undefined): Promise<{ persistence: StorePersistence; report: StoreLoadReport }> {
    const layout = storeLayout(this.layout, entry.name, entry.directory);
    await removeTemporaryFiles(layout.directory);
    const names = await readdir(layout.directory).catch(() => undefined);
    if (names === undefined) throw new CorruptFileError(layout.directory, 0, `the directory of data store '${entry.name}' is missing`);
    return StorePersistence.load(store, layout, this.settings, roleAccess);
  }

  /** Waits for the queued writes, then releases the lock. */
  async close(): Promise<void> {
    await this.settled();
    await this.lock.release();
  }

  /** The server directory. */
  get directory(): string {
    return this.layout.directory;
  }

  /** Where things are kept, for messages. */
  get description(): string {
    return `the server directory ${this.layout.directory}`;
  }

  /** The path of a store's directory, for messages. */
  storeDirectory(entry: CatalogueEntry): string {
    return join(this.layout.storesDirectory, entry.directory);
  }
}
