/**
 * Soak test: an endpoint on the loopback interface and many concurrent HTTP clients for a fixed
 * time, mixing queries, cursors, imports, SPARQL updates, rule additions and deletions,
 * explicit transactions that commit or roll back, and connections that are deleted or left to
 * expire. At the end it checks that
 *
 * - no request answered 5xx (or failed at the network level), and every error is a documented
 *   one: a lock timeout (423, `LockTimeoutError`) or a conflict (409);
 * - the store equals what the acknowledged writes imply: they are replayed, in the order they
 *   were acknowledged, into a fresh in-memory store, and both exports (facts of every domain as
 *   N-Quads, and the rules) must be equal. Each client writes only its own subjects, predicates
 *   and rules, so the order in which different clients' writes commuted cannot matter;
 * - the heap (after a forced gc; run node with `--expose-gc`) returns near its level before the
 *   run once the store is cleared and the connections have expired. "Before" is measured after
 *   a warm-up of the same mix (3 s, not counted), so that compiled code and caches any first
 *   run builds are not taken for a leak.
 *
 * It reports throughput and p50/p99 latency per operation.
 *
 * Usage: `npm run soak -- [--seconds S] [--clients N] [--seed N] [--warmup S]` (default 60 s,
 * 100 clients, 3 s of warm-up).
 * spec/fuzz/soak.spec.ts runs {@link runSoak} in-process with fewer clients for fewer seconds.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';
import { pathToFileURL } from 'node:url';
import { ConnectionFactory, type DataStoreConnection, Server } from '../lib/index.js';
import { startEndpoint } from '../lib/http/index.js';

/** How to run a soak. */
export interface SoakOptions {
  /** How long the clients run, in seconds (default 60). */
  readonly seconds?: number;
  /** How many clients run at once (default 100). */
  readonly clients?: number;
  /** Seed of the clients' choices (default 1). */
  readonly seed?: number;
  /** How long a connection opened over HTTP lives unused, in ms (default 5000: connections left behind expire during the run). */
  readonly objectKeepAliveTime?: number;
  /**
   * Seconds of the same mix run first and not measured (default 3), so that the heap before
   * the run already holds what any first run builds (compiled code, caches); 0 for none.
   */
  readonly warmupSeconds?: number;
  /** Called with progress lines (default: none). */
  readonly log?: (line: string) => void;
}

/** Figures of one kind of operation. */
export interface OperationFigures {
  /** The operation. */
  readonly operation: string;
  /** How many completed (successfully or with a documented error). */
  readonly count: number;
  /** How many of them failed with a documented error. */
  readonly documentedErrors: number;
  /** Completed operations per second of the run. */
  readonly perSecond: number;
  /** Median latency, ms. */
  readonly p50: number;
  /** 99th-percentile latency, ms. */
  readonly p99: number;
}

/** What a soak found. */
export interface SoakReport {
  /** The length of the run, seconds (measured). */
  readonly seconds: number;
  /** The number of clients. */
  readonly clients: number;
  /** Figures per operation, and a row `all`. */
  readonly operations: readonly OperationFigures[];
  /** Documented errors by `status name` (e.g. `423 LockTimeoutError`), with counts. */
  readonly documentedErrors: Readonly<Record<string, number>>;
  /** Failures that are not documented: 5xx, network errors, unexpected statuses (first 20). */
  readonly undocumented: readonly string[];
  /** How many undocumented failures there were in all. */
  readonly undocumentedCount: number;
  /** The number of acknowledged writes replayed. */
  readonly acknowledgedWrites: number;
  /** Whether the store equals the replay of the acknowledged writes. */
  readonly storeMatchesReplay: boolean;
  /** When it does not: the first lines that differ. */
  readonly replayDifference?: string;
  /** The fact count of the store at the end (every domain). */
  readonly finalFacts: number;
  /**
   * heapUsed (MB, after gc): before the run (after the warm-up, the store cleared), right after it, once the
   * stores were cleared and the connections expired, and once the stores were deleted.
   */
  readonly heapMB: { readonly before: number; readonly after: number; readonly afterCleanup: number; readonly afterDelete: number; readonly gcAvailable: boolean };
}

/** A write the server acknowledged, to be replayed. */
type AcknowledgedWrite =
  | { readonly kind: 'import'; readonly type: 'ADD' | 'DELETE'; readonly mediaType: string; readonly text: string }
  | { readonly kind: 'update'; readonly text: string };

/** A small deterministic PRNG (mulberry32). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The value at quantile q of sorted numbers. */
function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

const ROLE = 'admin';
const PASSWORD = 'soak-secret';
const AUTH = `Basic ${Buffer.from(`${ROLE}:${PASSWORD}`).toString('base64')}`;
const STORE = 'soak';
const NS = 'http://soak.example/';

/** A non-2xx answer or a network failure, classified. */
class RequestFailure extends Error {
  constructor(
    readonly status: number,
    readonly errorName: string,
    readonly body: string,
  ) {
    super(`${status} ${errorName}: ${body.slice(0, 200)}`);
  }
}

/** An answer read whole (the clients' own small Response). */
class Answer {
  constructor(
    readonly status: number,
    private readonly headerValues: Readonly<Record<string, string | string[] | undefined>>,
    private readonly body: string,
  ) {}
  /** Fields of the answer's head (case-insensitive names). */
  get headers(): { get(name: string): string | null } {
    return {
      get: (name: string): string | null => {
        const v = this.headerValues[name.toLowerCase()];
        return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
      },
    };
  }
  /** The body as text. */
  text(): Promise<string> {
    return Promise.resolve(this.body);
  }
  /** The body parsed as JSON. */
  json(): Promise<unknown> {
    return Promise.resolve(JSON.parse(this.body) as unknown);
  }
  /** The body, dropped. */
  arrayBuffer(): Promise<void> {
    return Promise.resolve();
  }
}

/**
 * Sends one HTTP request with node:http through `agent` (the clients' own keep-alive agent, so
 * that their sockets and buffers go away with it and are not counted as the server's memory).
 */
function httpRequest(agent: Agent, method: string, url: string, headers: Record<string, string>, body: string | undefined): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: body !== undefined ? { ...headers, 'content-length': String(Buffer.byteLength(body)) } : headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve(new Answer(res.statusCode ?? 0, res.headers, Buffer.concat(chunks).toString('utf8'))));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A data store connection opened over HTTP, and when the latest request on it started. */
interface ConnectionRef {
  readonly id: string;
  lastStart: number;
}

/** Statuses a soak may see, with the error names that are documented for them. */
const DOCUMENTED: Readonly<Record<number, readonly string[]>> = {
  423: ['LockTimeoutError'],
  409: ['TransactionError', 'ResourceInUseError', 'InterruptedError', 'InvalidConnectionError'],
  404: ['ConnectionExpired'],
};

/** Sorted non-empty lines (exports are compared as sets of lines). */
function lines(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('@prefix') && !l.startsWith('PREFIX'))
    .sort();
}

/** Facts (every domain) and rules of a store, as sorted lines. */
async function contents(ds: DataStoreConnection): Promise<{ facts: string[]; rules: string[] }> {
  return {
    facts: lines(await ds.exportDataToString('application/n-quads', { 'fact-domain': 'all' })),
    rules: lines(await ds.exportDataToString('application/x.datalog')),
  };
}

/** The first differences between two sorted line lists. */
function difference(a: readonly string[], b: readonly string[]): string {
  const inA = new Set(a);
  const inB = new Set(b);
  const onlyA = a.filter((l) => !inB.has(l)).slice(0, 5);
  const onlyB = b.filter((l) => !inA.has(l)).slice(0, 5);
  return [...onlyA.map((l) => `store only: ${l}`), ...onlyB.map((l) => `replay only: ${l}`)].join('\n');
}

function heapMB(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  gc?.();
  return Math.round((process.memoryUsage().heapUsed / 1048576) * 10) / 10;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs a soak (see the module comment) and reports what it found. */
export async function runSoak(options: SoakOptions = {}): Promise<SoakReport> {
  const seconds = options.seconds ?? 60;
  const clientCount = options.clients ?? 100;
  const keepAlive = options.objectKeepAliveTime ?? 5000;
  const log = options.log ?? ((): void => undefined);

  const server = await Server.create({ roleName: ROLE, password: PASSWORD, url: `soak://${randomUUID()}`, parameters: { 'password-hashing': 'fast' } });
  const endpoint = await startEndpoint(server, { port: 0, host: '127.0.0.1', objectKeepAliveTime: keepAlive, console: false });
  const sc = await ConnectionFactory.newServerConnection(server.url, ROLE, PASSWORD);
  sc.createDataStore(STORE);
  const base = `${endpoint.url}/datastores/${STORE}`;
  let agent = new Agent({ keepAlive: true, maxSockets: clientCount });

  const latencies = new Map<string, number[]>();
  const documentedByOperation = new Map<string, number>();
  const documentedErrors: Record<string, number> = {};
  const undocumented: string[] = [];
  let undocumentedCount = 0;
  const acknowledged: AcknowledgedWrite[] = [];

  /** Sends a request; a non-2xx answer or a network failure throws {@link RequestFailure}. */
  async function send(method: string, url: string, init: { body?: string; contentType?: string; accept?: string; conn?: ConnectionRef } = {}): Promise<Answer> {
    const start = performance.now();
    const previousStart = init.conn?.lastStart;
    if (init.conn) init.conn.lastStart = start;
    const headers: Record<string, string> = { authorization: AUTH };
    if (init.contentType) headers['content-type'] = init.contentType;
    if (init.accept) headers.accept = init.accept;
    let res: Answer;
    try {
      res = await httpRequest(agent, method, url, headers, init.body);
    } catch (e) {
      throw new RequestFailure(0, 'NetworkError', `${method} ${url}: ${(e as Error).message}`);
    }
    if (res.status >= 300) {
      const body = await res.text();
      const name = /\b([A-Z][A-Za-z]*Error)\b/.exec(body)?.[1] ?? 'unnamed';
      // a connection may expire once it has been idle for objectKeepAliveTime: possible only
      // when that much time passed between the start of the previous request on it and now
      if (res.status === 404 && name === 'UnknownResourceError' && previousStart !== undefined && /expired/.test(body) && performance.now() - previousStart >= keepAlive) {
        throw new RequestFailure(404, 'ConnectionExpired', `${method} ${url.slice(endpoint.url.length)}: ${body}`);
      }
      throw new RequestFailure(res.status, name, `${method} ${url.slice(endpoint.url.length)}: ${body}`);
    }
    return res;
  }

  /** Runs one operation, timing it and classifying its failure. */
  async function timed(operation: string, work: () => Promise<void>): Promise<void> {
    const start = performance.now();
    try {
      await work();
    } catch (e) {
      const failure = e instanceof RequestFailure ? e : new RequestFailure(0, (e as Error).name, String((e as Error).stack ?? e));
      if (DOCUMENTED[failure.status]?.includes(failure.errorName)) {
        const key = `${failure.status} ${failure.errorName}`;
        documentedErrors[key] = (documentedErrors[key] ?? 0) + 1;
        documentedByOperation.set(operation, (documentedByOperation.get(operation) ?? 0) + 1);
      } else {
        undocumentedCount++;
        if (undocumented.length < 20) undocumented.push(`${operation}: ${failure.message}`);
        return; // not counted as completed
      }
    }
    let list = latencies.get(operation);
    if (!list) latencies.set(operation, (list = []));
    list.push(performance.now() - start);
  }

  /** Opens a data store connection over HTTP; returns its id. */
  async function openConnection(): Promise<ConnectionRef> {
    const lastStart = performance.now();
    const res = await send('POST', `${base}/connections`);
    await res.arrayBuffer();
    const location = res.headers.get('location') ?? '';
    return { id: location.slice(location.lastIndexOf('/') + 1), lastStart };
  }

  async function client(id: number, deadline: number, seed: number): Promise<void> {
    const random = prng(seed * 7919 + id);
    const subject = (k: number): string => `<${NS}c${id}/s${k}>`;
    const predicate = `<${NS}c${id}/p>`;
    const rule = `[?x, <${NS}c${id}/derived>, ?v] :- [?x, <${NS}c${id}/p>, ?v], FILTER(?v > 5) .`;
    let ruleAdded = false;
    let counter = 0;
    const triple = (k: number): string => `${subject(k)} ${predicate} "${k}"^^<http://www.w3.org/2001/XMLSchema#integer> .`;
    const live = new Set<number>();
    const pickLive = (): number | undefined => {
      if (live.size === 0) return undefined;
      const all = [...live];
      return all[Math.floor(random() * all.length)];
    };

    while (performance.now() < deadline) {
      const r = random();
      if (r < 0.25) {
        await timed('query', async () => {
          const q = random() < 0.5 ? `SELECT ?s ?v WHERE { ?s ${predicate} ?v } ORDER BY ?v` : `SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }`;
          const res = await send('GET', `${base}/sparql?query=${encodeURIComponent(q)}`, { accept: 'application/sparql-results+json' });
          await res.json();
        });
      } else if (r < 0.35) {
        await timed('cursor', async () => {
          const conn = await openConnection();
          try {
            const q = `SELECT ?s ?p ?o WHERE { ?s ?p ?o }`;
            const created = await send('POST', `${base}/connections/${conn.id}/cursors?query=${encodeURIComponent(q)}`, { conn });
            await created.arrayBuffer();
            const cursor = `${endpoint.url}${created.headers.get('location') ?? ''}`;
            let page = await send('PATCH', `${cursor}?operation=open&limit=50`, { accept: 'text/csv', conn });
            await page.text();
            for (let i = 0; i < 3 && page.headers.get('service-cursor-more') === 'true'; i++) {
              page = await send('PATCH', `${cursor}?operation=advance&limit=50`, { accept: 'text/csv', conn });
              await page.text();
            }
            await (await send('DELETE', cursor, { conn })).arrayBuffer();
          } finally {
            await send('DELETE', `${base}/connections/${conn.id}`, { conn }).then((res) => res.arrayBuffer()).catch(() => undefined);
          }
        });
      } else if (r < 0.5) {
        const ks = Array.from({ length: 1 + Math.floor(random() * 5) }, () => ++counter);
        const text = ks.map(triple).join('\n');
        await timed('import', async () => {
          await (await send('PATCH', `${base}/content?operation=add-content`, { body: text, contentType: 'application/n-triples' })).arrayBuffer();
          acknowledged.push({ kind: 'import', type: 'ADD', mediaType: 'application/n-triples', text });
          for (const k of ks) live.add(k);
        });
      } else if (r < 0.6) {
        const k = pickLive();
        if (k === undefined) continue;
        const text = triple(k);
        await timed('import-delete', async () => {
          await (await send('PATCH', `${base}/content?operation=delete-content`, { body: text, contentType: 'application/n-triples' })).arrayBuffer();
          acknowledged.push({ kind: 'import', type: 'DELETE', mediaType: 'application/n-triples', text });
          live.delete(k);
        });
      } else if (r < 0.72) {
        const insert = random() < 0.6 || live.size === 0;
        const k = insert ? ++counter : pickLive()!;
        const text = `${insert ? 'INSERT' : 'DELETE'} DATA { ${triple(k).slice(0, -2)} }`;
        await timed('update', async () => {
          await (await send('POST', `${base}/sparql`, { body: text, contentType: 'application/sparql-update' })).arrayBuffer();
          acknowledged.push({ kind: 'update', text });
          if (insert) live.add(k);
          else live.delete(k);
        });
      } else if (r < 0.78) {
        const adding = !ruleAdded;
        await timed(adding ? 'rule-add' : 'rule-delete', async () => {
          await (await send('PATCH', `${base}/content?operation=${adding ? 'add' : 'delete'}-content`, { body: rule, contentType: 'application/x.datalog' })).arrayBuffer();
          acknowledged.push({ kind: 'import', type: adding ? 'ADD' : 'DELETE', mediaType: 'application/x.datalog', text: rule });
          ruleAdded = adding;
        });
      } else if (r < 0.9) {
        const commit = random() < 0.6;
        const ks = [++counter, ++counter];
        const text = ks.map(triple).join('\n');
        await timed(commit ? 'transaction-commit' : 'transaction-rollback', async () => {
          const conn = await openConnection();
          const tx = `${base}/connections/${conn.id}/transaction`;
          let open = false;
          try {
            await (await send('POST', `${tx}?operation=begin-read-write`, { conn })).arrayBuffer();
            open = true;
            await (await send('PATCH', `${base}/content?operation=add-content&connection=${conn.id}`, { body: text, contentType: 'application/n-triples', conn })).arrayBuffer();
            const q = `SELECT (COUNT(*) AS ?n) WHERE { ?s ${predicate} ?v }`;
            await (await send('GET', `${base}/sparql?connection=${conn.id}&query=${encodeURIComponent(q)}`, { accept: 'text/csv', conn })).text();
            await (await send('POST', `${tx}?operation=${commit ? 'commit' : 'rollback'}`, { conn })).arrayBuffer();
            open = false;
            if (commit) {
              acknowledged.push({ kind: 'import', type: 'ADD', mediaType: 'application/n-triples', text });
              for (const k of ks) live.add(k);
            }
          } finally {
            if (open) await send('POST', `${tx}?operation=rollback`, { conn }).then((res) => res.arrayBuffer()).catch(() => undefined);
            await send('DELETE', `${base}/connections/${conn.id}`, { conn }).then((res) => res.arrayBuffer()).catch(() => undefined);
          }
        });
      } else {
        const expire = random() < 0.5;
        await timed(expire ? 'connection-expire' : 'connection-delete', async () => {
          const conn = await openConnection();
          const q = `ASK { ?s ${predicate} ?v }`;
          await (await send('GET', `${base}/sparql?connection=${conn.id}&query=${encodeURIComponent(q)}`, { accept: 'application/sparql-results+json', conn })).json();
          // left to expire after objectKeepAliveTime, or closed now
          if (!expire) await (await send('DELETE', `${base}/connections/${conn.id}`, { conn })).arrayBuffer();
        });
      }
    }
  }

  // warm-up: the same mix, not measured, so that the heap figure before the run includes the
  // code and caches any first run builds; then the store is cleared and the figures reset
  const warmup = options.warmupSeconds ?? 3;
  const ds = sc.newDataStoreConnection(STORE);
  if (warmup > 0) {
    const warmupEnd = performance.now() + warmup * 1000;
    await Promise.all(Array.from({ length: clientCount }, (_, i) => client(i, warmupEnd, (options.seed ?? 1) + 1_000_003)));
    await sleep(keepAlive + 1500); // connections left behind expire
    // the warm-up's idle sockets are dropped: the server closes an idle keep-alive socket
    // after its own timeout, and a request sent on one just then fails with ECONNRESET (on a
    // busy machine the sleep above reaches that timeout for every client at once)
    agent.destroy();
    agent = new Agent({ keepAlive: true, maxSockets: clientCount });
    await ds.clear();
    latencies.clear();
    documentedByOperation.clear();
    for (const key of Object.keys(documentedErrors)) delete documentedErrors[key];
    acknowledged.length = 0;
  }
  const heapBefore = heapMB();

  const started = performance.now();
  const deadline = started + seconds * 1000;
  const ticker = setInterval(() => {
    const done = [...latencies.values()].reduce((n, l) => n + l.length, 0);
    log(`${Math.round((performance.now() - started) / 1000)} s: ${done} operations, ${undocumentedCount} undocumented failures`);
  }, 5000);
  await Promise.all(Array.from({ length: clientCount }, (_, i) => client(i, deadline, options.seed ?? 1)));
  clearInterval(ticker);
  const elapsed = (performance.now() - started) / 1000;

  // the replay: acknowledged writes, in acknowledgement order, into a fresh in-memory store
  sc.createDataStore('replay');
  const replay = sc.newDataStoreConnection('replay');
  for (const w of acknowledged) {
    if (w.kind === 'update') await replay.evaluateUpdate(w.text);
    else await replay.importData(w.type, w.text, { mediaType: w.mediaType });
  }
  const got = await contents(ds);
  const want = await contents(replay);
  const matches = JSON.stringify(got) === JSON.stringify(want);
  const finalFacts = got.facts.length;
  agent.destroy();
  const heapAfter = heapMB();

  // cleanup: clear both stores, let the connections the clients left behind expire
  await ds.clear();
  await replay.clear();
  replay.close();
  ds.close();
  await sleep(keepAlive + 1500);
  const heapAfterCleanup = heapMB();
  sc.deleteDataStore(STORE);
  sc.deleteDataStore('replay');
  const heapAfterDelete = heapMB();

  await endpoint.close();
  sc.close();
  await server.shutdown();

  const operations: OperationFigures[] = [];
  const all: number[] = [];
  for (const [operation, list] of [...latencies].sort((a, b) => a[0].localeCompare(b[0]))) {
    const sorted = [...list].sort((a, b) => a - b);
    all.push(...list);
    operations.push({ operation, count: list.length, documentedErrors: documentedByOperation.get(operation) ?? 0, perSecond: list.length / elapsed, p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99) });
  }
  const sortedAll = all.sort((a, b) => a - b);
  operations.push({ operation: 'all', count: all.length, documentedErrors: [...documentedByOperation.values()].reduce((a, b) => a + b, 0), perSecond: all.length / elapsed, p50: quantile(sortedAll, 0.5), p99: quantile(sortedAll, 0.99) });

  return {
    seconds: elapsed,
    clients: clientCount,
    operations,
    documentedErrors,
    undocumented,
    undocumentedCount,
    acknowledgedWrites: acknowledged.length,
    storeMatchesReplay: matches,
    ...(matches ? {} : { replayDifference: `${difference(got.facts, want.facts)}\n${difference(got.rules, want.rules)}` }),
    finalFacts,
    heapMB: { before: heapBefore, after: heapAfter, afterCleanup: heapAfterCleanup, afterDelete: heapAfterDelete, gcAvailable: typeof (globalThis as { gc?: unknown }).gc === 'function' },
  };
}

/** The report as a Markdown table and a few lines. */
export function formatReport(report: SoakReport): string {
  const rows = report.operations.map((o) => `| ${o.operation} | ${o.count} | ${o.documentedErrors} | ${o.perSecond.toFixed(1)} | ${o.p50.toFixed(1)} | ${o.p99.toFixed(1)} |`);
  return [
    `soak: ${report.clients} clients for ${report.seconds.toFixed(1)} s`,
    '',
    '| operation | completed | documented errors | per second | p50 ms | p99 ms |',
    '|---|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    `documented errors: ${JSON.stringify(report.documentedErrors)}`,
    `undocumented failures: ${report.undocumentedCount}${report.undocumented.length ? `\n  ${report.undocumented.join('\n  ')}` : ''}`,
    `acknowledged writes replayed: ${report.acknowledgedWrites}; store equals the replay: ${report.storeMatchesReplay}${report.replayDifference ? `\n${report.replayDifference}` : ''}`,
    `final facts: ${report.finalFacts}`,
    `heapUsed MB (after gc${report.heapMB.gcAvailable ? '' : ' — unavailable: run node with --expose-gc'}): before ${report.heapMB.before}, after the run ${report.heapMB.after}, after clearing and connection expiry ${report.heapMB.afterCleanup}, after deleting the stores ${report.heapMB.afterDelete}`,
  ].join('\n');
}

/** Whether a report passes: no undocumented failure, the replay matches, the heap came back (within 32 MB or 50 %). */
export function soakPassed(report: SoakReport): boolean {
  const heapOk = !report.heapMB.gcAvailable || report.heapMB.afterCleanup <= Math.max(report.heapMB.before + 32, report.heapMB.before * 1.5);
  return report.undocumentedCount === 0 && report.storeMatchesReplay && heapOk;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  const value = (name: string): number | undefined => {
    const i = args.indexOf(name);
    return i >= 0 && args[i + 1] !== undefined ? Number(args[i + 1]) : undefined;
  };
  const seconds = value('--seconds');
  const clients = value('--clients');
  const seed = value('--seed');
  const warmupSeconds = value('--warmup');
  const report = await runSoak({
    ...(seconds !== undefined ? { seconds } : {}),
    ...(clients !== undefined ? { clients } : {}),
    ...(seed !== undefined ? { seed } : {}),
    ...(warmupSeconds !== undefined ? { warmupSeconds } : {}),
    log: (line) => console.log(line),
  });
  console.log(formatReport(report));
  const passed = soakPassed(report);
  console.log(passed ? 'soak passed' : 'soak FAILED');
  process.exitCode = passed ? 0 : 1;
}
