/**
 * Answers as Turtle-like lines (`application/x.sparql-results+turtle` and
 * `application/x.sparql-results+turtle-abbrev`), the proprietary form RDFox documents: one line
 * per answer, so that the answers of a query with three answer variables are Turtle triples.
 *
 * ```turtle
 * <http://example.org/a> "chat"@fr 1 .
 * _:r1 UNDEF "x"^^<http://example.org/dt> .
 * ```
 *
 * - There is no header: the variable names are not written.
 * - An answer is the values of the answer variables, in the order of the variables, in Turtle
 *   syntax (see `TurtleTermWriter`), with one space between two values, followed by ` .` and a
 *   line feed. `UNDEF` stands for an unbound variable. With no variables an answer is the line
 *   `.` alone.
 * - A boolean answer is written as the answer of `SELECT DISTINCT` with no variables would be
 *   (RDFox reads `ASK` that way): `true` is one empty answer (the line `.`), `false` is no
 *   answer, so nothing at all.
 * - The plain variant writes every IRI in full (`<…>`) and nothing before the answers.
 * - The `-abbrev` variant starts with a declaration `@base <…> .` when a base IRI is given and
 *   one `@prefix name: <…> .` per usable prefix of the store, then, when it wrote any of these,
 *   one empty line. In the answers an IRI that a prefix abbreviates is a prefixed name, and one
 *   below the base IRI (that no prefix abbreviates) is written relative to it. Without prefixes
 *   and base IRI it writes what the plain variant writes.
 *
 * With three variables all bound to terms allowed in those positions of a triple, the whole
 * output (of either variant) is a Turtle document whose triples are the answers, in order.
 * @module
 */
import { AnswerWriterBase, type AnswerTerm } from './answer-writer.js';
import { iriRef, relativizer, TurtleTermWriter, type PrefixAbbreviator } from './term-syntax.js';

/** The token written for an unbound variable. */
export const UNBOUND_TOKEN = 'UNDEF';

/** Writes answers as Turtle-like lines, one per answer. */
export class TurtleAnswerWriter extends AnswerWriterBase {
  protected readonly booleanSupported = true;
  private readonly terms: TurtleTermWriter;
  /** The `@base` and `@prefix` lines and the empty line after them; empty when there are none. */
  private readonly preamble: string;

  /**
   * A writer to `sink` of the media type `mediaType`. With an abbreviator (the `-abbrev`
   * variant) its prefixes are declared and used, and `baseIRI`, when given, is declared and used.
   */
  constructor(sink: (chunk: string) => void, mediaType: string, abbreviator?: PrefixAbbreviator, baseIRI?: string) {
    super(sink, mediaType, true);
    let preamble = '';
    let relative: ((iri: string) => string | undefined) | undefined;
    if (abbreviator !== undefined && baseIRI !== undefined && baseIRI !== '') {
      preamble += `@base ${iriRef(baseIRI)} .\n`;
      relative = relativizer(baseIRI);
    }
    for (const [name, namespace] of abbreviator?.prefixes ?? []) preamble += `@prefix ${name} ${iriRef(namespace)} .\n`;
    this.preamble = preamble === '' ? '' : `${preamble}\n`;
    this.terms = new TurtleTermWriter(abbreviator, relative);
  }

  protected writeBegin(): void {
    if (this.preamble !== '') this.sink(this.preamble);
  }

  protected writeRow(values: ReadonlyArray<AnswerTerm | undefined>): void {
    let out = '';
    for (const value of values) out += `${value === undefined ? UNBOUND_TOKEN : this.terms.term(value)} `;
    this.sink(`${out}.\n`);
  }

  protected writeEnd(): void {
    // nothing follows the last answer
  }

  protected writeBoolean(value: boolean): void {
    const out = this.preamble + (value ? '.\n' : '');
    if (out !== '') this.sink(out);
  }
}
