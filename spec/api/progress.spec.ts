import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { expect } from 'chai';
import { ConnectionFactory, type DataStoreConnection, type ProgressReport, Server } from '../../lib/index.js';
import { tempDir } from '../shell/helpers.js';

function chain(n: number): string {
  let text = '';
  for (let i = 0; i < n; i++) text += `<http://e.com/n${i}> <http://e.com/p> <http://e.com/n${i + 1}> .\n`;
  return text;
}

describe('API: progress of imports, exports and reasoning (onProgress)', () => {
  let server: Server;
  let ds: DataStoreConnection;
  let dir: ReturnType<typeof tempDir>;

  beforeEach(async () => {
    dir = tempDir('quadlog-progress-');
    server = await Server.create({ roleName: 'admin', password: 'pw', parameters: { 'sandbox-directory': dir.path, 'allowed-url-schemes-on-import': 'file' } });
    const sc = await ConnectionFactory.newServerConnection(server.url, 'admin', 'pw');
    sc.createDataStore('s');
    ds = sc.newDataStoreConnection('s');
    sc.close();
  });
  afterEach(async () => {
    ds.close();
    await server.shutdown();
    dir.remove();
  });

  it('reports an import: bytes of the input (before decompression) of its known size, facts, then the reasoning of its commit', async () => {
    const gz = gzipSync(chain(20_000));
    writeFileSync(join(dir.path, 'chain.nt.gz'), gz);
    await ds.importData('ADD', '[?x, <http://e.com/r>, ?y] :- [?x, <http://e.com/p>, ?y] .');
    const reports: ProgressReport[] = [];
    const result = await ds.importData('ADD', { iris: [pathToFileURL(join(dir.path, 'chain.nt.gz')).href] }, { onProgress: (r) => reports.push(r), progressIntervalMs: 10 });
    expect(result.changedFacts).to.equal(20_000);
    const last = reports[reports.length - 1]!;
    expect(last.finished).to.equal(true);
    expect(reports.filter((r) => r.finished)).to.have.length(1);
    const imported = reports.filter((r) => r.operation === 'import');
    const lastImport = imported[imported.length - 1]!;
    expect(lastImport).to.deep.include({ bytes: gz.length, totalBytes: gz.length, facts: 20_000, fraction: 1 });
    expect(last.operation).to.equal('reasoning');
    expect(last.facts).to.be.at.least(20_000);
    for (let i = 1; i < reports.length; i++) expect(reports[i]!.elapsedMs).to.be.at.least(reports[i - 1]!.elapsedMs);
  });

  it('reports an export: facts written, bytes, the part of the store scanned', async () => {
    await ds.importData('ADD', chain(10_000));
    const reports: ProgressReport[] = [];
    const text = await ds.exportDataToString('application/n-triples', {}, { onProgress: (r) => reports.push(r), progressIntervalMs: 10 });
    const last = reports[reports.length - 1]!;
    expect(last).to.deep.include({ operation: 'export', finished: true, facts: 10_000, bytes: Buffer.byteLength(text), fraction: 1 });
  });

  it('reports reasoning of recomputation, of updates in a transaction and of commits', async () => {
    await ds.importData('ADD', chain(2_000));
    await ds.importData('ADD', '[?x, <http://e.com/r>, ?y] :- [?x, <http://e.com/p>, ?y] .');
    const recomputed: ProgressReport[] = [];
    await ds.recomputeMaterialization({ onProgress: (r) => recomputed.push(r) });
    expect(recomputed[recomputed.length - 1]).to.deep.include({ operation: 'reasoning', finished: true, fraction: undefined });
    await ds.beginTransaction('read-write');
    await ds.importData('ADD', '<http://e.com/x> <http://e.com/p> <http://e.com/y> .');
    const updated: ProgressReport[] = [];
    await ds.updateMaterialization({ onProgress: (r) => updated.push(r) });
    expect(updated[updated.length - 1]).to.deep.include({ operation: 'reasoning', finished: true, facts: 1 });
    const committed: ProgressReport[] = [];
    await ds.commitTransaction({ onProgress: (r) => committed.push(r) });
    expect(committed[committed.length - 1]).to.deep.include({ operation: 'reasoning', finished: true });
  });

  it('sends the last report when the operation fails, and ignores a failing callback', async () => {
    const reports: ProgressReport[] = [];
    const failed = await ds.importData('ADD', 'garbage garbage', { onProgress: (r) => reports.push(r) }).catch((e: unknown) => e);
    expect(failed).to.be.instanceOf(Error);
    expect(reports[reports.length - 1]!.finished).to.equal(true);
    const result = await ds.importData('ADD', chain(10), {
      onProgress: () => {
        throw new Error('callback bug');
      },
    });
    expect(result.changedFacts).to.equal(10);
  });
});
