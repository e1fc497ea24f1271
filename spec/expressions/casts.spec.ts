import { expect } from 'chai';
import { DataFactory } from 'n3';
import { ev, table } from './helpers.js';

describe('expressions: casts (XSD constructor functions, §17.5)', () => {
  describe('to xsd:string', () => {
    table([
      ['xsd:string(<http://example.org/z>)', '"http://example.org/z"'],
      ['xsd:string("string")', '"string"'],
      ['xsd:string("+33.3300")', '"+33.3300"'],
      ['xsd:string(" padded ")', '" padded "'],
      ['xsd:string(true)', '"true"'],
      ['xsd:string("0"^^xsd:boolean)', '"false"'],
      ['xsd:string(-1)', '"-1"'],
      ['xsd:string("007"^^xsd:integer)', '"7"'],
      ['xsd:string(1.0)', '"1"'],
      ['xsd:string(-2.50)', '"-2.5"'],
      ['xsd:string(0E1)', '"0"'],
      ['xsd:string(-0e0)', '"-0"'],
      ['xsd:string(1E0)', '"1"'],
      ['xsd:string(1.25e0)', '"1.25"'],
      ['xsd:string(1e6)', '"1.0E6"'],
      ['xsd:string(999999e0)', '"999999"'],
      ['xsd:string(1e-6)', '"0.000001"'],
      ['xsd:string(1e-7)', '"1.0E-7"'],
      ['xsd:string("-7.875"^^xsd:float)', '"-7.875"'],
      ['xsd:string("0.1"^^xsd:float)', '"0.1"'],
      ['xsd:string("INF"^^xsd:double)', '"INF"'],
      ['xsd:string("NaN"^^xsd:float)', '"NaN"'],
      ['xsd:string("2002-10-10T17:00:00+00:00"^^xsd:dateTime)', '"2002-10-10T17:00:00Z"'],
      ['xsd:string("2002-10-10T17:00:00.500"^^xsd:dateTime)', '"2002-10-10T17:00:00.5"'],
      ['xsd:string("abc"@en)', '"abc"'],
      ['xsd:string("x"^^<http://example.org/dt>)', '"x"'],
      ['xsd:string("P1D"^^xsd:dayTimeDuration)', '"P1D"'],
      ['xsd:string("abc"^^xsd:integer)', 'error'],
    ]);
  });

  describe('to xsd:boolean', () => {
    table([
      ['xsd:boolean("true")', '"true"^^xsd:boolean'],
      ['xsd:boolean("1")', '"true"^^xsd:boolean'],
      ['xsd:boolean(" false ")', '"false"^^xsd:boolean'],
      ['xsd:boolean("0")', '"false"^^xsd:boolean'],
      ['xsd:boolean("0.0")', 'error'],
      ['xsd:boolean("TRUE")', 'error'],
      ['xsd:boolean("yes")', 'error'],
      ['xsd:boolean(0)', '"false"^^xsd:boolean'],
      ['xsd:boolean(-1)', '"true"^^xsd:boolean'],
      ['xsd:boolean(0.0)', '"false"^^xsd:boolean'],
      ['xsd:boolean(2.5)', '"true"^^xsd:boolean'],
      ['xsd:boolean("NaN"^^xsd:double)', '"false"^^xsd:boolean'],
      ['xsd:boolean(1e0)', '"true"^^xsd:boolean'],
      ['xsd:boolean("1"^^xsd:boolean)', '"true"^^xsd:boolean'],
      ['xsd:boolean("2002-10-10T17:00:00Z"^^xsd:dateTime)', 'error'],
      ['xsd:boolean(<http://example.org/>)', 'error'],
      ['xsd:boolean("true"@en)', 'error'],
    ]);
  });

  describe('to xsd:integer and its subtypes', () => {
    table([
      ['xsd:integer("13")', '"13"^^xsd:integer'],
      ['xsd:integer(" -0013 ")', '"-13"^^xsd:integer'],
      ['xsd:integer("1.5")', 'error'],
      ['xsd:integer("0E1")', 'error'],
      ['xsd:integer("string")', 'error'],
      ['xsd:integer(true)', '"1"^^xsd:integer'],
      ['xsd:integer(false)', '"0"^^xsd:integer'],
      ['xsd:integer(2.5)', '"2"^^xsd:integer'],
      ['xsd:integer(-2.5)', '"-2"^^xsd:integer'],
      ['xsd:integer(-7.875e0)', '"-7"^^xsd:integer'],
      ['xsd:integer(1e20)', '"100000000000000000000"^^xsd:integer'],
      ['xsd:integer(1.5e300) > 10', '"true"^^xsd:boolean'],
      ['xsd:integer("INF"^^xsd:double)', 'error'],
      ['xsd:integer("NaN"^^xsd:float)', 'error'],
      ['xsd:integer("2002-10-10T17:00:00Z"^^xsd:dateTime)', 'error'],
      ['xsd:integer(<http://example.org/>)', 'error'],
      ['xsd:integer("5"^^xsd:byte)', '"5"^^xsd:integer'],
      ['xsd:int("42")', '"42"^^xsd:int'],
      ['xsd:byte(127)', '"127"^^xsd:byte'],
      ['xsd:byte(128)', 'error'],
      ['xsd:unsignedInt(-1)', 'error'],
      ['xsd:positiveInteger(0)', 'error'],
      ['xsd:nonPositiveInteger("-5")', '"-5"^^xsd:nonPositiveInteger'],
      ['xsd:long(9.9e0)', '"9"^^xsd:long'],
      ['xsd:int(1) + 1', '"2"^^xsd:integer'],
    ]);
  });

  describe('to xsd:decimal', () => {
    table([
      ['xsd:decimal("+33.3300")', '"33.33"^^xsd:decimal'],
      ['xsd:decimal("0")', '"0.0"^^xsd:decimal'],
      ['xsd:decimal("1")', '"1.0"^^xsd:decimal'],
      ['xsd:decimal(".5")', '"0.5"^^xsd:decimal'],
      ['xsd:decimal("1.")', '"1.0"^^xsd:decimal'],
      ['xsd:decimal("1E0")', 'error'],
      ['xsd:decimal("INF")', 'error'],
      ['xsd:decimal(true)', '"1.0"^^xsd:decimal'],
      ['xsd:decimal(13)', '"13.0"^^xsd:decimal'],
      ['xsd:decimal(1.25e0)', '"1.25"^^xsd:decimal'],
      ['xsd:decimal(0.1e0)', '"0.1"^^xsd:decimal'],
      ['xsd:decimal("0.1"^^xsd:float)', '"0.1"^^xsd:decimal'],
      ['xsd:decimal(1e21)', '"1000000000000000000000.0"^^xsd:decimal'],
      ['xsd:decimal(1.5e-10)', '"0.00000000015"^^xsd:decimal'],
      ['xsd:decimal("INF"^^xsd:double)', 'error'],
      ['xsd:decimal("2002-10-10T17:00:00Z")', 'error'],
    ]);
  });

  describe('to xsd:float and xsd:double', () => {
    table([
      ['xsd:float("-10.2E3")', '"-1.02E4"^^xsd:float'],
      ['xsd:float("+33.3300")', '"3.333E1"^^xsd:float'],
      ['xsd:float("0.0")', '"0.0E0"^^xsd:float'],
      ['xsd:float("1")', '"1.0E0"^^xsd:float'],
      ['xsd:float("INF")', '"INF"^^xsd:float'],
      ['xsd:float("-INF")', '"-INF"^^xsd:float'],
      ['xsd:float("NaN")', '"NaN"^^xsd:float'],
      ['xsd:float("1.5.")', 'error'],
      ['xsd:float("string")', 'error'],
      ['xsd:float(true)', '"1.0E0"^^xsd:float'],
      ['xsd:float(0.1)', '"1.0E-1"^^xsd:float'],
      ['xsd:float(1e300)', '"INF"^^xsd:float'],
      ['xsd:double("-10.2E3")', '"-1.02E4"^^xsd:double'],
      ['xsd:double("1.5")', '"1.5E0"^^xsd:double'],
      ['xsd:double(" 13 ")', '"1.3E1"^^xsd:double'],
      ['xsd:double(false)', '"0.0E0"^^xsd:double'],
      ['xsd:double(xsd:float(0.1))', '"1.0000000149011612E-1"^^xsd:double'],
      ['xsd:double(123456789012345678901234567890)', '"1.2345678901234568E29"^^xsd:double'],
      ['xsd:double(0.1)', '"1.0E-1"^^xsd:double'],
      ['xsd:double("2002-10-10T17:00:00Z"^^xsd:dateTime)', 'error'],
      ['xsd:double(<http://example.org/>)', 'error'],
    ]);
  });

  describe('to xsd:dateTime, xsd:date, xsd:time', () => {
    table([
      ['xsd:dateTime("2002-10-10T17:00:00Z")', '"2002-10-10T17:00:00Z"^^xsd:dateTime'],
      ['xsd:dateTime(" 2002-10-10T17:00:00+00:00 ")', '"2002-10-10T17:00:00Z"^^xsd:dateTime'],
      ['xsd:dateTime("2002-10-10T17:00:00.120")', '"2002-10-10T17:00:00.12"^^xsd:dateTime'],
      ['xsd:dateTime("2002-10-10T24:00:00-05:00")', '"2002-10-11T00:00:00-05:00"^^xsd:dateTime'],
      ['xsd:dateTime("2002-10-10")', 'error'],
      ['xsd:dateTime("2002-10-10"^^xsd:date)', '"2002-10-10T00:00:00"^^xsd:dateTime'],
      ['xsd:dateTime("2002-10-10T17:00:00Z"^^xsd:dateTime)', '"2002-10-10T17:00:00Z"^^xsd:dateTime'],
      ['xsd:dateTime(1)', 'error'],
      ['xsd:dateTime(true)', 'error'],
      ['xsd:date("2002-10-10T17:00:00Z"^^xsd:dateTime)', '"2002-10-10Z"^^xsd:date'],
      ['xsd:date("2002-10-10")', '"2002-10-10"^^xsd:date'],
      ['xsd:time("2002-10-10T17:00:00Z"^^xsd:dateTime)', '"17:00:00Z"^^xsd:time'],
      ['xsd:time("17:00:00.5")', '"17:00:00.5"^^xsd:time'],
      ['xsd:time("2002-10-10"^^xsd:date)', 'error'],
    ]);
  });

  describe('arity and unknown functions', () => {
    table([
      ['xsd:integer("1", "2")', 'error'],
      ['xsd:integer()', 'error'],
      ['<http://example.org/unknownFunction>(1)', 'error'],
      ['xsd:gYear("2001")', 'error'],
    ]);
    it('a blank node never casts', () => {
      const b = DataFactory.blankNode('b');
      for (const f of ['string', 'boolean', 'integer', 'decimal', 'float', 'double', 'dateTime']) expect(ev(`xsd:${f}(?b)`, { b })).to.equal('error');
    });
  });
});
