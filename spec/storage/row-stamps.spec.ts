/**
 * The removal versions of rows, against a Map as the reference: any sequence of sets, deletes
 * and clears leaves the same entries, over growth and backward-shift deletion in clusters.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { RowStamps } from '../../lib/storage/row-stamps.js';

type Op = { kind: 'set'; row: number; version: number } | { kind: 'delete'; row: number } | { kind: 'clear' };

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('set' as const), row: fc.nat(300), version: fc.nat(1 << 30) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('delete' as const), row: fc.nat(300) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('clear' as const) }) },
);

describe('storage/row-stamps: the version each removed row was removed at', () => {
  it('holds exactly what a Map holds after any sequence of sets, deletes and clears', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 600 }), (ops) => {
        const stamps = new RowStamps();
        const model = new Map<number, number>();
        for (const o of ops) {
          if (o.kind === 'set') {
            stamps.set(o.row, o.version);
            model.set(o.row, o.version);
          } else if (o.kind === 'delete') {
            stamps.delete(o.row);
            model.delete(o.row);
          } else {
            stamps.clear();
            model.clear();
          }
          expect(stamps.size).to.equal(model.size);
        }
        for (let row = 0; row <= 300; row++) expect(stamps.get(row), `row ${row}`).to.equal(model.get(row) ?? -1);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps 200,000 rows and finds each after half of them are deleted', () => {
    const stamps = new RowStamps();
    for (let row = 0; row < 200_000; row++) stamps.set(row * 7, row + 1);
    for (let row = 0; row < 200_000; row += 2) stamps.delete(row * 7);
    expect(stamps.size).to.equal(100_000);
    for (let row = 0; row < 200_000; row++) expect(stamps.get(row * 7)).to.equal(row % 2 === 0 ? -1 : row + 1);
  });
});
