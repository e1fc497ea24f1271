/**
 * The special functions JavaScript's `Math` lacks, on IEEE doubles: the error function and its
 * complement, the gamma function and the logarithm of its absolute value. Special values follow
 * C99 (`erf`, `erfc`, `tgamma`, `lgamma`): NaN in, NaN out; poles give infinities; no exceptions.
 * @module
 */

const TWO_OVER_SQRT_PI = 2 / Math.sqrt(Math.PI);
const ONE_OVER_SQRT_PI = 1 / Math.sqrt(Math.PI);
const HALF_LOG_TWO_PI = 0.5 * Math.log(2 * Math.PI);

/** Below this, erf is summed as a series; above, it is 1 − erfc. */
const ERF_SERIES_LIMIT = 2.5;
/** Above this, erfc is a continued fraction; below, it is 1 − erf. */
const ERFC_FRACTION_LIMIT = 1.5;

/**
 * erf for 0 < x < {@link ERF_SERIES_LIMIT}: 2/√π · e^(−x²) · Σ (2x²)ⁿ · x / (1·3·…·(2n+1)), a
 * series of positive terms (no cancellation).
 */
function erfSeries(x: number): number {
  const twoXSquared = 2 * x * x;
  let term = x;
  let sum = x;
  for (let n = 1; n < 200; n++) {
    term *= twoXSquared / (2 * n + 1);
    sum += term;
    if (term < sum * 1e-17) break;
  }
  return TWO_OVER_SQRT_PI * Math.exp(-x * x) * sum;
}

/**
 * erfc for x ≥ {@link ERFC_FRACTION_LIMIT}: e^(−x²)/√π · 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + …)))),
 * evaluated with the modified Lentz method.
 */
function erfcFraction(x: number): number {
  const tiny = 1e-300;
  let f = x;
  let c = x;
  let d = 0;
  for (let n = 1; n < 1000; n++) {
    const a = n / 2;
    d = x + a * d;
    if (d === 0) d = tiny;
    c = x + a / c;
    if (c === 0) c = tiny;
    d = 1 / d;
    const delta = c * d;
    f *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  return (ONE_OVER_SQRT_PI * Math.exp(-x * x)) / f;
}

/** The error function erf(x) = 2/√π ∫₀ˣ e^(−t²) dt. */
export function erf(x: number): number {
  if (Number.isNaN(x) || x === 0) return x;
  if (x < 0) return -erf(-x);
  if (x < ERF_SERIES_LIMIT) return erfSeries(x);
  return 1 - erfc(x);
}

/** The complementary error function erfc(x) = 1 − erf(x), accurate where it is tiny. */
export function erfc(x: number): number {
  if (Number.isNaN(x)) return x;
  if (x === Infinity) return 0;
  if (x < 0) return 2 - erfc(-x);
  if (x < ERFC_FRACTION_LIMIT) return 1 - erf(x);
  return erfcFraction(x);
}

/** Lanczos approximation, g = 7, nine coefficients (relative error about 1e−15). */
const LANCZOS_G = 7;
const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905,
  -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];

/** The Lanczos sum A(z) for Γ(z + 1) = √(2π) · t^(z + ½) · e^(−t) · A(z), t = z + g + ½. */
function lanczosSum(z: number): number {
  let sum = LANCZOS[0]!;
  for (let i = 1; i < LANCZOS.length; i++) sum += LANCZOS[i]! / (z + i);
  return sum;
}

/** sin(πx), exact at integers and half-integers. */
function sinPi(x: number): number {
  const r = x - 2 * Math.round(x / 2);
  if (r === 0 || r === 1 || r === -1) return 0;
  if (r === 0.5) return 1;
  if (r === -0.5) return -1;
  return Math.sin(Math.PI * r);
}

/** (n − 1)! for a positive integer n ≤ 171, correctly rounded. */
function factorialOf(n: number): number {
  let f = 1n;
  for (let k = 2n; k < BigInt(n); k++) f *= k;
  return Number(f);
}

/** The gamma function Γ(x) (NaN at the negative integers, ±∞ at ±0, ∞ on overflow). */
export function gamma(x: number): number {
  if (Number.isNaN(x) || x === Infinity) return x;
  if (x === -Infinity) return NaN;
  if (x === 0) return 1 / x;
  if (Number.isInteger(x)) {
    if (x < 0) return NaN;
    if (x <= 171) return factorialOf(x);
    return Infinity;
  }
  if (x < 0.5) return Math.PI / (sinPi(x) * gamma(1 - x));
  if (x > 171.7) return Infinity;
  const z = x - 1;
  const t = z + LANCZOS_G + 0.5;
  // t^(z + ½) as two halves, so that the product does not overflow before e^(−t) shrinks it
  const half = Math.pow(t, (z + 0.5) / 2);
  return Math.sqrt(2 * Math.PI) * half * (half * Math.exp(-t)) * lanczosSum(z);
}

/** ln |Γ(x)| (∞ at the non-positive integers and at ±∞). */
export function lgamma(x: number): number {
  if (Number.isNaN(x)) return x;
  if (!Number.isFinite(x)) return Infinity;
  if (Number.isInteger(x)) {
    if (x <= 0) return Infinity;
    if (x <= 171) return Math.log(factorialOf(x));
  }
  if (x < 0.5) return Math.log(Math.PI / Math.abs(sinPi(x))) - lgamma(1 - x);
  const z = x - 1;
  const t = z + LANCZOS_G + 0.5;
  return HALF_LOG_TWO_PI + (z + 0.5) * Math.log(t) - t + Math.log(lanczosSum(z));
}
