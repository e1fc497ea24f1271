/**
 * Starting and stopping the HTTP endpoint of a server.
 * @module
 */
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from '../index.js';
import type { Variant } from './exchange.js';
import { createRequestHandler } from './handler.js';

/** Options of {@link startEndpoint}. */
export interface EndpointOptions {
  /** The TCP port (default 12110; 0 picks a free port). */
  readonly port?: number;
  /** The host or address to listen on (default 127.0.0.1). */
  readonly host?: string;
  /** The variant of the management interface (default B). */
  readonly variant?: Variant;
  /**
   * How long a connection opened over HTTP lives without a request, in milliseconds (the
   * endpoint parameter object-keep-alive-time; default 60000).
   */
  readonly objectKeepAliveTime?: number;
  /**
   * The largest request body the endpoint accepts, in bytes (default 1 GiB): content imported
   * by PATCH, POST or PUT on `/datastores/<ds>/content`, SPARQL requests and every other body.
   * A larger body answers 413 (PayloadTooLargeError) and changes nothing. Bodies that are read
   * whole into memory (forms, queries, updates, IRI lists) keep their own limit of 16 MiB.
   */
  readonly maxContentBytes?: number;
  /**
   * Whether the endpoint serves the web console at `/console/` (default true): a page that
   * signs in with a role and password and works through this interface (stores, SPARQL,
   * imports, prefixes, rules). It is served without authentication and holds no data; false
   * answers every path under `/console` as the unknown resource it then is (404). See
   * docs/console.md.
   */
  readonly console?: boolean;
}

/** A running endpoint. */
export interface EndpointHandle {
  /** The base URL of the endpoint, e.g. `http://127.0.0.1:12110` (no trailing slash). */
  readonly url: string;
  /** The port the endpoint listens on. */
  readonly port: number;
  /** The variant the endpoint speaks. */
  readonly variant: Variant;
  /**
   * Stops the endpoint: stops listening, cancels running requests, closes idle keep-alive
   * sockets and every connection opened over HTTP; resolves when the HTTP server has closed.
   * Calling it again is harmless.
   */
  close(): Promise<void>;
}

/** The default port of the endpoint. */
export const DEFAULT_PORT = 12110;
/** The default host of the endpoint. */
export const DEFAULT_HOST = '127.0.0.1';
export { DEFAULT_MAX_CONTENT_BYTES, DEFAULT_OBJECT_KEEP_ALIVE_TIME } from './handler.js';

/** How long close() waits for running requests before cutting their sockets. */
const CLOSE_GRACE_MS = 2_000;

/**
 * Serves the management interface of `server` over HTTP (node:http), at the root of a server
 * of its own: the handler of {@link createRequestHandler} without a prefix. The endpoint
 * closes when the server shuts down.
 * @throws Error when the options are invalid, the port cannot be bound or the server has
 * been shut down.
 */
export async function startEndpoint(server: Server, options: EndpointOptions = {}): Promise<EndpointHandle> {
  const port = options.port ?? DEFAULT_PORT;
  const host = options.host ?? DEFAULT_HOST;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new RangeError(`invalid port ${port} (expected an integer from 0 to 65535)`);
  const handler = createRequestHandler(server, {
    ...(options.variant !== undefined ? { variant: options.variant } : {}),
    ...(options.objectKeepAliveTime !== undefined ? { objectKeepAliveTime: options.objectKeepAliveTime } : {}),
    ...(options.maxContentBytes !== undefined ? { maxContentBytes: options.maxContentBytes } : {}),
    ...(options.console !== undefined ? { console: options.console } : {}),
  });
  const variant = handler.variant;
  const http: HttpServer = createServer((req, res) => handler(req, res));

  try {
    await new Promise<void>((resolve, reject) => {
      const onError = (e: NodeJS.ErrnoException): void =>
        reject(e.code === 'EADDRINUSE' ? Object.assign(new Error(`port ${port} on ${host} is already in use (choose another port, or 0 for any free one)`, { cause: e }), { code: e.code }) : e);
      http.once('error', onError);
      http.listen(port, host, () => {
        http.off('error', onError);
        resolve();
      });
    });
  } catch (e) {
    await handler.close();
    throw e;
  }
  const address = http.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' || address.address.includes(':') ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  // the endpoint closes when the server shuts down; closing it first removes that listener
  let unsubscribe = (): void => undefined;

  const handle: EndpointHandle = {
    url: `http://${urlHost}:${address.port}`,
    port: address.port,
    variant,
    close(): Promise<void> {
      unsubscribe();
      closing ??= new Promise<void>((resolve) => {
        const grace = setTimeout(() => http.closeAllConnections(), CLOSE_GRACE_MS);
        grace.unref();
        http.close(() => {
          clearTimeout(grace);
          resolve();
        });
        // cancels the running requests and closes the connections opened over HTTP
        void handler.close();
        http.closeIdleConnections();
      });
      return closing;
    },
  };
  try {
    unsubscribe = server.onShutdown(() => handle.close());
  } catch (e) {
    await handle.close();
    throw e;
  }
  return handle;
}
