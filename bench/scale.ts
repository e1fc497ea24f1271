/**
 * Scale benchmark (issue 35): quadlog at LUBM(10) and at ten times that, against oxigraph
 * loading the same files in the same run.
 *
 * Usage: `npm run bench:scale -- [--only lubm10|lubm100[,…]] [--systems quadlog|oxigraph[,…]] [--runs N]`
 * (i.e. `node --expose-gc --import tsx bench/scale.ts …`). Without options both data sets and
 * both systems run; `--runs` is the number of timed runs of each query (default 5 at LUBM(10),
 * 3 at LUBM(100)).
 *
 * Data sets: LUBM(10) (`test-data/lubm/lubm10.nt.gz`, 1,272,575 triples), and a LUBM(100)-sized
 * one, ten renamed copies of LUBM(10) (`bench/lib/lubm-copies.ts`: copy k describes the
 * universities 10·k … 10·k + 9; about 12.7M triples, 2.2 GB), written to a temporary
 * N-Triples file in a directory of its own (`mkdtemp`) that is removed at the end.
 *
 * Each (system, data set) runs in a child process of its own (`… bench/scale.ts --task …`,
 * which prints one JSON line), with `--expose-gc --max-old-space-size=16384`:
 * - **quadlog** (in-process API: `Server.create`, `ConnectionFactory`, a fresh store): the
 *   data file is imported (`importData('ADD', { path }, { mediaType: 'application/n-triples' })`,
 *   timed: "load"), then `univ-bench.ttl`, then `importAxiomsFromTriples()` is timed: it
 *   compiles the axioms and materialises OWL 2 RL from scratch (data first, as in
 *   `bench:owl`'s scratch part). Derived facts = `countFacts()` − `countFacts({ factDomain:
 *   'explicit' })`. Bytes per fact = Δ(heapUsed + external) after two forced GCs, from just
 *   before the data import to just after the load (divided by the facts then: explicit only)
 *   and to just after the materialisation (divided by `countFacts()`: with derived facts).
 *   Then the 14 LUBM queries, answered over the materialised store (with reasoning): one
 *   warm-up run each (its time is reported as "first"), more untimed runs until the
 *   warm-up has taken 300 ms (at most 10 runs in all), then `--runs` timed runs, each after
 *   one turn of the event loop; median wall milliseconds from the query text to the answer's
 *   rows in JS objects.
 * - **oxigraph** (the `oxigraph` npm package, WebAssembly, in-memory `Store`): `Store.load`
 *   of chunks of whole lines (about 1 MiB each) of the same file, timed. A failure (WebAssembly
 *   memory, a crash of the child) is caught and reported with the number of lines loaded by
 *   then (the child writes its progress to a file beside the data), and the benchmark goes on.
 *
 * Figures: wall seconds (`process.hrtime`, each span after two forced GCs), CPU seconds of the
 * process, the one-minute load average at the start and the end of the run and at the end of
 * each span, RSS after the materialisation (or load) and at the end, and the peak RSS
 * (`process.resourceUsage().maxRSS`). The query table gives LUBM(100)/LUBM(10) per query: a
 * query whose answer grows with the data takes ~10× when it scales linearly.
 *
 * Checks (exit code 1 when one fails): LUBM(10) loads 1,272,575 triples in quadlog; when both
 * systems load a data set, they hold the same number of triples.
 * @module
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { DataStoreConnection } from '../lib/index.js';
import { checkImport, chosen, counts, heapAndExternal, memorySince, type Memory, num, reportChecks, runChild, table, timed, withStore, type Counts, type Timing } from './lib/harness.js';
import { countLines, LUBM100_COPIES, lineChunks, writeLubmCopies } from './lib/lubm-copies.js';
import { KNOWN_TRIPLES, lubmQueries } from './lib/query-workload.js';
import { LUBM_FILES, LUBM_ONTOLOGY } from './lib/reason-fixtures.js';

/** The data sets. */
export const DATASETS = ['lubm10', 'lubm100'] as const;

/** One of {@link DATASETS}. */
export type Dataset = (typeof DATASETS)[number];

/** The systems. */
export const SYSTEMS = ['quadlog', 'oxigraph'] as const;

/** One of {@link SYSTEMS}. */
export type System = (typeof SYSTEMS)[number];

/** Timed runs of each query by default, per data set. */
export const DEFAULT_RUNS: Readonly<Record<Dataset, number>> = { lubm10: 5, lubm100: 3 };

const NT = 'application/n-triples';

const LABEL: Readonly<Record<Dataset, string>> = { lubm10: 'LUBM(10)', lubm100: `LUBM(100)-sized (${LUBM100_COPIES} renamed copies of LUBM(10))` };

const SHORT: Readonly<Record<Dataset, string>> = { lubm10: 'LUBM(10)', lubm100: 'LUBM(100)' };

/** Memory of a process at one point. */
export interface Rss {
  /** `process.memoryUsage().rss`, bytes. */
  readonly rss: number;
  /** `process.resourceUsage().maxRSS` (peak so far), bytes. */
  readonly maxRss: number;
}

/** One LUBM query's timings. */
export interface QueryTiming {
  /** `q1` … `q14`. */
  readonly name: string;
  /** Rows of the answer. */
  readonly rows: number;
  /** Wall milliseconds of the first (warm-up) run. */
  readonly firstMs: number;
  /** Wall milliseconds of the timed runs. */
  readonly ms: readonly number[];
}

/** What a quadlog child prints. */
export interface QuadlogResult {
  readonly system: 'quadlog';
  readonly dataset: Dataset;
  /** The data import. */
  readonly load: Timing;
  /** Its `processedFacts` (statements read). */
  readonly statements: number;
  /** `countFacts()` after it. */
  readonly loaded: number;
  /** Memory after the load, per loaded fact. */
  readonly loadMemory: Memory;
  /** The import of `univ-bench.ttl`. */
  readonly ontology: Timing;
  /** `importAxiomsFromTriples()` (axiom compilation + materialisation from scratch). */
  readonly materialise: Timing;
  /** Counts after it. */
  readonly counts: Counts;
  /** Memory from before the load to after the materialisation, per fact. */
  readonly memory: Memory;
  /** RSS after the materialisation. */
  readonly rssMaterialised: Rss;
  /** The 14 LUBM queries. */
  readonly queries: readonly QueryTiming[];
  /** RSS at the end. */
  readonly rssEnd: Rss;
}

/** What an oxigraph child prints. */
export interface OxigraphResult {
  readonly system: 'oxigraph';
  readonly dataset: Dataset;
  /** The load (up to the failure, if any). */
  readonly load: Timing;
  /** Lines of the file given to `Store.load` without an error. */
  readonly lines: number;
  /** `store.size` after the load (undefined when it failed too). */
  readonly size: number | undefined;
  /** Memory after the load, per triple of `size`. */
  readonly memory: Memory | undefined;
  /** RSS at the end. */
  readonly rssEnd: Rss;
  /** The error that stopped the load, if any. */
  readonly error: string | undefined;
}

/** What a child prints. */
export type TaskResult = QuadlogResult | OxigraphResult;

// ---------------------------------------------------------------- child tasks

function rssNow(): Rss {
  return { rss: process.memoryUsage().rss, maxRss: process.resourceUsage().maxRSS * 1024 };
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Untimed runs of a query go on (up to {@link MAX_WARMUPS}) until they have taken this many milliseconds. */
export const WARMUP_MS = 300;

/** The most untimed runs of a query, the first one included. */
export const MAX_WARMUPS = 10;

/** One turn of the event loop. */
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Answers `text` once; gives the row count and wall milliseconds. */
async function answer(ds: DataStoreConnection, name: string, text: string): Promise<{ readonly rows: number; readonly ms: number }> {
  await turn();
  const start = process.hrtime.bigint();
  const result = await ds.evaluateQuery(text);
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.type !== 'bindings') throw new Error(`${name}: expected bindings, got ${result.type}`);
  return { rows: result.rows.length, ms };
}

async function runQueries(ds: DataStoreConnection, runs: number): Promise<QueryTiming[]> {
  const out: QueryTiming[] = [];
  for (const q of lubmQueries()) {
    const first = await answer(ds, q.name, q.text);
    // more untimed runs of a quick query, so that its timed runs are not its first compiled ones
    let warm = first.ms;
    for (let i = 1; i < MAX_WARMUPS && warm < WARMUP_MS; i++) warm += (await answer(ds, q.name, q.text)).ms;
    const ms: number[] = [];
    for (let i = 0; i < runs; i++) {
      const r = await answer(ds, q.name, q.text);
      if (r.rows !== first.rows) throw new Error(`${q.name}: ${r.rows} rows, first run ${first.rows}`);
      ms.push(r.ms);
    }
    out.push({ name: q.name, rows: first.rows, firstMs: first.ms, ms });
  }
  return out;
}

async function quadlog(dataset: Dataset, file: string, runs: number): Promise<QuadlogResult> {
  return withStore({}, async (ds) => {
    const before = heapAndExternal();
    const load = await timed('load', () => checkImport(`${dataset} import`, ds.importData('ADD', { path: file }, { mediaType: NT })));
    const loaded = await ds.countFacts();
    const loadMemory = memorySince(before, loaded);
    const ontology = await timed('ontology', () => checkImport('ontology import', ds.importData('ADD', { path: LUBM_ONTOLOGY })));
    const materialise = await timed('importAxiomsFromTriples', () => checkImport('importAxiomsFromTriples', ds.importAxiomsFromTriples()));
    const c = await counts(ds);
    const memory = memorySince(before, c.all);
    const rssMaterialised = rssNow();
    const queries = await runQueries(ds, runs);
    return { system: 'quadlog', dataset, load: load.timing, statements: load.value.processedFacts, loaded, loadMemory, ontology: ontology.timing, materialise: materialise.timing, counts: c, memory, rssMaterialised, queries, rssEnd: rssNow() };
  });
}

/** What this benchmark uses of an oxigraph store (its own declarations do not type-check). */
interface OxigraphStore {
  load(text: string, options: { readonly format: string }): void;
  readonly size: number;
}

function message(e: unknown): string {
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}

async function oxigraph(dataset: Dataset, file: string, progress: string): Promise<OxigraphResult> {
  const { Store } = createRequire(import.meta.url)('oxigraph') as { Store: new () => OxigraphStore };
  const before = heapAndExternal();
  const store = new Store();
  let lines = 0;
  let error: string | undefined;
  let reported = 0;
  const load = await timed('oxigraph load', async () => {
    try {
      for await (const chunk of lineChunks(file)) {
        store.load(chunk, { format: NT });
        lines += countLines(chunk);
        if (lines - reported >= 500_000) {
          // where a crash of the process (which prints nothing) left the load
          writeFileSync(progress, `${lines} ${process.memoryUsage().rss}\n`);
          reported = lines;
        }
      }
    } catch (e) {
      error = message(e);
    }
  });
  let size: number | undefined;
  try {
    size = store.size;
  } catch (e) {
    error ??= message(e);
    error += `; store.size then failed too (${message(e)})`;
  }
  const memory = size === undefined ? undefined : memorySince(before, size);
  return { system: 'oxigraph', dataset, load: load.timing, lines, size, memory, rssEnd: rssNow(), error };
}

// ---------------------------------------------------------------- parent mode

interface Options {
  readonly datasets: readonly Dataset[];
  readonly systems: readonly System[];
  readonly runs: number | undefined;
  readonly task: { readonly system: string; readonly dataset: string; readonly file: string; readonly progress: string } | undefined;
}

function parseOptions(argv: readonly string[]): Options {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      only: { type: 'string', multiple: true },
      systems: { type: 'string', multiple: true },
      runs: { type: 'string' },
      task: { type: 'string' },
      dataset: { type: 'string' },
      file: { type: 'string' },
      progress: { type: 'string' },
    },
    strict: true,
  });
  const runs = values.runs === undefined ? undefined : Number(values.runs);
  if (runs !== undefined && !(Number.isInteger(runs) && runs >= 1)) throw new Error(`--runs: expected a positive integer, got '${values.runs}'`);
  const task = values.task === undefined ? undefined : { system: values.task, dataset: values.dataset ?? '', file: values.file ?? '', progress: values.progress ?? '' };
  return { datasets: chosen(values.only, DATASETS, '--only'), systems: chosen(values.systems, SYSTEMS, '--systems'), runs, task };
}

async function runTask(task: NonNullable<Options['task']>, runs: number | undefined): Promise<TaskResult> {
  const dataset = DATASETS.find((d) => d === task.dataset);
  if (dataset === undefined || task.file === '') throw new Error(`--task needs --dataset (${DATASETS.join(', ')}) and --file`);
  if (task.system === 'quadlog') return quadlog(dataset, task.file, runs ?? DEFAULT_RUNS[dataset]);
  if (task.system === 'oxigraph') return oxigraph(dataset, task.file, task.progress === '' ? join(tmpdir(), `quadlog-scale-progress-${process.pid}`) : task.progress);
  throw new Error(`--task: unknown system '${task.system}' (expected ${SYSTEMS.join(', ')})`);
}

function loads(): string {
  return loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
}

function s2(x: number): string {
  return x.toFixed(2);
}

function mb(bytes: number): string {
  return `${num(bytes / 2 ** 20)} MiB`;
}

/** A failed child of one system and data set. */
interface Failure {
  readonly system: System;
  readonly dataset: Dataset;
  readonly error: string;
  /** The last progress line of an oxigraph child (lines loaded, RSS), if any. */
  readonly progress: string | undefined;
}

/** The results of one data set. */
interface DatasetRun {
  readonly dataset: Dataset;
  /** Lines of the data file. */
  readonly lines: number;
  readonly quadlog: QuadlogResult | undefined;
  readonly oxigraph: OxigraphResult | undefined;
  readonly failures: readonly Failure[];
}

function describe(r: TaskResult): string {
  const d = SHORT[r.dataset];
  if (r.system === 'quadlog')
    return `quadlog ${d}: load ${s2(r.load.seconds)} s, materialisation ${s2(r.materialise.seconds)} s (${num(r.counts.all - r.counts.explicit)} derived), queries done, load1 ${r.materialise.load1.toFixed(2)}`;
  return `oxigraph ${d}: ${r.error === undefined ? 'loaded' : 'FAILED after'} ${num(r.lines)} lines in ${s2(r.load.seconds)} s, load1 ${r.load.load1.toFixed(2)}`;
}

/** The per-data-set table: one row per figure, one column per system. */
function datasetTable(run: DatasetRun): string {
  const q = run.quadlog;
  const o = run.oxigraph;
  const oFailed = run.failures.find((f) => f.system === 'oxigraph');
  const rows: string[][] = [];
  const row = (what: string, quad: string, ox: string): void => void rows.push([what, quad, ox]);
  const none = q === undefined ? '—' : '';
  const oxNone = o === undefined ? (oFailed ? 'failed (see below)' : '—') : '';
  row('triples loaded (distinct)', q ? num(q.loaded) : none, o ? (o.size === undefined ? '?' : num(o.size)) : oxNone);
  row('load s (cpu s)', q ? `${s2(q.load.seconds)} (${s2(q.load.cpuSeconds)})` : none, o ? `${s2(o.load.seconds)} (${s2(o.load.cpuSeconds)})${o.error === undefined ? '' : ' until it failed'}` : oxNone);
  row('load triples/s (lines read / s)', q ? num(q.statements / q.load.seconds) : none, o ? num(o.lines / o.load.seconds) : oxNone);
  row('B/triple after load, Δ(heapUsed + external)', q ? q.loadMemory.bytesPerFact.toFixed(1) : none, o?.memory ? o.memory.bytesPerFact.toFixed(1) : oxNone);
  row('univ-bench.ttl import s', q ? s2(q.ontology.seconds) : none, '');
  row('OWL 2 RL materialisation s (cpu s)', q ? `${s2(q.materialise.seconds)} (${s2(q.materialise.cpuSeconds)})` : none, '');
  row('facts: all / explicit / derived', q ? `${num(q.counts.all)} / ${num(q.counts.explicit)} / ${num(q.counts.all - q.counts.explicit)}` : none, '');
  row('derived facts/s', q ? num((q.counts.all - q.counts.explicit) / q.materialise.seconds) : none, '');
  row('B/fact with derived, Δ(heapUsed + external)', q ? q.memory.bytesPerFact.toFixed(1) : none, '');
  row('RSS after materialisation (after load)', q ? mb(q.rssMaterialised.rss) : none, o ? mb(o.rssEnd.rss) : oxNone);
  row('RSS at end / peak RSS', q ? `${mb(q.rssEnd.rss)} / ${mb(q.rssEnd.maxRss)}` : none, o ? `${mb(o.rssEnd.rss)} / ${mb(o.rssEnd.maxRss)}` : oxNone);
  row('load1 at end of load / materialisation', q ? `${q.load.load1.toFixed(2)} / ${q.materialise.load1.toFixed(2)}` : none, o ? o.load.load1.toFixed(2) : oxNone);
  return table(['', 'quadlog', 'oxigraph'], rows, ['quadlog', 'oxigraph']);
}

/** The query table: per query, the median at each data set and their ratio. */
function queryTable(runs: readonly DatasetRun[]): string | undefined {
  const withQueries = runs.filter((r) => r.quadlog !== undefined);
  if (withQueries.length === 0) return undefined;
  const names = withQueries[0]!.quadlog!.queries.map((q) => q.name);
  const header = [
    'query',
    ...withQueries.flatMap((r) => [`${SHORT[r.dataset]} rows`, 'first ms', `median ms (${r.quadlog!.queries[0]?.ms.length ?? 0} runs)`]),
    ...(withQueries.length === 2 ? ['rows ×', 'time ×'] : []),
  ];
  const rows = names.map((name) => {
    const cells = withQueries.map((r) => r.quadlog!.queries.find((q) => q.name === name)!);
    const ratio = cells.length === 2 ? [`${(cells[1]!.rows / cells[0]!.rows).toFixed(1)}×`, `${(median(cells[1]!.ms) / median(cells[0]!.ms)).toFixed(1)}×`] : [];
    return [name, ...cells.flatMap((c) => [num(c.rows), c.firstMs.toFixed(1), median(c.ms).toFixed(2)]), ...ratio];
  });
  if (withQueries.length === 2) {
    const ratios = names.map((name) => {
      const [a, b] = withQueries.map((r) => r.quadlog!.queries.find((q) => q.name === name)!);
      return median(b!.ms) / median(a!.ms);
    });
    const total = withQueries.map((r) => r.quadlog!.queries.reduce((s, q) => s + median(q.ms), 0));
    rows.push(['all (sum of medians)', '', '', total[0]!.toFixed(1), '', '', total[1]!.toFixed(1), '', `${(total[1]! / total[0]!).toFixed(1)}×`]);
    rows.push(['median of ratios', '', '', '', '', '', '', '', `${median(ratios).toFixed(1)}×`]);
  }
  return table(header, rows);
}

/** Runs the children of one data set: quadlog, then oxigraph. */
async function runDataset(dataset: Dataset, file: string, lines: number, dir: string, options: Options): Promise<DatasetRun> {
  const script = fileURLToPath(import.meta.url);
  const nodeArgs = ['--expose-gc', '--max-old-space-size=16384'];
  const failures: Failure[] = [];
  let q: QuadlogResult | undefined;
  let o: OxigraphResult | undefined;
  for (const system of options.systems) {
    const progress = join(dir, `progress-${system}-${dataset}`);
    const args = ['--task', system, '--dataset', dataset, '--file', file, '--progress', progress, ...(options.runs === undefined ? [] : ['--runs', String(options.runs)])];
    try {
      const r = await runChild<TaskResult>(script, args, `${system} ${SHORT[dataset]}`, nodeArgs);
      console.log(`  ${describe(r)}`);
      if (r.system === 'quadlog') q = r;
      else o = r;
    } catch (e) {
      let last: string | undefined;
      try {
        last = readFileSync(progress, 'utf8').trim();
      } catch {
        last = undefined;
      }
      console.log(`  ${system} ${SHORT[dataset]}: FAILED (${message(e).split('\n')[0]})`);
      failures.push({ system, dataset, error: message(e), progress: last });
    }
  }
  return { dataset, lines, quadlog: q, oxigraph: o, failures };
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  if (options.task !== undefined) {
    process.stdout.write(`${JSON.stringify(await runTask(options.task, options.runs))}\n`);
    return;
  }
  const cpu = cpus();
  console.log(`node ${process.version}, ${cpu.length} × ${cpu[0]?.model ?? '?'}; data sets: ${options.datasets.join(', ')}; systems: ${options.systems.join(', ')}`);
  console.log(`load average at start (1/5/15 min): ${loads()}`);
  console.log('each system and data set runs in a fresh child process; progress:');
  const dir = mkdtempSync(join(tmpdir(), 'quadlog-bench-scale-'));
  const runs: DatasetRun[] = [];
  try {
    for (const dataset of options.datasets) {
      let file: string = LUBM_FILES.lubm10;
      let lines = KNOWN_TRIPLES.lubm10;
      if (dataset === 'lubm100') {
        file = join(dir, 'lubm100-copies.nt');
        const start = process.hrtime.bigint();
        const written = await writeLubmCopies(LUBM_FILES.lubm10, file, LUBM100_COPIES);
        lines = written.lines;
        console.log(`  wrote ${num(written.lines)} lines (${mb(written.bytes)}) of ${LUBM100_COPIES} renamed copies of LUBM(10) in ${s2(Number(process.hrtime.bigint() - start) / 1e9)} s`);
      }
      runs.push(await runDataset(dataset, file, lines, dir, options));
      if (dataset === 'lubm100') rmSync(file, { force: true });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(`load average at end (1/5/15 min): ${loads()}`);

  const problems: string[] = [];
  for (const run of runs) {
    console.log(`\n${LABEL[run.dataset]}: ${num(run.lines)} lines of N-Triples; quadlog: load, univ-bench.ttl, importAxiomsFromTriples() (data first); oxigraph: Store.load of ~1 MiB chunks of lines`);
    console.log(datasetTable(run));
    for (const f of run.failures) console.log(`  ${f.system} failed: ${f.error}${f.progress === undefined ? '' : `\n    last progress (lines loaded, RSS bytes): ${f.progress}`}`);
    if (run.oxigraph?.error !== undefined)
      console.log(`  oxigraph stopped after ${num(run.oxigraph.lines)} of ${num(run.lines)} lines (${((100 * run.oxigraph.lines) / run.lines).toFixed(1)} %), ${s2(run.oxigraph.load.seconds)} s: ${run.oxigraph.error}`);
    const q = run.quadlog;
    const o = run.oxigraph;
    if (q && run.dataset === 'lubm10' && q.loaded !== KNOWN_TRIPLES.lubm10) problems.push(`quadlog LUBM(10): ${q.loaded} triples loaded, expected ${KNOWN_TRIPLES.lubm10}`);
    if (q && q.statements !== run.lines) problems.push(`quadlog ${SHORT[run.dataset]}: ${q.statements} statements read, the file has ${run.lines} lines`);
    if (q && o && o.error === undefined && o.size !== q.loaded) problems.push(`${SHORT[run.dataset]}: oxigraph holds ${o.size ?? '?'} triples, quadlog ${q.loaded}`);
    for (const f of run.failures) if (f.system === 'quadlog') problems.push(`quadlog ${SHORT[run.dataset]} failed: ${f.error.split('\n')[0]}`);
  }

  const queries = queryTable(runs);
  if (queries !== undefined) {
    console.log('\nthe 14 LUBM queries with OWL 2 RL reasoning (over the materialised store; first = the first (untimed) run; ms = median of the timed runs; × = LUBM(100) / LUBM(10), ~10× is linear):');
    console.log(queries);
  }

  const [a, b] = [runs.find((r) => r.dataset === 'lubm10'), runs.find((r) => r.dataset === 'lubm100')];
  const summary: string[] = [];
  if (a?.quadlog && b?.quadlog) {
    const [qa, qb] = [a.quadlog, b.quadlog];
    const derived = (r: QuadlogResult): number => r.counts.all - r.counts.explicit;
    summary.push(
      `quadlog, LUBM(100) / LUBM(10): triples ${(qb.loaded / qa.loaded).toFixed(2)}×, load time ${(qb.load.seconds / qa.load.seconds).toFixed(2)}× (${num(qa.statements / qa.load.seconds)} → ${num(qb.statements / qb.load.seconds)} triples/s), derived ${(derived(qb) / derived(qa)).toFixed(2)}×, materialisation time ${(qb.materialise.seconds / qa.materialise.seconds).toFixed(2)}× (${num(derived(qa) / qa.materialise.seconds)} → ${num(derived(qb) / qb.materialise.seconds)} derived/s)`,
    );
    summary.push(`quadlog B/fact: explicit ${qa.loadMemory.bytesPerFact.toFixed(1)} → ${qb.loadMemory.bytesPerFact.toFixed(1)}, with derived ${qa.memory.bytesPerFact.toFixed(1)} → ${qb.memory.bytesPerFact.toFixed(1)}; RSS at end ${mb(qa.rssEnd.rss)} → ${mb(qb.rssEnd.rss)}`);
    // queries whose answers grow with the data, and those whose answers stay the same size
    const pairs = qa.queries.map((x) => ({ name: x.name, rows: qb.queries.find((y) => y.name === x.name)!.rows / x.rows, time: median(qb.queries.find((y) => y.name === x.name)!.ms) / median(x.ms) }));
    const growing = pairs.filter((p) => p.rows >= 2);
    const same = pairs.filter((p) => p.rows < 2);
    if (growing.length > 0) summary.push(`queries whose answers grow (rows ×, time ×): ${growing.map((p) => `${p.name} ${p.rows.toFixed(1)}×, ${p.time.toFixed(1)}×`).join('; ')}`);
    if (same.length > 0) {
      const times = same.map((p) => p.time).sort((x, y) => x - y);
      summary.push(`the ${same.length} queries whose answers keep their size: time × median ${median(times).toFixed(1)} (${times[0]!.toFixed(1)}–${times.at(-1)!.toFixed(1)})`);
    }
  }
  for (const run of runs) {
    if (run.quadlog && run.oxigraph) {
      const o = run.oxigraph;
      const state = o.error === undefined ? `${s2(o.load.seconds)} s (${(o.load.seconds / run.quadlog.load.seconds).toFixed(2)}× quadlog's load)` : `failed after ${num(o.lines)} lines, ${s2(o.load.seconds)} s`;
      summary.push(`oxigraph ${SHORT[run.dataset]}: ${state}, RSS ${mb(o.rssEnd.rss)} (quadlog after materialisation ${mb(run.quadlog.rssMaterialised.rss)})`);
    }
    for (const f of run.failures) if (f.system === 'oxigraph') summary.push(`oxigraph ${SHORT[run.dataset]}: child failed (${f.error.split('\n')[0]})${f.progress === undefined ? '' : `, last progress ${f.progress}`}`);
  }
  if (summary.length > 0) {
    console.log('\nsummary:');
    for (const s of summary) console.log(`  ${s}`);
  }
  reportChecks([], problems, 'triple counts agree');
}

await main();
