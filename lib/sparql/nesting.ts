/**
 * The nesting limit of SPARQL texts (queries, updates, and the expressions of rules).
 *
 * sparqljs takes time that grows much faster than the text with the depth of nested
 * parentheses (about 0.2 s at 2,000 levels, 6 s at 8,000), and every walk over a syntax tree or
 * an algebra (ours, sparqlalgebrajs's, the expression compiler, the evaluator) recurses once per
 * level, so a long chain of operators (`1+1+…+1`) overflows the stack. A text that nests more
 * than {@link MAX_NESTING_DEPTH} levels is therefore refused with a clear error before it is
 * parsed (brackets, found by a linear scan), or right after (operators and patterns, counted
 * without recursion). Real queries stay far below the limit. The limit, its message and the
 * tree walk are in `expressions/nesting.ts`, which the Datalog parser shares.
 * @module
 */
import { QueryCompilationError } from '../model/errors.js';
import { positionAt, type SparqlTextKind } from './errors.js';
import { forEachSignificant } from './syntax.js';
import { MAX_NESTING_DEPTH, nestingMessage, treeTooDeep } from '../expressions/nesting.js';

export { MAX_NESTING_DEPTH, nestingMessage, treeTooDeep } from '../expressions/nesting.js';

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
