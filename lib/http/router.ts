/**
 * The path map of the management interface and the request pipeline: routing (404 for an
 * unknown path, 405 with `Allow` for a method the path lacks), the request ID (variant B),
 * parameters from the query string, authentication, then parameters from a form body and the
 * connection it names, request registration, and the mapping of errors to responses.
 *
 * No body is read before the request is authenticated (see `auth.ts` for a connection named
 * only in a form body); an error answered while the body is still arriving is sent at once and
 * the rest of the body dropped (`unread-body.ts`). Parameters must be UTF-8 once
 * percent-decoded (`form-parameters.ts`).
 *
 * Paths of variant B only (`/requests…`, `/datastores/<ds>/commitprocedure`) are unknown
 * (404) in variant A.
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { BadRequestError, baseMediaType, UnknownResourceError } from '../index.js';
import type { Principal } from './auth.js';
import type { ConnectionKind, RegisteredConnection } from './connections.js';
import { MethodNotAllowedError } from './errors.js';
import { sendRequestError } from './unread-body.js';
import { type EndpointContext, type Handler, HttpExchange, MAX_BUFFERED_BODY, readRequestBody, type Variant } from './exchange.js';
import { handleRequest, handleRequests, RequestRegistry, RunningRequest } from './requests.js';
import { handleCommitProcedure } from './resources/commit-procedure.js';
import { handleDataSource, handleDataSources, handleDataSourceTable, handleDataSourceTableData, handleDataSourceTables, handleStatistic, handleStatistics, handleTupleTable, handleTupleTables } from './resources/catalog.js';
import { handleDataStoreConnection, handleDataStoreConnections, handleServerConnection, handleServerConnections } from './resources/connections.js';
import { handleContent } from './resources/content.js';
import { handleCursor, handleCursors } from './resources/cursors.js';
import { handleDataStore, handleDataStores } from './resources/datastores.js';
import { handleDeltaQueries, handleDeltaQuery, handleDeltaQueryAnswer, handleDeltaQueryAnswerList, handleDeltaQueryAnswers } from './resources/delta-queries.js';
import { handleExplanation } from './resources/explanation.js';
import { handleCommands, handleShell, handleShells } from './resources/shells.js';
import type { RegisteredShell } from './shells.js';
import { handlePrefixes } from './resources/prefixes.js';
import { handleSavedQueries, handleSavedQuery } from './resources/saved-queries.js';
import { handleMembers, handleMemberships, handlePassword, handlePrivileges, handleRole, handleRoles } from './resources/roles.js';

import { handleHealth, handleReplication, handleServer } from './resources/server.js';
import { handleShacl } from './resources/shacl.js';
import { handleSparql } from './resources/sparql.js';
import { handleTransaction } from './resources/transaction.js';
import { FORM_TYPE } from './negotiation.js';
import { appendFormBody, queryParameters } from './form-parameters.js';

/** One entry of the path map. */
export interface Route {
  /** The path pattern: segments, `:name` for a parameter (e.g. `/datastores/:ds/prefixes`). */
  readonly path: string;
  /** The methods the path supports. */
  readonly methods: readonly string[];
  /** The handler (called with the path parameters in order). */
  readonly handler: Handler;
  /** The variants that have the path (default: both). */
  readonly variants?: readonly Variant[];
  /** False for paths served without authentication (/health). */
  readonly authenticate?: boolean;
  /** False for requests that are not registered as running requests. */
  readonly register?: boolean;
  /**
   * The path parameter naming a connection (the request acts on it and must be authenticated
   * for it), its kind, and the parameter naming its data store.
   */
  readonly connection?: { readonly parameter: string; readonly kind: ConnectionKind; readonly dataStore?: string };
  /**
   * The parameter naming a shell of `/shells` (in the path, or in the query string), which the
   * request must be authenticated for.
   */
  readonly shell?: { readonly parameter: string; readonly inQuery: boolean };
}

const DS_CONNECTION = { parameter: 'conn', kind: 'datastore', dataStore: 'ds' } as const;

/** The path map of the management interface (every path and method of the specification). */
export const ROUTES: readonly Route[] = [
  { path: '/', methods: ['GET', 'PATCH'], handler: handleServer },
  { path: '/commands', methods: ['POST'], handler: handleCommands, shell: { parameter: 'shell', inQuery: true } },
  { path: '/connections', methods: ['GET', 'POST'], handler: handleServerConnections },
  { path: '/connections/:conn', methods: ['GET', 'PATCH', 'DELETE'], handler: handleServerConnection, connection: { parameter: 'conn', kind: 'server' } },
  { path: '/datastores', methods: ['GET'], handler: handleDataStores },
  { path: '/datastores/:ds', methods: ['GET', 'PATCH', 'POST', 'DELETE'], handler: handleDataStore },
  { path: '/datastores/:ds/commitprocedure', methods: ['GET', 'PUT', 'DELETE'], handler: handleCommitProcedure, variants: ['B'] },
  { path: '/datastores/:ds/connections', methods: ['GET', 'POST'], handler: handleDataStoreConnections },
  { path: '/datastores/:ds/connections/:conn', methods: ['GET', 'PATCH', 'DELETE'], handler: handleDataStoreConnection, connection: DS_CONNECTION },
  { path: '/datastores/:ds/connections/:conn/cursors', methods: ['GET', 'POST'], handler: handleCursors, connection: DS_CONNECTION },
  { path: '/datastores/:ds/connections/:conn/cursors/:cursor', methods: ['GET', 'PATCH', 'DELETE'], handler: handleCursor, connection: DS_CONNECTION },
  { path: '/datastores/:ds/connections/:conn/transaction', methods: ['GET', 'POST'], handler: handleTransaction, connection: DS_CONNECTION },
  { path: '/datastores/:ds/content', methods: ['GET', 'PATCH', 'PUT', 'POST', 'DELETE'], handler: handleContent },
  { path: '/datastores/:ds/deltaqueries', methods: ['GET'], handler: handleDeltaQueries },
  { path: '/datastores/:ds/deltaqueries/:name', methods: ['GET', 'POST', 'DELETE'], handler: handleDeltaQuery },
  { path: '/datastores/:ds/deltaqueryanswers', methods: ['GET'], handler: handleDeltaQueryAnswerList },
  { path: '/datastores/:ds/deltaqueryanswers/:name', methods: ['GET'], handler: handleDeltaQueryAnswers },
  { path: '/datastores/:ds/deltaqueryanswers/:name/:version/:type', methods: ['GET'], handler: handleDeltaQueryAnswer },
  { path: '/datastores/:ds/datasources', methods: ['GET'], handler: handleDataSources },
  { path: '/datastores/:ds/datasources/:source', methods: ['GET', 'POST', 'DELETE'], handler: handleDataSource },
  { path: '/datastores/:ds/datasources/:source/tables', methods: ['GET'], handler: handleDataSourceTables },
  { path: '/datastores/:ds/datasources/:source/tables/:table', methods: ['GET'], handler: handleDataSourceTable },
  { path: '/datastores/:ds/datasources/:source/tables/:table/data', methods: ['GET'], handler: handleDataSourceTableData },
  { path: '/datastores/:ds/explanation', methods: ['GET'], handler: handleExplanation },
  { path: '/datastores/:ds/prefixes', methods: ['GET', 'PUT', 'PATCH'], handler: handlePrefixes },
  { path: '/datastores/:ds/saved-queries', methods: ['GET'], handler: handleSavedQueries },
  { path: '/datastores/:ds/saved-queries/:name', methods: ['GET', 'PUT', 'DELETE'], handler: handleSavedQuery },
  { path: '/datastores/:ds/shacl', methods: ['GET'], handler: handleShacl },
  { path: '/datastores/:ds/sparql', methods: ['GET', 'POST'], handler: handleSparql },
  { path: '/datastores/:ds/stats', methods: ['GET', 'PUT'], handler: handleStatistics },
  { path: '/datastores/:ds/stats/:stats', methods: ['GET', 'PUT', 'POST', 'DELETE'], handler: handleStatistic },
  { path: '/datastores/:ds/tupletables', methods: ['GET'], handler: handleTupleTables },
  { path: '/datastores/:ds/tupletables/:table', methods: ['GET', 'POST', 'DELETE'], handler: handleTupleTable },
  { path: '/health', methods: ['GET'], handler: handleHealth, authenticate: false, register: false },
  { path: '/password', methods: ['PUT'], handler: handlePassword },
  { path: '/replication', methods: ['GET'], handler: handleReplication },
  { path: '/requests', methods: ['GET'], handler: handleRequests, variants: ['B'], register: false },
  { path: '/requests/:request', methods: ['GET', 'DELETE'], handler: handleRequest, variants: ['B'], register: false },
  { path: '/roles', methods: ['GET'], handler: handleRoles },
  { path: '/roles/:role', methods: ['GET', 'POST', 'DELETE'], handler: handleRole },
  { path: '/roles/:role/privileges', methods: ['GET', 'PATCH'], handler: handlePrivileges },
  { path: '/roles/:role/memberships', methods: ['GET', 'PATCH'], handler: handleMemberships },
  { path: '/roles/:role/members', methods: ['GET'], handler: handleMembers },
  { path: '/shells', methods: ['GET', 'POST'], handler: handleShells },
  { path: '/shells/:shell', methods: ['GET', 'PATCH', 'DELETE'], handler: handleShell, shell: { parameter: 'shell', inQuery: false } },
];

interface CompiledRoute {
  readonly route: Route;
  readonly segments: readonly string[];
}

/** A route matched against a path, with its parameters by name and in order. */
export interface RouteMatch {
  /** The route. */
  readonly route: Route;
  /** The parameters by name. */
  readonly parameters: Readonly<Record<string, string>>;
  /** The parameter values in path order. */
  readonly values: readonly string[];
}

function splitPath(pattern: string): string[] {
  return pattern === '/' ? [] : pattern.slice(1).split('/');
}

/** Routes requests of one variant to handlers. */
export class Router {
  private readonly routes: readonly CompiledRoute[];

  /** Creates the router of a variant from a path map. */
  constructor(variant: Variant, routes: readonly Route[] = ROUTES) {
    this.routes = routes.filter((r) => !r.variants || r.variants.includes(variant)).map((route) => ({ route, segments: splitPath(route.path) }));
  }

  /**
   * The route of a raw (percent-encoded) path, or undefined when no route has it.
   * @throws BadRequestError when a segment is not valid percent-encoding.
   */
  match(rawPath: string): RouteMatch | undefined {
    let path = rawPath;
    if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
    if (!path.startsWith('/')) return undefined;
    const segments = splitPath(path).map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        throw new BadRequestError(`malformed percent-encoding in path segment '${segment}'`);
      }
    });
    if (segments.some((s) => s === '')) return undefined;
    for (const { route, segments: pattern } of this.routes) {
      if (pattern.length !== segments.length) continue;
      const parameters: Record<string, string> = {};
      const values: string[] = [];
      let ok = true;
      for (let i = 0; i < pattern.length && ok; i++) {
        const p = pattern[i]!;
        if (p.startsWith(':')) {
          parameters[p.slice(1)] = segments[i]!;
          values.push(segments[i]!);
        } else ok = p === segments[i];
      }
      if (ok) return { route, parameters, values };
    }
    return undefined;
  }
}

const BODY_METHODS: ReadonlySet<string> = new Set(['PATCH', 'POST', 'PUT']);

/**
 * The request pipeline of an interface: `(req, res, target, sentTarget) => Promise<void>`,
 * never rejecting. `target` is the request target relative to the prefix the interface is
 * mounted under, `sentTarget` the target as the client sent it (for the request listing);
 * both default to `req.url`, for an interface at the root.
 */
export function createRequestListener(context: EndpointContext): (req: IncomingMessage, res: ServerResponse, target?: string, sentTarget?: string) => Promise<void> {
  const router = new Router(context.variant);
  return async (req, res, target = req.url ?? '/', sentTarget = target) => {
    try {
      await serve(context, router, req, res, target, sentTarget);
    } catch (e) {
      sendRequestError(req, res, e);
    }
  };
}

async function serve(context: EndpointContext, router: Router, req: IncomingMessage, res: ServerResponse, relativeTarget: string, target: string): Promise<void> {
  const method = (req.method ?? 'GET').toUpperCase();
  const requestId = RequestRegistry.requestIdOf(req.headers['service-request-id']);
  if (context.variant === 'B') res.setHeader('Service-Request-ID', requestId);
  const url = parseTarget(relativeTarget);
  // paths in messages are those the client sent
  const shownPath = context.prefix + url.pathname;
  const match = router.match(url.pathname);
  if (!match) throw new UnknownResourceError(`no resource at path '${shownPath}'`);
  const { route } = match;
  if (!route.methods.includes(method)) throw new MethodNotAllowedError(method, shownPath, route.methods);

  const params = queryParameters(url.search);
  const form = BODY_METHODS.has(method) && baseMediaType(req.headers['content-type']) === FORM_TYPE;

  if (route.authenticate === false) {
    // a path served without authentication reads no body
    await route.handler(new HttpExchange({ req, res, context, method, path: url.pathname, params, bodyConsumed: false, principal: unauthenticated(context), named: undefined, request: new RunningRequest(requestId, '', method, target) }), ...match.values);
    finish(res);
    return;
  }

  // authentication comes before any body is read: from the header, and the connection or shell
  // the path or query string names; a form body may still name one (checked once it is read)
  let shell = namedShell(context, route, match.parameters, params);
  let named = shell ? undefined : namedConnection(context, route, match.parameters, params);
  const namedLater = form && !shell && !named;
  const principal = await context.authenticator.authenticate(req.headers.authorization, shell ?? named, { namedLater });
  if (form) {
    const body = await readRequestBody(req, Math.min(MAX_BUFFERED_BODY, context.maxContentBytes));
    appendFormBody(params, body);
    if (namedLater) {
      shell = namedShell(context, route, match.parameters, params);
      named = shell ? undefined : namedConnection(context, route, match.parameters, params);
      context.authenticator.checkNamed(principal, shell ?? named);
    }
  }
  if (named) context.connections.touch(named);
  if (shell) context.shells.touch(shell);
  const request = new RunningRequest(requestId, principal.roleName, method, target);
  const unregister = route.register !== false ? context.requests.register(request) : undefined;
  try {
    const exchange = new HttpExchange({ req, res, context, method, path: url.pathname, params, bodyConsumed: form, principal, named, request });
    await route.handler(exchange, ...match.values);
    finish(res);
  } finally {
    unregister?.();
  }
}

/** The URL of a request target (origin form `/path?query`, or absolute form). */
function parseTarget(target: string): URL {
  try {
    // origin form is appended to a dummy origin, so that `//x/y` stays a path and is not read as an authority
    return target.startsWith('/') ? new URL(`http://endpoint.invalid${target}`) : new URL(target);
  } catch {
    throw new BadRequestError(`malformed request target '${target}'`);
  }
}

/** The connection a request names: by its path for connection resources, else by `connection=`. */
function namedConnection(context: EndpointContext, route: Route, parameters: Readonly<Record<string, string>>, params: URLSearchParams): RegisteredConnection | undefined {
  if (route.connection) {
    const id = parameters[route.connection.parameter]!;
    const dataStore = route.connection.dataStore === undefined ? undefined : parameters[route.connection.dataStore];
    return context.connections.find(route.connection.kind, id, dataStore);
  }
  const id = params.get('connection');
  if (id === null) return undefined;
  if (id === '') throw new BadRequestError("parameter 'connection' is empty: give the identifier of a connection");
  const found = context.connections.get(id);
  if (!found) throw new UnknownResourceError(`connection '${id}' does not exist (it may have expired)`);
  return found;
}

/** The shell a request names: by its path (`/shells/<id>`) or by `shell=` (`/commands`). */
function namedShell(context: EndpointContext, route: Route, parameters: Readonly<Record<string, string>>, params: URLSearchParams): RegisteredShell | undefined {
  if (!route.shell) return undefined;
  const id = route.shell.inQuery ? params.get(route.shell.parameter) : parameters[route.shell.parameter];
  if (id === null || id === undefined || id === '') return undefined;
  return context.shells.find(id);
}

/** The principal of an unauthenticated path (it opens no connection). */
function unauthenticated(context: EndpointContext): Principal {
  return {
    roleName: '',
    scheme: 'guest',
    get root(): never {
      throw new Error(`an unauthenticated request of the endpoint for '${context.server.url}' cannot open connections`);
    },
  };
}

/** Makes sure a handler's response is complete. */
function finish(res: ServerResponse): void {
  if (!res.headersSent) throw new Error('the handler sent no response');
  if (!res.writableEnded) res.end();
}
