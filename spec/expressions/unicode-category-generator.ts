/**
 * Writes `lib/expressions/unicode-category-table.ts`, the general category of every Unicode code
 * point as runs, from JavaScript's Unicode tables (`\p{…}` of the running Node.js).
 *
 * Run it with `node --import tsx spec/expressions/unicode-category-generator.ts` after a change
 * of the Unicode version of Node.js or of re2js (whose `\p{…}` tables the ranges must agree
 * with); `spec/expressions/unicode-categories.spec.ts` checks the table against both.
 */
import { writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The general categories that partition the code points (each code point is in exactly one):
 * XPath's two-letter categories and `Cs`, the surrogates, which XPath counts in `C` only.
 */
export const LEAF_CATEGORIES: readonly string[] = 'Lu Ll Lt Lm Lo Mn Mc Me Nd Nl No Pc Pd Ps Pe Pi Pf Po Zs Zl Zp Sm Sc Sk So Cc Cf Co Cn Cs'.split(' ');

/** The greatest code point. */
const MAX = 0x10ffff;

/** The BMP's code points from `from` to `to` (no surrogates among them) as a string. */
function bmpText(from: number, to: number): string {
  const units = new Uint16Array(to - from + 1);
  for (let c = from; c <= to; c++) units[c - from] = c;
  return new TextDecoder('utf-16le').decode(units);
}

/**
 * The index in {@link LEAF_CATEGORIES} of every code point's category, read from JavaScript's
 * tables one category at a time; throws if a code point is in no category or in two.
 */
export function runtimeCategories(): Uint8Array {
  const ids = new Uint8Array(MAX + 1).fill(255);
  const set = (c: number, id: number): void => {
    if (ids[c] !== 255) throw new Error(`U+${c.toString(16)} is in both ${LEAF_CATEGORIES[ids[c]!]} and ${LEAF_CATEGORIES[id]}`);
    ids[c] = id;
  };
  const texts = [bmpText(0, 0xd7ff), bmpText(0xe000, 0xffff)];
  LEAF_CATEGORIES.forEach((name, id) => {
    // the BMP a run at a time; the lone surrogates one at a time (in a text, two would make a
    // pair); the planes above one code point at a time
    const runs = new RegExp(`\\p{${name}}+`, 'gu');
    for (const text of texts) {
      for (const m of text.matchAll(runs)) for (let i = 0; i < m[0].length; i++) set(m[0].charCodeAt(i), id);
    }
    const one = new RegExp(`^\\p{${name}}$`, 'u');
    for (let c = 0xd800; c <= 0xdfff; c++) if (one.test(String.fromCharCode(c))) set(c, id);
    for (let c = 0x10000; c <= MAX; c++) if (one.test(String.fromCodePoint(c))) set(c, id);
  });
  const missing = ids.indexOf(255);
  if (missing >= 0) throw new Error(`U+${missing.toString(16)} is in no category`);
  return ids;
}

/** The categories as runs from U+0000 up, each the category's name and the run's length in decimal (`Cc32Zs1Po3…`). */
export function encodeRuns(ids: Uint8Array): string {
  let out = '';
  for (let start = 0; start < ids.length; ) {
    let end = start + 1;
    while (end < ids.length && ids[end] === ids[start]) end++;
    out += `${LEAF_CATEGORIES[ids[start]!]}${end - start}`;
    start = end;
  }
  return out;
}

/** The text of the module `lib/expressions/unicode-category-table.ts`. */
export function tableModule(runs: string, unicodeVersion: string): string {
  const lines: string[] = [];
  for (let i = 0; i < runs.length; ) {
    // lines of about 100 characters, cut before a category name
    let end = Math.min(runs.length, i + 100);
    while (end < runs.length && !/[A-Z]/.test(runs[end]!)) end++;
    lines.push(runs.slice(i, end));
    i = end;
  }
  return `/**
 * The Unicode general category of every code point (Unicode ${unicodeVersion}), generated from
 * JavaScript's tables by \`spec/expressions/unicode-category-generator.ts\`: do not edit.
 * @module
 */

/** The Unicode version of {@link CATEGORY_RUNS}. */
export const UNICODE_VERSION = '${unicodeVersion}';

/**
 * Every code point's general category as runs from U+0000 up: a two-letter category (\`Cs\` for
 * the surrogates) and the number of consecutive code points in it, in decimal.
 */
export const CATEGORY_RUNS =
${lines.map((l) => `  '${l}'`).join(' +\n')};
`;
}

/** Writes the table from the running Node.js's Unicode tables. */
function main(): void {
  const target = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'lib', 'expressions', 'unicode-category-table.ts');
  const runs = encodeRuns(runtimeCategories());
  writeFileSync(target, tableModule(runs, process.versions.unicode ?? 'unknown'));
  console.log(`${target}: ${runs.length} characters of runs, Unicode ${process.versions.unicode}`);
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
