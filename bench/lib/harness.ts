/**
 * Measurement harness shared by the benchmarks (`bench/load.ts`, `bench/reason.ts`,
 * `bench/owl.ts`): forced GCs, timed spans (wall, CPU and load average), quadlog store
 * helpers, the child-process runner (one JSON line on stdout per child) and table formatting.
 * @module
 */
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { Server, ConnectionFactory, type DataStoreConnection, ImportError, type ImportResult } from '../../lib/index.js';

// ---------------------------------------------------------------- arguments

/**
 * The members of `all` a repeatable, comma-separated option names (in the order of `all`), or
 * all of them when it was not given; an unknown name fails, naming the option.
 */
export function chosen<T extends string>(values: readonly string[] | undefined, all: readonly T[], option: string): readonly T[] {
  if (values === undefined || values.length === 0) return all;
  const names = new Set(values.flatMap((v) => v.split(',')));
  for (const n of names) if (!(all as readonly string[]).includes(n)) throw new Error(`${option}: unknown '${n}' (expected ${all.join(', ')})`);
  return all.filter((a) => names.has(a));
}

// ---------------------------------------------------------------- measurement

/** Forces two full GCs (the process must run with `--expose-gc`). */
export function collect(): void {
  const gc = globalThis.gc;
  if (!gc) throw new Error('run with node --expose-gc');
  gc();
  gc();
}

/** V8's heap in use and the memory outside it that JavaScript objects own, in bytes. */
export interface HeapAndExternal {
  /** `process.memoryUsage().heapUsed`. */
  readonly heapUsed: number;
  /** `process.memoryUsage().external` (array buffers and WebAssembly memory included). */
  readonly external: number;
}

/** What a measured span added to the heap and outside it, and per fact. */
export interface Memory extends HeapAndExternal {
  /** (Δ heapUsed + Δ external) / facts. */
  readonly bytesPerFact: number;
}

/** heapUsed + external after two forced GCs. */
export function heapAndExternal(): HeapAndExternal {
  collect();
  const m = process.memoryUsage();
  return { heapUsed: m.heapUsed, external: m.external };
}

/** The growth of heapUsed and external since `before` (after two forced GCs), and per fact of `facts`. */
export function memorySince(before: HeapAndExternal, facts: number): Memory {
  const after = heapAndExternal();
  const heapUsed = after.heapUsed - before.heapUsed;
  const external = after.external - before.external;
  return { heapUsed, external, bytesPerFact: (heapUsed + external) / facts };
}

/** A timed span: wall and CPU seconds, and the one-minute load average at its end. */
export interface Timing {
  /** Wall-clock seconds. */
  readonly seconds: number;
  /** User + system CPU seconds of the process over the span. */
  readonly cpuSeconds: number;
  /** One-minute load average when the span ended. */
  readonly load1: number;
}

/**
 * With `BENCH_MARKS=1` (or `REASON_BENCH_MARKS=1`) in the environment, every timed span is
 * also written to stderr as `mark <label> <start µs> <end µs>` (process.hrtime, the clock of
 * `--cpu-prof` timestamps), so that a CPU profile can be cut to one span.
 */
const MARKS = process.env['BENCH_MARKS'] === '1' || process.env['REASON_BENCH_MARKS'] === '1';

/** Runs `fn` after two forced GCs and returns its value with wall and CPU time. */
export async function timed<T>(label: string, fn: () => Promise<T> | T): Promise<{ readonly value: T; readonly timing: Timing }> {
  collect();
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  const value = await fn();
  const end = process.hrtime.bigint();
  const seconds = Number(end - start) / 1e9;
  const used = process.cpuUsage(cpu);
  if (MARKS) process.stderr.write(`mark ${label} ${start / 1000n} ${end / 1000n}\n`);
  return { value, timing: { seconds, cpuSeconds: (used.user + used.system) / 1e6, load1: loadavg()[0] ?? 0 } };
}

// ---------------------------------------------------------------- quadlog stores

/**
 * Awaits an import, naming it when it fails: an import with errors rejects with ImportError,
 * whose result text (every notification row) is added to the message.
 */
export async function checkImport(what: string, pending: Promise<ImportResult>): Promise<ImportResult> {
  try {
    return await pending;
  } catch (e) {
    if (e instanceof ImportError) throw new Error(`${what}: ${e.message}\n${e.result.text}`, { cause: e });
    throw e;
  }
}

/** Fact counts of a quadlog store. */
export interface Counts {
  /** `countFacts()`. */
  readonly all: number;
  /** `countFacts({ factDomain: 'derived' })`. */
  readonly derived: number;
  /** `countFacts({ factDomain: 'explicit' })`. */
  readonly explicit: number;
}

/** The {@link Counts} of the store `ds` is connected to. */
export async function counts(ds: DataStoreConnection): Promise<Counts> {
  return { all: await ds.countFacts(), derived: await ds.countFacts({ factDomain: 'derived' }), explicit: await ds.countFacts({ factDomain: 'explicit' }) };
}

/** Whether two {@link Counts} are equal. */
export function sameCounts(a: Counts, b: Counts): boolean {
  return a.all === b.all && a.derived === b.derived && a.explicit === b.explicit;
}

/**
 * Starts a server and a fresh store (named `bench`), runs `fn` on a connection to it (and the
 * server, for benchmarks that look inside the store), and shuts the server down.
 */
export async function withStore<T>(parameters: Readonly<Record<string, string>>, fn: (ds: DataStoreConnection, server: Server) => Promise<T>): Promise<T> {
  const server = await Server.create({ roleName: 'admin', password: 'pw' });
  try {
    const sc = await ConnectionFactory.newServerConnection(server.url, 'admin', 'pw');
    sc.createDataStore('bench', undefined, parameters);
    const ds = sc.newDataStoreConnection('bench');
    try {
      return await fn(ds, server);
    } finally {
      ds.close();
      sc.close();
    }
  } finally {
    await server.shutdown();
  }
}

// ---------------------------------------------------------------- child processes

/**
 * Runs `node <nodeArgs> --import tsx <script> <args>` and parses the last line of its stdout
 * that starts with `{` as JSON (stderr is inherited). Fails when the child exits with a
 * non-zero code or prints no such line; `label` names the child in the error.
 */
export function runChild<T>(script: string, args: readonly string[], label: string, nodeArgs: readonly string[] = ['--expose-gc']): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', script, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (s: string) => {
      out += s;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const line = out.trim().split('\n').findLast((l) => l.startsWith('{'));
      if (code !== 0 || line === undefined) {
        reject(new Error(`${label}: child exited with code ${code}; stdout: ${out.slice(0, 500)}`));
        return;
      }
      resolve(JSON.parse(line) as T);
    });
  });
}

// ---------------------------------------------------------------- formatting

/** `n` with thousands separators and `digits` fraction digits. */
export function num(n: number, digits = 0): string {
  return n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** Formats a table: the first column and those named in `left` are left-aligned, the rest right-aligned. */
export function table(header: readonly string[], rows: readonly (readonly string[])[], left: readonly string[] = []): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const leftAligned = header.map((h, i) => i === 0 || left.includes(h));
  const line = (cells: readonly string[]): string => cells.map((c, i) => (leftAligned[i] ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** Prints the goal checks, then the correctness problems (which set a failing exit code) or `ok`. */
export function reportChecks(goals: readonly string[], problems: readonly string[], ok: string): void {
  if (goals.length > 0) {
    console.log('\ngoal checks:');
    for (const g of goals) console.log(`  ${g}`);
  }
  if (problems.length > 0) {
    console.error('\n!!! CORRECTNESS FAILURES !!!');
    for (const p of problems) console.error(`  ${p}`);
    process.exitCode = 1;
  } else console.log(`\ncorrectness: ${ok}`);
}
