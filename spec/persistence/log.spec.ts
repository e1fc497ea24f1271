import { expect } from 'chai';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CorruptFileError, FileVersionError, ForeignFileError, PersistenceError, StorageWriteError } from '../../lib/persistence/errors.js';
import { FILE_HEADER_SIZE, recordSize } from '../../lib/persistence/framing.js';
import { type LogFileIO, type LogRecord, readLog, TransactionLog } from '../../lib/persistence/log.js';
import { writeSnapshot } from '../../lib/persistence/snapshot.js';
import { flippedCopy, mountTinyTmpfs, seededBytes, truncatedCopy, unmount, useTempDir } from './helpers.js';

const text = (r: LogRecord): string => Buffer.from(r.body).toString('utf8');

async function bodies(path: string): Promise<string[]> {
  return (await readLog(path)).records.map(text);
}

/** A log with the given bodies (as UTF-8), following transaction `base`. */
async function logWith(path: string, items: readonly string[], base = 0): Promise<void> {
  const log = await TransactionLog.create(path, base);
  for (const item of items) await log.append(Buffer.from(item));
  await log.close();
}

/** A system-like error with a code. */
function systemError(code: string): Error {
  return Object.assign(new Error(`${code}: simulated`), { code });
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (e) {
    return e as Error;
  }
  expect.fail('expected a rejection');
}

describe('persistence transaction log', () => {
  const tmp = useTempDir();
  const path = (): string => join(tmp.path, 'transactions.qlog');

  it('appends records with consecutive sequence numbers and reads them back after reopening', async () => {
    const log = await TransactionLog.create(path(), 41);
    expect(log.lastSequence).to.equal(41);
    expect(await log.append(Buffer.from('one'))).to.equal(42);
    expect(await log.append([Buffer.from('tw'), Buffer.from('o')])).to.equal(43);
    expect(await log.append(new Uint8Array(0))).to.equal(44);
    expect(log.size).to.equal(FILE_HEADER_SIZE + recordSize(11) + recordSize(11) + recordSize(8));
    await log.close();
    expect((await stat(path())).size).to.equal(log.size);

    const seen: LogRecord[] = [];
    const { log: reopened, report } = await TransactionLog.open(path(), { onRecord: (r) => void seen.push(r) });
    expect(report).to.deep.include({ baseSequence: 41, lastSequence: 44, records: 3, cut: undefined });
    expect(seen.map((r) => [r.sequence, text(r)])).to.deep.equal([
      [42, 'one'],
      [43, 'two'],
      [44, ''],
    ]);
    for (const r of seen) expect(r.body.byteOffset % 8).to.equal(0);
    expect(await reopened.append(Buffer.from('four'))).to.equal(45);
    await reopened.close();
    expect(await bodies(path())).to.deep.equal(['one', 'two', '', 'four']);
  });

  it('keeps the order of appends made without waiting', async () => {
    const log = await TransactionLog.create(path(), 0, { durability: 'relaxed' });
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => log.append(Buffer.from(`t${i}`))));
    expect(results).to.deep.equal(Array.from({ length: 50 }, (_, i) => i + 1));
    await log.close();
    expect(await bodies(path())).to.deep.equal(Array.from({ length: 50 }, (_, i) => `t${i}`));
  });

  it('refuses to create over an existing file unless asked to replace it', async () => {
    await logWith(path(), ['a']);
    const e = await rejection(TransactionLog.create(path(), 5));
    expect(e).to.be.instanceOf(PersistenceError);
    expect(e.message).to.include(path()).and.include('exists');
    expect(await bodies(path())).to.deep.equal(['a']);
    const log = await TransactionLog.create(path(), 5, { replace: true });
    await log.close();
    expect((await readLog(path())).baseSequence).to.equal(5);
    expect(await bodies(path())).to.deep.equal([]);
  });

  it('flushes relaxed appends on sync and close', async () => {
    const log = await TransactionLog.create(path(), 0, { durability: 'relaxed' });
    await log.append(Buffer.from('x'));
    await log.sync();
    await log.append(Buffer.from('y'));
    await log.close();
    await log.close();
    expect(await bodies(path())).to.deep.equal(['x', 'y']);
    expect((await rejection(log.append(Buffer.from('z')))).message).to.include('closed');
  });

  it('cuts a torn last record at every byte offset on open, reports it, and appends after the cut', async () => {
    const items = ['first transaction', 'second', 'the third transaction, cut short'];
    await logWith(path(), items);
    const full = (await stat(path())).size;
    const lastStart = full - recordSize(8 + Buffer.byteLength(items[2]!));
    for (let length = lastStart + 1; length < full; length++) {
      const copy = join(tmp.path, 'torn.qlog');
      await truncatedCopy(path(), copy, length);
      const { log, report } = await TransactionLog.open(copy);
      expect(report.records, `length ${length}`).to.equal(2);
      expect(report.lastSequence).to.equal(2);
      expect(report.tail.kind).to.equal('torn');
      expect(report.cut).to.include(copy).and.include(`at byte ${lastStart}`).and.include(`${length - lastStart} bytes`);
      expect((await stat(copy)).size).to.equal(lastStart);
      expect(await log.append(Buffer.from('again'))).to.equal(3);
      await log.close();
      expect(await bodies(copy)).to.deep.equal(['first transaction', 'second', 'again']);
    }
  });

  it('cuts a last record with any bit flipped, never replaying it', async () => {
    const items = ['alpha', 'beta', 'gamma!'];
    await logWith(path(), items);
    const full = (await stat(path())).size;
    const lastStart = full - recordSize(8 + 6);
    for (let offset = lastStart; offset < full; offset++) {
      const copy = join(tmp.path, 'flipped.qlog');
      await flippedCopy(path(), copy, offset, offset % 8);
      const seen: string[] = [];
      const { log, report } = await TransactionLog.open(copy, { onRecord: (r) => void seen.push(text(r)) });
      await log.close();
      expect(seen, `byte ${offset}`).to.deep.equal(['alpha', 'beta']);
      expect(report.tail.kind).to.equal('corrupt');
      expect(report.cut).to.include(`at byte ${lastStart}`);
      expect((await stat(copy)).size).to.equal(lastStart);
    }
  });

  it('refuses damage inside the log, naming path and offset, and cuts it only when asked to repair', async () => {
    await logWith(path(), ['alpha', 'beta', 'gamma']);
    const second = FILE_HEADER_SIZE + recordSize(8 + 5);
    for (let offset = second; offset < second + recordSize(8 + 4); offset++) {
      const copy = join(tmp.path, 'damaged.qlog');
      await flippedCopy(path(), copy, offset, 0);
      const e = await rejection(TransactionLog.open(copy));
      expect(e, `byte ${offset}`).to.be.instanceOf(CorruptFileError);
      expect((e as CorruptFileError).offset).to.equal(second);
      expect(e.message).to.include(copy).and.include(`at byte ${second}`).and.include('damage inside the log');
      // the file is left as it was
      expect((await readFile(copy)).length).to.equal((await stat(path())).size);
    }
    const copy = join(tmp.path, 'damaged.qlog');
    await flippedCopy(path(), copy, second + 20, 2);
    const { log, report } = await TransactionLog.open(copy, { repair: true });
    expect(report.records).to.equal(1);
    expect(report.cut).to.include(`at byte ${second}`);
    expect(await log.append(Buffer.from('after repair'))).to.equal(2);
    await log.close();
    expect(await bodies(copy)).to.deep.equal(['alpha', 'after repair']);
  });

  it('refuses records out of sequence', async () => {
    await logWith(path(), ['a', 'b'], 10);
    const other = join(tmp.path, 'other.qlog');
    await logWith(other, ['c'], 20);
    // splice the record of the other log (transaction 21) after this one's
    const mine = await readFile(path());
    const theirs = await readFile(other);
    await writeFile(path(), Buffer.concat([mine, theirs.subarray(FILE_HEADER_SIZE)]));
    const e = await rejection(TransactionLog.open(path()));
    expect(e).to.be.instanceOf(CorruptFileError);
    expect(e.message).to.include('holds transaction 21, expected 13');
  });

  it('refuses foreign files, snapshots and future versions', async () => {
    await writeFile(path(), 'not a log at all, just some text that is long enough');
    expect(await rejection(TransactionLog.open(path()))).to.be.instanceOf(ForeignFileError);
    await writeSnapshot(path(), [], { sequence: 1 });
    const e = await rejection(TransactionLog.open(path()));
    expect(e).to.be.instanceOf(ForeignFileError);
    expect(e.message).to.include('snapshot');
    await logWith(join(tmp.path, 'future.qlog'), ['x']);
    const bytes = await readFile(join(tmp.path, 'future.qlog'));
    bytes.writeUInt32LE(9, 8);
    await writeFile(path(), bytes);
    expect(await rejection(TransactionLog.open(path()))).to.be.instanceOf(FileVersionError);
  });

  describe('failed appends', () => {
    /** File operations whose write fails after writing half of the record. */
    function failingWrites(code: string, state: { fail: boolean }): (io: LogFileIO) => LogFileIO {
      return (io) => ({
        ...io,
        write: async (chunks, position) => {
          if (!state.fail) return io.write(chunks, position);
          const bytes = Buffer.concat(chunks);
          await io.write([bytes.subarray(0, bytes.length >> 1)], position);
          throw systemError(code);
        },
      });
    }

    it('truncate the log back, fail with a clear error, and let the next append work', async () => {
      await logWith(path(), ['one', 'two']);
      const before = await readFile(path());
      const state = { fail: true };
      const { log } = await TransactionLog.open(path(), { wrapIO: failingWrites('ENOSPC', state) });
      const e = await rejection(log.append(seededBytes(1000)));
      expect(e).to.be.instanceOf(StorageWriteError);
      expect((e as StorageWriteError).code).to.equal('ENOSPC');
      expect((e as StorageWriteError).status).to.equal(507);
      expect(e.message).to.include(path()).and.include('the disk is full').and.include('not committed');
      expect((await readFile(path())).equals(before)).to.equal(true);
      expect(log.isBroken).to.equal(false);
      expect(log.lastSequence).to.equal(2);
      state.fail = false;
      expect(await log.append(Buffer.from('three'))).to.equal(3);
      await log.close();
      expect(await bodies(path())).to.deep.equal(['one', 'two', 'three']);
    });

    it('break the log when truncating back fails too (and reopening cuts the half record)', async () => {
      await logWith(path(), ['one']);
      const { log } = await TransactionLog.open(path(), {
        wrapIO: (io) => ({
          ...failingWrites('EIO', { fail: true })(io),
          truncate: () => Promise.reject(systemError('EIO')),
        }),
      });
      const e = await rejection(log.append(Buffer.from('two')));
      expect(e.message).to.include('an I/O error occurred').and.include('accepts no more appends');
      expect(log.isBroken).to.equal(true);
      const again = await rejection(log.append(Buffer.from('three')));
      expect(again).to.be.instanceOf(StorageWriteError);
      expect(again.message).to.include('could not truncate');
      await log.close();
      const { log: reopened, report } = await TransactionLog.open(path());
      expect(report.records).to.equal(1);
      expect(report.tail.kind).to.not.equal('clean');
      await reopened.close();
      expect(await bodies(path())).to.deep.equal(['one']);
    });

    it('break the log when a flush fails, after truncating it back', async () => {
      await logWith(path(), ['one']);
      const before = await readFile(path());
      const { log } = await TransactionLog.open(path(), { wrapIO: (io) => ({ ...io, datasync: () => Promise.reject(systemError('EIO')) }) });
      const e = await rejection(log.append(Buffer.from('two')));
      expect(e).to.be.instanceOf(StorageWriteError);
      expect(log.isBroken).to.equal(true);
      expect((await readFile(path())).equals(before)).to.equal(true);
      await log.close();
    });

    describe('on a real full disk (a tiny tmpfs; skipped where it cannot be mounted)', () => {
      let mount = '';
      beforeEach(async function () {
        mount = join(tmp.path, 'tiny');
        await mkdir(mount);
        if (!mountTinyTmpfs(mount, 64 * 1024)) this.skip();
      });
      afterEach(() => unmount(mount));

      it('fails the append with ENOSPC and leaves the log as before', async () => {
        const file = join(mount, 'transactions.qlog');
        const log = await TransactionLog.create(file, 0);
        let appended = 0;
        let error: Error | undefined;
        for (let i = 0; i < 100 && error === undefined; i++) {
          try {
            await log.append(seededBytes(4000, i + 1));
            appended++;
          } catch (e) {
            error = e as Error;
          }
        }
        expect(error).to.be.instanceOf(StorageWriteError);
        expect((error as StorageWriteError).code).to.equal('ENOSPC');
        expect(error!.message).to.include(file).and.include('the disk is full');
        expect((await stat(file)).size).to.equal(log.size);
        await log.close();
        const { records, tail } = await readLog(file);
        expect(records.length).to.equal(appended);
        expect(tail.kind).to.equal('clean');
      });
    });
  });
});
