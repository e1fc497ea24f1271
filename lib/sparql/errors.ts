/**
 * The wording of mistakes in SPARQL texts, one per mistake, whichever path finds it (the
 * parser of an in-process call, or the look at a request's first keyword before an HTTP
 * endpoint chooses the answer format):
 *
 * - `syntax error in the SPARQL query at line 1, column 1: unexpected 'SELEC'` (or `… in the
 *   SPARQL update …`; `unexpected end of the query` when the text stops short);
 * - `unknown prefix 'ex:' at line 1, column 18: declare it in the input or add it to the
 *   store's prefixes` (the wording of every path, from `model/messages`);
 * - `wrong number of arguments in the SPARQL query at line 1, column 9: LOG takes 1 argument,
 *   got 2` for a call of one of RDFox's unprefixed function names (which sparqljs does not know,
 *   so it does not check them).
 *
 * Lines and columns are 1-based; columns count UTF-16 code units, and a line ends at `\n`,
 * `\r\n` or `\r`.
 * @module
 */
import { functionArityProblem } from '../expressions/function-names.js';
import { unknownPrefixMessage } from '../model/messages.js';
import { QueryCompilationError } from '../model/errors.js';

/** What a SPARQL text is meant to be, as its messages name it. */
export type SparqlTextKind = 'query' | 'update';

/** A 1-based line and column. */
export interface TextPosition {
  /** 1-based line. */
  readonly line: number;
  /** 1-based column (UTF-16 code units). */
  readonly column: number;
}

/** The offsets at which the lines of a text start. */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a || (c === 0x0d && text.charCodeAt(i + 1) !== 0x0a)) starts.push(i + 1);
  }
  return starts;
}

/** The line and column of an offset of a text. */
export function positionAt(text: string, offset: number): TextPosition {
  const starts = lineStarts(text);
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: offset - starts[lo]! + 1 };
}

/** The offset after the whitespace and comments that start at `offset`. */
export function skipSpace(text: string, offset: number): number {
  let i = offset;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '#') {
      while (i < text.length && text[i] !== '\n' && text[i] !== '\r') i++;
    } else if (/\s/.test(c)) i++;
    else break;
  }
  return i;
}

/** The longest token shown in a message; longer ones are cut with `…`. */
const SHOWN_TOKEN = 40;

/**
 * One token of SPARQL, roughly: an IRI, a string up to its closing quote (or the end of its
 * line), a variable, a prefixed name or keyword, a blank node label, a number, a two-character
 * operator, or else one character. Compiled on first use (Unicode classes are not free).
 */
let tokenPattern: RegExp | undefined;

/** The token pattern (sticky, Unicode). */
function tokenPatternOnce(): RegExp {
  tokenPattern ??= new RegExp(
    [
      '<[^<>"{}|^`\\\\\\u0000-\\u0020]*>',
      '"""[^]*?(?:"""|$)',
      "'''[^]*?(?:'''|$)",
      '"(?:[^"\\\\\\n\\r]|\\\\.)*"?',
      "'(?:[^'\\\\\\n\\r]|\\\\.)*'?",
      '[?$][\\p{L}\\p{N}\\p{M}_\\u00B7\\u203F\\u2040]+',
      '_:[\\p{L}\\p{N}\\p{M}_.\\-\\u00B7]*',
      '(?:[\\p{L}_][\\p{L}\\p{N}\\p{M}_.\\-\\u00B7]*)?:[\\p{L}\\p{N}\\p{M}_.\\-:%\\\\\\u00B7]*',
      '[\\p{L}_][\\p{L}\\p{N}\\p{M}_\\-]*',
      '[+-]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][+-]?\\d+)?',
      '\\^\\^|&&|\\|\\||!=|<=|>=|<<|>>|\\{\\||\\|\\}',
      '[^]',
    ].join('|'),
    'uy',
  );
  return tokenPattern;
}

/** The token of `text` that starts at `offset`, as a message shows it; undefined at the end. */
export function tokenAt(text: string, offset: number): string | undefined {
  if (offset >= text.length) return undefined;
  const pattern = tokenPatternOnce();
  pattern.lastIndex = offset;
  let token = pattern.exec(text)![0];
  // a prefixed name does not end with a dot (that dot ends the triple)
  if (token.length > 1 && /^[\p{L}_:]/u.test(token)) token = token.replace(/\.+$/, '');
  return token.length > SHOWN_TOKEN ? `${token.slice(0, SHOWN_TOKEN)}…` : token;
}

/**
 * The error for a syntax error at `offset` of `text` (the start of the unexpected token, or
 * the end of the text):
 * `syntax error in the SPARQL query at line L, column C: unexpected 'T'`.
 */
export function sparqlSyntaxError(kind: SparqlTextKind, text: string, offset: number, options?: ErrorOptions): QueryCompilationError {
  const at = skipSpace(text, offset);
  const { line, column } = positionAt(text, at);
  const token = tokenAt(text, at);
  const unexpected = token === undefined ? `end of the ${kind}` : `'${token}'`;
  return new QueryCompilationError(`syntax error in the SPARQL ${kind} at line ${line}, column ${column}: unexpected ${unexpected}`, options);
}

/**
 * The error for a prefixed name whose prefix (`prefix`, without the colon) is neither declared
 * nor one of the store's, used at `offset` of `text` (undefined: where is not known):
 * `unknown prefix 'ex:' at line L, column C: declare it in the input or add it to the store's prefixes`.
 */
export function unknownPrefixError(prefix: string, text: string, offset: number | undefined, options?: ErrorOptions): QueryCompilationError {
  const at = offset === undefined ? undefined : ((p) => `at line ${p.line}, column ${p.column}`)(positionAt(text, offset));
  return new QueryCompilationError(unknownPrefixMessage(prefix, at), options);
}

/**
 * Throws the error for the first call in `text` (as written) of one of RDFox's unprefixed
 * function names (`LOG`, `MINFN`, …) with a number of arguments the function does not take:
 * `wrong number of arguments in the SPARQL query at line L, column C: LOG takes 1 argument, got 2`.
 * Texts without such a name cost one regular-expression test.
 */
export function checkFunctionArity(text: string, kind: SparqlTextKind): void {
  const problem = functionArityProblem(text);
  if (problem === undefined) return;
  const { line, column } = positionAt(text, problem.offset);
  throw new QueryCompilationError(`wrong number of arguments in the SPARQL ${kind} at line ${line}, column ${column}: ${problem.message}`);
}
