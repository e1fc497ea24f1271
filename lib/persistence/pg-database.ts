/**
 * The statements a replicated server (`persistence=postgresql`) runs on its PostgreSQL tables
 * (see `pg-schema.ts`), through a pool of `pg` clients: the writer lease (take, renew, give
 * up), fenced writes (every write of the writer runs in a transaction that first locks the
 * lease row and checks that the lease still holds the writer's term, so that a deposed writer
 * can never write), the commit log, snapshots, the role database, the store catalogue, the
 * nodes' heartbeats, and LISTEN for the notifications of appends and changes.
 *
 * Every call is asynchronous (the event loop stays free); failures of PostgreSQL become
 * `ReplicationError`s saying what could not be done.
 * @module
 */
import pg from 'pg';
import { ReplicationError } from '../model/errors.js';
import { notifyChannel, quoteIdentifier, SCHEMA_LOCK_KEY, schemaStatements } from './pg-schema.js';

/** The writer lease as PostgreSQL holds it. */
export interface LeaseState {
  /** The term (fencing token): raised by one at every change of holder. */
  readonly term: number;
  /** The node holding it, if any. */
  readonly holder: string | undefined;
  /** The URL that node recorded. */
  readonly url: string | undefined;
  /** Milliseconds until it expires by PostgreSQL's clock (negative once expired; undefined without holder). */
  readonly remainingMs: number | undefined;
}

/** One record of the commit log. */
export interface LogRow {
  /** The version the transaction published. */
  readonly version: number;
  /** The term of the writer that appended it. */
  readonly term: number;
  /** The encoded record (`transaction-record.ts`). */
  readonly body: Uint8Array;
}

/** One store of the catalogue. */
export interface StoreRow {
  /** Its name. */
  readonly name: string;
  /** Its unique id (the key of its log and snapshots). */
  readonly uniqueId: string;
  /** Its type. */
  readonly type: string;
  /** Its creation parameters. */
  readonly parameters: Readonly<Record<string, string>>;
  /** Its data source registrations (JSON), if any. */
  readonly dataSources: unknown;
}

/** One node as its heartbeats describe it. */
export interface NodeRow {
  /** The node id. */
  readonly nodeId: string;
  /** The URL it recorded. */
  readonly url: string;
  /** `writer` or `replica` (at its last heartbeat). */
  readonly role: string;
  /** The term it knew. */
  readonly term: number;
  /** Milliseconds since its last heartbeat (PostgreSQL's clock). */
  readonly heartbeatAgeMs: number;
  /** When its last heartbeat was written. */
  readonly heartbeat: Date;
  /** What it reported (JSON). */
  readonly status: unknown;
}

/** The size of the parts a snapshot is stored in. */
const SNAPSHOT_PART_BYTES = 8 << 20;

/** An error of PostgreSQL, as a ReplicationError saying what was being done. */
function failure(what: string, e: unknown): Error {
  if (e instanceof ReplicationError) return e;
  const message = e instanceof Error ? e.message : String(e);
  const code = (e as { code?: unknown }).code;
  return new ReplicationError(`${what}: PostgreSQL: ${message === '' ? (typeof code === 'string' ? code : 'connection failed') : message}`, { cause: e });
}

/** The client-side handle on the tables of one schema. */
export class PgDatabase {
  private readonly s: string;
  private readonly channel: string;

  private constructor(
    private readonly pool: pg.Pool,
    private readonly config: pg.PoolConfig,
    /** The schema. */
    readonly schema: string,
  ) {
    this.s = quoteIdentifier(schema);
    this.channel = notifyChannel(schema);
  }

  /** Connects and creates the tables when missing. @throws ReplicationError */
  static async open(config: pg.PoolConfig, schema: string): Promise<PgDatabase> {
    const pool = new pg.Pool({ max: 4, ...config });
    // an idle client whose connection breaks must not end the process
    pool.on('error', () => undefined);
    const db = new PgDatabase(pool, config, schema);
    try {
      await db.transaction(async (c) => {
        await c.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK_KEY]);
        for (const statement of schemaStatements(schema)) await c.query(statement);
      });
    } catch (e) {
      await pool.end().catch(() => undefined);
      throw failure(`cannot create the tables of schema '${schema}'`, e);
    }
    return db;
  }

  /** Runs `work` in a transaction of its own, begun with `begin` (a `BEGIN` statement). */
  private async transaction<T>(work: (client: pg.PoolClient) => Promise<T>, begin = 'BEGIN'): Promise<T> {
    const client = await this.pool.connect();
    let broken = false;
    // a connection that breaks while the client is checked out emits 'error' on it (the query
    // in flight fails with it): unhandled, that event would end the process
    const lost = (): void => {
      broken = true;
    };
    client.on('error', lost);
    try {
      await client.query(begin);
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (e) {
      await client.query('ROLLBACK').catch(() => {
        broken = true;
      });
      throw e;
    } finally {
      client.removeListener('error', lost);
      client.release(broken);
    }
  }

  /**
   * Runs `work` in a transaction fenced by the lease: the lease row is locked (FOR SHARE: a
   * change of holder waits for the transaction, and a transaction that follows one sees it)
   * and must hold `term` and `nodeId`, else nothing is written.
   * @throws ReplicationError when the lease moved on, or PostgreSQL fails.
   */
  private fenced<T>(what: string, term: number, nodeId: string, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return this.transaction(async (c) => {
      const { rows } = await c.query<{ term: string; holder: string | null }>(`SELECT term, holder FROM ${this.s}.lease WHERE id = 1 FOR SHARE`);
      const lease = rows[0];
      if (lease === undefined || Number(lease.term) !== term || lease.holder !== nodeId) {
        throw new ReplicationError(`${what}: node '${nodeId}' no longer holds the writer lease (term ${term}; the lease is now at term ${lease?.term ?? '?'}, held by ${lease?.holder === null || lease?.holder === undefined ? 'nobody' : `'${lease.holder}'`}); nothing was written`);
      }
      return work(c);
    }).catch((e: unknown) => {
      throw failure(what, e);
    });
  }

  /** The lease as it is now. */
  async lease(): Promise<LeaseState> {
    try {
      const { rows } = await this.pool.query<{ term: string; holder: string | null; holder_url: string | null; remaining: number | null }>(
        `SELECT term, holder, holder_url, (EXTRACT(EPOCH FROM (expires_at - now())) * 1000)::float8 AS remaining FROM ${this.s}.lease WHERE id = 1`,
      );
      const r = rows[0]!;
      return { term: Number(r.term), holder: r.holder ?? undefined, url: r.holder_url ?? undefined, remainingMs: r.holder === null || r.remaining === null ? undefined : Number(r.remaining) };
    } catch (e) {
      throw failure('cannot read the writer lease', e);
    }
  }

  /**
   * Takes the lease for `nodeId` when nobody holds it or it has expired: the term goes up by
   * one. Returns the new term, or undefined when another node holds an unexpired lease.
   */
  async takeLease(nodeId: string, url: string, leaseMs: number): Promise<number | undefined> {
    try {
      const { rows } = await this.pool.query<{ term: string }>(
        `UPDATE ${this.s}.lease SET term = term + 1, holder = $1, holder_url = $2, expires_at = now() + $3 * interval '1 millisecond' WHERE id = 1 AND (holder IS NULL OR expires_at < now()) RETURNING term`,
        [nodeId, url, leaseMs],
      );
      return rows[0] === undefined ? undefined : Number(rows[0].term);
    } catch (e) {
      throw failure('cannot take the writer lease', e);
    }
  }

  /** Renews the lease of `nodeId` at `term`; false when it no longer holds it. */
  async renewLease(nodeId: string, term: number, url: string, leaseMs: number): Promise<boolean> {
    try {
      const { rowCount } = await this.pool.query(`UPDATE ${this.s}.lease SET expires_at = now() + $3 * interval '1 millisecond', holder_url = $4 WHERE id = 1 AND term = $1 AND holder = $2`, [term, nodeId, leaseMs, url]);
      return rowCount === 1;
    } catch (e) {
      throw failure('cannot renew the writer lease', e);
    }
  }

  /** Gives up the lease (at shutdown): it expires at once, so that a replica takes it without waiting. */
  async releaseLease(nodeId: string, term: number): Promise<void> {
    await this.pool.query(`UPDATE ${this.s}.lease SET expires_at = now() - interval '1 millisecond' WHERE id = 1 AND term = $1 AND holder = $2`, [term, nodeId]).catch(() => undefined);
  }

  /**
   * Appends a store's record at `version`, fenced by the lease, and notifies the listeners;
   * resolves once PostgreSQL has committed it.
   * @throws ReplicationError (the lease moved on, the version is already logged, PostgreSQL fails).
   */
  async append(term: number, nodeId: string, storeId: string, storeName: string, version: number, body: readonly Uint8Array[]): Promise<void> {
    await this.fenced(`cannot log version ${version} of data store '${storeName}'`, term, nodeId, async (c) => {
      try {
        await c.query(`INSERT INTO ${this.s}.log (store_id, version, term, body) VALUES ($1, $2, $3, $4)`, [storeId, version, term, Buffer.concat(body)]);
      } catch (e) {
        if ((e as { code?: unknown }).code === '23505') throw new ReplicationError(`version ${version} of data store '${storeName}' is already in the log (this node is behind it: it catches up, then the write can be retried); nothing was written`, { cause: e });
        throw e;
      }
      await c.query('SELECT pg_notify($1, $2)', [this.channel, `log:${storeId}:${version}`]);
    });
  }

  /** The log records of a store after `after`, oldest first (at most `limit`). */
  async readLog(storeId: string, after: number, limit: number): Promise<LogRow[]> {
    try {
      const { rows } = await this.pool.query<{ version: string; term: string; body: Buffer }>(`SELECT version, term, body FROM ${this.s}.log WHERE store_id = $1 AND version > $2 ORDER BY version LIMIT $3`, [storeId, after, limit]);
      return rows.map((r) => ({ version: Number(r.version), term: Number(r.term), body: new Uint8Array(r.body.buffer, r.body.byteOffset, r.body.length) }));
    } catch (e) {
      throw failure('cannot read the commit log', e);
    }
  }

  /** The last logged version of each store that has log records. */
  async lastVersions(): Promise<Map<string, number>> {
    try {
      const { rows } = await this.pool.query<{ store_id: string; version: string }>(`SELECT s.unique_id AS store_id, (SELECT max(version) FROM ${this.s}.log l WHERE l.store_id = s.unique_id) AS version FROM ${this.s}.stores s`);
      const out = new Map<string, number>();
      for (const r of rows) if (r.version !== null) out.set(r.store_id, Number(r.version));
      return out;
    } catch (e) {
      throw failure('cannot read the commit log', e);
    }
  }

  /** The bytes in the log of a store after `version` (the growth since its snapshot). */
  async logBytesAfter(storeId: string, version: number): Promise<number> {
    const { rows } = await this.pool.query<{ bytes: string | null }>(`SELECT sum(octet_length(body)) AS bytes FROM ${this.s}.log WHERE store_id = $1 AND version > $2`, [storeId, version]);
    return Number(rows[0]?.bytes ?? 0);
  }

  /**
   * Stores a snapshot of a store at `version` (in parts), replacing the previous one, and
   * deletes the log records at or below `trimTo` — all in one fenced transaction.
   */
  async writeSnapshot(term: number, nodeId: string, storeId: string, storeName: string, version: number, bytes: Uint8Array, trimTo: number): Promise<void> {
    await this.fenced(`cannot store the snapshot of data store '${storeName}'`, term, nodeId, async (c) => {
      await c.query(`DELETE FROM ${this.s}.snapshot_parts WHERE store_id = $1`, [storeId]);
      let parts = 0;
      for (let at = 0; at < bytes.length || parts === 0; at += SNAPSHOT_PART_BYTES) {
        const piece = bytes.subarray(at, Math.min(bytes.length, at + SNAPSHOT_PART_BYTES));
        await c.query(`INSERT INTO ${this.s}.snapshot_parts (store_id, version, part, body) VALUES ($1, $2, $3, $4)`, [storeId, version, parts++, Buffer.from(piece.buffer, piece.byteOffset, piece.length)]);
      }
      await c.query(
        `INSERT INTO ${this.s}.snapshots (store_id, version, term, bytes, parts, taken) VALUES ($1, $2, $3, $4, $5, now()) ON CONFLICT (store_id) DO UPDATE SET version = $2, term = $3, bytes = $4, parts = $5, taken = now()`,
        [storeId, version, term, bytes.length, parts],
      );
      await c.query(`DELETE FROM ${this.s}.log WHERE store_id = $1 AND version <= $2`, [storeId, Math.min(trimTo, version)]);
    });
  }

  /** The latest snapshot of a store, if it has one. */
  async readSnapshot(storeId: string): Promise<{ version: number; bytes: Uint8Array } | undefined> {
    try {
      // read in one transaction (REPEATABLE READ): parts of one snapshot, never of two
      return await this.transaction(async (client) => {
        const head = await client.query<{ version: string; parts: number }>(`SELECT version, parts FROM ${this.s}.snapshots WHERE store_id = $1`, [storeId]);
        const row = head.rows[0];
        if (row === undefined) return undefined;
        const pieces: Buffer[] = [];
        for (let part = 0; part < row.parts; part++) {
          const { rows } = await client.query<{ body: Buffer }>(`SELECT body FROM ${this.s}.snapshot_parts WHERE store_id = $1 AND version = $2 AND part = $3`, [storeId, row.version, part]);
          if (rows[0] === undefined) throw new ReplicationError(`the snapshot of store ${storeId} lacks part ${part}`);
          pieces.push(rows[0].body);
        }
        const all = Buffer.concat(pieces);
        return { version: Number(row.version), bytes: new Uint8Array(all.buffer, all.byteOffset, all.length) };
      }, 'BEGIN ISOLATION LEVEL REPEATABLE READ');
    } catch (e) {
      throw failure('cannot read a snapshot', e);
    }
  }

  /** The version of each store's snapshot. */
  async snapshotVersions(): Promise<Map<string, number>> {
    const { rows } = await this.pool.query<{ store_id: string; version: string }>(`SELECT store_id, version FROM ${this.s}.snapshots`);
    return new Map(rows.map((r) => [r.store_id, Number(r.version)]));
  }

  /** The generation of the roles and catalogue, and the role database (JSON, undefined before the first writer wrote it). */
  async serverState(): Promise<{ generation: number; roles: unknown }> {
    try {
      const { rows } = await this.pool.query<{ generation: string; roles: unknown }>(`SELECT generation, roles FROM ${this.s}.server_state WHERE id = 1`);
      return { generation: Number(rows[0]!.generation), roles: rows[0]!.roles ?? undefined };
    } catch (e) {
      throw failure('cannot read the role database', e);
    }
  }

  /** The generation alone (cheap: polled). */
  async generation(): Promise<number> {
    try {
      const { rows } = await this.pool.query<{ generation: string }>(`SELECT generation FROM ${this.s}.server_state WHERE id = 1`);
      return Number(rows[0]!.generation);
    } catch (e) {
      throw failure('cannot read the server state', e);
    }
  }

  /** Raises the generation and notifies the listeners (inside a fenced transaction). */
  private async bump(c: pg.PoolClient): Promise<void> {
    await c.query(`UPDATE ${this.s}.server_state SET generation = generation + 1 WHERE id = 1`);
    await c.query('SELECT pg_notify($1, $2)', [this.channel, 'catalogue']);
  }

  /** Writes the role database (fenced). */
  async writeRoles(term: number, nodeId: string, roles: unknown): Promise<void> {
    await this.fenced('cannot save the role database', term, nodeId, async (c) => {
      await c.query(`UPDATE ${this.s}.server_state SET roles = $1 WHERE id = 1`, [JSON.stringify(roles)]);
      await this.bump(c);
    });
  }

  /** The store catalogue. */
  async catalogue(): Promise<StoreRow[]> {
    try {
      const { rows } = await this.pool.query<{ name: string; unique_id: string; type: string; parameters: Record<string, string>; data_sources: unknown }>(`SELECT name, unique_id, type, parameters, data_sources FROM ${this.s}.stores ORDER BY name`);
      return rows.map((r) => ({ name: r.name, uniqueId: r.unique_id, type: r.type, parameters: r.parameters, dataSources: r.data_sources ?? undefined }));
    } catch (e) {
      throw failure('cannot read the store catalogue', e);
    }
  }

  /** Adds a store to the catalogue (fenced). */
  async insertStore(term: number, nodeId: string, store: StoreRow): Promise<void> {
    await this.fenced(`cannot create data store '${store.name}'`, term, nodeId, async (c) => {
      // a store of that name left by an earlier server (deleted here while offline) goes first
      await this.deleteStoreRows(c, store.name);
      await c.query(`INSERT INTO ${this.s}.stores (name, unique_id, type, parameters, data_sources) VALUES ($1, $2, $3, $4, $5)`, [store.name, store.uniqueId, store.type, JSON.stringify(store.parameters), store.dataSources === undefined ? null : JSON.stringify(store.dataSources)]);
      await this.bump(c);
    });
  }

  /** Removes a store, its log and its snapshot (fenced). */
  async deleteStore(term: number, nodeId: string, name: string): Promise<void> {
    await this.fenced(`cannot delete data store '${name}'`, term, nodeId, async (c) => {
      await this.deleteStoreRows(c, name);
      await this.bump(c);
    });
  }

  private async deleteStoreRows(c: pg.PoolClient, name: string): Promise<void> {
    const { rows } = await c.query<{ unique_id: string }>(`DELETE FROM ${this.s}.stores WHERE name = $1 RETURNING unique_id`, [name]);
    for (const r of rows) {
      for (const table of ['log', 'snapshots', 'snapshot_parts']) await c.query(`DELETE FROM ${this.s}.${table} WHERE store_id = $1`, [r.unique_id]);
    }
  }

  /** Sets a store's data source registrations (fenced). */
  async writeDataSources(term: number, nodeId: string, uniqueId: string, registrations: unknown): Promise<void> {
    await this.fenced('cannot save data source registrations', term, nodeId, async (c) => {
      await c.query(`UPDATE ${this.s}.stores SET data_sources = $2 WHERE unique_id = $1`, [uniqueId, registrations === undefined ? null : JSON.stringify(registrations)]);
      await this.bump(c);
    });
  }

  /** Writes a node's heartbeat. */
  async heartbeat(nodeId: string, url: string, role: string, term: number, status: unknown): Promise<void> {
    try {
      await this.pool.query(
        `INSERT INTO ${this.s}.nodes (node_id, url, role, term, started, heartbeat, status) VALUES ($1, $2, $3, $4, now(), now(), $5) ON CONFLICT (node_id) DO UPDATE SET url = $2, role = $3, term = $4, heartbeat = now(), status = $5`,
        [nodeId, url, role, term, JSON.stringify(status)],
      );
    } catch (e) {
      throw failure('cannot write the heartbeat', e);
    }
  }

  /** The nodes whose heartbeat is at most `withinMs` old. */
  async nodes(withinMs: number): Promise<NodeRow[]> {
    try {
      const { rows } = await this.pool.query<{ node_id: string; url: string; role: string; term: string; age: number; heartbeat: Date; status: unknown }>(
        `SELECT node_id, url, role, term, (EXTRACT(EPOCH FROM (now() - heartbeat)) * 1000)::float8 AS age, heartbeat, status FROM ${this.s}.nodes WHERE heartbeat > now() - $1 * interval '1 millisecond' ORDER BY node_id`,
        [withinMs],
      );
      return rows.map((r) => ({ nodeId: r.node_id, url: r.url, role: r.role, term: Number(r.term), heartbeatAgeMs: Number(r.age), heartbeat: r.heartbeat, status: r.status }));
    } catch (e) {
      throw failure('cannot read the nodes', e);
    }
  }

  /**
   * Listens for the notifications of the schema on a connection of its own: `onNotify` gets
   * each payload (`log:<store id>:<version>` or `catalogue`); `onEnd` is called when the
   * connection ends. Returns a function that stops listening.
   */
  async listen(onNotify: (payload: string) => void, onEnd: (error: unknown) => void): Promise<() => Promise<void>> {
    const client = new pg.Client(this.config);
    let stopped = false;
    const ended = (e: unknown): void => {
      if (stopped) return;
      stopped = true;
      client.end().catch(() => undefined);
      onEnd(e);
    };
    client.on('error', ended);
    client.on('end', () => ended(new Error('the connection ended')));
    client.on('notification', (m) => onNotify(m.payload ?? ''));
    try {
      await client.connect();
      await client.query(`LISTEN ${quoteIdentifier(this.channel)}`);
    } catch (e) {
      stopped = true;
      await client.end().catch(() => undefined);
      throw failure('cannot listen for notifications', e);
    }
    return async () => {
      stopped = true;
      await client.end().catch(() => undefined);
    };
  }

  /** Closes the pool. */
  async close(): Promise<void> {
    await this.pool.end().catch(() => undefined);
  }
}
