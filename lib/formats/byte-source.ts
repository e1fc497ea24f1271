/**
 * Input sources as streams of byte chunks: strings, buffers, Node streams, async iterables,
 * files and http(s)/file IRIs. Gzip'd input (magic bytes 1f 8b) is decompressed on the fly.
 * @module
 */
import { createReadStream } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createGunzip } from 'node:zlib';
import { Readable } from 'node:stream';
import { ParsingError } from '../model/errors.js';

/** A source of content: its text, bytes, a stream, or a file. */
export type ContentSource =
  | string
  | Uint8Array
  | NodeJS.ReadableStream
  | AsyncIterable<Uint8Array | string>
  | { readonly path: string };

/** An opened source: its chunks and, where known, the media type its origin declares. */
export interface OpenedSource {
  /** The content bytes (decompressed). */
  readonly chunks: AsyncIterable<Uint8Array>;
  /** A name for messages (file path or IRI). */
  readonly name: string;
  /** Media type declared by the origin (HTTP Content-Type or file extension), if any. */
  readonly declaredType?: string;
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
    const gunzip = createGunzip({ chunkSize: 256 * 1024 });
    const decompressed = Readable.from(rest()).pipe(gunzip);
    try {
      for await (const chunk of decompressed) yield chunk as Buffer;
    } catch (e) {
      throw new ParsingError(`the gzip'd input is corrupt: ${(e as Error).message}`);
    }
  } else yield* rest();
}

/** Opens a content source. */
export function openSource(source: ContentSource): OpenedSource {
  if (typeof source === 'string') return { chunks: single(Buffer.from(source, 'utf8')), name: 'input' };
  if (source instanceof Uint8Array) return { chunks: gunzipIfNeeded(single(source)), name: 'input' };
  if ('path' in source && typeof source.path === 'string' && !(Symbol.asyncIterator in source)) {
    const path = source.path;
    return { chunks: gunzipIfNeeded(readFileChunks(path)), name: path };
  }
  return { chunks: gunzipIfNeeded(toBytes(source as AsyncIterable<Uint8Array | string>)), name: 'input' };
}

/** The chunks of a file; a file that cannot be read (missing, a directory, …) is a ParsingError. */
async function* readFileChunks(path: string): AsyncGenerator<Uint8Array> {
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

/** Opens a `file:`, `http:` or `https:` IRI. */
export async function openIri(iri: string, signal?: AbortSignal): Promise<OpenedSource> {
  let url: URL;
  try {
    url = new URL(iri);
  } catch {
    throw new ParsingError(`'${iri}' is not an absolute IRI`);
  }
  if (url.protocol === 'file:') {
    const path = fileURLToPath(url);
    return { ...openSource({ path }), name: iri };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ParsingError(`cannot import from '${iri}': only file:, http: and https: IRIs are supported`);
  const init: RequestInit = { headers: { accept: 'application/n-quads, application/trig;q=0.9, text/turtle;q=0.9, application/n-triples;q=0.8, */*;q=0.1' } };
  if (signal) init.signal = signal;
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch (e) {
    throw new ParsingError(`cannot fetch '${iri}': ${(e as Error).message}`);
  }
  if (!response.ok || !response.body) throw new ParsingError(`cannot fetch '${iri}': HTTP status ${response.status}`);
  const declared = response.headers.get('content-type') ?? undefined;
  const body = Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>) as AsyncIterable<Buffer>;
  return declared !== undefined ? { chunks: gunzipIfNeeded(body), name: iri, declaredType: declared } : { chunks: gunzipIfNeeded(body), name: iri };
}
