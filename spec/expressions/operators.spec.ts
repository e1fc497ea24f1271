import { expect } from 'chai';
import { DataFactory } from 'n3';
import { ExpressionError, effectiveBooleanValue, valueEquals } from '../../lib/expressions/index.js';
import { ev, F, T, table, term } from './helpers.js';

describe('expressions: operators', () => {
  describe('|| and && (error-tolerant truth tables, §17.2)', () => {
    // ?e is an error (unbound); true/false literal operands.
    table([
      ['true || true', T],
      ['true || false', T],
      ['false || true', T],
      ['false || false', F],
      ['true || ?e', T],
      ['?e || true', T],
      ['false || ?e', 'error'],
      ['?e || false', 'error'],
      ['?e || ?e', 'error'],
      ['true && true', T],
      ['true && false', F],
      ['false && true', F],
      ['false && false', F],
      ['true && ?e', 'error'],
      ['?e && true', 'error'],
      ['false && ?e', F],
      ['?e && false', F],
      ['?e && ?e', 'error'],
      ['1 || 0', T],
      ['"" || 0', F],
      ['"x" && 2.5', T],
      ['(1/0) || true', T],
      ['<http://example.org/x> || true', T],
      ['<http://example.org/x> && true', 'error'],
    ]);
  });

  describe('! (logical not)', () => {
    table([
      ['!true', F],
      ['!false', T],
      ['!0', T],
      ['!"abc"', F],
      ['!""', T],
      ['!?e', 'error'],
      ['!<http://example.org/x>', 'error'],
      ['!"2024-01-01T00:00:00Z"^^xsd:dateTime', 'error'],
    ]);
  });

  describe('effective boolean value (§17.2.2)', () => {
    const cases: [string, boolean | 'error'][] = [
      ['true', true],
      ['false', false],
      ['"1"^^xsd:boolean', true],
      ['"0"^^xsd:boolean', false],
      ['"maybe"^^xsd:boolean', false],
      ['1', true],
      ['0', false],
      ['0.0', false],
      ['-0e0', false],
      ['"NaN"^^xsd:double', false],
      ['"INF"^^xsd:double', true],
      ['0.01e0', true],
      ['"abc"^^xsd:integer', false],
      ['"0"^^xsd:unsignedByte', false],
      ['"abc"', true],
      ['""', false],
      ['"abc"^^xsd:string', true],
      ['"abc"@en', true],
      ['""@en', false],
      ['<http://example.org/x>', 'error'],
      ['"2024-01-01"^^xsd:date', 'error'],
      ['"x"^^<http://example.org/dt>', 'error'],
    ];
    for (const [text, expected] of cases) {
      it(`EBV(${text}) = ${String(expected)}`, () => {
        const v = term(text);
        if (expected === 'error') expect(() => effectiveBooleanValue(v)).to.throw(ExpressionError);
        else expect(effectiveBooleanValue(v)).to.equal(expected);
      });
    }
    it('a blank node has no EBV', () => {
      expect(() => effectiveBooleanValue(DataFactory.blankNode('b'))).to.throw(ExpressionError);
    });
  });

  describe('= and != (RDFterm-equal and value equality)', () => {
    table([
      ['"abc" = "abc"', T],
      ['"abc" = "abc"^^xsd:string', T],
      ['"abc" = "abd"', F],
      ['"abc"@en = "abc"@EN', T],
      ['"abc"@en = "abc"@fr', F],
      ['"abc"@en = "abc"', F],
      ['"abc"@en != "abc"', T],
      ['"abc"@en = "abc"^^xsd:integer', F],
      ['"abc"@en = "abc"^^<http://example.org/unknown>', F],
      ['"abc" = "abc"^^xsd:integer', 'error'],
      ['"abc" = "abc"^^<http://example.org/unknown>', 'error'],
      ['"abc" != "abc"^^<http://example.org/unknown>', 'error'],
      ['"a"^^<http://example.org/dt> = "a"^^<http://example.org/dt>', T],
      ['"a"^^<http://example.org/dt> != "a"^^<http://example.org/dt>', F],
      ['"a"^^<http://example.org/dt> = "b"^^<http://example.org/dt>', 'error'],
      ['"a"^^<http://example.org/dt> != "b"^^<http://example.org/dt>', 'error'],
      ['"a"^^<http://example.org/dt> = "a"^^<http://example.org/other>', 'error'],
      ['1 = "1"', F],
      ['1 != "1"', T],
      ['true = 1', F],
      ['true = "true"^^xsd:boolean', T],
      ['true = "1"^^xsd:boolean', T],
      ['false != "0"^^xsd:boolean', F],
      ['<http://example.org/a> = <http://example.org/a>', T],
      ['<http://example.org/a> = <http://example.org/b>', F],
      ['<http://example.org/a> != <http://example.org/b>', T],
      ['<http://example.org/a> = "http://example.org/a"', F],
      ['<http://example.org/a> = "x"^^<http://example.org/dt>', F],
      ['"2024-01-01"^^xsd:date = "2024-01-01T00:00:00"^^xsd:dateTime', F],
      ['"P1D"^^xsd:dayTimeDuration = "PT24H"^^xsd:dayTimeDuration', T],
      ['"P1Y"^^xsd:yearMonthDuration = "P12M"^^xsd:duration', T],
      ['"P1M"^^xsd:duration = "P30D"^^xsd:duration', F],
      ['"P1Q"^^xsd:duration = "P1Q"^^xsd:duration', T],
      ['"P1Q"^^xsd:duration = "P1D"^^xsd:duration', 'error'],
      ['?e = 1', 'error'],
    ]);

    it('blank nodes are equal only to themselves', () => {
      const b = DataFactory.blankNode('b1');
      expect(ev('?x = ?y', { x: b, y: b })).to.equal(T);
      expect(ev('?x = ?y', { x: b, y: DataFactory.blankNode('b2') })).to.equal(F);
      expect(ev('?x != ?y', { x: b, y: '"b1"' })).to.equal(T);
    });

    it('valueEquals is exported and throws where = errors', () => {
      expect(valueEquals(term('1'), term('1.0'))).to.equal(true);
      expect(() => valueEquals(term('"x"'), term('"x"^^<http://example.org/dt>'))).to.throw(ExpressionError);
    });
  });

  describe('< > <= >= on strings, booleans and other types', () => {
    table([
      ['"a" < "b"', T],
      ['"abc" < "abd"', T],
      ['"ab" < "abc"', T],
      ['"b" > "abc"', T],
      ['"a" <= "a"^^xsd:string', T],
      ['"Z" < "a"', T],
      // Code point order: U+FFFD sorts before U+1F600 (UTF-16 order would say the opposite).
      ['"\\uFFFD" < "\\U0001F600"', T],
      ['"a"@en < "b"@en', 'error'],
      ['"a"@en < "b"', 'error'],
      ['false < true', T],
      ['true <= false', F],
      ['true >= true', T],
      ['false < 1', 'error'],
      ['"a" < 1', 'error'],
      // two IRIs are ordered by code point, as RDFox orders them; an IRI against a literal is still an error
      ['<http://example.org/a> < <http://example.org/b>', T],
      ['<http://example.org/B> < <http://example.org/a>', T],
      ['<http://example.org/a> >= <http://example.org/a>', T],
      ['<http://example.org/a> < "b"', 'error'],
      ['<http://example.org/a> > 1', 'error'],
      ['"x"^^<http://example.org/dt> < "y"^^<http://example.org/dt>', 'error'],
      ['"PT1H"^^xsd:dayTimeDuration < "PT61M"^^xsd:dayTimeDuration', T],
      ['"P1Y"^^xsd:yearMonthDuration > "P11M"^^xsd:yearMonthDuration', T],
      ['"P1Y"^^xsd:duration > "P11M"^^xsd:duration', 'error'],
      ['"PT1H"^^xsd:dayTimeDuration < "P1M"^^xsd:yearMonthDuration', 'error'],
    ]);
  });

  describe('IN and NOT IN', () => {
    table(
      [
        ['2 IN (1, 2, 3)', T],
        ['2 IN (1.0, 2.0)', T],
        ['2 IN ()', F],
        ['2 NOT IN ()', T],
        ['2 IN (1, 3)', F],
        ['2 NOT IN (1, 3)', T],
        ['2 NOT IN (1, 2)', F],
        ['2 IN (?e, 2)', T],
        ['2 IN (1/0, 2)', T],
        ['2 IN (?e, 3)', 'error'],
        ['2 NOT IN (?e, 2)', F],
        ['2 NOT IN (?e, 3)', 'error'],
        ['?e IN (1, 2)', 'error'],
        ['"a" IN ("a"@en, "b")', F],
        ['<http://example.org/a> IN (<http://example.org/b>, <http://example.org/a>)', T],
        ['"x" IN ("y"^^<http://example.org/dt>)', 'error'],
        ['?x IN (1, 2)', T],
      ],
      { x: '1' },
    );
  });

  describe('IF, COALESCE, BOUND, sameTerm', () => {
    table(
      [
        ['IF(true, "yes", "no")', '"yes"'],
        ['IF(false, "yes", "no")', '"no"'],
        ['IF(1/0, "yes", "no")', 'error'],
        ['IF(?e, "yes", "no")', 'error'],
        ['IF(true, "yes", ?e)', '"yes"'],
        ['IF(false, 1/0, 2)', '"2"^^xsd:integer'],
        ['IF("", 1, 2)', '"2"^^xsd:integer'],
        ['COALESCE(?e, 1/0, 3, ?x)', '"3"^^xsd:integer'],
        ['COALESCE(?x, 3)', '"1"^^xsd:integer'],
        ['COALESCE(?e)', 'error'],
        ['COALESCE()', 'error'],
        ['BOUND(?x)', T],
        ['BOUND(?e)', F],
        ['!BOUND(?e)', T],
        ['sameTerm(1, 1)', T],
        ['sameTerm(1, 1.0)', F],
        ['sameTerm(1, "01"^^xsd:integer)', F],
        ['sameTerm("a", "a"^^xsd:string)', T],
        ['sameTerm("a"@en, "a"@EN)', T],
        ['sameTerm("a"@en, "a")', F],
        ['sameTerm("x"^^<http://example.org/dt>, "x"^^<http://example.org/dt>)', T],
        ['sameTerm(<http://example.org/a>, <http://example.org/a>)', T],
        ['sameTerm(<http://example.org/a>, "http://example.org/a")', F],
        ['sameTerm(?e, 1)', 'error'],
      ],
      { x: '1' },
    );
  });
});
