/**
 * The PostgreSQL tables of a replicated server (`persistence=postgresql`), all in one schema
 * (`quadlog` by default), created on first start:
 *
 * - `lease`: one row, the writer lease: `term` (the fencing token, raised by one at every
 *   change of holder), `holder` (node id), `holder_url`, `expires_at` (PostgreSQL's clock).
 * - `nodes`: one row per node: its URL, role, term, last heartbeat and status (JSON).
 * - `server_state`: one row: the role database (JSON) and a `generation` raised by every change
 *   of the roles or of the store catalogue, which replicas compare with theirs.
 * - `stores`: the server catalogue: a row per store (name, unique id, type, parameters, data
 *   source registrations).
 * - `log`: the commit log: a row per committed transaction of a store (store unique id,
 *   version, the term of the writer that appended it, the encoded record of
 *   `transaction-record.ts`).
 * - `snapshots` and `snapshot_parts`: per store, its latest snapshot (the format of
 *   `snapshot.ts`) cut into parts, and the version it holds.
 * @module
 */

/** The version of these tables, kept in `server_state.schema_version`. */
export const PG_SCHEMA_VERSION = 1;

/** A schema name quoted as an SQL identifier (the name is checked by the server parameters). */
export function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** The NOTIFY channel of a schema: told of every append and every catalogue or role change. */
export function notifyChannel(schema: string): string {
  return `quadlog_${schema}`.slice(0, 63);
}

/** The advisory lock key that serialises the creation of a schema's tables. */
export const SCHEMA_LOCK_KEY = 0x71646c67;

/** The statements that create the tables of `schema` when missing (run under {@link SCHEMA_LOCK_KEY}). */
export function schemaStatements(schema: string): string[] {
  const s = quoteIdentifier(schema);
  return [
    `CREATE SCHEMA IF NOT EXISTS ${s}`,
    `CREATE TABLE IF NOT EXISTS ${s}.lease (id int PRIMARY KEY CHECK (id = 1), term bigint NOT NULL, holder text, holder_url text, expires_at timestamptz)`,
    `INSERT INTO ${s}.lease (id, term) VALUES (1, 0) ON CONFLICT (id) DO NOTHING`,
    `CREATE TABLE IF NOT EXISTS ${s}.nodes (node_id text PRIMARY KEY, url text NOT NULL, role text NOT NULL, term bigint NOT NULL, started timestamptz NOT NULL, heartbeat timestamptz NOT NULL, status jsonb NOT NULL)`,
    `CREATE TABLE IF NOT EXISTS ${s}.server_state (id int PRIMARY KEY CHECK (id = 1), schema_version int NOT NULL, generation bigint NOT NULL, roles jsonb)`,
    `INSERT INTO ${s}.server_state (id, schema_version, generation) VALUES (1, ${PG_SCHEMA_VERSION}, 0) ON CONFLICT (id) DO NOTHING`,
    `CREATE TABLE IF NOT EXISTS ${s}.stores (name text PRIMARY KEY, unique_id text NOT NULL UNIQUE, type text NOT NULL, parameters jsonb NOT NULL, data_sources jsonb)`,
    `CREATE TABLE IF NOT EXISTS ${s}.log (store_id text NOT NULL, version bigint NOT NULL, term bigint NOT NULL, body bytea NOT NULL, PRIMARY KEY (store_id, version))`,
    `CREATE TABLE IF NOT EXISTS ${s}.snapshots (store_id text PRIMARY KEY, version bigint NOT NULL, term bigint NOT NULL, bytes bigint NOT NULL, parts int NOT NULL, taken timestamptz NOT NULL)`,
    `CREATE TABLE IF NOT EXISTS ${s}.snapshot_parts (store_id text NOT NULL, version bigint NOT NULL, part int NOT NULL, body bytea NOT NULL, PRIMARY KEY (store_id, version, part))`,
  ];
}
