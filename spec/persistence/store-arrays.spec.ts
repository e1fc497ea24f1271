/**
 * Specs of the storage functions persistence relies on: the net explicit changes of a write
 * transaction (TupleTable.changes with EXPLICIT), exporting and restoring a table's rows and a
 * dictionary's terms as arrays (exportRows/restoreRows, TermDictionary.restore).
 */
import { expect } from 'chai';
import { TermDictionary } from '../../lib/model/dictionary.js';
import { internSkolem } from '../../lib/model/skolem.js';
import { collectTerms } from '../../lib/persistence/transaction-record.js';
import { FactStore, DEFAULT_TRIPLES_ID } from '../../lib/storage/fact-store.js';
import { DERIVED, EXPLICIT, TupleTable } from '../../lib/storage/tuple-table.js';

function tuples(flat: Uint32Array, arity: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < flat.length; i += arity) out.push([...flat.subarray(i, i + arity)].join(' '));
  return out.sort();
}

describe('persistence: storage arrays', () => {
  describe('TupleTable.changes of explicit facts', () => {
    it('gives the net change of explicit facts against the state the transaction started from', async () => {
      const store = new FactStore();
      const table = store.table(DEFAULT_TRIPLES_ID);
      let tx = await store.beginWrite(1000);
      table.add([1, 2, 3], EXPLICIT, tx.version);
      table.add([4, 5, 6], EXPLICIT, tx.version);
      table.add([7, 8, 9], DERIVED, tx.version);
      store.commit(tx);
      tx = await store.beginWrite(1000);
      const base = { version: tx.base.version, limit: tx.base.limits.get(DEFAULT_TRIPLES_ID) ?? 0 };
      table.remove([1, 2, 3], EXPLICIT, tx.version); // removed
      table.add([4, 5, 6], DERIVED, tx.version); // stays explicit: no change
      table.add([7, 8, 9], EXPLICIT, tx.version); // derived → explicit too: added
      table.add([10, 11, 12], EXPLICIT, tx.version); // new
      table.add([13, 14, 15], EXPLICIT, tx.version); // added and removed again: no change
      table.remove([13, 14, 15], EXPLICIT, tx.version);
      table.remove([4, 5, 6], EXPLICIT, tx.version); // explicit → derived only: removed
      const { added, removed } = table.changes(base, EXPLICIT);
      expect(tuples(added, 3)).to.deep.equal(['10 11 12', '7 8 9']);
      expect(tuples(removed, 3)).to.deep.equal(['1 2 3', '4 5 6']);
      store.rollback(tx);
    });

    it('gives nothing outside a write transaction', () => {
      const table = new TupleTable(2);
      const { added, removed } = table.changes({ version: 0, limit: 0 }, EXPLICIT);
      expect(added.length + removed.length).to.equal(0);
    });
  });

  describe('TupleTable.exportVisibleRows', () => {
    /** The rows a view sees with their status, as `tuple:status`, exported in slices of `step` rows. */
    function exported(table: TupleTable, view: { version: number; limit: number }, step: number): string[] {
      const data = new Uint32Array(view.limit * 3);
      const flags = new Uint8Array(view.limit);
      let n = 0;
      for (let from = 0; from < view.limit; from += step) n += table.exportVisibleRows(view, from, from + step, data, flags, n);
      const rows: string[] = [];
      for (let i = 0; i < n; i++) rows.push(`${[...data.subarray(i * 3, i * 3 + 3)].join(' ')}:${flags[i]}`);
      return rows.sort();
    }

    it('exports the rows of an older version as they were then, whatever later commits removed, re-added or changed the status of', async () => {
      const store = new FactStore();
      const table = store.table(DEFAULT_TRIPLES_ID);
      let tx = await store.beginWrite(1000);
      for (let i = 0; i < 50; i++) table.add([i, 1, 2], i % 2 === 0 ? EXPLICIT : EXPLICIT | DERIVED, tx.version);
      store.commit(tx);
      const reader = store.read();
      const before = exported(table, reader.view(DEFAULT_TRIPLES_ID), 1 << 20);
      expect(before).to.have.length(50);
      tx = await store.beginWrite(1000);
      table.remove([0, 1, 2], EXPLICIT, tx.version); // removed
      table.remove([1, 1, 2], EXPLICIT, tx.version); // explicit | derived → derived
      table.add([2, 1, 2], DERIVED, tx.version); // explicit → explicit | derived
      table.add([3, 1, 2], EXPLICIT, tx.version); // unchanged
      table.add([100, 1, 2], EXPLICIT, tx.version); // new
      store.commit(tx);
      tx = await store.beginWrite(1000);
      table.add([0, 1, 2], DERIVED, tx.version); // back, with another status
      table.remove([4, 1, 2], EXPLICIT, tx.version); // removed by a transaction still open
      for (const step of [1, 7, 1 << 20]) expect(exported(table, reader.view(DEFAULT_TRIPLES_ID), step), `slices of ${step}`).to.deep.equal(before);
      store.rollback(tx);
      expect(exported(table, reader.view(DEFAULT_TRIPLES_ID), 3)).to.deep.equal(before);
      // the latest version: the commit's changes
      const latest = store.read();
      const now = exported(table, latest.view(DEFAULT_TRIPLES_ID), 5);
      expect(now).to.include('1 1 2:2').and.to.include('2 1 2:3').and.to.include('100 1 2:1').and.not.to.include('0 1 2:1');
      expect(now).to.have.length(50);
      store.release(latest);
      store.release(reader);
    });
  });

  describe('TupleTable.exportRows and restoreRows', () => {
    it('restores the live rows with their status, found by lookups and scans', () => {
      const table = new TupleTable(3);
      table.beginWrite();
      for (let i = 0; i < 100; i++) table.add([i, 1, i % 7], i % 3 === 0 ? EXPLICIT | DERIVED : EXPLICIT, 1);
      table.remove([5, 1, 5], EXPLICIT, 1);
      table.endWrite();
      const { data, flags } = table.exportRows();
      expect(flags.length).to.equal(99);
      const copy = new TupleTable(3);
      copy.restoreRows(data, flags);
      const view = { version: 1, limit: copy.rowCount };
      expect(copy.liveCount).to.equal(99);
      expect(copy.find([5, 1, 5], view)).to.equal(-1);
      const row = copy.find([6, 1, 6], view);
      expect(copy.statusOf(row)).to.equal(EXPLICIT | DERIVED);
      let n = 0;
      copy.scan([-1, -1, 3], view, () => {
        n++;
      });
      expect(n).to.equal(14);
      copy.beginWrite();
      expect(copy.add([200, 1, 1], EXPLICIT, 2)).to.equal(true);
      expect(copy.add([6, 1, 6], EXPLICIT, 2)).to.equal(false);
    });

    it('refuses rows that do not fit the arity or have no status', () => {
      expect(() => new TupleTable(2).restoreRows(Uint32Array.of(1, 2, 3), Uint8Array.of(1))).to.throw(/do not make 1 rows of arity 2/);
      expect(() => new TupleTable(2).restoreRows(Uint32Array.of(1, 2), Uint8Array.of(0))).to.throw(/invalid status bits 0/);
    });
  });

  describe('TermDictionary.restore', () => {
    it('gives every term its id back and keeps interning after them', () => {
      const d = new TermDictionary();
      const keys = ['<http://e/a>', '"x"', '_:b', '"é"@fr'];
      for (let i = 0; i < 5000; i++) keys.push(`<http://e/n${i}>`);
      for (const k of keys) d.intern(k);
      const { ends, bytes } = collectTerms(d, 0, d.size);
      const copy = new TermDictionary();
      copy.restore(bytes, ends);
      expect(copy.size).to.equal(keys.length);
      for (let i = 0; i < keys.length; i += 97) {
        expect(copy.lookup(keys[i]!)).to.equal(i);
        expect(copy.keyOf(i)).to.equal(keys[i]);
      }
      expect(copy.intern('<http://e/new>')).to.equal(keys.length);
    });

    it('refuses ends that do not match the bytes, and a dictionary that is not empty', () => {
      expect(() => new TermDictionary().restore(new Uint8Array(3), Uint32Array.of(2))).to.throw(/do not end at the 3 term bytes/);
      const d = new TermDictionary();
      d.intern('<http://e/a>');
      expect(() => d.restore(new Uint8Array(0), new Uint32Array(0))).to.throw(/empty dictionary/);
    });
  });

  describe('TermDictionary.exportSkolems and restoreSkolems', () => {
    it('gives back the arguments of every SKOLEM term, from any position on, and forgets those rolled back', () => {
      const d = new TermDictionary();
      const a = d.intern('<http://e/a>');
      const b = d.intern('"b"');
      const first = internSkolem(d, [a, b]);
      const second = internSkolem(d, [b]);
      expect(d.skolemCount).to.equal(2);
      expect([...d.exportSkolems(1)]).to.deep.equal([second, 1, b]);
      const copy = new TermDictionary();
      copy.restore(collectTerms(d, 0, d.size).bytes, collectTerms(d, 0, d.size).ends);
      copy.restoreSkolems(d.exportSkolems());
      expect([...copy.skolemInputs(first)!]).to.deep.equal([a, b]);
      expect([...copy.skolemInputs(second)!]).to.deep.equal([b]);
      // a term made after a mark goes with the rollback, and so do its arguments
      const mark = d.size;
      internSkolem(d, [d.intern('<http://e/c>')]);
      d.truncate(mark);
      expect(d.skolemCount).to.equal(2);
      expect(d.exportSkolems()).to.have.length(7);
    });

    it('refuses an entry cut short or naming a term the dictionary lacks', () => {
      const d = new TermDictionary();
      d.intern('<http://e/a>');
      expect(() => d.restoreSkolems([0, 2, 0])).to.throw(/index 0 is cut short/);
      expect(() => d.restoreSkolems([0, 1, 9])).to.throw(/uses term id 9, but the dictionary has 1 terms/);
    });
  });
});
