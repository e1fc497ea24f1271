/**
 * Compaction while writers go on: the write lock is held only to fix the version and seal the
 * log, the snapshot of exactly that version is written afterwards, and the files a crash
 * leaves at each step load whole, with every committed transaction replayed once.
 *
 * The test seam is the log's wrapped file operations (`wrapLogIO`): compaction closes the
 * sealed log between sealing it and writing the snapshot, so a `close` that waits holds the
 * compaction there, after its point and before its install.
 */
import { expect } from 'chai';
import { cp, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ConnectionFactory } from '../../lib/api/connection-factory.js';
import type { DataStoreConnection } from '../../lib/api/data-store-connection.js';
import { encodeStoreName } from '../../lib/persistence/layout.js';
import { type LogFileIO, readLog, TransactionLog } from '../../lib/persistence/log.js';
import type { RecoveryEvent } from '../../lib/server/recovery.js';
import { Server, type ServerOptions } from '../../lib/server/server.js';
import { useTempDir } from './helpers.js';

const EX = 'http://example.com/';
const RULE = `[?x, <${EX}q>, ?y] :- [?x, <${EX}p>, ?y] .`;

function options(directory: string, extra: Partial<ServerOptions> = {}): ServerOptions {
  // a threshold no test reaches: compaction runs when the test asks for it
  return { roleName: 'admin', password: 'secret', parameters: { 'password-hashing': 'fast', persistence: 'file', 'server-directory': directory, 'persistence-compact-threshold': String(1 << 30) }, ...extra };
}

async function triples(ds: DataStoreConnection, factDomain: 'explicit' | 'all'): Promise<string[]> {
  const answer = await ds.evaluateQuery('SELECT ?s ?p ?o WHERE { ?s ?p ?o }', { factDomain });
  if (answer.type !== 'bindings') throw new Error('bindings expected');
  return answer.rows.map((r) => r.map((t) => (t?.value ?? '').replace(EX, '')).join(' ')).sort();
}

interface Loaded {
  readonly explicit: string[];
  readonly all: string[];
  readonly version: string;
  readonly records: number;
  readonly files: string[];
}

/** Opens a server on `directory`, reads store `s` and what loading it replayed, and shuts it down. */
async function load(directory: string): Promise<Loaded> {
  const events: RecoveryEvent[] = [];
  const server = await Server.create(options(directory, { onRecovery: (e) => events.push(e) }));
  try {
    expect([...server.offlineDataStores().keys()]).to.deep.equal([]);
    const ds = await ConnectionFactory.newDataStoreConnection(server.url, 's', 'admin', 'secret');
    const loaded = events.find((e) => e.kind === 'loaded' && e.store === 's');
    const version = (await ds.getDataStoreProperties()).find((r) => r.property === 'data-store-version')!.value;
    const files = (await readdir(join(directory, 'stores', encodeStoreName('s')))).sort();
    return { explicit: await triples(ds, 'explicit'), all: await triples(ds, 'all'), version, records: loaded?.kind === 'loaded' ? loaded.report.records : -1, files };
  } finally {
    await server.shutdown();
  }
}

/** Copies a server directory as a crash would leave it (without the lock of the running server). */
async function copyServer(from: string, to: string): Promise<void> {
  await cp(from, to, { recursive: true, filter: (source) => !source.endsWith('/lock') });
}

describe('persistence: compaction while writers go on', function () {
  this.timeout(120_000);
  const tmp = useTempDir('quadlog-compaction-');

  it('commits a write while the snapshot is being written, and each crash point loads every committed transaction once', async () => {
    const dir = join(tmp.path, 'server');
    const storeDir = join(dir, 'stores', encodeStoreName('s'));
    // the first close after `hold` is set (compaction's close of the sealed log) waits for `release`
    let hold = false;
    let entered: () => void = () => undefined;
    const closing = new Promise<void>((resolve) => (entered = resolve));
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    const wrapLogIO = (io: LogFileIO): LogFileIO => ({
      ...io,
      close: async () => {
        if (hold) {
          hold = false;
          entered();
          await released;
        }
        return io.close();
      },
    });
    const server = await Server.create(options(dir, { wrapLogIO }));
    const events: string[] = [];
    let sealedName: string | undefined;
    try {
      using sc = await ConnectionFactory.newServerConnection(server.url, 'admin', 'secret');
      sc.createDataStore('s');
      await server.persisted();
      using ds = await ConnectionFactory.newDataStoreConnection(server.url, 's', 'admin', 'secret');
      await ds.importData('ADD', RULE, { mediaType: 'application/x.datalog' });
      // `a q b` is explicit and derived; `c p d` will be deleted, `a q b` lose its explicit status
      await ds.importData('ADD', `<${EX}a> <${EX}p> <${EX}b> . <${EX}a> <${EX}q> <${EX}b> . <${EX}c> <${EX}p> <${EX}d> .`);
      await ds.compact();
      await ds.importData('ADD', `<${EX}g> <${EX}p> <${EX}h> .`);

      hold = true;
      const compaction = ds.compact().then(() => events.push('compacted'));
      await closing;
      // the compaction has fixed its point and sealed the log; its snapshot is not installed
      using writer = await ConnectionFactory.newDataStoreConnection(server.url, 's', 'admin', 'secret');
      const write = writer.evaluateUpdate(`DELETE DATA { <${EX}c> <${EX}p> <${EX}d> . <${EX}a> <${EX}q> <${EX}b> } ; INSERT DATA { <${EX}e> <${EX}p> <${EX}f> }`).then(() => events.push('committed'));
      // a bound for the old behaviour (the write waits for the compaction's lock): not a timing assertion
      await Promise.race([write, new Promise((resolve) => setTimeout(resolve, 20_000))]);
      events.push('checked');
      const before = await readdir(storeDir);
      sealedName = before.find((n) => /^transactions\.\d+\.qlog$/.test(n));
      expect(before, 'a sealed log beside the new log').to.include('transactions.qlog').and.to.include(sealedName);
      expect(sealedName).to.be.a('string');
      // a crash now: the old snapshot, the sealed log and the new one
      await copyServer(dir, join(tmp.path, 'before-install'));
      release();
      await compaction;
      await write;
      expect(events).to.deep.equal(['committed', 'checked', 'compacted']);
      expect((await readdir(storeDir)).filter((n) => n.endsWith('.qlog'))).to.deep.equal(['transactions.qlog']);
      await ds.importData('ADD', `<${EX}i> <${EX}p> <${EX}j> .`);
    } finally {
      release();
      await server.shutdown();
    }

    const expected = {
      explicit: ['a p b', 'e p f', 'g p h', 'i p j'],
      all: ['a p b', 'a q b', 'e p f', 'e q f', 'g p h', 'g q h', 'i p j', 'i q j'],
    };
    const after = await load(dir);
    expect({ explicit: after.explicit, all: after.all }).to.deep.equal(expected);

    // crash before the install: the old snapshot, the sealed log and the new log
    const early = await load(join(tmp.path, 'before-install'));
    expect({ explicit: early.explicit, all: early.all }).to.deep.equal({ explicit: ['a p b', 'e p f', 'g p h'], all: ['a p b', 'a q b', 'e p f', 'e q f', 'g p h', 'g q h'] });
    // the sealed log's one record (g p h) and the new log's one (the update): each replayed once
    expect(early.records).to.equal(2);
    expect(early.files.filter((n) => n.endsWith('.qlog'))).to.have.members(['transactions.qlog', sealedName ?? '']);

    // the snapshot alone holds exactly the version of the point: the new log emptied
    const snapshotOnly = join(tmp.path, 'snapshot-only');
    await copyServer(dir, snapshotOnly);
    const logPath = join(snapshotOnly, 'stores', encodeStoreName('s'), 'transactions.qlog');
    const base = (await readLog(logPath)).baseSequence;
    await rm(logPath);
    await (await TransactionLog.create(logPath, base)).close();
    const atPoint = await load(snapshotOnly);
    expect({ explicit: atPoint.explicit, all: atPoint.all }).to.deep.equal({ explicit: ['a p b', 'a q b', 'c p d', 'g p h'], all: ['a p b', 'a q b', 'c p d', 'c q d', 'g p h', 'g q h'] });
    expect(atPoint.records).to.equal(0);

    // crash after the install, before the sealed log was deleted: it is skipped, and deleted
    const late = join(tmp.path, 'after-install');
    await copyServer(dir, late);
    await cp(join(tmp.path, 'before-install', 'stores', encodeStoreName('s'), sealedName ?? ''), join(late, 'stores', encodeStoreName('s'), sealedName ?? ''));
    const newRecords = (await readLog(join(late, 'stores', encodeStoreName('s'), 'transactions.qlog'))).records.length;
    const lateLoaded = await load(late);
    expect({ explicit: lateLoaded.explicit, all: lateLoaded.all }).to.deep.equal(expected);
    expect(lateLoaded.records).to.equal(newRecords);
    expect(lateLoaded.version).to.equal(after.version);
    expect(lateLoaded.files.filter((n) => n.endsWith('.qlog'))).to.deep.equal(['transactions.qlog']);
  });

  it('loads after a crash between sealing the log and starting the next one, and compacts again', async () => {
    const dir = join(tmp.path, 'server');
    const storeDir = join(dir, 'stores', encodeStoreName('s'));
    {
      const server = await Server.create(options(dir));
      try {
        using sc = await ConnectionFactory.newServerConnection(server.url, 'admin', 'secret');
        sc.createDataStore('s');
        await server.persisted();
        using ds = await ConnectionFactory.newDataStoreConnection(server.url, 's', 'admin', 'secret');
        await ds.importData('ADD', `<${EX}a> <${EX}p> <${EX}b> .`);
        await ds.compact();
        await ds.importData('ADD', `<${EX}c> <${EX}p> <${EX}d> .`);
        await ds.importData('ADD', RULE, { mediaType: 'application/x.datalog' });
      } finally {
        await server.shutdown();
      }
    }
    // the log renamed to its sealed name, no new log yet
    const base = (await readLog(join(storeDir, 'transactions.qlog'))).baseSequence;
    await cp(join(storeDir, 'transactions.qlog'), join(storeDir, `transactions.${base}.qlog`));
    await rm(join(storeDir, 'transactions.qlog'));
    const first = await load(dir);
    expect(first.all).to.deep.equal(['a p b', 'a q b', 'c p d', 'c q d']);
    expect(first.records).to.equal(2);
    // a log was started after the sealed one; the next compaction covers and deletes both
    expect(first.files.filter((n) => n.endsWith('.qlog'))).to.have.members(['transactions.qlog', `transactions.${base}.qlog`]);
    const server = await Server.create(options(dir));
    try {
      using ds = await ConnectionFactory.newDataStoreConnection(server.url, 's', 'admin', 'secret');
      await ds.importData('ADD', `<${EX}e> <${EX}p> <${EX}f> .`);
      await ds.compact();
      expect((await readdir(storeDir)).filter((n) => n.endsWith('.qlog'))).to.deep.equal(['transactions.qlog']);
    } finally {
      await server.shutdown();
    }
    const second = await load(dir);
    expect(second.all).to.deep.equal(['a p b', 'a q b', 'c p d', 'c q d', 'e p f', 'e q f']);
    expect(second.records).to.equal(0);
  });
});
