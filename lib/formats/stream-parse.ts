/**
 * Driving an RDF/JS streaming parser (a transform stream that takes text and gives quads, as
 * the RDF/XML and JSON-LD parsers are) the way `rdf-parse.ts` hands statements down: the input
 * is written to the parser a slice at a time, the quads it gives are interned as term ids into
 * a {@link QuadBatch}, and a batch is handed on after each slice. The parser is given the next
 * slice only when it has taken the last one (its write callback), so memory stays bounded by a
 * slice and the quads it gives for it. Such parsers stop at their first error: it is reported
 * (with the line and column the format's describer finds) and the input ends there.
 * @module
 */
import { StringDecoder } from 'node:string_decoder';
import type * as RDF from '@rdfjs/types/data-model.js';
import { DataFactory } from 'n3';
import type { Interrupter } from '../model/control.js';
import { AccessDeniedError, MemoryExhaustedError } from '../model/errors.js';
import { termToKey } from '../model/terms.js';
import type { ImportReport } from './notifications.js';
import { type QuadBatch, QuadBuffer } from './quad-batch.js';
import type { TermIds } from './rdf-parse.js';
import type { BlankNodeLabels } from './blank-node-labels.js';
import type { DescribedError } from './turtle-errors.js';
import { InvalidUtf8Error, Utf8Validator } from './utf8-validation.js';

/**
 * The part of an RDF/JS streaming parser (a Node or `readable-stream` transform stream) used
 * here.
 * @internal
 */
export interface QuadStreamParser {
  /** Gives the parser a piece of input; `callback` is called when it has taken it (with the error that stopped it, if any). */
  write(chunk: Uint8Array | string, callback: (error?: Error | null) => void): boolean;
  /** Ends the input. */
  end(): void;
  /** Listens for the parser's quads, its error, and its end. */
  on(event: 'data', listener: (quad: RDF.Quad) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'end', listener: () => void): unknown;
}

/** How {@link parseWithStream} reads one format. @internal */
export interface StreamParseOptions {
  /** Term ids of the parsed terms. */
  readonly dictionary: TermIds;
  /** Where the error goes. */
  readonly report: ImportReport;
  /** The calling connection's interrupt flag. */
  readonly interrupter: Interrupter;
  /**
   * The error as it is reported: the message in the user's terms, and the position. `start`
   * is the offset in bytes of the slice being parsed when the error came (the slice itself is
   * `slice`), for parsers that give positions within it.
   */
  describe(error: Error, at: { readonly start: number; readonly slice: Uint8Array }): DescribedError;
  /** Whether the parser is given text (decoded from UTF-8 here) rather than bytes. */
  readonly text?: boolean;
  /** The id of a term, or throws a {@link RefusedTerm} for one the store cannot hold. Default: interned by its canonical key. */
  readonly term?: (term: RDF.Term) => number;
  /** The error to throw (stopping the parse) instead of reporting the parser's `error`, if any. */
  thrown?(error: Error): Error | undefined;
}

/**
 * The RDF/JS data factory a parser of one input builds its terms with: n3's, with the input's
 * blank node labels (`blank-node-labels.ts`), and a literal without language or datatype when
 * the parser passes null for them.
 * @internal
 */
export function inputDataFactory(labels: BlankNodeLabels): RDF.DataFactory {
  return {
    ...DataFactory,
    blankNode: (name?: string): RDF.BlankNode => DataFactory.blankNode(labels.label(name)),
    literal: (value: string, languageOrDatatype?: string | RDF.NamedNode | RDF.DirectionalLanguage | null): RDF.Literal =>
      languageOrDatatype === null || languageOrDatatype === undefined ? DataFactory.literal(value) : DataFactory.literal(value, languageOrDatatype as string | RDF.NamedNode),
  };
}

/** A term of the input the store cannot hold (a triple term, a literal with a base direction): the input's error. @internal */
export class RefusedTerm extends Error {}

/** The longest slice of input given to the parser at a time, in bytes. */
const SLICE = 1 << 16;

/**
 * Parses `chunks` with `parser` into batches of term ids (see the module documentation).
 * @internal
 */
export async function* parseWithStream(parser: QuadStreamParser, chunks: AsyncIterable<Uint8Array>, options: StreamParseOptions): AsyncGenerator<QuadBatch, void, undefined> {
  const { dictionary, report, interrupter } = options;
  const term = options.term ?? ((t: RDF.Term): number => dictionary.intern(termToKey(t)));
  // Quads may come at any time (some parsers hand them on in a later tick): they go to the
  // filling buffer, and the one handed out is not touched until the consumer asks for the next.
  let filling = new QuadBuffer();
  let spare = new QuadBuffer();
  // the first error, as described; a refused write, or a process past max-memory, is thrown
  let error: DescribedError | undefined;
  let failure: { readonly error: unknown } | undefined;
  let at: { start: number; slice: Uint8Array } = { start: 0, slice: new Uint8Array(0) };
  const fail = (e: unknown): void => {
    if (error !== undefined || failure !== undefined) return;
    const thrown = e instanceof Error ? options.thrown?.(e) : undefined;
    if (thrown !== undefined) failure = { error: thrown };
    else if (e instanceof AccessDeniedError || e instanceof MemoryExhaustedError) failure = { error: e };
    else if (e instanceof RefusedTerm) error = { message: e.message };
    else error = options.describe(e as Error, at);
  };
  parser.on('data', (quad: RDF.Quad) => {
    if (error !== undefined || failure !== undefined) return;
    try {
      const g = quad.graph.termType === 'DefaultGraph' ? -1 : term(quad.graph);
      filling.push(term(quad.subject), term(quad.predicate), term(quad.object), g);
    } catch (e) {
      fail(e);
    }
  });
  const ended = new Promise<void>((resolve) => {
    parser.on('end', resolve);
    parser.on('error', (e) => {
      fail(e);
      resolve();
    });
  });
  const decoder = options.text ? new StringDecoder('utf8') : undefined;
  const write = (slice: Uint8Array): Promise<void> =>
    new Promise((resolve) => {
      parser.write(decoder ? decoder.write(slice) : slice, (e) => {
        if (e) fail(e);
        resolve();
      });
    });
  const stopped = (): boolean => error !== undefined || failure !== undefined;
  function* handOut(): Generator<QuadBatch, void, undefined> {
    if (failure) throw failure.error;
    if (filling.count === 0) return;
    const full = filling;
    filling = spare;
    yield full;
    full.clear();
    spare = full;
  }
  const validator = new Utf8Validator();
  let offset = 0;
  try {
    for await (const input of chunks) {
      validator.write(input);
      const chunk = new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
      for (let i = 0; i < chunk.length && !stopped(); i += SLICE) {
        const slice = chunk.subarray(i, Math.min(chunk.length, i + SLICE));
        at = { start: offset + i, slice };
        await write(slice);
        yield* handOut();
      }
      offset += chunk.length;
      if (stopped()) break;
      await interrupter.maybeYield();
    }
    if (!stopped()) validator.end();
  } catch (e) {
    // malformed UTF-8 is the input's error, and ends it there
    if (!(e instanceof InvalidUtf8Error)) throw e;
    error ??= { message: e.description, line: e.line, column: e.column };
  }
  if (!stopped()) {
    at = { start: offset, slice: new Uint8Array(0) };
    parser.end();
    await ended;
  }
  if (failure) throw failure.error;
  if (error !== undefined) {
    report.error(error.message, error.line, error.column);
    return;
  }
  yield* handOut();
}
