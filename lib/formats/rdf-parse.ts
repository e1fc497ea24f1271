/**
 * Reading RDF content into term ids: N-Triples and N-Quads through the byte-level
 * {@link NTriplesParser} (the bulk path), Turtle and TriG through n3's streaming parser,
 * RDF/XML and JSON-LD through their streaming parsers (`rdfxml-parse.ts`, `jsonld-parse.ts`).
 * Parsing hands its statements down as an async iterable of {@link QuadBatch}es (one for each
 * slice of the input read), which the caller applies; terms get their ids from the
 * {@link TermIds} it is given, and nothing else is called back. Errors become notification
 * rows with line and column; parsing goes on where the format's parser can recover (the
 * line-based formats skip the bad line), so every error found is reported.
 * @module
 */
import { EventEmitter } from 'node:events';
import { StringDecoder } from 'node:string_decoder';
import type * as RDF from '@rdfjs/types/data-model.js';
import { DataFactory, Parser } from 'n3';

import type { Interrupter } from '../model/control.js';
import { AccessDeniedError, MemoryExhaustedError } from '../model/errors.js';
import { termToKey } from '../model/terms.js';
import { DATALOG, JSON_LD, N_QUADS, N_TRIPLES, RDF_XML, TRIG, TURTLE, recognizeMediaType, unsupportedMediaTypeMessage } from './media-types.js';
import { parseRdfXml } from './rdfxml-parse.js';
import { type JsonLdOrder, parseJsonLd } from './jsonld-parse.js';
import type { ImportReport } from './notifications.js';
import { NTriplesParser } from './ntriples-parser.js';
import { InvalidUtf8Error, Utf8Validator } from './utf8-validation.js';
import { PrefixPreamble } from './prefix-preamble.js';
import { describeTurtleError, RecentLines } from './turtle-errors.js';
import { type QuadBatch, QuadBuffer } from './quad-batch.js';
import { BlankNodeLabels } from './blank-node-labels.js';

export type { QuadBatch } from './quad-batch.js';

/**
 * Where parsed terms get their ids: a store's dictionary (which interns them), or a lookup
 * that gives {@link ABSENT_TERM} for terms the store does not hold (to delete statements).
 */
export interface TermIds {
  /** The id of the term whose canonical key is `bytes[start, end)`. */
  internBytes(bytes: Uint8Array, start: number, end: number): number;
  /** The id of the term with canonical key `key`. */
  intern(key: string): number;
}

/** The id a lookup-only {@link TermIds} gives a term the store does not hold. */
export const ABSENT_TERM = -3;

/** Options of {@link parseRdf}. */
export interface ParseOptions {
  /** The stated media type; detected from the content when absent. */
  readonly mediaType?: string | undefined;
  /** Base IRI for relative IRIs (Turtle, TriG). */
  readonly baseIRI: string;
  /** Prefixes known before the input starts (the store's), name with colon → IRI. */
  readonly prefixes: ReadonlyMap<string, string>;
  /** Makes a fresh, store-unique blank node label for anonymous blank nodes (`[]`, lists). */
  readonly freshBlankNode: () => string;
  /** The interrupt flag of the calling connection. */
  readonly interrupter: Interrupter;
  /**
   * Whether content that was only recognised as N-Triples (N-Quads), with no stated media
   * type, is read as Turtle (TriG) instead when its first 64 KB do not parse as the former
   * but do as the latter, e.g. `<a> <b> <c> .` with relative IRIs (default true). False when
   * something besides the content, such as a file extension, says it is N-Triples or N-Quads.
   */
  readonly fallBackToTurtle?: boolean;
  /**
   * Whether error rows may quote the content (default true). False for content the caller did
   * not give itself (read by IRI): its errors then name the rule broken and the position, but
   * hold none of its text, and its prefix rows are reported only when it has no error.
   */
  readonly showContent?: boolean;
  /**
   * Reads a remote JSON-LD context (`"@context": "https://…"`) and gives its parsed JSON: the
   * server's, under its read policy. Without it, a document with a remote context fails.
   */
  readonly loadContext?: ((iri: string) => Promise<unknown>) | undefined;
  /** What a JSON-LD document out of streaming order gets (see {@link JsonLdOrder}); default `refuse`. */
  readonly jsonLdOrder?: JsonLdOrder | undefined;
}

/**
 * RDF content being parsed ({@link parseRdf}): its statements, batch by batch, as it is
 * iterated (once); the format it is read as; the prefixes it defines.
 */
export interface ParsedRdf extends AsyncIterable<QuadBatch> {
  /** The media type the content is read as. */
  readonly mediaType: string;
  /** Prefixes defined by the content, in order (name with colon → IRI): complete once the batches are read to the end. */
  readonly definedPrefixes: ReadonlyMap<string, string>;
}

const SNIFF_BYTES = 64 * 1024;

/** Content whose first bytes were looked at, and the format they look like. */
export interface SniffedContent {
  /** The media type the first 64 KB positively look like, if any. */
  readonly recognized: string | undefined;
  /** Every chunk, from the start. */
  readonly chunks: AsyncIterable<Uint8Array>;
  /** The first 64 KB (or less, when that is all). */
  readonly head: Uint8Array;
  /** Whether {@link SniffedContent.head} is the whole content. */
  readonly complete: boolean;
}

/**
 * Reads the first 64 KB of content to recognise its media type (recognised when first asked:
 * content of a stated type is looked at only when its parse fails).
 */
export async function sniffContent(chunks: AsyncIterable<Uint8Array>): Promise<SniffedContent> {
  const { head, rest, complete } = await peek(chunks, SNIFF_BYTES);
  let recognized: { readonly type: string | undefined } | undefined;
  return {
    get recognized(): string | undefined {
      recognized ??= { type: recognizeMediaType(Buffer.from(head.buffer, head.byteOffset, head.byteLength).toString('utf8')) };
      return recognized.type;
    },
    chunks: rest,
    head,
    complete,
  };
}

/**
 * Reads all content as text (for the formats parsed as a whole, such as Datalog).
 * @throws InvalidUtf8Error (a ParsingError) at the first malformed UTF-8 sequence.
 */
export async function readText(chunks: AsyncIterable<Uint8Array>, interrupter: Interrupter): Promise<string> {
  const validator = new Utf8Validator();
  const decoder = new StringDecoder('utf8');
  const parts: string[] = [];
  for await (const chunk of chunks) {
    validator.write(chunk);
    parts.push(decoder.write(chunk));
    await interrupter.maybeYield();
  }
  validator.end();
  parts.push(decoder.end());
  return parts.join('');
}

/**
 * Parses RDF content: its statements come as batches of term ids (from `dictionary`) as the
 * result is iterated; errors, warnings and prefix definitions are recorded in `report`.
 * Iterating reads the content; stopping early (or failing while a batch is applied) stops the
 * parse and leaves the rest of the content unread.
 */
export function parseRdf(content: SniffedContent, dictionary: TermIds, report: ImportReport, options: ParseOptions): ParsedRdf {
  // undefined when the content does not positively look like any format (e.g. broken lines);
  // looked at only when no type is stated
  const recognized = options.mediaType === undefined ? content.recognized : undefined;
  let mediaType = options.mediaType ?? recognized ?? TURTLE;
  if (options.mediaType === undefined && options.fallBackToTurtle !== false && (recognized === N_TRIPLES || recognized === N_QUADS)) {
    mediaType = checkedGuess(content, recognized, options.baseIRI);
  }
  const definedPrefixes = new Map<string, string>();
  async function* batches(): AsyncGenerator<QuadBatch, void, undefined> {
    const errorsBefore = report.errors;
    if (mediaType === N_TRIPLES || mediaType === N_QUADS) {
      yield* parseLines(content.chunks, mediaType, dictionary, report, options.interrupter, options.showContent !== false);
    } else if (mediaType === TURTLE || mediaType === TRIG) {
      yield* parseTurtle(content.chunks, mediaType, dictionary, report, options, definedPrefixes);
    } else if (mediaType === RDF_XML) {
      yield* parseRdfXml(content.chunks, dictionary, report, options, definedPrefixes);
    } else if (mediaType === JSON_LD) {
      yield* parseJsonLd(content.chunks, dictionary, report, options);
    } else {
      report.error(unsupportedMediaTypeMessage(mediaType));
      return;
    }
    if (report.errors > errorsBefore && options.mediaType !== undefined) reportTypeMismatch(report, options.mediaType, content.recognized);
  }
  return { mediaType, definedPrefixes, [Symbol.asyncIterator]: batches };
}

/**
 * The format to read content that looks line-based (`guess`, N-Triples or N-Quads) as: the
 * guess, unless its first 64 KB (up to the last line break when there is more) fail to parse
 * as it but parse as Turtle (TriG). When both fail, the guess stays, so that every bad line
 * is reported with the line-based parser's messages.
 */
function checkedGuess(content: SniffedContent, guess: string, baseIRI: string): string {
  let sample = content.head;
  if (!content.complete) {
    const lastBreak = Math.max(sample.lastIndexOf(0x0a), sample.lastIndexOf(0x0d));
    if (lastBreak < 0) return guess;
    sample = sample.subarray(0, lastBreak + 1);
  }
  let failed = false;
  const lines = new NTriplesParser({ intern: () => 0, statement: () => undefined, error: () => void (failed = true) }, { quads: guess === N_QUADS });
  lines.write(sample);
  lines.end();
  if (!failed) return guess;
  const alternative = guess === N_QUADS ? TRIG : TURTLE;
  try {
    new Parser({ format: alternative, baseIRI }).parse(Buffer.from(sample.buffer, sample.byteOffset, sample.byteLength).toString('utf8'));
  } catch {
    return guess;
  }
  return alternative;
}

/** After errors in content of a stated type: an error naming what the content looks like, when that is another type. */
function reportTypeMismatch(report: ImportReport, stated: string, looksLike: string | undefined): void {
  if (looksLike !== undefined && looksLike !== stated && !compatible(stated, looksLike)) {
    report.error(`the content does not match the stated type ${stated}: it looks like ${looksLike}`);
  }
}

/** Whether content detected as `detected` is also valid in the stated format. */
function compatible(stated: string, detected: string): boolean {
  if (stated === TRIG) return detected !== N_QUADS && detected !== DATALOG;
  if (stated === TURTLE) return detected === N_TRIPLES;
  if (stated === N_QUADS) return detected === N_TRIPLES;
  return false;
}

/** Reads chunks until `bytes` bytes are buffered; returns them and an iterable over everything. */
async function peek(chunks: AsyncIterable<Uint8Array>, bytes: number): Promise<{ head: Uint8Array; rest: AsyncIterable<Uint8Array>; complete: boolean }> {
  const it = chunks[Symbol.asyncIterator]();
  const buffered: Uint8Array[] = [];
  let size = 0;
  let done = false;
  while (size < bytes) {
    const r = await it.next();
    if (r.done) {
      done = true;
      break;
    }
    buffered.push(r.value);
    size += r.value.length;
  }
  const head = buffered.length === 1 ? buffered[0]! : Buffer.concat(buffered);
  // a reader that stops early closes the content's iterator too
  async function* rest(): AsyncGenerator<Uint8Array> {
    try {
      for (const b of buffered) yield b;
      while (!done) {
        const r = await it.next();
        if (r.done) done = true;
        else yield r.value;
      }
    } finally {
      if (!done) await it.return?.();
    }
  }
  return { head: head.subarray(0, Math.min(head.length, bytes)), rest: rest(), complete: done && head.length <= bytes };
}

/** The longest slice of input parsed between two batches (bytes of N-Triples, characters of Turtle). */
const SLICE = 1 << 16;

/**
 * Parses N-Triples or N-Quads held whole in `bytes` in one go, as one batch (the way a short
 * text of a stated type is read: without the stream and batch machinery a large input needs).
 * Errors are recorded in `report` as {@link parseRdf} records them.
 */
export function parseLineBytes(bytes: Uint8Array, mediaType: typeof N_TRIPLES | typeof N_QUADS, dictionary: TermIds, report: ImportReport, showContent: boolean): QuadBatch {
  const batch = new QuadBuffer();
  const parser = lineParser(batch, mediaType, dictionary, report, showContent);
  const errorsBefore = report.errors;
  parser.write(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  parser.end();
  if (report.errors > errorsBefore) reportTypeMismatch(report, mediaType, recognizeMediaType(Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, SNIFF_BYTES)).toString('utf8')));
  return batch;
}

/** An N-Triples or N-Quads parser that interns into `dictionary`, fills `batch` and reports errors to `report`. */
function lineParser(batch: QuadBuffer, mediaType: string, dictionary: TermIds, report: ImportReport, showContent: boolean): NTriplesParser {
  return new NTriplesParser(
    {
      intern: (bytes, start, end) => dictionary.internBytes(bytes, start, end),
      statement: (s, p, o, g) => batch.push(s, p, o, g),
      error: (line, column, message) => report.error(message, line, column),
    },
    { quads: mediaType === N_QUADS, showContent },
  );
}

async function* parseLines(
  chunks: AsyncIterable<Uint8Array>,
  mediaType: string,
  dictionary: TermIds,
  report: ImportReport,
  interrupter: Interrupter,
  showContent: boolean,
): AsyncGenerator<QuadBatch, void, undefined> {
  const batch = new QuadBuffer();
  const parser = lineParser(batch, mediaType, dictionary, report, showContent);
  for await (const input of chunks) {
    // a plain Uint8Array view (not a Buffer), so that the byte loops downstream stay monomorphic
    const chunk = new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
    // feed big chunks in slices, each slice's statements a batch, so that interrupts and other
    // requests get their turn and batches stay small
    for (let i = 0; i < chunk.length; i += SLICE) {
      parser.write(chunk.subarray(i, Math.min(chunk.length, i + SLICE)));
      if (batch.count > 0) {
        yield batch;
        batch.clear();
      }
      if (interrupter.due()) await interrupter.yield();
    }
    interrupter.check();
  }
  parser.end();
  if (batch.count > 0) yield batch;
}

async function* parseTurtle(
  chunks: AsyncIterable<Uint8Array>,
  mediaType: string,
  dictionary: TermIds,
  report: ImportReport,
  options: ParseOptions,
  defined: Map<string, string>,
): AsyncGenerator<QuadBatch, void, undefined> {
  // the store's prefixes apply unless the input redefines them (n3 takes no initial prefixes)
  const preamble = new PrefixPreamble(options.prefixes);
  // anonymous blank nodes (`[]`, lists) get fresh store-unique labels, the input's own are kept
  const labels = new BlankNodeLabels(options.freshBlankNode);
  const factory = {
    ...DataFactory,
    blankNode: (name?: string): RDF.BlankNode => DataFactory.blankNode(labels.label(name)),
  };
  const parser = new Parser({ format: mediaType === TRIG ? 'application/trig' : 'text/turtle', baseIRI: options.baseIRI, blankNodePrefix: '_:', factory });
  const showContent = options.showContent !== false;
  const errorsBefore = report.errors;
  const interrupter = options.interrupter;
  const internTerm = (term: RDF.Term): number => dictionary.intern(termToKey(term));
  // n3 reads a stream by its data and end events, parsing each piece of text synchronously when
  // it is emitted: the quads of one piece are one batch
  const input = new EventEmitter();
  // the last lines given to n3, for errors to quote
  const recent = new RecentLines();
  const batch = new QuadBuffer();
  // whether n3 is done (the end, or an error: it reports nothing after one)
  let finished = false;
  // a refused write, or a process past max-memory, ends the import (the caller rolls back)
  let failure: { readonly error: unknown } | undefined;
  parser.parse(input as unknown as NodeJS.ReadableStream, {
    onQuad: (error: Error | null, quad: RDF.Quad | null) => {
      if (finished) return;
      if (error) {
        finished = true;
        const described = describeTurtleError(error, { showContent, lineText: (l) => recent.line(l), mapLine: (l) => preamble.contentLine(l) });
        report.error(described.message, described.line, described.column);
        return;
      }
      if (!quad) {
        finished = true;
        return;
      }
      try {
        const g = quad.graph.termType === 'DefaultGraph' ? -1 : internTerm(quad.graph);
        batch.push(internTerm(quad.subject), internTerm(quad.predicate), internTerm(quad.object), g);
      } catch (e) {
        if (e instanceof AccessDeniedError || e instanceof MemoryExhaustedError) {
          finished = true;
          failure = { error: e };
          return;
        }
        report.error((e as Error).message);
      }
    },
    onPrefix: (prefix: string, iri: RDF.NamedNode) => {
      if (finished || !preamble.contentPrefix()) return;
      const name = `${prefix}:`;
      defined.set(name, iri.value);
      if (showContent) report.prefix(name, iri.value);
    },
  } as unknown as Parameters<Parser['parse']>[1]);
  // n3 answers nothing for a stream that gives it no text
  let given = false;
  function* parse(text: string): Generator<QuadBatch, void, undefined> {
    for (let i = 0; i < text.length && !finished; i += SLICE) {
      given = true;
      const piece = i === 0 && text.length <= SLICE ? text : text.slice(i, i + SLICE);
      recent.add(piece);
      input.emit('data', piece);
      if (failure) throw failure.error;
      if (batch.count > 0) {
        yield batch;
        batch.clear();
      }
    }
  }
  const decoder = new StringDecoder('utf8');
  const validator = new Utf8Validator();
  try {
    for await (const chunk of chunks) {
      validator.write(chunk);
      yield* parse(preamble.input(decoder.write(chunk)));
      if (finished) break;
      await interrupter.maybeYield();
    }
    if (!finished) validator.end();
  } catch (e) {
    // malformed UTF-8 is an error row, and ends the input there (whatever n3 would say of the rest is not reported)
    if (!(e instanceof InvalidUtf8Error)) throw e;
    report.error(e.description, e.line, e.column);
    return;
  }
  if (!finished) {
    yield* parse(preamble.input(decoder.end()) + preamble.end());
    if (!given) input.emit('data', ' ');
    input.emit('end');
    if (failure) throw failure.error;
    if (batch.count > 0) yield batch;
  }
  // the prefixes of content that is not shown are part of what it holds: reported only when it imports
  if (!showContent && report.errors === errorsBefore) for (const [name, iri] of defined) report.prefix(name, iri);
}
