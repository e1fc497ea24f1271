/**
 * Sets of Unicode code points as sorted lists of inclusive ranges, with the set operations the
 * regular expression translation needs (union, complement, difference).
 * @module
 */

/** An inclusive range of code points `[from, to]`. */
export type Range = readonly [number, number];

/** The greatest Unicode code point. */
export const MAX_CODE_POINT = 0x10ffff;

/** The ranges sorted and merged (overlapping and adjacent ranges joined). */
export function normalize(ranges: readonly Range[]): Range[] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const [from, to] of sorted) {
    const last = out[out.length - 1];
    if (last !== undefined && from <= last[1] + 1) last[1] = Math.max(last[1], to);
    else out.push([from, to]);
  }
  return out;
}

/** Every code point not in the ranges (as normalized ranges). */
export function complement(ranges: readonly Range[]): Range[] {
  const out: Range[] = [];
  let next = 0;
  for (const [from, to] of normalize(ranges)) {
    if (from > next) out.push([next, from - 1]);
    next = Math.max(next, to + 1);
  }
  if (next <= MAX_CODE_POINT) out.push([next, MAX_CODE_POINT]);
  return out;
}

/** The code points of `ranges` that are not in `removed` (as normalized ranges). */
export function difference(ranges: readonly Range[], removed: readonly Range[]): Range[] {
  const keep = complement(removed);
  const out: Range[] = [];
  const a = normalize(ranges);
  let j = 0;
  for (const [from, to] of a) {
    while (j < keep.length && keep[j]![1] < from) j++;
    for (let k = j; k < keep.length && keep[k]![0] <= to; k++) out.push([Math.max(from, keep[k]![0]), Math.min(to, keep[k]![1])]);
  }
  return out;
}
