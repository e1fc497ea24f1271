/**
 * The SPARQL 1.1 Query Results JSON Format (`application/sparql-results+json`) and its
 * abbreviating variant (`application/x.sparql-results+json-abbrev`).
 *
 * Output: `{"head":{"vars":[…]},"results":{"bindings":[` at `begin`, one binding object per
 * line for each row (unbound variables left out), `]}}` at `end`; a boolean answer is
 * `{"head":{},"boolean":true}`. Literals carry `xml:lang` when language-tagged and `datatype`
 * unless xsd:string.
 * @module
 */
import { XSD_STRING, directionOf } from '../../model/terms.js';
import { AnswerWriterBase, type AnswerTerm } from './answer-writer.js';
import { type PrefixAbbreviator, WrittenTerms } from './term-syntax.js';

/** Writes answers in the SPARQL JSON results format. */
export class JsonAnswerWriter extends AnswerWriterBase {
  protected readonly booleanSupported = true;
  /** The variable names as JSON strings followed by `:`. */
  private keys: string[] = [];
  private first = true;
  private readonly written = new WrittenTerms((term) => this.format(term));

  /**
   * A writer to `sink` of the media type `mediaType`; with an abbreviator, IRIs (values of type
   * `uri` and datatypes) that a prefix abbreviates are written as prefixed names.
   */
  constructor(
    sink: (chunk: string) => void,
    mediaType: string,
    private readonly abbreviator?: PrefixAbbreviator,
  ) {
    super(sink, mediaType, false);
  }

  protected writeBegin(variables: readonly string[]): void {
    this.keys = variables.map((v) => `${JSON.stringify(v)}:`);
    this.sink(`{"head":{"vars":[${variables.map((v) => JSON.stringify(v)).join(',')}]},"results":{"bindings":[`);
  }

  protected writeRow(values: ReadonlyArray<AnswerTerm | undefined>): void {
    let out = this.first ? '\n{' : ',\n{';
    this.first = false;
    let separator = '';
    for (let i = 0; i < values.length; i++) {
      const value = values[i];
      if (value === undefined) continue;
      out += `${separator}${this.keys[i]!}${this.written.text(value)}`;
      separator = ',';
    }
    this.sink(`${out}}`);
  }

  protected writeEnd(): void {
    this.sink(this.first ? ']}}\n' : '\n]}}\n');
  }

  protected writeBoolean(value: boolean): void {
    this.sink(`{"head":{},"boolean":${value ? 'true' : 'false'}}\n`);
  }

  private iri(iri: string): string {
    return JSON.stringify(this.abbreviator?.abbreviate(iri) ?? iri);
  }

  private format(term: AnswerTerm): string {
    switch (term.termType) {
      case 'NamedNode':
        return `{"type":"uri","value":${this.iri(term.value)}}`;
      case 'BlankNode':
        return `{"type":"bnode","value":${JSON.stringify(term.value)}}`;
      case 'Literal': {
        const value = JSON.stringify(term.value);
        if (term.language !== '') {
          const direction = directionOf(term);
          return `{"type":"literal","value":${value},"xml:lang":${JSON.stringify(term.language)}${direction ? `,"its:dir":${JSON.stringify(direction)}` : ''}}`;
        }
        const datatype = term.datatype.value;
        if (datatype === XSD_STRING) return `{"type":"literal","value":${value}}`;
        return `{"type":"literal","value":${value},"datatype":${this.iri(datatype)}}`;
      }
      case 'Quad':
        // SPARQL 1.2: a triple term
        return `{"type":"triple","value":{"subject":${this.format(term.subject as AnswerTerm)},"predicate":${this.format(term.predicate as AnswerTerm)},"object":${this.format(term.object as AnswerTerm)}}}`;
      default:
        throw new TypeError(`not an answer term: ${(term as { termType: string }).termType}`);
    }
  }
}
