/**
 * The contract between the router and the resource handlers: one request being served (an
 * {@link Exchange}) and the handler type, plus their implementation ({@link HttpExchange}),
 * which handlers of this package may use for the endpoint's internals (connection registry,
 * principal, body reading).
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type * as RDF from '@rdfjs/types/data-model.js';
import { DataFactory } from 'n3';
import {
  BadRequestError,
  baseMediaType,
  compileRowFilter,
  createTableWriter,
  type DataStoreConnection,
  InterruptedError,
  type Server,
  type ServerConnection,
} from '../index.js';
import type { Authenticator, Principal } from './auth.js';
import type { ConnectionRegistry, RegisteredConnection } from './connections.js';
import { PayloadTooLargeError } from './errors.js';
import { ResponseStream } from './response-stream.js';
import { utf8Text } from './utf8-text.js';
import { chooseAnswerType } from './negotiation.js';
import type { RequestRegistry, RunningRequest } from './requests.js';
import type { ShellRegistry } from './shells.js';

/** Which variant of the management interface the endpoint speaks. */
export type Variant = 'A' | 'B';

/** One HTTP request being served, as resource handlers see it. */
export interface Exchange {
  /** The request. */
  readonly req: IncomingMessage;
  /** The response. */
  readonly res: ServerResponse;
  /** The variant of the interface the endpoint speaks. */
  readonly variant: Variant;
  /** Upper-case HTTP method. */
  readonly method: string;
  /**
   * Request parameters: the query string; for PATCH/POST/PUT whose Content-Type is
   * application/x-www-form-urlencoded, the body's pairs too (the body is then consumed).
   */
  readonly params: URLSearchParams;
  /** True when the request body was a form and has already been read into `params`. */
  readonly bodyConsumed: boolean;
  /** The role the request acts as (after authentication). */
  readonly roleName: string;
  /** `params` minus the keys an endpoint names (and minus connection/filter), first value per key. */
  genericParameters(named: readonly string[]): Record<string, string>;
  /**
   * Runs `fn` in the request's data store connection: the connection named by `connection=<id>`
   * (authenticated; it must be a connection of that store) or a fresh temporary one (opened with
   * the request's credentials, closed afterwards). A named connection serves one request at a time:
   * a second concurrent request on it fails (409 ResourceInUseError). While fn runs, cancelling the
   * request (DELETE /requests/<id>, client disconnect) calls connection.interrupt().
   */
  withDataStoreConnection<T>(dataStore: string, fn: (connection: DataStoreConnection) => Promise<T>): Promise<T>;
  /** The same for a server connection. */
  withServerConnection<T>(fn: (connection: ServerConnection) => Promise<T>): Promise<T>;
  /**
   * The answer media type chosen from the Accept header among the SPARQL answer formats (q-values
   * honoured, parameters ignored); the documented default when Accept is absent or *\/*; throws an
   * error with status 406 when nothing acceptable.
   */
  answerType(): string;
  /**
   * Sends a listing (status 200 unless given): columns and rows of RDF/JS terms (undefined =
   * unbound) in the negotiated answer format, keeping only rows for which the `filter` parameter
   * (a SPARQL FILTER expression over the column variables) is true.
   */
  sendTable(
    columns: readonly string[],
    rows: ReadonlyArray<ReadonlyArray<RDF.Term | undefined>>,
    options?: { readonly status?: number; readonly headers?: Readonly<Record<string, string>> },
  ): Promise<void>;
  /** Sends 200 with the one-column boolean answer `Changed`. */
  sendChanged(changed: boolean): Promise<void>;
  /**
   * Sends a status with no body (Content-Length 0 where a body is allowed) and optional
   * headers. A `Location` that is a path (`/datastores/ds`) is relative to the interface: the
   * prefix it is mounted under is put in front.
   */
  sendStatus(status: number, headers?: Readonly<Record<string, string>>): void;
}

/** A resource handler: serves one request whose path matched; throws quadlog errors for failures. */
export type Handler = (exchange: Exchange, ...pathParameters: string[]) => Promise<void>;

/** What every request of one endpoint shares. */
export interface EndpointContext {
  /** The server the endpoint serves. */
  readonly server: Server;
  /** The variant of the interface. */
  readonly variant: Variant;
  /**
   * The path prefix the interface is mounted under (`''` at the root). Handlers work with
   * paths relative to it; {@link Exchange.sendStatus} adds it to `Location` headers.
   */
  readonly prefix: string;
  /** The connections opened over HTTP. */
  readonly connections: ConnectionRegistry;
  /** The running requests (listed in variant B). */
  readonly requests: RequestRegistry;
  /** The shells opened over HTTP (`/shells`). */
  readonly shells: ShellRegistry;
  /** The authenticator. */
  readonly authenticator: Authenticator;
  /** The largest request body the endpoint accepts, in bytes (streamed or not; larger ones answer 413). */
  readonly maxContentBytes: number;
}

/** How long a request with a `Quadlog-Min-Version` header waits for that version, in milliseconds. */
export const MIN_VERSION_WAIT_MS = 10_000;

/** The largest form or text body the endpoint reads into memory (16 MiB). */
export const MAX_BUFFERED_BODY = 16 * 1024 * 1024;

/** Parameter keys that are never generic parameters. */
const RESERVED_KEYS: readonly string[] = ['connection', 'filter'];

const XSD = 'http://www.w3.org/2001/XMLSchema#';
const XSD_BOOLEAN = DataFactory.namedNode(`${XSD}boolean`);
const XSD_INTEGER = DataFactory.namedNode(`${XSD}integer`);
const XSD_DATE_TIME = DataFactory.namedNode(`${XSD}dateTime`);

/** The RDF/JS literal `true` or `false` (xsd:boolean). */
export function booleanTerm(value: boolean): RDF.Literal {
  return DataFactory.literal(value ? 'true' : 'false', XSD_BOOLEAN);
}

/** A plain string literal. */
export function stringTerm(value: string): RDF.Literal {
  return DataFactory.literal(value);
}

/** An xsd:integer literal (of a number, or of its lexical form). */
export function integerTerm(value: number | bigint | string): RDF.Literal {
  return DataFactory.literal(String(value), XSD_INTEGER);
}

/** An xsd:dateTime literal of a moment. */
export function dateTimeTerm(date: Date): RDF.Literal {
  return DataFactory.literal(date.toISOString(), XSD_DATE_TIME);
}

/** An IRI term. */
export function iriTerm(value: string): RDF.NamedNode {
  return DataFactory.namedNode(value);
}

/** The term of a property value: booleans as xsd:boolean, numbers as xsd:integer, text as a string. */
export function valueTerm(value: string | number | boolean): RDF.Literal {
  if (typeof value === 'boolean') return booleanTerm(value);
  if (typeof value === 'number' && Number.isInteger(value)) return integerTerm(value);
  return stringTerm(String(value));
}

/** Rows of a Property/Value(/Mutable) listing. */
export function propertyRows(rows: ReadonlyArray<{ readonly property: string; readonly value: string | number | boolean; readonly mutable?: boolean }>, withMutable: boolean): RDF.Term[][] {
  return rows.map((r) => (withMutable ? [stringTerm(r.property), valueTerm(r.value), booleanTerm(r.mutable ?? false)] : [stringTerm(r.property), valueTerm(r.value)]));
}

/** The path of a resource from its decoded segments (each percent-encoded). */
export function resourcePath(...segments: string[]): string {
  return '/' + segments.map((s) => encodeURIComponent(s)).join('/');
}

/**
 * Reads a whole request body into memory. A body over the limit is not read on: the request is
 * left paused with the rest of its body unread (the error answer then drops it, see
 * `unread-body.ts`), and nothing read so far is kept.
 * @throws PayloadTooLargeError (413) when it exceeds `limit` bytes (at once when its
 *   Content-Length says so); BadRequestError when the client goes away before the body ends.
 */
export function readRequestBody(req: IncomingMessage, limit: number = MAX_BUFFERED_BODY): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    return Promise.reject(new PayloadTooLargeError(`the request body (${declared} bytes) exceeds the limit of ${limit} bytes for this kind of request`));
  }
  if (req.readableEnded) return Promise.resolve(Buffer.alloc(0));
  return new Promise<Buffer>((resolve, reject) => {
    let chunks: Buffer[] = [];
    let size = 0;
    const stop = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        stop();
        req.pause();
        chunks = [];
        reject(new PayloadTooLargeError(`the request body exceeds the limit of ${limit} bytes for this kind of request`));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      stop();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    };
    const onError = (e: Error): void => {
      stop();
      reject(e);
    };
    const onClose = (): void => {
      stop();
      reject(new BadRequestError('the client closed the connection before the request body was complete'));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
    req.resume();
  });
}

/** What the router gives an {@link HttpExchange}: the values of its fields. */
export type ExchangeInit = Pick<HttpExchange, 'req' | 'res' | 'context' | 'method' | 'path' | 'params' | 'bodyConsumed' | 'principal' | 'named' | 'request'>;

/** The implementation of {@link Exchange} used by the endpoint. */
export class HttpExchange implements Exchange {
  /** The request. */
  readonly req: IncomingMessage;
  /** The response. */
  readonly res: ServerResponse;
  /** The endpoint. */
  readonly context: EndpointContext;
  /** Upper-case method. */
  readonly method: string;
  /** The decoded path (without query string). */
  readonly path: string;
  /** The parameters (query string and form body). */
  readonly params: URLSearchParams;
  /** Whether a form body was read into `params`. */
  readonly bodyConsumed: boolean;
  /** The authenticated identity. */
  readonly principal: Principal;
  /** The connection the request names (by `connection=` or its path), authenticated. */
  readonly named: RegisteredConnection | undefined;
  /** The record of the running request. */
  readonly request: RunningRequest;

  /** Creates the exchange; a client that goes away cancels the request. */
  constructor(init: ExchangeInit) {
    this.req = init.req;
    this.res = init.res;
    this.context = init.context;
    this.method = init.method;
    this.path = init.path;
    this.params = init.params;
    this.bodyConsumed = init.bodyConsumed;
    this.principal = init.principal;
    this.named = init.named;
    this.request = init.request;
    this.res.on('close', () => {
      if (!this.res.writableFinished) this.request.cancel();
    });
  }

  /** The variant of the interface. */
  get variant(): Variant {
    return this.context.variant;
  }

  /** The role the request acts as. */
  get roleName(): string {
    return this.principal.roleName;
  }

  /** A parameter's first value, or undefined. */
  param(name: string): string | undefined {
    return this.params.get(name) ?? undefined;
  }

  /**
   * A parameter's first value.
   * @throws BadRequestError naming the parameter when it is missing or empty.
   */
  requiredParam(name: string, what = ''): string {
    const value = this.params.get(name);
    if (value === null || value === '') throw new BadRequestError(`parameter '${name}' is required${what ? ` (${what})` : ''}`);
    return value;
  }

  /** `params` minus the named keys, `connection` and `filter`; first value per key. */
  genericParameters(named: readonly string[]): Record<string, string> {
    const skip = new Set([...named, ...RESERVED_KEYS]);
    const result: Record<string, string> = Object.create(null) as Record<string, string>;
    for (const [key, value] of this.params) if (!skip.has(key) && !Object.hasOwn(result, key)) result[key] = value;
    return result;
  }

  /**
   * The request body (empty when a form body was already read into the parameters), up to
   * `limit` bytes and never more than the endpoint's maxContentBytes.
   * @throws PayloadTooLargeError (413) for a larger body.
   */
  async readBody(limit: number = MAX_BUFFERED_BODY): Promise<Buffer> {
    if (this.bodyConsumed) return Buffer.alloc(0);
    return readRequestBody(this.req, Math.min(limit, this.context.maxContentBytes));
  }

  /**
   * The request body as UTF-8 text.
   * @throws ParsingError (400) naming the byte offset of a malformed UTF-8 sequence;
   *   PayloadTooLargeError (413) for a larger body.
   */
  async readText(limit: number = MAX_BUFFERED_BODY): Promise<string> {
    return utf8Text(await this.readBody(limit), 'the request body');
  }

  /** The media type of the request body (lower case, no parameters), or '' when absent. */
  get contentType(): string {
    return baseMediaType(this.req.headers['content-type']);
  }

  /** Runs `fn` in the named data store connection or a temporary one (see {@link Exchange}). */
  async withDataStoreConnection<T>(dataStore: string, fn: (connection: DataStoreConnection) => Promise<T>): Promise<T> {
    this.checkNotCancelled();
    const named = this.named;
    if (named) {
      if (named.kind !== 'datastore') throw new BadRequestError(`connection '${named.id}' is a server connection, but this request needs a connection to data store '${dataStore}'`);
      if (named.dataStore !== dataStore) throw new BadRequestError(`connection '${named.id}' is a connection to data store '${named.dataStore ?? ''}', not to '${dataStore}'`);
      return this.onRegistered(named, () => this.atVersion(named.connection as DataStoreConnection, fn));
    }
    const connection = this.principal.root.newDataStoreConnection(dataStore);
    return this.onTemporary(connection, () => this.atVersion(connection, fn));
  }

  /**
   * Runs `fn` on a store connection with the replication headers: a `Quadlog-Min-Version`
   * request header makes the request wait (at most {@link MIN_VERSION_WAIT_MS}) until the
   * store has published that version (read-your-writes on a replica; 503
   * VersionTimeoutError when it does not), and the response carries `Quadlog-Version`: the
   * store's published version when the response began (after a commit the request made, at
   * least that commit's version).
   */
  private async atVersion<T>(connection: DataStoreConnection, fn: (connection: DataStoreConnection) => Promise<T>): Promise<T> {
    const wanted = this.req.headers['quadlog-min-version'];
    if (wanted !== undefined) {
      const text = Array.isArray(wanted) ? wanted[0]! : wanted;
      if (!/^\d{1,15}$/.test(text.trim())) throw new BadRequestError(`invalid Quadlog-Min-Version header '${text}': a non-negative integer (a data store version) is required`);
      await connection.awaitVersion(Number(text.trim()), MIN_VERSION_WAIT_MS);
    }
    const res = this.res;
    const own = Object.hasOwn(res, 'writeHead');
    const writeHead = res.writeHead.bind(res);
    res.writeHead = ((...args: Parameters<typeof res.writeHead>) => {
      if (!res.headersSent) {
        try {
          res.setHeader('Quadlog-Version', String(connection.dataStoreVersion));
        } catch {
          // a deleted store or a closed connection: no version to report
        }
      }
      return writeHead(...args);
    }) as typeof res.writeHead;
    try {
      return await fn(connection);
    } finally {
      if (own) res.writeHead = writeHead;
      else delete (res as { writeHead?: unknown }).writeHead;
      // a response written after `fn` (an import's answer) carries the version `fn` left
      if (!res.headersSent) {
        try {
          res.setHeader('Quadlog-Version', String(connection.dataStoreVersion));
        } catch {
          // a deleted store or a closed connection: no version to report
        }
      }
    }
  }

  /** Runs `fn` in the named server connection or a temporary one (see {@link Exchange}). */
  async withServerConnection<T>(fn: (connection: ServerConnection) => Promise<T>): Promise<T> {
    this.checkNotCancelled();
    const named = this.named;
    if (named) {
      if (named.kind !== 'server') throw new BadRequestError(`connection '${named.id}' is a connection to data store '${named.dataStore ?? ''}', but this request needs a server connection`);
      return this.onRegistered(named, () => fn(named.connection as ServerConnection));
    }
    const connection = this.principal.root.duplicate();
    return this.onTemporary(connection, () => fn(connection));
  }

  /** The negotiated answer format (default text/csv; 406 when nothing is acceptable). */
  answerType(): string {
    return chooseAnswerType(this.req.headers.accept);
  }

  /** Sends a listing in the negotiated format, filtered by the `filter` parameter. */
  async sendTable(
    columns: readonly string[],
    rows: ReadonlyArray<ReadonlyArray<RDF.Term | undefined>>,
    options: { readonly status?: number; readonly headers?: Readonly<Record<string, string>> } = {},
  ): Promise<void> {
    const type = this.answerType();
    const filter = this.params.get('filter');
    let kept = rows;
    if (filter !== null && filter.trim() !== '') {
      const keep = compileRowFilter(filter, columns, { prefixes: await this.storePrefixes() });
      kept = rows.filter((row) => keep(row));
    }
    // a table that ends within the first piece goes out with its Content-Length; a larger one
    // (a cursor's page of every row, say) streams in large writes, with backpressure
    const res = this.res;
    let contentType = '';
    const stream = new ResponseStream(res, (body) => {
      const headers: Record<string, string> = { ...options.headers, 'Content-Type': contentType };
      if (body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(body));
      res.writeHead(options.status ?? 200, headers);
    });
    let waiting: Promise<void> | undefined;
    const writer = createTableWriter(type, (chunk) => {
      waiting = stream.write(chunk) ?? waiting;
    });
    contentType = writer.contentType;
    writer.begin(columns);
    for (const row of kept) {
      writer.row(row);
      if (waiting !== undefined) {
        await waiting;
        waiting = undefined;
      }
    }
    writer.end();
    stream.end();
  }

  /**
   * The prefixes of the data store a request's path names (`/datastores/<ds>/…`), for the
   * `filter` of its listings; none for other paths or a store that cannot be read. Read through
   * a connection of its own, so that a connection the request holds stays undisturbed.
   */
  private async storePrefixes(): Promise<ReadonlyMap<string, string> | undefined> {
    const m = /^\/datastores\/([^/]+)/.exec(this.path);
    if (!m) return undefined;
    let connection: DataStoreConnection | undefined;
    try {
      connection = this.principal.root.newDataStoreConnection(m[1]!);
      return await connection.getPrefixes();
    } catch {
      return undefined;
    } finally {
      connection?.close();
    }
  }

  /** Sends 200 with the one-column boolean answer `Changed`. */
  async sendChanged(changed: boolean): Promise<void> {
    await this.sendTable(['Changed'], [[booleanTerm(changed)]]);
  }

  /** Sends a status with no body (Content-Length 0 where a body is allowed); a path `Location` gets the prefix. */
  sendStatus(status: number, headers: Readonly<Record<string, string>> = {}): void {
    const location = headers['Location'];
    if (location !== undefined && location.startsWith('/') && this.context.prefix !== '') headers = { ...headers, Location: this.context.prefix + location };
    this.res.writeHead(status, status === 204 || status === 304 || status < 200 ? headers : { ...headers, 'Content-Length': '0' });
    this.res.end();
  }

  private checkNotCancelled(): void {
    if (this.request.cancelled) throw new InterruptedError(`request '${this.request.requestId}' was cancelled`);
  }

  private async onRegistered<T>(named: RegisteredConnection, run: () => Promise<T>): Promise<T> {
    const registry = this.context.connections;
    registry.acquire(named);
    const detach = this.request.attach(named.connection);
    try {
      return await run();
    } finally {
      detach();
      registry.release(named);
    }
  }

  private async onTemporary<T>(connection: ServerConnection | DataStoreConnection, run: () => Promise<T>): Promise<T> {
    const detach = this.request.attach(connection);
    try {
      return await run();
    } finally {
      detach();
      connection.close();
    }
  }
}

/**
 * The endpoint's own exchange behind a handler's {@link Exchange} (handlers of this package
 * need the connection registry and the principal).
 */
export function httpExchange(exchange: Exchange): HttpExchange {
  if (!(exchange instanceof HttpExchange)) throw new TypeError('this handler needs the exchange of a quadlog endpoint');
  return exchange;
}
