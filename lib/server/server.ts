/**
 * The server: roles, server properties and the registry of data stores. Every server is
 * registered under a URL so connections can be opened by URL: a unique one of its own unless
 * it is created with a `url`.
 * @module
 */
import '../model/disposable.js';
import { randomUUID } from 'node:crypto';
import { availableParallelism, totalmem } from 'node:os';
import { Map as IMap } from 'immutable';
import { AccessDeniedError, BadRequestError, DuplicateResourceError, UnknownResourceError, VersionTimeoutError } from '../model/errors.js';
import { type Component, componentRows, type ComponentInfoRow } from './component-info.js';
import { DataStore, type IriLoader, type PropertyRow } from './data-store.js';
import { loadIri } from './import.js';
import { FAST_SCRYPT_COST, parsePasswordHashing, PASSWORD_HASHING_PARAMETER } from './password-hash.js';
import { GUEST_ROLE, RoleDatabase } from './roles.js';
import { GIT_SHA, VERSION } from './version.js';
import { type ReadPolicy, readPolicyOf } from './read-policy.js';
import { checkProcessMemory, type QueryLimitSettings, queryLimitsOf, type RequestedLimits, resolveLimits } from './query-limits.js';
import type { EvaluationLimits } from '../sparql/query-budget.js';
import { persistenceOf } from './persistence-parameters.js';
import type { CatalogueEntry, ServerStorage, StoreLog } from './persistence-target.js';
import type { PgServerStorage } from './pg-server-persistence.js';
import type { ReplicatedServer } from './replication.js';
import type { ReplicationStatus } from './replication-status.js';
import type { RecoveryEvent } from './recovery.js';
import type { LogFileIO } from '../persistence/log.js';
import type { AccessFor } from './delta-queries.js';
import { storeAccess } from './fact-access.js';
import { createRequire } from 'node:module';
import { loadedAsCommonJS } from '../sparql/lazy-load.js';

// The persistence code loads only for a persistent server: by import() under ES modules, by
// require where lib/ itself was loaded as CommonJS (a test runner's transpiler), so that its
// errors are instances of the same classes as everyone else's (an error class of a second copy
// of model/errors.ts would not map to its HTTP status).
/** The server directory's code. */
function loadFilePersistence(): Promise<typeof import('./server-persistence.js')> {
  return loadedAsCommonJS ? Promise.resolve(createRequire(import.meta.url)('./server-persistence.js') as typeof import('./server-persistence.js')) : import('./server-persistence.js');
}

/** The PostgreSQL persistence and replication code. */
function loadPgPersistence(): Promise<typeof import('./pg-server-persistence.js')> {
  return loadedAsCommonJS ? Promise.resolve(createRequire(import.meta.url)('./pg-server-persistence.js') as typeof import('./pg-server-persistence.js')) : import('./pg-server-persistence.js');
}

/** How every store's SPARQL LOAD reads an IRI: the importer, which the data store does not import. */
const loadInto: IriLoader = (store, tx, iri, graph, interrupter) => loadIri({ store, tx, interrupter }, iri, graph);

/** How to create a server. */
export interface ServerOptions {
  /**
   * Name of the first role, which holds every privilege (`full` on `>`). On a server directory
   * that already holds a server (`persistence=file`) the roles are loaded from it and this is
   * not used (see {@link Server.restarted}).
   */
  readonly roleName: string;
  /** Its password (not used either when the roles are loaded from a server directory). */
  readonly password: string;
  /**
   * Server parameters, listed as `parameters.<name>` properties.
   *
   * - `create-guest-role=true` creates the role `guest` (no password, no privileges) that
   *   requests without credentials act as; without it such requests are refused.
   * - `password-hashing` sets the cost of the password hashes the server makes (scrypt):
   *   `default` (N = 2^14, r = 8, p = 1; tens of milliseconds per hash), `fast` (N = 2^4:
   *   well under a millisecond, **for tests only**: such hashes are cheap to attack) or an
   *   explicit `scrypt:ln=<log2 N>[,r=<r>][,p=<p>]` (ln 4–20, r 1–32, p 1–16). Every hash
   *   keeps the parameters it was made with, so it verifies whatever this setting is, and a
   *   role's exported hash shows its cost.
   * - `sandbox-directory` and `allowed-url-schemes-on-import` limit what imports by IRI may read.
   * - `persistence` = `off` (default: everything lives in memory) or `file`, with
   *   `server-directory` naming the directory that holds the roles, the stores and their
   *   data (see docs/persistence.md). On a directory that already holds a server, the roles
   *   and stores are loaded from it and `roleName`/`password` are not used. Only one process
   *   at a time may use a directory.
   * - `persistence-durability` = `sync` (default: a commit returns once its log record is
   *   flushed to the disk) or `relaxed` (once it is handed to the operating system: it survives
   *   a crash of the process, not a power loss).
   * - `persistence-compact-threshold`: log size in bytes past which a store is compacted
   *   (a new snapshot, then an empty log); default 64 MiB.
   * - `query-time-limit` (milliseconds, default `none`), `query-memory-limit` (estimated bytes
   *   one query may hold; default a quarter of the smaller of `max-memory` and V8's heap limit;
   *   `none` for no limit) and `allow-query-limit-override` (default `false`: a request may
   *   only lower these limits) bound queries and the WHERE clauses of updates (see
   *   server/query-limits.ts and "Limits" in docs/sparql.md).
   */
  readonly parameters?: Readonly<Record<string, string>>;
  /**
   * The name the server is registered under, for {@link ConnectionFactory} (and HTTP): e.g.
   * `local`. Only one server at a time may hold a name. Without it the server gets a unique
   * URL of its own (see {@link Server.url}), so servers created without one never collide.
   */
  readonly url?: string;
  /**
   * Called during start-up of a persistent server for each store loaded or left offline; a
   * `loaded` event's `report.cut` says whether a torn log tail was cut. The events are also
   * kept: see {@link Server.recoveryEvents}.
   */
  readonly onRecovery?: ((event: RecoveryEvent) => void) | undefined;
  /**
   * @internal The password is a random secret made by the program (`open()`): its hash is made
   * at the cheapest cost ({@link FAST_SCRYPT_COST}; guessing a random 256-bit secret is out of
   * reach at any cost), whatever `password-hashing` says for other roles, and on a server
   * directory that already holds a server it replaces the password of role `roleName`, which
   * must exist there. Such a server directory is marked as made this way, and a directory
   * without the mark (made by a server whose passwords were chosen) is refused.
   */
  readonly randomSecret?: boolean;
  /** @internal A test seam wrapping the file operations of the stores' logs (to inject failures). */
  readonly wrapLogIO?: ((io: LogFileIO) => LogFileIO) | undefined;
}

const registry = new Map<string, Server>();

/** A listener of {@link Server.onShutdown}. */
export type ShutdownListener = () => void | Promise<void>;

/**
 * A quadlog server holding named data stores.
 *
 * ```ts
 * await using server = await Server.create({ roleName: 'admin', password: 'secret' });
 * const connection = await ConnectionFactory.newServerConnection(server.url, 'admin', 'secret');
 * ```
 */
export class Server implements AsyncDisposable {
  /** @internal The roles of the server, their privileges and memberships. */
  readonly roles: RoleDatabase;
  private stores = IMap<string, DataStore>();
  private maxMemory = totalmem();
  private numThreads = availableParallelism();
  private readonly parameters: Readonly<Record<string, string>>;
  private closed: Promise<void> | undefined;
  private readonly shutdownListeners = new Set<{ readonly listener: ShutdownListener }>();
  /** Where the server persists (a server directory or PostgreSQL), when it does. */
  private files: ServerStorage | undefined;
  /** The PostgreSQL storage of a replicated server (`persistence=postgresql`). */
  private replicated: PgServerStorage | undefined;
  /** Stores whose files could not be loaded, with why. */
  private readonly offline = new Map<string, Error>();
  /** What the start-up reported about each store of the server directory: its last event. */
  private readonly recoveries: RecoveryEvent[] = [];
  /** Whether the roles were loaded from the server directory. */
  private loadedRoles = false;
  /**
   * @internal What imports by IRI may read (text/uri-list bodies, SPARQL LOAD, `{ iris }`
   * sources): from the server parameters `sandbox-directory` and
   * `allowed-url-schemes-on-import`, checked when the server is created.
   */
  readonly readPolicy: ReadPolicy;

  private constructor(
    /**
     * The URL of the server in this process: the `url` it was created with, or a unique one
     * (`local/<uuid>`). {@link ConnectionFactory} opens connections by it.
     */
    readonly url: string,
    options: ServerOptions,
  ) {
    this.parameters = { ...(options.parameters ?? {}) };
    this.roles = new RoleDatabase(parsePasswordHashing(this.parameters[PASSWORD_HASHING_PARAMETER]));
    this.readPolicy = readPolicyOf(this.parameters);
    this.queryLimitSettings = queryLimitsOf(this.parameters);
  }

  /** The limits on queries from the server parameters. */
  private readonly queryLimitSettings: QueryLimitSettings;

  /**
   * @internal The limits of one query or update: those `requested` (a request's own), else the
   * server's (`query-time-limit`, `query-memory-limit`, the latter following `max-memory`).
   * @throws BadRequestError for a requested limit above the server's while
   *   `allow-query-limit-override` is false, or one that is not positive.
   */
  queryLimits(requested: RequestedLimits = {}): EvaluationLimits {
    return resolveLimits(this.queryLimitSettings, this.maxMemory, requested);
  }

  /**
   * @internal Refuses `what` (an import) when the process holds more memory than the server
   * property `max-memory` (V8's heap in use plus buffers).
   * @throws MemoryExhaustedError
   */
  checkMemory(what: string): void {
    checkProcessMemory(this.maxMemory, what);
  }

  /**
   * Creates and registers a server with a first role (and the guest role when the parameters
   * ask for it). Without `options.url` the server gets a unique URL ({@link Server.url});
   * with one, it fails with DuplicateResourceError while another server holds that URL.
   * The first role's password is remembered as checked, so opening a connection with it
   * right after costs no second hash.
   */
  static async create(options: ServerOptions): Promise<Server> {
    const url = options.url ?? `local/${randomUUID()}`;
    if (registry.has(url)) throw new DuplicateResourceError(`a server is already registered at '${url}' (shut it down first, or create this one without a url: it then gets a unique one)`);
    if (!options.roleName || options.roleName === GUEST_ROLE) throw new BadRequestError(`the first role needs a name other than '${GUEST_ROLE}'`);
    const guest = options.parameters?.['create-guest-role'] ?? 'false';
    if (guest !== 'true' && guest !== 'false') throw new BadRequestError(`invalid value '${guest}' for server parameter 'create-guest-role': true or false`);
    const persistence = persistenceOf(options.parameters ?? {});
    const server = new Server(url, options);
    registry.set(url, server);
    try {
      // the persistence code loads only for a persistent server (see loadFilePersistence)
      let files: ServerStorage | undefined;
      let generation = 0;
      if (persistence?.kind === 'file') files = await (await loadFilePersistence()).ServerFiles.open(persistence.directory, { ...persistence.settings, wrapLogIO: options.wrapLogIO });
      else if (persistence?.kind === 'postgresql') files = server.replicated = await (await loadPgPersistence()).PgServerStorage.open(persistence.settings);
      const where = files?.description ?? '';
      try {
        let saved: Awaited<ReturnType<ServerStorage['readRoles']>>;
        if (server.replicated) ({ roles: saved, generation } = await server.replicated.readState());
        else saved = await files?.readRoles();
        if (saved !== undefined) {
          server.roles.importState(saved.roles);
          server.roles.restoreGeneration(saved.generation);
          server.loadedRoles = true;
          if (options.randomSecret === true) {
            // only a directory the short path made: its only role's password is made anew at every start
            if (files?.madeByOpen !== true) throw new AccessDeniedError(`${where} was not made by open(): start it with Server.create and one of its roles`);
            if (!server.roles.has(options.roleName)) throw new UnknownResourceError(`${where} holds no role '${options.roleName}': start it with Server.create and one of its roles`);
            await server.roles.resetPasswordUnchecked(options.roleName, options.password, FAST_SCRYPT_COST);
          }
        } else {
          await server.roles.createFirst(options.roleName, options.password, options.randomSecret === true ? FAST_SCRYPT_COST : undefined);
          if (guest === 'true') server.roles.createUnchecked(GUEST_ROLE);
        }
        if (files) {
          server.files = files;
          if (saved === undefined && options.randomSecret === true) files.madeByOpen = true;
          if (saved === undefined) await files.writeRoles(server.roles.exportState(), server.roles.generation);
          server.roles.onChange = () => {
            void files.writeRoles(server.roles.exportState(), server.roles.generation).catch((e: unknown) => process.emitWarning(`could not save the role database: ${String(e)}`));
          };
          for (const entry of await files.readCatalogue()) await server.loadDataStore(files, entry, options.onRecovery);
          if (server.replicated) await server.startReplication(server.replicated, generation);
        }
      } catch (e) {
        await files?.close();
        throw e;
      }
    } catch (e) {
      registry.delete(url);
      throw e;
    }
    return server;
  }

  /** Starts following PostgreSQL and guards writes while this node is a replica. */
  private async startReplication(storage: PgServerStorage, generation: number): Promise<void> {
    const replication = storage.replication;
    const guard = (): void => replication.checkWritable();
    this.roles.writeGuard = guard;
    const hooks: ReplicatedServer = {
      stores: () => this.stores.values(),
      logOf: (store) => storage.logs.get(store.uniqueId),
      syncFromDatabase: () => this.syncFromDatabase(storage),
      reloadStore: (store) => this.reloadReplicatedStore(storage, store),
    };
    await replication.start(hooks, generation);
  }

  /** Makes the roles and stores those PostgreSQL holds (a replica following the writer, or a new writer). */
  private async syncFromDatabase(storage: PgServerStorage): Promise<void> {
    const state = await storage.readState();
    if (state.roles !== undefined) {
      this.roles.importState(state.roles.roles);
      this.roles.restoreGeneration(state.roles.generation);
    }
    const entries = await storage.readCatalogue();
    const listed = new Map(entries.map((e) => [e.name, e]));
    for (const store of [...this.stores.values()]) {
      const entry = listed.get(store.name);
      if (entry === undefined || entry.uniqueId !== store.uniqueId) {
        store.markDeleted();
        this.stores = this.stores.delete(store.name);
        storage.logs.delete(store.uniqueId);
      }
    }
    for (const entry of entries) if (!this.stores.has(entry.name)) await this.loadDataStore(storage, entry, undefined);
  }

  /** Loads a replicated store again (it missed records trimmed after a snapshot): a new store object replaces it. */
  private async reloadReplicatedStore(storage: PgServerStorage, store: DataStore): Promise<void> {
    const entry = (await storage.readCatalogue()).find((e) => e.uniqueId === store.uniqueId);
    store.markDeleted();
    this.stores = this.stores.delete(store.name);
    storage.logs.delete(store.uniqueId);
    if (entry !== undefined) await this.loadDataStore(storage, entry, undefined);
  }

  /** Loads one store of the server directory; a store that cannot be loaded stays offline. */
  private async loadDataStore(files: ServerStorage, entry: CatalogueEntry, onRecovery: ((event: RecoveryEvent) => void) | undefined): Promise<void> {
    const started = performance.now();
    const report = (event: RecoveryEvent): void => {
      if (event.kind !== 'loading') this.recoveries.push(event);
      onRecovery?.(event);
    };
    report({ kind: 'loading', store: entry.name });
    try {
      const store = new DataStore(entry.name, entry.type, entry.parameters, this.readPolicy, loadInto, entry.uniqueId, this.replicated ? 'postgresql' : true);
      store.memoryGuard = (what) => this.checkMemory(what);
      // the server's query-time-limit bounds every evaluation of the store's delta queries (restored ones too)
      store.deltaQueries.limitEvaluations(() => this.queryLimits().timeLimitMs);
      await store.dataSources.restore(entry.dataSources ?? []);
      // a delta query answers as the role that registered it, with that role's privileges of the moment
      const roleAccess = (role: string): AccessFor | undefined => (this.roles.has(role) ? (catalogue, dictionary) => storeAccess(this.roles, role, entry.name, catalogue, dictionary) : undefined);
      const loaded = await files.loadStore(store, entry, roleAccess).catch((e: unknown) => {
        store.dataSources.closeAll();
        throw e;
      });
      const elapsedMs = performance.now() - started;
      store.recovery = { at: new Date(), elapsedMs, report: loaded.report };
      this.attach(store, Promise.resolve(loaded.persistence));
      this.stores = this.stores.set(entry.name, store);
      report({ kind: 'loaded', store: entry.name, report: loaded.report, elapsedMs });
    } catch (e) {
      const error = e instanceof Error ? e : new Error(String(e));
      const offline = new Error(`data store '${entry.name}' is offline: its files in ${files.storeDirectory(entry)} cannot be loaded: ${error.message}`, { cause: error });
      this.offline.set(entry.name, offline);
      report({ kind: 'offline', store: entry.name, error: offline });
    }
  }

  /** Connects a store to its files: commits log to them; a large log is compacted after a commit. */
  private attach(store: DataStore, files: Promise<StoreLog>): void {
    files.catch(() => undefined);
    // the store's delta queries are kept with its files (in a server directory; not in PostgreSQL)
    if (this.replicated) {
      const replication = this.replicated.replication;
      // a writer that has just taken over is waited for while it catches up (within the lock timeout)
      store.writeGuard = (timeoutMs) => replication.awaitWritable(timeoutMs);
    } else {
      store.deltaQueries.persistTo(
        files.then((f) => {
          if (f.deltaQueries === undefined) throw new Error('no delta query files');
          return f.deltaQueries;
        }),
      );
    }
    store.persistence = {
      files,
      compactAfter: (s) => {
        void files.then((f) => (f.wantsCompaction && (this.replicated?.replication.writable ?? true) ? f.compact(s, 60_000) : undefined)).catch((e: unknown) => process.emitWarning(`could not compact data store '${s.name}': ${String(e)}`));
      },
    };
    // data source registrations are kept in the catalogue (mode 0600: they may hold passwords)
    const directory = this.files;
    if (directory) store.dataSources.onChange = () => directory.writeDataSources(store, store.dataSources.exportRegistrations());
  }

  /** The stores of the server directory that could not be loaded, with why (empty for an in-memory server). */
  offlineDataStores(): ReadonlyMap<string, Error> {
    return this.offline;
  }

  /** The server directory, or undefined for an in-memory server (and one persisting in PostgreSQL). */
  get serverDirectory(): string | undefined {
    return this.files?.directory;
  }

  /** Where the server persists, for messages (`the server directory /x`, `PostgreSQL schema 'quadlog'`); undefined in memory. */
  get persistenceDescription(): string | undefined {
    return this.files?.description;
  }

  /**
   * The replication status of this node (`persistence=postgresql`): role, term, writer,
   * applied version and lag per store, and the nodes seen recently. A server that does not
   * replicate reports itself alone as `standalone`.
   */
  replicationStatus(): ReplicationStatus {
    const replication = this.replicated?.replication;
    if (replication) return replication.status();
    const stores = [...this.stores.values()].map((s) => ({ name: s.name, version: s.facts.committed.version, logVersion: s.facts.committed.version, lagVersions: 0, lagMs: 0 }));
    return { nodeId: this.url, url: '', role: 'standalone', term: 0, writerId: undefined, writerUrl: undefined, stores, nodes: [] };
  }

  /** The role of this node: `writer` or `replica` with `persistence=postgresql`, else `standalone`. */
  get replicationRole(): 'writer' | 'replica' | 'standalone' {
    return this.replicated?.replication.role ?? 'standalone';
  }

  /** Sets the URL this node records for clients (`persistence-node-url`; `quadlog serve` sets its endpoint's). */
  setNodeUrl(url: string): void {
    this.replicated?.replication.setUrl(url);
  }

  /**
   * @internal Waits until a store has published at least `version` (a replica following the
   * writer); resolves with the version reached.
   * @throws VersionTimeoutError after `timeoutMs`.
   */
  async awaitVersion(store: DataStore, version: number, timeoutMs: number): Promise<number> {
    const replication = this.replicated?.replication;
    const reached = replication ? await replication.awaitVersion(store, version, timeoutMs) : store.facts.committed.version >= version;
    if (!reached) {
      const role = replication ? `node '${replication.nodeId}' (${replication.role})` : 'this server';
      throw new VersionTimeoutError(`data store '${store.name}' is at version ${store.facts.committed.version} on ${role}, not yet at version ${version}, after waiting ${timeoutMs} ms${replication ? '' : ' (it does not replicate: that version was never committed)'}`);
    }
    return store.facts.committed.version;
  }

  /**
   * Whether the server was started on a server directory that already held a server: its
   * roles (and stores) were loaded from it, and the `roleName` and `password` given to
   * {@link Server.create} were not used (no role was created or checked). False for an
   * in-memory server and for a new server directory, where the first role was created.
   */
  get restarted(): boolean {
    return this.loadedRoles;
  }

  /**
   * What start-up reported about each store of the server directory, in the order they were
   * loaded: the `loaded` or `offline` event (see {@link ServerOptions.onRecovery}), whether or
   * not `onRecovery` was given. A `loaded` event's `report.cut` is the torn log tail that was
   * cut, if any. Empty for an in-memory server and a new server directory.
   */
  recoveryEvents(): readonly RecoveryEvent[] {
    return this.recoveries;
  }

  /**
   * Resolves once every change that is not a transaction made so far (stores created or
   * deleted, roles changed) is written to the server directory (at once for an in-memory
   * server). Transactions are on disk when their commit returns.
   */
  persisted(): Promise<void> {
    return this.files?.settled() ?? Promise.resolve();
  }

  /** The server registered at a URL. */
  static lookup(url: string): Server {
    const server = registry.get(url);
    if (!server) throw new UnknownResourceError(`no server is running at '${url}' (create one with Server.create)`);
    return server;
  }

  /** Whether {@link Server.shutdown} was called. */
  get isShutdown(): boolean {
    return this.closed !== undefined;
  }

  /**
   * Shuts the server down: unregisters it, calls the {@link Server.onShutdown} listeners
   * (endpoints started on the server close) and deletes its stores, whose connections stop
   * working. All of this starts at once; the promise settles when async listeners have
   * finished, and rejects when a listener failed (with its error, or an AggregateError of
   * several). It may be left unawaited: a failure is then not reported as an unhandled
   * rejection. Calling it again returns the same promise.
   */
  shutdown(): Promise<void> {
    if (this.closed) return this.closed;
    let settle!: (errors: readonly unknown[]) => void;
    this.closed = new Promise<readonly unknown[]>((resolve) => (settle = resolve)).then((errors) => {
      if (errors.length === 1) throw errors[0];
      if (errors.length > 1) throw new AggregateError(errors, `${errors.length} shutdown listeners of the server at '${this.url}' failed`);
    });
    this.closed.catch(() => undefined);
    registry.delete(this.url);
    const listeners = [...this.shutdownListeners];
    this.shutdownListeners.clear();
    // each listener starts now; one that throws at once is a rejection like any other
    const pending = listeners.map(({ listener }) => (async () => listener())());
    const files = this.files;
    if (files) {
      const logs = [...this.stores.values()].flatMap((s) => (s.persistence ? [s.persistence.files] : []));
      pending.push(
        (async () => {
          await files.settled();
          for (const log of logs) await (await log.catch(() => undefined))?.close();
          await files.close();
        })(),
      );
    }
    for (const store of this.stores.values()) store.markDeleted();
    this.stores = IMap();
    void Promise.allSettled(pending).then((outcomes) => settle(outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as unknown] : []))));
    return this.closed;
  }

  /**
   * Calls `listener` when the server shuts down ({@link Server.shutdown} waits for the promise
   * it returns). Returns a function that removes the listener (harmless to call twice, or
   * after the shutdown).
   * @throws UnknownResourceError when the server has already been shut down.
   */
  onShutdown(listener: ShutdownListener): () => void {
    if (this.closed) throw new UnknownResourceError(`the server at '${this.url}' has been shut down`);
    const entry = { listener };
    this.shutdownListeners.add(entry);
    return () => {
      this.shutdownListeners.delete(entry);
    };
  }

  /** Shuts the server down, for `await using server = await Server.create(…)`: see {@link Server.shutdown}. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.shutdown();
  }

  /** @internal Server properties (Property, Value, Mutable). */
  properties(): PropertyRow[] {
    const used = process.memoryUsage().rss;
    const rows: PropertyRow[] = [
      { property: 'version', value: VERSION, mutable: false },
      { property: 'git-SHA', value: GIT_SHA, mutable: false },
      { property: 'max-memory', value: String(this.maxMemory), mutable: true },
      { property: 'available-memory', value: String(Math.max(0, this.maxMemory - used)), mutable: false },
      { property: 'num-threads', value: String(this.numThreads), mutable: true },
    ];
    for (const [k, v] of Object.entries(this.parameters)) rows.push({ property: `parameters.${k}`, value: v, mutable: false });
    return rows;
  }

  /** @internal Sets a mutable server property (max-memory, num-threads). */
  setProperty(name: string, value: string): void {
    const known = this.properties().find((r) => r.property === name);
    if (!known) throw new BadRequestError(`unknown server property '${name}'`);
    if (!known.mutable) throw new BadRequestError(`server property '${name}' cannot be changed`);
    if (!/^\d+$/.test(value)) throw new BadRequestError(`invalid value '${value}' for '${name}': a positive integer is required`);
    const n = Number(value);
    if (name === 'num-threads') {
      if (n < 1 || n > 1024) throw new BadRequestError(`invalid value '${value}' for 'num-threads': from 1 to 1024`);
      this.numThreads = n;
    } else {
      if (n < 1 << 24) throw new BadRequestError(`invalid value '${value}' for 'max-memory': at least 16777216 bytes`);
      this.maxMemory = n;
    }
  }

  /** @internal Creates a data store. */
  createDataStore(name: string, type: string | undefined, parameters: Readonly<Record<string, string>>): DataStore {
    if (this.stores.has(name)) throw new DuplicateResourceError(`data store '${name}' already exists`);
    if (this.offline.has(name)) throw new DuplicateResourceError(`data store '${name}' exists but is offline (its files could not be loaded)`);
    this.replicated?.replication.checkWritable();
    const persistence = parameters.persistence ?? (this.replicated ? 'postgresql' : this.files ? 'file' : 'off');
    const store = new DataStore(name, type, { ...parameters, ...(this.files ? { persistence } : {}) }, this.readPolicy, loadInto, undefined, this.replicated ? 'postgresql' : this.files !== undefined);
    store.memoryGuard = (what) => this.checkMemory(what);
    store.deltaQueries.limitEvaluations(() => this.queryLimits().timeLimitMs);
    if (this.files && (persistence === 'file' || persistence === 'postgresql')) this.attach(store, this.files.createStore(store));
    this.stores = this.stores.set(name, store);
    return store;
  }

  /** @internal Deletes a data store; its connections become invalid. */
  deleteDataStore(name: string): void {
    this.replicated?.replication.checkWritable();
    if (this.offline.has(name) && !this.stores.has(name)) {
      this.offline.delete(name);
      void this.files?.deleteStore(name, undefined).catch((e: unknown) => process.emitWarning(`could not delete the files of data store '${name}': ${String(e)}`));
      return;
    }
    const store = this.dataStore(name);
    store.markDeleted();
    this.stores = this.stores.delete(name);
    if (this.files && store.persistence) void this.files.deleteStore(name, store.persistence.files).catch((e: unknown) => process.emitWarning(`could not delete the files of data store '${name}': ${String(e)}`));
  }

  /** @internal The data store with a name. */
  dataStore(name: string): DataStore {
    const store = this.stores.get(name);
    if (!store) {
      const offline = this.offline.get(name);
      if (offline) throw new UnknownResourceError(offline.message);
      throw new UnknownResourceError(`data store '${name}' does not exist`);
    }
    return store;
  }

  /** @internal Names of the data stores, in creation order. */
  dataStoreNames(): string[] {
    return [...this.stores.keys()];
  }

  /** @internal Component information of the server (its stores as children). */
  componentInfo(extended: boolean): ComponentInfoRow[] {
    const stores = [...this.stores.values()].map((s) => s.component(s.facts.committed, extended));
    const replication = this.replicated ? [replicationComponent(this.replicated.replication.status(), this.replicated.replication.lastError)] : [];
    // a persistent server: what its start-up found (each loaded store has its own Recovery component)
    const recovery: Array<[string, number]> = this.files
      ? [
          ['Log tails cut at start-up', this.recoveries.filter((e) => e.kind === 'loaded' && e.report.cut !== undefined).length],
          ['Offline data stores', this.offline.size],
        ]
      : [];
    return componentRows({
      name: 'Server',
      properties: [
        ['Version', VERSION],
        ['Number of data stores', stores.length],
        ['Password hashes computed', this.roles.passwordHashesComputed],
        ...recovery,
        ...(extended ? ([['Heap bytes used', process.memoryUsage().heapUsed]] as Array<[string, number]>) : []),
      ],
      children: [...replication, ...stores],
    });
  }
}

/** The `Replication` component of a replicated server: this node, its stores, and the nodes seen recently. */
function replicationComponent(status: ReplicationStatus, lastError: string | undefined): Component {
  return {
    name: 'Replication',
    properties: [
      ['Node ID', status.nodeId],
      ['Node URL', status.url],
      ['Role', status.role],
      ['Term', status.term],
      ['Writer node ID', status.writerId ?? ''],
      ['Writer URL', status.writerUrl ?? ''],
      ['Replicate derived changes', String(status.replicateDerived ?? false)],
      ['Last error', lastError ?? ''],
    ],
    children: [
      ...status.stores.map((s): Component => ({ name: 'Replicated data store', properties: [['Name', s.name], ['Applied version', s.version], ['Log version', s.logVersion], ['Lag in versions', s.lagVersions], ['Lag in milliseconds', s.lagMs], ['Records applied by reasoning', s.recordsReasoned ?? 0], ['Records applied with carried derived changes', s.recordsCarried ?? 0]], children: [] })),
      ...status.nodes.map((n): Component => ({ name: 'Node', properties: [['Node ID', n.nodeId], ['URL', n.url], ['Role', n.role], ['Term', n.term], ['Last heartbeat', n.lastHeartbeat.toISOString()], ['Heartbeat age in milliseconds', Math.round(n.heartbeatAgeMs)]], children: [] })),
    ],
  };
}
