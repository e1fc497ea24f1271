/**
 * Triple terms written with variables in the patterns of a query (`<<( ?s :p ?o )>>`, nested
 * to any depth): finding them in an algebra tree, so that the engine gives each a hidden
 * variable before evaluation (`bgp.ts`, TripleTermAtoms).
 * @module
 */
import type * as RDF from '@rdfjs/types/data-model.js';

/** Whether a term is, or holds at any depth, a variable. */
export function hasVariable(t: RDF.Term): boolean {
  if (t.termType === 'Variable') return true;
  return t.termType === 'Quad' && (hasVariable(t.subject) || hasVariable(t.predicate) || hasVariable(t.object));
}

/**
 * Calls `visit` for each triple term with variables in the subject, predicate or object of a
 * pattern of `tree` (an algebra operation or any plain structure of them), a nested one after
 * the one holding it.
 */
export function forEachTripleTermPattern(tree: unknown, visit: (t: RDF.Quad) => void): void {
  const inTerm = (t: RDF.Term): void => {
    if (t.termType !== 'Quad' || !hasVariable(t)) return;
    visit(t as RDF.Quad);
    inTerm(t.subject);
    inTerm(t.predicate);
    inTerm(t.object);
  };
  const seen = new Set<object>();
  const walk = (x: unknown): void => {
    if (x === null || typeof x !== 'object' || seen.has(x)) return;
    seen.add(x);
    if (Array.isArray(x)) {
      for (const item of x) walk(item);
      return;
    }
    const o = x as Record<string, unknown>;
    if (o.type === 'pattern') {
      for (const t of [o.subject, o.predicate, o.object]) inTerm(t as RDF.Term);
      return;
    }
    // terms and the rows of VALUES hold no patterns
    if (typeof o.termType === 'string' || o.type === 'values') return;
    for (const v of Object.values(o)) walk(v);
  };
  walk(tree);
}
