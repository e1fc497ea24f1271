/**
 * Specs of delimited files that are not UTF-8: registering, reading (asynchronously and
 * synchronously), querying and reasoning fail with a ParsingError naming the source, the file
 * and the byte offset and line of the malformed sequence; no record holding U+FFFD is ever read.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { delimitedFileKind, RECORDS_TABLE } from '../../lib/datasources/delimited-file.js';
import type { DataSource, SourceRecord } from '../../lib/datasources/source.js';
import { ConnectionFactory, ParsingError, Server } from '../../lib/index.js';
import { readPolicyOf } from '../../lib/server/read-policy.js';
import { sourceContextOf } from '../../lib/server/data-sources.js';

/** The records read asynchronously before the read ended, and the error that ended it, if any. */
async function readAsync(source: DataSource): Promise<{ records: SourceRecord[]; error: Error | undefined }> {
  const records: SourceRecord[] = [];
  try {
    for await (const r of source.rows({ table: RECORDS_TABLE })) records.push(r);
  } catch (e) {
    return { records, error: e as Error };
  }
  return { records, error: undefined };
}

/** The same, read synchronously. */
function readSync(source: DataSource): { records: SourceRecord[]; error: Error | undefined } {
  const records: SourceRecord[] = [];
  try {
    for (const r of source.readSync({ table: RECORDS_TABLE })) records.push(r);
  } catch (e) {
    return { records, error: e as Error };
  }
  return { records, error: undefined };
}

/** Whether any value of the records holds U+FFFD. */
const replaced = (records: readonly SourceRecord[]): boolean => records.some((r) => r.some((v) => v?.includes('\uFFFD') === true));

/** `rows` lines `n,name-n` (n from 1, 20 bytes each with its line break), then `tail`. */
function rowsThen(rows: number, tail: Buffer): Buffer {
  const lines: string[] = [];
  for (let n = 1; n <= rows; n++) lines.push(`${String(n).padStart(6, '0')},name-${String(n).padStart(7, '0')}\n`);
  return Buffer.concat([Buffer.from(lines.join('')), tail]);
}

describe('datasources: delimited files that are not UTF-8', () => {
  let dir: string;
  let context: ReturnType<typeof sourceContextOf>;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'quadlog-csv-utf8-'));
    context = sourceContextOf(readPolicyOf({ 'sandbox-directory': dir, 'allowed-url-schemes-on-import': 'file' }));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('refuses to register a file malformed in what registering reads (its first chunk), naming the source, the file and the byte offset', async () => {
    // Latin-1 "é" (0xE9) in the header: byte offset 6, line 1
    await writeFile(join(dir, 'latin1.csv'), Buffer.concat([Buffer.from('id,caf'), Buffer.from([0xe9]), Buffer.from('\n1,2\n')]));
    let error: Error | undefined;
    try {
      await delimitedFileKind.open('people', { file: 'latin1.csv', header: 'true' }, context);
    } catch (e) {
      error = e as Error;
    }
    expect(error).to.be.instanceOf(ParsingError);
    expect(error!.message).to.equal("data source 'people': file 'latin1.csv' is not UTF-8: invalid UTF-8 byte sequence at byte offset 6 (line 1)");
  });

  it('fails a read at a malformed sequence far into the file, reading no record with U+FFFD, asynchronously and synchronously', async () => {
    // 60,000 rows (1,200,000 bytes: the first chunks, and all that registering reads, are
    // well-formed), then an overlong "/" on line 60,001
    await writeFile(join(dir, 'late.csv'), rowsThen(60_000, Buffer.from([0x78, 0x2c, 0xc0, 0xaf, 0x0a, 0x79, 0x2c, 0x7a, 0x0a])));
    const source = await delimitedFileKind.open('late', { file: 'late.csv' }, context);
    expect(source.columns(RECORDS_TABLE).map((c) => c.name)).to.deep.equal(['1', '2']);
    const message = "data source 'late': file 'late.csv' is not UTF-8: invalid UTF-8 byte sequence at byte offset 1200002 (line 60001)";
    for (const read of [await readAsync(source), readSync(source)]) {
      expect(read.error).to.be.instanceOf(ParsingError);
      expect(read.error!.message).to.equal(message);
      expect(read.records.length).to.be.below(60_000);
      expect(replaced(read.records)).to.equal(false);
    }
  });

  it('fails a read of a file that ends inside a sequence, and reads characters split between chunks intact', async () => {
    // registering reads the whole of a small file
    await writeFile(join(dir, 'cut.csv'), Buffer.from([0x61, 0x2c, 0x62, 0x0a, 0x63, 0x2c, 0xe2, 0x82]));
    let error: Error | undefined;
    try {
      await delimitedFileKind.open('cut', { file: 'cut.csv' }, context);
    } catch (e) {
      error = e as Error;
    }
    expect(error?.message).to.equal("data source 'cut': file 'cut.csv' is not UTF-8: invalid UTF-8 byte sequence at byte offset 6 (line 2)");
    await writeFile(join(dir, 'long-cut.csv'), rowsThen(60_000, Buffer.from([0x63, 0x2c, 0xe2, 0x82])));
    const cut = await delimitedFileKind.open('cut', { file: 'long-cut.csv' }, context);
    for (const read of [await readAsync(cut), readSync(cut)]) {
      expect(read.error?.message).to.equal("data source 'cut': file 'long-cut.csv' is not UTF-8: invalid UTF-8 byte sequence at byte offset 1200002 (line 60001)");
      expect(replaced(read.records)).to.equal(false);
    }
    // "€" (3 bytes) across the end of the first 64 KiB (a synchronous read's chunk), "😀" (4
    // bytes) across the end of the first MiB (an asynchronous read's)
    const text = `k,v\n${'x'.repeat(65_530)},€\n${'y'.repeat(983_034)},😀\n`;
    await writeFile(join(dir, 'split.csv'), text);
    const split = await delimitedFileKind.open('split', { file: 'split.csv', header: 'true' }, context);
    const expected = [
      ['x'.repeat(65_530), '€'],
      ['y'.repeat(983_034), '😀'],
    ];
    for (const read of [await readAsync(split), readSync(split)]) {
      expect(read.error).to.equal(undefined);
      expect(read.records).to.deep.equal(expected);
    }
  });

  it('fails a query and a reasoning run over a mounted table, naming the file and the offset, and derives nothing', async () => {
    await writeFile(join(dir, 'people.csv'), rowsThen(60_000, Buffer.concat([Buffer.from('060001,Andr'), Buffer.from([0xe9]), Buffer.from('\n')])));
    const server = await Server.create({ roleName: 'admin', password: 'pw', parameters: { 'password-hashing': 'fast', 'sandbox-directory': dir, 'allowed-url-schemes-on-import': 'file' } });
    try {
      const sc = await ConnectionFactory.newServerConnection(server.url, 'admin', 'pw');
      sc.createDataStore('people');
      const ds = sc.newDataStoreConnection('people');
      await ds.registerDataSource('peopleDS', 'delimitedFile', { file: 'people.csv' });
      await ds.createTupleTable('People', { 'data-source-name': 'peopleDS', columns: '2', '1': 'http://ex.org/person/{1}', '1.datatype': 'iri', '2': '{2}' });
      const where = 'at byte offset 1200011 (line 60001)';
      let error: Error | undefined;
      try {
        await ds.evaluateQuery('SELECT ?p ?n WHERE { TT People { ?p ?n } }');
      } catch (e) {
        error = e as Error;
      }
      expect(error, 'the query').to.be.instanceOf(ParsingError);
      expect(error!.message).to.include("file 'people.csv' is not UTF-8").and.include(where);
      error = undefined;
      try {
        await ds.importData('ADD', '[?p, <http://ex.org/name>, ?n] :- People(?p, ?n) .', { mediaType: 'application/x.datalog' });
      } catch (e) {
        error = e as Error;
      }
      expect(error, 'the reasoning run').to.be.instanceOf(ParsingError);
      expect(error!.message).to.include("file 'people.csv' is not UTF-8").and.include(where);
      const count = await ds.evaluateQuery('SELECT (COUNT(*) AS ?c) WHERE { ?p <http://ex.org/name> ?n }');
      expect(count.type === 'bindings' && count.rows[0]![0]!.value).to.equal('0');
      ds.close();
      sc.close();
    } finally {
      await server.shutdown();
    }
  });
});
