import { expect } from 'chai';
import { join } from 'node:path';
import { TermDictionary } from '../../lib/model/dictionary.js';
import { CorruptFileError } from '../../lib/persistence/errors.js';
import { readLog, TransactionLog } from '../../lib/persistence/log.js';
import {
  applyTerms,
  collectTerms,
  decodeTransaction,
  DERIVED_CODEC_VERSION,
  encodeTransaction,
  TRANSACTION_CODEC_VERSION,
  type TransactionRecord,
} from '../../lib/persistence/transaction-record.js';
import { useTempDir } from './helpers.js';

function body(record: TransactionRecord): Uint8Array {
  const chunks = encodeTransaction(record);
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

function plain(record: TransactionRecord): unknown {
  return {
    firstTermId: record.firstTermId,
    terms: { ends: Array.from(record.terms.ends), bytes: Buffer.from(record.terms.bytes).toString('utf8') },
    tables: record.tables.map((t) => ({ tableId: t.tableId, arity: t.arity, added: Array.from(t.added), removed: Array.from(t.removed) })),
    operations: record.operations,
    ...(record.derived === undefined ? {} : { derived: record.derived.map((t) => ({ tableId: t.tableId, arity: t.arity, added: Array.from(t.added), removed: Array.from(t.removed) })) }),
  };
}

const KEYS = ['<http://example.org/a>', '"ünïcödé ✓"', '_:b0', '"1"^^<http://www.w3.org/2001/XMLSchema#integer>'];

function sample(): TransactionRecord {
  const dictionary = new TermDictionary();
  dictionary.intern('<http://example.org/old>');
  for (const k of KEYS) dictionary.intern(k);
  return {
    firstTermId: 1,
    terms: collectTerms(dictionary, 1, dictionary.size),
    tables: [
      { tableId: 1, arity: 3, added: Uint32Array.of(1, 2, 3, 4, 2, 3), removed: Uint32Array.of(0, 0, 0) },
      { tableId: 2, arity: 4, added: new Uint32Array(0), removed: Uint32Array.of(1, 1, 1, 4) },
      { tableId: 7, arity: 1, added: Uint32Array.of(9), removed: new Uint32Array(0) },
    ],
    operations: [
      { op: 'rule.add', text: 'A(?x) :- B(?x) .', domain: 'user' },
      { op: 'prefix.set', name: 'ex:', iri: 'http://example.org/' },
      { op: 'statistics.set', name: 'column-counts', parameters: {} },
    ],
  };
}

describe('persistence transaction record', () => {
  const tmp = useTempDir();

  it('round-trips terms, table changes and operations', () => {
    const record = sample();
    const decoded = decodeTransaction(body(record));
    expect(plain(decoded)).to.deep.equal(plain(record));
    expect(Buffer.from(decoded.terms.bytes).toString('utf8')).to.equal(KEYS.join(''));
  });

  it('round-trips an empty transaction', () => {
    const empty: TransactionRecord = { firstTermId: 0, terms: { ends: new Uint32Array(0), bytes: new Uint8Array(0) }, tables: [], operations: [] };
    const bytes = body(empty);
    expect(bytes.length).to.equal(32 + 8);
    expect(plain(decodeTransaction(bytes))).to.deep.equal(plain(empty));
  });

  it('decodes into views over the record, copying nothing', () => {
    const bytes = body(sample());
    const decoded = decodeTransaction(bytes);
    expect(decoded.terms.ends.buffer).to.equal(bytes.buffer);
    expect(decoded.terms.bytes.buffer).to.equal(bytes.buffer);
    for (const t of decoded.tables) {
      expect(t.added.buffer).to.equal(bytes.buffer);
      expect(t.removed.buffer).to.equal(bytes.buffer);
    }
    // an unaligned body is copied first
    const shifted = new Uint8Array(bytes.length + 4);
    shifted.set(bytes, 4);
    expect(plain(decodeTransaction(shifted.subarray(4)))).to.deep.equal(plain(sample()));
  });

  it('goes through the log unchanged, and replays the terms into a dictionary with the same ids', async () => {
    const path = join(tmp.path, 'transactions.qlog');
    const log = await TransactionLog.create(path, 0);
    const source = new TermDictionary();
    const records: TransactionRecord[] = [];
    for (let t = 0; t < 3; t++) {
      const first = source.size;
      for (let i = 0; i < 5; i++) source.intern(`<http://example.org/t${t}/i${i}>`);
      const record: TransactionRecord = { firstTermId: first, terms: collectTerms(source, first, source.size), tables: [{ tableId: 1, arity: 3, added: Uint32Array.of(first, first + 1, first + 2), removed: new Uint32Array(0) }], operations: [] };
      records.push(record);
      await log.append(encodeTransaction(record));
    }
    await log.close();
    const replica = new TermDictionary();
    const { records: read } = await readLog(path);
    for (const r of read) {
      const decoded = decodeTransaction(r.body, { path, offset: r.offset });
      applyTerms(replica, decoded, { path, offset: r.offset });
      expect(plain(decoded)).to.deep.equal(plain(records[r.sequence - 1]!));
    }
    expect(replica.size).to.equal(source.size);
    for (let id = 0; id < source.size; id++) expect(replica.keyOf(id)).to.equal(source.keyOf(id));
  });

  it('refuses terms that do not continue the dictionary', () => {
    const record = decodeTransaction(body(sample()));
    const empty = new TermDictionary();
    expect(() => applyTerms(empty, record, { path: 'the-log', offset: 96 })).to.throw(CorruptFileError, /the-log: at byte 96: .*start at id 1, but the dictionary has 0 terms/);
    const clash = new TermDictionary();
    clash.intern(KEYS[0]!);
    expect(() => applyTerms(clash, record)).to.throw(CorruptFileError, /new term 1 of the record is already in the dictionary as id 0/);
  });

  it('refuses a body cut at any length, or with anything after it', () => {
    const bytes = body(sample());
    for (let n = 0; n < bytes.length; n++) {
      expect(() => decodeTransaction(bytes.slice(0, n), { path: 'log', offset: 1000 }), `length ${n}`).to.throw(CorruptFileError, /^log: at byte \d+: invalid transaction record/);
    }
    const longer = new Uint8Array(bytes.length + 8);
    longer.set(bytes);
    expect(() => decodeTransaction(longer)).to.throw(CorruptFileError, /8 bytes follow the last part/);
  });

  it('refuses malformed fields', () => {
    const bytes = body(sample());
    const patched = (offset: number, value: number): Uint8Array => {
      const copy = new Uint8Array(bytes);
      new DataView(copy.buffer).setUint32(offset, value, true);
      return copy;
    };
    expect(() => decodeTransaction(patched(0, 3))).to.throw(/codec version 3, this version of quadlog reads 1 and 2/);
    // a version 1 body read as version 2 lacks the derived part
    expect(() => decodeTransaction(patched(0, 2))).to.throw(CorruptFileError, /the header of the derived changes .* run past the end/);
    expect(() => decodeTransaction(patched(4, 1))).to.throw(/unknown flags/);
    expect(() => decodeTransaction(patched(28, 1))).to.throw(/reserved/);
    expect(() => decodeTransaction(patched(32, 999))).to.throw(/term 0 ends at 999/);
    const json = Buffer.from(JSON.stringify([{ notOp: 1 }]));
    const record = { ...sample(), operations: [] };
    const good = body(record);
    const bad = new Uint8Array(good.length + 16);
    bad.set(good.subarray(0, good.length - 8));
    bad.set(json, good.length - 8);
    new DataView(bad.buffer).setUint32(24, json.length, true);
    expect(() => decodeTransaction(bad.subarray(0, good.length - 8 + Math.ceil(json.length / 8) * 8))).to.throw(/operation 0 is not an object with a string 'op'/);
  });

  it('refuses inconsistent records on encode', () => {
    const terms = { ends: Uint32Array.of(3), bytes: new Uint8Array(4) };
    expect(() => encodeTransaction({ firstTermId: 0, terms, tables: [], operations: [] })).to.throw(RangeError, /last term ends at 3/);
    const table = { tableId: 1, arity: 3, added: Uint32Array.of(1, 2), removed: new Uint32Array(0) };
    expect(() => encodeTransaction({ firstTermId: 0, terms: { ends: new Uint32Array(0), bytes: new Uint8Array(0) }, tables: [table], operations: [] })).to.throw(RangeError, /multiple of its arity/);
  });

  describe('with derived changes (codec version 2)', () => {
    function withDerived(): TransactionRecord {
      return {
        ...sample(),
        derived: [
          { tableId: 1, arity: 3, added: Uint32Array.of(2, 2, 2, 3, 3, 3), removed: Uint32Array.of(4, 4, 4) },
          { tableId: 7, arity: 1, added: new Uint32Array(0), removed: Uint32Array.of(5) },
        ],
      };
    }

    it('writes a record without derived changes as version 1, byte for byte as before', () => {
      const bytes = body(sample());
      expect(new DataView(bytes.buffer).getUint32(0, true)).to.equal(TRANSACTION_CODEC_VERSION);
      expect(decodeTransaction(bytes).derived).to.equal(undefined);
      expect(Buffer.from(body({ ...sample(), derived: undefined })).equals(Buffer.from(bytes))).to.equal(true);
    });

    it('round-trips derived changes as version 2, also an empty list, as views over the record', () => {
      const record = withDerived();
      const bytes = body(record);
      expect(new DataView(bytes.buffer).getUint32(0, true)).to.equal(DERIVED_CODEC_VERSION);
      const decoded = decodeTransaction(bytes);
      expect(plain(decoded)).to.deep.equal(plain(record));
      for (const t of decoded.derived!) expect(t.added.buffer).to.equal(bytes.buffer);
      const none = { ...sample(), derived: [] };
      const noneBytes = body(none);
      expect(noneBytes.length).to.equal(body(sample()).length + 8);
      expect(decodeTransaction(noneBytes).derived).to.deep.equal([]);
    });

    it('refuses a version 2 body cut at any length, with anything after it, or with malformed derived parts', () => {
      const bytes = body(withDerived());
      for (let n = 0; n < bytes.length; n++) {
        expect(() => decodeTransaction(bytes.slice(0, n), { path: 'log', offset: 0 }), `length ${n}`).to.throw(CorruptFileError, /invalid transaction record/);
      }
      const longer = new Uint8Array(bytes.length + 8);
      longer.set(bytes);
      expect(() => decodeTransaction(longer)).to.throw(CorruptFileError, /8 bytes follow the last part/);
      // the derived header follows the operations: find it from the end
      const derivedBytes = 8 + (16 + 24 + 16) + (16 + 8);
      const header = bytes.length - derivedBytes;
      const patched = (offset: number, value: number): Uint8Array => {
        const copy = new Uint8Array(bytes);
        new DataView(copy.buffer).setUint32(offset, value, true);
        return copy;
      };
      expect(new DataView(bytes.buffer).getUint32(header, true)).to.equal(2);
      expect(() => decodeTransaction(patched(header + 4, 1))).to.throw(/reserved bytes of the derived changes/);
      expect(() => decodeTransaction(patched(header, 3))).to.throw(CorruptFileError);
      expect(() => decodeTransaction(patched(header + 8 + 56, 1))).to.throw(/table 1 has two derived changes/);
      expect(() => decodeTransaction(patched(header + 8 + 4, 0))).to.throw(/arity 0/);
    });

    it('refuses derived changes that are not a multiple of their arity on encode', () => {
      const bad = { ...sample(), derived: [{ tableId: 1, arity: 3, added: Uint32Array.of(1), removed: new Uint32Array(0) }] };
      expect(() => encodeTransaction(bad)).to.throw(RangeError, /multiple of its arity/);
    });
  });
});
