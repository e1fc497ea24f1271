/**
 * The server's limits on queries and memory: the server parameters `query-time-limit`,
 * `query-memory-limit` and `allow-query-limit-override`, how a request's own limits combine
 * with them, and the check of the process's memory against the server property `max-memory`
 * (which imports make).
 *
 * - `query-time-limit`: milliseconds a query (or the WHERE clauses of an update) may run;
 *   `none` (the default) for no limit.
 * - `query-memory-limit`: the estimated bytes one query may hold (see sparql/query-budget.ts);
 *   `none` for no limit; by default a quarter of the smaller of `max-memory` and V8's heap limit
 *   (so it follows `max-memory` when that is changed).
 * - `allow-query-limit-override`: `false` (the default) lets a request only lower these limits
 *   (a larger value is refused with BadRequestError); `true` lets it raise them too.
 * @module
 */
import { getHeapStatistics } from 'node:v8';
import { BadRequestError, MemoryExhaustedError } from '../model/errors.js';
import type { EvaluationLimits } from '../sparql/query-budget.js';
import { describeBytes } from '../sparql/query-budget.js';

/** The server parameter holding the default time limit of queries (milliseconds or `none`). */
export const QUERY_TIME_LIMIT = 'query-time-limit';
/** The server parameter holding the default memory limit of queries (bytes or `none`). */
export const QUERY_MEMORY_LIMIT = 'query-memory-limit';
/** The server parameter that lets requests raise the limits (`true`/`false`). */
export const ALLOW_QUERY_LIMIT_OVERRIDE = 'allow-query-limit-override';

/** The limits a server sets, from its parameters. */
export interface QueryLimitSettings {
  /** The default time limit in milliseconds (undefined: none). */
  readonly timeLimitMs: number | undefined;
  /** The memory limit in bytes: a number, `none`, or `derived` (from `max-memory`). */
  readonly memoryLimitBytes: number | 'none' | 'derived';
  /** Whether a request may raise the limits. */
  readonly allowOverride: boolean;
}

/** A limit a request asks for. */
export interface RequestedLimits {
  /** Milliseconds. */
  readonly timeLimitMs?: number | undefined;
  /** Bytes. */
  readonly memoryLimitBytes?: number | undefined;
}

/** A positive integer or `none` (undefined), for a server parameter. */
function limitParameter(parameters: Readonly<Record<string, string>>, name: string, unit: string): number | 'none' | undefined {
  const value = parameters[name];
  if (value === undefined) return undefined;
  if (value === 'none') return 'none';
  if (!/^\d+$/.test(value) || Number(value) < 1 || !Number.isSafeInteger(Number(value))) {
    throw new BadRequestError(`invalid value '${value}' for server parameter '${name}': a positive integer (${unit}) or 'none'`);
  }
  return Number(value);
}

/**
 * The limit settings of a server's parameters.
 * @throws BadRequestError for a value that is not a positive integer or `none`, or an override
 *   flag other than true or false.
 */
export function queryLimitsOf(parameters: Readonly<Record<string, string>>): QueryLimitSettings {
  const time = limitParameter(parameters, QUERY_TIME_LIMIT, 'milliseconds');
  const memory = limitParameter(parameters, QUERY_MEMORY_LIMIT, 'bytes');
  const override = parameters[ALLOW_QUERY_LIMIT_OVERRIDE] ?? 'false';
  if (override !== 'true' && override !== 'false') throw new BadRequestError(`invalid value '${override}' for server parameter '${ALLOW_QUERY_LIMIT_OVERRIDE}': true or false`);
  return {
    timeLimitMs: time === 'none' ? undefined : time,
    memoryLimitBytes: memory ?? 'derived',
    allowOverride: override === 'true',
  };
}

/** V8's limit on the JavaScript heap of this process (bytes). */
export function heapLimitBytes(): number {
  return getHeapStatistics().heap_size_limit;
}

/** The memory limit of queries derived from `max-memory`: a quarter of it, or of V8's heap limit when that is smaller. */
export function derivedMemoryLimit(maxMemory: number): number {
  return Math.floor(Math.min(maxMemory, heapLimitBytes()) / 4);
}

/** The server's memory limit of queries in bytes (undefined: none). */
export function serverMemoryLimit(settings: QueryLimitSettings, maxMemory: number): number | undefined {
  if (settings.memoryLimitBytes === 'none') return undefined;
  return settings.memoryLimitBytes === 'derived' ? derivedMemoryLimit(maxMemory) : settings.memoryLimitBytes;
}

/**
 * The limits of one evaluation: the request's where it gives them, else the server's.
 * @throws BadRequestError for a requested limit that is not a positive number, or that is
 *   larger than the server's while the server does not allow overrides (where the server sets
 *   no limit, any requested one is lower).
 */
export function resolveLimits(settings: QueryLimitSettings, maxMemory: number, requested: RequestedLimits): EvaluationLimits {
  const serverTime = settings.timeLimitMs;
  const serverMemory = serverMemoryLimit(settings, maxMemory);
  const time = requested.timeLimitMs;
  const memory = requested.memoryLimitBytes;
  if (time !== undefined && !(Number.isFinite(time) && time > 0)) throw new BadRequestError(`invalid query time limit ${time}: a positive number of milliseconds`);
  if (memory !== undefined && !(Number.isFinite(memory) && memory > 0)) throw new BadRequestError(`invalid query memory limit ${memory}: a positive number of bytes`);
  if (!settings.allowOverride) {
    if (time !== undefined && serverTime !== undefined && time > serverTime) {
      throw new BadRequestError(
        `a query time limit of ${time} ms is more than the server's ${QUERY_TIME_LIMIT} of ${serverTime} ms: a request may only lower it (unless the server parameter ${ALLOW_QUERY_LIMIT_OVERRIDE} is true)`,
      );
    }
    if (memory !== undefined && serverMemory !== undefined && memory > serverMemory) {
      throw new BadRequestError(
        `a query memory limit of ${describeBytes(memory)} is more than the server's ${QUERY_MEMORY_LIMIT} of ${describeBytes(serverMemory)}: a request may only lower it (unless the server parameter ${ALLOW_QUERY_LIMIT_OVERRIDE} is true)`,
      );
    }
  }
  const timeLimitMs = time ?? serverTime;
  const memoryLimitBytes = memory ?? serverMemory;
  return { ...(timeLimitMs !== undefined ? { timeLimitMs } : {}), ...(memoryLimitBytes !== undefined ? { memoryLimitBytes } : {}) };
}

/**
 * The memory the process holds as `max-memory` counts it: V8's heap in use plus the memory
 * outside the heap that JavaScript objects own (ArrayBuffers, such as the stores' tables).
 * Garbage not yet collected counts too.
 */
export function processMemoryBytes(): number {
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.external;
}

/** How long a reading of {@link processMemoryBytes} serves {@link checkProcessMemory} (it costs tens of µs on a large heap). */
const MEMORY_READING_MS = 20;
/** The last reading of {@link processMemoryBytes} and when it was taken. */
let lastReading = { at: -Infinity, used: 0 };

/**
 * Refuses `what` (e.g. "the import") when the process holds more than `maxMemory` bytes (as
 * read at most {@link MEMORY_READING_MS} before: a run of small transactions reads it once).
 * @throws MemoryExhaustedError naming both amounts.
 */
export function checkProcessMemory(maxMemory: number, what: string): void {
  const now = performance.now();
  if (now - lastReading.at > MEMORY_READING_MS) lastReading = { at: now, used: processMemoryBytes() };
  const used = lastReading.used;
  if (used > maxMemory) {
    throw new MemoryExhaustedError(
      `${what} was stopped: the process holds ${describeBytes(used)} (heap in use and buffers), more than the server's max-memory of ${describeBytes(maxMemory)}; nothing was changed (free memory, e.g. by deleting data, or raise max-memory)`,
    );
  }
}
