/**
 * Test helper: a real PostgreSQL server for one spec file, from the PostgreSQL binaries on the
 * machine (`initdb`, `pg_ctl`; Debian's package puts them in /usr/lib/postgresql/<n>/bin). It
 * is initialised into a fresh temporary directory, listens on 127.0.0.1 on a free port with
 * its socket in that directory, requires passwords over TCP, and is stopped and removed in the
 * `after` hook. When the process runs as root the binaries run as the `postgres` user (or
 * `nobody`), since PostgreSQL refuses to run as root. A spec may stop the server (`halt`: an
 * immediate shutdown, as a crash), start it again (`start`) or do both (`restart`): it keeps
 * its data and its port; and make a fresh database owned by a role that may create schemas
 * in it (`newDatabase`), e.g. for quadlog's PostgreSQL persistence. Where no binaries are found, Debian's
 * postgresql package is installed first (helpers/debian.ts). If the server cannot
 * start, the `before` hook fails: the specs are not skipped.
 *
 * Usage, at the top of a `describe`:
 *
 * ```ts
 * const pg = usePostgres();
 * it('…', async () => {
 *   await pg.sql('CREATE TABLE t (x int)');
 *   … pg.connectionString …
 * });
 * ```
 */
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { installDebianPackages } from './debian.js';

/** The superuser of the test server. */
export const PG_ADMIN = 'quadlog_admin';
/** Its password. */
export const PG_ADMIN_PASSWORD = 'admin-pw-for-tests';
/** A role that reads the test database with a password (for wrong-password tests). */
export const PG_READER = 'quadlog_reader';
/** Its password. */
export const PG_READER_PASSWORD = 'reader-pw-for-tests';
/** The test database. */
export const PG_DATABASE = 'quadlog_test';
/** The role that owns the databases of {@link TestPostgres.newDatabase} (it may create schemas there). */
export const PG_OWNER = 'quadlog_owner';
/** Its password. */
export const PG_OWNER_PASSWORD = 'owner-pw-for-tests';

/** What {@link usePostgres} gives a spec file. */
export interface TestPostgres {
  /** The port it listens on (127.0.0.1). */
  readonly port: number;
  /** A connection string of the reader role to the test database. */
  readonly connectionString: string;
  /** A connection string with the given password (and the reader role). */
  connectionStringWith(password: string): string;
  /** The server's log so far (every statement is logged). */
  log(): string;
  /** Runs SQL as the superuser in the test database (reconnecting after a restart). */
  sql(text: string, values?: unknown[]): Promise<pg.QueryResult>;
  /**
   * Creates a fresh database owned by {@link PG_OWNER} (who may create schemas and tables in
   * it) and answers its connection string (a libpq URL); the name is made unique when absent.
   */
  newDatabase(name?: string): Promise<string>;
  /**
   * Stops the server at once (`pg_ctl stop -m immediate`: open sessions are cut, as in a
   * crash), keeping its data directory and port; {@link start} starts it again.
   */
  halt(): Promise<void>;
  /** Starts a server stopped by {@link halt} on the same data and port (waits until it accepts connections). */
  start(): Promise<void>;
  /** {@link halt}, then {@link start}. */
  restart(): Promise<void>;
  /** Whether the server is running (false between {@link halt} and {@link start}). */
  readonly running: boolean;
}

/** The directory holding initdb and pg_ctl, installing Debian's postgresql package when none has them. */
async function binDirectory(): Promise<string> {
  const found = findBinDirectory();
  if (found) return found;
  // a fresh machine: install the binaries (from the Debian registry), then look again
  await installDebianPackages('postgresql');
  const installed = findBinDirectory();
  if (!installed) throw new Error('PostgreSQL binaries (initdb, pg_ctl) not found, and installing the Debian package postgresql did not provide them');
  return installed;
}

/** The directory holding initdb and pg_ctl, if any. */
function findBinDirectory(): string | undefined {
  const candidates: string[] = [];
  const base = '/usr/lib/postgresql';
  if (existsSync(base)) {
    for (const v of readdirSync(base).sort((a, b) => Number(b) - Number(a))) candidates.push(join(base, v, 'bin'));
  }
  candidates.push('/usr/local/bin', '/usr/bin');
  return candidates.find((d) => existsSync(join(d, 'initdb')) && existsSync(join(d, 'pg_ctl')));
}

/** A free TCP port on 127.0.0.1. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** The unprivileged user to run PostgreSQL as when the process is root. */
function runAs(): string | undefined {
  if (process.getuid?.() !== 0) return undefined;
  return spawnSync('id', ['-u', 'postgres']).status === 0 ? 'postgres' : 'nobody';
}

function run(user: string | undefined, command: string, args: string[]): void {
  const [file, argv] = user ? ['runuser', ['-u', user, '--', command, ...args]] : [command, args];
  execFileSync(file, argv, { stdio: 'pipe', cwd: tmpdir() });
}

/** Like {@link run}, without blocking the event loop (other processes' clients keep running). */
function runAsync(user: string | undefined, command: string, args: string[]): Promise<void> {
  const [file, argv] = user ? ['runuser', ['-u', user, '--', command, ...args]] : [command, args];
  return new Promise((resolve, reject) => {
    execFile(file, argv, { cwd: tmpdir() }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${command} ${args.join(' ')} failed: ${error.message}\n${stdout}\n${stderr}`));
      else resolve();
    });
  });
}

/** A superuser client of the test database that does not crash the process when the server goes away. */
async function adminClient(port: number): Promise<pg.Client> {
  const client = new pg.Client({ host: '127.0.0.1', port, user: PG_ADMIN, password: PG_ADMIN_PASSWORD, database: PG_DATABASE });
  // a halted server ends the session with an 'error' event; unhandled, it would end mocha
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

/** A counter that makes the names of {@link TestPostgres.newDatabase} unique within the process. */
let databases = 0;

/** A running test server. */
export interface RunningPostgres extends TestPostgres {
  /** Stops the server and removes its directory. */
  stop(): Promise<void>;
}

/**
 * Starts a PostgreSQL server in a fresh temporary directory (see the module documentation).
 * @throws Error when the binaries are missing or the server cannot start.
 */
export async function startPostgres(): Promise<RunningPostgres> {
  const bin = await binDirectory();
  const user = runAs();
  const dir = mkdtempSync(join(tmpdir(), 'quadlog-pg-'));
  const data = join(dir, 'data');
  let admin: pg.Client | undefined;
  let started = false;
  /** False between halt and start. */
  let running = false;
  let port = 0;
  const pgCtlStart = (): Promise<void> =>
    runAsync(user, join(bin, 'pg_ctl'), ['-D', data, '-l', join(dir, 'log'), '-w', '-t', '60', '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c log_statement=all`, 'start']);
  const stop = async (): Promise<void> => {
    await admin?.end().catch(() => undefined);
    try {
      if (started && running) run(user, join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  try {
    chmodSync(dir, 0o700);
    const pwfile = join(dir, 'pw');
    writeFileSync(pwfile, `${PG_ADMIN_PASSWORD}\n`);
    if (user) {
      const uid = Number(execFileSync('id', ['-u', user]).toString().trim());
      const gid = Number(execFileSync('id', ['-g', user]).toString().trim());
      chownSync(dir, uid, gid);
      chownSync(pwfile, uid, gid);
    }
    port = await freePort();
    run(user, join(bin, 'initdb'), ['-D', data, '-U', PG_ADMIN, `--pwfile=${pwfile}`, '--auth-host=scram-sha-256', '--auth-local=scram-sha-256', '-E', 'UTF8', '--no-sync']);
    await pgCtlStart();
    started = true;
    running = true;
    const setup = new pg.Client({ host: '127.0.0.1', port, user: PG_ADMIN, password: PG_ADMIN_PASSWORD, database: 'postgres' });
    await setup.connect();
    await setup.query(`CREATE ROLE ${PG_READER} LOGIN PASSWORD '${PG_READER_PASSWORD}'`);
    await setup.query(`CREATE ROLE ${PG_OWNER} LOGIN PASSWORD '${PG_OWNER_PASSWORD}'`);
    await setup.query(`CREATE DATABASE ${PG_DATABASE} OWNER ${PG_READER}`);
    await setup.end();
    admin = await adminClient(port);
    await admin.query(`GRANT ALL ON SCHEMA public TO ${PG_READER}`);
    await admin.query(`ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT ON TABLES TO ${PG_READER}`);
    const connectionStringWith = (password: string): string => `postgresql://${PG_READER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${PG_DATABASE}`;
    const sql = async (text: string, values?: unknown[]): Promise<pg.QueryResult> => {
      if (!running) throw new Error('the test PostgreSQL server is halted');
      admin ??= await adminClient(port);
      return admin.query(text, values);
    };
    const halt = async (): Promise<void> => {
      if (!running) return;
      running = false;
      const client = admin;
      admin = undefined;
      await runAsync(user, join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
      await client?.end().catch(() => undefined);
    };
    const start = async (): Promise<void> => {
      if (running) return;
      await pgCtlStart();
      running = true;
    };
    return {
      port,
      connectionString: connectionStringWith(PG_READER_PASSWORD),
      connectionStringWith,
      log: () => readFileSync(join(dir, 'log'), 'utf8'),
      sql,
      newDatabase: async (name?: string): Promise<string> => {
        const database = name ?? `quadlog_db_${process.pid}_${++databases}`;
        await sql(`CREATE DATABASE ${database} OWNER ${PG_OWNER}`);
        return `postgresql://${PG_OWNER}:${encodeURIComponent(PG_OWNER_PASSWORD)}@127.0.0.1:${port}/${database}`;
      },
      halt,
      start,
      restart: async () => {
        await halt();
        await start();
      },
      get running() {
        return running;
      },
      stop,
    };
  } catch (e) {
    await stop();
    throw e;
  }
}

/** Starts a PostgreSQL server for the enclosing `describe` (before/after hooks). */
export function usePostgres(): TestPostgres {
  let running: RunningPostgres | undefined;

  before(async function () {
    this.timeout(120_000);
    running = await startPostgres();
  });

  after(async function () {
    this.timeout(60_000);
    await running?.stop();
  });

  const get = (): RunningPostgres => {
    if (!running) throw new Error('the PostgreSQL server is started in a before hook');
    return running;
  };
  return {
    get port() {
      return get().port;
    },
    get connectionString() {
      return get().connectionString;
    },
    connectionStringWith: (password) => get().connectionStringWith(password),
    log: () => get().log(),
    sql: (text, values) => get().sql(text, values),
    newDatabase: (name) => get().newDatabase(name),
    halt: () => get().halt(),
    start: () => get().start(),
    restart: () => get().restart(),
    get running() {
      return get().running;
    },
  };
}
