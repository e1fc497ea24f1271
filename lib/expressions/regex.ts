/**
 * XPath/XQuery regular expressions (F&O 3.1 §5.6, on XML Schema regular expressions) translated
 * to JavaScript regular expressions with the `u` flag, and the REGEX and REPLACE functions.
 *
 * The translation parses the XPath syntax strictly (invalid patterns are errors) and re-emits
 * every literal as a `\u{…}` escape, so no JavaScript-specific syntax leaks through. It handles
 * the XPath meanings of `.` (not `\n`/`\r` unless flag `s`), `^`/`$` (lines split at `\n` only with
 * flag `m`), `\s \S \i \I \c \C \d \D \w \W`, `\p{…}`/`\P{…}` (general categories and `Is` blocks),
 * character class subtraction `[a-z-[aeiou]]`, back-references, reluctant quantifiers and the
 * flags `s m i x q`.
 * @module
 */
import { ExpressionError, fail } from './errors.js';
import { unicodeBlock } from './unicode-blocks.js';

/** A compiled XPath regular expression. */
export interface CompiledRegex {
  /** For tests (REGEX): not global. */
  readonly test: RegExp;
  /** For REPLACE: global. */
  readonly global: RegExp;
  /** Number of capturing groups. */
  readonly groups: number;
  /** Whether the `q` flag was given (REPLACE then takes the replacement literally). */
  readonly literal: boolean;
}

type Range = readonly [number, number];

/** A set of characters under construction: ranges and JS class atoms. */
interface CharSet {
  /** Code point ranges. */
  readonly ranges: Range[];
  /** JavaScript escapes valid inside a class (`\p{L}`, `\P{Nd}`). */
  readonly atoms: string[];
  /** Whether `\w` (needs a negated class of its own) is in the set. */
  word: boolean;
}

const MAX = 0x10ffff;

function complement(ranges: readonly Range[]): Range[] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: Range[] = [];
  let next = 0;
  for (const [from, to] of sorted) {
    if (from > next) out.push([next, from - 1]);
    next = Math.max(next, to + 1);
  }
  if (next <= MAX) out.push([next, MAX]);
  return out;
}

const SPACE: Range[] = [
  [0x9, 0xa],
  [0xd, 0xd],
  [0x20, 0x20],
];
const NAME_START: Range[] = [
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
const NAME_CHAR: Range[] = [
  ...NAME_START,
  [0x2d, 0x2e],
  [0x30, 0x39],
  [0xb7, 0xb7],
  [0x300, 0x36f],
  [0x203f, 0x2040],
];

const CATEGORIES = new Set(
  'L Lu Ll Lt Lm Lo M Mn Mc Me N Nd Nl No P Pc Pd Ps Pe Pi Pf Po Z Zs Zl Zp S Sm Sc Sk So C Cc Cf Co Cn'.split(' '),
);

function cp(c: number): string {
  return `\\u{${c.toString(16)}}`;
}

// ---------------------------------------------------------------------------------------------
// Case variants (flag i): C is a case variant of D when upper-case(C) = upper-case(D) or
// lower-case(C) = lower-case(D) (F&O 3.1 §5.6.2). Cased characters are in the BMP and plane 1.

let variantTable: { readonly variants: Map<number, number[]>; readonly cased: number[] } | undefined;

function caseTable(): { readonly variants: Map<number, number[]>; readonly cased: number[] } {
  if (variantTable !== undefined) return variantTable;
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
  variantTable = { variants, cased: [...variants.keys()].sort((a, b) => a - b) };
  return variantTable;
}

/** A literal character as an atom, with its case variants when `fold`. */
function literalAtom(c: number, fold: boolean): string {
  if (!fold) return cp(c);
  const ranges = withCaseVariants(c, c);
  return ranges.length === 1 ? cp(c) : `[${ranges.map(([f]) => cp(f)).join('')}]`;
}

/** The ranges plus the case variants of every character in them. */
function withCaseVariants(from: number, to: number): Range[] {
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

function classBody(set: CharSet): string {
  let body = set.atoms.join('');
  for (const [from, to] of set.ranges) body += from === to ? cp(from) : `${cp(from)}-${cp(to)}`;
  return body;
}

const WORD = '[^\\p{P}\\p{Z}\\p{C}]';
const ANY = `[${cp(0)}-${cp(MAX)}]`;

/** One-character matcher for the union in a set. */
function emitPositive(set: CharSet): string {
  const body = classBody(set);
  if (!set.word) return `[${body}]`;
  return body === '' ? WORD : `(?:[${body}]|${WORD})`;
}

function emitNegative(set: CharSet): string {
  if (!set.word) return `[^${classBody(set)}]`;
  return `(?:(?!${emitPositive(set)})${ANY})`;
}

class Translator {
  private readonly chars: number[];
  private pos = 0;
  private groupCount = 0;
  private readonly closed = new Set<number>();

  /** Whether a back-reference occurs (they need JavaScript's own case-insensitive mode). */
  usesBackReferences = false;

  constructor(
    pattern: string,
    private readonly dotAll: boolean,
    private readonly multiline: boolean,
    /** Flag i done here, by adding case variants of characters (so \p{Lu} stays case-sensitive). */
    private readonly foldCase: boolean,
  ) {
    this.chars = Array.from(pattern, (c) => c.codePointAt(0)!);
  }

  get groups(): number {
    return this.groupCount;
  }

  /** A literal character as an atom (with its case variants under flag i). */
  private literal(c: number): string {
    return literalAtom(c, this.foldCase);
  }

  /** Adds a literal character range of a class (with case variants under flag i). */
  private addRange(set: CharSet, from: number, to: number): void {
    if (this.foldCase) set.ranges.push(...withCaseVariants(from, to));
    else set.ranges.push([from, to]);
  }

  translate(): string {
    const out = this.regExp();
    if (this.pos < this.chars.length) this.error('unbalanced parenthesis');
    return out;
  }

  private error(message: string): never {
    return fail(`invalid regular expression: ${message}`);
  }

  private peek(offset = 0): number | undefined {
    return this.chars[this.pos + offset];
  }

  private next(): number {
    const c = this.chars[this.pos++];
    if (c === undefined) this.error('unexpected end of pattern');
    return c;
  }

  private is(c: number | undefined, ch: string): boolean {
    return c === ch.charCodeAt(0);
  }

  private regExp(): string {
    const branches = [this.branch()];
    while (this.is(this.peek(), '|')) {
      this.pos++;
      branches.push(this.branch());
    }
    return branches.join('|');
  }

  private branch(): string {
    let out = '';
    for (;;) {
      const c = this.peek();
      if (c === undefined || this.is(c, '|') || this.is(c, ')')) return out;
      out += this.piece();
    }
  }

  private piece(): string {
    const [atom, quantifiable] = this.atom();
    const q = this.quantifier();
    if (q === '') return atom;
    if (!quantifiable) this.error('a quantifier must follow a quantifiable atom');
    return atom + q;
  }

  private quantifier(): string {
    const c = this.peek();
    let q: string;
    if (this.is(c, '?') || this.is(c, '*') || this.is(c, '+')) {
      this.pos++;
      q = String.fromCodePoint(c!);
    } else if (this.is(c, '{')) {
      this.pos++;
      const min = this.digits();
      if (min === '') this.error('a quantifier needs a minimum');
      let max: string | undefined = min;
      if (this.is(this.peek(), ',')) {
        this.pos++;
        max = this.digits();
        if (max !== '' && BigInt(max) < BigInt(min)) this.error('quantifier maximum below minimum');
      }
      if (!this.is(this.next(), '}')) this.error('unterminated quantifier');
      q = max === min ? `{${min}}` : `{${min},${max}}`;
    } else return '';
    if (this.is(this.peek(), '?')) {
      this.pos++;
      q += '?';
    }
    return q;
  }

  private digits(): string {
    let s = '';
    while (this.peek() !== undefined && this.peek()! >= 0x30 && this.peek()! <= 0x39) s += String.fromCodePoint(this.next());
    return s;
  }

  private atom(): [string, boolean] {
    const c = this.next();
    switch (String.fromCodePoint(c)) {
      case '(': {
        let capturing = true;
        if (this.is(this.peek(), '?')) {
          if (!this.is(this.peek(1), ':')) this.error('only (?: groups are allowed');
          this.pos += 2;
          capturing = false;
        }
        const index = capturing ? ++this.groupCount : 0;
        const inner = this.regExp();
        if (!this.is(this.next(), ')')) this.error('unbalanced parenthesis');
        if (capturing) this.closed.add(index);
        return [capturing ? `(${inner})` : `(?:${inner})`, true];
      }
      case '[':
        return [this.charClassExpr(), true];
      case '.':
        return [this.dotAll ? ANY : '[^\\n\\r]', true];
      case '^':
        return [this.multiline ? '(?:^|(?<=\\n))' : '^', false];
      case '$':
        return [this.multiline ? '(?:$|(?=\\n))' : '$', false];
      case '\\':
        return [this.escapeOutside(), true];
      case '?':
      case '*':
      case '+':
      case '{':
        return this.error('quantifier without an atom');
      case ')':
        return this.error('unbalanced parenthesis');
      case '}':
      case ']':
        return this.error(`unescaped ${String.fromCodePoint(c)}`);
      default:
        return [this.literal(c), true];
    }
  }

  private escapeOutside(): string {
    const c = this.peek();
    if (c !== undefined && c >= 0x31 && c <= 0x39) return this.backReference();
    const single = this.singleCharEscape();
    if (single !== undefined) return this.literal(single);
    const set = this.classEscape();
    return set.atoms.length === 1 && set.ranges.length === 0 && !set.word ? set.atoms[0]! : emitPositive(set);
  }

  private backReference(): string {
    this.usesBackReferences = true;
    let n = this.next() - 0x30;
    for (;;) {
      const d = this.peek();
      if (d === undefined || d < 0x30 || d > 0x39) break;
      const m = n * 10 + (d - 0x30);
      if (m > this.groupCount) break;
      n = m;
      this.pos++;
    }
    if (!this.closed.has(n)) this.error(`back-reference \\${n} to a group that is not closed before it`);
    return `(?:\\${n})`;
  }

  /** The code point of a single-character escape after `\`, consumed; undefined (nothing consumed) otherwise. */
  private singleCharEscape(): number | undefined {
    const c = this.peek();
    if (c === undefined) this.error('pattern ends with \\');
    const ch = String.fromCodePoint(c);
    const mapped = ch === 'n' ? 0xa : ch === 'r' ? 0xd : ch === 't' ? 0x9 : '\\|.?*+(){}-[]^$'.includes(ch) ? c : undefined;
    if (mapped !== undefined) this.pos++;
    return mapped;
  }

  /** A class escape after `\` (`\d`, `\p{L}`, …) as a set; error when it is not one. */
  private classEscape(): CharSet {
    const c = String.fromCodePoint(this.next());
    const set: CharSet = { ranges: [], atoms: [], word: false };
    switch (c) {
      case 's':
        set.ranges.push(...SPACE);
        break;
      case 'S':
        set.ranges.push(...complement(SPACE));
        break;
      case 'i':
        set.ranges.push(...NAME_START);
        break;
      case 'I':
        set.ranges.push(...complement(NAME_START));
        break;
      case 'c':
        set.ranges.push(...NAME_CHAR);
        break;
      case 'C':
        set.ranges.push(...complement(NAME_CHAR));
        break;
      case 'd':
        set.atoms.push('\\p{Nd}');
        break;
      case 'D':
        set.atoms.push('\\P{Nd}');
        break;
      case 'w':
        set.word = true;
        break;
      case 'W':
        set.atoms.push('\\p{P}', '\\p{Z}', '\\p{C}');
        break;
      case 'p':
      case 'P': {
        if (!this.is(this.next(), '{')) this.error(`\\${c} needs {…}`);
        let name = '';
        while (!this.is(this.peek(), '}')) name += String.fromCodePoint(this.next());
        this.pos++;
        const negated = c === 'P';
        if (name.startsWith('Is')) {
          const ranges = unicodeBlock(name.slice(2));
          if (ranges === undefined) this.error(`unknown block ${name}`);
          set.ranges.push(...(negated ? complement(ranges) : ranges));
        } else if (CATEGORIES.has(name)) set.atoms.push(`\\${c}{${name}}`);
        else this.error(`unknown character property ${name}`);
        break;
      }
      default:
        this.error(`invalid escape \\${c}`);
    }
    return set;
  }

  /** After `[`: a character class expression, up to and including its `]`. */
  private charClassExpr(): string {
    const negated = this.is(this.peek(), '^');
    if (negated) this.pos++;
    const set: CharSet = { ranges: [], atoms: [], word: false };
    let count = 0;
    let subtraction: string | undefined;
    for (;;) {
      const c = this.peek();
      if (c === undefined) this.error('unterminated character class');
      if (this.is(c, ']')) {
        if (count === 0) this.error('empty character class');
        this.pos++;
        break;
      }
      if (this.is(c, '-') && this.is(this.peek(1), '[')) {
        if (count === 0) this.error('subtraction from an empty character class');
        this.pos += 2;
        subtraction = this.charClassExpr();
        if (!this.is(this.next(), ']')) this.error('a subtraction must end the character class');
        break;
      }
      count++;
      const start = this.classChar(count === 1, set);
      if (start === undefined) continue;
      if (this.is(this.peek(), '-') && !this.is(this.peek(1), ']') && !this.is(this.peek(1), '[')) {
        this.pos++;
        const end = this.classChar(false, undefined);
        if (end === undefined || end < start) this.error('invalid character range');
        this.addRange(set, start, end);
      } else this.addRange(set, start, start);
    }
    let out = negated ? emitNegative(set) : emitPositive(set);
    if (subtraction !== undefined) out = `(?:(?!${subtraction})${out})`;
    return out;
  }

  /**
   * One character of a class: its code point, or undefined after adding a class escape to `set`
   * (`set` undefined: a class escape is an error, as for a range's end).
   */
  private classChar(first: boolean, set: CharSet | undefined): number | undefined {
    const c = this.next();
    if (this.is(c, '[')) this.error('unescaped [ in a character class');
    if (this.is(c, '-') && !first && !this.is(this.peek(), ']')) this.error('unescaped - in a character class');
    if (!this.is(c, '\\')) return c;
    const single = this.singleCharEscape();
    if (single !== undefined) return single;
    if (set === undefined) this.error('a class escape cannot end a range');
    const escaped = this.classEscape();
    set.ranges.push(...escaped.ranges);
    set.atoms.push(...escaped.atoms);
    if (escaped.word) set.word = true;
    return undefined;
  }
}

/** Removes whitespace outside character classes (flag `x`, F&O 3.1 semantics). */
function stripWhitespace(pattern: string): string {
  let out = '';
  let depth = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (depth === 0 && (c === ' ' || c === '\t' || c === '\n' || c === '\r')) continue;
    out += c;
    if (c === '\\') {
      let j = i + 1;
      if (depth === 0) while (j < pattern.length && ' \t\n\r'.includes(pattern[j]!)) j++;
      if (j < pattern.length) out += pattern[j]!;
      i = j;
    } else if (c === '[') depth++;
    else if (c === ']' && depth > 0) depth--;
  }
  return out;
}

const cache = new Map<string, CompiledRegex>();
const CACHE_LIMIT = 1000;

/** Compiles an XPath pattern with XPath flags (cached); ExpressionError when either is invalid. */
export function compileRegex(pattern: string, flags: string): CompiledRegex {
  const key = `${flags}\u0000${pattern}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  for (const f of flags) if (!'smixq'.includes(f)) fail(`invalid regular expression flag '${f}'`);
  let source: string;
  let groups = 0;
  let jsCaseInsensitive = flags.includes('i');
  if (flags.includes('q')) {
    source = Array.from(pattern, (c) => literalAtom(c.codePointAt(0)!, jsCaseInsensitive)).join('');
    jsCaseInsensitive = false;
  } else {
    const text = flags.includes('x') ? stripWhitespace(pattern) : pattern;
    let t = new Translator(text, flags.includes('s'), flags.includes('m'), jsCaseInsensitive);
    source = t.translate();
    if (jsCaseInsensitive && !t.usesBackReferences) jsCaseInsensitive = false;
    else if (jsCaseInsensitive) {
      // Case-blind back-references need JavaScript's i flag.
      t = new Translator(text, flags.includes('s'), flags.includes('m'), false);
      source = t.translate();
    }
    groups = t.groups;
  }
  const jsFlags = jsCaseInsensitive ? 'iu' : 'u';
  let compiled: CompiledRegex;
  try {
    compiled = { test: new RegExp(source, jsFlags), global: new RegExp(source, `g${jsFlags}`), groups, literal: flags.includes('q') };
  } catch (e) {
    throw new ExpressionError(`invalid regular expression: ${(e as Error).message}`);
  }
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
  cache.set(key, compiled);
  return compiled;
}

/** fn:matches: whether the pattern matches somewhere in the text. */
export function regexMatches(text: string, pattern: string, flags: string): boolean {
  return compileRegex(pattern, flags).test.test(text);
}

type ReplacementPart = string | number;

function parseReplacement(replacement: string, groups: number): ReplacementPart[] {
  const parts: ReplacementPart[] = [];
  let literal = '';
  for (let i = 0; i < replacement.length; i++) {
    const c = replacement[i]!;
    if (c === '\\') {
      const n = replacement[i + 1];
      if (n !== '\\' && n !== '$') fail('invalid replacement string: \\ must be followed by \\ or $');
      literal += n;
      i++;
    } else if (c === '$') {
      let j = i + 1;
      while (j < replacement.length && replacement[j]! >= '0' && replacement[j]! <= '9') j++;
      let digits = replacement.slice(i + 1, j);
      if (digits === '') fail('invalid replacement string: $ must be followed by a digit');
      let suffix = '';
      while (Number(digits) > groups && Number(digits) > 9) {
        suffix = digits[digits.length - 1]! + suffix;
        digits = digits.slice(0, -1);
      }
      if (literal !== '') parts.push(literal);
      literal = suffix;
      const n = Number(digits);
      if (n <= groups) parts.push(n);
      i = j - 1;
    } else literal += c;
  }
  if (literal !== '') parts.push(literal);
  return parts;
}

/**
 * fn:replace: every non-overlapping match replaced; `$N` and `\$`, `\\` in the replacement as in
 * XPath (the replacement is literal with flag `q`). Error when the pattern matches the empty string.
 */
export function regexReplace(text: string, pattern: string, replacement: string, flags: string): string {
  const re = compileRegex(pattern, flags);
  if (re.test.test('')) fail('the pattern of REPLACE matches the empty string');
  if (re.literal) return text.replace(re.global, () => replacement);
  const parts = parseReplacement(replacement, re.groups);
  return text.replace(re.global, (match: string, ...rest: unknown[]) => {
    let out = '';
    for (const p of parts) {
      if (typeof p === 'string') out += p;
      else if (p === 0) out += match;
      else {
        const g = rest[p - 1];
        if (typeof g === 'string') out += g;
      }
    }
    return out;
  });
}
