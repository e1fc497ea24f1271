import { expect } from 'chai';
import { DataFactory } from 'n3';
import { type Value, compareForOrder } from '../../lib/expressions/index.js';
import { show, term } from './helpers.js';

describe('expressions: ORDER BY order (compareForOrder)', () => {
  it('unbound < blank nodes < IRIs < literals', () => {
    const b = DataFactory.blankNode('z');
    const i = term('<http://a.example/>');
    const l = term('"a"');
    expect(compareForOrder(undefined, undefined)).to.equal(0);
    expect(compareForOrder(undefined, b)).to.be.below(0);
    expect(compareForOrder(b, undefined)).to.be.above(0);
    expect(compareForOrder(b, i)).to.be.below(0);
    expect(compareForOrder(i, l)).to.be.below(0);
    expect(compareForOrder(l, b)).to.be.above(0);
    expect(compareForOrder(term('0'), i)).to.be.above(0);
  });

  it('orders by value where comparable', () => {
    const pairs: [string, string][] = [
      ['1', '2'],
      ['1', '1.5'],
      ['1.5', '2e0'],
      ['-1e0', '0'],
      ['"-INF"^^xsd:double', '-1000000'],
      ['1000000', '"INF"^^xsd:double'],
      ['"NaN"^^xsd:double', '"-INF"^^xsd:double'],
      ['9007199254740992', '9007199254740993'],
      ['9007199254740992e0', '9007199254740993'],
      // Exact values: the double 0.1e0 is 0.1000000000000000055…
      ['0.1', '0.1e0'],
      ['"a"', '"b"'],
      ['"B"', '"a"'],
      ['"\uFFFD"', '"\u{1F600}"'],
      ['false', 'true'],
      ['"2006-08-23T09:00:00Z"^^xsd:dateTime', '"2006-08-23T09:00:01Z"^^xsd:dateTime'],
      ['"2006-08-23T10:00:00+02:00"^^xsd:dateTime', '"2006-08-23T09:00:00Z"^^xsd:dateTime'],
      ['"2006-08-23"^^xsd:date', '"2006-08-24"^^xsd:date'],
      ['<http://a.example/a>', '<http://a.example/b>'],
      ['"a"@en', '"b"@de'],
    ];
    for (const [a, b] of pairs) {
      expect(compareForOrder(term(a), term(b)), `${a} < ${b}`).to.be.below(0);
      expect(compareForOrder(term(b), term(a)), `${b} > ${a}`).to.be.above(0);
    }
  });

  it('is a total order: equal values of different terms are ordered, identical terms are 0', () => {
    expect(compareForOrder(term('1'), term('1'))).to.equal(0);
    expect(compareForOrder(term('1'), term('1.0'))).to.not.equal(0);
    expect(compareForOrder(term('1'), term('"01"^^xsd:integer'))).to.not.equal(0);
    expect(compareForOrder(term('"a"@en'), term('"a"@EN'))).to.equal(0);
    expect(compareForOrder(term('"a"'), term('"a"^^xsd:string'))).to.equal(0);
    expect(compareForOrder(term('"x"^^<http://e/dt>'), term('"x"^^<http://e/dt>'))).to.equal(0);
    expect(compareForOrder(term('"x"^^<http://e/a>'), term('"x"^^<http://e/b>'))).to.be.below(0);
  });

  it('sorts a mixed list consistently (antisymmetric and transitive)', () => {
    const texts = [
      '"b"',
      '3',
      '"a"@en',
      '<http://e/x>',
      '2.5',
      '"abc"^^xsd:integer',
      'true',
      '"2000-01-01T00:00:00"^^xsd:dateTime',
      '"2000-01-01T00:00:00Z"^^xsd:dateTime',
      '"x"^^<http://e/dt>',
      '1e0',
      '"NaN"^^xsd:double',
      '""',
      '"PT1H"^^xsd:dayTimeDuration',
      '"12:00:00"^^xsd:time',
      '"2000-01-01"^^xsd:date',
      'false',
      '1',
      '1.0',
    ];
    const values: (Value | undefined)[] = [...texts.map(term), DataFactory.blankNode('b1'), DataFactory.blankNode('a0'), undefined];
    for (const a of values)
      for (const b of values) {
        const ab = compareForOrder(a, b);
        const ba = compareForOrder(b, a);
        expect(Math.sign(ab)).to.equal(-Math.sign(ba));
        for (const c of values) if (ab <= 0 && compareForOrder(b, c) <= 0) expect(compareForOrder(a, c)).to.be.at.most(0);
      }
    // (Array#sort never passes undefined to a comparator, so sort boxed values.)
    const sorted = values
      .map((v) => ({ v }))
      .sort((a, b) => compareForOrder(a.v, b.v))
      .map(({ v }) => (v === undefined ? 'UNDEF' : show(v)));
    expect(sorted).to.deep.equal([
      'UNDEF',
      '_:a0',
      '_:b1',
      '<http://e/x>',
      '"NaN"^^xsd:double',
      '"1"^^xsd:integer',
      '"1.0"^^xsd:decimal',
      '"1e0"^^xsd:double',
      '"2.5"^^xsd:decimal',
      '"3"^^xsd:integer',
      '"false"^^xsd:boolean',
      '"true"^^xsd:boolean',
      '"2000-01-01T00:00:00"^^xsd:dateTime',
      '"2000-01-01T00:00:00Z"^^xsd:dateTime',
      '"2000-01-01"^^xsd:date',
      '"12:00:00"^^xsd:time',
      '"PT1H"^^xsd:dayTimeDuration',
      '""',
      '"b"',
      '"a"@en',
      '"x"^^<http://e/dt>',
      '"abc"^^xsd:integer',
    ]);
  });
});
