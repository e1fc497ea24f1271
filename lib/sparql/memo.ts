/**
 * Memoised expressions: an expression whose value depends on one variable only (and on no
 * random or fresh value) is evaluated once per distinct term id of that variable, and one
 * without variables once per query. `BIND(STRAFTER(STR(?p), "#") AS ?l)` over every triple
 * then computes a string per predicate, not per triple.
 * @module
 */
import type * as RDF from '@rdfjs/types/data-model.js';
import { Algebra } from '../expressions/sparql-libraries.js';
import { XSD } from '../model/terms.js';

/** Calls `visit` with the name of each variable a term is or holds (inside triple terms, at any depth). */
function forEachTermVariable(t: RDF.Term, visit: (name: string) => void): void {
  if (t.termType === 'Variable') visit(t.value);
  else if (t.termType === 'Quad') for (const part of [t.subject, t.predicate, t.object]) forEachTermVariable(part, visit);
}

/** Operators whose value is not a function of their arguments. */
const VOLATILE = new Set(['rand', 'uuid', 'struuid', 'bnode']);

/** Named functions known to be functions of their arguments: the XSD casts. */

/** Calls after which a memoised function whose inputs were mostly distinct stops caching. */
const TRIAL = 2048;

/** A memoised function stops caching after this many distinct inputs. */
const MAX_ENTRIES = 1 << 20;

/**
 * The variables of an expression when its value is a function of them alone (no RAND, UUID,
 * STRUUID, BNODE, EXISTS, aggregate, or named function other than an XSD cast); undefined
 * otherwise.
 */
export function pureVariables(e: Algebra.Expression): string[] | undefined {
  const names = new Set<string>();
  const walk = (x: Algebra.Expression): boolean => {
    switch (x.expressionType) {
      case Algebra.expressionTypes.TERM:
        // a triple term written with variables (`<<( ?s :p ?o )>>`) depends on them
        forEachTermVariable(x.term, (name) => names.add(name));
        return true;
      case Algebra.expressionTypes.OPERATOR:
        return !VOLATILE.has(x.operator.toLowerCase()) && x.args.every(walk);
      case Algebra.expressionTypes.NAMED:
        return x.name.value.startsWith(XSD) && x.args.every(walk);
      default:
        return false;
    }
  };
  return walk(e) ? [...names] : undefined;
}

/**
 * `f` memoised on the term id in `slot` of its solution (at most {@link MAX_ENTRIES} ids;
 * beyond that it is called directly). When 90% of the first {@link TRIAL} calls miss (the
 * ids are nearly all distinct), the cache is dropped and `f` is called directly.
 */
export function memoizeOnSlot<T>(slot: number, f: (s: Int32Array) => T): (s: Int32Array) => T {
  let cache: Map<number, T> | undefined = new Map<number, T>();
  let calls = 0;
  return (s) => {
    if (cache === undefined) return f(s);
    if (++calls === TRIAL && cache.size > TRIAL * 0.9) {
      cache = undefined;
      return f(s);
    }
    const id = s[slot]!;
    const hit = cache.get(id);
    if (hit !== undefined || cache.has(id)) return hit as T;
    const v = f(s);
    if (cache.size < MAX_ENTRIES) cache.set(id, v);
    return v;
  };
}

/** `f` evaluated on the first call only (for an expression without variables). */
export function once<T>(f: (s: Int32Array) => T): (s: Int32Array) => T {
  let done = false;
  let value!: T;
  return (s) => {
    if (!done) {
      value = f(s);
      done = true;
    }
    return value;
  };
}

/**
 * `f` memoised when `e` allows it: once for no variables, per id of the one variable's slot
 * (`slotOf` gives it) for one; `f` itself otherwise.
 */
export function memoized<T>(e: Algebra.Expression, slotOf: (name: string) => number, f: (s: Int32Array) => T): (s: Int32Array) => T {
  // a bare variable is only a lookup already
  if (e.expressionType === Algebra.expressionTypes.TERM && e.term.termType === 'Variable') return f;
  const vars = pureVariables(e);
  if (vars === undefined || vars.length > 1) return f;
  return vars.length === 0 ? once(f) : memoizeOnSlot(slotOf(vars[0]!), f);
}
