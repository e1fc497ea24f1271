/**
 * Test helper: quadlog servers in this process replicating through one PostgreSQL database
 * (`persistence=postgresql`, a fresh schema per test, a short lease), shut down after each
 * test. Use it inside a `describe`, with the `usePostgres()` of that describe.
 */
import { randomBytes } from 'node:crypto';
import { ConnectionFactory, type DataStoreConnection, Server } from '../../lib/index.js';
import type { TestPostgres } from './postgres.js';

/** The first role of every node. */
export const REPLICA_ROLE = 'admin';
/** Its password. */
export const REPLICA_PASSWORD = 'pw';

/** What {@link useReplicatedServers} gives a describe. */
export interface ReplicatedServers {
  /** Starts a node `id` on the test's schema (its URL `http://<id>.example:12110`), with extra server parameters. */
  readonly node: (id: string, extra?: Readonly<Record<string, string>>) => Promise<Server>;
  /** A connection of the first role to a store of `server`. */
  readonly store: (server: Server, name?: string) => Promise<DataStoreConnection>;
  /** Shuts a node down now (the end of the test no longer does). */
  readonly stop: (server: Server) => Promise<void>;
  /** Waits until `condition` holds, failing after `ms` with `what`. */
  readonly until: (condition: () => boolean | Promise<boolean>, what: string, ms?: number) => Promise<void>;
  /** The test's schema. */
  readonly schema: string;
}

/** Replicating servers for the tests of a describe (schema names start with `prefix`). */
export function useReplicatedServers(pg: TestPostgres, prefix: string): ReplicatedServers {
  const servers: Server[] = [];
  let schema = '';

  beforeEach(() => {
    schema = `${prefix}_${randomBytes(4).toString('hex')}`;
  });

  afterEach(async () => {
    for (const s of servers.splice(0)) await s.shutdown().catch(() => undefined);
  });

  return {
    get schema(): string {
      return schema;
    },
    node: async (id, extra = {}) => {
      const server = await Server.create({
        roleName: REPLICA_ROLE,
        password: REPLICA_PASSWORD,
        parameters: {
          'password-hashing': 'fast',
          persistence: 'postgresql',
          'persistence-connection-string': pg.connectionString,
          'persistence-schema': schema,
          'persistence-node-id': id,
          'persistence-node-url': `http://${id}.example:12110`,
          'persistence-lease-time': '600',
          ...extra,
        },
      });
      servers.push(server);
      return server;
    },
    stop: async (server) => {
      servers.splice(servers.indexOf(server), 1);
      await server.shutdown();
    },
    store: async (server, name = 'ds') => {
      const c = await ConnectionFactory.newServerConnection(server.url, REPLICA_ROLE, REPLICA_PASSWORD);
      return c.newDataStoreConnection(name);
    },
    until: async (condition, what, ms = 15_000) => {
      const end = Date.now() + ms;
      while (!(await condition())) {
        if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
  };
}
