/**
 * The errors of n3's Turtle and TriG parser, told in the user's terms: what is wrong
 * ("unterminated string", "missing '.' after the statement"), where (the line and column of
 * the offending text, not of the token n3 happened to read next), and the line quoted. n3
 * reports a lexer failure as `Unexpected "<text up to the next space>"` and a grammar failure
 * with the token it met and the one before; this module reads both against the line's text.
 * @module
 */
import { unknownPrefixMessage } from '../model/messages.js';
import { NOT_SHOWN_NOTE, UNKNOWN_PREFIX_NOT_SHOWN } from './hidden-content.js';

/** A token as n3 describes it in an error's context (lines 1-based, columns 0-based). */
export interface N3Token {
  /** The token's type (`literal`, `prefixed`, `.`, `eof`, …). */
  readonly type?: string | undefined;
  /** Its value (a prefixed name's local part, a literal's text…). */
  readonly value?: string | undefined;
  /** A prefixed name's prefix. */
  readonly prefix?: string | undefined;
  /** The line it starts on. */
  readonly line?: number | undefined;
  /** The line a token that spans lines ends on (absent: {@link N3Token.line}). */
  readonly endLine?: number | undefined;
  /** The column it starts at (0-based), on {@link N3Token.line}. */
  readonly start?: number | undefined;
  /** The column just after it (0-based), on its last line. */
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

/** A parse error as it is reported: the message, and where. */
export interface DescribedError {
  /** What is wrong, in the user's terms. */
  readonly message: string;
  /** The line (1-based) in the user's text. */
  readonly line?: number;
  /** The column (1-based). */
  readonly column?: number;
}

/** How {@link describeTurtleError} reads the text and reports positions. */
export interface TurtleErrorOptions {
  /** Whether the message may quote the input (false for content read by IRI). */
  readonly showContent: boolean;
  /** The text of a line as n3 numbered it, when still known. */
  readonly lineText?: (line: number) => string | undefined;
  /**
   * The user's line of a line as n3 numbered it (n3 may have read lines before the user's);
   * undefined for a line that is not the user's, whose positions are then not reported.
   */
  readonly mapLine?: (line: number) => number | undefined;
}

/** Lines longer than this are quoted around the error's column only. */
const QUOTE_WIDTH = 100;

/** Characters a Turtle IRI may not hold, with their names. */
const IRI_FORBIDDEN: Readonly<Record<string, string>> = {
  ' ': 'a space',
  '\t': 'a tab',
  '"': "'\"'",
  '{': "'{'",
  '}': "'}'",
  '|': "'|'",
  '^': "'^'",
  '`': "'`'",
  '<': "'<'",
};

/** The escapes Turtle allows in strings (after the backslash). */
const STRING_ESCAPES = new Set(['t', 'b', 'n', 'r', 'f', '"', "'", '\\', 'u', 'U']);

/**
 * Describes an error of n3's parser (`error.context` as n3 sets it) in the user's terms, at
 * the line and column of the offending text, quoting the line when the content may be shown.
 */
export function describeTurtleError(error: Error & { context?: N3ErrorContext }, options: TurtleErrorOptions): DescribedError {
  const context = error.context ?? {};
  const text = error.message.replace(/ on line \d+\.$/, '');
  const found = diagnose(text, context, options);
  const n3Line = found.line ?? context.line;
  const line = n3Line === undefined ? undefined : options.mapLine ? options.mapLine(n3Line) : n3Line;
  if (line === undefined) return { message: found.message };
  const lineText = options.lineText?.(n3Line!);
  let message = found.message;
  if (options.showContent && found.quote !== false && lineText !== undefined && lineText.trim() !== '') message += ` (in: ${quoteLine(lineText, found.column)})`;
  return { message, line, column: found.column === undefined || found.line === undefined ? undefined : found.column + 1 };
}

/** What is wrong and where, in n3's line numbers and 0-based columns. */
interface Diagnosis {
  readonly message: string;
  readonly line?: number | undefined;
  readonly column?: number | undefined;
  /** Whether the line is quoted (default true). */
  readonly quote?: boolean;
}

function diagnose(text: string, context: N3ErrorContext, options: TurtleErrorOptions): Diagnosis {
  const { token, previousToken: previous } = context;
  const show = options.showContent;
  const undefinedPrefix = /^Undefined prefix "([^"]*)"$/.exec(text);
  if (undefinedPrefix) {
    // (named, as Datalog's reader says it: no quotation of the line)
    return { message: show ? unknownPrefixMessage(undefinedPrefix[1]!) : UNKNOWN_PREFIX_NOT_SHOWN, line: token?.line, column: token?.start, quote: false };
  }
  if (text.startsWith('Expected punctuation to follow')) {
    if (previous !== undefined && (token === undefined || token.type === 'eof' || (token.line ?? 0) > lastLine(previous))) {
      return { message: "missing '.' after the statement", line: lastLine(previous), column: previous.end };
    }
    return { message: `expected '.', ';', ',' or a closing bracket after ${describeToken(previous, show)}, found ${describeToken(token, show)}`, line: token?.line, column: token?.start };
  }
  if (text.startsWith('Expected entity but got')) {
    if (token?.type !== undefined && /^@[A-Za-z]/.test(token.type)) {
      return { message: show ? `unknown directive '${token.type}': expected @prefix or @base` : 'unknown directive: expected @prefix or @base', line: token.line, column: token.start };
    }
    if (token?.type === 'eof') return { message: `the input ends inside a statement: a term is missing after ${describeToken(previous, show)}`, line: previous === undefined ? undefined : lastLine(previous), column: previous?.end };
    return { message: `expected a term (an IRI, a prefixed name, a blank node or a literal), found ${describeToken(token, show)}`, line: token?.line, column: token?.start };
  }
  if (text.startsWith('Expected prefix to follow')) {
    return { message: "invalid prefix declaration: expected a prefix name ending with ':' (such as ex:)", line: token?.line, column: token?.start };
  }
  if (text.startsWith('Expected IRI to follow prefix')) {
    return { message: 'expected an IRI in <…> after the prefix name of @prefix', line: token?.line, column: token?.start };
  }
  if (text === 'Unexpected literal' && token !== undefined) {
    return { message: 'a literal can only be the object of a triple', line: token.line, column: token.start };
  }
  const lexical = /^Unexpected "([\s\S]*)"$/.exec(text);
  if (lexical && token === undefined) return diagnoseLexical(lexical[1]!, context, options);
  if (token !== undefined && /^Unexpected /.test(text)) {
    return { message: `unexpected ${describeToken(token, show)}`, line: token.line, column: token.start };
  }
  // a message of n3's this module does not know: it may quote the input
  return { message: show ? text : `the text is not valid Turtle (the text is not shown: ${NOT_SHOWN_NOTE})`, line: token?.line, column: token?.start };
}

/**
 * A lexer failure: `snippet` is the text from where the lexer stopped to the next white space.
 * The column is where the snippet starts on its line (searched from the end of the token
 * before, which n3 does give).
 */
function diagnoseLexical(snippet: string, context: N3ErrorContext, options: TurtleErrorOptions): Diagnosis {
  const previous = context.previousToken;
  const line = context.line;
  const lineText = line === undefined ? undefined : options.lineText?.(line);
  let column: number | undefined;
  if (lineText !== undefined) {
    const from = previous !== undefined && lastLine(previous) === line ? (previous.end ?? 0) : 0;
    const at = lineText.indexOf(snippet, from);
    if (at >= 0) column = at;
  }
  const rest = lineText !== undefined && column !== undefined ? lineText.slice(column) : snippet;
  const show = options.showContent;
  const first = snippet[0];
  if (first === '"' || first === "'") {
    if (snippet.startsWith(first.repeat(3))) return { message: `unterminated long string: no closing ${first.repeat(3)} before the end of the input`, line, column };
    const escape = badEscape(rest);
    if (escape !== undefined) return { message: `invalid escape sequence ${show ? `'\\${escape}' ` : ''}in a string (allowed: \\t \\b \\n \\r \\f \\" \\' \\\\ \\uXXXX \\UXXXXXXXX)`, line, column };
    if (closingQuote(rest, first) < 0) return { message: `unterminated string: no closing ${first} on the line`, line, column };
    return { message: 'invalid string', line, column };
  }
  if (first === '<') {
    const close = rest.indexOf('>');
    if (close < 0) return { message: "unterminated IRI: no closing '>' on the line", line, column };
    const iri = rest.slice(1, close);
    for (let i = 0; i < iri.length; i++) {
      const name = IRI_FORBIDDEN[iri[i]!] ?? (iri.charCodeAt(i) <= 0x20 ? 'a control character' : undefined);
      if (name !== undefined) return { message: `an IRI may not hold ${name}${show ? `: <${iri}>` : ''}`, line, column: column === undefined ? undefined : column + 1 + i };
    }
    return { message: show ? `invalid IRI <${iri}>` : 'invalid IRI', line, column };
  }
  if (first === '@') {
    if (previous?.type === 'literal') return { message: "invalid language tag: expected letters after '@' (such as @en or @en-GB)", line, column };
    return { message: show ? `unknown directive '${/^@[A-Za-z]*/.exec(snippet)![0]}': expected @prefix or @base` : 'unknown directive: expected @prefix or @base', line, column };
  }
  if (previous?.type === '@prefix' || previous?.type === 'PREFIX') {
    return { message: "invalid prefix declaration: expected a prefix name ending with ':' (such as ex:)", line, column };
  }
  if (first === '^') return { message: "invalid datatype: expected '^^' followed by an IRI or a prefixed name", line, column };
  return { message: show ? `unexpected text '${truncate(snippet, 40)}'` : `unexpected text (the text is not shown: ${NOT_SHOWN_NOTE})`, line, column };
}

/** The line a token ends on. */
function lastLine(token: N3Token): number {
  return token.endLine ?? token.line ?? 0;
}

/** The index of the quote closing a short string that starts at `text[0]`, or -1. */
function closingQuote(text: string, quote: string): number {
  for (let i = 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === quote) return i;
  }
  return -1;
}

/** The character after the first backslash of the string at `text[0]` that is not a Turtle escape. */
function badEscape(text: string): string | undefined {
  const end = closingQuote(text, text[0]!);
  const body = end < 0 ? text : text.slice(0, end);
  for (let i = 1; i < body.length; i++) {
    if (body[i] !== '\\') continue;
    const next = body[i + 1];
    if (next !== undefined && !STRING_ESCAPES.has(next)) return next;
    i++;
  }
  return undefined;
}

/** A token as the user wrote it (its kind only, when the content is not shown). */
function describeToken(token: N3Token | undefined, show: boolean): string {
  if (token === undefined) return 'the previous term';
  switch (token.type) {
    case 'eof':
      return 'the end of the input';
    case '.':
    case ';':
    case ',':
    case '[':
    case ']':
    case '(':
    case ')':
    case '{':
    case '}':
      return `'${token.type}'`;
    case 'prefixed':
      return show ? `${token.prefix ?? ''}:${token.value ?? ''}` : 'a prefixed name';
    case 'IRI':
      return show ? `<${token.value ?? ''}>` : 'an IRI';
    case 'literal':
      return 'a literal';
    case 'blank':
      return 'a blank node';
    default:
      if (token.type === undefined) return 'a token';
      if (!show) return /^[.;,()[\]{}]+$/.test(token.type) ? `'${token.type}'` : 'a token';
      return `'${token.value || token.type}'`;
  }
}

/** The line, trimmed, or the part of a long one around `column`. */
function quoteLine(line: string, column: number | undefined): string {
  const text = line.replace(/\s+$/, '');
  if (text.length <= QUOTE_WIDTH) return text.trim();
  const at = column ?? 0;
  const start = Math.max(0, Math.min(at - QUOTE_WIDTH / 2, text.length - QUOTE_WIDTH));
  return `${start > 0 ? '…' : ''}${text.slice(start, start + QUOTE_WIDTH).trim()}${start + QUOTE_WIDTH < text.length ? '…' : ''}`;
}

function truncate(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, width)}…`;
}

/**
 * The last lines of a text given to n3 piece by piece, by n3's line numbers (lines end at
 * `\n`), so that an error can quote the line it is on: at least the last 64 KiB are kept.
 */
export class RecentLines {
  private text = '';
  /** n3's number of the first line of {@link RecentLines.text}. */
  private first = 1;

  /** Takes the next piece of n3's input. */
  add(piece: string): void {
    this.text += piece;
    if (this.text.length <= 2 * KEEP) return;
    const cut = this.text.indexOf('\n', this.text.length - KEEP);
    if (cut < 0) return;
    for (let i = this.text.indexOf('\n'); i >= 0 && i <= cut; i = this.text.indexOf('\n', i + 1)) this.first++;
    this.text = this.text.slice(cut + 1);
  }

  /** The text of n3's line `line`, when it is still kept. */
  line(line: number): string | undefined {
    if (line < this.first) return undefined;
    let start = 0;
    for (let l = this.first; l < line; l++) {
      start = this.text.indexOf('\n', start) + 1;
      if (start === 0) return undefined;
    }
    const end = this.text.indexOf('\n', start);
    return (end < 0 ? this.text.slice(start) : this.text.slice(start, end)).replace(/\r$/, '');
  }
}

/** The characters of recent input {@link RecentLines} keeps at least. */
const KEEP = 64 * 1024;
