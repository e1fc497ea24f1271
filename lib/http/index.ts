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
 * @module
 */
export { startEndpoint, type EndpointOptions, type EndpointHandle } from './endpoint.js';
export type { Variant } from './exchange.js';
