/**
 * The one error class of the expression evaluator.
 * @module
 */

/**
 * Thrown for every SPARQL expression error (type error, unbound variable, bad cast, division
 * by zero, invalid regular expression…). Callers treat it as the SPARQL "error" value: a FILTER
 * drops the solution, a BIND leaves the variable unbound, `||`/`&&`/COALESCE/IF absorb it where
 * the specification says so.
 */
export class ExpressionError extends Error {
  /** Creates the error with a message (and optionally a cause). */
  constructor(message?: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'ExpressionError';
  }
}

/**
 * Throws an {@link ExpressionError} (an expression, usable after `??` and in arrow bodies).
 * Expression errors are ordinary values in SPARQL (a FILTER that fails on an unbound variable),
 * so they are made without a stack trace, which is most of the cost of throwing.
 */
export function fail(message: string): never {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  const error = new ExpressionError(message);
  Error.stackTraceLimit = limit;
  throw error;
}
