/**
 * The error classes of quadlog. Each has a stable `name` and the HTTP status the adapter
 * answers with. They live in the lowest layer so that every layer can throw them; the
 * public API re-exports them.
 * @module
 */
import type { ImportResult, NotificationRow } from './import-result.js';

/** Base class of every error quadlog raises on purpose. */
export class QuadlogError extends Error {
  /** The HTTP status the HTTP adapter maps this error to. */
  readonly status: number = 500;
  /** Creates the error with a message. */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'QuadlogError';
  }
}

/** Input text (data, rules, queries) could not be parsed. HTTP 400. */
export class ParsingError extends QuadlogError {
  override readonly status: number = 400;
  /** Creates the error with a message. */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'ParsingError';
  }
}
/**
 * An import found errors in its input, so it changed nothing. HTTP 400. Thrown by
 * `importData` and `importAxiomsFromTriples` unless they are called with
 * `rejectOnError: false`; {@link ImportError.result} holds everything the import reported.
 * The message names the first error with its position, worded as in the text form:
 * `import failed, nothing was changed: line 2: column 1: unknown prefix 'ex:': …`.
 */
export class ImportError extends QuadlogError {
  override readonly status: number = 400;
  /** The whole result of the import: notification rows, counters (all changes 0) and text. */
  readonly result: ImportResult;
  /** Creates the error from the result of a failed import; `operation` names it in the message. */
  constructor(result: ImportResult, operation = 'import', options?: ErrorOptions) {
    super(importErrorMessage(result, operation), options);
    this.name = 'ImportError';
    this.result = result;
  }

  /** The first error row of the result (undefined only for a result without error rows). */
  get firstError(): NotificationRow | undefined {
    return this.result.rows.find((r) => r.type === 'error');
  }
}

function importErrorMessage(result: ImportResult, operation: string): string {
  const first = result.rows.find((r) => r.type === 'error');
  const count = Math.max(result.errors, first ? 1 : 0);
  const head = count > 1 ? `${operation} failed with ${count} errors, nothing was changed; the first` : `${operation} failed, nothing was changed`;
  if (!first) return head;
  const at = (first.line !== undefined ? `line ${first.line}: ` : '') + (first.column !== undefined ? `column ${first.column}: ` : '');
  return `${head}: ${at}${first.description}`;
}

/** A query could not be compiled. HTTP 400. */
export class QueryCompilationError extends QuadlogError {
  override readonly status: number = 400;
  /** Creates the error with a message. */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'QueryCompilationError';
  }
}
/** A rule could not be compiled (unsafe, unstratifiable, …). HTTP 400. */
export class RuleCompilationError extends QuadlogError {
  override readonly status: number = 400;
  /** Creates the error with a message. */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'RuleCompilationError';
  }
}
/** Wrong role name or password. HTTP 401. */
export class AuthenticationError extends QuadlogError {
  override readonly status: number = 401;
  /** Creates the error with a message. */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'AuthenticationError';
  }
}
/** The role lacks a privilege. HTTP 403. */
export class AccessDeniedError extends QuadlogError {
  override readonly status: number = 403;
  /** Creates the error with a message. */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'AccessDeniedError';
  }
}
/** A named resource (data store, tuple table, connection, …) does not exist. HTTP 404. */
export class UnknownResourceError extends QuadlogError {
  override readonly status: number = 404;
  /** Creates the error with a message. */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'UnknownResourceError';
  }
}
/** A resource with that name already exists. HTTP 409. */
export class DuplicateResourceError extends QuadlogError {
  override readonly status: number = 409;
  /** Creates the error with a message. */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'DuplicateResourceError';
  }
}
/** A resource is in use (a connection busy with another call, a table used by rules, …). HTTP 409. */
export class ResourceInUseError extends QuadlogError {
  override readonly status: number = 409;
  /** Creates the error with a message. */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'ResourceInUseError';
  }
}
/** A transaction operation is not possible in the connection's current state. HTTP 409. */
export class TransactionError extends QuadlogError {
  override readonly status: number = 409;
  /** Creates the error with a message. */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'TransactionError';
  }
}
/** The data store's write lock could not be acquired in time. HTTP 423. */
export class LockTimeoutError extends QuadlogError {
  override readonly status: number = 423;
  /** Creates the error with a message. */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'LockTimeoutError';
  }
}
/** The operation was interrupted; its transaction was rolled back. HTTP 409. */
export class InterruptedError extends QuadlogError {
  override readonly status: number = 409;
  /** Creates the error with a message. */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'InterruptedError';
  }
}
/**
 * A query (or the WHERE part of an update) needed more memory than its limit allows (the server
 * parameter `query-memory-limit` or the request's own limit): the message names the limit and
 * what held the memory (a sort, a grouping, DISTINCT, …). The query stops and what it held is
 * freed; the request may be retried with a larger limit or a narrower query. HTTP 422.
 */
export class MemoryLimitError extends QuadlogError {
  override readonly status: number = 422;
  /** Creates the error with a message. */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'MemoryLimitError';
  }
}
/**
 * The process holds more memory than the server property `max-memory` allows, so an operation
 * that would add to it (an import) is refused or stopped; nothing it did stays. HTTP 503: the
 * request may succeed once memory is freed or `max-memory` is raised.
 */
export class MemoryExhaustedError extends QuadlogError {
  override readonly status: number = 503;
  /** Creates the error with a message. */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'MemoryExhaustedError';
  }
}
/** A request was malformed in a way not covered by a more specific class (bad parameter, …). HTTP 400. */
export class BadRequestError extends QuadlogError {
  override readonly status: number = 400;
  /** Creates the error with a message. */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'BadRequestError';
  }
}
/** A connection was used after its data store was deleted or after it was closed. HTTP 409. */
export class InvalidConnectionError extends QuadlogError {
  override readonly status: number = 409;
  /** Creates the error with a message. */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'InvalidConnectionError';
  }
}
/**
 * A write (a transaction, a store or role change) was sent to a replica of a replicated server
 * (`persistence=postgresql`), which only the writer accepts. The message names the writer's
 * node id and URL (also in {@link ReplicaWriteError.writerId} and
 * {@link ReplicaWriteError.writerUrl}); nothing was changed. HTTP 503 (the request may be sent
 * to the writer, or retried here after a fail-over).
 */
export class ReplicaWriteError extends QuadlogError {
  override readonly status: number = 503;
  /** The node id of the writer (the lease holder), or undefined while no node holds the lease. */
  readonly writerId: string | undefined;
  /** The URL the writer recorded for clients, or undefined when it recorded none. */
  readonly writerUrl: string | undefined;
  /** Creates the error for the node `nodeId` and the writer it knows of. */
  constructor(nodeId: string, writer: { readonly id?: string | undefined; readonly url?: string | undefined }, options?: ErrorOptions) {
    const who = writer.id === undefined ? 'no node holds the writer lease at the moment (retry shortly)' : `the writer is node '${writer.id}'${writer.url !== undefined && writer.url !== '' ? ` at ${writer.url}` : ''}`;
    super(`node '${nodeId}' is a replica and accepts no writes: ${who}`, options);
    this.name = 'ReplicaWriteError';
    this.writerId = writer.id;
    this.writerUrl = writer.url;
  }
}
/**
 * A read asked for a minimum data store version (read-your-writes, `awaitVersion` or the HTTP
 * header `Quadlog-Min-Version`) that the store did not reach in time (a replica that lags, or a
 * version that was never committed). HTTP 503.
 */
export class VersionTimeoutError extends QuadlogError {
  override readonly status: number = 503;
  /** Creates the error with a message. */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'VersionTimeoutError';
  }
}
/**
 * A commit could not be made durable in PostgreSQL (`persistence=postgresql`): the database
 * is unreachable, or this node lost the writer lease (another node now holds a later term).
 * The transaction was rolled back and nothing was acknowledged. HTTP 503.
 */
export class ReplicationError extends QuadlogError {
  override readonly status: number = 503;
  /** Creates the error with a message. */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'ReplicationError';
  }
}
/**
 * A commit was refused because its result has instances of `rdfox:ConstraintViolation` in the
 * default graph (explicit, or derived by rules: rules deriving such instances act as
 * constraints on the store's content, as in RDFox). The message shows up to ten properties of
 * up to ten violations, unless the role may not read the default graph. In a transaction the
 * connection opened, the transaction stays open as it was before the commit (the data can be
 * fixed and the commit tried again); an implicit transaction is rolled back. HTTP 422.
 */
export class ConstraintViolationError extends QuadlogError {
  override readonly status: number = 422;
  /** How many instances of `rdfox:ConstraintViolation` the result had. */
  readonly violations: number;
  /** Creates the error: `details` are the violations' properties, or undefined when they are not to be shown. */
  constructor(violations: number, details: string | undefined, options?: ErrorOptions) {
    const head = `the transaction was not committed: its result has ${violations} constraint violation${violations === 1 ? '' : 's'} (instances of rdfox:ConstraintViolation in the default graph)`;
    super(details === undefined ? `${head}; the role may not read the default graph, which says what they are` : `${head}:\n${details}`, options);
    this.name = 'ConstraintViolationError';
    this.violations = violations;
  }
}
