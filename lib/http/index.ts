/**
 * `quadlog/http`: the HTTP management interface of a quadlog server.
 *
 * ```ts
 * import { Server } from 'quadlog';
 * import { startEndpoint } from 'quadlog/http';
 *
 * const server = await Server.create({ roleName: 'admin', password: 'secret' });
 * const endpoint = await startEndpoint(server, { port: 12110 });
 * console.log(endpoint.url);
 * // …
 * await endpoint.close();
 * ```
 *
 * Or mount the interface under a path of an HTTP server you already run (node:http,
 * Express, Fastify) with {@link createRequestHandler}:
 *
 * ```ts
 * const kg = createRequestHandler(server, { prefix: '/kg' });
 * app.use(kg); // Express: requests outside /kg go on to the next middleware
 * // …
 * await kg.close();
 * ```
 * @module
 */
export { startEndpoint, type EndpointOptions, type EndpointHandle } from './endpoint.js';
export { createRequestHandler, type RequestHandler, type RequestHandlerOptions } from './handler.js';
export type { Variant } from './exchange.js';
