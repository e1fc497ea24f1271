/**
 * The character sets of XPath regular expressions (character class expressions and class
 * escapes such as `\s`, `\i`, `\w`, `\p{…}`) and how they are written in RE2 syntax for the
 * linear-time engine. A set is explicit code point ranges plus Unicode category properties,
 * which RE2 knows natively; only class subtraction and negated classes holding `\w` need set
 * arithmetic RE2 has no syntax for, and those sets are turned into ranges first.
 * @module
 */
import { complement, normalize, type Range } from './code-point-ranges.js';
import { categoryRanges } from './unicode-categories.js';

/** A Unicode general category property of a set: `\p{name}`, or `\P{name}` when negated. */
export interface CategoryProperty {
  /** A general category name (`Lu`, `P`, …). */
  readonly name: string;
  /** Whether every code point outside the category is meant (`\P{…}`). */
  readonly negated: boolean;
}

/** A set of characters under construction: the union of its parts. */
export interface CharSet {
  /** Explicit code point ranges. */
  readonly ranges: Range[];
  /** Unicode general categories (and their complements). */
  readonly properties: CategoryProperty[];
  /** Whether `\w` (every character but punctuation, separators and others) is in the set. */
  word: boolean;
}

/** A new empty set. */
export function emptySet(): CharSet {
  return { ranges: [], properties: [], word: false };
}

/** The categories whose union `\W` is (and `\w` the complement). */
const NOT_WORD = ['P', 'Z', 'C'];

/** `\s`: XML whitespace. */
export const SPACE: readonly Range[] = [
  [0x9, 0xa],
  [0xd, 0xd],
  [0x20, 0x20],
];

/** `\i`: the characters that may start an XML name. */
export const NAME_START: readonly Range[] = [
  [0x3a, 0x3a],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
  [0xc0, 0xd6],
  [0xd8, 0xf6],
  [0xf8, 0x2ff],
  [0x370, 0x37d],
  [0x37f, 0x1fff],
  [0x200c, 0x200d],
  [0x2070, 0x218f],
  [0x2c00, 0x2fef],
  [0x3001, 0xd7ff],
  [0xf900, 0xfdcf],
  [0xfdf0, 0xfffd],
  [0x10000, 0xeffff],
];

/** `\c`: the characters of an XML name. */
export const NAME_CHAR: readonly Range[] = [...NAME_START, [0x2d, 0x2e], [0x30, 0x39], [0xb7, 0xb7], [0x300, 0x36f], [0x203f, 0x2040]];

/** A code point in RE2 syntax, inside or outside a class: ASCII letters and digits as they are, anything else as `\x{…}`. */
export function codePoint(c: number): string {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) ? String.fromCharCode(c) : `\\x{${c.toString(16)}}`;
}

/** Every character. */
export const ANY = `[${codePoint(0)}-${codePoint(0x10ffff)}]`;

/** No character at all. */
const NOTHING = `[^${codePoint(0)}-${codePoint(0x10ffff)}]`;

/** The word class `\w`. */
const WORD = `[^${NOT_WORD.map((n) => `\\p{${n}}`).join('')}]`;

/** Ranges as the body of an RE2 class. */
function rangesBody(ranges: readonly Range[]): string {
  let body = '';
  for (const [from, to] of ranges) body += from === to ? codePoint(from) : `${codePoint(from)}-${codePoint(to)}`;
  return body;
}

/** Explicit ranges as an RE2 one-character matcher. */
export function emitRanges(ranges: readonly Range[]): string {
  const normalized = normalize(ranges);
  if (normalized.length === 0) return NOTHING;
  if (normalized.length === 1 && normalized[0]![0] === normalized[0]![1]) return codePoint(normalized[0]![0]);
  return `[${rangesBody(normalized)}]`;
}

/** The body of an RE2 class with the set's ranges and properties (not `\w`). */
function classBody(set: CharSet): string {
  let body = '';
  for (const p of set.properties) body += `\\${p.negated ? 'P' : 'p'}{${p.name}}`;
  return body + rangesBody(normalize(set.ranges));
}

/** The set as an RE2 one-character matcher. */
export function emitPositive(set: CharSet): string {
  if (!set.word) return set.properties.length === 0 ? emitRanges(set.ranges) : `[${classBody(set)}]`;
  const body = classBody(set);
  return body === '' ? WORD : `(?:[${body}]|${WORD})`;
}

/** The complement of the set as an RE2 one-character matcher. */
export function emitNegative(set: CharSet): string {
  if (set.word) return emitRanges(complement(setRanges(set)));
  const body = classBody(set);
  return body === '' ? ANY : `[^${body}]`;
}

/** The code points of the set as ranges (categories looked up when the set has any). */
export function setRanges(set: CharSet): Range[] {
  const parts: Range[] = [...set.ranges];
  for (const p of set.properties) parts.push(...(p.negated ? complement(categoryRanges([p.name])) : categoryRanges([p.name])));
  if (set.word) parts.push(...complement(categoryRanges(NOT_WORD)));
  return normalize(parts);
}
