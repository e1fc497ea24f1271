/**
 * Case variants for the `i` flag of XPath regular expressions: C is a case variant of D when
 * upper-case(C) = upper-case(D) or lower-case(C) = lower-case(D) (F&O 3.1 §5.6.2), with
 * JavaScript's case mappings. Cased characters are in the BMP and plane 1.
 * @module
 */
import type { Range } from './code-point-ranges.js';

interface CaseTable {
  /** Each cased character's variants (itself excluded). */
  readonly variants: Map<number, number[]>;
  /** The keys of `variants`, ascending. */
  readonly cased: number[];
}

let table: CaseTable | undefined;

/** The table of case variants, built on first use. */
function caseTable(): CaseTable {
  if (table !== undefined) return table;
  const byUpper = new Map<string, number[]>();
  const byLower = new Map<string, number[]>();
  const add = (map: Map<string, number[]>, key: string, c: number): void => {
    const list = map.get(key);
    if (list === undefined) map.set(key, [c]);
    else if (!list.includes(c)) list.push(c);
  };
  const candidates = new Set<number>();
  for (let c = 0; c <= 0x1ffff; c++) {
    if (c >= 0xd800 && c <= 0xdfff) continue;
    const ch = String.fromCodePoint(c);
    const upper = ch.toUpperCase();
    const lower = ch.toLowerCase();
    if (upper === ch && lower === ch) continue;
    candidates.add(c);
    for (const mapped of [upper, lower]) {
      const m = mapped.codePointAt(0)!;
      if (mapped.length === String.fromCodePoint(m).length) candidates.add(m);
    }
  }
  for (const c of candidates) {
    const ch = String.fromCodePoint(c);
    add(byUpper, ch.toUpperCase(), c);
    add(byLower, ch.toLowerCase(), c);
  }
  const variants = new Map<number, number[]>();
  for (const c of candidates) {
    const ch = String.fromCodePoint(c);
    const set = new Set<number>([...(byUpper.get(ch.toUpperCase()) ?? []), ...(byLower.get(ch.toLowerCase()) ?? [])]);
    set.delete(c);
    if (set.size > 0) variants.set(c, [...set]);
  }
  table = { variants, cased: [...variants.keys()].sort((a, b) => a - b) };
  return table;
}

/** The range `[from, to]` plus the case variants of every character in it (not normalized). */
export function withCaseVariants(from: number, to: number): Range[] {
  const { variants, cased } = caseTable();
  const out: Range[] = [[from, to]];
  let lo = 0;
  let hi = cased.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cased[mid]! < from) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo; i < cased.length && cased[i]! <= to; i++) for (const v of variants.get(cased[i]!)!) if (v < from || v > to) out.push([v, v]);
  return out;
}
