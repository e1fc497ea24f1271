/**
 * Micro-benchmark: the byte-level {@link NTriplesParser} vs n3's StreamParser.
 *
 * Usage: `node --import tsx bench/parsers.ts [file.nt(.gz)] [runs]`
 * (default file: test-data/lubm/lubm10.nt.gz, default runs: 3).
 *
 * Each configuration runs in a fresh child process (so that, e.g., the sink call
 * sites stay monomorphic as they would in a real loader). The input is first
 * decompressed into memory; the parsers are then timed on the same decompressed
 * chunks, so decompression is not part of the comparison. An extra end-to-end
 * figure (streaming gunzip + parse + Map sink) is printed for the byte parser.
 *
 * @module
 */
import { spawnSync } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { createGunzip } from 'node:zlib';
import { StreamParser } from 'n3';
import type { Quad, Term } from '@rdfjs/types';
import { NTriplesParser, type NTriplesSink } from '../lib/formats/ntriples-parser.js';
import { LUBM } from '../spec/helpers/test-data.js';

const DEFAULT_FILE = LUBM.lubm10;
const XSD_STRING = 'http://www.w3.org/2001/XMLSchema#string';

/** `Buffer.prototype.latin1Slice`, which works on any Uint8Array (not in @types/node). */
const latin1Slice = (
  Buffer.prototype as unknown as { latin1Slice: (this: Uint8Array, start: number, end: number) => string }
).latin1Slice;

/** Realistic dictionary sink: interns via a Map keyed on the latin1 decode of the canonical bytes. */
class MapSink implements NTriplesSink {
  readonly ids = new Map<string, number>();
  statements = 0;
  errors = 0;
  intern(bytes: Uint8Array, start: number, end: number): number {
    const key = latin1Slice.call(bytes, start, end);
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.ids.size;
      this.ids.set(key, id);
    }
    return id;
  }
  statement(): void {
    this.statements++;
  }
  error(line: number, column: number, message: string): void {
    if (this.errors++ < 5) console.error(`  error ${line}:${column}: ${message}`);
  }
}

/** No-op sink: the id is the term length; measures the parser alone. */
class NoopSink implements NTriplesSink {
  intern(_bytes: Uint8Array, start: number, end: number): number {
    return end - start;
  }
  statement(): void {}
  error(): void {}
}

/** Trivial sink: "interns" by hashing the bytes (FNV-1a); measures the raw parser. */
class HashSink implements NTriplesSink {
  statements = 0;
  checksum = 0;
  intern(bytes: Uint8Array, start: number, end: number): number {
    let h = 0x811c9dc5;
    for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
    return h >>> 0;
  }
  statement(s: number, p: number, o: number): void {
    this.statements++;
    this.checksum = (this.checksum + s + p + o) >>> 0;
  }
  error(): void {}
}

/** Opens the input as a stream of decompressed bytes. */
function openInput(file: string): Readable {
  const raw = createReadStream(file, { highWaterMark: 1 << 20 });
  return file.endsWith('.gz') ? raw.pipe(createGunzip({ chunkSize: 1 << 16 })) : raw;
}

async function loadChunks(file: string): Promise<Buffer[]> {
  const chunks: Buffer[] = [];
  for await (const chunk of openInput(file)) chunks.push(chunk as Buffer);
  return chunks;
}

function runBytes(chunks: readonly Uint8Array[], sink: NTriplesSink): number {
  const parser = new NTriplesParser(sink, { quads: false });
  for (const chunk of chunks) parser.write(chunk);
  parser.end();
  return parser.statements;
}

async function runN3(chunks: readonly Buffer[]): Promise<number> {
  const parser = new StreamParser({ format: 'N-Triples' });
  let count = 0;
  const done = new Promise<void>((resolve, reject) => {
    parser.on('data', (quad: Quad) => {
      if (quad.subject.termType !== 'Variable') count++;
    });
    parser.on('error', reject);
    parser.on('end', () => resolve());
  });
  Readable.from(chunks, { objectMode: false }).pipe(parser);
  await done;
  return count;
}

/** Dictionary key of an RDF/JS term, built like the byte parser's canonical form. */
function termKey(term: Term): string {
  switch (term.termType) {
    case 'NamedNode':
      return `<${term.value}>`;
    case 'BlankNode':
      return `_:${term.value}`;
    case 'Literal':
      if (term.language !== '') return `"${term.value}"@${term.language}`;
      if (term.datatype.value === XSD_STRING) return `"${term.value}"`;
      return `"${term.value}"^^<${term.datatype.value}>`;
    default:
      return term.value;
  }
}

/** n3 StreamParser whose quads are then interned into a Map<string, number>, like a store would. */
async function runN3Map(chunks: readonly Buffer[]): Promise<{ triples: number; terms: number }> {
  const parser = new StreamParser({ format: 'N-Triples' });
  const ids = new Map<string, number>();
  const intern = (term: Term): number => {
    const key = termKey(term);
    let id = ids.get(key);
    if (id === undefined) {
      id = ids.size;
      ids.set(key, id);
    }
    return id;
  };
  let count = 0;
  const done = new Promise<void>((resolve, reject) => {
    parser.on('data', (quad: Quad) => {
      intern(quad.subject);
      intern(quad.predicate);
      intern(quad.object);
      count++;
    });
    parser.on('error', reject);
    parser.on('end', () => resolve());
  });
  Readable.from(chunks, { objectMode: false }).pipe(parser);
  await done;
  return { triples: count, terms: ids.size };
}

async function runStreaming(file: string): Promise<number> {
  const sink = new MapSink();
  const parser = new NTriplesParser(sink, { quads: false });
  for await (const chunk of openInput(file)) parser.write(chunk as Buffer);
  parser.end();
  return parser.statements;
}

function seconds(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e9;
}

function fmt(rate: number): string {
  return `${(rate / 1e6).toFixed(2)}M triples/s`;
}

/** Benchmark configurations; each runs in its own process so JIT feedback (sink types) is not shared. */
const MODES = {
  noop: 'NTriplesParser, no-op sink (parser alone)',
  hash: 'NTriplesParser, FNV-1a hash sink',
  map: 'NTriplesParser, Map<string, number> sink',
  stream: 'NTriplesParser, streaming gunzip + Map sink',
  n3: 'n3 StreamParser, RDF/JS quads',
  n3map: 'n3 StreamParser + Map<string, number> interning',
} as const;
type Mode = keyof typeof MODES;

interface Result {
  triples: number;
  seconds: number;
  bytes: number;
  terms?: number;
}

/** Runs one configuration `runs` times in this process; returns the best time. */
async function runMode(mode: Mode, file: string, runs: number): Promise<Result> {
  if (mode === 'stream') {
    // End to end, includes decompression (one warm-up run on the in-memory data first).
    runBytes(await loadChunks(file), new MapSink());
    let best = Infinity;
    let triples = 0;
    for (let i = 0; i < runs; i++) {
      const t = process.hrtime.bigint();
      triples = await runStreaming(file);
      best = Math.min(best, seconds(t));
    }
    return { triples, seconds: best, bytes: 0 };
  }
  const chunks = await loadChunks(file);
  const bytes = chunks.reduce((n, c) => n + c.length, 0);
  let best = Infinity;
  let triples = 0;
  let terms: number | undefined;
  for (let i = 0; i < runs; i++) {
    const t = process.hrtime.bigint();
    if (mode === 'n3') {
      triples = await runN3(chunks);
    } else if (mode === 'n3map') {
      ({ triples, terms } = await runN3Map(chunks));
    } else if (mode === 'map') {
      const sink = new MapSink();
      triples = runBytes(chunks, sink);
      terms = sink.ids.size;
    } else {
      triples = runBytes(chunks, mode === 'hash' ? new HashSink() : new NoopSink());
    }
    best = Math.min(best, seconds(t));
  }
  return { triples, seconds: best, bytes, terms };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const modeIndex = args.indexOf('--mode');
  if (modeIndex >= 0) {
    // Child process: run one configuration and print its result as JSON.
    const mode = args[modeIndex + 1] as Mode;
    const [file = DEFAULT_FILE, runs = '3'] = args.filter((_, i) => i !== modeIndex && i !== modeIndex + 1);
    console.log(JSON.stringify(await runMode(mode, file, Number(runs))));
    return;
  }
  const file = args[0] ?? DEFAULT_FILE;
  const runs = Number(args[1] ?? 3);
  console.log(`input: ${file} (best of ${runs} runs per configuration, each in a fresh process)`);
  const results = new Map<Mode, Result>();
  for (const mode of Object.keys(MODES) as Mode[]) {
    const child = spawnSync(
      process.execPath,
      [...process.execArgv, fileURLToPath(import.meta.url), '--mode', mode, file, String(runs)],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 20 },
    );
    if (child.status !== 0) throw new Error(`benchmark '${mode}' failed (status ${child.status})`);
    const result = JSON.parse(child.stdout.trim().split('\n').pop()!) as Result;
    results.set(mode, result);
    const rate = result.triples / result.seconds;
    let line = `${MODES[mode].padEnd(50)} ${result.triples} triples  ${result.seconds.toFixed(3)} s  ${fmt(rate)}`;
    if (result.bytes > 0) line += `  ${(result.bytes / 1e6 / result.seconds).toFixed(0)} MB/s`;
    if (result.terms !== undefined) line += `  (${result.terms} distinct terms)`;
    console.log(line);
  }
  const rate = (m: Mode): number => results.get(m)!.triples / results.get(m)!.seconds;
  console.log(`ratio vs n3: Map sink ${(rate('map') / rate('n3')).toFixed(2)}x, ` +
    `hash sink ${(rate('hash') / rate('n3')).toFixed(2)}x, no-op sink ${(rate('noop') / rate('n3')).toFixed(2)}x, ` +
    `streaming gunzip+Map ${(rate('stream') / rate('n3')).toFixed(2)}x`);
  console.log(`ratio Map sink vs n3 + Map interning: ${(rate('map') / rate('n3map')).toFixed(2)}x`);
  const counts = new Set([...results.values()].map((r) => r.triples));
  if (counts.size !== 1) console.log(`WARNING: triple counts differ: ${[...counts].join(', ')}`);
}

await main();
