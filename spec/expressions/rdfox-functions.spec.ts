/**
 * RDFox's function library in the shared evaluator: the XPath math: and fn: functions by IRI,
 * RDFox's unprefixed names (rewritten to those IRIs as the parsers do), and RDFox's own
 * functions, with their result datatypes, edge cases and errors.
 */
import { expect } from 'chai';
import { DataFactory } from 'n3';
import { compileExpression, ExpressionError } from '../../lib/expressions/index.js';
import { FUNCTION_LIBRARY } from '../../lib/expressions/function-library.js';
import { rewriteFunctionNames } from '../../lib/expressions/function-names.js';
import { context, ev, expr, F, T } from './helpers.js';

const MATH = 'http://www.w3.org/2005/xpath-functions/math#';
const FN = 'http://www.w3.org/2005/xpath-functions#';

/** Evaluates expression text written with RDFox's unprefixed names. */
function fx(text: string, bindings: Record<string, string> = {}): string {
  return ev(rewriteFunctionNames(text).text, bindings);
}

/** One test per row, with {@link fx}. */
function rows(list: readonly (readonly [string, string])[]): void {
  for (const [text, expected] of list) {
    it(`${text} → ${expected}`, () => {
      expect(fx(text)).to.equal(expected);
    });
  }
}

/** The number of an `"…"^^xsd:double` result. */
function doubleOf(text: string): number {
  const m = /^"(.*)"\^\^xsd:double$/.exec(fx(text));
  expect(m, `${text} gives an xsd:double`).to.not.equal(null);
  const lexical = m![1]!;
  return lexical === 'INF' ? Infinity : lexical === '-INF' ? -Infinity : Number(lexical);
}

/** One test per row: the double result is within a relative 1e-14 of the expected number (exact for NaN, infinities and zeros). */
function doubles(list: readonly (readonly [string, number])[]): void {
  for (const [text, expected] of list) {
    it(`${text} ≈ ${expected}`, () => {
      const v = doubleOf(text);
      if (Number.isNaN(expected) || !Number.isFinite(expected) || expected === 0) expect(Object.is(v, expected), `${v}`).to.equal(true);
      else expect(Math.abs(v - expected) / Math.abs(expected)).to.be.below(1e-14);
    });
  }
}

describe('expressions: RDFox functions', () => {
  describe('XPath math functions by their unprefixed names', () => {
    doubles([
      ['PI()', Math.PI],
      ['SQRT(16)', 4],
      ['SQRT(2.25)', 1.5],
      ['SQRT(-1)', NaN],
      ['SQRT(-0.0e0)', -0],
      ['LOG(1)', 0],
      ['LOG(EXP(2))', 2],
      ['LOG(0)', -Infinity],
      ['LOG(-1)', NaN],
      ['LOG10(1000)', 3],
      ['LOG10(0.001)', -3],
      ['EXP(0)', 1],
      ['EXP(1)', Math.E],
      ['EXP10(2)', 100],
      ['EXP10(-1)', 0.1],
      ['EXP10(0.5)', 3.1622776601683795],
      ['POW(2, 10)', 1024],
      ['POW(-2, 3)', -8],
      ['POW(2, -3)', 0.125],
      ['POW(16, 0.25e0)', 2],
      ['POW(0, 0)', 1],
      ['POW(0e0, -3)', Infinity],
      ['POW(-0e0, -3)', -Infinity],
      ['POW(-8, 0.333e0)', NaN],
      ['POW(1, "NaN"^^xsd:double)', 1],
      ['POW(-1, "INF"^^xsd:double)', 1],
      ['POW("NaN"^^xsd:double, 0)', 1],
      ['SIN(0)', 0],
      ['SIN(PI() / 2)', 1],
      ['COS(0)', 1],
      ['COS(PI())', -1],
      ['TAN(PI() / 4)', 0.9999999999999999],
      ['TAN("INF"^^xsd:double)', NaN],
      ['ASIN(1)', Math.PI / 2],
      ['ASIN(2)', NaN],
      ['ACOS(1)', 0],
      ['ACOS(-1)', Math.PI],
      ['ATAN(1)', Math.PI / 4],
      ['ATAN2(1, 1)', Math.PI / 4],
      ['ATAN2(1, -1)', (3 * Math.PI) / 4],
      ['ATAN2(0, -1)', Math.PI],
      ['ATAN2(-0.0e0, -1)', -Math.PI],
    ]);
    rows([
      ['SQRT(4)', '"2.0E0"^^xsd:double'],
      ['LOG(1)', '"0.0E0"^^xsd:double'],
      ['LOG(0)', '"-INF"^^xsd:double'],
      ['SQRT(-1)', '"NaN"^^xsd:double'],
      ['POW(2, 3)', '"8.0E0"^^xsd:double'],
      ['PI()', '"3.141592653589793E0"^^xsd:double'],
      ['sqrt(9)', '"3.0E0"^^xsd:double'],
      ['Log10(100)', '"2.0E0"^^xsd:double'],
      ['SQRT("2"^^xsd:float)', '"1.4142135623730951E0"^^xsd:double'],
      ['SQRT("16"^^xsd:unsignedByte)', '"4.0E0"^^xsd:double'],
    ]);
    describe('errors', () => {
      rows([
        ['SQRT("4")', 'error'],
        ['LOG("1"^^xsd:string)', 'error'],
        ['EXP(true)', 'error'],
        ['SIN(<http://example.org/x>)', 'error'],
        ['COS("abc"^^xsd:integer)', 'error'],
        ['POW(2, "x")', 'error'],
        ['LOG(1/0)', 'error'],
        ['SQRT("2011-01-10"^^xsd:date)', 'error'],
      ]);
      it('an unbound argument is an error', () => {
        expect(fx('LOG(?unbound)')).to.equal('error');
      });
    });
  });

  describe('the same functions by IRI', () => {
    rows([
      [`<${MATH}log>(1)`, '"0.0E0"^^xsd:double'],
      [`<${MATH}sqrt>(16)`, '"4.0E0"^^xsd:double'],
      [`<${MATH}pow>(2, 3)`, '"8.0E0"^^xsd:double'],
      [`<${MATH}pi>()`, '"3.141592653589793E0"^^xsd:double'],
      [`<${MATH}exp10>(3)`, '"1.0E3"^^xsd:double'],
      [`<${MATH}atan2>(0, 1)`, '"0.0E0"^^xsd:double'],
    ]);
    describe('a wrong number of arguments is an error when evaluated', () => {
      rows([
        [`<${MATH}log>(1, 2)`, 'error'],
        [`<${MATH}log>()`, 'error'],
        [`<${MATH}pi>(1)`, 'error'],
        [`<${MATH}pow>(2)`, 'error'],
        [`<${FN}substring>("abc")`, 'error'],
      ]);
      it('compiles, and fails only when evaluated', () => {
        const f = compileExpression(expr(`<${MATH}log>(1, 2)`), context);
        expect(() => f(() => undefined)).to.throw(ExpressionError, /takes 1 argument, got 2/);
        expect(ev(`COALESCE(<${MATH}log>(1, 2), "fallback")`)).to.equal('"fallback"');
      });
    });
  });

  describe("RDFox's additional math functions", () => {
    doubles([
      ['CBRT(27)', 3],
      ['CBRT(-8)', -2],
      ['HYPOT(3, 4)', 5],
      ['HYPOT("INF"^^xsd:double, "NaN"^^xsd:double)', Infinity],
      ['LOG2(1024)', 10],
      ['LOG2(0)', -Infinity],
      ['EXP2(10)', 1024],
      ['EXP2(-1)', 0.5],
      ['SINH(0)', 0],
      ['SINH(1)', 1.1752011936438014],
      ['COSH(0)', 1],
      ['TANH(1000)', 1],
      ['ASINH(1)', 0.881373587019543],
      ['ACOSH(2)', 1.3169578969248166],
      ['ACOSH(0.5)', NaN],
      ['ATANH(0.5)', 0.5493061443340548],
      ['ATANH(1)', Infinity],
      ['ERF(0)', 0],
      ['ERF(1)', 0.8427007929497149],
      ['ERF(-1.5)', -0.9661051464753108],
      ['ERF(10)', 1],
      ['ERFC(1)', 0.15729920705028513],
      ['ERFC(3)', 2.2090496998585438e-5],
      ['ERFC(-1)', 1.842700792949715],
      ['GAMMA(5)', 24],
      ['GAMMA(0.5)', 1.7724538509055159],
      ['GAMMA(-1.5)', 2.3632718012073544],
      ['GAMMA(0)', Infinity],
      ['GAMMA(-2)', NaN],
      ['GAMMA(200)', Infinity],
      ['LGAMMA(1)', 0],
      ['LGAMMA(10.5)', 13.940625219403763],
      ['LGAMMA(1000)', 5905.220423209181],
      ['LGAMMA(0)', Infinity],
    ]);
    rows([
      ['GAMMA(5)', '"2.4E1"^^xsd:double'],
      ['ERF("x")', 'error'],
      ['CBRT(true)', 'error'],
    ]);
  });

  describe('MINFN and MAXFN', () => {
    rows([
      ['MINFN(3, 1.5, 2e0)', '"1.5"^^xsd:decimal'],
      ['MAXFN(3, 1.5, 2e0)', '"3"^^xsd:integer'],
      ['MAXFN(1, 1.0)', '"1"^^xsd:integer'],
      ['MINFN(7)', '"7"^^xsd:integer'],
      ['MAXFN("apple", "pear", "fig")', '"pear"'],
      ['MINFN("2020-01-01"^^xsd:date, "2019-12-31"^^xsd:date)', '"2019-12-31"^^xsd:date'],
      ['MAXFN(1, "NaN"^^xsd:double, 3)', '"NaN"^^xsd:double'],
      ['MAXFN(false, true)', T],
      ['MAXFN(1, "b")', 'error'],
      // IRIs are ordered among themselves as `<` orders them; an IRI and a literal are not
      ['MINFN(<http://example.org/b>, <http://example.org/a>)', '<http://example.org/a>'],
      ['MINFN(<http://example.org/a>)', '<http://example.org/a>'],
      ['MAXFN(<http://example.org/a>, 1)', 'error'],
      ['MAXFN(1, ?unbound)', 'error'],
    ]);
  });

  describe('IDIV and MOD (XPath op:numeric-integer-divide and op:numeric-mod)', () => {
    rows([
      ['IDIV(7, 2)', '"3"^^xsd:integer'],
      ['IDIV(-7, 2)', '"-3"^^xsd:integer'],
      ['IDIV(7, -2)', '"-3"^^xsd:integer'],
      ['IDIV(7.5, 2)', '"3"^^xsd:integer'],
      ['IDIV(-3.5, 0.5)', '"-7"^^xsd:integer'],
      ['IDIV(10e0, 3)', '"3"^^xsd:integer'],
      ['IDIV(1e300, 1e-10)', 'error'],
      ['IDIV(5, "INF"^^xsd:double)', '"0"^^xsd:integer'],
      ['IDIV(1, 0)', 'error'],
      ['IDIV(1.5, 0.0)', 'error'],
      ['IDIV(1e0, 0)', 'error'],
      ['IDIV("INF"^^xsd:double, 2)', 'error'],
      ['IDIV(1, "NaN"^^xsd:double)', 'error'],
      ['IDIV("7", 2)', 'error'],
      ['MOD(7, 2)', '"1"^^xsd:integer'],
      ['MOD(-7, 2)', '"-1"^^xsd:integer'],
      ['MOD(7, -2)', '"1"^^xsd:integer'],
      ['MOD(7.5, 2)', '"1.5"^^xsd:decimal'],
      ['MOD(-7.5, 2)', '"-1.5"^^xsd:decimal'],
      ['MOD(10e0, 3)', '"1.0E0"^^xsd:double'],
      ['MOD(7e0, 0)', '"NaN"^^xsd:double'],
      ['MOD("INF"^^xsd:double, 2)', '"NaN"^^xsd:double'],
      ['MOD(5e0, "INF"^^xsd:double)', '"5.0E0"^^xsd:double'],
      ['MOD("7.5"^^xsd:float, 2)', '"1.5E0"^^xsd:float'],
      ['MOD(1, 0)', 'error'],
      ['MOD(1.5, 0.0)', 'error'],
      ['MOD(true, 2)', 'error'],
    ]);
    it('IDIV of huge doubles gives the exact integer', () => {
      expect(fx('IDIV(1e20, 1)')).to.equal('"100000000000000000000"^^xsd:integer');
    });
  });

  describe('functions on terms: isInteger, isDecimal, STREX', () => {
    rows([
      ['ISINTEGER(1)', T],
      ['ISINTEGER("5"^^xsd:byte)', T],
      ['ISINTEGER(1.0)', F],
      ['ISINTEGER(1e0)', F],
      ['ISINTEGER("1")', F],
      ['ISINTEGER("x"^^xsd:integer)', F],
      ['ISINTEGER(<http://example.org/1>)', F],
      ['isInteger(-3)', T],
      ['ISDECIMAL(1.5)', T],
      ['ISDECIMAL(1)', F],
      ['ISDECIMAL("2.5"^^xsd:double)', F],
      ['ISDECIMAL("1.x"^^xsd:decimal)', F],
      ['STREX(<http://example.org/a>)', '"http://example.org/a"'],
      ['STREX("chat"@fr)', '"chat"'],
      ['STREX(12)', '"12"'],
    ]);
    it('STREX of a blank node is its label, where STR fails', () => {
      const b = DataFactory.blankNode('b7');
      expect(ev(rewriteFunctionNames('STREX(?b)').text, { b })).to.equal('"_:b7"');
      expect(ev('STR(?b)', { b })).to.equal('error');
    });
  });

  describe('ESCAPE_HTML_URI, IRI_TO_URI, and the fn: names of the SPARQL string and numeric functions', () => {
    rows([
      ['ESCAPE_HTML_URI("http://www.example.com/00/Weather/CA/Los Angeles#ocean")', '"http://www.example.com/00/Weather/CA/Los Angeles#ocean"'],
      ['ESCAPE_HTML_URI("javascript:if (navigator.browserLanguage == \'fr\') window.open(\'http://www.example.com/~bébé\');")', '"javascript:if (navigator.browserLanguage == \'fr\') window.open(\'http://www.example.com/~b%C3%A9b%C3%A9\');"'],
      ['ESCAPE_HTML_URI("tab\\there")', '"tab%09here"'],
      ['IRI_TO_URI("http://www.example.com/00/Weather/CA/Los%20Angeles#ocean")', '"http://www.example.com/00/Weather/CA/Los%20Angeles#ocean"'],
      ['IRI_TO_URI("http://www.example.com/~bébé")', '"http://www.example.com/~b%C3%A9b%C3%A9"'],
      ['IRI_TO_URI("a b<c>\\"d{e}|f\\\\g^h`i")', '"a%20b%3Cc%3E%22d%7Be%7D%7Cf%5Cg%5Eh%60i"'],
      ['IRI_TO_URI("chat"@fr)', '"chat"'],
      ['IRI_TO_URI(<http://example.org/>)', 'error'],
      ['ESCAPE_HTML_URI(1)', 'error'],
      [`<${FN}upper-case>("abc")`, '"ABC"'],
      [`<${FN}lower-case>("ABC"@en)`, '"abc"@en'],
      [`<${FN}string-length>("chat")`, '"4"^^xsd:integer'],
      [`<${FN}substring>("motor car", 6)`, '" car"'],
      [`<${FN}substring>("metadata", 4, 3)`, '"ada"'],
      [`<${FN}substring-before>("tattoo", "attoo")`, '"t"'],
      [`<${FN}substring-after>("tattoo", "tat")`, '"too"'],
      [`<${FN}starts-with>("tattoo", "tat")`, T],
      [`<${FN}ends-with>("tattoo", "too")`, T],
      [`<${FN}contains>("tattoo", "t")`, T],
      [`<${FN}concat>("a", "b", "c")`, '"abc"'],
      [`<${FN}matches>("abracadabra", "^a.*a$")`, T],
      [`<${FN}replace>("abracadabra", "bra", "*")`, '"a*cada*"'],
      [`<${FN}encode-for-uri>("a b")`, '"a%20b"'],
      [`<${FN}escape-html-uri>("é")`, '"%C3%A9"'],
      [`<${FN}iri-to-uri>("é")`, '"%C3%A9"'],
      [`<${FN}abs>(-2)`, '"2"^^xsd:integer'],
      [`<${FN}round>(2.5)`, '"3.0"^^xsd:decimal'],
      [`<${FN}ceiling>(1.1)`, '"2.0"^^xsd:decimal'],
      [`<${FN}floor>(-1.1)`, '"-2.0"^^xsd:decimal'],
      [`<${FN}not>(0)`, T],
      [`<${FN}not>("x")`, F],
      [`<${FN}upper-case>(1)`, 'error'],
      [`<${FN}contains>("a")`, 'error'],
    ]);
  });

  describe('constructors of dates, times and durations', () => {
    rows([
      ['DATE_TIME(2024, 2, 29, 10, 30, 15.5)', '"2024-02-29T10:30:15.5"^^xsd:dateTime'],
      ['DATE_TIME(2024, 2, 29, 10, 30, 0, 60)', '"2024-02-29T10:30:00+01:00"^^xsd:dateTime'],
      ['DATE_TIME(2024, 2, 29, 10, 30, 0, -330)', '"2024-02-29T10:30:00-05:30"^^xsd:dateTime'],
      ['DATE_TIME(2024, 2, 29, 10, 30, 0, "PT0S"^^xsd:dayTimeDuration)', '"2024-02-29T10:30:00Z"^^xsd:dateTime'],
      ['DATE_TIME(-44, 3, 15, 12, 0, 0)', '"-0044-03-15T12:00:00"^^xsd:dateTime'],
      ['DATE_TIME(2024, 12, 31, 24, 0, 0)', '"2025-01-01T00:00:00"^^xsd:dateTime'],
      ['DATE_TIME(2024.0, 2, 3, 4, 5, 6e0)', '"2024-02-03T04:05:06"^^xsd:dateTime'],
      ['YEAR(DATE_TIME(2024, 2, 29, 10, 30, 0))', '"2024"^^xsd:integer'],
      ['DATE_TIME(2023, 2, 29, 0, 0, 0)', 'error'],
      ['DATE_TIME(2024, 13, 1, 0, 0, 0)', 'error'],
      ['DATE_TIME(2024, 1, 1, 25, 0, 0)', 'error'],
      ['DATE_TIME(2024, 1, 1, 0, 60, 0)', 'error'],
      ['DATE_TIME(2024, 1, 1, 0, 0, 60)', 'error'],
      ['DATE_TIME(2024, 1, 1, 0, 0, -1)', 'error'],
      ['DATE_TIME(2024, 1.5, 1, 0, 0, 0)', 'error'],
      ['DATE_TIME("2024", 1, 1, 0, 0, 0)', 'error'],
      ['DATE_TIME(2024, 1, 1, 0, 0, 0, 900)', 'error'],
      ['DATE_TIME(2024, 1, 1, 0, 0, 0, "PT30S"^^xsd:dayTimeDuration)', 'error'],
      ['DATE_TIME(2024, 1, 1, 0, 0, 0, "P1M"^^xsd:yearMonthDuration)', 'error'],
      ['DATE_TIME_STAMP(2024, 2, 29, 10, 30, 0, "-PT5H"^^xsd:dayTimeDuration)', '"2024-02-29T10:30:00-05:00"^^xsd:dateTimeStamp'],
      ['DATE_TIME_STAMP(2024, 2, 29, 10, 30, 0, 0)', '"2024-02-29T10:30:00Z"^^xsd:dateTimeStamp'],
      ['DATE(2024, 1, 31)', '"2024-01-31"^^xsd:date'],
      ['DATE(2024, 1, 31, 120)', '"2024-01-31+02:00"^^xsd:date'],
      ['DATE(2024, 4, 31)', 'error'],
      ['TIME(23, 59, 59.999)', '"23:59:59.999"^^xsd:time'],
      ['TIME(7, 5, 0, 0)', '"07:05:00Z"^^xsd:time'],
      ['TIME(24, 0, 1)', 'error'],
      ['G_YEAR(2024)', '"2024"^^xsd:gYear'],
      ['G_YEAR(-5, 0)', '"-0005Z"^^xsd:gYear'],
      ['G_YEAR_MONTH(2024, 2)', '"2024-02"^^xsd:gYearMonth'],
      ['G_YEAR_MONTH(2024, 0)', 'error'],
      ['G_MONTH(12, 60)', '"--12+01:00"^^xsd:gMonth'],
      ['G_MONTH(13)', 'error'],
      ['G_MONTH_DAY(2, 29)', '"--02-29"^^xsd:gMonthDay'],
      ['G_MONTH_DAY(2, 30)', 'error'],
      ['G_MONTH_DAY(4, 31)', 'error'],
      ['G_DAY(31)', '"---31"^^xsd:gDay'],
      ['G_DAY(0)', 'error'],
      ['DURATION(1, 2, 3, 4, 5, 6.5)', '"P1Y2M3DT4H5M6.5S"^^xsd:duration'],
      ['DURATION(0, 14, 0, 25, 0, 0)', '"P1Y2M1DT1H"^^xsd:duration'],
      ['DURATION(0, 0, 0, 0, 0, 0)', '"PT0S"^^xsd:duration'],
      ['DURATION(-1, 0, 0, 0, 0, -30)', '"-P1YT30S"^^xsd:duration'],
      ['DURATION(1, 0, -1, 0, 0, 0)', 'error'],
      ['DURATION(1, 0, 0, 0, 0)', 'error'],
      ['YEAR_MONTH_DURATION(1, 14)', '"P2Y2M"^^xsd:yearMonthDuration'],
      ['YEAR_MONTH_DURATION(0, -3)', '"-P3M"^^xsd:yearMonthDuration'],
      ['YEAR_MONTH_DURATION(0, 0)', '"P0M"^^xsd:yearMonthDuration'],
      ['DAY_TIME_DURATION(1, 25, 0, 0)', '"P2DT1H"^^xsd:dayTimeDuration'],
      ['DAY_TIME_DURATION(0, 0, 0, 0.25)', '"PT0.25S"^^xsd:dayTimeDuration'],
      ['DAY_TIME_DURATION(0, 0, -90, 0)', '"-PT1H30M"^^xsd:dayTimeDuration'],
      ['DAY_TIME_DURATION(0, 0, 0, "INF"^^xsd:double)', 'error'],
      ['DAY_TIME_DURATION(1, 2, 3, 4) = "P1DT2H3M4S"^^xsd:dayTimeDuration', T],
    ]);
  });

  describe('dates, times and durations', () => {
    rows([
      // YEAR, MONTH, DAY of every type that has the field
      ['YEAR("2020-05"^^xsd:gYearMonth)', '"2020"^^xsd:integer'],
      ['YEAR("-0012Z"^^xsd:gYear)', '"-12"^^xsd:integer'],
      ['MONTH("2020-05"^^xsd:gYearMonth)', '"5"^^xsd:integer'],
      ['MONTH("--05-03Z"^^xsd:gMonthDay)', '"5"^^xsd:integer'],
      ['MONTH("--11"^^xsd:gMonth)', '"11"^^xsd:integer'],
      ['DAY("--05-03Z"^^xsd:gMonthDay)', '"3"^^xsd:integer'],
      ['DAY("---09"^^xsd:gDay)', '"9"^^xsd:integer'],
      ['YEAR("--11"^^xsd:gMonth)', 'error'],
      ['DAY("2020-05"^^xsd:gYearMonth)', 'error'],
      ['YEAR("2020-13"^^xsd:gYearMonth)', 'error'],
      ['HOURS("2020"^^xsd:gYear)', 'error'],
      // durations
      ['YEARS("P20Y15M"^^xsd:yearMonthDuration)', '"21"^^xsd:integer'],
      ['MONTHS("P20Y15M"^^xsd:yearMonthDuration)', '"3"^^xsd:integer'],
      ['MONTHS("-P20Y18M"^^xsd:yearMonthDuration)', '"-6"^^xsd:integer'],
      ['YEARS("P3DT10H"^^xsd:dayTimeDuration)', '"0"^^xsd:integer'],
      ['DAYS("P3DT55H"^^xsd:dayTimeDuration)', '"5"^^xsd:integer'],
      ['DAYS("P1Y2M3D"^^xsd:duration)', '"3"^^xsd:integer'],
      ['HOURS("P3DT10H"^^xsd:dayTimeDuration)', '"10"^^xsd:integer'],
      ['HOURS("P3DT12H32M12S"^^xsd:dayTimeDuration)', '"12"^^xsd:integer'],
      ['HOURS("PT123H"^^xsd:dayTimeDuration)', '"3"^^xsd:integer'],
      ['HOURS("-P3DT10H"^^xsd:dayTimeDuration)', '"-10"^^xsd:integer'],
      ['MINUTES("-P5DT12H30M"^^xsd:dayTimeDuration)', '"-30"^^xsd:integer'],
      ['SECONDS("P3DT10H12.5S"^^xsd:dayTimeDuration)', '"12.5"^^xsd:decimal'],
      ['SECONDS("-PT256S"^^xsd:dayTimeDuration)', '"-16.0"^^xsd:decimal'],
      ['YEARS("2020"^^xsd:gYear)', 'error'],
      ['DAYS(3)', 'error'],
      ['DURATION_MONTHS("P1Y2M3D"^^xsd:duration)', '"14"^^xsd:integer'],
      ['DURATION_SECONDS("P1Y2M3DT1.5S"^^xsd:duration)', '"259201.5"^^xsd:decimal'],
      ['DURATION_SECONDS("-PT1M"^^xsd:dayTimeDuration)', '"-60.0"^^xsd:decimal'],
      ['DURATION_MONTHS("P1Y"^^xsd:string)', 'error'],
      // TIMEZONE and TZ of every type that may have one
      ['TIMEZONE("2020Z"^^xsd:gYear)', '"PT0S"^^xsd:dayTimeDuration'],
      ['TIMEZONE("---05-05:00"^^xsd:gDay)', '"-PT5H"^^xsd:dayTimeDuration'],
      ['TIMEZONE("2020"^^xsd:gYear)', 'error'],
      ['TZ("--05-03+01:00"^^xsd:gMonthDay)', '"+01:00"'],
      ['TZ("--05-03"^^xsd:gMonthDay)', '""'],
      ['TZ(5)', 'error'],
      // TIME_ON_TIMELINE
      ['TIME_ON_TIMELINE("0001-01-01T00:00:00"^^xsd:dateTime)', '"0.0"^^xsd:decimal'],
      ['TIME_ON_TIMELINE("1970-01-01T00:00:00Z"^^xsd:dateTime)', '"62135596800.0"^^xsd:decimal'],
      ['TIME_ON_TIMELINE("1970-01-01T01:00:00.5+01:00"^^xsd:dateTime)', '"62135596800.5"^^xsd:decimal'],
      ['TIME_ON_TIMELINE("1970-01-01"^^xsd:date)', '"62135596800.0"^^xsd:decimal'],
      ['TIME_ON_TIMELINE("00:00:01"^^xsd:time) = TIME_ON_TIMELINE("1972-12-31T00:00:01"^^xsd:dateTime)', T],
      ['TIME_ON_TIMELINE("1970"^^xsd:gYear) = TIME_ON_TIMELINE("1970-12-31"^^xsd:date)', T],
      ['TIME_ON_TIMELINE("--02"^^xsd:gMonth) = TIME_ON_TIMELINE("1972-02-29"^^xsd:date)', T],
      ['TIME_ON_TIMELINE("2024-03-01T00:00:00Z"^^xsd:dateTime) - TIME_ON_TIMELINE("2024-02-28T00:00:00Z"^^xsd:dateTime)', '"172800.0"^^xsd:decimal'],
      ['TIME_ON_TIMELINE("P1D"^^xsd:dayTimeDuration)', 'error'],
      // TO_TIMEZONE
      ['TO_TIMEZONE("2024-01-01T10:00:00Z"^^xsd:dateTime, "PT5H30M"^^xsd:dayTimeDuration)', '"2024-01-01T15:30:00+05:30"^^xsd:dateTime'],
      ['TO_TIMEZONE("2024-01-01T01:00:00+01:00"^^xsd:dateTime, "-PT10H"^^xsd:dayTimeDuration)', '"2023-12-31T14:00:00-10:00"^^xsd:dateTime'],
      ['TO_TIMEZONE("2024-01-01T10:00:00.25"^^xsd:dateTime, -300)', '"2024-01-01T10:00:00.25-05:00"^^xsd:dateTime'],
      ['TO_TIMEZONE("2024-01-01T10:00:00Z"^^xsd:dateTime)', '"2024-01-01T10:00:00"^^xsd:dateTime'],
      ['TO_TIMEZONE("2024-01-01T10:00:00Z"^^xsd:dateTimeStamp, 60)', '"2024-01-01T11:00:00+01:00"^^xsd:dateTimeStamp'],
      ['TO_TIMEZONE("2024-01-01T10:00:00Z"^^xsd:dateTimeStamp)', '"2024-01-01T10:00:00"^^xsd:dateTime'],
      ['TO_TIMEZONE("2002-03-07-07:00"^^xsd:date, "-PT10H"^^xsd:dayTimeDuration)', '"2002-03-06-10:00"^^xsd:date'],
      ['TO_TIMEZONE("2002-03-07"^^xsd:date, "-PT10H"^^xsd:dayTimeDuration)', '"2002-03-07-10:00"^^xsd:date'],
      ['TO_TIMEZONE("10:00:00-07:00"^^xsd:time, "-PT10H"^^xsd:dayTimeDuration)', '"07:00:00-10:00"^^xsd:time'],
      ['TO_TIMEZONE("10:00:00-07:00"^^xsd:time, "PT10H"^^xsd:dayTimeDuration)', '"03:00:00+10:00"^^xsd:time'],
      ['TO_TIMEZONE("2024-01-01T10:00:00Z"^^xsd:dateTime, "PT15H"^^xsd:dayTimeDuration)', 'error'],
      ['TO_TIMEZONE("2024-01-01T10:00:00Z"^^xsd:dateTime, "PT1H30.5S"^^xsd:dayTimeDuration)', 'error'],
      ['TO_TIMEZONE("2024-01-01T10:00:00Z"^^xsd:dateTime, "+01:00")', 'error'],
      ['TO_TIMEZONE("2020"^^xsd:gYear, 60)', 'error'],
      ['TO_TIMEZONE("2024-01-01T10:00:00Z")', 'error'],
      [`<${FN}adjust-dateTime-to-timezone>("2002-03-07T10:00:00-07:00"^^xsd:dateTime, "PT10H"^^xsd:dayTimeDuration)`, '"2002-03-08T03:00:00+10:00"^^xsd:dateTime'],
      [`<${FN}adjust-dateTime-to-timezone>("2002-03-07T10:00:00-07:00"^^xsd:dateTime)`, '"2002-03-07T17:00:00Z"^^xsd:dateTime'],
      [`<${FN}adjust-dateTime-to-timezone>("2002-03-07T10:00:00"^^xsd:dateTime)`, '"2002-03-07T10:00:00Z"^^xsd:dateTime'],
      [`<${FN}adjust-date-to-timezone>("2002-03-07-07:00"^^xsd:date)`, '"2002-03-07Z"^^xsd:date'],
      [`<${FN}adjust-time-to-timezone>("10:00:00-07:00"^^xsd:time, "-PT10H"^^xsd:dayTimeDuration)`, '"07:00:00-10:00"^^xsd:time'],
      [`<${FN}adjust-date-to-timezone>("2002-03-07T10:00:00-07:00"^^xsd:dateTime)`, 'error'],
      // DAY_OF_THE_WEEK (ISO: Monday is 1)
      ['DAY_OF_THE_WEEK("2024-02-29"^^xsd:date)', '"4"^^xsd:integer'],
      ['DAY_OF_THE_WEEK("2024-03-03T23:00:00-05:00"^^xsd:dateTime)', '"7"^^xsd:integer'],
      ['DAY_OF_THE_WEEK("2024-03-04T00:30:00"^^xsd:dateTime)', '"1"^^xsd:integer'],
      ['DAY_OF_THE_WEEK("1970-01-01Z"^^xsd:date)', '"4"^^xsd:integer'],
      ['DAY_OF_THE_WEEK("1600-01-01"^^xsd:date)', '"6"^^xsd:integer'],
      ['DAY_OF_THE_WEEK("-0001-12-31"^^xsd:date)', '"5"^^xsd:integer'],
      ['DAY_OF_THE_WEEK("2024-03-04T00:30:00Z"^^xsd:dateTimeStamp)', '"1"^^xsd:integer'],
      ['DAY_OF_THE_WEEK("10:00:00"^^xsd:time)', 'error'],
      ['DAY_OF_THE_WEEK("2024-03-04")', 'error'],
      // the fn: names of the accessors
      [`<${FN}year-from-dateTime>("2011-01-10T14:45:13Z"^^xsd:dateTime)`, '"2011"^^xsd:integer'],
      [`<${FN}month-from-date>("2011-02-10"^^xsd:date)`, '"2"^^xsd:integer'],
      [`<${FN}day-from-date>("2011-02-10"^^xsd:date)`, '"10"^^xsd:integer'],
      [`<${FN}hours-from-time>("13:20:00"^^xsd:time)`, '"13"^^xsd:integer'],
      [`<${FN}minutes-from-duration>("PT1H5M"^^xsd:dayTimeDuration)`, '"5"^^xsd:integer'],
      [`<${FN}seconds-from-dateTime>("2011-01-10T14:45:13.5Z"^^xsd:dateTime)`, '"13.5"^^xsd:decimal'],
      [`<${FN}timezone-from-time>("13:20:00-05:00"^^xsd:time)`, '"-PT5H"^^xsd:dayTimeDuration'],
      [`<${FN}years-from-duration>("P2Y"^^xsd:yearMonthDuration)`, '"2"^^xsd:integer'],
      [`<${FN}months-from-duration>("P2Y3M"^^xsd:yearMonthDuration)`, '"3"^^xsd:integer'],
      [`<${FN}days-from-duration>("P2DT3H"^^xsd:dayTimeDuration)`, '"2"^^xsd:integer'],
    ]);
  });

  describe('constructor functions (casts) beyond SPARQL 1.1', () => {
    rows([
      ['xsd:duration("P1Y2M3DT4H")', '"P1Y2M3DT4H"^^xsd:duration'],
      ['xsd:duration("P0Y0M")', '"PT0S"^^xsd:duration'],
      ['xsd:duration("PT36H"^^xsd:dayTimeDuration)', '"P1DT12H"^^xsd:duration'],
      ['xsd:duration("P1Y2")', 'error'],
      ['xsd:duration(1)', 'error'],
      ['xsd:dayTimeDuration("P1Y2DT3H"^^xsd:duration)', '"P2DT3H"^^xsd:dayTimeDuration'],
      ['xsd:dayTimeDuration(" PT90M ")', '"PT1H30M"^^xsd:dayTimeDuration'],
      ['xsd:dayTimeDuration("P1Y")', 'error'],
      ['xsd:yearMonthDuration("P1Y2DT3H"^^xsd:duration)', '"P1Y"^^xsd:yearMonthDuration'],
      ['xsd:yearMonthDuration("P14M")', '"P1Y2M"^^xsd:yearMonthDuration'],
      ['xsd:yearMonthDuration("PT1H"^^xsd:dayTimeDuration)', '"P0M"^^xsd:yearMonthDuration'],
      ['xsd:dateTimeStamp("2020-01-01T00:00:00Z")', '"2020-01-01T00:00:00Z"^^xsd:dateTimeStamp'],
      ['xsd:dateTimeStamp("2020-01-01T00:00:00+01:00"^^xsd:dateTime)', '"2020-01-01T00:00:00+01:00"^^xsd:dateTimeStamp'],
      ['xsd:dateTimeStamp("2020-01-01Z"^^xsd:date)', '"2020-01-01T00:00:00Z"^^xsd:dateTimeStamp'],
      ['xsd:dateTimeStamp("2020-01-01T00:00:00")', 'error'],
      ['xsd:dateTimeStamp("10:00:00Z"^^xsd:time)', 'error'],
      ['xsd:anyURI("http://example.org/a")', '"http://example.org/a"^^xsd:anyURI'],
      ['xsd:anyURI(<http://example.org/a>)', '"http://example.org/a"^^xsd:anyURI'],
      ['xsd:anyURI(1)', 'error'],
      ['xsd:string(xsd:duration("P1Y"))', '"P1Y"'],
    ]);
  });

  describe('AGENT()', () => {
    it('is the agent of the context, and an error where there is none', () => {
      expect(ev(rewriteFunctionNames('AGENT()').text, {}, { ...context, agent: 'alice' })).to.equal('"alice"');
      expect(fx('AGENT()')).to.equal('error');
      expect(fx('COALESCE(AGENT(), "nobody")')).to.equal('"nobody"');
    });
  });

  describe('the library', () => {
    it('has a name-less IRI or a short name for each function, and arities that make sense', () => {
      for (const f of FUNCTION_LIBRARY.values()) {
        expect(f.iri).to.match(/^(http:\/\/www\.w3\.org\/2005\/xpath-functions(\/math)?#|urn:quadlog:function:)[a-zA-Z_-]+[0-9]*$/);
        expect(f.min).to.be.at.most(f.max);
        for (const n of f.names) expect(n).to.match(/^[A-Z][A-Z0-9_]*$/);
      }
    });
  });
});
