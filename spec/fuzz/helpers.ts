/**
 * What the fuzz specs share: the number of runs (small for CI, `QUADLOG_FUZZ_RUNS` for a longer
 * search), a corpus of real files from the W3C suites, fast-check arbitraries that mutate them
 * (delete, insert, duplicate or swap a character or a token, truncate, splice two files), the
 * invariants every error must meet, and a snapshot of a store for "a failed write changes
 * nothing".
 * @module
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import fc from 'fast-check';
import { ConnectionFactory, type DataStoreConnection, QuadlogError, Server, type ServerConnection } from '../../lib/index.js';
import { W3C_DIR } from '../helpers/test-data.js';

/**
 * Runs per property: `QUADLOG_FUZZ_RUNS` when set (a long search), else `ciRuns` (sized so
 * that the whole fuzz folder stays well under a minute on a busy machine).
 */
export function fuzzRuns(ciRuns: number): number {
  const fromEnv = Number(process.env.QUADLOG_FUZZ_RUNS);
  return Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : ciRuns;
}

/** fast-check parameters of every fuzz property: the run count and, when given, a seed to replay. */
export function fuzzParameters(ciRuns: number): fc.Parameters<unknown> {
  const seed = Number(process.env.QUADLOG_FUZZ_SEED);
  return { numRuns: fuzzRuns(ciRuns), ...(Number.isInteger(seed) ? { seed } : {}), endOnFailure: true };
}

/** One file of the corpus: its path (for messages) and its text. */
export interface CorpusFile {
  /** The path below the W3C directory. */
  readonly name: string;
  /** The file's text. */
  readonly text: string;
}

/** Files below `dir` (recursively) whose names end with one of `extensions`, at most `limit` bytes each, sorted. */
function collect(dir: string, extensions: readonly string[], limit: number, out: string[]): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return out;
  }
  for (const entry of entries.sort()) {
    const path = join(dir, entry);
    const stat = statSync(path);
    if (stat.isDirectory()) collect(path, extensions, limit, out);
    else if (extensions.some((e) => entry.endsWith(e)) && stat.size <= limit) out.push(path);
  }
  return out;
}

const corpusCache = new Map<string, CorpusFile[]>();

/**
 * The files of a W3C suite directory (relative to {@link W3C_DIR}) with the given extensions,
 * up to 8 kB each (mutations of large files find nothing small files do not, and cost more).
 * Empty when the suites are not installed; callers skip then.
 */
export function corpus(subdirectory: string, extensions: readonly string[]): CorpusFile[] {
  const key = `${subdirectory}|${extensions.join(',')}`;
  let files = corpusCache.get(key);
  if (!files) {
    const root = join(W3C_DIR, subdirectory);
    files = collect(root, extensions, 8192, []).map((path) => ({ name: path.slice(W3C_DIR.length + 1), text: readFileSync(path, 'utf8') }));
    corpusCache.set(key, files);
  }
  return files;
}

/** A change to a text; positions are fractions of its length so that they fit any text. */
export type Mutation =
  | { readonly kind: 'delete-char'; readonly at: number }
  | { readonly kind: 'insert'; readonly at: number; readonly text: string }
  | { readonly kind: 'duplicate-slice'; readonly at: number; readonly length: number }
  | { readonly kind: 'swap-chars'; readonly a: number; readonly b: number }
  | { readonly kind: 'delete-token'; readonly at: number }
  | { readonly kind: 'duplicate-token'; readonly at: number }
  | { readonly kind: 'swap-tokens'; readonly a: number; readonly b: number }
  | { readonly kind: 'truncate'; readonly at: number }
  | { readonly kind: 'splice'; readonly at: number; readonly other: number; readonly from: number };

/** Characters and fragments that mean something to one of the parsers. */
const SPECIAL = [
  '{', '}', '[', ']', '(', ')', '<', '>', '"', "'", '"""', "'''", '\\', '\\u', '\\U0010FFFF', '@', '^^', '#', '?', '$', '_:', ':', ';', ',', '.', '\n', ' ', '\t', '\r',
  '*', '+', '|', '/', '!', '=', '^', '-', '0', '1e', '.5', 'a', ':-', 'NOT', 'AGGREGATE', 'BIND', 'FILTER', 'SELECT', 'WHERE', 'GRAPH', 'OPTIONAL',
  'UNION', 'INSERT', 'DELETE', 'DATA', 'VALUES', 'UNDEF', '@prefix', 'PREFIX', 'BASE', '@base', '\u0000', '\uFFFD', '\uD800', '\u{1F600}', 'ǅ', '%', '&&',
];
const fraction = fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true });

/** An arbitrary mutation (see {@link Mutation}). */
export const mutationArbitrary: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('delete-char' as const), at: fraction }),
  fc.record({ kind: fc.constant('insert' as const), at: fraction, text: fc.oneof(fc.constantFrom(...SPECIAL), fc.string({ maxLength: 4, unit: 'binary' })) }),
  fc.record({ kind: fc.constant('duplicate-slice' as const), at: fraction, length: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ kind: fc.constant('swap-chars' as const), a: fraction, b: fraction }),
  fc.record({ kind: fc.constant('delete-token' as const), at: fraction }),
  fc.record({ kind: fc.constant('duplicate-token' as const), at: fraction }),
  fc.record({ kind: fc.constant('swap-tokens' as const), a: fraction, b: fraction }),
  fc.record({ kind: fc.constant('truncate' as const), at: fraction }),
  fc.record({ kind: fc.constant('splice' as const), at: fraction, other: fraction, from: fraction }),
);

/** Tokens: runs of non-space characters, with their offsets. */
function tokens(text: string): Array<{ start: number; end: number }> {
  const out: Array<{ start: number; end: number }> = [];
  for (const m of text.matchAll(/\S+/g)) out.push({ start: m.index, end: m.index + m[0].length });
  return out;
}

const pick = (fractionOf: number, n: number): number => Math.min(n - 1, Math.floor(fractionOf * n));

/** Applies one mutation; `files` supplies the other file of a splice. */
export function mutate(text: string, m: Mutation, files: readonly CorpusFile[]): string {
  const n = text.length;
  switch (m.kind) {
    case 'delete-char': {
      if (n === 0) return text;
      const i = pick(m.at, n);
      return text.slice(0, i) + text.slice(i + 1);
    }
    case 'insert': {
      const i = Math.floor(m.at * (n + 1));
      return text.slice(0, i) + m.text + text.slice(i);
    }
    case 'duplicate-slice': {
      const i = Math.floor(m.at * (n + 1));
      return text.slice(0, i + m.length) + text.slice(i, i + m.length) + text.slice(i + m.length);
    }
    case 'swap-chars': {
      if (n < 2) return text;
      const [i, j] = [pick(m.a, n), pick(m.b, n)].sort((x, y) => x - y) as [number, number];
      if (i === j) return text;
      return text.slice(0, i) + text[j]! + text.slice(i + 1, j) + text[i]! + text.slice(j + 1);
    }
    case 'delete-token':
    case 'duplicate-token': {
      const t = tokens(text);
      if (t.length === 0) return text;
      const { start, end } = t[pick(m.at, t.length)]!;
      return m.kind === 'delete-token' ? text.slice(0, start) + text.slice(end) : text.slice(0, end) + ' ' + text.slice(start, end) + text.slice(end);
    }
    case 'swap-tokens': {
      const t = tokens(text);
      if (t.length < 2) return text;
      const [a, b] = [t[pick(m.a, t.length)]!, t[pick(m.b, t.length)]!].sort((x, y) => x.start - y.start) as [{ start: number; end: number }, { start: number; end: number }];
      if (a.start === b.start) return text;
      return text.slice(0, a.start) + text.slice(b.start, b.end) + text.slice(a.end, b.start) + text.slice(a.start, a.end) + text.slice(b.end);
    }
    case 'truncate':
      return text.slice(0, Math.floor(m.at * n));
    case 'splice': {
      if (files.length === 0) return text;
      const other = files[pick(m.other, files.length)]!.text;
      return text.slice(0, Math.floor(m.at * (n + 1))) + other.slice(Math.floor(m.from * other.length));
    }
  }
}

/** A mutated file: the file it came from, the mutations and the resulting text. */
export interface MutatedInput {
  /** The corpus file mutated. */
  readonly source: string;
  /** The mutations applied, in order. */
  readonly mutations: readonly Mutation[];
  /** The text after the mutations. */
  readonly text: string;
}

/** A file of `files` with one to four mutations applied. */
export function mutatedFile(files: readonly CorpusFile[]): fc.Arbitrary<MutatedInput> {
  return fc.record({ file: fc.integer({ min: 0, max: files.length - 1 }), mutations: fc.array(mutationArbitrary, { minLength: 1, maxLength: 4 }) }).map(({ file, mutations }) => {
    const f = files[file]!;
    return { source: f.name, mutations, text: mutations.reduce((t, m) => mutate(t, m, files), f.text) };
  });
}

/** Either a mutated file (mostly) or random text/bytes. */
export function fuzzInput(files: readonly CorpusFile[]): fc.Arbitrary<MutatedInput | { readonly source: 'random'; readonly text: string | Uint8Array }> {
  return fc.oneof(
    { weight: 8, arbitrary: mutatedFile(files) },
    { weight: 1, arbitrary: fc.string({ maxLength: 200, unit: 'binary' }).map((text) => ({ source: 'random' as const, text })) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }).map((text) => ({ source: 'random' as const, text })) },
  );
}

/** A position in a message: `line N`, `column N`, `offset N` or `position N`. */
export const POSITION = /\b(line|column|offset|position|character)\s*\d+/i;

/** Tallies of what a property saw (printed by specs when QUADLOG_FUZZ_VERBOSE is set). */
export class Tally {
  private readonly counts = new Map<string, number>();
  /** Counts one outcome. */
  add(outcome: string): void {
    this.counts.set(outcome, (this.counts.get(outcome) ?? 0) + 1);
  }
  /** The tallies as `outcome: n` text. */
  toString(): string {
    return [...this.counts].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k}: ${v}`).join(', ');
  }
  /** Prints the tallies when QUADLOG_FUZZ_VERBOSE is set. */
  report(label: string): void {
    if (process.env.QUADLOG_FUZZ_VERBOSE) console.log(`    ${label}: ${this.toString()}`);
  }
}

/**
 * Checks that an error is one of the library's documented errors: a {@link QuadlogError} (not a
 * TypeError, RangeError or another accident), with an HTTP status below 500 (the input was at
 * fault, not the server), a non-empty message without 'undefined', 'NaN' or '[object Object]'
 * (outside the line of the input it quotes),
 * and, when `needsPosition` says so for this error, a position in the text.
 */
export function expectDocumentedError(error: unknown, needsPosition: (e: QuadlogError) => boolean, context: string): QuadlogError {
  const what = error instanceof Error ? `${error.constructor.name}: ${error.message}\n${error.stack ?? ''}` : String(error);
  expect(error, `${context}\n${what}`).to.be.instanceOf(QuadlogError);
  const e = error as QuadlogError;
  expect(e.status, `${context}\n${what}`).to.be.below(500);
  expect(e.message.trim(), `${context}\n${what}`).to.not.equal('');
  // (what the message quotes of the input, a line `(in: …)`, a term '…', "…" or <…>, may hold any text)
  const own = e.message.replace(/ \(in: .*\)$/gm, '').replace(/'[^'\n]*'|"[^"\n]*"|<[^>\n]*>/g, '');
  expect(own, `${context}\n${what}`).to.not.match(/\bundefined\b|\bNaN\b|\[object Object\]/);
  if (needsPosition(e)) expect(e.message, `${context}\n${what}: no position`).to.match(POSITION);
  return e;
}

/** The visible state of a store: its facts (every domain, as N-Quads), rules, prefixes and fact count. */
export interface StoreSnapshot {
  /** Every fact (explicit and derived), as exported in N-Quads. */
  readonly facts: string;
  /** The rules, in Datalog. */
  readonly rules: string;
  /** The fact count. */
  readonly count: number;
  /** The prefixes. */
  readonly prefixes: string;
}

/** Takes a {@link StoreSnapshot}. */
export async function snapshot(ds: DataStoreConnection): Promise<StoreSnapshot> {
  const facts = await ds.exportDataToString('application/n-quads', { 'fact-domain': 'all' });
  const rules = await ds.exportDataToString('application/x.datalog');
  const prefixes = [...(await ds.getPrefixes())].map(([k, v]) => `${k} ${v}`).join('\n');
  return { facts, rules, count: await ds.countFacts(), prefixes };
}

/** A short, printable description of a fuzz input for failure messages. */
export function describeInput(input: { readonly source: string; readonly text: string | Uint8Array }): string {
  const text = typeof input.text === 'string' ? input.text : `bytes ${Buffer.from(input.text).toString('hex')}`;
  return `input from ${input.source}: ${JSON.stringify(text.length > 600 ? `${text.slice(0, 600)}…` : text)}`;
}

/**
 * Awaits `work`, failing with a message naming `context` when it has not settled after
 * `boundMs`: a hang detector with a generous bound, not a speed assertion.
 */
export async function withinBound<T>(work: Promise<T>, boundMs: number, context: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer after ${boundMs} ms (a hang?): ${context}`)), boundMs);
  });
  try {
    return await Promise.race([work, hang]);
  } finally {
    clearTimeout(timer);
  }
}

/** The per-input hang bound of the fuzz specs (ms); `QUADLOG_FUZZ_HANG_MS` overrides it. */
export const HANG_BOUND_MS = Number(process.env.QUADLOG_FUZZ_HANG_MS) > 0 ? Number(process.env.QUADLOG_FUZZ_HANG_MS) : 15_000;

/** The store a fuzz spec works on, and what it held before each input. */
export interface FuzzStores {
  /** The current store's connection. */
  readonly ds: DataStoreConnection;
  /** The current store as it was filled (compared with after a failed input). */
  readonly base: StoreSnapshot;
  /** Replaces the store with a fresh one filled as at the start (after an input changed it). */
  fresh(): Promise<void>;
}

/**
 * Mocha hooks of a fuzz spec: a server that reads no IRI (the file scheme without a sandbox,
 * no http(s)), and a store filled by `fill`, replaced by {@link FuzzStores.fresh}.
 */
export function useFuzzStores(fill: (ds: DataStoreConnection) => Promise<void>): FuzzStores {
  let server: Server | undefined;
  let sc: ServerConnection | undefined;
  let ds: DataStoreConnection | undefined;
  let base: StoreSnapshot | undefined;
  let stores = 0;
  const state: FuzzStores = {
    get ds(): DataStoreConnection {
      return ds!;
    },
    get base(): StoreSnapshot {
      return base!;
    },
    async fresh(): Promise<void> {
      ds?.close();
      const name = `fuzz-${++stores}`;
      sc!.createDataStore(name);
      ds = sc!.newDataStoreConnection(name);
      await fill(ds);
      base = await snapshot(ds);
    },
  };
  before(async () => {
    server = await Server.create({ roleName: 'admin', password: 'pw', parameters: { 'password-hashing': 'fast', 'allowed-url-schemes-on-import': 'file' } });
    sc = await ConnectionFactory.newServerConnection(server.url, 'admin', 'pw');
    await state.fresh();
  });
  after(async () => {
    ds?.close();
    sc?.close();
    await server?.shutdown();
  });
  return state;
}
