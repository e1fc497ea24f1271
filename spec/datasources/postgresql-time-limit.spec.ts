import { expect } from 'chai';
import { InterruptedError } from '../../lib/index.js';
import { usePostgres } from '../helpers/postgres.js';
import { expectError, useServer } from '../helpers/server.js';

describe('datasources: a query time limit cancels the SQL statement it waits for (against a real server)', function () {
  this.timeout(60_000);
  const pg = usePostgres();
  const env = useServer('datasources-postgresql-time-limit');

  const sleeping = async (): Promise<number> => {
    const r = await pg.sql(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE query LIKE '%pg_sleep(%' AND state = 'active' AND pid <> pg_backend_pid()`);
    return (r.rows[0] as { n: number }).n;
  };

  it('stops a SPARQL query over a mounted table at its time limit, and the statement stops too', async () => {
    const ds = await env.newStore();
    // no statement-timeout: only the query's time limit can stop it
    await ds.registerDataSource('db', 'PostgreSQL', { 'connection-string': pg.connectionString, 'statement-timeout': '0' });
    await ds.createTupleTable('Sleepy', { 'data-source-name': 'db', query: 'SELECT 1 AS x, pg_sleep(600) AS z' });
    const e = await expectError(ds.evaluateQuery('SELECT ?x WHERE { TT Sleepy { ?x ?z } }', { timeLimitMs: 1000 }), InterruptedError);
    expect(e.message).to.include('time limit').and.include("data source 'db'");
    for (let i = 0; i < 50 && (await sleeping()) > 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await sleeping()).to.equal(0);
    // the source answers the next query
    await ds.createTupleTable('One', { 'data-source-name': 'db', query: 'SELECT 7 AS x' });
    const a = await ds.evaluateQuery('SELECT ?x WHERE { TT One { ?x } }');
    expect(a.type === 'bindings' && a.rows.map((r) => r[0]!.value)).to.deep.equal(['7']);
  });
});
