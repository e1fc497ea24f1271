/**
 * Exact decimal arithmetic on bigint-scaled numbers (xsd:decimal), and exact rationals for
 * comparing numbers of different types without rounding.
 * @module
 */

/**
 * An exact decimal number `unscaled × 10^-scale`, normalised: `scale ≥ 0`, and when
 * `scale > 0` the unscaled value is not a multiple of 10 (so equal values have equal fields).
 */
export interface Decimal {
  /** The digits as an integer. */
  readonly unscaled: bigint;
  /** How many of those digits are after the decimal point. */
  readonly scale: number;
}

/** An exact rational `num / den` with `den > 0` (not necessarily reduced). */
export interface Rational {
  /** Numerator. */
  readonly num: bigint;
  /** Denominator, positive. */
  readonly den: bigint;
}

/**
 * Fractional digits kept by a decimal division whose quotient does not terminate (at least; more
 * when an operand has more). The quotient is rounded half to even at that position.
 */
export const DIVISION_SCALE = 24;

const POW10: bigint[] = [1n];

/** 10^n as a bigint. */
export function pow10(n: number): bigint {
  while (POW10.length <= n) POW10.push(POW10[POW10.length - 1]! * 10n);
  return POW10[n]!;
}

/** Builds a normalised decimal. */
export function makeDecimal(unscaled: bigint, scale: number): Decimal {
  if (unscaled === 0n) return ZERO;
  while (scale > 0 && unscaled % 10n === 0n) {
    unscaled /= 10n;
    scale--;
  }
  if (scale < 0) {
    unscaled *= pow10(-scale);
    scale = 0;
  }
  return { unscaled, scale };
}

/** The decimal 0. */
export const ZERO: Decimal = { unscaled: 0n, scale: 0 };

/** The decimal of an integer. */
export function decimalFromBigInt(value: bigint): Decimal {
  return { unscaled: value, scale: 0 };
}

const DECIMAL_LEXICAL = /^([+-]?)([0-9]*)(?:\.([0-9]*))?$/;

/**
 * Parses an xsd:decimal lexical form (`[+-]?(digits(.digits?)?|.digits)`); undefined when the text
 * is not one. No whitespace is allowed.
 */
export function parseDecimal(text: string): Decimal | undefined {
  const m = DECIMAL_LEXICAL.exec(text);
  if (m === null) return undefined;
  const intPart = m[2]!;
  const fracPart = m[3] ?? '';
  if (intPart === '' && fracPart === '') return undefined;
  const digits = intPart + fracPart;
  const unscaled = BigInt(digits === '' ? '0' : digits);
  return makeDecimal(m[1] === '-' ? -unscaled : unscaled, fracPart.length);
}

function align(a: Decimal, b: Decimal): [bigint, bigint, number] {
  if (a.scale === b.scale) return [a.unscaled, b.unscaled, a.scale];
  if (a.scale > b.scale) return [a.unscaled, b.unscaled * pow10(a.scale - b.scale), a.scale];
  return [a.unscaled * pow10(b.scale - a.scale), b.unscaled, b.scale];
}

/** a + b, exactly. */
export function decimalAdd(a: Decimal, b: Decimal): Decimal {
  const [x, y, s] = align(a, b);
  return makeDecimal(x + y, s);
}

/** a − b, exactly. */
export function decimalSubtract(a: Decimal, b: Decimal): Decimal {
  const [x, y, s] = align(a, b);
  return makeDecimal(x - y, s);
}

/** a × b, exactly. */
export function decimalMultiply(a: Decimal, b: Decimal): Decimal {
  return makeDecimal(a.unscaled * b.unscaled, a.scale + b.scale);
}

/** Rounds num/den (den > 0) to the nearest integer, ties to even. */
function divideHalfEven(num: bigint, den: bigint): bigint {
  let q = num / den;
  const r = num - q * den;
  if (r === 0n) return q;
  const twice = (r < 0n ? -r : r) * 2n;
  const neg = r < 0n;
  if (twice > den || (twice === den && q % 2n !== 0n)) q += neg ? -1n : 1n;
  return q;
}

/**
 * a ÷ b. Exact when the quotient terminates within `max(DIVISION_SCALE, scales of a and b)`
 * fractional digits, else rounded half to even there. The caller checks for b = 0.
 */
export function decimalDivide(a: Decimal, b: Decimal): Decimal {
  const scale = Math.max(DIVISION_SCALE, a.scale, b.scale);
  // a/b = (ua·10^sb) / (ub·10^sa); scaled by 10^scale.
  let num = a.unscaled * pow10(b.scale + scale);
  let den = b.unscaled * pow10(a.scale);
  if (den < 0n) {
    den = -den;
    num = -num;
  }
  return makeDecimal(divideHalfEven(num, den), scale);
}

/** −a. */
export function decimalNegate(a: Decimal): Decimal {
  return a.unscaled === 0n ? a : { unscaled: -a.unscaled, scale: a.scale };
}

/** Sign of a decimal: −1, 0 or 1. */
export function decimalSign(a: Decimal): number {
  return a.unscaled < 0n ? -1 : a.unscaled > 0n ? 1 : 0;
}

/** Compares two decimals: negative, 0 or positive. */
export function decimalCompare(a: Decimal, b: Decimal): number {
  const [x, y] = align(a, b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The largest integer ≤ a. */
export function decimalFloor(a: Decimal): bigint {
  if (a.scale === 0) return a.unscaled;
  const p = pow10(a.scale);
  const q = a.unscaled / p;
  return a.unscaled < 0n && q * p !== a.unscaled ? q - 1n : q;
}

/** The smallest integer ≥ a. */
export function decimalCeil(a: Decimal): bigint {
  return -decimalFloor(decimalNegate(a));
}

/** The integer part of a (truncation toward zero). */
export function decimalTruncate(a: Decimal): bigint {
  return a.scale === 0 ? a.unscaled : a.unscaled / pow10(a.scale);
}

/** fn:round: the nearest integer, halves rounded toward positive infinity. */
export function decimalRound(a: Decimal): bigint {
  return decimalFloor(decimalAdd(a, { unscaled: 5n, scale: 1 }));
}

function digitsWithPoint(a: Decimal): [string, string, string] {
  const neg = a.unscaled < 0n;
  const digits = (neg ? -a.unscaled : a.unscaled).toString();
  if (a.scale === 0) return [neg ? '-' : '', digits, ''];
  const padded = digits.length <= a.scale ? '0'.repeat(a.scale - digits.length + 1) + digits : digits;
  return [neg ? '-' : '', padded.slice(0, padded.length - a.scale), padded.slice(padded.length - a.scale)];
}

/** The canonical xsd:decimal lexical form: always with a point and a fractional digit (`3.0`, `-0.25`). */
export function decimalToCanonical(a: Decimal): string {
  const [sign, intPart, fracPart] = digitsWithPoint(a);
  return `${sign}${intPart}.${fracPart === '' ? '0' : fracPart}`;
}

/** The XPath string form of a decimal: no point for integral values (`3`, `-0.25`). */
export function decimalToPlainString(a: Decimal): string {
  const [sign, intPart, fracPart] = digitsWithPoint(a);
  return fracPart === '' ? `${sign}${intPart}` : `${sign}${intPart}.${fracPart}`;
}

/** The double nearest to a decimal (correctly rounded). */
export function decimalToNumber(a: Decimal): number {
  return Number(decimalToPlainString(a));
}

/** The decimal as an exact rational. */
export function decimalToRational(a: Decimal): Rational {
  return { num: a.unscaled, den: pow10(a.scale) };
}

const view = new DataView(new ArrayBuffer(8));

/** The exact rational value of a finite double. */
export function doubleToRational(d: number): Rational {
  if (d === 0) return { num: 0n, den: 1n };
  view.setFloat64(0, d);
  const bits = view.getBigUint64(0);
  const negative = bits >> 63n === 1n;
  const biased = Number((bits >> 52n) & 0x7ffn);
  let mantissa = bits & 0xfffffffffffffn;
  let exponent: number;
  if (biased === 0) exponent = -1074;
  else {
    mantissa |= 1n << 52n;
    exponent = biased - 1075;
  }
  if (negative) mantissa = -mantissa;
  return exponent >= 0 ? { num: mantissa << BigInt(exponent), den: 1n } : { num: mantissa, den: 1n << BigInt(-exponent) };
}

/** Compares two rationals exactly: negative, 0 or positive. */
export function rationalCompare(a: Rational, b: Rational): number {
  const l = a.num * b.den;
  const r = b.num * a.den;
  return l < r ? -1 : l > r ? 1 : 0;
}

/** The integer part (truncation toward zero) of a rational. */
export function rationalTruncate(a: Rational): bigint {
  return a.num / a.den;
}
