/**
 * Triple term patterns in rules (RDF 1.2 `<<( s p o )>>` with variables inside, in any argument
 * of an atom of a rule body or head).
 *
 * Compiling a rule replaces each such pattern by a fresh variable of its own and adds to the
 * body a built-in literal `TT(s, p, o, t)`: "t is the triple term with subject s, predicate p
 * and object o". The literal is read from the dictionary's triple term index, never from facts:
 * with t bound, its parts (`part`); with its parts bound, the triple term (`find`); with some of
 * its parts bound, the triple terms with those parts (`match`, an index access). A triple term
 * that is not in the dictionary is in no fact, so a body pattern matches only triple terms that
 * exist. A pattern of a rule HEAD builds its triple term once the body bound its parts: the key
 * of the ground triple term is interned (a subject that is not an IRI or a blank node, or a
 * predicate that is not an IRI, makes no triple term: that match of the body derives nothing).
 *
 * Like a SKOLEM atom or a BIND, the literal has no predicate node and takes no part in
 * stratification; what it relates never changes (a triple term's parts are fixed), so
 * incremental maintenance evaluates it with the rest of the body and stays exact.
 * @module
 */
import { RuleCompilationError } from '../model/errors.js';
import type { TripleTermIndex } from '../model/triple-terms.js';
import { termText } from '../model/terms.js';
import type { AtomTerm, Rule, SourcePosition, TupleAtom } from './ast.js';

/** A compiled triple term pattern: `args` are subject, predicate, object and the triple term (ids >= 0, or `-(slot + 1)`). */
export interface CompiledTripleTerm {
  /** Discriminator. */
  readonly kind: 'tripleTerm';
  /** Subject, predicate, object and the triple term: a term id (>= 0) or `-(slot + 1)` for a variable. */
  readonly args: Int32Array;
  /** Whether the triple term is built (interned) when the parts are bound: patterns of rule heads. */
  readonly build: boolean;
  /** The slots of every variable of the literal. */
  readonly vars: readonly number[];
}

/** What evaluating a triple term pattern needs of the store's terms. */
export interface TripleTermAccess {
  /** The dictionary's triple terms, by their parts. */
  readonly tripleTerms: TripleTermIndex;
  /**
   * The id of the triple term with these parts, interned when it is new; -1 when the parts
   * cannot make a triple term (a subject that is not an IRI or blank node, a predicate that is
   * not an IRI).
   */
  buildTripleTerm(subject: number, predicate: number, object: number): number;
}

/** A term of an atom as Datalog text (for messages): `?x`, `<iri>`, `<<( ?s <p> ?o )>>`. */
export function atomTermText(t: AtomTerm): string {
  if (t.kind === 'var') return `?${t.name}`;
  if (t.kind === 'const') return termText(t.term);
  return `<<( ${atomTermText(t.subject)} ${atomTermText(t.predicate)} ${atomTermText(t.object)} )>>`;
}

/**
 * Whether a slot name of a compiled rule is a triple term pattern's (its text, `<<( … )>>`)
 * rather than a variable's: such a slot holds the triple term the pattern matched or built.
 */
export function isPatternSlotName(name: string): boolean {
  return name.startsWith('<<(');
}

/** Whether an argument is (or holds) a triple term pattern. */
export function hasTripleTermPattern(atom: TupleAtom): boolean {
  return atom.args.some((t) => t.kind === 'triple');
}

function fail(position: SourcePosition, message: string): never {
  throw new RuleCompilationError(`line ${position.line}: column ${position.column}: ${message}`);
}

/**
 * Fails for triple term patterns where rules cannot have them: as arguments of SKOLEM atoms
 * (whose arguments are values a function is computed from; bind the triple term with an atom
 * first) and in facts.
 */
export function checkTripleTermPlacement(rule: Rule, skolemTable: string): void {
  const check = (a: TupleAtom): void => {
    if (a.table === skolemTable && hasTripleTermPattern(a)) {
      fail(a.position, `${a.table}(…): a triple term pattern (${atomTermText(a.args.find((t) => t.kind === 'triple')!)}) cannot be an argument of SKOLEM; match it with another atom and pass its variable`);
    }
  };
  rule.head.forEach(check);
  for (const l of rule.body) {
    if (l.kind === 'atom') check(l);
    else if (l.kind === 'not') l.atoms.forEach(check);
    else if (l.kind === 'aggregate') for (const b of l.body) if (b.kind === 'atom') check(b);
  }
}

/** Whether the literal can be evaluated as a function once the slots of `bound` are bound: its triple term, or all its parts, bound. */
export function tripleTermReady(literal: CompiledTripleTerm, bound: ReadonlySet<number>): boolean {
  const args = literal.args;
  const isBound = (a: number): boolean => a >= 0 || bound.has(-a - 1);
  return isBound(args[3]!) || (isBound(args[0]!) && isBound(args[1]!) && isBound(args[2]!));
}

/** The value of an argument in `slots` (-1 when unbound). */
function valueOf(a: number, slots: Int32Array): number {
  return a >= 0 ? a : slots[-a - 1]!;
}

/** The values {@link bindAll} binds (one array for every call: it is read before `next` runs). */
const values = new Int32Array(4);

/**
 * Binds (or checks) the arguments `args[0..3]` to the values subject, predicate, object and
 * triple term; calls `next` when they agree, unbinds what it bound, and returns what `next`
 * returned (false when they disagree).
 */
function bindAll(args: Int32Array, s: number, p: number, o: number, t: number, slots: Int32Array, next: () => boolean): boolean {
  values[0] = s;
  values[1] = p;
  values[2] = o;
  values[3] = t;
  let set = 0;
  let ok = true;
  for (let c = 0; c < 4 && ok; c++) {
    const a = args[c]!;
    const v = values[c]!;
    if (a >= 0) ok = a === v;
    else {
      const s = -a - 1;
      if (slots[s]! < 0) {
        slots[s] = v;
        set |= 1 << c;
      } else ok = slots[s] === v;
    }
  }
  const stop = ok && next();
  for (let c = 0; c < 4; c++) if ((set & (1 << c)) !== 0) slots[-args[c]! - 1] = -1;
  return stop;
}

/**
 * Evaluates a triple term pattern on `slots` (term ids, -1 unbound) and calls `next` for each
 * match: with the triple term bound, its parts; with every part bound, the triple term (found,
 * or built for a head pattern); otherwise every triple term with the bound parts. The slots it
 * binds are unbound again afterwards. Returns true when `next` asked to stop.
 */
export function evaluateTripleTerm(literal: CompiledTripleTerm, slots: Int32Array, terms: TripleTermAccess, next: () => boolean): boolean {
  const args = literal.args;
  const index = terms.tripleTerms;
  const t = valueOf(args[3]!, slots);
  const s = valueOf(args[0]!, slots);
  const p = valueOf(args[1]!, slots);
  const o = valueOf(args[2]!, slots);
  if (t < 0 && literal.build && s >= 0 && p >= 0 && o >= 0) {
    const id = terms.buildTripleTerm(s, p, o);
    return id >= 0 && bindAll(args, s, p, o, id, slots, next);
  }
  let stop = false;
  index.matchTerm(t, s, p, o, (id, ms, mp, mo) => {
    stop = bindAll(args, ms, mp, mo, id, slots, next);
    return !stop;
  });
  return stop;
}
