/**
 * Answers as Turtle in the W3C result-set vocabulary (`application/x.sparql-results+turtle`
 * and `application/x.sparql-results+turtle-abbrev`), the form of the DAWG test results:
 *
 * ```turtle
 * @prefix rs: <http://www.w3.org/2001/sw/DataAccess/tests/result-set#> .
 *
 * [] a rs:ResultSet ;
 *     rs:resultVariable "x", "y" ;
 *     rs:solution [ rs:index 1 ; rs:binding [ rs:variable "x" ; rs:value <http://example.org/a> ] ] .
 * ```
 *
 * Each row is one `rs:solution`, numbered from 1 by `rs:index` (so that the order survives),
 * with one `rs:binding` per bound variable; a boolean answer is `rs:boolean`. Values are in
 * Turtle syntax (see `TurtleTermWriter`): full IRIs in the plain variant; in the `-abbrev`
 * variant the store's prefixes are declared and used, and with a base IRI `@base` is declared and
 * IRIs below it that no prefix abbreviates are written relative to it.
 * @module
 */
import { AnswerWriterBase, type AnswerTerm } from './answer-writer.js';
import { iriRef, relativizer, turtleString, TurtleTermWriter, type PrefixAbbreviator } from './term-syntax.js';

/** The namespace of the W3C result-set vocabulary. */
export const RESULT_SET_NAMESPACE = 'http://www.w3.org/2001/sw/DataAccess/tests/result-set#';

/** Writes answers as Turtle in the W3C result-set vocabulary. */
export class TurtleAnswerWriter extends AnswerWriterBase {
  /** The media type written, with a `charset` parameter where usual. */
  readonly contentType: string;
  protected readonly booleanSupported = true;
  protected readonly mediaType: string;
  private readonly terms: TurtleTermWriter;
  /** The `@base` and `@prefix` lines. */
  private readonly preamble: string;
  /** The prefix name used for the result-set vocabulary (with colon). */
  private readonly rs: string;
  /** `[ rs:variable "x" ; rs:value ` for each variable. */
  private bindingOpenings: string[] = [];
  private index = 0;

  /**
   * A writer to `sink` of the media type `mediaType`. With an abbreviator (the `-abbrev`
   * variant) its prefixes are declared and used, and `baseIRI`, when given, is declared and used.
   */
  constructor(sink: (chunk: string) => void, mediaType: string, abbreviator?: PrefixAbbreviator, baseIRI?: string) {
    super(sink);
    this.mediaType = mediaType;
    this.contentType = `${mediaType}; charset=utf-8`;
    let preamble = '';
    let relative: ((iri: string) => string | undefined) | undefined;
    if (abbreviator !== undefined && baseIRI !== undefined && baseIRI !== '') {
      preamble += `@base ${iriRef(baseIRI)} .\n`;
      relative = relativizer(baseIRI);
    }
    const declared = abbreviator?.prefixes ?? [];
    this.rs = declared.find(([, namespace]) => namespace === RESULT_SET_NAMESPACE)?.[0] ?? freeName(declared);
    if (!declared.some(([name]) => name === this.rs)) preamble += `@prefix ${this.rs} ${iriRef(RESULT_SET_NAMESPACE)} .\n`;
    for (const [name, namespace] of declared) preamble += `@prefix ${name} ${iriRef(namespace)} .\n`;
    this.preamble = `${preamble}\n`;
    this.terms = new TurtleTermWriter(abbreviator, relative);
  }

  protected writeBegin(variables: readonly string[]): void {
    const rs = this.rs;
    this.bindingOpenings = variables.map((v) => `[ ${rs}variable ${turtleString(v)} ; ${rs}value `);
    let out = `${this.preamble}[] a ${rs}ResultSet`;
    if (variables.length > 0) out += ` ;\n    ${rs}resultVariable ${variables.map(turtleString).join(', ')}`;
    this.sink(out);
  }

  protected writeRow(values: ReadonlyArray<AnswerTerm | undefined>): void {
    const rs = this.rs;
    let out = ` ;\n    ${rs}solution [ ${rs}index ${++this.index}`;
    let separator = ` ; ${rs}binding `;
    for (let i = 0; i < values.length; i++) {
      const value = values[i];
      if (value === undefined) continue;
      out += `${separator}${this.bindingOpenings[i]!}${this.terms.term(value)} ]`;
      separator = ', ';
    }
    this.sink(`${out} ]`);
  }

  protected writeEnd(): void {
    this.sink(' .\n');
  }

  protected writeBoolean(value: boolean): void {
    this.sink(`${this.preamble}[] a ${this.rs}ResultSet ;\n    ${this.rs}boolean ${value ? 'true' : 'false'} .\n`);
  }
}

/** `rs:`, or `rs1:`, `rs2:`, … when the store's prefixes already use it for something else. */
function freeName(declared: ReadonlyArray<readonly [string, string]>): string {
  const taken = new Set(declared.map(([name]) => name));
  if (!taken.has('rs:')) return 'rs:';
  for (let n = 1; ; n++) if (!taken.has(`rs${n}:`)) return `rs${n}:`;
}
