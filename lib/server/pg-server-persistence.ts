/**
 * The {@link ServerStorage} of a replicated server (`persistence=postgresql`): the role
 * database, the store catalogue and the stores' logs and snapshots in PostgreSQL tables
 * (`persistence/pg-schema.ts`). Writes (roles, stores created or deleted, data sources) are
 * made by the writer only, fenced by its term, one after another in the order they happened;
 * on a replica they are not made (the role and catalogue changes a replica refuses never get
 * here; its own set-up, e.g. `quadlog serve`'s grants to `guest`, stays local and is replaced
 * by the writer's at the next sync).
 *
 * The server loads this module (and `pg`) only when its parameters ask for PostgreSQL.
 * @module
 */
import { WriteQueue } from './write-queue.js';
import { pgSettingsOf, type PgConnectionSettings } from '../datasources/libpq-conninfo.js';
import { BadRequestError } from '../model/errors.js';
import { PgDatabase } from '../persistence/pg-database.js';
import { type DataSourceRegistration, isRegistrationList } from './data-sources.js';
import type { DataStore } from './data-store.js';
import type { PostgresSettings } from './persistence-parameters.js';
import type { CatalogueEntry, ServerStorage, StoreLog } from './persistence-target.js';
import { bootstrapStore, PgStoreLog } from './pg-store-log.js';
import type { StoreLoadReport } from './recovery.js';
import { Replication } from './replication.js';
import type { PersistedRole } from './roles.js';

/** The `pg` client settings of a connection string. */
function clientConfig(settings: PgConnectionSettings): Record<string, unknown> {
  const { tls, connectTimeoutMs, ...rest } = settings;
  const config: Record<string, unknown> = { ...rest, connectionTimeoutMillis: connectTimeoutMs ?? 10_000, application_name: settings.application_name ?? 'quadlog' };
  if (tls === 'none') config.ssl = { rejectUnauthorized: false };
  else if (tls === 'ca') config.ssl = { rejectUnauthorized: true, checkServerIdentity: () => undefined };
  else if (tls === 'full') config.ssl = { rejectUnauthorized: true };
  return config;
}

/** @internal The roles, catalogue and stores of a replicated server in PostgreSQL. */
export class PgServerStorage implements ServerStorage {
  madeByOpen = false;
  private readonly queue = new WriteQueue();
  /** The logs of the stores, by unique id. */
  readonly logs = new Map<string, PgStoreLog>();

  private constructor(
    /** The node (lease, following, status). */
    readonly replication: Replication,
  ) {}

  /**
   * Connects to PostgreSQL (creating the tables on first start) and tries to take the writer
   * lease. @throws BadRequestError for a bad connection string, ReplicationError when
   * PostgreSQL cannot be reached.
   */
  static async open(settings: PostgresSettings): Promise<PgServerStorage> {
    let connection: PgConnectionSettings;
    try {
      connection = pgSettingsOf(settings.connectionString, 'persistence');
    } catch (e) {
      throw new BadRequestError(`invalid server parameter 'persistence-connection-string': ${(e as Error).message.replace(/^invalid connection-string of data source 'persistence' /, '')}`, { cause: e });
    }
    const db = await PgDatabase.open(clientConfig(connection), settings.schema);
    const replication = new Replication(db, settings, settings.nodeUrl);
    try {
      await replication.claim();
    } catch (e) {
      await db.close();
      throw e;
    }
    return new PgServerStorage(replication);
  }

  /** No server directory. */
  get directory(): undefined {
    return undefined;
  }

  /** Where things are kept, for messages. */
  get description(): string {
    return `PostgreSQL schema '${this.replication.db.schema}'`;
  }

  /** Resolves once every write queued so far has finished. */
  settled(): Promise<void> {
    return this.queue.settled();
  }

  /** The roles PostgreSQL holds, with the generation of the roles and catalogue. */
  async readState(): Promise<{ roles: { roles: PersistedRole[]; generation: number } | undefined; generation: number }> {
    const state = await this.replication.db.serverState();
    const value = state.roles as { roles?: unknown; generation?: unknown; madeByOpen?: unknown } | undefined;
    if (value === undefined || !Array.isArray(value.roles)) return { roles: undefined, generation: state.generation };
    this.madeByOpen = value.madeByOpen === true;
    const generation = typeof value.generation === 'number' ? value.generation : 0;
    return { roles: { roles: value.roles as PersistedRole[], generation }, generation: state.generation };
  }

  /** The persisted roles, or undefined before a writer wrote them. */
  async readRoles(): Promise<{ roles: PersistedRole[]; generation: number } | undefined> {
    return (await this.readState()).roles;
  }

  /** Queues a write of the role database (nothing on a replica). */
  writeRoles(roles: readonly PersistedRole[], generation: number): Promise<void> {
    const document = this.madeByOpen ? { roles, generation, madeByOpen: true } : { roles, generation };
    return this.queue.run(async () => {
      if (!this.replication.writable) return;
      await this.replication.db.writeRoles(this.replication.writerTerm(), this.replication.nodeId, document);
    });
  }

  /** The stores of the catalogue. */
  async readCatalogue(): Promise<CatalogueEntry[]> {
    const rows = await this.replication.db.catalogue();
    return rows.map((r) => {
      const entry: CatalogueEntry = { name: r.name, directory: r.uniqueId, type: r.type, parameters: r.parameters, uniqueId: r.uniqueId };
      return isRegistrationList(r.dataSources) && r.dataSources.length > 0 ? { ...entry, dataSources: r.dataSources } : entry;
    });
  }

  /** The log of a store (made when missing). */
  logFor(uniqueId: string): PgStoreLog {
    let log = this.logs.get(uniqueId);
    if (log === undefined) this.logs.set(uniqueId, (log = new PgStoreLog(this.replication, uniqueId)));
    return log;
  }

  /** Queues the creation of a store in the catalogue (writer only). */
  createStore(store: DataStore): Promise<StoreLog> {
    const term = this.replication.writerTerm();
    return this.queue.run(async () => {
      await this.replication.db.insertStore(term, this.replication.nodeId, { name: store.name, uniqueId: store.uniqueId, type: store.type, parameters: store.parameters, dataSources: undefined });
      // its first record logs the dictionary from its first term on
      return this.logFor(store.uniqueId);
    });
  }

  /** Queues a write of a store's data source registrations (nothing on a replica). */
  writeDataSources(store: Pick<DataStore, 'name' | 'uniqueId'>, registrations: readonly DataSourceRegistration[]): Promise<void> {
    return this.queue.run(async () => {
      if (!this.replication.writable) return;
      await this.replication.db.writeDataSources(this.replication.writerTerm(), this.replication.nodeId, store.uniqueId, registrations.length > 0 ? registrations : undefined);
    });
  }

  /** Queues the deletion of a store (writer only; a replica forgets it locally). */
  deleteStore(name: string, files: Promise<StoreLog> | undefined): Promise<void> {
    return this.queue.run(async () => {
      const log = await files?.catch(() => undefined);
      await log?.close().catch(() => undefined);
      if (log instanceof PgStoreLog) this.logs.delete(log.storeId);
      if (!this.replication.writable) return;
      await this.replication.db.deleteStore(this.replication.writerTerm(), this.replication.nodeId, name);
    });
  }

  /** Loads a store from its snapshot and log. */
  async loadStore(store: DataStore, entry: CatalogueEntry): Promise<{ persistence: StoreLog; report: StoreLoadReport }> {
    const report = await bootstrapStore(store, this.replication.db, entry.uniqueId);
    const log = new PgStoreLog(this.replication, entry.uniqueId);
    this.logs.set(entry.uniqueId, log);
    log.noteLogged(store);
    return { persistence: log, report };
  }

  /** Where a store is kept, for messages. */
  storeDirectory(entry: CatalogueEntry): string {
    return `${this.description} (store id ${entry.uniqueId})`;
  }

  /** Waits for the queued writes, then stops the node (a writer gives up its lease). */
  async close(): Promise<void> {
    await this.settled();
    for (const log of this.logs.values()) await log.close();
    await this.replication.close();
  }
}
