/**
 * What an import reads (a {@link ContentSource}) and what opening it gives (an
 * {@link OpenedSource}): types only, free of Node's own types, so that the published
 * declarations need nothing from Node's type package. Node's readable streams are async
 * iterables of chunks, so they are sources as they are. `byte-source.ts` opens them.
 * @module
 */

/** A source of content: its text, bytes, a stream (any async iterable of chunks, Node's readable streams among them), or a file. */
export type ContentSource =
  | string
  | Uint8Array
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
  /**
   * Releases what the source holds (an open file, an HTTP response) when its chunks are not
   * read to the end; harmless after they were, and when called again.
   */
  readonly close?: () => Promise<void>;
}
