/**
 * Which delta queries are computed from the change log and which re-run: a FILTER calling a
 * function whose value changes from one evaluation to the next (RAND, NOW, UUID, STRUUID,
 * BNODE) re-runs, so that the answers a client rebuilds from the changes stay the answers of
 * the versions.
 */
import { expect } from 'chai';
import type { DataStoreConnection } from '../../lib/index.js';
import { useServer } from '../helpers/server.js';

const PREFIX = '@prefix : <http://r/> .\n';
const DATALOG = { mediaType: 'application/x.datalog' };

/** A row's values, as one line. */
const key = (row: ReadonlyArray<{ value: string } | undefined>): string => row.map((t) => t?.value ?? '-').join(' ');

/** The rows of a SELECT answer as sorted lines of values. */
async function answerOf(ds: DataStoreConnection, text: string): Promise<string[]> {
  const answer = await ds.evaluateQuery(text);
  if (answer.type !== 'bindings') throw new Error('not a SELECT');
  return answer.rows.map(key).sort();
}

describe('server: the shape of delta queries', () => {
  const env = useServer('delta-query-shape');

  it('a FILTER with RAND re-runs: the changes a client applies never remove a row it was not given', async () => {
    const ds = await env.newStore();
    await ds.setPrefix(':', 'http://r/');
    const query = 'SELECT * WHERE { ?x :p ?y FILTER(RAND() < 0.5) }';
    await ds.registerDeltaQuery('sample', query, { additionsMaxSize: 10, deletionsMaxSize: 10 });
    const description = await ds.describeDeltaQuery('sample');
    expect(description.computation).to.equal('rerun');
    expect(description.rerunReason).to.match(/RAND/);
    const facts = Array.from({ length: 40 }, (_, i) => `[:s${i}, :p, :o${i}] .`).join('\n');
    await ds.importData('ADD', PREFIX + facts, DATALOG);
    await ds.importData('DELETE', PREFIX + facts, DATALOG);
    const kept = await ds.getDeltaQueryAnswers('sample');
    const rows = new Map<string, number>();
    for (const version of [...new Set(kept.map((a) => a.version))].sort((a, b) => a - b)) {
      for (const a of kept.filter((e) => e.version === version && e.type === 'deletions')) {
        for (const r of a.rows) {
          expect(rows.get(key(r)) ?? 0, `version ${version} deletes ${key(r)}, which it never added`).to.be.greaterThan(0);
          rows.set(key(r), rows.get(key(r))! - 1);
        }
      }
      for (const a of kept.filter((e) => e.version === version && e.type === 'additions')) for (const r of a.rows) rows.set(key(r), (rows.get(key(r)) ?? 0) + 1);
    }
    expect([...rows.values()].every((n) => n === 0)).to.equal(true);
    expect(await answerOf(ds, query)).to.deep.equal([]);
  });

  for (const call of ['NOW()', 'UUID()', 'STRUUID()', 'BNODE()']) {
    it(`a FILTER calling ${call} re-runs, and says why`, async () => {
      const ds = await env.newStore();
      await ds.registerDeltaQuery('q', `SELECT * WHERE { ?x <http://r/p> ?y FILTER(STR(${call}) != "") }`);
      const description = await ds.describeDeltaQuery('q');
      expect(description.computation).to.equal('rerun');
      expect(description.rerunReason).to.include(call.replace('()', ''));
    });
  }

  it('a FILTER of fixed functions stays incremental', async () => {
    const ds = await env.newStore();
    await ds.registerDeltaQuery('q', 'SELECT * WHERE { ?x <http://r/p> ?y FILTER(STRLEN(STR(?y)) > 3 && ?x != ?y) }');
    expect((await ds.describeDeltaQuery('q')).computation).to.equal('incremental');
  });
});
