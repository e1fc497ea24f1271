/**
 * SPARQL expressions over the engine's solutions: an expression compiled by
 * `expressions/compile.ts` reads its variables from a solution of term ids, evaluates
 * `EXISTS` patterns with the engine under the solution's bindings (giving back to the query's
 * budget what the pattern held), makes `BNODE()` nodes in the solution's scope, and turns an
 * expression error into the SPARQL error value (undefined; false for a condition).
 * @module
 */
import { compileExpression, effectiveBooleanValue, type EvaluationContext, ExpressionError, type Value } from '../expressions/index.js';
import type { Algebra } from '../expressions/sparql-libraries.js';
import type { BlankNodeScopes } from './blank-node-scope.js';
import type { QueryBudget } from './query-budget.js';
import type { QueryTerms } from './query-terms.js';
import type { Emit } from './solutions.js';

/** What an expression needs of the engine evaluating it. */
export interface ExpressionHost {
  /** Slot of each variable name. */
  readonly slots: ReadonlyMap<string, number>;
  /** The query's term ids. */
  readonly terms: QueryTerms;
  /** The value of NOW() for the whole query. */
  readonly now: Date;
  /** The base IRI of the query, for IRI(). */
  readonly baseIRI: string | undefined;
  /** The role evaluating the query, for AGENT() (undefined: AGENT() is an error). */
  readonly agent: string | undefined;
  /** What the evaluation may hold in memory. */
  readonly budget: QueryBudget | undefined;
  /** The BNODE() nodes of the query's solutions. */
  readonly blankNodes: BlankNodeScopes;
  /** A fresh solution with every slot unbound. */
  empty(): Int32Array;
  /** Evaluates a pattern under `seed` with `active` as the active graph. */
  evaluate(op: Algebra.Operation, seed: Int32Array, active: number, emit: Emit): boolean;
}

/** The solution an expression reads before its first evaluation. */
const EMPTY_ROW = new Int32Array(0);

/** Compiles an expression over solutions, with `active` as the graph of EXISTS patterns; undefined on error. */
export function compileOverSolutions(host: ExpressionHost, e: Algebra.Expression, active: number): (s: Int32Array) => Value | undefined {
  const terms = host.terms;
  const blankNodes = host.blankNodes;
  const context: EvaluationContext = {
    now: host.now,
    ...(host.baseIRI !== undefined ? { baseIRI: host.baseIRI } : {}),
    ...(host.agent !== undefined ? { agent: host.agent } : {}),
    exists: (pattern: Algebra.Operation, get: (v: string) => Value | undefined): boolean => {
      const seed = host.empty();
      for (const [name, slot] of host.slots) {
        const v = get(name);
        if (v !== undefined) seed[slot] = terms.idOf(v);
      }
      // what the pattern held is garbage once it is tested: give it back to the budget
      const budget = host.budget;
      const mark = budget?.mark();
      try {
        return host.evaluate(pattern, seed, active, () => true);
      } finally {
        if (mark !== undefined) budget!.resetTo(mark);
      }
    },
    bnode: (label?: string) => blankNodes.forLabel(label),
  };
  const f = compileExpression(e, context);
  // one variable reader per expression (not one per solution), reading the solution being evaluated
  let row: Int32Array = EMPTY_ROW;
  const slots = host.slots;
  const get = (name: string): Value | undefined => {
    const slot = slots.get(name);
    if (slot === undefined) return undefined;
    const id = row[slot]!;
    return id === undefined || id === -1 ? undefined : terms.termOf(id);
  };
  return (s) => {
    const previous = blankNodes.enter(s);
    const previousRow = row;
    row = s;
    try {
      return f(get);
    } catch (e) {
      // an expression error is the SPARQL error value; anything else (an interruption inside EXISTS) stops the query
      if (e instanceof ExpressionError) return undefined;
      throw e;
    } finally {
      blankNodes.leave(previous);
      row = previousRow;
    }
  };
}

/** Compiles a condition over solutions (effective boolean value; errors are false). */
export function compileCondition(host: ExpressionHost, e: Algebra.Expression, active: number): (s: Int32Array) => boolean {
  const f = compileOverSolutions(host, e, active);
  return (s) => {
    const v = f(s);
    if (v === undefined) return false;
    try {
      return effectiveBooleanValue(v);
    } catch (e) {
      if (e instanceof ExpressionError) return false;
      throw e;
    }
  };
}
