/**
 * XPath/XQuery regular expressions (F&O 3.1 §5.6, on XML Schema regular expressions) translated
 * to the RE2 syntax of the linear-time engine (re2js).
 *
 * The translation parses the XPath syntax strictly (invalid patterns are errors) and re-emits
 * every character that is not an ASCII letter or digit as a `\x{…}` escape, so no RE2-specific
 * syntax leaks through. It gives `.` its XPath meaning (not `\n`/`\r` unless flag `s`), `^`/`$`
 * theirs (lines split at `\n` only, with flag `m`), and handles `\s \S \i \I \c \C \d \D \w \W`,
 * `\p{…}`/`\P{…}` (general categories and `Is` blocks), character class subtraction
 * `[a-z-[aeiou]]`, reluctant quantifiers and the flags `s m i x q` (flag `i` by adding the case
 * variants of each literal character, so `\p{Lu}` stays case-sensitive).
 *
 * What the linear-time engine cannot run is an error naming the construct: back-references
 * (`\1`), lookaround (`(?=…)`, `(?!…)`, `(?<=…)`, `(?<!…)`, which XPath does not have either) and
 * counted repetitions above 1000.
 * @module
 */
import { complement, difference, type Range } from './code-point-ranges.js';
import { withCaseVariants } from './case-variants.js';
import { fail } from './errors.js';
import { ANY, NAME_CHAR, NAME_START, SPACE, codePoint, emitNegative, emitPositive, emitRanges, emptySet, setRanges, type CharSet } from './regex-char-sets.js';
import { GENERAL_CATEGORIES } from './unicode-categories.js';
import { unicodeBlock } from './unicode-blocks.js';

/** The class escapes that stand for ranges (lower case; upper case is the complement). */
const RANGE_ESCAPES: ReadonlyMap<string, readonly Range[]> = new Map([
  ['s', SPACE],
  ['i', NAME_START],
  ['c', NAME_CHAR],
]);

/** An XPath pattern in RE2 syntax. */
export interface TranslatedRegex {
  /** The RE2 pattern. */
  readonly source: string;
  /** The number of capturing groups (numbered as in the XPath pattern). */
  readonly groups: number;
  /**
   * The one string the pattern matches when it is a plain string (no metacharacters, or flag
   * `q`, and no flag `i`): matching it is then a substring search.
   */
  readonly literal: string | undefined;
}

/** The characters that make a pattern more than a plain string. */
const METACHARACTERS = /[\\.?*+(){}[\]|^$]/;

/** The greatest count of a counted repetition the linear-time engine takes. */
const MAX_REPEAT = 1000n;

/** The lookaround groups the engine does not run (nor does XPath have them), by what follows `(?`. */
const LOOKAROUND: readonly (readonly [string, string])[] = [
  ['=', 'lookahead is'],
  ['!', 'negative lookahead is'],
  ['<=', 'lookbehind is'],
  ['<!', 'negative lookbehind is'],
];

/** Fails for a construct the linear-time engine cannot run: `what` names it ("back-references are"), `construct` quotes it. */
function unsupported(what: string, construct: string): never {
  return fail(`${what} not supported by the linear-time regular expression engine: ${construct}`);
}

/** A literal character as an RE2 atom, with its case variants when `fold`. */
function literalAtom(c: number, fold: boolean): string {
  return fold ? emitRanges(withCaseVariants(c, c)) : codePoint(c);
}

/** A translated character class expression: its RE2 matcher, and its code points on demand (for subtraction). */
interface ClassExpression {
  /** The RE2 one-character matcher. */
  readonly source: string;
  /** The code points it matches. */
  ranges(): Range[];
}

/** The parser and translator of one pattern (without flag `q`, after flag `x`'s whitespace removal). */
class Translator {
  private readonly chars: number[];
  private pos = 0;
  private groupCount = 0;

  constructor(
    pattern: string,
    private readonly dotAll: boolean,
    private readonly multiline: boolean,
    /** Flag i, done by adding case variants of literal characters and ranges. */
    private readonly foldCase: boolean,
  ) {
    this.chars = Array.from(pattern, (c) => c.codePointAt(0)!);
  }

  /** The number of capturing groups seen. */
  get groups(): number {
    return this.groupCount;
  }

  /** The whole pattern in RE2 syntax. */
  translate(): string {
    const out = this.regExp();
    if (this.pos < this.chars.length) this.error('unbalanced parenthesis');
    return out;
  }

  /** Adds a literal character range of a class (with case variants under flag i). */
  private addRange(set: CharSet, from: number, to: number): void {
    if (this.foldCase) set.ranges.push(...withCaseVariants(from, to));
    else set.ranges.push([from, to]);
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

  /** Whether the text after the current position starts with `s`. */
  private lookingAt(s: string): boolean {
    for (let i = 0; i < s.length; i++) if (!this.is(this.peek(i), s[i]!)) return false;
    return true;
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
      const start = this.pos;
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
      if (BigInt(min) > MAX_REPEAT || (max !== '' && BigInt(max) > MAX_REPEAT)) {
        unsupported(`counted repetitions above ${MAX_REPEAT} are`, String.fromCodePoint(...this.chars.slice(start, this.pos)));
      }
      q = max === min ? `{${BigInt(min)}}` : `{${BigInt(min)},${max === '' ? '' : BigInt(max)}}`;
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
      case '(':
        return [this.group(), true];
      case '[':
        return [this.charClassExpr().source, true];
      case '.':
        return [this.dotAll ? ANY : emitRanges(complement([[0xa, 0xa], [0xd, 0xd]])), true];
      case '^':
        return [this.multiline ? '(?m:^)' : '^', false];
      case '$':
        return [this.multiline ? '(?m:$)' : '$', false];
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
        return [literalAtom(c, this.foldCase), true];
    }
  }

  /** After `(`: a group, up to and including its `)`. */
  private group(): string {
    let capturing = true;
    if (this.is(this.peek(), '?')) {
      this.pos++;
      for (const [start, what] of LOOKAROUND) if (this.lookingAt(start)) unsupported(what, `(?${start}`);
      if (!this.is(this.peek(), ':')) this.error('only (?: groups are allowed');
      this.pos++;
      capturing = false;
    }
    if (capturing) this.groupCount++;
    const inner = this.regExp();
    if (!this.is(this.next(), ')')) this.error('unbalanced parenthesis');
    return capturing ? `(${inner})` : `(?:${inner})`;
  }

  private escapeOutside(): string {
    const c = this.peek();
    if (c !== undefined && c >= 0x31 && c <= 0x39) return this.backReference();
    const single = this.singleCharEscape();
    if (single !== undefined) return literalAtom(single, this.foldCase);
    return emitPositive(this.classEscape());
  }

  /** After `\`, at a digit 1–9: a back-reference, which is an error. */
  private backReference(): never {
    let n = this.next() - 0x30;
    for (;;) {
      const d = this.peek();
      if (d === undefined || d < 0x30 || d > 0x39) break;
      const m = n * 10 + (d - 0x30);
      if (m > this.groupCount) break;
      n = m;
      this.pos++;
    }
    return unsupported('back-references are', `\\${n}`);
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
    const set = emptySet();
    // \s, \i, \c and their complements \S, \I, \C: ranges of their own
    const ranges = RANGE_ESCAPES.get(c.toLowerCase());
    if (ranges !== undefined) {
      set.ranges.push(...(c === c.toLowerCase() ? ranges : complement(ranges)));
      return set;
    }
    switch (c) {
      case 'd':
        set.properties.push({ name: 'Nd', negated: false });
        break;
      case 'D':
        set.properties.push({ name: 'Nd', negated: true });
        break;
      case 'w':
        set.word = true;
        break;
      case 'W':
        for (const name of ['P', 'Z', 'C']) set.properties.push({ name, negated: false });
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
        } else if (GENERAL_CATEGORIES.has(name)) set.properties.push({ name, negated });
        else this.error(`unknown character property ${name}`);
        break;
      }
      default:
        this.error(`invalid escape \\${c}`);
    }
    return set;
  }

  /** After `[`: a character class expression, up to and including its `]`. */
  private charClassExpr(): ClassExpression {
    const negated = this.is(this.peek(), '^');
    if (negated) this.pos++;
    const set = emptySet();
    let count = 0;
    let subtraction: ClassExpression | undefined;
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
    const ranges = (): Range[] => (negated ? complement(setRanges(set)) : setRanges(set));
    if (subtraction === undefined) return { source: negated ? emitNegative(set) : emitPositive(set), ranges };
    const remaining = difference(ranges(), subtraction.ranges());
    return { source: emitRanges(remaining), ranges: () => remaining };
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
    set.properties.push(...escaped.properties);
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

/**
 * An XPath pattern with XPath flags (`s m i x q`) in RE2 syntax; ExpressionError when a flag or
 * the pattern is invalid, or the pattern uses what the linear-time engine cannot run.
 */
export function translateRegex(pattern: string, flags: string): TranslatedRegex {
  for (const f of flags) if (!'smixq'.includes(f)) fail(`invalid regular expression flag '${f}'`);
  const fold = flags.includes('i');
  if (flags.includes('q')) return { source: Array.from(pattern, (c) => literalAtom(c.codePointAt(0)!, fold)).join(''), groups: 0, literal: fold ? undefined : pattern };
  const text = flags.includes('x') ? stripWhitespace(pattern) : pattern;
  const translator = new Translator(text, flags.includes('s'), flags.includes('m'), fold);
  const source = translator.translate();
  return { source, groups: translator.groups, literal: fold || METACHARACTERS.test(text) ? undefined : text };
}
