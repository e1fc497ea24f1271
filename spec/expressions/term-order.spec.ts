/**
 * RDFox's order of terms (termOrderCompare, termOrderEquals) and the rewriting that gives a
 * rule's expression its comparisons (inTermOrder): every pair of terms compares, values SPARQL
 * orders keep SPARQL's order, the order is a strict partial order (antisymmetric, transitive)
 * consistent with `=`, and SPARQL's own operators are untouched.
 */
import { expect } from 'chai';
import { DataFactory } from 'n3';
import { type Value, compileExpression, ExpressionError, inTermOrder, termOrderCompare, termOrderEquals } from '../../lib/expressions/index.js';
import { context, expr, show, term } from './helpers.js';

/** Terms of every kind, with pairs SPARQL orders, pairs it cannot, NaN and indeterminate date/times. */
const POOL: readonly Value[] = [
  DataFactory.blankNode('a'),
  DataFactory.blankNode('b'),
  ...[
    '<http://a.example/x>',
    '<http://a.example/y>',
    '<http://b.example/>',
    '1',
    '1.0',
    '2e0',
    '-3',
    '"NaN"^^xsd:double',
    '"INF"^^xsd:double',
    '"abc"^^xsd:integer',
    'true',
    'false',
    '""',
    '"a"',
    '"b"',
    '"a"@en',
    '"a"@de',
    '"b"@en',
    '"2020-01-01T12:00:00Z"^^xsd:dateTime',
    '"2020-01-01T12:00:00"^^xsd:dateTime',
    '"2020-01-02T12:00:00Z"^^xsd:dateTime',
    '"2020-01-01"^^xsd:date',
    '"12:00:00"^^xsd:time',
    '"P1M"^^xsd:yearMonthDuration',
    '"PT1H"^^xsd:dayTimeDuration',
    '"P1M"^^xsd:duration',
    '"P30D"^^xsd:duration',
    '"P1M1D"^^xsd:duration',
    '"x"^^<http://a.example/t>',
    '"y"^^<http://a.example/t>',
    '"x"^^<http://a.example/u>',
  ].map(term),
];

const sign = (n: number): number => (Number.isNaN(n) ? NaN : Math.sign(n));

/** Evaluates expression text over no bindings: the value, or 'error'. */
function run(text: string, rewrite: boolean): string {
  const e = expr(text);
  const f = compileExpression(rewrite ? inTermOrder(e) : e, context);
  try {
    return show(f(() => undefined));
  } catch (err) {
    if (err instanceof ExpressionError) return 'error';
    throw err;
  }
}

describe('expressions: the order of terms (rules, as RDFox)', () => {
  it('orders terms of different kinds: blank nodes < IRIs < literals; IRIs and blank nodes by code point', () => {
    const lt = (a: string | Value, b: string | Value): boolean => termOrderCompare(typeof a === 'string' ? term(a) : a, typeof b === 'string' ? term(b) : b) < 0;
    expect(lt(DataFactory.blankNode('z'), '<http://a.example/>')).to.equal(true);
    expect(lt('<http://a.example/>', '0')).to.equal(true);
    expect(lt(DataFactory.blankNode('a'), DataFactory.blankNode('b'))).to.equal(true);
    expect(lt('<http://a.example/B>', '<http://a.example/a>')).to.equal(true);
    expect(lt('<http://s1.example/john_doe>', '<http://s2.example/john_H_doe>')).to.equal(true);
  });

  it('keeps the value order where SPARQL orders (2 < 10, 9.5 < 10, "10" < "9") and orders the rest by kind, then value', () => {
    const c = (a: string, b: string): number => sign(termOrderCompare(term(a), term(b)));
    expect(c('2', '10')).to.equal(-1);
    expect(c('9.5', '10')).to.equal(-1);
    expect(c('1', '1.0')).to.equal(0);
    expect(c('"10"', '"9"')).to.equal(-1);
    expect(c('10', '"1"')).to.equal(-1);
    expect(c('true', '"2020-01-01"^^xsd:date')).to.equal(-1);
    expect(c('"a"@de', '"a"@en')).to.equal(-1);
    expect(c('"a"@en', '"b"@de')).to.equal(-1);
    expect(c('"b"', '"a"@en')).to.equal(-1);
    expect(c('"2020-01-01T00:00:00Z"^^xsd:dateTime', '"2019-01-01"^^xsd:date')).to.equal(-1);
    expect(c('"x"^^<http://a.example/t>', '"y"^^<http://a.example/t>')).to.equal(-1);
    // other datatypes (and ill-typed literals) by datatype IRI, then lexical form
    expect(c('"x"^^<http://a.example/t>', '"abc"^^xsd:integer')).to.equal(-1);
    expect(c('"y"^^<http://a.example/t>', '"x"^^<http://a.example/u>')).to.equal(-1);
  });

  it('leaves NaN and what XML Schema leaves indeterminate unordered', () => {
    const c = (a: string, b: string): number => termOrderCompare(term(a), term(b));
    expect(Number.isNaN(c('"NaN"^^xsd:double', '1'))).to.equal(true);
    expect(Number.isNaN(c('"2020-01-01T12:00:00Z"^^xsd:dateTime', '"2020-01-01T12:00:00"^^xsd:dateTime'))).to.equal(true);
    expect(Number.isNaN(c('"P1M"^^xsd:duration', '"P30D"^^xsd:duration'))).to.equal(true);
    expect(c('"P1M"^^xsd:duration', '"P1M1D"^^xsd:duration')).to.be.below(0);
    expect(c('"2020-01-01T12:00:00Z"^^xsd:dateTime', '"2020-01-02T12:00:00"^^xsd:dateTime')).to.be.below(0);
  });

  it('`=` holds between equal values and otherwise only for the same term, never an error', () => {
    const eq = (a: string, b: string): boolean => termOrderEquals(term(a), term(b));
    expect(eq('1', '1.0')).to.equal(true);
    expect(eq('"x"^^<http://a.example/t>', '"x"^^<http://a.example/t>')).to.equal(true);
    expect(eq('"x"^^<http://a.example/t>', '"y"^^<http://a.example/t>')).to.equal(false);
    expect(eq('"x"^^<http://a.example/t>', '"x"')).to.equal(false);
    expect(eq('"abc"^^xsd:integer', '1')).to.equal(false);
    expect(eq('"2020-01-01T12:00:00Z"^^xsd:dateTime', '"2020-01-01T12:00:00"^^xsd:dateTime')).to.equal(false);
    expect(eq('<http://a.example/x>', '"http://a.example/x"')).to.equal(false);
  });

  it('is a strict partial order consistent with `=` over terms of every kind (every pair and triple of the pool)', () => {
    const cmp = POOL.map((a) => POOL.map((b) => sign(termOrderCompare(a, b))));
    POOL.forEach((a, i) =>
      POOL.forEach((b, j) => {
        const ab = cmp[i]![j]!;
        const ba = cmp[j]![i]!;
        if (Number.isNaN(ab)) expect(Number.isNaN(ba), `${show(a)} ${show(b)}`).to.equal(true);
        else expect(ba, `${show(a)} ${show(b)}`).to.equal(-ab || 0);
        expect(ab === 0, `${show(a)} = ${show(b)}`).to.equal(termOrderEquals(a, b));
        if (ab < 0) POOL.forEach((c, k) => {
          if (cmp[j]![k]! < 0 && cmp[i]![k] !== -1) expect.fail(`${show(a)} < ${show(b)} < ${show(c)} but not ${show(a)} < ${show(c)}`);
        });
      }),
    );
  });

  it('inTermOrder rewrites the comparisons at any depth; SPARQL operators keep their errors', () => {
    expect(run('<http://a.example/x> < "a"', false)).to.equal('error');
    expect(run('<http://a.example/x> < "a"', true)).to.equal('"true"^^xsd:boolean');
    expect(run('1 < "a"', false)).to.equal('error');
    expect(run('1 < "a"', true)).to.equal('"true"^^xsd:boolean');
    expect(run('IF(BNODE() >= <http://a.example/x>, "ge", "lt")', true)).to.equal('"lt"');
    expect(run('"x"^^<http://a.example/t> != "y"^^<http://a.example/t>', false)).to.equal('error');
    expect(run('"x"^^<http://a.example/t> != "y"^^<http://a.example/t>', true)).to.equal('"true"^^xsd:boolean');
    expect(run('"x"^^<http://a.example/t> IN ("y"^^<http://a.example/t>)', false)).to.equal('error');
    expect(run('"x"^^<http://a.example/t> NOT IN ("y"^^<http://a.example/t>)', true)).to.equal('"true"^^xsd:boolean');
    expect(run('STR(<http://a.example/x> <= "a")', true)).to.equal('"true"');
    expect(run('xsd:string(<http://a.example/x> > "a")', true)).to.equal('"false"');
    const plain = expr('1 + 2');
    expect(inTermOrder(plain)).to.equal(plain);
  });
});
