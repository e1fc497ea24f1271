/**
 * The sort ORDER BY uses when the event loop may come in between slices: the same order as
 * `Array.prototype.sort` (stable: equal keys keep their arrival order) at every size around its
 * runs, and a pause whenever the slice is used up.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { sortInSlices } from '../../lib/sparql/ordering.js';

describe('sparql: sorting in slices', () => {
  it('sorts as Array.prototype.sort does, stably, around the run sizes', async () => {
    for (const n of [0, 1, 2047, 2048, 2049, 4096, 5000, 9001]) {
      const rows = Array.from({ length: n }, (_, i) => ({ key: (i * 7919) % 97, at: i }));
      const expected = [...rows].sort((a, b) => a.key - b.key);
      const sorted = await sortInSlices([...rows], (a, b) => a.key - b.key, () => Promise.resolve(), () => true);
      expect(sorted, `n=${n}`).to.deep.equal(expected);
    }
  });

  it('agrees with Array.prototype.sort on random rows', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 0, max: 50 }), { maxLength: 7000 }), async (keys) => {
        const rows = keys.map((key, at) => ({ key, at }));
        const expected = [...rows].sort((a, b) => b.key - a.key);
        const sorted = await sortInSlices([...rows], (a, b) => b.key - a.key, () => Promise.resolve(), () => false);
        expect(sorted).to.deep.equal(expected);
      }),
      { numRuns: 30 },
    );
  });

  it('pauses when the slice is used up, and a pause that throws stops it', async () => {
    let pauses = 0;
    const rows = Array.from({ length: 10000 }, (_, i) => 10000 - i);
    await sortInSlices(rows, (a, b) => a - b, () => Promise.resolve(void pauses++), () => true);
    expect(pauses).to.be.greaterThan(4);
    const stopped = await sortInSlices(Array.from({ length: 10000 }, (_, i) => -i), (a, b) => a - b, () => Promise.reject(new Error('time limit')), () => true).then(() => 'sorted', (e: Error) => e.message);
    expect(stopped).to.equal('time limit');
  });
});
