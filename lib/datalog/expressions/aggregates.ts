/**
 * The aggregate set functions of §18.5.1: COUNT, SUM, AVG, MIN, MAX, SAMPLE and GROUP_CONCAT,
 * as running accumulators, with DISTINCT.
 *
 * Errors (an expression that failed or was unbound, passed as `undefined`): COUNT skips them
 * (§18.5.1.2 "remove error elements"); SUM and AVG become errors (op:numeric-add of an error);
 * MIN, MAX, SAMPLE and GROUP_CONCAT skip them. A value of the wrong type makes SUM, AVG and
 * GROUP_CONCAT errors (a blank node in GROUP_CONCAT; literals contribute their lexical form and
 * IRIs their IRI string). Empty groups: COUNT 0, SUM 0, AVG 0 (all xsd:integer), GROUP_CONCAT
 * `""`, MIN/MAX/SAMPLE unbound.
 * @module
 */
import { compareForOrder, termKey } from './comparison.js';
import { ExpressionError } from './errors.js';
import { type Numeric, integer, numericAdd, numericDivide } from './numeric.js';
import { type Value, decode, integerLiteral, numericLiteral, stringLiteral } from './values.js';

/** A running aggregate for GROUP BY / Datalog AGGREGATE. */
export interface Aggregator {
  /** Adds the value of one solution (`undefined` = the expression failed or was unbound). */
  add(value: Value | undefined): void;
  /** The aggregate of the values added so far; `undefined` = unbound result (e.g. error). */
  result(): Value | undefined;
}

/** The aggregate functions. */
export type AggregateFunction = 'count' | 'sum' | 'min' | 'max' | 'avg' | 'sample' | 'group_concat';

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
    if (this.n === 0n) return integerLiteral(0n);
    try {
      return numericLiteral(numericDivide(this.sum, integer(this.n)));
    } catch (e) {
      if (e instanceof ExpressionError) return undefined;
      throw e;
    }
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
    const key = termKey(value);
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.inner.add(value);
  }
  result(): Value | undefined {
    return this.inner.result();
  }
}

/** Creates a running aggregate (§18.5.1) for one group. */
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
    default:
      throw new ExpressionError(`unknown aggregate function ${String(fn)}`);
  }
  return distinct ? new Distinct(a, options?.countStar === true) : a;
}
