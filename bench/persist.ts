/**
 * Persistence benchmark (`npm run bench:persist`): what `persistence=file` costs and how
 * fast a persistent server restarts.
 *
 * Usage: `npm run bench:persist -- [--only load|tx|restart|compact[,…]] [--dir DIR] [--dataset lubm1|lubm10] [--transactions N] [--rounds N]`.
 * The server directories are made under `--dir` (default: the system's temporary directory;
 * its file system decides what a flush costs) and removed afterwards.
 *
 * Parts:
 * - **load**: LUBM(10) plus the Univ-Bench ontology imported into a store with
 *   `persistence=off` and into one with `persistence=file` (durable commits), in this run,
 *   alternately, twice each; the faster time of each and the ratio file/off (goal ≤ 1.3). Then the RDFS rules are added to
 *   the persistent store (materialisation, logged as one record), it is compacted (a
 *   snapshot holding explicit and derived facts), and the bytes on disk per explicit triple
 *   and per fact are reported.
 * - **restart**: a child process opens that server directory and answers a first query; the
 *   time from `Server.create` to the answer (goal < 1 s) and the child's whole wall time.
 * - **tx**: one-triple transactions (`importData` of one new triple each) on a small store,
 *   with `persistence-durability=sync` and `relaxed`: transactions per second.
 * - **compact**: the materialised store of `load` (or a new one, when `load` is not run) is
 *   given one new triple and its files compacted, `--rounds` times (default 5); for each round
 *   the time the store's write lock is held during the files' compaction (the longest hold,
 *   read by wrapping the internal fact store's lock calls), the whole compaction, a one-triple
 *   write started as the compaction starts (how long a writer waits) and the longest the event
 *   loop was blocked meanwhile; medians over the rounds.
 *
 * Times are wall clock (`performance.now()`); the one-minute load average is printed with
 * the figures (the machine may be shared).
 * @module
 */
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ConnectionFactory, type DataStoreConnection, Server } from '../lib/index.js';
import { checkImport, chosen, num, runChild, table } from './lib/harness.js';
import { LUBM_FILES, LUBM_ONTOLOGY, RDFS_DATALOG } from './lib/reason-fixtures.js';

const PARTS = ['load', 'restart', 'tx', 'compact'] as const;
const NT = 'application/n-triples';
const DATALOG = 'application/x.datalog';
const SCRIPT = fileURLToPath(import.meta.url);
const FIRST_QUERY = 'SELECT ?x WHERE { ?x a <http://swat.cse.lehigh.edu/onto/univ-bench.owl#Person> } LIMIT 1';

function serverOptions(directory: string | undefined, durability = 'sync'): Parameters<typeof Server.create>[0] {
  return {
    roleName: 'admin',
    password: 'pw',
    parameters: { 'password-hashing': 'fast', ...(directory === undefined ? {} : { persistence: 'file', 'server-directory': directory, 'persistence-durability': durability }) },
  };
}

async function open(server: Server, name: string, parameters: Readonly<Record<string, string>> = {}): Promise<DataStoreConnection> {
  const sc = await ConnectionFactory.newServerConnection(server.url, 'admin', 'pw');
  if (!sc.listDataStores().includes(name)) sc.createDataStore(name, undefined, parameters);
  return sc.newDataStoreConnection(name);
}

async function bytesUnder(path: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(path, { withFileTypes: true })) {
    const p = join(path, entry.name);
    total += entry.isDirectory() ? await bytesUnder(p) : (await stat(p)).size;
  }
  return total;
}

async function load(ds: DataStoreConnection, file: string): Promise<number> {
  const start = performance.now();
  await checkImport('LUBM import', ds.importData('ADD', { path: file }, { mediaType: NT }));
  await checkImport('ontology import', ds.importData('ADD', { path: LUBM_ONTOLOGY }));
  return (performance.now() - start) / 1000;
}

interface RestartResult {
  readonly openMs: number;
  readonly firstQueryMs: number;
  readonly facts: number;
}

/** The child of the restart part: opens the directory, answers the first query. */
async function restartTask(directory: string): Promise<void> {
  const start = performance.now();
  const server = await Server.create(serverOptions(directory));
  const opened = performance.now();
  const ds = await open(server, 'lubm');
  const answer = await ds.evaluateQuery(FIRST_QUERY);
  const answered = performance.now();
  if (answer.type !== 'bindings' || answer.rows.length !== 1) throw new Error('the first query found no person');
  const facts = await ds.countFacts();
  await server.shutdown();
  const result: RestartResult = { openMs: opened - start, firstQueryMs: answered - start, facts };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

async function transactions(root: string, durability: string, count: number): Promise<number> {
  const directory = await mkdtemp(join(root, `tx-${durability}-`));
  const server = await Server.create(serverOptions(directory, durability));
  try {
    const ds = await open(server, 'tx');
    await ds.importData('ADD', '<http://e/warm> <http://e/p> "0" .');
    const start = performance.now();
    for (let i = 0; i < count; i++) await ds.importData('ADD', `<http://e/s${i}> <http://e/p> "${i}" .`, { mediaType: NT });
    return count / ((performance.now() - start) / 1000);
  } finally {
    await server.shutdown();
    await rm(directory, { recursive: true, force: true });
  }
}

interface CompactionRound {
  /** The longest time the write lock was held during the files' compaction. */
  readonly lockMs: number;
  /** The whole compaction of the files. */
  readonly totalMs: number;
  /** A one-triple write started together with the compaction, to its commit. */
  readonly writeMs: number;
  /** The longest the event loop was blocked during the compaction. */
  readonly loopMs: number;
}

/**
 * Times the write lock's holds on a store's fact store: wraps the instance's `beginWrite` and
 * the private `finish` every commit, rollback and catalogue change ends in (internal: a
 * benchmark may look inside). Returns the holds recorded, in milliseconds, and a stop function.
 */
function watchLock(server: Server, name: string): { readonly holds: number[]; readonly stop: () => void } {
  const facts = server.dataStore(name).facts as unknown as { beginWrite: (t: number) => Promise<unknown>; finish: (tx: unknown) => void };
  const begin = facts.beginWrite;
  const finish = facts.finish;
  const holds: number[] = [];
  let since = 0;
  facts.beginWrite = async (t: number) => {
    const tx = await begin.call(facts, t);
    since = performance.now();
    return tx;
  };
  facts.finish = (tx: unknown) => {
    holds.push(performance.now() - since);
    finish.call(facts, tx);
  };
  const stop = (): void => {
    // the wrappers are own properties of the instance: deleting them uncovers the class's methods
    const own = facts as Partial<typeof facts>;
    delete own.beginWrite;
    delete own.finish;
  };
  return { holds, stop };
}

async function compactRounds(server: Server, ds: DataStoreConnection, name: string, rounds: number): Promise<CompactionRound[]> {
  const files = await server.dataStore(name).persistence!.files;
  const out: CompactionRound[] = [];
  for (let round = 0; round < rounds; round++) {
    await ds.importData('ADD', `<http://e/round${round}> <http://e/p> "${round}" .`, { mediaType: NT });
    const watch = watchLock(server, name);
    const loop = monitorEventLoopDelay({ resolution: 1 });
    loop.enable();
    try {
      const start = performance.now();
      const compaction = files.compact(server.dataStore(name), 60_000).then(() => performance.now() - start);
      // the write starts once the compaction has taken the lock (its first step is synchronous up to the lock)
      await new Promise<void>((resolve) => setImmediate(resolve));
      const writeStart = performance.now();
      await ds.importData('ADD', `<http://e/probe${round}> <http://e/p> "${round}" .`, { mediaType: NT });
      const writeMs = performance.now() - writeStart;
      const totalMs = await compaction;
      loop.disable();
      // the first hold is the compaction's (the probe write's own hold follows it)
      out.push({ lockMs: watch.holds[0] ?? 0, totalMs, writeMs, loopMs: loop.max / 1e6 });
    } finally {
      watch.stop();
    }
  }
  return out;
}

const median = (values: readonly number[]): number => {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length === 0 ? NaN : s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { only: { type: 'string', multiple: true }, dir: { type: 'string' }, dataset: { type: 'string' }, transactions: { type: 'string' }, rounds: { type: 'string' }, task: { type: 'string' } },
    strict: true,
  });
  if (values.task !== undefined) return restartTask(values.task);
  const parts = chosen(values.only?.flatMap((v) => v.split(',')), PARTS, '--only');
  const dataset = (values.dataset ?? 'lubm10') as keyof typeof LUBM_FILES;
  if (!(dataset in LUBM_FILES)) throw new Error(`unknown --dataset '${dataset}' (lubm1 or lubm10)`);
  const count = Number(values.transactions ?? '300');
  const root = await mkdtemp(join(values.dir ?? tmpdir(), 'quadlog-bench-persist-'));
  const rows: string[][] = [];
  try {
    const directory = join(root, 'server');
    if (parts.includes('load') || parts.includes('restart') || parts.includes('compact')) {
      // off and file alternate, twice each, and the faster run of each counts: the machine may be shared
      let off = Infinity;
      let file = Infinity;
      let server: Server | undefined;
      let ds: DataStoreConnection | undefined;
      // without the load part, one persistent load makes the store that the others measure
      const measureLoad = parts.includes('load');
      for (let round = 0; round < (measureLoad ? 2 : 1); round++) {
        if (measureLoad) {
          const memory = await Server.create(serverOptions(undefined));
          off = Math.min(off, await load(await open(memory, 'lubm'), LUBM_FILES[dataset]));
          await memory.shutdown();
        }
        if (server !== undefined) await server.shutdown();
        await rm(directory, { recursive: true, force: true });
        server = await Server.create(serverOptions(directory));
        ds = await open(server, 'lubm');
        file = Math.min(file, await load(ds, LUBM_FILES[dataset]));
      }
      if (server === undefined || ds === undefined) throw new Error('no run');
      const explicit = await ds.countFacts({ factDomain: 'explicit' });
      const logBytes = await bytesUnder(directory);
      let start = performance.now();
      await checkImport('rule import', ds.importData('ADD', RDFS_DATALOG, { mediaType: DATALOG }));
      const reason = (performance.now() - start) / 1000;
      const all = await ds.countFacts();
      start = performance.now();
      await ds.compact();
      const compact = (performance.now() - start) / 1000;
      if (parts.includes('compact')) {
        const r = await compactRounds(server, ds, 'lubm', Number(values.rounds ?? '5'));
        const of = (f: (x: CompactionRound) => number): string => `${num(median(r.map(f)))} ms (${r.map((x) => num(f(x))).join(', ')})`;
        rows.push(
          [`compaction of ${dataset}'s files: write lock held (median of ${r.length})`, of((x) => x.lockMs)],
          ['compaction of the files: whole', of((x) => x.totalMs)],
          ['compaction: a write started with it waits', of((x) => x.writeMs)],
          ['compaction: longest event-loop block', of((x) => x.loopMs)],
        );
      }
      await server.shutdown();
      const snapshotBytes = await bytesUnder(directory);
      if (measureLoad) rows.push([`${dataset} load, persistence=off`, `${num(off, 2)} s`], [`${dataset} load, persistence=file (sync)`, `${num(file, 2)} s (${num(file / off, 2)}× off; goal ≤ 1.3×)`]);
      rows.push(
        ['bytes on disk after the load (log only)', `${num(logBytes)} (${num(logBytes / explicit, 1)} per explicit triple, ${num(explicit)} triples)`],
        ['RDFS materialisation (logged)', `${num(reason, 2)} s, ${num(all)} facts`],
        ['compact (snapshot with derived facts)', `${num(compact, 2)} s`],
        ['bytes on disk after compact', `${num(snapshotBytes)} (${num(snapshotBytes / explicit, 1)} per explicit triple, ${num(snapshotBytes / all, 1)} per fact)`],
      );
      if (parts.includes('restart')) {
        const wall = performance.now();
        const r = await runChild<RestartResult>(SCRIPT, ['--task', directory], 'restart', []);
        rows.push(
          [`restart of materialised ${dataset} (${num(r.facts)} facts): open`, `${num(r.openMs)} ms`],
          ['restart: Server.create to first query answered', `${num(r.firstQueryMs)} ms (goal < 1000 ms)`],
          ['restart: child process wall time (node + tsx start-up included)', `${num(performance.now() - wall)} ms`],
        );
      }
    }
    if (parts.includes('tx')) {
      for (const durability of ['sync', 'relaxed']) rows.push([`one-triple transactions/s, ${durability}`, num(await transactions(root, durability, durability === 'sync' ? count : count * 4))]);
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
  process.stdout.write(`${table(['measure', 'value'], rows, ['measure'])}\nload average (1 min): ${num(loadavg()[0] ?? 0, 2)}\n`);
}

await main();
