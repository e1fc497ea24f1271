/**
 * Micro-benchmark: the byte-level {@link NTriplesParser} vs n3's StreamParser.
 *
 * Usage: `node --import tsx bench/parsers.ts [file.nt(.gz)] [runs]`
 * (default file: /work/shared/lubm/lubm10.nt.gz, default runs: 3).
 *
 * The input is decompressed into memory once; both parsers are then timed on the
 * same decompressed chunks, so decompression is not part of the comparison.
 * An extra end-to-end figure (streaming gunzip + parse) is printed for the
 * byte parser.
 *
 * @module
 */
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { StreamParser } from 'n3';
import type { Quad } from '@rdfjs/types';
import { NTriplesParser, type NTriplesSink } from '../lib/formats/ntriples-parser.js';

const DEFAULT_FILE = '/work/shared/lubm/lubm10.nt.gz';

/** `Buffer.prototype.latin1Slice`, which works on any Uint8Array (not in @types/node). */
const latin1Slice = (Buffer.prototype as unknown as { latin1Slice(this: Uint8Array, start: number, end: number): string })
  .latin1Slice;

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

async function main(): Promise<void> {
  const file = process.argv[2] ?? DEFAULT_FILE;
  const runs = Number(process.argv[3] ?? 3);
  console.log(`input: ${file}`);

  let t = process.hrtime.bigint();
  const chunks = await loadChunks(file);
  const bytes = chunks.reduce((n, c) => n + c.length, 0);
  console.log(`decompressed ${(bytes / 1e6).toFixed(1)} MB in ${chunks.length} chunks (${seconds(t).toFixed(2)} s)`);

  // Byte parser, trivial hashing sink.
  let bestHash = Infinity;
  let triples = 0;
  for (let i = 0; i < runs; i++) {
    const sink = new HashSink();
    t = process.hrtime.bigint();
    triples = runBytes(chunks, sink);
    bestHash = Math.min(bestHash, seconds(t));
  }
  console.log(
    `NTriplesParser (hash sink):     ${triples} triples, best ${bestHash.toFixed(3)} s, ${fmt(triples / bestHash)}, ` +
      `${(bytes / 1e6 / bestHash).toFixed(0)} MB/s`,
  );

  // Byte parser, Map<string, number> dictionary sink.
  let bestMap = Infinity;
  let terms = 0;
  for (let i = 0; i < runs; i++) {
    const sink = new MapSink();
    t = process.hrtime.bigint();
    triples = runBytes(chunks, sink);
    bestMap = Math.min(bestMap, seconds(t));
    terms = sink.ids.size;
  }
  const mapRate = triples / bestMap;
  console.log(
    `NTriplesParser (Map sink):      ${triples} triples, ${terms} terms, best ${bestMap.toFixed(3)} s, ${fmt(mapRate)}`,
  );

  // End to end: streaming gunzip + parse + Map sink.
  t = process.hrtime.bigint();
  const streamed = await runStreaming(file);
  const streamTime = seconds(t);
  console.log(
    `NTriplesParser (gunzip+Map):    ${streamed} triples, ${streamTime.toFixed(3)} s, ${fmt(streamed / streamTime)}`,
  );

  // n3 StreamParser producing RDF/JS quads.
  t = process.hrtime.bigint();
  const n3Count = await runN3(chunks);
  const n3Time = seconds(t);
  const n3Rate = n3Count / n3Time;
  console.log(`n3 StreamParser (RDF/JS quads): ${n3Count} triples, ${n3Time.toFixed(3)} s, ${fmt(n3Rate)}`);

  console.log(`ratio (Map sink vs n3):  ${(mapRate / n3Rate).toFixed(1)}x`);
  console.log(`ratio (hash sink vs n3): ${(triples / bestHash / n3Rate).toFixed(1)}x`);
  if (n3Count !== triples) console.log(`WARNING: triple counts differ (${triples} vs ${n3Count})`);
}

await main();
