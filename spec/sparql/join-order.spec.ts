import { expect } from 'chai';
import { useServer } from '../helpers/server.js';

describe('sparql/join-order: the join order of a basic graph pattern (planner/join-order.ts, tested in spec/planner)', () => {
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
