/**
 * Specs of the change log and the commit feed on real stores (Server.create, ConnectionFactory,
 * and the server's DataStore for the feed): every commit's record gives exactly the change of
 * the explicit facts and of the `all` domain that a from-scratch diff of the committed fact
 * sets before and after shows, with rules absent and present, for imports, SPARQL updates,
 * axioms, clear and clear-rules-explicate-facts, and with savepoints rolled back; records come
 * in commit order; rollback publishes nothing; a slow consumer ends with the documented error;
 * a persistent store restarts from what the same log view wrote.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { ConnectionFactory, type DataStoreConnection, Server } from '../../lib/index.js';
import type { DataStore } from '../../lib/server/data-store.js';
import { CommitFeedOverflowError, type CommitRecord, type CommitSubscription } from '../../lib/server/commit-feed.js';
import type { TransactionChanges } from '../../lib/storage/change-log.js';
import { storesFacts } from '../../lib/storage/catalogue.js';
import { DERIVED, EXPLICIT } from '../../lib/storage/tuple-table.js';

const ROLE = 'admin';
const PASSWORD = 'feed-secret';
const EX = 'http://example.com/';
const TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
const SUBCLASS = 'http://www.w3.org/2000/01/rdf-schema#subClassOf';
const NT = { mediaType: 'application/n-triples' } as const;
const DATALOG = { mediaType: 'application/x.datalog' } as const;

/** An N-Triples line `ex:s <p> ex:o`. */
const nt = (s: string, p: string, o: string): string => `<${EX}${s}> <${p.includes(':') ? p : EX + p}> <${EX}${o}> .\n`;
/** The rule `B(?x) :- A(?x)` over rdf:type. */
const RULE = `[?x, <${TYPE}>, <${EX}B>] :- [?x, <${TYPE}>, <${EX}A>] .`;

/** Per table id, the committed facts whose status has a bit of `mask`, as text. */
function factsOf(store: DataStore, mask: number): Map<number, Set<string>> {
  const state = store.facts.committed;
  const out = new Map<number, Set<string>>();
  for (const info of state.catalogue.tupleTables.values()) {
    if (!storesFacts(info)) continue;
    const table = state.table(info.id);
    const set = new Set<string>();
    table.forEachVisibleRow(state.view(info.id), mask, (row) => {
      const ids: number[] = [];
      for (let c = 0; c < table.arity; c++) ids.push(table.get(row, c));
      set.add(ids.join(' '));
    });
    out.set(info.id, set);
  }
  return out;
}

type Delta = Record<number, { added: string[]; removed: string[] }>;

/** The from-scratch diff of two fact sets per table (only tables with a change). */
function diff(before: Map<number, Set<string>>, after: Map<number, Set<string>>): Delta {
  const out: Delta = {};
  for (const id of new Set([...before.keys(), ...after.keys()])) {
    const b = before.get(id) ?? new Set<string>();
    const a = after.get(id) ?? new Set<string>();
    const added = [...a].filter((t) => !b.has(t)).sort();
    const removed = [...b].filter((t) => !a.has(t)).sort();
    if (added.length + removed.length > 0) out[id] = { added, removed };
  }
  return out;
}

/** A record's changes in the form of {@link diff}. */
function deltaOf(changes: TransactionChanges): Delta {
  const out: Delta = {};
  const list = (flat: Uint32Array, arity: number): string[] => {
    const rows: string[] = [];
    for (let i = 0; i < flat.length; i += arity) rows.push([...flat.subarray(i, i + arity)].join(' '));
    return rows.sort();
  };
  for (const [id, { arity, added, removed }] of changes) out[id] = { added: list(added, arity), removed: list(removed, arity) };
  return out;
}

/** The next record of a subscription (failing the test rather than hanging). */
async function nextRecord(iterator: AsyncIterator<CommitRecord>): Promise<CommitRecord> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('no record within 10 s')), 10_000)));
  try {
    const result = await Promise.race([iterator.next(), timeout]);
    if (result.done) throw new Error('the subscription ended');
    return result.value;
  } finally {
    clearTimeout(timer);
  }
}

describe('server: the change log and the commit feed', () => {
  let server: Server;
  let ds: DataStoreConnection;
  let store: DataStore;
  let subscription: CommitSubscription;
  let records: AsyncIterator<CommitRecord>;

  /**
   * Runs `operation` (one commit) and checks that the record published for it gives exactly
   * the from-scratch diff of the committed explicit facts and of all facts; returns it.
   */
  async function expectCommit(operation: () => Promise<unknown>): Promise<CommitRecord> {
    const version = store.facts.committed.version;
    const explicitBefore = factsOf(store, EXPLICIT);
    const allBefore = factsOf(store, EXPLICIT | DERIVED);
    await operation();
    const record = await nextRecord(records);
    expect(record.version).to.equal(version + 1);
    expect(store.facts.committed.version).to.equal(record.version);
    expect(deltaOf(record.explicit), 'explicit changes').to.deep.equal(diff(explicitBefore, factsOf(store, EXPLICIT)));
    expect(deltaOf(record.all), 'changes of presence').to.deep.equal(diff(allBefore, factsOf(store, EXPLICIT | DERIVED)));
    return record;
  }

  /** The number of tuples a record's changes list (added and removed). */
  const size = (changes: TransactionChanges): number => [...changes.values()].reduce((n, d) => n + (d.added.length + d.removed.length) / d.arity, 0);

  beforeEach(async () => {
    server = await Server.create({ roleName: ROLE, password: PASSWORD, parameters: { 'password-hashing': 'fast' } });
    using sc = await ConnectionFactory.newServerConnection(server.url, ROLE, PASSWORD);
    sc.createDataStore('feed');
    ds = sc.newDataStoreConnection('feed');
    store = server.dataStore('feed');
    subscription = store.subscribeCommits();
    records = subscription[Symbol.asyncIterator]();
  });

  afterEach(async () => {
    subscription.close();
    ds[Symbol.dispose]();
    await server.shutdown();
  });

  describe('without rules', () => {
    it('imports, deletions, SPARQL updates and clear', async () => {
      const r1 = await expectCommit(() => ds.importData('ADD', nt('a', 'p', 'b') + nt('b', 'p', 'c') + nt('c', 'p', 'd'), NT));
      expect(size(r1.explicit)).to.equal(3);
      expect(r1.catalogueChanged).to.equal(false);
      await expectCommit(() => ds.importData('ADD', nt('a', 'p', 'b') + nt('d', 'p', 'e'), NT));
      await expectCommit(() => ds.importData('DELETE', nt('a', 'p', 'b') + nt('x', 'p', 'y'), NT));
      await expectCommit(() => ds.evaluateUpdate(`INSERT DATA { <${EX}u> <${EX}p> <${EX}v> . GRAPH <${EX}g> { <${EX}u> <${EX}q> <${EX}w> } }`));
      await expectCommit(() => ds.evaluateUpdate(`DELETE { ?s <${EX}p> ?o } INSERT { ?o <${EX}back> ?s } WHERE { ?s <${EX}p> ?o }`));
      const cleared = await expectCommit(() => ds.clear());
      expect(store.facts.committed.table(1).liveCount).to.equal(0);
      expect(size(cleared.all)).to.be.greaterThan(0);
    });

    it('a transaction with a savepoint rolled back publishes one record of what stayed', async () => {
      await expectCommit(() => ds.importData('ADD', nt('a', 'p', 'b') + nt('b', 'p', 'c'), NT));
      await expectCommit(async () => {
        await ds.beginTransaction('read-write');
        await ds.importData('ADD', nt('c', 'p', 'd'), NT);
        // a failed import returns to the savepoint taken before it; the transaction goes on
        const failed = await ds.importData('ADD', nt('e', 'p', 'f') + '<broken', { ...NT, rejectOnError: false });
        expect(failed.errors).to.be.greaterThan(0);
        await ds.evaluateUpdate(`DELETE DATA { <${EX}a> <${EX}p> <${EX}b> }`);
        await ds.commitTransaction();
      });
      expect(await ds.countFacts()).to.equal(2);
    });

    it('a commit that changes nothing publishes a record with no changes; creating a tuple table one whose catalogue changed', async () => {
      const empty = await expectCommit(async () => {
        await ds.beginTransaction('read-write');
        await ds.commitTransaction();
      });
      expect(empty.explicit.size + empty.all.size).to.equal(0);
      expect(empty.catalogueChanged).to.equal(false);
      const table = await expectCommit(() => ds.createTupleTable('extra', { arity: '2' }));
      expect(table.catalogueChanged).to.equal(true);
      const prefix = await expectCommit(() => ds.setPrefix('ex:', EX));
      expect(prefix.catalogueChanged).to.equal(true);
    });
  });

  describe('with rules', () => {
    it('derived additions and deletions follow the rules; explicit changes stay explicit', async () => {
      await expectCommit(() => ds.importData('ADD', nt('a', TYPE, 'A') + nt('b', TYPE, 'A') + nt('c', TYPE, 'B'), NT));
      const rules = await expectCommit(() => ds.importData('ADD', RULE, DATALOG));
      expect(rules.catalogueChanged).to.equal(true);
      expect(rules.explicit.size).to.equal(0);
      expect(size(rules.all)).to.equal(2); // a and b become B
      // a derived fact made explicit: an explicit change, no change of presence
      const explicated = await expectCommit(() => ds.importData('ADD', nt('a', TYPE, 'B'), NT));
      expect(size(explicated.explicit)).to.equal(1);
      expect(explicated.all.size).to.equal(0);
      // deleting the premise takes the derived fact of b away, not the explicit one of a
      await expectCommit(() => ds.importData('DELETE', nt('a', TYPE, 'A') + nt('b', TYPE, 'A'), NT));
      await expectCommit(() => ds.evaluateUpdate(`INSERT DATA { <${EX}d> <${TYPE}> <${EX}A> }`));
      await expectCommit(() => ds.evaluateUpdate(`DELETE WHERE { ?x <${TYPE}> <${EX}A> }`));
      await expectCommit(() => ds.importData('ADD', nt('e', TYPE, 'A') + nt('f', TYPE, 'A'), NT));
      const explicate = await expectCommit(() => ds.clearRulesExplicateFacts());
      expect(explicate.catalogueChanged).to.equal(true);
      expect(size(explicate.explicit)).to.equal(2);
      expect(explicate.all.size).to.equal(0);
      await expectCommit(() => ds.importData('ADD', RULE, DATALOG));
      await expectCommit(() => ds.importData('ADD', nt('g', TYPE, 'A'), NT));
      const cleared = await expectCommit(() => ds.clear());
      expect(cleared.catalogueChanged).to.equal(true);
    });

    it('axioms: their rules derive, removing them takes the derived facts away', async () => {
      await expectCommit(() => ds.importData('ADD', nt('A', SUBCLASS, 'B') + nt('B', SUBCLASS, 'C') + nt('x', TYPE, 'A'), NT));
      const axioms = await expectCommit(() => ds.importAxiomsFromTriples());
      expect(axioms.catalogueChanged).to.equal(true);
      expect(size(axioms.all)).to.be.greaterThan(0);
      await expectCommit(() => ds.importData('ADD', nt('y', TYPE, 'B'), NT));
      const gone = await expectCommit(() => ds.importAxiomsFromTriples(undefined, false, undefined, 'DELETE'));
      expect([...gone.all.values()].some((d) => d.removed.length > 0)).to.equal(true);
    });

    it('a transaction with rules, a savepoint rolled back and reads before the commit', async () => {
      await expectCommit(() => ds.importData('ADD', RULE + '\n', DATALOG));
      await expectCommit(async () => {
        await ds.beginTransaction('read-write');
        await ds.importData('ADD', nt('a', TYPE, 'A') + nt('b', TYPE, 'A'), NT);
        await ds.evaluateQuery(`SELECT * WHERE { ?x <${TYPE}> <${EX}B> }`); // reasons inside the transaction
        await ds.importData('DELETE', nt('a', TYPE, 'A'), NT);
        const failed = await ds.importData('ADD', nt('c', TYPE, 'A') + '<broken', { ...NT, rejectOnError: false });
        expect(failed.errors).to.be.greaterThan(0);
        await ds.commitTransaction();
      });
      expect(await ds.countFacts()).to.equal(2); // b is A and B
    });
  });

  describe('the feed', () => {
    it('publishes the records of several commits in commit order, also to a late consumer', async () => {
      const first = store.facts.committed.version;
      for (let i = 0; i < 5; i++) await ds.importData('ADD', nt(`s${i}`, 'p', 'o'), NT);
      expect(subscription.buffered).to.equal(5);
      for (let i = 0; i < 5; i++) {
        const record = await nextRecord(records);
        expect(record.version).to.equal(first + 1 + i);
        expect(size(record.explicit)).to.equal(1);
      }
    });

    it('a rolled-back transaction publishes nothing', async () => {
      const version = store.facts.committed.version;
      await ds.beginTransaction('read-write');
      await ds.importData('ADD', nt('a', 'p', 'b'), NT);
      await ds.rollbackTransaction();
      await ds.importData('ADD', nt('c', 'p', 'd'), NT);
      const failing = ds.evaluateUpdate(`INSERT DATA { <${EX}e> <${EX}p> <${EX}f> } ; LOAD <${EX}nowhere>`);
      await failing.then(() => expect.fail('the LOAD should fail'), () => undefined);
      const record = await nextRecord(records);
      expect(record.version).to.equal(version + 1);
      expect(deltaOf(record.explicit)[1]?.added.length).to.equal(1);
      expect(subscription.buffered).to.equal(0);
    });

    it('a consumer that falls behind by more than its high-water mark ends with an error; commits never wait', async () => {
      const slow = store.subscribeCommits({ highWaterMark: 2 });
      const version = store.facts.committed.version;
      for (let i = 0; i < 4; i++) await ds.importData('ADD', nt(`s${i}`, 'p', 'o'), NT);
      const iterator = slow[Symbol.asyncIterator]();
      const error: unknown = await iterator.next().then(() => expect.fail('the subscription should have ended'), (e: unknown) => e);
      expect(error).to.be.instanceOf(CommitFeedOverflowError);
      expect((error as Error).message).to.contain('the consumer fell behind by more than 2 commits');
      expect((error as CommitFeedOverflowError).missedFrom).to.equal(version + 3);
      expect((await iterator.next()).done).to.equal(true);
      // the other subscription got everything
      for (let i = 0; i < 4; i++) expect((await nextRecord(records)).version).to.equal(version + 1 + i);
    });

    it('close ends a waiting consumer; deleting the store ends its subscriptions', async () => {
      const waiting = records.next();
      subscription.close();
      expect((await waiting).done).to.equal(true);
      const other = store.subscribeCommits();
      const iterator = other[Symbol.asyncIterator]();
      const pending = iterator.next();
      using sc = await ConnectionFactory.newServerConnection(server.url, ROLE, PASSWORD);
      ds[Symbol.dispose]();
      sc.deleteDataStore('feed');
      expect((await pending).done).to.equal(true);
      sc.createDataStore('feed');
      ds = sc.newDataStoreConnection('feed');
    });

    it('rejects a high-water mark that is not a positive integer', () => {
      expect(() => store.subscribeCommits({ highWaterMark: 0 })).to.throw(RangeError);
    });
  });

  describe('a persistent store', () => {
    let dir = '';
    beforeEach(async () => {
      dir = await mkdtemp(join(tmpdir(), 'quadlog-feed-'));
    });
    afterEach(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it('logs what the feed publishes and restarts to the same facts, publishing nothing at start-up', async () => {
      const options = { roleName: ROLE, password: PASSWORD, parameters: { 'password-hashing': 'fast', persistence: 'file', 'server-directory': dir } };
      let explicit: Map<number, Set<string>>;
      let all: Map<number, Set<string>>;
      {
        await using persistent = await Server.create(options);
        using sc = await ConnectionFactory.newServerConnection(persistent.url, ROLE, PASSWORD);
        sc.createDataStore('kept');
        using kept = sc.newDataStoreConnection('kept');
        const internal = persistent.dataStore('kept');
        const feed = internal.subscribeCommits();
        const iterator = feed[Symbol.asyncIterator]();
        await kept.importData('ADD', nt('a', TYPE, 'A') + nt('b', TYPE, 'A') + nt('c', 'p', 'd'), NT);
        await kept.importData('ADD', RULE, DATALOG);
        await kept.importData('DELETE', nt('a', TYPE, 'A'), NT);
        await kept.evaluateUpdate(`INSERT DATA { <${EX}e> <${TYPE}> <${EX}A> }`);
        // applying the records' explicit changes to the empty store gives its explicit facts
        const replayed = new Map<number, Set<string>>();
        for (let i = 0; i < 4; i++) {
          for (const [id, d] of Object.entries(deltaOf((await nextRecord(iterator)).explicit))) {
            const set = replayed.get(Number(id)) ?? new Set<string>();
            for (const t of d.removed) set.delete(t);
            for (const t of d.added) set.add(t);
            replayed.set(Number(id), set);
          }
        }
        explicit = factsOf(internal, EXPLICIT);
        all = factsOf(internal, EXPLICIT | DERIVED);
        for (const [id, set] of explicit) expect([...(replayed.get(id) ?? [])].sort(), `table ${id}`).to.deep.equal([...set].sort());
        feed.close();
      }
      await using restarted = await Server.create(options);
      const again = restarted.dataStore('kept');
      expect(factsOf(again, EXPLICIT)).to.deep.equal(explicit);
      expect(factsOf(again, EXPLICIT | DERIVED)).to.deep.equal(all);
      const feed = again.subscribeCommits();
      expect(feed.buffered).to.equal(0);
      feed.close();
    });
  });
});
