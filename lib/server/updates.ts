/**
 * SPARQL update parsing, passed on from `sparql/` for the connection API (kept apart from
 * `queries.ts`, whose module the API's published types import).
 * @module
 */
export { parseUpdate } from '../sparql/update.js';
