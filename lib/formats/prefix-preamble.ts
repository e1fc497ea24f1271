/**
 * The store's prefixes given to n3's Turtle/TriG parser, which takes no initial prefixes (its
 * `parse` starts every document with none): they are declared as `@prefix` directives on one
 * line written before the content, the preamble. This module writes that line, tells the
 * content's own prefix declarations from the preamble's, and maps the lines n3 reports back
 * to the content: line L of n3's input is line L - 1 of the content, columns unchanged (the
 * preamble ends with its own line break). The preamble's line is no line of the content and
 * maps to none (`formats/turtle-errors.ts` places n3's errors with it).
 *
 * Only prefixes Turtle can declare are written (a name that is a Turtle prefix name, an IRI
 * without the characters an IRI reference excludes); the store's checks admit no others, so
 * n3 never stumbles on the preamble. A byte order mark that starts the content is dropped, as
 * n3 drops one that starts its input.
 * @module
 */
import { PREFIX_NAME_RE } from './turtle-lexical.js';

/** IRIs an IRI reference (`<…>`) cannot hold as written. */
// eslint-disable-next-line no-control-regex
const NOT_IN_IRI_REFERENCE = /[\u0000-\u0020<>"{}|^`\\]/;

const BYTE_ORDER_MARK = '\ufeff';

/** The store's prefixes as a line before the content, and n3's positions mapped back (see the module header). */
export class PrefixPreamble {
  /** The preamble's text: empty without prefixes, else one line with its line break. */
  readonly text: string;
  /** The number of lines of n3's input before the content (0 or 1). */
  readonly lines: number;
  private readonly declared: number;
  private prefixesSeen = 0;
  private started = false;

  /** The preamble for `prefixes` (name with colon → IRI). */
  constructor(prefixes: ReadonlyMap<string, string>) {
    const directives: string[] = [];
    for (const [name, iri] of prefixes) {
      if (PREFIX_NAME_RE.test(name) && !NOT_IN_IRI_REFERENCE.test(iri)) directives.push(`@prefix ${name} <${iri}> .`);
    }
    this.declared = directives.length;
    this.text = directives.length === 0 ? '' : `${directives.join(' ')}\n`;
    this.lines = directives.length === 0 ? 0 : 1;
  }

  /**
   * The text to give n3 for the next piece of the content: the first non-empty piece comes
   * after the preamble, without a byte order mark that starts it.
   */
  input(content: string): string {
    if (this.started || content === '') return content;
    this.started = true;
    return this.text + (content.startsWith(BYTE_ORDER_MARK) ? content.slice(1) : content);
  }

  /** What is left to give n3 at the end of the content (the preamble, when the content was empty). */
  end(): string {
    if (this.started) return '';
    this.started = true;
    return this.text;
  }

  /**
   * Whether the prefix declaration n3 reports next is the content's own: n3 reports every
   * declaration in order, the preamble's first. A content that declares a store prefix again
   * overrides it, and that declaration is the content's.
   */
  contentPrefix(): boolean {
    return ++this.prefixesSeen > this.declared;
  }

  /** The content's line of line `line` of n3's input (undefined for the preamble's line). */
  contentLine(line: number): number | undefined {
    return line > this.lines ? line - this.lines : undefined;
  }
}
