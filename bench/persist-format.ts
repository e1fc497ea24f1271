/**
 * Persistence format benchmark (not a test): how fast the file layer of `lib/persistence`
 * writes and reads snapshots of a store of 1.6 million facts, and how many transaction
 * records per second the log takes with `sync` and `relaxed` durability.
 *
 * Usage: `node --expose-gc --import tsx bench/persist-format.ts [--runs N] [--dir DIR]`
 * (default 5 runs; files go to a fresh directory under DIR, default the system's temporary
 * directory, removed at the end).
 *
 * Cases:
 * - snapshot `minimal`: 4 Uint32Array of 1.6M elements and a 30 MB dictionary arena with
 *   its offsets (800k terms): the arrays a store needs to rebuild its indexes;
 * - snapshot `full image`: everything a triple table and the dictionary hold, indexes
 *   included (row data 3 × 1.6M, flags, 3 chains, 3 heads and counts per term, the membership
 *   hash, the dictionary's arena, offsets, hashes and hash slots), so that loading needs no
 *   rebuilding;
 * - CRC-32 throughput (every section is checksummed on write and read);
 * - log appends per second, `sync` and `relaxed`, of a small record (a 1-fact insert with 3
 *   new terms, about 200 bytes) and of a 64 KiB record (about 4,000 facts);
 * - opening (walking and checking) a log of 20,000 small records.
 *
 * Snapshot reads are timed twice: in this process right after writing (warm: the buffers'
 * memory was touched before), and in a fresh child process per run (what a restart pays: new
 * memory is faulted in as the reads fill it). Both read from the page cache (the file was just
 * written); a cold start from disk adds the disk's read time for the file size shown.
 * Figures are medians over the runs; fsync latency on a shared virtual disk varies a lot from
 * one moment to the next, so the `sync` figures are indicative only.
 * @module
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { crc32, NATIVE_CRC32 } from '../lib/persistence/framing.js';
import { TransactionLog, type Durability } from '../lib/persistence/log.js';
import { readSnapshot, type SnapshotSection, writeSnapshot } from '../lib/persistence/snapshot.js';
import { encodeTransaction, type TransactionRecord } from '../lib/persistence/transaction-record.js';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' }, dir: { type: 'string' }, 'child-read': { type: 'string' } } });

if (values['child-read'] !== undefined) {
  // child mode: one snapshot read in a fresh process, reported as JSON
  const t = performance.now();
  const snap = await readSnapshot(values['child-read']);
  console.log(JSON.stringify({ ms: performance.now() - t, sections: snap.sections.length }));
  process.exit(0);
}
const RUNS = Number(values.runs);
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error(`--runs: expected a positive integer, got '${values.runs}'`);

const FACTS = 1_600_000;
const TERMS = 800_000;
const ARENA = 30 * 1024 * 1024;

function gc(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function filled<T extends Uint32Array | Uint8Array>(a: T, seed: number): T {
  let x = seed;
  for (let i = 0; i < a.length; i++) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    a[i] = x % TERMS;
  }
  return a;
}

function minimalSections(): SnapshotSection[] {
  const offsets = new Uint32Array(TERMS + 1);
  for (let i = 0; i <= TERMS; i++) offsets[i] = Math.floor((i * ARENA) / TERMS);
  return [
    { name: 'catalogue', json: { tables: [{ name: 'DefaultTriples', id: 1, arity: 3 }], prefixes: {}, rules: [] } },
    { name: 'dictionary.arena', array: filled(new Uint8Array(ARENA), 1) },
    { name: 'dictionary.offsets', array: offsets },
    ...[0, 1, 2, 3].map((c) => ({ name: `table.1.column.${c}`, array: filled(new Uint32Array(FACTS), c + 2) })),
  ];
}

function fullSections(): SnapshotSection[] {
  const base = minimalSections().filter((s) => !s.name.startsWith('table.'));
  return [
    ...base,
    { name: 'dictionary.hashes', array: filled(new Uint32Array(TERMS), 11) },
    { name: 'dictionary.slots', array: filled(new Uint32Array(1 << 21), 12) },
    { name: 'table.1.data', array: filled(new Uint32Array(FACTS * 3), 13) },
    { name: 'table.1.flags', array: new Uint8Array(FACTS).fill(1) },
    { name: 'table.1.slots', array: filled(new Uint32Array(1 << 22), 14) },
    ...[0, 1, 2].flatMap((c) => [
      { name: `table.1.next.${c}`, array: filled(new Uint32Array(FACTS), 20 + c) },
      { name: `table.1.heads.${c}`, array: filled(new Uint32Array(TERMS), 30 + c) },
      { name: `table.1.counts.${c}`, array: filled(new Uint32Array(TERMS), 40 + c) },
    ]),
  ];
}

async function snapshotCase(dir: string, label: string, sections: SnapshotSection[]): Promise<string[]> {
  const path = join(dir, `${label.replace(/\W+/g, '-')}.qsnap`);
  const writes: number[] = [];
  const reads: number[] = [];
  let bytes = 0;
  for (let run = 0; run < RUNS; run++) {
    gc();
    let t = performance.now();
    bytes = (await writeSnapshot(path, sections, { sequence: run })).bytes;
    writes.push(performance.now() - t);
    gc();
    t = performance.now();
    const snap = await readSnapshot(path);
    reads.push(performance.now() - t);
    if (snap.sections.length !== sections.length) throw new Error('snapshot sections lost');
  }
  const fresh: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const child = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--child-read', path], { encoding: 'utf8' });
    if (child.status !== 0) throw new Error(`child read failed: ${child.stderr}`);
    fresh.push((JSON.parse(child.stdout) as { ms: number }).ms);
  }
  const mb = bytes / 1024 / 1024;
  return [
    `snapshot ${label}: ${mb.toFixed(1)} MiB, ${sections.length} sections`,
    `  write (temp file, fsync, rename, fsync dir): ${median(writes).toFixed(0)} ms  (${(mb / (median(writes) / 1000)).toFixed(0)} MiB/s)`,
    `  read, warm (one read per section, CRC):      ${median(reads).toFixed(0)} ms  (${(mb / (median(reads) / 1000)).toFixed(0)} MiB/s)`,
    `  read in a fresh process (a restart):         ${median(fresh).toFixed(0)} ms  (${(mb / (median(fresh) / 1000)).toFixed(0)} MiB/s)`,
  ];
}

function smallRecord(i: number): TransactionRecord {
  const text = Buffer.from(`<http://example.org/s${i}><http://example.org/p${i % 7}>"object number ${i} with a little text"`);
  return {
    firstTermId: 3 * i,
    terms: { ends: Uint32Array.of(24, 48, text.length), bytes: text },
    tables: [{ tableId: 1, arity: 3, added: Uint32Array.of(3 * i, 3 * i + 1, 3 * i + 2), removed: new Uint32Array(0) }],
    operations: [],
  };
}

function bigRecord(): TransactionRecord {
  const added = filled(new Uint32Array(4000 * 3), 99);
  const bytes = Buffer.alloc(64 * 1024 - added.byteLength - 200, 0x61);
  return { firstTermId: 0, terms: { ends: Uint32Array.of(bytes.length), bytes }, tables: [{ tableId: 1, arity: 3, added, removed: new Uint32Array(0) }], operations: [] };
}

async function appendCase(dir: string, durability: Durability, label: string, make: (i: number) => TransactionRecord, count: number): Promise<string> {
  const rates: number[] = [];
  let size = 0;
  for (let run = 0; run < RUNS; run++) {
    const path = join(dir, `append-${durability}-${label}-${run}.qlog`);
    const log = await TransactionLog.create(path, 0, { durability });
    const bodies = Array.from({ length: count }, (_, i) => encodeTransaction(make(i)));
    size = bodies[0]!.reduce((n, c) => n + c.byteLength, 0);
    const t = performance.now();
    for (const body of bodies) await log.append(body);
    await log.sync();
    rates.push(count / ((performance.now() - t) / 1000));
    await log.close();
    await rm(path);
  }
  return `  ${durability.padEnd(7)} ${label.padEnd(6)} (${size} B body): ${median(rates).toFixed(0).padStart(7)} appends/s  (${(1000 / median(rates)).toFixed(3)} ms each)`;
}

async function openCase(dir: string): Promise<string> {
  const path = join(dir, 'replay.qlog');
  const log = await TransactionLog.create(path, 0, { durability: 'relaxed' });
  for (let i = 0; i < 20_000; i++) await log.append(encodeTransaction(smallRecord(i)));
  await log.close();
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const t = performance.now();
    let n = 0;
    const { log: opened } = await TransactionLog.open(path, { onRecord: () => void n++ });
    times.push(performance.now() - t);
    await opened.close();
    if (n !== 20_000) throw new Error(`replayed ${n} records`);
  }
  return `open a log of 20,000 small records (walk and check every record): ${median(times).toFixed(0)} ms`;
}

const dir = await mkdtemp(join(values.dir ?? tmpdir(), 'quadlog-bench-persist-'));
try {
  const lines: string[] = [`node ${process.version}, ${RUNS} runs, files in ${dir}`];
  const crcData = filled(new Uint8Array(ARENA), 5);
  crc32(crcData);
  let t = performance.now();
  for (let i = 0; i < 5; i++) crc32(crcData);
  lines.push(`CRC-32 (${NATIVE_CRC32 ? 'zlib' : 'portable'}): ${((5 * ARENA) / 1024 / 1024 / ((performance.now() - t) / 1000)).toFixed(0)} MiB/s`);
  t = performance.now();
  lines.push(...(await snapshotCase(dir, 'minimal', minimalSections())));
  gc();
  lines.push(...(await snapshotCase(dir, 'full image', fullSections())));
  gc();
  lines.push('log appends (one transaction record each, awaited one after another):');
  lines.push(await appendCase(dir, 'sync', 'small', smallRecord, 500));
  lines.push(await appendCase(dir, 'relaxed', 'small', smallRecord, 20_000));
  lines.push(await appendCase(dir, 'sync', '64 KiB', bigRecord, 200));
  lines.push(await appendCase(dir, 'relaxed', '64 KiB', bigRecord, 2000));
  lines.push(await openCase(dir));
  console.log(lines.join('\n'));
} finally {
  await rm(dir, { recursive: true, force: true });
}
