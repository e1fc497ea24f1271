/**
 * The static rules of SPARQL (1.1 §18.2.4.1, as SPARQL 1.2 words them) on what a SELECT
 * clause may use, checked on the sparqljs syntax tree of every query and subquery: sparqljs's
 * own check is switched off (`skipValidation`), because it forbids what SPARQL 1.2 allows
 * (`SELECT (COUNT(?v) AS ?c) (?c + 1 AS ?d)`, an earlier SELECT expression's variable) and
 * misses what it forbids. A query is aggregating when it has GROUP BY, HAVING, or an aggregate
 * in its SELECT clause or ORDER BY; then
 * - a variable projected alone is a GROUP BY key or an earlier `(… AS ?v)` of the clause;
 * - an expression uses other variables only inside aggregates;
 * - `(… AS ?v)` names a variable not in scope already: not a GROUP BY key (`?v` or
 *   `(… AS ?v)`), nor an earlier `AS` of the clause;
 * - `SELECT *` is not allowed.
 * In every query an aggregate holds no aggregate, and a VALUES block names each of its
 * variables once (checked on the text, since sparqljs keeps its rows as objects by name).
 * @module
 */
import { QueryCompilationError } from '../model/errors.js';
import { forEachSignificant } from './syntax.js';

/** A node of the sparqljs syntax tree, seen structurally. */
type SyntaxNode = { readonly [key: string]: unknown };

function isNode(x: unknown): x is SyntaxNode {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** Whether a syntax node is a variable term. */
function isVariable(x: unknown): x is { readonly termType: 'Variable'; readonly value: string } {
  return isNode(x) && x.termType === 'Variable' && typeof x.value === 'string';
}

/** A breach of the rules this module checks (so that a SPARQL 1.2 text is refused with it, not with sparqljs's error). */
export class SelectScopeError extends QueryCompilationError {}

function invalid(why: string): never {
  throw new SelectScopeError(`invalid query: ${why}`);
}

/**
 * Calls `visit` with each aggregate of an expression (not inside another, nor inside EXISTS);
 * refuses an aggregate that holds one.
 */
function forEachAggregate(e: unknown, visit: (aggregate: SyntaxNode) => void): void {
  if (Array.isArray(e)) {
    for (const x of e) forEachAggregate(x, visit);
    return;
  }
  if (!isNode(e) || typeof e.termType === 'string') return;
  if (e.type === 'aggregate') {
    forEachAggregate(e.expression, () => invalid(`an aggregate (${String(e.aggregation).toUpperCase()}) cannot hold another aggregate`));
    visit(e);
    return;
  }
  if (e.type === 'operation' && (e.operator === 'exists' || e.operator === 'notexists')) return;
  if (e.type === 'operation' || e.type === 'functionCall') forEachAggregate(e.args, visit);
}

/** Calls `visit` with each variable an expression uses outside aggregates and EXISTS. */
function forEachFreeVariable(e: unknown, visit: (name: string) => void): void {
  if (Array.isArray(e)) {
    for (const x of e) forEachFreeVariable(x, visit);
    return;
  }
  if (isVariable(e)) {
    visit(e.value);
    return;
  }
  if (!isNode(e) || e.type === 'aggregate') return;
  if (e.type === 'operation' && (e.operator === 'exists' || e.operator === 'notexists')) return;
  if (e.type === 'operation' || e.type === 'functionCall') forEachFreeVariable(e.args, visit);
}

/** Whether an expression holds an aggregate. */
function hasAggregate(e: unknown): boolean {
  let found = false;
  forEachAggregate(e, () => (found = true));
  return found;
}

/** Checks one SELECT (sub)query's clause against its GROUP BY, as the module says. */
function checkSelect(q: SyntaxNode): void {
  const variables = Array.isArray(q.variables) ? (q.variables as unknown[]) : [];
  const group = Array.isArray(q.group) ? (q.group as SyntaxNode[]) : [];
  const order = Array.isArray(q.order) ? (q.order as SyntaxNode[]) : [];
  const having = Array.isArray(q.having) ? q.having : [];
  // every aggregate anywhere in the clauses: none nested
  for (const v of variables) if (isNode(v)) forEachAggregate(v.expression, () => undefined);
  for (const g of group) forEachAggregate(g.expression, () => undefined);
  for (const o of order) forEachAggregate(o.expression, () => undefined);
  forEachAggregate(having, () => undefined);
  const aggregating =
    group.length > 0 || having.length > 0 || variables.some((v) => isNode(v) && hasAggregate(v.expression)) || order.some((o) => hasAggregate(o.expression));
  if (!aggregating) return;
  const scope = new Set<string>();
  for (const g of group) {
    if (isVariable(g.variable)) {
      if (scope.has(g.variable.value)) invalid(`?${g.variable.value} is bound twice in GROUP BY`);
      scope.add(g.variable.value);
    } else if (isVariable(g.expression)) scope.add(g.expression.value);
  }
  for (const v of variables) {
    if (isVariable(v)) {
      if (!scope.has(v.value)) invalid(`?${v.value} is projected but neither grouped nor bound earlier in the SELECT clause`);
      continue;
    }
    if (!isNode(v) || !isVariable(v.variable)) invalid('SELECT * cannot be used with GROUP BY, HAVING or aggregates');
    const target = v.variable.value;
    forEachFreeVariable(v.expression, (name) => {
      if (!scope.has(name)) invalid(`?${name} is used outside an aggregate in the expression of ?${target} but is neither grouped nor bound earlier in the SELECT clause`);
    });
    if (scope.has(target)) invalid(`?${target} is already in scope (a GROUP BY key or an earlier SELECT expression) and cannot be bound by AS`);
    scope.add(target);
  }
}

/**
 * Checks the SELECT clause of a query and of each of its subqueries (see the module
 * documentation).
 * @throws QueryCompilationError saying which rule the query breaks.
 */
export function checkSelectScopes(tree: unknown): void {
  const seen = new Set<object>();
  const walk = (x: unknown): void => {
    if (typeof x !== 'object' || x === null || seen.has(x)) return;
    seen.add(x);
    if (Array.isArray(x)) {
      for (const item of x) walk(item);
      return;
    }
    const o = x as SyntaxNode;
    if (typeof o.termType === 'string') return;
    if (o.type === 'query' && o.queryType === 'SELECT') checkSelect(o);
    else if (o.type === 'aggregate') forEachAggregate(o, () => undefined);
    for (const v of Object.values(o)) walk(v);
  };
  walk(tree);
}

/**
 * Refuses a VALUES block that names a variable twice (`VALUES (?a ?a) { … }`), looking at the
 * text (strings, IRIs and comments skipped).
 * @throws QueryCompilationError naming the variable.
 */
export function checkValuesVariables(text: string): void {
  if (!/values/i.test(text)) return;
  // the state of the scan: after VALUES, in its parenthesised variable list
  let state: 'none' | 'keyword' | 'list' = 'none';
  let names = new Set<string>();
  // the offset after the keyword VALUES, once found
  let after = 0;
  forEachSignificant(text, (i, kind) => {
    if (i < after) return;
    if (kind !== 'char') {
      state = 'none';
      return;
    }
    const c = text[i]!;
    if (state === 'list') {
      if (c === ')') state = 'none';
      else if ((c === '?' || c === '$') && (i === 0 || !/[\p{L}\p{N}_]/u.test(text[i - 1]!))) {
        const name = /[\p{L}\p{N}_\u00B7\u203F\u2040]+/uy;
        name.lastIndex = i + 1;
        const m = name.exec(text);
        if (m) {
          if (names.has(m[0])) invalid(`?${m[0]} is named twice in a VALUES block`);
          names.add(m[0]);
        }
      }
      return;
    }
    if (/\s/.test(c)) return;
    if (state === 'keyword' && c === '(') {
      state = 'list';
      names = new Set();
      return;
    }
    state = 'none';
    if ((c === 'v' || c === 'V') && /^values\b/i.test(text.slice(i, i + 7)) && (i === 0 || !/[\p{L}\p{N}_:?$]/u.test(text[i - 1]!))) {
      state = 'keyword';
      after = i + 6;
    }
  });
}
