import { expect } from 'chai';
import fc from 'fast-check';
import { SolutionSet } from '../../lib/sparql/solution-set.js';

/** A solution as text, slots past its end unbound (-1), trailing unbound slots dropped. */
function key(s: Int32Array): string {
  const values = [...s];
  while (values.length > 0 && values.at(-1) === -1) values.pop();
  return values.join(',');
}

describe('sparql/solution-set: the solutions DISTINCT keeps', () => {
  it('adds exactly the solutions a set of their texts does not hold yet, over many rehashes and growing widths', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.integer({ min: -1, max: 6 }), { minLength: 1, maxLength: 5 }), { maxLength: 400 }), (rows) => {
        const set = new SolutionSet();
        const reference = new Set<string>();
        for (const row of rows) {
          const s = Int32Array.from(row);
          const k = key(s);
          expect(set.add(s), k).to.equal(!reference.has(k));
          reference.add(k);
        }
        expect(set.size).to.equal(reference.size);
      }),
      { numRuns: 200 },
    );
  });

  it('keeps solutions by value: the caller may change an array it has added', () => {
    const set = new SolutionSet();
    const s = Int32Array.of(1, 2);
    expect(set.add(s)).to.equal(true);
    s[1] = 3;
    expect(set.add(s)).to.equal(true);
    expect(set.add(Int32Array.of(1, 2))).to.equal(false);
    expect(set.add(Int32Array.of(1, 2, -1))).to.equal(false);
    for (let i = 0; i < 10_000; i++) set.add(Int32Array.of(i, i % 7));
    expect(set.add(Int32Array.of(9_999, 9_999 % 7))).to.equal(false);
    expect(set.size).to.equal(10_002);
  });
});
