/**
 * Reading JSON-LD into term ids, streamed through `jsonld-streaming-parser` (see
 * `stream-parse.ts` for how its quads become batches).
 *
 * - The store's prefixes are the root context, as they apply to Turtle: `"ex:a"` expands with
 *   the store's `ex:` unless the document's own `@context` says otherwise.
 * - A remote context (`"@context": "https://…"`) is read only through the loader the caller
 *   gives (the server's, under its read policy); without one it is refused, and the document
 *   fails with an error naming the context.
 * - Blank nodes are scoped as in the other formats (`blank-node-labels.ts`): `"@id": "_:b1"`
 *   keeps its label, a node object without `@id` gets a fresh store-unique label.
 * - A value with a base direction (`@direction`) becomes a literal with an
 *   `https://www.w3.org/ns/i18n#lang_dir` datatype (JSON-LD's `i18n-datatype` form), since the
 *   store holds RDF 1.1 literals.
 * - Named graphs (`@graph` on a node with `@id`) become quads in that graph.
 *
 * The document is read in JSON-LD's streaming order first (the parser's streaming profile:
 * in every object, `@context` before the other entries, an `@type` that brings a type-scoped
 * context before the properties it governs): statements go to the store as the input is read,
 * and the time is linear in its size. Any JSON-LD document may put those entries later, which a
 * streaming parse cannot follow; what such a document gets is the caller's choice
 * ({@link JsonLdOrder}): read again from the start with the parser buffering the whole document
 * (its statements come out at the end, and its work grows faster than the document), or an
 * error naming the entry out of order.
 *
 * The first error ends the input: a JSON syntax error has the line and column of the offending
 * character (found from the JSON tokenizer's byte offset); a JSON-LD error has its JSON-LD error
 * code.
 * @module
 */
import type * as JsonLdStreaming from 'jsonld-streaming-parser';
import { libraryExports } from './library-exports.js';
import { BlankNodeLabels } from './blank-node-labels.js';
import { NOT_SHOWN_NOTE } from './hidden-content.js';
import type { ImportReport } from './notifications.js';
import type { QuadBatch } from './quad-batch.js';
import type { ParseOptions, TermIds } from './rdf-parse.js';
import { rdf11TermIds } from './rdfxml-parse.js';
import { inputDataFactory, parseWithStream } from './stream-parse.js';
import type { DescribedError } from './turtle-errors.js';

/** Why a remote context is not loaded when no loader was given (JSON-LD's error message names the context). */
export const REMOTE_CONTEXT_REFUSAL = 'remote contexts are read only by a server, under its read policy (allowed-url-schemes-on-import, sandbox-directory)';

/**
 * What a JSON-LD document whose entries are out of streaming order gets:
 * - `refuse`: an error naming the entry (the input cannot be read a second time, e.g. a stream);
 * - `retry`: the parse stops with a {@link JsonLdOrderError}, and the caller reads the input
 *   again with `buffer`, the statements given so far undone;
 * - `buffer`: the parser buffers the whole document, so that any order is read.
 */
export type JsonLdOrder = 'refuse' | 'retry' | 'buffer';

/** The error code of `jsonld-streaming-parser` for an entry out of streaming order. */
const OUT_OF_ORDER_CODE = 'invalid streaming key order';

/** Thrown by a parse with {@link JsonLdOrder} `retry` when the document is out of streaming order: read it again with `buffer`. */
export class JsonLdOrderError extends Error {
  constructor() {
    super('the JSON-LD document is not in streaming order: it is read again, buffered');
    this.name = 'JsonLdOrderError';
  }
}

/** Where the text parsed so far puts a byte: lines and columns (of characters) counted as chunks go by. */
class BytePositions {
  private chunk: Uint8Array = new Uint8Array(0);
  private chunkStart = 0;
  private line = 1;
  private column = 1;

  /** Passes the chunks through, keeping count of the lines before each. */
  async *track(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
    for await (const chunk of chunks) {
      this.advance();
      this.chunk = chunk;
      yield chunk;
    }
    this.advance();
  }

  /** The line and column (1-based) of the byte at `offset` of the input, when it lies in the chunk being parsed. */
  at(offset: number): { line: number; column: number } | undefined {
    const end = offset - this.chunkStart;
    if (end < 0 || end > this.chunk.length) return undefined;
    let line = this.line;
    let column = this.column;
    for (let i = 0; i < end; i++) {
      const b = this.chunk[i]!;
      if (b === 0x0a) {
        line++;
        column = 1;
      } else if ((b & 0xc0) !== 0x80) column++;
    }
    return { line, column };
  }

  private advance(): void {
    const p = this.at(this.chunkStart + this.chunk.length)!;
    this.line = p.line;
    this.column = p.column;
    this.chunkStart += this.chunk.length;
    this.chunk = new Uint8Array(0);
  }
}

/** The JSON tokenizer inside `jsonld-streaming-parser` (`@bergos/jsonparse`): its byte offset in the input. */
interface JsonTokenizer {
  readonly offset: number;
}

let jsonLdStreaming: Promise<typeof JsonLdStreaming> | undefined;

/**
 * Parses JSON-LD content into batches of term ids. The parser (and its dependencies) loads with
 * the first JSON-LD import, not with the package: the bundle keeps it in a chunk of its own.
 */
export async function* parseJsonLd(chunks: AsyncIterable<Uint8Array>, dictionary: TermIds, report: ImportReport, options: ParseOptions): AsyncGenerator<QuadBatch, void, undefined> {
  jsonLdStreaming ??= import('jsonld-streaming-parser').then((m) => libraryExports<typeof JsonLdStreaming>(m));
  yield* parseWith(await jsonLdStreaming, chunks, dictionary, report, options);
}

/** {@link parseJsonLd} with the parser's library loaded. */
function parseWith(library: typeof JsonLdStreaming, chunks: AsyncIterable<Uint8Array>, dictionary: TermIds, report: ImportReport, options: ParseOptions): AsyncGenerator<QuadBatch, void, undefined> {
  const labels = new BlankNodeLabels(options.freshBlankNode);
  // the store's prefixes (not the empty one: JSON-LD has no empty term) are the root context
  const context: Record<string, string> = {};
  for (const [name, iri] of options.prefixes) if (name.length > 1) context[name.slice(0, -1)] = iri;
  const loadContext = options.loadContext;
  const order = options.jsonLdOrder ?? 'refuse';
  const parser = new library.JsonLdParser({
    dataFactory: inputDataFactory(labels),
    baseIRI: options.baseIRI,
    context,
    rdfDirection: 'i18n-datatype',
    normalizeLanguageTags: true,
    streamingProfile: order !== 'buffer',
    // an @type that brings no type-scoped context may come anywhere
    streamingProfileAllowOutOfOrderPlainType: true,
    documentLoader: {
      load: async (iri: string): Promise<never> => {
        if (loadContext === undefined) throw new Error(REMOTE_CONTEXT_REFUSAL);
        return (await loadContext(iri)) as never;
      },
    },
  });
  const showContent = options.showContent !== false;
  const positions = new BytePositions();
  const tokenizer = (parser as unknown as { readonly jsonParser?: JsonTokenizer }).jsonParser;
  const describe = (error: Error, at: { readonly start: number }): DescribedError => {
    const code = (error as { readonly code?: unknown }).code;
    if (code === OUT_OF_ORDER_CODE) {
      const where = tokenizer?.offset === undefined ? undefined : positions.at(tokenizer.offset);
      const message = `the JSON-LD document puts ${/type-scoped/.test(error.message) ? 'an @type with a type-scoped context' : 'an @context'} after other entries of its object, which a stream cannot be read with: give the document as text, bytes or a file, or put those entries first (JSON-LD error: ${code})`;
      return where === undefined ? { message } : { message, line: where.line, column: where.column };
    }
    if (typeof code === 'string') {
      // an error of JSON-LD processing: its message and code (the code alone when the content is not shown)
      return { message: showContent ? `${error.message} (JSON-LD error: ${code})` : `the content is not valid JSON-LD: ${code} (the details are not shown: ${NOT_SHOWN_NOTE})` };
    }
    // a JSON syntax error: `Unexpected "x" at position 12 in state …` (within the slice given) or a token out of place (at the tokenizer's offset)
    if (!/^Unexpected |^Unclosed document$/.test(error.message)) return { message: showContent ? error.message : `the content could not be read as JSON-LD (the details are not shown: ${NOT_SHOWN_NOTE})` };
    const inSlice = /^Unexpected (.*) at position (\d+) in state/.exec(error.message);
    const offset = inSlice ? at.start + Number(inSlice[2]) : tokenizer?.offset;
    const where = offset === undefined ? undefined : positions.at(offset);
    const what = error.message === 'Unclosed document' ? 'the JSON document is not closed' : inSlice ? `unexpected character ${inSlice[1]}` : 'unexpected token';
    const message = showContent ? `invalid JSON: ${what}` : `the content is not valid JSON (the details are not shown: ${NOT_SHOWN_NOTE})`;
    return error.message === 'Unclosed document' || where === undefined ? { message } : { message, line: where.line, column: where.column };
  };
  return parseWithStream(parser, positions.track(chunks), {
    dictionary,
    report,
    interrupter: options.interrupter,
    term: rdf11TermIds(dictionary),
    describe,
    thrown: (error) => (order === 'retry' && (error as { readonly code?: unknown }).code === OUT_OF_ORDER_CODE ? new JsonLdOrderError() : undefined),
  });
}
