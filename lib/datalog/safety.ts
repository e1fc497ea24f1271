/**
 * Rule safety, as RDFox's rule language defines it: every rule can be evaluated by binding the
 * variables of its body to facts, and its value is determined by the facts.
 *
 * - Every head variable is bound by the body: by a positive atom, an AGGREGATE (its group
 *   variables and results) or a BIND whose inputs are bound (BINDs that depend on each other
 *   in a cycle bind nothing).
 * - The variables of a FILTER, and of a BIND's expression, are bound by other body formulas.
 *   A BIND's expression does not use its own variable; a BIND whose variable is bound
 *   elsewhere tests that the two values are the same term.
 * - NOT and AGGREGATE open a scope. The variables listed after `NOT EXISTS` are local to the
 *   negation (another occurrence outside it is another variable); every other variable of the
 *   negated atoms is bound elsewhere in the body. Inside an AGGREGATE, every variable other
 *   than the group variables is local: the group variables, and the variables of its FILTERs,
 *   BINDs and aggregated expressions, are bound by its own atoms (and BINDs); a result variable
 *   does not occur among its atoms.
 * - NOW, RAND, UUID and STRUUID, whose values are not determined by their arguments, do not
 *   occur in rules.
 *
 * Errors are {@link RuleCompilationError}s whose message starts with the line and column of
 * the offending atom or formula.
 * @module
 */
import { RuleCompilationError } from '../model/errors.js';
import { aggregateArguments, atomVariableNames, type AggregateLiteral, type BodyLiteral, type Rule, type SourcePosition, type TupleAtom } from './ast.js';
import { expressionVariables } from './program.js';
import { checkSkolemAtoms, checkSkolemPlacement, isSkolemAtom, skolemBinds } from './skolem.js';
import { checkTripleTermPlacement } from './triple-term-patterns.js';
import { SKOLEM_TABLE } from '../model/skolem.js';

/** The functions rules may not use (sparqlalgebrajs operator names), with their SPARQL names. */
const NONDETERMINISTIC_FUNCTIONS: ReadonlyMap<string, string> = new Map([
  ['now', 'NOW'],
  ['rand', 'RAND'],
  ['uuid', 'UUID'],
  ['struuid', 'STRUUID'],
]);

/** The variables of an atom, inside its triple term patterns too. */
function atomVariables(atom: TupleAtom): string[] {
  return atomVariableNames(atom.args);
}

function fail(position: SourcePosition, message: string): never {
  throw new RuleCompilationError(`line ${position.line}: column ${position.column}: ${message}`);
}

/** The SPARQL name of the first function of `expression` whose value its arguments do not determine, if any. */
export function nondeterministicFunction(expression: unknown): string | undefined {
  if (expression === null || typeof expression !== 'object') return undefined;
  if (Array.isArray(expression)) {
    for (const x of expression) {
      const found = nondeterministicFunction(x);
      if (found) return found;
    }
    return undefined;
  }
  const e = expression as { type?: unknown; expressionType?: unknown; operator?: unknown; args?: unknown };
  if (e.type === 'expression' && e.expressionType === 'operator' && typeof e.operator === 'string') {
    const name = NONDETERMINISTIC_FUNCTIONS.get(e.operator.toLowerCase());
    if (name) return name;
  }
  return e.args === undefined ? undefined : nondeterministicFunction(e.args);
}

/** Fails when `expression` calls NOW, RAND, UUID or STRUUID. */
function checkDeterministic(expression: unknown, position: SourcePosition, where: string): void {
  const name = nondeterministicFunction(expression);
  if (name) fail(position, `${name}() is not allowed in rules (in ${where}): its value is not determined by its arguments`);
}

/**
 * The variables bound by `literals` seen as one scope: those of positive atoms, the group
 * variables and results of AGGREGATEs, then (to a fixpoint) the variables of the BINDs whose
 * inputs are bound and what SKOLEM atoms compute or unpack (see skolem.ts).
 */
function boundVariables(literals: readonly BodyLiteral[]): Set<string> {
  const bound = new Set<string>();
  for (const l of literals) {
    if (l.kind === 'atom' && !isSkolemAtom(l)) for (const v of atomVariables(l)) bound.add(v);
    else if (l.kind === 'aggregate') for (const v of [...l.groupBy, ...l.bindings.map((b) => b.variable)]) bound.add(v);
  }
  const binds = literals.filter((l) => l.kind === 'bind');
  const skolems = literals.filter(isSkolemAtom);
  for (let changed = true; changed; ) {
    changed = false;
    for (const k of skolems) if (skolemBinds(k, bound)) changed = true;
    for (const b of binds) {
      if (bound.has(b.variable)) continue;
      const inputs = expressionVariables(b.expression);
      if (!inputs.includes(b.variable) && inputs.every((v) => bound.has(v))) {
        bound.add(b.variable);
        changed = true;
      }
    }
  }
  return bound;
}

/** Checks the FILTERs and BINDs of one scope against the variables bound in it. */
function checkExpressions(literals: readonly BodyLiteral[], bound: ReadonlySet<string>, inside: string): void {
  for (const l of literals) {
    if (l.kind === 'filter') {
      checkDeterministic(l.expression, l.position, `FILTER${inside}`);
      for (const v of expressionVariables(l.expression)) {
        if (!bound.has(v)) fail(l.position, `variable ?${v} of FILTER${inside} is not bound ${inside === '' ? 'elsewhere in the body' : 'by the atoms inside it (the variables of an AGGREGATE other than its group variables are local to it)'}`);
      }
    } else if (l.kind === 'bind') {
      checkDeterministic(l.expression, l.position, `BIND${inside}`);
      const inputs = expressionVariables(l.expression);
      if (inputs.includes(l.variable)) fail(l.position, `BIND(… AS ?${l.variable})${inside} uses ?${l.variable} in its own expression`);
      for (const v of inputs) {
        if (!bound.has(v)) fail(l.position, `variable ?${v} of BIND${inside} is not bound ${inside === '' ? 'elsewhere in the body' : 'by the atoms inside it (the variables of an AGGREGATE other than its group variables are local to it)'}`);
      }
    }
  }
}

/** Checks one AGGREGATE: its own scope, its group variables, its aggregated expressions and results. */
function checkAggregate(l: AggregateLiteral): void {
  const inside = boundVariables(l.body);
  checkSkolemAtoms(l.body, inside);
  for (const g of l.groupBy) if (!inside.has(g)) fail(l.position, `group variable ?${g} of AGGREGATE is not bound inside it`);
  checkExpressions(l.body, inside, ' inside AGGREGATE');
  const occurring = new Set<string>();
  for (const b of l.body) {
    if (b.kind === 'atom') atomVariables(b).forEach((v) => occurring.add(v));
    else {
      expressionVariables(b.expression).forEach((v) => occurring.add(v));
      if (b.kind === 'bind') occurring.add(b.variable);
    }
  }
  for (const b of l.bindings) {
    const name = b.fn.toUpperCase();
    for (const e of aggregateArguments(b)) {
      checkDeterministic(e, l.position, name);
      for (const v of expressionVariables(e)) if (!inside.has(v)) fail(l.position, `variable ?${v} of ${name} is not bound inside AGGREGATE`);
    }
    if (occurring.has(b.variable) || l.groupBy.includes(b.variable)) {
      fail(l.position, `?${b.variable} receives the result of ${name}, so it cannot also occur inside the AGGREGATE${l.groupBy.includes(b.variable) ? ' as a group variable' : ''}`);
    }
  }
}

/** Throws RuleCompilationError (with line and column) when the rule is unsafe. */
export function checkSafety(rule: Rule): void {
  checkTripleTermPlacement(rule, SKOLEM_TABLE);
  checkSkolemPlacement(rule);
  const positive = boundVariables(rule.body);
  checkSkolemAtoms(rule.body, positive);
  const bindOutputs = new Set(rule.body.flatMap((l) => (l.kind === 'bind' ? [l.variable] : [])));
  for (const h of rule.head) {
    for (const v of atomVariables(h)) {
      // a BIND variable left unbound is reported at the BIND (its inputs are the problem)
      if (!positive.has(v) && !bindOutputs.has(v)) fail(h.position, `head variable ?${v} is not bound by the rule body`);
    }
  }
  for (const l of rule.body) {
    if (l.kind === 'filter' || l.kind === 'bind') checkExpressions([l], positive, '');
    else if (l.kind === 'not') {
      const local = new Set(l.existentialVariables);
      for (const a of l.atoms) {
        for (const v of atomVariables(a)) {
          if (!local.has(v) && !positive.has(v)) fail(l.position, `variable ?${v} of NOT is not bound elsewhere in the body (list it after NOT EXISTS to make it local)`);
        }
      }
    } else if (l.kind === 'aggregate') checkAggregate(l);
  }
}
