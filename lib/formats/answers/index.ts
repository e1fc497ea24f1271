/**
 * Writers of SPARQL answers — tables of RDF terms (SELECT and every listing) and booleans
 * (ASK) — in the W3C result formats and RDFox's proprietary ones, streaming: each call of a
 * writer hands its output to the sink at once.
 *
 * Formats:
 * - `application/sparql-results+json`, `application/sparql-results+xml`, `text/csv`,
 *   `text/tab-separated-values`: the W3C SPARQL 1.1 result formats (CSV and TSV have no
 *   boolean answers);
 * - `application/x.sparql-results+turtle`: RDFox's line form, one line per answer with the
 *   values in Turtle syntax (`UNDEF` when unbound) followed by ` .`, so that answers with three
 *   variables are Turtle triples; a boolean is the line `.` (true) or nothing (false);
 * - `text/x.csv-abbrev`, `text/x.tab-separated-values-abbrev`,
 *   `application/x.sparql-results+json-abbrev`, `application/x.sparql-results+xml-abbrev`,
 *   `application/x.sparql-results+turtle-abbrev`: RDFox's variants of the same formats in
 *   which every IRI that one of the store's prefixes abbreviates (with a valid local part) is
 *   written as a prefixed name; everything else is as in the plain format (the Turtle lines also
 *   declare the prefixes, and the base IRI when given, first, and write IRIs below it relative);
 * - `application/x.sparql-results+null`: nothing is written.
 *
 * The triples of CONSTRUCT and DESCRIBE answers are written, streaming too, by
 * {@link GraphAnswerWriter} (`graph-writer.ts`) in the RDF formats.
 * @module
 */
import { baseMediaType } from '../media-types.js';
import { AnswerFormatError, type AnswerTerm, type AnswerWriter, type AnswerWriterOptions } from './answer-writer.js';
import { CsvAnswerWriter, TsvAnswerWriter } from './delimited-writers.js';
import { JsonAnswerWriter } from './json-writer.js';
import { NullAnswerWriter } from './null-writer.js';
import { PrefixAbbreviator } from './term-syntax.js';
import { TsvByteWriter } from './tsv-byte-writer.js';
import { TurtleAnswerWriter } from './turtle-writer.js';
import { XmlAnswerWriter } from './xml-writer.js';

export { AnswerFormatError, AnswerWriterBase, type AnswerTerm, type AnswerWriter, type AnswerWriterOptions } from './answer-writer.js';
export { GraphAnswerWriter, graphMediaType } from './graph-writer.js';
export { NullAnswerWriter } from './null-writer.js';
export { TsvByteWriter, type RowTerms } from './tsv-byte-writer.js';

/** SPARQL 1.1 Query Results JSON Format. */
export const SPARQL_RESULTS_JSON = 'application/sparql-results+json';
/** SPARQL Query Results XML Format. */
export const SPARQL_RESULTS_XML = 'application/sparql-results+xml';
/** SPARQL 1.1 Query Results CSV Format. */
export const SPARQL_RESULTS_CSV = 'text/csv';
/** SPARQL 1.1 Query Results TSV Format. */
export const SPARQL_RESULTS_TSV = 'text/tab-separated-values';
/** One Turtle-like line per answer (RDFox's form). */
export const SPARQL_RESULTS_TURTLE = 'application/x.sparql-results+turtle';
/** CSV with IRIs abbreviated by the store's prefixes. */
export const SPARQL_RESULTS_CSV_ABBREV = 'text/x.csv-abbrev';
/** TSV with IRIs abbreviated by the store's prefixes. */
export const SPARQL_RESULTS_TSV_ABBREV = 'text/x.tab-separated-values-abbrev';
/** SPARQL JSON results with IRIs abbreviated by the store's prefixes. */
export const SPARQL_RESULTS_JSON_ABBREV = 'application/x.sparql-results+json-abbrev';
/** SPARQL XML results with IRIs abbreviated by the store's prefixes. */
export const SPARQL_RESULTS_XML_ABBREV = 'application/x.sparql-results+xml-abbrev';
/** Turtle-like answer lines with the store's prefixes (and base IRI) declared and used. */
export const SPARQL_RESULTS_TURTLE_ABBREV = 'application/x.sparql-results+turtle-abbrev';
/** Answers counted and discarded. */
export const SPARQL_RESULTS_NULL = 'application/x.sparql-results+null';

/** The media types supported for SELECT and ASK answers. */
export const ANSWER_MEDIA_TYPES: readonly string[] = [
  SPARQL_RESULTS_JSON,
  SPARQL_RESULTS_XML,
  SPARQL_RESULTS_CSV,
  SPARQL_RESULTS_TSV,
  SPARQL_RESULTS_TURTLE,
  SPARQL_RESULTS_CSV_ABBREV,
  SPARQL_RESULTS_TSV_ABBREV,
  SPARQL_RESULTS_JSON_ABBREV,
  SPARQL_RESULTS_XML_ABBREV,
  SPARQL_RESULTS_TURTLE_ABBREV,
  SPARQL_RESULTS_NULL,
];

const NO_BOOLEAN: ReadonlySet<string> = new Set([
  SPARQL_RESULTS_CSV,
  SPARQL_RESULTS_TSV,
  SPARQL_RESULTS_CSV_ABBREV,
  SPARQL_RESULTS_TSV_ABBREV,
]);

const KNOWN: ReadonlySet<string> = new Set(ANSWER_MEDIA_TYPES);

/**
 * The answer media type named by a content type (case-insensitive, parameters such as
 * `; charset=utf-8` ignored), or undefined when it is not an answer format.
 */
export function answerMediaType(contentType: string): string | undefined {
  const base = baseMediaType(contentType);
  return KNOWN.has(base) ? base : undefined;
}

/** Whether the answer format `mediaType` can hold boolean (ASK) answers; false when unknown. */
export function supportsBoolean(mediaType: string): boolean {
  const type = answerMediaType(mediaType);
  return type !== undefined && !NO_BOOLEAN.has(type);
}

/**
 * Creates a writer of answers in the format `mediaType` (case-insensitive, parameters
 * ignored); its output goes to `write`, in order, as strings.
 * @throws AnswerFormatError naming the type when it is not an answer format.
 */
export function createAnswerWriter(mediaType: string, write: (chunk: string) => void, options: AnswerWriterOptions = {}): AnswerWriter {
  const type = answerMediaType(mediaType);
  if (type === undefined) throw new AnswerFormatError(mediaType, `'${mediaType}' is not a supported SPARQL answer format`);
  const abbreviator = (): PrefixAbbreviator => new PrefixAbbreviator(options.prefixes ?? new Map<string, string>());
  switch (type) {
    case SPARQL_RESULTS_JSON:
      return new JsonAnswerWriter(write, type);
    case SPARQL_RESULTS_JSON_ABBREV:
      return new JsonAnswerWriter(write, type, abbreviator());
    case SPARQL_RESULTS_XML:
      return new XmlAnswerWriter(write, type);
    case SPARQL_RESULTS_XML_ABBREV:
      return new XmlAnswerWriter(write, type, abbreviator());
    case SPARQL_RESULTS_CSV:
      return new CsvAnswerWriter(write, type);
    case SPARQL_RESULTS_CSV_ABBREV:
      return new CsvAnswerWriter(write, type, abbreviator());
    case SPARQL_RESULTS_TSV:
      return new TsvAnswerWriter(write, type);
    case SPARQL_RESULTS_TSV_ABBREV:
      return new TsvAnswerWriter(write, type, abbreviator());
    case SPARQL_RESULTS_TURTLE:
      return new TurtleAnswerWriter(write, type);
    case SPARQL_RESULTS_TURTLE_ABBREV:
      return new TurtleAnswerWriter(write, type, abbreviator(), options.baseIRI);
    default:
      return new NullAnswerWriter(write, type);
  }
}

/**
 * A writer of TSV answers as bytes from rows of term ids (see `tsv-byte-writer.ts`) for the
 * TSV types (plain and `-abbrev`), or undefined for every other type.
 */
export function createTsvByteWriter(mediaType: string, options: AnswerWriterOptions = {}): TsvByteWriter | undefined {
  const type = answerMediaType(mediaType);
  if (type === SPARQL_RESULTS_TSV) return new TsvByteWriter();
  if (type === SPARQL_RESULTS_TSV_ABBREV) return new TsvByteWriter(new PrefixAbbreviator(options.prefixes ?? new Map<string, string>()));
  return undefined;
}

/**
 * Writes a whole table of answers to a string (convenience for small answers).
 * @throws AnswerFormatError when `mediaType` is not an answer format.
 */
export function writeAnswers(
  mediaType: string,
  variables: readonly string[],
  rows: Iterable<ReadonlyArray<AnswerTerm | undefined>>,
  options?: AnswerWriterOptions,
): string {
  const chunks: string[] = [];
  const writer = createAnswerWriter(mediaType, (chunk) => chunks.push(chunk), options);
  writer.begin(variables);
  for (const row of rows) writer.row(row);
  writer.end();
  return chunks.join('');
}

/**
 * Writes a boolean answer to a string.
 * @throws AnswerFormatError when `mediaType` is not an answer format or has no booleans.
 */
export function writeBooleanAnswer(mediaType: string, value: boolean, options?: AnswerWriterOptions): string {
  const chunks: string[] = [];
  createAnswerWriter(mediaType, (chunk) => chunks.push(chunk), options).boolean(value);
  return chunks.join('');
}
