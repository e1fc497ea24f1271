/**
 * Test-isolation benchmark: what one isolated test costs, as the median and p90 over many
 * iterations (default 200, after 20 unmeasured ones), for three ways of isolating tests:
 *
 * - (a) a fresh server per test, today's pattern: `Server.create` with the default password
 *   hashing (scrypt N = 2^14) and `ConnectionFactory.newServerConnection`;
 * - (b) a fresh server per test, the fast path: the server parameter `password-hashing=fast`
 *   (scrypt N = 2^4), `await using` to shut it down;
 * - (c) one server for the whole run (created before the timing) and a data store per test,
 *   deleted at its end.
 *
 * Every test is the same: a data store, 100 triples imported from Turtle and one SELECT
 * (whose answer is checked). The first role's password is remembered as checked when the
 * server hashes it, so in (a) and (b) opening the connection costs no second hash.
 *
 * Usage: `npm run bench:isolation -- [--iterations N] [--warmup N] [--cases a,b,c]`.
 * @module
 */
import { parseArgs } from 'node:util';
import { ConnectionFactory, Server, type ServerConnection } from '../lib/index.js';
import { chosen, table } from './lib/harness.js';

const { values } = parseArgs({ options: { iterations: { type: 'string', default: '200' }, warmup: { type: 'string', default: '20' }, cases: { type: 'string', multiple: true } } });
const CASES = chosen(values.cases, ['a', 'b', 'c'] as const, '--cases');
const ITERATIONS = Number(values.iterations);
const WARMUP = Number(values.warmup);
if (!Number.isInteger(ITERATIONS) || ITERATIONS < 1) throw new Error(`--iterations: a positive integer is required, not '${values.iterations}'`);
if (!Number.isInteger(WARMUP) || WARMUP < 0) throw new Error(`--warmup: a non-negative integer is required, not '${values.warmup}'`);

const ROLE = 'admin';
const PASSWORD = 'bench-secret';
const TRIPLES = 100;
const TURTLE = ['@prefix ex: <http://example.com/> .', ...Array.from({ length: TRIPLES }, (_, i) => `ex:s${i} ex:p${i % 10} ex:o${i % 7} .`)].join('\n');
const QUERY = 'PREFIX ex: <http://example.com/> SELECT ?s WHERE { ?s ex:p3 ?o }';
const ANSWERS = TRIPLES / 10;

/** The body of every test: a store, 100 triples, one query. */
async function storeTest(sc: ServerConnection, name: string): Promise<void> {
  sc.createDataStore(name);
  using ds = sc.newDataStoreConnection(name);
  await ds.importData('ADD', TURTLE, { mediaType: 'text/turtle' });
  const answer = await ds.evaluateQuery(QUERY);
  if (answer.type !== 'bindings' || answer.rows.length !== ANSWERS) throw new Error(`unexpected answer: ${JSON.stringify(answer)}`);
}

/** (a) A fresh server with the default password hashing. */
async function serverPerTestDefault(): Promise<void> {
  const server = await Server.create({ roleName: ROLE, password: PASSWORD });
  try {
    const sc = await ConnectionFactory.newServerConnection(server.url, ROLE, PASSWORD);
    try {
      await storeTest(sc, 'test');
    } finally {
      sc.close();
    }
  } finally {
    await server.shutdown();
  }
}

/** (b) A fresh server with `password-hashing=fast`, disposed by `await using`. */
async function serverPerTestFast(): Promise<void> {
  await using server = await Server.create({ roleName: ROLE, password: PASSWORD, parameters: { 'password-hashing': 'fast' } });
  using sc = await ConnectionFactory.newServerConnection(server.url, ROLE, PASSWORD);
  await storeTest(sc, 'test');
}

/** (c) A store per test on one server for the whole run. */
function storePerTest(sc: ServerConnection): () => Promise<void> {
  let n = 0;
  return async () => {
    const name = `test-${++n}`;
    try {
      await storeTest(sc, name);
    } finally {
      sc.deleteDataStore(name);
    }
  };
}

/** Milliseconds per run of `test`: WARMUP unmeasured runs, then ITERATIONS measured ones, sorted. */
async function measure(test: () => Promise<void>): Promise<number[]> {
  for (let i = 0; i < WARMUP; i++) await test();
  const times: number[] = [];
  for (let i = 0; i < ITERATIONS; i++) {
    const start = performance.now();
    await test();
    times.push(performance.now() - start);
  }
  return times.sort((x, y) => x - y);
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((sorted.length * p) / 100) - 1)] ?? NaN;
}

const shared = await Server.create({ roleName: ROLE, password: PASSWORD });
const sharedConnection = await ConnectionFactory.newServerConnection(shared.url, ROLE, PASSWORD);
const cases: Array<[string, () => Promise<void>]> = (
  [
    ['a', '(a) server per test, default hashing', serverPerTestDefault],
    ['b', '(b) server per test, password-hashing=fast', serverPerTestFast],
    ['c', '(c) one server per file, store per test', storePerTest(sharedConnection)],
  ] as const
)
  .filter(([key]) => CASES.includes(key))
  .map(([, label, test]) => [label, test]);
console.log(`isolation: ${ITERATIONS} tests per case (after ${WARMUP} unmeasured), each a store with ${TRIPLES} triples and one SELECT; Node ${process.version}\n`);
const rows: string[][] = [];
for (const [label, test] of cases) {
  const times = await measure(test);
  const mean = times.reduce((s, t) => s + t, 0) / times.length;
  rows.push([label, percentile(times, 50).toFixed(2), percentile(times, 90).toFixed(2), mean.toFixed(2), times[0]!.toFixed(2), times[times.length - 1]!.toFixed(2)]);
}
sharedConnection.close();
await shared.shutdown();
console.log(table(['case', 'median ms', 'p90 ms', 'mean ms', 'min ms', 'max ms'], rows));
