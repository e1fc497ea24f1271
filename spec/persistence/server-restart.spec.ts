/**
 * Specs of a persistent server (persistence=file): what survives a shutdown and restart
 * (facts, rules, derived facts, prefixes, base IRI, tuple tables, roles, stores), stores with
 * persistence=off, compaction, the directory lock, damaged files and failed writes.
 */
import { expect } from 'chai';
import { mkdir, readFile, stat, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ConnectionFactory } from '../../lib/api/connection-factory.js';
import type { DataStoreConnection } from '../../lib/api/data-store-connection.js';
import { encodeStoreName } from '../../lib/persistence/layout.js';
import type { LogFileIO } from '../../lib/persistence/log.js';
import { Server, type ServerOptions } from '../../lib/server/server.js';
import type { RecoveryEvent } from '../../lib/server/recovery.js';
import { mountTinyTmpfs, unmount, useTempDir } from './helpers.js';

const EX = 'http://example.com/';

function options(directory: string, extra: Partial<ServerOptions> = {}): ServerOptions {
  return { roleName: 'admin', password: 'secret', parameters: { 'password-hashing': 'fast', persistence: 'file', 'server-directory': directory }, ...extra };
}

async function store(server: Server, name: string): Promise<DataStoreConnection> {
  return ConnectionFactory.newDataStoreConnection(server.url, name, 'admin', 'secret');
}

async function rows(ds: DataStoreConnection, query: string): Promise<string[]> {
  const answer = await ds.evaluateQuery(query);
  if (answer.type !== 'bindings') throw new Error('a SELECT query was expected');
  return answer.rows.map((r) => r.map((t) => (t === undefined ? '' : t.value)).join(' ')).sort();
}

describe('persistence: a server with a server directory', function () {
  const tmp = useTempDir('quadlog-restart-');

  it('keeps facts, rules, derived facts, prefixes, base IRI and tuple tables across a restart', async () => {
    const dir = join(tmp.path, 'server');
    {
      const server = await Server.create(options(dir));
      const sc = await ConnectionFactory.newServerConnection(server.url, 'admin', 'secret');
      sc.createDataStore('family');
      const ds = await store(server, 'family');
      await ds.importData('ADD', `<${EX}a> <${EX}parent> <${EX}b> .\n<${EX}b> <${EX}parent> <${EX}c> .\n<${EX}x> <${EX}p> "1" <${EX}g> .\n`, { mediaType: 'application/n-quads' });
      await ds.importData('ADD', `[?x, <${EX}ancestor>, ?y] :- [?x, <${EX}parent>, ?y] . [?x, <${EX}ancestor>, ?z] :- [?x, <${EX}ancestor>, ?y], [?y, <${EX}parent>, ?z] .`, { mediaType: 'application/x.datalog' });
      await ds.evaluateUpdate(`DELETE DATA { <${EX}b> <${EX}parent> <${EX}c> } ; INSERT DATA { <${EX}b> <${EX}parent> <${EX}d> }`);
      await ds.setPrefix('ex:', EX);
      await ds.setBaseIRI('http://base.example/');
      await ds.createTupleTable('Extra', { arity: '2' });
      await ds.evaluateUpdate(`INSERT DATA { <${EX}e> <${EX}parent> <${EX}f> }`);
      await server.shutdown();
    }
    const events: RecoveryEvent[] = [];
    const server = await Server.create(options(dir, { onRecovery: (e) => events.push(e) }));
    try {
      expect(events.map((e) => `${e.kind} ${e.store}`)).to.deep.equal(['loading family', 'loaded family']);
      const ds = await store(server, 'family');
      expect(await rows(ds, `SELECT ?x ?y WHERE { ?x <${EX}ancestor> ?y }`)).to.deep.equal([
        `${EX}a ${EX}b`,
        `${EX}a ${EX}d`,
        `${EX}b ${EX}d`,
        `${EX}e ${EX}f`,
      ]);
      expect(await rows(ds, `SELECT ?o WHERE { GRAPH <${EX}g> { ?s ?p ?o } }`)).to.deep.equal(['1']);
      expect((await ds.getPrefixes()).get('ex:')).to.equal(EX);
      expect(await ds.getBaseIRI()).to.equal('http://base.example/');
      expect((await ds.listTupleTables()).map((t) => t.name)).to.include('Extra');
      expect(await ds.countFacts()).to.be.greaterThan(0);
    } finally {
      await server.shutdown();
    }
  });

  it('keeps roles, password hashes, privileges and memberships; the files holding hashes are private', async () => {
    const dir = join(tmp.path, 'server');
    {
      const server = await Server.create(options(dir));
      const sc = await ConnectionFactory.newServerConnection(server.url, 'admin', 'secret');
      await sc.createRole('reader', 'pw1');
      await sc.createRole('group', undefined, 'none');
      sc.grantPrivileges('group', '>', 'read');
      sc.grantRole('reader', 'group');
      await server.shutdown();
    }
    const server = await Server.create({ ...options(dir), password: 'not used' });
    try {
      const reader = await ConnectionFactory.newServerConnection(server.url, 'reader', 'pw1');
      expect(reader.listRoles()).to.include.members(['admin', 'reader', 'group']);
      await ConnectionFactory.newServerConnection(server.url, 'admin', 'secret');
      const mode = (await stat(join(dir, 'roles.qdoc'))).mode & 0o777;
      expect(mode).to.equal(0o600);
    } finally {
      await server.shutdown();
    }
  });

  it('forgets stores created with persistence=off and deleted stores, and keeps the others', async () => {
    const dir = join(tmp.path, 'server');
    {
      const server = await Server.create(options(dir));
      const sc = await ConnectionFactory.newServerConnection(server.url, 'admin', 'secret');
      sc.createDataStore('kept');
      sc.createDataStore('memory', undefined, { persistence: 'off' });
      sc.createDataStore('gone');
      await (await store(server, 'memory')).importData('ADD', `<${EX}s> <${EX}p> <${EX}o> .`);
      sc.deleteDataStore('gone');
      await server.persisted();
      await server.shutdown();
    }
    const server = await Server.create(options(dir));
    try {
      const sc = await ConnectionFactory.newServerConnection(server.url, 'admin', 'secret');
      expect(sc.listDataStores()).to.deep.equal(['kept']);
    } finally {
      await server.shutdown();
    }
  });

  it('refuses persistence=file for a store of an in-memory server', async () => {
    const server = await Server.create({ roleName: 'admin', password: 'secret', parameters: { 'password-hashing': 'fast' } });
    try {
      const sc = await ConnectionFactory.newServerConnection(server.url, 'admin', 'secret');
      expect(() => sc.createDataStore('s', undefined, { persistence: 'file' })).to.throw(/needs a server with persistence=file/);
    } finally {
      await server.shutdown();
    }
  });

  it('refuses a second server on the same directory while the first runs', async () => {
    const dir = join(tmp.path, 'server');
    const server = await Server.create(options(dir));
    try {
      let error: unknown;
      try {
        await Server.create(options(dir));
      } catch (e) {
        error = e;
      }
      expect(error).to.be.instanceOf(Error);
      expect((error as Error).name).to.equal('DirectoryLockedError');
    } finally {
      await server.shutdown();
    }
    const again = await Server.create(options(dir));
    await again.shutdown();
  });

  it('leaves a store with a damaged log offline, naming it with path and offset, and starts the others', async () => {
    const dir = join(tmp.path, 'server');
    {
      const server = await Server.create(options(dir));
      const sc = await ConnectionFactory.newServerConnection(server.url, 'admin', 'secret');
      sc.createDataStore('good');
      sc.createDataStore('bad');
      for (const name of ['good', 'bad']) {
        const ds = await store(server, name);
        for (let i = 0; i < 3; i++) await ds.importData('ADD', `<${EX}s${i}> <${EX}p> <${EX}o> .`);
      }
      await server.shutdown();
    }
    const log = join(dir, 'stores', encodeStoreName('bad'), 'transactions.qlog');
    const bytes = await readFile(log);
    bytes[40] = bytes[40]! ^ 0x10; // inside the first record, which whole records follow
    await writeFile(log, bytes);
    const events: RecoveryEvent[] = [];
    const server = await Server.create(options(dir, { onRecovery: (e) => events.push(e) }));
    try {
      const offline = events.find((e) => e.kind === 'offline');
      expect(offline?.store).to.equal('bad');
      expect(offline?.kind === 'offline' ? offline.error.message : '').to.match(/data store 'bad' is offline/).and.to.include(log).and.to.match(/at byte \d+/);
      expect(await (await store(server, 'good')).countFacts()).to.equal(3);
      expect(server.offlineDataStores().has('bad')).to.equal(true);
      let error: unknown;
      try {
        await store(server, 'bad');
      } catch (e) {
        error = e;
      }
      expect(String(error)).to.match(/offline/);
    } finally {
      await server.shutdown();
    }
  });

  it('cuts a torn log tail and keeps the transactions before it', async () => {
    const dir = join(tmp.path, 'server');
    {
      const server = await Server.create(options(dir));
      const sc = await ConnectionFactory.newServerConnection(server.url, 'admin', 'secret');
      sc.createDataStore('s');
      const ds = await store(server, 's');
      for (let i = 0; i < 3; i++) await ds.importData('ADD', `<${EX}s${i}> <${EX}p> <${EX}o> .`);
      await server.shutdown();
    }
    const log = join(dir, 'stores', encodeStoreName('s'), 'transactions.qlog');
    await truncate(log, (await stat(log)).size - 5);
    const events: RecoveryEvent[] = [];
    const server = await Server.create(options(dir, { onRecovery: (e) => events.push(e) }));
    try {
      const loaded = events.find((e) => e.kind === 'loaded');
      expect(loaded?.kind === 'loaded' ? loaded.report.cut : undefined).to.be.a('string');
      expect(await rows(await store(server, 's'), 'SELECT ?s WHERE { ?s ?p ?o }')).to.deep.equal([`${EX}s0`, `${EX}s1`]);
    } finally {
      await server.shutdown();
    }
  });

  it('leaves a store with a damaged snapshot offline', async () => {
    const dir = join(tmp.path, 'server');
    {
      const server = await Server.create(options(dir));
      const sc = await ConnectionFactory.newServerConnection(server.url, 'admin', 'secret');
      sc.createDataStore('s');
      const ds = await store(server, 's');
      await ds.importData('ADD', `<${EX}a> <${EX}p> <${EX}b> .`);
      await ds.compact();
      await server.shutdown();
    }
    const snapshot = join(dir, 'stores', encodeStoreName('s'), 'snapshot.qsnap');
    const bytes = await readFile(snapshot);
    bytes[bytes.length - 9] = bytes[bytes.length - 9]! ^ 0x01;
    await writeFile(snapshot, bytes);
    const server = await Server.create(options(dir));
    try {
      const error = server.offlineDataStores().get('s');
      expect(error?.message).to.include(snapshot).and.to.match(/at byte \d+/);
    } finally {
      await server.shutdown();
    }
  });

  it('fails a commit whose log write fails and leaves the store as it was', async () => {
    const dir = join(tmp.path, 'server');
    let failWrites = false;
    const wrapLogIO = (io: LogFileIO): LogFileIO => ({
      ...io,
      write: (chunks, position) => {
        if (failWrites) return Promise.reject(Object.assign(new Error('no space left on device'), { code: 'ENOSPC' }));
        return io.write(chunks, position);
      },
    });
    {
      const server = await Server.create(options(dir, { wrapLogIO }));
      const sc = await ConnectionFactory.newServerConnection(server.url, 'admin', 'secret');
      sc.createDataStore('s');
      const ds = await store(server, 's');
      await ds.importData('ADD', `<${EX}a> <${EX}p> <${EX}b> .`);
      failWrites = true;
      let error: unknown;
      try {
        await ds.importData('ADD', `<${EX}c> <${EX}p> <${EX}d> . <${EX}e> <${EX}p> <${EX}f> .`);
      } catch (e) {
        error = e;
      }
      expect(String(error)).to.match(/disk is full/);
      expect(await rows(ds, 'SELECT ?s WHERE { ?s ?p ?o }')).to.deep.equal([`${EX}a`]);
      failWrites = false;
      await ds.importData('ADD', `<${EX}g> <${EX}p> <${EX}h> .`);
      await server.shutdown();
    }
    const server = await Server.create(options(dir));
    try {
      expect(await rows(await store(server, 's'), 'SELECT ?s WHERE { ?s ?p ?o }')).to.deep.equal([`${EX}a`, `${EX}g`]);
    } finally {
      await server.shutdown();
    }
  });

  it('fails a commit on a full disk (a tiny tmpfs) with a clear error and keeps the store as it was', async function () {
    const dir = join(tmp.path, 'tiny');
    await mkdir(dir);
    if (!mountTinyTmpfs(dir, 256 * 1024)) this.skip();
    try {
      const server = await Server.create(options(dir));
      try {
        const sc = await ConnectionFactory.newServerConnection(server.url, 'admin', 'secret');
        sc.createDataStore('s');
        const ds = await store(server, 's');
        await ds.importData('ADD', `<${EX}a> <${EX}p> <${EX}b> .`);
        const big = Array.from({ length: 20_000 }, (_, i) => `<${EX}s${i}> <${EX}p> "${'x'.repeat(20)}${i}" .`).join('\n');
        let error: unknown;
        try {
          await ds.importData('ADD', big);
        } catch (e) {
          error = e;
        }
        expect(String(error)).to.match(/the disk is full \(ENOSPC\)/);
        expect(await ds.countFacts()).to.equal(1);
        await ds.importData('ADD', `<${EX}c> <${EX}p> <${EX}d> .`);
      } finally {
        await server.shutdown();
      }
      const again = await Server.create(options(dir));
      try {
        expect(await rows(await store(again, 's'), 'SELECT ?s WHERE { ?s ?p ?o }')).to.deep.equal([`${EX}a`, `${EX}c`]);
      } finally {
        await again.shutdown();
      }
    } finally {
      unmount(dir);
    }
  });

  it('compacts: a new snapshot with the derived facts and an empty log, and restarts from them', async () => {
    const dir = join(tmp.path, 'server');
    const logPath = join(dir, 'stores', encodeStoreName('s'), 'transactions.qlog');
    {
      const server = await Server.create(options(dir));
      const sc = await ConnectionFactory.newServerConnection(server.url, 'admin', 'secret');
      sc.createDataStore('s');
      const ds = await store(server, 's');
      await ds.importData('ADD', `[?x, <${EX}q>, ?y] :- [?x, <${EX}p>, ?y] .`, { mediaType: 'application/x.datalog' });
      for (let i = 0; i < 5; i++) await ds.importData('ADD', `<${EX}s${i}> <${EX}p> <${EX}o> .`);
      const before = (await stat(logPath)).size;
      await ds.compact();
      expect((await stat(logPath)).size).to.be.lessThan(before);
      await ds.evaluateUpdate(`DELETE DATA { <${EX}s0> <${EX}p> <${EX}o> }`);
      await server.shutdown();
    }
    const events: RecoveryEvent[] = [];
    const server = await Server.create(options(dir, { onRecovery: (e) => events.push(e) }));
    try {
      const loaded = events.find((e) => e.kind === 'loaded');
      expect(loaded?.kind === 'loaded' && loaded.report.snapshot).to.equal(true);
      expect(loaded?.kind === 'loaded' && loaded.report.records).to.equal(1);
      const ds = await store(server, 's');
      expect(await rows(ds, `SELECT ?s WHERE { ?s <${EX}q> ?o }`)).to.deep.equal([1, 2, 3, 4].map((i) => `${EX}s${i}`));
    } finally {
      await server.shutdown();
    }
  });
});
