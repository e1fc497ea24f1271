/**
 * Specs of the change log of a write transaction (storage/change-log.ts) on a bare fact store:
 * explicit writes applied at once without rules and recorded for reasoning otherwise,
 * savepoints, the rule bookkeeping, and TupleTable.changes with each status mask checked
 * against a from-scratch diff of the table before and after.
 */
import { expect } from 'chai';
import { OrderedMap } from 'immutable';
import { ChangeLog, transactionChanges, type TransactionChanges } from '../../lib/storage/change-log.js';
import { DEFAULT_TRIPLES_ID, FactStore, type StoreState, type WriteTransaction } from '../../lib/storage/fact-store.js';
import { DERIVED, EXPLICIT } from '../../lib/storage/tuple-table.js';

/** The tuples of the triple table visible to `state` whose status has a bit of `mask`, as text. */
function factsOf(state: StoreState, mask: number): Set<string> {
  const table = state.table(DEFAULT_TRIPLES_ID);
  const out = new Set<string>();
  table.forEachVisibleRow(state.view(DEFAULT_TRIPLES_ID), mask, (row) => {
    out.add([0, 1, 2].map((c) => table.get(row, c)).join(' '));
  });
  return out;
}

/** The added and removed tuples of the triple table in `changes`, sorted. */
function deltaOf(changes: TransactionChanges): { added: string[]; removed: string[] } {
  const d = changes.get(DEFAULT_TRIPLES_ID);
  const list = (flat: Uint32Array | undefined): string[] => {
    const out: string[] = [];
    for (let i = 0; flat && i < flat.length; i += 3) out.push([...flat.subarray(i, i + 3)].join(' '));
    return out.sort();
  };
  return { added: list(d?.added), removed: list(d?.removed) };
}

/** The from-scratch diff of two fact sets, sorted. */
function diff(before: Set<string>, after: Set<string>): { added: string[]; removed: string[] } {
  return { added: [...after].filter((t) => !before.has(t)).sort(), removed: [...before].filter((t) => !after.has(t)).sort() };
}

/** A rule set standing for "the store has rules" (the log only counts them). */
function withRules(tx: WriteTransaction): void {
  tx.catalogue = tx.catalogue.set('rules', OrderedMap([['r', { key: 'r', rule: null, domain: 'user' }]]));
}

describe('storage: the change log of a write transaction', () => {
  let store: FactStore;
  beforeEach(async () => {
    store = new FactStore();
    const tx = await store.beginWrite(1000);
    const table = tx.table(DEFAULT_TRIPLES_ID);
    table.add([1, 1, 1], EXPLICIT, tx.version);
    table.add([2, 2, 2], DERIVED, tx.version);
    table.add([3, 3, 3], EXPLICIT | DERIVED, tx.version);
    table.add([4, 4, 4], EXPLICIT, tx.version);
    store.commit(tx);
  });

  it('applies explicit writes at once while the store has no rules, and records no work', async () => {
    const tx = await store.beginWrite(1000);
    const log = new ChangeLog<string>(tx);
    expect(log.tracks).to.equal(false);
    expect(log.addExplicit(DEFAULT_TRIPLES_ID, [5, 5, 5])).to.equal(true);
    expect(log.addExplicit(DEFAULT_TRIPLES_ID, [1, 1, 1])).to.equal(false);
    expect(log.removeExplicit(DEFAULT_TRIPLES_ID, [4, 4, 4])).to.equal(true);
    expect(log.removeExplicit(DEFAULT_TRIPLES_ID, [2, 2, 2])).to.equal(false);
    expect(log.empty).to.equal(true);
    expect(log.requiresReasoning).to.equal(false);
    expect(factsOf(tx, EXPLICIT)).to.deep.equal(new Set(['1 1 1', '3 3 3', '5 5 5']));
    expect(deltaOf(log.changes(EXPLICIT))).to.deep.equal({ added: ['5 5 5'], removed: ['4 4 4'] });
    store.rollback(tx);
  });

  it('with rules, applies additions at once (remembering their rows) and only records deletions', async () => {
    const tx = await store.beginWrite(1000);
    withRules(tx);
    const log = new ChangeLog<string>(tx);
    expect(log.tracks).to.equal(true);
    expect(log.addExplicit(DEFAULT_TRIPLES_ID, [5, 5, 5])).to.equal(true);
    expect(log.addExplicit(DEFAULT_TRIPLES_ID, [2, 2, 2])).to.equal(true); // derived becomes explicit too: not a new row to reason from
    expect(log.removeExplicit(DEFAULT_TRIPLES_ID, [4, 4, 4])).to.equal(true);
    expect(log.removeExplicit(DEFAULT_TRIPLES_ID, [4, 4, 4])).to.equal(false);
    expect([...log.added.get(DEFAULT_TRIPLES_ID)!].map((r) => tx.table(DEFAULT_TRIPLES_ID).get(r, 0))).to.deep.equal([5]);
    expect(log.deleted.get(DEFAULT_TRIPLES_ID)?.size).to.equal(1);
    expect(factsOf(tx, EXPLICIT).has('4 4 4')).to.equal(true); // still readable until reasoning
    expect(log.requiresReasoning).to.equal(true);
    expect(() => log.changes(EXPLICIT)).to.throw(/before reasoning/);
    // adding a fact whose deletion is recorded cancels the deletion
    expect(log.addExplicit(DEFAULT_TRIPLES_ID, [4, 4, 4])).to.equal(true);
    expect(deltaOf(log.changes(EXPLICIT))).to.deep.equal({ added: ['2 2 2', '5 5 5'], removed: [] });
    store.rollback(tx);
  });

  it('track() makes explicit writes wait without rules until the work is settled; applyAtOnce() applies them at once whatever the rules', async () => {
    const tx = await store.beginWrite(1000);
    const log = new ChangeLog<string>(tx);
    log.track();
    expect(log.tracks).to.equal(true);
    log.removeExplicit(DEFAULT_TRIPLES_ID, [1, 1, 1]);
    expect(log.empty).to.equal(false);
    log.settle(); // no rules: explicit writes are applied at once again
    expect(log.tracks).to.equal(false);
    log.applyAtOnce();
    withRules(tx);
    expect(log.tracks).to.equal(false);
    store.rollback(tx);
  });

  it('cancels a rule addition by its removal and the other way round; requestRecompute asks for a full run', async () => {
    const tx = await store.beginWrite(1000);
    const log = new ChangeLog<{ text: string }>(tx);
    log.ruleAdded('a');
    log.ruleRemoved('b', { text: 'b' });
    log.ruleRemoved('a', { text: 'a' });
    log.ruleAdded('b');
    expect(log.rulesAdded.size + log.rulesRemoved.size).to.equal(0);
    log.ruleRemoved('c', { text: 'c' });
    expect(log.rulesRemoved.get('c')).to.deep.equal({ text: 'c' });
    expect(log.full).to.equal(false);
    log.requestRecompute();
    expect(log.full).to.equal(true);
    log.discard();
    expect(log.empty).to.equal(true);
    store.rollback(tx);
  });

  it('returns to a savepoint: the recorded work and the tables as they were', async () => {
    const tx = await store.beginWrite(1000);
    withRules(tx);
    const log = new ChangeLog<string>(tx);
    log.addExplicit(DEFAULT_TRIPLES_ID, [5, 5, 5]);
    const facts = store.savepoint(tx);
    const sp = log.savepoint();
    log.addExplicit(DEFAULT_TRIPLES_ID, [6, 6, 6]);
    log.removeExplicit(DEFAULT_TRIPLES_ID, [1, 1, 1]);
    log.ruleAdded('x');
    store.rollbackTo(tx, facts);
    log.rollbackTo(sp);
    expect(log.added.get(DEFAULT_TRIPLES_ID)?.length).to.equal(1);
    expect(log.deleted.size).to.equal(0);
    expect(log.rulesAdded.size).to.equal(0);
    expect(deltaOf(log.changes(EXPLICIT))).to.deep.equal({ added: ['5 5 5'], removed: [] });
    store.rollback(tx);
  });

  it('deletes every fact, and makes derived facts explicit, at once', async () => {
    let tx = await store.beginWrite(1000);
    let log = new ChangeLog<string>(tx);
    log.explicateDerivedFacts();
    expect(factsOf(tx, DERIVED).size).to.equal(0);
    expect(factsOf(tx, EXPLICIT)).to.deep.equal(new Set(['1 1 1', '2 2 2', '3 3 3', '4 4 4']));
    expect(deltaOf(log.changes(EXPLICIT))).to.deep.equal({ added: ['2 2 2'], removed: [] });
    expect(transactionChanges(tx, EXPLICIT | DERIVED).size).to.equal(0);
    store.rollback(tx);
    tx = await store.beginWrite(1000);
    log = new ChangeLog<string>(tx);
    log.deleteAllFacts();
    expect(factsOf(tx, EXPLICIT | DERIVED).size).to.equal(0);
    expect(deltaOf(log.changes(EXPLICIT | DERIVED))).to.deep.equal({ added: [], removed: ['1 1 1', '2 2 2', '3 3 3', '4 4 4'] });
    store.rollback(tx);
  });

  it('tells whether the catalogue changed by value, not by identity', async () => {
    const tx = await store.beginWrite(1000);
    const log = new ChangeLog<string>(tx);
    expect(log.catalogueChanged).to.equal(false);
    const prefixes = tx.catalogue.prefixes;
    tx.catalogue = tx.catalogue.set('prefixes', prefixes.set('ex:', 'http://example.com/'));
    expect(log.catalogueChanged).to.equal(true);
    tx.catalogue = tx.catalogue.set('prefixes', tx.catalogue.prefixes.delete('ex:'));
    expect(log.catalogueChanged).to.equal(false);
    store.rollback(tx);
  });

  describe('TupleTable.changes against a from-scratch diff', () => {
    /** A small random walk of status changes, with savepoints rolled back now and then. */
    function randomWalk(seed: number, tx: WriteTransaction): void {
      let s = seed;
      const next = (n: number): number => {
        s = (Math.imul(s, 1103515245) + 12345) >>> 0;
        return s % n;
      };
      const table = tx.table(DEFAULT_TRIPLES_ID);
      for (let step = 0; step < 60; step++) {
        const t = 1 + next(8);
        const tuple = [t, t, t];
        const status = [EXPLICIT, DERIVED, EXPLICIT | DERIVED][next(3)]!;
        const op = next(7);
        if (op < 3) table.add(tuple, status, tx.version);
        else if (op < 6) table.remove(tuple, status, tx.version);
        else {
          const sp = store.savepoint(tx);
          table.add([9, 9, next(3)], EXPLICIT, tx.version);
          table.remove([1, 1, 1], EXPLICIT | DERIVED, tx.version);
          store.rollbackTo(tx, sp);
        }
      }
    }

    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
      it(`gives the net change for each mask (walk ${seed})`, async () => {
        const tx = await store.beginWrite(1000);
        const masks = [EXPLICIT, DERIVED, EXPLICIT | DERIVED];
        const before = masks.map((m) => factsOf(tx, m));
        randomWalk(seed, tx);
        masks.forEach((mask, i) => {
          expect(deltaOf(transactionChanges(tx, mask)), `mask ${mask}`).to.deep.equal(diff(before[i]!, factsOf(tx, mask)));
        });
        store.rollback(tx);
      });
    }
  });
});
