/**
 * The SPARQL entry points and answer types the connection API uses, passed on from `sparql/`
 * so that the api layer talks to the server layer only: query evaluation and explanation,
 * update parsing, the answer sink interface and the query-term type of answer rows.
 * @module
 */
export {
  type AnswerSink,
  type EvaluationOptions,
  evaluateQuery,
  explainQuery,
  runQuery,
  type QueryAnswer,
  type QueryOptions,
} from '../sparql/query.js';
export type { QueryTerm } from '../sparql/query-terms.js';
export { parseUpdate } from '../sparql/update.js';
