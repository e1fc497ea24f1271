/**
 * The console's client of the management interface.
 *
 * Credentials live only in the {@link Api} object, in this page's memory: the Basic
 * credentials of the role that signed in, and the tokens of the connections the console opens.
 * Every request is made with `credentials: 'omit'`, so the browser adds nothing of its own
 * (no cookie, no cached HTTP authentication), and states its `Authorization` header itself. The
 * browser keeps no copy: a header set by a script is never remembered for later requests, so a
 * request that another site makes the browser send carries no credentials of the console.
 * @module
 */
import { type Answer, parseSparqlJson } from './terms.js';

/** The media type of SPARQL JSON answers, asked for every listing. */
export const SPARQL_JSON = 'application/sparql-results+json';

/** A failed request: the status and the endpoint's message (`ErrorName: message`). */
export class ApiError extends Error {
  /** Creates the error. */
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** A connection the console opened: its URL and its secret token. */
export interface OpenConnection {
  /** The URL of the connection resource. */
  readonly url: URL;
  /** Its identifier. */
  readonly id: string;
  /** Its token (`Authorization: Service <token>`). */
  readonly token: string;
}

/** Options of {@link Api.request}. */
export interface RequestOptions {
  /** The method (default GET). */
  readonly method?: string;
  /** Query-string parameters. */
  readonly params?: Readonly<Record<string, string>>;
  /** The body. */
  readonly body?: BodyInit;
  /** Its media type. */
  readonly contentType?: string;
  /** The Accept header. */
  readonly accept?: string;
  /** A connection to authenticate as (with its token) instead of the role. */
  readonly connection?: OpenConnection;
  /** A request ID (`Service-Request-ID`), to cancel the request by. */
  readonly requestId?: string;
  /** Aborts the request. */
  readonly signal?: AbortSignal;
}

/** A random hexadecimal identifier (works outside secure contexts too). */
export function randomId(bytes = 16): string {
  const data = crypto.getRandomValues(new Uint8Array(bytes));
  return [...data].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** The base64 of a UTF-8 text. */
function base64(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** The path of a resource from its segments, each percent-encoded. */
export function resource(...segments: string[]): string {
  return '/' + segments.map((s) => encodeURIComponent(s)).join('/');
}

/**
 * Whether the endpoint serves a feature's route: a request succeeds, or fails with anything
 * but 404, 405, 501 or a server error (an endpoint without the feature answers one of those).
 */
export async function routeServed(api: Api, path: string, options: RequestOptions): Promise<boolean> {
  try {
    await api.request(path, options);
    return true;
  } catch (e) {
    if (e instanceof ApiError) return ![501, 404, 405].includes(e.status) && e.status < 500;
    return false;
  }
}

/** The client of one signed-in role. */
export class Api {
  /** The interface's root URL (ending with `/`). */
  readonly base: URL;
  /** The role signed in. */
  readonly role: string;
  /** The variant of the interface, once a response has shown it (B sends Service-Request-ID). */
  variant: 'A' | 'B' | undefined;
  #authorization: string | undefined;

  /** A client for `base`, signed in as `role` with `password`. */
  constructor(base: URL, role: string, password: string) {
    this.base = base;
    this.role = role;
    this.#authorization = `Basic ${base64(`${role}:${password}`)}`;
  }

  /** Forgets the credentials: later requests fail. */
  forget(): void {
    this.#authorization = undefined;
  }

  /** The URL of a path of the interface (`/datastores/x`) or an absolute URL. */
  url(path: string | URL, params: Readonly<Record<string, string>> = {}): URL {
    const url = path instanceof URL ? new URL(path) : new URL(`.${path}`, this.base);
    for (const [key, value] of Object.entries(params)) url.searchParams.append(key, value);
    return url;
  }

  /** The headers of a request (authentication included). */
  headers(options: Pick<RequestOptions, 'accept' | 'contentType' | 'connection' | 'requestId'> = {}): Headers {
    const headers = new Headers();
    if (options.connection) headers.set('Authorization', `Service ${options.connection.token}`);
    else if (this.#authorization !== undefined) headers.set('Authorization', this.#authorization);
    else throw new ApiError(401, 'signed out');
    if (options.accept !== undefined) headers.set('Accept', options.accept);
    if (options.contentType !== undefined) headers.set('Content-Type', options.contentType);
    if (options.requestId !== undefined) headers.set('Service-Request-ID', options.requestId);
    return headers;
  }

  /**
   * Sends a request; resolves with the response when its status is 2xx or 3xx.
   * @throws ApiError with the endpoint's message otherwise.
   */
  async request(path: string | URL, options: RequestOptions = {}): Promise<Response> {
    const url = this.url(path, options.params);
    if (options.connection && !url.searchParams.has('connection') && !url.pathname.includes('/connections/')) url.searchParams.set('connection', options.connection.id);
    const response = await fetch(url, {
      method: options.method ?? 'GET',
      headers: this.headers(options),
      ...(options.body !== undefined ? { body: options.body } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      credentials: 'omit',
      cache: 'no-store',
      mode: 'same-origin',
      redirect: 'error',
      referrerPolicy: 'no-referrer',
    });
    if (this.variant === undefined) this.variant = response.headers.has('Service-Request-ID') ? 'B' : 'A';
    if (response.status >= 400) throw new ApiError(response.status, (await response.text()).trim() || `HTTP ${response.status}`);
    return response;
  }

  /** A listing or answer as a table (SPARQL JSON); an empty answer (204) has no rows. */
  async table(path: string | URL, options: RequestOptions = {}): Promise<Answer> {
    const response = await this.request(path, { ...options, accept: SPARQL_JSON });
    if (response.status === 204) return { variables: [], rows: [] };
    return parseSparqlJson(await response.text());
  }

  /** Opens a connection to a data store; its token stays in this object's caller. */
  async openConnection(dataStore: string): Promise<OpenConnection> {
    const response = await this.request(resource('datastores', dataStore, 'connections'), { method: 'POST' });
    const location = response.headers.get('Location');
    const token = response.headers.get('Service-Authentication-Token');
    if (location === null || token === null) throw new ApiError(500, 'the endpoint did not return the connection and its token');
    const url = new URL(location, this.base);
    const id = decodeURIComponent(url.pathname.slice(url.pathname.lastIndexOf('/') + 1));
    return { url, id, token };
  }

  /** Closes a connection (quietly: it may have expired). */
  async closeConnection(connection: OpenConnection): Promise<void> {
    await this.request(connection.url, { method: 'DELETE', connection }).catch(() => undefined);
  }
}
