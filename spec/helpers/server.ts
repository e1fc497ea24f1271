/**
 * Test helper: a {@link Server} registered at a URL unique to one spec file, created in a
 * `before` hook and shut down in an `after` hook, plus small shared utilities. Test servers
 * hash passwords with `password-hashing=fast` ({@link TEST_SERVER_PARAMETERS}) unless a spec
 * asks otherwise.
 *
 * Usage, at the top of a `describe`:
 *
 * ```ts
 * const env = useServer('transactions');
 * it('…', async () => {
 *   const ds = await env.newStore();
 *   …
 * });
 * ```
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { ConnectionFactory, type DataStoreConnection, Server, type ServerConnection } from '../../lib/index.js';

/** Role name of the first role of every test server. */
export const ADMIN_ROLE = 'admin';
/** Password of the first role of every test server. */
export const ADMIN_PASSWORD = 'admin-secret';
/**
 * Parameters every test server gets unless the spec gives others: cheap password hashes
 * (never for real passwords; hashes keep their cost, so they verify on any server).
 */
export const TEST_SERVER_PARAMETERS: Readonly<Record<string, string>> = Object.freeze({ 'password-hashing': 'fast' });

/** What {@link useServer} gives a spec file. */
export interface TestServer {
  /** The server (available from the `before` hook on). */
  readonly server: Server;
  /** The URL the server is registered at. */
  readonly url: string;
  /** A server connection of the first role. */
  readonly connection: ServerConnection;
  /** Parameters the server was created with ({@link TEST_SERVER_PARAMETERS} and the spec's). */
  readonly parameters: Readonly<Record<string, string>>;
  /**
   * Creates a data store with a unique name (or the given one) and opens a connection to it.
   * The connection is closed in the `after` hook.
   */
  newStore(name?: string, type?: string, parameters?: Readonly<Record<string, string>>): Promise<DataStoreConnection>;
  /** Registers a connection to be closed in the `after` hook. */
  track<T extends { close(): void }>(connection: T): T;
  /** A fresh unique data store name. */
  uniqueName(stem?: string): string;
}

/** Creates a server for the enclosing `describe` (before/after hooks) and returns accessors. */
export function useServer(specName: string, specParameters: Readonly<Record<string, string>> = {}): TestServer {
  const url = `test://${specName}/${randomUUID()}`;
  const parameters = { ...TEST_SERVER_PARAMETERS, ...specParameters };
  let server: Server | undefined;
  let connection: ServerConnection | undefined;
  let counter = 0;
  const open: Array<{ close(): void }> = [];

  before(async () => {
    server = await Server.create({ roleName: ADMIN_ROLE, password: ADMIN_PASSWORD, parameters, url });
    connection = await ConnectionFactory.newServerConnection(url, ADMIN_ROLE, ADMIN_PASSWORD);
  });

  after(async () => {
    for (const c of open.splice(0)) c.close();
    connection?.close();
    await server?.shutdown();
  });

  const env: TestServer = {
    get server(): Server {
      if (!server) throw new Error('the test server is created in a before hook');
      return server;
    },
    url,
    get connection(): ServerConnection {
      if (!connection) throw new Error('the test server is created in a before hook');
      return connection;
    },
    parameters,
    uniqueName(stem = 'store'): string {
      return `${stem}-${++counter}`;
    },
    newStore(name?: string, type?: string, storeParameters: Readonly<Record<string, string>> = {}): Promise<DataStoreConnection> {
      const storeName = name ?? env.uniqueName();
      env.connection.createDataStore(storeName, type, storeParameters);
      // opened through the server connection: no password hashing per store
      return Promise.resolve(env.track(env.connection.newDataStoreConnection(storeName)));
    },
    track<T extends { close(): void }>(c: T): T {
      open.push(c);
      return c;
    },
  };
  return env;
}

/** The error a promise (or a function) fails with; fails the test when it succeeds. */
export async function rejectionOf(action: Promise<unknown> | (() => unknown)): Promise<Error> {
  try {
    await (typeof action === 'function' ? action() : action);
  } catch (e) {
    expect(e).to.be.instanceOf(Error);
    return e as Error;
  }
  expect.fail('expected the operation to fail, but it succeeded');
}

/** Asserts that a promise (or function) fails with an instance of `type`; returns the error. */
export async function expectError<E extends Error>(action: Promise<unknown> | (() => unknown), type: new (...args: never[]) => E): Promise<E> {
  const error = await rejectionOf(action);
  expect(error, `${error.name}: ${error.message}`).to.be.instanceOf(type);
  return error as E;
}

/** Lines of a text, without empty ones, sorted (for comparing N-Quads exports). */
export function sortedLines(text: string): string[] {
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .sort();
}

/** The N-Quads export of a store, as sorted lines. */
export async function nquadsOf(ds: DataStoreConnection): Promise<string[]> {
  return sortedLines(await ds.exportDataToString('application/n-quads'));
}

/** A big N-Triples document of `n` lines (distinct triples). */
export function bigNTriples(n: number): string {
  const lines: string[] = [];
  for (let i = 0; i < n; i++) lines.push(`<http://example.com/big/s${i}> <http://example.com/big/p> "value ${i}" .`);
  return lines.join('\n') + '\n';
}

/**
 * A connection to `store` as a new role that may list the stores and read this one, with the
 * further privileges `grants` gives: `[resource below |datastores|<store>, access]` pairs such
 * as `['|tupletables|Quads', 'read']` or `['|namedgraphs|<http://example.com/g>', 'write']`.
 */
export async function connectionWith(env: TestServer, store: string, grants: ReadonlyArray<readonly [string, string]>): Promise<DataStoreConnection> {
  const role = env.uniqueName(`${store}-role`);
  await env.connection.createRole(role, 'pw');
  env.connection.grantPrivileges(role, '|datastores', 'read');
  env.connection.grantPrivileges(role, `|datastores|${store}`, 'read');
  for (const [resource, access] of grants) env.connection.grantPrivileges(role, `|datastores|${store}${resource}`, access);
  const sc = env.track(await ConnectionFactory.newServerConnection(env.url, role, 'pw'));
  return env.track(sc.newDataStoreConnection(store));
}

/**
 * A connection to `store` as a new role that may write the named graph `graph` (and read and
 * write the `Quads` table) but may not read the default graph.
 */
export function namedGraphWriter(env: TestServer, store: string, graph: string): Promise<DataStoreConnection> {
  return connectionWith(env, store, [
    ['|tupletables|Quads', 'read'],
    ['|tupletables|Quads', 'write'],
    [`|namedgraphs|<${graph}>`, 'write'],
  ]);
}
