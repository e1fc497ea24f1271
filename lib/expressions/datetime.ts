/**
 * xsd:dateTime (and xsd:dateTimeStamp, xsd:date, xsd:time) and the duration types: parsing,
 * the XSD partial order between values with and without a timezone (§17.4.1 / XPath
 * op:dateTime-less-than with the ±14:00 rule), the component functions YEAR … TZ, and canonical
 * lexical forms.
 * @module
 */
import { fail } from './errors.js';
import {
  type Decimal,
  decimalAdd,
  decimalCompare,
  decimalFloor,
  decimalFromBigInt,
  decimalSign,
  decimalToPlainString,
  makeDecimal,
  parseDecimal,
  ZERO,
} from './decimal.js';

/** The kinds of date/time values. */
export type DateTimeKind = 'dateTime' | 'date' | 'time';

/** A parsed date/time value (the local fields as written, normalised for `24:00:00`). */
export interface DateTimeValue {
  /** dateTime, date or time. */
  readonly kind: DateTimeKind;
  /** Year (may be ≤ 0: year 0 is 1 BCE, as in XSD 1.1). For a time, 1972. */
  readonly year: bigint;
  /** Month 1–12 (12 for a time). */
  readonly month: number;
  /** Day 1–31 (31 for a time). */
  readonly day: number;
  /** Hour 0–23 (0 for a date). */
  readonly hour: number;
  /** Minute 0–59. */
  readonly minute: number;
  /** Seconds with fraction, 0 ≤ s < 60. */
  readonly second: Decimal;
  /** Timezone offset in minutes, or undefined when there is none. */
  readonly tz: number | undefined;
  /** The timezone as written (`Z`, `+01:00`), or `''`. */
  readonly tzText: string;
  /** Seconds since 1970-01-01T00:00:00Z of the value (as if in UTC when it has no timezone). */
  readonly instant: Decimal;
}

/** A parsed duration value. */
export interface DurationValue {
  /** Which duration datatype. */
  readonly kind: 'duration' | 'dayTimeDuration' | 'yearMonthDuration';
  /** Signed total months. */
  readonly months: bigint;
  /** Signed total seconds. */
  readonly seconds: Decimal;
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return (a % b !== 0n && (a < 0n) !== (b < 0n)) ? q - 1n : q;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
export function daysFromCivil(year: bigint, month: number, day: number): bigint {
  const y = month <= 2 ? year - 1n : year;
  const era = floorDiv(y, 400n);
  const yoe = y - era * 400n;
  const mp = BigInt((month + 9) % 12);
  const doy = (153n * mp + 2n) / 5n + BigInt(day - 1);
  const doe = yoe * 365n + yoe / 4n - yoe / 100n + doy;
  return era * 146097n + doe - 719468n;
}

function civilFromDays(days: bigint): [bigint, number, number] {
  const z = days + 719468n;
  const era = floorDiv(z, 146097n);
  const doe = z - era * 146097n;
  const yoe = (doe - doe / 1460n + doe / 36524n - doe / 146096n) / 365n;
  const y = yoe + era * 400n;
  const doy = doe - (365n * yoe + yoe / 4n - yoe / 100n);
  const mp = (5n * doy + 2n) / 153n;
  const d = Number(doy - (153n * mp + 2n) / 5n + 1n);
  const m = Number(mp < 10n ? mp + 3n : mp - 9n);
  return [m <= 2 ? y + 1n : y, m, d];
}

function isLeap(year: bigint): boolean {
  return year % 4n === 0n && (year % 100n !== 0n || year % 400n === 0n);
}

/** Days in a month of a year. */
export function daysInMonth(year: bigint, month: number): number {
  if (month === 2) return isLeap(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

const YEAR = '(-?(?:[1-9][0-9]{3,}|0[0-9]{3}))';
const MD = '-([0-9]{2})-([0-9]{2})';
const TIME = '([0-9]{2}):([0-9]{2}):([0-9]{2}(?:\\.[0-9]+)?)';
const TZ = '(Z|[+-][0-9]{2}:[0-9]{2})?';
const DATE_TIME_RE = new RegExp(`^${YEAR}${MD}T${TIME}${TZ}$`);
const DATE_RE = new RegExp(`^${YEAR}${MD}${TZ}$`);
const TIME_RE = new RegExp(`^${TIME}${TZ}$`);

function parseTz(text: string | undefined): number | undefined | null {
  if (text === undefined) return undefined;
  if (text === 'Z') return 0;
  const h = Number(text.slice(1, 3));
  const m = Number(text.slice(4, 6));
  if (m > 59 || h > 14 || (h === 14 && m !== 0)) return null;
  const v = h * 60 + m;
  return text[0] === '-' ? -v : v;
}

function build(
  kind: DateTimeKind,
  year: bigint,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second: Decimal,
  tz: number | undefined,
  tzText: string,
): DateTimeValue {
  const days = daysFromCivil(year, month, day);
  const whole = days * 86400n + BigInt(hour * 3600 + minute * 60 - (tz ?? 0) * 60);
  const instant = decimalAdd(decimalFromBigInt(whole), second);
  return { kind, year, month, day, hour, minute, second, tz, tzText, instant };
}

function timeFields(h: string, mi: string, s: string): [number, number, Decimal, boolean] | undefined {
  const hour = Number(h);
  const minute = Number(mi);
  const second = parseDecimal(s)!;
  if (minute > 59 || decimalCompare(second, makeDecimal(60n, 0)) >= 0) return undefined;
  if (hour === 24) {
    if (minute !== 0 || decimalSign(second) !== 0) return undefined;
    return [0, 0, ZERO, true];
  }
  if (hour > 23) return undefined;
  return [hour, minute, second, false];
}

/** Parses an xsd:dateTime lexical form; undefined when invalid. */
export function parseDateTime(text: string): DateTimeValue | undefined {
  const m = DATE_TIME_RE.exec(text);
  if (m === null) return undefined;
  let year = BigInt(m[1]!);
  let month = Number(m[2]);
  let day = Number(m[3]);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  const t = timeFields(m[4]!, m[5]!, m[6]!);
  const tz = parseTz(m[7]);
  if (t === undefined || tz === null) return undefined;
  if (t[3]) [year, month, day] = civilFromDays(daysFromCivil(year, month, day) + 1n);
  return build('dateTime', year, month, day, t[0], t[1], t[2], tz, m[7] ?? '');
}

/** Parses an xsd:date lexical form; undefined when invalid. */
export function parseDate(text: string): DateTimeValue | undefined {
  const m = DATE_RE.exec(text);
  if (m === null) return undefined;
  const year = BigInt(m[1]!);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  const tz = parseTz(m[4]);
  if (tz === null) return undefined;
  return build('date', year, month, day, 0, 0, ZERO, tz, m[4] ?? '');
}

/** Parses an xsd:time lexical form; undefined when invalid. */
export function parseTime(text: string): DateTimeValue | undefined {
  const m = TIME_RE.exec(text);
  if (m === null) return undefined;
  const t = timeFields(m[1]!, m[2]!, m[3]!);
  const tz = parseTz(m[4]);
  if (t === undefined || tz === null) return undefined;
  return build('time', 1972n, 12, 31, t[0], t[1], t[2], tz, m[4] ?? '');
}

/** The date/time value of a JS Date (UTC, millisecond precision). */
export function dateTimeFromDate(date: Date): DateTimeValue {
  const ms = date.getTime();
  if (!Number.isFinite(ms)) fail('invalid date');
  const value = parseDateTime(formatIso(date));
  return value!;
}

function formatIso(date: Date): string {
  const y = date.getUTCFullYear();
  const year = y < 0 ? `-${String(-y).padStart(4, '0')}` : String(y).padStart(4, '0');
  const p2 = (n: number): string => String(n).padStart(2, '0');
  const ms = date.getUTCMilliseconds();
  return `${year}-${p2(date.getUTCMonth() + 1)}-${p2(date.getUTCDate())}T${p2(date.getUTCHours())}:${p2(date.getUTCMinutes())}:${p2(
    date.getUTCSeconds(),
  )}.${String(ms).padStart(3, '0')}Z`;
}

const FOURTEEN_HOURS = decimalFromBigInt(50400n);

/**
 * The XSD order of two values of the same kind: negative, 0, positive, or undefined when the
 * order is indeterminate (one value has a timezone, the other none, and they are within 14 hours).
 */
export function compareDateTimes(a: DateTimeValue, b: DateTimeValue): number | undefined {
  if ((a.tz === undefined) === (b.tz === undefined)) return decimalCompare(a.instant, b.instant);
  if (a.tz === undefined) {
    const r = compareDateTimes(b, a);
    return r === undefined ? undefined : -r;
  }
  // a has a timezone, b is local: b lies somewhere in [b − 14h, b + 14h].
  if (decimalCompare(a.instant, decimalAdd(b.instant, { unscaled: -50400n, scale: 0 })) < 0) return -1;
  if (decimalCompare(a.instant, decimalAdd(b.instant, FOURTEEN_HOURS)) > 0) return 1;
  return undefined;
}

/**
 * A total order on date/time values for ORDER BY: by instant (local values taken as UTC), then
 * values without a timezone first.
 */
export function compareDateTimesTotal(a: DateTimeValue, b: DateTimeValue): number {
  const c = decimalCompare(a.instant, b.instant);
  if (c !== 0) return c;
  return (a.tz === undefined ? 0 : 1) - (b.tz === undefined ? 0 : 1);
}

function pad(n: number | bigint, width: number): string {
  const neg = n < 0;
  const s = (neg ? -n : n).toString().padStart(width, '0');
  return neg ? `-${s}` : s;
}

function formatTz(tz: number | undefined): string {
  if (tz === undefined) return '';
  if (tz === 0) return 'Z';
  const abs = Math.abs(tz);
  return `${tz < 0 ? '-' : '+'}${pad(Math.floor(abs / 60), 2)}:${pad(abs % 60, 2)}`;
}

function formatSeconds(s: Decimal): string {
  const text = decimalToPlainString(s);
  const point = text.indexOf('.');
  return point < 0 ? text.padStart(2, '0') : text.slice(0, point).padStart(2, '0') + text.slice(point);
}

/** The canonical lexical form of a date/time value (`Z` for UTC, no trailing fractional zeros). */
export function formatDateTime(v: DateTimeValue): string {
  const date = `${pad(v.year, 4)}-${pad(v.month, 2)}-${pad(v.day, 2)}`;
  const time = `${pad(v.hour, 2)}:${pad(v.minute, 2)}:${formatSeconds(v.second)}`;
  const tz = formatTz(v.tz);
  if (v.kind === 'date') return date + tz;
  if (v.kind === 'time') return time + tz;
  return `${date}T${time}${tz}`;
}

/** A dateTime value built from a date (midnight, same timezone) or a dateTime (unchanged). */
export function toDateTime(v: DateTimeValue): DateTimeValue {
  if (v.kind === 'dateTime') return v;
  if (v.kind === 'date') return { ...v, kind: 'dateTime' };
  return fail('a time cannot be cast to a dateTime');
}

/** The date part of a date or dateTime value. */
export function toDate(v: DateTimeValue): DateTimeValue {
  if (v.kind === 'time') fail('a time cannot be cast to a date');
  return build('date', v.year, v.month, v.day, 0, 0, ZERO, v.tz, v.tzText);
}

/** The time part of a time or dateTime value. */
export function toTime(v: DateTimeValue): DateTimeValue {
  if (v.kind === 'date') fail('a date cannot be cast to a time');
  return build('time', 1972n, 12, 31, v.hour, v.minute, v.second, v.tz, v.tzText);
}

// ---------------------------------------------------------------------------------------------
// Durations

const DURATION_RE = /^(-)?P(?:([0-9]+)Y)?(?:([0-9]+)M)?(?:([0-9]+)D)?(?:T(?:([0-9]+)H)?(?:([0-9]+)M)?(?:([0-9]+(?:\.[0-9]*)?|\.[0-9]+)S)?)?$/;

/** Parses a duration lexical form of the given duration datatype; undefined when invalid. */
export function parseDuration(text: string, kind: DurationValue['kind']): DurationValue | undefined {
  const m = DURATION_RE.exec(text);
  if (m === null) return undefined;
  const [, sign, y, mo, d, h, mi, s] = m;
  if (y === undefined && mo === undefined && d === undefined && h === undefined && mi === undefined && s === undefined) return undefined;
  if (text.endsWith('T')) return undefined;
  if (kind === 'dayTimeDuration' && (y !== undefined || mo !== undefined)) return undefined;
  if (kind === 'yearMonthDuration' && (d !== undefined || h !== undefined || mi !== undefined || s !== undefined)) return undefined;
  let months = BigInt(y ?? '0') * 12n + BigInt(mo ?? '0');
  const whole = BigInt(d ?? '0') * 86400n + BigInt(h ?? '0') * 3600n + BigInt(mi ?? '0') * 60n;
  let seconds = decimalAdd(decimalFromBigInt(whole), s === undefined ? ZERO : parseDecimal(s.startsWith('.') ? `0${s}` : s)!);
  if (sign === '-') {
    months = -months;
    seconds = makeDecimal(-seconds.unscaled, seconds.scale);
  }
  return { kind, months, seconds };
}

/** The canonical xsd:dayTimeDuration lexical form of a number of seconds (`PT0S`, `-PT8H`, `P1DT2H`). */
export function formatDayTimeDuration(seconds: Decimal): string {
  const neg = decimalSign(seconds) < 0;
  const abs = neg ? makeDecimal(-seconds.unscaled, seconds.scale) : seconds;
  if (abs.unscaled === 0n) return 'PT0S';
  const p = 10n ** BigInt(abs.scale);
  const whole = abs.unscaled / p;
  const frac = makeDecimal(abs.unscaled - whole * p, abs.scale);
  const days = whole / 86400n;
  const hours = (whole % 86400n) / 3600n;
  const minutes = (whole % 3600n) / 60n;
  const secs = decimalAdd(decimalFromBigInt(whole % 60n), frac);
  let out = `${neg ? '-' : ''}P`;
  if (days > 0n) out += `${days}D`;
  if (hours > 0n || minutes > 0n || secs.unscaled !== 0n) {
    out += 'T';
    if (hours > 0n) out += `${hours}H`;
    if (minutes > 0n) out += `${minutes}M`;
    if (secs.unscaled !== 0n) out += `${decimalToPlainString(secs)}S`;
  }
  return out;
}

/** Duration equality (op:duration-equal). */
export function durationEquals(a: DurationValue, b: DurationValue): boolean {
  return a.months === b.months && decimalCompare(a.seconds, b.seconds) === 0;
}

/**
 * The order of two durations: defined between two xsd:dayTimeDurations or two
 * xsd:yearMonthDurations; undefined otherwise.
 */
export function compareDurations(a: DurationValue, b: DurationValue): number | undefined {
  if (a.kind === 'dayTimeDuration' && b.kind === 'dayTimeDuration') return decimalCompare(a.seconds, b.seconds);
  if (a.kind === 'yearMonthDuration' && b.kind === 'yearMonthDuration') return a.months < b.months ? -1 : a.months > b.months ? 1 : 0;
  return undefined;
}

/** A total order on durations for ORDER BY (months, then seconds). */
export function compareDurationsTotal(a: DurationValue, b: DurationValue): number {
  if (a.months !== b.months) return a.months < b.months ? -1 : 1;
  return decimalCompare(a.seconds, b.seconds);
}

/**
 * The canonical lexical form of a duration of the given datatype from its signed months and
 * seconds (which must not have opposite signs): `-P1Y2M3DT4H5M6.5S`, `PT0S` (`P0M` for an
 * xsd:yearMonthDuration) when zero.
 */
export function formatDuration(months: bigint, seconds: Decimal, kind: DurationValue['kind']): string {
  if (kind === 'dayTimeDuration') return formatDayTimeDuration(seconds);
  const negative = months < 0n || decimalSign(seconds) < 0;
  const m = months < 0n ? -months : months;
  let out = `${negative ? '-' : ''}P`;
  if (m >= 12n) out += `${m / 12n}Y`;
  if (m % 12n !== 0n) out += `${m % 12n}M`;
  if (kind === 'yearMonthDuration') return m === 0n ? 'P0M' : out;
  const time = formatDayTimeDuration(negative ? makeDecimal(-seconds.unscaled, seconds.scale) : seconds);
  if (time !== 'PT0S') out += time.slice(1);
  return out === 'P' || out === '-P' ? 'PT0S' : out;
}

/**
 * A date/time value moved to the timezone `tz` (minutes east of UTC), as XPath's
 * fn:adjust-dateTime-to-timezone and its date and time variants do: a value without a timezone
 * gets `tz` with its local fields unchanged; a value with one is converted to the same instant
 * in `tz` (a date as its midnight, keeping the date part; a time on its reference day, keeping
 * the time part). With `tz` undefined, the timezone is removed and the local fields kept.
 */
export function adjustTimezone(v: DateTimeValue, tz: number | undefined): DateTimeValue {
  if (tz === undefined || v.tz === undefined) {
    return build(v.kind, v.year, v.month, v.day, v.hour, v.minute, v.second, tz, formatTz(tz));
  }
  const local = decimalAdd(v.instant, decimalFromBigInt(BigInt(tz * 60)));
  const wholeSeconds = decimalFloor(local);
  const fraction = decimalAdd(local, decimalFromBigInt(-wholeSeconds));
  const days = floorDiv(wholeSeconds, 86400n);
  const inDay = Number(wholeSeconds - days * 86400n);
  const [year, month, day] = civilFromDays(days);
  const hour = Math.floor(inDay / 3600);
  const minute = Math.floor((inDay % 3600) / 60);
  const second = decimalAdd(decimalFromBigInt(BigInt(inDay % 60)), fraction);
  const adjusted = build('dateTime', year, month, day, hour, minute, second, tz, formatTz(tz));
  if (v.kind === 'date') return toDate(adjusted);
  if (v.kind === 'time') return toTime(adjusted);
  return adjusted;
}
