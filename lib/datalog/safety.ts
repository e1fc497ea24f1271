/**
 * Rule safety: every head variable is bound by the body; variables of FILTER, BIND
 * expressions and NOT are bound elsewhere in the body (BINDs in a cycle bind nothing); a BIND
 * does not rebind a variable; the variables after NOT EXISTS occur only inside the negation;
 * variables of FILTER and BIND inside an AGGREGATE are bound somewhere.
 * @module
 */
import { RuleCompilationError } from '../model/errors.js';
import type { BodyLiteral, Rule, SourcePosition, TupleAtom } from './ast.js';
import { expressionVariables } from './program.js';

function atomVariables(atom: TupleAtom): string[] {
  return atom.args.filter((t) => t.kind === 'var').map((t) => (t as { name: string }).name);
}

function fail(position: SourcePosition, message: string): never {
  throw new RuleCompilationError(`line ${position.line}: column ${position.column}: ${message}`);
}

/** Variables a body literal binds (positive atoms, BIND targets, aggregate outputs). */
function bound(literal: BodyLiteral): string[] {
  switch (literal.kind) {
    case 'atom':
      return atomVariables(literal);
    case 'bind':
      return [literal.variable];
    case 'aggregate':
      return [...literal.groupBy, ...literal.bindings.map((b) => b.variable)];
    default:
      return [];
  }
}

/** Throws RuleCompilationError (with line and column) when the rule is unsafe. */
export function checkSafety(rule: Rule): void {
  // bound: variables of positive atoms and aggregate outputs, then (to a fixpoint) the targets
  // of BINDs whose inputs are bound — BINDs depending on each other in a cycle bind nothing
  const positive = new Set<string>();
  for (const l of rule.body) if (l.kind !== 'bind') for (const v of bound(l)) positive.add(v);
  const binds = rule.body.filter((l) => l.kind === 'bind');
  for (let changed = true; changed; ) {
    changed = false;
    for (const b of binds) {
      if (!positive.has(b.variable) && expressionVariables(b.expression).every((v) => positive.has(v))) {
        positive.add(b.variable);
        changed = true;
      }
    }
  }
  const bindOutputs = new Set(binds.map((b) => b.variable));
  for (const h of rule.head) {
    for (const v of atomVariables(h)) {
      // a BIND target left unbound is reported at the BIND (its inputs are the problem)
      if (!positive.has(v) && !bindOutputs.has(v)) fail(h.position, `head variable ?${v} is not bound by the rule body`);
    }
  }
  const bindTargets = new Set<string>();
  for (const l of rule.body) {
    if (l.kind === 'filter') {
      for (const v of expressionVariables(l.expression)) if (!positive.has(v)) fail(l.position, `variable ?${v} of FILTER is not bound elsewhere in the body`);
    } else if (l.kind === 'bind') {
      for (const v of expressionVariables(l.expression)) if (!positive.has(v) || v === l.variable) fail(l.position, `variable ?${v} of BIND is not bound elsewhere in the body`);
      const others = rule.body.filter((o) => o !== l).flatMap(bound);
      if (bindTargets.has(l.variable) || others.includes(l.variable)) fail(l.position, `BIND assigns ?${l.variable}, which is already bound elsewhere in the body`);
      bindTargets.add(l.variable);
    } else if (l.kind === 'not') {
      const local = new Set(l.existentialVariables);
      for (const v of local) if (positive.has(v)) fail(l.position, `variable ?${v} of NOT EXISTS is local to the negation but also bound elsewhere in the body`);
      for (const a of l.atoms) {
        for (const v of atomVariables(a)) {
          if (!local.has(v) && !positive.has(v)) fail(l.position, `variable ?${v} of NOT is not bound elsewhere in the body (list it after NOT EXISTS to make it local)`);
        }
      }
    } else if (l.kind === 'aggregate') {
      const inner = new Set<string>();
      for (const b of l.body) for (const v of bound(b)) inner.add(v);
      for (const g of l.groupBy) if (!inner.has(g)) fail(l.position, `group variable ?${g} of AGGREGATE is not bound inside it`);
      for (const b of l.body) {
        if (b.kind !== 'filter' && b.kind !== 'bind') continue;
        const what = b.kind === 'filter' ? 'FILTER' : 'BIND';
        for (const v of expressionVariables(b.expression)) if (!inner.has(v) && !positive.has(v)) fail(b.position, `variable ?${v} of ${what} inside AGGREGATE is not bound`);
      }
      for (const b of l.bindings) {
        if (b.expression) for (const v of expressionVariables(b.expression)) if (!inner.has(v)) fail(l.position, `variable ?${v} of ${b.fn.toUpperCase()} is not bound inside AGGREGATE`);
      }
    }
  }
}
