/**
 * Starting and stopping the HTTP endpoint of a server.
 * @module
 */
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from '../index.js';
import { Authenticator } from './auth.js';
import { ConnectionRegistry } from './connections.js';
import type { EndpointContext, Variant } from './exchange.js';
import { RequestRegistry } from './requests.js';
import { createRequestListener } from './router.js';

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
/** The default connection keep-alive time, in milliseconds. */
export const DEFAULT_OBJECT_KEEP_ALIVE_TIME = 60_000;
/** The default largest request body, in bytes (1 GiB). */
export const DEFAULT_MAX_CONTENT_BYTES = 1024 * 1024 * 1024;

/** How long close() waits for running requests before cutting their sockets. */
const CLOSE_GRACE_MS = 2_000;

/**
 * Serves the management interface of `server` over HTTP (node:http).
 * @throws Error when the options are invalid or the port cannot be bound.
 */
export async function startEndpoint(server: Server, options: EndpointOptions = {}): Promise<EndpointHandle> {
  const port = options.port ?? DEFAULT_PORT;
  const host = options.host ?? DEFAULT_HOST;
  const variant = options.variant ?? 'B';
  const keepAlive = options.objectKeepAliveTime ?? DEFAULT_OBJECT_KEEP_ALIVE_TIME;
  const maxContentBytes = options.maxContentBytes ?? DEFAULT_MAX_CONTENT_BYTES;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new RangeError(`invalid port ${port} (expected an integer from 0 to 65535)`);
  if (variant !== 'A' && variant !== 'B') throw new RangeError(`invalid variant '${String(variant)}' (expected 'A' or 'B')`);
  if (!Number.isFinite(keepAlive) || keepAlive <= 0) throw new RangeError(`invalid objectKeepAliveTime ${keepAlive} (expected a positive number of milliseconds)`);
  if (!Number.isSafeInteger(maxContentBytes) || maxContentBytes <= 0) throw new RangeError(`invalid maxContentBytes ${maxContentBytes} (expected a positive integer number of bytes)`);

  const connections = new ConnectionRegistry(keepAlive);
  const context: EndpointContext = {
    server,
    variant,
    connections,
    requests: new RequestRegistry(),
    authenticator: new Authenticator(server.url, connections),
    maxContentBytes,
  };
  const listener = createRequestListener(context);
  const http: HttpServer = createServer((req, res) => void listener(req, res));

  await new Promise<void>((resolve, reject) => {
    const onError = (e: NodeJS.ErrnoException): void =>
      reject(e.code === 'EADDRINUSE' ? Object.assign(new Error(`port ${port} on ${host} is already in use (choose another port, or 0 for any free one)`, { cause: e }), { code: e.code }) : e);
    http.once('error', onError);
    http.listen(port, host, () => {
      http.off('error', onError);
      resolve();
    });
  });
  const address = http.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' || address.address.includes(':') ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;

  return {
    url: `http://${urlHost}:${address.port}`,
    port: address.port,
    variant,
    close(): Promise<void> {
      closing ??= new Promise<void>((resolve) => {
        const grace = setTimeout(() => http.closeAllConnections(), CLOSE_GRACE_MS);
        grace.unref();
        http.close(() => {
          clearTimeout(grace);
          resolve();
        });
        context.requests.cancelAll();
        connections.closeAll();
        http.closeIdleConnections();
      });
      return closing;
    },
  };
}
