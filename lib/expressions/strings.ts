/**
 * SPARQL string functions (§17.4.3): STRLEN, SUBSTR, UCASE, LCASE, STRSTARTS, STRENDS,
 * CONTAINS, STRBEFORE, STRAFTER, ENCODE_FOR_URI, CONCAT, LANGMATCHES, REGEX and REPLACE, with
 * the argument compatibility rules (§17.4.3.1.2) and the language tags of results. Lengths and
 * positions count Unicode code points, not UTF-16 code units. Also RDFox's ESCAPE_HTML_URI and
 * IRI_TO_URI (XPath fn:escape-html-uri and fn:iri-to-uri).
 * @module
 */
import type * as RDF from '@rdfjs/types/data-model.js';
import { fail } from './errors.js';
import { toDouble } from './numeric.js';
import { regexMatches, regexReplace } from './regex.js';
import { type StringValue, type Value, integerLiteralOf, requireNumeric, requireSimple, requireString, stringLiteral } from './values.js';
import { booleanLiteral } from './vocabulary.js';

const SURROGATE = /[\uD800-\uDFFF]/;

/** Number of code points of a string. */
export function codePointLength(s: string): number {
  if (!SURROGATE.test(s)) return s.length;
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xdc00 || c > 0xdfff || i === 0 || s.charCodeAt(i - 1) < 0xd800 || s.charCodeAt(i - 1) > 0xdbff) n++;
  }
  return n;
}

/**
 * Checks that two string arguments are compatible (§17.4.3.1.2): the second is simple, or both
 * have the same language tag and the same base direction (SPARQL 1.2); error otherwise.
 */
function compatible(a: StringValue, b: StringValue, what: string): void {
  if (b.language !== '' && (a.language !== b.language || a.direction !== b.direction)) fail(`${what}: incompatible arguments`);
}

/** STRLEN: the number of characters. */
export function strlen(arg: Value): Value {
  return integerLiteralOf(codePointLength(requireString(arg, 'STRLEN').lexical));
}

/** fn:round on a double (halves toward positive infinity). */
function xpathRound(x: number): number {
  return Math.round(x);
}

/**
 * SUBSTR (fn:substring): the characters at 1-based positions p with
 * round(start) ≤ p < round(start) + round(length); the result keeps the argument's language tag.
 */
export function substr(source: Value, start: Value, length?: Value): Value {
  const s = requireString(source, 'SUBSTR');
  const from = xpathRound(toDouble(requireNumeric(start, 'SUBSTR')));
  const end = length === undefined ? Infinity : from + xpathRound(toDouble(requireNumeric(length, 'SUBSTR')));
  if (Number.isNaN(from) || Number.isNaN(end)) return stringLiteral('', s.language, s.direction);
  const chars = SURROGATE.test(s.lexical) ? Array.from(s.lexical) : undefined;
  const n = chars === undefined ? s.lexical.length : chars.length;
  const first = Math.max(from, 1);
  const last = Math.min(end, n + 1);
  if (last <= first) return stringLiteral('', s.language, s.direction);
  const text = chars === undefined ? s.lexical.slice(first - 1, last - 1) : chars.slice(first - 1, last - 1).join('');
  return stringLiteral(text, s.language, s.direction);
}

/** UCASE. */
export function ucase(arg: Value): Value {
  const s = requireString(arg, 'UCASE');
  return stringLiteral(s.lexical.toUpperCase(), s.language, s.direction);
}

/** LCASE. */
export function lcase(arg: Value): Value {
  const s = requireString(arg, 'LCASE');
  return stringLiteral(s.lexical.toLowerCase(), s.language, s.direction);
}

/** STRSTARTS. */
export function strstarts(a: Value, b: Value): Value {
  const x = requireString(a, 'STRSTARTS');
  const y = requireString(b, 'STRSTARTS');
  compatible(x, y, 'STRSTARTS');
  return booleanLiteral(x.lexical.startsWith(y.lexical));
}

/** STRENDS. */
export function strends(a: Value, b: Value): Value {
  const x = requireString(a, 'STRENDS');
  const y = requireString(b, 'STRENDS');
  compatible(x, y, 'STRENDS');
  return booleanLiteral(x.lexical.endsWith(y.lexical));
}

/** CONTAINS. */
export function contains(a: Value, b: Value): Value {
  const x = requireString(a, 'CONTAINS');
  const y = requireString(b, 'CONTAINS');
  compatible(x, y, 'CONTAINS');
  return booleanLiteral(x.lexical.includes(y.lexical));
}

/** STRBEFORE: the part before the first match (keeping the tag), or `""` when there is none. */
export function strbefore(a: Value, b: Value): Value {
  const x = requireString(a, 'STRBEFORE');
  const y = requireString(b, 'STRBEFORE');
  compatible(x, y, 'STRBEFORE');
  const i = x.lexical.indexOf(y.lexical);
  return i < 0 ? stringLiteral('') : stringLiteral(x.lexical.slice(0, i), x.language, x.direction);
}

/** STRAFTER: the part after the first match (keeping the tag), or `""` when there is none. */
export function strafter(a: Value, b: Value): Value {
  const x = requireString(a, 'STRAFTER');
  const y = requireString(b, 'STRAFTER');
  compatible(x, y, 'STRAFTER');
  const i = x.lexical.indexOf(y.lexical);
  return i < 0 ? stringLiteral('') : stringLiteral(x.lexical.slice(i + y.lexical.length), x.language, x.direction);
}

const UNRESERVED = /^[A-Za-z0-9\-_.~]$/;
const encoder = new TextEncoder();

/** ENCODE_FOR_URI: percent-encodes (UTF-8) every character but the RFC 3986 unreserved ones. */
export function encodeForUri(arg: Value): Value {
  const s = requireString(arg, 'ENCODE_FOR_URI').lexical;
  let out = '';
  for (const ch of s) {
    if (UNRESERVED.test(ch)) out += ch;
    else for (const byte of encoder.encode(ch)) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return stringLiteral(out);
}

/** Percent-encodes (UTF-8) the characters of a string literal argument for which `escape` holds. */
function percentEncode(arg: Value, what: string, escape: (codePoint: number) => boolean): Value {
  const s = requireString(arg, what).lexical;
  let out = '';
  for (const ch of s) {
    if (!escape(ch.codePointAt(0)!)) out += ch;
    else for (const byte of encoder.encode(ch)) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return stringLiteral(out);
}

/** The characters fn:iri-to-uri escapes besides the non-ASCII ones: controls, space and `<>"{}|\^\``. */
const NOT_IN_URIS = new Set([...' <>"{}|\\^`'].map((c) => c.codePointAt(0)!));

/**
 * ESCAPE_HTML_URI (fn:escape-html-uri): percent-encodes every character outside printable ASCII
 * (code points 32–126), as HTML does with URIs in attribute values; a simple literal.
 */
export function escapeHtmlUri(arg: Value): Value {
  return percentEncode(arg, 'ESCAPE_HTML_URI', (c) => c < 0x20 || c > 0x7e);
}

/**
 * IRI_TO_URI (fn:iri-to-uri): percent-encodes the characters an IRI may contain and a URI may
 * not (non-ASCII characters, controls, space and `<>"{}|\^\``); a simple literal.
 */
export function iriToUri(arg: Value): Value {
  return percentEncode(arg, 'IRI_TO_URI', (c) => c < 0x20 || c > 0x7e || NOT_IN_URIS.has(c));
}

/** CONCAT: the result has a language tag (and base direction) only when every argument has that same tag (and direction). */
export function concat(args: readonly Value[]): Value {
  if (args.length === 0) return stringLiteral('');
  const c = new Concatenation(args[0]!);
  for (let i = 1; i < args.length; i++) c.add(args[i]!);
  return c.result();
}

/** CONCAT built one argument at a time (as {@link concat} of all of them; the first one given at the start). */
export class Concatenation {
  private text: string;
  private language: string;
  private direction: 'ltr' | 'rtl' | undefined;
  constructor(first: Value) {
    const s = requireString(first, 'CONCAT');
    this.text = s.lexical;
    this.language = s.language;
    this.direction = s.direction;
  }
  /** Appends the next argument. */
  add(arg: Value): void {
    const s = requireString(arg, 'CONCAT');
    this.text += s.lexical;
    if (this.language !== s.language || this.direction !== s.direction) {
      this.language = '';
      this.direction = undefined;
    }
  }
  /** The concatenation. */
  result(): Value {
    return stringLiteral(this.text, this.language, this.direction);
  }
}

/** A {@link Concatenation} starting with `first`. */
export function concatenation(first: Value): Concatenation {
  return new Concatenation(first);
}

/** LANGMATCHES: RFC 4647 basic filtering; `*` matches every non-empty tag. */
export function langMatches(tag: Value, range: Value): Value {
  const t = requireSimple(tag, 'LANGMATCHES').toLowerCase();
  const r = requireSimple(range, 'LANGMATCHES').toLowerCase();
  if (r === '*') return booleanLiteral(t !== '');
  return booleanLiteral(t === r || (t.startsWith(r) && t.charAt(r.length) === '-'));
}

/** REGEX(text, pattern[, flags]). */
export function regex(text: Value, pattern: Value, flags?: Value): Value {
  const s = requireString(text, 'REGEX').lexical;
  const p = requireSimple(pattern, 'REGEX');
  const f = flags === undefined ? '' : requireSimple(flags, 'REGEX');
  return booleanLiteral(regexMatches(s, p, f));
}

/** REPLACE(arg, pattern, replacement[, flags]): the result keeps the argument's language tag. */
export function replace(arg: Value, pattern: Value, replacement: Value, flags?: Value): RDF.Literal {
  const s = requireString(arg, 'REPLACE');
  const p = requireSimple(pattern, 'REPLACE');
  const r = requireSimple(replacement, 'REPLACE');
  const f = flags === undefined ? '' : requireSimple(flags, 'REPLACE');
  return stringLiteral(regexReplace(s.lexical, p, r, f), s.language, s.direction);
}
