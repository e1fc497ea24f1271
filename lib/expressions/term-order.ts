/**
 * Comparisons in RDFox's order of terms, the order rules compare in: `=` and `!=` compare any
 * two terms (an IRI with a blank node, literals of any two datatypes) and `<` `>` `<=` `>=`
 * order any two terms (IRIs among themselves, as RDFox's manual has rules pick the smallest
 * member of a clique with `FILTER(?x < ?y)`), where SPARQL 1.1 makes most of these comparisons an
 * error. See {@link termOrderCompare} and {@link termOrderEquals} for the order itself.
 *
 * A rule's expressions are compiled by the same compiler as SPARQL's; {@link inTermOrder} gives
 * the expression whose comparison operators (and IN, NOT IN) are the term-order ones, operators
 * of their own names which SPARQL text cannot spell, so SPARQL keeps its own semantics.
 * @module
 */
import { termOrderCompare, termOrderEquals } from './comparison.js';
import { Algebra } from './sparql-libraries.js';
import type { Value } from './values.js';
import { booleanLiteral } from './vocabulary.js';

/** SPARQL operator → its term-order counterpart (not a SPARQL operator name). */
const COUNTERPARTS: ReadonlyMap<string, string> = new Map([
  ['=', 'term-order ='],
  ['!=', 'term-order !='],
  ['<', 'term-order <'],
  ['>', 'term-order >'],
  ['<=', 'term-order <='],
  ['>=', 'term-order >='],
  ['in', 'term-order in'],
  ['notin', 'term-order notin'],
]);

/** The binary term-order operators, by name (as the expression compiler looks strict operators up). */
export const TERM_ORDER_OPERATORS: ReadonlyMap<string, (a: Value, b: Value) => Value> = new Map([
  ['term-order =', (a: Value, b: Value) => booleanLiteral(termOrderEquals(a, b))],
  ['term-order !=', (a: Value, b: Value) => booleanLiteral(!termOrderEquals(a, b))],
  ['term-order <', (a: Value, b: Value) => booleanLiteral(termOrderCompare(a, b) < 0)],
  ['term-order >', (a: Value, b: Value) => booleanLiteral(termOrderCompare(a, b) > 0)],
  ['term-order <=', (a: Value, b: Value) => booleanLiteral(termOrderCompare(a, b) <= 0)],
  ['term-order >=', (a: Value, b: Value) => booleanLiteral(termOrderCompare(a, b) >= 0)],
]);

/** The names of the term-order IN and NOT IN. */
export const TERM_ORDER_IN = 'term-order in';
/** See {@link TERM_ORDER_IN}. */
export const TERM_ORDER_NOT_IN = 'term-order notin';

/**
 * `expression` with every comparison (`=` `!=` `<` `>` `<=` `>=` `IN` `NOT IN`) in RDFox's order of
 * terms, at any depth; the same object when it has none. Terms, other operators and function
 * calls are kept; EXISTS patterns are left as they are (rules have none).
 */
export function inTermOrder(expression: Algebra.Expression): Algebra.Expression {
  switch (expression.expressionType) {
    case Algebra.expressionTypes.OPERATOR: {
      const args = rewriteAll(expression.args);
      const operator = COUNTERPARTS.get(expression.operator.toLowerCase());
      if (operator === undefined && args === expression.args) return expression;
      return { ...expression, operator: operator ?? expression.operator, args };
    }
    case Algebra.expressionTypes.NAMED: {
      const args = rewriteAll(expression.args);
      return args === expression.args ? expression : { ...expression, args };
    }
    case Algebra.expressionTypes.AGGREGATE: {
      const inner = inTermOrder(expression.expression);
      return inner === expression.expression ? expression : { ...expression, expression: inner };
    }
    default:
      return expression;
  }
}

function rewriteAll(args: Algebra.Expression[]): Algebra.Expression[] {
  let changed = false;
  const out = args.map((a) => {
    const r = inTermOrder(a);
    if (r !== a) changed = true;
    return r;
  });
  return changed ? out : args;
}
