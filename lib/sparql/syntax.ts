/**
 * What sparqljs leaves to its users: rules of the SPARQL grammar it does not check, escapes
 * it does not read, and one early simplification of sparqlalgebrajs that changes the meaning
 * of a query. All work on the query text or the sparqljs syntax tree, before translation.
 * Errors of the parser are reported against the text as written (see errors.ts), whatever
 * the text handed to sparqljs was rewritten to.
 * @module
 */
import { QueryCompilationError } from '../model/errors.js';
import { XSD } from '../model/terms.js';
import { lineStarts, positionAt, sparqlSyntaxError, type SparqlTextKind, unknownPrefixError } from './errors.js';

/** A node of the sparqljs syntax tree, seen structurally. */
type SyntaxNode = { readonly [key: string]: unknown };

function isNode(x: unknown): x is SyntaxNode {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function nodes(x: unknown): SyntaxNode[] {
  return Array.isArray(x) ? x.filter(isNode) : [];
}

// ---- codepoint escapes in IRIs ----

/** An IRIREF token, with \u and \U escapes allowed among its characters. */
// eslint-disable-next-line no-control-regex -- the grammar's IRIREF excludes U+0000 to U+0020
const IRIREF = /<(?:[^<>"{}|^`\\\u0000-\u0020]|\\u[0-9A-Fa-f]{4}|\\U[0-9A-Fa-f]{8})*>/y;
const CODEPOINT_ESCAPE = /\\u([0-9A-Fa-f]{4})|\\U([0-9A-Fa-f]{8})/g;
/** Characters an IRIREF cannot hold, escaped or not. */
// eslint-disable-next-line no-control-regex -- as IRIREF
const NOT_IN_IRI = /[<>"{}|^`\\\u0000-\u0020]/;

/**
 * Replaces the codepoint escapes (`\u0078`, `\U0001F600`) of IRI references by the characters
 * they stand for (SPARQL 1.1 §19.2); sparqljs reads them in strings but rejects them in IRIs.
 * Strings and comments are left as they are. An escape of a character that an IRI cannot hold
 * is kept, so that the query is still rejected.
 */
export function unescapeIriCodepoints(text: string): string {
  return applyEdits(text, iriCodepointEdits(text));
}

function iriCodepointEdits(text: string): Edit[] {
  const edits: Edit[] = [];
  if (!text.includes('\\')) return edits;
  forEachSignificant(text, (i, kind) => {
    if (kind !== 'iri') return;
    IRIREF.lastIndex = i;
    const token = IRIREF.exec(text)![0];
    if (!token.includes('\\')) return;
    const unescaped = token.replace(CODEPOINT_ESCAPE, (escape, short: string | undefined, long: string | undefined) => {
      const ch = String.fromCodePoint(parseInt(short ?? long!, 16));
      return NOT_IN_IRI.test(ch) ? escape : ch;
    });
    if (unescaped !== token) edits.push({ start: i, end: i + token.length, replacement: unescaped });
  });
  return edits;
}

/** A `\u` or `\U` escape at `lastIndex` (the backslash included). */
const ESCAPE_AT = /\\(?:u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8}))/y;

/**
 * Rejects a codepoint escape of a surrogate (U+D800 to U+DFFF, alone or as a pair) in a string
 * or an IRI: an escape stands for a Unicode scalar value, which no surrogate is (SPARQL 1.2,
 * "Codepoint Escape Sequences"). A surrogate pair must be written as one `\U` escape or as the
 * character itself.
 * @throws QueryCompilationError at the escape.
 */
export function checkSurrogateEscapes(text: string, kind: SparqlTextKind): void {
  if (!text.includes('\\')) return;
  forEachSignificant(text, (start, token) => {
    if (token === 'char') return;
    const end = token === 'iri' ? ((IRIREF.lastIndex = start), IRIREF.test(text) ? IRIREF.lastIndex : start + 1) : endOfString(text, start);
    for (let i = text.indexOf('\\', start); i >= 0 && i < end; i = text.indexOf('\\', i)) {
      ESCAPE_AT.lastIndex = i;
      const m = ESCAPE_AT.exec(text);
      if (m === null) {
        // another escape (`\\n`, `\\\\`): its two characters
        i += 2;
        continue;
      }
      const code = parseInt(m[1] ?? m[2]!, 16);
      if (code >= 0xd800 && code <= 0xdfff) {
        const { line, column } = positionAt(text, i);
        throw new QueryCompilationError(`syntax error in the SPARQL ${kind} at line ${line}, column ${column}: the escape ${m[0]} stands for a surrogate, which is no character`);
      }
      i = ESCAPE_AT.lastIndex;
    }
  });
}

/** The index after the string literal that starts at `start` (short or long form, either quote). */
function endOfString(text: string, start: number): number {
  const q = text[start]!;
  const long = text.startsWith(q.repeat(3), start);
  const close = long ? q.repeat(3) : q;
  let i = start + close.length;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '\\') i += 2;
    else if (text.startsWith(close, i)) return i + close.length;
    else if (!long && (c === '\n' || c === '\r')) return i;
    else i++;
  }
  return text.length;
}

// ---- blank node labels ----

/**
 * Rejects a query that uses one blank node label in two basic graph patterns (SPARQL 1.1
 * §4.1.4, grammar note: "the same blank node label cannot be used in two different basic graph
 * patterns in the same query"). A basic graph pattern is a run of triples in one group; a
 * FILTER does not end it, any other element of the group (OPTIONAL, UNION, GRAPH, MINUS, BIND,
 * VALUES, a nested group or subquery) does. Patterns of EXISTS are groups of their own.
 * @throws QueryCompilationError naming the label.
 */
export function checkBlankNodeScopes(query: object): void {
  const scopeOf = new Map<string, number>();
  let scopes = 0;

  const term = (t: unknown, scope: number): void => {
    if (!isNode(t)) return;
    if (t.termType === 'Quad') {
      term(t.subject, scope);
      term(t.object, scope);
      return;
    }
    // sparqljs writes labels from the query as e_<label>, and its own (from [] and lists) as g_<n>
    if (t.termType !== 'BlankNode' || typeof t.value !== 'string' || !t.value.startsWith('e_')) return;
    const known = scopeOf.get(t.value);
    if (known === undefined) scopeOf.set(t.value, scope);
    else if (known !== scope) {
      throw new QueryCompilationError(`invalid query: the blank node label _:${t.value.slice(2)} is used in more than one basic graph pattern`);
    }
  };

  const expression = (e: unknown): void => {
    if (Array.isArray(e)) {
      e.forEach(expression);
      return;
    }
    if (!isNode(e)) return;
    if (e.type === 'operation') {
      // the argument of EXISTS is a group graph pattern; IN lists are arrays of expressions
      if (e.operator === 'exists' || e.operator === 'notexists') patterns(e.args);
      else expression(e.args);
    } else if (e.type === 'functionCall') {
      expression(e.args);
    } else if (e.type === 'aggregate') {
      expression(e.expression);
    }
  };

  const patterns = (list: unknown): void => {
    let current: number | undefined;
    for (const p of nodes(list)) {
      switch (p.type) {
        case 'bgp': {
          const scope = (current ??= ++scopes);
          for (const t of nodes(p.triples)) {
            term(t.subject, scope);
            term(t.predicate, scope);
            term(t.object, scope);
          }
          break;
        }
        case 'filter':
          expression(p.expression);
          break;
        case 'bind':
          current = undefined;
          expression(p.expression);
          break;
        case 'query':
          current = undefined;
          queryParts(p);
          break;
        case 'union':
          current = undefined;
          for (const branch of nodes(p.patterns)) patterns([branch]);
          break;
        default:
          current = undefined;
          patterns(p.patterns);
      }
    }
  };

  const queryParts = (q: SyntaxNode): void => {
    for (const v of nodes(q.variables)) if ('expression' in v) expression(v.expression);
    patterns(q.where);
    for (const g of nodes(q.group)) expression(g.expression);
    expression(q.having);
    for (const o of nodes(q.order)) expression(o.expression);
  };

  queryParts(query as SyntaxNode);
}

// ---- filter scope in OPTIONAL ----

/**
 * Keeps `OPTIONAL { { P FILTER(F) } }` from being read as `OPTIONAL { P FILTER(F) }`.
 *
 * In the SPARQL algebra (§18.2.2.6), OPTIONAL takes the filter of its group into the LeftJoin
 * only when that group itself has the FILTER: `LeftJoin(G, P, F)` evaluates F over the joined
 * solution, while a FILTER in a nested group sees only that group's variables. sparqlalgebrajs
 * simplifies `Join(Z, Filter(F, P))` to `Filter(F, P)` before it looks, so it turns the nested
 * filter into a LeftJoin condition. This adds an empty VALUES row (the identity of join) to
 * such OPTIONAL groups, which keeps the nested group a Filter inside a Join.
 */
export function keepOptionalFilterScope(query: unknown): void {
  const hasNestedFilter = (p: SyntaxNode): boolean =>
    p.type === 'group' && nodes(p.patterns).some((q) => q.type === 'filter' || hasNestedFilter(q));
  const visit = (x: unknown): void => {
    if (Array.isArray(x)) {
      x.forEach(visit);
      return;
    }
    if (!isNode(x)) return;
    if (x.type === 'optional' && Array.isArray(x.patterns)) {
      const inner = nodes(x.patterns);
      if (!inner.some((q) => q.type === 'filter') && inner.some(hasNestedFilter)) (x.patterns as unknown[]).push({ type: 'values', values: [{}] });
    }
    for (const v of Object.values(x)) if (typeof v === 'object' && v !== null && !('termType' in v)) visit(v);
  };
  visit(query);
}

// ---- what sparqljs parses wrongly or not at all ----

/**
 * Calls `visit` with the index of every character outside strings, IRIs and comments, in
 * order (an IRI, a string or a comment is reported as its first character only, with `kind`).
 */
export function forEachSignificant(text: string, visit: (i: number, kind: 'char' | 'iri' | 'string') => void): void {
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '#') {
      const end = text.indexOf('\n', i);
      i = end < 0 ? text.length : end + 1;
    } else if (c === '"' || c === "'") {
      visit(i, 'string');
      i = endOfString(text, i);
    } else if (c === '<' && (IRIREF.lastIndex = i, IRIREF.test(text))) {
      visit(i, 'iri');
      i = IRIREF.lastIndex;
    } else {
      visit(i, 'char');
      i++;
    }
  }
}

const POSITIVE_NUMBER = /\+(?:(\d+\.\d*[eE][+-]?\d+|\.\d+[eE][+-]?\d+|\d+[eE][+-]?\d+)|(\d*\.\d+)|(\d+))/y;

/**
 * Writes the numbers with an explicit `+` that stand as terms (in triple patterns, templates
 * and VALUES, outside any parentheses) as typed literals keeping their lexical form:
 * `:x :p +5` matches the data term `"+5"^^xsd:integer`, which sparqljs would read as `5`.
 * Signs inside parentheses are left alone (there `?a +5` is an addition).
 */
export function keepPositiveSigns(text: string): string {
  return applyEdits(text, positiveSignEdits(text));
}

function positiveSignEdits(text: string): Edit[] {
  const edits: Edit[] = [];
  if (!/\+[\d.]/.test(text)) return edits;
  let braces = 0;
  let parens = 0;
  forEachSignificant(text, (i, kind) => {
    if (kind !== 'char') return;
    const c = text[i]!;
    if (c === '{') braces++;
    else if (c === '}') braces--;
    else if (c === '(') parens++;
    else if (c === ')') parens--;
    else if (c === '+' && braces > 0 && parens === 0 && (i === 0 || /[\s{[;,]/.test(text[i - 1]!))) {
      POSITIVE_NUMBER.lastIndex = i;
      const m = POSITIVE_NUMBER.exec(text);
      if (!m) return;
      const next = text[POSITIVE_NUMBER.lastIndex];
      if (next !== undefined && /[\w:]/.test(next)) return;
      const type = m[1] !== undefined ? 'double' : m[2] !== undefined ? 'decimal' : 'integer';
      edits.push({ start: i, end: POSITIVE_NUMBER.lastIndex, replacement: `"${m[0]}"^^<${XSD}${type}>` });
    }
  });
  return edits;
}

/**
 * Gives a label to every blank node property list that stands as a whole triple in a template
 * or a data block (`{ [ :p 1 ] }`, `… . [ :p ?x ; :q 2 ] .`), which sparqljs fails on:
 * `[ props ] .` becomes `_:label props .`, the same triples. Used only to retry a text
 * sparqljs failed on.
 */
export function labelBracketSubjects(text: string): string {
  return applyEdits(text, bracketSubjectEdits(text));
}

function bracketSubjectEdits(text: string): Edit[] {
  const significant: number[] = [];
  forEachSignificant(text, (i, kind) => {
    if (kind === 'char' && /\S/.test(text[i]!)) significant.push(i);
    else if (kind !== 'char') significant.push(i);
  });
  const replaced = new Map<number, string>();
  let counter = 0;
  for (let k = 0; k < significant.length; k++) {
    const i = significant[k]!;
    if (text[i] !== '[') continue;
    const before = k > 0 ? text[significant[k - 1]!] : undefined;
    if (before !== '{' && before !== '.') continue;
    // the matching bracket, then what follows it
    let depth = 0;
    let close = -1;
    for (let j = k; j < significant.length; j++) {
      const c = text[significant[j]!];
      if (c === '[') depth++;
      else if (c === ']' && --depth === 0) {
        close = j;
        break;
      }
    }
    if (close < 0 || close === k + 1) continue;
    const after = close + 1 < significant.length ? text[significant[close + 1]!] : undefined;
    if (after !== '.' && after !== '}') continue;
    let label: string;
    do label = `_:sb${++counter}`;
    while (text.includes(label));
    replaced.set(i, `${label} `);
    replaced.set(significant[close]!, ' ');
  }
  return [...replaced].sort((a, b) => a[0] - b[0]).map(([at, by]) => ({ start: at, end: at + 1, replacement: by }));
}

// ---- edits, and parsing with errors against the text as written ----

/** The replacement of `text[start, end)` by `replacement`, one change a preparation makes. */
export interface TextEdit {
  /** Offset of the first character replaced. */
  readonly start: number;
  /** Offset after the last character replaced (`start` for an insertion). */
  readonly end: number;
  /** What replaces them. */
  readonly replacement: string;
}

type Edit = TextEdit;

/**
 * A rewrite of SPARQL text into what sparqljs parses: the edits (in order, not overlapping)
 * that make it, so that errors are still reported against the text as written.
 */
export type TextRewrite = (text: string) => readonly TextEdit[];

/** The text with `edits` (in order, not overlapping) made. */
function applyEdits(text: string, edits: readonly Edit[]): string {
  if (edits.length === 0) return text;
  let out = '';
  let copied = 0;
  for (const e of edits) {
    out += text.slice(copied, e.start) + e.replacement;
    copied = e.end;
  }
  return out + text.slice(copied);
}

/**
 * The offset of the text before `edits` that an offset of the text after them stands for (an
 * offset inside a replacement stands for the start of what was replaced).
 */
function offsetBefore(edits: readonly Edit[], offset: number): number {
  let delta = 0;
  for (const e of edits) {
    const start = e.start + delta;
    if (offset < start) break;
    if (offset < start + e.replacement.length) return e.start;
    delta += e.replacement.length - (e.end - e.start);
  }
  return offset - delta;
}

/** A text handed to sparqljs and the edits, step by step, that made it from the text as written. */
interface PreparedText {
  readonly text: string;
  readonly steps: ReadonlyArray<readonly Edit[]>;
}

function prepare(prepared: PreparedText, edit: (text: string) => Edit[]): PreparedText {
  const edits = edit(prepared.text);
  return edits.length === 0 ? prepared : { text: applyEdits(prepared.text, edits), steps: [...prepared.steps, edits] };
}

/** The location sparqljs (a jison parser) gives a syntax error: that of the last token it read. */
interface ParserLocation {
  readonly last_line: number;
  readonly last_column: number;
}

function parserLocation(error: unknown): ParserLocation | undefined {
  const loc = (error as { hash?: { loc?: Partial<ParserLocation> } } | null)?.hash?.loc;
  return typeof loc?.last_line === 'number' && typeof loc.last_column === 'number' ? (loc as ParserLocation) : undefined;
}

/**
 * The offset of the first use of a prefixed name with `prefix` (without the colon) in a SPARQL
 * text, outside strings, IRIs, comments and PREFIX declarations; undefined when there is none.
 */
export function findPrefixedName(text: string, prefix: string): number | undefined {
  const name = /[\p{L}\p{N}_.\-\u00B7]/u;
  let found: number | undefined;
  let previousWord = '';
  forEachSignificant(text, (i, kind) => {
    if (found !== undefined || kind !== 'char') {
      previousWord = '';
      return;
    }
    // a word starts here: the character before is not part of a name (nor its colon)
    if (i > 0 && (name.test(text[i - 1]!) || text[i - 1] === ':')) return;
    if (text[i] === '?' || text[i] === '$') return;
    const word = /[\p{L}\p{N}_.\-\u00B7]*:?/uy;
    word.lastIndex = i;
    const w = word.exec(text)![0];
    if (w === '') return;
    if (w === `${prefix}:` && previousWord.toUpperCase() !== 'PREFIX') found = i;
    previousWord = w;
  });
  return found;
}

/**
 * The error to report for an error of sparqljs on a text prepared from `text`: a syntax error
 * at the position in `text` of the token sparqljs could not take, an unknown prefix at its
 * first use, or else the parser's message.
 */
function parserError(error: unknown, text: string, prepared: PreparedText, kind: SparqlTextKind): QueryCompilationError {
  if (error instanceof QueryCompilationError) return error;
  const loc = parserLocation(error);
  if (loc) {
    // the end of the last token read, in the prepared text, then in the text as written
    let offset = (lineStarts(prepared.text)[loc.last_line - 1] ?? prepared.text.length) + loc.last_column;
    for (let k = prepared.steps.length - 1; k >= 0; k--) offset = offsetBefore(prepared.steps[k]!, offset);
    return sparqlSyntaxError(kind, text, offset, { cause: error });
  }
  const message = error instanceof Error ? error.message : String(error);
  const prefix = /^Unknown prefix: (.*)$/.exec(message);
  if (prefix) return unknownPrefixError(prefix[1]!, text, findPrefixedName(text, prefix[1]!), { cause: error });
  return new QueryCompilationError(`invalid ${kind}: ${message}`, { cause: error });
}

/**
 * Parses SPARQL text with sparqljs after {@link checkSurrogateEscapes}, {@link unescapeIriCodepoints},
 * {@link keepPositiveSigns} and then `rewrites` (extensions of the syntax, in order); when
 * sparqljs fails on a blank node property list standing as a triple, the text is parsed again
 * with {@link labelBracketSubjects}. Every error is a QueryCompilationError worded as
 * errors.ts says, its position that of the text as written.
 */
export function parseSparqlText<T>(parse: (text: string) => T, text: string, kind: SparqlTextKind = 'query', rewrites: readonly TextRewrite[] = []): T {
  checkSurrogateEscapes(text, kind);
  let prepared = prepare(prepare({ text, steps: [] }, iriCodepointEdits), positiveSignEdits);
  for (const rewrite of rewrites) prepared = prepare(prepared, (t) => [...rewrite(t)]);
  try {
    return parse(prepared.text);
  } catch (e) {
    if (!(e instanceof TypeError)) throw parserError(e, text, prepared, kind);
    const relabelled = prepare(prepared, bracketSubjectEdits);
    if (relabelled === prepared) throw parserError(e, text, prepared, kind);
    try {
      return parse(relabelled.text);
    } catch (again) {
      throw parserError(again, text, relabelled, kind);
    }
  }
}
