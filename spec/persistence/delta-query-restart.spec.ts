/**
 * Delta queries of a persistent store across restarts: registrations (with their role and
 * options) and kept answers come back as they were; a new commit produces answers again;
 * answers the process had not saved are computed again from the store's log; where the log no
 * longer holds the versions, `completeFrom` says from where answers are complete; deregistration
 * and store deletion are durable; damaged files never stop the store from loading.
 */
import { expect } from 'chai';
import { readdir, readFile, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ConnectionFactory } from '../../lib/api/connection-factory.js';
import type { DataStoreConnection } from '../../lib/api/data-store-connection.js';
import { termToKey } from '../../lib/model/terms.js';
import type { DeltaQueryDescription, DeltaQueryEvent, DeltaQueryVersionAnswer } from '../../lib/server/delta-queries.js';
import { Server } from '../../lib/server/server.js';
import { useTempDir } from './helpers.js';

const EX = 'http://example.com/';
/** The size of a file header (persistence/framing.ts). */
const FILE_HEADER_SIZE = 32;

function start(directory: string): Promise<Server> {
  return Server.create({ roleName: 'admin', password: 'secret', parameters: { 'password-hashing': 'fast', persistence: 'file', 'server-directory': directory } });
}

/** Answers as plain keys, rows sorted (rows of one answer are a bag in no order). */
function plain(answers: readonly DeltaQueryVersionAnswer[]): Array<{ version: number; type: string; rows: string[] }> {
  return answers.map((a) => ({ version: a.version, type: a.type, rows: a.rows.map((r) => r.map((t) => (t === undefined ? '-' : termToKey(t))).join(' ')).sort() }));
}

async function state(ds: DataStoreConnection, names: readonly string[]): Promise<{ list: string[]; described: DeltaQueryDescription[]; answers: ReturnType<typeof plain>[] }> {
  const answers = [];
  for (const n of names) answers.push(plain(await ds.getDeltaQueryAnswers(n)));
  const described = [];
  for (const n of names) described.push(await ds.describeDeltaQuery(n));
  return { list: (await ds.listDeltaQueries()).sort(), described, answers };
}

async function deltaQueryFiles(directory: string, store: string): Promise<string[]> {
  try {
    return (await readdir(join(directory, 'stores', store, 'deltaqueries'))).sort();
  } catch {
    return [];
  }
}

describe('persistence: delta queries across restarts', function () {
  this.timeout(60_000);
  const tmp = useTempDir('quadlog-dq-');

  /** A store `lib` with prefix `:`, a rule, queries `pairs` (delta, incremental) and `counts` (snapshot, re-run) registered by role `alice`, and three commits. */
  async function populate(server: Server): Promise<DataStoreConnection> {
    const sc = await ConnectionFactory.newServerConnection(server.url, 'admin', 'secret');
    sc.createDataStore('lib');
    await sc.createRole('alice', 'pw');
    sc.grantPrivileges('alice', '>datastores|lib', ['read', 'write']);
    await server.persisted();
    const admin = sc.newDataStoreConnection('lib');
    await admin.setPrefix(':', EX);
    await admin.importData('ADD', `[?x, <${EX}r>, ?y] :- [?x, <${EX}p>, ?y] .`, { mediaType: 'application/x.datalog' });
    const ds = await ConnectionFactory.newDataStoreConnection(server.url, 'lib', 'alice', 'pw');
    await ds.registerDeltaQuery('pairs', 'SELECT * WHERE { ?x :r ?y }', { additionsMaxSize: 10, deletionsMaxSize: 10 });
    await ds.registerDeltaQuery('counts', 'SELECT ?x (COUNT(?y) AS ?n) WHERE { ?x :r ?y } GROUP BY ?x', { evaluationMode: 'snapshot', snapshotsMaxSize: 3, additionsMaxSize: 2 });
    await admin.importData('ADD', `<${EX}a> <${EX}p> <${EX}b> . <${EX}a> <${EX}p> <${EX}c> .`);
    await admin.importData('DELETE', `<${EX}a> <${EX}p> <${EX}b> .`);
    await admin.importData('ADD', `<${EX}d> <${EX}p> "x"@en .`);
    return ds;
  }

  it('brings back registrations, roles, options and kept answers; a new commit produces answers again', async () => {
    let server = await start(tmp.path);
    let ds = await populate(server);
    const before = await state(ds, ['pairs', 'counts']);
    expect(before.answers[0]!.length).to.be.greaterThan(0);
    await server.shutdown();

    server = await start(tmp.path);
    try {
      expect(server.restarted).to.equal(true);
      ds = await ConnectionFactory.newDataStoreConnection(server.url, 'lib', 'alice', 'pw');
      const after = await state(ds, ['pairs', 'counts']);
      expect(after).to.deep.equal(before);
      expect(after.described[0]).to.include({ role: 'alice', computation: 'incremental', additionsMaxSize: 10, error: undefined, completeFrom: undefined });
      expect(after.described[1]).to.include({ role: 'alice', evaluationMode: 'snapshot', snapshotsMaxSize: 3, additionsMaxSize: 2 });
      const version = after.described[0]!.version!;
      const admin = await ConnectionFactory.newDataStoreConnection(server.url, 'lib', 'admin', 'secret');
      // the prefix changes: the registered text keeps the meaning it was registered with
      await admin.setPrefix(':', 'http://other.example/');
      await admin.importData('ADD', `<${EX}e> <${EX}p> <${EX}f> .`);
      const pairs = plain(await ds.getDeltaQueryAnswers('pairs'));
      expect(pairs.filter((a) => a.version > version)).to.deep.equal([
        { version: version + 2, type: 'additions', rows: [`<${EX}e> <${EX}f>`] },
        { version: version + 2, type: 'deletions', rows: [] },
      ]);
      const counts = plain(await ds.getDeltaQueryAnswers('counts'));
      expect(counts.at(-1)).to.deep.equal({ version: version + 2, type: 'snapshot', rows: [`<${EX}a> "1"^^<http://www.w3.org/2001/XMLSchema#integer>`, `<${EX}d> "1"^^<http://www.w3.org/2001/XMLSchema#integer>`, `<${EX}e> "1"^^<http://www.w3.org/2001/XMLSchema#integer>`].sort() });
    } finally {
      await server.shutdown();
    }
  });

  it('computes again from the log the answers the process had not saved', async () => {
    let server = await start(tmp.path);
    const ds = await populate(server);
    const before = await state(ds, ['pairs', 'counts']);
    await server.shutdown();
    // as if the process had died before any answer was saved: the answers files hold no record
    for (const name of await deltaQueryFiles(tmp.path, 'lib')) if (name.endsWith('.qans')) await truncate(join(tmp.path, 'stores', 'lib', 'deltaqueries', name), FILE_HEADER_SIZE);

    server = await start(tmp.path);
    try {
      const [event] = server.recoveryEvents();
      expect(event?.kind === 'loaded' && event.report.recommitted).to.equal(3);
      const again = await ConnectionFactory.newDataStoreConnection(server.url, 'lib', 'alice', 'pw');
      expect(await state(again, ['pairs', 'counts'])).to.deep.equal(before);
      expect(await again.countFacts()).to.equal(4);
    } finally {
      await server.shutdown();
    }
  });

  it('says from which version answers are complete when the log no longer holds the versions not computed', async () => {
    let server = await start(tmp.path);
    const ds = await populate(server);
    const registeredAt = (await ds.describeDeltaQuery('pairs')).registeredAt!;
    const admin = await ConnectionFactory.newDataStoreConnection(server.url, 'lib', 'admin', 'secret');
    await admin.compact();
    const compactedAt = Number((await admin.getDataStoreProperties()).find((r) => r.property === 'data-store-version')!.value);
    await server.shutdown();
    for (const name of await deltaQueryFiles(tmp.path, 'lib')) if (name.endsWith('.qans')) await truncate(join(tmp.path, 'stores', 'lib', 'deltaqueries', name), FILE_HEADER_SIZE);

    server = await start(tmp.path);
    try {
      const again = await ConnectionFactory.newDataStoreConnection(server.url, 'lib', 'alice', 'pw');
      const described = await again.describeDeltaQuery('pairs');
      expect(compactedAt).to.be.greaterThan(registeredAt);
      expect(described).to.include({ completeFrom: compactedAt + 1, registeredAt: compactedAt, error: undefined });
      expect(await again.getDeltaQueryAnswers('pairs')).to.deep.equal([]);
      const counts = plain(await again.getDeltaQueryAnswers('counts'));
      expect(counts.map((a) => [a.version, a.type])).to.deep.equal([[compactedAt, 'snapshot']]);
      const adminAgain = await ConnectionFactory.newDataStoreConnection(server.url, 'lib', 'admin', 'secret');
      await adminAgain.importData('ADD', `<${EX}g> <${EX}p> <${EX}h> .`);
      expect(plain(await again.getDeltaQueryAnswers('pairs'))[0]).to.deep.equal({ version: compactedAt + 1, type: 'additions', rows: [`<${EX}g> <${EX}h>`] });
    } finally {
      await server.shutdown();
    }
  });

  it('resumes a watch by replaying kept changes only after the versions a restart could not compute again', async () => {
    let server = await start(tmp.path);
    const ds = await populate(server);
    const registeredAt = (await ds.describeDeltaQuery('pairs')).registeredAt!;
    const kept = plain(await ds.getDeltaQueryAnswers('pairs'));
    expect(kept).to.have.length(6);
    const file = join(tmp.path, 'stores', 'lib', 'deltaqueries', (await deltaQueryFiles(tmp.path, 'lib')).find((n) => n.includes('pairs') && n.endsWith('.qans'))!);
    const saved = await readFile(file);
    const admin = await ConnectionFactory.newDataStoreConnection(server.url, 'lib', 'admin', 'secret');
    await admin.importData('ADD', `<${EX}e> <${EX}p> <${EX}f> .`);
    await admin.compact();
    await server.shutdown();
    // as if the process had died before the last commit's answers were saved, after the compaction
    await writeFile(file, saved);

    server = await start(tmp.path);
    try {
      const again = await ConnectionFactory.newDataStoreConnection(server.url, 'lib', 'alice', 'pw');
      const described = await again.describeDeltaQuery('pairs');
      expect(described.registeredAt).to.equal(registeredAt);
      expect(described.completeFrom).to.be.greaterThan(registeredAt + 3);
      expect(plain(await again.getDeltaQueryAnswers('pairs'))).to.deep.equal(kept);
      // the kept changes after the registration miss the versions before completeFrom: the whole answer instead
      const watch = again.watch('pairs', { after: registeredAt });
      const first = (await watch.next()).value as DeltaQueryEvent | undefined;
      watch.close();
      expect(first).to.deep.include({ kind: 'answer', missedFrom: registeredAt + 1 });
      expect(first?.kind === 'answer' && first.rows.length).to.equal(3);
    } finally {
      await server.shutdown();
    }
  });

  it('keeps deregistrations and store deletions; a store in memory keeps nothing', async () => {
    let server = await start(tmp.path);
    let ds = await populate(server);
    await ds.deregisterDeltaQuery('counts');
    const sc = await ConnectionFactory.newServerConnection(server.url, 'admin', 'secret');
    sc.createDataStore('gone');
    sc.createDataStore('transient', undefined, { persistence: 'off' });
    await server.persisted();
    await sc.newDataStoreConnection('gone').registerDeltaQuery('q', 'SELECT * WHERE { ?s ?p ?o }');
    await sc.newDataStoreConnection('transient').registerDeltaQuery('q', 'SELECT * WHERE { ?s ?p ?o }');
    expect(await deltaQueryFiles(tmp.path, 'gone')).to.have.length(2);
    sc.deleteDataStore('gone');
    await server.persisted();
    await server.shutdown();
    expect(await deltaQueryFiles(tmp.path, 'lib')).to.deep.equal(['pairs.qans', 'pairs.qdoc']);

    server = await start(tmp.path);
    try {
      const again = await ConnectionFactory.newServerConnection(server.url, 'admin', 'secret');
      expect(again.listDataStores().sort()).to.deep.equal(['lib']);
      ds = await ConnectionFactory.newDataStoreConnection(server.url, 'lib', 'alice', 'pw');
      expect(await ds.listDeltaQueries()).to.deep.equal(['pairs']);
    } finally {
      await server.shutdown();
    }
  });

  it('registers a query of a deleted role in error, and loads the store whatever its delta-query files hold', async () => {
    let server = await start(tmp.path);
    await populate(server);
    const sc = await ConnectionFactory.newServerConnection(server.url, 'admin', 'secret');
    const admin = sc.newDataStoreConnection('lib');
    await admin.registerDeltaQuery('mine', 'SELECT * WHERE { ?s ?p ?o }', { additionsMaxSize: 5 });
    await admin.importData('ADD', `<${EX}x> <${EX}y> <${EX}z> .`);
    const mine = plain(await admin.getDeltaQueryAnswers('mine'));
    sc.deleteRole('alice');
    await server.persisted();
    await server.shutdown();
    const directory = join(tmp.path, 'stores', 'lib', 'deltaqueries');
    // a registration overwritten with garbage, and an answers file cut in the middle of a record
    await writeFile(join(directory, 'pairs.qdoc'), 'not a registration');
    const answers = join(directory, 'mine.qans');
    const size = (await readFile(answers)).length;
    await truncate(answers, size - 5);

    server = await start(tmp.path);
    try {
      expect([...server.offlineDataStores().keys()]).to.deep.equal([]);
      const ds = await ConnectionFactory.newDataStoreConnection(server.url, 'lib', 'admin', 'secret');
      expect((await ds.listDeltaQueries()).sort()).to.deep.equal(['counts', 'mine', 'pairs']);
      expect((await ds.describeDeltaQuery('counts')).error).to.equal("the role 'alice' that registered delta query 'counts' no longer exists");
      expect((await ds.describeDeltaQuery('pairs')).error).to.match(/^the registration of delta query 'pairs' cannot be read: /);
      const described = await ds.describeDeltaQuery('mine');
      expect(described.error).to.equal(undefined);
      expect(described.recovery).to.match(/^cut /);
      // the cut record's version was computed again from the log
      expect(plain(await ds.getDeltaQueryAnswers('mine'))).to.deep.equal(mine);
      await ds.deregisterDeltaQuery('pairs');
      expect(await ds.listDeltaQueries()).to.not.include('pairs');
    } finally {
      await server.shutdown();
    }
  });
});
