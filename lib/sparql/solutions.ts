/**
 * Solutions as the evaluator's parts pass them on: Int32Arrays of term ids, one slot per
 * variable of the query (-1 unbound), pushed to a callback; the merge of two compatible
 * solutions; and the shape of an operator over the solutions of one input.
 * @module
 */
import type { Algebra } from '../expressions/sparql-libraries.js';

/** Receives solutions; returning true stops the evaluation. */
export type Emit = (solution: Int32Array) => boolean | void;

/**
 * Receives solutions from a driver that waits for what it returns before the next one (a basic
 * graph pattern's iterative join, a VALUES block): an answer that is a promise lets the
 * receiver evaluate something for the solution while the event loop goes on.
 */
export type AsyncEmit = (solution: Int32Array) => boolean | void | Promise<boolean>;

/**
 * An operator over the solutions of one input: the input (evaluated under `seed`), the
 * callback its solutions go to, and what to do once it is exhausted (`stopped`: whether the
 * callback asked to stop); the result says whether the caller must stop.
 */
export interface SingleInputOperator {
  /** The operator's input. */
  readonly input: Algebra.Operation;
  /** The bindings the input is evaluated under. */
  readonly seed: Int32Array;
  /** Receives the input's solutions. */
  readonly emit: Emit;
  /** Called once the input is exhausted (ORDER BY and GROUP BY emit then). */
  readonly finish?: (stopped: boolean) => boolean;
  /**
   * The same, for an evaluation that may let the event loop in: `pause` (a yield when the time
   * slice is used up; the time limit and interrupts checked) whenever `due` says so. Used
   * instead of `finish` where given.
   */
  readonly finishAsync?: (stopped: boolean, pause: () => Promise<void>, due: () => boolean) => Promise<boolean>;
  /**
   * For an evaluation that may let the event loop in, what to evaluate once before the input
   * (the solutions of a side evaluated on its own, collected without holding the event loop).
   */
  readonly prepareAsync?: () => Promise<void>;
  /**
   * For an evaluation that may let the event loop in and an input whose driver waits
   * ({@link AsyncEmit}): receives the input's solutions instead of `emit`, doing the work of
   * each (the other side of an OPTIONAL evaluated with its bindings) without holding the loop.
   */
  readonly emitAsync?: AsyncEmit;
}

/** The merge of two compatible solutions, or undefined. */
export function merge(a: Int32Array, b: Int32Array): Int32Array | undefined {
  const out = a.slice();
  for (let i = 0; i < b.length; i++) {
    const v = b[i]!;
    if (v === -1) continue;
    if (out[i]! === -1) out[i] = v;
    else if (out[i] !== v) return undefined;
  }
  return out;
}
