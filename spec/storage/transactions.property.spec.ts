/**
 * Model-based property test of FactStore transactions: random operation sequences are run
 * against the store and against a reference model (maps of tuple key → status per committed
 * version and for the writer), and after every step the store must agree with the model for
 * the latest version, the writer and every reader opened earlier.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { LockTimeoutError } from '../../lib/model/errors.js';
import { DEFAULT_TRIPLES_ID, FactStore, QUADS_ID, type Snapshot, type StoreSavepoint, type StoreState, type WriteTransaction } from '../../lib/storage/fact-store.js';
import { ANY, DERIVED, EXPLICIT } from '../../lib/storage/tuple-table.js';

const BOTH = EXPLICIT | DERIVED;
const TABLES = [DEFAULT_TRIPLES_ID, QUADS_ID] as const;
type TableId = (typeof TABLES)[number];

/** The eight terms of the domain (ids 0..7 once interned, in whatever order that happens). */
const TERMS = ['<http://ex/t0>', '<http://ex/t1>', '_:b2', '"three"', '"vier"@de', '"5"^^<http://ex/int>', '<http://ex/t6>', '""'];

/** Facts of both tables: table id → (tuple of term indexes joined by ',' → status). */
type Facts = Map<TableId, Map<string, number>>;

const emptyFacts = (): Facts => new Map(TABLES.map((id) => [id, new Map<string, number>()]));
const copyFacts = (f: Facts): Facts => new Map(TABLES.map((id) => [id, new Map(f.get(id) ?? [])]));

type Op =
  | { kind: 'add' | 'remove'; table: TableId; tuple: number[]; status: number }
  | { kind: 'bulk'; table: TableId; seed: number; count: number; status: number }
  | { kind: 'commit' | 'rollback' | 'savepoint' | 'openReader' | 'compact' }
  | { kind: 'rollbackTo' | 'closeReader'; index: number }
  | { kind: 'scan'; target: number; table: TableId; pattern: number[] };

const term = (max: number): fc.Arbitrary<number> => fc.integer({ min: 0, max });
const statusArb = fc.constantFrom(EXPLICIT, DERIVED, BOTH);
// subjects 0..3, predicates 0..1, objects 0..7, graphs 0..3: re-adds and status changes are frequent
const tupleArb = (table: TableId): fc.Arbitrary<number[]> =>
  table === DEFAULT_TRIPLES_ID ? fc.tuple(term(3), term(1), term(7)) : fc.tuple(term(3), term(1), term(3), term(3));
const tableArb = fc.constantFrom<TableId>(DEFAULT_TRIPLES_ID, QUADS_ID);
const patternArb = (table: TableId): fc.Arbitrary<number[]> =>
  fc.array(fc.oneof(fc.constant(ANY), term(7)), { minLength: table === DEFAULT_TRIPLES_ID ? 3 : 4, maxLength: table === DEFAULT_TRIPLES_ID ? 3 : 4 });

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.tuple(fc.constantFrom('add' as const, 'remove' as const), tableArb, statusArb).chain(([kind, table, status]) =>
      tupleArb(table).map((tuple): Op => ({ kind, table, tuple, status })),
    ),
  },
  {
    weight: 2,
    // few distinct bulk loads, so that one is often repeated after a rollback (hash growth inside transactions)
    arbitrary: fc.record({ kind: fc.constant('bulk' as const), table: tableArb, seed: fc.integer({ min: 0, max: 1 }), count: fc.constantFrom(60, 120), status: statusArb }),
  },
  { weight: 3, arbitrary: fc.constant<Op>({ kind: 'commit' }) },
  { weight: 2, arbitrary: fc.constant<Op>({ kind: 'rollback' }) },
  { weight: 1, arbitrary: fc.constant<Op>({ kind: 'savepoint' }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('rollbackTo' as const), index: fc.nat() }) },
  { weight: 2, arbitrary: fc.constant<Op>({ kind: 'openReader' }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('closeReader' as const), index: fc.nat() }) },
  { weight: 1, arbitrary: fc.constant<Op>({ kind: 'compact' }) },
  {
    weight: 2,
    arbitrary: fc.tuple(fc.nat(), tableArb).chain(([target, table]) => patternArb(table).map((pattern): Op => ({ kind: 'scan', target, table, pattern }))),
  },
);

/** What an add/remove does to a fact map; returns whether the status changed. */
function modelAdd(facts: Map<string, number>, k: string, status: number): boolean {
  const old = facts.get(k) ?? 0;
  if ((old & status) === status) return false;
  facts.set(k, old | status);
  return true;
}
function modelRemove(facts: Map<string, number>, k: string, status: number): boolean {
  const old = facts.get(k) ?? 0;
  if ((old & status) === 0) return false;
  if ((old & ~status) === 0) facts.delete(k);
  else facts.set(k, old & ~status);
  return true;
}

interface Writer {
  tx: WriteTransaction;
  facts: Facts;
  savepoints: { sp: StoreSavepoint; facts: Facts }[];
}

interface Reader {
  snapshot: Snapshot;
  version: number;
  facts: Facts;
}

/** The store under test with its reference model. */
class World {
  readonly store = new FactStore();
  readonly versions = new Map<number, Facts>([[0, emptyFacts()]]);
  latest = 0;
  writer: Writer | null = null;
  readonly readers: Reader[] = [];

  async ensureWriter(): Promise<Writer> {
    if (!this.writer) {
      const tx = await this.store.beginWrite(0);
      expect(tx.version).to.equal(this.latest + 1);
      this.writer = { tx, facts: copyFacts(this.versions.get(this.latest)!), savepoints: [] };
    }
    return this.writer;
  }

  /** Term indexes → ids, interning (writer) or looking up (-1 if any is unknown). */
  ids(tuple: readonly number[], intern: boolean): number[] | null {
    const out: number[] = [];
    for (const t of tuple) {
      const id = intern ? this.store.dictionary.intern(TERMS[t]!) : this.store.dictionary.lookup(TERMS[t]!);
      if (id < 0) return null;
      out.push(id);
    }
    return out;
  }

  async add(table: TableId, tuple: number[], status: number): Promise<void> {
    const w = await this.ensureWriter();
    const ids = this.ids(tuple, true)!;
    const expected = modelAdd(w.facts.get(table)!, tuple.join(), status);
    expect(w.tx.table(table).add(ids, status, w.tx.version), `add ${tuple.join()} ${status}`).to.equal(expected);
  }

  async remove(table: TableId, tuple: number[], status: number): Promise<void> {
    const w = await this.ensureWriter();
    const expected = modelRemove(w.facts.get(table)!, tuple.join(), status);
    const ids = this.ids(tuple, false);
    if (ids === null) {
      expect(expected, `remove of ${tuple.join()} with an unknown term`).to.equal(false);
      return;
    }
    expect(w.tx.table(table).remove(ids, status, w.tx.version), `remove ${tuple.join()} ${status}`).to.equal(expected);
  }

  async run(op: Op): Promise<void> {
    switch (op.kind) {
      case 'add':
        return this.add(op.table, op.tuple, op.status);
      case 'remove':
        return this.remove(op.table, op.tuple, op.status);
      case 'bulk': {
        let x = op.seed;
        for (let i = 0; i < op.count; i++) {
          x = (Math.imul(x, 1103515245) + 12345) >>> 0;
          const tuple = op.table === DEFAULT_TRIPLES_ID ? [x % 4, (x >>> 2) % 2, (x >>> 3) % 8] : [x % 4, (x >>> 2) % 2, (x >>> 3) % 4, (x >>> 5) % 4];
          await this.add(op.table, tuple, op.status);
        }
        return;
      }
      case 'commit': {
        const w = await this.ensureWriter();
        const snapshot = this.store.commit(w.tx);
        this.latest = w.tx.version;
        expect(snapshot.version).to.equal(this.latest);
        this.versions.set(this.latest, w.facts);
        this.writer = null;
        expect(w.tx.active).to.equal(false);
        return;
      }
      case 'rollback': {
        if (!this.writer) return;
        const { tx } = this.writer;
        this.store.rollback(tx);
        this.writer = null;
        expect(this.store.dictionary.size, 'dictionary size after rollback').to.equal(tx.termMark);
        expect(() => this.store.commit(tx)).to.throw();
        return;
      }
      case 'savepoint': {
        const w = await this.ensureWriter();
        w.savepoints.push({ sp: this.store.savepoint(w.tx), facts: copyFacts(w.facts) });
        return;
      }
      case 'rollbackTo': {
        const w = this.writer;
        if (!w || w.savepoints.length === 0) return;
        const i = op.index % w.savepoints.length;
        const { sp, facts } = w.savepoints[i]!;
        this.store.rollbackTo(w.tx, sp);
        w.facts = copyFacts(facts);
        w.savepoints.length = i + 1; // later savepoints are gone, this one stays valid
        expect(this.store.dictionary.size, 'dictionary size after rollbackTo').to.equal(sp.terms);
        return;
      }
      case 'openReader': {
        const snapshot = this.store.read();
        expect(snapshot.version).to.equal(this.latest);
        this.readers.push({ snapshot, version: this.latest, facts: this.versions.get(this.latest)! });
        return;
      }
      case 'closeReader': {
        if (this.readers.length === 0) return;
        const [r] = this.readers.splice(op.index % this.readers.length, 1);
        this.store.release(r!.snapshot);
        return;
      }
      case 'compact': {
        if (this.writer) {
          let error: unknown;
          await this.store.compact(0).catch((e: unknown) => {
            error = e;
          });
          expect(error).to.be.instanceOf(LockTimeoutError);
          return;
        }
        await this.store.compact(0);
        if (this.readers.length === 0) {
          for (const id of TABLES) expect(this.store.table(id).rowCount, 'rows after compaction without readers').to.equal(this.store.table(id).liveCount);
        }
        return;
      }
      case 'scan': {
        const targets = this.targets();
        const [state, facts] = targets[op.target % targets.length]!;
        const expected = [...facts.get(op.table)!]
          .filter(([k]) => k.split(',').every((t, c) => op.pattern[c] === ANY || Number(t) === op.pattern[c]))
          .map(([k, s]) => `${k}:${s}`)
          .sort();
        const pattern = op.pattern.map((t) => (t === ANY ? ANY : this.store.dictionary.lookup(TERMS[t]!)));
        if (pattern.some((t, c) => t === ANY && op.pattern[c] !== ANY)) {
          expect(expected, 'a fact with an unknown term').to.deep.equal([]);
          return;
        }
        expect(this.read(state, op.table, pattern), `scan ${op.pattern.join()}`).to.deep.equal(expected);
        expect(state.table(op.table).count(pattern, state.view(op.table))).to.equal(expected.length);
        return;
      }
    }
  }

  /** Every state to check, with the facts it must show. */
  targets(): [StoreState, Facts][] {
    const out: [StoreState, Facts][] = [[this.store.committed, this.versions.get(this.latest)!]];
    if (this.writer) out.push([this.writer.tx, this.writer.facts]);
    for (const r of this.readers) out.push([r.snapshot, r.facts]);
    return out;
  }

  /** `tuple:status` lines (tuples as term indexes) of a state's rows matching a pattern of ids. */
  read(state: StoreState, table: TableId, pattern: readonly number[]): string[] {
    const termOf = new Map<number, number>();
    TERMS.forEach((key, i) => termOf.set(this.store.dictionary.lookup(key), i));
    const t = state.table(table);
    const out: string[] = [];
    const view = state.view(table);
    t.scan(pattern, view, (row) => {
      let line = '';
      for (let c = 0; c < t.arity; c++) {
        const term = termOf.get(t.get(row, c));
        if (term === undefined) expect.fail(`row ${row} holds id ${t.get(row, c)}, which is not a known term`);
        line += c === 0 ? `${term}` : `,${term}`;
      }
      out.push(`${line}:${t.statusIn(row, view)}`);
    });
    return out.sort();
  }

  check(step: string): void {
    const termIds = TERMS.map((t) => this.store.dictionary.lookup(t));
    expect(this.store.committed.version, step).to.equal(this.latest);
    for (const r of this.readers) expect(r.snapshot.version, step).to.equal(r.version);
    for (const [state, facts] of this.targets()) {
      for (const id of TABLES) {
        const expected = [...facts.get(id)!].map(([k, s]) => `${k}:${s}`).sort();
        const what = `${step}: ${state.writable ? 'writer' : `version ${state.version}`}, table ${id}`;
        expect(this.read(state, id, id === DEFAULT_TRIPLES_ID ? [ANY, ANY, ANY] : [ANY, ANY, ANY, ANY]), what).to.deep.equal(expected);
        for (const [k, s] of facts.get(id)!) {
          const ids = k.split(',').map((t) => termIds[Number(t)]!);
          const row = state.table(id).find(ids, state.view(id));
          if (row < 0 || state.table(id).statusIn(row, state.view(id)) !== s) expect.fail(`${what}: find ${k} gave row ${row}`);
        }
      }
    }
    const current = this.writer ? this.writer.facts : this.versions.get(this.latest)!;
    for (const id of TABLES) expect(this.store.table(id).liveCount, `${step}: liveCount of table ${id}`).to.equal(current.get(id)!.size);
    expect(this.store.activeWriter, step).to.equal(this.writer ? this.writer.tx : null);
  }

  close(): void {
    if (this.writer) this.store.rollback(this.writer.tx);
    for (const r of this.readers) this.store.release(r.snapshot);
  }
}

describe('FactStore transactions (model-based property)', () => {
  it('agrees with a reference model after every step, for the writer, the latest version and every open reader', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 50 }), async (ops) => {
        const world = new World();
        try {
          for (const [i, op] of ops.entries()) {
            await world.run(op);
            world.check(`step ${i} (${op.kind})`);
          }
        } finally {
          world.close();
        }
      }),
      { numRuns: 300 },
    );
  });

  it('keeps the reader views through long histories with compaction', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(
            { weight: 10, arbitrary: opArb },
            { weight: 3, arbitrary: fc.constant<Op>({ kind: 'commit' }) },
            { weight: 2, arbitrary: fc.constant<Op>({ kind: 'compact' }) },
            { weight: 2, arbitrary: fc.constant<Op>({ kind: 'openReader' }) },
          ),
          { minLength: 50, maxLength: 120 },
        ),
        async (ops) => {
          const world = new World();
          try {
            for (const [i, op] of ops.entries()) {
              await world.run(op);
              world.check(`step ${i} (${op.kind})`);
            }
          } finally {
            world.close();
          }
        },
      ),
      { numRuns: 30 },
    );
  });
});
