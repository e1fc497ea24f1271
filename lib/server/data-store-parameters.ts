/**
 * Data store types and creation parameters, with validation.
 * @module
 */
import { BadRequestError } from '../model/errors.js';

/** The data store types. */
export const DATA_STORE_TYPES = ['parallel-nn', 'parallel-nw', 'parallel-ww'] as const;

/** A data store type. */
export type DataStoreType = (typeof DATA_STORE_TYPES)[number];

/** The type of a store created without one. */
export const DEFAULT_DATA_STORE_TYPE: DataStoreType = 'parallel-nn';

/** Resolves a type name or an older alias (`par-complex-nn`, `par-simple-nw`, …). */
export function resolveDataStoreType(name: string | undefined): DataStoreType {
  if (name === undefined || name === '') return DEFAULT_DATA_STORE_TYPE;
  const m = /^(?:parallel|par-complex|par-simple)-(nn|nw|ww)$/.exec(name);
  if (!m) throw new BadRequestError(`unknown data store type '${name}' (expected one of ${DATA_STORE_TYPES.join(', ')})`);
  return `parallel-${m[1]}` as DataStoreType;
}

type Check = (value: string) => string | undefined; // returns an error text or undefined

const boolean: Check = (v) => (v === 'true' || v === 'false' ? undefined : 'must be true or false');

/** `default` (the default graph) or the absolute IRI of a named graph. */
const graphName: Check = (v) =>
  // eslint-disable-next-line no-control-regex
  v === 'default' || /^[A-Za-z][A-Za-z0-9+.-]*:[^\u0000-\u0020<>"{}|^`\\]*$/.test(v) ? undefined : 'must be default or the absolute IRI of a named graph';

/** Allowed creation parameters, their checks and defaults. */
const PARAMETERS: Readonly<Record<string, { check: Check; default?: string }>> = {
  'by-levels': { check: boolean, default: 'true' },
  'use-DRed': { check: boolean, default: 'false' },
  equality: {
    check: (v) => (v === 'off' || v === 'noUNA' || v === 'UNA' ? undefined : 'must be off, noUNA or UNA'),
    default: 'off',
  },
  // SHACL validation on commit (shacl-commit.ts): on or off (when absent: off), and the graphs
  // it reads (when absent: the default graph); no defaults are filled in
  'shacl-validation-on-commit': { check: (v) => (v === 'on' || v === 'off' ? undefined : 'must be on or off') },
  'shacl-data-graph': { check: graphName },
  'shacl-shapes-graph': { check: graphName },
  // `file` and `postgresql` are accepted only on a server that persists so (see resolveDataStoreParameters)
  persistence: { check: (v) => (v === 'off' || v === 'file' || v === 'postgresql' ? undefined : 'must be off, file or postgresql'), default: 'off' },
};

/**
 * Validates creation parameters and fills in defaults; unknown keys and bad values are errors.
 * `persistence=file` is accepted only when `persistentServer` is true (a server with a server
 * directory; there it is the default), and `persistence=postgresql` only when it is
 * `'postgresql'` (a replicated server, whose stores all live in PostgreSQL).
 */
export function resolveDataStoreParameters(given: Readonly<Record<string, string>>, persistentServer: boolean | 'postgresql' = false): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, spec] of Object.entries(PARAMETERS)) if (spec.default !== undefined) out[key] = spec.default;
  for (const [key, value] of Object.entries(given)) {
    const spec = PARAMETERS[key];
    if (!spec) throw new BadRequestError(`unknown data store parameter '${key}' (known: ${Object.keys(PARAMETERS).join(', ')})`);
    const problem = spec.check(String(value));
    if (problem) throw new BadRequestError(`invalid value '${value}' of data store parameter '${key}': ${problem}`);
    out[key] = String(value);
  }
  if (persistentServer === 'postgresql') {
    if (given.persistence !== undefined && given.persistence !== 'postgresql') throw new BadRequestError(`data store parameter persistence=${given.persistence} is not possible on a server with persistence=postgresql: every store is kept in PostgreSQL (persistence=postgresql)`);
    out.persistence = 'postgresql';
    return out;
  }
  if (out.persistence === 'postgresql') throw new BadRequestError('data store parameter persistence=postgresql needs a server with persistence=postgresql');
  if (out.persistence === 'file' && persistentServer !== true) throw new BadRequestError(`data store parameter persistence=file needs a server with persistence=file and a server-directory (this server keeps its stores in memory)`);
  return out;
}
