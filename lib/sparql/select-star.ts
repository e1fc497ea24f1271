/**
 * The columns of `SELECT *`: the variables in scope in the WHERE clause (SPARQL 1.1 §18.2.1,
 * as sparqlalgebrajs's translation finds them), in the order in which they first appear in the
 * query text, as Jena, RDF4J and Comunica give them (sparqlalgebrajs sorts them by name).
 * @module
 */
import type { SparqlQuery } from 'sparqljs';
import { Algebra } from '../expressions/sparql-libraries.js';
import { forEachSignificant } from './syntax.js';

/** A VARNAME after `?` or `$` (SPARQL 1.1 grammar, rule 166: letters, digits, `_`, `·`, `‿`, `⁀` and combining marks; a little wider, which no parsed query can tell). */
const VARNAME = /[\p{L}\p{N}\p{M}_\u00B7\u203F\u2040]+/uy;

/**
 * The position of the first occurrence of each variable name (without `?`) in a query text:
 * every `?name` and `$name` outside strings, IRIs and comments.
 */
export function firstAppearances(text: string): Map<string, number> {
  const first = new Map<string, number>();
  forEachSignificant(text, (i, kind) => {
    if (kind !== 'char') return;
    const c = text[i];
    if (c !== '?' && c !== '$') return;
    VARNAME.lastIndex = i + 1;
    const m = VARNAME.exec(text);
    if (m !== null && !first.has(m[0])) first.set(m[0], i);
  });
  return first;
}

function isSelectStar(parsed: SparqlQuery): boolean {
  return parsed.type === 'query' && parsed.queryType === 'SELECT' && parsed.variables.some((v) => 'termType' in v && v.termType === 'Wildcard');
}

/**
 * Puts the columns of a `SELECT *` query in the order their variables first appear in `text`
 * (the query the algebra was translated from): the projection of the query's answer (the first
 * PROJECT under its DISTINCT, REDUCED and slice) is rewritten in place. Variables the text
 * does not name (there are none in practice) keep their place after the others. Other queries
 * are left alone.
 */
export function orderSelectStarColumns(text: string, parsed: SparqlQuery, algebra: Algebra.Operation): void {
  if (!isSelectStar(parsed)) return;
  let op: Algebra.Operation = algebra;
  while (op.type !== Algebra.types.PROJECT && 'input' in op && op.input !== undefined && !Array.isArray(op.input)) op = op.input as Algebra.Operation;
  if (op.type !== Algebra.types.PROJECT || op.variables.length < 2) return;
  const first = firstAppearances(text);
  const at = (name: string): number => first.get(name) ?? Infinity;
  // a stable sort: names the text does not hold keep their relative order, last
  op.variables = [...op.variables].sort((a, b) => {
    const x = at(a.value);
    const y = at(b.value);
    return x === y ? 0 : x < y ? -1 : 1;
  });
}
