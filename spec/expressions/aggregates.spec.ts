import { expect } from 'chai';
import { DataFactory } from 'n3';
import { type Value, createAggregator } from '../../lib/expressions/index.js';
import { show, term } from './helpers.js';

type Fn = Parameters<typeof createAggregator>[0];

/** Runs an aggregate over term texts (`undefined` = an error/unbound value) and renders the result. */
function agg(fn: Fn, values: readonly (string | Value | undefined)[], distinct = false, options?: { separator?: string; countStar?: boolean }): string {
  const a = createAggregator(fn, distinct, options);
  for (const v of values) a.add(typeof v === 'string' ? term(v) : v);
  const r = a.result();
  return r === undefined ? 'unbound' : show(r);
}

describe('expressions: aggregates (§18.5)', () => {
  describe('COUNT', () => {
    it('counts bound values, skipping errors', () => {
      expect(agg('count', ['1', '"a"', undefined, '<http://e/x>'])).to.equal('"3"^^xsd:integer');
      expect(agg('count', [])).to.equal('"0"^^xsd:integer');
    });
    it('COUNT(DISTINCT) counts distinct terms (1 and 1.0 are different terms)', () => {
      expect(agg('count', ['1', '1', '1.0', '"1"', '"1"', undefined], true)).to.equal('"3"^^xsd:integer');
      expect(agg('count', ['"a"@en', '"a"@EN'], true)).to.equal('"1"^^xsd:integer');
    });
    it('COUNT(*) counts every solution; with DISTINCT, distinct solution terms', () => {
      expect(agg('count', [undefined, undefined, '1'], false, { countStar: true })).to.equal('"3"^^xsd:integer');
      expect(agg('count', [undefined, undefined, '"k1"', '"k1"', '"k2"'], true, { countStar: true })).to.equal('"3"^^xsd:integer');
    });
  });

  describe('SUM', () => {
    it('sums with type promotion', () => {
      expect(agg('sum', ['1', '2', '3'])).to.equal('"6"^^xsd:integer');
      expect(agg('sum', ['1.0', '2.2', '3.5'])).to.equal('"6.7"^^xsd:decimal');
      expect(agg('sum', ['1', '2.2'])).to.equal('"3.2"^^xsd:decimal');
      expect(agg('sum', ['0.1', '0.2'])).to.equal('"0.3"^^xsd:decimal');
      expect(agg('sum', ['1.0E2', '2.0E3', '3.0E4'])).to.equal('"3.21E4"^^xsd:double');
      expect(agg('sum', ['2E-1', '0.2'])).to.equal('"4.0E-1"^^xsd:double');
      expect(agg('sum', ['"1"^^xsd:float', '2'])).to.equal('"3.0E0"^^xsd:float');
      expect(agg('sum', ['"5"^^xsd:byte', '"6"^^xsd:short'])).to.equal('"11"^^xsd:integer');
      expect(agg('sum', ['99999999999999999999', '1'])).to.equal('"100000000000000000000"^^xsd:integer');
    });
    it('of no values is 0', () => {
      expect(agg('sum', [])).to.equal('"0"^^xsd:integer');
    });
    it('is an error (unbound) with a non-number or an error value', () => {
      expect(agg('sum', ['1', '"2"'])).to.equal('unbound');
      expect(agg('sum', ['1', undefined, '2'])).to.equal('unbound');
      expect(agg('sum', ['1', '"x"^^xsd:integer'])).to.equal('unbound');
      expect(agg('sum', ['1', DataFactory.blankNode('b')])).to.equal('unbound');
    });
    it('SUM(DISTINCT)', () => {
      expect(agg('sum', ['1', '2', '2'], true)).to.equal('"3"^^xsd:integer');
      expect(agg('sum', ['1', '1.0'], true)).to.equal('"2.0"^^xsd:decimal');
    });
  });

  describe('AVG', () => {
    it('is SUM / COUNT with numeric division', () => {
      expect(agg('avg', ['1', '2', '3'])).to.equal('"2.0"^^xsd:decimal');
      expect(agg('avg', ['1', '2'])).to.equal('"1.5"^^xsd:decimal');
      expect(agg('avg', ['1', '2.2'])).to.equal('"1.6"^^xsd:decimal');
      expect(agg('avg', ['1', '2', '2'])).to.equal('"1.666666666666666666666667"^^xsd:decimal');
      expect(agg('avg', ['2E-1', '2.2'])).to.equal('"1.2000000000000002E0"^^xsd:double');
      expect(agg('avg', ['1e0', '2', '3', '4'])).to.equal('"2.5E0"^^xsd:double');
    });
    it('of no values is 0', () => {
      expect(agg('avg', [])).to.equal('"0"^^xsd:integer');
    });
    it('is an error with a non-number or an error value', () => {
      expect(agg('avg', ['1', DataFactory.blankNode('b'), '3'])).to.equal('unbound');
      expect(agg('avg', ['1', undefined])).to.equal('unbound');
    });
    it('AVG(DISTINCT)', () => {
      expect(agg('avg', ['1', '2', '2'], true)).to.equal('"1.5"^^xsd:decimal');
    });
  });

  describe('MIN and MAX (ORDER BY order, across types)', () => {
    it('of numbers of mixed types', () => {
      expect(agg('min', ['3', '1.5', '2e0'])).to.equal('"1.5"^^xsd:decimal');
      expect(agg('max', ['3', '1.5', '2e0'])).to.equal('"3"^^xsd:integer');
      expect(agg('max', ['2E-1', '2.2'])).to.equal('"2.2"^^xsd:decimal');
      expect(agg('min', ['1.0', '2.2', '3.5'])).to.equal('"1.0"^^xsd:decimal');
    });
    it('across kinds of terms: blank < IRI < literal; numbers before strings', () => {
      const b = DataFactory.blankNode('b');
      expect(agg('min', ['1', b, '4'])).to.equal('_:b');
      expect(agg('max', ['1', b, '<http://e/x>'])).to.equal('"1"^^xsd:integer');
      expect(agg('min', ['"a"', '5', '<http://e/x>'])).to.equal('<http://e/x>');
      expect(agg('max', ['"a"', '5', '"b"'])).to.equal('"b"');
      expect(agg('min', ['"b"', '"a"', '"c"'])).to.equal('"a"');
    });
    it('skip errors; of no values are unbound', () => {
      expect(agg('min', [undefined, '2', undefined])).to.equal('"2"^^xsd:integer');
      expect(agg('max', [])).to.equal('unbound');
      expect(agg('min', [undefined])).to.equal('unbound');
    });
    it('with DISTINCT', () => {
      expect(agg('max', ['1', '2', '2'], true)).to.equal('"2"^^xsd:integer');
    });
  });

  describe('SAMPLE', () => {
    it('is one of the values (skipping errors)', () => {
      expect(['"1"^^xsd:integer', '"2"^^xsd:integer']).to.include(agg('sample', ['1', '2']));
      expect(agg('sample', [undefined, '"x"'])).to.equal('"x"');
      expect(agg('sample', [])).to.equal('unbound');
      expect(agg('sample', ['1', '1'], true)).to.equal('"1"^^xsd:integer');
    });
  });

  describe('GROUP_CONCAT', () => {
    it('joins lexical forms with a space or the separator', () => {
      expect(agg('group_concat', ['"1"', '"22"'])).to.equal('"1 22"');
      expect(agg('group_concat', ['"1"', '"22"'], false, { separator: ':' })).to.equal('"1:22"');
      expect(agg('group_concat', ['"a"', '"b"', '"c"'], false, { separator: '' })).to.equal('"abc"');
      expect(agg('group_concat', [])).to.equal('""');
    });
    it('gives a simple literal even when every input has the same language tag', () => {
      expect(agg('group_concat', ['"1"@en', '"2"@en'])).to.equal('"1 2"');
      expect(agg('group_concat', ['"1"@en', '"2"@fr'])).to.equal('"1 2"');
    });
    it('takes numbers and IRIs by their string forms; errors are skipped; a blank node is an error', () => {
      expect(agg('group_concat', ['1', '2.50', '<http://e/x>'])).to.equal('"1 2.50 http://e/x"');
      expect(agg('group_concat', ['"a"', undefined, '"b"'])).to.equal('"a b"');
      expect(agg('group_concat', ['"a"', DataFactory.blankNode('b')])).to.equal('unbound');
    });
    it('GROUP_CONCAT(DISTINCT)', () => {
      expect(agg('group_concat', ['"1"', '"2"', '"1"'], true)).to.equal('"1 2"');
    });
  });

  it('aggregators are independent', () => {
    const a = createAggregator('sum', false);
    const b = createAggregator('sum', false);
    a.add(term('1'));
    b.add(term('2'));
    a.add(term('3'));
    expect(show(a.result()!)).to.equal('"4"^^xsd:integer');
    expect(show(b.result()!)).to.equal('"2"^^xsd:integer');
    // result() can be read at any time; adding continues afterwards.
    a.add(term('1'));
    expect(show(a.result()!)).to.equal('"5"^^xsd:integer');
  });
});
