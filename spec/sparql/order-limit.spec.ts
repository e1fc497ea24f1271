/**
 * ORDER BY under LIMIT (and OFFSET) keeps only the rows it can still emit: the answer must be
 * the slice of the fully sorted answer, ties in their order of the full sort, on inputs large
 * enough that the kept rows are cut back many times.
 */
import { expect } from 'chai';
import type { DataStoreConnection } from '../../lib/index.js';
import { useServer } from '../helpers/server.js';

const EX = 'http://example.com/';

async function rows(ds: DataStoreConnection, text: string): Promise<string[]> {
  const answer = await ds.evaluateQuery(text);
  if (answer.type !== 'bindings') throw new Error('expected bindings');
  return answer.rows.map((r) => r.map((t) => (t === undefined ? '-' : t.value)).join(' '));
}

describe('sparql: ORDER BY with LIMIT and OFFSET', () => {
  const env = useServer('order-limit');
  let ds: DataStoreConnection;

  before(async () => {
    ds = await env.newStore();
    const lines: string[] = [];
    // 5,000 items; 37 distinct scores (many ties), some without a score, one with a string score
    for (let i = 0; i < 5000; i++) {
      lines.push(`<${EX}i${i}> <${EX}name> "item ${(i * 7919) % 5000}" .`);
      if (i % 11 !== 0) lines.push(`<${EX}i${i}> <${EX}score> ${(i * 31) % 37} .`);
    }
    lines.push(`<${EX}odd> <${EX}name> "odd" .`, `<${EX}odd> <${EX}score> "high" .`);
    expect((await ds.importData('ADD', lines.join('\n'))).errors).to.equal(0);
  });

  const ORDERS = ['?s', 'DESC(?s) ?n', '?s DESC(?x)', 'STRLEN(?n) ?s'];
  const SLICES: Array<[number, number]> = [
    [0, 1],
    [0, 10],
    [100, 20],
    [0, 600],
    [4990, 50],
    [0, 6000],
  ];

  for (const order of ORDERS) {
    it(`ORDER BY ${order}: each slice is the slice of the full sort`, async () => {
      const where = `WHERE { ?x <${EX}name> ?n OPTIONAL { ?x <${EX}score> ?s } }`;
      const full = await rows(ds, `SELECT ?x ?n ?s ${where} ORDER BY ${order}`);
      expect(full.length).to.equal(5001);
      for (const [offset, limit] of SLICES) {
        const sliced = await rows(ds, `SELECT ?x ?n ?s ${where} ORDER BY ${order} OFFSET ${offset} LIMIT ${limit}`);
        expect(sliced, `OFFSET ${offset} LIMIT ${limit}`).to.deep.equal(full.slice(offset, offset + limit));
      }
      // SELECT * (no projection between the slice and the order)
      const star = await rows(ds, `SELECT * ${where} ORDER BY ${order} LIMIT 30`);
      const starFull = await rows(ds, `SELECT * ${where} ORDER BY ${order}`);
      expect(star).to.deep.equal(starFull.slice(0, 30));
    });
  }

  it('DISTINCT between the order and the slice keeps the first distinct rows', async () => {
    const full = await rows(ds, `SELECT DISTINCT ?s WHERE { ?x <${EX}score> ?s } ORDER BY ?s`);
    const sliced = await rows(ds, `SELECT DISTINCT ?s WHERE { ?x <${EX}score> ?s } ORDER BY ?s LIMIT 5`);
    expect(full.length).to.equal(38);
    expect(sliced).to.deep.equal(full.slice(0, 5));
  });
});
