/**
 * The SPARQL numeric types (xsd:integer and its subtypes, xsd:decimal, xsd:float, xsd:double):
 * parsing, type promotion, arithmetic (XPath op:numeric-*), comparison, rounding functions and
 * the canonical lexical forms of results. Integers are arbitrary precision (bigint), decimals exact
 * ({@link Decimal}), floats are rounded to single precision exactly once.
 * @module
 */
import { fail } from './errors.js';
import {
  type Decimal,
  type Rational,
  decimalAdd,
  decimalCeil,
  decimalCompare,
  decimalDivide,
  decimalFloor,
  decimalFromBigInt,
  decimalMultiply,
  decimalNegate,
  decimalRound,
  decimalSign,
  decimalSubtract,
  decimalToCanonical,
  decimalToNumber,
  decimalToPlainString,
  decimalToRational,
  decimalTruncate,
  doubleToRational,
  makeDecimal,
  parseDecimal,
  rationalCompare,
  rationalTruncate,
} from './decimal.js';
import { XSD_DECIMAL, XSD_DOUBLE, XSD_FLOAT, XSD_INTEGER } from './vocabulary.js';

/** The four primitive numeric types of SPARQL, in promotion order. */
export type NumericType = 'integer' | 'decimal' | 'float' | 'double';

/** A numeric value with its (primitive) type. */
export type Numeric =
  | { readonly type: 'integer'; readonly value: bigint }
  | { readonly type: 'decimal'; readonly value: Decimal }
  | { readonly type: 'float'; readonly value: number }
  | { readonly type: 'double'; readonly value: number };

const RANK: Readonly<Record<NumericType, number>> = { integer: 0, decimal: 1, float: 2, double: 3 };
const TYPES: readonly NumericType[] = ['integer', 'decimal', 'float', 'double'];

/** The datatype IRI of each primitive numeric type. */
export const NUMERIC_DATATYPE: Readonly<Record<NumericType, string>> = {
  integer: XSD_INTEGER,
  decimal: XSD_DECIMAL,
  float: XSD_FLOAT,
  double: XSD_DOUBLE,
};

/** An integer value. */
export function integer(value: bigint): Numeric {
  return { type: 'integer', value };
}
/** A decimal value. */
export function decimal(value: Decimal): Numeric {
  return { type: 'decimal', value };
}
/** A float value (the number must already be a single-precision value). */
export function float(value: number): Numeric {
  return { type: 'float', value };
}
/** A double value. */
export function double(value: number): Numeric {
  return { type: 'double', value };
}

// ---------------------------------------------------------------------------------------------
// Parsing

const INTEGER_LEXICAL = /^[+-]?[0-9]+$/;
const FLOATING_LEXICAL = /^(?:[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|[+-]?INF|NaN)$/;

/** Parses an xsd:integer lexical form; undefined when invalid. */
export function parseIntegerLexical(text: string): bigint | undefined {
  return INTEGER_LEXICAL.test(text) ? BigInt(text) : undefined;
}

/** Parses an xsd:double lexical form (XSD 1.1, so `+INF` too); undefined when invalid. */
export function parseDoubleLexical(text: string): number | undefined {
  if (!FLOATING_LEXICAL.test(text)) return undefined;
  return parseFloatingText(text);
}

function parseFloatingText(text: string): number {
  switch (text) {
    case 'INF':
    case '+INF':
      return Infinity;
    case '-INF':
      return -Infinity;
    case 'NaN':
      return NaN;
    default:
      return Number(text);
  }
}

/** Parses an xsd:float lexical form, rounding to single precision exactly once; undefined when invalid. */
export function parseFloatLexical(text: string): number | undefined {
  if (!FLOATING_LEXICAL.test(text)) return undefined;
  const d = parseFloatingText(text);
  if (!Number.isFinite(d)) return d;
  return roundToFloat(d, () => {
    const m = /^([+-]?[0-9]*(?:\.[0-9]*)?)(?:[eE]([+-]?[0-9]+))?$/.exec(text)!;
    const mantissa = parseDecimal(m[1]!)!;
    const exp = m[2] === undefined ? 0 : Number(m[2]);
    const scale = mantissa.scale - exp;
    return scale >= 0
      ? decimalToRational(makeDecimal(mantissa.unscaled, scale))
      : { num: mantissa.unscaled * 10n ** BigInt(-scale), den: 1n };
  });
}

const f32 = new Float32Array(1);
const i32 = new Int32Array(f32.buffer);

function floatNextUp(f: number): number {
  if (f === 0) return 2 ** -149;
  f32[0] = f;
  i32[0] = i32[0]! + (f > 0 ? 1 : -1);
  return f32[0];
}

const FLOAT_LIMIT = 2 ** 128;

/**
 * Rounds to single precision the real number whose nearest double is `d`, exactly once: when
 * `d` lies exactly halfway between two floats, the exact value decides.
 */
export function roundToFloat(d: number, exact: () => Rational): number {
  const f = Math.fround(d);
  if (f === d || !Number.isFinite(d)) return f;
  let lo: number;
  let hi: number;
  if (f < d) {
    lo = f;
    hi = floatNextUp(f);
  } else {
    hi = f;
    lo = -floatNextUp(-f);
  }
  const hiValue = hi === Infinity ? FLOAT_LIMIT : hi;
  const loValue = lo === -Infinity ? -FLOAT_LIMIT : lo;
  if (d - loValue !== hiValue - d) return f;
  const c = rationalCompare(exact(), doubleToRational(d));
  return c > 0 ? hi : c < 0 ? lo : f;
}

// ---------------------------------------------------------------------------------------------
// Promotion

/** The numeric value as a decimal (integer or decimal only). */
function asDecimal(n: Numeric): Decimal {
  if (n.type === 'integer') return decimalFromBigInt(n.value);
  if (n.type === 'decimal') return n.value;
  throw new Error('not a decimal');
}

/** The nearest double of a numeric value. */
export function toDouble(n: Numeric): number {
  switch (n.type) {
    case 'integer':
      return Number(n.value);
    case 'decimal':
      return decimalToNumber(n.value);
    default:
      return n.value;
  }
}

/** The nearest float of a numeric value (rounded once). */
export function toFloat(n: Numeric): number {
  switch (n.type) {
    case 'integer': {
      const v = n.value;
      return roundToFloat(Number(v), () => ({ num: v, den: 1n }));
    }
    case 'decimal': {
      const v = n.value;
      return roundToFloat(decimalToNumber(v), () => decimalToRational(v));
    }
    case 'float':
      return n.value;
    case 'double':
      return Math.fround(n.value);
  }
}

/** The type both operands are promoted to (§17.3 / XPath numeric type promotion). */
export function commonType(a: Numeric, b: Numeric): NumericType {
  return TYPES[Math.max(RANK[a.type], RANK[b.type])]!;
}

// ---------------------------------------------------------------------------------------------
// Arithmetic

/** op:numeric-add. */
export function numericAdd(a: Numeric, b: Numeric): Numeric {
  switch (commonType(a, b)) {
    case 'integer':
      return integer((a.value as bigint) + (b.value as bigint));
    case 'decimal':
      return decimal(decimalAdd(asDecimal(a), asDecimal(b)));
    case 'float':
      return float(Math.fround(toFloat(a) + toFloat(b)));
    case 'double':
      return double(toDouble(a) + toDouble(b));
  }
}

/** op:numeric-subtract. */
export function numericSubtract(a: Numeric, b: Numeric): Numeric {
  switch (commonType(a, b)) {
    case 'integer':
      return integer((a.value as bigint) - (b.value as bigint));
    case 'decimal':
      return decimal(decimalSubtract(asDecimal(a), asDecimal(b)));
    case 'float':
      return float(Math.fround(toFloat(a) - toFloat(b)));
    case 'double':
      return double(toDouble(a) - toDouble(b));
  }
}

/** op:numeric-multiply. */
export function numericMultiply(a: Numeric, b: Numeric): Numeric {
  switch (commonType(a, b)) {
    case 'integer':
      return integer((a.value as bigint) * (b.value as bigint));
    case 'decimal':
      return decimal(decimalMultiply(asDecimal(a), asDecimal(b)));
    case 'float':
      return float(Math.fround(toFloat(a) * toFloat(b)));
    case 'double':
      return double(toDouble(a) * toDouble(b));
  }
}

/**
 * op:numeric-divide: integer ÷ integer is a decimal; division by zero is an error for integers
 * and decimals and gives ±INF or NaN for floats and doubles.
 */
export function numericDivide(a: Numeric, b: Numeric): Numeric {
  const t = commonType(a, b);
  if (t === 'integer' || t === 'decimal') {
    const divisor = asDecimal(b);
    if (divisor.unscaled === 0n) fail('division by zero');
    return decimal(decimalDivide(asDecimal(a), divisor));
  }
  if (t === 'float') return float(Math.fround(toFloat(a) / toFloat(b)));
  return double(toDouble(a) / toDouble(b));
}

/** op:numeric-unary-minus. */
export function numericNegate(a: Numeric): Numeric {
  switch (a.type) {
    case 'integer':
      return integer(-a.value);
    case 'decimal':
      return decimal(decimalNegate(a.value));
    case 'float':
      return float(-a.value);
    case 'double':
      return double(-a.value);
  }
}

/** fn:abs. */
export function numericAbs(a: Numeric): Numeric {
  switch (a.type) {
    case 'integer':
      return a.value < 0n ? integer(-a.value) : a;
    case 'decimal':
      return decimalSign(a.value) < 0 ? decimal(decimalNegate(a.value)) : a;
    case 'float':
      return float(Math.abs(a.value));
    case 'double':
      return double(Math.abs(a.value));
  }
}

/** fn:ceiling. */
export function numericCeil(a: Numeric): Numeric {
  switch (a.type) {
    case 'integer':
      return a;
    case 'decimal':
      return decimal(decimalFromBigInt(decimalCeil(a.value)));
    case 'float':
      return float(Math.ceil(a.value));
    case 'double':
      return double(Math.ceil(a.value));
  }
}

/** fn:floor. */
export function numericFloor(a: Numeric): Numeric {
  switch (a.type) {
    case 'integer':
      return a;
    case 'decimal':
      return decimal(decimalFromBigInt(decimalFloor(a.value)));
    case 'float':
      return float(Math.floor(a.value));
    case 'double':
      return double(Math.floor(a.value));
  }
}

/** fn:round: nearest integral value, halves toward positive infinity (`-2.5` → `-2`). */
export function numericRound(a: Numeric): Numeric {
  switch (a.type) {
    case 'integer':
      return a;
    case 'decimal':
      return decimal(decimalFromBigInt(decimalRound(a.value)));
    case 'float':
      return float(Math.round(a.value));
    case 'double':
      return double(Math.round(a.value));
  }
}

// ---------------------------------------------------------------------------------------------
// Comparison

/**
 * Compares after type promotion (op:numeric-less-than / -equal): negative, 0, positive, or NaN
 * when the values are unordered (a NaN is involved).
 */
export function numericCompare(a: Numeric, b: Numeric): number {
  switch (commonType(a, b)) {
    case 'integer': {
      const x = a.value as bigint;
      const y = b.value as bigint;
      return x < y ? -1 : x > y ? 1 : 0;
    }
    case 'decimal':
      return decimalCompare(asDecimal(a), asDecimal(b));
    case 'float': {
      const x = toFloat(a);
      const y = toFloat(b);
      return x < y ? -1 : x > y ? 1 : x === y ? 0 : NaN;
    }
    case 'double': {
      const x = toDouble(a);
      const y = toDouble(b);
      return x < y ? -1 : x > y ? 1 : x === y ? 0 : NaN;
    }
  }
}

/** The exact rational of a finite numeric value. */
function toRational(n: Numeric): Rational {
  switch (n.type) {
    case 'integer':
      return { num: n.value, den: 1n };
    case 'decimal':
      return decimalToRational(n.value);
    default:
      return doubleToRational(n.value);
  }
}

function specialRank(n: Numeric): number {
  if (n.type === 'integer' || n.type === 'decimal') return 2;
  const v = n.value;
  return Number.isNaN(v) ? 0 : v === -Infinity ? 1 : v === Infinity ? 3 : 2;
}

/**
 * A total order on numeric values by their exact mathematical value (no promotion rounding):
 * NaN < −INF < finite values < INF. Used for ORDER BY, MIN and MAX.
 */
export function numericCompareExact(a: Numeric, b: Numeric): number {
  if (a.type === 'integer' && b.type === 'integer') return a.value < b.value ? -1 : a.value > b.value ? 1 : 0;
  if ((a.type === 'double' || a.type === 'float') && (b.type === 'double' || b.type === 'float')) {
    const x = a.value;
    const y = b.value;
    if (x < y) return -1;
    if (x > y) return 1;
    if (x === y) return 0;
  }
  const ra = specialRank(a);
  const rb = specialRank(b);
  if (ra !== rb || ra !== 2) return ra - rb;
  return rationalCompare(toRational(a), toRational(b));
}

/** Whether the effective boolean value of a number is true (non-zero and not NaN). */
export function numericIsTrue(n: Numeric): boolean {
  switch (n.type) {
    case 'integer':
      return n.value !== 0n;
    case 'decimal':
      return n.value.unscaled !== 0n;
    default:
      return n.value !== 0 && !Number.isNaN(n.value);
  }
}

// ---------------------------------------------------------------------------------------------
// Conversions (casts)

/** The integer a numeric value casts to (truncation); error for NaN and infinities. */
export function numericToInteger(n: Numeric): bigint {
  switch (n.type) {
    case 'integer':
      return n.value;
    case 'decimal':
      return decimalTruncate(n.value);
    default:
      if (!Number.isFinite(n.value)) fail(`cannot cast ${n.value} to an integer`);
      return rationalTruncate(doubleToRational(n.value));
  }
}

/** The decimal a numeric value casts to (the shortest decimal that round-trips); error for NaN and infinities. */
export function numericToDecimal(n: Numeric): Decimal {
  switch (n.type) {
    case 'integer':
      return decimalFromBigInt(n.value);
    case 'decimal':
      return n.value;
    default: {
      if (!Number.isFinite(n.value)) fail(`cannot cast ${n.value} to a decimal`);
      return floatingToDecimal(n.value, n.type === 'float');
    }
  }
}

/** Shortest decimal digits that identify the value: `value = d.ddd × 10^exponent`. */
function shortestDigits(v: number, isFloat: boolean): { digits: string; exponent: number } {
  const abs = Math.abs(v);
  let s = abs.toExponential();
  if (isFloat) {
    for (let p = 0; p <= 8; p++) {
      const t = abs.toExponential(p);
      if (Math.fround(Number(t)) === abs) {
        s = t;
        break;
      }
    }
  }
  const e = s.indexOf('e');
  let digits = s.slice(0, e).replace('.', '');
  digits = digits.replace(/0+$/, '');
  if (digits === '') digits = '0';
  return { digits, exponent: Number(s.slice(e + 1)) };
}

function floatingToDecimal(v: number, isFloat: boolean): Decimal {
  if (v === 0) return makeDecimal(0n, 0);
  const { digits, exponent } = shortestDigits(v, isFloat);
  const unscaled = BigInt(digits);
  return makeDecimal(v < 0 ? -unscaled : unscaled, digits.length - 1 - exponent);
}

// ---------------------------------------------------------------------------------------------
// Lexical forms

function floatingCanonical(v: number, isFloat: boolean): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return 'INF';
  if (v === -Infinity) return '-INF';
  if (v === 0) return Object.is(v, -0) ? '-0.0E0' : '0.0E0';
  const { digits, exponent } = shortestDigits(v, isFloat);
  const mantissa = `${digits[0]!}.${digits.length > 1 ? digits.slice(1) : '0'}`;
  return `${v < 0 ? '-' : ''}${mantissa}E${exponent}`;
}

/** The canonical lexical form of a numeric value (`3`, `3.0`, `3.0E0`). */
export function numericToLexical(n: Numeric): string {
  switch (n.type) {
    case 'integer':
      return n.value.toString();
    case 'decimal':
      return decimalToCanonical(n.value);
    case 'float':
      return floatingCanonical(n.value, true);
    case 'double':
      return floatingCanonical(n.value, false);
  }
}

/**
 * The XPath cast-to-string form (F&O §19.1.2.2): integers as is, decimals without a trailing
 * `.0`, floats and doubles in [1e-6, 1e6) as decimals (`1`, `1.25`), else in scientific notation.
 */
export function numericToXPathString(n: Numeric): string {
  switch (n.type) {
    case 'integer':
      return n.value.toString();
    case 'decimal':
      return decimalToPlainString(n.value);
    default: {
      const v = n.value;
      if (v === 0) return Object.is(v, -0) ? '-0' : '0';
      const abs = Math.abs(v);
      if (abs >= 1e-6 && abs < 1e6) return decimalToPlainString(floatingToDecimal(v, n.type === 'float'));
      return floatingCanonical(v, n.type === 'float');
    }
  }
}
