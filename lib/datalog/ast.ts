/**
 * The abstract syntax of Datalog programs (RDFox's syntax): rules, facts, atoms over tuple
 * tables, FILTER, BIND, negation and aggregation. Expressions are SPARQL algebra expressions
 * (sparqlalgebrajs), evaluated by the shared expression evaluator.
 * @module
 */
import type * as RDF from '@rdfjs/types/data-model.js';
import type { Algebra } from 'sparqlalgebrajs';

/** A position in the source text (1-based line and column). */
export interface SourcePosition {
  /** 1-based line. */
  readonly line: number;
  /** 1-based column. */
  readonly column: number;
}

/** A variable (name without `?`). */
export interface VariableTerm {
  /** Discriminator. */
  readonly kind: 'var';
  /** The variable name, without the leading `?`. */
  readonly name: string;
}

/** A constant: an IRI, blank node, literal or triple term (RDF 1.2, ground). */
export interface ConstantTerm {
  /** Discriminator. */
  readonly kind: 'const';
  /** The term. */
  readonly term: RDF.NamedNode | RDF.BlankNode | RDF.Literal | RDF.Quad;
}

/** A variable or a constant (an argument of an atom that is not a triple term pattern). */
export type DatalogTerm = VariableTerm | ConstantTerm;

/**
 * A triple term pattern `<<( s p o )>>` (RDF 1.2) with a variable somewhere inside it (a ground
 * triple term is a {@link ConstantTerm}). Its parts are variables, constants or nested patterns.
 * In a body atom it matches the triple terms of the store with those parts (read from the
 * dictionary's triple term index, not from facts); in a head atom it builds the triple term
 * from the values of its variables.
 */
export interface TripleTermPattern {
  /** Discriminator. */
  readonly kind: 'triple';
  /** The subject: a variable, an IRI, a blank node or a nested pattern (see the parser's checks). */
  readonly subject: AtomTerm;
  /** The predicate: a variable or an IRI. */
  readonly predicate: AtomTerm;
  /** The object: any term or pattern. */
  readonly object: AtomTerm;
}

/** An argument of an atom: a variable, a constant or a triple term pattern. */
export type AtomTerm = DatalogTerm | TripleTermPattern;

/** Calls `f` with the name of every variable of an argument, inside triple term patterns too (repeats included). */
export function forEachTermVariable(term: AtomTerm, f: (name: string) => void): void {
  if (term.kind === 'var') f(term.name);
  else if (term.kind === 'triple') {
    forEachTermVariable(term.subject, f);
    forEachTermVariable(term.predicate, f);
    forEachTermVariable(term.object, f);
  }
}

/** The distinct variables (names without `?`) of an atom's arguments, inside triple term patterns too, in order. */
export function atomVariableNames(args: readonly AtomTerm[]): string[] {
  const out = new Set<string>();
  for (const t of args) forEachTermVariable(t, (v) => out.add(v));
  return [...out];
}

/**
 * An atom over a tuple table. Triple syntax is normalised: `[s, p, o]`, `p[s, o]` and `C[s]`
 * become `DefaultTriples(s, p, o)` (with `rdf:type` for `C[s]`); with a graph `:G` they become
 * `Quads(s, p, o, G)`; `Name(t1, …, tn)` names a tuple table directly.
 */
export interface TupleAtom {
  /** Discriminator. */
  readonly kind: 'atom';
  /** Tuple table name (`DefaultTriples`, `Quads` or a user table). */
  readonly table: string;
  /** The arguments, one per table position. */
  readonly args: readonly AtomTerm[];
  /** Where the atom starts. */
  readonly position: SourcePosition;
}

/** `FILTER(expression)`. */
export interface FilterLiteral {
  /** Discriminator. */
  readonly kind: 'filter';
  /** The condition. */
  readonly expression: Algebra.Expression;
  /** The expression's source text (for error messages and export). */
  readonly text: string;
  /** Where the literal starts. */
  readonly position: SourcePosition;
}

/** `BIND(expression AS ?variable)`. */
export interface BindLiteral {
  /** Discriminator. */
  readonly kind: 'bind';
  /** The value. */
  readonly expression: Algebra.Expression;
  /** The expression's source text. */
  readonly text: string;
  /** The variable bound (without `?`). */
  readonly variable: string;
  /** Where the literal starts. */
  readonly position: SourcePosition;
}

/**
 * `NOT B`, `NOT (B1, …, Bk)` or `NOT EXISTS ?v1, … IN (B1, …, Bk)`: true when no match of the
 * atoms exists (variables listed after EXISTS are local to the negation).
 */
export interface NegationLiteral {
  /** Discriminator. */
  readonly kind: 'not';
  /** Variables existentially quantified inside the negation. */
  readonly existentialVariables: readonly string[];
  /** The negated conjunction. */
  readonly atoms: readonly TupleAtom[];
  /** Where the literal starts. */
  readonly position: SourcePosition;
}

/**
 * The aggregate functions of rules (RDFox's): the SPARQL ones except SAMPLE and GROUP_CONCAT,
 * and MUL, COUNT_MIN, COUNT_MAX, MIN_ARGMIN, MAX_ARGMIN, MIN_ARGMAX and MAX_ARGMAX.
 */
export type AggregateFunction =
  | 'count'
  | 'sum'
  | 'min'
  | 'max'
  | 'avg'
  | 'mul'
  | 'count_min'
  | 'count_max'
  | 'min_argmin'
  | 'max_argmin'
  | 'min_argmax'
  | 'max_argmax';

/** One `BIND f(expr) AS ?v` of an AGGREGATE. */
export interface AggregateBinding {
  /** The function. */
  readonly fn: AggregateFunction;
  /** Whether DISTINCT was given. */
  readonly distinct: boolean;
  /** The first argument; undefined for `COUNT(*)` and `COUNT()`. */
  readonly expression: Algebra.Expression | undefined;
  /**
   * Every argument, in order: none for `COUNT(*)` and `COUNT()`, two (A, V) for MIN_ARGMIN,
   * MAX_ARGMIN, MIN_ARGMAX and MAX_ARGMAX, one or more for COUNT, one otherwise. Absent in
   * bindings built by hand before it existed: then `expression` alone is the argument.
   */
  readonly expressions?: readonly Algebra.Expression[];
  /** Source text of the arguments, as written between the parentheses after DISTINCT (`*` for COUNT(*)). */
  readonly text: string;
  /** The variable receiving the result (without `?`). */
  readonly variable: string;
}

/** The arguments of an aggregate binding, in order (see {@link AggregateBinding.expressions}). */
export function aggregateArguments(binding: AggregateBinding): readonly Algebra.Expression[] {
  return binding.expressions ?? (binding.expression ? [binding.expression] : []);
}

/** `AGGREGATE(B1, …, Bk ON ?g1 … ?gn BIND f(expr) AS ?v …)`. */
export interface AggregateLiteral {
  /** Discriminator. */
  readonly kind: 'aggregate';
  /** The aggregated body: atoms, filters and binds. */
  readonly body: ReadonlyArray<TupleAtom | FilterLiteral | BindLiteral>;
  /** Group variables (without `?`); possibly none. */
  readonly groupBy: readonly string[];
  /** The aggregate bindings. */
  readonly bindings: readonly AggregateBinding[];
  /** Where the literal starts. */
  readonly position: SourcePosition;
}

/** A literal of a rule body. */
export type BodyLiteral = TupleAtom | FilterLiteral | BindLiteral | NegationLiteral | AggregateLiteral;

/** A rule `H1, …, Hj :- B1, …, Bk .` */
export interface Rule {
  /** The head atoms. */
  readonly head: readonly TupleAtom[];
  /** The body literals, in source order. */
  readonly body: readonly BodyLiteral[];
  /** Where the rule starts. */
  readonly position: SourcePosition;
}

/** A parsed Datalog document. */
export interface DatalogDocument {
  /** The rules, in order. */
  readonly rules: readonly Rule[];
  /** The ground facts `A .`, in order. */
  readonly facts: readonly TupleAtom[];
  /** Prefixes declared by the document (name with colon → IRI), in order. */
  readonly prefixes: ReadonlyMap<string, string>;
}
