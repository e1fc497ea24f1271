import { expect } from 'chai';
import { LockTimeoutError, TransactionError } from '../../lib/model/errors.js';
import { DEFAULT_TRIPLES_ID, FactStore, QUADS_ID, type Snapshot, type StoreState, type WriteTransaction } from '../../lib/storage/fact-store.js';
import { ANY, DERIVED, EXPLICIT } from '../../lib/storage/tuple-table.js';

const iri = (name: string): string => `<http://example.org/${name}>`;

/** The facts of one table as a state sees them: sorted `s p o [g] : status` lines of canonical keys. */
function contentOf(store: FactStore, state: StoreState, tableId: number): string[] {
  const table = state.table(tableId);
  const out: string[] = [];
  const view = state.view(tableId);
  table.scan(new Array<number>(table.arity).fill(ANY), view, (row) => {
    const terms = Array.from({ length: table.arity }, (_, c) => store.dictionary.keyOf(table.get(row, c)));
    out.push(`${terms.join(' ')} : ${table.statusIn(row, view)}`);
  });
  return out.sort();
}

/** Both built-in tables' content. */
function stateOf(store: FactStore, state: StoreState): { triples: string[]; quads: string[] } {
  return { triples: contentOf(store, state, DEFAULT_TRIPLES_ID), quads: contentOf(store, state, QUADS_ID) };
}

function ids(store: FactStore, names: readonly string[]): number[] {
  return names.map((n) => store.dictionary.intern(iri(n)));
}

function addTriple(store: FactStore, tx: WriteTransaction, s: string, p: string, o: string, status = EXPLICIT): boolean {
  return tx.table(DEFAULT_TRIPLES_ID).add(ids(store, [s, p, o]), status, tx.version);
}

function removeTriple(store: FactStore, tx: WriteTransaction, s: string, p: string, o: string, status = EXPLICIT): boolean {
  return tx.table(DEFAULT_TRIPLES_ID).remove(ids(store, [s, p, o]), status, tx.version);
}

function addQuad(store: FactStore, tx: WriteTransaction, s: string, p: string, o: string, g: string, status = EXPLICIT): boolean {
  return tx.table(QUADS_ID).add(ids(store, [s, p, o, g]), status, tx.version);
}

const line = (...names: string[]): string => `${names.map(iri).join(' ')} : ${EXPLICIT}`;

/** Awaits a promise expected to reject, and returns the error. */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (e) {
    return e;
  }
  return expect.fail('expected a rejection');
}

describe('FactStore', () => {
  it('starts empty at version 0 with the two stored tables and the built-in SKOLEM (which stores nothing)', () => {
    const store = new FactStore();
    expect(store.committed.version).to.equal(0);
    expect(store.activeWriter).to.equal(null);
    expect(store.table(DEFAULT_TRIPLES_ID).arity).to.equal(3);
    expect(store.table(QUADS_ID).arity).to.equal(4);
    expect(stateOf(store, store.committed)).to.deep.equal({ triples: [], quads: [] });
    expect([...store.committed.catalogue.tupleTables.keys()]).to.deep.equal(['DefaultTriples', 'Quads', 'SKOLEM']);
    expect(store.allTables().size).to.equal(2);
  });

  it('changes statuses in place: an open reader keeps the old status across commits, and the stamps go once no reader needs them', async () => {
    const store = new FactStore();
    let tx = await store.beginWrite(1000);
    for (let i = 0; i < 100; i++) addTriple(store, tx, `s${i}`, 'p', 'o');
    store.commit(tx);
    const table = store.table(DEFAULT_TRIPLES_ID);
    const rows = table.rowCount;
    const bytes = table.byteSize;
    const reader = store.read();
    const before = stateOf(store, reader);
    tx = await store.beginWrite(1000);
    for (let i = 0; i < 100; i++) addTriple(store, tx, `s${i}`, 'p', 'o', DERIVED);
    expect(stateOf(store, reader), 'during the transaction').to.deep.equal(before);
    store.commit(tx);
    expect(table.rowCount, 'no row appended').to.equal(rows);
    expect(stateOf(store, reader), 'after the commit').to.deep.equal(before);
    expect(stateOf(store, store.committed).triples[0]).to.match(new RegExp(` : ${EXPLICIT | DERIVED}$`));
    expect(table.byteSize, 'stamps held for the reader').to.be.greaterThan(bytes);
    store.release(reader);
    tx = await store.beginWrite(1000);
    store.commit(tx);
    expect(table.byteSize, 'stamps forgotten').to.equal(bytes);
    // with no reader open, a commit keeps no stamp at all
    tx = await store.beginWrite(1000);
    for (let i = 0; i < 100; i++) removeTriple(store, tx, `s${i}`, 'p', 'o', EXPLICIT);
    store.commit(tx);
    expect(table.rowCount).to.equal(rows);
    expect(table.byteSize).to.equal(bytes);
    expect(stateOf(store, store.committed).triples[0]).to.match(new RegExp(` : ${DERIVED}$`));
  });

  it('keeps a read-only snapshot unchanged across 1000 interleaved commits while the latest version changes', async () => {
    const store = new FactStore();
    let tx = await store.beginWrite(1000);
    for (let i = 0; i < 50; i++) addTriple(store, tx, `s${i % 10}`, 'p', `o${i}`);
    addQuad(store, tx, 'a', 'b', 'c', 'g');
    store.commit(tx);

    const reader = store.read();
    const frozen = stateOf(store, reader);
    const frozenCount = reader.table(DEFAULT_TRIPLES_ID).count([store.dictionary.lookup(iri('s3')), ANY, ANY], reader.view(DEFAULT_TRIPLES_ID));
    expect(frozen.triples).to.have.length(50);
    expect(frozenCount).to.equal(5);

    const model = new Set(frozen.triples);
    let middle: { version: number; state: ReturnType<typeof stateOf> } | undefined;
    let midReader = reader;
    for (let i = 0; i < 1000; i++) {
      tx = await store.beginWrite(1000);
      const o = `o${(i * 7) % 80}`;
      const s = `s${i % 10}`;
      if (i % 3 === 2) {
        removeTriple(store, tx, s, 'p', o);
        model.delete(line(s, 'p', o));
      } else {
        addTriple(store, tx, s, 'p', o);
        model.add(line(s, 'p', o));
      }
      if (i % 100 === 0) addQuad(store, tx, s, 'p', o, `g${i}`);
      const committed = store.commit(tx);
      expect(committed.version).to.equal(i + 2);
      if (i === 500) {
        midReader = store.read();
        middle = { version: midReader.version, state: stateOf(store, midReader) };
      }
      expect(stateOf(store, reader), `reader after commit ${i}`).to.deep.equal(frozen);
      expect(contentOf(store, store.committed, DEFAULT_TRIPLES_ID)).to.deep.equal([...model].sort());
    }
    expect(reader.version).to.equal(1);
    expect(reader.table(DEFAULT_TRIPLES_ID).count([store.dictionary.lookup(iri('s3')), ANY, ANY], reader.view(DEFAULT_TRIPLES_ID))).to.equal(frozenCount);
    expect(stateOf(store, midReader)).to.deep.equal(middle!.state);
    expect(stateOf(store, store.committed)).to.not.deep.equal(frozen);
    store.release(reader);
    store.release(midReader);
  });

  it('lets the writer see its own changes and readers only after commit', async () => {
    const store = new FactStore();
    const before = store.read();
    const tx = await store.beginWrite(1000);
    expect(store.activeWriter).to.equal(tx);
    expect(tx.version).to.equal(1);
    expect(tx.base).to.equal(store.committed);
    addTriple(store, tx, 'a', 'b', 'c');
    addQuad(store, tx, 'a', 'b', 'c', 'g');
    expect(stateOf(store, tx)).to.deep.equal({ triples: [line('a', 'b', 'c')], quads: [line('a', 'b', 'c', 'g')] });
    const during = store.read();
    expect(during.version).to.equal(0);
    expect(stateOf(store, during)).to.deep.equal({ triples: [], quads: [] });
    expect(stateOf(store, store.committed)).to.deep.equal({ triples: [], quads: [] });

    const published = store.commit(tx);
    expect(published.version).to.equal(1);
    expect(store.committed).to.equal(published);
    expect(store.activeWriter).to.equal(null);
    expect(stateOf(store, published)).to.deep.equal({ triples: [line('a', 'b', 'c')], quads: [line('a', 'b', 'c', 'g')] });
    expect(stateOf(store, before)).to.deep.equal({ triples: [], quads: [] });
    expect(stateOf(store, during)).to.deep.equal({ triples: [], quads: [] });
    const after = store.read();
    expect(after).to.equal(published);
    for (const s of [before, during, after]) store.release(s);
  });

  it('shows status changes only from the committing version on', async () => {
    const store = new FactStore();
    let tx = await store.beginWrite(1000);
    addTriple(store, tx, 'a', 'b', 'c', EXPLICIT);
    store.commit(tx);
    const v1 = store.read();
    tx = await store.beginWrite(1000);
    addTriple(store, tx, 'a', 'b', 'c', DERIVED);
    removeTriple(store, tx, 'a', 'b', 'c', EXPLICIT);
    expect(contentOf(store, tx, DEFAULT_TRIPLES_ID)).to.deep.equal([`${['a', 'b', 'c'].map(iri).join(' ')} : ${DERIVED}`]);
    expect(contentOf(store, v1, DEFAULT_TRIPLES_ID)).to.deep.equal([line('a', 'b', 'c')]);
    store.commit(tx);
    expect(contentOf(store, v1, DEFAULT_TRIPLES_ID)).to.deep.equal([line('a', 'b', 'c')]);
    expect(contentOf(store, store.committed, DEFAULT_TRIPLES_ID)).to.deep.equal([`${['a', 'b', 'c'].map(iri).join(' ')} : ${DERIVED}`]);
    store.release(v1);
  });

  it('rollback leaves no trace: same facts, row counts and dictionary size', async () => {
    const store = new FactStore();
    let tx = await store.beginWrite(1000);
    for (let i = 0; i < 20; i++) addTriple(store, tx, `s${i}`, 'p', 'o');
    addQuad(store, tx, 's0', 'p', 'o', 'g');
    store.commit(tx);
    const committed = store.committed;
    const state = stateOf(store, committed);
    const terms = store.dictionary.size;
    const rows = [store.table(DEFAULT_TRIPLES_ID).rowCount, store.table(QUADS_ID).rowCount];
    const live = [store.table(DEFAULT_TRIPLES_ID).liveCount, store.table(QUADS_ID).liveCount];

    tx = await store.beginWrite(1000);
    expect(tx.termMark).to.equal(terms);
    for (let i = 0; i < 100; i++) addTriple(store, tx, `new${i}`, 'p', `s${i % 20}`); // new terms
    for (let i = 0; i < 20; i += 2) removeTriple(store, tx, `s${i}`, 'p', 'o');
    addTriple(store, tx, 's1', 'p', 'o', DERIVED);
    addQuad(store, tx, 's0', 'p', 'o', 'g', DERIVED);
    addQuad(store, tx, 'x', 'y', 'z', 'newgraph');
    expect(store.dictionary.size).to.be.greaterThan(terms);
    store.rollback(tx);

    expect(tx.active).to.equal(false);
    expect(store.activeWriter).to.equal(null);
    expect(store.committed).to.equal(committed);
    expect(store.dictionary.size).to.equal(terms);
    expect(store.dictionary.lookup(iri('new0'))).to.equal(-1);
    expect(store.dictionary.lookup(iri('newgraph'))).to.equal(-1);
    expect([store.table(DEFAULT_TRIPLES_ID).rowCount, store.table(QUADS_ID).rowCount]).to.deep.equal(rows);
    expect([store.table(DEFAULT_TRIPLES_ID).liveCount, store.table(QUADS_ID).liveCount]).to.deep.equal(live);
    expect(stateOf(store, committed)).to.deep.equal(state);

    // the next transaction starts from the same state and reuses the freed ids
    tx = await store.beginWrite(1000);
    expect(stateOf(store, tx)).to.deep.equal(state);
    expect(tx.version).to.equal(committed.version + 1);
    expect(store.dictionary.intern(iri('other'))).to.equal(terms);
    expect(addTriple(store, tx, 's0', 'p', 'o')).to.equal(false);
    expect(addTriple(store, tx, 'new0', 'p', 's0')).to.equal(true);
    store.commit(tx);
    expect(contentOf(store, store.committed, DEFAULT_TRIPLES_ID)).to.deep.equal([...state.triples, line('new0', 'p', 's0')].sort());
  });

  it('savepoints: rollbackTo undoes later facts, terms and catalogue edits; the transaction goes on', async () => {
    const store = new FactStore();
    let tx = await store.beginWrite(1000);
    addTriple(store, tx, 'a', 'p', 'b');
    store.commit(tx);

    tx = await store.beginWrite(1000);
    addTriple(store, tx, 'c', 'p', 'd');
    removeTriple(store, tx, 'a', 'p', 'b');
    tx.catalogue = tx.catalogue.set('baseIRI', 'http://first.example/');
    const sp = store.savepoint(tx);
    const atSp = stateOf(store, tx);
    const termsAtSp = store.dictionary.size;
    expect(sp.terms).to.equal(termsAtSp);

    addTriple(store, tx, 'a', 'p', 'b');
    addTriple(store, tx, 'later', 'p', 'd');
    removeTriple(store, tx, 'c', 'p', 'd');
    addQuad(store, tx, 'q', 'q', 'q', 'q');
    tx.catalogue = tx.catalogue.set('baseIRI', 'http://second.example/');
    const sp2 = store.savepoint(tx);
    addTriple(store, tx, 'evenlater', 'p', 'd');
    store.rollbackTo(tx, sp2);
    expect(store.dictionary.lookup(iri('evenlater'))).to.equal(-1);
    expect(store.dictionary.lookup(iri('later'))).to.be.at.least(0);

    store.rollbackTo(tx, sp);
    expect(tx.active).to.equal(true);
    expect(store.dictionary.size).to.equal(termsAtSp);
    expect(store.dictionary.lookup(iri('later'))).to.equal(-1);
    expect(stateOf(store, tx)).to.deep.equal(atSp);
    expect(tx.catalogue.baseIRI).to.equal('http://first.example/');

    // rolling back to the same savepoint twice is fine
    addTriple(store, tx, 'x', 'p', 'y');
    store.rollbackTo(tx, sp);
    expect(stateOf(store, tx)).to.deep.equal(atSp);

    addTriple(store, tx, 'e', 'p', 'f');
    store.commit(tx);
    expect(contentOf(store, store.committed, DEFAULT_TRIPLES_ID)).to.deep.equal([line('c', 'p', 'd'), line('e', 'p', 'f')]);
    expect(contentOf(store, store.committed, QUADS_ID)).to.deep.equal([]);
    expect(store.committed.catalogue.baseIRI).to.equal('http://first.example/');
  });

  describe('compact', () => {
    it('keeps the views of live readers exact and reclaims rows nobody can see', async () => {
      const store = new FactStore();
      const readers: Snapshot[] = [];
      const expected: ReturnType<typeof stateOf>[] = [];
      let tx = await store.beginWrite(1000);
      for (let i = 0; i < 200; i++) addTriple(store, tx, `s${i}`, 'p', 'o');
      for (let i = 0; i < 50; i++) addQuad(store, tx, `s${i}`, 'p', 'o', 'g');
      store.commit(tx);
      for (let round = 0; round < 6; round++) {
        tx = await store.beginWrite(1000);
        for (let i = round; i < 200; i += 6) removeTriple(store, tx, `s${i}`, 'p', 'o');
        for (let i = round; i < 200; i += 12) addTriple(store, tx, `s${i}`, 'p', 'o', DERIVED);
        for (let i = round; i < 50; i += 6) removeTriple(store, tx, `s${i}`, 'p', 'o');
        store.table(QUADS_ID).remove(ids(store, [`s${round}`, 'p', 'o', 'g']), EXPLICIT, tx.version);
        store.commit(tx);
        if (round % 2 === 1) {
          const r = store.read();
          readers.push(r);
          expected.push(stateOf(store, r));
        }
      }
      const latest = stateOf(store, store.committed);
      const rowsBefore = store.table(DEFAULT_TRIPLES_ID).rowCount;

      await store.compact(1000);
      expect(store.activeWriter).to.equal(null);
      readers.forEach((r, i) => expect(stateOf(store, r), `reader at version ${r.version}`).to.deep.equal(expected[i]));
      expect(stateOf(store, store.committed)).to.deep.equal(latest);
      const rowsAfter = store.table(DEFAULT_TRIPLES_ID).rowCount;
      expect(rowsAfter).to.be.lessThan(rowsBefore);
      expect(rowsAfter).to.be.greaterThan(store.table(DEFAULT_TRIPLES_ID).liveCount);

      // writes after compaction are seen by new readers only
      tx = await store.beginWrite(1000);
      addTriple(store, tx, 'fresh', 'p', 'o');
      removeTriple(store, tx, 's199', 'p', 'o');
      store.commit(tx);
      readers.forEach((r, i) => expect(stateOf(store, r)).to.deep.equal(expected[i]));

      // once every reader is gone, compaction keeps only the live rows
      for (const r of readers) store.release(r);
      const final = stateOf(store, store.committed);
      await store.compact(1000);
      expect(stateOf(store, store.committed)).to.deep.equal(final);
      for (const id of [DEFAULT_TRIPLES_ID, QUADS_ID]) expect(store.table(id).rowCount).to.equal(store.table(id).liveCount);
    });

    it('keeps the latest version exact after compaction: it does not see the next writer’s rows', async () => {
      const store = new FactStore();
      let tx = await store.beginWrite(1000);
      for (let i = 0; i < 40; i++) addTriple(store, tx, `s${i}`, 'p', 'o');
      store.commit(tx);
      tx = await store.beginWrite(1000);
      for (let i = 0; i < 30; i++) removeTriple(store, tx, `s${i}`, 'p', 'o');
      store.commit(tx);
      // a reader comes and goes on the latest version before the compaction
      store.release(store.read());
      const latest = store.committed;
      const expected = stateOf(store, latest);
      await store.compact(1000);
      expect(store.table(DEFAULT_TRIPLES_ID).rowCount).to.equal(10);
      expect(store.committed).to.equal(latest);
      expect(stateOf(store, latest)).to.deep.equal(expected);

      tx = await store.beginWrite(1000);
      for (let i = 0; i < 20; i++) addTriple(store, tx, `new${i}`, 'p', 'o');
      expect(stateOf(store, latest), 'latest version while a writer appends').to.deep.equal(expected);
      const reader = store.read();
      expect(stateOf(store, reader)).to.deep.equal(expected);
      store.release(reader);
      store.rollback(tx);
    });

    it('waits for the open writer and gives up with LockTimeoutError', async () => {
      const store = new FactStore();
      const tx = await store.beginWrite(1000);
      addTriple(store, tx, 'a', 'b', 'c');
      const error = await rejection(store.compact(10));
      expect(error).to.be.instanceOf(LockTimeoutError);
      expect(tx.active).to.equal(true);
      const waiting = store.compact(10_000);
      store.commit(tx);
      await waiting;
      expect(contentOf(store, store.committed, DEFAULT_TRIPLES_ID)).to.deep.equal([line('a', 'b', 'c')]);
      const next = await store.beginWrite(0);
      store.rollback(next);
    });
  });

  describe('the write lock', () => {
    it('makes a second beginWrite wait and fail with LockTimeoutError after its timeout', async () => {
      const store = new FactStore('store X');
      const tx = await store.beginWrite(1000);
      const error = await rejection(store.beginWrite(20));
      expect(error).to.be.instanceOf(LockTimeoutError);
      expect((error as LockTimeoutError).message).to.contain('store X');
      expect(store.activeWriter).to.equal(tx);
      expect(tx.active).to.equal(true);
      addTriple(store, tx, 'a', 'b', 'c');
      store.commit(tx);
      // the lock is free again
      const tx2 = await store.beginWrite(0);
      expect(tx2.version).to.equal(2);
      store.rollback(tx2);
    });

    it('hands the lock to a waiting beginWrite when the writer finishes; it starts from the new version', async () => {
      const store = new FactStore();
      const tx = await store.beginWrite(1000);
      addTriple(store, tx, 'a', 'b', 'c');
      let started = false;
      const second = store.beginWrite(10_000).then((t) => {
        started = true;
        return t;
      });
      await new Promise((resolve) => setImmediate(resolve));
      expect(started).to.equal(false);
      store.commit(tx);
      const tx2 = await second;
      expect(tx2.base).to.equal(store.committed);
      expect(tx2.version).to.equal(2);
      expect(store.activeWriter).to.equal(tx2);
      expect(contentOf(store, tx2, DEFAULT_TRIPLES_ID)).to.deep.equal([line('a', 'b', 'c')]);
      store.rollback(tx2);
    });
  });

  describe('closed transactions', () => {
    it('commit, rollback, savepoint and rollbackTo of a finished transaction throw TransactionError', async () => {
      const store = new FactStore();
      const committed = await store.beginWrite(1000);
      const sp = store.savepoint(committed);
      store.commit(committed);
      expect(() => store.commit(committed)).to.throw(TransactionError);
      expect(() => store.rollback(committed)).to.throw(TransactionError);
      expect(() => store.savepoint(committed)).to.throw(TransactionError);
      expect(() => store.rollbackTo(committed, sp)).to.throw(TransactionError);

      const rolledBack = await store.beginWrite(1000);
      store.rollback(rolledBack);
      expect(() => store.commit(rolledBack)).to.throw(TransactionError);
      expect(() => store.rollback(rolledBack)).to.throw(TransactionError);

      // a stale transaction cannot finish the current one
      const current = await store.beginWrite(1000);
      addTriple(store, current, 'a', 'b', 'c');
      expect(() => store.commit(committed)).to.throw(TransactionError);
      expect(() => store.rollback(rolledBack)).to.throw(TransactionError);
      expect(current.active).to.equal(true);
      store.commit(current);
      expect(store.committed.version).to.equal(2);
      expect(contentOf(store, store.committed, DEFAULT_TRIPLES_ID)).to.deep.equal([line('a', 'b', 'c')]);
    });
  });

  describe('catalogue and tables', () => {
    it('alterCatalogue publishes the change at once, and rolls back when the change throws', async () => {
      const store = new FactStore();
      await store.alterCatalogue(1000, (c) => c.set('baseIRI', 'http://changed.example/'));
      expect(store.committed.version).to.equal(1);
      expect(store.committed.catalogue.baseIRI).to.equal('http://changed.example/');
      const error = await rejection(
        store.alterCatalogue(1000, () => {
          throw new Error('nope');
        }),
      );
      expect((error as Error).message).to.equal('nope');
      expect(store.committed.version).to.equal(1);
      expect(store.activeWriter).to.equal(null);
      const tx = await store.beginWrite(0);
      store.rollback(tx);
    });

    it('a table created later is empty for older snapshots', async () => {
      const store = new FactStore();
      const old = store.read();
      const id = store.createTable(2);
      const tx = await store.beginWrite(1000);
      tx.table(id).add(ids(store, ['x', 'y']), EXPLICIT, tx.version);
      store.commit(tx);
      expect(old.view(id).limit).to.equal(0);
      expect(contentOf(store, old, id)).to.deep.equal([]);
      expect(contentOf(store, store.committed, id)).to.deep.equal([`${iri('x')} ${iri('y')} : ${EXPLICIT}`]);
      store.release(old);
      store.dropTable(id);
      expect(() => store.table(id)).to.throw();
    });

    it('a dropped table stays readable by the snapshots that list it until their readers release them', async () => {
      const store = new FactStore();
      const id = store.createTable(2);
      await store.alterCatalogue(1000, (c) => c.set('tupleTables', c.tupleTables.set('T', { name: 'T', id, type: 'memory', minArity: 2, maxArity: 2, parameters: {} })));
      const tx = await store.beginWrite(1000);
      tx.table(id).add(ids(store, ['x', 'y']), EXPLICIT, tx.version);
      store.commit(tx);
      const reader = store.read();
      const second = store.read();
      await store.alterCatalogue(1000, (c) => c.set('tupleTables', c.tupleTables.delete('T')));
      store.dropTable(id);
      // the latest version has neither the entry nor the table
      expect(store.committed.catalogue.tupleTables.has('T')).to.equal(false);
      expect(() => store.committed.table(id)).to.throw(/does not exist/);
      expect(() => store.table(id)).to.throw(/does not exist/);
      // the older snapshot lists it and keeps reading it, across later commits and a compaction
      expect(reader.catalogue.tupleTables.get('T')?.id).to.equal(id);
      const later = await store.beginWrite(1000);
      addTriple(store, later, 'a', 'b', 'c');
      store.commit(later);
      await store.compact(1000);
      expect(contentOf(store, reader, id)).to.deep.equal([`${iri('x')} ${iri('y')} : ${EXPLICIT}`]);
      store.release(reader);
      expect(contentOf(store, second, id)).to.deep.equal([`${iri('x')} ${iri('y')} : ${EXPLICIT}`]);
      // once no reader of such a version is left, the table is gone for good
      store.release(second);
      expect(() => second.table(id)).to.throw(/does not exist/);
    });
  });
});
