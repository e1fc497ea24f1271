import { expect } from 'chai';
import { BadRequestError, ParsingError, ResourceInUseError } from '../../lib/index.js';
import { usePostgres } from '../helpers/postgres.js';
import { expectError, useServer } from '../helpers/server.js';

describe('datasources: PostgreSQL (against a real server)', function () {
  this.timeout(60_000);
  const pg = usePostgres();
  const env = useServer('datasources-postgresql');

  before(async () => {
    await pg.sql(`CREATE TABLE people (id integer PRIMARY KEY, name text NOT NULL, born date, height double precision, active boolean, seen timestamp with time zone, note varchar(20))`);
    await pg.sql(`INSERT INTO people VALUES
      (1, 'Beverly', '1990-05-01', 1.70, true, '2024-01-02 03:04:05+00', NULL),
      (2, 'Thomas', NULL, 1.85, false, NULL, 'x'),
      (3, 'Urs', '1961-12-24', NULL, true, NULL, 'not-a-number')`);
    await pg.sql(`CREATE SCHEMA hr`);
    await pg.sql(`CREATE TABLE hr.salaries (person integer, amount numeric(10,2))`);
    await pg.sql(`INSERT INTO hr.salaries VALUES (1, 1000.50), (3, 2000.00)`);
    await pg.sql(`GRANT USAGE ON SCHEMA hr TO quadlog_reader`);
    await pg.sql(`GRANT SELECT ON ALL TABLES IN SCHEMA hr TO quadlog_reader`);
  });

  it('registers a database: tables, columns with XSD datatypes, samples', async () => {
    const ds = await env.newStore();
    await ds.registerDataSource('db', 'PostgreSQL', { 'connection-string': pg.connectionString, 'batch-size': '2' });
    const tables = await ds.listDataSourceTables('db');
    expect(tables.map((t) => [t.name, t.numberOfColumns])).to.deep.equal([
      ['hr.salaries', 2],
      ['people', 7],
    ]);
    const columns = await ds.describeDataSourceTable('db', 'people');
    expect(columns.map((c) => `${c.name} ${c.datatype.replace('http://www.w3.org/2001/XMLSchema#', 'xsd:')}`)).to.deep.equal([
      'id xsd:integer',
      'name xsd:string',
      'born xsd:date',
      'height xsd:double',
      'active xsd:boolean',
      'seen xsd:dateTime',
      'note xsd:string',
    ]);
    const sample = await ds.getDataSourceTableData('db', 'people', 1);
    expect(sample.rows.map((r) => r.map((t) => t?.value))).to.deep.equal([['1', 'Beverly', '1990-05-01', '1.7', 'true', '2024-01-02T03:04:05Z', undefined]]);
    expect(await ds.describeDataSource('db')).to.deep.include({ property: 'batch-size', value: '2' });
    // the password is not shown
    const [listed] = await ds.listDataSources();
    expect(listed!.parameters).not.to.include('reader-pw-for-tests');
    const described = JSON.stringify(await ds.describeDataSource('db'));
    expect(described).not.to.include('reader-pw-for-tests');
    expect(described).to.include('***');
    await ds.deregisterDataSource('db');
  });

  it('mounts tables and queries; SPARQL and rules read them; bound values become a parameterised WHERE', async () => {
    const ds = await env.newStore();
    await ds.registerDataSource('db', 'PostgreSQL', { 'connection-string': pg.connectionString, 'batch-size': '2' });
    await ds.createTupleTable('People', { 'data-source-name': 'db', 'table.name': 'people', columns: '3', '1': 'http://ex.org/p/{id}', '1.datatype': 'iri', '2': '{name}', '3': '{born}', '3.if-empty': 'absent' });
    await ds.createTupleTable('Pay', { 'data-source-name': 'db', query: 'SELECT person, amount * 2 AS doubled FROM hr.salaries' });
    let a = await ds.evaluateQuery('SELECT ?p ?n ?b WHERE { TT People { ?p ?n ?b } } ORDER BY ?n');
    expect(a.type === 'bindings' && a.rows.map((r) => r.map((t) => t!.value))).to.deep.equal([
      ['http://ex.org/p/1', 'Beverly', '1990-05-01'],
      ['http://ex.org/p/3', 'Urs', '1961-12-24'],
    ]);
    a = await ds.evaluateQuery('SELECT ?d WHERE { TT Pay { 3 ?d } }');
    expect(a.type === 'bindings' && a.rows.map((r) => [r[0]!.value, (r[0] as { datatype: { value: string } }).datatype.value])).to.deep.equal([['4000.00', 'http://www.w3.org/2001/XMLSchema#decimal']]);
    const before = pg.log().length;
    const r = await ds.importData(
      'ADD',
      '[<http://ex.org/p/1>, <http://ex.org/knows>, <http://ex.org/p/3>] .\n[<http://ex.org/p/3>, <http://ex.org/knows>, <http://ex.org/p/9>] .\n' +
        '[?x, <http://ex.org/knowsName>, ?n] :- [?x, <http://ex.org/knows>, ?y], People(?y, ?n, ?b) .',
      { mediaType: 'application/x.datalog' },
    );
    expect(r.errors).to.equal(0);
    a = await ds.evaluateQuery('SELECT ?x ?n WHERE { ?x <http://ex.org/knowsName> ?n }');
    expect(a.type === 'bindings' && a.rows.map((row) => `${row[0]!.value} ${row[1]!.value}`)).to.deep.equal(['http://ex.org/p/1 Urs']);
    const log = pg.log().slice(before);
    expect(log).to.match(/FROM "public"\."people" WHERE "id" = \$1/);
    expect(log).not.to.match(/FROM "public"\."people"\s*$/m);
    await expectError(ds.deregisterDataSource('db'), ResourceInUseError);
  });

  it('names the source, table, row and column of an invalid literal', async () => {
    const ds = await env.newStore();
    await ds.registerDataSource('db', 'PostgreSQL', { 'connection-string': pg.connectionString });
    await ds.createTupleTable('Notes', { 'data-source-name': 'db', 'table.name': 'people', columns: '1', '1': '{note}', '1.datatype': 'xsd:integer', '1.if-empty': 'absent' });
    const e = await expectError(ds.evaluateQuery('SELECT ?n WHERE { TT Notes { ?n } }'), ParsingError);
    expect(e.message).to.include("tuple table 'Notes'").and.include("data source 'db'").and.include('table people').and.include('column 1').and.include("'x'");
    await ds.createTupleTable('NotesAsText', { 'data-source-name': 'db', 'table.name': 'people', columns: '1', '1': '{note}', '1.datatype': 'xsd:integer', '1.if-empty': 'absent', '1.invalid-literal-policy': 'as-string-silent' });
    const a = await ds.evaluateQuery('SELECT ?n WHERE { TT NotesAsText { ?n } } ORDER BY ?n');
    expect(a.type === 'bindings' && a.rows.map((r) => r[0]!.value)).to.deep.equal(['not-a-number', 'x']);
  });

  it('refuses a wrong password, an unreachable server, a missing table and a SQL error, leaving the store unchanged', async () => {
    const ds = await env.newStore();
    let e = await expectError(ds.registerDataSource('bad', 'PostgreSQL', { 'connection-string': pg.connectionStringWith('wrong') }), BadRequestError);
    expect(e.message).to.include("data source 'bad'").and.include('password authentication failed');
    e = await expectError(ds.registerDataSource('far', 'PostgreSQL', { 'connection-string': 'postgresql://u:p@127.0.0.1:1/db' }), BadRequestError);
    expect(e.message).to.include("data source 'far'").and.include('ECONNREFUSED');
    e = await expectError(ds.registerDataSource('x', 'PostgreSQL', {}), BadRequestError);
    expect(e.message).to.include('connection-string');
    expect(await ds.listDataSources()).to.deep.equal([]);
    await ds.registerDataSource('db', 'PostgreSQL', { 'connection-string': pg.connectionString });
    const missing = await expectError(ds.createTupleTable('T', { 'data-source-name': 'db', 'table.name': 'nope' }), Error);
    expect(missing.message).to.include("no table 'nope'");
    const sqlError = await expectError(ds.createTupleTable('T', { 'data-source-name': 'db', query: 'SELECT nonsense FROM people' }), ParsingError);
    expect(sqlError.message).to.include("data source 'db'").and.include('nonsense');
    expect((await ds.listTupleTables()).map((t) => t.name)).not.to.include('T');
  });
});
