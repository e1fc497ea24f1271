import { expect } from 'chai';
import { BadRequestError, ParsingError } from '../../lib/index.js';
import { PG_DATABASE, PG_READER, PG_READER_PASSWORD, usePostgres } from '../helpers/postgres.js';
import { expectError, useServer } from '../helpers/server.js';

/** A password with a space, a quote and a backslash: libpq's quoting and escapes are needed. */
const ODD_PASSWORD = "o d'd\\pw";

describe('datasources: PostgreSQL connection strings and statement timeouts (against a real server)', function () {
  this.timeout(60_000);
  const pg = usePostgres();
  const env = useServer('datasources-postgresql-connection');

  before(async () => {
    await pg.sql(`CREATE TABLE cities (id integer PRIMARY KEY, name text NOT NULL)`);
    await pg.sql(`INSERT INTO cities VALUES (1, 'Oslo'), (2, 'Bergen')`);
    await pg.sql(`GRANT SELECT ON cities TO ${PG_READER}`);
    await pg.sql(`CREATE ROLE odd_reader LOGIN PASSWORD '${ODD_PASSWORD.replace(/'/g, "''")}'`);
    await pg.sql(`GRANT SELECT ON cities TO odd_reader`);
  });

  const names = async (ds: Awaited<ReturnType<typeof env.newStore>>): Promise<string[]> => {
    const a = await ds.evaluateQuery('SELECT ?n WHERE { TT Cities { ?i ?n } } ORDER BY ?n');
    return a.type === 'bindings' ? a.rows.map((r) => r[0]!.value) : [];
  };

  it("registers with libpq's keyword/value form, as with a URI", async () => {
    const ds = await env.newStore();
    const conninfo = `host=127.0.0.1 port=${pg.port} user=${PG_READER} password=${PG_READER_PASSWORD} dbname=${PG_DATABASE}`;
    await ds.registerDataSource('kv', 'PostgreSQL', { 'connection-string': conninfo });
    await ds.createTupleTable('Cities', { 'data-source-name': 'kv', 'table.name': 'cities' });
    expect(await names(ds)).to.deep.equal(['Bergen', 'Oslo']);
    const described = JSON.stringify(await ds.describeDataSource('kv'));
    expect(described).not.to.include(PG_READER_PASSWORD);
    expect(described).to.include('password=***');
    // and a URI still works
    await ds.registerDataSource('uri', 'PostgreSQL', { 'connection-string': pg.connectionString });
    expect((await ds.listDataSourceTables('uri')).map((t) => t.name)).to.include('cities');
  });

  it('reads quoted values, backslash escapes and spaces around =, as libpq does', async () => {
    const ds = await env.newStore();
    const quoted = `'${ODD_PASSWORD.replace(/[\\']/g, (c) => `\\${c}`)}'`;
    const conninfo = `  host = 127.0.0.1\tport= ${pg.port} user ='odd_reader' password = ${quoted} dbname=${PG_DATABASE} application_name='quadlog spec'  `;
    await ds.registerDataSource('odd', 'PostgreSQL', { 'connection-string': conninfo });
    await ds.createTupleTable('Cities', { 'data-source-name': 'odd', 'table.name': 'cities' });
    expect(await names(ds)).to.deep.equal(['Bergen', 'Oslo']);
    const listed = JSON.stringify(await ds.listDataSources());
    expect(listed).not.to.include('o d');
    expect(listed).not.to.include('pw');
  });

  it('names the position and the problem of a malformed string, never a value', async () => {
    const ds = await env.newStore();
    const cases: Array<[string, RegExp]> = [
      [`host=127.0.0.1 password='never-shown dbname=d`, /at character 25\b.*'password' has no closing quote/],
      [`host=127.0.0.1 password=never shown`, /at character 31\b.*must be followed by '='/],
      [`host=127.0.0.1 pasword=never-shown`, /at character 16\b.*unknown keyword/],
      [`host=127.0.0.1 port=fifty`, /at character 21\b.*'port' must be an integer/],
      [`host=127.0.0.1 sslcert=/etc/never-shown`, /'sslcert' is not supported/],
      [`host=a,b`, /several hosts/],
    ];
    for (const [text, expected] of cases) {
      const e = await expectError(ds.registerDataSource('bad', 'PostgreSQL', { 'connection-string': text }), BadRequestError);
      expect(e.message, text).to.match(expected);
      expect(e.message, text).to.include("data source 'bad'");
      expect(e.message, text).not.to.include('never');
      expect(e.message, text).not.to.include('base');
    }
    expect(await ds.listDataSources()).to.deep.equal([]);
  });

  it("cancels a SQL statement that runs longer than the source's statement-timeout, naming it", async () => {
    const ds = await env.newStore();
    await ds.registerDataSource('slow', 'PostgreSQL', { 'connection-string': pg.connectionString, 'statement-timeout': '1' });
    expect(await ds.describeDataSource('slow')).to.deep.include({ property: 'statement-timeout', value: '1' });
    await ds.createTupleTable('Sleepy', { 'data-source-name': 'slow', query: 'SELECT id, name, pg_sleep(CASE WHEN id = 2 THEN 600 ELSE 0 END) AS z FROM cities' });
    const e = await expectError(ds.evaluateQuery('SELECT ?n WHERE { TT Sleepy { ?i ?n ?z } }'), ParsingError);
    expect(e.message).to.include("data source 'slow'").and.include('statement-timeout of 1 s');
    // the connection is usable again at once
    await ds.createTupleTable('Cities', { 'data-source-name': 'slow', 'table.name': 'cities' });
    expect(await names(ds)).to.deep.equal(['Bergen', 'Oslo']);
    const active = await pg.sql(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE query LIKE '%pg_sleep(CASE%' AND state = 'active' AND pid <> pg_backend_pid()`);
    expect((active.rows[0] as { n: number }).n).to.equal(0);
  });

  it('has a default statement-timeout, and takes 0 for none; refuses a bad value', async () => {
    const ds = await env.newStore();
    await ds.registerDataSource('d', 'PostgreSQL', { 'connection-string': pg.connectionString });
    expect(await ds.describeDataSource('d')).to.deep.include({ property: 'statement-timeout', value: '60' });
    await ds.registerDataSource('none', 'PostgreSQL', { 'connection-string': pg.connectionString, 'statement-timeout': '0' });
    expect(await ds.describeDataSource('none')).to.deep.include({ property: 'statement-timeout', value: '0' });
    const e = await expectError(ds.registerDataSource('bad', 'PostgreSQL', { 'connection-string': pg.connectionString, 'statement-timeout': 'soon' }), BadRequestError);
    expect(e.message).to.include('statement-timeout');
  });
});
