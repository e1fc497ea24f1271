/**
 * Query benchmark: quadlog vs oxigraph (WASM) answering SPARQL queries over LUBM data.
 *
 * Usage: `npm run bench:query -- [--runs N] [--warmups N] [--gc-each-run] [--only lubm10|lubm1[,…]] [--queries q1,q2,…]`;
 * with `--mix`, the operator mix of `bench/query-mix.ts` instead (first-run and warm times)
 * (i.e. `node --expose-gc --import tsx bench/query.ts …`; default 20 timed runs after at
 * least 10 warm-ups and 300 ms of warm-up per query).
 *
 * Parts:
 * - **lubm10**: LUBM(10) explicit data (`test-data/lubm/lubm10.nt.gz`, 1,272,575 triples),
 *   the 14 LUBM queries `q1.rq` … `q14.rq`, without reasoning (most answers are empty).
 * - **lubm1**: LUBM(1) (`lubm1.nt.gz`, 100,543 triples) and the micro-queries of
 *   `microQueries` (bench/lib/query-workload.ts): a 3-pattern join, `COUNT(*)` over every
 *   triple and two property paths; then the 14 LUBM queries again, whose answer counts are
 *   checked against `answers-lubm1.tsv`.
 *
 * Each (system, data set) pair runs in its own child process
 * (`… bench/query.ts --one <system> <data set>`, which prints one JSON line,
 * {@link ChildResult}), so that one system's heap, garbage and WASM memory never slow down the
 * other. A child loads the data (quadlog: `importData('ADD', { path }, { mediaType })`;
 * oxigraph: `readFileSync` + `gunzipSync` + `Store.load` of 1 MiB chunks, as in
 * `bench/load.ts`) and forces two GCs; then, per query, runs it `--warmups` times (default 10)
 * untimed, and more until 300 ms of warm-up have passed (a query of a fraction of a millisecond
 * needs hundreds of runs before V8's optimised code runs it, and oxigraph's WASM is compiled
 * ahead; both systems get the same warm-up), and `--runs` times (default 20) timed. With `--gc-each-run` it also forces two GCs
 * (not timed) before every run; that is off by default because it keeps V8 from reaching
 * steady state: quadlog's `subOrganizationOf+` count on LUBM(1) stays at ~40 ms per run with
 * forced GCs and settles at ~11 ms without them (oxigraph's WASM code is unaffected).
 * Every run (warm-up or timed) is preceded by one turn of the event loop (`setImmediate`),
 * as a server would have between requests: oxigraph's JS terms are wasm-bindgen wrappers
 * freed by a `FinalizationRegistry`, whose callbacks only run between macrotasks; without
 * the turn they pile up and oxigraph slows down ~10× after ~20 runs of a query with
 * thousands of result rows (join3 on LUBM(1): ~40 ms → ~700 ms per run).
 * A run is timed from the query text to the complete answer
 * in JS objects (quadlog: `evaluateQuery(text)` with its rows of RDF/JS terms; oxigraph:
 * `store.query(text)`, an array of `Map<string, Term>`). Wall clock (`process.hrtime`) and
 * CPU time (user + system of the whole process) are both recorded; the table shows medians.
 * Because the machine is shared, the one-minute load average is recorded with every query.
 *
 * quadlog runs from its TypeScript sources through tsx, whose esbuild transform uses
 * `keepNames`: every closure created on a hot path also pays a `__name` call, so a tsc build
 * (`dist/`) is faster on closure-heavy queries (`subOrganizationOf+` on LUBM(1): ~14 ms built,
 * ~23 ms under tsx); the figures here are therefore conservative for quadlog.
 *
 * Answers must agree: the number of rows and an order-independent checksum of the rows
 * ({@link answerChecksum}) must be equal in both systems, and on LUBM(1) the LUBM queries'
 * counts must equal those of `answers-lubm1.tsv` (without reasoning). A mismatch makes the
 * process exit with code 1. The goal (every query at most oxigraph's time) is only reported.
 * @module
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { Server, ConnectionFactory, type QueryTerm } from '../lib/index.js';
import { DATA_FILES, DATA_SETS, KNOWN_TRIPLES, answerChecksum, queriesOf, type BenchQuery, type DataSetName, type TermLike } from './lib/query-workload.js';
import { collect, runChild as runHarnessChild, table } from './lib/harness.js';

/** The systems compared, in the order they are run and printed. */
export const SYSTEMS = ['quadlog', 'oxigraph'] as const;

/** One of {@link SYSTEMS}. */
export type SystemName = (typeof SYSTEMS)[number];

/** The measurements of one query in one system. */
export interface QueryResult {
  /** The query's name. */
  readonly name: string;
  /** Rows in the answer. */
  readonly count: number;
  /** {@link answerChecksum} of the answer. */
  readonly checksum: string;
  /** The lexical value of a one-row, one-column answer (e.g. a COUNT). */
  readonly scalar?: string;
  /** Wall-clock milliseconds of the first warm-up run (which includes one-off costs such as index builds). */
  readonly warmupMs: number;
  /** Wall-clock milliseconds of each timed run. */
  readonly wallMs: readonly number[];
  /** CPU milliseconds (user + system, whole process) of each timed run. */
  readonly cpuMs: readonly number[];
  /** One-minute load average after the last run. */
  readonly load: number;
  /** The error message, when the query failed (then there are no timings). */
  readonly error?: string;
}

/** The JSON line a child process prints: one system, one data set, all its queries. */
export interface ChildResult {
  /** The system measured. */
  readonly system: SystemName;
  /** The data set. */
  readonly dataSet: DataSetName;
  /** Triples in the store after the load. */
  readonly triples: number;
  /** Wall-clock seconds of the load. */
  readonly loadSeconds: number;
  /** The queries' measurements, in workload order. */
  readonly queries: readonly QueryResult[];
  /** One-minute load average when the child started and ended. */
  readonly loadAverage: readonly [number, number];
}

/** How a system is driven by a child: load once, then run queries. */
interface Driver {
  /** Triples in the store. */
  readonly triples: number;
  /** Runs a query and returns its answer in a form the checksum can read (not timed). */
  run(text: string): Promise<Answer>;
  /** Releases the store. */
  close(): void;
}

/** A SELECT answer: its rows as `(variable, term)` pairs, produced lazily for the checksum. */
interface Answer {
  /** Rows in the answer. */
  readonly count: number;
  /** The bound `(variable, term)` pairs of each row. */
  rows(): Iterable<Iterable<readonly [string, TermLike]>>;
}

const NT = 'application/n-triples';
const OXIGRAPH_CHUNK = 1 << 20;
/** A query whose warm-up takes longer than this gets a single timed run. */
const SLOW_WARMUP_MS = 30_000;

// ---------------------------------------------------------------- oxigraph typing

/** An oxigraph term (RDF/JS shape). */
interface OxigraphTerm extends TermLike {
  readonly termType: string;
  readonly value: string;
}

/** The part of oxigraph's `Store` this benchmark uses. */
interface OxigraphStore {
  readonly size: number;
  load(input: Iterable<Uint8Array>, options: { readonly format: string }): void;
  query(query: string): boolean | ReadonlyArray<ReadonlyMap<string, OxigraphTerm>> | string;
}

/** The part of the `oxigraph` module this benchmark uses. */
interface OxigraphModule {
  readonly Store: new () => OxigraphStore;
}

/**
 * oxigraph 0.5.11's node.d.ts does not type-check under this project's settings
 * (`skipLibCheck: false`), so the module is loaded through `require` and typed by the minimal
 * interface above, as in `bench/load.ts`. Only the oxigraph child loads it.
 */
function loadOxigraph(): OxigraphModule {
  return createRequire(import.meta.url)('oxigraph') as OxigraphModule;
}

// ---------------------------------------------------------------- the two systems

async function quadlogDriver(file: string): Promise<Driver> {
  const server = await Server.create({ roleName: 'admin', password: 'pw' });
  const sc = await ConnectionFactory.newServerConnection(server.url, 'admin', 'pw');
  sc.createDataStore('bench');
  const ds = sc.newDataStoreConnection('bench');
  // an import with errors rejects (ImportError), naming the first
  await ds.importData('ADD', { path: file }, { mediaType: NT });
  const triples = await ds.countFacts();
  return {
    triples,
    async run(text) {
      const answer = await ds.evaluateQuery(text);
      if (answer.type !== 'bindings') throw new Error(`quadlog: expected bindings, got ${answer.type}`);
      const { variables, rows } = answer;
      return {
        count: rows.length,
        *rows() {
          for (const row of rows) {
            const cells: Array<readonly [string, QueryTerm]> = [];
            row.forEach((t, i) => {
              if (t !== undefined) cells.push([variables[i]!, t]);
            });
            yield cells;
          }
        },
      };
    },
    close() {
      void server.shutdown();
    },
  };
}

/** Yields `bytes` in slices of at most `size` bytes (views, no copies). */
function* slices(bytes: Uint8Array, size: number): Generator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, Math.min(bytes.length, i + size));
}

function oxigraphDriver(file: string): Promise<Driver> {
  const store = new (loadOxigraph().Store)();
  store.load(slices(gunzipSync(readFileSync(file)), OXIGRAPH_CHUNK), { format: NT });
  return Promise.resolve({
    triples: store.size,
    run(text) {
      const answer = store.query(text);
      if (!Array.isArray(answer)) throw new Error(`oxigraph: expected an array of solutions, got ${typeof answer}`);
      const rows = answer as ReadonlyArray<ReadonlyMap<string, OxigraphTerm>>;
      return Promise.resolve({ count: rows.length, rows: () => rows.map((m) => [...m]) });
    },
    close() {},
  });
}

// ---------------------------------------------------------------- child mode

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/**
 * Runs `fn` once and returns its value, wall and CPU milliseconds. Before that (untimed): two
 * GCs when `gcFirst`, then one turn of the event loop, so that pending finalizers run (see the
 * module comment).
 */
async function timedRun<T>(fn: () => Promise<T>, gcFirst: boolean): Promise<{ readonly value: T; readonly wallMs: number; readonly cpuMs: number }> {
  if (gcFirst) collect();
  await nextTurn();
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  const value = await fn();
  const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
  const used = process.cpuUsage(cpu);
  return { value, wallMs, cpuMs: (used.user + used.system) / 1e3 };
}

/** How a child measures each query. */
interface Protocol {
  /** Untimed warm-up runs (the first one's answer is checked and its time reported). */
  readonly warmups: number;
  /** Timed runs. */
  readonly runs: number;
  /** Whether to force two GCs before every run. */
  readonly gcEachRun: boolean;
}

/** The least time each query is run untimed before the timed runs (on top of `--warmups` runs). */
const WARMUP_MS = 300;

async function measureQuery(driver: Driver, q: BenchQuery, protocol: Protocol): Promise<QueryResult> {
  const { warmups, runs, gcEachRun } = protocol;
  let warm;
  try {
    warm = await timedRun(() => driver.run(q.text), gcEachRun);
    // at least `warmups` runs and WARMUP_MS of running, so that short queries reach steady state
    const warmStart = performance.now();
    for (let i = 1; i < warmups || performance.now() - warmStart < WARMUP_MS; i++) {
      await nextTurn();
      await driver.run(q.text);
    }
  } catch (e) {
    return { name: q.name, count: -1, checksum: '', warmupMs: 0, wallMs: [], cpuMs: [], load: loadavg()[0]!, error: (e as Error).message };
  }
  const answer = warm.value;
  const checksum = answerChecksum(answer.rows());
  let scalar: string | undefined;
  if (answer.count === 1) {
    const cells = [...[...answer.rows()][0]!];
    if (cells.length === 1) scalar = cells[0]![1].value;
  }
  const wallMs: number[] = [];
  const cpuMs: number[] = [];
  const n = warm.wallMs > SLOW_WARMUP_MS ? 1 : runs;
  for (let i = 0; i < n; i++) {
    const r = await timedRun(() => driver.run(q.text), gcEachRun);
    if (r.value.count !== answer.count) throw new Error(`${q.name}: run ${i + 1} gave ${r.value.count} rows, the warm-up ${answer.count}`);
    wallMs.push(r.wallMs);
    cpuMs.push(r.cpuMs);
  }
  return { name: q.name, count: answer.count, checksum, ...(scalar !== undefined ? { scalar } : {}), warmupMs: warm.wallMs, wallMs, cpuMs, load: loadavg()[0]! };
}

/** Child mode: loads one data set into one system, measures its queries, prints a {@link ChildResult}. */
async function runChild(system: string, dataSet: string, protocol: Protocol, only: ReadonlySet<string> | undefined): Promise<void> {
  if (system !== 'quadlog' && system !== 'oxigraph') throw new Error(`unknown system '${system}'`);
  if (dataSet !== 'lubm10' && dataSet !== 'lubm1') throw new Error(`unknown data set '${dataSet}'`);
  const load0 = loadavg()[0]!;
  const file = DATA_FILES[dataSet];
  const start = process.hrtime.bigint();
  const driver = system === 'quadlog' ? await quadlogDriver(file) : await oxigraphDriver(file);
  const loadSeconds = Number(process.hrtime.bigint() - start) / 1e9;
  collect(); // the load's garbage, so that it is not collected during the first query
  const queries: QueryResult[] = [];
  try {
    for (const q of queriesOf(dataSet)) {
      if (only && !only.has(q.name)) continue;
      const r = await measureQuery(driver, q, protocol);
      queries.push(r);
      process.stderr.write(`  [${system} ${dataSet}] ${q.name}: ${r.error ?? `${r.count} rows, median ${median(r.wallMs).toFixed(2)} ms (load ${r.load.toFixed(2)})`}\n`);
    }
  } finally {
    driver.close();
  }
  const result: ChildResult = { system, dataSet, triples: driver.triples, loadSeconds, queries, loadAverage: [load0, loadavg()[0]!] };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

// ---------------------------------------------------------------- parent mode

/** Spawns a child measuring `system` on `dataSet` and parses the JSON line it prints. */
function spawnChild(system: SystemName, dataSet: DataSetName, protocol: Protocol, only: readonly string[] | undefined): Promise<ChildResult> {
  const args = ['--one', system, dataSet, '--runs', String(protocol.runs), '--warmups', String(protocol.warmups)];
  if (protocol.gcEachRun) args.push('--gc-each-run');
  if (only) args.push('--queries', only.join(','));
  return runHarnessChild<ChildResult>(fileURLToPath(import.meta.url), args, `${system} ${dataSet}`);
}

function ms(x: number): string {
  return x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2);
}

interface Options {
  readonly protocol: Protocol;
  readonly dataSets: readonly DataSetName[];
  readonly queries: readonly string[] | undefined;
  readonly one: { readonly system: string; readonly dataSet: string } | undefined;
}

function parseArgs(argv: readonly string[]): Options {
  let runs = 20;
  let warmups = 10;
  let gcEachRun = false;
  let dataSets: DataSetName[] = [...DATA_SETS];
  let queries: string[] | undefined;
  let one: Options['one'];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--runs') runs = Number(value());
    else if (a === '--warmups') warmups = Number(value());
    else if (a === '--gc-each-run') gcEachRun = true;
    else if (a === '--only') {
      dataSets = value()
        .split(',')
        .map((s) => {
          if (s !== 'lubm10' && s !== 'lubm1') throw new Error(`--only: unknown data set '${s}' (expected ${DATA_SETS.join(', ')})`);
          return s;
        });
    } else if (a === '--queries') queries = value().split(',');
    else if (a === '--one') one = { system: value(), dataSet: value() };
    else throw new Error(`unknown argument '${a}'`);
  }
  if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs must be a positive integer');
  if (!Number.isInteger(warmups) || warmups < 1) throw new Error('--warmups must be a positive integer');
  return { protocol: { runs, warmups, gcEachRun }, dataSets, queries, one };
}

/** One row of the comparison: a query and both systems' results. */
interface Compared {
  readonly dataSet: DataSetName;
  readonly query: BenchQuery;
  readonly quadlog: QueryResult;
  readonly oxigraph: QueryResult;
}

async function main(): Promise<void> {
  if (process.argv.includes('--mix')) {
    // the operator mix (bench/query-mix.ts) has its own children and table
    await (await import('./query-mix.js')).runMix(process.argv.slice(2));
    return;
  }
  const options = parseArgs(process.argv.slice(2));
  if (options.one) {
    await runChild(options.one.system, options.one.dataSet, options.protocol, options.queries ? new Set(options.queries) : undefined);
    return;
  }
  const { protocol, dataSets, queries: only } = options;
  const { runs, warmups } = protocol;
  const cpu = cpus();
  const la = (): string =>
    loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
  console.log(
    `query benchmark: median of ${runs} timed runs after ${warmups} warm-up${warmups > 1 ? 's' : ''}` +
      `${protocol.gcEachRun ? ', two forced GCs before each run' : ''}, each (system, data set) in a fresh child process`,
  );
  console.log(`node ${process.version}, ${cpu.length} × ${cpu[0]?.model ?? '?'}, load average at start ${la()}`);

  let ok = true;
  const compared: Compared[] = [];
  for (const dataSet of dataSets) {
    const results = new Map<SystemName, ChildResult>();
    for (const system of SYSTEMS) {
      const r = await spawnChild(system, dataSet, protocol, only);
      results.set(system, r);
      console.log(
        `${system} ${dataSet}: ${r.triples.toLocaleString('en-US')} triples loaded in ${r.loadSeconds.toFixed(2)} s; ` +
          `load average ${r.loadAverage[0].toFixed(2)} → ${r.loadAverage[1].toFixed(2)}`,
      );
      if (r.triples !== KNOWN_TRIPLES[dataSet]) {
        console.error(`COUNT MISMATCH: ${system} holds ${r.triples} triples of ${dataSet}, expected ${KNOWN_TRIPLES[dataSet]}`);
        ok = false;
      }
    }
    const q = results.get('quadlog')!;
    const o = results.get('oxigraph')!;
    for (const query of queriesOf(dataSet)) {
      const a = q.queries.find((r) => r.name === query.name);
      const b = o.queries.find((r) => r.name === query.name);
      if (!a || !b) continue;
      if (a.error || b.error) {
        console.error(`ERROR ${dataSet} ${query.name}: quadlog: ${a.error ?? 'ok'}; oxigraph: ${b.error ?? 'ok'}`);
        ok = false;
        continue;
      }
      if (a.count !== b.count || a.checksum !== b.checksum) {
        console.error(`ANSWER MISMATCH ${dataSet} ${query.name}: quadlog ${a.count} rows (${a.checksum}), oxigraph ${b.count} rows (${b.checksum})`);
        ok = false;
      }
      if (dataSet === 'lubm1' && query.expectedLubm1 !== undefined && a.count !== query.expectedLubm1) {
        console.error(`ANSWER MISMATCH ${dataSet} ${query.name}: ${a.count} rows, answers-lubm1.tsv says ${query.expectedLubm1}`);
        ok = false;
      }
      compared.push({ dataSet, query, quadlog: a, oxigraph: b });
    }
  }
  console.log(`load average at end ${la()}\n`);

  const ratio = (c: Compared, key: 'wallMs' | 'cpuMs'): number => median(c.quadlog[key]) / median(c.oxigraph[key]);
  console.log('per-query medians (ms); ratio = quadlog / oxigraph (< 1: quadlog is faster):');
  console.log(
    table(
      ['data', 'query', 'answers', 'agree', 'quadlog ms', 'oxigraph ms', 'ratio', 'quadlog cpu', 'oxigraph cpu', 'ratio cpu', 'load q/o'],
      compared.map((c) => [
        c.dataSet,
        c.query.name,
        c.quadlog.scalar !== undefined ? `${c.quadlog.count} (n=${c.quadlog.scalar})` : String(c.quadlog.count),
        c.quadlog.count === c.oxigraph.count && c.quadlog.checksum === c.oxigraph.checksum ? 'yes' : 'NO',
        ms(median(c.quadlog.wallMs)),
        ms(median(c.oxigraph.wallMs)),
        ratio(c, 'wallMs').toFixed(2),
        ms(median(c.quadlog.cpuMs)),
        ms(median(c.oxigraph.cpuMs)),
        ratio(c, 'cpuMs').toFixed(2),
        `${c.quadlog.load.toFixed(2)}/${c.oxigraph.load.toFixed(2)}`,
      ]),
      ['query'],
    ),
  );
  console.log('  agree: same row count and same order-independent checksum of the rows in both systems');
  console.log('  cpu: user + system CPU ms of the whole process over the run (GC threads included); load q/o: 1-minute load average after each system ran the query');
  const fewer = compared.filter((c) => c.quadlog.wallMs.length < runs || c.oxigraph.wallMs.length < runs);
  for (const c of fewer) console.log(`  ${c.dataSet} ${c.query.name}: warm-up over ${SLOW_WARMUP_MS / 1000} s, so a single timed run`);

  const slower = compared.filter((c) => ratio(c, 'wallMs') > 1);
  const slowerCpu = compared.filter((c) => ratio(c, 'cpuMs') > 1);
  console.log('\ngoal check: every query at most oxigraph\'s time');
  console.log(`  wall clock: ${compared.length - slower.length}/${compared.length} → ${slower.length === 0 ? 'PASS' : `FAIL (${slower.map((c) => `${c.dataSet}/${c.query.name} ×${ratio(c, 'wallMs').toFixed(2)}`).join(', ')})`}`);
  console.log(`  cpu time:   ${compared.length - slowerCpu.length}/${compared.length} → ${slowerCpu.length === 0 ? 'PASS' : `FAIL (${slowerCpu.map((c) => `${c.dataSet}/${c.query.name} ×${ratio(c, 'cpuMs').toFixed(2)}`).join(', ')})`}`);
  console.log(`  answers: ${ok ? 'all agree' : 'MISMATCH (see above)'}`);
  if (!ok) process.exitCode = 1;
}

await main();
