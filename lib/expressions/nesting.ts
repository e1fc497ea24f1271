/**
 * The nesting limit shared by SPARQL texts and the expressions of rules: how deep a text may
 * nest, the message that refuses a deeper one, and an iterative walk that finds too deep a
 * chain in a parsed syntax tree. `sparql/nesting.ts` checks queries and updates with it, the
 * Datalog parser the expressions of FILTER, BIND and AGGREGATE; it lives below both.
 * @module
 */

/** How deep a SPARQL text may nest: parentheses, brackets and braces, and operations in its tree. */
export const MAX_NESTING_DEPTH = 500;

/** The lists of patterns of a group, which the algebra nests one inside the other. */
const SEQUENCES = new Set(['patterns', 'where']);

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
