/**
 * The short path: {@link open} makes a data store on a private server of its own and returns
 * a connection to it, an {@link EmbeddedStore}, with no role or password to choose.
 *
 * The server is created without a `url`, so it is registered under a random one
 * (`local/<uuid>`), and its only role, {@link OWNER_ROLE}, has a random 256-bit password made
 * here. Such a secret needs no slow hash (no one guesses it at any cost), so its hash is made
 * at the cheapest scrypt cost: opening costs no tens of milliseconds of hashing, and nothing
 * listens on the network.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { Server } from '../server/server.js';
import { StoreSession } from '../server/session.js';
import { DataStoreConnection } from './data-store-connection.js';
import { ServerConnection } from './server-connection.js';

/** The name of the only role of the server {@link open} creates. */
export const OWNER_ROLE = 'owner';
/** The name of the data store {@link open} creates unless told otherwise. */
export const DEFAULT_STORE_NAME = 'default';

/** Options of {@link open}. */
export interface OpenOptions {
  /** The data store's name (default `default`); what the store is called over HTTP. */
  readonly name?: string;
  /**
   * The data store's parameters, as {@link ServerConnection.createDataStore} takes them, e.g.
   * `{ equality: 'noUNA' }` (used when the store is created, not when it is loaded from
   * `directory`).
   */
  readonly parameters?: Readonly<Record<string, string>>;
  /**
   * A directory that keeps the store between runs (the server parameters `persistence=file`
   * and `server-directory`, see docs/persistence.md). A new or empty directory gets a new
   * server; one that `open()` used before is loaded, the store with its data. Only one process
   * at a time may use a directory. Without it the store lives in memory only.
   */
  readonly directory?: string;
  /**
   * Further server parameters (see {@link ServerOptions.parameters}), e.g.
   * `{ 'query-time-limit': '10000' }`.
   */
  readonly serverParameters?: Readonly<Record<string, string>>;
}

/**
 * A data store with a private server of its own, made by {@link open}: a
 * {@link DataStoreConnection} to the store (every method of one), acting as the server's only
 * role, {@link OWNER_ROLE}, which holds every privilege. Closing it shuts the server down too
 * (an endpoint serving it closes with it).
 *
 * To serve the store over HTTP, give {@link EmbeddedStore.server} to `startEndpoint` of
 * `quadlog/http`; requests authenticate as {@link ConnectionBase.roleName} with
 * {@link EmbeddedStore.password} (HTTP Basic).
 */
export class EmbeddedStore extends DataStoreConnection {
  /**
   * The private server that holds the store: what `quadlog/http`'s `startEndpoint` and
   * `createRequestHandler` take to serve it over HTTP, and what {@link ConnectionFactory}
   * connects to by its URL ({@link Server.url}, random) with {@link ConnectionBase.roleName}
   * and {@link EmbeddedStore.password}.
   */
  declare readonly server: Server;
  /**
   * The random password of the store's role, made by {@link open} (a new one at every open):
   * for HTTP Basic authentication when the store is served, and for {@link ConnectionFactory}.
   */
  readonly password: string;

  /** @internal Use {@link open}. */
  constructor(server: Server, storeName: string, password: string, incarnation: number) {
    const store = server.dataStore(storeName);
    super(server, (interrupter) => new StoreSession(server, store, OWNER_ROLE, interrupter), OWNER_ROLE, incarnation);
    this.password = password;
  }

  /**
   * Closes the connection and shuts its server down (see {@link Server.shutdown}); the
   * promise settles once the server has shut down (with a `directory`, once every change is
   * on disk). Other connections to the store stop working. Closing twice is harmless.
   */
  // the base class's callers (`using`) need not wait: the shutdown's promise never rejects unhandled
  // eslint-disable-next-line @typescript-eslint/no-misused-promises
  override close(): Promise<void> {
    super.close();
    return this.server.shutdown();
  }

  /** Closes the store, for `await using store = await open()`: see {@link EmbeddedStore.close}. */
  override [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

/**
 * Opens a data store on a private server of its own, in memory unless `directory` is given:
 *
 * ```ts
 * await using store = await open();
 * await store.importData('ADD', '<http://example.com/a> <http://example.com/b> "c" .');
 * const answer = await store.evaluateQuery('SELECT * WHERE { ?s ?p ?o }');
 * ```
 *
 * Each call makes another server: two stores opened in memory share nothing. The server is
 * registered under a random URL and its only role's password is random, so no other code in
 * the process connects to it without being given them; nothing listens on the network until
 * the store is served over HTTP.
 * @throws UnknownResourceError when `directory` holds a server that `open()` did not make
 * (it has no role {@link OWNER_ROLE}); DuplicateResourceError when its store `name` is
 * offline (its files cannot be loaded); the errors of {@link Server.create} and
 * {@link ServerConnection.createDataStore} for bad parameters.
 */
export async function open(options: OpenOptions = {}): Promise<EmbeddedStore> {
  const name = options.name ?? DEFAULT_STORE_NAME;
  const password = randomBytes(32).toString('base64url');
  const persistence: Record<string, string> = options.directory === undefined ? {} : { persistence: 'file', 'server-directory': options.directory };
  const server = await Server.create({ roleName: OWNER_ROLE, password, randomSecret: true, parameters: { ...options.serverParameters, ...persistence } });
  try {
    // the password was just hashed, so checking it costs nothing
    const incarnation = await server.roles.authenticate(OWNER_ROLE, password);
    if (!server.dataStoreNames().includes(name)) {
      using sc = new ServerConnection(server, OWNER_ROLE, incarnation);
      sc.createDataStore(name, undefined, options.parameters ?? {});
    }
    return new EmbeddedStore(server, name, password, incarnation);
  } catch (e) {
    await server.shutdown().catch(() => undefined);
    throw e;
  }
}
