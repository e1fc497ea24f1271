/**
 * XSD constructor functions (casts, §17.5): xsd:string, xsd:boolean, xsd:integer (and its
 * subtypes xsd:int, xsd:long, …), xsd:decimal, xsd:float, xsd:double, xsd:dateTime, plus
 * xsd:date and xsd:time. The §17.5 table: IRIs cast to xsd:string only; blank nodes never;
 * strings by their lexical form (whitespace-collapsed); numbers and booleans between each other
 * (floats/doubles that are NaN or infinite do not cast to integer or decimal); date/times to
 * xsd:string and between themselves. Ill-typed literals never cast. Beyond SPARQL 1.1, as RDFox:
 * xsd:dateTimeStamp, xsd:duration, xsd:dayTimeDuration, xsd:yearMonthDuration and xsd:anyURI.
 * @module
 */
import { decimalFromBigInt, parseDecimal, ZERO } from './decimal.js';
import {
  type DateTimeValue,
  type DurationValue,
  formatDateTime,
  formatDuration,
  parseDate,
  parseDateTime,
  parseDuration,
  parseTime,
  toDate,
  toDateTime,
  toTime,
} from './datetime.js';
import { fail } from './errors.js';
import {
  type Numeric,
  decimal,
  double,
  float,
  numericIsTrue,
  numericToDecimal,
  numericToInteger,
  numericToXPathString,
  parseDoubleLexical,
  parseFloatLexical,
  parseIntegerLexical,
  toDouble,
  toFloat,
} from './numeric.js';
import { type LiteralValue, type Value, dateTimeLiteral, decode, describe, integerLiteral, numericLiteral, stringLiteral } from './values.js';
import {
  booleanLiteral,
  INTEGER_SUBTYPES,
  typedLiteral,
  XSD_ANY_URI,
  XSD_BOOLEAN,
  XSD_DATE,
  XSD_DATE_TIME,
  XSD_DATE_TIME_STAMP,
  XSD_DAY_TIME_DURATION,
  XSD_DECIMAL,
  XSD_DURATION,
  XSD_DOUBLE,
  XSD_FLOAT,
  XSD_INTEGER,
  XSD_STRING,
  XSD_TIME,
  XSD_YEAR_MONTH_DURATION,
} from './vocabulary.js';

/** XSD whitespace collapse at the ends (what casting from a string does before parsing). */
function collapse(text: string): string {
  return text.replace(/^[ \t\n\r]+|[ \t\n\r]+$/g, '');
}

function sourceValue(arg: Value, target: string): LiteralValue {
  if (arg.termType !== 'Literal') fail(`cannot cast ${describe(arg)} to <${target}>`);
  const v = decode(arg);
  if (v.kind === 'invalid') fail(`cannot cast the ill-typed literal ${describe(arg)}`);
  return v;
}

/** The string (simple literal or xsd:string) being cast, or undefined when the source is not one. */
function sourceString(v: LiteralValue): string | undefined {
  return v.kind === 'string' && v.language === '' ? collapse(v.lexical) : undefined;
}

function cannot(arg: Value, target: string): never {
  return fail(`cannot cast ${describe(arg)} to <${target}>`);
}

/** xsd:string(): XPath string forms for numbers and booleans (`1.0` → `"1"`), lexical forms otherwise. */
export function castToString(arg: Value): Value {
  if (arg.termType === 'NamedNode') return stringLiteral(arg.value);
  const v = sourceValue(arg, XSD_STRING);
  switch (v.kind) {
    case 'numeric':
      return stringLiteral(numericToXPathString(v.numeric));
    case 'boolean':
      return stringLiteral(v.value ? 'true' : 'false');
    case 'datetime':
      return stringLiteral(formatDateTime(v.value));
    default:
      return stringLiteral(v.lexical);
  }
}

/** xsd:boolean(). */
export function castToBoolean(arg: Value): Value {
  const v = sourceValue(arg, XSD_BOOLEAN);
  if (v.kind === 'boolean') return booleanLiteral(v.value);
  if (v.kind === 'numeric') return booleanLiteral(numericIsTrue(v.numeric));
  const s = sourceString(v);
  if (s === 'true' || s === '1') return booleanLiteral(true);
  if (s === 'false' || s === '0') return booleanLiteral(false);
  return cannot(arg, XSD_BOOLEAN);
}

function numericSource(arg: Value, target: string, parse: (text: string) => Numeric | undefined): Numeric {
  const v = sourceValue(arg, target);
  if (v.kind === 'numeric') return v.numeric;
  if (v.kind === 'boolean') return { type: 'integer', value: v.value ? 1n : 0n };
  const s = sourceString(v);
  const n = s === undefined ? undefined : parse(s);
  return n ?? cannot(arg, target);
}

const parseIntegerText = (s: string): Numeric | undefined => {
  const v = parseIntegerLexical(s);
  return v === undefined ? undefined : { type: 'integer', value: v };
};

/** xsd:integer() and the constructors of its subtypes (with their range checks). */
export function castToInteger(arg: Value, datatype: string = XSD_INTEGER): Value {
  const value = numericToInteger(numericSource(arg, datatype, parseIntegerText));
  const bounds = INTEGER_SUBTYPES.get(datatype);
  if (bounds !== undefined) {
    const [min, max] = bounds;
    if ((min !== undefined && value < min) || (max !== undefined && value > max)) fail(`${value} is out of the range of <${datatype}>`);
  }
  return integerLiteral(value, datatype);
}

/** xsd:decimal(). */
export function castToDecimal(arg: Value): Value {
  const n = numericSource(arg, XSD_DECIMAL, (s) => {
    const d = parseDecimal(s);
    return d === undefined ? undefined : decimal(d);
  });
  return numericLiteral(decimal(n.type === 'integer' ? decimalFromBigInt(n.value) : numericToDecimal(n)));
}

/** xsd:float(). */
export function castToFloat(arg: Value): Value {
  const n = numericSource(arg, XSD_FLOAT, (s) => {
    const f = parseFloatLexical(s);
    return f === undefined ? undefined : float(f);
  });
  return numericLiteral(float(toFloat(n)));
}

/** xsd:double(). */
export function castToDouble(arg: Value): Value {
  const n = numericSource(arg, XSD_DOUBLE, (s) => {
    const d = parseDoubleLexical(s);
    return d === undefined ? undefined : double(d);
  });
  return numericLiteral(double(toDouble(n)));
}

function dateTimeSource(arg: Value, target: string, parse: (text: string) => DateTimeValue | undefined): DateTimeValue {
  const v = sourceValue(arg, target);
  if (v.kind === 'datetime') return v.value;
  const s = sourceString(v);
  const d = s === undefined ? undefined : parse(s);
  return d ?? cannot(arg, target);
}

/** xsd:dateTime() (from a string, a dateTime or a date). */
export function castToDateTime(arg: Value): Value {
  return dateTimeLiteral(toDateTime(dateTimeSource(arg, XSD_DATE_TIME, parseDateTime)), XSD_DATE_TIME);
}

/** xsd:date() (from a string, a date or a dateTime). */
export function castToDate(arg: Value): Value {
  return dateTimeLiteral(toDate(dateTimeSource(arg, XSD_DATE, parseDate)), XSD_DATE);
}

/** xsd:time() (from a string, a time or a dateTime). */
export function castToTime(arg: Value): Value {
  return dateTimeLiteral(toTime(dateTimeSource(arg, XSD_TIME, parseTime)), XSD_TIME);
}

/** xsd:dateTimeStamp() (from a string, a dateTime or a date): as xsd:dateTime, and it must have a timezone. */
export function castToDateTimeStamp(arg: Value): Value {
  const v = toDateTime(dateTimeSource(arg, XSD_DATE_TIME_STAMP, parseDateTime));
  if (v.tz === undefined) cannot(arg, XSD_DATE_TIME_STAMP);
  return dateTimeLiteral(v, XSD_DATE_TIME_STAMP);
}

const DURATION_DATATYPES: Readonly<Record<DurationValue['kind'], string>> = {
  duration: XSD_DURATION,
  dayTimeDuration: XSD_DAY_TIME_DURATION,
  yearMonthDuration: XSD_YEAR_MONTH_DURATION,
};

/**
 * xsd:duration(), xsd:dayTimeDuration(), xsd:yearMonthDuration(): from a string in the target's
 * lexical space, or from any duration (casting to a subtype drops the other part, as in XPath).
 */
function castToDuration(kind: DurationValue['kind']): (arg: Value) => Value {
  const target = DURATION_DATATYPES[kind];
  return (arg) => {
    const v = sourceValue(arg, target);
    let d: DurationValue | undefined;
    if (v.kind === 'duration') d = v.value;
    else {
      const s = sourceString(v);
      d = s === undefined ? undefined : parseDuration(s, kind);
    }
    if (d === undefined) return cannot(arg, target);
    const months = kind === 'dayTimeDuration' ? 0n : d.months;
    const seconds = kind === 'yearMonthDuration' ? ZERO : d.seconds;
    return typedLiteral(formatDuration(months, seconds, kind), target);
  };
}

/** xsd:anyURI() (from a string, an xsd:anyURI literal or an IRI). */
export function castToAnyUri(arg: Value): Value {
  if (arg.termType === 'NamedNode') return typedLiteral(arg.value, XSD_ANY_URI);
  const v = sourceValue(arg, XSD_ANY_URI);
  if (v.datatype === XSD_ANY_URI) return typedLiteral(collapse(v.lexical), XSD_ANY_URI);
  return typedLiteral(sourceString(v) ?? cannot(arg, XSD_ANY_URI), XSD_ANY_URI);
}

const castToDurationOnly = castToDuration('duration');
const castToDayTimeDuration = castToDuration('dayTimeDuration');
const castToYearMonthDuration = castToDuration('yearMonthDuration');

/** The constructor function of a datatype IRI, or undefined when it is not one. */
export function castFunction(datatype: string): ((arg: Value) => Value) | undefined {
  switch (datatype) {
    case XSD_STRING:
      return castToString;
    case XSD_BOOLEAN:
      return castToBoolean;
    case XSD_INTEGER:
      return castToInteger;
    case XSD_DECIMAL:
      return castToDecimal;
    case XSD_FLOAT:
      return castToFloat;
    case XSD_DOUBLE:
      return castToDouble;
    case XSD_DATE_TIME:
      return castToDateTime;
    case XSD_DATE:
      return castToDate;
    case XSD_TIME:
      return castToTime;
    case XSD_DATE_TIME_STAMP:
      return castToDateTimeStamp;
    case XSD_DURATION:
      return castToDurationOnly;
    case XSD_DAY_TIME_DURATION:
      return castToDayTimeDuration;
    case XSD_YEAR_MONTH_DURATION:
      return castToYearMonthDuration;
    case XSD_ANY_URI:
      return castToAnyUri;
    default:
      return INTEGER_SUBTYPES.has(datatype) ? (arg) => castToInteger(arg, datatype) : undefined;
  }
}
