/**
 * The SPARQL entry points and answer types the connection API uses, passed on from `sparql/`
 * so that the api layer talks to the server layer only: query evaluation and explanation, the
 * answer sink interface and the query-term type of answer rows. Update parsing is passed on by
 * `updates.ts`, apart: the published types of the API reach this module, and must not reach
 * the SPARQL parser's (whose types are not the package's dependencies).
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
