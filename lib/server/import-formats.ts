/**
 * What the connection API uses of `formats/`, passed on so that the api layer talks to the
 * server layer only: the import report that collects notifications, media-type names and the
 * byte counter of a content source.
 * @module
 */
export { ImportReport } from '../formats/notifications.js';
export { canonicalMediaType, DATALOG } from '../formats/media-types.js';
export type { ByteCounter } from '../formats/byte-source.js';
