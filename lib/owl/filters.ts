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
import { XSD_BOOLEAN, XSD_INTEGER } from '../expressions/vocabulary.js';
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
export function constantText(t: ObjectTerm): string {
  if (t.termType === 'NamedNode') return `<${t.value}>`;
  if (t.termType === 'BlankNode') return `_:${t.value}`;
  const value = JSON.stringify(t.value);
  return t.language !== '' ? `${value}@${t.language}` : `${value}^^<${t.datatype.value}>`;
}

/** A constant (an IRI or a literal) as an expression. */
export function constantTerm(t: ObjectTerm): FilterExpression {
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
