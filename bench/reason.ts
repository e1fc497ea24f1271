/**
 * Reasoning benchmark: quadlog's Datalog materialisation vs the N3.js `Reasoner`, and
 * quadlog's incremental maintenance (FBF and DRed) vs recomputation from scratch.
 *
 * Usage: `npm run bench:reason -- [--only lubm1|lubm10|taxonomy|incremental|chain|small[,…]] [--skip-n3]`
 * (i.e. `node --expose-gc --import tsx bench/reason.ts …`). `--only` may be repeated or take
 * a comma-separated list; without it every part runs. `--skip-n3` leaves out the N3.js runs.
 *
 * Parts:
 * - **lubm1**, **lubm10**: LUBM(1) / LUBM(10) (`test-data/lubm/*.nt.gz`) plus
 *   `univ-bench.ttl`, materialised with the RDFS rules rdfs2, 3, 5, 7, 9, 11
 *   ({@link RDFS_DATALOG}, {@link RDFS_N3}). quadlog: the data is imported first (timed
 *   as "load"), then the rules are imported with
 *   `importData('ADD', rules, { mediaType: 'application/x.datalog' })`, which materialises at
 *   commit (timed as "reason"). N3.js: the same triples in an `N3.Store`, then
 *   `new Reasoner(store).reason(rules)` (timed). New triples = facts after − facts before
 *   (`countFacts()` / `store.size`); the two systems must agree, or the run fails.
 * - **taxonomy**: the Deep Taxonomy benchmark at 10,000 and 100,000, data and rule as N3.js's
 *   `perf/N3Reasoner-perf.js` builds them (`generateDeepTaxonomy` of the
 *   `deep-taxonomy-benchmark` package, `SUBCLASS_RULE`), the same in both systems.
 * - **incremental**: LUBM(1) and LUBM(10) materialised as above in a default (FBF) store and
 *   in a `use-DRed` store; then, for 1 % and 10 % of the explicit triples (sampled with a
 *   fixed seed from the sorted explicit N-Triples export): delete them with
 *   `importData('DELETE', text, { mediaType: 'application/n-triples' })`, add them back with
 *   `'ADD'`, and recompute with `recomputeMaterialization()`, each timed; the counts (all,
 *   derived, explicit) after the re-addition and after the recomputation must equal those
 *   before the deletion. The same 1 % sample is also deleted from a store that holds the
 *   same triples and no rules ("without rules"): parsing, term lookups and removal only, the
 *   part of a deletion that no reasoning can save.
 * - **small**: LUBM(10) materialised as above, then {@link SMALL_UPDATES} transactions that each
 *   add one new `takesCourse` triple, and as many that each delete one; the mean time of
 *   each kind (the latency of small updates to a large store with rules).
 * - **chain**: the transitive closure of a {@link CHAIN_NODES}-node chain ({@link CHAIN_DATALOG},
 *   about 1.1M facts): materialisation, deleting the middle edge (which takes away about half
 *   of the closure), adding it back and a recompute, each timed (quadlog only: the N3
 *   Reasoner maintains nothing). The counts after the re-addition and the recompute must equal
 *   those after the materialisation.
 *
 * Every (part, system) measurement runs in its own child process
 * (`… bench/reason.ts --task <spec>`, which prints one JSON line), so that one system's heap
 * and garbage never slow down another's. Times are wall clock (`process.hrtime`), taken
 * after two forced GCs; "cpu s" is the process's user + system CPU time over the same span
 * (less sensitive to a busy machine). The one-minute load average is recorded next to
 * every figure.
 *
 * Goal checks printed at the end: quadlog ≥ 10× the N3 Reasoner's new triples/s (each
 * data set); a 1 % deletion takes ≤ 5 % of the recompute time (each data set and mode).
 * A count mismatch (a correctness failure) makes the process exit with code 1; a missed
 * performance goal is only reported.
 * @module
 */
import { parseArgs } from 'node:util';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Reasoner, type Store } from 'n3';
import type { DataStoreConnection } from '../lib/index.js';
import { checkImport, chosen, counts, num, runChild, sameCounts, table, timed, withStore, type Counts, type Timing, reportChecks } from './lib/harness.js';
import {
  CHAIN_DATALOG,
  CHAIN_NODES,
  chainEdge,
  chainNTriples,
  LUBM_FILES,
  LUBM_ONTOLOGY,
  RDFS_DATALOG,
  RDFS_N3,
  TAXONOMY_DATALOG,
  TAXONOMY_N3,
  loadN3Store,
  n3Rules,
  sample,
  seededRandom,
  taxonomyExpectedNew,
  taxonomyN3Store,
  taxonomyNTriples,
} from './lib/reason-fixtures.js';

export { RDFS_DATALOG, RDFS_N3 } from './lib/reason-fixtures.js';
export type { Counts, Timing } from './lib/harness.js';

/** The parts `--only` selects. */
export const PARTS = ['lubm1', 'lubm10', 'taxonomy', 'incremental', 'chain', 'small'] as const;

/** Transactions of each kind in the `small` part. */
export const SMALL_UPDATES = 200;

/** One of {@link PARTS}. */
export type Part = (typeof PARTS)[number];

/** The data sets materialised: the two LUBM sizes and the two Deep Taxonomy sizes. */
export type DatasetName = 'lubm1' | 'lubm10' | 'dt10000' | 'dt100000';

/** The LUBM data sets (the ones the incremental part uses). */
export type LubmName = 'lubm1' | 'lubm10';

/** The reasoners compared. */
export type SystemName = 'quadlog' | 'n3';

/** Incremental maintenance algorithms of quadlog. */
export type MaintenanceMode = 'FBF' | 'DRed';

/** The percentages of explicit triples deleted and re-added in the incremental part. */
export const INCREMENTAL_PERCENTS: readonly number[] = [1, 10];

/** The seed of the sampler of the incremental part. */
export const SAMPLE_SEED = 20240601;

/** Goal: quadlog's new triples/s at least this many times the N3 Reasoner's. */
export const GOAL_SPEEDUP = 10;

/** Goal: a 1 % deletion takes at most this fraction of the recompute time. */
export const GOAL_DELETE_FRACTION = 0.05;

/** Goal (issue 19): new facts per second materialising LUBM(10), as the engines built for it reach (Nemo about 1.1M/s, RDFox about 0.7M/s, single thread). */
export const GOAL_NEW_PER_SECOND = 1_000_000;

const NT = 'application/n-triples';
const DATALOG_TYPE = 'application/x.datalog';

/** Result of one materialisation (one data set, one system), printed by a child as JSON. */
export interface MaterialisationResult {
  /** Discriminator. */
  readonly kind: 'materialise';
  /** The data set. */
  readonly dataset: DatasetName;
  /** The reasoner. */
  readonly system: SystemName;
  /** Loading the data (not the rules). */
  readonly load: Timing;
  /** Triples before reasoning. */
  readonly before: number;
  /** Triples after reasoning. */
  readonly after: number;
  /** quadlog only: `countFacts({ factDomain: 'derived' })` after reasoning. */
  readonly derived?: number;
  /** The reasoning (quadlog: the rule import, including its commit; N3: `reason`). */
  readonly reason: Timing;
  /** Taxonomy only: the expected number of new triples (3 × size + 1). */
  readonly expectedNew?: number;
}

/** One delete / re-add / recompute cycle of the incremental part. */
export interface IncrementalCycle extends DeleteAddRecompute {
  /** Percentage of the explicit triples sampled. */
  readonly percent: number;
  /** Number of triples sampled (and deleted, and re-added). */
  readonly sampled: number;
}

/** A deletion, the re-addition of what it deleted, and a recompute, each timed and counted after. */
export interface DeleteAddRecompute {
  /** `importData('DELETE', …)`. */
  readonly remove: Timing;
  /** Counts after the deletion. */
  readonly afterRemove: Counts;
  /** `importData('ADD', …)` of the same triples. */
  readonly add: Timing;
  /** Counts after the re-addition. */
  readonly afterAdd: Counts;
  /** `recomputeMaterialization()` right after. */
  readonly recompute: Timing;
  /** Counts after the recomputation. */
  readonly afterRecompute: Counts;
}

/** Result of the incremental part for one LUBM size and one mode, printed by a child as JSON. */
export interface IncrementalResult {
  /** Discriminator. */
  readonly kind: 'incremental';
  /** The data set. */
  readonly dataset: LubmName;
  /** FBF (default store) or DRed (`use-DRed` = true). */
  readonly mode: MaintenanceMode;
  /** Loading the data. */
  readonly load: Timing;
  /** The initial materialisation (rule import). */
  readonly materialise: Timing;
  /** Counts after the initial materialisation (the state every cycle must restore). */
  readonly initial: Counts;
  /** The cycles, in {@link INCREMENTAL_PERCENTS} order. */
  readonly cycles: readonly IncrementalCycle[];
}

/** Result of the chain part (the deletion is of the middle edge), printed by a child as JSON. */
export interface ChainResult extends DeleteAddRecompute {
  /** Discriminator. */
  readonly kind: 'chain';
  /** Nodes of the chain. */
  readonly nodes: number;
  /** The rule import, materialising the closure. */
  readonly materialise: Timing;
  /** Counts after the materialisation. */
  readonly initial: Counts;
}

/** The 1 % deletion of the incremental part from a store without rules, printed by a child as JSON. */
export interface PlainDeleteResult {
  /** Discriminator. */
  readonly kind: 'plain-delete';
  /** The data set. */
  readonly dataset: LubmName;
  /** Number of triples deleted. */
  readonly sampled: number;
  /** `importData('DELETE', …)` of the sample. */
  readonly remove: Timing;
}

/** Result of the small part, printed by a child as JSON. */
export interface SmallUpdatesResult {
  /** Discriminator. */
  readonly kind: 'small';
  /** Facts in the store. */
  readonly facts: number;
  /** Mean milliseconds of a transaction adding one triple. */
  readonly addMs: number;
  /** Mean milliseconds of a transaction deleting one triple. */
  readonly deleteMs: number;
}

/** What a child prints. */
export type TaskResult = SmallUpdatesResult | MaterialisationResult | IncrementalResult | ChainResult | PlainDeleteResult;

// ---------------------------------------------------------------- measurement helpers

/** Imports a LUBM file and the ontology into `ds`. */
async function loadLubmQuadlog(ds: DataStoreConnection, dataset: LubmName): Promise<void> {
  await checkImport('LUBM import', ds.importData('ADD', { path: LUBM_FILES[dataset] }, { mediaType: NT }));
  await checkImport('ontology import', ds.importData('ADD', { path: LUBM_ONTOLOGY }));
}

function taxonomySize(dataset: DatasetName): number | undefined {
  const m = /^dt(\d+)$/.exec(dataset);
  return m ? Number(m[1]) : undefined;
}

// ---------------------------------------------------------------- child tasks

async function materialiseQuadlog(dataset: DatasetName): Promise<MaterialisationResult> {
  const size = taxonomySize(dataset);
  return withStore({}, async (ds) => {
    const load = await timed('load', async () => {
      if (size === undefined) await loadLubmQuadlog(ds, dataset as LubmName);
      else await checkImport('taxonomy import', ds.importData('ADD', taxonomyNTriples(size), { mediaType: NT }));
    });
    const before = await ds.countFacts();
    const rules = size === undefined ? RDFS_DATALOG : TAXONOMY_DATALOG;
    const reason = await timed('reason', () => checkImport('rule import', ds.importData('ADD', rules, { mediaType: DATALOG_TYPE })));
    const after = await ds.countFacts();
    const derived = await ds.countFacts({ factDomain: 'derived' });
    return {
      kind: 'materialise',
      dataset,
      system: 'quadlog',
      load: load.timing,
      before,
      after,
      derived,
      reason: reason.timing,
      ...(size === undefined ? {} : { expectedNew: taxonomyExpectedNew(size) }),
    };
  });
}

async function materialiseN3(dataset: DatasetName): Promise<MaterialisationResult> {
  const size = taxonomySize(dataset);
  const load = await timed<Store>('load', () => (size === undefined ? loadN3Store([LUBM_FILES[dataset as LubmName]], [LUBM_ONTOLOGY]) : taxonomyN3Store(size)));
  const store = load.value;
  const rules = n3Rules(size === undefined ? RDFS_N3 : TAXONOMY_N3);
  const before = store.size;
  const reason = await timed('reason', () => new Reasoner(store).reason(rules));
  const after = store.size;
  return {
    kind: 'materialise',
    dataset,
    system: 'n3',
    load: load.timing,
    before,
    after,
    reason: reason.timing,
    ...(size === undefined ? {} : { expectedNew: taxonomyExpectedNew(size) }),
  };
}

/**
 * The samples of the incremental part (one per {@link INCREMENTAL_PERCENTS}) from the explicit
 * triples of `ds`, sorted first so that they depend only on the data and the seed.
 */
async function samplesOf(ds: DataStoreConnection, explicitCount: number): Promise<string[][]> {
  const explicit = (await ds.exportDataToString(NT, { 'fact-domain': 'explicit' })).split('\n').filter((l) => l.trim() !== '');
  explicit.sort();
  if (explicit.length !== explicitCount) throw new Error(`explicit export has ${explicit.length} lines but countFacts(explicit) = ${explicitCount}`);
  const random = seededRandom(SAMPLE_SEED);
  // in the order the random numbers are drawn; the export itself (over a million strings on
  // LUBM(10)) is let go when this returns, so that collecting it is not part of the timed steps
  return INCREMENTAL_PERCENTS.map((percent) => sample(explicit, Math.round((explicit.length * percent) / 100), random));
}

async function plainDelete(dataset: LubmName): Promise<PlainDeleteResult> {
  return withStore({}, async (ds) => {
    await loadLubmQuadlog(ds, dataset);
    const picked = (await samplesOf(ds, await ds.countFacts({ factDomain: 'explicit' })))[0]!;
    const remove = await timed('delete', () => checkImport('DELETE', ds.importData('DELETE', `${picked.join('\n')}\n`, { mediaType: NT })));
    if (remove.value.changedFacts !== picked.length) throw new Error(`DELETE changed ${remove.value.changedFacts} facts, expected ${picked.length}`);
    return { kind: 'plain-delete', dataset, sampled: picked.length, remove: remove.timing };
  });
}

/** Deletes the N-Triples `lines` (which must all be explicit), adds them back and recomputes, timing and counting each step. */
async function deleteAddRecompute(ds: DataStoreConnection, lines: readonly string[]): Promise<DeleteAddRecompute> {
  const text = `${lines.join('\n')}\n`;
  const remove = await timed('delete', () => checkImport('DELETE', ds.importData('DELETE', text, { mediaType: NT })));
  if (remove.value.changedFacts !== lines.length) throw new Error(`DELETE changed ${remove.value.changedFacts} facts, expected ${lines.length}`);
  const afterRemove = await counts(ds);
  const add = await timed('add', () => checkImport('ADD', ds.importData('ADD', text, { mediaType: NT })));
  if (add.value.changedFacts !== lines.length) throw new Error(`ADD changed ${add.value.changedFacts} facts, expected ${lines.length}`);
  const afterAdd = await counts(ds);
  const recompute = await timed('recompute', () => ds.recomputeMaterialization());
  const afterRecompute = await counts(ds);
  return { remove: remove.timing, afterRemove, add: add.timing, afterAdd, recompute: recompute.timing, afterRecompute };
}

async function incremental(dataset: LubmName, mode: MaintenanceMode): Promise<IncrementalResult> {
  return withStore(mode === 'DRed' ? { 'use-DRed': 'true' } : {}, async (ds) => {
    const load = await timed('load', () => loadLubmQuadlog(ds, dataset));
    const materialise = await timed('materialise', () => checkImport('rule import', ds.importData('ADD', RDFS_DATALOG, { mediaType: DATALOG_TYPE })));
    const initial = await counts(ds);
    const samples = await samplesOf(ds, initial.explicit);
    const cycles: IncrementalCycle[] = [];
    for (const [n, percent] of INCREMENTAL_PERCENTS.entries()) {
      const picked = samples[n]!;
      cycles.push({ percent, sampled: picked.length, ...(await deleteAddRecompute(ds, picked)) });
    }
    return { kind: 'incremental', dataset, mode, load: load.timing, materialise: materialise.timing, initial, cycles };
  });
}

async function chain(nodes: number): Promise<ChainResult> {
  return withStore({}, async (ds) => {
    await checkImport('chain import', ds.importData('ADD', chainNTriples(nodes), { mediaType: NT }));
    const materialise = await timed('materialise', () => checkImport('rule import', ds.importData('ADD', CHAIN_DATALOG, { mediaType: DATALOG_TYPE })));
    const initial = await counts(ds);
    return { kind: 'chain', nodes, materialise: materialise.timing, initial, ...(await deleteAddRecompute(ds, [chainEdge(nodes / 2)])) };
  });
}

async function smallUpdates(): Promise<SmallUpdatesResult> {
  return withStore({}, async (ds) => {
    await loadLubmQuadlog(ds, 'lubm10');
    await checkImport('rule import', ds.importData('ADD', RDFS_DATALOG, { mediaType: DATALOG_TYPE }));
    const facts = await ds.countFacts();
    const line = (i: number): string => `<http://example.org/student${i}> <http://swat.cse.lehigh.edu/onto/univ-bench.owl#takesCourse> <http://example.org/course${i}> .\n`;
    const mean = async (update: 'ADD' | 'DELETE'): Promise<number> => {
      const start = performance.now();
      for (let i = 0; i < SMALL_UPDATES; i++) {
        const r = await ds.importData(update, line(i), { mediaType: NT });
        if (r.changedFacts !== 1) throw new Error(`${update} changed ${r.changedFacts} facts, expected 1`);
      }
      return (performance.now() - start) / SMALL_UPDATES;
    };
    const addMs = await mean('ADD');
    const deleteMs = await mean('DELETE');
    if ((await ds.countFacts()) !== facts) throw new Error('the small updates did not restore the store');
    return { kind: 'small', facts, addMs, deleteMs };
  });
}

/** Runs one task spec (`materialise:<dataset>:<system>`, `incremental:<lubm>:<FBF|DRed>` or `chain:<nodes>`). */
async function runTask(spec: string): Promise<TaskResult> {
  const [kind, dataset, which] = spec.split(':');
  if (kind === 'chain' && Number.isInteger(Number(dataset)) && Number(dataset) >= 4) return chain(Number(dataset));
  if (kind === 'plain-delete' && (dataset === 'lubm1' || dataset === 'lubm10')) return plainDelete(dataset);
  if (kind === 'small') return smallUpdates();
  if (kind === 'materialise' && (dataset === 'lubm1' || dataset === 'lubm10' || dataset === 'dt10000' || dataset === 'dt100000')) {
    if (which === 'quadlog') return materialiseQuadlog(dataset);
    if (which === 'n3') return materialiseN3(dataset);
  }
  if (kind === 'incremental' && (dataset === 'lubm1' || dataset === 'lubm10') && (which === 'FBF' || which === 'DRed')) return incremental(dataset, which);
  throw new Error(`unknown task '${spec}' (expected materialise:<lubm1|lubm10|dt10000|dt100000>:<quadlog|n3>, incremental:<lubm1|lubm10>:<FBF|DRed>, plain-delete:<lubm1|lubm10>, chain:<nodes> or small)`);
}

// ---------------------------------------------------------------- parent mode

/** Spawns a child running `spec` and parses the JSON line it prints. */
function spawnTask(spec: string): Promise<TaskResult> {
  return runChild<TaskResult>(fileURLToPath(import.meta.url), ['--task', spec], `task ${spec}`, ['--expose-gc', '--max-old-space-size=8192']);
}

function secs(t: Timing): string {
  return t.seconds.toFixed(3);
}

const DATASET_LABEL: Readonly<Record<DatasetName, string>> = {
  lubm1: 'LUBM(1)+onto',
  lubm10: 'LUBM(10)+onto',
  dt10000: 'DeepTaxonomy 10k',
  dt100000: 'DeepTaxonomy 100k',
};

function newTriples(r: MaterialisationResult): number {
  return r.after - r.before;
}

function rate(r: MaterialisationResult): number {
  return newTriples(r) / r.reason.seconds;
}

/** Command-line options. */
interface Options {
  readonly parts: readonly Part[];
  readonly skipN3: boolean;
  readonly task: string | undefined;
}

function parseOptions(argv: readonly string[]): Options {
  const { values } = parseArgs({
    args: [...argv],
    options: { only: { type: 'string', multiple: true }, 'skip-n3': { type: 'boolean' }, task: { type: 'string' } },
    strict: true,
  });
  return { parts: chosen(values.only, PARTS, '--only'), skipN3: values['skip-n3'] === true, task: values.task };
}

function describeTask(r: TaskResult): string {
  if (r.kind === 'small') return `small updates on LUBM(10) (${num(r.facts)} facts): add one triple ${r.addMs.toFixed(2)} ms, delete one ${r.deleteMs.toFixed(2)} ms`;
  if (r.kind === 'plain-delete') return `delete 1% of ${r.dataset} without rules: ${num(r.sampled)} triples, ${secs(r.remove)} s`;
  if (r.kind === 'chain') return `chain of ${num(r.nodes)} nodes: materialise ${secs(r.materialise)} s, delete middle edge ${secs(r.remove)} s, add back ${secs(r.add)} s, recompute ${secs(r.recompute)} s`;
  if (r.kind === 'materialise')
    return `${DATASET_LABEL[r.dataset]} ${r.system}: load ${secs(r.load)} s, reason ${secs(r.reason)} s (cpu ${r.reason.cpuSeconds.toFixed(3)} s), ${num(newTriples(r))} new, ${num(rate(r))} new/s, load1 ${r.reason.load1.toFixed(2)}`;
  return `incremental ${r.dataset} ${r.mode}: ${r.cycles.map((c) => `${c.percent}%: del ${secs(c.remove)} s, add ${secs(c.add)} s, recompute ${secs(c.recompute)} s`).join('; ')}, load1 ${r.cycles.at(-1)?.recompute.load1.toFixed(2) ?? '?'}`;
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  if (options.task !== undefined) {
    process.stdout.write(`${JSON.stringify(await runTask(options.task))}\n`);
    return;
  }
  const cpu = cpus();
  console.log(`node ${process.version}, ${cpu.length} × ${cpu[0]?.model ?? '?'}; parts: ${options.parts.join(', ')}${options.skipN3 ? ' (N3.js skipped)' : ''}`);
  console.log(`load average at start: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  console.log('each measurement runs in a fresh child process; progress:');

  const specs: string[] = [];
  const systems: SystemName[] = options.skipN3 ? ['quadlog'] : ['quadlog', 'n3'];
  const materialised: DatasetName[] = [];
  if (options.parts.includes('lubm1')) materialised.push('lubm1');
  if (options.parts.includes('lubm10')) materialised.push('lubm10');
  if (options.parts.includes('taxonomy')) materialised.push('dt10000', 'dt100000');
  for (const d of materialised) for (const s of systems) specs.push(`materialise:${d}:${s}`);
  if (options.parts.includes('incremental')) {
    for (const d of ['lubm1', 'lubm10'] as const) {
      for (const m of ['FBF', 'DRed'] as const) specs.push(`incremental:${d}:${m}`);
      specs.push(`plain-delete:${d}`);
    }
  }
  if (options.parts.includes('chain')) specs.push(`chain:${CHAIN_NODES}`);
  if (options.parts.includes('small')) specs.push('small');

  const results: TaskResult[] = [];
  for (const spec of specs) {
    const r = await spawnTask(spec);
    console.log(`  ${describeTask(r)}`);
    results.push(r);
  }
  console.log(`load average at end: ${loadavg().map((l) => l.toFixed(2)).join(' ')}\n`);

  const problems: string[] = [];
  const goals: string[] = [];
  const mats = results.filter((r): r is MaterialisationResult => r.kind === 'materialise');
  const incs = results.filter((r): r is IncrementalResult => r.kind === 'incremental');
  const chains = results.filter((r): r is ChainResult => r.kind === 'chain');
  const plain = results.filter((r): r is PlainDeleteResult => r.kind === 'plain-delete');

  if (mats.length > 0) {
    console.log('materialisation (reason = rule import incl. commit for quadlog, Reasoner.reason for N3.js; new = triples after − before):');
    console.log(
      table(
        ['data set', 'system', 'load s', 'before', 'after', 'new', 'derived', 'reason s', 'cpu s', 'new triples/s', 'load1'],
        mats.map((r) => [
          DATASET_LABEL[r.dataset],
          r.system,
          secs(r.load),
          num(r.before),
          num(r.after),
          num(newTriples(r)),
          r.derived === undefined ? '' : num(r.derived),
          secs(r.reason),
          r.reason.cpuSeconds.toFixed(3),
          num(rate(r)),
          r.reason.load1.toFixed(2),
        ]),
        ['system'],
      ),
    );
    console.log("  derived = quadlog's countFacts({ factDomain: 'derived' }) (includes explicit facts that are also derived); load1 = 1-min load average at the end of the reasoning");

    for (const r of mats) {
      if (r.expectedNew !== undefined && newTriples(r) !== r.expectedNew) problems.push(`${DATASET_LABEL[r.dataset]} ${r.system}: ${newTriples(r)} new triples, expected ${r.expectedNew}`);
    }
    const pairs = materialised
      .map((d) => ({ d, q: mats.find((r) => r.dataset === d && r.system === 'quadlog'), n: mats.find((r) => r.dataset === d && r.system === 'n3') }))
      .filter((p): p is { d: DatasetName; q: MaterialisationResult; n: MaterialisationResult } => p.q !== undefined && p.n !== undefined);
    if (pairs.length > 0) {
      console.log('\nquadlog vs N3.js Reasoner (speed-up > 1: quadlog faster):');
      console.log(
        table(
          ['data set', 'before q/n3', 'new quadlog', 'new N3.js', 'same', 'quadlog new/s', 'N3.js new/s', 'speed-up (wall)', 'speed-up (cpu)', `goal ≥${GOAL_SPEEDUP}×`, 'load1 q/n3'],
          pairs.map(({ d, q, n }) => {
            const same = newTriples(q) === newTriples(n) && q.before === n.before;
            if (!same) problems.push(`${DATASET_LABEL[d]}: quadlog ${num(q.before)} before / ${num(newTriples(q))} new, N3.js ${num(n.before)} before / ${num(newTriples(n))} new`);
            const speedup = rate(q) / rate(n);
            const ok = speedup >= GOAL_SPEEDUP;
            goals.push(`${DATASET_LABEL[d]}: quadlog ${num(rate(q))} new/s vs N3.js ${num(rate(n))} new/s = ${speedup.toFixed(2)}× (≥ ${GOAL_SPEEDUP}×) → ${ok ? 'PASS' : 'FAIL'}`);
            if (d === 'lubm10') goals.push(`${DATASET_LABEL[d]}: quadlog ${num(rate(q))} new/s (≥ ${num(GOAL_NEW_PER_SECOND)}) → ${rate(q) >= GOAL_NEW_PER_SECOND ? 'PASS' : 'FAIL'} (load1 ${q.reason.load1.toFixed(2)})`);
            return [
              DATASET_LABEL[d],
              `${num(q.before)}/${num(n.before)}`,
              num(newTriples(q)),
              num(newTriples(n)),
              same ? 'yes' : 'NO',
              num(rate(q)),
              num(rate(n)),
              speedup.toFixed(2),
              (n.reason.cpuSeconds / q.reason.cpuSeconds).toFixed(2),
              ok ? 'PASS' : 'FAIL',
              `${q.reason.load1.toFixed(2)}/${n.reason.load1.toFixed(2)}`,
            ];
          }),
        ),
      );
    }
  }

  if (incs.length > 0) {
    console.log(`\nincremental maintenance (sample seed ${SAMPLE_SEED}; ratio = time / the recompute time of the same cycle):`);
    const rows: string[][] = [];
    for (const r of incs) {
      rows.push([`${r.dataset} ${r.mode}`, 'initial materialisation', secs(r.materialise), r.materialise.cpuSeconds.toFixed(3), '', `${num(r.initial.all)}/${num(r.initial.derived)}`, '', r.materialise.load1.toFixed(2)]);
      for (const c of r.cycles) {
        const restored = sameCounts(c.afterAdd, r.initial);
        const recomputed = sameCounts(c.afterRecompute, r.initial);
        if (!restored) problems.push(`${r.dataset} ${r.mode} ${c.percent}%: after re-adding, counts ${JSON.stringify(c.afterAdd)} ≠ before deletion ${JSON.stringify(r.initial)}`);
        if (!recomputed) problems.push(`${r.dataset} ${r.mode} ${c.percent}%: after recompute, counts ${JSON.stringify(c.afterRecompute)} ≠ before deletion ${JSON.stringify(r.initial)}`);
        const ratio = (t: Timing): string => (t.seconds / c.recompute.seconds).toFixed(3);
        const label = `${r.dataset} ${r.mode}`;
        rows.push([label, `delete ${c.percent}% (${num(c.sampled)})`, secs(c.remove), c.remove.cpuSeconds.toFixed(3), ratio(c.remove), `${num(c.afterRemove.all)}/${num(c.afterRemove.derived)}`, '', c.remove.load1.toFixed(2)]);
        rows.push([label, `add back ${c.percent}%`, secs(c.add), c.add.cpuSeconds.toFixed(3), ratio(c.add), `${num(c.afterAdd.all)}/${num(c.afterAdd.derived)}`, restored ? 'yes' : 'NO', c.add.load1.toFixed(2)]);
        rows.push([label, 'recompute', secs(c.recompute), c.recompute.cpuSeconds.toFixed(3), '1.000', `${num(c.afterRecompute.all)}/${num(c.afterRecompute.derived)}`, recomputed ? 'yes' : 'NO', c.recompute.load1.toFixed(2)]);
        const without = plain.find((p) => p.dataset === r.dataset);
        if (c.percent === 1 && without !== undefined) {
          rows.push([label, `delete 1% without rules (${num(without.sampled)})`, secs(without.remove), without.remove.cpuSeconds.toFixed(3), ratio(without.remove), '', '', without.remove.load1.toFixed(2)]);
        }
        if (c.percent === 1) {
          const fraction = c.remove.seconds / c.recompute.seconds;
          goals.push(
            `${r.dataset} ${r.mode}: 1% delete ${secs(c.remove)} s = ${(fraction * 100).toFixed(1)}% of recompute ${secs(c.recompute)} s (≤ ${GOAL_DELETE_FRACTION * 100}%) → ${fraction <= GOAL_DELETE_FRACTION ? 'PASS' : 'FAIL'}`,
          );
        }
      }
    }
    console.log(table(['store', 'operation', 'seconds', 'cpu s', 'ratio', 'all/derived after', 'restored', 'load1'], rows, ['operation']));
    console.log('  restored = all, derived and explicit counts equal those right after the initial materialisation');
    console.log('  without rules = the same 1% sample deleted from a store holding the same triples and no rules (parsing, term lookups, removal), against the same recompute');
  }

  for (const c of chains) {
    console.log(`\nchain closure (${num(c.nodes)} nodes; ratio = time / the recompute):`);
    const ratio = (t: Timing): string => (t.seconds / c.recompute.seconds).toFixed(3);
    console.log(
      table(
        ['operation', 'seconds', 'cpu s', 'ratio', 'all/derived after', 'load1'],
        [
          ['materialise', secs(c.materialise), c.materialise.cpuSeconds.toFixed(3), ratio(c.materialise), `${num(c.initial.all)}/${num(c.initial.derived)}`, c.materialise.load1.toFixed(2)],
          ['delete the middle edge', secs(c.remove), c.remove.cpuSeconds.toFixed(3), ratio(c.remove), `${num(c.afterRemove.all)}/${num(c.afterRemove.derived)}`, c.remove.load1.toFixed(2)],
          ['add it back', secs(c.add), c.add.cpuSeconds.toFixed(3), ratio(c.add), `${num(c.afterAdd.all)}/${num(c.afterAdd.derived)}`, c.add.load1.toFixed(2)],
          ['recompute', secs(c.recompute), c.recompute.cpuSeconds.toFixed(3), '1.000', `${num(c.afterRecompute.all)}/${num(c.afterRecompute.derived)}`, c.recompute.load1.toFixed(2)],
        ],
        ['operation'],
      ),
    );
    if (!sameCounts(c.afterAdd, c.initial)) problems.push(`chain: after re-adding the edge, counts ${JSON.stringify(c.afterAdd)} ≠ ${JSON.stringify(c.initial)}`);
    if (!sameCounts(c.afterRecompute, c.initial)) problems.push(`chain: after the recompute, counts ${JSON.stringify(c.afterRecompute)} ≠ ${JSON.stringify(c.initial)}`);
    const half = (c.nodes / 2) * (c.nodes / 2);
    if (c.initial.all - c.afterRemove.all !== half) problems.push(`chain: deleting the middle edge removed ${c.initial.all - c.afterRemove.all} facts, expected ${half}`);
  }

  reportChecks(goals, problems, 'all counts agree');
}

await main();
