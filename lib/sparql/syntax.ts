/**
 * What sparqljs leaves to its users: rules of the SPARQL grammar it does not check, escapes
 * it does not read, and one early simplification of sparqlalgebrajs that changes the meaning
 * of a query. All work on the query text or the sparqljs syntax tree, before translation.
 * @module
 */
import { QueryCompilationError } from '../model/errors.js';

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
  if (!text.includes('\\')) return text;
  let out = '';
  let copied = 0;
  forEachSignificant(text, (i, kind) => {
    if (kind !== 'iri') return;
    IRIREF.lastIndex = i;
    const token = IRIREF.exec(text)![0];
    if (!token.includes('\\')) return;
    const unescaped = token.replace(CODEPOINT_ESCAPE, (escape, short: string | undefined, long: string | undefined) => {
      const ch = String.fromCodePoint(parseInt(short ?? long!, 16));
      return NOT_IN_IRI.test(ch) ? escape : ch;
    });
    out += text.slice(copied, i) + unescaped;
    copied = i + token.length;
  });
  return copied === 0 ? text : out + text.slice(copied);
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
function forEachSignificant(text: string, visit: (i: number, kind: 'char' | 'iri' | 'string') => void): void {
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

const XSD = 'http://www.w3.org/2001/XMLSchema#';
const POSITIVE_NUMBER = /\+(?:(\d+\.\d*[eE][+-]?\d+|\.\d+[eE][+-]?\d+|\d+[eE][+-]?\d+)|(\d*\.\d+)|(\d+))/y;

/**
 * Writes the numbers with an explicit `+` that stand as terms (in triple patterns, templates
 * and VALUES, outside any parentheses) as typed literals keeping their lexical form:
 * `:x :p +5` matches the data term `"+5"^^xsd:integer`, which sparqljs would read as `5`.
 * Signs inside parentheses are left alone (there `?a +5` is an addition).
 */
export function keepPositiveSigns(text: string): string {
  if (!/\+[\d.]/.test(text)) return text;
  const edits: Array<{ start: number; end: number; literal: string }> = [];
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
      edits.push({ start: i, end: POSITIVE_NUMBER.lastIndex, literal: `"${m[0]}"^^<${XSD}${type}>` });
    }
  });
  let out = text;
  for (const e of edits.reverse()) out = out.slice(0, e.start) + e.literal + out.slice(e.end);
  return out;
}

/**
 * Gives a label to every blank node property list that stands as a whole triple in a template
 * or a data block (`{ [ :p 1 ] }`, `… . [ :p ?x ; :q 2 ] .`), which sparqljs fails on:
 * `[ props ] .` becomes `_:label props .`, the same triples. Used only to retry a text
 * sparqljs failed on.
 */
export function labelBracketSubjects(text: string): string {
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
  if (replaced.size === 0) return text;
  let out = '';
  let copied = 0;
  for (const [at, by] of [...replaced].sort((a, b) => a[0] - b[0])) {
    out += text.slice(copied, at) + by;
    copied = at + 1;
  }
  return out + text.slice(copied);
}

/**
 * Parses SPARQL text with sparqljs after {@link unescapeIriCodepoints} and
 * {@link keepPositiveSigns}; when sparqljs fails on a blank node property list standing as a
 * triple, the text is parsed again with {@link labelBracketSubjects}.
 */
export function parseSparqlText<T>(parse: (text: string) => T, text: string): T {
  const prepared = keepPositiveSigns(unescapeIriCodepoints(text));
  try {
    return parse(prepared);
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
    const relabelled = labelBracketSubjects(prepared);
    if (relabelled === prepared) throw e;
    return parse(relabelled);
  }
}
