/**
 * The SPARQL algebra of sparqlalgebrajs as a namespace that costs nothing to load: its types,
 * and its two enumerations (`types`, `expressionTypes`) as plain constants with the same
 * values, so that code telling algebra nodes apart does not load the library. Imported as
 * `Algebra` from `sparql-libraries.ts`, it reads like sparqlalgebrajs's own `Algebra`.
 * @module
 */
import type * as SparqlAlgebra from 'sparqlalgebrajs/lib/algebra.js';

export type * from 'sparqlalgebrajs/lib/algebra.js';

/** The operation types: the values of sparqlalgebrajs's `Algebra.types`. */
export const types = {
  ALT: 'alt',
  ASK: 'ask',
  BGP: 'bgp',
  CONSTRUCT: 'construct',
  DESCRIBE: 'describe',
  DISTINCT: 'distinct',
  EXPRESSION: 'expression',
  EXTEND: 'extend',
  FILTER: 'filter',
  FROM: 'from',
  GRAPH: 'graph',
  GROUP: 'group',
  INV: 'inv',
  JOIN: 'join',
  LEFT_JOIN: 'leftjoin',
  LINK: 'link',
  MINUS: 'minus',
  NOP: 'nop',
  NPS: 'nps',
  ONE_OR_MORE_PATH: 'OneOrMorePath',
  ORDER_BY: 'orderby',
  PATH: 'path',
  PATTERN: 'pattern',
  PROJECT: 'project',
  REDUCED: 'reduced',
  SEQ: 'seq',
  SERVICE: 'service',
  SLICE: 'slice',
  UNION: 'union',
  VALUES: 'values',
  ZERO_OR_MORE_PATH: 'ZeroOrMorePath',
  ZERO_OR_ONE_PATH: 'ZeroOrOnePath',
  COMPOSITE_UPDATE: 'compositeupdate',
  DELETE_INSERT: 'deleteinsert',
  LOAD: 'load',
  CLEAR: 'clear',
  CREATE: 'create',
  DROP: 'drop',
  ADD: 'add',
  MOVE: 'move',
  COPY: 'copy',
} as const satisfies Record<keyof typeof SparqlAlgebra.types, string> as unknown as typeof SparqlAlgebra.types;

/** The expression types: the values of sparqlalgebrajs's `Algebra.expressionTypes`. */
export const expressionTypes = {
  AGGREGATE: 'aggregate',
  EXISTENCE: 'existence',
  NAMED: 'named',
  OPERATOR: 'operator',
  TERM: 'term',
  WILDCARD: 'wildcard',
} as const satisfies Record<keyof typeof SparqlAlgebra.expressionTypes, string> as unknown as typeof SparqlAlgebra.expressionTypes;
