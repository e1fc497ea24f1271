/**
 * A tree as JSON in slices: no JSON text the event loop parses at once holds an array longer
 * than a slice, however the long arrays nest, and the slices in order give back every element.
 */
import { expect } from 'chai';
import { JSON_SLICE, slicesOf, toJsonSlices } from '../../lib/sparql/json-slices.js';

/** The longest array in a parsed JSON text. */
function longestArray(v: unknown): number {
  if (v === null || typeof v !== 'object') return 0;
  const own = Array.isArray(v) ? v.length : 0;
  return Math.max(own, ...Object.values(v).map(longestArray));
}

describe('sparql: JSON in slices', () => {
  const rows = Array.from({ length: 3 * JSON_SLICE + 5 }, (_, i) => ({ '?x': { termType: 'Literal', value: String(i) } }));
  const tree = { type: 'values', bindings: rows, nested: [Array.from({ length: 2 * JSON_SLICE + 1 }, (_, i) => i)], short: [1, 2, 3] };

  it('cuts every array longer than a slice, nested ones too, and keeps short ones in place', () => {
    const { skeleton, slices } = toJsonSlices(tree);
    for (const text of [skeleton, ...slices]) expect(longestArray(JSON.parse(text))).to.be.at.most(JSON_SLICE);
    const parsed = JSON.parse(skeleton) as { bindings: object; nested: object[]; short: number[] };
    expect(parsed.short).to.deep.equal([1, 2, 3]);
    expect(slicesOf(parsed.bindings)).to.have.length(4);
    expect(slicesOf(parsed.nested)).to.equal(undefined);
    expect(slicesOf(parsed.nested[0]!)).to.have.length(3);
  });

  it('gives back every element, in order, from the slices', () => {
    const { skeleton, slices } = toJsonSlices(tree);
    const join = (v: object): unknown[] => slicesOf(v)!.flatMap((at) => JSON.parse(slices[at]!) as unknown[]);
    const parsed = JSON.parse(skeleton) as { bindings: object; nested: object[] };
    expect(join(parsed.bindings)).to.deep.equal(rows);
    expect(join(parsed.nested[0]!)).to.deep.equal(tree.nested[0]);
  });

  it('leaves an object that only looks like a cut array alone when it has other keys', () => {
    expect(slicesOf({ $slices: [0], other: 1 })).to.equal(undefined);
  });
});
