import { expect } from 'chai';
import fc from 'fast-check';
import { MAX_CODE_POINT, complement, difference, normalize, type Range } from '../../lib/expressions/code-point-ranges.js';

/** The code points of ranges among 0…63, as a sorted list. */
function members(ranges: readonly Range[]): number[] {
  const out = new Set<number>();
  for (const [from, to] of ranges) for (let c = from; c <= Math.min(to, 63); c++) out.add(c);
  return [...out].sort((a, b) => a - b);
}

const range = fc.tuple(fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 3 })).map(([from, length]): Range => [from, from + length]);
const ranges = fc.array(range, { maxLength: 6 });

describe('expressions: code point ranges', () => {
  it('normalize sorts and joins overlapping and adjacent ranges', () => {
    expect(
      normalize([
        [4, 6],
        [1, 2],
        [3, 3],
        [10, 12],
        [11, 20],
      ]),
    ).to.deep.equal([
      [1, 6],
      [10, 20],
    ]);
    expect(normalize([])).to.deep.equal([]);
  });

  it('complement covers the rest of the code points', () => {
    expect(complement([])).to.deep.equal([[0, MAX_CODE_POINT]]);
    expect(complement([[0, MAX_CODE_POINT]])).to.deep.equal([]);
    expect(
      complement([
        [0xa, 0xa],
        [0xd, 0xd],
      ]),
    ).to.deep.equal([
      [0, 9],
      [0xb, 0xc],
      [0xe, MAX_CODE_POINT],
    ]);
  });

  it('as sets: normalize keeps the members, complement and difference are set complement and difference', () => {
    fc.assert(
      fc.property(ranges, ranges, (a, b) => {
        expect(members(normalize(a))).to.deep.equal(members(a));
        const inA = new Set(members(a));
        const inB = new Set(members(b));
        expect(members(complement(a))).to.deep.equal([...Array(64).keys()].filter((c) => !inA.has(c)));
        expect(members(difference(a, b))).to.deep.equal(members(a).filter((c) => !inB.has(c)));
        expect(difference(a, b)).to.deep.equal(normalize(difference(a, b)));
      }),
      { numRuns: 300 },
    );
  });
});
