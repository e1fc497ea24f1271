/**
 * Test helper: a brute-force oracle of least proof heights, independent of the engine's
 * evaluator and proof search. Given explicit facts and rules (the rule syntax trees serve as
 * data only), it stratifies the rules itself, then per stratum grounds every rule over the
 * active domain (each variable takes each term of the facts and of the rules, in turn) and
 * relaxes heights until nothing changes: an explicit fact has height 0, a derived fact
 * 1 + the greatest height of the body facts of its best ground instance. Negated atoms (with
 * or without EXISTS) hold when no fact of the lower strata (already complete) matches them
 * and contribute no body fact; FILTER supports `=`, `!=`, `&&`, `||` and `!` over variables
 * and IRIs. BIND, AGGREGATE, SKOLEM and other expressions are not supported (they throw).
 *
 * Facts are lines `Table(key …)` with the term keys of `model/terms.ts`, as in
 * `explanation-checker.ts`.
 */
import { Algebra } from 'sparqlalgebrajs';
import type { AtomTerm, Rule, TupleAtom } from '../../lib/datalog/ast.js';
import { termToKey } from '../../lib/model/terms.js';

/** A term of a rule, with constants as keys. */
type Term = { readonly variable: string } | { readonly key: string };

interface Atom {
  readonly table: string;
  readonly args: readonly Term[];
}

/** A filter condition over an assignment (variable name → key). */
type Condition = (value: (variable: string) => string) => boolean;

interface GroundedRule {
  readonly heads: readonly Atom[];
  readonly positive: readonly Atom[];
  readonly negated: ReadonlyArray<{ readonly local: ReadonlySet<string>; readonly atoms: readonly Atom[] }>;
  readonly filters: readonly Condition[];
  /** The variables of the rule's own scope, in the order they are assigned. */
  readonly variables: readonly string[];
}

function term(t: AtomTerm): Term {
  if (t.kind === 'triple') throw new Error('brute-force oracle: triple term patterns are not supported');
  return t.kind === 'var' ? { variable: t.name } : { key: termToKey(t.term) };
}

function atomOf(a: TupleAtom): Atom {
  if (a.table === 'SKOLEM') throw new Error('brute-force oracle: SKOLEM is not supported');
  return { table: a.table, args: a.args.map(term) };
}

/** The value of a filter operand: a variable's key or a constant's key. */
function operand(e: Algebra.Expression): (value: (variable: string) => string) => string {
  if (e.expressionType !== Algebra.expressionTypes.TERM) throw new Error(`brute-force oracle: unsupported FILTER operand ${e.expressionType}`);
  const t = e.term;
  if (t.termType === 'Variable') return (value) => value(t.value);
  if (t.termType !== 'NamedNode') throw new Error(`brute-force oracle: unsupported FILTER constant ${t.termType}`);
  const key = termToKey(t);
  return () => key;
}

function condition(e: Algebra.Expression): Condition {
  if (e.expressionType !== Algebra.expressionTypes.OPERATOR) throw new Error(`brute-force oracle: unsupported FILTER expression ${e.expressionType}`);
  const op = e;
  switch (op.operator) {
    case '=':
    case '!=': {
      const [a, b] = op.args.map(operand) as [ReturnType<typeof operand>, ReturnType<typeof operand>];
      // IRIs are equal exactly when they are the same term
      return op.operator === '=' ? (v) => a(v) === b(v) : (v) => a(v) !== b(v);
    }
    case '&&': {
      const [a, b] = op.args.map(condition) as [Condition, Condition];
      return (v) => a(v) && b(v);
    }
    case '||': {
      const [a, b] = op.args.map(condition) as [Condition, Condition];
      return (v) => a(v) || b(v);
    }
    case '!': {
      const a = condition(op.args[0]!);
      return (v) => !a(v);
    }
    default:
      throw new Error(`brute-force oracle: unsupported FILTER operator ${op.operator}`);
  }
}

function prepare(rule: Rule): GroundedRule {
  const positive: Atom[] = [];
  const negated: Array<{ local: ReadonlySet<string>; atoms: readonly Atom[] }> = [];
  const filters: Condition[] = [];
  for (const l of rule.body) {
    if (l.kind === 'atom') positive.push(atomOf(l));
    else if (l.kind === 'not') negated.push({ local: new Set(l.existentialVariables), atoms: l.atoms.map(atomOf) });
    else if (l.kind === 'filter') filters.push(condition(l.expression));
    else throw new Error(`brute-force oracle: ${l.kind} is not supported`);
  }
  const variables: string[] = [];
  for (const a of positive) for (const t of a.args) if ('variable' in t && !variables.includes(t.variable)) variables.push(t.variable);
  const heads = rule.head.map(atomOf);
  for (const a of heads) for (const t of a.args) if ('variable' in t && !variables.includes(t.variable)) throw new Error(`brute-force oracle: unsafe rule (head variable ?${t.variable})`);
  return { heads, positive, negated, filters, variables };
}

/** Whether two atoms may match a common fact (same table and arity, no two different constants at one position). */
function mayUnify(a: Atom, b: Atom): boolean {
  return a.table === b.table && a.args.length === b.args.length && a.args.every((t, i) => !('key' in t) || !('key' in b.args[i]!) || t.key === (b.args[i] as { key: string }).key);
}

/**
 * Strata of the rules: a rule is in a stratum at least that of every rule whose head may match
 * one of its body atoms, and above that of every rule whose head may match a negated atom.
 */
function stratify(rules: readonly GroundedRule[]): number[] {
  const stratum = rules.map(() => 0);
  for (let changed = true, rounds = 0; changed; rounds++) {
    if (rounds > rules.length + 1) throw new Error('brute-force oracle: the rules are not stratifiable');
    changed = false;
    rules.forEach((r, i) => {
      rules.forEach((s, j) => {
        const pos = r.positive.some((a) => s.heads.some((h) => mayUnify(a, h)));
        const neg = r.negated.some((n) => n.atoms.some((a) => s.heads.some((h) => mayUnify(a, h))));
        const least = neg ? stratum[j]! + 1 : pos ? stratum[j]! : 0;
        if (stratum[i]! < least) {
          stratum[i] = least;
          changed = true;
        }
      });
    });
  }
  return stratum;
}

/** The line of a ground atom. */
const line = (table: string, keys: readonly string[]): string => `${table}(${keys.join(' ')})`;

/** The keys of a fact line (term keys without spaces: IRIs, blank nodes, simple literals without spaces). */
function parseLine(fact: string): { table: string; keys: string[] } {
  const open = fact.indexOf('(');
  return { table: fact.slice(0, open), keys: fact.slice(open + 1, -1).split(' ') };
}

/**
 * The least proof height of every fact that the rules derive from the explicit facts (explicit
 * facts included, with height 0): the keys of the answer are exactly the facts that hold.
 */
export function bruteForceHeights(rules: readonly Rule[], explicit: Iterable<string>): Map<string, number> {
  const heights = new Map<string, number>();
  const domain = new Set<string>();
  for (const f of explicit) {
    heights.set(f, 0);
    for (const k of parseLine(f).keys) domain.add(k);
  }
  const prepared = rules.map(prepare);
  for (const r of prepared) for (const a of [...r.heads, ...r.positive, ...r.negated.flatMap((n) => n.atoms)]) for (const t of a.args) if ('key' in t) domain.add(t.key);
  const terms = [...domain];
  const strata = stratify(prepared);
  const top = Math.max(-1, ...strata);
  for (let s = 0; s <= top; s++) {
    const here = prepared.filter((_, i) => strata[i] === s);
    // relax until no height changes: each round grounds every rule of the stratum in every way
    for (let changed = true; changed; ) {
      changed = false;
      for (const rule of here) {
        const assignment = new Map<string, string>();
        const value = (v: string): string => assignment.get(v)!;
        const groundAtom = (a: Atom): string => line(a.table, a.args.map((t) => ('key' in t ? t.key : value(t.variable))));
        const visit = (depth: number): void => {
          if (depth < rule.variables.length) {
            for (const k of terms) {
              assignment.set(rule.variables[depth]!, k);
              visit(depth + 1);
            }
            assignment.delete(rule.variables[depth]!);
            return;
          }
          let h = 0;
          for (const a of rule.positive) {
            const hb = heights.get(groundAtom(a));
            if (hb === undefined) return;
            h = Math.max(h, hb);
          }
          if (!rule.filters.every((c) => c(value))) return;
          for (const n of rule.negated) if (negationMatches(n.atoms, n.local, assignment, terms, heights)) return;
          for (const head of rule.heads) {
            const f = groundAtom(head);
            if ((heights.get(f) ?? Infinity) > h + 1) {
              heights.set(f, h + 1);
              changed = true;
            }
          }
        };
        visit(0);
      }
    }
  }
  return heights;
}

/** Whether some values of the local variables make every negated atom a fact. */
function negationMatches(atoms: readonly Atom[], local: ReadonlySet<string>, assignment: Map<string, string>, terms: readonly string[], facts: ReadonlyMap<string, number>): boolean {
  const vars = [...local];
  const values = new Map(assignment);
  const visit = (depth: number): boolean => {
    if (depth < vars.length) {
      for (const k of terms) {
        values.set(vars[depth]!, k);
        if (visit(depth + 1)) return true;
      }
      return false;
    }
    return atoms.every((a) => facts.has(line(a.table, a.args.map((t) => ('key' in t ? t.key : values.get(t.variable)!)))));
  };
  return visit(0);
}
