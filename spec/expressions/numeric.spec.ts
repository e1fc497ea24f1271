import { expect } from 'chai';
import { ev, table } from './helpers.js';

/** Asserts a table of expression → rendered result. */

describe('expressions: numbers', () => {
  describe('arithmetic and type promotion', () => {
    table([
      ['1 + 2', '"3"^^xsd:integer'],
      ['1 + 2.5', '"3.5"^^xsd:decimal'],
      ['1.5 + 2', '"3.5"^^xsd:decimal'],
      ['1 + 2e0', '"3.0E0"^^xsd:double'],
      ['1.5 * 2e0', '"3.0E0"^^xsd:double'],
      ['xsd:float(1.5) * 2', '"3.0E0"^^xsd:float'],
      ['1.5 * xsd:float(2)', '"3.0E0"^^xsd:float'],
      ['xsd:float(1.5) + 1e0', '"2.5E0"^^xsd:double'],
      ['"2"^^xsd:short + "3"^^xsd:byte', '"5"^^xsd:integer'],
      ['"2"^^xsd:unsignedLong * 3', '"6"^^xsd:integer'],
      ['7 - 10', '"-3"^^xsd:integer'],
      ['7.25 - 0.25', '"7.0"^^xsd:decimal'],
      ['6 / 3', '"2.0"^^xsd:decimal'],
      ['1 / 2', '"0.5"^^xsd:decimal'],
      ['1 / 8', '"0.125"^^xsd:decimal'],
      ['-1 / 4', '"-0.25"^^xsd:decimal'],
      ['1 / 3', '"0.333333333333333333333333"^^xsd:decimal'],
      ['2 / 3', '"0.666666666666666666666667"^^xsd:decimal'],
      ['1e0 / 4', '"2.5E-1"^^xsd:double'],
      ['xsd:float(1) / 3', '"3.3333334E-1"^^xsd:float'],
    ]);
  });

  describe('exact decimals and big integers', () => {
    table([
      ['0.1 + 0.2', '"0.3"^^xsd:decimal'],
      ['0.1 * 3', '"0.3"^^xsd:decimal'],
      ['1.10 + 2.20', '"3.3"^^xsd:decimal'],
      ['0.3 - 0.1', '"0.2"^^xsd:decimal'],
      ['123456789012345678901234567890.5 + 0.5', '"123456789012345678901234567891.0"^^xsd:decimal'],
      ['0.000000000000000000000000000001 * 0.000000000000000000000000000001', '"0.000000000000000000000000000000000000000000000000000000000001"^^xsd:decimal'],
      ['9007199254740993 + 1', '"9007199254740994"^^xsd:integer'],
      ['123456789012345678901234567890 * 987654321098765432109876543210', '"121932631137021795226185032733622923332237463801111263526900"^^xsd:integer'],
      ['-9223372036854775808 - 1', '"-9223372036854775809"^^xsd:integer'],
      ['1 / 3 * 3', '"0.999999999999999999999999"^^xsd:decimal'],
      ['0.1 + 0.2 = 0.3', '"true"^^xsd:boolean'],
      ['0.1e0 + 0.2e0 = 0.3e0', '"false"^^xsd:boolean'],
    ]);
  });

  describe('division by zero', () => {
    table([
      ['1 / 0', 'error'],
      ['1.5 / 0.0', 'error'],
      ['0 / 0', 'error'],
      ['1 / 0e0', '"INF"^^xsd:double'],
      ['-1 / 0e0', '"-INF"^^xsd:double'],
      ['0e0 / 0', '"NaN"^^xsd:double'],
      ['xsd:float(1) / 0', '"INF"^^xsd:float'],
      ['1e0 / -0e0', '"-INF"^^xsd:double'],
    ]);
  });

  describe('errors', () => {
    table([
      ['"abc"^^xsd:integer + 1', 'error'],
      ['"1.5"^^xsd:integer + 1', 'error'],
      ['"300"^^xsd:byte + 1', 'error'],
      ['"-1"^^xsd:nonNegativeInteger * 1', 'error'],
      ['"1" + 1', 'error'],
      ['true + 1', 'error'],
      ['<http://example.org/x> + 1', 'error'],
      ['?unbound + 1', 'error'],
      ['-"a"', 'error'],
      ['"1"^^<http://example.org/number> + 1', 'error'],
    ]);
  });

  describe('unary operators and special values', () => {
    table([
      ['-(3)', '"-3"^^xsd:integer'],
      ['-(1.50)', '"-1.5"^^xsd:decimal'],
      ['-(0e0)', '"-0.0E0"^^xsd:double'],
      ['+"05"^^xsd:int', '"5"^^xsd:integer'],
      ['+(2.0)', '"2.0"^^xsd:decimal'],
      ['-(-(2))', '"2"^^xsd:integer'],
      ['"INF"^^xsd:double + 1', '"INF"^^xsd:double'],
      ['"-INF"^^xsd:double * 0', '"NaN"^^xsd:double'],
      ['"+INF"^^xsd:double - "INF"^^xsd:double', '"NaN"^^xsd:double'],
      ['"1e400"^^xsd:double * 1', '"INF"^^xsd:double'],
      ['1.0e6 * 1', '"1.0E6"^^xsd:double'],
      ['1.5e-7 * 1', '"1.5E-7"^^xsd:double'],
      ['123456.789e3 * 1', '"1.23456789E8"^^xsd:double'],
      ['"0.1"^^xsd:float * 1', '"1.0E-1"^^xsd:float'],
    ]);
  });

  describe('float rounding is done once', () => {
    table([
      ['xsd:float("16777217")', '"1.6777216E7"^^xsd:float'],
      ['xsd:float("16777219")', '"1.677722E7"^^xsd:float'],
      // Just above the midpoint between 1 and the next float; a double-then-float rounding gives 1.
      ['xsd:float("1.00000005960464477539062500001")', '"1.0000001E0"^^xsd:float'],
      ['xsd:float("1.00000005960464477539062499999")', '"1.0E0"^^xsd:float'],
      ['xsd:float(16777217)', '"1.6777216E7"^^xsd:float'],
      ['xsd:float("3.4028235e38")', '"3.4028235E38"^^xsd:float'],
      ['xsd:float("3.5e38")', '"INF"^^xsd:float'],
      ['xsd:float("1e-46")', '"0.0E0"^^xsd:float'],
    ]);
  });

  describe('comparison', () => {
    table([
      ['1 = 1.0', '"true"^^xsd:boolean'],
      ['1 = 1e0', '"true"^^xsd:boolean'],
      ['"01"^^xsd:integer = 1', '"true"^^xsd:boolean'],
      ['"1"^^xsd:byte = 1.0', '"true"^^xsd:boolean'],
      ['1 != 2.5', '"true"^^xsd:boolean'],
      ['1 < 1.5', '"true"^^xsd:boolean'],
      ['2 >= 1.5e0', '"true"^^xsd:boolean'],
      ['xsd:float(0.1) = 0.1e0', '"false"^^xsd:boolean'],
      ['xsd:float(0.5) = 0.5e0', '"true"^^xsd:boolean'],
      ['99999999999999999999 < 100000000000000000000', '"true"^^xsd:boolean'],
      ['"NaN"^^xsd:double = "NaN"^^xsd:double', '"false"^^xsd:boolean'],
      ['"NaN"^^xsd:double != "NaN"^^xsd:double', '"true"^^xsd:boolean'],
      ['"NaN"^^xsd:double < 1', '"false"^^xsd:boolean'],
      ['"NaN"^^xsd:double >= 1', '"false"^^xsd:boolean'],
      ['"INF"^^xsd:double > 1e308', '"true"^^xsd:boolean'],
      ['0e0 = -0e0', '"true"^^xsd:boolean'],
      ['"abc"^^xsd:integer < 1', 'error'],
      ['"abc"^^xsd:integer = "abc"^^xsd:integer', '"true"^^xsd:boolean'],
      ['"abc"^^xsd:integer != "abc"^^xsd:integer', '"false"^^xsd:boolean'],
      ['"abc"^^xsd:integer = 1', 'error'],
      ['1 < "2"', 'error'],
    ]);
  });

  describe('ABS, ROUND, CEIL, FLOOR, RAND', () => {
    table([
      ['ABS(-1)', '"1"^^xsd:integer'],
      ['ABS(-1.5)', '"1.5"^^xsd:decimal'],
      ['ABS(-1.5e0)', '"1.5E0"^^xsd:double'],
      ['ABS(xsd:float(-2))', '"2.0E0"^^xsd:float'],
      ['ABS("-5"^^xsd:int)', '"5"^^xsd:integer'],
      ['ABS("a")', 'error'],
      ['ROUND(2.5)', '"3.0"^^xsd:decimal'],
      ['ROUND(2.4999)', '"2.0"^^xsd:decimal'],
      ['ROUND(-2.5)', '"-2.0"^^xsd:decimal'],
      ['ROUND(-2.51)', '"-3.0"^^xsd:decimal'],
      ['ROUND(-2.5e0)', '"-2.0E0"^^xsd:double'],
      ['ROUND(-0.4e0)', '"-0.0E0"^^xsd:double'],
      ['ROUND(7)', '"7"^^xsd:integer'],
      ['ROUND("NaN"^^xsd:double)', '"NaN"^^xsd:double'],
      ['CEIL(10.5)', '"11.0"^^xsd:decimal'],
      ['CEIL(-10.5)', '"-10.0"^^xsd:decimal'],
      ['CEIL(-0.5e0)', '"-0.0E0"^^xsd:double'],
      ['FLOOR(10.5)', '"10.0"^^xsd:decimal'],
      ['FLOOR(-10.5)', '"-11.0"^^xsd:decimal'],
      ['FLOOR(-10.5e0)', '"-1.1E1"^^xsd:double'],
      ['FLOOR(3)', '"3"^^xsd:integer'],
      ['FLOOR("INF"^^xsd:double)', '"INF"^^xsd:double'],
      ['FLOOR(<http://example.org/>)', 'error'],
    ]);

    it('RAND() is a double in [0, 1), different on each call', () => {
      const values = new Set<string>();
      for (let i = 0; i < 20; i++) {
        const r = ev('RAND()');
        const m = /^"(.*)"\^\^xsd:double$/.exec(r);
        expect(m).to.not.equal(null);
        const v = Number(m![1]);
        expect(v).to.be.at.least(0).and.below(1);
        values.add(r);
      }
      expect(values.size).to.be.greaterThan(1);
    });
  });

  describe('isNUMERIC', () => {
    table([
      ['isNUMERIC(12)', '"true"^^xsd:boolean'],
      ['isNUMERIC(1.5e0)', '"true"^^xsd:boolean'],
      ['isNUMERIC("12")', '"false"^^xsd:boolean'],
      ['isNUMERIC("1500"^^xsd:nonNegativeInteger)', '"true"^^xsd:boolean'],
      ['isNUMERIC("1200"^^xsd:byte)', '"false"^^xsd:boolean'],
      ['isNUMERIC("abc"^^xsd:decimal)', '"false"^^xsd:boolean'],
      ['isNUMERIC("INF"^^xsd:float)', '"true"^^xsd:boolean'],
      ['isNUMERIC(<http://example.org/>)', '"false"^^xsd:boolean'],
    ]);
  });
});
