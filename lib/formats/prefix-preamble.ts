/**
 * The store's prefixes given to n3's Turtle/TriG parser, which takes no initial prefixes (its
 * `parse` starts every document with none): they are declared as `@prefix` directives on one
 * line written before the content, the preamble. This module writes that line, tells the
 * content's own prefix declarations from the preamble's, and maps the positions n3 reports
 * back to the content: line L of n3's input is line L - 1 of the content, columns unchanged
 * (the preamble ends with its own line break). A position on the preamble's line is in no
 * line of the content and maps to none.
 *
 * Only prefixes Turtle can declare are written (a name that is a Turtle prefix name, an IRI
 * without the characters an IRI reference excludes); the store's checks admit no others, so
 * n3 never stumbles on the preamble. A byte order mark that starts the content is dropped, as
 * n3 drops one that starts its input.
 * @module
 */
import { PREFIX_NAME_RE } from './turtle-lexical.js';

/** A position in the content: 1-based line and column; absent parts are unknown. */
export interface ContentPosition {
  /** The 1-based line of the content, when known. */
  readonly line?: number | undefined;
  /** The 1-based column (UTF-16 code units, as n3 counts) of that line, when known. */
  readonly column?: number | undefined;
}

/** A token as n3's lexer describes it in an error's context (lines 1-based, columns 0-based). */
export interface N3Token {
  /** The line the token starts on. */
  readonly line?: number | undefined;
  /** The line a token that spans lines ends on (absent: {@link N3Token.line}). */
  readonly endLine?: number | undefined;
  /** The column the token starts at, on {@link N3Token.line}. */
  readonly start?: number | undefined;
  /** The column just after the token, on its last line. */
  readonly end?: number | undefined;
}

/** The context n3 attaches to a syntax error (`error.context`). */
export interface N3ErrorContext {
  /** The line of n3's input where the error was found. */
  readonly line?: number | undefined;
  /** The offending token, when the parser (not the lexer) found the error. */
  readonly token?: N3Token | undefined;
  /** The token read before the error. */
  readonly previousToken?: N3Token | undefined;
}

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

  /** The content's position of an error n3 reports with `context` (none for a position in the preamble). */
  position(context: N3ErrorContext | undefined): ContentPosition {
    const at = context?.line;
    if (at === undefined || at <= this.lines) return {};
    const line = at - this.lines;
    const token = context?.token;
    if (token?.start !== undefined && (token.line ?? at) === at) return { line, column: token.start + 1 };
    const previous = context?.previousToken;
    if (previous?.end !== undefined && (previous.endLine ?? previous.line) === at) return { line, column: previous.end + 1 };
    return { line };
  }
}
