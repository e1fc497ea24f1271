/**
 * Data sources on a persistent server: registrations are kept in the server directory with
 * their real parameters (in the catalogue, mode 0600) and registered again at start-up, before
 * the mounted tuple tables are attached; a deregistered source stays gone; a source that
 * cannot be opened at start-up leaves the store online, and reading a table mounted on it
 * fails with an error naming the source.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { ConnectionFactory, type DataStoreConnection, Server } from '../../lib/index.js';
import { expectError } from '../helpers/server.js';
import type { DataSource, DataSourceKind, DataSourceSample, SourceRecord } from '../../lib/datasources/source.js';
import { DATA_SOURCE_KINDS } from '../../lib/server/data-sources.js';

/** A source with no tables (stands in for a database the test does not run). */
class EmptySourceStub implements DataSource {
  describe(): Array<{ property: string; value: string }> {
    return [];
  }
  tables(): [] {
    return [];
  }
  columns(): [] {
    return [];
  }
  sample(): Promise<DataSourceSample> {
    return Promise.resolve({ variables: [], rows: [] });
  }
  async *rows(): AsyncIterable<SourceRecord> {
    // no rows
  }
  readSync(): [] {
    return [];
  }
  selectorColumns(): Promise<[]> {
    return Promise.resolve([]);
  }
  close(): void {
    // nothing held
  }
}

describe('datasources: a persistent server restarted', function () {
  this.timeout(30_000);
  let dir: string;
  let files: string;
  let serverDirectory: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'quadlog-ds-restart-'));
    files = join(dir, 'files');
    serverDirectory = join(dir, 'server');
    mkdirSync(files);
    writeFileSync(join(files, 'people.csv'), 'id,name\n1,Beverly\n');
  });

  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  const start = (): Promise<Server> =>
    Server.create({
      roleName: 'admin',
      password: 'secret',
      parameters: { 'password-hashing': 'fast', persistence: 'file', 'server-directory': serverDirectory, 'sandbox-directory': files, 'allowed-url-schemes-on-import': 'file' },
    });

  /** Runs `body` on store `s` of a server started on the directory, then shuts it down. */
  async function withStore(body: (ds: DataStoreConnection, server: Server) => Promise<void>, create = false): Promise<void> {
    const server = await start();
    try {
      using sc = await ConnectionFactory.newServerConnection(server.url, 'admin', 'secret');
      if (create) sc.createDataStore('s');
      using ds = sc.newDataStoreConnection('s');
      await body(ds, server);
    } finally {
      await server.shutdown();
    }
  }

  const names = async (ds: DataStoreConnection): Promise<string[]> => {
    const a = await ds.evaluateQuery('SELECT ?n WHERE { TT People { ?i ?n } }');
    return a.type === 'bindings' ? a.rows.map((r) => r[0]!.value) : [];
  };

  it('keeps a registered source: the mounted table reads right after the restart, with no registration by hand', async () => {
    await withStore(async (ds) => {
      await ds.registerDataSource('people', 'delimitedFile', { file: 'people.csv', header: 'true' });
      await ds.createTupleTable('People', { 'data-source-name': 'people' });
      await ds.importData('ADD', '[?i, <http://e/name>, ?n] :- People(?i, ?n) .', { mediaType: 'application/x.datalog' });
      expect(await names(ds)).to.deep.equal(['Beverly']);
    }, true);

    await withStore(async (ds) => {
      expect((await ds.listDataSources()).map((r) => [r.name, r.type, r.numberOfTables])).to.deep.equal([['people', 'delimitedFile', 1]]);
      expect((await ds.listTupleTables()).find((t) => t.name === 'People')?.type).to.equal('dataSource');
      expect(await names(ds)).to.deep.equal(['Beverly']);
      // the rule over the mounted table still holds
      const a = await ds.evaluateQuery('ASK { ?i <http://e/name> "Beverly" }');
      expect(a.type === 'boolean' && a.value).to.equal(true);
    });
  });

  it('keeps the real parameters in the catalogue, which only its owner can read', async () => {
    await withStore(async (ds) => {
      await ds.registerDataSource('people', 'delimitedFile', { file: 'people.csv', header: 'true', delimiter: ',' });
    }, true);
    const catalogue = join(serverDirectory, 'server-catalogue.qdoc');
    expect(statSync(catalogue).mode & 0o777).to.equal(0o600);
    expect(readFileSync(catalogue, 'utf8')).to.include('"file":"people.csv"');
  });

  it('registers a source again with its real parameters, a password included, while listings mask it', async () => {
    const opened: Array<Readonly<Record<string, string>>> = [];
    const kind: DataSourceKind = {
      open: (_name, parameters) => {
        opened.push(parameters);
        return Promise.resolve(new EmptySourceStub());
      },
    };
    DATA_SOURCE_KINDS.set('passwordTest', kind);
    try {
      const connection = 'postgresql://ann:hunter2@db.example/people';
      await withStore(async (ds) => {
        await ds.registerDataSource('db', 'passwordTest', { 'connection-string': connection });
      }, true);
      expect(statSync(join(serverDirectory, 'server-catalogue.qdoc')).mode & 0o777).to.equal(0o600);
      await withStore(async (ds) => {
        expect(opened.at(-1)).to.deep.equal({ 'connection-string': connection });
        expect((await ds.listDataSources())[0]?.parameters).to.not.include('hunter2');
      });
      expect(opened).to.have.length(2);
    } finally {
      DATA_SOURCE_KINDS.delete('passwordTest');
    }
  });

  it('a deregistered source stays gone after the restart', async () => {
    await withStore(async (ds) => {
      await ds.registerDataSource('people', 'delimitedFile', { file: 'people.csv', header: 'true' });
      await ds.registerDataSource('other', 'delimitedFile', { file: 'people.csv', header: 'true' });
      await ds.deregisterDataSource('people');
    }, true);

    await withStore(async (ds) => {
      expect((await ds.listDataSources()).map((r) => r.name)).to.deep.equal(['other']);
      await expectError(ds.describeDataSource('people'), Error);
    });
  });

  it('a source that cannot be opened at start-up leaves the store online; the mounted table fails naming the source until it is registered again', async () => {
    await withStore(async (ds) => {
      await ds.registerDataSource('people', 'delimitedFile', { file: 'people.csv', header: 'true' });
      await ds.createTupleTable('People', { 'data-source-name': 'people' });
      await ds.importData('ADD', '<http://e/a> <http://e/b> <http://e/c> .');
    }, true);
    rmSync(join(files, 'people.csv'));

    await withStore(async (ds, server) => {
      expect(server.offlineDataStores().size).to.equal(0);
      const a = await ds.evaluateQuery('ASK { <http://e/a> <http://e/b> <http://e/c> }');
      expect(a.type === 'boolean' && a.value).to.equal(true);
      expect((await ds.listDataSources()).map((r) => r.name)).to.deep.equal(['people']);
      const e = await expectError(ds.evaluateQuery('SELECT * WHERE { TT People { ?i ?n } }'), Error);
      expect(e.message).to.include("data source 'people'");
      // the file is back: registering the source again replaces the unavailable one
      writeFileSync(join(files, 'people.csv'), 'id,name\n2,Deanna\n');
      await ds.registerDataSource('people', 'delimitedFile', { file: 'people.csv', header: 'true' });
      expect(await names(ds)).to.deep.equal(['Deanna']);
    });

    await withStore(async (ds) => {
      expect(await names(ds)).to.deep.equal(['Deanna']);
    });
  });

  it('a store whose rules read a source that cannot be opened at start-up starts too; recomputing after registering it again brings its derived facts back', async () => {
    const named = 'SELECT ?n WHERE { ?i <http://e/name> ?n }';
    const derivedNames = async (ds: DataStoreConnection): Promise<string[]> => {
      const a = await ds.evaluateQuery(named);
      return a.type === 'bindings' ? a.rows.map((r) => r[0]!.value) : [];
    };
    await withStore(async (ds) => {
      await ds.registerDataSource('people', 'delimitedFile', { file: 'people.csv', header: 'true' });
      await ds.createTupleTable('People', { 'data-source-name': 'people' });
      // the rule is in the log (no snapshot): loading evaluates it again
      await ds.importData('ADD', '[?i, <http://e/name>, ?n] :- People(?i, ?n) .', { mediaType: 'application/x.datalog' });
      expect(await derivedNames(ds)).to.deep.equal(['Beverly']);
    }, true);
    rmSync(join(files, 'people.csv'));

    const server = await start();
    try {
      expect([...server.offlineDataStores().keys()]).to.deep.equal([]);
      using ds = await ConnectionFactory.newDataStoreConnection(server.url, 's', 'admin', 'secret');
      // while loading, the unreadable table read as empty
      expect(await derivedNames(ds)).to.deep.equal([]);
      const e = await expectError(ds.evaluateQuery('SELECT * WHERE { TT People { ?i ?n } }'), Error);
      expect(e.message).to.include("data source 'people'");
      writeFileSync(join(files, 'people.csv'), 'id,name\n1,Beverly\n');
      await ds.registerDataSource('people', 'delimitedFile', { file: 'people.csv', header: 'true' });
      await ds.recomputeMaterialization();
      expect(await derivedNames(ds)).to.deep.equal(['Beverly']);
    } finally {
      await server.shutdown();
    }
  });
});
