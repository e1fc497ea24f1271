/**
 * The aggregate set functions of §18.5.1: COUNT, SUM, AVG, MIN, MAX, SAMPLE and GROUP_CONCAT,
 * and RDFox's MUL, COUNT_MIN, COUNT_MAX, MIN_ARGMIN, MAX_ARGMIN, MIN_ARGMAX and MAX_ARGMAX, as
 * running accumulators, with DISTINCT.
 *
 * Errors (an expression that failed or was unbound, passed as `undefined`): COUNT skips them
 * (§18.5.1.2 "remove error elements"); SUM, AVG and MUL become errors (op:numeric-add or
 * op:numeric-multiply of an error); MIN, MAX, COUNT_MIN, COUNT_MAX, SAMPLE and GROUP_CONCAT skip
 * them. A value of the wrong type makes SUM, AVG, MUL and GROUP_CONCAT errors (a blank node in
 * GROUP_CONCAT; literals contribute their lexical form and IRIs their IRI string). Empty groups:
 * COUNT, COUNT_MIN and COUNT_MAX 0, SUM 0, AVG 0, MUL 1 (all xsd:integer), GROUP_CONCAT `""`,
 * MIN/MAX/SAMPLE and the ARG functions unbound.
 *
 * Values are ordered as ORDER BY orders them ({@link compareForOrder}), a total order in which
 * two values tie only when they are the same term. COUNT_MIN(V) counts the solutions whose V is
 * the least value of V, COUNT_MAX(V) those whose V is the greatest. The ARG functions take two
 * arguments (A, V): among the solutions whose V is the least (ARGMIN) or the greatest (ARGMAX)
 * value of V, MIN_… gives the least and MAX_… the greatest value of A; a solution whose V is an
 * error is left out, one whose A is an error takes part in finding the extreme V but offers no
 * A (the result is unbound when no solution with the extreme V has an A). With DISTINCT, the
 * ARG functions see each distinct pair (A, V) once.
 * @module
 */
import { termToKey } from '../model/terms.js';
import { compareForOrder } from './comparison.js';
import { ExpressionError } from './errors.js';
import { type Numeric, integer, numericAdd, numericDivide, numericMultiply } from './numeric.js';
import { type Value, decode, integerLiteral, numericLiteral, stringLiteral } from './values.js';

/** A running aggregate for GROUP BY / Datalog AGGREGATE. */
export interface Aggregator {
  /**
   * Adds the value of one solution (`undefined` = the expression failed or was unbound). The
   * two-argument functions (MIN_ARGMIN and the like) take A as `value` and V as `second`.
   */
  add(value: Value | undefined, second?: Value): void;
  /** The aggregate of the values added so far; `undefined` = unbound result (e.g. error). */
  result(): Value | undefined;
}

/** The aggregate functions (lower case, as sparqlalgebrajs names the SPARQL ones). */
export type AggregateFunction =
  | 'count'
  | 'sum'
  | 'min'
  | 'max'
  | 'avg'
  | 'sample'
  | 'group_concat'
  | 'mul'
  | 'count_min'
  | 'count_max'
  | 'min_argmin'
  | 'max_argmin'
  | 'min_argmax'
  | 'max_argmax';

/** The functions that take two arguments (A, V). */
const TWO_ARGUMENTS: ReadonlySet<AggregateFunction> = new Set(['min_argmin', 'max_argmin', 'min_argmax', 'max_argmax']);

/** The number of arguments an aggregate function takes: 2 for the ARG functions, 1 otherwise (COUNT may take `*` or a list). */
export function aggregateArity(fn: AggregateFunction): 1 | 2 {
  return TWO_ARGUMENTS.has(fn) ? 2 : 1;
}

/** Options of {@link createAggregator}. */
export interface AggregatorOptions {
  /** GROUP_CONCAT separator (default one space). */
  readonly separator?: string;
  /**
   * COUNT(*): every `add` counts, whatever its value. With DISTINCT, the caller passes a term that
   * identifies the solution (e.g. a literal of its canonical key); `undefined` counts as one.
   */
  readonly countStar?: boolean;
}

class Count implements Aggregator {
  private n = 0n;
  constructor(private readonly star: boolean) {}
  add(value: Value | undefined): void {
    if (this.star || value !== undefined) this.n++;
  }
  result(): Value {
    return integerLiteral(this.n);
  }
}

function numericOf(value: Value | undefined): Numeric | undefined {
  if (value === undefined || value.termType !== 'Literal') return undefined;
  const v = decode(value);
  return v.kind === 'numeric' ? v.numeric : undefined;
}

class Sum implements Aggregator {
  protected sum: Numeric | undefined = integer(0n);
  protected n = 0n;
  add(value: Value | undefined): void {
    if (this.sum === undefined) return;
    const x = numericOf(value);
    this.sum = x === undefined ? undefined : numericAdd(this.sum, x);
    this.n++;
  }
  result(): Value | undefined {
    return this.sum === undefined ? undefined : numericLiteral(this.sum);
  }
}

class Avg extends Sum {
  override result(): Value | undefined {
    if (this.sum === undefined) return undefined;
    return averageOf(numericLiteral(this.sum), this.n);
  }
}

/**
 * AVG's result from the SUM of its values and their number: the sum divided by the number (0
 * for no values); undefined (an error) when the sum is not a number or the division fails.
 * What an AVG aggregator gives, for callers that keep the sum and the number themselves.
 */
export function averageOf(sum: Value | undefined, n: bigint): Value | undefined {
  const x = numericOf(sum);
  if (x === undefined) return undefined;
  if (n === 0n) return integerLiteral(0n);
  try {
    return numericLiteral(numericDivide(x, integer(n)));
  } catch (e) {
    if (e instanceof ExpressionError) return undefined;
    throw e;
  }
}

class Mul implements Aggregator {
  private product: Numeric | undefined = integer(1n);
  add(value: Value | undefined): void {
    if (this.product === undefined) return;
    const x = numericOf(value);
    this.product = x === undefined ? undefined : numericMultiply(this.product, x);
  }
  result(): Value | undefined {
    return this.product === undefined ? undefined : numericLiteral(this.product);
  }
}

/** COUNT_MIN (sign -1) and COUNT_MAX (sign 1): how many solutions have the extreme value. */
class CountExtreme implements Aggregator {
  private best: Value | undefined;
  private n = 0n;
  constructor(private readonly sign: number) {}
  add(value: Value | undefined): void {
    if (value === undefined) return;
    const c = this.best === undefined ? 1 : compareForOrder(value, this.best) * this.sign;
    if (c > 0) {
      this.best = value;
      this.n = 1n;
    } else if (c === 0) this.n++;
  }
  result(): Value {
    return integerLiteral(this.n);
  }
}

/** MIN_ARGMIN, MAX_ARGMIN, MIN_ARGMAX and MAX_ARGMAX: the extreme A among the solutions with the extreme V. */
class ArgExtreme implements Aggregator {
  private bestV: Value | undefined;
  private bestA: Value | undefined;
  constructor(
    /** -1 for ARGMIN, 1 for ARGMAX. */
    private readonly vSign: number,
    /** -1 for MIN_…, 1 for MAX_…. */
    private readonly aSign: number,
  ) {}
  add(a: Value | undefined, v?: Value): void {
    if (v === undefined) return;
    const c = this.bestV === undefined ? 1 : compareForOrder(v, this.bestV) * this.vSign;
    if (c > 0) {
      this.bestV = v;
      this.bestA = a;
    } else if (c === 0 && a !== undefined && (this.bestA === undefined || compareForOrder(a, this.bestA) * this.aSign > 0)) {
      this.bestA = a;
    }
  }
  result(): Value | undefined {
    return this.bestA;
  }
}

class Extreme implements Aggregator {
  private best: Value | undefined;
  constructor(private readonly sign: number) {}
  add(value: Value | undefined): void {
    if (value === undefined) return;
    if (this.best === undefined || compareForOrder(value, this.best) * this.sign > 0) this.best = value;
  }
  result(): Value | undefined {
    return this.best;
  }
}

class Sample implements Aggregator {
  private value: Value | undefined;
  add(value: Value | undefined): void {
    if (this.value === undefined) this.value = value;
  }
  result(): Value | undefined {
    return this.value;
  }
}

class GroupConcat implements Aggregator {
  private parts: string[] | undefined = [];
  constructor(private readonly separator: string) {}
  add(value: Value | undefined): void {
    if (value === undefined || this.parts === undefined) return;
    if (value.termType === 'BlankNode') this.parts = undefined;
    else this.parts.push(value.value);
  }
  result(): Value | undefined {
    return this.parts === undefined ? undefined : stringLiteral(this.parts.join(this.separator));
  }
}

/** DISTINCT for the two-argument functions: each pair (A, V) once. */
class DistinctPairs implements Aggregator {
  private readonly seen = new Set<string>();
  constructor(private readonly inner: Aggregator) {}
  add(a: Value | undefined, v?: Value): void {
    const key = `${a === undefined ? '' : termToKey(a)}\u0000${v === undefined ? '' : termToKey(v)}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.inner.add(a, v);
  }
  result(): Value | undefined {
    return this.inner.result();
  }
}

class Distinct implements Aggregator {
  private readonly seen = new Set<string>();
  constructor(
    private readonly inner: Aggregator,
    private readonly keepUndefinedOnce: boolean,
  ) {}
  add(value: Value | undefined): void {
    if (value === undefined) {
      if (!this.keepUndefinedOnce) return this.inner.add(undefined);
      if (this.seen.has('')) return;
      this.seen.add('');
      return this.inner.add(undefined);
    }
    const key = termToKey(value);
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.inner.add(value);
  }
  result(): Value | undefined {
    return this.inner.result();
  }
}

/**
 * Creates a running aggregate (§18.5.1, and RDFox's MUL, COUNT_MIN, COUNT_MAX and ARG functions)
 * for one group. See the module documentation for errors, empty groups and ties.
 */
export function createAggregator(fn: AggregateFunction, distinct: boolean, options?: AggregatorOptions): Aggregator {
  let a: Aggregator;
  switch (fn) {
    case 'count':
      a = new Count(options?.countStar === true);
      break;
    case 'sum':
      a = new Sum();
      break;
    case 'avg':
      a = new Avg();
      break;
    case 'min':
      a = new Extreme(-1);
      break;
    case 'max':
      a = new Extreme(1);
      break;
    case 'sample':
      a = new Sample();
      break;
    case 'group_concat':
      a = new GroupConcat(options?.separator ?? ' ');
      break;
    case 'mul':
      a = new Mul();
      break;
    case 'count_min':
      a = new CountExtreme(-1);
      break;
    case 'count_max':
      a = new CountExtreme(1);
      break;
    case 'min_argmin':
      a = new ArgExtreme(-1, -1);
      break;
    case 'max_argmin':
      a = new ArgExtreme(-1, 1);
      break;
    case 'min_argmax':
      a = new ArgExtreme(1, -1);
      break;
    case 'max_argmax':
      a = new ArgExtreme(1, 1);
      break;
    default:
      throw new ExpressionError(`unknown aggregate function ${String(fn)}`);
  }
  if (!distinct) return a;
  return TWO_ARGUMENTS.has(fn) ? new DistinctPairs(a) : new Distinct(a, options?.countStar === true);
}
