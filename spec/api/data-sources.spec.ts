import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import {
  AccessDeniedError,
  AuthenticationError,
  BadRequestError,
  DuplicateResourceError,
  ParsingError,
  QueryCompilationError,
  ResourceInUseError,
  TransactionError,
  UnknownResourceError,
} from '../../lib/index.js';
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
    for (const call of [ds.describeDataSource('src'), ds.listDataSourceTables('src'), ds.describeDataSourceTable('src', 'records'), ds.getDataSourceTableData('src', 'records', 5)]) {
      expect((await expectError(call, TransactionError)).message).to.contain('cannot run while the connection has an open transaction');
    }
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

describe('api: delimited file data sources mounted as tuple tables', () => {
  const dir = mkdtempSync(join(tmpdir(), 'quadlog-ds-api-'));
  const env = useServer('data-sources-csv', { 'sandbox-directory': dir, 'allowed-url-schemes-on-import': 'file' });

  before(() => {
    writeFileSync(join(dir, 'people.csv'), 'id,name,age\n1,Beverly,33\n2,Thomas,\n3,Urs,sixty\n');
  });

  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('registers, lists, describes, samples and deregisters a CSV source', async () => {
    const ds = await env.newStore();
    await ds.registerDataSource('people', 'delimitedFile', { file: 'people.csv', header: 'true' });
    expect(await ds.listDataSources()).to.deep.equal([{ name: 'people', type: 'delimitedFile', parameters: 'file=people.csv&header=true', numberOfTables: 1 }]);
    const described = await ds.describeDataSource('people');
    expect(described).to.deep.include({ property: 'parameters.file', value: 'people.csv' });
    const tables = await ds.listDataSourceTables('people');
    expect(tables.map((t) => [t.name, t.numberOfColumns])).to.deep.equal([['records', 3]]);
    expect((await ds.describeDataSourceTable('people', 'records')).map((c) => c.name)).to.deep.equal(['id', 'name', 'age']);
    const sample = await ds.getDataSourceTableData('people', 'records', 2);
    expect(sample.rows.map((r) => r.map((t) => t?.value))).to.deep.equal([
      ['1', 'Beverly', '33'],
      ['2', 'Thomas', undefined],
    ]);
    await expectError(ds.getDataSourceTableData('people', 'records', -1), BadRequestError);
    await expectError(ds.registerDataSource('people', 'delimitedFile', { file: 'people.csv' }), DuplicateResourceError);
    await ds.deregisterDataSource('people');
    expect(await ds.listDataSources()).to.deep.equal([]);
  });

  it('refuses a missing file and a bad delimiter, and registers nothing', async () => {
    const ds = await env.newStore();
    const e = await expectError(ds.registerDataSource('m', 'delimitedFile', { file: 'missing.csv' }), ParsingError);
    expect(e.message).to.include("data source 'm'").and.include('missing.csv');
    await expectError(ds.registerDataSource('d', 'delimitedFile', { file: 'people.csv', delimiter: 'ab' }), BadRequestError);
    await expectError(ds.registerDataSource('o', 'delimitedFile', { file: '/etc/passwd' }), AccessDeniedError);
    expect(await ds.listDataSources()).to.deep.equal([]);
  });

  it('mounts a tuple table that SPARQL reads with TT, with templates, datatypes and pushed-down constants', async () => {
    const ds = await env.newStore();
    await ds.registerDataSource('people', 'delimitedFile', { file: 'people.csv', header: 'true' });
    await ds.createTupleTable('People', {
      'data-source-name': 'people',
      columns: '3',
      '1': 'http://ex.org/person/{id}',
      '1.datatype': 'iri',
      '2': '{name}',
      '3': '{age}',
      '3.datatype': 'xsd:integer',
      '3.invalid-literal-policy': 'as-string-silent',
      '3.if-empty': 'absent',
    });
    const tables = await ds.listTupleTables();
    expect(tables.find((t) => t.name === 'People')).to.deep.include({ type: 'dataSource', minArity: 3, maxArity: 3 });
    let a = await ds.evaluateQuery('SELECT ?p ?n ?a WHERE { TT People { ?p ?n ?a } } ORDER BY ?n');
    expect(a.type === 'bindings' && a.rows.map((r) => r.map((t) => t!.value))).to.deep.equal([
      ['http://ex.org/person/1', 'Beverly', '33'],
      ['http://ex.org/person/3', 'Urs', 'sixty'],
    ]);
    a = await ds.evaluateQuery('SELECT ?n WHERE { TT People { <http://ex.org/person/3> ?n ?a } }');
    expect(a.type === 'bindings' && a.rows.map((r) => r[0]!.value)).to.deep.equal(['Urs']);
    a = await ds.evaluateQuery('SELECT ?a WHERE { TT People { ?p "Beverly" ?a } FILTER(?a > 30) }');
    expect(a.type === 'bindings' && a.rows.map((r) => r[0]!.value)).to.deep.equal(['33']);
    // data is read at query time: a changed file shows at once
    writeFileSync(join(dir, 'people.csv'), 'id,name,age\n1,Beverly,33\n2,Thomas,\n3,Urs,sixty\n4,Abigail,52\n');
    a = await ds.evaluateQuery('SELECT (COUNT(*) AS ?c) WHERE { TT People { ?p ?n ?a } }');
    expect(a.type === 'bindings' && a.rows[0]![0]!.value).to.equal('3');
    writeFileSync(join(dir, 'people.csv'), 'id,name,age\n1,Beverly,33\n2,Thomas,\n3,Urs,sixty\n');
    const busy = await expectError(ds.deregisterDataSource('people'), ResourceInUseError);
    expect(busy.message).to.include('People');
    await ds.deleteTupleTable('People');
    await ds.deregisterDataSource('people');
  });

  it('lets rules read a mounted table, joining it with store facts; derived facts stay until rematerialisation', async () => {
    const ds = await env.newStore();
    await ds.registerDataSource('people', 'delimitedFile', { file: 'people.csv', header: 'true' });
    await ds.createTupleTable('People', { 'data-source-name': 'people', columns: '2', '1': 'http://ex.org/person/{id}', '1.datatype': 'iri', '2': '{name}' });
    const r = await ds.importData(
      'ADD',
      '[<http://ex.org/person/1>, <http://ex.org/likes>, <http://ex.org/person/3>] .\n' +
        '[?p, <http://ex.org/name>, ?n] :- People(?p, ?n) .\n' +
        '[?p, <http://ex.org/likesName>, ?n] :- [?p, <http://ex.org/likes>, ?q], People(?q, ?n) .',
      { mediaType: 'application/x.datalog' },
    );
    expect(r.errors).to.equal(0);
    const names = async (): Promise<string[]> => {
      const a = await ds.evaluateQuery('SELECT ?n WHERE { ?p <http://ex.org/name> ?n } ORDER BY ?n');
      return a.type === 'bindings' ? a.rows.map((row) => row[0]!.value) : [];
    };
    expect(await names()).to.deep.equal(['Beverly', 'Thomas', 'Urs']);
    const a = await ds.evaluateQuery('SELECT ?n WHERE { <http://ex.org/person/1> <http://ex.org/likesName> ?n }');
    expect(a.type === 'bindings' && a.rows.map((row) => row[0]!.value)).to.deep.equal(['Urs']);
    // the source changes: derived facts stay until the store is rematerialised
    writeFileSync(join(dir, 'people.csv'), 'id,name,age\n1,Beverly,33\n');
    try {
      expect(await names()).to.deep.equal(['Beverly', 'Thomas', 'Urs']);
      await ds.recomputeMaterialization();
      expect(await names()).to.deep.equal(['Beverly']);
    } finally {
      writeFileSync(join(dir, 'people.csv'), 'id,name,age\n1,Beverly,33\n2,Thomas,\n3,Urs,sixty\n');
    }
    const used = await expectError(ds.deleteTupleTable('People'), ResourceInUseError);
    expect(used.message).to.include('People(?p, ?n)');
    const head = await expectError(ds.importData('ADD', 'People(?x, ?y) :- [?x, <http://ex.org/name>, ?y] .', { mediaType: 'application/x.datalog' }), Error);
    expect(head.message).to.include("'People' is mounted on a data source");
  });

  it('fails a query on an invalid literal under the error policy, naming the row and column', async () => {
    const ds = await env.newStore();
    await ds.registerDataSource('people', 'delimitedFile', { file: 'people.csv', header: 'true' });
    await ds.createTupleTable('Ages', { 'data-source-name': 'people', columns: '2', '1': '{name}', '2': '{age}', '2.datatype': 'xsd:integer', '2.if-empty': 'absent' });
    const e = await expectError(ds.evaluateQuery('SELECT * WHERE { TT Ages { ?n ?a } }'), ParsingError);
    expect(e.message).to.include("tuple table 'Ages'").and.include("data source 'people'").and.include('row 3').and.include('column 2').and.include('sixty');
  });

  it('refuses bad mount parameters, naming them', async () => {
    const ds = await env.newStore();
    await ds.registerDataSource('people', 'delimitedFile', { file: 'people.csv', header: 'true' });
    const bad: Array<[Record<string, string>, string]> = [
      [{ 'data-source-name': 'nope' }, "data source 'nope' does not exist"],
      [{ 'data-source-name': 'people', '1': '{missing}' }, '{missing} names no source column'],
      [{ 'data-source-name': 'people', '1': '{9}' }, '{9} names no source column'],
      [{ 'data-source-name': 'people', '1.datatype': 'xsd:' }, "1.datatype of tuple table 'T' 'xsd:'"],
      [{ 'data-source-name': 'people', columns: '2', '3': '{1}' }, "parameter '3'"],
      [{ 'data-source-name': 'people', '1.if-empty': 'never' }, "invalid 1.if-empty 'never'"],
      [{ 'data-source-name': 'people', colour: 'red' }, "unknown parameter 'colour'"],
    ];
    for (const [parameters, text] of bad) {
      const e = await expectError(ds.createTupleTable('T', parameters), Error);
      expect(e.message, JSON.stringify(parameters)).to.include(text);
    }
    expect((await ds.listTupleTables()).map((t) => t.name)).not.to.include('T');
  });
});
