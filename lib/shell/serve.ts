/**
 * `quadlog serve`: a server with its first role, the HTTP endpoint and (unless `--no-demo`) the
 * demo data store, with the URL and a few curl commands to try printed at start.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { AuthenticationError, ConnectionFactory, GUEST_ROLE, type RecoveryEvent, Server, type ServerConnection } from '../index.js';
import { startEndpoint, type EndpointHandle, type Variant } from '../http/index.js';
import { createDemoStore, DEMO_STORE } from './demo.js';

/** What `quadlog serve` was asked to do. */
export interface ServeOptions {
  /** Port (default 12110; 0 = any free port). */
  readonly port: number;
  /** Host to listen on. */
  readonly host: string;
  /** Interface variant. */
  readonly variant: Variant;
  /**
   * Name of the first role of a new server; on a server directory that already holds a
   * server, the role `serve` acts as, checked against the directory's roles (when given).
   */
  readonly role: string;
  /** Its password. */
  readonly password: string;
  /**
   * Whether the password was generated because none was given: it is printed when it made
   * the first role of a new server, and not used at all on a server directory that already
   * holds a server (the roles come from the directory).
   */
  readonly generatedPassword: boolean;
  /** Whether to create the demo store. */
  readonly demo: boolean;
  /**
   * Who may act without credentials: nobody (`none`: `--no-guest`, and the default without
   * the demo; even when the roles of a server directory include `guest`, which is kept but not
   * acted as in this run), the role `guest` reading the demo store only (`demo`, the default
   * with the demo), or `guest` reading every store (`all`, `--guest`).
   */
  readonly guest: GuestAccess;
  /** Connection idle lifetime in milliseconds. */
  readonly objectKeepAliveTime?: number;
  /** The largest request body the endpoint accepts, in bytes (`--max-content-size`). */
  readonly maxContentBytes?: number;
  /** False to serve no web console at `/console/` (`--no-console`); served when absent. */
  readonly console?: boolean;
  /** True when `--help` (or `-h`) asked for the usage text: nothing is started. */
  readonly help?: boolean;
  /** Files to import before serving (`--import FILE…`), in order; read as the command names them. */
  readonly imports?: readonly string[];
  /** The store the imports go into (`--store NAME`, created when absent); the demo store by default. */
  readonly importStore?: string;
  /**
   * Server parameters the flags set: `sandbox-directory` (`--sandbox-directory`),
   * `allowed-url-schemes-on-import` (`--allowed-url-schemes`), `persistence=file` with
   * `server-directory` (`--server-directory`), `persistence-durability`
   * (`--persistence-durability`), `query-time-limit` (`--query-time-limit`),
   * `query-memory-limit` (`--query-memory-limit`) and `allow-query-limit-override=true`
   * (`--allow-query-limit-override`).
   */
  readonly parameters?: Readonly<Record<string, string>>;
}

/** What `quadlog serve` lets requests without credentials do. */
export type GuestAccess = 'none' | 'demo' | 'all';

/** Usage text of `quadlog serve`. */
export const SERVE_USAGE = `usage: quadlog serve [--port N] [--host H] [--variant A|B] [--role NAME --password PW]
                     [--import FILE... [--store NAME]] [--help]
                     [--object-keep-alive-time MS] [--max-content-size BYTES]
                     [--sandbox-directory DIR] [--allowed-url-schemes LIST] [--no-demo]
                     [--server-directory DIR [--persistence-durability sync|relaxed]]
                     [--persistence postgresql --persistence-connection-string CS
                      [--persistence-schema NAME] [--node-id ID] [--node-url URL]
                      [--persistence-lease-time MS] [--persistence-replicate-derived]]
                     [--persistence-compact-threshold BYTES]
                     [--guest | --no-guest] [--no-console]
                     [--query-time-limit MS|none] [--query-memory-limit BYTES|none]
                     [--allow-query-limit-override]

--import FILE... loads files (Turtle, N-Triples, N-Quads, TriG, Datalog; gzip'd or not; the
format is detected) into the demo store, or into the store --store NAME (created when absent),
before serving; a file with an error stops the command, naming the file, line and column.

The first role of a new server comes from --role/--password, else from the environment
variables QUADLOG_ROLE and QUADLOG_PASSWORD, else it is 'admin' with a generated password,
printed once (a restart on a --server-directory takes the roles from there: see below).

Imports by IRI (text/uri-list bodies, SPARQL LOAD) read only URLs of the schemes of
--allowed-url-schemes (comma-separated from file, http, https; default https), and file IRIs
only inside --sandbox-directory (without it, none). Request bodies larger than
--max-content-size bytes (default 1 GiB) answer 413.

Requests without credentials are refused (401), except that with the demo store they act as
the role 'guest', which may read the demo store only. --guest lets them read every store
(never write); --no-guest refuses them even with the demo.

The web console is served at /console/ (sign in with a role and password there);
--no-console turns it off.

--server-directory DIR keeps roles, stores and their data in DIR (persistence=file): a restart
on the same directory loads them. The roles then come from DIR: no role is created and no
password generated or printed. --role/--password (or QUADLOG_ROLE/QUADLOG_PASSWORD), when
given, are checked against DIR's roles (a wrong password or unknown role stops the command)
and are the role that creates a missing demo store and runs --import; without them the demo
store is not re-created and --import is refused. When DIR's roles include 'guest', --no-guest
(or --no-demo without --guest) still refuses requests without credentials (401) for the whole
run; the role is not deleted: it stays in DIR with its privileges, for a later run without the
flag. Each commit is flushed to the disk before it is acknowledged; --persistence-durability
relaxed only hands it to the operating system (faster; survives a crash of quadlog, not of
the machine). A log whose last record was torn (a crash mid-write) is cut back to its last
whole record at start-up, and standard error says so:
"quadlog serve: data store 'NAME': cut ... from FILE; N whole records kept".

--persistence postgresql keeps roles, stores, snapshots and the commit log in PostgreSQL
(--persistence-connection-string, tables in the schema --persistence-schema, default quadlog),
so that several quadlog processes serve the same stores: one is the writer (it holds a lease
in PostgreSQL, renewed every third of --persistence-lease-time, default 3000 ms), the others
are replicas that follow its log and refuse writes (503 ReplicaWriteError naming the writer,
with the headers Quadlog-Writer and Quadlog-Writer-URL). When the writer's lease expires, a
replica takes over. --node-id names this process (default host-pid-random); --node-url is the
URL recorded for it (default the endpoint's URL). --persistence-replicate-derived makes the
writer's log records carry each commit's derived changes too, and a replica with the flag
apply such records without reasoning (larger records, less work per replica). See
docs/replication.md.

--query-time-limit stops a query (or an update's WHERE clauses) after MS milliseconds (default
none); --query-memory-limit stops a query that holds more than BYTES (estimated: sorts, groups,
DISTINCT, CONSTRUCT answers; default a quarter of max-memory or of the V8 heap limit, whichever
is smaller). A request may lower them (query-time-limit and query-memory-limit parameters of
/sparql); --allow-query-limit-override lets it raise them too.`;

/** Parses the arguments of `quadlog serve` (after the command name); throws with a message naming the problem. */
export function parseServeArguments(args: readonly string[], env: NodeJS.ProcessEnv = process.env): ServeOptions {
  const { values, positionals } = parseArgs({
    args: [...args],
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      variant: { type: 'string' },
      role: { type: 'string' },
      password: { type: 'string' },
      'object-keep-alive-time': { type: 'string' },
      'max-content-size': { type: 'string' },
      'sandbox-directory': { type: 'string' },
      'allowed-url-schemes': { type: 'string' },
      'server-directory': { type: 'string' },
      'persistence-durability': { type: 'string' },
      persistence: { type: 'string' },
      'persistence-connection-string': { type: 'string' },
      'persistence-schema': { type: 'string' },
      'persistence-lease-time': { type: 'string' },
      'persistence-replicate-derived': { type: 'boolean' },
      'persistence-compact-threshold': { type: 'string' },
      'node-id': { type: 'string' },
      'node-url': { type: 'string' },
      'no-demo': { type: 'boolean' },
      guest: { type: 'boolean' },
      'no-guest': { type: 'boolean' },
      'no-console': { type: 'boolean' },
      'query-time-limit': { type: 'string' },
      'query-memory-limit': { type: 'string' },
      'allow-query-limit-override': { type: 'boolean' },
      import: { type: 'string', multiple: true },
      store: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: true,
  });
  if (values.help === true) return { ...HELP_OPTIONS, help: true };
  // the words after --import FILE are more files to import (--import a.ttl b.ttl)
  const imports = [...(values.import ?? []), ...positionals];
  if (positionals.length > 0 && values.import === undefined) throw new Error(`unexpected argument '${positionals[0]}' (files to load go after --import)`);
  if (values.store !== undefined && imports.length === 0) throw new Error('--store names the store of --import: give the files with --import FILE...');
  if (values.store === '') throw new Error('invalid --store \'\': a store name is required');
  const port = values.port === undefined ? 12110 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`invalid --port '${values.port}': an integer from 0 to 65535 is required`);
  const variant = values.variant ?? 'B';
  if (variant !== 'A' && variant !== 'B') throw new Error(`invalid --variant '${variant}': A or B`);
  let keepAlive: number | undefined;
  if (values['object-keep-alive-time'] !== undefined) {
    keepAlive = Number(values['object-keep-alive-time']);
    if (!Number.isInteger(keepAlive) || keepAlive <= 0) throw new Error(`invalid --object-keep-alive-time '${values['object-keep-alive-time']}': a positive number of milliseconds is required`);
  }
  let maxContentBytes: number | undefined;
  if (values['max-content-size'] !== undefined) {
    maxContentBytes = /^\d+$/.test(values['max-content-size']) ? Number(values['max-content-size']) : Number.NaN;
    if (!Number.isSafeInteger(maxContentBytes) || maxContentBytes <= 0) throw new Error(`invalid --max-content-size '${values['max-content-size']}': a positive number of bytes is required`);
  }
  const parameters: Record<string, string> = {};
  if (values['sandbox-directory'] !== undefined) parameters['sandbox-directory'] = values['sandbox-directory'];
  if (values['allowed-url-schemes'] !== undefined) parameters['allowed-url-schemes-on-import'] = values['allowed-url-schemes'];
  if (values['server-directory'] !== undefined) {
    parameters.persistence = 'file';
    parameters['server-directory'] = values['server-directory'];
  }
  const mode = values.persistence;
  if (mode !== undefined && mode !== 'off' && mode !== 'file' && mode !== 'postgresql') throw new Error(`invalid --persistence '${mode}': off, file or postgresql`);
  if (mode === 'file' && values['server-directory'] === undefined) throw new Error('--persistence file needs --server-directory DIR');
  if (mode === 'off' && values['server-directory'] !== undefined) throw new Error('--server-directory needs --persistence file (or no --persistence)');
  if (mode === 'postgresql') {
    if (values['server-directory'] !== undefined) throw new Error('--server-directory cannot be used with --persistence postgresql: everything is kept in PostgreSQL');
    const connection = values['persistence-connection-string'] ?? env.QUADLOG_PERSISTENCE_CONNECTION_STRING;
    if (connection === undefined || connection === '') throw new Error('--persistence postgresql needs --persistence-connection-string (a libpq URL or key=value string; or the environment variable QUADLOG_PERSISTENCE_CONNECTION_STRING)');
    parameters.persistence = 'postgresql';
    parameters['persistence-connection-string'] = connection;
    if (values['persistence-schema'] !== undefined) parameters['persistence-schema'] = values['persistence-schema'];
    if (values['node-id'] !== undefined) parameters['persistence-node-id'] = values['node-id'];
    if (values['node-url'] !== undefined) parameters['persistence-node-url'] = values['node-url'];
    if (values['persistence-lease-time'] !== undefined) {
      if (!/^\d+$/.test(values['persistence-lease-time']) || Number(values['persistence-lease-time']) < 100) throw new Error(`invalid --persistence-lease-time '${values['persistence-lease-time']}': milliseconds, at least 100`);
      parameters['persistence-lease-time'] = values['persistence-lease-time'];
    }
    if (values['persistence-replicate-derived'] === true) parameters['persistence-replicate-derived'] = 'true';
  } else {
    for (const flag of ['persistence-connection-string', 'persistence-schema', 'persistence-lease-time', 'persistence-replicate-derived', 'node-id', 'node-url'] as const) {
      if (values[flag] !== undefined) throw new Error(`--${flag} needs --persistence postgresql`);
    }
  }
  if (values['persistence-compact-threshold'] !== undefined) {
    if (mode !== 'postgresql' && values['server-directory'] === undefined) throw new Error('--persistence-compact-threshold needs --server-directory or --persistence postgresql');
    if (!/^\d+$/.test(values['persistence-compact-threshold'])) throw new Error(`invalid --persistence-compact-threshold '${values['persistence-compact-threshold']}': a number of bytes`);
    parameters['persistence-compact-threshold'] = values['persistence-compact-threshold'];
  }
  if (values['persistence-durability'] !== undefined) {
    if (values['server-directory'] === undefined) throw new Error('--persistence-durability needs --server-directory');
    if (values['persistence-durability'] !== 'sync' && values['persistence-durability'] !== 'relaxed') throw new Error(`invalid --persistence-durability '${values['persistence-durability']}': sync or relaxed`);
    parameters['persistence-durability'] = values['persistence-durability'];
  }
  for (const flag of ['query-time-limit', 'query-memory-limit'] as const) {
    const value = values[flag];
    if (value === undefined) continue;
    if (value !== 'none' && !(/^\d+$/.test(value) && Number(value) > 0 && Number.isSafeInteger(Number(value)))) {
      throw new Error(`invalid --${flag} '${value}': a positive integer (${flag === 'query-time-limit' ? 'milliseconds' : 'bytes'}) or none`);
    }
    parameters[flag] = value;
  }
  if (values['allow-query-limit-override'] === true) parameters['allow-query-limit-override'] = 'true';
  if (values.guest === true && values['no-guest'] === true) throw new Error('--guest and --no-guest contradict each other');
  const demo = values['no-demo'] !== true;
  if (imports.length > 0 && values.store === undefined && !demo) throw new Error('--import with --no-demo needs --store NAME: there is no demo store to load into');
  const guest: GuestAccess = values.guest === true ? 'all' : values['no-guest'] === true || !demo ? 'none' : 'demo';
  if (guest !== 'none') parameters['create-guest-role'] = 'true';
  let role = values.role ?? env.QUADLOG_ROLE;
  let password = values.password ?? (values.role === undefined ? env.QUADLOG_PASSWORD : undefined);
  if ((values.role === undefined) !== (values.password === undefined)) throw new Error('--role and --password go together');
  let generatedPassword = false;
  if (role === undefined || role === '') role = 'admin';
  if (password === undefined || password === '') {
    password = randomBytes(12).toString('base64url');
    generatedPassword = true;
  }
  return {
    port,
    host: values.host ?? '127.0.0.1',
    variant,
    role,
    password,
    generatedPassword,
    demo,
    guest,
    ...(keepAlive !== undefined ? { objectKeepAliveTime: keepAlive } : {}),
    ...(maxContentBytes !== undefined ? { maxContentBytes } : {}),
    ...(Object.keys(parameters).length > 0 ? { parameters } : {}),
    ...(values['no-console'] === true ? { console: false } : {}),
    ...(imports.length > 0 ? { imports, importStore: values.store ?? DEMO_STORE } : {}),
  };
}

/** What `--help` returns besides `help`: the defaults, never started. */
const HELP_OPTIONS: ServeOptions = { port: 12110, host: '127.0.0.1', variant: 'B', role: 'admin', password: '', generatedPassword: false, demo: false, guest: 'none' };

/** A running `quadlog serve`. */
export interface Serving {
  /** The server. */
  readonly server: Server;
  /** The endpoint. */
  readonly endpoint: EndpointHandle;
  /** What to print at start: URL, credentials (when generated) and curl commands. */
  readonly banner: string;
  /** Stops the endpoint and the server. */
  stop(): Promise<void>;
}

/**
 * Writes what start-up found about a store of the server directory to standard error: a
 * store left offline, a store loaded (with the torn log tail that was cut, if any, and the
 * data sources that cannot be read).
 */
export function reportRecovery(event: RecoveryEvent, write: (line: string) => void = (line) => process.stderr.write(`${line}\n`)): void {
  if (event.kind === 'offline') write(`quadlog serve: ${event.error.message}`);
  else if (event.kind === 'loaded') {
    write(`quadlog serve: loaded data store '${event.store}' in ${Math.round(event.elapsedMs)} ms`);
    if (event.report.cut !== undefined) write(`quadlog serve: data store '${event.store}': ${event.report.cut}`);
    const sources = event.report.unavailableSources;
    if (sources.length > 0) write(`quadlog serve: data store '${event.store}': tuple tables are mounted on data sources that cannot be read: ${sources.join(', ')}`);
  }
}

/**
 * Starts a server and its endpoint as `options` say. On a server directory that already holds
 * a server the roles come from the directory: given credentials are checked against them (an
 * Error saying so when they do not match); without credentials nothing is done as a role (the
 * demo store is not re-created, `--import` is refused).
 */
export async function serve(options: ServeOptions): Promise<Serving> {
  const server = await Server.create({
    roleName: options.role,
    password: options.password,
    url: `quadlog-serve-${process.pid}-${Date.now()}`,
    parameters: options.parameters ?? {},
    onRecovery: (event) => reportRecovery(event),
  });
  let endpoint: EndpointHandle;
  // a restart without credentials: the generated password made no role and opens nothing
  const rolesFromDirectory = server.restarted && options.generatedPassword;
  // a replica (persistence=postgresql) writes nothing: the demo store and imports are the writer's
  const replica = server.replicationRole === 'replica';
  try {
    if (replica) {
      if (options.imports !== undefined) throw new Error(`--import needs the writer: this node is a replica (the writer is ${server.replicationStatus().writerId ?? 'unknown'})`);
    } else if (rolesFromDirectory) {
      if (options.imports !== undefined) {
        const where = server.serverDirectory !== undefined ? 'a server directory' : (server.persistenceDescription ?? 'a server directory');
        const roles = server.serverDirectory !== undefined ? `the roles in ${server.serverDirectory}` : 'the roles there';
        throw new Error(`--import on ${where} that already holds a server needs --role and --password (or QUADLOG_ROLE and QUADLOG_PASSWORD): the files are imported as that role, one of ${roles}`);
      }
      if (options.demo && !server.dataStoreNames().includes(DEMO_STORE)) {
        process.stderr.write(`quadlog serve: ${server.persistenceDescription ?? 'the server directory'} holds no data store '${DEMO_STORE}': it is created again only as a role (--role and --password), or not at all with --no-demo\n`);
      }
    } else {
      const connection = await connect(server, options);
      try {
        if (options.demo && !connection.listDataStores().includes(DEMO_STORE)) await createDemoStore(connection);
        if (options.imports !== undefined) await importFiles(connection, options.importStore ?? DEMO_STORE, options.imports);
      } finally {
        connection.close();
      }
    }
    // the server's own set-up, as creating the guest role is: needs no role
    if (options.guest === 'none') {
      // a guest role loaded from the server directory is kept, but no request acts as it
      server.roles.refuseGuest();
    } else if (server.roles.has(GUEST_ROLE)) {
      server.roles.grantUnchecked(GUEST_ROLE, '|datastores', ['read']);
      server.roles.grantUnchecked(GUEST_ROLE, options.guest === 'all' ? '>datastores|*' : `>datastores|${DEMO_STORE}`, ['read']);
    }
    endpoint = await startEndpoint(server, {
      port: options.port,
      host: options.host,
      variant: options.variant,
      ...(options.objectKeepAliveTime !== undefined ? { objectKeepAliveTime: options.objectKeepAliveTime } : {}),
      ...(options.maxContentBytes !== undefined ? { maxContentBytes: options.maxContentBytes } : {}),
      ...(options.console === false ? { console: false } : {}),
    });
    // the URL recorded for this node in PostgreSQL: the endpoint's, unless --node-url gave one
    if (options.parameters?.['persistence-node-url'] === undefined) server.setNodeUrl(endpoint.url);
  } catch (e) {
    await server.shutdown();
    throw e;
  }
  const directory = rolesFromDirectory ? (server.persistenceDescription ?? server.serverDirectory) : undefined;
  return {
    server,
    endpoint,
    banner: banner(endpoint.url, options, { rolesFrom: directory, demo: server.dataStoreNames().includes(DEMO_STORE), guestKept: options.guest === 'none' && server.roles.has(GUEST_ROLE) }),
    async stop(): Promise<void> {
      await endpoint.close();
      await server.shutdown();
    },
  };
}

/**
 * A connection of the role of `options`. On a server directory that already holds a server
 * the role is checked against the directory's roles: wrong credentials fail with an Error
 * saying so (the same for an unknown role as for a wrong password).
 */
async function connect(server: Server, options: ServeOptions): Promise<ServerConnection> {
  try {
    return await ConnectionFactory.newServerConnection(server.url, options.role, options.password);
  } catch (e) {
    if (!server.restarted || !(e instanceof AuthenticationError)) throw e;
    throw new Error(
      `the role '${options.role}' and password given do not match the roles of ${server.persistenceDescription ?? 'the server directory'} ` +
        '(a restart takes the roles from the directory: give a role and password it holds, or leave out --role and --password)',
      { cause: e },
    );
  }
}

/**
 * Loads the files of `--import` into a store (created when absent), each as one import; a file
 * with an error changes nothing and stops with an error naming the file and the first problem.
 */
async function importFiles(connection: ServerConnection, store: string, files: readonly string[]): Promise<void> {
  if (!connection.listDataStores().includes(store)) connection.createDataStore(store);
  const ds = connection.newDataStoreConnection(store);
  try {
    for (const file of files) {
      const started = performance.now();
      let result;
      try {
        result = await ds.importData('ADD', { path: file });
      } catch (e) {
        throw new Error(`--import ${file}: ${(e as Error).message}`, { cause: e });
      }
      process.stderr.write(`quadlog serve: imported ${file} into '${store}': ${result.changedFacts} new facts, ${result.changedRules} new rules, ${result.changedAxioms} new axioms in ${Math.round(performance.now() - started)} ms\n`);
    }
  } finally {
    ds.close();
  }
}

/** A shell word: quoted with single quotes when it needs quoting. */
function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** What the banner says beside the options. */
interface BannerFacts {
  /** The server directory the roles were loaded from, when no role was given on a restart. */
  readonly rolesFrom: string | undefined;
  /** Whether the demo store is served. */
  readonly demo: boolean;
  /** Whether the roles include `guest` while requests without credentials are refused. */
  readonly guestKept: boolean;
}

function banner(url: string, options: ServeOptions, facts: BannerFacts): string {
  const user = facts.rolesFrom !== undefined ? '-u ROLE:PASSWORD' : `-u ${shellWord(`${options.role}:${options.password}`)}`;
  const lines = [`quadlog is serving the management interface (variant ${options.variant}) at ${url}`];
  if (facts.rolesFrom !== undefined) lines.push(`roles: those of ${facts.rolesFrom} (a restart: sign in with one of them)`);
  else if (options.generatedPassword) lines.push(`first role: ${options.role}, password: ${options.password} (generated; shown only now)`);
  if (options.console !== false) lines.push(`web console: ${url}/console/ (sign in with the role and its password)`);
  if (options.guest === 'all') lines.push(`requests without credentials act as the role '${GUEST_ROLE}', which may read every store (--guest)`);
  if (options.guest === 'demo') lines.push(`requests without credentials act as the role '${GUEST_ROLE}', which may read the demo store only (--no-guest turns this off)`);
  if (facts.guestKept) lines.push(`requests without credentials are refused: the role '${GUEST_ROLE}' is kept, but no request acts as it in this run`);
  lines.push('', 'try:', `  curl ${user} ${url}/datastores`);
  if (options.demo && facts.demo) {
    const store = `${url}/datastores/${DEMO_STORE}`;
    lines.push(
      `  curl ${user} -H 'Accept: text/csv' --data-urlencode 'query=SELECT ?person ?descendant WHERE { ?person ex:ancestorOf ?descendant } ORDER BY ?person ?descendant' ${store}/sparql`,
      `  curl ${user} -X PATCH -H 'Content-Type: text/turtle' --data-binary 'ex:carol ex:parentOf ex:erin .' '${store}/content?operation=add-content'`,
      '(run the query again after the PATCH: the rules derive the new ancestors)',
    );
    if (options.guest !== 'none') lines.push(`  curl -H 'Accept: text/csv' ${store}/prefixes`, `(without credentials: as the role '${GUEST_ROLE}')`);
  } else {
    lines.push(`  curl ${user} -X POST '${url}/datastores/mystore?type=parallel-nw'`, `  curl ${user} -H 'Accept: text/csv' '${url}/datastores/mystore'`);
  }
  lines.push('', 'stop with Ctrl-C');
  return lines.join('\n');
}
