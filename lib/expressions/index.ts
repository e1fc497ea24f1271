/**
 * The SPARQL 1.1 expression evaluator shared by Datalog (FILTER, BIND, AGGREGATE) and the SPARQL
 * engine: operators and functions of §17 (type promotion, effective boolean value, error
 * semantics), XSD casts (§17.5), aggregates (§18.5), the ORDER BY order (§15.1) and the
 * comparisons of rules in RDFox's order of terms (`term-order.ts`), over
 * sparqlalgebrajs expression trees and RDF/JS terms from n3's DataFactory.
 * @module
 */
export type { Value } from './values.js';
export { ExpressionError } from './errors.js';
export type { EvaluationContext } from './compile.js';
export { compileExpression } from './compile.js';
export { effectiveBooleanValue } from './ebv.js';
export type { Aggregator, AggregateFunction, AggregatorOptions } from './aggregates.js';
export { aggregateArity, averageOf, createAggregator } from './aggregates.js';
export { compareForOrder, termOrderCompare, termOrderEquals, valueEquals } from './comparison.js';
export { inTermOrder } from './term-order.js';
export { forEachVariable } from './variables.js';
export { knownLiteralKey, rememberKeyedString } from './values.js';
