/**
 * The management interface as a request handler that can be mounted under a path prefix in
 * any Node HTTP server: node:http, Express (as middleware), Fastify (on the raw request and
 * response). {@link startEndpoint} serves the same handler on a server of its own.
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Server, UnknownResourceError } from '../index.js';
import { Authenticator } from './auth.js';
import { ConnectionRegistry } from './connections.js';
import { createConsoleListener } from './console.js';
import { ServiceUnavailableError } from './errors.js';
import { sendRequestError } from './unread-body.js';
import type { EndpointContext, Variant } from './exchange.js';
import { RequestRegistry } from './requests.js';
import { ShellRegistry } from './shells.js';
import { createRequestListener } from './router.js';

/** Options of {@link createRequestHandler}. */
export interface RequestHandlerOptions {
  /**
   * The path the interface is mounted under, e.g. `/kg` (default: the root). It starts with
   * `/`, has no trailing `/`, and its segments hold no percent-encoding, `?` or `#`. `/kg`
   * serves `/kg` (the server resource `/`) and every path below `/kg/`, and nothing else.
   */
  readonly prefix?: string;
  /** The variant of the management interface (default B). */
  readonly variant?: Variant;
  /**
   * How long a connection opened over HTTP lives without a request, in milliseconds (the
   * endpoint parameter object-keep-alive-time; default 60000).
   */
  readonly objectKeepAliveTime?: number;
  /**
   * The largest request body accepted, in bytes (default 1 GiB); a larger one answers 413
   * and changes nothing (see {@link EndpointOptions.maxContentBytes}).
   */
  readonly maxContentBytes?: number;
  /**
   * Whether the web console is served at `<prefix>/console/` (default true; see
   * {@link EndpointOptions.console}).
   */
  readonly console?: boolean;
}

/**
 * A request handler serving the management interface under a path prefix.
 *
 * Call it with Node's request and response, and optionally a `next` function (Express
 * middleware style). A request whose path is under the prefix is answered exactly as
 * {@link startEndpoint} answers it without the prefix, except that the paths in `Location`
 * headers and in error messages include the prefix. A request outside the prefix calls
 * `next()` when given, and is answered 404 otherwise. The prefix is matched against
 * `req.originalUrl` when the framework sets it (Express does, also under `app.use('/kg', …)`),
 * else against `req.url`.
 *
 * The handler reads request bodies itself: mount it before any body-parsing middleware.
 */
export interface RequestHandler {
  /** Serves one request (see {@link RequestHandler}); never throws, and returns at once. */
  (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void): void;
  /** The prefix the interface is mounted under (`''` for the root). */
  readonly prefix: string;
  /** The variant the handler speaks. */
  readonly variant: Variant;
  /**
   * Stops the handler: cancels its running requests and closes every connection opened over
   * HTTP through it (and their expiry timers). Later requests under the prefix answer 503.
   * Resolves when the requests it was serving have ended. Calling it again is harmless.
   */
  close(): Promise<void>;
}

/** The default connection keep-alive time, in milliseconds. */
export const DEFAULT_OBJECT_KEEP_ALIVE_TIME = 60_000;
/** The default largest request body, in bytes (1 GiB). */
export const DEFAULT_MAX_CONTENT_BYTES = 1024 * 1024 * 1024;

const PREFIX_RE = /^(?:\/[A-Za-z0-9\-._~!$&'()*+,;=:@]+)*$/;

/**
 * The prefix option in its normal form (`''` for the root).
 * @throws RangeError for a malformed prefix.
 */
function normalPrefix(prefix: string | undefined): string {
  if (prefix === undefined || prefix === '' || prefix === '/') return '';
  if (typeof prefix !== 'string' || !PREFIX_RE.test(prefix)) {
    throw new RangeError(`invalid prefix '${String(prefix)}' (expected a path such as '/kg': starting with '/', without a trailing '/', percent-encoding, '?' or '#')`);
  }
  return prefix;
}

/**
 * Creates a handler serving the management interface of `server` (see {@link RequestHandler}).
 *
 * ```ts
 * import { createServer } from 'node:http';
 * import { createRequestHandler } from 'quadlog/http';
 *
 * const kg = createRequestHandler(server, { prefix: '/kg' });
 * createServer((req, res) => kg(req, res, () => serveTheRest(req, res))).listen(8080);
 * // Express: app.use(kg)
 * // Fastify: app.all('/kg/*', (request, reply) => { reply.hijack(); kg(request.raw, reply.raw); })
 * ```
 * @throws RangeError when an option is invalid.
 */
export function createRequestHandler(server: Server, options: RequestHandlerOptions = {}): RequestHandler {
  const prefix = normalPrefix(options.prefix);
  const variant = options.variant ?? 'B';
  const keepAlive = options.objectKeepAliveTime ?? DEFAULT_OBJECT_KEEP_ALIVE_TIME;
  const maxContentBytes = options.maxContentBytes ?? DEFAULT_MAX_CONTENT_BYTES;
  if (variant !== 'A' && variant !== 'B') throw new RangeError(`invalid variant '${String(variant)}' (expected 'A' or 'B')`);
  if (!Number.isFinite(keepAlive) || keepAlive <= 0) throw new RangeError(`invalid objectKeepAliveTime ${keepAlive} (expected a positive number of milliseconds)`);
  if (!Number.isSafeInteger(maxContentBytes) || maxContentBytes <= 0) throw new RangeError(`invalid maxContentBytes ${maxContentBytes} (expected a positive integer number of bytes)`);

  const connections = new ConnectionRegistry(keepAlive);
  const shells = new ShellRegistry(keepAlive);
  const context: EndpointContext = {
    server,
    variant,
    prefix,
    connections,
    requests: new RequestRegistry(),
    shells,
    authenticator: new Authenticator(server.url, connections, shells),
    maxContentBytes,
  };
  const listener = createRequestListener(context);
  const consoleListener = options.console === false ? undefined : createConsoleListener(prefix);
  const serving = new Set<Promise<void>>();
  let closing: Promise<void> | undefined;

  const handler = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void): void => {
    const original = (req as IncomingMessage & { originalUrl?: unknown }).originalUrl;
    const target = typeof original === 'string' ? original : (req.url ?? '/');
    const inside = targetUnder(prefix, target);
    if (inside === undefined) {
      if (next) next();
      else sendRequestError(req, res, new UnknownResourceError(`no resource at path '${pathOf(target)}' (the management interface is under '${prefix}')`));
      return;
    }
    if (closing) {
      sendRequestError(req, res, new ServiceUnavailableError('the management interface has been closed'));
      return;
    }
    if (consoleListener?.(req, res, inside)) return;
    const running = listener(req, res, inside, target);
    serving.add(running);
    void running.finally(() => serving.delete(running));
  };
  // the handler closes with the server (its connections would stop working anyway)
  const unsubscribe = server.onShutdown(() => mounted.close());
  const mounted = Object.assign(handler, {
    prefix,
    variant,
    close(): Promise<void> {
      closing ??= (async () => {
        unsubscribe();
        context.requests.cancelAll();
        connections.closeAll();
        await Promise.allSettled([...serving, shells.closeAll()]);
      })();
      return closing;
    },
  });
  return mounted;
}

/** The path of a request target (origin form or absolute form), without the query. */
function pathOf(target: string): string {
  if (!target.startsWith('/')) {
    try {
      return new URL(target).pathname;
    } catch {
      return target;
    }
  }
  const end = target.search(/[?#]/);
  return end < 0 ? target : target.slice(0, end);
}

/**
 * The target relative to the prefix (origin form: `/path?query`), or undefined when the
 * target's path is not the prefix or below it.
 */
function targetUnder(prefix: string, target: string): string | undefined {
  if (prefix === '') return target;
  let origin = target;
  if (!target.startsWith('/')) {
    // absolute form (`http://host/path`), as sent to proxies
    try {
      const url = new URL(target);
      origin = url.pathname + url.search;
    } catch {
      return undefined;
    }
  }
  if (!origin.startsWith(prefix)) return undefined;
  const rest = origin.slice(prefix.length);
  if (rest === '' || rest.startsWith('?') || rest.startsWith('#')) return `/${rest}`;
  return rest.startsWith('/') ? rest : undefined;
}
