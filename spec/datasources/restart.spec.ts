import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { ConnectionFactory, Server } from '../../lib/index.js';
import { expectError } from '../helpers/server.js';

describe('datasources: a persistent server restarted', function () {
  this.timeout(30_000);
  const dir = mkdtempSync(join(tmpdir(), 'quadlog-ds-restart-'));
  const files = join(dir, 'files');
  const serverDirectory = join(dir, 'server');

  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  const start = (): Promise<Server> =>
    Server.create({
      roleName: 'admin',
      password: 'secret',
      parameters: { 'password-hashing': 'fast', persistence: 'file', 'server-directory': serverDirectory, 'sandbox-directory': files, 'allowed-url-schemes-on-import': 'file' },
    });

  it('keeps a mounted table, which reads again once its source is registered again', async () => {
    mkdirSync(files);
    writeFileSync(join(files, 'people.csv'), 'id,name\n1,Beverly\n');
    let server = await start();
    let sc = await ConnectionFactory.newServerConnection(server.url, 'admin', 'secret');
    sc.createDataStore('s');
    let ds = sc.newDataStoreConnection('s');
    await ds.registerDataSource('people', 'delimitedFile', { file: 'people.csv', header: 'true' });
    await ds.createTupleTable('People', { 'data-source-name': 'people' });
    ds.close();
    sc.close();
    await server.shutdown();

    server = await start();
    try {
      sc = await ConnectionFactory.newServerConnection(server.url, 'admin', 'secret');
      ds = sc.newDataStoreConnection('s');
      expect((await ds.listTupleTables()).find((t) => t.name === 'People')?.type).to.equal('dataSource');
      const e = await expectError(ds.evaluateQuery('SELECT * WHERE { TT People { ?i ?n } }'), Error);
      expect(e.message).to.include("data source 'people'");
      await ds.registerDataSource('people', 'delimitedFile', { file: 'people.csv', header: 'true' });
      const a = await ds.evaluateQuery('SELECT ?n WHERE { TT People { ?i ?n } }');
      expect(a.type === 'bindings' && a.rows.map((r) => r[0]!.value)).to.deep.equal(['Beverly']);
      ds.close();
      sc.close();
    } finally {
      await server.shutdown();
    }
  });
});
