/**
 * The SPARQL 1.1 Query Results CSV and TSV formats (`text/csv`, `text/tab-separated-values`)
 * and their abbreviating variants (`text/x.csv-abbrev`, `text/x.tab-separated-values-abbrev`).
 * Neither format has boolean answers.
 *
 * CSV: a header row of the variable names, then one line per row; IRIs and literals as their
 * plain string (IRI, lexical form), blank nodes as `_:label`, unbound values empty; a field
 * containing `"`, `,`, CR or LF is quoted with `"` doubled (RFC 4180); lines end with CRLF.
 *
 * TSV: a header `?x<TAB>?y`, then one line per row with the terms in Turtle syntax (IRIs in
 * `<…>`, literals quoted with escapes, numbers and booleans in Turtle short form where the
 * lexical form is exactly such a token, blank nodes `_:label`), unbound values empty; lines
 * end with LF. Tabs, line ends and other control characters inside terms are escaped.
 * @module
 */
import { AnswerWriterBase, type AnswerTerm } from './answer-writer.js';
import { TurtleTermWriter, type PrefixAbbreviator } from './term-syntax.js';

const CSV_SPECIAL_RE = /[",\r\n]/;

/** A CSV field, quoted when it holds `"`, `,`, CR or LF. */
export function csvField(value: string): string {
  return CSV_SPECIAL_RE.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** Writes answers in the SPARQL CSV results format. */
export class CsvAnswerWriter extends AnswerWriterBase {
  protected readonly booleanSupported = false;
  /** Writes triple terms (made on first use). */
  private tripleTerms: TurtleTermWriter | undefined;

  /**
   * A writer to `sink` of the media type `mediaType`; with an abbreviator, IRIs that a prefix
   * abbreviates are written as prefixed names.
   */
  constructor(
    sink: (chunk: string) => void,
    mediaType: string,
    private readonly abbreviator?: PrefixAbbreviator,
  ) {
    super(sink, mediaType, true);
  }

  protected writeBegin(variables: readonly string[]): void {
    this.sink(`${variables.map(csvField).join(',')}\r\n`);
  }

  protected writeRow(values: ReadonlyArray<AnswerTerm | undefined>): void {
    let out = '';
    for (let i = 0; i < values.length; i++) {
      const value = values[i];
      if (i > 0) out += ',';
      if (value !== undefined) out += csvField(this.text(value));
    }
    this.sink(`${out}\r\n`);
  }

  protected writeEnd(): void {}

  protected writeBoolean(): void {}

  private text(term: AnswerTerm): string {
    switch (term.termType) {
      case 'NamedNode':
        return this.abbreviator?.abbreviate(term.value) ?? term.value;
      case 'BlankNode':
        return `_:${term.value}`;
      case 'Literal':
        return term.value;
      case 'Quad':
        // a triple term keeps its structure: `<<( s p o )>>` with its parts as TSV writes them
        return (this.tripleTerms ??= new TurtleTermWriter()).term(term);
      default:
        throw new TypeError(`not an answer term: ${(term as { termType: string }).termType}`);
    }
  }
}

/**
 * The header line of a TSV answer: the variables with `?`, separated by tabs.
 * @throws RangeError when a variable name holds a tab or a line end.
 */
export function tsvHeader(variables: readonly string[]): string {
  for (const v of variables) {
    if (/[\t\r\n]/.test(v)) throw new RangeError(`variable name ${JSON.stringify(v)} cannot be written in TSV`);
  }
  return `${variables.map((v) => `?${v}`).join('\t')}\n`;
}

/** Writes answers in the SPARQL TSV results format. */
export class TsvAnswerWriter extends AnswerWriterBase {
  protected readonly booleanSupported = false;
  private readonly terms: TurtleTermWriter;

  /**
   * A writer to `sink` of the media type `mediaType`; with an abbreviator, IRIs (including
   * datatypes) that a prefix abbreviates are written as prefixed names instead of `<…>`.
   */
  constructor(sink: (chunk: string) => void, mediaType: string, abbreviator?: PrefixAbbreviator) {
    super(sink, mediaType, true);
    this.terms = new TurtleTermWriter(abbreviator);
  }

  /** @throws RangeError when a variable name holds a tab or a line end. */
  protected writeBegin(variables: readonly string[]): void {
    this.sink(tsvHeader(variables));
  }

  protected writeRow(values: ReadonlyArray<AnswerTerm | undefined>): void {
    let out = '';
    for (let i = 0; i < values.length; i++) {
      const value = values[i];
      if (i > 0) out += '\t';
      if (value !== undefined) out += this.terms.term(value);
    }
    this.sink(`${out}\n`);
  }

  protected writeEnd(): void {}

  protected writeBoolean(): void {}
}
