/**
 * Errors of the HTTP adapter and the mapping of every error to a response.
 *
 * A response for an error has the status of the error class (`err.status` of a
 * {@link QuadlogError}; 500 for anything else) and a `text/plain; charset=UTF-8` body of the
 * form `ErrorName: message`. A 401 carries `WWW-Authenticate: Basic realm="quadlog"`, a 405 the
 * `Allow` header of the path.
 * @module
 */
import type { ServerResponse } from 'node:http';
import { QuadlogError, ReplicaWriteError } from '../index.js';

/** The Accept header names no format the resource can produce. HTTP 406. */
export class NotAcceptableError extends QuadlogError {
  override readonly status: number = 406;
  /** Creates the error with a message. */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'NotAcceptableError';
  }
}

/** The path exists but does not support the request's method. HTTP 405. */
export class MethodNotAllowedError extends QuadlogError {
  override readonly status: number = 405;
  /** The methods the path supports (the `Allow` header). */
  readonly allow: readonly string[];
  /** Creates the error for a method and the methods the path allows. */
  constructor(method: string, path: string, allow: readonly string[]) {
    super(`method ${method} is not supported on ${path} (allowed: ${allow.join(', ')})`);
    this.name = 'MethodNotAllowedError';
    this.allow = allow;
  }
}

/** The resource is routed but its behaviour is not implemented yet. HTTP 501. */
export class NotImplementedError extends QuadlogError {
  override readonly status: number = 501;
  /** Creates the error with a message. */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'NotImplementedError';
  }
}

/** The request body is of a media type the resource does not accept. HTTP 415. */
export class UnsupportedMediaTypeError extends QuadlogError {
  override readonly status: number = 415;
  /** Creates the error with a message. */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'UnsupportedMediaTypeError';
  }
}

/** The request body is larger than the endpoint accepts for that kind of body. HTTP 413. */
export class PayloadTooLargeError extends QuadlogError {
  override readonly status: number = 413;
  /** Creates the error with a message. */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'PayloadTooLargeError';
  }
}

/** The interface was closed while the server that mounts it still takes requests. HTTP 503. */
export class ServiceUnavailableError extends QuadlogError {
  override readonly status: number = 503;
  /** Creates the error with a message. */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'ServiceUnavailableError';
  }
}

/** The HTTP status an error maps to: its `status` when it is a quadlog error, else 500. */
export function statusOf(error: unknown): number {
  if (error instanceof QuadlogError) return error.status;
  return 500;
}

/** The body text of an error response: `ErrorName: message`. */
export function errorText(error: unknown): string {
  if (error instanceof Error) return `${error.name || 'Error'}: ${error.message}`;
  return `Error: ${String(error)}`;
}

/** The status, headers and body of the response for an error. */
export interface ErrorResponse {
  /** The HTTP status. */
  readonly status: number;
  /** The headers (Content-Type, Content-Length, and WWW-Authenticate or Allow where they apply). */
  readonly headers: Readonly<Record<string, string>>;
  /** The body text: `ErrorName: message` and a newline. */
  readonly body: string;
}

/** The response for an error (see the module documentation). */
export function errorResponse(error: unknown): ErrorResponse {
  const status = statusOf(error);
  const body = errorText(error) + '\n';
  const headers: Record<string, string> = { 'Content-Type': 'text/plain; charset=UTF-8', 'Content-Length': String(Buffer.byteLength(body)) };
  if (status === 401) headers['WWW-Authenticate'] = 'Basic realm="quadlog"';
  if (error instanceof MethodNotAllowedError) headers['Allow'] = error.allow.join(', ');
  // a write sent to a replica: where the writer is
  if (error instanceof ReplicaWriteError) {
    if (error.writerId !== undefined) headers['Quadlog-Writer'] = error.writerId;
    if (error.writerUrl !== undefined && error.writerUrl !== '') headers['Quadlog-Writer-URL'] = error.writerUrl;
  }
  return { status, headers, body };
}

/**
 * Cuts short a response that has started (its status can no longer change) so that no client
 * can take what it received for the whole answer: the connection is reset (a TCP RST, not an
 * orderly close), so the chunked encoding of HTTP/1.1 lacks its last chunk and a body that
 * only the end of the connection delimits (an HTTP/1.0 client's) ends in a connection error,
 * not in a clean end of file. A socket that cannot be reset (TLS) is destroyed.
 */
export function abortResponse(res: ServerResponse): void {
  if (res.writableEnded) return;
  const socket = res.socket;
  if (socket && !socket.destroyed) {
    try {
      socket.resetAndDestroy();
      return;
    } catch {
      // (a socket without a TCP handle of its own: destroyed below)
    }
  }
  res.destroy();
}

/**
 * Answers a request with an error. When the response has already started (headers sent), it
 * can only be cut short ({@link abortResponse}): the client sees a failed response rather
 * than a truncated one that looks complete.
 */
export function sendError(res: ServerResponse, error: unknown): void {
  if (res.headersSent) {
    abortResponse(res);
    return;
  }
  const { status, headers, body } = errorResponse(error);
  res.statusCode = status;
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.end(body);
}
