/**
 * Tables of RDF terms as SPARQL answers, for programs that list things the way the store lists
 * query answers (the HTTP adapter's listings use it): the answer formats, a streaming table
 * writer, a row filter written as a SPARQL FILTER expression, and the form of a SPARQL text.
 * @module
 */
import type * as RDF from '@rdfjs/types';
import { Parser } from 'sparqljs';
import { Algebra, translate } from 'sparqlalgebrajs';
import { compileExpression, effectiveBooleanValue, type Value } from '../datalog/expressions/index.js';
import { ANSWER_MEDIA_TYPES, AnswerFormatError, createAnswerWriter, supportsBoolean, type AnswerTerm } from '../formats/answers/index.js';
import { BadRequestError, QueryCompilationError } from '../model/errors.js';
import { unescapeIriCodepoints } from '../sparql/syntax.js';

export { ANSWER_MEDIA_TYPES, answerMediaType, supportsBoolean as supportsBooleanAnswers } from '../formats/answers/index.js';

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

function sparqlParser(options: SparqlTextOptions): InstanceType<typeof Parser> {
  const prefixes = Object.fromEntries([...(options.prefixes ?? new Map<string, string>())].map(([k, v]) => [k.slice(0, -1), v]));
  return new Parser({ prefixes, ...(options.baseIRI !== undefined ? { baseIRI: options.baseIRI } : {}) });
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
    const parsed = sparqlParser(options).parse(`SELECT * WHERE { FILTER(${unescapeIriCodepoints(expression)}) }`);
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

/** The form of a SPARQL text. */
export type SparqlOperationType = 'SELECT' | 'ASK' | 'CONSTRUCT' | 'DESCRIBE' | 'UPDATE';

const UPDATE_KEYWORDS: ReadonlySet<string> = new Set(['INSERT', 'DELETE', 'LOAD', 'CLEAR', 'DROP', 'CREATE', 'ADD', 'MOVE', 'COPY', 'WITH']);

/**
 * Whether a SPARQL text is a SELECT, ASK, CONSTRUCT or DESCRIBE query or an update, from the
 * keyword after its prologue (BASE and PREFIX declarations, comments), to choose an answer
 * format before evaluating it; the text is not parsed further (evaluation reports its syntax
 * errors). A prologue alone is an empty update. Anything else fails with
 * QueryCompilationError.
 */
export function sparqlOperationType(text: string): SparqlOperationType {
  const token = /\s+|#[^\n]*|<[^>]*>|[A-Za-z][\w.-]*:?|:|\S/y;
  let expect: 'keyword' | 'prefix-name' | 'iri' = 'keyword';
  for (let m = token.exec(text); m !== null; m = token.exec(text)) {
    const t = m[0];
    if (/^\s/.test(t) || t.startsWith('#')) continue;
    if (expect === 'prefix-name') {
      if (!t.endsWith(':')) break;
      expect = 'iri';
    } else if (expect === 'iri') {
      if (!t.startsWith('<')) break;
      expect = 'keyword';
    } else {
      const word = t.toUpperCase();
      if (word === 'PREFIX') expect = 'prefix-name';
      else if (word === 'BASE') expect = 'iri';
      else if (word === 'SELECT' || word === 'ASK' || word === 'CONSTRUCT' || word === 'DESCRIBE') return word;
      else if (UPDATE_KEYWORDS.has(word)) return 'UPDATE';
      else throw new QueryCompilationError(`invalid SPARQL: expected a query form (SELECT, ASK, CONSTRUCT, DESCRIBE) or an update operation at '${t}'`);
    }
  }
  if (expect === 'keyword' && token.lastIndex === 0) return 'UPDATE';
  if (expect !== 'keyword') throw new QueryCompilationError('invalid SPARQL: an incomplete PREFIX or BASE declaration');
  return 'UPDATE';
}
