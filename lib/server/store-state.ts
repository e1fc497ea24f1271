/**
 * What the connection API uses of `storage/`, passed on so that the api layer talks to the
 * server layer only: snapshots, store states and write transactions, the names and ids of the
 * built-in tuple tables, fact-domain masks, fact access and the catalogue.
 * @module
 */
export { DEFAULT_TRIPLES, DEFAULT_TRIPLES_ID, QUADS, QUADS_ID, type Snapshot, type StoreState, type WriteTransaction } from '../storage/fact-store.js';
export { factDomainMask } from '../storage/tuple-table.js';
export type { FactAccess } from '../storage/fact-access.js';
export { type Catalogue, storesFacts } from '../storage/catalogue.js';
