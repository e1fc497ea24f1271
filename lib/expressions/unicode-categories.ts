/**
 * Unicode general categories (`\p{Lu}`, `\p{P}`, …) for XPath regular expressions: the names
 * XPath allows, and their code points as ranges when a character class needs set arithmetic
 * (class subtraction, a negated class holding `\w`). The ranges come from JavaScript's Unicode
 * tables; elsewhere the regular expression engine's own `\p{…}` tables are used, and the spec of
 * this module checks that the two agree (with Node 20.20's ICU, Unicode 17, and re2js 2.10 they
 * agree on every code point).
 * @module
 */
import { normalize, type Range } from './code-point-ranges.js';

/** The general category names of XPath's `\p{…}` (XML Schema 1.0, F.1.1): one-letter groups and categories. */
export const GENERAL_CATEGORIES: ReadonlySet<string> = new Set(
  'L Lu Ll Lt Lm Lo M Mn Mc Me N Nd Nl No P Pc Pd Ps Pe Pi Pf Po Z Zs Zl Zp S Sm Sc Sk So C Cc Cf Co Cn'.split(' '),
);

const known = new Map<string, Range[]>();

/** The BMP's code points from `from` to `to` (no surrogates among them) as a string. */
function bmpText(from: number, to: number): string {
  const units = new Uint16Array(to - from + 1);
  for (let c = from; c <= to; c++) units[c - from] = c;
  return new TextDecoder('utf-16le').decode(units);
}

/** The code points of one category, read from JavaScript's tables. */
function scan(name: string): Range[] {
  const ranges: [number, number][] = [];
  const add = (c: number): void => {
    const last = ranges[ranges.length - 1];
    if (last !== undefined && last[1] === c - 1) last[1] = c;
    else ranges.push([c, c]);
  };
  // The BMP a run of the category at a time (fast); the surrogates apart (lone surrogates,
  // category Cs, are code points of their own in both engines); the planes above one code point
  // at a time, which V8 does faster than runs of surrogate pairs.
  const runs = new RegExp(`\\p{${name}}+`, 'gu');
  for (const text of [bmpText(0, 0xd7ff), bmpText(0xe000, 0xffff)]) {
    for (const m of text.matchAll(runs)) ranges.push([m[0].charCodeAt(0), m[0].charCodeAt(m[0].length - 1)]);
  }
  const one = new RegExp(`^\\p{${name}}$`, 'u');
  if (one.test('\ud800')) ranges.push([0xd800, 0xdfff]);
  for (let c = 0x10000; c <= 0x10ffff; c++) if (one.test(String.fromCodePoint(c))) add(c);
  return normalize(ranges);
}

/** The code points of the union of general categories (names from {@link GENERAL_CATEGORIES}), as normalized ranges. */
export function categoryRanges(names: readonly string[]): Range[] {
  for (const name of names) if (!known.has(name)) known.set(name, scan(name));
  return normalize(names.flatMap((n) => known.get(n)!));
}
