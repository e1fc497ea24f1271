import { expect } from 'chai';
import { open, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as zlib from 'node:zlib';
import { CorruptFileError, FileFormatError, FileVersionError, ForeignFileError } from '../../lib/persistence/errors.js';
import {
  crc32,
  crc32Portable,
  decodeFileHeader,
  DOCUMENT_FILE,
  encodeFileHeader,
  encodeRecord,
  FILE_HEADER_SIZE,
  type FramedRecord,
  LOG_FILE,
  NATIVE_CRC32,
  recordSize,
  SNAPSHOT_FILE,
  walkRecords,
  type WalkResult,
} from '../../lib/persistence/framing.js';
import { flippedCopy, seededBytes, truncatedCopy, useTempDir } from './helpers.js';

function concat(chunks: readonly Uint8Array[]): Buffer {
  return Buffer.concat(chunks.map((c) => Buffer.from(c.buffer, c.byteOffset, c.byteLength)));
}

/** A framed file of `kind` with one record per payload (tag = index + 1). */
function framedFile(payloads: readonly Uint8Array[], sequence = 7, kind = LOG_FILE): Buffer {
  return concat([encodeFileHeader(kind, sequence), ...payloads.flatMap((p, i) => encodeRecord(i + 1, [p]))]);
}

async function walk(path: string, kind = LOG_FILE): Promise<{ result: WalkResult; records: FramedRecord[] }> {
  const handle = await open(path, 'r');
  try {
    const records: FramedRecord[] = [];
    const result = await walkRecords(
      handle,
      path,
      kind,
      (r) => {
        records.push(r);
      },
      { chunkSize: 64 },
    );
    return { result, records };
  } finally {
    await handle.close();
  }
}

async function headerError(path: string, kind = LOG_FILE): Promise<FileFormatError> {
  try {
    await walk(path, kind);
  } catch (e) {
    expect(e).to.be.instanceOf(FileFormatError);
    return e as FileFormatError;
  }
  expect.fail(`${path} was accepted`);
}

describe('persistence framing', () => {
  const tmp = useTempDir();
  const payloads = [seededBytes(5, 1), seededBytes(100, 2), seededBytes(37, 3)];
  const offsets = [FILE_HEADER_SIZE, FILE_HEADER_SIZE + recordSize(5), FILE_HEADER_SIZE + recordSize(5) + recordSize(100)];
  const fileSize = offsets[2]! + recordSize(37);

  describe('CRC-32', () => {
    it('is zlib.crc32 on this Node, and the portable table computes the same values', () => {
      expect(NATIVE_CRC32).to.equal(typeof (zlib as { crc32?: unknown }).crc32 === 'function');
      const data = seededBytes(10_000, 9);
      expect(crc32Portable(Buffer.from('123456789'))).to.equal(0xcbf43926);
      expect(crc32(Buffer.from('123456789'))).to.equal(0xcbf43926);
      expect(crc32Portable(data)).to.equal(crc32(data));
      expect(crc32Portable(data.subarray(5000), crc32Portable(data.subarray(0, 5000)))).to.equal(crc32(data));
      expect(crc32(data.subarray(5000), crc32(data.subarray(0, 5000)))).to.equal(crc32(data));
    });
  });

  describe('file header', () => {
    it('round-trips kind, version and sequence', () => {
      const h = decodeFileHeader(encodeFileHeader(SNAPSHOT_FILE, 2 ** 40 + 3), 'x', SNAPSHOT_FILE);
      expect(h).to.deep.equal({ kind: SNAPSHOT_FILE, version: 1, sequence: 2 ** 40 + 3 });
    });

    it('refuses a foreign file, naming the path and the offset', async () => {
      const path = join(tmp.path, 'foreign');
      await writeFile(path, 'PAR1 this is some other file format with enough bytes to fill a header');
      const e = await headerError(path);
      expect(e).to.be.instanceOf(ForeignFileError);
      expect(e.message).to.include(path).and.include('at byte 0').and.include('not a quadlog transaction log');
    });

    it('refuses a quadlog file of another kind', async () => {
      const path = join(tmp.path, 'snapshot-as-log');
      await writeFile(path, framedFile([], 0, SNAPSHOT_FILE));
      const e = await headerError(path);
      expect(e).to.be.instanceOf(ForeignFileError);
      expect(e.message).to.include('this is a quadlog snapshot, not a transaction log');
    });

    it('refuses a file from a newer format version, with or without a valid checksum', async () => {
      const bytes = framedFile([payloads[0]!]);
      bytes.writeUInt32LE(2, 8);
      const path = join(tmp.path, 'future');
      await writeFile(path, bytes);
      let e = await headerError(path);
      expect(e).to.be.instanceOf(FileVersionError);
      expect((e as FileVersionError).version).to.equal(2);
      expect(e.message).to.include(path).and.include('format version 2').and.include('newer version of quadlog');
      bytes.writeUInt32LE(crc32(bytes.subarray(0, 28)), 28);
      await writeFile(path, bytes);
      e = await headerError(path);
      expect(e).to.be.instanceOf(FileVersionError);
    });

    it('refuses empty and truncated headers as corrupt, at the offset where the file ends', async () => {
      const full = framedFile([]);
      for (let n = 0; n < FILE_HEADER_SIZE; n++) {
        const path = join(tmp.path, `short-${n}`);
        await writeFile(path, full.subarray(0, n));
        const e = await headerError(path);
        expect(e, `length ${n}`).to.be.instanceOf(CorruptFileError);
        expect(e.offset, `length ${n}`).to.equal(n);
        expect(e.message).to.include(path);
      }
    });

    it('refuses a header with any bit flipped', async () => {
      const path = join(tmp.path, 'good');
      await writeFile(path, framedFile(payloads));
      for (let offset = 0; offset < FILE_HEADER_SIZE; offset++) {
        for (let bit = 0; bit < 8; bit++) {
          const copy = join(tmp.path, 'flipped');
          await flippedCopy(path, copy, offset, bit);
          const e = await headerError(copy);
          expect(e.message).to.include(copy);
          expect(e.offset).to.be.within(0, FILE_HEADER_SIZE);
        }
      }
    });
  });

  describe('records', () => {
    it('round-trip payloads and tags, with every payload 8-byte aligned in its buffer', async () => {
      const path = join(tmp.path, 'log');
      const big = seededBytes(1000, 4);
      await writeFile(path, framedFile([...payloads, new Uint8Array(0), big]));
      const { result, records } = await walk(path);
      expect(result.tail).to.deep.equal({ kind: 'clean' });
      expect(result.header.sequence).to.equal(7);
      expect(records.map((r) => r.tag)).to.deep.equal([1, 2, 3, 4, 5]);
      expect(records.map((r) => Buffer.from(r.payload))).to.deep.equal([...payloads, new Uint8Array(0), big].map((p) => Buffer.from(p)));
      expect(records.map((r) => r.offset)).to.deep.equal([...offsets, fileSize, fileSize + recordSize(0)]);
      for (const r of records) expect(r.payload.byteOffset % 8).to.equal(0);
    });

    it('encodes a payload given in parts like the same bytes in one part', () => {
      const whole = concat(encodeRecord(3, [Buffer.from('abcdefghij')]));
      const parts = concat(encodeRecord(3, [Buffer.from('abc'), new Uint8Array(0), Buffer.from('defghij')]));
      expect(parts.equals(whole)).to.equal(true);
    });

    it('cuts a torn last record at every byte offset, keeping the records before it', async () => {
      const path = join(tmp.path, 'log');
      await writeFile(path, framedFile(payloads));
      for (let length = offsets[2]!; length < fileSize; length++) {
        const copy = join(tmp.path, 'torn');
        await truncatedCopy(path, copy, length);
        const { result, records } = await walk(copy);
        expect(records.length, `length ${length}`).to.equal(2);
        expect(result.end).to.equal(offsets[2]);
        if (length === offsets[2]) expect(result.tail.kind).to.equal('clean');
        else {
          expect(result.tail.kind, `length ${length}`).to.equal('torn');
          expect(result.tail).to.include({ offset: offsets[2], bytes: length - offsets[2]! });
        }
      }
    });

    it('treats a zero-filled tail as torn', async () => {
      const path = join(tmp.path, 'log');
      await writeFile(path, Buffer.concat([framedFile(payloads.slice(0, 2)), Buffer.alloc(4096)]));
      const { result, records } = await walk(path);
      expect(records.length).to.equal(2);
      expect(result.tail.kind).to.equal('torn');
      expect(result.tail).to.include({ offset: offsets[2], bytes: 4096 });
    });

    it('detects a bit flip in every byte of the last record and never returns it', async () => {
      const path = join(tmp.path, 'log');
      await writeFile(path, framedFile(payloads));
      for (let offset = offsets[2]!; offset < fileSize; offset++) {
        for (let bit = 0; bit < 8; bit++) {
          const copy = join(tmp.path, 'flipped');
          await flippedCopy(path, copy, offset, bit);
          const { result, records } = await walk(copy);
          expect(records.length, `byte ${offset} bit ${bit}`).to.equal(2);
          expect(result.tail.kind, `byte ${offset} bit ${bit}`).to.equal('corrupt');
          if (result.tail.kind !== 'corrupt') continue;
          expect(result.tail.offset).to.equal(offsets[2]);
          expect(result.tail.resumesAt).to.equal(undefined);
        }
      }
    });

    it('detects a bit flip in every byte of a middle record and finds the record after it', async () => {
      const path = join(tmp.path, 'log');
      await writeFile(path, framedFile(payloads));
      for (let offset = offsets[1]!; offset < offsets[2]!; offset++) {
        for (let bit = 0; bit < 8; bit += 3) {
          const copy = join(tmp.path, 'flipped');
          await flippedCopy(path, copy, offset, bit);
          const { result, records } = await walk(copy);
          expect(records.length, `byte ${offset} bit ${bit}`).to.equal(1);
          expect(result.tail.kind).to.equal('corrupt');
          if (result.tail.kind !== 'corrupt') continue;
          expect(result.tail.offset).to.equal(offsets[1]);
          expect(result.tail.resumesAt, `byte ${offset} bit ${bit}`).to.equal(offsets[2]);
          expect(result.tail.reason).to.match(/damaged|not zero/);
        }
      }
    });

    it('reads document files of the same framing', async () => {
      const path = join(tmp.path, 'doc');
      await writeFile(path, framedFile([Buffer.from('{"a":1}')], 3, DOCUMENT_FILE));
      const { records } = await walk(path, DOCUMENT_FILE);
      expect(Buffer.from(records[0]!.payload).toString()).to.equal('{"a":1}');
      expect((await readFile(path)).length).to.equal(FILE_HEADER_SIZE + recordSize(7));
    });
  });
});
