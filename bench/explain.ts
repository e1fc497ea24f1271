/**
 * Explanation benchmark: LUBM(10) (or LUBM(1) with `--dataset lubm1`) materialised under the
 * Univ-Bench axioms (data first, then `univ-bench.ttl` and `importAxiomsFromTriples()`, as
 * `bench/owl.ts` does), then 1,000 derived facts, sampled with a fixed seed among the derived
 * facts of the default graph, are each explained with `DataStoreConnection.explain` (type
 * `shortest`, the default); each call is timed on its own (`process.hrtime`), after 200 other
 * derived facts were explained untimed (the rules' compilation and the JIT's warm-up). The
 * same facts are explained a second time (lookups a first pass made the tables build a pair
 * index for, and other one-time costs, are then paid), for reference. The same facts
 * are then explained with `to-explicit` (for reference only).
 *
 * Usage: `npm run bench:explain -- [--dataset lubm1|lubm10] [--facts <n>]`.
 *
 * Figures: median, 99th percentile and maximum milliseconds per explanation, the mean
 * number of facts per answer, the garbage collector's pauses during the timed calls (their
 * number and milliseconds: each pause falls in one call), and the load average at the end. Goals (reported): median under 1 ms and 99th percentile under
 * 10 ms for `shortest`. A sampled fact whose explanation is not `derived`, or whose shortest
 * proof is missing, makes the process exit with code 1.
 * @module
 */
import { loadavg } from 'node:os';
import { PerformanceObserver } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type { DataStoreConnection, ExplanationType, Server } from '../lib/index.js';
import { DERIVED, EXPLICIT } from '../lib/storage/tuple-table.js';
import { DEFAULT_TRIPLES_ID } from '../lib/storage/fact-store.js';
import { checkImport, collect, num, reportChecks, table, timed, withStore } from './lib/harness.js';
import { LUBM_FILES, LUBM_ONTOLOGY, sample, seededRandom } from './lib/reason-fixtures.js';

/** Goal: median milliseconds of a shortest explanation. */
export const GOAL_MEDIAN_MS = 1;
/** Goal: 99th percentile milliseconds of a shortest explanation. */
export const GOAL_P99_MS = 10;
/** Derived facts explained before the timed ones (not timed), other than those. */
export const WARM_UP = 200;
/** Seed of the sampler of derived facts. */
export const SAMPLE_SEED = 20261124;

/** The derived (not explicit) facts of the default graph, as Datalog text, read through the store internals. */
function derivedFacts(server: Server): string[] {
  const store = server.dataStore('bench');
  const state = store.facts.committed;
  const t = state.table(DEFAULT_TRIPLES_ID);
  const view = state.view(DEFAULT_TRIPLES_ID);
  const key = (id: number): string => store.facts.dictionary.keyOf(id);
  const out: string[] = [];
  for (let row = 0; row < view.limit; row++) {
    if (!t.visible(row, view)) continue;
    const s = t.statusOf(row);
    if ((s & DERIVED) === 0 || (s & EXPLICIT) !== 0) continue;
    out.push(`[${key(t.get(row, 0))}, ${key(t.get(row, 1))}, ${key(t.get(row, 2))}]`);
  }
  return out;
}

/** The value at quantile `q` of sorted numbers. */
function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}

/** Garbage collection pauses seen so far: start (performance.now() milliseconds) and duration. */
const gcPauses: Array<readonly [number, number]> = [];

/** Explains each fact, timing each call; returns the sorted milliseconds, the collector's pauses during the timed calls (number and milliseconds), and problems found. */
async function explainAll(ds: DataStoreConnection, facts: readonly string[], warmUp: readonly string[], type: ExplanationType): Promise<{ ms: number[]; size: number; gc: { count: number; ms: number }; problems: string[] }> {
  const ms: number[] = [];
  const problems: string[] = [];
  let size = 0;
  // other facts first, so that the rules' compilation and the JIT's warm-up are not timed
  for (const f of warmUp) await ds.explain(f, { type });
  const from = performance.now();
  for (const fact of facts) {
    const start = process.hrtime.bigint();
    const e = await ds.explain(fact, { type });
    ms.push(Number(process.hrtime.bigint() - start) / 1e6);
    size += e.facts.size;
    if (e.root.type !== 'derived' || e.root.shortestProofRuleInstance === null) problems.push(`${type} ${fact}: ${e.root.type}, no shortest proof`);
  }
  const to = performance.now();
  // the observer hears of pauses asynchronously
  await new Promise((resolve) => setTimeout(resolve, 20));
  const pauses = gcPauses.filter(([start]) => start >= from && start < to);
  ms.sort((a, b) => a - b);
  return { ms, size: size / facts.length, gc: { count: pauses.length, ms: pauses.reduce((t, [, d]) => t + d, 0) }, problems };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { dataset: { type: 'string', default: 'lubm10' }, facts: { type: 'string', default: '1000' } } });
  const dataset = values.dataset as 'lubm1' | 'lubm10';
  if (!(dataset in LUBM_FILES)) throw new Error(`unknown data set '${dataset}' (lubm1 or lubm10)`);
  const n = Number(values.facts);
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) gcPauses.push([e.startTime, e.duration]);
  });
  observer.observe({ entryTypes: ['gc'] });
  await withStore({}, async (ds, server) => {
    const load = await timed('load', () => checkImport(`${dataset} import`, ds.importData('ADD', { path: LUBM_FILES[dataset] }, { mediaType: 'application/n-triples' })));
    await checkImport('ontology import', ds.importData('ADD', { path: LUBM_ONTOLOGY }));
    const mat = await timed('importAxiomsFromTriples', () => checkImport('importAxiomsFromTriples', ds.importAxiomsFromTriples()));
    const derived = derivedFacts(server);
    const picked = sample(derived, Math.min(n + WARM_UP, derived.length), seededRandom(SAMPLE_SEED));
    const facts = picked.slice(0, n);
    const warmUp = picked.slice(n);
    collect();
    console.log(`${dataset}: load ${num(load.timing.seconds, 1)} s, materialisation ${num(mat.timing.seconds, 1)} s, ${derived.length} derived facts in the default graph; explaining ${facts.length}`);
    const rows: string[][] = [];
    const problems: string[] = [];
    const goals: string[] = [];
    for (const type of ['shortest', 'shortest (again)', 'to-explicit'] as const) {
      const r = await explainAll(ds, facts, type === 'shortest (again)' ? [] : warmUp, type === 'shortest (again)' ? 'shortest' : type);
      problems.push(...r.problems);
      const median = quantile(r.ms, 0.5);
      const p99 = quantile(r.ms, 0.99);
      rows.push([type, num(median, 3), num(p99, 3), num(r.ms.at(-1)!, 3), num(r.size, 1), `${r.gc.count} (${num(r.gc.ms, 1)} ms)`]);
      if (type === 'shortest') {
        goals.push(`shortest: median ${num(median, 3)} ms (goal < ${GOAL_MEDIAN_MS} ms): ${median < GOAL_MEDIAN_MS ? 'met' : 'missed'}`);
        goals.push(`shortest: p99 ${num(p99, 3)} ms (goal < ${GOAL_P99_MS} ms): ${p99 < GOAL_P99_MS ? 'met' : 'missed'}`);
      }
      if (type === 'shortest (again)') goals.push(`shortest, the same facts again: median ${num(median, 3)} ms, p99 ${num(p99, 3)} ms (for reference)`);
    }
    console.log(table(['type', 'median ms', 'p99 ms', 'max ms', 'facts per answer', 'GC pauses'], rows, ['type']));
    // timings on a shared machine: the load average says how busy it was
    console.log(`load average (1, 5, 15 min) after the runs: ${loadavg().map((l) => num(l, 2)).join(', ')}`);
    reportChecks(goals, problems.slice(0, 20), `every sampled fact was explained as derived, with a shortest proof`);
  });
  observer.disconnect();
}

await main();
