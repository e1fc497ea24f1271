import { expect } from 'chai';
import { context, ev, F, T, table } from './helpers.js';

const D = '"2011-01-10T14:45:13.815-05:00"^^xsd:dateTime';

describe('expressions: dates and times', () => {
  describe('NOW', () => {
    it('is the context time as an xsd:dateTime, the same on every call', () => {
      expect(ev('NOW()')).to.equal('"2024-02-29T12:34:56.789Z"^^xsd:dateTime');
      expect(ev('NOW() = NOW()')).to.equal(T);
      expect(ev('YEAR(NOW())')).to.equal('"2024"^^xsd:integer');
      expect(ev('NOW()', {}, { now: new Date('2020-01-01T00:00:00Z') })).to.equal('"2020-01-01T00:00:00Z"^^xsd:dateTime');
      expect(ev('NOW()', {}, { ...context, now: new Date('2020-01-01T00:00:00.5Z') })).to.equal('"2020-01-01T00:00:00.5Z"^^xsd:dateTime');
    });
  });

  describe('accessors', () => {
    table([
      [`YEAR(${D})`, '"2011"^^xsd:integer'],
      [`MONTH(${D})`, '"1"^^xsd:integer'],
      [`DAY(${D})`, '"10"^^xsd:integer'],
      [`HOURS(${D})`, '"14"^^xsd:integer'],
      [`MINUTES(${D})`, '"45"^^xsd:integer'],
      [`SECONDS(${D})`, '"13.815"^^xsd:decimal'],
      ['SECONDS("2011-01-10T14:45:13Z"^^xsd:dateTime)', '"13.0"^^xsd:decimal'],
      [`TIMEZONE(${D})`, '"-PT5H"^^xsd:dayTimeDuration'],
      ['TIMEZONE("2011-01-10T14:45:13.815Z"^^xsd:dateTime)', '"PT0S"^^xsd:dayTimeDuration'],
      ['TIMEZONE("2011-01-10T14:45:13+05:30"^^xsd:dateTime)', '"PT5H30M"^^xsd:dayTimeDuration'],
      ['TIMEZONE("2011-01-10T14:45:13-14:00"^^xsd:dateTime)', '"-PT14H"^^xsd:dayTimeDuration'],
      ['TIMEZONE("2011-01-10T14:45:13.815"^^xsd:dateTime)', 'error'],
      [`TZ(${D})`, '"-05:00"'],
      ['TZ("2011-01-10T14:45:13.815Z"^^xsd:dateTime)', '"Z"'],
      ['TZ("2011-01-10T14:45:13.815"^^xsd:dateTime)', '""'],
      ['YEAR("-0044-03-15T12:00:00"^^xsd:dateTime)', '"-44"^^xsd:integer'],
      ['YEAR("123456789-01-01T00:00:00Z"^^xsd:dateTime)', '"123456789"^^xsd:integer'],
      ['DAY("2011-12-31T24:00:00"^^xsd:dateTime)', '"1"^^xsd:integer'],
      ['YEAR("2011-12-31T24:00:00"^^xsd:dateTime)', '"2012"^^xsd:integer'],
      ['HOURS("2011-12-31T24:00:00"^^xsd:dateTime)', '"0"^^xsd:integer'],
      // Extensions beyond SPARQL 1.1 (as in XPath): dates and times.
      ['YEAR("2011-02-03"^^xsd:date)', '"2011"^^xsd:integer'],
      ['DAY("2011-02-03Z"^^xsd:date)', '"3"^^xsd:integer'],
      ['TZ("2011-02-03Z"^^xsd:date)', '"Z"'],
      ['HOURS("10:11:12.5"^^xsd:time)', '"10"^^xsd:integer'],
      ['SECONDS("10:11:12.5"^^xsd:time)', '"12.5"^^xsd:decimal'],
      ['HOURS("2011-02-03"^^xsd:date)', 'error'],
      ['YEAR("10:11:12"^^xsd:time)', 'error'],
      // Errors.
      ['YEAR("2011-01-10T14:45:13")', 'error'],
      ['YEAR("2011-02-30T00:00:00"^^xsd:dateTime)', 'error'],
      ['YEAR("2011-01-10T25:00:00"^^xsd:dateTime)', 'error'],
      ['YEAR("2011-01-10T24:00:01"^^xsd:dateTime)', 'error'],
      ['YEAR("2011-01-10T10:00:00+15:00"^^xsd:dateTime)', 'error'],
      ['YEAR("11-01-10T10:00:00"^^xsd:dateTime)', 'error'],
      ['MONTH(2011)', 'error'],
      ['YEAR("2012-02-29T00:00:00"^^xsd:dateTime)', '"2012"^^xsd:integer'],
      ['YEAR("2100-02-29T00:00:00"^^xsd:dateTime)', 'error'],
      ['YEAR("2000-02-29T00:00:00"^^xsd:dateTime)', '"2000"^^xsd:integer'],
    ]);
  });

  describe('comparison (XSD order with the ±14:00 rule for missing timezones)', () => {
    const dt = (s: string): string => `"${s}"^^xsd:dateTime`;
    table([
      [`${dt('2006-08-23T09:00:00+01:00')} = ${dt('2006-08-23T08:00:00Z')}`, T],
      [`${dt('2006-08-23T09:00:00+01:00')} = ${dt('2006-08-23T08:00:00.000Z')}`, T],
      [`${dt('2006-08-23T09:00:00+01:00')} < ${dt('2006-08-23T08:00:01Z')}`, T],
      [`${dt('2006-08-23T09:00:00+01:00')} != ${dt('2006-08-23T09:00:00Z')}`, T],
      [`${dt('2006-08-23T09:00:00')} = ${dt('2006-08-23T09:00:00')}`, T],
      [`${dt('2006-08-23T09:00:00')} < ${dt('2006-08-23T10:00:00')}`, T],
      // One with, one without a timezone: determinate only more than 14 hours apart.
      [`${dt('2006-08-23T09:00:00')} = ${dt('2006-08-23T09:00:00Z')}`, 'error'],
      [`${dt('2006-08-23T09:00:00')} < ${dt('2006-08-23T20:00:00Z')}`, 'error'],
      [`${dt('2006-08-23T09:00:00')} < ${dt('2006-08-24T00:00:01Z')}`, T],
      [`${dt('2006-08-23T09:00:00')} > ${dt('2006-08-22T18:59:59Z')}`, T],
      [`${dt('2006-08-23T09:00:00')} = ${dt('2006-08-25T09:00:00Z')}`, F],
      [`${dt('2006-08-23T09:00:00')} != ${dt('2006-08-25T09:00:00Z')}`, T],
      [`${dt('2006-08-23T24:00:00Z')} = ${dt('2006-08-24T00:00:00Z')}`, T],
      [`${dt('-0001-01-01T00:00:00Z')} < ${dt('0000-01-01T00:00:00Z')}`, T],
      [`${dt('10000-01-01T00:00:00Z')} > ${dt('9999-12-31T23:59:59.999Z')}`, T],
      [`${dt('2006-08-23T09:00:00.1Z')} > ${dt('2006-08-23T09:00:00.09999999999Z')}`, T],
      [`${dt('2006-08-23T09:00:00Z')} < "2006-08-24"^^xsd:date`, 'error'],
      [`${dt('2006-08-23T09:00:00Z')} < "2006-08-23T09:00:01Z"`, 'error'],
      [`${dt('not a date')} = ${dt('not a date')}`, T],
      [`${dt('not a date')} = ${dt('2006-08-23T09:00:00Z')}`, 'error'],
      [`${dt('not a date')} < ${dt('2006-08-23T09:00:00Z')}`, 'error'],
      // xsd:date and xsd:time (as the open-world tests).
      ['"2006-08-23"^^xsd:date = "2006-08-23"^^xsd:date', T],
      ['"2006-08-23Z"^^xsd:date = "2006-08-23"^^xsd:date', 'error'],
      ['"2001-01-01Z"^^xsd:date != "2006-08-23"^^xsd:date', T],
      ['"2006-08-23Z"^^xsd:date > "2006-08-22"^^xsd:date', T],
      ['"2006-08-23+00:00"^^xsd:date = "2006-08-23Z"^^xsd:date', T],
      ['"10:00:00Z"^^xsd:time < "11:00:00+00:30"^^xsd:time', T],
      ['"10:00:00"^^xsd:time = "10:00:00.0"^^xsd:time', T],
    ]);
  });

  describe('dateTimeStamp', () => {
    table([
      ['YEAR("2011-01-10T14:45:13Z"^^xsd:dateTimeStamp)', '"2011"^^xsd:integer'],
      ['YEAR("2011-01-10T14:45:13"^^xsd:dateTimeStamp)', 'error'],
      ['"2011-01-10T14:45:13Z"^^xsd:dateTimeStamp = "2011-01-10T15:45:13+01:00"^^xsd:dateTime', T],
    ]);
  });
});
