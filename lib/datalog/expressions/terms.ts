/**
 * Functions on RDF terms (§17.4.2) and the numeric functions (§17.4.4): STR, LANG, DATATYPE,
 * IRI/URI, STRDT, STRLANG, UUID, STRUUID, isIRI/isURI, isBLANK, isLITERAL, isNUMERIC, sameTerm,
 * RAND, ABS, ROUND, CEIL, FLOOR, and the date/time accessors YEAR … TZ (§17.4.5). BNODE, BOUND,
 * IF, COALESCE, IN and NOT IN need the evaluation context or lazy arguments and are compiled in
 * `compile.ts`.
 * @module
 */
import { randomUUID } from 'node:crypto';
import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import { sameTerm as termEquals } from './comparison.js';
import { formatDayTimeDuration } from './datetime.js';
import { decimalFromBigInt } from './decimal.js';
import { fail } from './errors.js';
import { isValidIri, hasScheme, resolveIri } from './iri.js';
import { type Numeric, double, numericAbs, numericCeil, numericFloor, numericRound, decimal } from './numeric.js';
import {
  type Value,
  decode,
  describe,
  integerLiteral,
  numericLiteral,
  requireDateTime,
  requireNumeric,
  requireSimple,
  stringLiteral,
} from './values.js';
import { booleanLiteral, iri, RDF_DIR_LANG_STRING, RDF_LANG_STRING, typedLiteral, XSD_DAY_TIME_DURATION } from './vocabulary.js';

/** STR: the lexical form of a literal or the string of an IRI, as a simple literal. */
export function str(arg: Value): Value {
  if (arg.termType === 'BlankNode') fail('STR of a blank node');
  return stringLiteral(arg.value);
}

/** LANG: the language tag of a literal (`""` when it has none). */
export function lang(arg: Value): Value {
  if (arg.termType !== 'Literal') fail(`LANG of ${describe(arg)}`);
  const v = decode(arg);
  return stringLiteral(v.kind === 'string' ? v.language : '');
}

/** DATATYPE: the datatype IRI of a literal (xsd:string for simple literals, rdf:langString for tagged ones). */
export function datatype(arg: Value): Value {
  if (arg.termType !== 'Literal') fail(`DATATYPE of ${describe(arg)}`);
  return iri(decode(arg).datatype);
}

/** IRI/URI: an IRI unchanged, or a simple literal resolved against the base IRI. */
export function toIri(arg: Value, baseIRI: string | undefined): Value {
  if (arg.termType === 'NamedNode') return arg;
  const text = requireSimple(arg, 'IRI');
  let result: string;
  if (hasScheme(text)) result = text;
  else if (baseIRI !== undefined && hasScheme(baseIRI)) result = resolveIri(text, baseIRI);
  else return fail(`IRI: relative IRI "${text}" and no base IRI`);
  if (!isValidIri(result)) fail(`IRI: invalid IRI "${result}"`);
  return DataFactory.namedNode(result);
}

/** STRDT: a literal with a simple literal's lexical form and the given datatype IRI. */
export function strdt(lexical: Value, dt: Value): Value {
  const text = requireSimple(lexical, 'STRDT');
  if (dt.termType !== 'NamedNode') fail(`STRDT: the datatype must be an IRI, got ${describe(dt)}`);
  if (dt.value === RDF_LANG_STRING || dt.value === RDF_DIR_LANG_STRING) fail('STRDT: use STRLANG for language-tagged strings');
  return typedLiteral(text, dt.value);
}

const LANGUAGE_TAG = /^[a-zA-Z]{1,8}(?:-[a-zA-Z0-9]{1,8})*$/;

/** STRLANG: a language-tagged string from a simple literal and a (well-formed) tag. */
export function strlang(lexical: Value, tag: Value): Value {
  const text = requireSimple(lexical, 'STRLANG');
  const language = requireSimple(tag, 'STRLANG');
  if (!LANGUAGE_TAG.test(language)) fail(`STRLANG: invalid language tag "${language}"`);
  return stringLiteral(text, language);
}

/** UUID: a fresh `urn:uuid:` IRI. */
export function uuid(): Value {
  return DataFactory.namedNode(`urn:uuid:${randomUUID()}`);
}

/** STRUUID: a fresh UUID string. */
export function struuid(): Value {
  return stringLiteral(randomUUID());
}

/** isIRI / isURI. */
export function isIri(arg: Value): Value {
  return booleanLiteral(arg.termType === 'NamedNode');
}

/** isBLANK. */
export function isBlank(arg: Value): Value {
  return booleanLiteral(arg.termType === 'BlankNode');
}

/** isLITERAL. */
export function isLiteral(arg: Value): Value {
  return booleanLiteral(arg.termType === 'Literal');
}

/** isNUMERIC: a numeric datatype and a valid lexical form (in range for the integer subtypes). */
export function isNumeric(arg: Value): Value {
  return booleanLiteral(arg.termType === 'Literal' && decode(arg).kind === 'numeric');
}

/** sameTerm. */
export function sameTerm(a: Value, b: Value): Value {
  return booleanLiteral(termEquals(a, b));
}

/** RAND: a double in [0, 1). */
export function rand(): Value {
  return numericLiteral(double(Math.random()));
}

function numericFunction(name: string, fn: (n: Numeric) => Numeric): (arg: Value) => Value {
  return (arg) => numericLiteral(fn(requireNumeric(arg, name)));
}

/** ABS (the result has the primitive type of the argument: xsd:int gives xsd:integer). */
export const abs: (arg: Value) => Value = numericFunction('ABS', numericAbs);
/** ROUND (halves toward positive infinity). */
export const round: (arg: Value) => Value = numericFunction('ROUND', numericRound);
/** CEIL. */
export const ceil: (arg: Value) => Value = numericFunction('CEIL', numericCeil);
/** FLOOR. */
export const floor: (arg: Value) => Value = numericFunction('FLOOR', numericFloor);

/** YEAR of an xsd:dateTime (or xsd:date). */
export function year(arg: Value): Value {
  return integerLiteral(requireDateTime(arg, 'YEAR', ['date']).year);
}

/** MONTH of an xsd:dateTime (or xsd:date). */
export function month(arg: Value): Value {
  return integerLiteral(BigInt(requireDateTime(arg, 'MONTH', ['date']).month));
}

/** DAY of an xsd:dateTime (or xsd:date). */
export function day(arg: Value): Value {
  return integerLiteral(BigInt(requireDateTime(arg, 'DAY', ['date']).day));
}

/** HOURS of an xsd:dateTime (or xsd:time). */
export function hours(arg: Value): Value {
  return integerLiteral(BigInt(requireDateTime(arg, 'HOURS', ['time']).hour));
}

/** MINUTES of an xsd:dateTime (or xsd:time). */
export function minutes(arg: Value): Value {
  return integerLiteral(BigInt(requireDateTime(arg, 'MINUTES', ['time']).minute));
}

/** SECONDS of an xsd:dateTime (or xsd:time), as an xsd:decimal. */
export function seconds(arg: Value): Value {
  return numericLiteral(decimal(requireDateTime(arg, 'SECONDS', ['time']).second));
}

/** TIMEZONE: the timezone as an xsd:dayTimeDuration; error when there is none. */
export function timezone(arg: Value): RDF.Literal {
  const v = requireDateTime(arg, 'TIMEZONE', ['date', 'time']);
  if (v.tz === undefined) fail('TIMEZONE of a value without a timezone');
  return typedLiteral(formatDayTimeDuration(decimalFromBigInt(BigInt(v.tz * 60))), XSD_DAY_TIME_DURATION);
}

/** TZ: the timezone as written (`Z`, `-05:00`), `""` when there is none. */
export function tz(arg: Value): Value {
  return stringLiteral(requireDateTime(arg, 'TZ', ['date', 'time']).tzText);
}
