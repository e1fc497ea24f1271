/**
 * The server parameters that choose persistence (`persistence`, `server-directory`,
 * `persistence-durability`, `persistence-compact-threshold`, and for `persistence=postgresql`
 * the `persistence-connection-string`, `persistence-schema`, `persistence-node-id`,
 * `persistence-node-url`, `persistence-lease-time` and `persistence-replicate-derived`) and
 * their validation: kept apart from
 * the code that persists (`server-persistence.ts`, `pg-server-persistence.ts`), which a server
 * loads only when the parameters ask for it.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
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

/** Server parameter (`persistence=postgresql`): the libpq connection string (URL or key=value). */
export const CONNECTION_STRING_PARAMETER = 'persistence-connection-string';
/** Server parameter (`persistence=postgresql`): the PostgreSQL schema of the tables (default `quadlog`). */
export const SCHEMA_PARAMETER = 'persistence-schema';
/** Server parameter (`persistence=postgresql`): this process's name in the cluster (default hostname-pid-random). */
export const NODE_ID_PARAMETER = 'persistence-node-id';
/** Server parameter (`persistence=postgresql`): the URL clients should use for this node (shown in errors and status). */
export const NODE_URL_PARAMETER = 'persistence-node-url';
/** Server parameter (`persistence=postgresql`): milliseconds after which an unrenewed writer lease expires (default 3000). */
export const LEASE_TIME_PARAMETER = 'persistence-lease-time';

/**
 * Server parameter (`persistence=postgresql`): `false` (default) or `true`. With `true`, this
 * node, as the writer, logs each commit's net change of derived facts with its explicit
 * changes, and, as a replica, applies a record that carries them without reasoning; with
 * `false` a replica reasons for every record (and the writer does not log derived facts).
 */
export const REPLICATE_DERIVED_PARAMETER = 'persistence-replicate-derived';

/** The default of {@link SCHEMA_PARAMETER}. */
export const DEFAULT_SCHEMA = 'quadlog';
/** The default of {@link LEASE_TIME_PARAMETER}. */
export const DEFAULT_LEASE_TIME_MS = 3000;

/** How a server replicates through PostgreSQL (`persistence=postgresql`). */
export interface PostgresSettings {
  /** The libpq connection string. */
  readonly connectionString: string;
  /** The schema holding the tables. */
  readonly schema: string;
  /** This node's id. */
  readonly nodeId: string;
  /** The URL clients should use for this node ('' when unknown). */
  readonly nodeUrl: string;
  /** Milliseconds after which an unrenewed lease expires. */
  readonly leaseTimeMs: number;
  /** Log bytes since the last snapshot past which the writer writes a new snapshot and trims the log. */
  readonly compactThreshold: number;
  /** Whether commits carry their derived changes (writer) and replicas apply them without reasoning (see {@link REPLICATE_DERIVED_PARAMETER}). */
  readonly replicateDerived: boolean;
}

/** The persistence a server's parameters ask for: a server directory or PostgreSQL. */
export type PersistenceChoice =
  | { readonly kind: 'file'; readonly directory: string; readonly settings: PersistenceSettings }
  | { readonly kind: 'postgresql'; readonly settings: PostgresSettings };

const POSTGRES_ONLY = [CONNECTION_STRING_PARAMETER, SCHEMA_PARAMETER, NODE_ID_PARAMETER, NODE_URL_PARAMETER, LEASE_TIME_PARAMETER, REPLICATE_DERIVED_PARAMETER];

/** The persistence a server's parameters ask for, or undefined for an in-memory server. */
export function persistenceOf(parameters: Readonly<Record<string, string>>): PersistenceChoice | undefined {
  const mode = parameters[PERSISTENCE_PARAMETER] ?? (parameters[SERVER_DIRECTORY_PARAMETER] !== undefined ? 'file' : 'off');
  if (mode !== 'off' && mode !== 'file' && mode !== 'postgresql') throw new BadRequestError(`invalid value '${mode}' for server parameter '${PERSISTENCE_PARAMETER}': off, file or postgresql`);
  if (mode !== 'postgresql') {
    const stray = POSTGRES_ONLY.find((p) => parameters[p] !== undefined);
    if (stray !== undefined) throw new BadRequestError(`server parameter '${stray}' needs ${PERSISTENCE_PARAMETER}=postgresql`);
  }
  const durability = parameters[DURABILITY_PARAMETER] ?? 'sync';
  if (durability !== 'sync' && durability !== 'relaxed') throw new BadRequestError(`invalid value '${durability}' for server parameter '${DURABILITY_PARAMETER}': sync or relaxed`);
  const thresholdText = parameters[COMPACT_THRESHOLD_PARAMETER] ?? String(DEFAULT_COMPACT_THRESHOLD);
  if (!/^\d+$/.test(thresholdText)) throw new BadRequestError(`invalid value '${thresholdText}' for server parameter '${COMPACT_THRESHOLD_PARAMETER}': a number of bytes`);
  if (mode === 'off') {
    if (parameters[SERVER_DIRECTORY_PARAMETER] !== undefined) throw new BadRequestError(`server parameter '${SERVER_DIRECTORY_PARAMETER}' needs ${PERSISTENCE_PARAMETER}=file`);
    return undefined;
  }
  if (mode === 'postgresql') return { kind: 'postgresql', settings: postgresSettingsOf(parameters, Number(thresholdText)) };
  const directory = parameters[SERVER_DIRECTORY_PARAMETER];
  if (directory === undefined || directory === '') throw new BadRequestError(`${PERSISTENCE_PARAMETER}=file needs the server parameter '${SERVER_DIRECTORY_PARAMETER}'`);
  return { kind: 'file', directory, settings: { durability, compactThreshold: Number(thresholdText) } };
}

/** The settings of `persistence=postgresql`, checked. */
function postgresSettingsOf(parameters: Readonly<Record<string, string>>, compactThreshold: number): PostgresSettings {
  if (parameters[SERVER_DIRECTORY_PARAMETER] !== undefined) throw new BadRequestError(`server parameter '${SERVER_DIRECTORY_PARAMETER}' cannot be used with ${PERSISTENCE_PARAMETER}=postgresql: everything is kept in PostgreSQL`);
  if (parameters[DURABILITY_PARAMETER] !== undefined) throw new BadRequestError(`server parameter '${DURABILITY_PARAMETER}' cannot be used with ${PERSISTENCE_PARAMETER}=postgresql: a commit is durable when PostgreSQL commits it`);
  const connectionString = parameters[CONNECTION_STRING_PARAMETER];
  if (connectionString === undefined || connectionString === '') throw new BadRequestError(`${PERSISTENCE_PARAMETER}=postgresql needs the server parameter '${CONNECTION_STRING_PARAMETER}' (a libpq URL or key=value string)`);
  const schema = parameters[SCHEMA_PARAMETER] ?? DEFAULT_SCHEMA;
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(schema)) throw new BadRequestError(`invalid value '${schema}' for server parameter '${SCHEMA_PARAMETER}': letters, digits and '_', not starting with a digit`);
  const nodeId = parameters[NODE_ID_PARAMETER] ?? `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  if (nodeId === '' || nodeId.length > 200 || /[\s\p{Cc}]/u.test(nodeId)) throw new BadRequestError(`invalid value '${nodeId}' for server parameter '${NODE_ID_PARAMETER}': 1 to 200 characters without white space`);
  const leaseText = parameters[LEASE_TIME_PARAMETER] ?? String(DEFAULT_LEASE_TIME_MS);
  const leaseTimeMs = /^\d+$/.test(leaseText) ? Number(leaseText) : Number.NaN;
  if (!Number.isSafeInteger(leaseTimeMs) || leaseTimeMs < 100) throw new BadRequestError(`invalid value '${leaseText}' for server parameter '${LEASE_TIME_PARAMETER}': milliseconds, at least 100`);
  const derivedText = parameters[REPLICATE_DERIVED_PARAMETER] ?? 'false';
  if (derivedText !== 'true' && derivedText !== 'false') throw new BadRequestError(`invalid value '${derivedText}' for server parameter '${REPLICATE_DERIVED_PARAMETER}': true or false`);
  return { connectionString, schema, nodeId, nodeUrl: parameters[NODE_URL_PARAMETER] ?? '', leaseTimeMs, compactThreshold, replicateDerived: derivedText === 'true' };
}

