/**
 * The answer-writer API shared by every SPARQL answer format: the term and writer types, the
 * error raised for unsupported formats, and the base class that checks the order of calls.
 * @module
 */
import type * as RDF from '@rdfjs/types/data-model.js';

/** A value in an answer table: an IRI, a blank node or a literal. */
export type AnswerTerm = RDF.NamedNode | RDF.BlankNode | RDF.Literal | RDF.Quad;

/**
 * A streaming writer of a table of answers (SELECT-like), or of a boolean (ASK).
 *
 * A table is written by one call of {@link AnswerWriter.begin}, any number of calls of
 * {@link AnswerWriter.row} and one call of {@link AnswerWriter.end}; a boolean answer by one call
 * of {@link AnswerWriter.boolean} alone. Every call hands its output to the writer's sink at once
 * (no format buffers the table). Calls out of this order throw an `Error`.
 */
export interface AnswerWriter {
  /** The media type written (with a `charset` parameter for the textual formats). */
  readonly contentType: string;
  /** Starts the table with its column (variable) names, given without `?`. */
  begin(variables: readonly string[]): void;
  /**
   * Writes one row: the values in the order of the variables given to `begin`, `undefined` for
   * an unbound variable.
   * @throws RangeError when the row does not have one value per variable.
   */
  row(values: ReadonlyArray<AnswerTerm | undefined>): void;
  /** Ends the table. */
  end(): void;
  /**
   * Writes a boolean answer (ASK) instead of a table; `begin`, `row` and `end` are not called.
   * @throws AnswerFormatError when the format has no boolean answers (CSV, TSV).
   */
  boolean(value: boolean): void;
}

/** Options of the answer writers. */
export interface AnswerWriterOptions {
  /**
   * The store's prefixes (name with colon → namespace IRI), used by the `-abbrev` formats to
   * abbreviate IRIs and declared by `application/x.sparql-results+turtle-abbrev`.
   */
  readonly prefixes?: ReadonlyMap<string, string>;
  /**
   * The base IRI. Only `application/x.sparql-results+turtle-abbrev` uses it: it is declared
   * with `@base`, and IRIs below it that no prefix abbreviates are written relative to it.
   */
  readonly baseIRI?: string;
}

/** Raised for a media type that is not an answer format, or an answer a format cannot hold. */
export class AnswerFormatError extends Error {
  /** The media type concerned. */
  readonly mediaType: string;

  /** Creates the error for `mediaType` with a message naming it. */
  constructor(mediaType: string, message: string) {
    super(message);
    this.name = 'AnswerFormatError';
    this.mediaType = mediaType;
  }
}

type WriterState = 'initial' | 'table' | 'done';

/**
 * The base of the answer writers: checks that calls come in order and that rows have one value
 * per variable, then hands the work to the format's `write…` methods.
 */
export abstract class AnswerWriterBase implements AnswerWriter {
  /** {@inheritDoc AnswerWriter.contentType} */
  readonly contentType: string;
  /** Whether the format can write boolean answers. */
  protected abstract readonly booleanSupported: boolean;
  private state: WriterState = 'initial';
  private width = 0;

  /**
   * Creates a writer of `mediaType` handing its output to `sink`; its Content-Type is the
   * media type, with `; charset=utf-8` for the textual formats that need it said.
   */
  protected constructor(
    /** Receives the output, in order. */
    protected readonly sink: (chunk: string) => void,
    /** The bare media type (no parameters), named in error messages. */
    protected readonly mediaType: string,
    withCharset: boolean,
  ) {
    this.contentType = withCharset ? `${mediaType}; charset=utf-8` : mediaType;
  }

  /** {@inheritDoc AnswerWriter.begin} */
  begin(variables: readonly string[]): void {
    this.expect('initial', 'begin');
    this.width = variables.length;
    this.writeBegin(variables);
    this.state = 'table';
  }

  /** {@inheritDoc AnswerWriter.row} */
  row(values: ReadonlyArray<AnswerTerm | undefined>): void {
    this.expect('table', 'row');
    if (values.length !== this.width) {
      throw new RangeError(`an answer row has ${values.length} values for ${this.width} variables`);
    }
    this.writeRow(values);
  }

  /** {@inheritDoc AnswerWriter.end} */
  end(): void {
    this.expect('table', 'end');
    this.state = 'done';
    this.writeEnd();
  }

  /** {@inheritDoc AnswerWriter.boolean} */
  boolean(value: boolean): void {
    if (!this.booleanSupported) {
      throw new AnswerFormatError(this.mediaType, `the answer format '${this.mediaType}' cannot hold a boolean answer`);
    }
    this.expect('initial', 'boolean');
    this.state = 'done';
    this.writeBoolean(value);
  }

  /** Writes the start of the table. */
  protected abstract writeBegin(variables: readonly string[]): void;
  /** Writes one row (of the right length). */
  protected abstract writeRow(values: ReadonlyArray<AnswerTerm | undefined>): void;
  /** Writes the end of the table. */
  protected abstract writeEnd(): void;
  /** Writes a boolean answer (only called when the format supports booleans). */
  protected abstract writeBoolean(value: boolean): void;

  private expect(state: WriterState, call: string): void {
    if (this.state !== state) {
      const where = this.state === 'initial' ? 'before begin()' : this.state === 'table' ? 'inside a table' : 'after the answer ended';
      throw new Error(`${call}() called ${where}`);
    }
  }
}
