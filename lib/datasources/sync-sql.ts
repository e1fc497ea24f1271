/**
 * A synchronous channel to PostgreSQL. Rules and queries are evaluated synchronously, while
 * the `pg` client is asynchronous: the client runs in a worker thread, and the calling thread
 * waits on a shared buffer (`Atomics.wait`) until the worker has put the answer there. Large
 * answers travel in pieces. The worker keeps one connection, opened on first use and closed
 * after `keepAliveMs` without use.
 *
 * Reads go through a cursor (`DECLARE … CURSOR` in a read-only transaction) fetched
 * `batchSize` rows at a time, so a large table is never held whole in memory. Every value
 * arrives as PostgreSQL's text form (or null).
 *
 * Every statement runs under the source's `statement_timeout`, and a request may carry a
 * deadline (a query's time limit): when it passes, the waiting thread asks the worker to cancel
 * the statement (`pg_cancel_backend` from a second connection) and fails with
 * {@link SqlDeadlineError}. The waiting thread cannot see interrupts while it waits, so a
 * deadline is the only thing that stops a statement early; a statement that does not stop
 * within {@link CANCEL_GRACE_MS} after the cancel loses its connection (and worker).
 * @module
 */
import { createRequire } from 'node:module';
import type { Worker } from 'node:worker_threads';
import type { PgConnectionSettings } from './libpq-conninfo.js';

/** A request to the worker. */
type Request =
  | { readonly op: 'query'; readonly sql: string; readonly params: readonly string[] }
  | { readonly op: 'open'; readonly sql: string; readonly params: readonly string[] }
  | { readonly op: 'fetch'; readonly count: number }
  | { readonly op: 'close' }
  | { readonly op: 'next' }
  | { readonly op: 'cancel' };

/** What the worker answers: rows with their field names and type ids, or an error. */
export interface SqlAnswer {
  /** The field names. */
  readonly fields: ReadonlyArray<{ readonly name: string; readonly type: number }>;
  /** The rows, each value in text form or null. */
  readonly rows: ReadonlyArray<ReadonlyArray<string | null>>;
}

/** SQLSTATE of a statement cancelled (by a statement timeout or a cancel request). */
export const QUERY_CANCELED = '57014';

/** A failure reported by PostgreSQL or the connection. */
export class SqlError extends Error {
  /** Creates the error with PostgreSQL's SQLSTATE code when there is one. */
  constructor(
    message: string,
    /** The SQLSTATE code, or the Node error code of a failed connection. */
    readonly code: string | undefined,
  ) {
    super(message);
    this.name = 'SqlError';
  }
}

/** The worker's code (plain JavaScript, so it runs the same from the sources and from dist). */
const WORKER_CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const pg = require(workerData.pgPath);
const control = new Int32Array(workerData.control);
const data = new Uint8Array(workerData.data);
const encoder = new TextEncoder();
let client = null;
let idle = null;
let pending = null;
const raw = { getTypeParser: () => (value) => value };
const statements = new Map();
function statementName(sql) {
  let name = statements.get(sql);
  if (name === undefined) { name = 'quadlog_' + statements.size; statements.set(sql, name); }
  return name;
}
function config() {
  const { tls, connectTimeoutMs, ...settings } = workerData.connection;
  const c = { ...settings, connectionTimeoutMillis: connectTimeoutMs ?? workerData.connectTimeoutMs, types: raw };
  if (workerData.statementTimeoutMs > 0) c.statement_timeout = workerData.statementTimeoutMs;
  if (tls === 'none') c.ssl = { rejectUnauthorized: false };
  else if (tls === 'ca') c.ssl = { rejectUnauthorized: true, checkServerIdentity: () => undefined };
  else if (tls === 'full') c.ssl = { rejectUnauthorized: true };
  return c;
}
// a cancel request, from a second connection: the statement running on the first stops
function cancel() {
  const c = client;
  if (!c || !c.processID) return;
  const canceller = new pg.Client(config());
  canceller.on('error', () => {});
  canceller.connect()
    .then(() => canceller.query('SELECT pg_cancel_backend($1)', [c.processID]))
    .catch(() => {})
    .finally(() => canceller.end().catch(() => {}));
}
async function connection() {
  if (idle) clearTimeout(idle);
  if (!client) {
    const c = new pg.Client(config());
    c.on('error', () => { if (client === c) client = null; });
    try { await c.connect(); } catch (e) { c.end().catch(() => {}); throw e; }
    client = c;
  }
  return client;
}
function release() {
  if (idle) clearTimeout(idle);
  idle = setTimeout(() => { const c = client; client = null; if (c) c.end().catch(() => {}); }, workerData.keepAliveMs);
  idle.unref();
}
function send(bytes) {
  const size = data.length;
  const piece = bytes.subarray(0, size);
  data.set(piece);
  pending = bytes.length > size ? bytes.subarray(size) : null;
  Atomics.store(control, 1, piece.length);
  Atomics.store(control, 2, pending ? 1 : 0);
  Atomics.store(control, 0, 1);
  Atomics.notify(control, 0);
}
function answer(value) { send(encoder.encode(JSON.stringify(value))); }
async function run(request) {
  if (request.op === 'next') { send(pending || new Uint8Array(0)); return; }
  try {
    const c = await connection();
    let result;
    if (request.op === 'query') result = await c.query({ name: statementName(request.sql), text: request.sql, values: request.params, rowMode: 'array' });
    else if (request.op === 'open') {
      await c.query('BEGIN READ ONLY');
      try { await c.query({ text: 'DECLARE quadlog_cursor NO SCROLL CURSOR FOR ' + request.sql, values: request.params }); }
      catch (e) { await c.query('ROLLBACK').catch(() => {}); throw e; }
      result = { fields: [], rows: [] };
    } else if (request.op === 'fetch') result = await c.query({ text: 'FETCH ' + request.count + ' FROM quadlog_cursor', rowMode: 'array' });
    else { await c.query('ROLLBACK').catch(() => {}); result = { fields: [], rows: [] }; }
    answer({ fields: result.fields.map((f) => ({ name: f.name, type: f.dataTypeID })), rows: result.rows });
  } catch (e) {
    if (request.op === 'fetch' && client) await client.query('ROLLBACK').catch(() => {});
    answer({ error: String(e && e.message || e), code: e && e.code });
  } finally { release(); }
}
parentPort.on('message', (request) => { if (request.op === 'cancel') cancel(); else run(request); });
`;

/** Bytes of the shared answer buffer. */
const DATA_BYTES = 1 << 20;

/** How long a cancelled statement may take to stop before the connection is dropped (ms). */
const CANCEL_GRACE_MS = 10_000;

/** Raised when a request is stopped because the caller's deadline passed (the statement was cancelled). */
export class SqlDeadlineError extends Error {
  /** Creates the error. */
  constructor() {
    super('the deadline passed');
    this.name = 'SqlDeadlineError';
  }
}

/** Options of a channel. */
export interface SyncSqlOptions {
  /** The client's connection settings (libpq-conninfo.ts). */
  readonly connection: PgConnectionSettings;
  /** PostgreSQL's statement_timeout for every statement (ms; 0: none). */
  readonly statementTimeoutMs: number;
  /** How long an unused connection stays open. */
  readonly keepAliveMs: number;
  /** How long connecting may take. */
  readonly connectTimeoutMs: number;
}

/** A synchronous PostgreSQL client (see the module documentation). */
export class SyncSql {
  private worker: Worker;
  private readonly control = new Int32Array(new SharedArrayBuffer(12));
  private readonly data = new Uint8Array(new SharedArrayBuffer(DATA_BYTES));
  private readonly decoder = new TextDecoder();
  private cursorOpen = false;

  /** Starts the worker (no connection is made until the first request). */
  constructor(private readonly options: SyncSqlOptions) {
    this.worker = this.start();
  }

  /**
   * Runs a statement with text parameters and returns its whole answer. When `deadline` (a
   * performance.now() value) passes first, the statement is cancelled and SqlDeadlineError thrown.
   */
  query(sql: string, params: readonly string[] = [], deadline = Infinity): SqlAnswer {
    return this.call({ op: 'query', sql, params }, deadline);
  }

  /**
   * The rows of a query, fetched `batchSize` at a time through a cursor. One cursor is open
   * at a time: a read started while another is open reads that query's rows in full first.
   * `deadline` bounds each fetch as it bounds {@link SyncSql.query}.
   */
  *rows(sql: string, params: readonly string[], batchSize: number, deadline = Infinity): Generator<ReadonlyArray<string | null>> {
    if (this.cursorOpen) {
      yield* this.query(sql, params, deadline).rows;
      return;
    }
    this.cursorOpen = true;
    try {
      this.call({ op: 'open', sql, params }, deadline);
      for (;;) {
        const batch = this.call({ op: 'fetch', count: batchSize }, deadline).rows;
        yield* batch;
        if (batch.length < batchSize) break;
      }
    } finally {
      this.cursorOpen = false;
      this.call({ op: 'close' }, Infinity);
    }
  }

  /** Stops the worker (and with it the connection). */
  close(): Promise<number> {
    return this.worker.terminate();
  }

  private start(): Worker {
    const requireModule = createRequire(import.meta.url);
    const pgPath = requireModule.resolve('pg');
    // node:worker_threads loads with the first connection, not when quadlog is imported
    const { Worker } = requireModule('node:worker_threads') as typeof import('node:worker_threads');
    const worker = new Worker(WORKER_CODE, {
      eval: true,
      workerData: { ...this.options, pgPath, control: this.control.buffer, data: this.data.buffer },
    });
    worker.unref();
    return worker;
  }

  /** Waits for the worker's answer until `deadline` (performance.now()); false when it passed first. */
  private wait(deadline: number): boolean {
    for (;;) {
      if (Atomics.load(this.control, 0) !== 0) return true;
      const left = deadline - performance.now();
      if (left <= 0) return false;
      Atomics.wait(this.control, 0, 0, left === Infinity ? undefined : left);
    }
  }

  private call(request: Request, deadline: number): SqlAnswer {
    const parts: Uint8Array[] = [];
    let next: Request = request;
    let late = false;
    for (;;) {
      Atomics.store(this.control, 0, 0);
      this.worker.postMessage(next);
      if (!this.wait(deadline)) {
        // past the deadline: the statement is cancelled, and its (failed) answer awaited
        late = true;
        this.worker.postMessage({ op: 'cancel' } satisfies Request);
        if (!this.wait(performance.now() + CANCEL_GRACE_MS)) {
          // not even a cancel stops it: the connection is dropped with its worker
          void this.worker.terminate();
          this.worker = this.start();
          this.cursorOpen = false;
          throw new SqlDeadlineError();
        }
      }
      const length = Atomics.load(this.control, 1);
      parts.push(this.data.slice(0, length));
      if (Atomics.load(this.control, 2) === 0) break;
      next = { op: 'next' };
      deadline = Infinity;
    }
    if (late) throw new SqlDeadlineError();
    const bytes = parts.length === 1 ? parts[0]! : Buffer.concat(parts);
    const value = JSON.parse(this.decoder.decode(bytes)) as SqlAnswer | { error: string; code?: string };
    if ('error' in value) throw new SqlError(value.error, value.code);
    return value;
  }
}
