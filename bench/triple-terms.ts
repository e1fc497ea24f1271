/**
 * Triple-term queries (RDF 1.2 / SPARQL 1.2): quadlog against oxigraph on about a million
 * reified triples, each system in a child process of its own, measured in the same run.
 *
 * Data: every triple of LUBM (default LUBM(10), 1,272,575 triples) reified by a blank node,
 * `_:rN rdf:reifies <<( s p o )>> .`, so that as many distinct triple terms as triples are
 * stored, written once to a temporary N-Triples 1.2 file that both systems load (quadlog:
 * `importData('ADD', { path })`; oxigraph: `Store.load` of 1 MiB chunks of whole lines).
 *
 * Queries: triple-term patterns with one bound part (the object, the subject, the predicate),
 * and one with two, each answered `--warmups` times untimed and `--runs` times timed (median
 * wall milliseconds from the query text to the complete answer in JS objects; one turn of the
 * event loop before each run, as in `bench/query.ts`). The answers of the two systems must
 * have the same number of rows (the process exits with code 1 otherwise).
 *
 * Usage: `npm run bench:triple-terms -- [--file <lubm.nt.gz>] [--runs N] [--warmups N]`
 * (defaults: LUBM(10), 15 runs, 5 warm-ups).
 * @module
 */
import { spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { LUBM } from '../spec/helpers/test-data.js';
import { table } from './lib/harness.js';

const REIFIES = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies';
const UB = 'http://swat.cse.lehigh.edu/onto/univ-bench.owl#';

/** The queries: a name and the SPARQL text. */
const QUERIES: ReadonlyArray<readonly [string, string]> = [
  ['object bound', `SELECT ?r ?s ?p WHERE { ?r <${REIFIES}> <<( ?s ?p <http://www.Department0.University0.edu/GraduateCourse0> )>> }`],
  ['subject bound', `SELECT ?r ?p ?o WHERE { ?r <${REIFIES}> <<( <http://www.Department0.University0.edu/GraduateStudent1> ?p ?o )>> }`],
  ['predicate bound', `SELECT ?r ?s ?o WHERE { ?r <${REIFIES}> <<( ?s <${UB}headOf> ?o )>> }`],
  ['two bound', `SELECT ?r ?s WHERE { ?r <${REIFIES}> <<( ?s <${UB}takesCourse> <http://www.Department0.University0.edu/GraduateCourse0> )>> }`],
];

/** What this benchmark uses of an oxigraph store. */
interface OxigraphStore {
  load(text: string, options: { readonly format: string }): void;
  query(text: string): unknown[];
  readonly size: number;
}

/** What a child prints: load seconds, and per query the row count and the timed runs (ms). */
interface ChildResult {
  readonly loadSeconds: number;
  readonly statements: number;
  readonly queries: ReadonlyArray<{ readonly rows: number; readonly ms: readonly number[] }>;
}

const { values } = parseArgs({
  options: {
    file: { type: 'string' },
    runs: { type: 'string', default: '15' },
    warmups: { type: 'string', default: '5' },
    one: { type: 'string' },
    data: { type: 'string' },
  },
});
const RUNS = Number(values.runs);
const WARMUPS = Number(values.warmups);

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** One turn of the event loop (oxigraph frees its JS wrappers between macrotasks). */
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Runs the queries `WARMUPS` times untimed and `RUNS` times timed with `answer`, which gives the row count. */
async function measure(answer: (text: string) => Promise<number> | number): Promise<ChildResult['queries']> {
  const out: Array<{ rows: number; ms: number[] }> = [];
  for (const [, text] of QUERIES) {
    let rows = 0;
    for (let i = 0; i < WARMUPS; i++) {
      await turn();
      rows = await answer(text);
    }
    const ms: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      await turn();
      const start = process.hrtime.bigint();
      rows = await answer(text);
      ms.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
    out.push({ rows, ms });
  }
  return out;
}

/** The child: loads the data into one system and answers the queries. */
async function child(system: string, data: string): Promise<ChildResult> {
  const start = process.hrtime.bigint();
  if (system === 'quadlog') {
    const { open } = await import('../lib/index.js');
    await using store = await open();
    const result = await store.importData('ADD', { path: data }, { mediaType: 'application/n-triples' });
    const loadSeconds = Number(process.hrtime.bigint() - start) / 1e9;
    const queries = await measure(async (text) => {
      const answer = await store.evaluateQuery(text);
      if (answer.type !== 'bindings') throw new Error('expected bindings');
      return answer.rows.length;
    });
    return { loadSeconds, statements: result.processedFacts, queries };
  }
  // through require: oxigraph's own declarations do not type-check
  const { Store } = createRequire(import.meta.url)('oxigraph') as { Store: new () => OxigraphStore };
  const store = new Store();
  const text = readFileSync(data, 'utf8');
  const CHUNK = 1 << 20;
  for (let at = 0; at < text.length; ) {
    let end = Math.min(text.length, at + CHUNK);
    if (end < text.length) end = text.indexOf('\n', end) + 1 || text.length;
    store.load(text.slice(at, end), { format: 'application/n-triples' });
    at = end;
  }
  const loadSeconds = Number(process.hrtime.bigint() - start) / 1e9;
  const queries = await measure((q) => store.query(q).length);
  return { loadSeconds, statements: store.size, queries };
}

/** Writes the reified LUBM data as N-Triples 1.2; gives the number of statements. */
async function writeData(source: string, target: string): Promise<number> {
  const out = createWriteStream(target);
  let n = 0;
  let batch: string[] = [];
  const flush = async (): Promise<void> => {
    if (!out.write(batch.join(''))) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
    batch = [];
  };
  for (const line of gunzipSync(readFileSync(source)).toString('utf8').split('\n')) {
    const statement = line.trim();
    if (statement === '' || statement.startsWith('#')) continue;
    batch.push(`_:r${n++} <${REIFIES}> <<( ${statement.slice(0, statement.lastIndexOf('.')).trim()} )>> .\n`);
    if (batch.length === 10_000) await flush();
  }
  await flush();
  await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())));
  return n;
}

function runChild(system: string, data: string): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const script = fileURLToPath(import.meta.url);
    const proc = spawn(process.execPath, ['--max-old-space-size=8192', '--import', 'tsx', script, '--one', system, '--data', data, '--runs', String(RUNS), '--warmups', String(WARMUPS)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    proc.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    proc.on('error', reject);
    proc.on('close', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').pop()!) as ChildResult) : reject(new Error(`${system}: exit code ${code}`))));
  });
}

if (values.one !== undefined) {
  process.stdout.write(`${JSON.stringify(await child(values.one, values.data!))}\n`);
} else {
  const dir = mkdtempSync(join(tmpdir(), 'quadlog-bench-triple-terms-'));
  try {
    const data = join(dir, 'reified.nt');
    const statements = await writeData(values.file ?? LUBM.lubm10, data);
    process.stdout.write(`${statements.toLocaleString('en')} reified triples (as many triple terms), ${RUNS} timed runs after ${WARMUPS} warm-ups, load average ${loadavg()[0]!.toFixed(1)}\n`);
    const quadlog = await runChild('quadlog', data);
    const oxigraph = await runChild('oxigraph', data);
    let mismatch = false;
    const rows = QUERIES.map(([name], i) => {
      const q = quadlog.queries[i]!;
      const o = oxigraph.queries[i]!;
      if (q.rows !== o.rows) mismatch = true;
      const qm = median(q.ms);
      const om = median(o.ms);
      return [name, String(q.rows), qm.toFixed(3), om.toFixed(3), `${(om / qm).toFixed(1)}×`, q.rows === o.rows ? '' : `rows differ: oxigraph ${o.rows}`];
    });
    process.stdout.write(`load: quadlog ${quadlog.loadSeconds.toFixed(1)} s, oxigraph ${oxigraph.loadSeconds.toFixed(1)} s (load average ${loadavg()[0]!.toFixed(1)})\n\n`);
    process.stdout.write(`${table(['query', 'rows', 'quadlog ms', 'oxigraph ms', 'oxigraph / quadlog', ''], rows)}\n`);
    if (mismatch) process.exitCode = 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
