/**
 * The nesting limit of SPARQL texts (queries, updates, and the expressions of rules).
 *
 * sparqljs takes time that grows much faster than the text with the depth of nested
 * parentheses (about 0.2 s at 2,000 levels, 6 s at 8,000), and every walk over a syntax tree or
 * an algebra (ours, sparqlalgebrajs's, the expression compiler, the evaluator) recurses once per
 * level, so a long chain of operators (`1+1+…+1`) overflows the stack. A text that nests more
 * than {@link MAX_NESTING_DEPTH} levels is therefore refused with a clear error before it is
 * parsed (brackets, found by a linear scan), or right after (operators and patterns, counted
 * without recursion). Real queries stay far below the limit.
 * @module
 */
import { QueryCompilationError } from '../model/errors.js';
import { positionAt, type SparqlTextKind } from './errors.js';
import { forEachSignificant } from './syntax.js';

/** How deep a SPARQL text may nest: parentheses, brackets and braces, and operations in its tree. */
export const MAX_NESTING_DEPTH = 500;

/** The lists of patterns of a group, which the algebra nests one inside the other. */
const SEQUENCES = new Set(['patterns', 'where']);

const OPENING = new Set(['(', '[', '{']);
const CLOSING = new Set([')', ']', '}']);

/**
 * The offset of the first bracket (`(`, `[` or `{`, outside strings, IRIs and comments) that
 * opens a level deeper than `limit`; undefined when the text stays within it.
 */
export function tooDeepBracket(text: string, limit: number = MAX_NESTING_DEPTH): number | undefined {
  let depth = 0;
  let found: number | undefined;
  forEachSignificant(text, (i, kind) => {
    if (found !== undefined || kind !== 'char') return;
    const c = text[i]!;
    if (OPENING.has(c)) {
      if (++depth > limit) found = i;
    } else if (CLOSING.has(c) && depth > 0) depth--;
  });
  return found;
}

/** The message of a text that nests too deeply (`at` names where, when known). */
export function nestingMessage(what: string, at?: string): string {
  return `${what} nests more than ${MAX_NESTING_DEPTH} levels deep${at === undefined ? '' : ` ${at}`}: quadlog refuses deeper nesting (write the expression or pattern flatter)`;
}

/**
 * Whether a parsed syntax tree (sparqljs's, plain objects and arrays) holds a chain of more
 * than `limit` nested nodes that have a `type` (operations, function calls, patterns), the
 * k-th pattern of a group counting k levels (the algebra nests them): an iterative walk, safe
 * on any depth.
 */
export function treeTooDeep(tree: unknown, limit: number = MAX_NESTING_DEPTH): boolean {
  const stack: Array<{ readonly value: unknown; readonly depth: number }> = [{ value: tree, depth: 0 }];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const { value, depth } = top;
    if (Array.isArray(value)) {
      for (const item of value) if (typeof item === 'object' && item !== null) stack.push({ value: item, depth });
      continue;
    }
    if (typeof value !== 'object' || value === null || 'termType' in value) continue;
    const level = typeof (value as { type?: unknown }).type === 'string' ? depth + 1 : depth;
    if (level > limit) return true;
    for (const key of Object.keys(value)) {
      const child = (value as Record<string, unknown>)[key];
      if (typeof child !== 'object' || child === null) continue;
      if (Array.isArray(child) && SEQUENCES.has(key)) {
        // the algebra nests the patterns of a group one inside the other (OPTIONAL, MINUS, …)
        child.forEach((item, k) => stack.push({ value: item, depth: level + k }));
      } else stack.push({ value: child, depth: level });
    }
  }
  return false;
}

/** Throws when a SPARQL text nests brackets deeper than the limit (before it is parsed). */
export function checkBracketNesting(text: string, kind: SparqlTextKind): void {
  const offset = tooDeepBracket(text);
  if (offset === undefined) return;
  const { line, column } = positionAt(text, offset);
  throw new QueryCompilationError(nestingMessage(`the SPARQL ${kind}`, `at line ${line}, column ${column}`));
}

/** Throws when a parsed SPARQL text nests operations or patterns deeper than the limit. */
export function checkTreeNesting(tree: unknown, kind: SparqlTextKind): void {
  if (treeTooDeep(tree)) throw new QueryCompilationError(nestingMessage(`the SPARQL ${kind}`));
}
