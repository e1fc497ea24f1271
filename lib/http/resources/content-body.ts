/**
 * The body of a content update as the import reads it: a stream of chunks taken from the
 * request as they arrive (never buffered whole), plus what the request's headers say about
 * it (stated media type, text/uri-list, Imported-Content-Type, Notify-Immediately).
 *
 * {@link RequestBody} never destroys the request: when the importer stops reading early (or
 * never starts, because the request failed first), whatever the client still sends is read
 * and dropped, so that a client still sending a large body can finish and read the answer.
 *
 * A body larger than the endpoint's `maxContentBytes` fails the import that reads it with
 * {@link PayloadTooLargeError} (413): at once when its Content-Length says so, else as soon as
 * the bytes received pass the limit (the import's transaction is then rolled back).
 * @module
 */
import type { IncomingMessage } from 'node:http';
import { BadRequestError, baseMediaType, type ImportSource } from '../../index.js';
import { PayloadTooLargeError } from '../errors.js';
import { httpExchange, type Exchange } from '../exchange.js';
import { FORM_TYPE, URI_LIST_TYPE } from '../negotiation.js';

/** Chunks queued before the request is paused (backpressure towards the client). */
const QUEUE_LIMIT = 16;

/**
 * A request body as an async iterable of chunks for `importData`. Reading starts when the
 * object is created; the request is paused while the importer lags behind.
 */
export class RequestBody implements AsyncIterable<Uint8Array> {
  private readonly queue: Buffer[] = [];
  private ended = false;
  private failure: Error | undefined;
  private discarding = false;
  private received = 0;
  private wake: (() => void) | undefined;

  /**
   * Starts reading `req`. When more than `limit` bytes arrive, reading fails with
   * PayloadTooLargeError and the rest of the body is dropped.
   */
  constructor(
    private readonly req: IncomingMessage,
    private readonly limit: number = Number.POSITIVE_INFINITY,
  ) {
    req.on('data', (chunk: Buffer) => {
      if (this.discarding) return;
      this.received += chunk.length;
      if (this.received > this.limit) {
        this.failure ??= tooLarge(this.limit);
        this.discardRest();
        this.notify();
        return;
      }
      this.queue.push(chunk);
      if (this.queue.length >= QUEUE_LIMIT) req.pause();
      this.notify();
    });
    req.on('end', () => {
      this.ended = true;
      this.notify();
    });
    req.on('error', (e: Error) => {
      this.failure ??= e;
      this.notify();
    });
    req.on('close', () => {
      if (!this.ended) this.failure ??= new BadRequestError('the client closed the connection before the request body was complete');
      this.notify();
    });
  }

  /** Whether the whole body has arrived. */
  get complete(): boolean {
    return this.ended;
  }

  /** Drops the chunks not read yet and every chunk still to come. */
  discardRest(): void {
    this.discarding = true;
    this.queue.length = 0;
    this.req.resume();
  }

  [Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    return {
      next: async (): Promise<IteratorResult<Uint8Array>> => {
        for (;;) {
          const chunk = this.queue.shift();
          if (chunk !== undefined) {
            if (this.queue.length < QUEUE_LIMIT / 2 && this.req.isPaused() && !this.discarding) this.req.resume();
            return { value: chunk, done: false };
          }
          if (this.failure) throw this.failure;
          if (this.ended || this.discarding) return { value: undefined, done: true };
          await new Promise<void>((resolve) => {
            this.wake = resolve;
          });
        }
      },
      return: (): Promise<IteratorResult<Uint8Array>> => {
        this.discardRest();
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}

/**
 * Reads and drops the rest of a request body; resolves when the body has ended (or the
 * request is gone). A response must not end before its request has been read: Node's server
 * stops reading a request whose response is complete, and a client still sending would wait
 * forever (or fail with EPIPE).
 */
export function drainRequest(req: IncomingMessage): Promise<void> {
  if (req.complete || req.readableEnded || req.destroyed) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const done = (): void => {
      req.off('end', done);
      req.off('close', done);
      req.off('error', done);
      resolve();
    };
    req.on('end', done);
    req.on('close', done);
    req.on('error', done);
    req.resume();
  });
}

/** The error of a body over the limit. */
function tooLarge(limit: number): PayloadTooLargeError {
  return new PayloadTooLargeError(`the request body exceeds the limit of ${limit} bytes (the endpoint's maxContentBytes): nothing was imported`);
}

/** What a content update imports and how its answer is sent. */
export interface ContentBody {
  /** The source for `importData`. */
  readonly source: ImportSource;
  /** The stated media type (forced on every item of a text/uri-list body), if any. */
  readonly mediaType: string | undefined;
  /** The streamed request body, when the content is the body itself. */
  readonly stream: RequestBody | undefined;
}

/** The IRIs of a text/uri-list body: one per line; blank lines and `#` comments skipped. */
export function parseUriList(text: string): string[] {
  return text
    .split(/\r\n|\r|\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

/** The value of a header given once (the first when repeated), trimmed; '' when absent. */
function header(req: IncomingMessage, name: string): string {
  const value = req.headers[name];
  return (Array.isArray(value) ? (value[0] ?? '') : (value ?? '')).trim();
}

/**
 * Whether the request asks for notifications as they occur (`Notify-Immediately: true`).
 * @throws BadRequestError for a value other than true or false.
 */
export function notifyImmediately(req: IncomingMessage): boolean {
  const value = header(req, 'notify-immediately').toLowerCase();
  if (value === '' || value === 'false') return false;
  if (value === 'true') return true;
  throw new BadRequestError(`invalid Notify-Immediately header '${value}' (expected true or false)`);
}

/**
 * Refuses a request whose body is a form: a form body is never content.
 * @throws BadRequestError saying how to send content instead.
 */
export function refuseForm(exchange: Exchange): void {
  const baseType = baseMediaType(header(exchange.req, 'content-type'));
  if (exchange.bodyConsumed || baseType === FORM_TYPE) {
    throw new BadRequestError(
      'an application/x-www-form-urlencoded body is not content: send the data with its own Content-Type, or with none to have it detected (curl: -H "Content-Type:"), and the parameters in the query string',
    );
  }
}

/**
 * The content of an update request: a text/uri-list body is read whole and becomes an IRI
 * list (its items typed by `Imported-Content-Type` when given); any other body is streamed,
 * typed by its Content-Type (absent or empty: detected from the content).
 * @throws BadRequestError for a form body (never content), an empty IRI list, or
 *   Imported-Content-Type without a text/uri-list body; PayloadTooLargeError when
 *   Content-Length is over the endpoint's maxContentBytes.
 */
export async function contentBody(exchange: Exchange): Promise<ContentBody> {
  const req = exchange.req;
  const limit = httpExchange(exchange).context.maxContentBytes;
  const declared = Number(header(req, 'content-length'));
  if (header(req, 'content-length') !== '' && Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  const contentType = header(req, 'content-type');
  const baseType = baseMediaType(contentType);
  const imported = header(req, 'imported-content-type');
  refuseForm(exchange);
  if (baseType === URI_LIST_TYPE) {
    const iris = parseUriList(await httpExchange(exchange).readText());
    if (iris.length === 0) throw new BadRequestError('the text/uri-list body lists no IRI: at least one IRI is required');
    const mediaType = imported === '' ? undefined : imported;
    return { source: { iris }, mediaType, stream: undefined };
  }
  if (imported !== '') throw new BadRequestError('the Imported-Content-Type header applies only to text/uri-list bodies');
  const stream = new RequestBody(req, limit);
  return { source: stream, mediaType: contentType === '' ? undefined : contentType, stream };
}
