/**
 * Unicode general categories (`\p{Lu}`, `\p{P}`, …) for XPath regular expressions: the names
 * XPath allows, and their code points as ranges when a character class needs set arithmetic
 * (class subtraction, a negated class holding `\w`). The ranges come from a generated table of
 * every code point's category (`unicode-category-table.ts`, Unicode 17), decoded on first use in
 * about a millisecond; reading JavaScript's tables code point by code point at run time held the
 * event loop 40–260 ms. Elsewhere the regular expression engine's own `\p{…}` tables are used:
 * the spec of this module checks that the table agrees with them (at every range's ends and
 * their neighbours) and with JavaScript's (at every code point). With Unicode 17, as in Node
 * 20.20's ICU and re2js 2.10, all three agree; the table, unlike the runtime's tables, stays
 * that of re2js on a Node.js of another Unicode version.
 * @module
 */
import { MAX_CODE_POINT, normalize, type Range } from './code-point-ranges.js';
import { CATEGORY_RUNS } from './unicode-category-table.js';

/** The general category names of XPath's `\p{…}` (XML Schema 1.0, F.1.1): one-letter groups and categories. */
export const GENERAL_CATEGORIES: ReadonlySet<string> = new Set(
  'L Lu Ll Lt Lm Lo M Mn Mc Me N Nd Nl No P Pc Pd Ps Pe Pi Pf Po Z Zs Zl Zp S Sm Sc Sk So C Cc Cf Co Cn'.split(' '),
);

/** The table's runs, decoded on first use: where each starts, and its category's two letters. */
let runs: { readonly starts: Uint32Array; readonly categories: string[] } | undefined;

/** The runs of {@link CATEGORY_RUNS}, read by a loop over its characters (`matchAll` took up to 19 ms on its first call). */
function decodedRuns(): { readonly starts: Uint32Array; readonly categories: string[] } {
  if (runs !== undefined) return runs;
  const text = CATEGORY_RUNS;
  const starts: number[] = [];
  const categories: string[] = [];
  let next = 0;
  for (let i = 0; i < text.length; ) {
    starts.push(next);
    categories.push(text.slice(i, i + 2));
    i += 2;
    let length = 0;
    for (let d = text.charCodeAt(i); d >= 0x30 && d <= 0x39; d = text.charCodeAt(++i)) length = length * 10 + d - 0x30;
    next += length;
  }
  if (next !== MAX_CODE_POINT + 1) throw new Error(`the Unicode category table covers ${next} code points`);
  runs = { starts: Uint32Array.from(starts), categories };
  return runs;
}

const known = new Map<string, Range[]>();

/** The code points of one category or one-letter group, as normalized ranges (adjacent runs joined). */
function rangesOf(name: string): Range[] {
  const hit = known.get(name);
  if (hit !== undefined) return hit;
  const { starts, categories } = decodedRuns();
  const ranges: [number, number][] = [];
  for (let r = 0; r < starts.length; r++) {
    const category = categories[r]!;
    if (category !== name && category[0] !== name) continue;
    const from = starts[r]!;
    const to = r + 1 < starts.length ? starts[r + 1]! - 1 : MAX_CODE_POINT;
    const last = ranges[ranges.length - 1];
    if (last !== undefined && last[1] === from - 1) last[1] = to;
    else ranges.push([from, to]);
  }
  known.set(name, ranges);
  return ranges;
}

/** The code points of the union of general categories (names from {@link GENERAL_CATEGORIES}), as normalized ranges. */
export function categoryRanges(names: readonly string[]): Range[] {
  return names.length === 1 ? [...rangesOf(names[0]!)] : normalize(names.flatMap(rangesOf));
}
