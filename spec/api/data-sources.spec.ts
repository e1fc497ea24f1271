import { expect } from 'chai';
import { AuthenticationError, BadRequestError, QueryCompilationError, TransactionError, UnknownResourceError } from '../../lib/index.js';
import { ADMIN_PASSWORD, expectError, useServer } from '../helpers/server.js';

describe('api: data sources, recompile, password checks, update datasets', () => {
  const env = useServer('data-sources');

  it('lists no data sources and names unknown types and sources in its errors', async () => {
    const ds = await env.newStore();
    expect(await ds.listDataSources()).to.deep.equal([]);
    const e = await expectError(ds.registerDataSource('src', 'Nonsense', { file: 'x.csv' }), BadRequestError);
    expect(e.message).to.include("'Nonsense'");
    await expectError(ds.registerDataSource('src', ''), BadRequestError);
    for (const call of [ds.describeDataSource('nope'), ds.listDataSourceTables('nope'), ds.describeDataSourceTable('nope', 't'), ds.getDataSourceTableData('nope', 't', 5), ds.deregisterDataSource('nope')]) {
      const u = await expectError(call, UnknownResourceError);
      expect(u.message).to.include("'nope'");
    }
  });

  it('refuses the non-transactional operations inside a transaction', async () => {
    const ds = await env.newStore();
    await ds.beginTransaction('read-write');
    await expectError(ds.registerDataSource('src', 'DelimitedFile'), TransactionError);
    await expectError(ds.deregisterDataSource('src'), TransactionError);
    await expectError(ds.createTupleTable('T', { arity: '2' }), TransactionError);
    await ds.rollbackTransaction();
  });

  it('recompiles rules and checks the commit procedure', async () => {
    const ds = await env.newStore();
    const r = await ds.importData('ADD', '[?x, <http://e/q>, ?y] :- [?x, <http://e/p>, ?y] .\n[<http://e/a>, <http://e/p>, <http://e/b>] .', { mediaType: 'application/x.datalog' });
    expect(r.errors).to.equal(0);
    await ds.setCommitProcedure('INSERT { ?s <http://e/seen> true } WHERE { ?s <http://e/q> ?o }');
    await ds.recompile();
    await ds.importData('ADD', '<http://e/c> <http://e/p> <http://e/d> .');
    const a = await ds.evaluateQuery('SELECT ?s WHERE { ?s <http://e/seen> true } ORDER BY ?s');
    expect(a.type === 'bindings' && a.rows.map((r) => r[0]!.value)).to.deep.equal(['http://e/a', 'http://e/c']);
  });

  it('checks a password of the connection role', async () => {
    const ds = await env.newStore();
    await ds.checkPassword(ADMIN_PASSWORD);
    await expectError(ds.checkPassword('wrong'), AuthenticationError);
    await env.connection.checkPassword(ADMIN_PASSWORD);
  });

  it('runs an update over the USING graphs the protocol names, and refuses USING or WITH with them', async () => {
    const ds = await env.newStore();
    const r = await ds.importData('ADD', '<http://e/a> <http://e/p> "1" <http://e/g1> .\n<http://e/b> <http://e/p> "2" <http://e/g2> .\n<http://e/c> <http://e/p> "3" .', { mediaType: 'application/n-quads' });
    expect(r.errors).to.equal(0);
    await ds.evaluateUpdate('INSERT { ?s <http://e/hit> true } WHERE { ?s <http://e/p> ?o }', { usingGraphs: ['http://e/g1'] });
    let a = await ds.evaluateQuery('SELECT ?s WHERE { ?s <http://e/hit> true }');
    expect(a.type === 'bindings' && a.rows.map((r) => r[0]!.value)).to.deep.equal(['http://e/a']);
    await ds.evaluateUpdate('INSERT { ?s <http://e/named> ?g } WHERE { GRAPH ?g { ?s <http://e/p> ?o } }', { usingNamedGraphs: ['http://e/g2'] });
    a = await ds.evaluateQuery('SELECT ?s ?g WHERE { ?s <http://e/named> ?g }');
    expect(a.type === 'bindings' && a.rows.map((r) => `${r[0]!.value} ${r[1]!.value}`)).to.deep.equal(['http://e/b http://e/g2']);
    const e = await expectError(ds.evaluateUpdate('WITH <http://e/g1> DELETE { ?s ?p ?o } WHERE { ?s ?p ?o }', { usingGraphs: ['http://e/g2'] }), BadRequestError);
    expect(e.message).to.include('WITH');
    await expectError(ds.evaluateUpdate('DELETE { ?s ?p ?o } USING <http://e/g1> WHERE { ?s ?p ?o }', { usingGraphs: ['http://e/g2'] }), BadRequestError);
    await expectError(ds.evaluateUpdate('DELETE WHERE { ?s ?p ', { usingGraphs: ['http://e/g2'] }), QueryCompilationError);
  });
});
