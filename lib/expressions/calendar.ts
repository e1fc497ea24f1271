/**
 * The date, time and duration functions, extended as RDFox extends them to every date/time
 * datatype that has the field asked for: YEAR, MONTH, DAY (also of gYear, gYearMonth, gMonth,
 * gMonthDay, gDay), HOURS, MINUTES, SECONDS (also of durations), TIMEZONE and TZ (also of the
 * Gregorian types), YEARS, MONTHS, DAYS of durations, DURATION_MONTHS and DURATION_SECONDS,
 * TIME_ON_TIMELINE, TO_TIMEZONE (and the XPath fn:adjust-…-to-timezone functions) and
 * DAY_OF_THE_WEEK.
 * @module
 */
import type * as RDF from '@rdfjs/types/data-model.js';
import { type DateTimeValue, type DurationValue, adjustTimezone, daysFromCivil, daysInMonth, formatDayTimeDuration } from './datetime.js';
import { type Decimal, decimalAdd, decimalFromBigInt, decimalTruncate, makeDecimal } from './decimal.js';
import { fail } from './errors.js';
import { type GregorianValue, gregorianKind, parseGregorian } from './gregorian.js';
import { decimal } from './numeric.js';
import { type Value, dateTimeLiteral, decode, describe, integerLiteral, integerLiteralOf, numericLiteral, stringLiteral } from './values.js';
import { typedLiteral, XSD_DATE_TIME, XSD_DATE_TIME_STAMP, XSD_DAY_TIME_DURATION } from './vocabulary.js';

/** The fields of a date/time value of any of the date/time datatypes; absent when it has none. */
interface CalendarFields {
  readonly year?: bigint;
  readonly month?: number;
  readonly day?: number;
  readonly hour?: number;
  readonly minute?: number;
  readonly second?: Decimal;
  /** Timezone offset in minutes. */
  readonly tz: number | undefined;
  /** The timezone as written (`Z`, `+01:00`), `''` when there is none. */
  readonly tzText: string;
}

function fieldsOfDateTime(v: DateTimeValue): CalendarFields {
  const { year, month, day, hour, minute, second, tz, tzText } = v;
  switch (v.kind) {
    case 'dateTime':
      return v;
    case 'date':
      return { year, month, day, tz, tzText };
    case 'time':
      return { hour, minute, second, tz, tzText };
  }
}

const WRITTEN_TIMEZONE = /(?:Z|[+-]\d\d:\d\d)$/;

/** A parsed Gregorian literal (gYear …), or undefined when the term is not a valid one. */
function gregorianOf(term: Value): GregorianValue | undefined {
  if (term.termType !== 'Literal' || term.language !== '') return undefined;
  const kind = gregorianKind(term.datatype.value);
  return kind === undefined ? undefined : parseGregorian(kind, term.value);
}

/** The fields of a date/time term (dateTime, dateTimeStamp, date, time, or a Gregorian type), or undefined. */
function calendarFields(term: Value): CalendarFields | undefined {
  if (term.termType !== 'Literal') return undefined;
  const v = decode(term);
  if (v.kind === 'datetime') return fieldsOfDateTime(v.value);
  const g = gregorianOf(term);
  if (g === undefined) return undefined;
  return { ...g, tzText: WRITTEN_TIMEZONE.exec(term.value)?.[0] ?? '' };
}

/** The duration value of a duration term (any of the three duration datatypes), or undefined. */
function durationOf(term: Value): DurationValue | undefined {
  if (term.termType !== 'Literal') return undefined;
  const v = decode(term);
  return v.kind === 'duration' ? v.value : undefined;
}

function field<K extends keyof CalendarFields>(term: Value, name: string, key: K): NonNullable<CalendarFields[K]> {
  const value = calendarFields(term)?.[key];
  return value ?? fail(`${name}: expected a date/time value with a ${key}, got ${describe(term)}`);
}

function requireDuration(term: Value, name: string): DurationValue {
  return durationOf(term) ?? fail(`${name}: expected a duration, got ${describe(term)}`);
}

/** The components of a duration as XPath's fn:…-from-duration give them (each with the duration's sign). */
function durationParts(d: DurationValue): { years: bigint; months: bigint; days: bigint; hours: bigint; minutes: bigint; seconds: Decimal } {
  const whole = decimalTruncate(d.seconds);
  const fraction = decimalAdd(d.seconds, decimalFromBigInt(-whole));
  return {
    years: d.months / 12n,
    months: d.months % 12n,
    days: whole / 86400n,
    hours: (whole % 86400n) / 3600n,
    minutes: (whole % 3600n) / 60n,
    seconds: decimalAdd(decimalFromBigInt(whole % 60n), fraction),
  };
}

/** YEAR (fn:year-from-dateTime, fn:year-from-date): of any date/time value with a year. */
export function year(arg: Value): Value {
  return integerLiteral(field(arg, 'YEAR', 'year'));
}

/** MONTH (fn:month-from-dateTime, fn:month-from-date): of any date/time value with a month. */
export function month(arg: Value): Value {
  return integerLiteralOf(field(arg, 'MONTH', 'month'));
}

/** DAY (fn:day-from-dateTime, fn:day-from-date): of any date/time value with a day. */
export function day(arg: Value): Value {
  return integerLiteralOf(field(arg, 'DAY', 'day'));
}

/** HOURS (fn:hours-from-dateTime, -time, -duration): of a dateTime or time, or of a duration. */
export function hours(arg: Value): Value {
  const d = durationOf(arg);
  return d !== undefined ? integerLiteral(durationParts(d).hours) : integerLiteralOf(field(arg, 'HOURS', 'hour'));
}

/** MINUTES (fn:minutes-from-dateTime, -time, -duration). */
export function minutes(arg: Value): Value {
  const d = durationOf(arg);
  return d !== undefined ? integerLiteral(durationParts(d).minutes) : integerLiteralOf(field(arg, 'MINUTES', 'minute'));
}

/** SECONDS (fn:seconds-from-dateTime, -time, -duration), an xsd:decimal. */
export function seconds(arg: Value): Value {
  const d = durationOf(arg);
  return numericLiteral(decimal(d !== undefined ? durationParts(d).seconds : field(arg, 'SECONDS', 'second')));
}

/** YEARS (fn:years-from-duration): the years of a duration (`P20Y15M` has 21). */
export function years(arg: Value): Value {
  return integerLiteral(durationParts(requireDuration(arg, 'YEARS')).years);
}

/** MONTHS (fn:months-from-duration): the months left after the years (`P20Y15M` has 3). */
export function months(arg: Value): Value {
  return integerLiteral(durationParts(requireDuration(arg, 'MONTHS')).months);
}

/** DAYS (fn:days-from-duration): the days of a duration (`P3DT55H` has 5). */
export function days(arg: Value): Value {
  return integerLiteral(durationParts(requireDuration(arg, 'DAYS')).days);
}

/** DURATION_MONTHS: the signed total months of a duration. */
export function durationMonths(arg: Value): Value {
  return integerLiteral(requireDuration(arg, 'DURATION_MONTHS').months);
}

/** DURATION_SECONDS: the signed total seconds of a duration, an xsd:decimal. */
export function durationSeconds(arg: Value): Value {
  return numericLiteral(decimal(requireDuration(arg, 'DURATION_SECONDS').seconds));
}

/** TIMEZONE (fn:timezone-from-…): the timezone as an xsd:dayTimeDuration; error when there is none. */
export function timezone(arg: Value): RDF.Literal {
  const fields = calendarFields(arg) ?? fail(`TIMEZONE: expected a date/time value, got ${describe(arg)}`);
  if (fields.tz === undefined) fail('TIMEZONE of a value without a timezone');
  return typedLiteral(formatDayTimeDuration(decimalFromBigInt(BigInt(fields.tz * 60))), XSD_DAY_TIME_DURATION);
}

/** TZ: the timezone as written (`Z`, `-05:00`), `""` when there is none. */
export function tz(arg: Value): Value {
  const fields = calendarFields(arg) ?? fail(`TZ: expected a date/time value, got ${describe(arg)}`);
  return stringLiteral(fields.tzText);
}

/** Seconds from 0001-01-01T00:00:00 to 1970-01-01T00:00:00. */
const TIMELINE_EPOCH = -daysFromCivil(1n, 1, 1) * 86400n;

/**
 * TIME_ON_TIMELINE: the XSD 1.1 timeOnTimeline of a date/time value, the seconds since
 * 0001-01-01T00:00:00 (in UTC when the value has a timezone), an xsd:decimal. Missing fields
 * take XSD's defaults: year 1972, December, the last day of the month, midnight.
 */
export function timeOnTimeline(arg: Value): Value {
  const f = calendarFields(arg) ?? fail(`TIME_ON_TIMELINE: expected a date/time value, got ${describe(arg)}`);
  const year = f.year ?? 1972n;
  const month = f.month ?? 12;
  const day = f.day ?? daysInMonth(year, month);
  const whole = (daysFromCivil(year, month, day) * 86400n) + TIMELINE_EPOCH + BigInt((f.hour ?? 0) * 3600 + (f.minute ?? 0) * 60 - (f.tz ?? 0) * 60);
  return numericLiteral(decimal(decimalAdd(decimalFromBigInt(whole), f.second ?? makeDecimal(0n, 0))));
}

/** A date/time value of the datatypes TO_TIMEZONE and DAY_OF_THE_WEEK take, and its datatype. */
function requireDateTimeValue(term: Value, name: string, kinds: readonly string[]): { value: DateTimeValue; datatype: string } {
  if (term.termType === 'Literal') {
    const v = decode(term);
    if (v.kind === 'datetime' && kinds.includes(v.value.kind)) return { value: v.value, datatype: v.datatype };
  }
  return fail(`${name}: expected ${kinds.map((k) => `an xsd:${k}`).join(' or ')}, got ${describe(term)}`);
}

/**
 * A timezone argument in minutes: an xsd:dayTimeDuration (or xsd:duration without months) of
 * whole minutes, or an integer number of minutes, within ±14 hours.
 */
export function requireTimezoneOffset(term: Value, name: string): number {
  let minutes: bigint | undefined;
  if (term.termType === 'Literal') {
    const v = decode(term);
    if (v.kind === 'duration' && v.value.months === 0n && v.value.seconds.scale === 0 && v.value.seconds.unscaled % 60n === 0n) {
      minutes = v.value.seconds.unscaled / 60n;
    } else if (v.kind === 'numeric' && v.numeric.type === 'integer') {
      minutes = v.numeric.value;
    } else if (v.kind === 'duration' && v.value.months === 0n) {
      fail(`${name}: a timezone must be a whole number of minutes, got ${describe(term)}`);
    }
  }
  if (minutes === undefined) fail(`${name}: expected a timezone (an xsd:dayTimeDuration or minutes), got ${describe(term)}`);
  if (minutes < -840n || minutes > 840n) fail(`${name}: the timezone ${describe(term)} is outside -PT14H to PT14H`);
  return Number(minutes);
}

function adjusted(arg: Value, name: string, tz: number | undefined, kinds: readonly string[]): Value {
  const { value, datatype } = requireDateTimeValue(arg, name, kinds);
  const result = adjustTimezone(value, tz);
  return dateTimeLiteral(result, datatype === XSD_DATE_TIME_STAMP && tz === undefined ? XSD_DATE_TIME : datatype);
}

const ALL_KINDS = ['dateTime', 'date', 'time'] as const;

/**
 * TO_TIMEZONE(value, timezone?): a dateTime, date or time moved to the timezone (a value without
 * one gets it, its fields unchanged); without a timezone argument, the value's local fields with
 * no timezone.
 */
export function toTimezone(arg: Value, timezoneArg?: Value): Value {
  return adjusted(arg, 'TO_TIMEZONE', timezoneArg === undefined ? undefined : requireTimezoneOffset(timezoneArg, 'TO_TIMEZONE'), ALL_KINDS);
}

/**
 * fn:adjust-dateTime-to-timezone, fn:adjust-date-to-timezone, fn:adjust-time-to-timezone: as
 * TO_TIMEZONE for the one datatype, except that without a timezone argument the value moves to
 * the implicit timezone, which is UTC here (as NOW() is).
 */
export function adjustToTimezone(kind: 'dateTime' | 'date' | 'time'): (arg: Value, timezoneArg?: Value) => Value {
  const name = `fn:adjust-${kind}-to-timezone`;
  return (arg, timezoneArg) => adjusted(arg, name, timezoneArg === undefined ? 0 : requireTimezoneOffset(timezoneArg, name), [kind]);
}

/** DAY_OF_THE_WEEK: the ISO 8601 weekday (1 Monday … 7 Sunday) of a date or dateTime, in its local time. */
export function dayOfTheWeek(arg: Value): Value {
  const { value } = requireDateTimeValue(arg, 'DAY_OF_THE_WEEK', ['dateTime', 'date']);
  const days = daysFromCivil(value.year, value.month, value.day);
  // 1970-01-01 was a Thursday (4)
  return integerLiteral((((days + 3n) % 7n) + 7n) % 7n + 1n);
}
