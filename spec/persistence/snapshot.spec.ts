import { expect } from 'chai';
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isTemporaryFileName, removeTemporaryFiles, temporaryPathFor } from '../../lib/persistence/atomic-file.js';
import { CorruptFileError, FileFormatError, FileVersionError, ForeignFileError, StorageWriteError } from '../../lib/persistence/errors.js';
import { crc32, fromLittleEndianInPlace, LITTLE_ENDIAN, littleEndianBytes } from '../../lib/persistence/framing.js';
import { encodeSnapshot, readSnapshot, readSnapshotContents, type SnapshotSection, writeSnapshot } from '../../lib/persistence/snapshot.js';
import { flippedCopy, mountTinyTmpfs, seededBytes, truncatedCopy, unmount, useTempDir } from './helpers.js';

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (e) {
    return e as Error;
  }
  expect.fail('expected a rejection');
}

const SECTIONS: SnapshotSection[] = [
  { name: 'catalogue', json: { prefixes: { 'ex:': 'http://example.org/' }, rules: ['A(?x) :- B(?x) .'], ünïcode: '✓' } },
  { name: 'dictionary.arena', array: seededBytes(1001, 5) },
  { name: 'dictionary.offsets', array: Uint32Array.from({ length: 77 }, (_, i) => i * 13) },
  { name: 'table.1.data', array: Uint32Array.of(1, 2, 3, 4, 5, 6) },
  { name: 'empty', array: new Uint32Array(0) },
  { name: 'flags', array: Int8Array.of(-1, 0, 1) },
  { name: 'u16', array: Uint16Array.of(1, 65535, 3) },
  { name: 'i16', array: Int16Array.of(-2, 7) },
  { name: 'i32', array: Int32Array.of(-5, 2 ** 31 - 1) },
  { name: 'f32', array: Float32Array.of(1.5, -0) },
  { name: 'f64', array: Float64Array.of(Math.PI, -Infinity, Number.NaN) },
  { name: 'i64', array: BigInt64Array.of(-(2n ** 63n), 1n) },
  { name: 'u64', array: BigUint64Array.of(2n ** 64n - 1n) },
  { name: 'statistics', json: null },
];

describe('persistence snapshot', () => {
  const tmp = useTempDir();
  const path = (): string => join(tmp.path, 'snapshot.qsnap');

  it('round-trips typed arrays and JSON sections, each array in a buffer of its own at offset 0', async () => {
    const { bytes } = await writeSnapshot(path(), SECTIONS, { sequence: 123 });
    expect((await stat(path())).size).to.equal(bytes);
    const snap = await readSnapshot(path());
    expect(snap.sequence).to.equal(123);
    expect(snap.sections.map((s) => s.name)).to.deep.equal(SECTIONS.map((s) => s.name));
    for (const s of snap.sections) expect(s.offset % 8, s.name).to.equal(0);
    expect(snap.json('catalogue')).to.deep.equal((SECTIONS[0] as { json: unknown }).json);
    expect(snap.json('statistics')).to.equal(null);
    const arena = snap.array('dictionary.arena', Uint8Array);
    expect(Buffer.from(arena).equals(Buffer.from(seededBytes(1001, 5)))).to.equal(true);
    expect(arena.byteOffset).to.equal(0);
    expect(Array.from(snap.array('dictionary.offsets', Uint32Array))).to.deep.equal(Array.from({ length: 77 }, (_, i) => i * 13));
    expect(Array.from(snap.array('table.1.data', Uint32Array))).to.deep.equal([1, 2, 3, 4, 5, 6]);
    expect(snap.array('empty', Uint32Array).length).to.equal(0);
    expect(Array.from(snap.array('flags', Int8Array))).to.deep.equal([-1, 0, 1]);
    expect(Array.from(snap.array('u16', Uint16Array))).to.deep.equal([1, 65535, 3]);
    expect(Array.from(snap.array('i16', Int16Array))).to.deep.equal([-2, 7]);
    expect(Array.from(snap.array('i32', Int32Array))).to.deep.equal([-5, 2 ** 31 - 1]);
    expect(Array.from(snap.array('f32', Float32Array))).to.deep.equal([1.5, -0]);
    expect(Array.from(snap.array('f64', Float64Array))).to.deep.equal([Math.PI, -Infinity, Number.NaN]);
    expect(Array.from(snap.array('i64', BigInt64Array))).to.deep.equal([-(2n ** 63n), 1n]);
    expect(Array.from(snap.array('u64', BigUint64Array))).to.deep.equal([2n ** 64n - 1n]);
    expect((await readSnapshotContents(path())).sections).to.deep.equal(snap.sections);
  });

  it('writes arrays as little-endian bytes', async () => {
    await writeSnapshot(path(), [{ name: 'n', array: Uint32Array.of(0x01020304) }], { sequence: 0 });
    const { sections } = await readSnapshotContents(path());
    const bytes = await readFile(path());
    expect([...bytes.subarray(sections[0]!.offset, sections[0]!.offset + 4)]).to.deep.equal([4, 3, 2, 1]);
  });

  it('byte-swaps on a big-endian machine (the conversions, forced)', () => {
    const a = Uint32Array.of(0x01020304, 0xa0b0c0d0);
    const le = littleEndianBytes(a, false);
    expect(le.buffer).to.not.equal(a.buffer);
    const native = littleEndianBytes(a, true);
    expect(native.buffer).to.equal(a.buffer);
    const copy = new Uint8Array(le);
    fromLittleEndianInPlace(copy, 4, false);
    expect([...copy]).to.deep.equal([...native]);
    expect(LITTLE_ENDIAN).to.equal(true);
  });

  it('reserves capacity on request, zero beyond the data', async () => {
    await writeSnapshot(path(), [{ name: 'rows', array: Uint32Array.of(7, 8, 9) }], { sequence: 0 });
    const snap = await readSnapshot(path(), { reserve: (s) => s.length * 4 });
    const rows = snap.array('rows', Uint32Array);
    expect(Array.from(rows)).to.deep.equal([7, 8, 9]);
    const all = new Uint32Array(rows.buffer);
    expect(all.length).to.be.at.least(12);
    expect(Array.from(all.subarray(3))).to.deep.equal(new Array<number>(all.length - 3).fill(0));
  });

  it('refuses a section read as another type, and a missing section', async () => {
    await writeSnapshot(path(), SECTIONS, { sequence: 1 });
    const snap = await readSnapshot(path());
    expect(() => snap.array('table.1.data', Int32Array)).to.throw(CorruptFileError, /holds uint32, not the Int32Array/);
    expect(() => snap.json('table.1.data')).to.throw(CorruptFileError, /not JSON/);
    expect(() => snap.array('nothing', Uint8Array)).to.throw(CorruptFileError, /no section 'nothing'/);
    expect(snap.has('catalogue')).to.equal(true);
    expect(snap.has('nothing')).to.equal(false);
  });

  it('refuses invalid sections on write', () => {
    expect(() => encodeSnapshot([{ name: 'a', json: 1 }, { name: 'a', json: 2 }], 0)).to.throw(/two snapshot sections are named 'a'/);
    expect(() => encodeSnapshot([{ name: '', json: 1 }], 0)).to.throw(/non-empty name/);
    expect(() => encodeSnapshot([{ name: 'u', json: undefined }], 0)).to.throw(/cannot be written as JSON/);
  });

  it('detects a bit flip in every byte, naming the path, the offset and the section', async () => {
    const small: SnapshotSection[] = [
      { name: 'meta', json: { a: 1 } },
      { name: 'ids', array: Uint32Array.of(1, 2, 3) },
      { name: 'bytes', array: seededBytes(13, 2) },
    ];
    await writeSnapshot(path(), small, { sequence: 9 });
    const size = (await stat(path())).size;
    const { sections } = await readSnapshotContents(path());
    for (let offset = 0; offset < size; offset++) {
      for (const bit of [offset % 8]) {
        const copy = join(tmp.path, 'flipped.qsnap');
        await flippedCopy(path(), copy, offset, bit);
        const e = await rejection(readSnapshot(copy));
        expect(e, `byte ${offset} bit ${bit}`).to.be.instanceOf(FileFormatError);
        expect(e.message).to.include(copy);
        const at = (e as FileFormatError).offset;
        expect(at).to.be.at.most(offset + 1);
        const section = sections.find((s) => offset >= s.offset && offset < s.offset + s.length);
        if (section !== undefined) {
          expect(at).to.equal(section.offset);
          expect(e.message).to.include(`section '${section.name}'`);
        }
      }
    }
  });

  it('refuses a snapshot truncated at any length', async () => {
    await writeSnapshot(path(), [{ name: 'meta', json: [1, 2, 3] }, { name: 'ids', array: Uint32Array.of(1, 2, 3, 4, 5) }], { sequence: 2 });
    const size = (await stat(path())).size;
    for (let length = 0; length < size; length++) {
      const copy = join(tmp.path, 'short.qsnap');
      await truncatedCopy(path(), copy, length);
      const e = await rejection(readSnapshot(copy));
      expect(e, `length ${length}`).to.be.instanceOf(CorruptFileError);
      expect(e.message).to.include(copy);
    }
    await writeFile(join(tmp.path, 'long.qsnap'), Buffer.concat([await readFile(path()), Buffer.alloc(8)]));
    const e = await rejection(readSnapshot(join(tmp.path, 'long.qsnap')));
    expect(e.message).to.include('8 bytes of unknown data follow the last section');
  });

  it('refuses foreign files and future versions', async () => {
    await writeFile(path(), Buffer.from('\x89PNG\r\n\x1a\n and then some more bytes of a picture', 'latin1'));
    expect(await rejection(readSnapshot(path()))).to.be.instanceOf(ForeignFileError);
    await writeSnapshot(path(), [], { sequence: 0 });
    const bytes = await readFile(path());
    bytes.writeUInt32LE(2, 8);
    bytes.writeUInt32LE(crc32(bytes.subarray(0, 28)), 28);
    await writeFile(path(), bytes);
    const e = await rejection(readSnapshot(path()));
    expect(e).to.be.instanceOf(FileVersionError);
    expect(e.message).to.include(path()).and.include('format version 2');
  });

  describe('atomic replacement', () => {
    it('leaves the old snapshot readable when a crash interrupted the new one before its rename', async () => {
      await writeSnapshot(path(), [{ name: 'version', json: 'old' }], { sequence: 1 });
      // a crash part-way through the next write: its temporary file is left, half written
      const { chunks } = encodeSnapshot([{ name: 'version', json: 'new' }, { name: 'ids', array: new Uint32Array(1000) }], 2);
      const whole = Buffer.concat(chunks);
      const temporary = temporaryPathFor(path());
      await writeFile(temporary, whole.subarray(0, whole.length >> 1));
      expect(isTemporaryFileName(temporary)).to.equal(true);
      const snap = await readSnapshot(path());
      expect(snap.sequence).to.equal(1);
      expect(snap.json('version')).to.equal('old');
      // start-up removes the leftover; the next write replaces the snapshot whole
      expect(await removeTemporaryFiles(tmp.path)).to.have.length(1);
      await writeSnapshot(path(), [{ name: 'version', json: 'new' }], { sequence: 2 });
      expect((await readSnapshot(path())).json('version')).to.equal('new');
      expect(await readdir(tmp.path)).to.deep.equal(['snapshot.qsnap']);
    });

    describe('on a real full disk (a tiny tmpfs; skipped where it cannot be mounted)', () => {
      let mount = '';
      beforeEach(async function () {
        mount = join(tmp.path, 'tiny');
        await mkdir(mount);
        if (!mountTinyTmpfs(mount, 256 * 1024)) this.skip();
      });
      afterEach(() => unmount(mount));

      it('fails with a clear error and keeps the old snapshot', async () => {
        const file = join(mount, 'snapshot.qsnap');
        await writeSnapshot(file, [{ name: 'ids', array: Uint32Array.of(1, 2, 3) }], { sequence: 1 });
        const e = await rejection(writeSnapshot(file, [{ name: 'ids', array: new Uint32Array(200_000) }], { sequence: 2 }));
        expect(e).to.be.instanceOf(StorageWriteError);
        expect(e.message).to.include(file).and.include('the disk is full').and.include('unchanged');
        expect(await readdir(mount)).to.deep.equal(['snapshot.qsnap']);
        const snap = await readSnapshot(file);
        expect(snap.sequence).to.equal(1);
        expect(Array.from(snap.array('ids', Uint32Array))).to.deep.equal([1, 2, 3]);
      });
    });
  });
});
