/**
 * A LUBM(100)-sized data set made from LUBM(10) for the scale benchmark (`bench/scale.ts`):
 * ten renamed copies of `lubm10.nt.gz`, streamed to an N-Triples file, and the reading of a
 * (possibly gzip'd) N-Triples file as text chunks of whole lines.
 *
 * LUBM(10) describes the universities 0 to 9: their IRIs are `http://www.University<N>.edu`,
 * and everything in a department `http://www.Department<M>.University<N>.edu[/…]`; their
 * names and e-mail addresses are literals such as `"University<N>"` and
 * `"…@Department<M>.University<N>.edu"`. Copy k (0 … 9) renames every `University<N>` with
 * N < 10, in IRIs and literals alike, to `University<10·k + N>`, so copy 0 is LUBM(10) itself
 * and copy k describes the universities 10·k … 10·k + 9. The degrees of the people point at
 * universities 0 … 999 (`ub:doctoralDegreeFrom <http://www.University84.edu>`, with a
 * `rdf:type ub:University` triple for each); those above 9 are left as they are in every copy,
 * as LUBM's generator draws them from one pool of 1,000 universities at every scale. Hence
 * the copies share the ontology terms and those few referenced universities (about a
 * thousand `rdf:type` triples, which appear once per copy in the file and once in a store).
 * @module
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { createGunzip } from 'node:zlib';

/** Universities described by LUBM(10), renamed in each copy. */
export const UNIVERSITIES_PER_COPY = 10;

/** Copies of LUBM(10) that make the LUBM(100)-sized data set. */
export const LUBM100_COPIES = 10;

/**
 * `University` and one digit not followed by another: the IRIs and literals of LUBM(10)'s own
 * universities (0 … 9), not those of the referenced ones (10 … 999).
 */
const UNIVERSITY = /University(\d)(?!\d)/g;

/**
 * `text` (whole N-Triples lines of LUBM(10)) as copy `copy` has it: each `University<N>` with
 * N < {@link UNIVERSITIES_PER_COPY} becomes `University<10·copy + N>` (whose decimal digits are
 * those of `copy` followed by N's, so a replacement pattern does it).
 */
export function renameUniversities(text: string, copy: number): string {
  if (!Number.isSafeInteger(copy) || copy < 0) throw new Error(`not a copy number: ${copy}`);
  return copy === 0 ? text : text.replace(UNIVERSITY, `University${copy}$1`);
}

/** The number of `\n` in `text`. */
export function countLines(text: string): number {
  let n = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) n++;
  return n;
}

/**
 * The text of an N-Triples file (decompressed when its name ends with `.gz`) in chunks of whole
 * lines of at least `minBytes` bytes (the last one may be shorter), so that no more than about
 * one chunk is held at a time. Lines are cut at their `\n` byte before decoding, which keeps
 * UTF-8 sequences whole.
 */
export async function* lineChunks(file: string, minBytes = 1 << 20): AsyncGenerator<string> {
  const raw = createReadStream(file, { highWaterMark: 1 << 20 });
  const bytes = file.endsWith('.gz') ? raw.pipe(createGunzip({ chunkSize: 1 << 18 })) : raw;
  raw.on('error', (e) => bytes.destroy(e));
  let parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of bytes as AsyncIterable<Buffer>) {
    parts.push(chunk);
    size += chunk.length;
    if (size < minBytes) continue;
    const all = parts.length === 1 ? parts[0]! : Buffer.concat(parts, size);
    const end = all.lastIndexOf(0x0a) + 1;
    if (end === 0) {
      parts = [all];
      continue;
    }
    yield all.toString('utf8', 0, end);
    const rest = all.subarray(end);
    parts = rest.length > 0 ? [rest] : [];
    size = rest.length;
  }
  if (size > 0) {
    const text = Buffer.concat(parts, size).toString('utf8');
    yield text.endsWith('\n') ? text : `${text}\n`;
  }
}

/** What {@link writeLubmCopies} wrote. */
export interface CopiesWritten {
  /** N-Triples lines written (the source's lines times the copies). */
  readonly lines: number;
  /** Bytes written. */
  readonly bytes: number;
}

/**
 * Writes `copies` renamed copies of the gzip'd N-Triples file `source` (LUBM(10)) to `target`
 * as plain N-Triples, one copy after the other (see {@link renameUniversities}); the source is
 * read once per copy, a chunk of lines at a time.
 */
export async function writeLubmCopies(source: string, target: string, copies = LUBM100_COPIES): Promise<CopiesWritten> {
  const out = createWriteStream(target);
  let lines = 0;
  try {
    for (let copy = 0; copy < copies; copy++) {
      for await (const chunk of lineChunks(source)) {
        lines += countLines(chunk);
        if (!out.write(renameUniversities(chunk, copy))) await once(out, 'drain');
      }
    }
  } finally {
    await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())));
  }
  return { lines, bytes: out.bytesWritten };
}
