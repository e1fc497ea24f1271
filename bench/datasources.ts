/**
 * Data source benchmark: rows turned into triples by rules over mounted tuple tables, against
 * importing the same triples as N-Triples; and a rule joining store facts with a PostgreSQL
 * table on a key, with the key pushed down into a parameterised WHERE and without.
 *
 * Usage: `npm run bench:datasources -- [--rows N] [--join N] [--unpushed N]`
 * (defaults: 1,000,000 rows, 10,000 joined store facts, 20 bindings measured without
 * push-down). A PostgreSQL server is started for the run in a temporary directory (see
 * spec/helpers/postgres.ts) and stopped afterwards.
 *
 * What is timed (wall clock):
 * - CSV: the commit of the rule `[?p, :name, ?n] :- People(?p, ?n)` over a mounted CSV of N
 *   rows (the materialisation reads the file through csv-parse);
 * - PostgreSQL: the same rule over a mounted table of N rows (fetched in batches of 1024);
 * - N-Triples: `importData('ADD', { path })` of the same N triples;
 * - join with push-down: the commit of `[?x, :knowsName, ?n] :- [?x, :knows, ?y], People(?y, ?n)`
 *   with `--join` `:knows` facts (one parameterised SELECT per binding, on the primary key);
 * - join without push-down: the same rule over a mount whose key template has two
 *   placeholders (so it cannot be inverted into a condition), with `--unpushed` facts: every
 *   binding reads the whole table. The time per binding is reported, and scaled to `--join`
 *   bindings (an extrapolation, marked as such).
 * @module
 */
import { mkdtempSync, rmSync, createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConnectionFactory, type DataStoreConnection, Server } from '../lib/index.js';
import { startPostgres } from '../spec/helpers/postgres.js';

const args = process.argv.slice(2);
function option(name: string, fallback: number): number {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
}
const ROWS = option('--rows', 1_000_000);
const JOIN = option('--join', 10_000);
const UNPUSHED = option('--unpushed', 20);

async function writeLines(path: string, count: number, line: (i: number) => string): Promise<void> {
  const out = createWriteStream(path);
  for (let i = 1; i <= count; i++) {
    if (!out.write(line(i))) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

async function timed(action: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await action();
  return Number(process.hrtime.bigint() - start) / 1e9;
}

async function count(ds: DataStoreConnection, predicate: string): Promise<number> {
  const a = await ds.evaluateQuery(`SELECT (COUNT(*) AS ?c) WHERE { ?s <${predicate}> ?o }`);
  return a.type === 'bindings' ? Number(a.rows[0]![0]!.value) : -1;
}

const dir = mkdtempSync(join(tmpdir(), 'quadlog-bench-ds-'));
const pg = await startPostgres();
const url = `bench://datasources/${process.pid}`;
const server = await Server.create({ roleName: 'admin', password: 'admin', parameters: { 'sandbox-directory': dir, 'allowed-url-schemes-on-import': 'file', 'password-hashing': 'fast' }, url });
const connection = await ConnectionFactory.newServerConnection(url, 'admin', 'admin');
let stores = 0;
const newStore = (): DataStoreConnection => {
  const name = `s${++stores}`;
  connection.createDataStore(name);
  return connection.newDataStoreConnection(name);
};
const rule = '[?p, <http://ex.org/name>, ?n] :- People(?p, ?n) .';
const results: Array<[string, string]> = [];
try {
  console.log(`preparing ${ROWS} rows (CSV, N-Triples, PostgreSQL)…`);
  await writeLines(join(dir, 'people.csv'), ROWS, (i) => `${i},name ${i}\n`);
  await writeLines(join(dir, 'people.nt'), ROWS, (i) => `<http://ex.org/p/${i}> <http://ex.org/name> "name ${i}" .\n`);
  await pg.sql('CREATE TABLE people (id integer PRIMARY KEY, name text NOT NULL)');
  await pg.sql(`INSERT INTO people SELECT i, 'name ' || i FROM generate_series(1, ${ROWS}) AS i`);
  await pg.sql('ANALYZE people');
  const mount = { columns: '2', '1': 'http://ex.org/p/{1}', '1.datatype': 'iri', '2': '{2}' };

  {
    const ds = newStore();
    await ds.registerDataSource('csv', 'delimitedFile', { file: 'people.csv' });
    await ds.createTupleTable('People', { 'data-source-name': 'csv', ...mount });
    const s = await timed(() => ds.importData('ADD', rule, { mediaType: 'application/x.datalog' }));
    const n = await count(ds, 'http://ex.org/name');
    results.push(['CSV rows → triples by a rule', `${n} triples in ${s.toFixed(2)} s = ${Math.round(n / s).toLocaleString('en')} rows/s`]);
    ds.close();
  }
  {
    const ds = newStore();
    await ds.registerDataSource('db', 'PostgreSQL', { 'connection-string': pg.connectionString });
    await ds.createTupleTable('People', { 'data-source-name': 'db', 'table.name': 'people', ...mount });
    const s = await timed(() => ds.importData('ADD', rule, { mediaType: 'application/x.datalog' }));
    const n = await count(ds, 'http://ex.org/name');
    results.push(['PostgreSQL rows → triples by a rule', `${n} triples in ${s.toFixed(2)} s = ${Math.round(n / s).toLocaleString('en')} rows/s`]);
    ds.close();
  }
  {
    const ds = newStore();
    const s = await timed(() => ds.importData('ADD', { path: join(dir, 'people.nt') }));
    const n = await count(ds, 'http://ex.org/name');
    results.push(['N-Triples import of the same triples', `${n} triples in ${s.toFixed(2)} s = ${Math.round(n / s).toLocaleString('en')} triples/s`]);
    ds.close();
  }
  const joinRule = '[?x, <http://ex.org/knowsName>, ?n] :- [?x, <http://ex.org/knows>, ?y], People(?y, ?n) .';
  const knows = (n: number): string => {
    const lines: string[] = [];
    for (let i = 1; i <= n; i++) lines.push(`<http://ex.org/q/${i}> <http://ex.org/knows> <http://ex.org/p/${1 + ((i * 7919) % ROWS)}> .`);
    return lines.join('\n');
  };
  {
    const ds = newStore();
    await ds.registerDataSource('db', 'PostgreSQL', { 'connection-string': pg.connectionString });
    await ds.createTupleTable('People', { 'data-source-name': 'db', 'table.name': 'people', ...mount });
    await ds.importData('ADD', knows(JOIN));
    const s = await timed(() => ds.importData('ADD', joinRule, { mediaType: 'application/x.datalog' }));
    const n = await count(ds, 'http://ex.org/knowsName');
    results.push([`join of ${JOIN} store facts, push-down`, `${n} joined in ${s.toFixed(2)} s (${((s / JOIN) * 1000).toFixed(3)} ms per binding)`]);
    ds.close();
  }
  {
    const ds = newStore();
    await ds.registerDataSource('db', 'PostgreSQL', { 'connection-string': pg.connectionString });
    // two placeholders in the key's template: the key cannot be pushed down
    await ds.createTupleTable('People', {
      'data-source-name': 'db',
      query: "SELECT left(id::text, 1) AS head, substr(id::text, 2) AS tail, name FROM people",
      columns: '2',
      '1': 'http://ex.org/p/{head}{tail}',
      '1.datatype': 'iri',
      '1.if-empty': 'leave',
      '2': '{name}',
    });
    await ds.importData('ADD', knows(UNPUSHED));
    const s = await timed(() => ds.importData('ADD', joinRule, { mediaType: 'application/x.datalog' }));
    const n = await count(ds, 'http://ex.org/knowsName');
    const per = s / UNPUSHED;
    results.push([`join of ${UNPUSHED} store facts, no push-down`, `${n} joined in ${s.toFixed(2)} s (${(per * 1000).toFixed(1)} ms per binding; ${JOIN} bindings ≈ ${(per * JOIN).toFixed(0)} s, extrapolated)`]);
    ds.close();
  }
} finally {
  connection.close();
  await server.shutdown();
  await pg.stop();
  rmSync(dir, { recursive: true, force: true });
}
console.log('');
for (const [what, figure] of results) console.log(`${what.padEnd(44)} ${figure}`);
