/**
 * The recurring and partial Gregorian datatypes xsd:gYear, xsd:gYearMonth, xsd:gMonth,
 * xsd:gMonthDay and xsd:gDay: parsing their lexical forms into fields, and writing fields in
 * canonical form. (The evaluator does not otherwise interpret these datatypes: `=` between two of
 * them is term equality.)
 * @module
 */
import { daysInMonth } from './datetime.js';
import { XSD_G_DAY, XSD_G_MONTH, XSD_G_MONTH_DAY, XSD_G_YEAR, XSD_G_YEAR_MONTH } from './vocabulary.js';

/** The five Gregorian datatypes. */
export type GregorianKind = 'gYear' | 'gYearMonth' | 'gMonth' | 'gMonthDay' | 'gDay';

/** A parsed Gregorian value: the fields its datatype has, and its timezone. */
export interface GregorianValue {
  /** Which datatype. */
  readonly kind: GregorianKind;
  /** The year (gYear, gYearMonth). */
  readonly year?: bigint;
  /** The month 1–12 (gYearMonth, gMonth, gMonthDay). */
  readonly month?: number;
  /** The day 1–31 (gMonthDay, gDay). */
  readonly day?: number;
  /** Timezone offset in minutes, or undefined when there is none. */
  readonly tz: number | undefined;
}

/** The datatype IRI of each kind. */
export const GREGORIAN_DATATYPES: Readonly<Record<GregorianKind, string>> = {
  gYear: XSD_G_YEAR,
  gYearMonth: XSD_G_YEAR_MONTH,
  gMonth: XSD_G_MONTH,
  gMonthDay: XSD_G_MONTH_DAY,
  gDay: XSD_G_DAY,
};

const KIND_OF_DATATYPE: ReadonlyMap<string, GregorianKind> = new Map(
  Object.entries(GREGORIAN_DATATYPES).map(([kind, datatype]) => [datatype, kind as GregorianKind]),
);

/** The kind of a Gregorian datatype IRI, or undefined for any other datatype. */
export function gregorianKind(datatype: string): GregorianKind | undefined {
  return KIND_OF_DATATYPE.get(datatype);
}

const YEAR = '(-?(?:[1-9][0-9]{3,}|0[0-9]{3}))';
const TZ = '(Z|[+-][0-9]{2}:[0-9]{2})?';
const PATTERNS: Readonly<Record<GregorianKind, RegExp>> = {
  gYear: new RegExp(`^${YEAR}${TZ}$`),
  gYearMonth: new RegExp(`^${YEAR}-([0-9]{2})${TZ}$`),
  gMonth: new RegExp(`^--([0-9]{2})${TZ}$`),
  gMonthDay: new RegExp(`^--([0-9]{2})-([0-9]{2})${TZ}$`),
  gDay: new RegExp(`^---([0-9]{2})${TZ}$`),
};

/** A timezone as written (`Z`, `+05:30`) in minutes; null when out of range. */
function parseTimezone(text: string | undefined): number | undefined | null {
  if (text === undefined) return undefined;
  if (text === 'Z') return 0;
  const h = Number(text.slice(1, 3));
  const m = Number(text.slice(4, 6));
  if (m > 59 || h > 14 || (h === 14 && m !== 0)) return null;
  return (text[0] === '-' ? -1 : 1) * (h * 60 + m);
}

/** Parses the lexical form of a Gregorian datatype; undefined when it is not valid. */
export function parseGregorian(kind: GregorianKind, text: string): GregorianValue | undefined {
  const m = PATTERNS[kind].exec(text);
  if (m === null) return undefined;
  const tz = parseTimezone(m[m.length - 1]);
  if (tz === null) return undefined;
  let value: GregorianValue;
  switch (kind) {
    case 'gYear':
      value = { kind, year: BigInt(m[1]!), tz };
      break;
    case 'gYearMonth':
      value = { kind, year: BigInt(m[1]!), month: Number(m[2]), tz };
      break;
    case 'gMonth':
      value = { kind, month: Number(m[1]), tz };
      break;
    case 'gMonthDay':
      value = { kind, month: Number(m[1]), day: Number(m[2]), tz };
      break;
    case 'gDay':
      value = { kind, day: Number(m[1]), tz };
      break;
  }
  return validGregorian(value) ? value : undefined;
}

/** Whether the fields of a Gregorian value are in range (a month-day allows February 29). */
export function validGregorian(v: GregorianValue): boolean {
  if (v.month !== undefined && (!Number.isInteger(v.month) || v.month < 1 || v.month > 12)) return false;
  if (v.day !== undefined) {
    const max = v.month === undefined ? 31 : daysInMonth(2000n, v.month);
    if (!Number.isInteger(v.day) || v.day < 1 || v.day > max) return false;
  }
  if (v.tz !== undefined && (!Number.isInteger(v.tz) || Math.abs(v.tz) > 14 * 60)) return false;
  return true;
}

function pad(n: number | bigint, width: number): string {
  const negative = n < 0;
  const digits = (negative ? -n : n).toString().padStart(width, '0');
  return negative ? `-${digits}` : digits;
}

/** The canonical form of a timezone offset in minutes (`Z`, `+05:30`, `''` for none). */
export function formatTimezone(tz: number | undefined): string {
  if (tz === undefined) return '';
  if (tz === 0) return 'Z';
  const abs = Math.abs(tz);
  return `${tz < 0 ? '-' : '+'}${pad(Math.floor(abs / 60), 2)}:${pad(abs % 60, 2)}`;
}

/** The canonical lexical form of a Gregorian value. */
export function formatGregorian(v: GregorianValue): string {
  const tz = formatTimezone(v.tz);
  switch (v.kind) {
    case 'gYear':
      return `${pad(v.year!, 4)}${tz}`;
    case 'gYearMonth':
      return `${pad(v.year!, 4)}-${pad(v.month!, 2)}${tz}`;
    case 'gMonth':
      return `--${pad(v.month!, 2)}${tz}`;
    case 'gMonthDay':
      return `--${pad(v.month!, 2)}-${pad(v.day!, 2)}${tz}`;
    case 'gDay':
      return `---${pad(v.day!, 2)}${tz}`;
  }
}
