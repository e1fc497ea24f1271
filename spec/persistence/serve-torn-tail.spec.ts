/**
 * A store whose log ends in a torn record after `kill -9`: the record is cut on restart, and
 * the cut is said, not only done. `quadlog serve` (a child process) prints it on standard
 * error; in-process, the server's recovery events, the store's `recovery` property and the
 * component information of the store and the server show it.
 */
import { expect } from 'chai';
import { appendFile, stat, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import { ConnectionFactory } from '../../lib/api/connection-factory.js';
import { encodeStoreName } from '../../lib/persistence/layout.js';
import { Server } from '../../lib/server/server.js';
import { basic } from '../shell/helpers.js';
import { useTempDir } from './helpers.js';
import { startServe } from './serve-process.js';

const CUT = /cut (an incomplete|a damaged) record at byte \d+ \(\d+ bytes to the end of the file: .+\) from \S+transactions\.qlog; \d+ whole records kept/;

describe('persistence: a cut log tail is reported', function () {
  this.timeout(120_000);
  const tmp = useTempDir('quadlog-torn-tail-');

  it('quadlog serve prints the cut on standard error; component info and the store property show it in-process', async () => {
    const directory = join(tmp.path, 'server');
    const args = ['--server-directory', directory, '--role', 'admin', '--password', 'pw', '--port', '0', '--no-console'];
    const first = await startServe(args);
    expect(first.url, first.stderr()).to.be.a('string');
    const write = await fetch(`${first.url}/datastores/demo/content?operation=add-content`, {
      method: 'PATCH',
      headers: { authorization: basic('admin', 'pw'), 'content-type': 'text/turtle' },
      body: '<http://example.com/family#carol> <http://example.com/family#parentOf> <http://example.com/family#erin> .',
    });
    expect(write.status).to.equal(200);
    expect((await first.kill()).signal).to.equal('SIGKILL');

    // the last record torn: cut short mid-way, as a write interrupted by a crash leaves it
    const log = join(directory, 'stores', encodeStoreName('demo'), 'transactions.qlog');
    const whole = (await stat(log)).size;
    await truncate(log, whole - 5);
    const second = await startServe(args);
    expect(second.url, second.stderr()).to.be.a('string');
    expect((await second.stop()).code).to.equal(0);
    const lines = second.stderr().split('\n').filter((l) => l.includes(' cut '));
    expect(lines).to.have.length(1);
    expect(lines[0]).to.match(/^quadlog serve: data store 'demo': /).and.to.match(CUT).and.to.include(log);

    // a clean start says nothing about a cut
    const third = await startServe(args);
    expect(third.url, third.stderr()).to.be.a('string');
    expect((await third.stop()).code).to.equal(0);
    expect(third.stderr()).to.not.include(' cut ');

    // garbage after the last whole record: cut too, and shown in-process
    await appendFile(log, Buffer.from([0x2a, 0, 0, 0, 7, 7, 7]));
    const server = await Server.create({ roleName: 'admin', password: 'pw', parameters: { persistence: 'file', 'server-directory': directory } });
    try {
      const loaded = server.recoveryEvents().find((e) => e.store === 'demo');
      expect(loaded?.kind).to.equal('loaded');
      const cut = loaded?.kind === 'loaded' ? loaded.report.cut : undefined;
      expect(cut, cut).to.match(CUT);
      const sc = await ConnectionFactory.newServerConnection(server.url, 'admin', 'pw');
      sc.createDataStore('fresh');
      const ds = sc.newDataStoreConnection('demo');
      const property = (await ds.getDataStoreProperties()).find((r) => r.property === 'recovery');
      expect(property).to.deep.equal({ property: 'recovery', value: cut, mutable: false });
      const fresh = sc.newDataStoreConnection('fresh');
      expect((await fresh.getDataStoreProperties()).find((r) => r.property === 'recovery')?.value).to.equal('');

      const rows = await ds.getComponentInfo();
      const recovery = rows.find((r) => r.property === 'Component name' && r.value === 'Recovery')?.componentId;
      expect(recovery).to.be.a('number');
      const of = (property: string): unknown => rows.find((r) => r.componentId === recovery && r.property === property)?.value;
      expect(of('Log tail cut')).to.equal(cut);
      expect(Number.isNaN(Date.parse(String(of('Loaded at'))))).to.equal(false);
      expect(of('Log records replayed')).to.be.a('number');
      expect(of('Snapshot read')).to.be.a('boolean');

      const serverRows = sc.getComponentInfo();
      const serverValue = (property: string): unknown => serverRows.find((r) => r.componentId === 1 && r.property === property)?.value;
      expect(serverValue('Log tails cut at start-up')).to.equal(1);
      // each store's component carries its recovery, the demo store's with the cut
      expect(serverRows.filter((r) => r.property === 'Log tail cut').map((r) => r.value)).to.deep.equal([cut]);
      const demo = sc.newDataStoreConnection('demo');
      expect(await demo.countFacts()).to.be.greaterThan(0);
      sc.close();
    } finally {
      await server.shutdown();
    }
  });
});
