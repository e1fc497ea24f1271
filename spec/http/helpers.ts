/**
 * Test helper for the HTTP adapter: a {@link Server} and an endpoint on a free loopback port,
 * created in a `before` hook and closed in an `after` hook, a fetch wrapper that adds the first
 * role's Basic credentials, and parsers of CSV and SPARQL JSON answers.
 *
 * ```ts
 * describe('prefixes over HTTP', () => {
 *   const env = useEndpoint('prefixes', { variant: 'A' });
 *   it('lists', async () => {
 *     const store = await env.createStore();
 *     const res = await env.fetch(`/datastores/${store}/prefixes`);
 *     const table = await readCsv(res);
 *   });
 * });
 * ```
 * @module
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { ConnectionFactory, type DataStoreConnection, Server, type ServerConnection } from '../../lib/index.js';
import { type EndpointHandle, startEndpoint, type Variant } from '../../lib/http/index.js';
import { ADMIN_PASSWORD, ADMIN_ROLE, TEST_SERVER_PARAMETERS } from '../helpers/server.js';

export { ADMIN_PASSWORD, ADMIN_ROLE };

/** Options of {@link EndpointEnv.fetch}: a RequestInit plus test conveniences. */
export interface TestRequestInit extends RequestInit {
  /** Send no Authorization header (the request acts as the guest role). */
  readonly anonymous?: boolean;
  /** Authenticate as this role instead of the first role (Basic). */
  readonly as?: { readonly role: string; readonly password: string };
}

/** What {@link useEndpoint} gives a spec file. */
export interface EndpointEnv {
  /** The endpoint's base URL (no trailing slash), available from the `before` hook on. */
  readonly url: string;
  /** The server (available from the `before` hook on). */
  readonly server: Server;
  /** The URL the server is registered at (for ConnectionFactory). */
  readonly serverURL: string;
  /** The variant the endpoint speaks. */
  readonly variant: Variant;
  /** The endpoint handle. */
  readonly endpoint: EndpointHandle;
  /** A server connection of the first role (in-process). */
  readonly connection: ServerConnection;
  /**
   * Fetches `path` (relative to the endpoint, starting with `/`) with the first role's Basic
   * credentials, unless `init.headers` has an Authorization header or `init.anonymous` is true.
   */
  fetch(path: string, init?: TestRequestInit): Promise<Response>;
  /** Creates a data store (unique name unless given) through the API; returns its name. */
  createStore(name?: string, type?: string, parameters?: Readonly<Record<string, string>>): Promise<string>;
  /** Opens an in-process connection to a store (closed in the `after` hook). */
  storeConnection(name: string): DataStoreConnection;
  /** A fresh unique name. */
  uniqueName(stem?: string): string;
}

/** The value of an `Authorization: Basic …` header. */
export function basicAuth(role: string, password: string): string {
  return `Basic ${Buffer.from(`${role}:${password}`).toString('base64')}`;
}

/** The Basic Authorization header value of the first role. */
export const ADMIN_AUTH = basicAuth(ADMIN_ROLE, ADMIN_PASSWORD);

/**
 * Creates a server and an endpoint (port 0, loopback) for the enclosing `describe`.
 * `objectKeepAliveTime` (ms) and `maxContentBytes` are passed to the endpoint, `parameters` to the server (after
 * {@link TEST_SERVER_PARAMETERS}: fast password hashing).
 */
export function useEndpoint(
  name: string,
  options: { readonly variant?: Variant; readonly objectKeepAliveTime?: number; readonly maxContentBytes?: number; readonly parameters?: Readonly<Record<string, string>> } = {},
): EndpointEnv {
  const serverURL = `test://http-${name}/${randomUUID()}`;
  const variant: Variant = options.variant ?? 'B';
  let server: Server | undefined;
  let endpoint: EndpointHandle | undefined;
  let connection: ServerConnection | undefined;
  let counter = 0;
  const open: Array<{ close(): void }> = [];

  before(async () => {
    server = await Server.create({ roleName: ADMIN_ROLE, password: ADMIN_PASSWORD, url: serverURL, parameters: { ...TEST_SERVER_PARAMETERS, ...options.parameters } });
    connection = await ConnectionFactory.newServerConnection(serverURL, ADMIN_ROLE, ADMIN_PASSWORD);
    endpoint = await startEndpoint(server, {
      port: 0,
      variant,
      ...(options.objectKeepAliveTime !== undefined ? { objectKeepAliveTime: options.objectKeepAliveTime } : {}),
      ...(options.maxContentBytes !== undefined ? { maxContentBytes: options.maxContentBytes } : {}),
    });
  });

  after(async () => {
    await endpoint?.close();
    for (const c of open.splice(0)) c.close();
    connection?.close();
    await server?.shutdown();
  });

  const need = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the endpoint is created in a before hook');
    return value;
  };

  const env: EndpointEnv = {
    get url(): string {
      return need(endpoint).url;
    },
    get server(): Server {
      return need(server);
    },
    serverURL,
    variant,
    get endpoint(): EndpointHandle {
      return need(endpoint);
    },
    get connection(): ServerConnection {
      return need(connection);
    },
    fetch(path: string, init: TestRequestInit = {}): Promise<Response> {
      const { anonymous, as, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (!anonymous && !headers.has('authorization')) headers.set('authorization', as ? basicAuth(as.role, as.password) : ADMIN_AUTH);
      return fetch(need(endpoint).url + path, { ...rest, headers });
    },
    createStore(storeName?: string, type?: string, parameters: Readonly<Record<string, string>> = {}): Promise<string> {
      const n = storeName ?? env.uniqueName();
      env.connection.createDataStore(n, type, parameters);
      return Promise.resolve(n);
    },
    storeConnection(storeName: string): DataStoreConnection {
      const c = env.connection.newDataStoreConnection(storeName);
      open.push(c);
      return c;
    },
    uniqueName(stem = 'store'): string {
      return `${stem}-${++counter}`;
    },
  };
  return env;
}

/** A parsed answer table: column names and rows of cell texts ('' for unbound). */
export interface TextTable {
  /** The column names. */
  readonly columns: string[];
  /** The rows. */
  readonly rows: string[][];
  /** The rows as objects keyed by column. */
  readonly records: Array<Record<string, string>>;
}

/** Parses RFC 4180 CSV (quoted fields, doubled quotes, CRLF or LF line ends). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  let fieldStarted = false;
  while (i < text.length) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i++;
        continue;
      }
      field += ch;
      i++;
      continue;
    }
    if (ch === '"' && !fieldStarted) {
      quoted = true;
      fieldStarted = true;
      i++;
    } else if (ch === ',') {
      row.push(field);
      field = '';
      fieldStarted = false;
      i++;
    } else if (ch === '\r' || ch === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      fieldStarted = false;
      i += ch === '\r' && text[i + 1] === '\n' ? 2 : 1;
    } else {
      field += ch;
      fieldStarted = true;
      i++;
    }
  }
  if (fieldStarted || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

function tableOf(all: string[][]): TextTable {
  const [columns = [], ...rows] = all;
  return { columns, rows, records: rows.map((r) => Object.fromEntries(columns.map((c, i) => [c, r[i] ?? '']))) };
}

/** Reads a text/csv response (asserting its Content-Type) as a table. */
export async function readCsv(res: Response): Promise<TextTable> {
  const text = await res.text();
  expect(res.headers.get('content-type') ?? '', text).to.match(/^text\/csv/);
  return tableOf(parseCsv(text));
}

/** Reads a text/tab-separated-values response as a table (cells as written, e.g. `"x"`, `<iri>`). */
export async function readTsv(res: Response): Promise<TextTable> {
  const text = await res.text();
  expect(res.headers.get('content-type') ?? '', text).to.match(/^text\/tab-separated-values/);
  const lines = text.split('\n').filter((l, i, all) => !(l === '' && i === all.length - 1));
  const all = lines.map((l) => l.replace(/\r$/, '').split('\t'));
  const [head = [], ...rows] = all;
  return tableOf([head.map((c) => c.replace(/^\?/, '')), ...rows]);
}

/** One binding of a SPARQL JSON answer. */
export interface JsonTerm {
  /** uri, literal or bnode. */
  readonly type: string;
  /** The value. */
  readonly value: string;
  /** The datatype IRI of a typed literal. */
  readonly datatype?: string;
  /** The language tag of a literal. */
  readonly 'xml:lang'?: string;
}

/** A parsed SPARQL JSON answer. */
export interface JsonAnswer {
  /** The variables (empty for ASK). */
  readonly vars: string[];
  /** The bindings (empty for ASK). */
  readonly bindings: Array<Record<string, JsonTerm>>;
  /** The ASK answer, if any. */
  readonly boolean?: boolean;
}

/** Reads an application/sparql-results+json response. */
export async function readJson(res: Response): Promise<JsonAnswer> {
  const text = await res.text();
  expect(res.headers.get('content-type') ?? '', text).to.match(/^application\/sparql-results\+json/);
  const parsed = JSON.parse(text) as { head?: { vars?: string[] }; results?: { bindings?: Array<Record<string, JsonTerm>> }; boolean?: boolean };
  return { vars: parsed.head?.vars ?? [], bindings: parsed.results?.bindings ?? [], ...(parsed.boolean !== undefined ? { boolean: parsed.boolean } : {}) };
}

/** Asserts an error response: status, text/plain body starting with `ErrorName:`; returns the body. */
export async function expectErrorResponse(res: Response, status: number, errorName?: string): Promise<string> {
  const text = await res.text();
  expect(res.status, text).to.equal(status);
  expect(res.headers.get('content-type')).to.equal('text/plain; charset=UTF-8');
  if (errorName !== undefined) expect(text).to.match(new RegExp(`^${errorName}: `));
  else expect(text).to.match(/^[A-Za-z]+: /);
  return text;
}

/** Asserts a status with an empty body. */
export async function expectEmpty(res: Response, status: number): Promise<void> {
  const text = await res.text();
  expect(res.status, text).to.equal(status);
  expect(text).to.equal('');
}

/**
 * Makes a store whose `recompute-materialization` takes a noticeable time (about half a second
 * for n = 250) and can be interrupted: a chain of n edges and the transitive-closure rule.
 */
export async function makeSlowStore(env: EndpointEnv, n = 250, name?: string): Promise<string> {
  const store = await env.createStore(name);
  const c = env.storeConnection(store);
  const lines = ['@prefix : <http://example.com/chain/> .'];
  for (let i = 0; i < n; i++) lines.push(`:n${i} :r :n${i + 1} .`);
  await c.importData('ADD', lines.join('\n'), { mediaType: 'text/turtle' });
  await c.importData('ADD', '@prefix : <http://example.com/chain/> .\n[?x, :r, ?z] :- [?x, :r, ?y], [?y, :r, ?z] .', { mediaType: 'application/x.datalog' });
  return store;
}

/** Resolves after `ms` milliseconds. */
export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
