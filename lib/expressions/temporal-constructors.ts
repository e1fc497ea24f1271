/**
 * RDFox's constructors of date/time and duration values from numbers: DURATION,
 * YEAR_MONTH_DURATION, DAY_TIME_DURATION, DATE_TIME, DATE_TIME_STAMP, DATE, TIME, G_YEAR,
 * G_YEAR_MONTH, G_MONTH, G_MONTH_DAY and G_DAY.
 *
 * Year, month, day, hour and minute arguments are numbers with a whole value (`2024`, `3.0`);
 * seconds are any finite number (`30.5`); the optional last argument of the date/time
 * constructors is the timezone, an xsd:dayTimeDuration (`"PT1H"^^xsd:dayTimeDuration`, what
 * TIMEZONE returns) or a whole number of minutes (`60`). A field out of range (month 13,
 * 30 February, second 60, timezone beyond ±14:00) is an error. Results are in canonical form.
 * @module
 */
import { requireTimezoneOffset } from './calendar.js';
import { formatDuration, parseDate, parseDateTime, parseTime, type DateTimeValue } from './datetime.js';
import { type Decimal, decimalAdd, decimalFromBigInt, decimalSign, decimalToPlainString, ZERO } from './decimal.js';
import { fail } from './errors.js';
import { type GregorianKind, type GregorianValue, formatGregorian, formatTimezone, GREGORIAN_DATATYPES, validGregorian } from './gregorian.js';
import { numericToDecimal } from './numeric.js';
import { type Value, dateTimeLiteral, describe, requireNumeric } from './values.js';
import {
  typedLiteral,
  XSD_DATE,
  XSD_DATE_TIME,
  XSD_DATE_TIME_STAMP,
  XSD_DAY_TIME_DURATION,
  XSD_DURATION,
  XSD_TIME,
  XSD_YEAR_MONTH_DURATION,
} from './vocabulary.js';

/** A number argument with a whole value, as a bigint. */
function whole(term: Value, name: string, what: string): bigint {
  const n = requireNumeric(term, name);
  switch (n.type) {
    case 'integer':
      return n.value;
    case 'decimal':
      if (n.value.scale === 0) return n.value.unscaled;
      break;
    default:
      if (Number.isInteger(n.value)) return BigInt(n.value);
  }
  return fail(`${name}: the ${what} must be a whole number, got ${describe(term)}`);
}

/** A seconds argument: any finite number, as a decimal. */
function secondsOf(term: Value, name: string): Decimal {
  const n = requireNumeric(term, name);
  if (n.type === 'integer') return decimalFromBigInt(n.value);
  if ((n.type === 'float' || n.type === 'double') && !Number.isFinite(n.value)) fail(`${name}: the seconds must be finite, got ${describe(term)}`);
  return numericToDecimal(n);
}

function pad(n: bigint, width: number): string {
  const negative = n < 0n;
  const digits = (negative ? -n : n).toString().padStart(width, '0');
  return negative ? `-${digits}` : digits;
}

function secondsText(s: Decimal): string {
  const text = decimalToPlainString(s);
  const point = text.indexOf('.');
  return point < 0 ? text.padStart(2, '0') : text.slice(0, point).padStart(2, '0') + text.slice(point);
}

function timezoneOf(term: Value | undefined, name: string): string {
  return term === undefined ? '' : formatTimezone(requireTimezoneOffset(term, name));
}

/** Parses the lexical form built from the arguments; an invalid one is an error naming the function. */
function parsed(name: string, text: string, parse: (text: string) => DateTimeValue | undefined): DateTimeValue {
  return parse(text) ?? fail(`${name}: the fields make no valid value (${text})`);
}

function dateText(name: string, y: Value, mo: Value, d: Value): string {
  return `${pad(whole(y, name, 'year'), 4)}-${pad(whole(mo, name, 'month'), 2)}-${pad(whole(d, name, 'day'), 2)}`;
}

function timeText(name: string, h: Value, mi: Value, s: Value): string {
  const seconds = secondsOf(s, name);
  if (decimalSign(seconds) < 0) fail(`${name}: the seconds must not be negative, got ${describe(s)}`);
  return `${pad(whole(h, name, 'hour'), 2)}:${pad(whole(mi, name, 'minute'), 2)}:${secondsText(seconds)}`;
}

/** DATE_TIME(year, month, day, hour, minute, second, timezone?): an xsd:dateTime. */
export function dateTime(y: Value, mo: Value, d: Value, h: Value, mi: Value, s: Value, tz?: Value): Value {
  const name = 'DATE_TIME';
  const text = `${dateText(name, y, mo, d)}T${timeText(name, h, mi, s)}${timezoneOf(tz, name)}`;
  return dateTimeLiteral(parsed(name, text, parseDateTime), XSD_DATE_TIME);
}

/** DATE_TIME_STAMP(year, month, day, hour, minute, second, timezone): an xsd:dateTimeStamp. */
export function dateTimeStamp(y: Value, mo: Value, d: Value, h: Value, mi: Value, s: Value, tz: Value): Value {
  const name = 'DATE_TIME_STAMP';
  const text = `${dateText(name, y, mo, d)}T${timeText(name, h, mi, s)}${timezoneOf(tz, name)}`;
  return dateTimeLiteral(parsed(name, text, parseDateTime), XSD_DATE_TIME_STAMP);
}

/** DATE(year, month, day, timezone?): an xsd:date. */
export function date(y: Value, mo: Value, d: Value, tz?: Value): Value {
  const name = 'DATE';
  return dateTimeLiteral(parsed(name, `${dateText(name, y, mo, d)}${timezoneOf(tz, name)}`, parseDate), XSD_DATE);
}

/** TIME(hour, minute, second, timezone?): an xsd:time. */
export function time(h: Value, mi: Value, s: Value, tz?: Value): Value {
  const name = 'TIME';
  return dateTimeLiteral(parsed(name, `${timeText(name, h, mi, s)}${timezoneOf(tz, name)}`, parseTime), XSD_TIME);
}

function smallWhole(term: Value, name: string, what: string): number {
  const n = whole(term, name, what);
  if (n < -1000n || n > 1000n) fail(`${name}: the ${what} ${describe(term)} is out of range`);
  return Number(n);
}

function gregorian(name: string, kind: GregorianKind, fields: Omit<GregorianValue, 'kind' | 'tz'>, tz: Value | undefined): Value {
  const value: GregorianValue = { kind, ...fields, tz: tz === undefined ? undefined : requireTimezoneOffset(tz, name) };
  if (!validGregorian(value)) fail(`${name}: the fields make no valid value`);
  return typedLiteral(formatGregorian(value), GREGORIAN_DATATYPES[kind]);
}

/** G_YEAR(year, timezone?): an xsd:gYear. */
export function gYear(y: Value, tz?: Value): Value {
  return gregorian('G_YEAR', 'gYear', { year: whole(y, 'G_YEAR', 'year') }, tz);
}

/** G_YEAR_MONTH(year, month, timezone?): an xsd:gYearMonth. */
export function gYearMonth(y: Value, mo: Value, tz?: Value): Value {
  const name = 'G_YEAR_MONTH';
  return gregorian(name, 'gYearMonth', { year: whole(y, name, 'year'), month: smallWhole(mo, name, 'month') }, tz);
}

/** G_MONTH(month, timezone?): an xsd:gMonth. */
export function gMonth(mo: Value, tz?: Value): Value {
  return gregorian('G_MONTH', 'gMonth', { month: smallWhole(mo, 'G_MONTH', 'month') }, tz);
}

/** G_MONTH_DAY(month, day, timezone?): an xsd:gMonthDay (`--02-29` is allowed). */
export function gMonthDay(mo: Value, d: Value, tz?: Value): Value {
  const name = 'G_MONTH_DAY';
  return gregorian(name, 'gMonthDay', { month: smallWhole(mo, name, 'month'), day: smallWhole(d, name, 'day') }, tz);
}

/** G_DAY(day, timezone?): an xsd:gDay. */
export function gDay(d: Value, tz?: Value): Value {
  return gregorian('G_DAY', 'gDay', { day: smallWhole(d, 'G_DAY', 'day') }, tz);
}

function dayTimeSeconds(name: string, d: Value, h: Value, mi: Value, s: Value): Decimal {
  const total = whole(d, name, 'day') * 86400n + whole(h, name, 'hours') * 3600n + whole(mi, name, 'minutes') * 60n;
  return decimalAdd(decimalFromBigInt(total), secondsOf(s, name));
}

/** DURATION(years, months, days, hours, minutes, seconds): an xsd:duration (the parts may not mix signs in total). */
export function duration(y: Value, mo: Value, d: Value, h: Value, mi: Value, s: Value): Value {
  const name = 'DURATION';
  const months = whole(y, name, 'years') * 12n + whole(mo, name, 'months');
  const seconds = dayTimeSeconds(name, d, h, mi, s);
  if ((months > 0n && decimalSign(seconds) < 0) || (months < 0n && decimalSign(seconds) > 0)) {
    fail(`${name}: the year-month part and the day-time part have opposite signs`);
  }
  return typedLiteral(formatDuration(months, seconds, 'duration'), XSD_DURATION);
}

/** YEAR_MONTH_DURATION(years, months): an xsd:yearMonthDuration. */
export function yearMonthDuration(y: Value, mo: Value): Value {
  const name = 'YEAR_MONTH_DURATION';
  return typedLiteral(formatDuration(whole(y, name, 'years') * 12n + whole(mo, name, 'months'), ZERO, 'yearMonthDuration'), XSD_YEAR_MONTH_DURATION);
}

/** DAY_TIME_DURATION(days, hours, minutes, seconds): an xsd:dayTimeDuration. */
export function dayTimeDuration(d: Value, h: Value, mi: Value, s: Value): Value {
  return typedLiteral(formatDuration(0n, dayTimeSeconds('DAY_TIME_DURATION', d, h, mi, s), 'dayTimeDuration'), XSD_DAY_TIME_DURATION);
}
