import { expect } from 'chai';
import { atomCost, constantRows, greedyJoinOrder, JoinOrders, LATER_BOUND_DIVISOR, NONE, type PlanAtom, type TableStatistics, UNKNOWN_ROWS } from '../../lib/planner/join-order.js';

/** A table of triples (subject, predicate, object as numbers) whose statistics are exact counts. */
function triples(rows: ReadonlyArray<readonly [number, number, number]>): TableStatistics & { asked: number } {
  const counts = [new Map<number, number>(), new Map<number, number>(), new Map<number, number>()];
  for (const row of rows) for (let c = 0; c < 3; c++) counts[c]!.set(row[c]!, (counts[c]!.get(row[c]!) ?? 0) + 1);
  const table = {
    asked: 0,
    size: rows.length,
    countOf(column: number, value: number): number {
      table.asked++;
      return counts[column]!.get(value) ?? 0;
    },
  };
  return table;
}

/** A position: `?n` is the variable of slot n, a number a constant. */
type Position = `?${number}` | number;

/** An atom of `table` with the positions given. */
function atom(table: TableStatistics, ...positions: Position[]): PlanAtom {
  const slots = positions.map((p) => (typeof p === 'string' ? Number(p.slice(1)) : NONE));
  const constants = positions.map((p) => (typeof p === 'number' ? p : NONE));
  return { slots, constants, table };
}

/** A seed of `width` slots binding the slots of `values` (slot → value; -2: bound, value unknown). */
function seed(width: number, values: Record<number, number> = {}): Int32Array {
  const s = new Int32Array(width).fill(-1);
  for (const [slot, v] of Object.entries(values)) s[Number(slot)] = v;
  return s;
}

// term ids
const TYPE = 1;
const STUDENT = 2;
const COURSE = 3;
const TAKES = 4;
const PAR = 5;
const ANC = 6;
const ADVISOR = 7;

describe('planner/join-order: one greedy join order and cost model', () => {
  describe('the part of the constants', () => {
    it('takes the smallest count of one constant: rdf:type and a class are not multiplied', () => {
      // 1,000 rdf:type rows, 10 of them with the class STUDENT; 5,000 rows in all
      const rows: Array<[number, number, number]> = [];
      for (let i = 0; i < 1000; i++) rows.push([100 + i, TYPE, i < 10 ? STUDENT : COURSE]);
      for (let i = 0; i < 4000; i++) rows.push([100 + i, TAKES, 9000 + (i % 50)]);
      const table = triples(rows);
      const students = atom(table, '?0', TYPE, STUDENT);
      // min(1,000 + 1, 10 + 1), never 1,000 × 10 / 5,000
      expect(constantRows(students)).to.equal(11);
      expect(constantRows(atom(table, '?0', '?1', '?2'))).to.equal(5001);
      expect(atomCost(students, constantRows(students), new Uint8Array(3), undefined, false)).to.equal(11);
    });

    it('does not ask the statistics of a table of unknown size, and puts its atoms after the ones that bind them', () => {
      const known = triples([
        [10, TAKES, 20],
        [11, TAKES, 21],
      ]);
      let asked = 0;
      const mounted: TableStatistics = {
        size: Infinity,
        countOf: () => {
          asked++;
          return 0;
        },
      };
      const source = atom(mounted, '?1', '?2');
      expect(constantRows(source)).to.equal(UNKNOWN_ROWS);
      // person(?y, ?name) mounted, [?x takes ?y] in memory: the scan binds ?y for the source
      const order = greedyJoinOrder([source, atom(known, '?0', TAKES, '?1')], seed(3));
      expect(order).to.deep.equal([1, 0]);
      expect(asked).to.equal(0);
      // with its columns bound it is still after every atom of known size that is connected
      const bound = new Uint8Array([0, 1, 1]);
      expect(atomCost(source, UNKNOWN_ROWS, bound, undefined, true)).to.equal(UNKNOWN_ROWS / LATER_BOUND_DIVISOR ** 2);
    });
  });

  describe('bound variables', () => {
    // [?x :anc ?z] :- [?x :anc ?y], [?y :par ?z], proved for ?x and ?z bound (a proof check):
    // ?x has many ancestors, ?z is the child of one parent
    const rows: Array<[number, number, number]> = [];
    for (let i = 0; i < 2000; i++) rows.push([1000 + (i % 40), ANC, 5000 + i]);
    for (let i = 0; i < 2000; i++) rows.push([5000 + i, PAR, 8000 + i]);
    const table = triples(rows);
    const anc = atom(table, '?0', ANC, '?1');
    const par = atom(table, '?1', PAR, '?2');

    it('keeps the share of the rows of a value bound when the plan is made (the :anc/:par example)', () => {
      // ?x = 1000 (in 50 :anc rows), ?z = 8000 (in one :par row)
      const order = greedyJoinOrder([anc, par], seed(3, { 0: 1000, 2: 8000 }));
      expect(order).to.deep.equal([1, 0]);
      // with ?x's value in one row and ?z's in many, the other way round
      const rows2: Array<[number, number, number]> = [];
      for (let i = 0; i < 2000; i++) rows2.push([1000 + i, ANC, 5000 + (i % 10)]);
      for (let i = 0; i < 2000; i++) rows2.push([5000 + (i % 10), PAR, 8000 + (i % 2)]);
      const table2 = triples(rows2);
      expect(greedyJoinOrder([atom(table2, '?0', ANC, '?1'), atom(table2, '?1', PAR, '?2')], seed(3, { 0: 1000, 2: 8000 }))).to.deep.equal([0, 1]);
    });

    it('divides by a constant for a position bound only later in the plan', () => {
      const bound = new Uint8Array([1, 0, 0]);
      // ?x bound, value not known: the :anc rows over the divisor
      expect(atomCost(anc, constantRows(anc), bound, undefined, true)).to.equal(2001 / LATER_BOUND_DIVISOR);
      // value known: its share (50 rows of 4,000 → 2001 × 41/4001)
      const values = seed(3, { 0: 1000 });
      expect(atomCost(anc, constantRows(anc), bound, values, true)).to.be.closeTo((2001 * 51) / 4001, 1e-9);
    });

    it('counts an atom with every position bound as a probe of one row; of two probes, the likelier to fail first', () => {
      const bound = new Uint8Array([1, 1, 1]);
      expect(atomCost(anc, constantRows(anc), bound, undefined, true)).to.equal(1);
      // [?x rdf:type :Student] holds for no row of the table; [?x :par ?z] for 2,000 rows
      const students = atom(table, '?0', TYPE, STUDENT);
      expect(atomCost(students, constantRows(students), bound, undefined, true)).to.equal(1);
      expect(greedyJoinOrder([par, students], seed(3, { 1: -2, 2: -2, 0: -2 }))).to.deep.equal([1, 0]);
      // an atom with a free position at the floor of one row is no probe, but ties with one
      const one = atom(triples([[1, ADVISOR, 2]]), '?0', ADVISOR, '?3');
      expect(atomCost(one, constantRows(one), new Uint8Array([1, 0, 0, 0]), undefined, true)).to.equal(1);
    });
  });

  describe('the greedy order', () => {
    // estimates by predicate: 10 → 200 rows, 11 → 5, 12 → 50
    const rows: Array<[number, number, number]> = [];
    for (let i = 0; i < 200; i++) rows.push([i, 10, 1000 + i]);
    for (let i = 0; i < 5; i++) rows.push([2000 + i, 11, 3000 + i]);
    for (let i = 0; i < 50; i++) rows.push([1000 + i, 12, 2000 + (i % 5)]);
    const table = triples(rows);
    const patterns = [atom(table, '?0', 10, '?1'), atom(table, '?2', 11, '?3'), atom(table, '?1', 12, '?2')];

    it('starts with the smallest estimate and follows connected atoms', () => {
      expect(greedyJoinOrder(patterns, seed(4))).to.deep.equal([1, 2, 0]);
    });

    it('puts disconnected atoms last, even when they are small', () => {
      // [?4 :11 ?5] shares no variable with the others: after them, though it is the smallest
      const lonely = atom(table, '?4', 11, '?5');
      expect(greedyJoinOrder([patterns[0]!, patterns[2]!, lonely], seed(6, { 0: 5 }))).to.deep.equal([0, 1, 2]);
    });

    it('starts from what a seed binds', () => {
      // ?0 = 5 is in one row of predicate 10: the first pattern is the cheapest
      expect(greedyJoinOrder(patterns, seed(4, { 0: 5 }))[0]).to.equal(0);
    });

    it('makes each order once per set of bound slots and asks the statistics of the constants once', () => {
      const orders = new JoinOrders(patterns);
      const before = table.asked;
      const first = orders.orderFor(seed(4));
      const asked = table.asked - before;
      expect(asked).to.be.greaterThan(0);
      expect(orders.orderFor(seed(4))).to.equal(first);
      expect(table.asked - before).to.equal(asked);
      expect(orders.orderFor(seed(4, { 0: 5 }))).to.not.equal(first);
    });

    it('orders thousands of atoms (a long path sequence) quickly', () => {
      const chain = Array.from({ length: 5000 }, (_, i) => atom(table, `?${i}`, 10, `?${i + 1}`));
      const started = performance.now();
      const order = greedyJoinOrder(chain, seed(5001));
      expect(order).to.have.length(5000);
      expect(new Set(order).size).to.equal(5000);
      expect(performance.now() - started).to.be.below(5000);
    });
  });
});
