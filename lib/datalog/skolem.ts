/**
 * Atoms over the built-in tuple table SKOLEM in rule bodies (`SKOLEM("Employment", ?P, ?C, ?E)`).
 *
 * SKOLEM's content is fixed: in each of its facts the last argument is the blank node
 * determined by the other arguments (see model/skolem.ts). A rule reads it as a function, not
 * as stored facts: once every argument but the last is bound, the atom binds the last one
 * (or, when it is bound too, checks it); once the last one is bound, the atom unpacks it into
 * the others, when SKOLEM made it in this store (else the atom does not hold). So a SKOLEM
 * atom is evaluated like a BIND: it has no predicate node, takes no part in stratification,
 * and incremental maintenance recomputes it with the rest of the body, so that deleting the
 * facts its inputs came from retracts what was derived from its result.
 *
 * Safety (RDFox's binding restriction): every argument but the last, or the last, is bound by
 * the other literals of the body. SKOLEM atoms are not allowed in heads or under NOT.
 * @module
 */
import { RuleCompilationError } from '../model/errors.js';
import { SKOLEM_TABLE } from '../model/skolem.js';
import type { AtomTerm, BodyLiteral, Rule, SourcePosition, TupleAtom } from './ast.js';
import { atomTermText } from './triple-term-patterns.js';

/** A compiled SKOLEM atom: arguments as term ids (>= 0) or `-(slot + 1)` for variables. */
export interface CompiledSkolem {
  /** Discriminator. */
  readonly kind: 'skolem';
  /** Per position: a term id (>= 0) or `-(slot + 1)` for a variable; the last is the created term. */
  readonly args: Int32Array;
  /** The slots of every variable of the atom. */
  readonly vars: readonly number[];
}

/** What evaluating a SKOLEM atom needs of the store's terms. */
export interface SkolemTerms {
  /** The id of the SKOLEM term of `inputs` (interned and remembered for unpacking). */
  skolem(inputs: Uint32Array): number;
  /** The inputs SKOLEM made term `id` from, or undefined when it did not make it in this store. */
  skolemInputs(id: number): Uint32Array | undefined;
}

/** Whether a body literal is an atom over the built-in table SKOLEM. */
export function isSkolemAtom(literal: BodyLiteral): literal is TupleAtom {
  return literal.kind === 'atom' && literal.table === SKOLEM_TABLE;
}

function fail(position: SourcePosition, message: string): never {
  throw new RuleCompilationError(`line ${position.line}: column ${position.column}: ${message}`);
}

/** A term as Datalog text (for messages). */
function datalogTermText(t: AtomTerm): string {
  return atomTermText(t);
}

/** A SKOLEM atom as Datalog text (for messages). */
export function skolemAtomText(atom: TupleAtom): string {
  return `${SKOLEM_TABLE}(${atom.args.map(datalogTermText).join(', ')})`;
}

/**
 * Adds to `bound` what a SKOLEM atom binds once the variables of `bound` are bound: its last
 * argument when every other is bound, its other arguments when the last is. Returns whether
 * it added anything (for a fixpoint with BINDs).
 */
export function skolemBinds(atom: TupleAtom, bound: Set<string>): boolean {
  const isBound = (t: AtomTerm): boolean => t.kind === 'const' || (t.kind === 'var' && bound.has(t.name));
  const last = atom.args[atom.args.length - 1]!;
  const leading = atom.args.slice(0, -1);
  let added = false;
  const bind = (t: AtomTerm): void => {
    if (t.kind === 'var' && !bound.has(t.name)) {
      bound.add(t.name);
      added = true;
    }
  };
  if (leading.every(isBound)) bind(last);
  else if (isBound(last)) leading.forEach(bind);
  return added;
}

/**
 * Fails (RuleCompilationError naming the atom, its position and the argument) for the first
 * SKOLEM atom of `literals` that neither has every argument but the last bound by `bound` nor
 * its last argument.
 */
export function checkSkolemAtoms(literals: readonly BodyLiteral[], bound: ReadonlySet<string>): void {
  const isBound = (t: AtomTerm): boolean => t.kind === 'const' || (t.kind === 'var' && bound.has(t.name));
  for (const atom of literals) {
    if (!isSkolemAtom(atom)) continue;
    const last = atom.args[atom.args.length - 1]!;
    const missing = atom.args.slice(0, -1).findIndex((t) => !isBound(t));
    if (missing < 0 || isBound(last)) continue;
    fail(
      atom.position,
      `${skolemAtomText(atom)}: argument ${missing + 1} (${datalogTermText(atom.args[missing]!)}) is not bound by another literal of the body, and neither is the last argument ` +
        `(${datalogTermText(last)}): SKOLEM computes its last argument from the others, or unpacks its last argument into the others, so one of the two must be bound elsewhere`,
    );
  }
}

/** Fails for a SKOLEM atom in the head of a rule or under NOT. */
export function checkSkolemPlacement(rule: Rule): void {
  for (const h of rule.head) {
    if (h.table === SKOLEM_TABLE) fail(h.position, `${skolemAtomText(h)}: SKOLEM atoms are not allowed in rule heads (the facts of the built-in tuple table SKOLEM are computed by the store, not derived)`);
  }
  for (const l of rule.body) {
    if (l.kind !== 'not') continue;
    const a = l.atoms.find((x) => x.table === SKOLEM_TABLE);
    if (a) fail(a.position, `${skolemAtomText(a)}: SKOLEM atoms cannot be negated`);
  }
}

/** Whether a compiled SKOLEM atom can be evaluated once the slots of `bound` are bound. */
export function skolemReady(literal: CompiledSkolem, bound: ReadonlySet<number>): boolean {
  const args = literal.args;
  const n = args.length - 1;
  const isBound = (a: number): boolean => a >= 0 || bound.has(-a - 1);
  if (isBound(args[n]!)) return true;
  for (let c = 0; c < n; c++) if (!isBound(args[c]!)) return false;
  return true;
}

/** Whether a SKOLEM atom holds for the complete bindings `slots` (false while an argument is unbound). */
function holds(args: Int32Array, slots: Int32Array, terms: SkolemTerms): boolean {
  const n = args.length - 1;
  const inputs = new Uint32Array(n);
  for (let c = 0; c < n; c++) {
    const a = args[c]!;
    const v = a >= 0 ? a : slots[-a - 1]!;
    if (v < 0) return false;
    inputs[c] = v;
  }
  const a = args[n]!;
  return terms.skolem(inputs) === (a >= 0 ? a : slots[-a - 1]!);
}

/** Scratch arrays for the inputs of SKOLEM atoms, by number of inputs. */
const scratch: Uint32Array[] = [];

/** Tests a complete match of the rest of a body (its slots); the match counts only when it holds. */
export type MatchCheck = (slots: Int32Array) => boolean;

/**
 * Evaluates a SKOLEM atom on `slots` (term ids, -1 unbound) and calls `next` for the match, if
 * any: the last argument computed (or checked) from the others, or the others unpacked from
 * the last. A bound last argument that SKOLEM did not make in this store cannot be unpacked:
 * the rest of the body is then evaluated with the other arguments left to it, and `next` gets
 * the check that each complete match must pass (its arguments give that last argument), so
 * that the atom means the same whatever the join order. The slots it binds are unbound again
 * afterwards. Returns what `next` returned (true: stop), false when the atom does not hold.
 */
export function evaluateSkolem(args: Int32Array, slots: Int32Array, terms: SkolemTerms, next: (check?: MatchCheck) => boolean): boolean {
  const n = args.length - 1;
  const inputs = (scratch[n] ??= new Uint32Array(n));
  let complete = true;
  for (let c = 0; c < n; c++) {
    const a = args[c]!;
    const v = a >= 0 ? a : slots[-a - 1]!;
    if (v < 0) {
      complete = false;
      break;
    }
    inputs[c] = v;
  }
  const a = args[n]!;
  const last = a >= 0 ? a : slots[-a - 1]!;
  if (complete) {
    // the inputs are read before `next` runs (which may use the scratch array again)
    const id = terms.skolem(inputs);
    if (last >= 0) return last === id && next();
    const s = -a - 1;
    slots[s] = id;
    const stop = next();
    slots[s] = -1;
    return stop;
  }
  if (last < 0) return false;
  const known = terms.skolemInputs(last);
  if (!known) return next((match) => holds(args, match, terms));
  if (known.length !== n) return false;
  const set: number[] = [];
  let ok = true;
  for (let c = 0; c < n && ok; c++) {
    const x = args[c]!;
    const v = known[c]!;
    if (x >= 0) ok = x === v;
    else {
      const s = -x - 1;
      if (slots[s]! < 0) {
        slots[s] = v;
        set.push(s);
      } else ok = slots[s] === v;
    }
  }
  const stop = ok && next();
  for (const s of set) slots[s] = -1;
  return stop;
}
