/**
 * OWL 2 RL benchmark: materialising LUBM(1) and LUBM(10) under the Univ-Bench axioms
 * (`importAxiomsFromTriples`), checking the 14 LUBM queries, and maintaining the
 * materialisation incrementally (FBF and DRed) against recomputation from scratch.
 *
 * Usage: `npm run bench:owl -- [--only lubm1|lubm10[,…]] [--parts materialise|scratch|incremental[,…]] [--cpu-prof-dir <dir>]`
 * (i.e. `node --expose-gc --import tsx bench/owl.ts …`). Without options every part runs on
 * both data sets. `--cpu-prof-dir` runs every child with `--cpu-prof` writing there; with
 * `BENCH_MARKS=1` each child also writes `mark <label> <start µs> <end µs>` lines to stderr
 * (the clock of the profiles' timestamps) to cut a profile to one timed span.
 *
 * Parts, each (data set, part[, mode]) in its own child process
 * (`… bench/owl.ts --task <spec>`, which prints one JSON line):
 * - **materialise** (axioms first, as an application would set the store up): in one process,
 *   first the data file alone is imported into a store without axioms (timed: "load"), and
 *   that store is dropped; then a fresh store gets `univ-bench.ttl` and
 *   `importAxiomsFromTriples()` (the axioms become rules of the `axioms` domain), and the data
 *   file is imported into it (timed: "load + mat": materialisation runs at the commit).
 *   Materialisation = load + mat − load. On LUBM(1) the 14 LUBM queries are evaluated and
 *   their answer counts checked against the with-reasoning column of `answers-lubm1.tsv`.
 * - **scratch** (data first): the data file is imported (timed: "load"), then
 *   `univ-bench.ttl`, then `importAxiomsFromTriples()` is timed: that call compiles the axioms
 *   and materialises from scratch. Counts (and, on LUBM(1), the query answers) must equal
 *   those of the materialise part.
 * - **incremental**, in a default (FBF) store and a `use-DRed` store: the store is built data
 *   first (as in scratch, which reaches the same state much faster than axioms first, see the
 *   materialise figures), then 1 % of the data file's triples (sampled with a fixed seed over
 *   the file's lines) are deleted with `importData('DELETE', text, { mediaType:
 *   'application/n-triples' })` (timed); `recomputeMaterialization()` is then timed on that
 *   same store (and must leave the counts unchanged, which checks the incremental deletion);
 *   the triples are added back (timed) and the counts must equal those before the deletion;
 *   finally the full store is recomputed once more (timed, for reference).
 *
 * Figures: wall seconds (`process.hrtime`, each span after two forced GCs), CPU seconds of the
 * process over the same span (less sensitive to the shared machine), and the one-minute load
 * average at the end of each span. Derived facts = `countFacts()` − `countFacts({ factDomain:
 * 'explicit' })` (the 293 ontology triples count as explicit). Bytes per fact =
 * Δ(heapUsed + external) after two forced GCs, from just before the data import to just after
 * the materialisation, divided by `countFacts()`.
 *
 * Goals (only reported): LUBM(10) materialised in under 5 s; a 1 % deletion takes under 5 % of
 * the recompute time. Count or answer mismatches make the process exit with code 1.
 * @module
 */
import { parseArgs } from 'node:util';
import { createReadStream } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createGunzip } from 'node:zlib';
import type { DataStoreConnection } from '../lib/index.js';
import { checkImport, chosen, counts, heapAndExternal, memorySince, type Memory, num, runChild, sameCounts, table, timed, withStore, type Counts, type Timing, reportChecks } from './lib/harness.js';
import { KNOWN_TRIPLES, expectedLubm1Counts, lubmQueries } from './lib/query-workload.js';
import { LUBM_FILES, LUBM_ONTOLOGY, sample, seededRandom } from './lib/reason-fixtures.js';

/** The data sets. */
export const DATASETS = ['lubm1', 'lubm10'] as const;

/** One of {@link DATASETS}. */
export type Dataset = (typeof DATASETS)[number];

/** The parts `--parts` selects. */
export const PARTS = ['materialise', 'scratch', 'incremental'] as const;

/** One of {@link PARTS}. */
export type Part = (typeof PARTS)[number];

/** Incremental maintenance algorithms. */
export type Mode = 'FBF' | 'DRed';

/** Fraction of the data triples deleted and re-added in the incremental part. */
export const DELETE_FRACTION = 0.01;

/** Seed of the sampler of the incremental part. */
export const SAMPLE_SEED = 20240601;

/** Goal: LUBM(10) materialised in at most this many seconds. */
export const GOAL_MATERIALISE_SECONDS = 5;

/** Goal: a 1 % deletion takes at most this fraction of the recompute time. */
export const GOAL_DELETE_FRACTION = 0.05;

/** Goal (issue 19): derived facts per second materialising LUBM(10) with the univ-bench axioms. */
export const GOAL_NEW_PER_SECOND = 1_000_000;

const NT = 'application/n-triples';

/** One LUBM query's answer. */
export interface QueryCheck {
  /** `q1` … `q14`. */
  readonly name: string;
  /** The with-reasoning count of `answers-lubm1.tsv`. */
  readonly expected: number | undefined;
  /** Rows of the answer. */
  readonly count: number;
  /** Wall milliseconds of the (single, cold) evaluation. */
  readonly ms: number;
}

/** The materialise part (axioms first). */
export interface MaterialiseResult {
  readonly kind: 'materialise';
  readonly dataset: Dataset;
  /** Importing the data into a store without axioms (same process, earlier). */
  readonly load: Timing;
  /** Facts of that store. */
  readonly loadFacts: number;
  /** Importing `univ-bench.ttl` and `importAxiomsFromTriples()` into the empty store. */
  readonly axioms: Timing;
  /** `listAxioms()` after it. */
  readonly axiomCount: number;
  /** Importing the data into the store with the axioms (materialisation at commit). */
  readonly loadMaterialise: Timing;
  /** Counts after it. */
  readonly counts: Counts;
  /** Memory of the data import + materialisation. */
  readonly memory: Memory;
  /** LUBM(1) only: the 14 LUBM queries. */
  readonly queries: readonly QueryCheck[];
}

/** The scratch part (data first). */
export interface ScratchResult {
  readonly kind: 'scratch';
  readonly dataset: Dataset;
  /** Importing the data into the empty store. */
  readonly load: Timing;
  /** Importing `univ-bench.ttl`. */
  readonly ontology: Timing;
  /** Counts before the axioms. */
  readonly before: Counts;
  /** `importAxiomsFromTriples()`: axiom compilation + materialisation from scratch. */
  readonly materialise: Timing;
  /** `listAxioms()` after it. */
  readonly axiomCount: number;
  /** Counts after it. */
  readonly counts: Counts;
  /** Memory from before the data import to after the materialisation. */
  readonly memory: Memory;
  /** LUBM(1) only: the 14 LUBM queries. */
  readonly queries: readonly QueryCheck[];
}

/** The incremental part for one data set and mode. */
export interface IncrementalResult {
  readonly kind: 'incremental';
  readonly dataset: Dataset;
  readonly mode: Mode;
  /** Data import + ontology import + `importAxiomsFromTriples()`. */
  readonly build: Timing;
  /** Counts after the build. */
  readonly initial: Counts;
  /** Data triples in the file. */
  readonly dataTriples: number;
  /** Triples deleted (and added back). */
  readonly sampled: number;
  /** The DELETE import. */
  readonly remove: Timing;
  /** Its `changedFacts`. */
  readonly removeChanged: number;
  readonly afterRemove: Counts;
  /** `recomputeMaterialization()` right after the deletion (same store). */
  readonly recompute: Timing;
  readonly afterRecompute: Counts;
  /** The ADD import of the same triples. */
  readonly add: Timing;
  /** Its `changedFacts`. */
  readonly addChanged: number;
  readonly afterAdd: Counts;
  /** `recomputeMaterialization()` of the full store (reference). */
  readonly recomputeFull: Timing;
  readonly afterRecomputeFull: Counts;
}

/** What a child prints. */
export type TaskResult = MaterialiseResult | ScratchResult | IncrementalResult;

// ---------------------------------------------------------------- child tasks

async function importFile(ds: DataStoreConnection, dataset: Dataset): Promise<void> {
  await checkImport(`${dataset} import`, ds.importData('ADD', { path: LUBM_FILES[dataset] }, { mediaType: NT }));
}

async function importAxioms(ds: DataStoreConnection): Promise<void> {
  await checkImport('ontology import', ds.importData('ADD', { path: LUBM_ONTOLOGY }));
  await checkImport('importAxiomsFromTriples', ds.importAxiomsFromTriples());
}

/** Evaluates the 14 LUBM queries once each (LUBM(1) only; elsewhere there are no reference counts). */
async function runQueries(ds: DataStoreConnection, dataset: Dataset): Promise<QueryCheck[]> {
  if (dataset !== 'lubm1') return [];
  const expected = expectedLubm1Counts(true);
  const out: QueryCheck[] = [];
  for (const q of lubmQueries()) {
    const start = process.hrtime.bigint();
    const answer = await ds.evaluateQuery(q.text);
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (answer.type !== 'bindings') throw new Error(`${q.name}: expected bindings, got ${answer.type}`);
    out.push({ name: q.name, expected: expected.get(q.name), count: answer.rows.length, ms });
  }
  return out;
}

async function materialise(dataset: Dataset): Promise<MaterialiseResult> {
  // the data alone first, in a store that is dropped afterwards
  const plain = await withStore({}, async (ds) => {
    const load = await timed('load', () => importFile(ds, dataset));
    return { load: load.timing, facts: await ds.countFacts() };
  });
  return withStore({}, async (ds) => {
    const axioms = await timed('axioms', () => importAxioms(ds));
    const axiomCount = (await ds.listAxioms()).length;
    const before = heapAndExternal();
    const loadMaterialise = await timed('load+materialise', () => importFile(ds, dataset));
    const c = await counts(ds);
    const memory = memorySince(before, c.all);
    const queries = await runQueries(ds, dataset);
    return { kind: 'materialise', dataset, load: plain.load, loadFacts: plain.facts, axioms: axioms.timing, axiomCount, loadMaterialise: loadMaterialise.timing, counts: c, memory, queries };
  });
}

async function scratch(dataset: Dataset): Promise<ScratchResult> {
  return withStore({}, async (ds) => {
    const mem = heapAndExternal();
    const load = await timed('load', () => importFile(ds, dataset));
    const ontology = await timed('ontology', () => checkImport('ontology import', ds.importData('ADD', { path: LUBM_ONTOLOGY })));
    const before = await counts(ds);
    const materialise = await timed('importAxiomsFromTriples', () => checkImport('importAxiomsFromTriples', ds.importAxiomsFromTriples()));
    const axiomCount = (await ds.listAxioms()).length;
    const c = await counts(ds);
    const memory = memorySince(mem, c.all);
    const queries = await runQueries(ds, dataset);
    return { kind: 'scratch', dataset, load: load.timing, ontology: ontology.timing, before, materialise: materialise.timing, axiomCount, counts: c, memory, queries };
  });
}

/** Calls `f` with each non-empty line of a gzip'd N-Triples file and its index among them. */
async function eachLine(file: string, f: (line: string, index: number) => void): Promise<number> {
  const lines = createInterface({ input: createReadStream(file, { highWaterMark: 1 << 20 }).pipe(createGunzip()), crlfDelay: Infinity });
  let n = 0;
  for await (const line of lines) if (line.trim() !== '') f(line, n++);
  return n;
}

/** `fraction` of the data file's lines, chosen with a seeded sampler over their indices (two passes, so only the sample is kept). */
async function sampleLines(file: string, fraction: number, seed: number): Promise<{ readonly total: number; readonly lines: string[] }> {
  const total = await eachLine(file, () => undefined);
  const picked = new Set(sample(Array.from({ length: total }, (_, i) => i), Math.round(total * fraction), seededRandom(seed)));
  const lines: string[] = [];
  await eachLine(file, (line, i) => {
    if (picked.has(i)) lines.push(line);
  });
  return { total, lines };
}

async function incremental(dataset: Dataset, mode: Mode): Promise<IncrementalResult> {
  const { total, lines } = await sampleLines(LUBM_FILES[dataset], DELETE_FRACTION, SAMPLE_SEED);
  const text = `${lines.join('\n')}\n`;
  return withStore(mode === 'DRed' ? { 'use-DRed': 'true' } : {}, async (ds) => {
    const build = await timed('build', async () => {
      await importFile(ds, dataset);
      await importAxioms(ds);
    });
    const initial = await counts(ds);
    const remove = await timed('delete', () => checkImport('DELETE', ds.importData('DELETE', text, { mediaType: NT })));
    const afterRemove = await counts(ds);
    const recompute = await timed('recompute', () => ds.recomputeMaterialization());
    const afterRecompute = await counts(ds);
    const add = await timed('add', () => checkImport('ADD', ds.importData('ADD', text, { mediaType: NT })));
    const afterAdd = await counts(ds);
    const recomputeFull = await timed('recompute-full', () => ds.recomputeMaterialization());
    const afterRecomputeFull = await counts(ds);
    return {
      kind: 'incremental',
      dataset,
      mode,
      build: build.timing,
      initial,
      dataTriples: total,
      sampled: lines.length,
      remove: remove.timing,
      removeChanged: remove.value.changedFacts,
      afterRemove,
      recompute: recompute.timing,
      afterRecompute,
      add: add.timing,
      addChanged: add.value.changedFacts,
      afterAdd,
      recomputeFull: recomputeFull.timing,
      afterRecomputeFull,
    };
  });
}

/** Runs one task spec: `materialise:<data set>`, `scratch:<data set>` or `incremental:<data set>:<FBF|DRed>`. */
async function runTask(spec: string): Promise<TaskResult> {
  const [part, dataset, mode] = spec.split(':');
  if (dataset === 'lubm1' || dataset === 'lubm10') {
    if (part === 'materialise' && mode === undefined) return materialise(dataset);
    if (part === 'scratch' && mode === undefined) return scratch(dataset);
    if (part === 'incremental' && (mode === 'FBF' || mode === 'DRed')) return incremental(dataset, mode);
  }
  throw new Error(`unknown task '${spec}' (expected materialise:<lubm1|lubm10>, scratch:<lubm1|lubm10> or incremental:<lubm1|lubm10>:<FBF|DRed>)`);
}

// ---------------------------------------------------------------- parent mode

interface Options {
  readonly datasets: readonly Dataset[];
  readonly parts: readonly Part[];
  readonly cpuProfDir: string | undefined;
  readonly task: string | undefined;
}

function parseOptions(argv: readonly string[]): Options {
  const { values } = parseArgs({
    args: [...argv],
    options: { only: { type: 'string', multiple: true }, parts: { type: 'string', multiple: true }, 'cpu-prof-dir': { type: 'string' }, task: { type: 'string' } },
    strict: true,
  });
  return { datasets: chosen(values.only, DATASETS, '--only'), parts: chosen(values.parts, PARTS, '--parts'), cpuProfDir: values['cpu-prof-dir'], task: values.task };
}

const LABEL: Readonly<Record<Dataset, string>> = { lubm1: 'LUBM(1)', lubm10: 'LUBM(10)' };

function s3(x: number): string {
  return x.toFixed(3);
}

function loads(): string {
  return loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
}

function describe(r: TaskResult): string {
  const l = LABEL[r.dataset];
  switch (r.kind) {
    case 'materialise':
      return `${l} axioms first: load ${s3(r.load.seconds)} s, load+mat ${s3(r.loadMaterialise.seconds)} s (cpu ${s3(r.loadMaterialise.cpuSeconds)} s), ${num(r.counts.all - r.counts.explicit)} derived, load1 ${r.loadMaterialise.load1.toFixed(2)}`;
    case 'scratch':
      return `${l} data first: load ${s3(r.load.seconds)} s, importAxiomsFromTriples ${s3(r.materialise.seconds)} s (cpu ${s3(r.materialise.cpuSeconds)} s), ${num(r.counts.all - r.counts.explicit)} derived, load1 ${r.materialise.load1.toFixed(2)}`;
    case 'incremental':
      return `${l} ${r.mode}: delete ${num(r.sampled)} ${s3(r.remove.seconds)} s, recompute ${s3(r.recompute.seconds)} s, add back ${s3(r.add.seconds)} s, load1 ${r.recompute.load1.toFixed(2)}`;
  }
}

/** The materialisation figures of one way of loading, for the table and the goal. */
interface Way {
  readonly dataset: Dataset;
  readonly way: string;
  readonly load: number;
  readonly loadMaterialise: number;
  readonly materialise: number;
  readonly materialiseCpu: number;
  readonly counts: Counts;
  readonly memory: Memory;
  readonly load1: number;
}

function ways(results: readonly TaskResult[]): Way[] {
  const out: Way[] = [];
  for (const r of results) {
    if (r.kind === 'materialise')
      out.push({
        dataset: r.dataset,
        way: 'axioms first: import into store with axioms (mat = load+mat − load)',
        load: r.load.seconds,
        loadMaterialise: r.loadMaterialise.seconds,
        materialise: r.loadMaterialise.seconds - r.load.seconds,
        materialiseCpu: r.loadMaterialise.cpuSeconds - r.load.cpuSeconds,
        counts: r.counts,
        memory: r.memory,
        load1: r.loadMaterialise.load1,
      });
    else if (r.kind === 'scratch')
      out.push({
        dataset: r.dataset,
        way: 'data first: importAxiomsFromTriples (mat from scratch)',
        load: r.load.seconds + r.ontology.seconds,
        loadMaterialise: r.load.seconds + r.ontology.seconds + r.materialise.seconds,
        materialise: r.materialise.seconds,
        materialiseCpu: r.materialise.cpuSeconds,
        counts: r.counts,
        memory: r.memory,
        load1: r.materialise.load1,
      });
  }
  return out;
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  if (options.task !== undefined) {
    process.stdout.write(`${JSON.stringify(await runTask(options.task))}\n`);
    return;
  }
  const cpu = cpus();
  console.log(`node ${process.version}, ${cpu.length} × ${cpu[0]?.model ?? '?'}; data sets: ${options.datasets.join(', ')}; parts: ${options.parts.join(', ')}`);
  console.log(`load average at start (1/5/15 min): ${loads()}`);
  console.log('each measurement runs in a fresh child process; progress:');

  const specs: string[] = [];
  for (const d of options.datasets) {
    if (options.parts.includes('materialise')) specs.push(`materialise:${d}`);
    if (options.parts.includes('scratch')) specs.push(`scratch:${d}`);
    if (options.parts.includes('incremental')) for (const m of ['FBF', 'DRed'] as const) specs.push(`incremental:${d}:${m}`);
  }
  const nodeArgs = ['--expose-gc', '--max-old-space-size=8192'];
  if (options.cpuProfDir !== undefined) nodeArgs.push('--cpu-prof', `--cpu-prof-dir=${options.cpuProfDir}`);
  const script = fileURLToPath(import.meta.url);
  const results: TaskResult[] = [];
  for (const spec of specs) {
    const r = await runChild<TaskResult>(script, ['--task', spec], `task ${spec}`, nodeArgs);
    console.log(`  ${describe(r)}`);
    results.push(r);
  }
  console.log(`load average at end (1/5/15 min): ${loads()}\n`);

  const problems: string[] = [];
  const goals: string[] = [];

  // ---- materialisation
  const ws = ways(results);
  if (ws.length > 0) {
    console.log('materialisation (seconds wall; derived = countFacts() − countFacts(explicit); B/fact = Δ(heapUsed + external) / countFacts()):');
    console.log(
      table(
        ['data set', 'way', 'load s', 'load+mat s', 'mat s', 'mat cpu s', 'explicit', 'all facts', 'derived', 'derived/s', 'B/fact', 'load1'],
        ws.map((w) => [
          LABEL[w.dataset],
          w.way,
          s3(w.load),
          s3(w.loadMaterialise),
          s3(w.materialise),
          s3(w.materialiseCpu),
          num(w.counts.explicit),
          num(w.counts.all),
          num(w.counts.all - w.counts.explicit),
          num((w.counts.all - w.counts.explicit) / w.materialise),
          w.memory.bytesPerFact.toFixed(1),
          w.load1.toFixed(2),
        ]),
        ['way'],
      ),
    );
    console.log('  load s: axioms first = the data alone into a store without axioms (same process, earlier); data first = data + univ-bench.ttl');
    console.log('  load1 = one-minute load average at the end of the materialisation span');
    for (const r of results) {
      if (r.kind === 'materialise' && r.loadFacts !== KNOWN_TRIPLES[r.dataset]) problems.push(`${LABEL[r.dataset]}: plain import has ${r.loadFacts} facts, expected ${KNOWN_TRIPLES[r.dataset]}`);
      if (r.kind === 'scratch' && r.before.all !== r.before.explicit) problems.push(`${LABEL[r.dataset]} data first: derived facts before the axioms`);
    }
    for (const d of options.datasets) {
      const [a, b] = [ws.find((w) => w.dataset === d && w.way.startsWith('axioms')), ws.find((w) => w.dataset === d && w.way.startsWith('data'))];
      if (a && b && !sameCounts(a.counts, b.counts)) problems.push(`${LABEL[d]}: axioms first ${JSON.stringify(a.counts)} ≠ data first ${JSON.stringify(b.counts)}`);
      if (d === 'lubm10') {
        for (const w of [a, b]) {
          if (!w) continue;
          const how = w.way.startsWith('axioms') ? 'axioms first, mat = load+mat − load' : 'data first, importAxiomsFromTriples';
          goals.push(`LUBM(10) materialised in < ${GOAL_MATERIALISE_SECONDS} s (${how}): ${s3(w.materialise)} s → ${w.materialise < GOAL_MATERIALISE_SECONDS ? 'PASS' : 'FAIL'} (load1 ${w.load1.toFixed(2)})`);
          const perSecond = (w.counts.all - w.counts.explicit) / w.materialise;
          goals.push(`LUBM(10) derived facts per second (${how}): ${Math.round(perSecond).toLocaleString('en')} (≥ ${GOAL_NEW_PER_SECOND.toLocaleString('en')}) → ${perSecond >= GOAL_NEW_PER_SECOND ? 'PASS' : 'FAIL'}`);
        }
        if (a) goals.push(`LUBM(10) load + materialisation in < ${GOAL_MATERIALISE_SECONDS} s (axioms first): ${s3(a.loadMaterialise)} s → ${a.loadMaterialise < GOAL_MATERIALISE_SECONDS ? 'PASS' : 'FAIL'} (load1 ${a.load1.toFixed(2)})`);
      }
    }
  }

  // ---- queries
  const withQueries = results.filter((r): r is MaterialiseResult | ScratchResult => r.kind !== 'incremental' && r.queries.length > 0);
  if (withQueries.length > 0) {
    console.log('\nLUBM(1) queries (answer counts vs answers-lubm1.tsv, with OWL reasoning; ms = one cold evaluation):');
    const names = withQueries[0]!.queries.map((q) => q.name);
    const header = ['query', 'expected', ...withQueries.flatMap((r) => [r.kind === 'materialise' ? 'axioms first' : 'data first', 'ms']), 'ok'];
    const rows = names.map((name) => {
      const cells = withQueries.map((r) => r.queries.find((q) => q.name === name)!);
      const expected = cells[0]!.expected;
      const ok = expected !== undefined && cells.every((c) => c.count === expected);
      if (!ok) problems.push(`${name}: expected ${expected ?? '?'}, got ${cells.map((c) => c.count).join(' / ')}`);
      return [name, expected === undefined ? '?' : num(expected), ...cells.flatMap((c) => [num(c.count), c.ms.toFixed(1)]), ok ? 'yes' : 'NO'];
    });
    console.log(table(header, rows));
  }

  // ---- incremental
  const incs = results.filter((r): r is IncrementalResult => r.kind === 'incremental');
  if (incs.length > 0) {
    console.log(`\nincremental maintenance (${DELETE_FRACTION * 100} % of the data triples, seed ${SAMPLE_SEED}; % recompute = time / recompute of the same store after the deletion):`);
    const rows: string[][] = [];
    const fmt = (c: Counts): string => `${num(c.all)} / ${num(c.explicit)}`;
    for (const r of incs) {
      const store = `${LABEL[r.dataset]} ${r.mode}`;
      const pct = (t: Timing): string => `${((100 * t.seconds) / r.recompute.seconds).toFixed(1)} %`;
      const recomputeOk = sameCounts(r.afterRecompute, r.afterRemove);
      const restored = sameCounts(r.afterAdd, r.initial);
      const fullOk = sameCounts(r.afterRecomputeFull, r.initial);
      if (r.removeChanged !== r.sampled) problems.push(`${store}: DELETE changed ${r.removeChanged} facts, expected ${r.sampled}`);
      if (r.addChanged !== r.sampled) problems.push(`${store}: ADD changed ${r.addChanged} facts, expected ${r.sampled}`);
      if (r.afterRemove.explicit !== r.initial.explicit - r.sampled) problems.push(`${store}: ${r.afterRemove.explicit} explicit facts after the deletion, expected ${r.initial.explicit - r.sampled}`);
      if (!recomputeOk) problems.push(`${store}: after the deletion ${JSON.stringify(r.afterRemove)}, but recomputing gives ${JSON.stringify(r.afterRecompute)}`);
      if (!restored) problems.push(`${store}: after re-adding ${JSON.stringify(r.afterAdd)} ≠ before the deletion ${JSON.stringify(r.initial)}`);
      if (!fullOk) problems.push(`${store}: full recompute gives ${JSON.stringify(r.afterRecomputeFull)} ≠ ${JSON.stringify(r.initial)}`);
      const scratchCounts = results.find((x): x is ScratchResult => x.kind === 'scratch' && x.dataset === r.dataset)?.counts;
      if (scratchCounts && !sameCounts(scratchCounts, r.initial)) problems.push(`${store}: initial ${JSON.stringify(r.initial)} ≠ data-first store ${JSON.stringify(scratchCounts)}`);
      rows.push([store, 'build (data, ontology, importAxiomsFromTriples)', s3(r.build.seconds), s3(r.build.cpuSeconds), '', fmt(r.initial), '', r.build.load1.toFixed(2)]);
      rows.push([store, `delete ${num(r.sampled)} of ${num(r.dataTriples)}`, s3(r.remove.seconds), s3(r.remove.cpuSeconds), pct(r.remove), fmt(r.afterRemove), '', r.remove.load1.toFixed(2)]);
      rows.push([store, 'recompute (same store)', s3(r.recompute.seconds), s3(r.recompute.cpuSeconds), '100.0 %', fmt(r.afterRecompute), recomputeOk ? 'same as delete' : 'DIFFERS', r.recompute.load1.toFixed(2)]);
      rows.push([store, 'add back', s3(r.add.seconds), s3(r.add.cpuSeconds), pct(r.add), fmt(r.afterAdd), restored ? 'restored' : 'NOT RESTORED', r.add.load1.toFixed(2)]);
      rows.push([store, 'recompute (full store)', s3(r.recomputeFull.seconds), s3(r.recomputeFull.cpuSeconds), pct(r.recomputeFull), fmt(r.afterRecomputeFull), fullOk ? 'same' : 'DIFFERS', r.recomputeFull.load1.toFixed(2)]);
      const fraction = r.remove.seconds / r.recompute.seconds;
      goals.push(
        `${store}: 1 % delete ${s3(r.remove.seconds)} s = ${(fraction * 100).toFixed(1)} % of recompute ${s3(r.recompute.seconds)} s (< ${GOAL_DELETE_FRACTION * 100} %) → ${fraction < GOAL_DELETE_FRACTION ? 'PASS' : 'FAIL'} (cpu: ${((100 * r.remove.cpuSeconds) / r.recompute.cpuSeconds).toFixed(1)} %; load1 ${r.remove.load1.toFixed(2)})`,
      );
    }
    console.log(table(['store', 'operation', 'seconds', 'cpu s', '% recompute', 'all / explicit after', 'check', 'load1'], rows, ['operation', 'check']));
  }

  reportChecks(goals, problems, 'all counts and answers agree');
}

await main();
