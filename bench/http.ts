/**
 * HTTP benchmark: requests/s and latency of a small SELECT over `/datastores/<ds>/sparql` with
 * 10 concurrent clients (autocannon), against the same query through the in-memory API, in one
 * run; the difference is the adapter's cost per request.
 *
 * Usage: `npm run bench:http -- [--duration S] [--connections N]` (default 10 s, 10 clients);
 * with `BENCH_PROFILE=<dir>` in the environment the endpoint process writes a CPU profile there.
 *
 * The endpoint runs in a child process (`… bench/http.ts --serve`) holding LUBM(1)
 * (`test-data/lubm/lubm1.nt.gz`, 100,543 triples), so that autocannon's own work in the
 * parent does not share the endpoint's event loop. Requests carry Basic credentials (checked
 * once, then remembered by the role database) and `Accept: application/sparql-results+json`.
 * They run twice: as the first role (every privilege: the checks take their fast path) and as
 * a role that may only read the store (each call checks the store, the tuple table it reads and
 * the named graphs), so that the cost of access control shows. After the
 * HTTP run, the child answers the query through `DataStoreConnection.evaluateQueryTo` with the
 * same format, one call after another for the same duration (the in-memory API serves one
 * call at a time per connection; a server on one core does too), and reports its rate and
 * latencies. The answer bodies must be equal in both ways (checked once). autocannon records
 * latencies in whole milliseconds, so its p50 and p99 are coarse; the mean is exact enough.
 * Then large answers (every triple of LUBM(1) as TSV and as JSON, and the store exported as
 * N-Triples) are fetched with curl and timed against the same through the in-memory API, both
 * as text (`evaluateQueryTo`, `exportData`: chunks counted, not encoded) and as UTF-8 bytes
 * (`evaluateQueryToBytes`, `exportDataAsBytes`); the ratio is to the faster of the two. A
 * cursor's page of every row (PATCH `operation=open`, as TSV) is timed against
 * `createCursor(…).open()` in-process.
 * Last, LUBM(10) as N-Triples (1.27M triples) is imported into a fresh store from a file in the
 * endpoint's process and sent over HTTP with `curl -T`, each three times.
 * @module
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { ConnectionFactory, Server } from '../lib/index.js';
import { startEndpoint } from '../lib/http/index.js';
import { table } from './lib/harness.js';
import { LUBM } from '../spec/helpers/test-data.js';

const LUBM1 = LUBM.lubm1;
const STORE = 'bench';
const ROLE = 'bench';
/** A role that may read the store and nothing else. */
const READER = 'reader';
const PASSWORD = 'bench-secret';
const ACCEPT = 'application/sparql-results+json';
/** A small SELECT: the graduate students taking one course (4 answers on LUBM(1)). */
export const QUERY = `PREFIX ub: <http://swat.cse.lehigh.edu/onto/univ-bench.owl#>
SELECT ?x WHERE { ?x a ub:GraduateStudent ; ub:takesCourse <http://www.Department0.University0.edu/GraduateCourse0> }`;

/** Rates and latencies of one way of asking. */
interface Measured {
  readonly requests: number;
  readonly perSecond: number;
  readonly mean: number;
  readonly p50: number;
  readonly p99: number;
  readonly errors: number;
}

/** The large answers: every triple of LUBM(1) (100,543 rows) as TSV and JSON, and the store exported as N-Triples. */
const LARGE: ReadonlyArray<{ readonly name: string; readonly query?: string; readonly accept: string }> = [
  { name: 'SELECT * as TSV', query: 'SELECT * WHERE { ?s ?p ?o }', accept: 'text/tab-separated-values' },
  { name: 'SELECT * as JSON', query: 'SELECT * WHERE { ?s ?p ?o }', accept: 'application/sparql-results+json' },
  { name: 'export as N-Triples', accept: 'application/n-triples' },
];
const LARGE_RUNS = 7;
/** The cursor case of the large answers: a cursor over every triple, opened for all rows, as TSV. */
const CURSOR_NAME = 'cursor page of every row as TSV';
const CURSOR_QUERY = 'SELECT * WHERE { ?s ?p ?o }';
const LUBM10 = LUBM.lubm10;
/** The store the import comparison creates and deletes, once per run and way. */
const IMPORT_STORE = 'bench-import';
const IMPORT_RUNS = 3;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Fetches `url` with curl into /dev/null (by `method`, GET unless given); returns [seconds, bytes]. */
function curl(url: string, headers: Record<string, string>, method = 'GET'): Promise<[number, number]> {
  const args = ['-s', '-o', '/dev/null', '-X', method, '-w', '%{time_total} %{size_download} %{http_code}', ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]), url];
  return new Promise((resolve, reject) => {
    const p = spawn('curl', args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    p.stdout.on('data', (c: Buffer) => (out += c.toString()));
    p.on('error', reject);
    p.on('exit', () => {
      const [seconds, bytes, status] = out.trim().split(' ');
      if (status !== '200') reject(new Error(`curl ${url}: status ${status}`));
      else resolve([Number(seconds), Number(bytes)]);
    });
  });
}

/** Sends a file with curl -T as the body of `POST url`; returns its time in ms. */
function curlUpload(url: string, headers: Record<string, string>, file: string): Promise<number> {
  const args = ['-s', '-o', '/dev/null', '-w', '%{time_total} %{http_code}', '-X', 'POST', '-T', file, ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]), url];
  return new Promise((resolve, reject) => {
    const p = spawn('curl', args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    p.stdout.on('data', (c: Buffer) => (out += c.toString()));
    p.on('error', reject);
    p.on('exit', () => {
      const [seconds, status] = out.trim().split(' ');
      if (status !== '200') reject(new Error(`curl -T ${url}: status ${status}`));
      else resolve(Number(seconds) * 1000);
    });
  });
}

/**
 * LUBM(10), decompressed to a temporary file, imported in the endpoint's process from the
 * file and sent over HTTP as a request body, each into a fresh store: the table rows.
 */
async function measureImports(url: string, headers: Record<string, string>, child: ChildProcess, nextLine: () => Promise<string>): Promise<string[][]> {
  const dir = await mkdtemp(join(tmpdir(), 'quadlog-bench-http-'));
  try {
    const file = join(dir, 'lubm10.nt');
    await pipeline(createReadStream(LUBM10), createGunzip(), createWriteStream(file));
    const local: number[] = [];
    const http: number[] = [];
    let triples = 0;
    for (let i = 0; i < IMPORT_RUNS; i++) {
      child.stdin!.write(`import ${file}\n`);
      const measured = JSON.parse(await nextLine()) as { ms: number; facts: number };
      local.push(measured.ms);
      triples = measured.facts;
      child.stdin!.write('create\n');
      await nextLine();
      http.push(await curlUpload(`${url}/datastores/${IMPORT_STORE}/content`, { ...headers, 'content-type': 'application/n-triples' }, file));
      child.stdin!.write('count\n');
      const counted = JSON.parse(await nextLine()) as { facts: number };
      if (counted.facts !== triples) throw new Error(`the HTTP import gave ${counted.facts} facts, the in-process one ${triples}`);
    }
    const rate = (ms: number): string => (triples / ms / 1000).toFixed(2);
    return [
      ['in-process, from the file', String(triples), median(local).toFixed(0), rate(median(local)), ''],
      ['HTTP, request body', String(triples), median(http).toFixed(0), rate(median(http)), (median(http) / median(local)).toFixed(2)],
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;
}

// ---------------------------------------------------------------- child: the endpoint

async function serveChild(): Promise<void> {
  const server = await Server.create({ roleName: ROLE, password: PASSWORD, url: 'bench-http' });
  const sc = await ConnectionFactory.newServerConnection(server.url, ROLE, PASSWORD);
  sc.createDataStore(STORE);
  const ds = sc.newDataStoreConnection(STORE);
  // an import with errors rejects (ImportError), naming the first
  await ds.importData('ADD', { path: LUBM1 }, { mediaType: 'application/n-triples' });
  await sc.createRole(READER, PASSWORD);
  sc.grantPrivileges(READER, `|datastores|${STORE}`, 'read');
  sc.grantPrivileges(READER, `|datastores|${STORE}|tupletables|*`, 'read');
  const endpoint = await startEndpoint(server, { port: 0 });
  let body = '';
  await ds.evaluateQueryTo(QUERY, ACCEPT, (chunk) => void (body += chunk));
  process.stdout.write(`${JSON.stringify({ url: endpoint.url, body })}\n`);
  for await (const line of createInterface({ input: process.stdin })) {
    const [command, seconds] = line.split(' ');
    if (command === 'memory') {
      const latencies: number[] = [];
      const until = performance.now() + Number(seconds) * 1000;
      while (performance.now() < until) {
        const start = performance.now();
        let out = '';
        await ds.evaluateQueryTo(QUERY, ACCEPT, (chunk) => void (out += chunk));
        latencies.push(performance.now() - start);
      }
      latencies.sort((a, b) => a - b);
      const mean = latencies.reduce((a, b) => a + b, 0) / latencies.length;
      const result: Measured = { requests: latencies.length, perSecond: latencies.length / Number(seconds), mean, p50: percentile(latencies, 50), p99: percentile(latencies, 99), errors: 0 };
      process.stdout.write(`${JSON.stringify(result)}\n`);
    } else if (command === 'large') {
      // the in-process times of the large answers, for comparison with the same over HTTP
      // (as text, whose chunks are only counted, and as UTF-8 bytes, as the HTTP layer asks for them)
      const times: Record<string, { text: number; bytes: number }> = {};
      for (const large of LARGE) {
        const text: number[] = [];
        const bytes: number[] = [];
        for (let i = 0; i < LARGE_RUNS; i++) {
          let n = 0;
          let start = performance.now();
          if (large.query === undefined) await ds.exportData((chunk) => void (n += chunk.length), large.accept);
          else await ds.evaluateQueryTo(large.query, large.accept, (chunk) => void (n += chunk.length));
          text.push(performance.now() - start);
          start = performance.now();
          if (large.query === undefined) await ds.exportDataAsBytes((chunk) => void (n += chunk.length), large.accept);
          else await ds.evaluateQueryToBytes(large.query, large.accept, (chunk) => void (n += chunk.length));
          bytes.push(performance.now() - start);
        }
        times[large.name] = { text: median(text), bytes: median(bytes) };
      }
      // a cursor's page of every row, as the cursor hands it out (terms)
      const pages: number[] = [];
      for (let i = 0; i < LARGE_RUNS; i++) {
        const start = performance.now();
        const cursor = ds.createCursor(CURSOR_QUERY);
        await cursor.open();
        pages.push(performance.now() - start);
        cursor.close();
      }
      times[CURSOR_NAME] = { text: median(pages), bytes: median(pages) };
      process.stdout.write(`${JSON.stringify(times)}\n`);
    } else if (command === 'import') {
      // an N-Triples file imported in-process into a fresh store, for comparison with the same sent over HTTP
      const path = seconds!;
      sc.createDataStore(IMPORT_STORE);
      const target = sc.newDataStoreConnection(IMPORT_STORE);
      const start = performance.now();
      await target.importData('ADD', { path }, { mediaType: 'application/n-triples' });
      const ms = performance.now() - start;
      const facts = await target.countFacts();
      target.close();
      sc.deleteDataStore(IMPORT_STORE);
      process.stdout.write(`${JSON.stringify({ ms, facts })}\n`);
    } else if (command === 'create') {
      sc.createDataStore(IMPORT_STORE);
      process.stdout.write('{}\n');
    } else if (command === 'count') {
      const target = sc.newDataStoreConnection(IMPORT_STORE);
      const facts = await target.countFacts();
      target.close();
      sc.deleteDataStore(IMPORT_STORE);
      process.stdout.write(`${JSON.stringify({ facts })}\n`);
    } else break;
  }
  ds.close();
  sc.close();
  await endpoint.close();
  await server.shutdown();
  process.stdin.destroy();
}

// ---------------------------------------------------------------- parent

/** The lines a child prints, one at a time. */
function linesOf(child: ChildProcess): () => Promise<string> {
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  return async () => {
    const next = await lines.next();
    if (next.done) throw new Error('the endpoint process ended early');
    return next.value;
  };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === '--serve') return serveChild();
  const option = (name: string, fallback: number): number => {
    const i = args.indexOf(name);
    return i >= 0 ? Number(args[i + 1]) : fallback;
  };
  const duration = option('--duration', 10);
  const connections = option('--connections', 10);
  // BENCH_PROFILE=<dir>: the endpoint process writes a CPU profile there
  const profile = process.env['BENCH_PROFILE'] ? ['--cpu-prof', `--cpu-prof-dir=${process.env['BENCH_PROFILE']}`] : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', fileURLToPath(import.meta.url), '--serve'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const nextLine = linesOf(child);
  try {
    const { url, body } = JSON.parse(await nextLine()) as { url: string; body: string };
    const path = `/datastores/${STORE}/sparql?query=${encodeURIComponent(QUERY)}`;
    const headersOf = (role: string): Record<string, string> => ({ authorization: `Basic ${Buffer.from(`${role}:${PASSWORD}`).toString('base64')}`, accept: ACCEPT });
    for (const role of [ROLE, READER]) {
      const check = await fetch(`${url}${path}`, { headers: headersOf(role) });
      const checkBody = await check.text();
      if (check.status !== 200 || checkBody !== body) throw new Error(`the endpoint's answer to ${role} differs from the API's (status ${check.status})`);
    }
    console.log(`endpoint ${url}; ${connections} clients for ${duration} s; query answer ${body.length} bytes`);
    const measure = async (role: string): Promise<Measured> => {
      const http = await autocannon({ url: `${url}${path}`, headers: headersOf(role), connections, duration });
      return { requests: http.requests.total, perSecond: http.requests.average, mean: http.latency.average, p50: http.latency.p50, p99: http.latency.p99, errors: http.errors + http.non2xx };
    };
    const httpMeasured = await measure(ROLE);
    const readerMeasured = await measure(READER);
    child.stdin.write(`memory ${duration}\n`);
    const memory = JSON.parse(await nextLine()) as Measured;
    child.stdin.write('large\n');
    const inProcess = JSON.parse(await nextLine()) as Record<string, { text: number; bytes: number }>;
    const largeRows: string[][] = [];
    for (const large of LARGE) {
      const target = large.query === undefined ? `${url}/datastores/${STORE}/content` : `${url}/datastores/${STORE}/sparql?query=${encodeURIComponent(large.query)}`;
      const runs: number[] = [];
      let size = 0;
      for (let i = 0; i < LARGE_RUNS; i++) {
        const [seconds, bytes] = await curl(target, { ...headersOf(ROLE), accept: large.accept });
        runs.push(seconds * 1000);
        size = bytes;
      }
      const http = median(runs);
      const local = inProcess[large.name]!;
      const fastest = Math.min(local.text, local.bytes);
      largeRows.push([large.name, (size / 1e6).toFixed(1), local.text.toFixed(0), local.bytes.toFixed(0), http.toFixed(0), (http / fastest).toFixed(2), (size / 1e6 / (http / 1000)).toFixed(0)]);
    }
    {
      // a cursor over HTTP: a connection, then per run a cursor (untimed) and its page of every row (timed)
      const connection = await fetch(`${url}/datastores/${STORE}/connections`, { method: 'POST', headers: headersOf(ROLE) });
      const location = new URL(connection.headers.get('location')!, url).href;
      const runs: number[] = [];
      let size = 0;
      for (let i = 0; i < LARGE_RUNS; i++) {
        const created = await fetch(`${location}/cursors?query=${encodeURIComponent(CURSOR_QUERY)}`, { method: 'POST', headers: headersOf(ROLE) });
        const cursor = new URL(created.headers.get('location')!, url).href;
        const [seconds, bytes] = await curl(`${cursor}?operation=open`, { ...headersOf(ROLE), accept: 'text/tab-separated-values' }, 'PATCH');
        runs.push(seconds * 1000);
        size = bytes;
        await fetch(cursor, { method: 'DELETE', headers: headersOf(ROLE) });
      }
      const http = median(runs);
      const local = inProcess[CURSOR_NAME]!.text;
      largeRows.push([CURSOR_NAME, (size / 1e6).toFixed(1), `${local.toFixed(0)} (open)`, '', http.toFixed(0), (http / local).toFixed(2), (size / 1e6 / (http / 1000)).toFixed(0)]);
    }
    const importRows = await measureImports(url, headersOf(ROLE), child, nextLine);
    child.stdin.end('exit\n');
    await new Promise((resolve) => child.once('exit', resolve));
    const row = (name: string, m: Measured): string[] => [name, String(m.requests), m.perSecond.toFixed(0), m.mean.toFixed(3), m.p50.toFixed(2), m.p99.toFixed(2), String(m.errors)];
    console.log(`\n${table(['way', 'requests', 'req/s', 'mean ms', 'p50 ms', 'p99 ms', 'errors'], [row(`HTTP /sparql (${connections} clients), first role`, httpMeasured), row(`HTTP /sparql (${connections} clients), read-only role`, readerMeasured), row('in-memory evaluateQueryTo', memory)])}`);
    console.log(`\nlarge answers (median of ${LARGE_RUNS}; HTTP fetched by curl):\n${table(['answer', 'MB', 'in-process text ms', 'in-process bytes ms', 'HTTP ms', 'HTTP / faster in-process', 'HTTP MB/s'], largeRows)}`);
    console.log(`\nimport of LUBM(10) as N-Triples (median of ${IMPORT_RUNS}; HTTP sent by curl -T):\n${table(['way', 'triples', 'ms', 'M triples/s', 'HTTP / in-process'], importRows)}`);
    const overheadUs = (1 / httpMeasured.perSecond - 1 / memory.perSecond) * 1e6;
    console.log(`\nadapter cost per request (from throughput): ${overheadUs.toFixed(0)} µs; HTTP serves ${((100 * httpMeasured.perSecond) / memory.perSecond).toFixed(0)}% of the in-memory rate`);
    console.log(`the read-only role's checks: ${((100 * readerMeasured.perSecond) / httpMeasured.perSecond).toFixed(1)}% of the first role's rate`);
    if (httpMeasured.errors + readerMeasured.errors > 0) {
      console.error(`!!! ${httpMeasured.errors + readerMeasured.errors} HTTP requests failed`);
      process.exitCode = 1;
    }
  } finally {
    child.kill();
  }
}

await main();
