import { mkdtemp, rm, writeFile, chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { delimitedFileKind, RECORDS_TABLE } from '../../lib/datasources/delimited-file.js';
import type { DataSource, SourceRecord } from '../../lib/datasources/source.js';
import { AccessDeniedError, BadRequestError, ParsingError, UnknownResourceError } from '../../lib/model/errors.js';
import { readPolicyOf } from '../../lib/server/read-policy.js';
import { sourceContextOf } from '../../lib/server/data-sources.js';

async function rejection(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected a rejection');
}

async function all(source: DataSource): Promise<SourceRecord[]> {
  const out: SourceRecord[] = [];
  for await (const r of source.rows({ table: RECORDS_TABLE })) out.push(r);
  return out;
}

describe('datasources: delimitedFile', () => {
  let dir: string;
  let context: ReturnType<typeof sourceContextOf>;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'quadlog-csv-'));
    context = sourceContextOf(readPolicyOf({ 'sandbox-directory': dir, 'allowed-url-schemes-on-import': 'file' }));
    await writeFile(join(dir, 'people.csv'), 'First Name,Last Name,Sex,Age\nBeverly,Strickland,F,33\nThomas,Peterson,M,\n"Urs, Jr",Andresson,M,63\n');
    await writeFile(join(dir, 'plain.tsv'), 'a\t1\nb\t2\n');
    await writeFile(join(dir, 'short.csv'), 'x,y\n1,2\n3\n');
    await writeFile(join(dir, 'quoted.csv'), "'a;b';c\n");
  });

  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads a CSV with a header: columns named by it, quoted cells, empty cells', async () => {
    const s = await delimitedFileKind.open('people', { file: 'people.csv', header: 'true' }, context);
    expect(s.tables().map((t) => [t.name, t.numberOfColumns])).to.deep.equal([[RECORDS_TABLE, 4]]);
    expect(s.columns(RECORDS_TABLE).map((c) => c.name)).to.deep.equal(['First Name', 'Last Name', 'Sex', 'Age']);
    expect(await all(s)).to.deep.equal([
      ['Beverly', 'Strickland', 'F', '33'],
      ['Thomas', 'Peterson', 'M', ''],
      ['Urs, Jr', 'Andresson', 'M', '63'],
    ]);
    const sample = await s.sample(RECORDS_TABLE, 2);
    expect(sample.variables).to.deep.equal(['First Name', 'Last Name', 'Sex', 'Age']);
    expect(sample.rows.map((r) => r.map((t) => t?.value))).to.deep.equal([
      ['Beverly', 'Strickland', 'F', '33'],
      ['Thomas', 'Peterson', 'M', undefined],
    ]);
    await expectReject(s.sample('people', 1), UnknownResourceError, "no table 'people'");
  });

  it('reads a TSV without a header, columns numbered from 1', async () => {
    const s = await delimitedFileKind.open('t', { file: join(dir, 'plain.tsv'), delimiter: '<tab>' }, context);
    expect(s.columns(RECORDS_TABLE).map((c) => c.name)).to.deep.equal(['1', '2']);
    expect(await all(s)).to.deep.equal([['a', '1'], ['b', '2']]);
  });

  it('takes any single character as delimiter and quote', async () => {
    const s = await delimitedFileKind.open('q', { file: 'quoted.csv', delimiter: ';', quote: "'" }, context);
    expect(await all(s)).to.deep.equal([['a;b', 'c']]);
  });

  it('reads the file again on every read (nothing cached)', async () => {
    await writeFile(join(dir, 'changing.csv'), '1,2\n');
    const s = await delimitedFileKind.open('c', { file: 'changing.csv' }, context);
    expect(await all(s)).to.deep.equal([['1', '2']]);
    await writeFile(join(dir, 'changing.csv'), '1,2\n3,4\n');
    expect(await all(s)).to.deep.equal([['1', '2'], ['3', '4']]);
  });

  it('names the row of a short row', async () => {
    const s = await delimitedFileKind.open('short', { file: 'short.csv' }, context);
    const e = await rejection(all(s));
    expect(e).to.be.instanceOf(ParsingError);
    expect(e.message).to.include("data source 'short'").and.include('row 3').and.include('1 column');
  });

  it('names the source and line of a malformed file, read asynchronously or synchronously', async () => {
    await writeFile(join(dir, 'broken.csv'), 'a,b\n"unclosed,c\n');
    const s = await delimitedFileKind.open('broken', { file: 'broken.csv' }, context);
    const e = await rejection(all(s));
    expect(e).to.be.instanceOf(ParsingError);
    expect(e.message).to.include("data source 'broken'").and.include("file 'broken.csv'").and.include('line');
    expect(() => [...s.readSync({ table: RECORDS_TABLE })]).to.throw(ParsingError, "data source 'broken'");
  });

  it('refuses bad parameters, naming them', async () => {
    await expectReject(delimitedFileKind.open('d', { file: 'people.csv', delimiter: ';;' }, context), BadRequestError, "invalid delimiter ';;'");
    await expectReject(delimitedFileKind.open('d', { file: 'people.csv', delimiter: '"' }, context), BadRequestError, 'same character as the quote');
    await expectReject(delimitedFileKind.open('d', { file: 'people.csv', header: 'yes' }, context), BadRequestError, "invalid header 'yes'");
    await expectReject(delimitedFileKind.open('d', {}, context), BadRequestError, "parameter 'file'");
    await expectReject(delimitedFileKind.open('d', { file: 'people.csv', sep: ',' }, context), BadRequestError, "unknown parameter 'sep'");
  });

  it('refuses a missing file, an unreadable one, and files outside the sandbox without showing their content', async () => {
    await expectReject(delimitedFileKind.open('m', { file: 'missing.csv' }, context), ParsingError, "data source 'm': cannot read file 'missing.csv'");
    const outside = await mkdtemp(join(tmpdir(), 'quadlog-csv-outside-'));
    try {
      await writeFile(join(outside, 'secret.csv'), 'top-secret-value,1\n');
      const e = await expectReject(delimitedFileKind.open('o', { file: join(outside, 'secret.csv') }, context), AccessDeniedError, 'outside the sandbox');
      expect(e.message).not.to.include('top-secret-value');
      const strict = sourceContextOf(readPolicyOf({}));
      await expectReject(delimitedFileKind.open('o', { file: 'people.csv' }, strict), AccessDeniedError, "the scheme 'file' is not allowed");
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
    if (process.getuid?.() !== 0) {
      await writeFile(join(dir, 'locked.csv'), 'a\n');
      await chmod(join(dir, 'locked.csv'), 0);
      await expectReject(delimitedFileKind.open('l', { file: 'locked.csv' }, context), ParsingError, 'cannot be read');
    }
  });
});

async function expectReject<E extends Error>(p: Promise<unknown>, kind: new (...args: never[]) => E, text: string): Promise<E> {
  const e = await rejection(p);
  expect(e, e.message).to.be.instanceOf(kind);
  expect(e.message).to.include(text);
  return e as E;
}

describe('datasources: connection strings in listings', () => {
  it('hides passwords in URI and key/value connection strings', async () => {
    const { shownParameters } = await import('../../lib/server/data-sources.js');
    expect(shownParameters({ 'connection-string': 'postgresql://me:secret@host:5432/db', file: 'x' })).to.deep.equal({ 'connection-string': 'postgresql://me:***@host:5432/db', file: 'x' });
    expect(shownParameters({ 'connection-string': 'host=h user=me password=secret dbname=d' })['connection-string']).to.equal('host=h user=me password=*** dbname=d');
    expect(shownParameters({ 'connection-string': 'Driver={PostgreSQL};Uid=me;Pwd=secret;' })['connection-string']).to.equal('Driver={PostgreSQL};Uid=me;Pwd=***;');
  });
});
