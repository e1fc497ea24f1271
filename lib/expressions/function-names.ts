/**
 * RDFox's unprefixed function names (`LOG(?x)`, `MINFN(?a, ?b)`, `DAY_OF_THE_WEEK(?d)`), which
 * sparqljs does not parse: the map from each name (any case, as RDFox takes built-in names) to
 * the IRI of its function, and {@link rewriteFunctionNames}, which writes each call of such a
 * name in SPARQL or expression text as a call of the IRI (`<…math#log>(?x)`), checks its number
 * of arguments, and maps positions in the new text back to the text as written.
 * @module
 */
import { argumentCount, FUNCTION_LIBRARY } from './function-library.js';

/** An unprefixed function name and what it calls. */
export interface FunctionName {
  /** The name in upper case (`LOG`). */
  readonly name: string;
  /** The IRI of the function it calls. */
  readonly iri: string;
  /** Fewest arguments. */
  readonly min: number;
  /** Most arguments (`Infinity`: any number). */
  readonly max: number;
}

/** The unprefixed function names, by upper-case name. */
export const FUNCTION_NAMES: ReadonlyMap<string, FunctionName> = new Map(
  [...FUNCTION_LIBRARY.values()].flatMap((f) => f.names.map((name): [string, FunctionName] => [name, { name, iri: f.iri, min: f.min, max: f.max }])),
);

/** The function an unprefixed name (any case) calls, or undefined when it is not one. */
export function functionName(name: string): FunctionName | undefined {
  return FUNCTION_NAMES.get(name.toUpperCase());
}

/** A call whose number of arguments the function does not take. */
export interface ArityProblem {
  /** Offset of the function name in the text as written. */
  readonly offset: number;
  /** `LOG takes 1 argument, got 2`. */
  readonly message: string;
}

/** The result of {@link rewriteFunctionNames}. */
export interface FunctionNameRewrite {
  /** The text with the calls rewritten (the input itself when there was none). */
  readonly text: string;
  /** Whether any call was rewritten. */
  readonly changed: boolean;
  /**
   * The offset in the text as written that an offset of {@link FunctionNameRewrite.text} stands
   * for: an offset inside a rewritten name stands for the start of the name, the end of one for
   * the end of the name.
   */
  originalOffset(offset: number): number;
  /** The name as written when `offset` of {@link FunctionNameRewrite.text} falls inside the IRI written for it. */
  nameAt(offset: number): string | undefined;
  /** The first call (in text order) with a wrong number of arguments, if any. */
  readonly arityProblem: ArityProblem | undefined;
}

/** The replacement of a function name `text[start, end)` by its IRI in angle brackets. */
export interface FunctionNameEdit {
  /** Offset of the name. */
  readonly start: number;
  /** Offset after the name. */
  readonly end: number;
  /** `<iri>`. */
  readonly replacement: string;
}

/** A quick test for a text with no candidate call at all (most texts): then nothing is scanned. */
const CANDIDATE = new RegExp(`(?:${[...FUNCTION_NAMES.keys()].join('|')})\\s*[(#]`, 'i');

/** A regular expression from its source (sources with Unicode classes and control ranges, built as strings). */
function pattern(source: string, flags: string): RegExp {
  return new RegExp(source, flags);
}

const NAME_CHAR = '[\\p{L}\\p{N}_\\-\\u00B7\\u0300-\\u036F\\u203F-\\u2040]';
const IRI_REF = pattern('<[^<>"{}|^`\\\\\\u0000-\\u0020]*>', 'y');
const VARIABLE = pattern('[?$][\\p{L}\\p{N}_\\u00B7\\u0300-\\u036F\\u203F-\\u2040]+', 'uy');
const LANGUAGE_TAG = /@[a-zA-Z]+(?:-[a-zA-Z0-9]+)*/y;
const NUMBER = /[0-9]*\.?[0-9]*(?:[eE][+-]?[0-9]+)?/y;
/** A prefix and its colon (`ex:`), a blank node label's `_:`, or a lone `:`. */
const PREFIX = pattern(`(?:\\p{L}(?:(?:${NAME_CHAR}|\\.)*${NAME_CHAR})?|_)?:`, 'uy');
/** The local part of a prefixed name or blank node label (escapes and `%xx` included). */
const LOCAL = pattern(`(?:${NAME_CHAR}|[.:]|%[0-9A-Fa-f]{2}|\\\\[_~.!$&'()*+,;=/?#@%-])*`, 'uy');
const WORD = /[\p{L}_][\p{L}\p{N}_]*/uy;
const LETTER = /[\p{L}_]/u;

/** The end of the token matching `pattern` at `at` (sticky), or undefined. */
function match(pattern: RegExp, text: string, at: number): number | undefined {
  pattern.lastIndex = at;
  return pattern.exec(text) !== null && pattern.lastIndex > at ? pattern.lastIndex : undefined;
}

/** The end of the string literal starting at `at` (or the end of the text when it is not closed). */
function stringEnd(text: string, at: number): number {
  const quote = text[at]!;
  const long = text.startsWith(quote.repeat(3), at);
  let i = at + (long ? 3 : 1);
  while (i < text.length) {
    const c = text[i]!;
    if (c === '\\') i += 2;
    else if (long ? text.startsWith(quote.repeat(3), i) : c === quote) return i + (long ? 3 : 1);
    else if (!long && (c === '\n' || c === '\r')) return i;
    else i++;
  }
  return text.length;
}

/** The offset after the white space and comments at `at`. */
function skipSpace(text: string, at: number): number {
  let i = at;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '#') {
      while (i < text.length && text[i] !== '\n' && text[i] !== '\r') i++;
    } else if (c === ' ' || c === '\t' || c === '\n' || c === '\r') i++;
    else break;
  }
  return i;
}

function arityMessage(f: FunctionName, count: number): string {
  return `${f.name} takes ${argumentCount(f.min, f.max)}, got ${count}`;
}

/** A bracket being scanned: for a rewritten call's `(`, the function and what its arguments hold so far. */
interface Frame {
  readonly call: { readonly function: FunctionName; readonly offset: number } | undefined;
  commas: number;
  empty: boolean;
}

/** Finds the calls of unprefixed names: the edits that rewrite them, and the first call with a wrong number of arguments. */
function scan(text: string): { edits: FunctionNameEdit[]; problem: ArityProblem | undefined } {
  const edits: FunctionNameEdit[] = [];
  let problem: ArityProblem | undefined;
  const stack: Frame[] = [{ call: undefined, commas: 0, empty: true }];
  let pending: Frame['call'];
  const top = (): Frame => stack[stack.length - 1]!;
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '#') {
      i = skipSpace(text, i);
      continue;
    }
    if (c === '(' || c === '[' || c === '{') {
      top().empty = false;
      stack.push({ call: c === '(' ? pending : undefined, commas: 0, empty: true });
      pending = undefined;
      i++;
      continue;
    }
    if (c === ')' || c === ']' || c === '}') {
      const frame = stack.length > 1 ? stack.pop()! : undefined;
      if (frame?.call !== undefined) {
        const count = frame.empty ? 0 : frame.commas + 1;
        const f = frame.call.function;
        if ((count < f.min || count > f.max) && (problem === undefined || frame.call.offset < problem.offset)) {
          problem = { offset: frame.call.offset, message: arityMessage(f, count) };
        }
      }
      i++;
      continue;
    }
    top().empty = false;
    if (c === ',') {
      top().commas++;
      i++;
    } else if (c === '"' || c === "'") {
      i = stringEnd(text, i);
    } else if (c === '<') {
      i = match(IRI_REF, text, i) ?? i + 1;
    } else if (c === '?' || c === '$') {
      i = match(VARIABLE, text, i) ?? i + 1;
    } else if (c === '@') {
      i = match(LANGUAGE_TAG, text, i) ?? i + 1;
    } else if ((c >= '0' && c <= '9') || (c === '.' && /[0-9]/.test(text[i + 1] ?? ''))) {
      i = match(NUMBER, text, i) ?? i + 1;
    } else if (c === ':' || LETTER.test(String.fromCodePoint(text.codePointAt(i)!))) {
      const prefixEnd = match(PREFIX, text, i);
      if (prefixEnd !== undefined) {
        i = match(LOCAL, text, prefixEnd) ?? prefixEnd;
        continue;
      }
      const end = match(WORD, text, i) ?? i + 1;
      const f = FUNCTION_NAMES.get(text.slice(i, end).toUpperCase());
      if (f !== undefined && text[skipSpace(text, end)] === '(') {
        edits.push({ start: i, end, replacement: `<${f.iri}>` });
        pending = { function: f, offset: i };
      }
      i = end;
    } else {
      i += c.length;
    }
  }
  return { edits, problem };
}

/**
 * The edits that write each call of an unprefixed function name in `text` as a call of its IRI
 * (see {@link rewriteFunctionNames}), in order; none for a text without a candidate.
 */
export function functionNameEdits(text: string): FunctionNameEdit[] {
  return CANDIDATE.test(text) ? scan(text).edits : [];
}

/** The first call of an unprefixed function name in `text` with a wrong number of arguments, if any. */
export function functionArityProblem(text: string): ArityProblem | undefined {
  return CANDIDATE.test(text) ? scan(text).problem : undefined;
}

const UNCHANGED = (text: string): FunctionNameRewrite => ({
  text,
  changed: false,
  originalOffset: (offset) => offset,
  nameAt: () => undefined,
  arityProblem: undefined,
});

/**
 * Rewrites every call of an unprefixed function name in SPARQL or expression text as a call of
 * its IRI: `LOG(1/?n)` becomes `<http://www.w3.org/2005/xpath-functions/math#log>(1/?n)`. A
 * name is a call when `(` follows it (after any white space or comments); names inside
 * strings, IRIs, comments, prefixed names, blank node labels, language tags and variables are
 * left alone, and so are names sparqljs already knows (they are not in {@link FUNCTION_NAMES}).
 * Calls with a wrong number of arguments are rewritten too, the first one reported in
 * {@link FunctionNameRewrite.arityProblem}. Texts with no candidate are returned at once.
 */
export function rewriteFunctionNames(text: string): FunctionNameRewrite {
  if (!CANDIDATE.test(text)) return UNCHANGED(text);
  const { edits, problem } = scan(text);
  if (edits.length === 0) return UNCHANGED(text);
  let out = '';
  let copied = 0;
  for (const e of edits) {
    out += text.slice(copied, e.start) + e.replacement;
    copied = e.end;
  }
  out += text.slice(copied);
  /** Where edit k starts in the new text. */
  const starts: number[] = [];
  let delta = 0;
  for (const e of edits) {
    starts.push(e.start + delta);
    delta += e.replacement.length - (e.end - e.start);
  }
  return {
    text: out,
    changed: true,
    originalOffset(offset) {
      let shift = 0;
      for (let k = 0; k < edits.length; k++) {
        const e = edits[k]!;
        const start = starts[k]!;
        if (offset < start) break;
        if (offset < start + e.replacement.length) return e.start;
        shift += e.replacement.length - (e.end - e.start);
      }
      return offset - shift;
    },
    nameAt(offset) {
      for (let k = 0; k < edits.length; k++) {
        const e = edits[k]!;
        if (offset >= starts[k]! && offset < starts[k]! + e.replacement.length) return text.slice(e.start, e.end);
      }
      return undefined;
    },
    arityProblem: problem,
  };
}
