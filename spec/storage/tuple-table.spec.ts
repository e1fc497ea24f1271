import { expect } from 'chai';
import { ANY, DERIVED, EXPLICIT, TupleTable, type TableView } from '../../lib/storage/tuple-table.js';

type Tuple = readonly number[];
type Content = Map<string, number>; // tuple key → status bits

const BOTH = EXPLICIT | DERIVED;
const key = (t: ArrayLike<number>): string => Array.from(t).join(',');
const parse = (k: string): number[] => k.split(',').map(Number);

/** A small deterministic PRNG (mulberry32), so failures are reproducible. */
function rng(seed: number): (n: number) => number {
  let a = seed >>> 0;
  return (n) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) % n) >>> 0;
  };
}

/** The content of a table as seen by a view; fails if the view sees a tuple twice. */
function contentOf(table: TupleTable, view: TableView): Content {
  const out: Content = new Map();
  table.scan(new Array<number>(table.arity).fill(ANY), view, (row) => {
    const k = key(Array.from({ length: table.arity }, (_, c) => table.get(row, c)));
    if (out.has(k)) expect.fail(`view ${JSON.stringify(view)} sees ${k} twice`);
    out.set(k, table.statusIn(row, view));
  });
  return out;
}

function expectContent(table: TupleTable, view: TableView, expected: Content, what: string): void {
  const actual = contentOf(table, view);
  const sort = (m: Content): [string, number][] => [...m].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  expect(sort(actual), what).to.deep.equal(sort(expected));
}

/** Every index chain is a strictly descending list of exactly the rows holding the term; counts match the current state. */
function checkIndexes(table: TupleTable, maxTerm: number): void {
  const rows = table.rowCount;
  const current: TableView = { version: Number.MAX_SAFE_INTEGER, limit: rows };
  let live = 0;
  for (let r = 0; r < rows; r++) if (table.visible(r, current)) live++;
  expect(table.liveCount, 'liveCount').to.equal(live);
  for (let c = 0; c < table.arity; c++) {
    for (let t = 0; t <= maxTerm; t++) {
      const chain: number[] = [];
      for (let r = table.head(c, t); r >= 0; r = table.nextRow(c, r)) {
        if (r >= rows) expect.fail(`chain (${c}, ${t}) reaches row ${r} >= ${rows}`);
        if (chain.length > 0 && r >= chain[chain.length - 1]!) expect.fail(`chain (${c}, ${t}) is not descending`);
        chain.push(r);
      }
      const expected: number[] = [];
      let count = 0;
      for (let r = rows - 1; r >= 0; r--) {
        if (table.get(r, c) !== t) continue;
        expected.push(r);
        if (table.visible(r, current)) count++;
      }
      if (chain.join() !== expected.join()) expect.fail(`chain (${c}, ${t}) = [${chain.join()}], expected [${expected.join()}]`);
      if (table.countOf(c, t) !== count) expect.fail(`countOf(${c}, ${t}) = ${table.countOf(c, t)}, expected ${count}`);
    }
  }
}

/** What add/remove should do to a content map; returns whether the status changed. */
function applyAdd(content: Content, t: Tuple, status: number): boolean {
  const k = key(t);
  const old = content.get(k) ?? 0;
  if ((old & status) === status) return false;
  content.set(k, old | status);
  return true;
}
function applyRemove(content: Content, t: Tuple, status: number): boolean {
  const k = key(t);
  const old = content.get(k) ?? 0;
  if ((old & status) === 0) return false;
  const rest = old & ~status;
  if (rest === 0) content.delete(k);
  else content.set(k, rest);
  return true;
}

interface Version {
  version: number;
  limit: number;
  content: Content;
}

/** A tuple table driven together with a reference model of its committed versions. */
class Harness {
  readonly table: TupleTable;
  readonly versions: Version[] = [];
  committed: Content = new Map();
  pending: Content | null = null;
  version = 0;

  constructor(readonly arity: number) {
    this.table = new TupleTable(arity);
    this.versions.push({ version: 0, limit: 0, content: new Map() });
  }

  begin(): void {
    this.table.beginWrite();
    this.pending = new Map(this.committed);
  }

  add(t: Tuple, status: number): void {
    const expected = applyAdd(this.pending!, t, status);
    expect(this.table.add(t, status, this.version + 1), `add ${key(t)} ${status}`).to.equal(expected);
  }

  remove(t: Tuple, status: number): void {
    const expected = applyRemove(this.pending!, t, status);
    expect(this.table.remove(t, status, this.version + 1), `remove ${key(t)} ${status}`).to.equal(expected);
  }

  /** Sets the status of a present tuple through its current row (0 deletes it). */
  setStatus(t: Tuple, status: number): void {
    const row = this.table.find(t, this.writerView);
    expect(row, `setStatus ${key(t)}: present`).to.be.at.least(0);
    const old = this.pending!.get(key(t))!;
    if (status === 0) this.pending!.delete(key(t));
    else this.pending!.set(key(t), status);
    expect(this.table.setStatus(row, status, this.version + 1), `setStatus ${key(t)} ${status}`).to.equal(old !== status);
  }

  commit(): void {
    this.table.endWrite();
    this.version++;
    this.committed = this.pending!;
    this.pending = null;
    this.versions.push({ version: this.version, limit: this.table.rowCount, content: new Map(this.committed) });
  }

  rollback(): void {
    this.table.rollback();
    this.pending = null;
  }

  /** A copy of the writer's model content. */
  pendingCopy(): Content {
    if (!this.pending) throw new Error('no open transaction');
    return new Map(this.pending);
  }

  get writerView(): TableView {
    return { version: this.version + 1, limit: this.table.rowCount };
  }

  /** One random add or remove over terms 0..domain-1, often touching existing tuples. */
  randomOp(next: (n: number) => number, domain: number): void {
    const existing = [...this.pending!.keys()];
    const t = existing.length > 0 && next(3) > 0 ? parse(existing[next(existing.length)]!) : Array.from({ length: this.arity }, () => next(domain));
    const status = [EXPLICIT, DERIVED, BOTH][next(3)]!;
    const op = next(5);
    if (op === 4 && this.pending!.has(key(t))) this.setStatus(t, next(4));
    else if (op % 2 === 0) this.add(t, status);
    else this.remove(t, status);
  }

  /** Runs `commits` random transactions of up to `ops` operations each. */
  randomHistory(next: (n: number) => number, domain: number, commits: number, ops: number): void {
    for (let i = 0; i < commits; i++) {
      this.begin();
      const n = 1 + next(ops);
      for (let j = 0; j < n; j++) this.randomOp(next, domain);
      this.commit();
    }
  }

  /** Checks every recorded version and (if open) the writer against the model. */
  checkAll(what: string): void {
    for (const v of this.versions) expectContent(this.table, v, v.content, `${what}: version ${v.version}`);
    if (this.pending) expectContent(this.table, this.writerView, this.pending, `${what}: writer`);
  }
}

/** The status of a tuple in a view (0 when absent). */
function statusIn(table: TupleTable, tuple: Tuple, view: TableView): number {
  const row = table.find(tuple, view);
  return row < 0 ? 0 : table.statusIn(row, view);
}

/** Sorted keys and statuses of the rows `scan` reports. */
function scanResult(table: TupleTable, pattern: Tuple, view: TableView): string[] {
  const out: string[] = [];
  table.scan(pattern, view, (row) => {
    out.push(`${key(Array.from({ length: table.arity }, (_, c) => table.get(row, c)))}:${table.statusIn(row, view)}`);
  });
  return out.sort();
}

function bruteForce(content: Content, pattern: Tuple): string[] {
  const out: string[] = [];
  for (const [k, s] of content) {
    const t = parse(k);
    if (pattern.every((p, c) => p === ANY || p === t[c])) out.push(`${k}:${s}`);
  }
  return out.sort();
}

describe('TupleTable', () => {
  it('rejects an invalid arity', () => {
    expect(() => new TupleTable(0)).to.throw(RangeError);
    expect(() => new TupleTable(2.5)).to.throw(RangeError);
  });

  for (const arity of [3, 4, 5]) {
    describe(`arity ${arity}`, () => {
      const t = (...xs: number[]): number[] => Array.from({ length: arity }, (_, i) => xs[i % xs.length]!);

      it('adds and removes status bits; a fact stays while it has a status', () => {
        const table = new TupleTable(arity);
        const f = t(1, 2, 3);
        const view = (): TableView => ({ version: 1, limit: table.rowCount });
        expect(table.add(f, EXPLICIT, 1)).to.equal(true);
        expect(table.add(f, EXPLICIT, 1)).to.equal(false);
        expect(table.statusOf(table.find(f, view()))).to.equal(EXPLICIT);
        expect(table.add(f, DERIVED, 1)).to.equal(true);
        expect(table.add(f, BOTH, 1)).to.equal(false);
        expect(table.statusOf(table.find(f, view()))).to.equal(BOTH);
        expect(table.liveCount).to.equal(1);
        expect(table.count(t(ANY), view())).to.equal(1);

        expect(table.remove(f, EXPLICIT, 1)).to.equal(true);
        expect(table.remove(f, EXPLICIT, 1)).to.equal(false);
        expect(table.find(f, view())).to.be.at.least(0);
        expect(table.statusOf(table.find(f, view()))).to.equal(DERIVED);
        expect(table.liveCount).to.equal(1);

        expect(table.remove(f, DERIVED, 1)).to.equal(true);
        expect(table.find(f, view())).to.equal(-1);
        expect(table.remove(f, BOTH, 1)).to.equal(false);
        expect(table.liveCount).to.equal(0);
        expect(table.count(t(ANY), view())).to.equal(0);

        expect(table.add(f, BOTH, 1)).to.equal(true);
        expect(table.statusOf(table.find(f, view()))).to.equal(BOTH);
        expect(table.remove(f, BOTH, 1)).to.equal(true);
        expect(table.find(f, view())).to.equal(-1);
        expect(table.remove(t(9, 9), EXPLICIT, 1)).to.equal(false);
        checkIndexes(table, 10);
      });

      it(`scan matches a brute-force filter for all ${2 ** arity} binding patterns at every version`, () => {
        const next = rng(arity * 1000 + 7);
        const domain = 5;
        const h = new Harness(arity);
        h.randomHistory(next, domain, 12, 40);
        h.begin();
        for (let i = 0; i < 30; i++) h.randomOp(next, domain);
        const views: { view: TableView; content: Content }[] = h.versions.map((v) => ({ view: v, content: v.content }));
        views.push({ view: h.writerView, content: h.pending! });
        for (const { view, content } of views) {
          const tuples = [...content.keys()].map(parse);
          for (let mask = 0; mask < 1 << arity; mask++) {
            const sources: Tuple[] = [...tuples.slice(0, 6), Array.from({ length: arity }, () => next(domain + 1)), t(1000)];
            for (const src of sources) {
              const pattern = src.map((x, c) => ((mask >> c) & 1 ? x : ANY));
              const expected = bruteForce(content, pattern);
              expect(scanResult(h.table, pattern, view), `pattern ${key(pattern)} at version ${view.version}`).to.deep.equal(expected);
              expect(h.table.count(pattern, view)).to.equal(expected.length);
            }
          }
        }
        checkIndexes(h.table, domain + 1);
      });

      it('find sees exactly the tuples of each old view, with their status at that version', () => {
        const next = rng(arity * 31 + 1);
        const domain = 4;
        const h = new Harness(arity);
        h.randomHistory(next, domain, 15, 25);
        const all: number[][] = [];
        for (let i = 0; i < domain ** arity; i++) all.push(Array.from({ length: arity }, (_, c) => Math.floor(i / domain ** c) % domain));
        for (const v of h.versions) {
          for (const tuple of all) {
            const row = h.table.find(tuple, v);
            const expected = v.content.get(key(tuple));
            if (expected === undefined) {
              if (row !== -1) expect.fail(`version ${v.version} finds ${key(tuple)} at row ${row}`);
            } else {
              if (row < 0) expect.fail(`version ${v.version} does not find ${key(tuple)}`);
              expect(h.table.statusIn(row, v)).to.equal(expected);
              expect(h.table.visible(row, v)).to.equal(true);
            }
          }
        }
      });
    });
  }

  it('keeps every live tuple findable while growing past a million rows, with removals and re-additions', () => {
    const table = new TupleTable(3);
    const view = (): TableView => ({ version: 10, limit: table.rowCount });
    const n = 600_000;
    // grows through the small and the block-by-block rehash, with every row indexed
    for (let i = 0; i < n; i++) table.add([i, i % 97, i * 7], EXPLICIT, 1);
    // removed tuples leave unindexed rows; some come back as new rows
    for (let i = 0; i < n; i += 3) table.remove([i, i % 97, i * 7], EXPLICIT, 2);
    for (let i = 0; i < n; i += 6) table.add([i, i % 97, i * 7], EXPLICIT, 3);
    // and growth past 2^20 rows widens the row bits (a rehash at the same capacity)
    for (let i = n; i < 1_100_000; i++) table.add([i, i % 97, i * 7], DERIVED, 4);
    for (let i = 0; i < 1_100_000; i++) {
      const gone = i < n && i % 3 === 0 && i % 6 !== 0;
      const row = table.find([i, i % 97, i * 7], view());
      if (gone !== (row < 0)) expect.fail(`tuple ${i}: found at ${row}, expected ${gone ? 'absent' : 'present'}`);
    }
    expect(table.find([5, 5, 5], view())).to.equal(-1);
    expect(table.liveCount).to.equal(1_100_000 - n / 6);
  });

  it('scan stops when the callback returns false', () => {
    const table = new TupleTable(3);
    for (let i = 0; i < 10; i++) table.add([1, i, 2], EXPLICIT, 1);
    const view = { version: 1, limit: table.rowCount };
    for (const pattern of [[ANY, ANY, ANY], [1, ANY, ANY], [1, ANY, 2]]) {
      let calls = 0;
      table.scan(pattern, view, () => {
        calls++;
        return calls < 3;
      });
      expect(calls).to.equal(3);
    }
  });

  it('forEachVisibleRow visits the rows a view sees whose status shares a bit with the mask, in row order', () => {
    const table = new TupleTable(2);
    table.add([1, 1], EXPLICIT, 1);
    table.add([2, 2], DERIVED, 1);
    table.add([3, 3], BOTH, 1);
    const old = { version: 1, limit: table.rowCount };
    table.beginWrite();
    table.remove([1, 1], EXPLICIT, 2);
    table.add([4, 4], DERIVED, 2);
    table.endWrite();
    const now = { version: 2, limit: table.rowCount };
    const tuples = (view: TableView, mask: number): string[] => {
      const out: string[] = [];
      table.forEachVisibleRow(view, mask, (row) => void out.push(`${table.get(row, 0)}`));
      return out;
    };
    expect(tuples(old, EXPLICIT)).to.deep.equal(['1', '3']);
    expect(tuples(old, DERIVED)).to.deep.equal(['2', '3']);
    expect(tuples(now, EXPLICIT)).to.deep.equal(['3']);
    expect(tuples(now, BOTH)).to.deep.equal(['2', '3', '4']);
    expect(tuples(now, 0)).to.deep.equal([]);
  });

  it('a status change is invisible to older views and visible to newer ones', () => {
    const h = new Harness(3);
    h.begin();
    h.add([1, 2, 3], EXPLICIT);
    h.commit();
    h.begin();
    h.add([1, 2, 3], DERIVED);
    h.commit();
    h.begin();
    h.remove([1, 2, 3], EXPLICIT);
    h.commit();
    h.begin();
    h.remove([1, 2, 3], DERIVED);
    h.commit();
    h.begin();
    h.add([1, 2, 3], DERIVED);
    h.commit();
    const statuses = h.versions.map((v) => statusIn(h.table, [1, 2, 3], v));
    expect(statuses).to.deep.equal([0, EXPLICIT, BOTH, DERIVED, 0, DERIVED]);
    h.checkAll('status history');
  });

  it('setStatus changes a fact through its row, in place: older views keep the old status, 0 deletes, a deleted row is refused', () => {
    const h = new Harness(3);
    h.begin();
    h.add([1, 2, 3], EXPLICIT);
    h.add([4, 5, 6], DERIVED);
    h.commit();
    h.begin();
    const row = h.table.find([1, 2, 3], h.writerView);
    const gone = h.table.find([4, 5, 6], h.writerView);
    const rows = h.table.rowCount;
    h.setStatus([1, 2, 3], BOTH);
    expect(h.table.find([1, 2, 3], h.writerView), 'the same row').to.equal(row);
    expect(h.table.rowCount, 'no row appended').to.equal(rows);
    h.setStatus([4, 5, 6], 0);
    h.setStatus([1, 2, 3], BOTH); // no change
    expect(() => h.table.setStatus(gone, DERIVED, h.version + 1)).to.throw(RangeError, /not a current row/);
    h.commit();
    const statuses = h.versions.map((v) => [[1, 2, 3], [4, 5, 6]].map((t) => statusIn(h.table, t, v)));
    expect(statuses).to.deep.equal([[0, 0], [EXPLICIT, DERIVED], [BOTH, 0]]);
    h.checkAll('setStatus');
  });

  it('changes() gives the net change of each status domain against the start of the transaction (random transactions)', () => {
    for (const seed of [3, 4, 5, 6]) {
      const next = rng(seed);
      const h = new Harness(3);
      h.randomHistory(next, 6, 6, 30);
      for (let round = 0; round < 6; round++) {
        const base = h.versions[h.versions.length - 1]!;
        h.begin();
        const n = 1 + next(40);
        for (let j = 0; j < n; j++) h.randomOp(next, 6);
        for (const mask of [EXPLICIT, DERIVED, BOTH]) {
          const inSet = (c: Content, k: string): boolean => ((c.get(k) ?? 0) & mask) !== 0;
          const keys = new Set([...base.content.keys(), ...h.pending!.keys()]);
          const added = [...keys].filter((k) => inSet(h.pending!, k) && !inSet(base.content, k)).sort();
          const removed = [...keys].filter((k) => !inSet(h.pending!, k) && inSet(base.content, k)).sort();
          const got = h.table.changes(base, mask);
          const keysOf = (flat: Uint32Array): string[] => Array.from({ length: flat.length / 3 }, (_, i) => key(flat.subarray(i * 3, i * 3 + 3))).sort();
          const what = `seed ${seed}, round ${round}, mask ${mask}`;
          expect(keysOf(got.added), `${what}: added`).to.deep.equal(added);
          expect(keysOf(got.removed), `${what}: removed`).to.deep.equal(removed);
        }
        if (next(3) === 0) h.rollback();
        else h.commit();
      }
      h.checkAll(`seed ${seed}`);
    }
  });

  it('changes a status in place once per row while an older reader may see it, and again after compaction forgets the stamp', () => {
    const h = new Harness(3);
    h.begin();
    h.add([1, 1, 1], EXPLICIT);
    h.commit();
    // versions 2 and 3 both change the status: the second cannot overwrite the prior status
    // version 1's readers need, so it appends a row
    h.begin();
    h.add([1, 1, 1], DERIVED);
    h.commit();
    expect(h.table.rowCount, 'in place').to.equal(1);
    h.begin();
    h.remove([1, 1, 1], EXPLICIT);
    h.commit();
    expect(h.table.rowCount, 'appended').to.equal(2);
    h.checkAll('before compaction');
    // only version 3 is live: the stamps go, and the next change is in place again
    h.table.compact(3);
    h.versions.splice(0, h.versions.length - 1);
    h.versions[0]!.limit = h.table.rowCount;
    expect(h.table.rowCount).to.equal(1);
    h.begin();
    h.add([1, 1, 1], EXPLICIT);
    h.commit();
    expect(h.table.rowCount, 'in place after compaction').to.equal(1);
    h.checkAll('after compaction');
    expect(statusIn(h.table, [1, 1, 1], h.versions[0]!)).to.equal(DERIVED);
    expect(statusIn(h.table, [1, 1, 1], h.versions[1]!)).to.equal(BOTH);
  });

  it('exports rows changed in place with their current status bits only, which a new table takes back', () => {
    const table = new TupleTable(3);
    table.beginWrite();
    table.add([1, 2, 3], EXPLICIT, 1);
    table.add([4, 5, 6], DERIVED, 1);
    table.endWrite();
    table.beginWrite();
    table.add([1, 2, 3], DERIVED, 2);
    table.add([4, 5, 6], EXPLICIT, 2);
    table.remove([4, 5, 6], DERIVED, 2);
    table.endWrite();
    expect(table.rowCount, 'both changed in place').to.equal(2);
    const { data, flags } = table.exportRows();
    expect([...flags].every((f) => f === EXPLICIT || f === DERIVED || f === BOTH)).to.equal(true);
    const copy = new TupleTable(3);
    copy.restoreRows(data, flags);
    const view = { version: 2, limit: copy.rowCount };
    expect(statusIn(copy, [1, 2, 3], view)).to.equal(BOTH);
    expect(statusIn(copy, [4, 5, 6], view)).to.equal(EXPLICIT);
  });

  describe('rollback', () => {
    it('restores exactly the state before the transaction (random transactions)', () => {
      for (let seed = 1; seed <= 60; seed++) {
        const next = rng(seed);
        const arity = 3 + (seed % 3);
        const domain = 3 + (seed % 4);
        const h = new Harness(arity);
        h.randomHistory(next, domain, 1 + next(6), 20);
        const rows = h.table.rowCount;
        const live = h.table.liveCount;
        h.begin();
        for (let i = 0, n = 1 + next(60); i < n; i++) h.randomOp(next, domain);
        h.rollback();
        expect(h.table.rowCount, `seed ${seed}`).to.equal(rows);
        expect(h.table.liveCount, `seed ${seed}`).to.equal(live);
        h.checkAll(`seed ${seed} after rollback`);
        expectContent(h.table, h.writerView, h.committed, `seed ${seed} current state`);
        checkIndexes(h.table, domain);
        // the table keeps working: further transactions behave like the model
        h.randomHistory(next, domain, 3, 20);
        h.checkAll(`seed ${seed} after more commits`);
        checkIndexes(h.table, domain);
      }
    });

    it('undoes the re-add of a tuple whose older row was removed in an earlier version', () => {
      const h = new Harness(3);
      h.begin();
      h.add([1, 1, 1], EXPLICIT);
      h.add([2, 2, 2], BOTH);
      h.commit();
      h.begin();
      h.remove([1, 1, 1], EXPLICIT);
      h.remove([2, 2, 2], DERIVED);
      h.commit();
      h.begin();
      h.add([1, 1, 1], DERIVED); // new row; the slot now points past the removed row
      h.add([2, 2, 2], DERIVED); // status change of a live row
      h.remove([2, 2, 2], BOTH);
      h.add([2, 2, 2], EXPLICIT);
      h.rollback();
      h.checkAll('after rollback');
      expect(h.table.find([1, 1, 1], h.writerView)).to.equal(-1);
      expect(h.table.statusOf(h.table.find([2, 2, 2], h.writerView))).to.equal(EXPLICIT);
      // the tuples can be re-added again afterwards
      h.begin();
      h.add([1, 1, 1], DERIVED);
      h.add([2, 2, 2], DERIVED);
      h.commit();
      h.checkAll('after re-adding');
      checkIndexes(h.table, 3);
    });

    it('undoes removals of rows added in the same transaction', () => {
      const h = new Harness(4);
      h.begin();
      h.add([0, 0, 0, 0], EXPLICIT);
      h.commit();
      h.begin();
      h.add([1, 2, 3, 4], EXPLICIT);
      h.add([1, 2, 3, 4], DERIVED);
      h.remove([1, 2, 3, 4], BOTH);
      h.add([1, 2, 3, 5], DERIVED);
      h.remove([1, 2, 3, 5], DERIVED);
      h.remove([0, 0, 0, 0], EXPLICIT);
      h.add([0, 0, 0, 0], DERIVED);
      h.remove([0, 0, 0, 0], DERIVED);
      h.rollback();
      expect(h.table.rowCount).to.equal(1);
      expect(h.table.liveCount).to.equal(1);
      h.checkAll('after rollback');
      checkIndexes(h.table, 5);
    });

    it('stays consistent when the transaction grew the membership hash', () => {
      const table = new TupleTable(3);
      const tuples = Array.from({ length: 500 }, (_, i) => [i % 7, i, i % 5]);
      table.beginWrite();
      for (const t of tuples) expect(table.add(t, EXPLICIT, 1)).to.equal(true);
      table.rollback();
      expect(table.liveCount).to.equal(0);
      expect(table.rowCount).to.equal(0);
      for (const t of tuples) expect(table.find(t, { version: 1, limit: table.rowCount })).to.equal(-1);
      table.beginWrite();
      for (const t of tuples) expect(table.add(t, EXPLICIT, 1), `re-add ${key(t)}`).to.equal(true);
      table.endWrite();
      const view = { version: 1, limit: table.rowCount };
      expect(table.liveCount).to.equal(tuples.length);
      expect(table.count([ANY, ANY, ANY], view)).to.equal(tuples.length);
      for (const t of tuples) expect(table.statusOf(table.find(t, view))).to.equal(EXPLICIT);
      checkIndexes(table, 500);
    });

    it('rollbackTo a savepoint undoes only what came after it', () => {
      const next = rng(99);
      const h = new Harness(3);
      h.randomHistory(next, 4, 3, 10);
      h.begin();
      for (let i = 0; i < 15; i++) h.randomOp(next, 4);
      const sp1 = h.table.savepoint();
      const at1 = h.pendingCopy();
      for (let i = 0; i < 15; i++) h.randomOp(next, 4);
      const sp2 = h.table.savepoint();
      const at2 = h.pendingCopy();
      for (let i = 0; i < 15; i++) h.randomOp(next, 4);
      h.table.rollbackTo(sp2);
      h.pending = new Map(at2);
      h.checkAll('after rollbackTo(sp2)');
      for (let i = 0; i < 15; i++) h.randomOp(next, 4);
      h.table.rollbackTo(sp1);
      h.pending = new Map(at1);
      h.checkAll('after rollbackTo(sp1)');
      checkIndexes(h.table, 4);
      for (let i = 0; i < 5; i++) h.randomOp(next, 4);
      h.commit();
      h.checkAll('after commit');
      checkIndexes(h.table, 4);
    });

    it('rollbackTo then rollback returns to the transaction start', () => {
      const next = rng(5);
      const h = new Harness(4);
      h.randomHistory(next, 3, 4, 10);
      const rows = h.table.rowCount;
      h.begin();
      for (let i = 0; i < 10; i++) h.randomOp(next, 3);
      const sp = h.table.savepoint();
      const atSp = h.pendingCopy();
      for (let i = 0; i < 10; i++) h.randomOp(next, 3);
      h.table.rollbackTo(sp);
      h.pending = atSp;
      for (let i = 0; i < 10; i++) h.randomOp(next, 3);
      h.rollback();
      expect(h.table.rowCount).to.equal(rows);
      h.checkAll('after rollback');
      checkIndexes(h.table, 3);
    });
  });

  describe('compact', () => {
    it('keeps exactly the content of every live view, reclaims rows and rebuilds valid chains', () => {
      for (let seed = 1; seed <= 30; seed++) {
        const next = rng(seed * 7919);
        const arity = 3 + (seed % 3);
        const domain = 4;
        const h = new Harness(arity);
        h.randomHistory(next, domain, 12, 25);
        // live views: a random subset of old versions plus the latest
        const latest = h.versions[h.versions.length - 1]!;
        const live = h.versions.filter((v) => v === latest || next(3) === 0);
        const oldest = Math.min(...live.map((v) => v.version));
        const before = h.table.rowCount;
        const removedBeforeOldest = (() => {
          // rows that some version saw but that are invisible from `oldest` on
          const oldestView = h.versions.find((v) => v.version === oldest)!;
          let n = 0;
          for (let r = 0; r < oldestView.limit; r++) if (!h.table.visible(r, oldestView)) n++;
          return n;
        })();
        const remap = h.table.compact(oldest);
        for (const v of live) v.limit = remap(v.limit);
        h.versions.length = 0;
        h.versions.push(...live);
        h.checkAll(`seed ${seed} after compact`);
        checkIndexes(h.table, domain);
        expect(h.table.rowCount, `seed ${seed}`).to.equal(before - removedBeforeOldest);
        if (oldest === latest.version) expect(h.table.rowCount).to.equal(h.table.liveCount);
        for (const v of live) {
          for (const k of v.content.keys()) expect(h.table.statusIn(h.table.find(parse(k), v), v)).to.equal(v.content.get(k));
        }
        // the compacted table keeps working, including rollback
        h.begin();
        for (let i = 0; i < 20; i++) h.randomOp(next, domain);
        h.rollback();
        h.checkAll(`seed ${seed} rollback after compact`);
        h.randomHistory(next, domain, 4, 20);
        h.checkAll(`seed ${seed} commits after compact`);
        checkIndexes(h.table, domain);
      }
    });

    it('reclaims every removed row when only the latest version is live', () => {
      const table = new TupleTable(3);
      table.beginWrite();
      for (let i = 0; i < 1000; i++) table.add([i % 10, i, 0], EXPLICIT, 1);
      table.endWrite();
      table.beginWrite();
      for (let i = 0; i < 1000; i += 2) table.remove([i % 10, i, 0], EXPLICIT, 2);
      for (let i = 1; i < 1000; i += 4) table.add([i % 10, i, 0], DERIVED, 2);
      table.endWrite();
      // the 250 facts that became explicit and derived changed in place
      expect(table.rowCount).to.equal(1000);
      const remap = table.compact(2);
      expect(table.rowCount).to.equal(500);
      expect(table.liveCount).to.equal(500);
      const view = { version: 2, limit: remap(1000) };
      expect(view.limit).to.equal(500);
      expect(table.count([ANY, ANY, ANY], view)).to.equal(500);
      expect(table.count([3, ANY, ANY], view)).to.equal(100);
      expect(table.count([4, ANY, ANY], view)).to.equal(0);
      expect(table.count([ANY, ANY, 0], view)).to.equal(500);
      let both = 0;
      table.scan([ANY, ANY, ANY], view, (row) => {
        if (table.statusOf(row) === BOTH) both++;
      });
      expect(both).to.equal(250);
      checkIndexes(table, 1000);
    });

    it('keeps a row removed after the oldest live version', () => {
      const h = new Harness(3);
      h.begin();
      h.add([1, 2, 3], EXPLICIT);
      h.commit();
      h.begin();
      h.remove([1, 2, 3], EXPLICIT);
      h.commit();
      const v1 = h.versions[1]!;
      const remap = h.table.compact(1);
      v1.limit = remap(v1.limit);
      expect(h.table.find([1, 2, 3], v1)).to.be.at.least(0);
      expect(h.table.rowCount).to.equal(1);
      const latest = h.versions[2]!;
      latest.limit = remap(latest.limit);
      expect(h.table.find([1, 2, 3], latest)).to.equal(-1);
      h.table.compact(2);
      expect(h.table.rowCount).to.equal(0);
    });
  });
});
