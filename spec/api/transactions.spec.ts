import { expect } from 'chai';
import { BadRequestError, type DataStoreConnection, IMPLICIT_LOCK_TIMEOUT_MS, LockTimeoutError, TransactionError, type TransactionType } from '../../lib/index.js';
import { expectError, nquadsOf, useServer } from '../helpers/server.js';
import { importFailure } from '../helpers/imports.js';

const EX = 'http://example.com/';

function triple(s: string, p = 'p', o = 'o'): string {
  return `<${EX}${s}> <${EX}${p}> <${EX}${o}> .\n`;
}

function line(s: string, p = 'p', o = 'o'): string {
  return triple(s, p, o).trimEnd();
}

describe('transactions', () => {
  const env = useServer('transactions');

  /** A store holding one triple, with two connections to it. */
  async function twoConnections(): Promise<[DataStoreConnection, DataStoreConnection]> {
    const a = await env.newStore();
    await a.importData('ADD', triple('initial'));
    const b = env.track(a.duplicate());
    return [a, b];
  }

  describe('explicit read-write transactions', () => {
    it('see their own changes; other connections see them only after commit', async () => {
      const [a, b] = await twoConnections();
      await a.beginTransaction('read-write');
      expect(a.transactionType).to.equal('read-write');
      const r = await a.importData('ADD', triple('inside'));
      expect(r.changedFacts).to.equal(1);
      expect(await nquadsOf(a)).to.deep.equal([line('initial'), line('inside')].sort());
      // b reads in an implicit read-only transaction: the committed state
      expect(await nquadsOf(b)).to.deep.equal([line('initial')]);
      // and in an explicit one
      await b.beginTransaction('read-only');
      expect(await b.countFacts()).to.equal(1);
      await b.commitTransaction();

      await a.commitTransaction();
      expect(a.transactionType).to.equal(undefined);
      expect(await nquadsOf(b)).to.deep.equal([line('initial'), line('inside')].sort());
    });

    it('several imports, prefix and base IRI changes commit together', async () => {
      const [a, b] = await twoConnections();
      await a.beginTransaction();
      await a.importData('ADD', triple('one'));
      await a.importData('DELETE', triple('initial'));
      await a.setPrefix('ex:', EX);
      await a.setBaseIRI(`${EX}base/`);
      expect((await b.getPrefixes()).has('ex:')).to.equal(false);
      expect(await b.getBaseIRI()).to.not.equal(`${EX}base/`);
      expect(await a.getBaseIRI()).to.equal(`${EX}base/`);
      await a.commitTransaction();
      expect(await nquadsOf(b)).to.deep.equal([line('one')]);
      expect((await b.getPrefixes()).get('ex:')).to.equal(EX);
      expect(await b.getBaseIRI()).to.equal(`${EX}base/`);
    });

    it('rollback leaves no trace', async () => {
      const [a] = await twoConnections();
      await a.setPrefix('keep:', `${EX}keep#`);
      const exportBefore = await a.exportDataToString('application/n-quads');
      const trigBefore = await a.exportDataToString('application/trig');
      const prefixesBefore = [...(await a.getPrefixes())];
      const baseBefore = await a.getBaseIRI();
      const tablesBefore = await a.listTupleTables();

      await a.beginTransaction('read-write');
      await a.importData('ADD', `${triple('new')}<${EX}s> <${EX}p> "lit"@en <${EX}g> .\n_:b <${EX}p> <${EX}o> .\n`);
      await a.importData('DELETE', triple('initial'));
      await a.setPrefix('tmp:', `${EX}tmp#`);
      await a.unsetPrefix('keep:');
      await a.setBaseIRI(`${EX}elsewhere/`);
      await a.clear();
      await a.importData('ADD', triple('after-clear'));
      expect(await a.countFacts()).to.equal(1);
      await a.rollbackTransaction();

      expect(await a.exportDataToString('application/n-quads')).to.equal(exportBefore);
      expect(await a.exportDataToString('application/trig')).to.equal(trigBefore);
      expect([...(await a.getPrefixes())]).to.deep.equal(prefixesBefore);
      expect(await a.getBaseIRI()).to.equal(baseBefore);
      expect(await a.listTupleTables()).to.deep.equal(tablesBefore);
    });

    it('the same facts can be imported again after a rollback', async () => {
      const [a] = await twoConnections();
      await a.beginTransaction();
      await importFailure(a.importData('ADD', `${triple('x')}"not a triple"`, { mediaType: 'text/turtle' }));
      await a.importData('ADD', triple('x'));
      await a.rollbackTransaction();
      const r = await a.importData('ADD', triple('x'));
      expect(r.changedFacts).to.equal(1);
      expect(await a.countFacts()).to.equal(2);
    });

    it('a failed import undoes only itself: earlier changes survive and commit works', async () => {
      const [a, b] = await twoConnections();
      await a.beginTransaction('read-write');
      const first = await a.importData('ADD', triple('first'));
      expect(first.errors).to.equal(0);
      const failed = await importFailure(a.importData('ADD', `${triple('second')}${triple('third')}<${EX}broken> <${EX}p> .\n`, { mediaType: 'application/n-triples' }));
      expect(failed.errors).to.equal(1);
      expect(failed.changedFacts).to.equal(0);
      expect(a.transactionType, 'the transaction stays open').to.equal('read-write');
      expect(await nquadsOf(a)).to.deep.equal([line('initial'), line('first')].sort());
      // the same with the result instead of the rejection
      const deleteFailed = await a.importData('DELETE', `${triple('initial')}<oops`, { mediaType: 'application/n-triples', rejectOnError: false });
      expect(deleteFailed.errors).to.be.greaterThan(0);
      const last = await a.importData('ADD', triple('last'));
      expect(last.changedFacts).to.equal(1);
      await a.commitTransaction();
      expect(await nquadsOf(b)).to.deep.equal([line('initial'), line('first'), line('last')].sort());
    });
  });

  describe('read-only transactions', () => {
    it('keep the view they started with after another connection commits', async () => {
      const [a, b] = await twoConnections();
      await b.beginTransaction('read-only');
      expect(b.transactionType).to.equal('read-only');
      const before = await nquadsOf(b);
      await a.importData('ADD', triple('later'));
      await a.importData('DELETE', triple('initial'));
      await a.setPrefix('ex:', EX);
      expect(await nquadsOf(b)).to.deep.equal(before);
      expect(await b.countFacts()).to.equal(1);
      expect((await b.getPrefixes()).has('ex:')).to.equal(false);
      await b.commitTransaction();
      expect(await nquadsOf(b)).to.deep.equal([line('later')]);
    });

    it('refuse writes with TransactionError and stay usable', async () => {
      const [, b] = await twoConnections();
      await b.beginTransaction('read-only');
      await expectError(b.importData('ADD', triple('no')), TransactionError);
      await expectError(b.importData('DELETE', triple('initial')), TransactionError);
      await expectError(b.setPrefix('ex:', EX), TransactionError);
      await expectError(b.setBaseIRI(`${EX}x/`), TransactionError);
      await expectError(b.clear(), TransactionError);
      expect(b.transactionType).to.equal('read-only');
      expect(await b.countFacts()).to.equal(1);
      await b.rollbackTransaction();
      expect(await nquadsOf(b)).to.deep.equal([line('initial')]);
    });

    it('do not block writers', async () => {
      const [a, b] = await twoConnections();
      await b.beginTransaction('read-only');
      await a.beginTransaction('read-write');
      await a.importData('ADD', triple('w'));
      await a.commitTransaction();
      await b.commitTransaction();
      expect(await b.countFacts()).to.equal(2);
    });
  });

  describe('transaction state errors', () => {
    it('commit and rollback without a transaction fail with TransactionError', async () => {
      const [a] = await twoConnections();
      await expectError(a.commitTransaction(), TransactionError);
      await expectError(a.rollbackTransaction(), TransactionError);
    });

    it('a second begin fails with TransactionError and keeps the first transaction', async () => {
      const [a] = await twoConnections();
      for (const type of ['read-write', 'read-only'] as const) {
        await a.beginTransaction(type);
        await expectError(a.beginTransaction('read-write'), TransactionError);
        await expectError(a.beginTransaction('read-only'), TransactionError);
        expect(a.transactionType).to.equal(type);
        await a.rollbackTransaction();
      }
    });

    it('an unknown transaction type is a BadRequestError', async () => {
      const [a] = await twoConnections();
      await expectError(a.beginTransaction('exclusive' as TransactionType), BadRequestError);
      expect(a.transactionType).to.equal(undefined);
    });

    it('a rolled-back or committed transaction is over: writes are implicit again', async () => {
      const [a, b] = await twoConnections();
      await a.beginTransaction();
      await a.commitTransaction();
      await a.importData('ADD', triple('implicit'));
      expect(await b.countFacts(), 'an implicit write commits at once').to.equal(2);
    });
  });

  describe('implicit transactions and the write lock', () => {
    it('a write waits for an explicit read-write transaction and fails with LockTimeoutError after about 2 s', async function () {
      this.timeout(10_000);
      const [a, b] = await twoConnections();
      await a.beginTransaction('read-write');
      await a.importData('ADD', triple('held'));
      const started = Date.now();
      const error = await expectError(b.importData('ADD', triple('blocked')), LockTimeoutError);
      const waited = Date.now() - started;
      expect(IMPLICIT_LOCK_TIMEOUT_MS).to.equal(2000);
      expect(waited).to.be.at.least(IMPLICIT_LOCK_TIMEOUT_MS - 50);
      expect(error.message).to.contain('2000 ms');
      // reads are not blocked, b stays usable, and a's transaction is unaffected
      expect(await b.countFacts()).to.equal(1);
      await a.commitTransaction();
      const r = await b.importData('ADD', triple('now'));
      expect(r.changedFacts).to.equal(1);
      expect(await nquadsOf(b)).to.deep.equal([line('initial'), line('held'), line('now')].sort());
    });

    it('a waiting write proceeds as soon as the transaction ends', async () => {
      const [a, b] = await twoConnections();
      await a.beginTransaction('read-write');
      const waiting = b.importData('ADD', triple('queued'));
      await a.importData('ADD', triple('first'));
      await a.commitTransaction();
      const r = await waiting;
      expect(r.changedFacts).to.equal(1);
      expect(await nquadsOf(a)).to.deep.equal([line('initial'), line('first'), line('queued')].sort());
    });

    it('beginTransaction waits for the write lock with the given timeout', async () => {
      const [a, b] = await twoConnections();
      await a.beginTransaction('read-write');
      await expectError(b.beginTransaction('read-write', { lockTimeoutMs: 20 }), LockTimeoutError);
      expect(b.transactionType).to.equal(undefined);
      await a.rollbackTransaction();
      await b.beginTransaction('read-write', { lockTimeoutMs: 20 });
      await b.rollbackTransaction();
    });
  });
});
