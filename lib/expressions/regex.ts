/**
 * The REGEX and REPLACE functions (XPath fn:matches and fn:replace, F&O 3.1 §5.6) on a
 * linear-time regular expression engine: patterns are translated from XPath syntax to RE2 syntax
 * (`regex-translation.ts`) and run by re2js, a JavaScript port of RE2, so matching takes time
 * linear in the text whatever the pattern (no catastrophic backtracking). Compiled patterns are
 * cached.
 *
 * re2js is loaded the first time a pattern is compiled rather than when quadlog is imported
 * (about 30 ms of a cold start), with `require` (its CommonJS build), so that compiling stays
 * synchronous.
 * @module
 */
import { createRequire } from 'node:module';
import type * as Re2js from 're2js';
import { ExpressionError, fail } from './errors.js';
import { translateRegex } from './regex-translation.js';

const requireLibrary = createRequire(import.meta.url);

let re2js: typeof Re2js | undefined;

/** The re2js module, loaded on first use. */
function engine(): typeof Re2js {
  re2js ??= requireLibrary('re2js') as typeof Re2js;
  return re2js;
}

/** A part of a parsed REPLACE replacement: literal text, or the number of a group. */
type ReplacementPart = string | number;

/** A compiled XPath regular expression. */
export interface CompiledRegex {
  /** The pattern compiled by the linear-time engine. */
  readonly pattern: Re2js.RE2JS;
  /** Number of capturing groups. */
  readonly groups: number;
  /** Whether the `q` flag was given (REPLACE then takes the replacement literally). */
  readonly literalReplacement: boolean;
  /** The one string the pattern matches when it is a plain string (then matched by substring search). */
  readonly plainText: string | undefined;
  /** Whether the pattern matches the empty string (REPLACE is then an error). */
  readonly matchesEmpty: boolean;
  /** REPLACE's replacements for this pattern, parsed (a few, by replacement text). */
  readonly replacements: Map<string, readonly ReplacementPart[]>;
}

const cache = new Map<string, CompiledRegex>();
const CACHE_LIMIT = 1000;

/**
 * Compiles an XPath pattern with XPath flags (cached); ExpressionError when either is invalid or
 * the pattern needs what the linear-time engine cannot do (back-references, lookaround).
 */
export function compileRegex(pattern: string, flags: string): CompiledRegex {
  const key = `${flags}\u0000${pattern}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const { source, groups, literal } = translateRegex(pattern, flags);
  const { RE2JS, RE2JSException } = engine();
  let compiled: Re2js.RE2JS;
  try {
    compiled = RE2JS.compile(source);
  } catch (e) {
    if (!(e instanceof RE2JSException)) throw e;
    throw new ExpressionError(`regular expression not supported by the linear-time regular expression engine: ${e.message}`);
  }
  const result: CompiledRegex = {
    pattern: compiled,
    groups,
    literalReplacement: flags.includes('q'),
    plainText: literal,
    matchesEmpty: compiled.test(''),
    replacements: new Map(),
  };
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
  cache.set(key, result);
  return result;
}

/** fn:matches: whether the pattern matches somewhere in the text. */
export function regexMatches(text: string, pattern: string, flags: string): boolean {
  const re = compileRegex(pattern, flags);
  return re.plainText !== undefined ? text.includes(re.plainText) : re.pattern.test(text);
}

const REPLACEMENTS_LIMIT = 16;

/** The parsed replacement (cached with the pattern); ExpressionError when it is invalid. */
function replacementParts(re: CompiledRegex, replacement: string): readonly ReplacementPart[] {
  const hit = re.replacements.get(replacement);
  if (hit !== undefined) return hit;
  const parts = re.literalReplacement ? [replacement] : parseReplacement(replacement, re.groups);
  if (re.replacements.size >= REPLACEMENTS_LIMIT) re.replacements.clear();
  re.replacements.set(replacement, parts);
  return parts;
}

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
  if (re.matchesEmpty) fail('the pattern of REPLACE matches the empty string');
  const parts = replacementParts(re, replacement);
  if (re.plainText !== undefined) {
    // A plain string has no groups: the parts are text and $0.
    if (!text.includes(re.plainText)) return text;
    const plain = re.plainText;
    return text.split(plain).join(parts.map((p) => (typeof p === 'string' ? p : plain)).join(''));
  }
  if (!re.pattern.test(text)) return text;
  const matcher = re.pattern.matcher(text);
  let out = '';
  let copied = 0;
  let matched = false;
  while (matcher.find()) {
    matched = true;
    out += text.slice(copied, matcher.start());
    for (const p of parts) out += typeof p === 'string' ? p : (matcher.group(p) ?? '');
    copied = matcher.end();
  }
  return matched ? out + text.slice(copied) : text;
}
