import { expect } from 'chai';
import { greedyJoinOrder, type PatternRef } from '../../lib/sparql/join-order.js';
import { useServer } from '../helpers/server.js';

describe('sparql/join-order: the greedy join order of a basic graph pattern', () => {
  it('starts with the smallest estimate and then follows connected patterns', () => {
    const v = (slot: number): PatternRef => ({ slot });
    const c = (id: number): PatternRef => ({ id });
    // estimates by predicate id: 10 → 200 matches, 11 → 5, 12 → 50
    const patterns = [
      [v(0), c(10), v(1), c(-1)],
      [v(2), c(11), v(3), c(-1)],
      [v(1), c(12), v(2), c(-1)],
    ];
    const sizes = new Map([[10, 200], [11, 5], [12, 50]]);
    const order = greedyJoinOrder(patterns, new Int32Array(4).fill(-1), (refs) => sizes.get((refs[1] as { id: number }).id)!);
    expect(order).to.deep.equal([1, 2, 0]);
    // a seed binding ?x (slot 0) makes the first pattern cheapest (200 / 100)
    const seed = new Int32Array(4).fill(-1);
    seed[0] = 7;
    expect(greedyJoinOrder(patterns, seed, (refs) => sizes.get((refs[1] as { id: number }).id)!)[0]).to.equal(0);
  });

  describe('a path sequence of thousands of steps (a BGP of thousands of patterns)', function () {
    this.timeout(20_000);
    const env = useServer('join-order');
    it('evaluates a 5,000-step sequence', async () => {
      const ds = await env.newStore();
      await ds.importData('ADD', '<http://example.com/a> <http://example.com/p> <http://example.com/a> .\n');
      const path = Array.from({ length: 5000 }, () => '<http://example.com/p>').join('/');
      const a = await ds.evaluateQuery(`SELECT ?s ?o WHERE { ?s ${path} ?o }`);
      expect(a.type === 'bindings' && a.rows.map((r) => r.map((t) => t?.value))).to.deep.equal([['http://example.com/a', 'http://example.com/a']]);
    });
  });
});
