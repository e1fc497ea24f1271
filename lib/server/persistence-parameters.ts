/**
 * The server parameters that choose persistence (`persistence`, `server-directory`,
 * `persistence-durability`, `persistence-compact-threshold`) and their validation: kept apart
 * from the server directory's code (`server-persistence.ts`), which a server loads only when
 * the parameters ask for it.
 * @module
 */
import { BadRequestError } from '../model/errors.js';
import type { PersistenceSettings } from './store-persistence.js';

/** Server parameter: `off` (default: everything in memory) or `file` (a server directory). */
export const PERSISTENCE_PARAMETER = 'persistence';
/** Server parameter: the server directory (required with `persistence=file`). */
export const SERVER_DIRECTORY_PARAMETER = 'server-directory';
/** Server parameter: `sync` (default: a commit returns once its record is flushed to disk) or `relaxed`. */
export const DURABILITY_PARAMETER = 'persistence-durability';
/** Server parameter: log size in bytes past which a store is compacted (default 64 MiB). */
export const COMPACT_THRESHOLD_PARAMETER = 'persistence-compact-threshold';

/** The default of {@link COMPACT_THRESHOLD_PARAMETER}. */
export const DEFAULT_COMPACT_THRESHOLD = 64 * 1024 * 1024;

/** The persistence a server's parameters ask for, or undefined for an in-memory server. */
export function persistenceOf(parameters: Readonly<Record<string, string>>): { directory: string; settings: PersistenceSettings } | undefined {
  const mode = parameters[PERSISTENCE_PARAMETER] ?? (parameters[SERVER_DIRECTORY_PARAMETER] !== undefined ? 'file' : 'off');
  if (mode !== 'off' && mode !== 'file') throw new BadRequestError(`invalid value '${mode}' for server parameter '${PERSISTENCE_PARAMETER}': off or file`);
  const durability = parameters[DURABILITY_PARAMETER] ?? 'sync';
  if (durability !== 'sync' && durability !== 'relaxed') throw new BadRequestError(`invalid value '${durability}' for server parameter '${DURABILITY_PARAMETER}': sync or relaxed`);
  const thresholdText = parameters[COMPACT_THRESHOLD_PARAMETER] ?? String(DEFAULT_COMPACT_THRESHOLD);
  if (!/^\d+$/.test(thresholdText)) throw new BadRequestError(`invalid value '${thresholdText}' for server parameter '${COMPACT_THRESHOLD_PARAMETER}': a number of bytes`);
  if (mode === 'off') {
    if (parameters[SERVER_DIRECTORY_PARAMETER] !== undefined) throw new BadRequestError(`server parameter '${SERVER_DIRECTORY_PARAMETER}' needs ${PERSISTENCE_PARAMETER}=file`);
    return undefined;
  }
  const directory = parameters[SERVER_DIRECTORY_PARAMETER];
  if (directory === undefined || directory === '') throw new BadRequestError(`${PERSISTENCE_PARAMETER}=file needs the server parameter '${SERVER_DIRECTORY_PARAMETER}'`);
  return { directory, settings: { durability, compactThreshold: Number(thresholdText) } };
}

