/**
 * The table cursor against a brute-force filter: random tables written over several versions
 * (additions, removals, status changes), read through every access path (point lookup,
 * column chain, pair index, full scan), every status mask and every older view, in one go
 * and in budgeted steps, with writes and a compaction between steps.
 * @module
 */
import { expect } from 'chai';
import { ANY, DERIVED, EXPLICIT, TupleTable, type TableView } from '../../lib/storage/tuple-table.js';
import { CURSOR_END, CURSOR_PAUSED, TableCursor, type CursorPath } from '../../lib/storage/table-cursor.js';
import { TransactionError } from '../../lib/model/errors.js';

type Content = Map<string, number>; // tuple key → status bits

const key = (t: ArrayLike<number>): string => Array.from(t).join(',');

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

/** A random table written over `versions` versions, with the content and view of each version. */
interface History {
  readonly table: TupleTable;
  readonly views: TableView[];
  readonly contents: Content[];
  readonly tuples: number[][];
}

/**
 * Writes a random table: terms of column 0 are few (long chains), the others spread wider, so
 * that chains of every length and pairs of every selectivity occur.
 */
function randomHistory(arity: number, seed: number, versions = 6, perVersion = 160): History {
  const next = rng(seed);
  const table = new TupleTable(arity);
  const content: Content = new Map();
  const views: TableView[] = [];
  const contents: Content[] = [];
  const tuples: number[][] = [];
  const spread = [3, 12, 40, 9, 25];
  for (let version = 1; version <= versions; version++) {
    for (let i = 0; i < perVersion; i++) {
      const known = tuples.length > 0 && next(3) === 0;
      const tuple = known ? tuples[next(tuples.length)]! : Array.from({ length: arity }, (_, c) => next(spread[c % spread.length]!));
      if (!known) tuples.push(tuple);
      const k = key(tuple);
      const status = next(2) === 0 ? EXPLICIT : DERIVED;
      const old = content.get(k) ?? 0;
      if (next(4) === 0) {
        table.remove(tuple, status, version);
        const rest = old & ~status;
        if (rest === 0) content.delete(k);
        else content.set(k, rest);
      } else {
        table.add(tuple, status, version);
        content.set(k, old | status);
      }
    }
    views.push({ version, limit: table.rowCount });
    contents.push(new Map(content));
  }
  return { table, views, contents, tuples };
}

/** The tuples (with status) of a content that match a pattern and a mask, sorted. */
function bruteForce(content: Content, pattern: readonly number[], mask: number): string[] {
  const out: string[] = [];
  for (const [k, status] of content) {
    if ((status & mask) === 0) continue;
    const t = k.split(',').map(Number);
    if (pattern.every((p, c) => p === ANY || p === t[c])) out.push(`${k}:${status}`);
  }
  return out.sort();
}

/** The rows a cursor hands out, in order (each checked to be handed out once). */
function drain(cursor: TableCursor): number[] {
  const rows: number[] = [];
  for (let row = cursor.next(); row !== CURSOR_END; row = cursor.next()) {
    expect(row, 'a row').to.be.at.least(0);
    rows.push(row);
  }
  expect(new Set(rows).size, 'no row twice').to.equal(rows.length);
  return rows;
}

function described(table: TupleTable, rows: readonly number[], view: TableView): string[] {
  return rows.map((row) => `${key(Array.from({ length: table.arity }, (_, c) => table.get(row, c)))}:${table.statusIn(row, view)}`).sort();
}

/** Every pattern of `arity` columns: each subset of the columns bound to the values of `tuple`. */
function patternsOf(tuple: readonly number[]): number[][] {
  const out: number[][] = [];
  for (let bits = 0; bits < 1 << tuple.length; bits++) out.push(tuple.map((v, c) => ((bits & (1 << c)) !== 0 ? v : ANY)));
  return out;
}

const ALL = EXPLICIT | DERIVED;
const MASKS = [EXPLICIT, DERIVED, ALL];

describe('TableCursor', () => {
  for (const arity of [2, 3, 4]) {
    it(`hands out exactly the matching rows of every view, status mask and binding pattern (arity ${arity})`, () => {
      const paths = new Set<CursorPath>();
      const cursor = new TableCursor();
      for (const seed of [1, 2]) {
        const h = randomHistory(arity, seed * 31 + arity);
        const next = rng(seed);
        // pair indexes on some column pairs, so that long chains may be walked through them
        for (let a = 0; a < arity; a++) for (let b = a + 1; b < arity; b++) if ((a + b + seed) % 2 === 0) h.table.pairIndex(a, b);
        // tuples that exist, and one made of terms that are mostly absent
        const probes = [...Array.from({ length: 10 }, () => h.tuples[next(h.tuples.length)]!), Array.from({ length: arity }, (_, c) => (c === 0 ? 1 : 999))];
        for (let v = 0; v < h.views.length; v++) {
          for (const probe of probes) {
            for (const pattern of patternsOf(probe)) {
              for (const mask of MASKS) {
                cursor.open(h.table, h.views[v]!, pattern, mask);
                paths.add(cursor.path);
                const path = cursor.path;
                const rows = drain(cursor);
                const what = `seed ${seed}, view ${v + 1}, pattern ${key(pattern)}, mask ${mask}, path ${path}`;
                expect(described(h.table, rows, h.views[v]!), what).to.deep.equal(bruteForce(h.contents[v]!, pattern, mask));
                // chains are walked newest first, a scan in row order
                const sorted = [...rows].sort((x, y) => (path === 'scan' ? x - y : y - x));
                expect(rows, `${what}: order`).to.deep.equal(sorted);
                if (path === 'point') expect(rows.length, what).to.be.at.most(1);
              }
            }
          }
        }
      }
      // (a pair index needs two bound columns and a free one)
      expect([...paths].sort(), 'access paths taken').to.deep.equal(arity > 2 ? ['chain', 'pair', 'point', 'scan'] : ['chain', 'point', 'scan']);
    });
  }

  it('chooses the bound column with the fewest rows, and tells the count of its path', () => {
    const table = new TupleTable(3);
    for (let i = 0; i < 80; i++) table.add([1, i % 4, i], EXPLICIT, 1);
    for (let i = 0; i < 5; i++) table.add([2, 0, 100 + i], EXPLICIT, 1);
    for (let i = 0; i < 20; i++) table.add([3, 2, 200 + i], EXPLICIT, 1);
    const view = { version: 1, limit: table.rowCount };
    const cursor = new TableCursor();
    cursor.open(table, view, [2, 0, ANY], ALL);
    expect(cursor.path).to.equal('chain');
    expect(cursor.pathRows, 'the subject 2 has the shorter chain').to.equal(5);
    expect(drain(cursor)).to.have.length(5);
    cursor.open(table, view, [ANY, ANY, ANY], ALL);
    expect(cursor.path).to.equal('scan');
    expect(cursor.pathRows).to.equal(105);
    cursor.open(table, view, [1, 3, 7], ALL);
    expect(cursor.path).to.equal('point');
    expect(cursor.pathRows).to.equal(1);
    cursor.open(table, view, [1, 3, 8], ALL);
    expect(cursor.pathRows).to.equal(0);
    expect(cursor.next()).to.equal(CURSOR_END);
    // the shorter chain of [1, 2, ANY] is the predicate's (40 rows); with a pair index on
    // columns 0 and 1 the lookup walks the pair's 20 rows instead
    cursor.open(table, view, [1, 2, ANY], ALL);
    expect(cursor.path).to.equal('chain');
    expect(cursor.pathRows).to.equal(40);
    table.pairIndex(0, 1);
    cursor.open(table, view, [1, 2, ANY], ALL);
    expect(cursor.path).to.equal('pair');
    expect(cursor.pathRows).to.equal(20);
    expect(described(table, drain(cursor), view)).to.have.length(20);
    // a status mask of no bits matches nothing
    cursor.open(table, view, [ANY, ANY, ANY], 0);
    expect(cursor.path).to.equal('empty');
    expect(cursor.next()).to.equal(CURSOR_END);
  });

  it('builds a pair index once walking long chains in vain has paid for it', () => {
    const table = new TupleTable(3);
    for (let s = 0; s < 4; s++) for (let p = 0; p < 4; p++) for (let o = 0; o < 20; o++) table.add([s, p, o], EXPLICIT, 1);
    const view = { version: 1, limit: table.rowCount };
    const cursor = new TableCursor();
    const paths: CursorPath[] = [];
    for (let i = 0; i < 200; i++) {
      cursor.open(table, view, [i % 4, (i >> 2) % 4, ANY], ALL);
      paths.push(cursor.path);
      expect(drain(cursor)).to.have.length(20);
    }
    expect(paths[0]).to.equal('chain');
    expect(paths[paths.length - 1]).to.equal('pair');
  });

  it('builds no pair index for a chain whose rows nearly all hold the second bound value, however often it is walked', () => {
    const table = new TupleTable(3);
    // column 0 = 1 on 40 rows, 38 of them with 7 in column 1
    for (let o = 0; o < 38; o++) table.add([1, 7, o], EXPLICIT, 1);
    table.add([1, 8, 0], EXPLICIT, 1);
    table.add([1, 9, 0], EXPLICIT, 1);
    for (let s = 2; s < 40; s++) table.add([s, 7, s], EXPLICIT, 1);
    const view = { version: 1, limit: table.rowCount };
    const cursor = new TableCursor();
    const paths = new Set<CursorPath>();
    for (let i = 0; i < 2000; i++) {
      cursor.open(table, view, [1, 7, ANY], ALL);
      paths.add(cursor.path);
      expect(drain(cursor)).to.have.length(38);
    }
    expect([...paths]).to.deep.equal(['chain']);
  });

  it('resumes a budgeted walk where it paused, reading at most the budget per call, on every path', () => {
    const cursor = new TableCursor();
    const other = new TableCursor();
    const paths = new Set<CursorPath>();
    for (const seed of [5, 6]) {
      const h = randomHistory(3, seed);
      h.table.pairIndex(0, 1);
      const next = rng(seed);
      for (let n = 0; n < 60; n++) {
        const probe = h.tuples[next(h.tuples.length)]!;
        for (const pattern of patternsOf(probe)) {
          const view = h.views[next(h.views.length)]!;
          const mask = MASKS[next(3)]!;
          const expected = drain(other.open(h.table, view, pattern, mask));
          cursor.open(h.table, view, pattern, mask);
          paths.add(cursor.path);
          const rows: number[] = [];
          for (let calls = 0; ; calls++) {
            expect(calls, 'the walk ends').to.be.below(100_000);
            const budget = next(4);
            const before = cursor.rowsRead;
            const row = cursor.step(budget);
            expect(cursor.rowsRead - before, 'rows read within the budget').to.be.at.most(budget);
            if (row === CURSOR_END) break;
            if (row === CURSOR_PAUSED) {
              expect(cursor.rowsRead - before, 'a pause used the whole budget').to.equal(budget);
              continue;
            }
            rows.push(row);
          }
          expect(rows, `pattern ${key(pattern)} (${cursor.path})`).to.deep.equal(expected);
          expect(cursor.next(), 'an ended cursor stays ended').to.equal(CURSOR_END);
        }
      }
    }
    expect([...paths].sort(), 'access paths taken').to.deep.equal(['chain', 'pair', 'point', 'scan']);
  });

  it('a suspended walk does not see the rows written after its view, and a compaction ends it', () => {
    const h = randomHistory(3, 9, 3, 200);
    const view = h.views[2]!;
    const cursor = new TableCursor();
    for (const pattern of [[ANY, ANY, ANY], [1, ANY, ANY], [ANY, 5, ANY]]) {
      const expected = bruteForce(h.contents[2]!, pattern, EXPLICIT | DERIVED);
      cursor.open(h.table, view, pattern, ALL);
      const rows: number[] = [];
      for (let i = 0; i < 3; i++) {
        const row = cursor.step(1);
        if (row >= 0) rows.push(row);
      }
      // a later transaction adds (at the chains' heads) and removes (at a later version)
      const version = h.views.length + rows.length + 10;
      for (let i = 0; i < 50; i++) h.table.add([1, 5, 1000 + i + version * 100], EXPLICIT, version);
      for (const t of h.tuples.slice(0, 30)) h.table.remove(t, EXPLICIT | DERIVED, version);
      rows.push(...drain(cursor));
      expect(described(h.table, rows, view), key(pattern)).to.deep.equal(expected);
    }
    cursor.open(h.table, view, [ANY, ANY, ANY], ALL);
    cursor.step(1);
    h.table.compact(Number.MAX_SAFE_INTEGER);
    expect(() => cursor.step(1)).to.throw(TransactionError, /compacted/);
  });

  it('is reused across tables of different arities, and close ends a walk', () => {
    const cursor = new TableCursor();
    const wide = new TupleTable(6);
    for (let i = 0; i < 30; i++) wide.add([i % 3, 1, 2, 3, 4, i], EXPLICIT, 1);
    const narrow = new TupleTable(2);
    for (let i = 0; i < 30; i++) narrow.add([i % 5, i], DERIVED, 1);
    expect(drain(cursor.open(narrow, { version: 1, limit: narrow.rowCount }, [2, ANY], ALL))).to.have.length(6);
    expect(drain(cursor.open(wide, { version: 1, limit: wide.rowCount }, [2, 1, ANY, 3, ANY, ANY], ALL))).to.have.length(10);
    expect(drain(cursor.open(narrow, { version: 1, limit: narrow.rowCount }, [ANY, 7], EXPLICIT))).to.have.length(0);
    cursor.open(wide, { version: 1, limit: wide.rowCount }, [ANY, ANY, ANY, ANY, ANY, ANY], ALL);
    expect(cursor.next()).to.equal(0);
    cursor.close();
    expect(cursor.next()).to.equal(CURSOR_END);
    expect(cursor.path).to.equal('empty');
  });
});
