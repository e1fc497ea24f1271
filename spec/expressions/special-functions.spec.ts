/**
 * erf, erfc, gamma and lgamma on doubles: accuracy against reference values (C99's, as Python's
 * math module gives them) and the special values of C99.
 */
import { expect } from 'chai';
import { erf, erfc, gamma, lgamma } from '../../lib/expressions/special-functions.js';

/** Checks `fn(x)` within `tolerance` (relative) of each expected value. */
function accurate(fn: (x: number) => number, cases: ReadonlyArray<readonly [number, number]>, tolerance: number): void {
  for (const [x, expected] of cases) {
    const v = fn(x);
    expect(Math.abs(v - expected) / Math.abs(expected), `${fn.name}(${x}) = ${v}, not ${expected}`).to.be.below(tolerance);
  }
}

describe('expressions: special functions', () => {
  it('erf', () => {
    accurate(
      erf,
      [
        [0.5, 0.5204998778130465],
        [1, 0.8427007929497149],
        [2, 0.9953222650189527],
        [3, 0.9999779095030014],
        [-1.5, -0.9661051464753108],
        [1e-10, 1.1283791670955126e-10],
      ],
      1e-15,
    );
    expect(erf(0)).to.equal(0);
    expect(Object.is(erf(-0), -0)).to.equal(true);
    expect(erf(Infinity)).to.equal(1);
    expect(erf(-Infinity)).to.equal(-1);
    expect(Number.isNaN(erf(NaN))).to.equal(true);
  });

  it('erfc, accurate where it is tiny', () => {
    accurate(
      erfc,
      [
        [0.5, 0.4795001221869535],
        [1, 0.15729920705028513],
        [1.5, 0.033894853524689274],
        [2, 0.004677734981047265],
        [3, 2.2090496998585438e-5],
        [5, 1.5374597944280351e-12],
        [10, 2.088487583762545e-45],
        [-1, 1.842700792949715],
      ],
      2e-15,
    );
    expect(erfc(0)).to.equal(1);
    expect(erfc(30)).to.equal(0);
    expect(erfc(-Infinity)).to.equal(2);
    expect(Number.isNaN(erfc(NaN))).to.equal(true);
  });

  it('gamma', () => {
    accurate(
      gamma,
      [
        [0.5, 1.7724538509055159],
        [0.1, 9.513507698668732],
        [10.5, 1133278.3889487854],
        [-0.5, -3.544907701811032],
        [-1.5, 2.3632718012073544],
        [171.5, 9.483367566824801e307],
      ],
      1e-12,
    );
    expect(gamma(1)).to.equal(1);
    expect(gamma(5)).to.equal(24);
    expect(gamma(100)).to.equal(9.332621544394415e155);
    expect(gamma(0)).to.equal(Infinity);
    expect(gamma(-0)).to.equal(-Infinity);
    expect(Number.isNaN(gamma(-3))).to.equal(true);
    expect(gamma(172)).to.equal(Infinity);
    expect(gamma(Infinity)).to.equal(Infinity);
    expect(Number.isNaN(gamma(-Infinity))).to.equal(true);
    expect(Number.isNaN(gamma(NaN))).to.equal(true);
  });

  it('lgamma', () => {
    accurate(
      lgamma,
      [
        [0.5, 0.5723649429247004],
        [0.1, 2.2527126517342055],
        [3, 0.693147180559945],
        [10.5, 13.940625219403763],
        [-0.5, 1.265512123484645],
        [-1.5, 0.8600470153764812],
        [100, 359.1342053695754],
        [1000, 5905.220423209181],
        [1e10, 220258509288.81058],
      ],
      1e-14,
    );
    expect(lgamma(1)).to.equal(0);
    expect(lgamma(2)).to.equal(0);
    expect(lgamma(0)).to.equal(Infinity);
    expect(lgamma(-4)).to.equal(Infinity);
    expect(lgamma(-Infinity)).to.equal(Infinity);
    expect(Number.isNaN(lgamma(NaN))).to.equal(true);
  });
});
