/**
 * Replication through PostgreSQL (`persistence=postgresql`), in one process: several Server
 * instances on one database (each test its own schema) play writer and replicas.
 */
import { expect } from 'chai';
import { ConnectionFactory, type ReplicaWriteError, Server } from '../../lib/index.js';
import { usePostgres } from '../helpers/postgres.js';
import { REPLICA_PASSWORD as PASSWORD, REPLICA_ROLE as ROLE, useReplicatedServers } from '../helpers/replicated-servers.js';

const NT = { mediaType: 'application/n-triples' };

describe('replication through PostgreSQL', function () {
  const pg = usePostgres();
  const replicated = useReplicatedServers(pg, 'r');
  const { node, store, until } = replicated;

  async function count(server: Server, name = 'ds'): Promise<number> {
    const ds = await store(server, name);
    try {
      return Number(values(await ds.evaluateQuery('SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }'))[0]![0]);
    } finally {
      ds.close();
    }
  }

  async function scalar(sql: string): Promise<number> {
    const rows = (await pg.sql(sql)).rows as Array<{ n: string }>;
    return Number(rows[0]!.n);
  }

  function values(answer: unknown): string[][] {
    return (answer as { rows: ReadonlyArray<ReadonlyArray<{ value: string } | undefined>> }).rows.map((r) => r.map((t) => t?.value ?? ''));
  }


  it('makes the first node the writer; commits (with reasoning) appear on a replica', async () => {
    const a = await node('a');
    const b = await node('b');
    expect(a.replicationRole).to.equal('writer');
    expect(b.replicationRole).to.equal('replica');
    const admin = await ConnectionFactory.newServerConnection(a.url, ROLE, PASSWORD);
    admin.createDataStore('ds');
    const ds = admin.newDataStoreConnection('ds');
    await ds.importData('ADD', '<http://ex/a> <http://ex/p> <http://ex/b> .', NT);
    await ds.importData('ADD', '[?x, <http://ex/q>, ?y] :- [?y, <http://ex/p>, ?x] .', { mediaType: 'application/x.datalog' });
    const version = ds.dataStoreVersion;
    const replica = await until(() => b.dataStoreNames().includes('ds'), 'the store on the replica').then(() => store(b));
    await replica.awaitVersion(version, 10_000);
    expect(replica.dataStoreVersion).to.equal(version);
    const rows = await replica.evaluateQuery('SELECT ?s ?o WHERE { ?s <http://ex/q> ?o }');
    expect(values(rows)).to.deep.equal([['http://ex/b', 'http://ex/a']]);
    replica.close();
    ds.close();
  });

  it('refuses a write on a replica, naming the writer', async () => {
    const a = await node('a');
    const b = await node('b');
    const admin = await ConnectionFactory.newServerConnection(a.url, ROLE, PASSWORD);
    admin.createDataStore('ds');
    await until(() => b.dataStoreNames().includes('ds'), 'the store on the replica');
    const replica = await store(b);
    const error = await replica.importData('ADD', '<http://ex/a> <http://ex/p> <http://ex/c> .', NT).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((error as Error).name).to.equal('ReplicaWriteError');
    expect((error as ReplicaWriteError).message).to.include("'a'").and.include('http://a.example:12110');
    expect((error as ReplicaWriteError).status).to.equal(503);
    const bAdmin = await ConnectionFactory.newServerConnection(b.url, ROLE, PASSWORD);
    expect(() => bAdmin.createDataStore('other')).to.throw(/is a replica/);
    replica.close();
  });

  it('a deposed writer cannot append (fencing), and a replica takes over after the lease expires', async () => {
    const a = await node('a');
    const b = await node('b');
    const admin = await ConnectionFactory.newServerConnection(a.url, ROLE, PASSWORD);
    admin.createDataStore('ds');
    const ds = admin.newDataStoreConnection('ds');
    await ds.importData('ADD', '<http://ex/a> <http://ex/p> <http://ex/1> .', NT);
    // the lease is revoked behind the writer's back (as after a stall past its expiry): its term is over
    await pg.sql(`UPDATE ${replicated.schema}.lease SET term = term + 1, holder = NULL, expires_at = NULL`);
    await until(() => b.replicationRole === 'writer' && b.replicationStatus().role === 'writer', 'the take-over');
    await until(async () => (await count(b)) === 1, 'the replica to hold the first commit');
    // the old writer has not noticed yet or has stepped down: either way its append is refused
    const error = await ds.importData('ADD', '<http://ex/a> <http://ex/p> <http://ex/2> .', NT).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((error as Error | undefined)?.name, 'the deposed writer appended').to.be.oneOf(['ReplicationError', 'ReplicaWriteError']);
    expect(await count(a)).to.equal(1);
    // the new writer accepts writes; the old one follows as a replica
    const nb = await store(b);
    await nb.importData('ADD', '<http://ex/a> <http://ex/p> <http://ex/3> .', NT);
    const v = nb.dataStoreVersion;
    await until(() => a.replicationRole === 'replica', 'the old writer to step down');
    const na = await store(a);
    await na.awaitVersion(v, 10_000);
    expect(await count(a)).to.equal(2);
    expect(b.replicationStatus().term).to.be.greaterThan(a.replicationStatus().term - 1);
    const versions = ((await pg.sql(`SELECT version FROM ${replicated.schema}.log ORDER BY version`)).rows as Array<{ version: string }>).map((r) => Number(r.version));
    expect(new Set(versions).size).to.equal(versions.length);
    na.close();
    nb.close();
    ds.close();
  });

  it('fails over when the writer shuts down, and a restarted old writer rejoins as a replica', async () => {
    const a = await node('a');
    const b = await node('b');
    const admin = await ConnectionFactory.newServerConnection(a.url, ROLE, PASSWORD);
    admin.createDataStore('ds');
    const ds = admin.newDataStoreConnection('ds');
    for (let i = 0; i < 5; i++) await ds.importData('ADD', `<http://ex/a> <http://ex/p> <http://ex/${i}> .`, NT);
    ds.close();
    await replicated.stop(a);
    await until(() => b.replicationStatus().role === 'writer', 'the take-over');
    const nb = await store(b);
    await until(async () => (await count(b)) === 5, 'every acknowledged commit on the new writer');
    await until(async () => {
      try {
        await nb.importData('ADD', '<http://ex/b> <http://ex/p> <http://ex/9> .', NT);
        return true;
      } catch (e) {
        if ((e as Error).name === 'ReplicaWriteError') return false;
        throw e;
      }
    }, 'the new writer to accept writes');
    const again = await node('a');
    expect(again.replicationRole).to.equal('replica');
    expect(await count(again)).to.equal(6);
    nb.close();
  });

  it('writes snapshots, trims the log, and a new replica starts from the snapshot', async () => {
    const a = await node('a', { 'persistence-compact-threshold': '200' });
    const admin = await ConnectionFactory.newServerConnection(a.url, ROLE, PASSWORD);
    admin.createDataStore('ds');
    const ds = admin.newDataStoreConnection('ds');
    for (let i = 0; i < 20; i++) await ds.importData('ADD', `<http://ex/a> <http://ex/p> "${'x'.repeat(50)}${i}" .`, NT);
    await until(async () => (await scalar(`SELECT count(*) AS n FROM ${replicated.schema}.snapshots`)) === 1, 'a snapshot');
    await until(async () => (await scalar(`SELECT count(*) AS n FROM ${replicated.schema}.log`)) < 20, 'the log to be trimmed');
    const c = await node('c');
    const rc = await store(c);
    await rc.awaitVersion(ds.dataStoreVersion, 10_000);
    expect(await count(c)).to.equal(20);
    const loaded = c.recoveryEvents().find((e) => e.kind === 'loaded');
    expect(loaded?.kind === 'loaded' && loaded.report.snapshot).to.equal(true);
    rc.close();
    ds.close();
  });

  it('awaitVersion waits for a version and fails clearly when it is not reached', async () => {
    const a = await node('a');
    const b = await node('b');
    const admin = await ConnectionFactory.newServerConnection(a.url, ROLE, PASSWORD);
    admin.createDataStore('ds');
    await until(() => b.dataStoreNames().includes('ds'), 'the store on the replica');
    const rb = await store(b);
    const error = await rb.awaitVersion(1000, 200).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((error as Error).name).to.equal('VersionTimeoutError');
    expect((error as Error).message).to.include('version 1000');
    const ds = admin.newDataStoreConnection('ds');
    const waiting = rb.awaitVersion(ds.dataStoreVersion + 1, 10_000);
    await ds.importData('ADD', '<http://ex/a> <http://ex/p> <http://ex/b> .', NT);
    expect(await waiting).to.equal(ds.dataStoreVersion);
    expect(await count(b)).to.equal(1);
    const status = b.replicationStatus();
    expect(status.role).to.equal('replica');
    expect(status.writerId).to.equal('a');
    expect(status.stores.map((s) => s.name)).to.deep.equal(['ds']);
    rb.close();
    ds.close();
  });
});
