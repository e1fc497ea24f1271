/**
 * Tables of RDF terms as SPARQL answers, for programs that list things the way the store lists
 * query answers (the HTTP adapter's listings use it): the answer formats, a streaming table
 * writer, a row filter written as a SPARQL FILTER expression, and the form of a SPARQL text.
 * It lives in the server layer, which may use the answer writers and the expression evaluator;
 * the api re-exports it (`api/answer-tables.ts`).
 * @module
 */
import type * as RDF from '@rdfjs/types/data-model.js';
import { compileExpression, effectiveBooleanValue, type Value } from '../expressions/index.js';
import { Algebra, sparqlParser, translate } from '../expressions/sparql-libraries.js';
import { ANSWER_MEDIA_TYPES, AnswerFormatError, createAnswerWriter, supportsBoolean, type AnswerTerm } from '../formats/answers/index.js';
import { BadRequestError, QueryCompilationError } from '../model/errors.js';
import { unescapeIriCodepoints } from '../sparql/syntax.js';

export { ANSWER_MEDIA_TYPES, answerMediaType, supportsBoolean as supportsBooleanAnswers } from '../formats/answers/index.js';
export { sparqlOperationType, type SparqlOperationType } from '../sparql/operation-type.js';

/** A streaming writer of one table of terms (or of one boolean) in an answer format. */
export interface TableWriter {
  /** The Content-Type of the output (with a charset for the textual formats). */
  readonly contentType: string;
  /** Starts the table with its column names (without `?`). */
  begin(columns: readonly string[]): void;
  /** Writes one row, one value per column (undefined = unbound). */
  row(values: ReadonlyArray<RDF.Term | undefined>): void;
  /** Writes a boolean answer instead of a table. */
  boolean(value: boolean): void;
  /** Ends the table. */
  end(): void;
}

/** Options of {@link createTableWriter}. */
export interface TableWriterOptions {
  /** Prefixes used by the `-abbrev` formats (name with colon → IRI). */
  readonly prefixes?: ReadonlyMap<string, string>;
  /** Base IRI, declared by `application/x.sparql-results+turtle-abbrev`. */
  readonly baseIRI?: string;
}

/**
 * A writer of a table in the answer format `mediaType`; each call hands its output to `write`
 * at once. An unknown format fails with BadRequestError naming it; so do terms that cannot be
 * answers (variables, quoted triples) and booleans in CSV or TSV.
 */
export function createTableWriter(mediaType: string, write: (chunk: string) => void, options: TableWriterOptions = {}): TableWriter {
  let writer;
  try {
    writer = createAnswerWriter(mediaType, write, options);
  } catch (e) {
    throw e instanceof AnswerFormatError ? new BadRequestError(`${e.message} (supported: ${ANSWER_MEDIA_TYPES.join(', ')})`) : e;
  }
  const w = writer;
  return {
    contentType: w.contentType,
    begin: (columns) => w.begin(columns),
    row: (values) => {
      for (const v of values) {
        if (v !== undefined && v.termType !== 'NamedNode' && v.termType !== 'BlankNode' && v.termType !== 'Literal') {
          throw new BadRequestError(`a ${v.termType} cannot be written as an answer value`);
        }
      }
      w.row(values as ReadonlyArray<AnswerTerm | undefined>);
    },
    boolean: (value) => {
      if (!supportsBoolean(mediaType)) throw new BadRequestError(`the answer format '${mediaType}' cannot hold a boolean answer`);
      w.boolean(value);
    },
    end: () => w.end(),
  };
}

/** Options of {@link compileRowFilter}. */
export interface SparqlTextOptions {
  /** Prefixes available to the text (name with colon → IRI). */
  readonly prefixes?: ReadonlyMap<string, string>;
  /** Base IRI for relative IRIs. */
  readonly baseIRI?: string;
}

function filterParser(options: SparqlTextOptions): ReturnType<typeof sparqlParser> {
  const prefixes = Object.fromEntries([...(options.prefixes ?? new Map<string, string>())].map(([k, v]) => [k.slice(0, -1), v]));
  return sparqlParser({ prefixes, ...(options.baseIRI !== undefined ? { baseIRI: options.baseIRI } : {}) });
}

/**
 * Compiles a SPARQL FILTER expression over the columns of a table (each column is the
 * variable of the same name) into a row test: true when the expression's effective boolean
 * value is true; false when it is false or an error (as FILTER does). A malformed expression
 * fails with QueryCompilationError.
 */
export function compileRowFilter(expression: string, columns: readonly string[], options: SparqlTextOptions = {}): (row: ReadonlyArray<RDF.Term | undefined>) => boolean {
  let algebra;
  try {
    const parsed = filterParser(options).parse(`SELECT * WHERE { FILTER(${unescapeIriCodepoints(expression)}) }`);
    algebra = translate(parsed, { quads: false });
  } catch (e) {
    throw new QueryCompilationError(`invalid filter expression '${expression}': ${(e as Error).message}`);
  }
  let op: Algebra.Operation = algebra;
  while (op.type !== Algebra.types.FILTER && 'input' in op && op.input && !Array.isArray(op.input)) op = op.input as Algebra.Operation;
  if (op.type !== Algebra.types.FILTER) throw new QueryCompilationError(`invalid filter expression '${expression}'`);
  const test = compileExpression(op.expression, { now: new Date(), ...(options.baseIRI !== undefined ? { baseIRI: options.baseIRI } : {}) });
  const index = new Map(columns.map((c, i) => [c, i]));
  return (row) => {
    try {
      return effectiveBooleanValue(
        test((name) => {
          const i = index.get(name);
          return i === undefined ? undefined : (row[i] as Value | undefined);
        }),
      );
    } catch {
      return false;
    }
  };
}
