/**
 * Functions on RDF terms (§17.4.2) and the numeric functions (§17.4.4): STR, LANG, DATATYPE,
 * IRI/URI, STRDT, STRLANG, UUID, STRUUID, isIRI/isURI, isBLANK, isLITERAL, isNUMERIC, sameTerm,
 * RAND, ABS, ROUND, CEIL, FLOOR, and RDFox's isInteger, isDecimal and STREX. The date/time
 * accessors YEAR … TZ (§17.4.5) are in `calendar.ts`. BNODE, BOUND, IF, COALESCE, IN and NOT IN
 * need the evaluation context or lazy arguments and are compiled in `compile.ts`.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { DataFactory } from 'n3';
import { sameTerm as termEquals } from './comparison.js';
import { fail } from './errors.js';
import { isValidIri, hasScheme, resolveIri } from './iri.js';
import { type Numeric, double, numericAbs, numericCeil, numericFloor, numericRound } from './numeric.js';
import { type Value, decode, describe, numericLiteral, requireNumeric, requireSimple, stringLiteral } from './values.js';
import { booleanLiteral, iri, RDF_DIR_LANG_STRING, RDF_LANG_STRING, typedLiteral, XSD_STRING } from './vocabulary.js';

/** STR: the lexical form of a literal or the string of an IRI, as a simple literal. */
export function str(arg: Value): Value {
  if (arg.termType === 'BlankNode') fail('STR of a blank node');
  if (arg.termType === 'Quad') fail('STR of a triple term');
  if (arg.termType === 'NamedNode') return stringLiteral(arg.value);
  const v = decode(arg);
  // a simple literal (or xsd:string) is its own string
  if (v.kind === 'string' && v.language === '' && v.datatype === XSD_STRING) return arg;
  return stringLiteral(v.lexical);
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

/** A well-formed language tag (BCP 47's syntax, as STRLANG checks it). */
export const LANGUAGE_TAG = /^[a-zA-Z]{1,8}(?:-[a-zA-Z0-9]{1,8})*$/;

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

/** isInteger (RDFox): a valid literal of xsd:integer or one of its derived datatypes (xsd:int, …). */
export function isInteger(arg: Value): Value {
  if (arg.termType !== 'Literal') return booleanLiteral(false);
  const v = decode(arg);
  return booleanLiteral(v.kind === 'numeric' && v.numeric.type === 'integer');
}

/** isDecimal (RDFox): a valid xsd:decimal literal (not one of the integer datatypes). */
export function isDecimal(arg: Value): Value {
  if (arg.termType !== 'Literal') return booleanLiteral(false);
  const v = decode(arg);
  return booleanLiteral(v.kind === 'numeric' && v.numeric.type === 'decimal');
}

/**
 * STREX (RDFox): a string for any term, where STR fails on blank nodes: the IRI of an IRI, the
 * lexical form of a literal, `_:label` for a blank node.
 */
export function strex(arg: Value): Value {
  return stringLiteral(arg.termType === 'BlankNode' ? `_:${arg.value}` : arg.value);
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
