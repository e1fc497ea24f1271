/**
 * Parser of Datalog programs in RDFox's rule syntax (media type `application/x.datalog`).
 *
 * A document is a sequence of statements:
 * - prefix and base declarations: `@prefix p: <iri> .`, `@base <iri> .` (Turtle style, with
 *   the final dot) and `PREFIX p: <iri>`, `BASE <iri>` (SPARQL style, without it);
 * - ground facts `A .` where `A` is a tuple table atom;
 * - rules `H1, …, Hj :- B1, …, Bk .` (the body may be empty).
 *
 * Tuple table atoms are written `[s, p, o]` (default graph), `p[s, o]` (`p` an IRI),
 * `C[s]` (`[s, rdf:type, C]`, `C` an IRI), each optionally followed by a graph term
 * (`[s, p, o] :G`, a named graph atom), or `Name(t1, …, tn)` where `Name` is an identifier
 * or a quoted string (a general atom over any tuple table). Triple forms are normalised to
 * `DefaultTriples(s, p, o)` and `Quads(s, p, o, g)`.
 *
 * Body formulas are tuple table atoms, `FILTER(expr)`, `BIND(expr AS ?v)`, negations
 * (`NOT A`, `NOT(A1, …, Ak)`, `NOT EXIST[S] ?v1, …, ?vj IN A` and
 * `NOT EXIST[S] ?v1, …, ?vj IN (A1, …, Ak)`) and aggregates
 * (`AGGREGATE(B1, …, Bk ON ?g1 … ?gn BIND f(expr) AS ?v …)`). Keywords are case-insensitive,
 * so a tuple table whose name is a keyword (`NOT`, `FILTER`, …) must be written as a quoted
 * string. Expressions are SPARQL 1.1 expressions, delimited here by balanced parentheses
 * (respecting strings, IRIs and comments) and parsed by sparqljs and sparqlalgebrajs.
 *
 * Errors carry the 1-based line and column (in UTF-16 code units) of the offending token; after
 * an error the parser skips to the dot ending the statement and goes on, so every bad
 * statement is reported. The parser checks syntax only (not safety or stratification).
 * @module
 */
import type * as RDF from '@rdfjs/types/data-model.js';
import { DataFactory } from 'n3';
import { Algebra, sparqlParser, translate } from '../expressions/sparql-libraries.js';
import { type FunctionNameRewrite, rewriteFunctionNames } from '../expressions/function-names.js';
import { MAX_NESTING_DEPTH, nestingMessage, treeTooDeep } from '../expressions/nesting.js';
import type {
  AggregateBinding,
  AggregateFunction,
  AggregateLiteral,
  BindLiteral,
  BodyLiteral,
  AtomTerm,
  DatalogDocument,
  FilterLiteral,
  NegationLiteral,
  Rule,
  SourcePosition,
  TupleAtom,
} from '../datalog/ast.js';
import { RDF_NS, XSD } from '../model/terms.js';
import { unknownPrefixMessage } from '../model/messages.js';
import { DATALOG_STATEMENT_NOT_SHOWN, UNKNOWN_PREFIX_NOT_SHOWN } from './hidden-content.js';
import { PN_CHARS, PN_CHARS_BASE, PN_CHARS_OR_DOT, PN_CHARS_U, VARNAME } from './turtle-lexical.js';

/** A syntax error found by {@link parseDatalog}. */
export interface DatalogParseError {
  /** 1-based line of the offending token. */
  readonly line: number;
  /** 1-based column (UTF-16 code units) of the offending token. */
  readonly column: number;
  /** What was expected and what was found. */
  readonly message: string;
}

/** Options of {@link parseDatalog}. */
export interface DatalogParseOptions {
  /** The base IRI against which relative IRIs are resolved (a document's `@base` overrides it). */
  readonly baseIRI?: string;
  /**
   * Prefixes known before the document starts (the store's), name with colon → IRI; the
   * document's declarations override them.
   */
  readonly prefixes?: ReadonlyMap<string, string>;
  /**
   * Whether error messages may quote the text (default true): false for text the caller did not
   * give itself (fetched by IRI), whose errors then say what was expected and what kind of token
   * was found, or only that the statement is not valid, but never quote it.
   */
  readonly showContent?: boolean;
}

/** The result of {@link parseDatalog}: everything that parsed, and the errors. */
export interface DatalogParseResult {
  /** The rules and facts of the statements without errors, and the declared prefixes. */
  readonly document: DatalogDocument;
  /** The syntax errors, in document order (at most one per statement). */
  readonly errors: readonly DatalogParseError[];
}

/** The tuple table of default graph atoms. */
const DEFAULT_TRIPLES = 'DefaultTriples';
/** The tuple table of named graph atoms. */
const QUADS = 'Quads';
const RDF_TYPE = `${RDF_NS}type`;

// ---------------------------------------------------------------------------
// Lexer
// ---------------------------------------------------------------------------

type TokenKind =
  | 'iri'
  | 'pname'
  | 'var'
  | 'bnode'
  | 'string'
  | 'langtag'
  | 'integer'
  | 'decimal'
  | 'double'
  | 'name'
  | 'punct'
  | 'error'
  | 'eof';

interface Token {
  readonly kind: TokenKind;
  /**
   * iri: the IRI (escapes resolved, not yet resolved against the base); pname: the local part
   * (escapes resolved); var: the name; bnode: the label; string: the value; langtag: the tag
   * without `@`; numbers: the lexical form; name: the identifier; punct: the symbol;
   * error: the message.
   */
  readonly value: string;
  /** pname: the prefix (without colon). */
  readonly prefix: string;
  /** Offset of the first character. */
  readonly start: number;
  /** Offset after the last character. */
  readonly end: number;
}

const PN_PREFIX_RE = new RegExp(`[${PN_CHARS_BASE}](?:${PN_CHARS_OR_DOT}*${PN_CHARS})?`, 'uy');
const PN_CHARS_U_RE = new RegExp(`^[${PN_CHARS_U}]$`, 'u');
const PN_CHARS_RE = new RegExp(`^${PN_CHARS}$`, 'u');
const VARNAME_RE = new RegExp(VARNAME, 'uy');
const BNODE_LABEL_RE = new RegExp(`[${PN_CHARS_U}0-9](?:${PN_CHARS_OR_DOT}*${PN_CHARS})?`, 'uy');
const IDENTIFIER_RE = /[A-Za-z_][A-Za-z0-9_]*/y;
// a language tag, with an RDF 1.2 base direction after `--` (`en--ltr`)
const LANGTAG_RE = /[A-Za-z]+(?:-[A-Za-z0-9]+)*(?:--[A-Za-z]+)?/y;
const NUMBER_RE =
  /[+-]?(?:[0-9]+\.[0-9]*[eE][+-]?[0-9]+|\.[0-9]+[eE][+-]?[0-9]+|[0-9]+[eE][+-]?[0-9]+|[0-9]*\.[0-9]+|[0-9]+)/y;
const HEX_RE = /^[0-9A-Fa-f]+$/;
const LOCAL_ESCAPABLE = "_~.-!$&'()*+,;=/?#@%";
const ECHAR: Readonly<Record<string, string>> = {
  t: '\t',
  b: '\b',
  n: '\n',
  r: '\r',
  f: '\f',
  '"': '"',
  "'": "'",
  '\\': '\\',
};
// `<<(` and `)>>` enclose an RDF 1.2 triple term
const MULTI_CHAR_PUNCT = ['<<(', ')>>', ':-', '^^', '&&', '||', '!=', '>=', '<='];
/** The binary operators of expressions, each a level of the parsed tree when chained. */
const CHAIN_OPERATORS: ReadonlySet<string> = new Set(['+', '-', '*', '/', '&&', '||', '=', '!=', '<', '>', '<=', '>=']);

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}

function isHexPair(text: string, at: number): boolean {
  const pair = text.slice(at, at + 2);
  return pair.length === 2 && HEX_RE.test(pair);
}

/** Splits `text` into tokens; lexical errors become `error` tokens, the last token is `eof`. */
function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  const n = text.length;
  let i = text.startsWith('\uFEFF') ? 1 : 0; // a byte order mark
  const push = (kind: TokenKind, value: string, start: number, end: number, prefix = ''): void => {
    tokens.push({ kind, value, prefix, start, end });
  };

  /** Decodes `\uXXXX` / `\UXXXXXXXX` at `at` (pointing at the backslash); undefined if invalid. */
  const uchar = (at: number): { char: string; length: number } | undefined => {
    const len = text[at + 1] === 'u' ? 4 : text[at + 1] === 'U' ? 8 : 0;
    if (len === 0) return undefined;
    const hex = text.slice(at + 2, at + 2 + len);
    if (hex.length !== len || !HEX_RE.test(hex)) return undefined;
    const code = parseInt(hex, 16);
    if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return undefined;
    return { char: String.fromCodePoint(code), length: len + 2 };
  };

  /** An IRIREF starting at `i` (the `<`), or undefined if there is none. */
  const iriRef = (): { value: string; end: number } | undefined => {
    let j = i + 1;
    let value = '';
    while (j < n) {
      const c = text[j]!;
      if (c === '>') return { value, end: j + 1 };
      if (c === '\\') {
        const u = uchar(j);
        if (!u) return undefined;
        value += u.char;
        j += u.length;
        continue;
      }
      if (c <= ' ' || '<"{}|^`'.includes(c)) return undefined;
      value += c;
      j++;
    }
    return undefined;
  };

  /** A string literal starting at `i`. */
  const stringLiteral = (): void => {
    const quote = text[i]!;
    const long = text[i + 1] === quote && text[i + 2] === quote;
    let j = i + (long ? 3 : 1);
    let value = '';
    let error: string | undefined;
    for (;;) {
      if (j >= n) {
        push('error', 'unterminated string literal', i, n);
        i = n;
        return;
      }
      const c = text[j]!;
      if (long) {
        if (c === quote && text[j + 1] === quote && text[j + 2] === quote) {
          // A long string may end with one or two quote characters before the closing triple.
          while (text[j + 3] === quote) {
            value += quote;
            j++;
          }
          j += 3;
          break;
        }
      } else if (c === quote) {
        j++;
        break;
      } else if (c === '\n' || c === '\r') {
        push('error', 'unterminated string literal (use """…""" for strings spanning lines)', i, j);
        i = j;
        return;
      }
      if (c === '\\') {
        const next = text[j + 1];
        const echar = next === undefined ? undefined : ECHAR[next];
        if (echar !== undefined) {
          value += echar;
          j += 2;
          continue;
        }
        const u = uchar(j);
        if (u) {
          value += u.char;
          j += u.length;
          continue;
        }
        error ??= `invalid escape sequence '\\${next ?? ''}' in string literal`;
        j += next === undefined ? 1 : 2;
        continue;
      }
      value += c;
      j++;
    }
    if (error !== undefined) push('error', error, i, j);
    else push('string', value, i, j);
    i = j;
  };

  /** The local part of a prefixed name starting at `i`; returns its decoded value. */
  const localName = (): string => {
    let j = i;
    let lastGood = i;
    let first = true;
    while (j < n) {
      const c = text[j]!;
      let length: number;
      if (c === '%') {
        if (!isHexPair(text, j + 1)) break;
        length = 3;
      } else if (c === '\\') {
        const e = text[j + 1];
        if (e === undefined || !LOCAL_ESCAPABLE.includes(e)) break;
        length = 2;
      } else if (c === ':') {
        // `:-` ends the name (it is the rule arrow), which is what one means in `… :G:- …`.
        if (text[j + 1] === '-') break;
        length = 1;
      } else if (c === '.') {
        if (first) break;
        j++;
        continue; // a dot is kept only if something follows it
      } else {
        const cp = String.fromCodePoint(text.codePointAt(j)!);
        const ok = first ? PN_CHARS_U_RE.test(cp) || isDigit(cp) : PN_CHARS_RE.test(cp);
        if (!ok) break;
        length = cp.length;
      }
      j += length;
      lastGood = j;
      first = false;
    }
    const raw = text.slice(i, lastGood);
    i = lastGood;
    return raw.replace(/\\(.)/g, '$1');
  };

  for (;;) {
    // White space and comments.
    while (i < n) {
      const c = text[i]!;
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r') i++;
      else if (c === '#') {
        while (i < n && text[i] !== '\n' && text[i] !== '\r') i++;
      } else break;
    }
    if (i >= n) {
      push('eof', '', n, n);
      return tokens;
    }
    const start = i;
    const c = text[i]!;
    const next = text[i + 1];

    if (c === '<') {
      const iri = iriRef();
      if (iri) {
        push('iri', iri.value, start, iri.end);
        i = iri.end;
        continue;
      }
    } else if (c === '"' || c === "'") {
      stringLiteral();
      continue;
    } else if (c === '?' || c === '$') {
      VARNAME_RE.lastIndex = i + 1;
      const m = VARNAME_RE.exec(text);
      if (m) {
        i = i + 1 + m[0].length;
        push('var', m[0], start, i);
        continue;
      }
    } else if (c === '_' && next === ':') {
      BNODE_LABEL_RE.lastIndex = i + 2;
      const m = BNODE_LABEL_RE.exec(text);
      if (m) {
        i = i + 2 + m[0].length;
        push('bnode', m[0], start, i);
      } else {
        i += 2;
        push('error', 'invalid blank node label after _:', start, i);
      }
      continue;
    } else if (c === '@') {
      LANGTAG_RE.lastIndex = i + 1;
      const m = LANGTAG_RE.exec(text);
      if (m) {
        i = i + 1 + m[0].length;
        push('langtag', m[0], start, i);
        continue;
      }
    } else if (
      isDigit(c) ||
      (c === '.' && isDigit(next)) ||
      ((c === '+' || c === '-') && (isDigit(next) || (next === '.' && isDigit(text[i + 2]))))
    ) {
      NUMBER_RE.lastIndex = i;
      const m = NUMBER_RE.exec(text);
      if (m) {
        const lexical = m[0];
        i += lexical.length;
        push(/[eE]/.test(lexical) ? 'double' : lexical.includes('.') ? 'decimal' : 'integer', lexical, start, i);
        continue;
      }
    } else if (c === ':' && next === '-') {
      i += 2;
      push('punct', ':-', start, i);
      continue;
    }

    // Prefixed names and identifiers.
    let prefix: string | undefined;
    if (c === ':') prefix = '';
    else {
      PN_PREFIX_RE.lastIndex = i;
      const m = PN_PREFIX_RE.exec(text);
      if (m && text[i + m[0].length] === ':') prefix = m[0];
    }
    if (prefix !== undefined) {
      i += prefix.length + 1;
      const local = localName();
      push('pname', local, start, i, prefix);
      continue;
    }
    IDENTIFIER_RE.lastIndex = i;
    const id = IDENTIFIER_RE.exec(text);
    if (id) {
      i += id[0].length;
      push('name', id[0], start, i);
      continue;
    }

    // Punctuation (including SPARQL operators, which only occur inside expressions).
    const multi = MULTI_CHAR_PUNCT.find((p) => text.startsWith(p, i));
    const symbol = multi ?? String.fromCodePoint(text.codePointAt(i)!);
    i += symbol.length;
    push('punct', symbol, start, i);
  }
}

// ---------------------------------------------------------------------------
// IRIs
// ---------------------------------------------------------------------------

const ABSOLUTE_IRI_RE = /^[A-Za-z][A-Za-z0-9+.-]*:/;
const IRI_PARTS_RE = /^(?:([A-Za-z][A-Za-z0-9+.-]*):)?(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/s;

function removeDotSegments(path: string): string {
  const input = path.split('/');
  const output: string[] = [];
  for (let k = 0; k < input.length; k++) {
    const segment = input[k]!;
    const last = k === input.length - 1;
    if (segment === '.') {
      if (last) output.push('');
    } else if (segment === '..') {
      if (output.length > 1 || (output.length === 1 && output[0] !== '')) output.pop();
      if (last) output.push('');
    } else output.push(segment);
  }
  return output.join('/');
}

/** Resolves `iri` against `base` (RFC 3986 §5.2); absolute IRIs are returned as they are. */
function resolveIri(iri: string, base: string | undefined): string {
  if (base === undefined || ABSOLUTE_IRI_RE.test(iri)) return iri;
  const b = IRI_PARTS_RE.exec(base);
  const r = IRI_PARTS_RE.exec(iri);
  if (!b || !r || b[1] === undefined) return iri;
  const [, , rAuthority, rPath = '', rQuery, rFragment] = r;
  const [, bScheme, bAuthority, bPath = '', bQuery] = b;
  let authority = bAuthority;
  let path: string;
  let query = rQuery;
  if (rAuthority !== undefined) {
    authority = rAuthority;
    path = removeDotSegments(rPath);
  } else if (rPath === '') {
    path = bPath;
    query = rQuery ?? bQuery;
  } else if (rPath.startsWith('/')) {
    path = removeDotSegments(rPath);
  } else {
    const merged =
      bAuthority !== undefined && bPath === '' ? `/${rPath}` : bPath.slice(0, bPath.lastIndexOf('/') + 1) + rPath;
    path = removeDotSegments(merged);
  }
  return (
    `${bScheme}:` +
    (authority !== undefined ? `//${authority}` : '') +
    path +
    (query !== undefined ? `?${query}` : '') +
    (rFragment !== undefined ? `#${rFragment}` : '')
  );
}

// ---------------------------------------------------------------------------
// Parser
// ---------------------------------------------------------------------------

/** A syntax error in the statement being parsed (caught at statement level). */
class StatementError extends Error {
  /**
   * @param offset where the error is in the text.
   * @param contentFree true when the message quotes none of the text (it may then be shown
   *   for text that is not; see {@link DatalogParseOptions.showContent}).
   */
  constructor(
    readonly offset: number,
    message: string,
    readonly contentFree = false,
  ) {
    super(message);
  }
}

/** What kind of token a message names when the text is not shown. */
function kindOf(token: Token): string {
  switch (token.kind) {
    case 'eof':
      return 'end of input';
    case 'error':
      return 'text that is not Datalog syntax';
    case 'var':
      return 'a variable';
    case 'iri':
      return 'an IRI';
    case 'pname':
      return 'a prefixed name';
    case 'bnode':
      return 'a blank node';
    case 'string':
      return 'a string';
    case 'langtag':
      return 'a language tag or directive';
    case 'integer':
    case 'decimal':
    case 'double':
      return 'a number';
    case 'name':
      return 'a name';
    case 'punct':
      return 'punctuation';
  }
}

const AGGREGATE_FUNCTIONS: ReadonlyMap<string, AggregateFunction> = new Map([
  ['COUNT', 'count'],
  ['SUM', 'sum'],
  ['MUL', 'mul'],
  ['AVG', 'avg'],
  ['MIN', 'min'],
  ['MAX', 'max'],
  ['COUNT_MIN', 'count_min'],
  ['COUNT_MAX', 'count_max'],
  ['MIN_ARGMIN', 'min_argmin'],
  ['MAX_ARGMIN', 'max_argmin'],
  ['MIN_ARGMAX', 'min_argmax'],
  ['MAX_ARGMAX', 'max_argmax'],
]);
/** The functions of two arguments (A, V). */
const TWO_ARGUMENT_AGGREGATES: ReadonlySet<AggregateFunction> = new Set(['min_argmin', 'max_argmin', 'min_argmax', 'max_argmax']);
/** Aggregate functions of SPARQL (and RDFox) that rules refuse: their results are not determined by the solutions. */
const NONDETERMINISTIC_AGGREGATES = new Set(['SAMPLE', 'SAMPLE_ARGMIN', 'SAMPLE_ARGMAX', 'GROUP_CONCAT']);
const EXPECTED_AGGREGATE = `an aggregate function (${[...AGGREGATE_FUNCTIONS.keys()].slice(0, -1).join(', ')} or ${[...AGGREGATE_FUNCTIONS.keys()].at(-1)!}) after BIND`;

/** The wrapper around an expression handed to sparqljs. */
const EXPRESSION_PREFIX = 'SELECT * WHERE { FILTER((';
const EXPRESSION_SUFFIX = '\n)) }';

interface SparqlErrorHash {
  readonly text?: unknown;
  readonly token?: unknown;
  readonly expected?: unknown;
  readonly loc?: { readonly last_line?: unknown; readonly last_column?: unknown };
}

function describe(token: Token): string {
  switch (token.kind) {
    case 'eof':
      return 'end of input';
    case 'error':
      return token.value;
    case 'var':
      return `variable ?${token.value}`;
    case 'iri':
      return `IRI <${token.value}>`;
    case 'pname':
      return `'${token.prefix}:${token.value}'`;
    case 'bnode':
      return `blank node _:${token.value}`;
    case 'string':
      return `string ${JSON.stringify(token.value)}`;
    case 'langtag':
      return `'@${token.value}'`;
    case 'integer':
    case 'decimal':
    case 'double':
      return `number ${token.value}`;
    case 'name':
    case 'punct':
      return `'${token.value}'`;
  }
}

class DatalogParser {
  private readonly tokens: Token[];
  private readonly lineStarts: number[] = [0];
  private pos = 0;
  private base: string | undefined;
  /** Prefixes in force: name without colon → IRI. */
  private readonly prefixes = new Map<string, string>();
  /** The document's declarations: name with colon → IRI. */
  private readonly declared = new Map<string, string>();
  private sparqlPrefixes: Record<string, string> | undefined;
  readonly rules: Rule[] = [];
  readonly facts: TupleAtom[] = [];
  readonly errors: DatalogParseError[] = [];
  /** Whether messages may quote the text (see {@link DatalogParseOptions.showContent}). */
  private readonly showContent: boolean;

  constructor(
    private readonly text: string,
    options: DatalogParseOptions,
  ) {
    this.base = options.baseIRI;
    this.showContent = options.showContent !== false;
    for (const [name, iri] of options.prefixes ?? []) {
      this.prefixes.set(name.endsWith(':') ? name.slice(0, -1) : name, iri);
    }
    for (let k = 0; k < text.length; k++) {
      const c = text[k];
      if (c === '\n' || (c === '\r' && text[k + 1] !== '\n')) this.lineStarts.push(k + 1);
    }
    this.tokens = tokenize(text);
  }

  get document(): DatalogDocument {
    return { rules: this.rules, facts: this.facts, prefixes: this.declared };
  }

  parse(): void {
    while (this.peek().kind !== 'eof') {
      const start = this.pos;
      try {
        this.statement();
      } catch (e) {
        if (!(e instanceof StatementError)) throw e;
        this.errors.push({ ...this.position(e.offset), message: this.showContent || e.contentFree ? e.message : DATALOG_STATEMENT_NOT_SHOWN });
        this.recover(start);
      }
    }
  }

  // --- helpers -------------------------------------------------------------

  private position(offset: number): SourcePosition {
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - this.lineStarts[lo]! + 1 };
  }

  private peek(ahead = 0): Token {
    return this.tokens[Math.min(this.pos + ahead, this.tokens.length - 1)]!;
  }

  private next(): Token {
    const token = this.peek();
    if (token.kind !== 'eof') this.pos++;
    return token;
  }

  private isPunct(symbol: string, ahead = 0): boolean {
    const t = this.peek(ahead);
    return t.kind === 'punct' && t.value === symbol;
  }

  private isKeyword(keyword: string, ahead = 0): boolean {
    const t = this.peek(ahead);
    return t.kind === 'name' && t.value.toUpperCase() === keyword;
  }

  /** A token for a message: itself, or only its kind when the text is not shown. */
  private describe(token: Token): string {
    return this.showContent ? describe(token) : kindOf(token);
  }

  /** Fails at `token`, which is not the `expected` (a text of the parser's own, or built with {@link describe}). */
  private fail(token: Token, expected: string): never {
    if (token.kind === 'error') throw new StatementError(token.start, this.showContent ? token.value : `expected ${expected}, found ${kindOf(token)}`, true);
    throw new StatementError(token.start, `expected ${expected}, found ${this.describe(token)}`, true);
  }

  private expectPunct(symbol: string, expected = `'${symbol}'`): Token {
    if (!this.isPunct(symbol)) this.fail(this.peek(), expected);
    return this.next();
  }

  private expectKeyword(keyword: string, expected = `'${keyword}'`): Token {
    if (!this.isKeyword(keyword)) this.fail(this.peek(), expected);
    return this.next();
  }

  private expectVariable(expected = 'a variable'): string {
    const t = this.peek();
    if (t.kind !== 'var') this.fail(t, expected);
    this.next();
    return t.value;
  }

  /**
   * Skips to the end of the statement that started at token `start`: the first `.` outside
   * brackets, or, when brackets are unbalanced, the first `.` that ends a line.
   */
  private recover(start: number): void {
    let depth = 0;
    for (let k = start; k < this.tokens.length; k++) {
      const t = this.tokens[k]!;
      if (t.kind === 'eof') {
        this.pos = k;
        return;
      }
      if (t.kind !== 'punct') continue;
      if (t.value === '(' || t.value === '[' || t.value === '<<(') depth++;
      else if (t.value === ')' || t.value === ']' || t.value === ')>>') depth = Math.max(0, depth - 1);
      else if (t.value === '.') {
        const following = this.tokens[k + 1]!;
        const endsLine =
          following.kind === 'eof' || /[\n\r]/.test(this.text.slice(t.end, following.start));
        if (depth === 0 || endsLine) {
          this.pos = k + 1;
          return;
        }
      }
    }
  }

  // --- statements ----------------------------------------------------------

  private statement(): void {
    const t = this.peek();
    if (t.kind === 'langtag' && (t.value === 'prefix' || t.value === 'base')) {
      this.next();
      if (t.value === 'prefix') this.prefixDeclaration('@prefix');
      else this.baseDeclaration('@base');
      this.expectPunct('.', `'.' after the @${t.value} declaration`);
      return;
    }
    if (this.isKeyword('PREFIX') && this.peek(1).kind === 'pname') {
      this.next();
      this.prefixDeclaration('PREFIX');
      return;
    }
    if (this.isKeyword('BASE') && this.peek(1).kind === 'iri') {
      this.next();
      this.baseDeclaration('BASE');
      return;
    }
    this.ruleOrFact();
  }

  private prefixDeclaration(keyword: string): void {
    const name = this.peek();
    if (name.kind !== 'pname' || name.value !== '' || this.text[name.end - 1] !== ':') {
      this.fail(name, `a prefix name such as 'ex:' after ${keyword}`);
    }
    this.next();
    const iri = this.peek();
    if (iri.kind !== 'iri') this.fail(iri, `an IRI in angle brackets after ${this.showContent ? `'${name.prefix}:'` : 'the prefix name'}`);
    this.next();
    const value = this.resolve(iri);
    this.prefixes.set(name.prefix, value);
    this.declared.set(`${name.prefix}:`, value);
    this.sparqlPrefixes = undefined;
  }

  private baseDeclaration(keyword: string): void {
    const iri = this.peek();
    if (iri.kind !== 'iri') this.fail(iri, `an IRI in angle brackets after ${keyword}`);
    this.next();
    this.base = this.resolve(iri);
  }

  private ruleOrFact(): void {
    const start = this.pos;
    const first = this.peek();
    const head = [this.tupleAtom('an atom or a declaration')];
    while (this.isPunct(',')) {
      this.next();
      head.push(this.tupleAtom('an atom'));
    }
    if (this.isPunct(':-')) {
      this.next();
      const body = this.body();
      this.rules.push({ head, body, position: this.position(first.start) });
      return;
    }
    if (head.length > 1) this.fail(this.peek(), `',' or ':-' after the rule head`);
    if (!this.isPunct('.')) this.fail(this.peek(), `',', ':-' or '.'`);
    for (let k = start; k < this.pos; k++) {
      const t = this.tokens[k]!;
      if (t.kind === 'var') {
        throw new StatementError(t.start, `a fact must be ground, but it contains variable ?${t.value}`);
      }
    }
    this.next();
    this.facts.push(head[0]!);
  }

  private body(): BodyLiteral[] {
    const body: BodyLiteral[] = [];
    if (this.isPunct('.')) {
      this.next();
      return body;
    }
    for (;;) {
      body.push(this.bodyFormula());
      if (this.isPunct(',')) {
        this.next();
        continue;
      }
      this.expectPunct('.', `',' or '.' after a body formula`);
      return body;
    }
  }

  private bodyFormula(): BodyLiteral {
    if (this.isKeyword('NOT')) return this.negation();
    if (this.isKeyword('FILTER')) return this.filter();
    if (this.isKeyword('BIND')) return this.bind();
    if (this.isKeyword('AGGREGATE')) return this.aggregate();
    return this.tupleAtom(`a body formula (an atom, FILTER, BIND, NOT or AGGREGATE)`);
  }

  // --- atoms and terms -----------------------------------------------------

  private tupleAtom(expected: string): TupleAtom {
    const first = this.peek();
    const position = this.position(first.start);
    if (first.kind === 'punct' && first.value === '[') {
      this.next();
      const s = this.term('the subject');
      this.expectPunct(',');
      const p = this.term('the predicate', true);
      this.expectPunct(',');
      const o = this.term('the object');
      this.expectPunct(']', `']' after the object`);
      return this.graphAtom([s, p, o], position);
    }
    if (first.kind === 'iri' || first.kind === 'pname') {
      const iri = this.iri(first);
      this.next();
      const predicate: AtomTerm = { kind: 'const', term: DataFactory.namedNode(iri) };
      this.expectPunct('[', `'[' after ${this.describe(first)}`);
      const s = this.term('a term');
      if (this.isPunct(',')) {
        this.next();
        const o = this.term('a term');
        this.expectPunct(']');
        return this.graphAtom([s, predicate, o], position);
      }
      this.expectPunct(']', `',' or ']'`);
      return this.graphAtom([s, { kind: 'const', term: DataFactory.namedNode(RDF_TYPE) }, predicate], position);
    }
    if (first.kind === 'name' || first.kind === 'string') {
      if (first.kind === 'name' && KEYWORDS.has(first.value.toUpperCase())) this.fail(first, expected);
      this.next();
      this.expectPunct('(', `'(' after the tuple table name${this.showContent ? ` ${describe(first)}` : ''}`);
      const args = [this.term('a term')];
      while (this.isPunct(',')) {
        this.next();
        args.push(this.term('a term'));
      }
      this.expectPunct(')', `',' or ')'`);
      return { kind: 'atom', table: first.value, args, position };
    }
    if (first.kind === 'punct' && first.value === '<') {
      throw new StatementError(first.start, 'invalid IRI (IRIs are written <…> without spaces, quotes or braces)', true);
    }
    this.fail(first, expected);
  }

  private graphAtom(triple: AtomTerm[], position: SourcePosition): TupleAtom {
    if (this.startsTerm()) {
      const graph = this.term('a graph term');
      return { kind: 'atom', table: QUADS, args: [...triple, graph], position };
    }
    return { kind: 'atom', table: DEFAULT_TRIPLES, args: triple, position };
  }

  private startsTerm(): boolean {
    const t = this.peek();
    switch (t.kind) {
      case 'var':
      case 'iri':
      case 'pname':
      case 'bnode':
      case 'string':
      case 'integer':
      case 'decimal':
      case 'double':
        return true;
      case 'name':
        return t.value === 'true' || t.value === 'false';
      default:
        return false;
    }
  }

  /** The IRI of an `iri` token, resolved against the base IRI. */
  private resolve(token: Token): string {
    if (this.base === undefined && !ABSOLUTE_IRI_RE.test(token.value)) {
      throw new StatementError(token.start, `relative IRI${this.showContent ? ` <${token.value}>` : ''} cannot be resolved: there is no base IRI`, true);
    }
    return resolveIri(token.value, this.base);
  }

  /** The IRI of an `iri` or `pname` token. */
  private iri(token: Token): string {
    if (token.kind === 'iri') return this.resolve(token);
    const namespace = this.prefixes.get(token.prefix);
    if (namespace === undefined) throw new StatementError(token.start, this.showContent ? unknownPrefixMessage(token.prefix) : UNKNOWN_PREFIX_NOT_SHOWN, true);
    return namespace + token.value;
  }

  private term(what: string, predicate = false): AtomTerm {
    const t = this.peek();
    switch (t.kind) {
      case 'var':
        this.next();
        return { kind: 'var', name: t.value };
      case 'iri':
      case 'pname': {
        const iri = this.iri(t);
        this.next();
        return { kind: 'const', term: DataFactory.namedNode(iri) };
      }
      case 'bnode':
        this.next();
        return { kind: 'const', term: DataFactory.blankNode(t.value) };
      case 'string': {
        this.next();
        return { kind: 'const', term: this.literalSuffix(t.value) };
      }
      case 'integer':
      case 'decimal':
      case 'double':
        this.next();
        return { kind: 'const', term: DataFactory.literal(t.value, DataFactory.namedNode(XSD + t.kind)) };
      case 'name':
        if (t.value === 'true' || t.value === 'false') {
          this.next();
          return { kind: 'const', term: DataFactory.literal(t.value, DataFactory.namedNode(`${XSD}boolean`)) };
        }
        if (t.value === 'a' && predicate) {
          this.next();
          return { kind: 'const', term: DataFactory.namedNode(RDF_TYPE) };
        }
        break;
      case 'punct':
        if (t.value === '<<(') return this.tripleTerm(0);
        if (t.value === '<') {
          throw new StatementError(t.start, 'invalid IRI (IRIs are written <…> without spaces, quotes or braces)', true);
        }
        break;
      default:
        break;
    }
    this.fail(t, `${what} (a variable, IRI, blank node, literal or triple term)`);
  }

  /**
   * A triple term `<<( s p o )>>` (RDF 1.2) at the current token: a constant when it holds no
   * variable, else a pattern. Its subject is a variable, an IRI or a blank node, its predicate a
   * variable or an IRI, its object any term (a triple term nested to any depth).
   */
  private tripleTerm(depth: number): AtomTerm {
    const open = this.next();
    if (depth >= MAX_NESTING_DEPTH) throw new StatementError(open.start, nestingMessage('the triple term'));
    const part = (what: string, allowed: ReadonlySet<TokenKind>, description: string): AtomTerm => {
      const t = this.peek();
      if (!allowed.has(t.kind) && !(what === 'predicate' && t.kind === 'name' && t.value === 'a')) {
        this.fail(t, `the ${what} of a triple term (${description})`);
      }
      if (t.kind === 'punct') return this.tripleTerm(depth + 1);
      return this.term(`the ${what} of a triple term`, what === 'predicate');
    };
    const subject = part('subject', TRIPLE_SUBJECT_TOKENS, 'a variable, IRI or blank node');
    const predicate = part('predicate', TRIPLE_PREDICATE_TOKENS, 'a variable or IRI');
    const objectToken = this.peek();
    const object = objectToken.kind === 'punct' && objectToken.value === '<<(' ? this.tripleTerm(depth + 1) : this.term('the object of a triple term');
    this.expectPunct(')>>', `')>>' closing the triple term`);
    if (subject.kind === 'const' && predicate.kind === 'const' && object.kind === 'const') {
      return { kind: 'const', term: DataFactory.quad(subject.term as RDF.NamedNode | RDF.BlankNode, predicate.term as RDF.NamedNode, object.term) };
    }
    return { kind: 'triple', subject, predicate, object };
  }

  private literalSuffix(value: string): RDF.Literal {
    const t = this.peek();
    if (t.kind === 'langtag') {
      this.next();
      const dashes = t.value.indexOf('--');
      if (dashes < 0) return DataFactory.literal(value, t.value);
      // RDF 1.2 base direction
      const direction = t.value.slice(dashes + 2).toLowerCase();
      if (direction !== 'ltr' && direction !== 'rtl') throw new StatementError(t.start + dashes + 3, `the base direction of a literal is ltr or rtl, not ${this.showContent ? `'${t.value.slice(dashes + 2)}'` : 'this'}`, true);
      return rdfjsFactory.literal(value, { language: t.value.slice(0, dashes), direction });
    }
    if (t.kind === 'punct' && t.value === '^^') {
      this.next();
      const dt = this.peek();
      if (dt.kind !== 'iri' && dt.kind !== 'pname') this.fail(dt, `a datatype IRI after '^^'`);
      const iri = this.iri(dt);
      this.next();
      return DataFactory.literal(value, DataFactory.namedNode(iri));
    }
    return DataFactory.literal(value);
  }

  // --- negation and aggregation ------------------------------------------

  private negation(): NegationLiteral {
    const not = this.next();
    const existentialVariables: string[] = [];
    if (this.isKeyword('EXISTS') || this.isKeyword('EXIST')) {
      const keyword = this.next();
      existentialVariables.push(this.expectVariable(`a variable after ${keyword.value}`));
      while (this.isPunct(',')) {
        this.next();
        existentialVariables.push(this.expectVariable());
      }
      this.expectKeyword('IN', `',' or 'IN' after the variables of ${keyword.value}`);
    }
    const atoms: TupleAtom[] = [];
    if (this.isPunct('(')) {
      this.next();
      atoms.push(this.negatedAtom());
      while (this.isPunct(',')) {
        this.next();
        atoms.push(this.negatedAtom());
      }
      this.expectPunct(')', `',' or ')' closing the negated atoms`);
    } else atoms.push(this.negatedAtom());
    return { kind: 'not', existentialVariables, atoms, position: this.position(not.start) };
  }

  private negatedAtom(): TupleAtom {
    const t = this.peek();
    if (t.kind === 'name' && (this.isKeyword('FILTER') || this.isKeyword('BIND'))) {
      throw new StatementError(t.start, `${t.value.toUpperCase()} is not supported inside NOT (only tuple table atoms are)`);
    }
    return this.tupleAtom('an atom after NOT');
  }

  private aggregate(): AggregateLiteral {
    const keyword = this.next();
    this.expectPunct('(', `'(' after AGGREGATE`);
    const body: Array<TupleAtom | FilterLiteral | BindLiteral> = [this.aggregatedAtom()];
    while (this.isPunct(',')) {
      this.next();
      body.push(this.aggregatedAtom());
    }
    const groupBy: string[] = [];
    let expected = `',', 'ON', 'BIND' or ')'`;
    if (this.isKeyword('ON')) {
      this.next();
      groupBy.push(this.expectVariable('a group variable after ON'));
      while (this.peek().kind === 'var') groupBy.push(this.next().value);
      expected = `a variable, 'BIND' or ')'`;
    }
    const bindings: AggregateBinding[] = [];
    while (this.isKeyword('BIND')) {
      this.next();
      bindings.push(this.aggregateBinding());
      expected = `'BIND' or ')'`;
    }
    this.expectPunct(')', expected);
    return { kind: 'aggregate', body, groupBy, bindings, position: this.position(keyword.start) };
  }

  private aggregatedAtom(): TupleAtom | FilterLiteral | BindLiteral {
    if (this.isKeyword('FILTER')) return this.filter();
    if (this.isKeyword('BIND')) return this.bind();
    const t = this.peek();
    if (this.isKeyword('NOT') || this.isKeyword('AGGREGATE')) {
      throw new StatementError(t.start, `${t.value.toUpperCase()} is not allowed inside AGGREGATE`);
    }
    return this.tupleAtom('an atom, FILTER or BIND inside AGGREGATE');
  }

  private aggregateBinding(): AggregateBinding {
    const fnToken = this.peek();
    if (fnToken.kind !== 'name') this.fail(fnToken, EXPECTED_AGGREGATE);
    const upper = fnToken.value.toUpperCase();
    const fn = AGGREGATE_FUNCTIONS.get(upper);
    if (fn === undefined) {
      if (NONDETERMINISTIC_AGGREGATES.has(upper)) {
        throw new StatementError(
          fnToken.start,
          `aggregate function ${upper} is not allowed in rules: its result is not determined by the values aggregated (SAMPLE, SAMPLE_ARGMIN, SAMPLE_ARGMAX and GROUP_CONCAT are for queries only)`,
        );
      }
      this.fail(fnToken, EXPECTED_AGGREGATE);
    }
    this.next();
    this.expectPunct('(', `'(' after ${upper}`);
    let distinct = false;
    if (this.isKeyword('DISTINCT')) {
      this.next();
      distinct = true;
    }
    const expressions: Algebra.Expression[] = [];
    let text: string;
    if (fn === 'count' && this.isPunct('*')) {
      this.next();
      this.expectPunct(')', `')' after '*'`);
      text = '*';
    } else if (fn === 'count' && this.isPunct(')')) {
      // COUNT() counts the solutions, like COUNT(*)
      this.next();
      text = '';
    } else {
      const range = this.expressionRange(`${upper}(`);
      const commas = range.topLevel.filter((k) => {
        const t = this.tokens[k]!;
        return t.kind === 'punct' && t.value === ',';
      });
      const two = TWO_ARGUMENT_AGGREGATES.has(fn);
      if (two && commas.length !== 1) {
        const at = commas.length === 0 ? this.tokens[range.close]! : this.tokens[commas[1]!]!;
        throw new StatementError(at.start, `${upper} takes two expressions (${upper}(A, V)), found ${commas.length === 0 ? 'one' : 'more'}`);
      }
      if (!two && fn !== 'count' && commas.length > 0) {
        throw new StatementError(this.tokens[commas[0]!]!.start, `${upper} takes a single expression, found ','`);
      }
      let from = range.from;
      for (const end of [...commas, range.to]) {
        expressions.push(this.expression(from, end, end === range.to ? range.close : end, upper).expression);
        from = end + 1;
      }
      text = this.text.slice(this.tokens[range.from]!.start, this.tokens[range.to - 1]!.end);
    }
    this.expectKeyword('AS', `'AS' after ${upper}(…)`);
    const variable = this.expectVariable(`a variable after AS`);
    return { fn, distinct, expression: expressions[0], expressions, text, variable };
  }

  // --- expressions ---------------------------------------------------------

  private filter(): FilterLiteral {
    const keyword = this.next();
    this.expectPunct('(', `'(' after FILTER`);
    const range = this.expressionRange('FILTER(');
    const { expression, text } = this.expression(range.from, range.to, range.close, 'FILTER');
    return { kind: 'filter', expression, text, position: this.position(keyword.start) };
  }

  private bind(): BindLiteral {
    const keyword = this.next();
    this.expectPunct('(', `'(' after BIND`);
    const range = this.expressionRange('BIND(');
    let as: number | undefined;
    for (const k of range.topLevel) {
      const t = this.tokens[k]!;
      if (t.kind === 'name' && t.value.toUpperCase() === 'AS') as = k;
    }
    if (as === undefined) this.fail(this.tokens[range.close]!, `'AS ?variable' at the end of BIND`);
    const variable = this.tokens[as + 1]!;
    if (variable.kind !== 'var') this.fail(variable, 'a variable after AS');
    if (as + 2 < range.to) this.fail(this.tokens[as + 2]!, `')' after the BIND variable`);
    const { expression, text } = this.expression(range.from, as, as, 'BIND');
    return { kind: 'bind', expression, text, variable: variable.value, position: this.position(keyword.start) };
  }

  /**
   * Consumes the tokens up to and including the `)` closing an opening parenthesis already
   * consumed; returns the range of the enclosed tokens, the index of the closing token and the
   * indexes of the enclosed tokens not nested in further parentheses.
   */
  private expressionRange(opening: string): { from: number; to: number; close: number; topLevel: number[] } {
    const from = this.pos;
    const topLevel: number[] = [];
    let depth = 0;
    for (;;) {
      const t = this.peek();
      if (t.kind === 'eof' || t.kind === 'error' || (t.kind === 'punct' && t.value === '.')) {
        this.fail(t, `')' closing ${opening}`);
      }
      if (t.kind === 'punct' && t.value === ')') {
        if (depth === 0) {
          const close = this.pos;
          this.next();
          return { from, to: close, close, topLevel };
        }
        depth--;
      } else if (t.kind === 'punct' && t.value === ')>>' && depth > 0) {
        depth--;
      } else if (t.kind === 'punct' && (t.value === '(' || t.value === '<<(')) {
        if (depth === 0) topLevel.push(this.pos);
        depth++;
        this.next();
        continue;
      }
      if (depth === 0) topLevel.push(this.pos);
      this.next();
    }
  }

  /**
   * Parses the SPARQL expression made of tokens `[from, to)`; `close` is the token after it
   * (for errors at its end), `context` names the construct for messages.
   */
  private expression(
    from: number,
    to: number,
    close: number,
    context: string,
  ): { expression: Algebra.Expression; text: string } {
    if (from >= to) this.fail(this.tokens[close]!, `an expression in ${context}`);
    for (let k = from; k < to; k++) {
      const t = this.tokens[k]!;
      if (t.kind === 'pname' || t.kind === 'iri') this.iri(t);
    }
    this.checkNesting(from, to, context);
    const startOffset = this.tokens[from]!.start;
    const text = this.text.slice(startOffset, this.tokens[to - 1]!.end);
    // RDFox's unprefixed function names (`LOG(?x)`) become calls of their IRIs
    const rewrite = rewriteFunctionNames(text);
    const query = EXPRESSION_PREFIX + rewrite.text + EXPRESSION_SUFFIX;
    let algebra: Algebra.Operation;
    try {
      const parser = sparqlParser({
        prefixes: this.sparqlPrefixesObject(),
        ...(this.base !== undefined ? { baseIRI: this.base } : {}),
      });
      const parsed = parser.parse(query);
      if (treeTooDeep(parsed)) throw new StatementError(startOffset, `invalid expression in ${context}: ${nestingMessage('the expression')}`);
      algebra = translate(parsed);
    } catch (e) {
      if (e instanceof StatementError) throw e;
      throw this.sparqlError(e, query, startOffset, rewrite, this.tokens[close]!.start, context);
    }
    const arity = rewrite.arityProblem;
    if (arity) throw new StatementError(startOffset + arity.offset, `invalid expression in ${context}: ${arity.message}`);
    const filter = algebra.type === Algebra.types.PROJECT ? algebra.input : undefined;
    if (filter?.type !== Algebra.types.FILTER || filter.input.type !== Algebra.types.BGP) {
      throw new StatementError(startOffset, `invalid expression in ${context}: aggregates are not allowed here`);
    }
    const expression = filter.expression;
    const forbidden = findForbidden(expression);
    if (forbidden) throw new StatementError(startOffset, `invalid expression in ${context}: ${forbidden}`);
    return { expression, text };
  }

  /**
   * Refuses an expression (tokens `[from, to)`) whose parentheses nest deeper than the limit,
   * or with more than twice the limit of binary operators between one pair of parentheses (a
   * chain `1 + 1 + …` nests one level per operator once parsed; refused here before the
   * parser spends seconds on 50,000 of them).
   */
  private checkNesting(from: number, to: number, context: string): void {
    const refuse = (t: Token): never => {
      throw new StatementError(t.start, `invalid expression in ${context}: ${nestingMessage('the expression')}`);
    };
    const operators = [0];
    for (let k = from; k < to; k++) {
      const t = this.tokens[k]!;
      if (t.kind !== 'punct') {
        // `1+1` is lexed as 1 and +1: a signed number after a term is an operator and a number
        const signed = (t.kind === 'integer' || t.kind === 'decimal' || t.kind === 'double') && (t.value[0] === '+' || t.value[0] === '-');
        const previous = this.tokens[k - 1];
        if (signed && k > from && previous !== undefined && previous.kind !== 'punct' && ++operators[operators.length - 1]! > 2 * MAX_NESTING_DEPTH) refuse(t);
        continue;
      }
      if (t.value === '(' || t.value === '<<(') {
        if (operators.push(0) > MAX_NESTING_DEPTH + 1) refuse(t);
      } else if (t.value === ')' || t.value === ')>>') {
        if (operators.length > 1) operators.pop();
      } else if (CHAIN_OPERATORS.has(t.value) && ++operators[operators.length - 1]! > 2 * MAX_NESTING_DEPTH) refuse(t);
    }
  }

  private sparqlPrefixesObject(): Record<string, string> {
    this.sparqlPrefixes ??= Object.fromEntries(this.prefixes);
    return { ...this.sparqlPrefixes };
  }

  /** Maps an error of sparqljs on `query` back to the Datalog text. */
  private sparqlError(
    error: unknown,
    query: string,
    textStart: number,
    rewrite: FunctionNameRewrite,
    closeOffset: number,
    context: string,
  ): StatementError {
    const message = error instanceof Error ? error.message : String(error);
    const hash = (error as { hash?: SparqlErrorHash } | null)?.hash;
    // jison reports the location of the last token it accepted: the offending token is the
    // next one, after white space and comments.
    const line = hash?.loc?.last_line;
    const column = hash?.loc?.last_column;
    if (typeof line !== 'number' || typeof column !== 'number') {
      return new StatementError(textStart, `invalid expression in ${context}: ${message.split('\n')[0]}`);
    }
    let queryOffset = 0;
    const lineBreak = /\r\n?|\n/g;
    for (let l = 1; l < line; l++) {
      lineBreak.lastIndex = queryOffset;
      const found = lineBreak.exec(query);
      if (!found) break;
      queryOffset = found.index + found[0].length;
    }
    queryOffset += column;
    for (;;) {
      const c = query[queryOffset];
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r') queryOffset++;
      else if (c === '#') {
        while (queryOffset < query.length && query[queryOffset] !== '\n' && query[queryOffset] !== '\r') queryOffset++;
      } else break;
    }
    const relative = queryOffset - EXPRESSION_PREFIX.length;
    if (relative >= rewrite.text.length) {
      return new StatementError(closeOffset, `invalid expression in ${context}: the expression is incomplete`);
    }
    const offset = relative < 0 ? textStart : textStart + rewrite.originalOffset(relative);
    const text = rewrite.nameAt(relative) ?? (typeof hash?.text === 'string' ? hash.text : '');
    const found = hash?.token === 'INVALID' ? `unrecognised text '${text}'` : `'${text}'`;
    const names = Array.isArray(hash?.expected)
      ? hash.expected.filter((x): x is string => typeof x === 'string').map((x) => x.replace(/^'|'$/g, ''))
      : [];
    if (names.length === 0 || names.length > 6) {
      return new StatementError(offset, `invalid expression in ${context}: unexpected ${found}`);
    }
    const expected = names
      .map((x) => (/^[A-Z_0-9]+$/.test(x) && x !== 'AS' ? x.toLowerCase().replace(/_/g, ' ') : `'${x}'`))
      .join(', ');
    return new StatementError(offset, `invalid expression in ${context}: expected ${expected}, found ${found}`);
  }
}

/** The tokens that may start the subject of a triple term. */
const TRIPLE_SUBJECT_TOKENS: ReadonlySet<TokenKind> = new Set(['var', 'iri', 'pname', 'bnode']);
/** The tokens that may start the predicate of a triple term (and the name `a`). */
const TRIPLE_PREDICATE_TOKENS: ReadonlySet<TokenKind> = new Set(['var', 'iri', 'pname']);

/** n3's factory as the RDF/JS type declares it (n3's own declarations lack base directions). */
const rdfjsFactory: RDF.DataFactory = DataFactory;

/** Tuple table names that must be quoted because they are keywords. */
const KEYWORDS = new Set(['NOT', 'FILTER', 'BIND', 'AGGREGATE', 'EXIST', 'EXISTS', 'IN', 'ON', 'AS', 'DISTINCT', 'PREFIX', 'BASE']);

/** A description of the first EXISTS or aggregate inside `expression`, if any. */
function findForbidden(expression: Algebra.Expression): string | undefined {
  switch (expression.expressionType) {
    case Algebra.expressionTypes.EXISTENCE:
      return 'EXISTS and NOT EXISTS are not allowed in rule expressions';
    case Algebra.expressionTypes.AGGREGATE:
      return 'aggregate functions are only allowed in AGGREGATE … BIND';
    case Algebra.expressionTypes.WILDCARD:
      return `'*' is not an expression`;
    case Algebra.expressionTypes.OPERATOR:
    case Algebra.expressionTypes.NAMED:
      for (const arg of expression.args) {
        const found = findForbidden(arg);
        if (found) return found;
      }
      return undefined;
    default:
      return undefined;
  }
}

/**
 * Parses a Datalog document in RDFox's syntax into rules and facts. Syntax errors do not throw:
 * each is recorded (with the line and column of the offending token) and the statement
 * containing it is skipped; the other statements are still returned.
 */
export function parseDatalog(text: string, options: DatalogParseOptions = {}): DatalogParseResult {
  const parser = new DatalogParser(text, options);
  parser.parse();
  return { document: parser.document, errors: parser.errors };
}

/** Tuple table names the keywords of the syntax make unusable as bare identifiers. */
export const DATALOG_KEYWORDS: ReadonlySet<string> = KEYWORDS;
