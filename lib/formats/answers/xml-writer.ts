/**
 * The SPARQL Query Results XML Format (`application/sparql-results+xml`) and its abbreviating
 * variant (`application/x.sparql-results+xml-abbrev`).
 *
 * Output: the XML declaration, `<sparql>` with the head (one `<variable>` per column) and
 * `<results>` at `begin`, one `<result>` per row (a `<binding>` for each bound variable, holding
 * `<uri>`, `<bnode>` or `<literal>` with `xml:lang` or `datatype`), and the closing tags at
 * `end`; a boolean answer is an empty head and `<boolean>`.
 *
 * Escaping: `&`, `<` and `>` in text, plus `"` and tab, line feed and carriage return (as
 * character references, so that they survive attribute-value normalisation) in attributes; a
 * carriage return in text is written `&#13;` so that it survives line-end normalisation.
 * Characters XML 1.0 cannot hold at all (control characters other than tab, line feed and
 * carriage return, U+FFFE, U+FFFF and unpaired surrogates) are written as U+FFFD.
 * @module
 */
import { XSD_STRING, directionOf } from '../../model/terms.js';
import { AnswerWriterBase, type AnswerTerm } from './answer-writer.js';
import type { PrefixAbbreviator } from './term-syntax.js';

/** The namespace of the SPARQL results XML format. */
export const SPARQL_RESULTS_NAMESPACE = 'http://www.w3.org/2005/sparql-results#';
/** The namespace of the `its:dir` attribute giving a literal's base direction (SPARQL 1.2). */
export const ITS_NAMESPACE = 'http://www.w3.org/2005/11/its';

// eslint-disable-next-line no-control-regex
const TEXT_SPECIAL_RE = /[&<>\r\u0000-\u0008\u000b\u000c\u000e-\u001f\ud800-\udfff\ufffe\uffff]/;
// eslint-disable-next-line no-control-regex
const ATTRIBUTE_SPECIAL_RE = /[&<>"\t\n\r\u0000-\u0008\u000b\u000c\u000e-\u001f\ud800-\udfff\ufffe\uffff]/;
const SPECIAL_G =
  // eslint-disable-next-line no-control-regex
  /[&<>"\t\n\r\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff][\udc00-\udfff]|[\ud800-\udfff]/g;

const REFERENCES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  '\t': '&#9;',
  '\n': '&#10;',
  '\r': '&#13;',
};

function replaceSpecial(c: string, attribute: boolean): string {
  if (c.length === 2) return c; // a surrogate pair: a valid character
  if (!attribute && (c === '"' || c === '\t' || c === '\n')) return c;
  return REFERENCES[c] ?? '\uFFFD';
}

/** Escapes text content. */
export function escapeXmlText(text: string): string {
  return TEXT_SPECIAL_RE.test(text) ? text.replace(SPECIAL_G, (c) => replaceSpecial(c, false)) : text;
}

/** Escapes an attribute value (to be written in double quotes). */
export function escapeXmlAttribute(text: string): string {
  return ATTRIBUTE_SPECIAL_RE.test(text) ? text.replace(SPECIAL_G, (c) => replaceSpecial(c, true)) : text;
}

/** Writes answers in the SPARQL XML results format. */
export class XmlAnswerWriter extends AnswerWriterBase {
  protected readonly booleanSupported = true;
  /** `<binding name="…">` of each variable. */
  private openings: string[] = [];

  /**
   * A writer to `sink` of the media type `mediaType`; with an abbreviator, IRIs (`<uri>` contents
   * and datatypes) that a prefix abbreviates are written as prefixed names.
   */
  constructor(
    sink: (chunk: string) => void,
    mediaType: string,
    private readonly abbreviator?: PrefixAbbreviator,
  ) {
    super(sink, mediaType, true);
  }

  protected writeBegin(variables: readonly string[]): void {
    this.openings = variables.map((v) => `<binding name="${escapeXmlAttribute(v)}">`);
    let out = `<?xml version="1.0"?>\n<sparql xmlns="${SPARQL_RESULTS_NAMESPACE}">\n  <head>\n`;
    for (const v of variables) out += `    <variable name="${escapeXmlAttribute(v)}"/>\n`;
    this.sink(`${out}  </head>\n  <results>\n`);
  }

  protected writeRow(values: ReadonlyArray<AnswerTerm | undefined>): void {
    let out = '    <result>\n';
    for (let i = 0; i < values.length; i++) {
      const value = values[i];
      if (value !== undefined) out += `      ${this.openings[i]!}${this.term(value)}</binding>\n`;
    }
    this.sink(`${out}    </result>\n`);
  }

  protected writeEnd(): void {
    this.sink('  </results>\n</sparql>\n');
  }

  protected writeBoolean(value: boolean): void {
    this.sink(
      `<?xml version="1.0"?>\n<sparql xmlns="${SPARQL_RESULTS_NAMESPACE}">\n  <head/>\n  <boolean>${value ? 'true' : 'false'}</boolean>\n</sparql>\n`,
    );
  }

  private iri(iri: string): string {
    return this.abbreviator?.abbreviate(iri) ?? iri;
  }

  private term(term: AnswerTerm): string {
    switch (term.termType) {
      case 'NamedNode':
        return `<uri>${escapeXmlText(this.iri(term.value))}</uri>`;
      case 'BlankNode':
        return `<bnode>${escapeXmlText(term.value)}</bnode>`;
      case 'Literal': {
        const value = escapeXmlText(term.value);
        if (term.language !== '') {
          const direction = directionOf(term);
          // the its: namespace is declared where it is used, so that RDF 1.1 answers stay as they were
          const dir = direction ? ` its:dir="${escapeXmlAttribute(direction)}" xmlns:its="${ITS_NAMESPACE}" its:version="2.0"` : '';
          return `<literal xml:lang="${escapeXmlAttribute(term.language)}"${dir}>${value}</literal>`;
        }
        const datatype = term.datatype.value;
        if (datatype === XSD_STRING) return `<literal>${value}</literal>`;
        return `<literal datatype="${escapeXmlAttribute(this.iri(datatype))}">${value}</literal>`;
      }
      case 'Quad':
        // SPARQL 1.2: a triple term
        return `<triple><subject>${this.term(term.subject as AnswerTerm)}</subject><predicate>${this.term(term.predicate as AnswerTerm)}</predicate><object>${this.term(term.object as AnswerTerm)}</object></triple>`;
      default:
        throw new TypeError(`not an answer term: ${(term as { termType: string }).termType}`);
    }
  }
}
