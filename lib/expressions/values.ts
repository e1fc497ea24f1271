/**
 * Decoded literal values. Each literal term is decoded once (its datatype interpreted, its
 * lexical form parsed) and the result cached in a WeakMap keyed by the term object; literals the
 * evaluator creates are entered in the cache as they are made.
 * @module
 */
import type * as RDF from '@rdfjs/types/data-model.js';
import { DataFactory } from 'n3';
import {
  type DateTimeValue,
  type DurationValue,
  formatDateTime,
  parseDate,
  parseDateTime,
  parseDuration,
  parseTime,
} from './datetime.js';
import { directionOf, languageLiteral, literalKey } from '../model/terms.js';
import { fail } from './errors.js';
import { parseDecimal } from './decimal.js';
import {
  type Numeric,
  NUMERIC_DATATYPE,
  numericToLexical,
  parseDoubleLexical,
  parseFloatLexical,
  parseIntegerLexical,
} from './numeric.js';
import {
  INTEGER_SUBTYPES,
  iri,
  RDF_DIR_LANG_STRING,
  RDF_LANG_STRING,
  XSD_BOOLEAN,
  XSD_DATE,
  XSD_DATE_TIME,
  XSD_DATE_TIME_STAMP,
  XSD_DAY_TIME_DURATION,
  XSD_DECIMAL,
  XSD_DOUBLE,
  XSD_DURATION,
  XSD_FLOAT,
  XSD_INTEGER,
  XSD_STRING,
  XSD_TIME,
  XSD_YEAR_MONTH_DURATION,
} from './vocabulary.js';

/** A value an expression evaluates to. */
export type Value = RDF.NamedNode | RDF.BlankNode | RDF.Literal | RDF.Quad;

/** The decoded value of a literal. */
export type LiteralValue =
  | StringValue
  | { readonly kind: 'numeric'; readonly lexical: string; readonly datatype: string; readonly numeric: Numeric }
  | { readonly kind: 'boolean'; readonly lexical: string; readonly datatype: string; readonly value: boolean }
  | { readonly kind: 'datetime'; readonly lexical: string; readonly datatype: string; readonly value: DateTimeValue }
  | { readonly kind: 'duration'; readonly lexical: string; readonly datatype: string; readonly value: DurationValue }
  /** A known datatype with a lexical form outside its lexical space ("ill-typed"). */
  | { readonly kind: 'invalid'; readonly lexical: string; readonly datatype: string }
  /** A datatype the evaluator does not interpret. */
  | { readonly kind: 'other'; readonly lexical: string; readonly datatype: string };

/** A simple literal, an xsd:string literal or a language-tagged string. */
export interface StringValue {
  /** Discriminator. */
  readonly kind: 'string';
  /** The lexical form. */
  readonly lexical: string;
  /** xsd:string, rdf:langString or rdf:dirLangString. */
  readonly datatype: string;
  /** The language tag, lower case; `''` for simple literals. */
  readonly language: string;
  /** The base direction of a language-tagged string (rdf:dirLangString), if it has one. */
  readonly direction?: 'ltr' | 'rtl';
}

type Parser = (lexical: string, datatype: string) => LiteralValue;

const invalid = (lexical: string, datatype: string): LiteralValue => ({ kind: 'invalid', lexical, datatype });

function numericParser(parse: (lexical: string) => Numeric | undefined): Parser {
  return (lexical, datatype) => {
    const numeric = parse(lexical);
    return numeric === undefined ? invalid(lexical, datatype) : { kind: 'numeric', lexical, datatype, numeric };
  };
}

function datetimeParser(parse: (lexical: string) => DateTimeValue | undefined, needsTz = false): Parser {
  return (lexical, datatype) => {
    const value = parse(lexical);
    return value === undefined || (needsTz && value.tz === undefined) ? invalid(lexical, datatype) : { kind: 'datetime', lexical, datatype, value };
  };
}

function durationParser(kind: DurationValue['kind']): Parser {
  return (lexical, datatype) => {
    const value = parseDuration(lexical, kind);
    return value === undefined ? invalid(lexical, datatype) : { kind: 'duration', lexical, datatype, value };
  };
}

const PARSERS = new Map<string, Parser>([
  [
    XSD_INTEGER,
    numericParser((l) => {
      const v = parseIntegerLexical(l);
      return v === undefined ? undefined : { type: 'integer', value: v };
    }),
  ],
  [
    XSD_DECIMAL,
    numericParser((l) => {
      const v = parseDecimal(l);
      return v === undefined ? undefined : { type: 'decimal', value: v };
    }),
  ],
  [
    XSD_FLOAT,
    numericParser((l) => {
      const v = parseFloatLexical(l);
      return v === undefined ? undefined : { type: 'float', value: v };
    }),
  ],
  [
    XSD_DOUBLE,
    numericParser((l) => {
      const v = parseDoubleLexical(l);
      return v === undefined ? undefined : { type: 'double', value: v };
    }),
  ],
  [
    XSD_BOOLEAN,
    (lexical, datatype) => {
      switch (lexical) {
        case 'true':
        case '1':
          return { kind: 'boolean', lexical, datatype, value: true };
        case 'false':
        case '0':
          return { kind: 'boolean', lexical, datatype, value: false };
        default:
          return invalid(lexical, datatype);
      }
    },
  ],
  [XSD_DATE_TIME, datetimeParser(parseDateTime)],
  [XSD_DATE_TIME_STAMP, datetimeParser(parseDateTime, true)],
  [XSD_DATE, datetimeParser(parseDate)],
  [XSD_TIME, datetimeParser(parseTime)],
  [XSD_DURATION, durationParser('duration')],
  [XSD_DAY_TIME_DURATION, durationParser('dayTimeDuration')],
  [XSD_YEAR_MONTH_DURATION, durationParser('yearMonthDuration')],
]);

for (const [datatype, [min, max]] of INTEGER_SUBTYPES) {
  PARSERS.set(
    datatype,
    numericParser((l) => {
      const v = parseIntegerLexical(l);
      if (v === undefined || (min !== undefined && v < min) || (max !== undefined && v > max)) return undefined;
      return { type: 'integer', value: v };
    }),
  );
}

/** Decoded values of literals that cannot take a private field (frozen or sealed term objects). */
const cache = new WeakMap<RDF.Literal, LiteralValue>();

/** A base class whose constructor returns the object it is given, so that a subclass can add a private field to any object. */
class Carrier {
  constructor(target: object) {
    return target;
  }
}

/**
 * Where a literal carries its decoded value: a private field added to the term object (about as
 * cheap as a plain property, and unlike a symbol-keyed property or `Object.defineProperty`,
 * invisible to `Object.keys`, `Object.getOwnPropertySymbols`, JSON and deep equality, and it
 * leaves the object's prototype alone). A WeakMap entry costs several times more to make.
 */
class DecodedSlot extends Carrier {
  #value: LiteralValue;
  private constructor(target: object, value: LiteralValue) {
    super(target);
    this.#value = value;
  }
  /** Records `value` on `literal`. */
  static set(literal: RDF.Literal, value: LiteralValue): void {
    new DecodedSlot(literal, value);
  }
  /** The value recorded on `literal`, if any. */
  static get(literal: RDF.Literal): LiteralValue | undefined {
    return #value in literal ? (literal as unknown as DecodedSlot).#value : undefined;
  }
}

/** The decoded value of a literal (cached per term object). */
export function decode(literal: RDF.Literal): LiteralValue {
  let v = DecodedSlot.get(literal);
  if (v !== undefined) return v;
  v = cache.get(literal);
  if (v === undefined) {
    v = decodeUncached(literal);
    if (Object.isExtensible(literal)) DecodedSlot.set(literal, v);
    else cache.set(literal, v);
  }
  return v;
}

function decodeUncached(literal: RDF.Literal): LiteralValue {
  const lexical = literal.value;
  const language = literal.language;
  if (language !== '') {
    const direction = directionOf(literal);
    if (direction === 'ltr' || direction === 'rtl') return { kind: 'string', lexical, datatype: RDF_DIR_LANG_STRING, language: language.toLowerCase(), direction };
    return { kind: 'string', lexical, datatype: RDF_LANG_STRING, language: language.toLowerCase() };
  }
  const datatype = literal.datatype.value;
  if (datatype === XSD_STRING) return { kind: 'string', lexical, datatype, language: '' };
  const parse = PARSERS.get(datatype);
  return parse === undefined ? { kind: 'other', lexical, datatype } : parse(lexical, datatype);
}

/**
 * The canonical key (`model/terms.ts`) of a literal whose decoded value is known (one the
 * evaluator made, or one decoded before), without reading the term's lexical form, language
 * and datatype back from it; undefined otherwise.
 */
export function knownLiteralKey(literal: RDF.Literal): string | undefined {
  const v = DecodedSlot.get(literal);
  if (v === undefined) return undefined;
  if (v.kind === 'string') return literalKey(v.lexical, v.language, v.datatype, v.direction);
  return literalKey(v.lexical, '', v.datatype);
}

/**
 * Records the decoded value of a literal just made from its canonical key (`model/terms.ts`)
 * when the key is of a plain or language-tagged string, whose value is the key's text: the
 * evaluator then reads neither the term's getters nor a WeakMap. Other literals are decoded
 * on first use.
 */
export function rememberKeyedString(literal: RDF.Literal, key: string): void {
  const close = key.lastIndexOf('"');
  if (close === key.length - 1) remember(literal, { kind: 'string', lexical: key.slice(1, close), datatype: XSD_STRING, language: '' });
  else if (key.charCodeAt(close + 1) === 0x40) {
    // `"text"@tag` or, with a base direction, `"text"@tag--ltr`
    const tag = key.slice(close + 2);
    const dash = tag.indexOf('--');
    const lexical = key.slice(1, close);
    if (dash < 0) remember(literal, { kind: 'string', lexical, datatype: RDF_LANG_STRING, language: tag });
    else remember(literal, { kind: 'string', lexical, datatype: RDF_DIR_LANG_STRING, language: tag.slice(0, dash), direction: tag.slice(dash + 2) === 'rtl' ? 'rtl' : 'ltr' });
  }
}

/** Records the decoded value of a literal the evaluator has just made. */
function remember(literal: RDF.Literal, value: LiteralValue): RDF.Literal {
  DecodedSlot.set(literal, value);
  return literal;
}

/** A literal of a numeric value, in canonical form, with the primitive datatype. */
export function numericLiteral(numeric: Numeric): RDF.Literal {
  const lexical = numericToLexical(numeric);
  const datatype = NUMERIC_DATATYPE[numeric.type];
  return remember(DataFactory.literal(lexical, iri(datatype)), { kind: 'numeric', lexical, datatype, numeric });
}

/** A literal of an integer value with a given integer datatype (xsd:integer or a subtype). */
export function integerLiteral(value: bigint, datatype: string = XSD_INTEGER): RDF.Literal {
  if (datatype === XSD_INTEGER && value >= 0n && value < SMALL_INTEGERS) return smallIntegerLiteral(Number(value));
  return makeIntegerLiteral(value, datatype);
}

function makeIntegerLiteral(value: bigint, datatype: string): RDF.Literal {
  const lexical = value.toString();
  return remember(DataFactory.literal(lexical, iri(datatype)), { kind: 'numeric', lexical, datatype, numeric: { type: 'integer', value } });
}

/** The xsd:integer literals below this are made once and shared (STRLEN, YEAR, COUNT … give them over and over). */
const SMALL_INTEGERS = 4096n;
const smallIntegers: Array<RDF.Literal | undefined> = [];

/** The xsd:integer literal of a non-negative integer below {@link SMALL_INTEGERS}, made once. */
function smallIntegerLiteral(n: number): RDF.Literal {
  return (smallIntegers[n] ??= makeIntegerLiteral(BigInt(n), XSD_INTEGER));
}

/** An xsd:integer literal of a safe integer (shared for small non-negative ones). */
export function integerLiteralOf(n: number): RDF.Literal {
  return n >= 0 && n < 4096 && Number.isInteger(n) ? smallIntegerLiteral(n) : makeIntegerLiteral(BigInt(n), XSD_INTEGER);
}

/** A literal of a date/time value in canonical form. */
export function dateTimeLiteral(value: DateTimeValue, datatype: string): RDF.Literal {
  const lexical = formatDateTime(value);
  return remember(DataFactory.literal(lexical, iri(datatype)), { kind: 'datetime', lexical, datatype, value });
}

/** A simple literal or language-tagged string, with a base direction when `direction` is given (and `language` is not empty). */
export function stringLiteral(lexical: string, language = '', direction?: 'ltr' | 'rtl'): RDF.Literal {
  if (language !== '' && direction !== undefined) {
    const literal = languageLiteral(lexical, language, direction);
    return remember(literal, { kind: 'string', lexical, datatype: RDF_DIR_LANG_STRING, language: language.toLowerCase(), direction });
  }
  const literal = language === '' ? DataFactory.literal(lexical) : DataFactory.literal(lexical, language);
  return remember(literal, {
    kind: 'string',
    lexical,
    datatype: language === '' ? XSD_STRING : RDF_LANG_STRING,
    language: language.toLowerCase(),
  });
}

/** The string value of a term when it is a string literal (simple, xsd:string or language-tagged). */
export function asString(term: Value): StringValue | undefined {
  if (term.termType !== 'Literal') return undefined;
  const v = decode(term);
  return v.kind === 'string' ? v : undefined;
}

/** The string value of a string literal; error for anything else. */
export function requireString(term: Value, what: string): StringValue {
  return asString(term) ?? fail(`${what}: expected a string literal, got ${describe(term)}`);
}

/** The lexical form of a simple literal or xsd:string literal; error for anything else (language-tagged strings too). */
export function requireSimple(term: Value, what: string): string {
  const s = asString(term);
  if (s === undefined || s.language !== '') fail(`${what}: expected a simple literal, got ${describe(term)}`);
  return s.lexical;
}

/** The numeric value of a numeric literal with a valid lexical form; error for anything else. */
export function requireNumeric(term: Value, what: string): Numeric {
  if (term.termType === 'Literal') {
    const v = decode(term);
    if (v.kind === 'numeric') return v.numeric;
  }
  return fail(`${what}: expected a number, got ${describe(term)}`);
}

/** A dateTime (or dateTimeStamp) value; with `alsoDate`, an xsd:date too. Error for anything else. */
export function requireDateTime(term: Value, what: string, also: readonly ('date' | 'time')[] = []): DateTimeValue {
  if (term.termType === 'Literal') {
    const v = decode(term);
    if (v.kind === 'datetime' && (v.value.kind === 'dateTime' || (also as readonly string[]).includes(v.value.kind))) return v.value;
  }
  return fail(`${what}: expected an xsd:dateTime, got ${describe(term)}`);
}

/** A short description of a term for error messages. */
export function describe(term: Value | undefined): string {
  if (term === undefined) return 'an unbound value';
  switch (term.termType) {
    case 'NamedNode':
      return `<${term.value}>`;
    case 'BlankNode':
      return `_:${term.value}`;
    case 'Quad':
      return `<<( ${describe(term.subject as Value)} ${describe(term.predicate as Value)} ${describe(term.object as Value)} )>>`;
    default: {
      const text = term.value.length > 40 ? `${term.value.slice(0, 40)}…` : term.value;
      if (term.language !== '') return `"${text}"@${term.language}`;
      return term.datatype.value === XSD_STRING ? `"${text}"` : `"${text}"^^<${term.datatype.value}>`;
    }
  }
}
