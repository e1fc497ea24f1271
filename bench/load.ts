/**
 * Load benchmark: quadlog vs n3 vs oxigraph (WASM) importing a gzip'd N-Triples file, plus
 * N-Triples export of the loaded store to a null sink.
 *
 * Usage: `npm run bench:load -- [--file <path>] [--runs N] [--no-export] [--oxigraph-input chunks|bytes|string]`
 * (i.e. `node --expose-gc --import tsx bench/load.ts …`; default file
 * test-data/lubm/lubm10.nt.gz, default 1 run).
 *
 * Every measurement runs in its own child process
 * (`node --expose-gc --import tsx bench/load.ts --one <system> <file>`), which prints one
 * JSON line ({@link RunResult}) on stdout, so that heap and external memory of one system
 * never mix with another's. With `--runs N` each system is measured in N fresh children
 * (interleaved: quadlog, n3, oxigraph, quadlog, …) and the fastest load is reported.
 *
 * What is timed (wall clock, from "nothing read" to "every triple is in the store"):
 * - quadlog: `DataStoreConnection.importData('ADD', { path })`, which reads and gunzips the
 *   file itself;
 * - n3: `fs.createReadStream` → `zlib.createGunzip` → `StreamParser` → `Store.addQuad`;
 * - oxigraph: `readFileSync` + `gunzipSync`, then `Store.load(input, { format })` with the
 *   decompressed bytes handed over as an iterable of 1 MiB `Uint8Array` chunks (the
 *   fastest of the inputs `Store.load` accepts, see `--oxigraph-input`; the default
 *   transactional mode, which is faster than `no_transaction: true` here).
 *
 * Memory: `global.gc()` twice, then `process.memoryUsage()`, just before the timed load
 * (after the empty store exists) and again after it (transient input released, the store
 * still reachable). The brief's figure is
 * `Δ(heapUsed + arrayBuffers + external) / triples`; because Node counts `arrayBuffers`
 * inside `external` as well, that figure counts ArrayBuffer memory twice, so the table also
 * shows `Δ(heapUsed + external) / triples`, which counts every byte once. For oxigraph,
 * `external` is dominated by the WASM linear memory, which never shrinks: its delta is the
 * high-water mark of the WASM heap during the load.
 *
 * @module
 */
import { createReadStream, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { pipeline } from 'node:stream/promises';
import { Writable } from 'node:stream';
import { createGunzip, gunzipSync } from 'node:zlib';
import { StreamParser, Store as N3Store, Writer as N3Writer } from 'n3';
import type { Quad } from '@rdfjs/types';
import { Server, ConnectionFactory } from '../lib/index.js';
import { collect, num, runChild, table } from './lib/harness.js';
import { LUBM } from '../spec/helpers/test-data.js';

/** The systems compared, in the order they are run and printed. */
export const SYSTEMS = ['quadlog', 'n3', 'oxigraph'] as const;

/** One of {@link SYSTEMS}. */
export type SystemName = (typeof SYSTEMS)[number];

/** How the decompressed input is handed to oxigraph's `Store.load`. */
export type OxigraphInput = 'chunks' | 'bytes' | 'string';

/** Memory deltas (after load minus before load), in bytes. */
export interface MemoryDelta {
  /** Δ `heapUsed`. */
  readonly heapUsed: number;
  /** Δ `arrayBuffers` (also included in `external`). */
  readonly arrayBuffers: number;
  /** Δ `external` (C++ objects bound to JS, ArrayBuffers and WASM memory). */
  readonly external: number;
  /** Δ `rss` (informational: includes freed memory not returned to the OS). */
  readonly rss: number;
}

/** Timing of an N-Triples export of the loaded store to a null sink. */
export interface ExportResult {
  /** How the export was done. */
  readonly method: string;
  /** Wall-clock seconds. */
  readonly seconds: number;
  /** CPU seconds (user + system, whole process). */
  readonly cpuSeconds: number;
  /** Triples in the store that was exported. */
  readonly triples: number;
  /** UTF-16 code units produced (a sanity check that the sink saw the whole output). */
  readonly chars: number;
}

/** The JSON line a child process prints: one load of one file by one system. */
export interface RunResult {
  /** The system measured. */
  readonly system: SystemName;
  /** The input file. */
  readonly file: string;
  /** How the system was driven. */
  readonly method: string;
  /** Triples in the store after the load. */
  readonly triples: number;
  /** Wall-clock seconds of the load (read + gunzip + parse + insert). */
  readonly seconds: number;
  /** CPU seconds (user + system, all threads of the process) spent during the load. */
  readonly cpuSeconds: number;
  /** Memory deltas of the load. */
  readonly memory: MemoryDelta;
  /** The brief's figure: Δ(heapUsed + arrayBuffers + external) / triples. */
  readonly bytesPerTriple: number;
  /** Δ(heapUsed + external) / triples: the same memory with ArrayBuffers counted once. */
  readonly bytesPerTripleOnce: number;
  /** The export measurement, unless `--no-export`. */
  readonly export?: ExportResult;
}

const DEFAULT_FILE = LUBM.lubm10;
/** Known distinct-triple counts of the shared LUBM files. */
const KNOWN_COUNTS: Readonly<Record<string, number>> = {
  'lubm1.nt.gz': 100_543,
  'lubm10.nt.gz': 1_272_575,
};
const NT = 'application/n-triples';
const OXIGRAPH_CHUNK = 1 << 20;
const GOAL_RATE = 1_000_000;
const GOAL_BYTES = 60;

// ---------------------------------------------------------------- oxigraph typing

/** An oxigraph graph-name term (opaque here). */
interface OxigraphGraphName {
  readonly termType: string;
}

/** The part of oxigraph's `Store` this benchmark uses. */
interface OxigraphStore {
  readonly size: number;
  load(input: string | Uint8Array | Iterable<string | Uint8Array>, options: { readonly format: string; readonly no_transaction?: boolean }): void;
  dump(options: { readonly format: string; readonly from_graph_name?: OxigraphGraphName }): string;
}

/** The part of the `oxigraph` module this benchmark uses. */
interface OxigraphModule {
  readonly Store: new () => OxigraphStore;
  defaultGraph(): OxigraphGraphName;
}

/**
 * oxigraph 0.5.11's node.d.ts does not type-check (`UInt8Array`, an undeclared top-level
 * `function parse`) and this project compiles with `skipLibCheck: false`, so the module is
 * loaded through `require` and typed by the minimal interface above. Only the oxigraph child
 * loads it, so its WASM instance is not in the other systems' memory figures.
 */
function loadOxigraph(): OxigraphModule {
  return createRequire(import.meta.url)('oxigraph') as OxigraphModule;
}

// ---------------------------------------------------------------- measurement helpers

type Usage = NodeJS.MemoryUsage;

function usage(): Usage {
  collect();
  return process.memoryUsage();
}

function delta(before: Usage, after: Usage): MemoryDelta {
  return {
    heapUsed: after.heapUsed - before.heapUsed,
    arrayBuffers: after.arrayBuffers - before.arrayBuffers,
    external: after.external - before.external,
    rss: after.rss - before.rss,
  };
}

function now(): bigint {
  return process.hrtime.bigint();
}

function since(start: bigint): number {
  return Number(now() - start) / 1e9;
}

/** What a system-specific loader hands back to {@link measure}. */
interface Loaded {
  readonly method: string;
  readonly seconds: number;
  readonly triples: number;
  /** Exports the store to a null sink (called after the memory measurement, and timed by the caller). */
  readonly exportNull: () => Promise<{ readonly method: string; readonly chars: number }>;
}

/** Runs `load` between two memory snapshots and builds the {@link RunResult}. */
async function measure(system: SystemName, file: string, withExport: boolean, load: () => Promise<Loaded>): Promise<RunResult> {
  const before = usage();
  const cpu = process.cpuUsage();
  const loaded = await load();
  const cpuUsed = process.cpuUsage(cpu);
  const after = usage();
  const memory = delta(before, after);
  const result: RunResult = {
    system,
    file,
    method: loaded.method,
    triples: loaded.triples,
    seconds: loaded.seconds,
    cpuSeconds: (cpuUsed.user + cpuUsed.system) / 1e6,
    memory,
    bytesPerTriple: (memory.heapUsed + memory.arrayBuffers + memory.external) / loaded.triples,
    bytesPerTripleOnce: (memory.heapUsed + memory.external) / loaded.triples,
  };
  if (!withExport) return result;
  // (The export also keeps the store reachable until after the "after" snapshot.)
  const t = now();
  const c = process.cpuUsage();
  const { method, chars } = await loaded.exportNull();
  const seconds = since(t);
  const used = process.cpuUsage(c);
  return { ...result, export: { method, seconds, cpuSeconds: (used.user + used.system) / 1e6, triples: loaded.triples, chars } };
}

// ---------------------------------------------------------------- the three systems

async function runQuadlog(file: string, withExport: boolean): Promise<RunResult> {
  const server = await Server.create({ roleName: 'admin', password: 'pw' });
  try {
    const sc = await ConnectionFactory.newServerConnection(server.url, 'admin', 'pw');
    sc.createDataStore('bench');
    const ds = sc.newDataStoreConnection('bench');
    return await measure('quadlog', file, withExport, async () => {
      const start = now();
      const r = await ds.importData('ADD', { path: file }, { mediaType: NT });
      const seconds = since(start);
      const triples = await ds.countFacts();
      if (r.changedFacts !== triples) throw new Error(`quadlog: changedFacts ${r.changedFacts} but countFacts ${triples}`);
      return {
        method: "importData('ADD', { path }, { mediaType: 'application/n-triples' })",
        seconds,
        triples,
        exportNull: async () => {
          let chars = 0;
          await ds.exportData((chunk) => {
            chars += chunk.length;
          }, NT);
          return { method: "exportData(() => {}, 'application/n-triples')", chars };
        },
      };
    });
  } finally {
    await server.shutdown();
  }
}

async function runN3(file: string, withExport: boolean): Promise<RunResult> {
  const store = new N3Store();
  return measure('n3', file, withExport, async () => {
    const start = now();
    const parser = new StreamParser({ format: 'N-Triples' });
    const sink = new Writable({
      objectMode: true,
      highWaterMark: 1024,
      write(quad: Quad, _encoding, callback): void {
        store.addQuad(quad);
        callback();
      },
    });
    await pipeline(createReadStream(file, { highWaterMark: 1 << 20 }), createGunzip(), parser, sink);
    const seconds = since(start);
    const triples = store.size;
    return {
      method: 'createReadStream → createGunzip → StreamParser → Store.addQuad',
      seconds,
      triples,
      exportNull: () => {
        const writer = new N3Writer({ format: 'N-Triples' });
        let chars = 0;
        for (const q of store.readQuads(null, null, null, null)) chars += writer.quadToString(q.subject, q.predicate, q.object, q.graph).length;
        return Promise.resolve({ method: 'Writer.quadToString over Store.readQuads', chars });
      },
    };
  });
}

/** Yields `bytes` in slices of at most `size` bytes (views, no copies). */
function* slices(bytes: Uint8Array, size: number): Generator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, Math.min(bytes.length, i + size));
}

async function runOxigraph(file: string, withExport: boolean, input: OxigraphInput): Promise<RunResult> {
  const oxigraph = loadOxigraph();
  const store = new oxigraph.Store();
  return measure('oxigraph', file, withExport, () => {
    const start = now();
    // Scoped so that the decompressed input is unreachable before the "after" snapshot.
    (() => {
      const bytes = gunzipSync(readFileSync(file));
      if (input === 'chunks') store.load(slices(bytes, OXIGRAPH_CHUNK), { format: NT });
      else if (input === 'bytes') store.load(bytes, { format: NT });
      else store.load(bytes.toString('utf8'), { format: NT });
    })();
    const seconds = since(start);
    const triples = store.size;
    const how = { chunks: 'an iterable of 1 MiB Uint8Array chunks', bytes: 'one Uint8Array', string: 'one string' }[input];
    return Promise.resolve({
      method: `readFileSync + gunzipSync, Store.load(${how}, { format: 'application/n-triples' })`,
      seconds,
      triples,
      exportNull: () => {
        const text = store.dump({ format: NT, from_graph_name: oxigraph.defaultGraph() });
        return Promise.resolve({ method: "Store.dump({ format: 'application/n-triples' }) (one string)", chars: text.length });
      },
    });
  });
}

/** Child mode: measures one system and prints its {@link RunResult} as one JSON line. */
async function runOne(system: string, file: string, withExport: boolean, input: OxigraphInput): Promise<void> {
  let result: RunResult;
  if (system === 'quadlog') result = await runQuadlog(file, withExport);
  else if (system === 'n3') result = await runN3(file, withExport);
  else if (system === 'oxigraph') result = await runOxigraph(file, withExport, input);
  else throw new Error(`unknown system '${system}' (expected ${SYSTEMS.join(', ')})`);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

// ---------------------------------------------------------------- parent mode

/** Spawns a child measuring `system` and parses the JSON line it prints. */
function spawnOne(system: SystemName, file: string, withExport: boolean, input: OxigraphInput): Promise<RunResult> {
  const args = ['--one', system, file, '--oxigraph-input', input];
  if (!withExport) args.push('--no-export');
  return runChild<RunResult>(fileURLToPath(import.meta.url), args, system);
}

interface Options {
  readonly file: string;
  readonly runs: number;
  readonly withExport: boolean;
  readonly oxigraphInput: OxigraphInput;
  readonly one: { readonly system: string; readonly file: string } | undefined;
}

function parseArgs(argv: readonly string[]): Options {
  let file = DEFAULT_FILE;
  let runs = 1;
  let withExport = true;
  let oxigraphInput: OxigraphInput = 'chunks';
  let one: Options['one'];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--file') file = value();
    else if (a === '--runs') runs = Number(value());
    else if (a === '--no-export') withExport = false;
    else if (a === '--oxigraph-input') {
      const v = value();
      if (v !== 'chunks' && v !== 'bytes' && v !== 'string') throw new Error(`--oxigraph-input: expected chunks, bytes or string, got '${v}'`);
      oxigraphInput = v;
    } else if (a === '--one') one = { system: value(), file: value() };
    else throw new Error(`unknown argument '${a}'`);
  }
  if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs must be a positive integer');
  return { file, runs, withExport, oxigraphInput, one };
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  if (options.one) {
    await runOne(options.one.system, options.one.file, options.withExport, options.oxigraphInput);
    return;
  }
  const { file, runs, withExport, oxigraphInput } = options;
  const cpu = cpus();
  console.log(`input: ${file}, runs: ${runs} (best load time reported; each run is a fresh child process per system)`);
  console.log(`node ${process.version}, ${cpu.length} × ${cpu[0]?.model ?? '?'}, load average at start ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);

  const results = new Map<SystemName, RunResult[]>(SYSTEMS.map((s) => [s, []]));
  for (let run = 1; run <= runs; run++) {
    for (const system of SYSTEMS) {
      const r = await spawnOne(system, file, withExport, oxigraphInput);
      results.get(system)!.push(r);
      console.log(
        `  run ${run} ${system.padEnd(8)} ${r.seconds.toFixed(3)} s (cpu ${r.cpuSeconds.toFixed(3)} s)  ${num(r.triples / r.seconds)} triples/s  ` +
          `${r.bytesPerTriple.toFixed(1)} B/triple (once: ${r.bytesPerTripleOnce.toFixed(1)})` +
          (r.export ? `  export ${r.export.seconds.toFixed(3)} s` : ''),
      );
    }
  }
  console.log(`load average at end ${loadavg().map((l) => l.toFixed(2)).join(' ')}\n`);

  const best = new Map<SystemName, RunResult>();
  for (const [system, rs] of results) best.set(system, rs.reduce((a, b) => (b.seconds < a.seconds ? b : a)));

  // Every system must hold the same triples (and the known count, for the shared files).
  const known = KNOWN_COUNTS[file.split('/').pop() ?? ''];
  const expected = known ?? best.get('quadlog')!.triples;
  let countsOk = true;
  for (const rs of results.values()) {
    for (const r of rs) {
      if (r.triples !== expected) {
        console.error(`COUNT MISMATCH: ${r.system} has ${r.triples} triples, expected ${expected}`);
        countsOk = false;
      }
    }
  }
  console.log(`triple count: ${num(expected)}${known !== undefined ? ' (the known count of this file)' : ''}: ${countsOk ? 'all systems agree' : 'MISMATCH'}\n`);

  console.log('load (read + gunzip + parse + insert):');
  console.log(
    table(
      ['system', 'seconds', 'cpu s', 'triples/s', 'B/triple', 'B/triple once', 'Δheap MB', 'Δexternal MB', 'Δrss MB'],
      SYSTEMS.map((s) => {
        const r = best.get(s)!;
        const mb = (b: number): string => (b / 1e6).toFixed(1);
        return [s, r.seconds.toFixed(3), r.cpuSeconds.toFixed(3), num(r.triples / r.seconds), r.bytesPerTriple.toFixed(1), r.bytesPerTripleOnce.toFixed(1), mb(r.memory.heapUsed), mb(r.memory.external), mb(r.memory.rss)];
      }),
    ),
  );
  console.log('  B/triple = Δ(heapUsed + arrayBuffers + external) / triples (as specified; counts ArrayBuffers twice, since external includes arrayBuffers)');
  console.log('  B/triple once = Δ(heapUsed + external) / triples (every byte once)');
  console.log('  cpu s = user + system CPU seconds of the whole child process during the load (all threads, GC included)');
  for (const s of SYSTEMS) console.log(`  ${s}: ${best.get(s)!.method}`);

  const q = best.get('quadlog')!;
  const qRate = q.triples / q.seconds;
  console.log('\nquadlog vs peers (speed: >1 means quadlog is faster; memory: <1 means quadlog is smaller):');
  const bestCpu = (s: SystemName): number => Math.min(...results.get(s)!.map((r) => r.cpuSeconds));
  console.log(
    table(
      ['peer', 'speed × (wall)', 'speed × (cpu)', 'B/triple ×', 'B/triple once ×'],
      SYSTEMS.filter((s) => s !== 'quadlog').map((s) => {
        const p = best.get(s)!;
        return [
          s,
          (qRate / (p.triples / p.seconds)).toFixed(2),
          (bestCpu(s) / bestCpu('quadlog')).toFixed(2),
          (q.bytesPerTriple / p.bytesPerTriple).toFixed(2),
          (q.bytesPerTripleOnce / p.bytesPerTripleOnce).toFixed(2),
        ];
      }),
    ),
  );
  console.log('  speed × (wall) compares the best wall-clock load times; speed × (cpu) the lowest CPU seconds of each system (less sensitive to a busy machine)');

  if (withExport) {
    console.log(`\nexport as N-Triples to a null sink (fastest of ${runs} run${runs > 1 ? 's' : ''} per system):`);
    console.log(
      table(
        ['system', 'seconds', 'cpu s', 'triples/s', 'MB/s', 'method'],
        SYSTEMS.map((s) => {
          const e = results
            .get(s)!
            .map((r) => r.export!)
            .reduce((a, b) => (b.seconds < a.seconds ? b : a));
          return [s, e.seconds.toFixed(3), e.cpuSeconds.toFixed(3), num(e.triples / e.seconds), (e.chars / 1e6 / e.seconds).toFixed(1), e.method];
        }),
        ['method'],
      ),
    );
    console.log('  MB/s counts UTF-16 code units of output (= bytes here: the LUBM files are ASCII)');
  }

  const rateOk = qRate >= GOAL_RATE;
  const bytesOk = q.bytesPerTriple <= GOAL_BYTES;
  const bytesOnceOk = q.bytesPerTripleOnce <= GOAL_BYTES;
  console.log('\ngoal check (quadlog):');
  console.log(`  load rate ≥ ${num(GOAL_RATE)} triples/s: ${num(qRate)} → ${rateOk ? 'PASS' : 'FAIL'}`);
  console.log(`  memory ≤ ${GOAL_BYTES} B/triple (as specified): ${q.bytesPerTriple.toFixed(1)} → ${bytesOk ? 'PASS' : 'FAIL'}`);
  console.log(`  memory ≤ ${GOAL_BYTES} B/triple (counted once): ${q.bytesPerTripleOnce.toFixed(1)} → ${bytesOnceOk ? 'PASS' : 'FAIL'}`);
  if (!countsOk) process.exitCode = 1;
}

await main();
