/**
 * Replication benchmark (`npm run bench:replicas`): three `quadlog serve --persistence
 * postgresql` processes on one database of a PostgreSQL server started for the run
 * (spec/helpers/postgres.ts, spec/helpers/cluster.ts), holding LUBM(1) (100,543 triples, plus
 * the named graph of the query mix), measure:
 *
 * - **read throughput** of the SPARQL query mix of `bench/query-mix.ts` (every query, CSV
 *   answers) with `--clients` concurrent HTTP clients (keep-alive) sent round-robin to 1, 2
 *   and 3 processes (the writer, then one and two replicas), each for `--duration` seconds,
 *   in `--rounds` alternating rounds (1, 2, 3, 1, 2, 3, …); queries per second (median of the
 *   rounds) and the scaling against one process. Before timing, every query's answer is
 *   fetched from every process and must be the same (lines compared as a multiset);
 * - **replica lag** after a 1-triple commit: `--commits` single-triple INSERT DATA on the
 *   writer, one after another; right after each acknowledgement, both replicas are asked an
 *   ASK with `Quadlog-Min-Version: <the commit's version>`; the lag is the time from the
 *   acknowledgement to the replica's answer (so it includes one HTTP round trip, reported
 *   apart as the same ASK without the header); median and p99;
 * - **fail-over time**: a client writes one triple at a time to whichever process accepts; the
 *   writer is killed with SIGKILL; the time from the kill to the first write a new writer
 *   acknowledges, `--failovers` times (the old writer is started again as a replica between
 *   runs); median, with the lease time (`--lease`, default 3000 ms: the default of
 *   `persistence-lease-time`).
 *
 * - **carried derived changes** (part `derived`, on a cluster of its own): a writer and a
 *   replica started with `--persistence-replicate-derived` and a replica without it, on
 *   LUBM(1) with the Univ-Bench ontology and the RDFS rules of `bench/lib/reason-fixtures.ts`;
 *   both replicas follow the same records (the writer carries the derived changes, one replica
 *   applies them, the other reasons). Measured: the lag of each replica after `--commits`
 *   1-triple commits (a type triple: RDFS derives its superclasses), median and p99; and after
 *   `--big` commits of 1,000 type triples of fresh instances under a chain of 10 subclasses
 *   (10,000 derived facts each; every other one deleted again by the next commit) the time
 *   from the acknowledgement to each replica's answer at that version, with the size of the
 *   record and of its derived part. The two replicas apply
 *   each record at the same time, on the same cores.
 *
 * Usage: `npm run bench:replicas -- [--duration S] [--rounds N] [--clients N] [--commits N]
 * [--failovers N] [--lease MS] [--big N] [--parts throughput,lag,failover,derived]`.
 * The machine's load average is printed at start and end: other work on a 2-core machine
 * changes every figure.
 * @module
 */
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { cpus, loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { gunzipSync } from 'node:zlib';
import pg from 'pg';
import { decodeTransaction } from '../lib/persistence/transaction-record.js';
import { Cluster, CLUSTER_AUTH, ClusterNode, ConditionFailed, header, MIN_VERSION_HEADER, VERSION_HEADER, waitFor } from '../spec/helpers/cluster.js';
import { startPostgres } from '../spec/helpers/postgres.js';
import { LUBM } from '../spec/helpers/test-data.js';
import { table } from './lib/harness.js';
import { RDFS_DATALOG } from './lib/reason-fixtures.js';
import { MIX } from './query-mix.js';

const STORE = 'lubm';
/** The prefixes of the query mix (as bench/query-mix.ts states them). */
const PREFIXES = 'PREFIX ub: <http://swat.cse.lehigh.edu/onto/univ-bench.owl#>\nPREFIX xsd: <http://www.w3.org/2001/XMLSchema#>\n';
/** The named graph the mix's GRAPH queries read, filled as bench/query-mix.ts fills it. */
const FILL_NAMED_GRAPH = `${PREFIXES}INSERT { GRAPH <urn:graph:courses> { ?s ub:takesCourse ?c } } WHERE { ?s a ub:GraduateStudent ; ub:takesCourse ?c }`;

interface Options {
  duration: number;
  rounds: number;
  clients: number;
  commits: number;
  failovers: number;
  lease: number;
  big: number;
  parts: Set<string>;
}

function parseOptions(args: readonly string[]): Options {
  const options: Options = { duration: 15, rounds: 3, clients: 8, commits: 300, failovers: 5, lease: 3000, big: 10, parts: new Set(['throughput', 'lag', 'failover', 'derived']) };
  for (let i = 0; i < args.length; i++) {
    const name = args[i];
    const value = args[++i];
    if (value === undefined) throw new Error(`${name} needs a value`);
    if (name === '--parts') options.parts = new Set(value.split(','));
    else if (name === '--duration' || name === '--rounds' || name === '--clients' || name === '--commits' || name === '--failovers' || name === '--lease' || name === '--big') {
      const n = Number(value);
      if (!(n > 0)) throw new Error(`${name}: a positive number`);
      options[name.slice(2) as 'duration' | 'rounds' | 'clients' | 'commits' | 'failovers' | 'lease' | 'big'] = n;
    } else throw new Error(`unknown argument '${name}'`);
  }
  return options;
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? Number.NaN;
}

const median = (values: readonly number[]): number => percentile(values, 50);

/** A keep-alive request whose body is counted, not kept (unless `keep`). */
function get(agent: Agent, url: string, headers: Record<string, string>, keep = false): Promise<{ status: number; body: string; bytes: number }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers: { authorization: CLUSTER_AUTH, ...headers } }, (res) => {
      let body = '';
      let bytes = 0;
      res.on('data', (c: Buffer) => {
        bytes += c.length;
        if (keep) body += c.toString('utf8');
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, bytes }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** The Accept header of the mix: CSV for SELECT, JSON for ASK, N-Triples for CONSTRUCT and DESCRIBE. */
const ACCEPT = 'text/csv, application/sparql-results+json;q=0.9, application/n-triples;q=0.8';

const queryUrl = (node: ClusterNode, text: string): string => `${node.url}/datastores/${STORE}/sparql?query=${encodeURIComponent(PREFIXES + text)}`;

/** Loads LUBM(1) and the mix's named graph on the writer; waits until every node shows them. */
async function load(cluster: Cluster, writer: ClusterNode): Promise<number> {
  const created = await writer.request('POST', `/datastores/${STORE}`);
  if (created.status >= 300) throw new Error(`creating the store: ${created.status} ${created.body}`);
  const text = gunzipSync(readFileSync(LUBM.lubm1)).toString('utf8');
  const imported = await writer.request('POST', `/datastores/${STORE}/content`, { headers: { 'content-type': 'application/n-triples' }, body: text, timeoutMs: 600_000 });
  if (imported.status !== 200) throw new Error(`importing LUBM(1): ${imported.status} ${imported.body.slice(0, 500)}`);
  const filled = await writer.update(STORE, FILL_NAMED_GRAPH, { timeoutMs: 600_000 });
  if (filled.status >= 300) throw new Error(`filling the named graph: ${filled.status} ${filled.body}`);
  const count = 'SELECT (COUNT(*) AS ?n) WHERE { { ?s ?p ?o } UNION { GRAPH ?g { ?s ?p ?o } } }';
  const expected = (await writer.query(STORE, count)).body;
  for (const node of cluster.alive()) {
    await waitFor(
      `${node.id} to hold LUBM(1)`,
      async () => {
        if (!node.alive) throw new ConditionFailed(`${node.id} exited (${JSON.stringify(node.exit)}): ${node.stderr().slice(-2000)}`);
        const answer = await node.query(STORE, count);
        if (answer.body !== expected) throw new Error(`${node.id} answered ${answer.status} ${answer.error ?? answer.body.replace(/\s+/g, ' ').slice(0, 200)}, the writer ${expected.replace(/\s+/g, ' ')}`);
        return true;
      },
      600_000,
      500,
    );
  }
  return Number(expected.trim().split(/\r?\n/)[1]);
}

/** Every query of the mix answers the same on every node (CSV lines as a multiset); the problems. */
async function checkAnswers(nodes: readonly ClusterNode[]): Promise<string[]> {
  const agent = new Agent({ keepAlive: true });
  const problems: string[] = [];
  for (const q of MIX) {
    const answers = await Promise.all(nodes.map((n) => get(agent, queryUrl(n, q.text), { accept: ACCEPT }, true)));
    const canonical = answers.map((a) => `${a.status}\n${a.body.split(/\r?\n/).sort().join('\n')}`);
    if (answers[0]!.status !== 200) problems.push(`${q.name}: status ${answers[0]!.status}: ${answers[0]!.body.slice(0, 200)}`);
    if (canonical.some((c) => c !== canonical[0])) problems.push(`${q.name}: the nodes' answers differ`);
  }
  agent.destroy();
  return problems;
}

/** Queries per second of the mix with `clients` clients, round-robin over `nodes`, for `seconds`. */
async function throughput(nodes: readonly ClusterNode[], clients: number, seconds: number): Promise<{ perSecond: number; errors: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  let done = 0;
  let errors = 0;
  let turn = 0;
  const until = performance.now() + seconds * 1000;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      let i = c * 7;
      while (performance.now() < until) {
        const q = MIX[i++ % MIX.length]!;
        const node = nodes[turn++ % nodes.length]!;
        try {
          const answer = await get(agent, queryUrl(node, q.text), { accept: ACCEPT });
          if (answer.status === 200) done++;
          else errors++;
        } catch {
          errors++;
        }
      }
    }),
  );
  const elapsed = (performance.now() - start) / 1000;
  agent.destroy();
  return { perSecond: done / elapsed, errors };
}

/** Lag of the replicas after 1-triple commits: ms from the acknowledgement to a min-version read's answer, and the same read's time without the header. */
async function lag(writer: ClusterNode, replicas: readonly ClusterNode[], commits: number): Promise<{ lag: number[]; roundTrip: number[]; errors: string[] }> {
  const agent = new Agent({ keepAlive: true });
  const lags: number[] = [];
  const roundTrip: number[] = [];
  const errors: string[] = [];
  for (let i = 0; i < commits; i++) {
    const k = `${Date.now()}-${i}`;
    const answer = await writer.update(STORE, `INSERT DATA { <urn:lag:${k}> <urn:lag:p> ${i} }`);
    const acknowledged = performance.now();
    const version = header(answer, VERSION_HEADER);
    if (answer.status >= 300 || version === undefined) {
      errors.push(`commit ${i}: ${answer.status} ${answer.body.slice(0, 200)} (version header ${version})`);
      continue;
    }
    const ask = `ASK { <urn:lag:${k}> <urn:lag:p> ${i} }`;
    await Promise.all(
      replicas.map(async (replica) => {
        const read = await get(agent, queryUrl(replica, ask), { accept: ACCEPT, [MIN_VERSION_HEADER]: version }, true);
        const took = performance.now() - acknowledged;
        if (read.status !== 200 || !read.body.includes('true')) errors.push(`commit ${i} on ${replica.id}: ${read.status} ${read.body.slice(0, 200)}`);
        else lags.push(took);
      }),
    );
    const before = performance.now();
    await get(agent, queryUrl(replicas[i % replicas.length]!, ask), { accept: ACCEPT });
    roundTrip.push(performance.now() - before);
  }
  agent.destroy();
  return { lag: lags, roundTrip, errors };
}

/** One fail-over: kill -9 of the writer while a client writes; ms from the kill to the first write a new writer acknowledges. */
async function failover(cluster: Cluster, run: number): Promise<{ ms: number; from: string; to: string }> {
  const writer = await cluster.writer(120_000);
  let stopping = false;
  let firstAfterKill: { at: number; node: string } | undefined;
  let killedAt = Number.POSITIVE_INFINITY;
  let writes = 0;
  const client = (async () => {
    let target = writer;
    let i = 0;
    while (!stopping) {
      const answer = await target.update(STORE, `INSERT DATA { <urn:failover:${run}:${i}> <urn:failover:p> ${i} }`, { timeoutMs: 30_000 });
      i++;
      const at = performance.now();
      if (answer.status >= 200 && answer.status < 300) {
        writes++;
        if (at > killedAt && target !== writer && firstAfterKill === undefined) firstAfterKill = { at, node: target.id };
        continue;
      }
      // refused (naming the writer, or no writer yet) or no answer: the named writer, else the next node
      const named = /the writer is node '([^']+)'/.exec(answer.body)?.[1];
      const alive = cluster.alive();
      target = alive.find((n) => n.id === named && n !== target) ?? alive[(alive.indexOf(target) + 1) % alive.length] ?? target;
      await sleep(2);
    }
  })();
  await waitFor('writes before the kill', () => writes >= 20, 60_000, 10);
  killedAt = performance.now();
  await writer.kill();
  await waitFor('a write acknowledged by a new writer', () => firstAfterKill !== undefined, 120_000, 5);
  stopping = true;
  await client;
  const result = { ms: firstAfterKill!.at - killedAt, from: writer.id, to: firstAfterKill!.node };
  // the old writer rejoins as a replica before the next run
  await writer.start();
  await cluster.writer(120_000);
  return result;
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const cpu = cpus();
  console.log(`replicas on PostgreSQL: LUBM(1), 3 quadlog serve processes, lease ${options.lease} ms`);
  console.log(`node ${process.version}, ${cpu.length} × ${cpu[0]?.model ?? '?'}, load average at start ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  const postgres = await startPostgres();
  let cluster: Cluster | undefined;
  const problems: string[] = [];
  try {
    if (options.parts.has('derived')) problems.push(...(await derivedPart(await postgres.newDatabase(), options)));
    if (!['throughput', 'lag', 'failover'].some((p) => options.parts.has(p))) return;
    const database = await postgres.newDatabase();
    cluster = await Cluster.start({ connectionString: database, nodes: 3, leaseTimeMs: options.lease, idPrefix: 'bench' });
    const writer = await cluster.writer(120_000);
    const replicas = cluster.replicasOf(writer);
    const loadStart = performance.now();
    const facts = await load(cluster, writer);
    console.log(`loaded ${facts} facts on ${writer.id}, on every replica after ${((performance.now() - loadStart) / 1000).toFixed(1)} s`);
    if (options.parts.has('throughput')) {
      problems.push(...(await checkAnswers([writer, ...replicas])));
      const sets: Array<readonly ClusterNode[]> = [[writer], [writer, replicas[0]!], [writer, ...replicas]];
      // warm-up: every node runs the mix several times
      await throughput([writer, ...replicas], options.clients, Math.max(10, options.duration));
      const rates: number[][] = sets.map(() => []);
      let errors = 0;
      for (let round = 0; round < options.rounds; round++) {
        for (let s = 0; s < sets.length; s++) {
          const measured = await throughput(sets[s]!, options.clients, options.duration);
          rates[s]!.push(measured.perSecond);
          errors += measured.errors;
        }
      }
      if (errors > 0) problems.push(`${errors} queries failed during the throughput runs`);
      const one = median(rates[0]!);
      console.log(`\nread throughput: the query mix (${MIX.length} queries), ${options.clients} clients round-robin, ${options.rounds} rounds of ${options.duration} s`);
      console.log(table(['processes', 'queries/s (median)', 'rounds', 'scaling'], sets.map((set, s) => [String(set.length), median(rates[s]!).toFixed(1), rates[s]!.map((r) => r.toFixed(1)).join(' '), (median(rates[s]!) / one).toFixed(2)])));
    }
    if (options.parts.has('lag')) {
      const measured = await lag(writer, replicas, options.commits);
      problems.push(...measured.errors.slice(0, 10));
      console.log(`\nreplica lag after a 1-triple commit (${options.commits} commits, ${measured.lag.length} replica reads with ${MIN_VERSION_HEADER}):`);
      console.log(table(['measure', 'median ms', 'p99 ms', 'max ms'], [
        ['acknowledgement → replica answer at that version', median(measured.lag).toFixed(2), percentile(measured.lag, 99).toFixed(2), Math.max(...measured.lag).toFixed(2)],
        ['the same read without the header (round trip)', median(measured.roundTrip).toFixed(2), percentile(measured.roundTrip, 99).toFixed(2), Math.max(...measured.roundTrip).toFixed(2)],
      ]));
    }
    if (options.parts.has('failover')) {
      const runs: Array<{ ms: number; from: string; to: string }> = [];
      for (let run = 0; run < options.failovers; run++) runs.push(await failover(cluster, run));
      console.log(`\nfail-over: kill -9 of the writer → first write acknowledged by the new writer (lease ${options.lease} ms, ${options.failovers} runs)`);
      console.log(table(['run', 'from', 'to', 'ms'], runs.map((r, i) => [String(i + 1), r.from, r.to, r.ms.toFixed(0)])));
      console.log(`median ${median(runs.map((r) => r.ms)).toFixed(0)} ms`);
    }
  } finally {
    await cluster?.close();
    await postgres.stop();
    console.log(`\nload average at end ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    if (problems.length > 0) {
      console.error('\n!!! PROBLEMS !!!');
      for (const p of problems) console.error(`  ${p}`);
      process.exitCode = 1;
    }
  }
}

/** The subclass chain of the big commits: `urn:chain:c0` ⊑ … ⊑ `urn:chain:c9` ⊑ ub:Person. */
const CHAIN = 10;
/** Triples in one big commit. */
const BIG = 1000;
const UB = 'http://swat.cse.lehigh.edu/onto/univ-bench.owl#';
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';

/**
 * The `derived` part: a cluster of a carrying writer, a carrying replica and a reasoning one
 * on LUBM(1) with RDFS rules; the lag of each replica after 1-triple and 1,000-triple commits.
 * Returns the problems seen.
 */
async function derivedPart(database: string, options: Options): Promise<string[]> {
  const problems: string[] = [];
  const base = { connectionString: database, nodes: 3, leaseTimeMs: options.lease };
  const flag = '--persistence-replicate-derived';
  const writer = new ClusterNode('derived-writer', [...Cluster.argsOf('derived-writer', base), flag]);
  const carrying = new ClusterNode('carrying-replica', [...Cluster.argsOf('carrying-replica', base), flag]);
  const reasoning = new ClusterNode('reasoning-replica', Cluster.argsOf('reasoning-replica', base));
  const replicas = [carrying, reasoning];
  const nodes = [writer, ...replicas];
  const client = new pg.Client({ connectionString: database });
  try {
    await writer.start();
    await waitFor('the first node to be the writer', async () => (await writer.status())?.role === 'writer', 120_000, 200);
    await Promise.all(replicas.map((n) => n.start()));
    await client.connect();
    const created = await writer.request('POST', `/datastores/${STORE}`);
    if (created.status >= 300) throw new Error(`creating the store: ${created.status} ${created.body}`);
    const post = async (type: string, body: string, what: string): Promise<void> => {
      const answer = await writer.request('POST', `/datastores/${STORE}/content`, { headers: { 'content-type': type }, body, timeoutMs: 900_000 });
      if (answer.status !== 200) throw new Error(`importing ${what}: ${answer.status} ${answer.body.slice(0, 500)}`);
    };
    const loadStart = performance.now();
    await post('text/turtle', readFileSync(LUBM.ontology, 'utf8'), 'the ontology');
    await post('application/x.datalog', RDFS_DATALOG, 'the RDFS rules');
    await post('application/n-triples', gunzipSync(readFileSync(LUBM.lubm1)).toString('utf8'), 'LUBM(1)');
    let chain = '';
    for (let c = 0; c < CHAIN; c++) chain += `<urn:chain:c${c}> <http://www.w3.org/2000/01/rdf-schema#subClassOf> <${c + 1 < CHAIN ? `urn:chain:c${c + 1}` : `${UB}Person`}> .\n`;
    await post('application/n-triples', chain, 'the subclass chain');
    const count = 'SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }';
    const expected = (await writer.query(STORE, count, { timeoutMs: 600_000 })).body;
    for (const node of replicas) {
      await waitFor(`${node.id} to hold LUBM(1) with RDFS`, async () => {
        if (!node.alive) throw new ConditionFailed(`${node.id} exited: ${node.stderr().slice(-2000)}`);
        return (await node.query(STORE, count, { timeoutMs: 600_000 })).body === expected;
      }, 900_000, 500);
    }
    const facts = Number(expected.trim().split(/\r?\n/)[1]);
    console.log(`\ncarried derived changes: LUBM(1) + ontology + RDFS rules, ${facts} facts (explicit and derived) on every node after ${((performance.now() - loadStart) / 1000).toFixed(1)} s; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    const agent = new Agent({ keepAlive: true });
    /** ms from the acknowledgement of `update` to each replica's answer at its version. */
    const commit = async (update: string, ask: string, expected = true): Promise<{ version: number; lags: number[] }> => {
      const answer = await writer.update(STORE, update, { timeoutMs: 600_000 });
      const acknowledged = performance.now();
      const version = header(answer, VERSION_HEADER);
      if (answer.status >= 300 || version === undefined) throw new Error(`commit: ${answer.status} ${answer.body.slice(0, 200)}`);
      const lags = await Promise.all(replicas.map(async (replica) => {
        const read = await get(agent, queryUrl(replica, ask), { accept: ACCEPT, [MIN_VERSION_HEADER]: version }, true);
        const took = performance.now() - acknowledged;
        if (read.status !== 200 || !read.body.includes(String(expected))) problems.push(`version ${version} on ${replica.id}: ${read.status} ${read.body.slice(0, 200)}`);
        return took;
      }));
      return { version: Number(version), lags };
    };
    const small: number[][] = [[], []];
    for (let i = 0; i < options.commits; i++) {
      const { lags } = await commit(`INSERT DATA { <urn:small:${i}> <${RDF_TYPE}> <${UB}GraduateStudent> }`, `ASK { <urn:small:${i}> a <${UB}Person> }`);
      lags.forEach((l, r) => small[r]!.push(l));
    }
    const big: number[][] = [[], []];
    const bigDeleted: number[][] = [[], []];
    const sizes: Array<{ bytes: number; derivedBytes: number; derivedFacts: number }> = [];
    for (let b = 0; b < options.big; b++) {
      let triples = '';
      for (let i = 0; i < BIG; i++) triples += `<urn:big:${b}:${i}> <${RDF_TYPE}> <urn:chain:c0> . `;
      const { version, lags } = await commit(`INSERT DATA { ${triples}}`, `ASK { <urn:big:${b}:${BIG - 1}> a <${UB}Person> }`);
      lags.forEach((l, r) => big[r]!.push(l));
      // every other round, the same triples are deleted again (their derived facts go too)
      if (b % 2 === 1) {
        const deleted = await commit(`DELETE DATA { ${triples}}`, `ASK { <urn:big:${b}:${BIG - 1}> a <${UB}Person> }`, false);
        deleted.lags.forEach((l, r) => bigDeleted[r]!.push(l));
      }
      const row = (await client.query('SELECT body FROM quadlog.log WHERE version = $1 ORDER BY version DESC LIMIT 1', [version])).rows[0] as { body: Buffer } | undefined;
      if (row !== undefined) {
        const record = decodeTransaction(new Uint8Array(row.body));
        let derivedBytes = 8;
        let derivedFacts = 0;
        for (const t of record.derived ?? []) {
          derivedBytes += 16 + Math.ceil((t.added.byteLength) / 8) * 8 + Math.ceil((t.removed.byteLength) / 8) * 8;
          derivedFacts += (t.added.length + t.removed.length) / t.arity;
        }
        sizes.push({ bytes: row.body.length, derivedBytes: record.derived === undefined ? 0 : derivedBytes, derivedFacts });
      }
    }
    agent.destroy();
    for (const node of nodes) if (!node.alive) problems.push(`${node.id} exited: ${node.stderr().slice(-500)}`);
    console.log(`\nreplica lag with RDFS rules over LUBM(1): ms from the writer's acknowledgement to each replica's answer at that version`);
    console.log(table(['commits', 'replica', 'median ms', 'p99 ms', 'max ms'], [
      ...replicas.map((r, i) => [`${options.commits} × 1 type triple`, r === carrying ? 'carried (no reasoning)' : 'reasons', median(small[i]!).toFixed(2), percentile(small[i]!, 99).toFixed(2), Math.max(...small[i]!).toFixed(2)]),
      ...replicas.map((r, i) => [`${options.big} × ${BIG} type triples added (${BIG * CHAIN} derived)`, r === carrying ? 'carried (no reasoning)' : 'reasons', median(big[i]!).toFixed(1), percentile(big[i]!, 99).toFixed(1), Math.max(...big[i]!).toFixed(1)]),
      ...(bigDeleted[0]!.length === 0 ? [] : replicas.map((r, i) => [`${bigDeleted[i]!.length} × the same ${BIG} deleted`, r === carrying ? 'carried (no reasoning)' : 'reasons', median(bigDeleted[i]!).toFixed(1), percentile(bigDeleted[i]!, 99).toFixed(1), Math.max(...bigDeleted[i]!).toFixed(1)])),
    ]));
    if (sizes.length > 0) {
      const s = sizes[sizes.length - 1]!;
      console.log(`record of a ${BIG}-triple commit: ${s.bytes} bytes, of which ${s.derivedBytes} carry ${s.derivedFacts} derived changes`);
    }
    console.log(`load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  } finally {
    await client.end().catch(() => undefined);
    await Promise.all(nodes.map((n) => n.kill()));
  }
  return problems;
}

await main();
