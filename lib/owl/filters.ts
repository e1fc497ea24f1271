/**
 * FILTER conditions of the rules the OWL compiler writes, built directly as SPARQL algebra
 * expressions (the form the Datalog parser gives a FILTER) together with their SPARQL text,
 * which the rule keeps for error messages and export. Each builder returns both, so that the
 * text always reads as the expression does: `a && b && c` nests to the left, as the SPARQL
 * grammar groups it.
 * @module
 */
import type * as RDF from '@rdfjs/types/data-model.js';
import { DataFactory } from 'n3';
import type { DatalogTerm } from '../datalog/ast.js';
import { Algebra } from '../expressions/sparql-libraries.js';
import { XSD_BOOLEAN, XSD_DOUBLE, XSD_FLOAT, XSD_INTEGER, XSD_STRING } from '../expressions/vocabulary.js';
import { termText } from '../model/terms.js';
import type { ObjectTerm } from './rdf-graph.js';


/** A FILTER condition: its algebra and its SPARQL text. */
export interface FilterExpression {
  /** The condition as the expression evaluator takes it. */
  readonly expression: Algebra.Expression;
  /** The condition as SPARQL text. */
  readonly text: string;
}

/** The condition of an operator applied to arguments, written by `write` from the arguments' texts. */
function operator(name: string, args: readonly FilterExpression[], write: (texts: string[]) => string): FilterExpression {
  const expression: Algebra.OperatorExpression = {
    type: Algebra.types.EXPRESSION,
    expressionType: Algebra.expressionTypes.OPERATOR,
    operator: name,
    args: args.map((a) => a.expression),
  };
  return { expression, text: write(args.map((a) => a.text)) };
}

/** A term as an expression, with its SPARQL text. */
function term(t: RDF.Term, text: string): FilterExpression {
  const expression: Algebra.TermExpression = { type: Algebra.types.EXPRESSION, expressionType: Algebra.expressionTypes.TERM, term: t };
  return { expression, text };
}

/** The SPARQL text of a constant: `<iri>`, `_:label` or a quoted literal with its tag or datatype. */
export function constantText(t: ObjectTerm | RDF.Quad): string {
  if (t.termType === 'Quad') return termText(t);
  if (t.termType === 'NamedNode') return `<${t.value}>`;
  if (t.termType === 'BlankNode') return `_:${t.value}`;
  const value = JSON.stringify(t.value);
  return t.language !== '' ? `${value}@${t.language}` : `${value}^^<${t.datatype.value}>`;
}

/** A constant (an IRI, a literal or a triple term) as an expression. */
export function constantTerm(t: ObjectTerm | RDF.Quad): FilterExpression {
  return term(t, constantText(t));
}

/** A variable or constant of a rule as an expression (`?v`, `<iri>`, a literal). */
export function argument(t: DatalogTerm): FilterExpression {
  return t.kind === 'var' ? term(DataFactory.variable(t.name), `?${t.name}`) : constantTerm(t.term);
}

/** An IRI as an expression. */
export function iri(value: string): FilterExpression {
  return term(DataFactory.namedNode(value), `<${value}>`);
}

/** An integer as an expression, written as a SPARQL integer (`5`, `-128`). */
export function integer(n: bigint): FilterExpression {
  const text = n.toString();
  return term(DataFactory.literal(text, DataFactory.namedNode(XSD_INTEGER)), text);
}

/** The boolean `false`. */
export const FALSE: FilterExpression = term(DataFactory.literal('false', DataFactory.namedNode(XSD_BOOLEAN)), 'false');

/** `isLiteral(a)`. */
export function isLiteral(a: FilterExpression): FilterExpression {
  return operator('isliteral', [a], ([x]) => `isLiteral(${x!})`);
}

/** `DATATYPE(a)`. */
export function datatype(a: FilterExpression): FilterExpression {
  return operator('datatype', [a], ([x]) => `DATATYPE(${x!})`);
}

/** A binary comparison `a op b` (`=`, `!=`, `<=`, `>=`). */
export function compare(op: '=' | '!=' | '<=' | '>=', a: FilterExpression, b: FilterExpression): FilterExpression {
  return operator(op, [a, b], ([x, y]) => `${x!} ${op} ${y!}`);
}

/** `a IN (b1, …, bn)`. */
export function among(a: FilterExpression, set: readonly FilterExpression[]): FilterExpression {
  return operator('in', [a, ...set], ([x, ...rest]) => `${x!} IN (${rest.join(', ')})`);
}

/** `a && b && …`, nested to the left; the one operand itself when there is one. */
export function and(first: FilterExpression, ...rest: FilterExpression[]): FilterExpression {
  return rest.reduce((l, r) => operator('&&', [l, r], ([x, y]) => `${x!} && ${y!}`), first);
}

/** `!a` for a call or a negation; `!(a)` otherwise (`parenthesise`). */
export function not(a: FilterExpression, parenthesise: boolean): FilterExpression {
  return operator('!', [a], ([x]) => (parenthesise ? `!(${x!})` : `!${x!}`));
}

/** `COALESCE(a, b)`. */
export function coalesce(a: FilterExpression, b: FilterExpression): FilterExpression {
  return operator('coalesce', [a, b], ([x, y]) => `COALESCE(${x!}, ${y!})`);
}

/** `a || b`. */
export function or(a: FilterExpression, b: FilterExpression): FilterExpression {
  return operator('||', [a, b], ([x, y]) => `${x!} || ${y!}`);
}

/** `sameTerm(a, b)`. */
export function sameTerm(a: FilterExpression, b: FilterExpression): FilterExpression {
  return operator('sameterm', [a, b], ([x, y]) => `sameTerm(${x!}, ${y!})`);
}

/** `STRSTARTS(STR(a), "-")`: the literal is written with a minus sign. */
function negativeSign(a: FilterExpression): FilterExpression {
  const str = operator('str', [a], ([x]) => `STR(${x!})`);
  return operator('strstarts', [str, term(DataFactory.literal('-', DataFactory.namedNode(XSD_STRING)), '"-"')], ([x, y]) => `STRSTARTS(${x!}, ${y!})`);
}

/**
 * Whether two terms are literals denoting different data values in OWL 2's value spaces
 * (OWL 2 Structural Specification §4): not the same term, and not equal by SPARQL's `=`
 * unless floating-point values are involved, whose value spaces (xsd:float, xsd:double) are
 * disjoint from each other and from the numbers of owl:real, and in which `+0` and `-0` are
 * different values while NaN is the same value as itself. SPARQL's `=` alone gets these wrong
 * (`0.0 = -0.0` holds, `NaN = NaN` does not, and `"1"^^xsd:float = 1` holds).
 *
 * The text reads `isLiteral(a) && isLiteral(b) && !sameTerm(a, b) && !COALESCE(a = b &&
 * (DATATYPE(a) = DATATYPE(b) && STRSTARTS(STR(a), "-") = STRSTARTS(STR(b), "-") ||
 * !(DATATYPE(a) IN (xsd:float, xsd:double)) && !(DATATYPE(b) IN (xsd:float, xsd:double))), false)`.
 */
export function differentValues(a: FilterExpression, b: FilterExpression): FilterExpression {
  const notFloating = (x: FilterExpression): FilterExpression => not(among(datatype(x), [iri(XSD_FLOAT), iri(XSD_DOUBLE)]), true);
  const sameFloat = and(compare('=', datatype(a), datatype(b)), compare('=', negativeSign(a), negativeSign(b)));
  const parenthesised = (x: FilterExpression): FilterExpression => ({ expression: x.expression, text: `(${x.text})` });
  const sameValue = and(compare('=', a, b), parenthesised(or(sameFloat, and(notFloating(a), notFloating(b)))));
  return and(isLiteral(a), isLiteral(b), not(sameTerm(a, b), false), not(coalesce(sameValue, FALSE), false));
}

/**
 * The SPARQL text of {@link differentValues} on two variables (`differentValuesCondition('x',
 * 'y')`), for rules written as Datalog text.
 */
export function differentValuesCondition(a: string, b: string): string {
  const variable = (name: string): FilterExpression => term(DataFactory.variable(name), `?${name}`);
  return differentValues(variable(a), variable(b)).text;
}
