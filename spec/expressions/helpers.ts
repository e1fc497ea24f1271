/**
 * Helpers for the expression evaluator tests: parse SPARQL expression text with sparqljs and
 * sparqlalgebrajs, evaluate it, and render values compactly.
 */
import { expect } from 'chai';
import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import { Algebra, translate } from 'sparqlalgebrajs';
import { type EvaluationContext, type Value, compileExpression, ExpressionError } from '../../lib/expressions/index.js';

export const XSD = 'http://www.w3.org/2001/XMLSchema#';
const PREFIXES = `PREFIX xsd: <${XSD}> PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> PREFIX ex: <http://example.org/> `;

function findExtend(op: Algebra.Operation): Algebra.Extend {
  if (op.type === Algebra.types.EXTEND) return op;
  const input = (op as { input?: Algebra.Operation | Algebra.Operation[] }).input;
  if (input === undefined || Array.isArray(input)) throw new Error('no extend');
  return findExtend(input);
}

/** The algebra expression of SPARQL expression text (`BIND(text AS ?r)`). */
export function expr(text: string): Algebra.Expression {
  const query = translate(`${PREFIXES}SELECT * WHERE { BIND(${text} AS ?r) }`);
  return findExtend(query).expression;
}

/** The algebra expression of a FILTER (for EXISTS). */
export function filterExpr(text: string): Algebra.Expression {
  let op: Algebra.Operation = translate(`${PREFIXES}SELECT * WHERE { ?s ?p ?o FILTER(${text}) }`);
  while (op.type !== Algebra.types.FILTER) op = (op as { input: Algebra.Operation }).input;
  return op.expression;
}

/** Parses a Turtle-like term: `<iri>`, `_:b`, `"x"`, `"x"@en`, `"x"^^xsd:integer`, `1`, `1.5`, `1e0`, `true`. */
export function term(text: string): Value {
  const e = expr(text);
  if (e.expressionType !== Algebra.expressionTypes.TERM) throw new Error(`not a term: ${text}`);
  const t = e.term;
  if (t.termType === 'NamedNode') return DataFactory.namedNode(t.value);
  if (t.termType === 'BlankNode') return DataFactory.blankNode(t.value);
  if (t.termType === 'Literal') return t.language ? DataFactory.literal(t.value, t.language) : DataFactory.literal(t.value, DataFactory.namedNode(t.datatype.value));
  throw new Error(`not a constant: ${text}`);
}

/** Default context: a fixed NOW. */
export const NOW = new Date('2024-02-29T12:34:56.789Z');
export const context: EvaluationContext = { now: NOW, baseIRI: 'http://example.org/base/' };

/** Evaluates expression text with variable bindings given as term text or values. */
export function evaluate(text: string, bindings: Record<string, string | Value> = {}, ctx: EvaluationContext = context): Value {
  const f = compileExpression(expr(text), ctx);
  return f((name) => {
    const b = bindings[name];
    return typeof b === 'string' ? term(b) : b;
  });
}

/** Renders a value compactly: `<iri>`, `_:b`, `"x"`, `"x"@en`, `"1"^^xsd:integer` (xsd: abbreviated). */
export function show(v: RDF.Term): string {
  switch (v.termType) {
    case 'NamedNode':
      return `<${v.value}>`;
    case 'BlankNode':
      return `_:${v.value}`;
    case 'Literal': {
      const lit = v;
      if (lit.language) return `"${lit.value}"@${lit.language}`;
      const dt = lit.datatype.value;
      if (dt === `${XSD}string`) return `"${lit.value}"`;
      return `"${lit.value}"^^${dt.startsWith(XSD) ? `xsd:${dt.slice(XSD.length)}` : `<${dt}>`}`;
    }
    default:
      return v.termType;
  }
}

/** The rendered value of expression text, or `'error'` when it raises an ExpressionError. */
export function ev(text: string, bindings: Record<string, string | Value> = {}, ctx: EvaluationContext = context): string {
  try {
    return show(evaluate(text, bindings, ctx));
  } catch (e) {
    if (e instanceof ExpressionError) return 'error';
    throw e;
  }
}

/** The boolean literals as {@link ev} writes them. */
export const T = '"true"^^xsd:boolean';
/** See {@link T}. */
export const F = '"false"^^xsd:boolean';

/** One test per row: the expression text evaluates (under `bindings`) to the expected term text. */
export function table(rows: readonly (readonly [string, string])[], bindings: Record<string, string> = {}): void {
  for (const [text, expected] of rows) {
    it(`${text} → ${expected}`, () => {
      expect(ev(text, bindings)).to.equal(expected);
    });
  }
}
