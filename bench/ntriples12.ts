/**
 * Load speed of N-Triples 1.2 against N-Triples 1.1: LUBM data as it is (1.1), and the same
 * data with every triple also reified (1.2: after each line `s p o .` a line
 * `_:rN <rdf:reifies> <<( s p o )>> .`, so twice the statements, half of them holding a new
 * triple term). Each file is imported with `DataStoreConnection.importData('ADD', { path })`
 * into a fresh data store, in child processes of their own (one version per process, so that
 * neither version's parsing shapes how the other's code is optimised), the two alternating
 * (1.1, 1.2, 1.1, …); each process loads its file `--warmups` times untimed (the parser's code
 * is optimised over the first few), then `--loads` times timed.
 * The table gives the median seconds, statements and megabytes per second, and the ratios of
 * the time per statement and per byte (1.2 / 1.1).
 *
 * Usage: `node --expose-gc --import tsx bench/ntriples12.ts [--file <lubm.nt.gz>] [--runs N] [--warmups N] [--loads N]`
 * (default LUBM(1), 5 processes per version, 4 untimed and 5 timed loads each). The two files are written to a
 * temporary folder, removed at the end.
 * @module
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { ConnectionFactory, N_TRIPLES, Server } from '../lib/index.js';
import { collect, table } from './lib/harness.js';
import { LUBM } from '../spec/helpers/test-data.js';

const REIFIES = '<http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies>';

/** The N-Triples text with every triple also reified by a fresh blank node. */
export function reified(ntriples: string): string {
  const out: string[] = [];
  let n = 0;
  for (const line of ntriples.split('\n')) {
    const statement = line.trim();
    if (statement === '' || statement.startsWith('#')) continue;
    out.push(statement);
    out.push(`_:r${n++} ${REIFIES} <<( ${statement.slice(0, statement.lastIndexOf('.')).trim()} )>> .`);
  }
  return `${out.join('\n')}\n`;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Loads `file` `warmups + loads` times into fresh stores; prints the seconds of the timed loads and the statement count as JSON. */
async function one(file: string, loads: number, warmups: number): Promise<void> {
  const server = await Server.create({ roleName: 'admin', password: 'pw', url: 'bench-nt12', parameters: { 'password-hashing': 'fast' } });
  const sc = await ConnectionFactory.newServerConnection('bench-nt12', 'admin', 'pw');
  const seconds: number[] = [];
  let statements = 0;
  try {
    for (let run = 0; run < warmups + loads; run++) {
      sc.createDataStore('s');
      const ds = sc.newDataStoreConnection('s');
      collect();
      const start = performance.now();
      const r = await ds.importData('ADD', { path: file }, { mediaType: N_TRIPLES });
      const elapsed = (performance.now() - start) / 1000;
      if (r.errors > 0) throw new Error(r.text);
      statements = r.changedFacts;
      // the first loads warm up (the parser's code is optimised over the first few)
      if (run >= warmups) seconds.push(elapsed);
      ds.close();
      sc.deleteDataStore('s');
    }
  } finally {
    sc.close();
    await server.shutdown();
  }
  process.stdout.write(`${JSON.stringify({ seconds, statements })}\n`);
}

/** Runs {@link one} in a child process. */
function child(file: string, loads: number, warmups: number): Promise<{ seconds: number[]; statements: number }> {
  const script = fileURLToPath(import.meta.url);
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', script, '--one', file, '--loads', String(loads), '--warmups', String(warmups)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
    proc.on('error', reject);
    proc.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as { seconds: number[]; statements: number }) : reject(new Error(`the child exited with ${code}`))));
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { file: { type: 'string' }, runs: { type: 'string' }, loads: { type: 'string' }, warmups: { type: 'string' }, one: { type: 'string' } } });
  const loads = Number(values.loads ?? 5);
  const warmups = Number(values.warmups ?? 4);
  if (values.one !== undefined) return one(values.one, loads, warmups);
  const runs = Number(values.runs ?? 5);
  const text = gunzipSync(readFileSync(values.file ?? LUBM.lubm1)).toString('utf8');
  const text12 = reified(text);
  const dir = mkdtempSync(join(tmpdir(), 'quadlog-nt12-'));
  const files = { '1.1': join(dir, 'data11.nt'), '1.2': join(dir, 'data12.nt') } as const;
  writeFileSync(files['1.1'], text);
  writeFileSync(files['1.2'], text12);
  const bytes = { '1.1': Buffer.byteLength(text), '1.2': Buffer.byteLength(text12) };
  const seconds: Record<'1.1' | '1.2', number[]> = { '1.1': [], '1.2': [] };
  const statements: Record<'1.1' | '1.2', number> = { '1.1': 0, '1.2': 0 };
  const load = loadavg()[0]!;
  try {
    for (let run = 0; run < runs; run++) {
      for (const version of ['1.1', '1.2'] as const) {
        const r = await child(files[version], loads, warmups);
        seconds[version].push(...r.seconds);
        statements[version] = r.statements;
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const perStatement = (v: '1.1' | '1.2'): number => median(seconds[v]) / statements[v];
  const perByte = (v: '1.1' | '1.2'): number => median(seconds[v]) / bytes[v];
  console.log(
    table(
      ['N-Triples', 'statements', 'MB', 'median s', 'statements/s', 'MB/s'],
      (['1.1', '1.2'] as const).map((v) => [v, String(statements[v]), (bytes[v] / 1e6).toFixed(1), median(seconds[v]).toFixed(3), Math.round(statements[v] / median(seconds[v])).toLocaleString('en'), (bytes[v] / 1e6 / median(seconds[v])).toFixed(1)]),
    ),
  );
  console.log(
    `time per statement, 1.2 / 1.1: ${(perStatement('1.2') / perStatement('1.1')).toFixed(2)}; per byte: ${(perByte('1.2') / perByte('1.1')).toFixed(2)} ` +
      `(${runs} processes per version, alternating, each ${warmups} untimed loads then ${loads} timed; load average ${load.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end)`,
  );
}

if (process.argv[1]?.endsWith('ntriples12.ts')) await main();
