/**
 * Specs of replication on PostgreSQL with real processes: three `quadlog serve --persistence
 * postgresql` processes on one database of a PostgreSQL server started by the spec
 * (helpers/postgres.ts, helpers/cluster.ts). One is the writer, the others replicas:
 * - writes, a rule's derived facts and a new role on the writer appear on both replicas;
 * - a write sent to a replica is refused (503 `ReplicaWriteError`) naming the writer's node id
 *   and URL, and changes nothing;
 * - read-your-writes: a read on a replica with the `Quadlog-Min-Version` header of a commit's
 *   version sees that commit; a version never reached answers 503;
 * - 100 concurrent HTTP clients reading from the replicas during a stream of writes see only
 *   whole, committed states, each a prefix of the writes, never going back;
 * - kill -9 of the writer during a stream of acknowledged writes: a replica takes over, every
 *   acknowledged write is on every node afterwards, no write is there in part, nothing a node
 *   ever showed is missing afterwards; the old writer, started again, rejoins as a replica;
 * - the same with PostgreSQL stopped (immediate shutdown) and started again mid-stream: writes
 *   fail while it is down, and nothing acknowledged is lost.
 * Every wait is on a condition with a generous deadline (the suite may run twice at once on a
 * busy 2-core machine); ports are ephemeral and each cluster has a database of its own.
 */
import { expect } from 'chai';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Cluster, ConditionFailed, header, MIN_VERSION_HEADER, VERSION_HEADER, waitFor, type ClusterNode } from '../helpers/cluster.js';
import { createWorkloadStore, isAcknowledged, parseState, STATE_QUERY, stateOf, WORKLOAD_STORE, WriteStream, writeText, type WorkloadState } from '../helpers/cluster-workload.js';
import { usePostgres } from '../helpers/postgres.js';

/** The lease of the spec's clusters (ms): short, so that a fail-over takes seconds. */
const LEASE_MS = 1500;
/** How long any one condition may take to hold. */
const DEADLINE_MS = 120_000;

const sorted = (s: Iterable<string>): string[] => [...s].sort((a, b) => Number(a) - Number(b));

/** Waits until `node` shows every write of `expected` whole and nothing else; fails at once when it shows a write in part. */
async function showsExactly(node: ClusterNode, expected: ReadonlySet<string>, what: string): Promise<WorkloadState> {
  return waitFor(
    `${node.id} to show ${what}`,
    async () => {
      const answer = await node.query(WORKLOAD_STORE, STATE_QUERY);
      if (answer.status !== 200) throw new Error(`${node.id} answered ${answer.status} ${answer.error ?? answer.body.slice(0, 300)}`);
      const state = parseState(answer.body);
      if (state.partial.length > 0) throw new ConditionFailed(`${node.id} shows writes in part: ${state.partial.join('; ')}`);
      const same = state.whole.size === expected.size && [...expected].every((k) => state.whole.has(k));
      if (!same) throw new Error(`${node.id} shows ${state.whole.size} writes; missing ${sorted([...expected].filter((k) => !state.whole.has(k))).slice(0, 10).join(',')}; more ${sorted([...state.whole].filter((k) => !expected.has(k))).slice(0, 10).join(',')}`);
      return state;
    },
    DEADLINE_MS,
  );
}

/** Checks the outcome of a write stream on every running node: see the module documentation. */
async function checkAfterStream(cluster: Cluster, stream: WriteStream, seenAnywhere: ReadonlySet<string>): Promise<void> {
  const writer = await cluster.writer(DEADLINE_MS);
  const final = await waitFor('the writer to answer its state', () => stateOf(writer), DEADLINE_MS);
  expect(final.partial, 'writes in part on the writer').to.deep.equal([]);
  const missing = stream.acknowledged.map(String).filter((k) => !final.whole.has(k));
  expect(missing, 'acknowledged writes missing on the writer').to.deep.equal([]);
  const neverSent = sorted(final.whole).filter((k) => !stream.sent.has(Number(k)));
  expect(neverSent, 'writes present that were never sent').to.deep.equal([]);
  const vanished = sorted(seenAnywhere).filter((k) => !final.whole.has(k));
  expect(vanished, 'writes some node showed that are not in the final state (shown before they were committed)').to.deep.equal([]);
  for (const node of cluster.alive()) await showsExactly(node, final.whole, `the writer's ${final.whole.size} writes`);
}

/** Reads the state from every running node in a loop until stopped; records what any showed and any partial state. */
function readLoop(cluster: Cluster): { readonly seen: Set<string>; readonly partial: string[]; stop(): Promise<void> } {
  const seen = new Set<string>();
  const partial: string[] = [];
  let stopping = false;
  const done = (async () => {
    while (!stopping) {
      for (const node of cluster.alive()) {
        const state = await stateOf(node);
        if (state === undefined) continue;
        for (const k of state.whole) seen.add(k);
        for (const p of state.partial) partial.push(`${node.id}: ${p}`);
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  return {
    seen,
    partial,
    stop: async () => {
      stopping = true;
      await done;
    },
  };
}

describe('replication: three quadlog serve processes on one PostgreSQL database', function () {
  this.timeout(600_000);
  const pg = usePostgres();

  describe('a writer and two replicas', () => {
    let cluster: Cluster | undefined;
    let writer: ClusterNode;
    let replicas: ClusterNode[];

    before(async function () {
      this.timeout(300_000);
      const database = await pg.newDatabase();
      // a longer lease: these specs keep one writer throughout, even on a busy machine
      cluster = await Cluster.start({ connectionString: database, nodes: 3, leaseTimeMs: 5000, idPrefix: 'rep', extraArgs: ['--query-time-limit', '10000'] });
      writer = await cluster.writer(DEADLINE_MS);
      replicas = cluster.replicasOf(writer);
      expect(replicas).to.have.length(2);
      await createWorkloadStore(writer);
    });

    after(async () => {
      await cluster?.close();
    });

    it('shows the writes, derived facts and roles of the writer on both replicas', async () => {
      const written = new Set<string>();
      for (let k = 0; k < 10; k++) {
        const answer = await writer.update(WORKLOAD_STORE, writeText(k));
        expect(isAcknowledged(answer), `${answer.status} ${answer.body}`).to.equal(true);
        written.add(String(k));
      }
      for (const replica of replicas) await showsExactly(replica, written, 'the 10 writes');
      // a role made on the writer signs in on the replicas
      const created = await writer.request('POST', '/roles/reader', { body: 'reader-pw' });
      expect(created.status, created.body).to.equal(201);
      const granted = await writer.request('PATCH', `/roles/reader/privileges?operation=grant&resource-specifier=${encodeURIComponent(`>datastores|${WORKLOAD_STORE}`)}&access-types=read`);
      expect(granted.status, granted.body).to.be.oneOf([200, 204]);
      const asReader = { authorization: `Basic ${Buffer.from('reader:reader-pw').toString('base64')}` };
      for (const replica of replicas) {
        await waitFor(
          `the role 'reader' to read on ${replica.id}`,
          async () => {
            const read = await replica.query(WORKLOAD_STORE, 'ASK { <urn:w:0> <urn:p:part> 1 }', { headers: asReader, accept: 'application/sparql-results+json' });
            if (read.status !== 200) throw new Error(`${read.status} ${read.body.slice(0, 200)}`);
            return (JSON.parse(read.body) as { boolean: boolean }).boolean;
          },
          DEADLINE_MS,
        );
      }
    });

    it('refuses a write on a replica, naming the writer, and changes nothing', async () => {
      const before = await stateOf(writer);
      for (const replica of replicas) {
        const refused = await replica.update(WORKLOAD_STORE, writeText('refused'));
        expect(refused.status, refused.body).to.equal(503);
        expect(refused.body).to.match(/^ReplicaWriteError: /);
        expect(refused.body).to.include(`'${writer.id}'`);
        expect(refused.body).to.include(writer.url);
        const store = await replica.request('POST', '/datastores/elsewhere');
        expect(store.status, store.body).to.equal(503);
        expect(store.body).to.match(/^ReplicaWriteError: /);
        expect(store.body).to.include(writer.id);
      }
      // a write on the writer after the refusals is seen on the replicas, the refused ones are not
      const after = await writer.update(WORKLOAD_STORE, writeText('after-refusals'));
      expect(isAcknowledged(after), `${after.status} ${after.body}`).to.equal(true);
      const expected = new Set([...(before?.whole ?? []), 'after-refusals']);
      for (const node of [writer, ...replicas]) {
        const state = await showsExactly(node, expected, 'no refused write');
        expect(state.whole.has('refused')).to.equal(false);
        const stores = await node.request('GET', '/datastores', { headers: { accept: 'text/csv' } });
        expect(stores.status).to.equal(200);
        expect(stores.body).to.not.include('elsewhere');
      }
    });

    it('reads its writes on a replica with the Quadlog-Min-Version header', async () => {
      for (let i = 0; i < 20; i++) {
        const k = `ryw-${i}`;
        const answer = await writer.update(WORKLOAD_STORE, writeText(k));
        expect(isAcknowledged(answer), `${answer.status} ${answer.body}`).to.equal(true);
        const version = header(answer, VERSION_HEADER);
        expect(version, `the ${VERSION_HEADER} header of a commit`).to.match(/^\d+$/);
        const replica = replicas[i % replicas.length]!;
        const read = await replica.query(WORKLOAD_STORE, `ASK { <urn:w:${k}> <urn:p:part> 3 }`, { headers: { [MIN_VERSION_HEADER]: version! }, accept: 'application/sparql-results+json' });
        expect(read.status, read.body).to.equal(200);
        expect((JSON.parse(read.body) as { boolean: boolean }).boolean, `write ${k} (version ${version}) read on ${replica.id}`).to.equal(true);
      }
      // a version no commit reached: the wait ends within the query time limit with 503
      const last = await writer.update(WORKLOAD_STORE, writeText('ryw-last'));
      const far = String(Number(header(last, VERSION_HEADER)) + 1_000_000);
      const late = await replicas[0]!.query(WORKLOAD_STORE, 'ASK { ?s ?p ?o }', { headers: { [MIN_VERSION_HEADER]: far }, timeoutMs: 60_000 });
      expect(late.status, late.body).to.equal(503);
      expect(late.body).to.match(/^VersionTimeoutError: /);
      const bad = await replicas[0]!.query(WORKLOAD_STORE, 'ASK { ?s ?p ?o }', { headers: { [MIN_VERSION_HEADER]: 'soon' } });
      expect(bad.status, bad.body).to.equal(400);
    });

    it('answers 100 concurrent readers on the replicas with whole committed states only, never going back', async () => {
      const state = await stateOf(writer);
      const start = new Set(state?.whole ?? []);
      // a stream of numbered writes (from 1000) on the writer while the clients read
      const stream = new WriteStream(cluster!, writer, 1000);
      const problems: string[] = [];
      /** Per client, the stream's writes each of its reads showed, in order. */
      const shown: { readonly client: string; readonly reads: number[][] }[] = [];
      try {
        await stream.acknowledgedAtLeast(5, DEADLINE_MS);
        const clients = Array.from({ length: 100 }, async (_, c) => {
          const replica = replicas[c % replicas.length]!;
          const reads: number[][] = [];
          shown.push({ client: `client ${c} on ${replica.id}`, reads });
          for (let i = 0; i < 8; i++) {
            const read = await stateOf(replica);
            if (read === undefined) {
              problems.push(`client ${c} on ${replica.id}: no answer`);
              continue;
            }
            if (read.partial.length > 0) problems.push(`client ${c} on ${replica.id}: in part: ${read.partial.join('; ')}`);
            const lost = [...start].filter((k) => !read.whole.has(k));
            if (lost.length > 0) problems.push(`client ${c} on ${replica.id}: lost ${lost.join(',')}`);
            reads.push([...read.whole].filter((k) => !start.has(k)).map(Number));
          }
        });
        await Promise.all(clients);
      } finally {
        await stream.stop();
      }
      // the stream's writes commit in order: a committed state holds every acknowledged write
      // up to the last it shows, and a later read of a client holds all an earlier one did
      const acknowledged = stream.acknowledged;
      for (const { client, reads } of shown) {
        let previous = new Set<number>();
        for (const read of reads) {
          const set = new Set(read);
          const last = Math.max(-1, ...read);
          const gaps = acknowledged.filter((k) => k < last && !set.has(k));
          if (gaps.length > 0) problems.push(`${client}: shows ${last} without the acknowledged ${gaps.join(',')}`);
          const back = [...previous].filter((k) => !set.has(k));
          if (back.length > 0) problems.push(`${client}: went back, no longer showing ${back.join(',')}`);
          previous = set;
        }
      }
      expect(problems.slice(0, 20)).to.deep.equal([]);
      expect(shown.reduce((n, s) => n + s.reads.length, 0)).to.equal(800);
      const final = await stateOf(writer);
      const expected = new Set([...start, ...acknowledged.map(String)]);
      for (const k of final?.whole ?? []) if (stream.sent.has(Number(k))) expected.add(k);
      for (const node of [writer, ...replicas]) await showsExactly(node, expected, 'every acknowledged write');
    });
  });

  describe('fail-over', () => {
    let cluster: Cluster | undefined;

    afterEach(async () => {
      await cluster?.close();
      cluster = undefined;
    });

    it('kill -9 of the writer mid-stream: a replica takes over, nothing acknowledged is lost, nothing is partial, the old writer rejoins as a replica', async () => {
      const database = await pg.newDatabase();
      cluster = await Cluster.start({ connectionString: database, nodes: 3, leaseTimeMs: LEASE_MS, idPrefix: 'kill' });
      const first = await cluster.writer(DEADLINE_MS);
      await createWorkloadStore(first);
      const reads = readLoop(cluster);
      const stream = new WriteStream(cluster, first);
      try {
        await stream.acknowledgedAtLeast(30, DEADLINE_MS);
        const exit = await first.kill();
        expect(exit?.signal).to.equal('SIGKILL');
        const atKill = stream.acknowledged.length;
        // a replica takes the lease and acknowledges writes again
        await stream.acknowledgedAtLeast(atKill + 30, DEADLINE_MS);
      } finally {
        await stream.stop();
        await reads.stop();
      }
      const second = await cluster.writer(DEADLINE_MS);
      expect(second.id).to.not.equal(first.id);
      expect(reads.partial.slice(0, 20), 'states shown in part during the stream').to.deep.equal([]);
      await checkAfterStream(cluster, stream, reads.seen);
      // the old writer, started again, is a replica of the new one and catches up
      await first.start();
      await waitFor(`${first.id} to rejoin as a replica of ${second.id}`, async () => {
        const status = await first.status();
        return status?.role === 'replica' && status.writerId === second.id;
      }, DEADLINE_MS);
      expect((await cluster.writer(DEADLINE_MS)).id).to.equal(second.id);
      await checkAfterStream(cluster, stream, reads.seen);
      // and refuses writes, naming the new writer
      const refused = await first.update(WORKLOAD_STORE, writeText('to-old-writer'));
      expect(refused.status, refused.body).to.equal(503);
      expect(refused.body).to.include(`'${second.id}'`);
    });

    it('PostgreSQL stopped and started again mid-stream: writes fail while it is down, nothing acknowledged is lost', async () => {
      const database = await pg.newDatabase();
      cluster = await Cluster.start({ connectionString: database, nodes: 3, leaseTimeMs: LEASE_MS, idPrefix: 'pgr' });
      const writer = await cluster.writer(DEADLINE_MS);
      await createWorkloadStore(writer);
      const reads = readLoop(cluster);
      const stream = new WriteStream(cluster, writer);
      let haltedAt = 0;
      try {
        await stream.acknowledgedAtLeast(30, DEADLINE_MS);
        haltedAt = Date.now();
        await pg.halt();
        // the clients get errors while PostgreSQL is down
        await waitFor('a write to fail while PostgreSQL is down', () => stream.failed.some((f) => f.at >= haltedAt), DEADLINE_MS);
        const acknowledgedWhileDown = stream.acknowledged.length;
        await waitFor('two more failed writes', () => stream.failed.filter((f) => f.at >= haltedAt).length >= 3, DEADLINE_MS);
        // nothing is acknowledged without PostgreSQL (the writes are sent one after another: the one in flight at the halt ended before the first failure)
        expect(stream.acknowledged.length, 'writes acknowledged while PostgreSQL was down').to.equal(acknowledgedWhileDown);
        await pg.start();
        const atStart = stream.acknowledged.length;
        await stream.acknowledgedAtLeast(atStart + 30, DEADLINE_MS);
      } finally {
        if (!pg.running) await pg.start();
        await stream.stop();
        await reads.stop();
      }
      expect(reads.partial.slice(0, 20), 'states shown in part during the stream').to.deep.equal([]);
      // every node still runs: PostgreSQL's outage stops no process
      const dead = cluster.nodes.filter((n) => !n.alive);
      expect(dead.map((n) => n.id), dead.map((n) => `${n.id} exited (${JSON.stringify(n.exit)}); its standard error:\n${n.stderr().slice(-3000)}`).join('\n')).to.deep.equal([]);
      await checkAfterStream(cluster, stream, reads.seen);
    });
  });

  it('refuses server-directory with persistence=postgresql, naming both', async () => {
    const database = await pg.newDatabase();
    const refused = await Cluster.start({ connectionString: database, nodes: 1, extraArgs: ['--server-directory', join(tmpdir(), 'quadlog-never-made')] }).then(
      async (c) => {
        await c.close();
        return undefined;
      },
      (e: unknown) => (e instanceof Error ? e.message : String(e)),
    );
    // the error line (before the usage text, which names every flag)
    const line = /^quadlog serve: .*$/m.exec(refused ?? '')?.[0];
    expect(line, refused).to.match(/server-directory/);
    expect(line, refused).to.match(/postgresql/);
  });

  it('serves the replication status of every node on each (GET /replication)', async () => {
    const database = await pg.newDatabase();
    const cluster = await Cluster.start({ connectionString: database, nodes: 2, leaseTimeMs: LEASE_MS, idPrefix: 'status' });
    try {
      const writer = await cluster.writer(DEADLINE_MS);
      const replica = cluster.replicasOf(writer)[0]!;
      await createWorkloadStore(writer);
      const answer = await writer.update(WORKLOAD_STORE, writeText(0));
      const version = Number(header(answer, VERSION_HEADER));
      await showsExactly(replica, new Set(['0']), 'the write');
      for (const node of [writer, replica]) {
        const status = await waitFor(`${node.id}'s status to list both nodes and the store at version ${version}`, async () => {
          const s = await node.status();
          const own = s?.rows.find((r) => r.self && r.columns.DataStore === WORKLOAD_STORE);
          // (a node started on port 0 records its URL once its endpoint listens: the rows name it from its next heartbeat on)
          const urlsKnown = s !== undefined && s.rows.every((r) => r.self || r.url !== '');
          return s !== undefined && urlsKnown && s.rows.some((r) => r.nodeId === writer.id) && s.rows.some((r) => r.nodeId === replica.id) && Number(own?.columns.Version) >= version ? s : undefined;
        }, DEADLINE_MS);
        expect(status.nodeId).to.equal(node.id);
        expect(status.role).to.equal(node === writer ? 'writer' : 'replica');
        expect(status.writerId).to.equal(writer.id);
        expect(status.writerUrl).to.equal(writer.url);
        expect(status.term).to.be.greaterThan(0);
        const own = status.rows.find((r) => r.self && r.columns.DataStore === WORKLOAD_STORE)!;
        expect(Number(own.columns.LagVersions)).to.be.at.least(0);
        const other = status.rows.find((r) => !r.self)!;
        expect(other.nodeId).to.equal(node === writer ? replica.id : writer.id);
        expect(other.url).to.equal(node === writer ? replica.url : writer.url);
        expect(Number(other.columns.HeartbeatAgeMs)).to.be.at.least(0);
      }
    } finally {
      await cluster.close();
    }
  });
});
