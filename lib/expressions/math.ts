/**
 * The mathematical functions beyond SPARQL 1.1: the XPath `math:` functions (PI, POW, SQRT,
 * LOG, LOG10, EXP, EXP10, the trigonometric functions), RDFox's additions (CBRT, HYPOT, LOG2,
 * EXP2, the hyperbolic functions, ERF, ERFC, GAMMA, LGAMMA), MINFN/MAXFN, and integer division
 * and modulo (IDIV, MOD).
 *
 * The floating-point functions take any number (promoted to xsd:double) and return an
 * xsd:double; as in XPath, a result outside the function's domain is NaN or ±INF rather than an
 * error (`LOG(0)` is `-INF`, `SQRT(-1)` is `NaN`). A non-numeric argument is an error.
 * @module
 */
import { sparqlOrderCompare } from './comparison.js';
import { decimalFromBigInt, decimalMultiply, decimalSubtract, decimalToRational, rationalTruncate, type Decimal } from './decimal.js';
import { fail } from './errors.js';
import { type Numeric, commonType, decimal, double, float, integer, numericToInteger, toDouble, toFloat } from './numeric.js';
import { erf, erfc, gamma, lgamma } from './special-functions.js';
import { type Value, decode, integerLiteral, numericLiteral, requireNumeric } from './values.js';

/** A function of doubles lifted to values: numeric arguments in, an xsd:double out. */
function onDoubles(name: string, fn: (...xs: number[]) => number): (...args: Value[]) => Value {
  return (...args) => numericLiteral(double(fn(...args.map((a) => toDouble(requireNumeric(a, name))))));
}

/** math:pow with the IEEE 754 special cases XPath requires and `Math.pow` lacks (`pow(1, NaN)` is 1, `pow(-1, ±INF)` is 1). */
function pow(x: number, y: number): number {
  if (x === 1) return 1;
  if (x === -1 && (y === Infinity || y === -Infinity)) return 1;
  return Math.pow(x, y);
}

/** PI (math:pi): π as an xsd:double. */
export const pi: () => Value = onDoubles('PI', () => Math.PI);
/** POW (math:pow): x raised to the power y. */
export const power: (x: Value, y: Value) => Value = onDoubles('POW', pow);
/** SQRT (math:sqrt). */
export const sqrt: (x: Value) => Value = onDoubles('SQRT', Math.sqrt);
/** CBRT: the cube root. */
export const cbrt: (x: Value) => Value = onDoubles('CBRT', Math.cbrt);
/** HYPOT: √(x² + y²) without undue overflow. */
export const hypot: (x: Value, y: Value) => Value = onDoubles('HYPOT', (x, y) => Math.hypot(x, y));
/** LOG (math:log): the natural logarithm. */
export const log: (x: Value) => Value = onDoubles('LOG', Math.log);
/** LOG10 (math:log10). */
export const log10: (x: Value) => Value = onDoubles('LOG10', Math.log10);
/** LOG2. */
export const log2: (x: Value) => Value = onDoubles('LOG2', Math.log2);
/** EXP (math:exp). */
export const exp: (x: Value) => Value = onDoubles('EXP', Math.exp);
/** EXP10 (math:exp10): 10 to the power x. */
export const exp10: (x: Value) => Value = onDoubles('EXP10', (x) => Math.pow(10, x));
/** EXP2: 2 to the power x. */
export const exp2: (x: Value) => Value = onDoubles('EXP2', (x) => Math.pow(2, x));
/** SIN (math:sin), in radians. */
export const sin: (x: Value) => Value = onDoubles('SIN', Math.sin);
/** COS (math:cos). */
export const cos: (x: Value) => Value = onDoubles('COS', Math.cos);
/** TAN (math:tan). */
export const tan: (x: Value) => Value = onDoubles('TAN', Math.tan);
/** ASIN (math:asin). */
export const asin: (x: Value) => Value = onDoubles('ASIN', Math.asin);
/** ACOS (math:acos). */
export const acos: (x: Value) => Value = onDoubles('ACOS', Math.acos);
/** ATAN (math:atan). */
export const atan: (x: Value) => Value = onDoubles('ATAN', Math.atan);
/** ATAN2 (math:atan2): the angle of the point (x, y), from arguments y, x. */
export const atan2: (y: Value, x: Value) => Value = onDoubles('ATAN2', (y, x) => Math.atan2(y, x));
/** SINH. */
export const sinh: (x: Value) => Value = onDoubles('SINH', Math.sinh);
/** COSH. */
export const cosh: (x: Value) => Value = onDoubles('COSH', Math.cosh);
/** TANH. */
export const tanh: (x: Value) => Value = onDoubles('TANH', Math.tanh);
/** ASINH. */
export const asinh: (x: Value) => Value = onDoubles('ASINH', Math.asinh);
/** ACOSH. */
export const acosh: (x: Value) => Value = onDoubles('ACOSH', Math.acosh);
/** ATANH. */
export const atanh: (x: Value) => Value = onDoubles('ATANH', Math.atanh);
/** ERF: the error function. */
export const errorFunction: (x: Value) => Value = onDoubles('ERF', erf);
/** ERFC: the complementary error function. */
export const complementaryErrorFunction: (x: Value) => Value = onDoubles('ERFC', erfc);
/** GAMMA: the gamma function. */
export const gammaFunction: (x: Value) => Value = onDoubles('GAMMA', gamma);
/** LGAMMA: the natural logarithm of the absolute value of the gamma function. */
export const logGammaFunction: (x: Value) => Value = onDoubles('LGAMMA', lgamma);

function isNaNValue(v: Value): boolean {
  if (v.termType !== 'Literal') return false;
  const d = decode(v);
  return d.kind === 'numeric' && (d.numeric.type === 'float' || d.numeric.type === 'double') && Number.isNaN(d.numeric.value);
}

/**
 * The least (`sign` −1) or greatest (`sign` 1) argument under the order of `<`, returned as it
 * is (its datatype kept; the first of equal ones). A NaN argument is the result; arguments that
 * `<` cannot order (a string and a number, an IRI and a literal) make an error.
 */
function extreme(name: string, sign: 1 | -1, args: readonly Value[]): Value {
  if (args.length === 0) fail(`${name} takes at least one argument`);
  let best = args[0]!;
  if (isNaNValue(best)) return best;
  if (args.length === 1) sparqlOrderCompare(best, best); // a single argument must still be orderable
  for (let i = 1; i < args.length; i++) {
    const v = args[i]!;
    if (isNaNValue(v)) {
      sparqlOrderCompare(v, best);
      return v;
    }
    if (sparqlOrderCompare(v, best) * sign > 0) best = v;
  }
  return best;
}

/** MINFN: the least of its arguments. */
export function minFn(...args: Value[]): Value {
  return extreme('MINFN', -1, args);
}

/** MAXFN: the greatest of its arguments. */
export function maxFn(...args: Value[]): Value {
  return extreme('MAXFN', 1, args);
}

function asDecimal(n: Numeric): Decimal {
  return n.type === 'integer' ? decimalFromBigInt(n.value) : (n.value as Decimal);
}

/** The quotient of two decimals truncated toward zero (the divisor is not zero). */
function decimalQuotient(a: Decimal, b: Decimal): bigint {
  const x = decimalToRational(a);
  const y = decimalToRational(b);
  const num = x.num * y.den;
  const den = x.den * y.num;
  return den < 0n ? rationalTruncate({ num: -num, den: -den }) : rationalTruncate({ num, den });
}

/**
 * IDIV (XPath op:numeric-integer-divide): the quotient truncated toward zero, an xsd:integer.
 * Division by zero is an error, and so is a NaN or infinite dividend or a NaN divisor.
 */
export function idiv(x: Value, y: Value): Value {
  const a = requireNumeric(x, 'IDIV');
  const b = requireNumeric(y, 'IDIV');
  const type = commonType(a, b);
  if (type === 'integer') {
    if (b.value === 0n) fail('IDIV: division by zero');
    return integerLiteral((a.value as bigint) / (b.value as bigint));
  }
  if (type === 'decimal') {
    const divisor = asDecimal(b);
    if (divisor.unscaled === 0n) fail('IDIV: division by zero');
    return integerLiteral(decimalQuotient(asDecimal(a), divisor));
  }
  const p = type === 'float' ? toFloat(a) : toDouble(a);
  const q = type === 'float' ? toFloat(b) : toDouble(b);
  if (q === 0) fail('IDIV: division by zero');
  if (!Number.isFinite(p) || Number.isNaN(q)) fail(`IDIV: cannot divide ${p} by ${q}`);
  const quotient = type === 'float' ? Math.fround(p / q) : p / q;
  return integerLiteral(numericToInteger(double(Math.trunc(quotient))));
}

/**
 * MOD (XPath op:numeric-mod): the remainder of the division truncated toward zero, with the sign
 * of the dividend and the promoted type of the operands. For integers and decimals a zero
 * divisor is an error; for floats and doubles the IEEE remainder rules apply (NaN for a zero
 * divisor or an infinite dividend).
 */
export function mod(x: Value, y: Value): Value {
  const a = requireNumeric(x, 'MOD');
  const b = requireNumeric(y, 'MOD');
  switch (commonType(a, b)) {
    case 'integer':
      if (b.value === 0n) fail('MOD: division by zero');
      return numericLiteral(integer((a.value as bigint) % (b.value as bigint)));
    case 'decimal': {
      const dividend = asDecimal(a);
      const divisor = asDecimal(b);
      if (divisor.unscaled === 0n) fail('MOD: division by zero');
      const quotient = decimalFromBigInt(decimalQuotient(dividend, divisor));
      return numericLiteral(decimal(decimalSubtract(dividend, decimalMultiply(divisor, quotient))));
    }
    case 'float':
      return numericLiteral(float(Math.fround(toFloat(a) % toFloat(b))));
    case 'double':
      return numericLiteral(double(toDouble(a) % toDouble(b)));
  }
}
