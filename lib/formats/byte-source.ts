/**
 * Input sources as streams of byte chunks: strings, buffers, Node streams, async iterables,
 * files and http(s)/file IRIs. Gzip'd input (magic bytes 1f 8b) is decompressed on the fly.
 *
 * Opening an IRI ({@link openIri}) never decides on its own what may be read: the caller's
 * {@link IriChecks} refuse schemes and open files, and every redirect is checked again. A
 * fetch that fails in any way (refused connection, unknown host, time limit, TLS, a status
 * other than 2xx) answers one and the same error, so that its text tells nothing about the
 * host or port it tried. A fetch may be given limits (the server's `max-fetch-size` and
 * `fetch-timeout`): passing one fails at once, with an error naming the IRI and the limit.
 * @module
 */
import { createReadStream } from 'node:fs';
import { type FileHandle, stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { ParsingError } from '../model/errors.js';
import type { ContentSource, OpenedSource } from './content-source.js';

/**
 * Counts the bytes a source delivers as read (before decompression), and knows its size when
 * the source tells it (files, text and buffers, HTTP responses with a Content-Length). Sources
 * are counted only when a counter is given, for progress reports.
 */
export class ByteCounter {
  /** Bytes read so far. */
  read = 0;
  /** The size in bytes, once known. */
  size: number | undefined = undefined;
}

/** The chunks, counted into `counter` when one is given. */
function counted(chunks: AsyncIterable<Uint8Array>, counter: ByteCounter | undefined): AsyncIterable<Uint8Array> {
  if (counter === undefined) return chunks;
  return (async function* () {
    for await (const chunk of chunks) {
      counter.read += chunk.length;
      yield chunk;
    }
  })();
}

async function* toBytes(source: AsyncIterable<Uint8Array | string>): AsyncGenerator<Uint8Array> {
  for await (const chunk of source) yield typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
}

/** Decompresses the chunks when they start with the gzip magic bytes. */
export async function* gunzipIfNeeded(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const it = chunks[Symbol.asyncIterator]();
  let first = await it.next();
  while (!first.done && first.value.length === 0) first = await it.next();
  if (first.done) return;
  const head = first.value;
  async function* rest(): AsyncGenerator<Uint8Array> {
    yield head;
    for (;;) {
      const r = await it.next();
      if (r.done) return;
      yield r.value;
    }
  }
  if (head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b) {
    // zlib loads when the first compressed input is met, not when quadlog is imported
    const { createGunzip } = await import('node:zlib');
    const gunzip = createGunzip({ chunkSize: 256 * 1024 });
    const compressed = Readable.from(rest());
    // pipe() does not pass on the errors of its source: a failing source (a request body that
    // is cut off or too large, a fetch that breaks) ends the decompression with its own error
    let sourceFailure: { readonly error: unknown } | undefined;
    compressed.on('error', (e: Error) => {
      sourceFailure ??= { error: e };
      gunzip.destroy(e);
    });
    compressed.pipe(gunzip);
    try {
      for await (const chunk of gunzip) yield chunk as Buffer;
    } catch (e) {
      if (sourceFailure) throw sourceFailure.error;
      throw new ParsingError(`the gzip'd input is corrupt: ${(e as Error).message}`);
    } finally {
      compressed.destroy();
    }
  } else yield* rest();
}

/** Opens a content source; `counter` (for progress reports) counts its bytes as read. */
export function openSource(source: ContentSource, counter?: ByteCounter): OpenedSource {
  if (typeof source === 'string') {
    const bytes = Buffer.from(source, 'utf8');
    if (counter) counter.size = bytes.length;
    return { chunks: counted(single(bytes), counter), name: 'input' };
  }
  if (source instanceof Uint8Array) {
    if (counter) counter.size = source.length;
    return { chunks: gunzipIfNeeded(counted(single(source), counter)), name: 'input' };
  }
  if ('path' in source && typeof source.path === 'string' && !(Symbol.asyncIterator in source)) {
    const path = source.path;
    return { chunks: gunzipIfNeeded(counted(readFileChunks(path, counter), counter)), name: path };
  }
  return { chunks: gunzipIfNeeded(counted(toBytes(source as AsyncIterable<Uint8Array | string>), counter)), name: 'input' };
}

/** The chunks of a file; a file that cannot be read (missing, a directory, …) is a ParsingError. */
async function* readFileChunks(path: string, counter?: ByteCounter): AsyncGenerator<Uint8Array> {
  if (counter) counter.size = await stat(path).then((s) => s.size, () => undefined);
  try {
    for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) yield chunk as Buffer;
  } catch (e) {
    throw new ParsingError(`cannot read '${path}': ${(e as Error).message}`);
  }
}

// eslint-disable-next-line @typescript-eslint/require-await
async function* single(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

/** How long a fetch may take until the headers of its final response arrive (redirects included), in milliseconds. */
export const FETCH_TIMEOUT_MS = 30_000;

/** The most redirects a fetch follows. */
export const MAX_REDIRECTS = 5;

/** The statuses of the redirects a fetch follows (to the URL of their Location header). */
const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** What {@link openIri} asks its caller: which URLs may be read, and how a file is opened. */
export interface IriChecks {
  /**
   * Refuses a URL that may not be read, by throwing: called for the IRI itself (with
   * `redirectedFrom` undefined) and for the target of every redirect (with the IRI).
   */
  checkUrl(url: URL, iri: string, redirectedFrom?: URL): void;
  /** Opens the file of a `file:` IRI that checkUrl let through, or throws. */
  openFile(url: URL, iri: string): Promise<FileHandle>;
}

/** Options of {@link openIri}. */
export interface OpenIriOptions {
  /** Stops a fetch. */
  readonly signal?: AbortSignal | undefined;
  /** The time limit of a fetch until its headers (default {@link FETCH_TIMEOUT_MS}). */
  readonly timeoutMs?: number | undefined;
  /**
   * The most bytes a fetched body may have, as sent and once decompressed (default: no limit).
   * A larger body fails as soon as the limit is passed, or at once when its Content-Length says
   * so; `limitNames.size` names the limit in the error.
   */
  readonly maxBytes?: number | undefined;
  /**
   * The most milliseconds a fetch may spend waiting for the network, headers and body together
   * (time the reader spends on what arrived does not count; default: no limit);
   * `limitNames.time` names the limit in the error.
   */
  readonly waitLimitMs?: number | undefined;
  /** How errors name the two limits above (such as a server parameter). */
  readonly limitNames?: { readonly size: string; readonly time: string } | undefined;
  /** Counts the bytes read (for progress reports). */
  readonly counter?: ByteCounter | undefined;
}

/** The error of every failed fetch of a permitted IRI: the same text whatever went wrong. */
export function unretrievable(iri: string): ParsingError {
  return new ParsingError(`cannot import from '${iri}': the resource could not be retrieved`);
}

/**
 * Opens a `file:`, `http:` or `https:` IRI as `checks` allow. http(s) redirects are followed by
 * hand, at most {@link MAX_REDIRECTS}, each target checked; the connection and headers have
 * {@link FETCH_TIMEOUT_MS}.
 * @throws ParsingError when the IRI is not absolute or a fetch fails (see {@link unretrievable}),
 *   and whatever `checks` throw.
 */
export async function openIri(iri: string, checks: IriChecks, options: OpenIriOptions = {}): Promise<OpenedSource> {
  let url: URL;
  try {
    url = new URL(iri);
  } catch {
    throw new ParsingError(`'${iri}' is not an absolute IRI`);
  }
  checks.checkUrl(url, iri);
  if (url.protocol === 'file:') return openedFile(await checks.openFile(url, iri), iri, options.counter);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ParsingError(`cannot import from '${iri}': only file:, http: and https: IRIs are supported`);
  return fetchIri(url, iri, checks, options);
}

/**
 * The chunks of an open file; the file is closed when they end, fail, or `close` is called.
 * `counter` (for progress reports) counts its bytes as read.
 */
export function openedFile(handle: FileHandle, name: string, counter?: ByteCounter): OpenedSource {
  let closed: Promise<void> | undefined;
  const close = (): Promise<void> => (closed ??= handle.close().catch(() => undefined));
  async function* chunks(): AsyncGenerator<Uint8Array> {
    try {
      if (counter) counter.size = (await handle.stat()).size;
      for await (const chunk of handle.createReadStream({ start: 0, highWaterMark: 1 << 20, autoClose: false })) yield chunk as Buffer;
    } catch (e) {
      throw new ParsingError(`cannot read '${name}': ${(e as NodeJS.ErrnoException).code ?? 'read error'}`);
    } finally {
      await close();
    }
  }
  return { chunks: gunzipIfNeeded(counted(chunks(), counter)), name, close };
}

async function fetchIri(first: URL, iri: string, checks: IriChecks, options: OpenIriOptions): Promise<OpenedSource> {
  const controller = new AbortController();
  const caller = options.signal;
  const onAbort = (): void => controller.abort(caller?.reason);
  if (caller?.aborted) onAbort();
  else caller?.addEventListener('abort', onAbort, { once: true });
  const started = performance.now();
  const waitLimit = options.waitLimitMs ?? Infinity;
  const names = options.limitNames ?? { size: 'the size limit', time: 'the time limit' };
  const tooSlow = (): ParsingError => new ParsingError(`cannot import from '${iri}': the fetch waited longer than ${names.time} of ${waitLimit} ms for the resource`);
  let timedOut = false;
  // (which limit the timer is for is known when it is set: a timer may fire a little before
  // the clock says its time has passed)
  const fetchTimeout = options.timeoutMs ?? FETCH_TIMEOUT_MS;
  const timer = setTimeout(() => {
    timedOut = waitLimit <= fetchTimeout;
    controller.abort();
  }, Math.min(fetchTimeout, waitLimit));
  const init: RequestInit = {
    headers: { accept: 'application/n-quads, application/trig;q=0.9, text/turtle;q=0.9, application/n-triples;q=0.8, application/ld+json;q=0.7, application/rdf+xml;q=0.7, */*;q=0.1' },
    redirect: 'manual',
    signal: controller.signal,
  };
  let response: Response | undefined;
  try {
    let url = first;
    for (let redirects = 0; ; redirects++) {
      try {
        response = await fetch(url, init);
      } catch {
        throw timedOut ? tooSlow() : unretrievable(iri);
      }
      if (!REDIRECT_STATUSES.has(response.status)) break;
      const location = response.headers.get('location');
      await discard(response);
      response = undefined;
      if (location === null || redirects >= MAX_REDIRECTS) throw unretrievable(iri);
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        throw unretrievable(iri);
      }
      checks.checkUrl(next, iri, url);
      if (next.protocol !== 'http:' && next.protocol !== 'https:') throw unretrievable(iri);
      url = next;
    }
    if (!response.ok || !response.body) throw unretrievable(iri);
  } catch (e) {
    if (response) await discard(response);
    caller?.removeEventListener('abort', onAbort);
    throw e;
  } finally {
    clearTimeout(timer);
  }
  const declared = response.headers.get('content-type') ?? undefined;
  const counter = options.counter;
  const length = Number(response.headers.get('content-length') ?? Number.NaN);
  if (counter && Number.isSafeInteger(length) && length >= 0) counter.size = length;
  const maxBytes = options.maxBytes ?? Infinity;
  const tooLarge = (): ParsingError => new ParsingError(`cannot import from '${iri}': the resource is larger than ${names.size} of ${maxBytes} bytes`);
  if (Number.isSafeInteger(length) && length > maxBytes) {
    await discard(response);
    caller?.removeEventListener('abort', onAbort);
    throw tooLarge();
  }
  const body = Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>);
  const close = (): Promise<void> => {
    caller?.removeEventListener('abort', onAbort);
    body.destroy();
    return Promise.resolve();
  };
  // the time waited so far (for the headers), and the body's bytes so far
  let waited = performance.now() - started;
  let received = 0;
  // a body cut short fails like any other fetch, without the underlying error's text; one too
  // large or too slow fails as soon as a limit is passed, naming the limit
  async function* chunks(): AsyncGenerator<Uint8Array> {
    const reader = body[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
    try {
      for (;;) {
        const before = performance.now();
        let next: IteratorResult<Buffer>;
        let limitTimer: NodeJS.Timeout | undefined;
        try {
          next = waitLimit === Infinity ? await reader.next() : await Promise.race([reader.next(), new Promise<never>((_, reject) => (limitTimer = setTimeout(() => reject(tooSlow()), Math.max(0, waitLimit - waited))))]);
        } catch (e) {
          if (e instanceof ParsingError) throw e;
          throw unretrievable(iri);
        } finally {
          clearTimeout(limitTimer);
        }
        waited += performance.now() - before;
        if (next.done === true) return;
        received += next.value.length;
        if (received > maxBytes) throw tooLarge();
        yield next.value;
      }
    } finally {
      await close();
    }
  }
  // a gzip'd body (sent as such, not as a Content-Encoding fetch undoes) is held to the same
  // limit once decompressed: a small body must not expand past it
  async function* decompressed(): AsyncGenerator<Uint8Array> {
    let expanded = 0;
    for await (const chunk of gunzipIfNeeded(counted(chunks(), counter))) {
      expanded += chunk.length;
      if (expanded > maxBytes) throw tooLarge();
      yield chunk;
    }
  }
  const opened: OpenedSource = { chunks: decompressed(), name: iri, close };
  return declared !== undefined ? { ...opened, declaredType: declared } : opened;
}

/** Drops the body of a response that is not read. */
async function discard(response: Response): Promise<void> {
  try {
    await response.body?.cancel();
  } catch {
    // nothing more to release
  }
}
