/**
 * Answering a request whose body has not been read to its end: an error found before the body
 * was needed (401 of a request that is not authenticated, 404, 405, 413 of a body over its
 * limit, …) is answered at once, without waiting for the body and without keeping any of it.
 *
 * Such an answer carries `Connection: close`. Its head and body are written at once; the rest
 * of the request body is then read and dropped as it arrives, so that a client still sending
 * can finish and read the answer, and the response is ended (which closes the connection) when
 * the request body has ended, when more than {@link DISCARD_LIMIT} further bytes have arrived,
 * or after {@link DISCARD_TIME_MS}, whichever comes first. Closing the connection while the
 * client still sends would make its system answer with a reset, which can lose the answer
 * before the client reads it.
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorResponse, sendError } from './errors.js';

/** The most bytes of an unread body dropped after an early answer before the connection is cut (64 MiB). */
export const DISCARD_LIMIT = 64 * 1024 * 1024;

/** How long an unread body is dropped after an early answer before the connection is cut, in milliseconds. */
export const DISCARD_TIME_MS = 30_000;

/** Whether bytes of a request's body are still to arrive: it has a body, and the request is not complete. */
export function hasUnreadBody(req: IncomingMessage): boolean {
  if (req.complete || req.readableEnded || req.destroyed) return false;
  const length = req.headers['content-length'];
  if (length !== undefined) return length.trim() !== '0';
  return req.headers['transfer-encoding'] !== undefined;
}

/**
 * Answers a request with an error (see {@link sendError}); when bytes of its body are still
 * to arrive, as the module documentation says.
 */
export function sendRequestError(req: IncomingMessage, res: ServerResponse, error: unknown): void {
  if (res.headersSent || !hasUnreadBody(req)) {
    sendError(res, error);
    return;
  }
  const { status, headers, body } = errorResponse(error);
  res.writeHead(status, { ...headers, Connection: 'close' });
  res.write(body);
  discardBody(req, () => res.end());
}

/**
 * Reads and drops the rest of a request body, then calls `done`: when the body has ended or
 * the request is gone, or when the limits of the module documentation are passed.
 */
function discardBody(req: IncomingMessage, done: () => void): void {
  let received = 0;
  let finished = false;
  const finish = (): void => {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    req.off('data', onData);
    req.off('end', finish);
    req.off('close', finish);
    done();
  };
  const onData = (chunk: Buffer): void => {
    received += chunk.length;
    if (received > DISCARD_LIMIT) finish();
  };
  const timer = setTimeout(finish, DISCARD_TIME_MS);
  timer.unref();
  req.on('data', onData);
  req.on('end', finish);
  req.on('close', finish);
  // a client that goes away is no failure here (the listener stays: an error may still follow)
  req.on('error', () => finish());
  req.resume();
}
