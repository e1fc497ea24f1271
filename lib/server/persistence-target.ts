/**
 * The seam between a persistent server and where it keeps things: a server directory
 * (`server-persistence.ts`, `store-persistence.ts`) or PostgreSQL (`pg-server-persistence.ts`,
 * `pg-store-log.ts`). {@link ServerStorage} holds the role database and the store catalogue
 * and opens each store's {@link StoreLog}, where its commits are logged and its snapshots go.
 * @module
 */
import type { TransactionChanges } from '../storage/change-log.js';
import type { WriteTransaction } from '../storage/fact-store.js';
import type { DataSourceRegistration } from './data-sources.js';
import type { DataStore } from './data-store.js';
import type { AccessFor } from './delta-queries.js';
import type { DeltaQueryFiles } from './delta-query-persistence.js';
import type { StoreLoadReport } from './recovery.js';
import type { PersistedRole } from './roles.js';

/** Where one store's commits are logged and its snapshots written. @internal */
export interface StoreLog {
  /**
   * Logs a transaction about to be published (`explicit`: its explicit changes); resolves once
   * the record is durable. @throws when it is not (the commit then rolls back).
   */
  append(store: DataStore, tx: WriteTransaction, explicit: TransactionChanges): Promise<void>;
  /** Whether the log has grown enough since the last snapshot to write a new one. */
  readonly wantsCompaction: boolean;
  /** Writes a snapshot of the committed state and drops the log it covers. */
  compact(store: DataStore, timeoutMs: number): Promise<void>;
  /** Flushes and closes. */
  close(): Promise<void>;
  /** Where the store's delta queries are kept, when they are (server directories only). */
  readonly deltaQueries?: DeltaQueryFiles | undefined;
}

/** A store as the server catalogue lists it. */
export interface CatalogueEntry {
  /** The store's name. */
  readonly name: string;
  /** Its directory under `stores/` (a server directory), or its unique id (PostgreSQL). */
  readonly directory: string;
  /** Its type. */
  readonly type: string;
  /** Its creation parameters (with defaults). */
  readonly parameters: Readonly<Record<string, string>>;
  /** Its unique id. */
  readonly uniqueId: string;
  /**
   * Its data source registrations with their real parameters (passwords included: the
   * catalogue file has mode 0600); absent when it has none.
   */
  readonly dataSources?: readonly DataSourceRegistration[];
}

/** Where a persistent server keeps its roles, catalogue and stores. @internal */
export interface ServerStorage {
  /** Whether the roles were made by `open()` (see `ServerFiles.madeByOpen`). */
  madeByOpen: boolean;
  /** The server directory, or undefined when the server persists elsewhere. */
  readonly directory: string | undefined;
  /** Where things are kept, for messages (`the server directory /x`, `PostgreSQL schema quadlog`). */
  readonly description: string;
  /** The persisted roles, or undefined for a new server. */
  readRoles(): Promise<{ roles: PersistedRole[]; generation: number } | undefined>;
  /** Saves the role database. */
  writeRoles(roles: readonly PersistedRole[], generation: number): Promise<void>;
  /** The stores of the catalogue. */
  readCatalogue(): Promise<CatalogueEntry[]>;
  /** Adds a new store (empty) to the catalogue and returns its log. */
  createStore(store: DataStore): Promise<StoreLog>;
  /** Saves a store's data source registrations. */
  writeDataSources(store: Pick<DataStore, 'name' | 'uniqueId'>, registrations: readonly DataSourceRegistration[]): Promise<void>;
  /** Deletes a store (after closing its log). */
  deleteStore(name: string, files: Promise<StoreLog> | undefined): Promise<void>;
  /** Loads a listed store into `store` (new and empty). */
  loadStore(store: DataStore, entry: CatalogueEntry, roleAccess?: (role: string) => AccessFor | undefined): Promise<{ persistence: StoreLog; report: StoreLoadReport }>;
  /** Where a store is kept, for messages. */
  storeDirectory(entry: CatalogueEntry): string;
  /** Resolves once every change queued so far is written. */
  settled(): Promise<void>;
  /** Waits for the queued writes and lets go of what it holds. */
  close(): Promise<void>;
}
