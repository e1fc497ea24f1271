/**
 * SPARQL queries end to end: parsing (sparqljs, with the store's prefixes and base IRI),
 * translation to algebra (sparqlalgebrajs), the dataset (FROM / FROM NAMED or the store's
 * graphs), evaluation, and the answer as rows, a boolean or quads.
 *
 * This module is what the rest of quadlog imports, and it is light: the parser and the algebra
 * are loaded by the first parse (parse.ts), the evaluator (evaluation.ts, the engine and
 * property paths) by the first evaluation, inside these async functions (lazy-load.ts).
 * Importing quadlog loads neither.
 * @module
 */
import type { QueryRun } from './evaluation.js';
import { loadedAsCommonJS, requireSparqlModule } from './lazy-load.js';
import type { AnswerSink, QueryAnswer } from './types.js';

export type { QueryRun } from './evaluation.js';
export type { AnswerSink, EvaluationOptions, QueryAnswer, QueryOptions } from './types.js';

let evaluator: Promise<typeof import('./evaluation.js')> | undefined;

/** The evaluator, loaded on first use. */
function loadEvaluator(): Promise<typeof import('./evaluation.js')> {
  return (evaluator ??= loadedAsCommonJS ? requireSparqlModule('./evaluation.js') : import('./evaluation.js'));
}

/**
 * Evaluates a query, pushing the answer into `sink` as it is produced. The evaluation yields
 * to the event loop between batches of its driving scan (so that it can be interrupted); the
 * run's `pause`, called there too, may return a promise to wait for (backpressure). `plan`,
 * when given, receives the join order chosen for each basic graph pattern.
 */
export async function runQuery(run: QueryRun, text: string, sink: AnswerSink, plan?: string[]): Promise<void> {
  return (await loadEvaluator()).runQuery(run, text, sink, plan);
}

/**
 * The plan of a query as text: its algebra, and the join order chosen for each basic graph
 * pattern (found by evaluating the query, since orders depend on the bindings that reach a
 * pattern), with the number of answers and the time taken.
 */
export async function explainQuery(run: QueryRun, text: string): Promise<string> {
  return (await loadEvaluator()).explainQuery(run, text);
}

/** Evaluates a query and returns the whole answer. */
export async function evaluateQuery(run: QueryRun, text: string): Promise<QueryAnswer> {
  return (await loadEvaluator()).evaluateQuery(run, text);
}
