/**
 * Compilation of OWL 2 RL class expressions to Datalog rule bodies and heads, following the
 * OWL 2 RL grammar (OWL 2 Profiles, §4.2): subclass expressions become rule bodies (a union
 * gives one body per disjunct), superclass expressions become heads (an intersection gives one
 * rule per conjunct, a universal restriction extends the body, a complement, a
 * maxCardinality 0 or a datatype violation derives membership in `owl:Nothing`, a
 * maxCardinality 1 derives `owl:sameAs`). What the grammar does not admit is reported as a
 * problem and left out.
 * @module
 */
import type * as RDF from '@rdfjs/types/data-model.js';
import { DataFactory } from 'n3';
import type { BodyLiteral, DatalogTerm, FilterLiteral, Rule, TupleAtom, VariableTerm } from '../datalog/ast.js';
import { among, and, argument, compare, constantTerm, datatype, differentValues, type FilterExpression, integer, iri, isLiteral, not } from './filters.js';
import { type ClassExpression, expressionText, isDataRange, type PropertyExpression, THING } from './expressions.js';
import { type ObjectTerm, termKey } from './rdf-graph.js';
import { type DatatypeTest, datatypeTest, passes, V } from './vocabulary.js';
import { atomTermText } from '../datalog/triple-term-patterns.js';

/** A condition of a rule body, before variables bound by enumerations are substituted. */
export type Condition =
  | { readonly kind: 'triple'; readonly s: DatalogTerm; readonly p: string; readonly o: DatalogTerm }
  /** The term is (or, negated, is not) a literal passing the datatype test. */
  | { readonly kind: 'member'; readonly term: DatalogTerm; readonly test: DatatypeTest; readonly negated: boolean }
  /**
   * The terms differ: `individuals` as terms (`!=`), `nonliterals` as terms and neither is a
   * literal, `values` both are literals with different data values in OWL 2's value spaces
   * (`+0` and `-0` differ, NaN is itself; see {@link differentValues}).
   */
  | { readonly kind: 'distinct'; readonly a: DatalogTerm; readonly b: DatalogTerm; readonly mode: 'individuals' | 'nonliterals' | 'values' }
  /** The term is one of the constants. */
  | { readonly kind: 'in'; readonly term: DatalogTerm; readonly set: readonly ObjectTerm[] };

/** A conjunction of conditions, with variables bound to constants by enumerations (`owl:oneOf`). */
export interface Conjunction {
  /** The conditions. */
  readonly conditions: readonly Condition[];
  /** Variable name → the constant it stands for. */
  readonly bindings: ReadonlyMap<string, ObjectTerm>;
}

/** A triple pattern of a rule head. */
export interface HeadTriple {
  /** Subject. */
  readonly s: DatalogTerm;
  /** Predicate IRI. */
  readonly p: string;
  /** Object. */
  readonly o: DatalogTerm;
}

/** A rule before substitution of bound variables and safety checking. */
export interface PendingRule {
  /** The head triples. */
  readonly head: readonly HeadTriple[];
  /** The body. */
  readonly body: Conjunction;
}

/** Alternatives (a disjunction of conjunctions) with the problems met while building them. */
export interface Alternatives {
  /** The conjunctions; empty when the expression can never hold, or could not be translated. */
  readonly alternatives: readonly Conjunction[];
  /** Why parts could not be translated. */
  readonly problems: readonly string[];
}

/** Rules with the problems met while building them. */
export interface PendingRules {
  /** The rules. */
  readonly rules: readonly PendingRule[];
  /** Why parts could not be translated. */
  readonly problems: readonly string[];
}

/** Whether a term position holds individuals or data values. */
export type Position = 'individual' | 'value';

/** The empty conjunction (true). */
export const TRUE: Conjunction = { conditions: [], bindings: new Map() };

/** Fresh variable names within one axiom. */
export class Variables {
  private counter = 0;

  /** A variable named `prefix` followed by a new number. */
  fresh(prefix = 'y'): VariableTerm {
    return variable(`${prefix}${++this.counter}`);
  }
}

/** A variable term. */
export function variable(name: string): VariableTerm {
  return { kind: 'var', name };
}

/** A constant term. */
export function constant(term: ObjectTerm): DatalogTerm {
  return { kind: 'const', term };
}

/** Joins conjunctions; undefined when their bindings conflict. */
export function join(a: Conjunction, b: Conjunction): Conjunction | undefined {
  if (b.bindings.size === 0) return b.conditions.length === 0 ? a : { conditions: [...a.conditions, ...b.conditions], bindings: a.bindings };
  const bindings = new Map(a.bindings);
  for (const [name, value] of b.bindings) {
    const old = bindings.get(name);
    if (old !== undefined && termKey(old) !== termKey(value)) return undefined;
    bindings.set(name, value);
  }
  return { conditions: [...a.conditions, ...b.conditions], bindings };
}

/** The pairwise joins of two sets of alternatives. */
export function product(a: readonly Conjunction[], b: readonly Conjunction[]): Conjunction[] {
  const out: Conjunction[] = [];
  for (const x of a) {
    for (const y of b) {
      const j = join(x, y);
      if (j) out.push(j);
    }
  }
  return out;
}

/** A conjunction of conditions without bindings. */
export function conjunction(...conditions: Condition[]): Conjunction {
  return { conditions, bindings: new Map() };
}

/** The triple condition of a property expression between two terms. */
export function propertyTriple(p: PropertyExpression, s: DatalogTerm, o: DatalogTerm): Condition & HeadTriple {
  return p.inverse ? { kind: 'triple', s: o, p: p.iri, o: s } : { kind: 'triple', s, p: p.iri, o };
}

/** The class membership triple `[t, rdf:type, C]`. */
export function typeTriple(t: DatalogTerm, cls: string): Condition & HeadTriple {
  return { kind: 'triple', s: t, p: V.type, o: constant(DataFactory.namedNode(cls)) };
}

/** Options of {@link RuleCompiler}. */
export interface RuleCompilerOptions {
  /** The graph that rule atoms refer to; undefined = the default graph. */
  readonly destinationGraph?: string | undefined;
  /** What a property is declared as (`owl:ObjectProperty` / `owl:DatatypeProperty`), if known. */
  readonly propertyKind: (iri: string) => 'object' | 'data' | undefined;
}

/** Compiles class expressions to rule bodies and heads, and pending rules to rules. */
export class RuleCompiler {
  private readonly graph: RDF.NamedNode | undefined;
  private readonly filterCache = new Map<string, FilterLiteral>();

  constructor(private readonly options: RuleCompilerOptions) {
    this.graph = options.destinationGraph === undefined ? undefined : DataFactory.namedNode(options.destinationGraph);
  }

  /** The canonical text of an expression. */
  private text(e: ClassExpression): string {
    return expressionText(e, (iri) => this.options.propertyKind(iri) === 'data');
  }

  /**
   * The body alternatives expressing that `t` is in `e`, for a subclass expression `e`
   * (`position` says whether `t` stands for individuals or data values).
   */
  condition(e: ClassExpression, t: DatalogTerm, vars: Variables, position: Position = 'individual'): Alternatives {
    const fail = (why: string): Alternatives => ({ alternatives: [], problems: [`${this.text(e)} ${why}`] });
    switch (e.kind) {
      case 'class':
        if (e.iri === V.Thing) return { alternatives: [TRUE], problems: [] };
        return { alternatives: [conjunction(typeTriple(t, e.iri))], problems: [] };
      case 'datatype':
        if (position === 'individual') return fail('is a datatype, used here as a class');
        return { alternatives: [conjunction({ kind: 'member', term: t, test: datatypeTest(e.iri), negated: false })], problems: [] };
      case 'and': {
        let alternatives: Conjunction[] = [TRUE];
        const problems: string[] = [];
        for (const operand of e.operands) {
          const c = this.condition(operand, t, vars, position);
          problems.push(...c.problems);
          alternatives = product(alternatives, c.alternatives);
        }
        // alternatives under-approximate their expression: a conjunct with none empties the product
        return { alternatives, problems };
      }
      case 'or': {
        if (position === 'value') return fail('(a union of data ranges) is outside OWL 2 RL');
        const alternatives: Conjunction[] = [];
        const problems: string[] = [];
        for (const operand of e.operands) {
          const c = this.condition(operand, t, vars, position);
          problems.push(...c.problems);
          alternatives.push(...c.alternatives);
        }
        return { alternatives, problems };
      }
      case 'oneOf': {
        if (position === 'value') return fail('(an enumeration of literals) is outside OWL 2 RL');
        if (t.kind === 'const') {
          const hit = e.values.some((v) => termKey(v) === termKey(t.term));
          return { alternatives: hit ? [TRUE] : [], problems: [] };
        }
        return { alternatives: e.values.map((v) => ({ conditions: [], bindings: new Map([[t.name, v]]) })), problems: [] };
      }
      case 'some': {
        const y = vars.fresh('y');
        const data = isDataRange(e.filler);
        const filler = this.condition(e.filler, y, vars, data ? 'value' : 'individual');
        const edge = conjunction(propertyTriple(e.property, t, y));
        return { alternatives: product([edge], filler.alternatives), problems: filler.problems };
      }
      case 'value':
        return { alternatives: [conjunction(propertyTriple(e.property, t, constant(e.value)))], problems: [] };
      case 'all':
        return fail('(universal quantification) cannot be a subclass expression in OWL 2 RL');
      case 'not':
        return fail('(complement) cannot be a subclass expression in OWL 2 RL');
      case 'self':
        return fail('(local reflexivity) is outside OWL 2 RL');
      case 'cardinality':
        return fail('(cardinality restriction) cannot be a subclass expression in OWL 2 RL');
      case 'facets':
        return fail('(datatype restriction with facets) is outside OWL 2 RL');
      case 'malformed':
        return { alternatives: [], problems: [e.reason] };
    }
  }

  /**
   * The rules deriving that `t` is in the superclass expression `e` whenever `body` holds.
   * `owner` is the individual a data-value violation is blamed on (made an `owl:Nothing`
   * member).
   */
  conclusion(e: ClassExpression, t: DatalogTerm, owner: DatalogTerm, vars: Variables, body: Conjunction, position: Position = 'individual'): PendingRules {
    const fail = (why: string): PendingRules => ({ rules: [], problems: [`${this.text(e)} ${why}`] });
    const nothing = (who: DatalogTerm): HeadTriple => typeTriple(who, V.Nothing);
    switch (e.kind) {
      case 'class':
        if (e.iri === V.Thing) return { rules: [], problems: [] };
        return { rules: [{ head: [typeTriple(t, e.iri)], body }], problems: [] };
      case 'datatype': {
        if (position === 'individual') return fail('is a datatype, used here as a class');
        const violation = join(body, conjunction({ kind: 'member', term: t, test: datatypeTest(e.iri), negated: true }));
        return { rules: violation ? [{ head: [nothing(owner)], body: violation }] : [], problems: [] };
      }
      case 'and': {
        const rules: PendingRule[] = [];
        const problems: string[] = [];
        for (const operand of e.operands) {
          const r = this.conclusion(operand, t, owner, vars, body, position);
          rules.push(...r.rules);
          problems.push(...r.problems);
        }
        return { rules, problems };
      }
      case 'all': {
        if (e.filler.kind === 'class' && e.filler.iri === V.Thing) return { rules: [], problems: [] };
        const y = vars.fresh('y');
        const extended = join(body, conjunction(propertyTriple(e.property, t, y)));
        if (!extended) return { rules: [], problems: [] };
        const data = isDataRange(e.filler);
        return this.conclusion(e.filler, y, data ? t : y, vars, extended, data ? 'value' : 'individual');
      }
      case 'value':
        return { rules: [{ head: [propertyTriple(e.property, t, constant(e.value))], body }], problems: [] };
      case 'not': {
        if (position === 'value') return fail('(a data range complement) is outside OWL 2 RL');
        const c = this.condition(e.operand, t, vars);
        const rules = product([body], c.alternatives).map((b) => ({ head: [nothing(t)], body: b }));
        return { rules, problems: c.problems.map((p) => `in ${this.text(e)}: ${p}`) };
      }
      case 'cardinality':
        return this.cardinality(e, t, vars, body);
      case 'some':
        return fail('(existential quantification) cannot be a superclass expression in OWL 2 RL');
      case 'or':
        return fail('(disjunction) cannot be a superclass expression in OWL 2 RL');
      case 'oneOf':
        return fail('(enumeration) cannot be a superclass expression in OWL 2 RL');
      case 'self':
        return fail('(local reflexivity) is outside OWL 2 RL');
      case 'facets':
        return fail('(datatype restriction with facets) is outside OWL 2 RL');
      case 'malformed':
        return { rules: [], problems: [e.reason] };
    }
  }

  private cardinality(e: Extract<ClassExpression, { kind: 'cardinality' }>, t: DatalogTerm, vars: Variables, body: Conjunction): PendingRules {
    const text = this.text(e);
    if (e.bound === 'min') return { rules: [], problems: [`${text} (minimum cardinality) cannot be a superclass expression in OWL 2 RL`] };
    if (e.n > 1) return { rules: [], problems: [`${text} (cardinality above 1) cannot be a superclass expression in OWL 2 RL`] };
    const problems: string[] = [];
    if (e.bound === 'exact' && e.n === 1) {
      problems.push(`${text}: its minimum-cardinality half (at least one value) cannot be a superclass expression in OWL 2 RL`);
    }
    const filler = e.filler ?? THING;
    const data = isDataRange(filler);
    const position: Position = data ? 'value' : 'individual';
    const nothing = typeTriple(t, V.Nothing);
    if (e.n === 0) {
      const y = vars.fresh('y');
      const c = this.condition(filler, y, vars, position);
      problems.push(...c.problems.map((p) => `in ${text}: ${p}`));
      const bodies = product(product([body], [conjunction(propertyTriple(e.property, t, y))]), c.alternatives);
      return { rules: bodies.map((b) => ({ head: [nothing], body: b })), problems };
    }
    const y1 = vars.fresh('y');
    const y2 = vars.fresh('y');
    const c1 = this.condition(filler, y1, vars, position);
    const c2 = this.condition(filler, y2, vars, position);
    problems.push(...c1.problems.map((p) => `in ${text}: ${p}`));
    const edges = conjunction(propertyTriple(e.property, t, y1), propertyTriple(e.property, t, y2));
    const bodies = product(product(product([body], [edges]), c1.alternatives), c2.alternatives);
    // which kinds of values the property can have decides between owl:sameAs and a clash
    let kind: 'object' | 'data' | undefined;
    if (e.property.inverse) kind = 'object';
    else if (e.filler !== undefined && !(e.filler.kind === 'class' && e.filler.iri === V.Thing)) kind = data ? 'data' : 'object';
    else kind = this.options.propertyKind(e.property.iri);
    const rules: PendingRule[] = [];
    for (const b of bodies) {
      if (kind !== 'data') {
        const distinct: Condition = { kind: 'distinct', a: y1, b: y2, mode: kind === 'object' ? 'individuals' : 'nonliterals' };
        rules.push({ head: [{ s: y1, p: V.sameAs, o: y2 }], body: join(b, conjunction(distinct))! });
      }
      if (kind !== 'object') {
        rules.push({ head: [nothing], body: join(b, conjunction({ kind: 'distinct', a: y1, b: y2, mode: 'values' }))! });
      }
    }
    return { rules, problems };
  }

  /**
   * The rule of a pending rule: variables bound by enumerations substituted, conditions on
   * constants decided, safety checked. Undefined (with no problem) when a condition on
   * constants is false; a problem when the rule would be unsafe or cannot be written.
   */
  finish(pending: PendingRule): { rule?: Rule; problem?: string } {
    const bindings = pending.body.bindings;
    const sub = (t: DatalogTerm): DatalogTerm => {
      if (t.kind !== 'var') return t;
      const value = bindings.get(t.name);
      return value === undefined ? t : constant(value);
    };
    const atoms: TupleAtom[] = [];
    const filters: FilterLiteral[] = [];
    const bound = new Set<string>();
    const used = new Set<string>();
    const note = (t: DatalogTerm, into: Set<string>): void => {
      if (t.kind === 'var') into.add(t.name);
    };
    for (const c of pending.body.conditions) {
      if (c.kind === 'triple') {
        const s = sub(c.s);
        const o = sub(c.o);
        note(s, bound);
        note(o, bound);
        atoms.push(this.atom(s, c.p, o));
        continue;
      }
      const f = this.filter(c, sub);
      if (f === false) return {};
      if (f === true) continue;
      if (typeof f === 'string') return { problem: f };
      for (const v of f.vars) used.add(v);
      filters.push(f.literal);
    }
    const head: TupleAtom[] = [];
    for (const h of pending.head) {
      const s = sub(h.s);
      const o = sub(h.o);
      note(s, used);
      note(o, used);
      head.push(this.atom(s, h.p, o));
    }
    for (const v of used) {
      if (!bound.has(v)) return { problem: 'a rule would not bind all its variables (a subclass expression such as owl:Thing that does not restrict individuals is outside OWL 2 RL)' };
    }
    const body: BodyLiteral[] = [...dedupeAtoms(atoms), ...filters];
    return { rule: { head: dedupeAtoms(head), body, position: { line: 0, column: 0 } } };
  }

  /** A triple atom in the destination graph. */
  atom(s: DatalogTerm, p: string, o: DatalogTerm): TupleAtom {
    const predicate = constant(DataFactory.namedNode(p));
    if (this.graph === undefined) return { kind: 'atom', table: 'DefaultTriples', args: [s, predicate, o], position: { line: 0, column: 0 } };
    return { kind: 'atom', table: 'Quads', args: [s, predicate, o, constant(this.graph)], position: { line: 0, column: 0 } };
  }

  /** A filter for a non-triple condition; true/false when decided on constants; a string when it cannot be written. */
  private filter(c: Exclude<Condition, { kind: 'triple' }>, sub: (t: DatalogTerm) => DatalogTerm): { literal: FilterLiteral; vars: string[] } | boolean | string {
    const terms = c.kind === 'distinct' ? [sub(c.a), sub(c.b)] : [sub(c.term)];
    if (terms.every((t) => t.kind === 'const')) return decide(c, terms.map((t) => (t as { term: ObjectTerm }).term));
    for (const t of terms) {
      if (t.kind === 'const' && t.term.termType === 'BlankNode') return `a condition on the blank node ${termKey(t.term)} cannot be written as a FILTER`;
    }
    const [a, b] = terms.map(argument) as [FilterExpression, FilterExpression | undefined];
    let condition: FilterExpression;
    switch (c.kind) {
      case 'member': {
        const { datatypes, min, max } = c.test;
        const parts = [isLiteral(a)];
        if (datatypes !== undefined) parts.push(datatypes.length === 1 ? compare('=', datatype(a), iri(datatypes[0]!)) : among(datatype(a), datatypes.map(iri)));
        if (min !== undefined) parts.push(compare('>=', a, integer(min)));
        if (max !== undefined) parts.push(compare('<=', a, integer(max)));
        const test = and(...(parts as [FilterExpression, ...FilterExpression[]]));
        condition = c.negated ? not(test, true) : test;
        break;
      }
      case 'distinct':
        if (c.mode === 'individuals') condition = compare('!=', a, b!);
        else if (c.mode === 'nonliterals') condition = and(not(isLiteral(a), false), not(isLiteral(b!), false), compare('!=', a, b!));
        else condition = differentValues(a, b!);
        break;
      case 'in':
        if (c.set.some((v) => v.termType === 'BlankNode')) return 'a condition on blank nodes cannot be written as a FILTER';
        condition = among(a, c.set.map(constantTerm));
        break;
    }
    const vars = terms.filter((t) => t.kind === 'var').map((t) => (t).name);
    return { literal: this.filterLiteral(condition), vars };
  }

  /** The FILTER literal of a condition, one object per text. */
  private filterLiteral(condition: FilterExpression): FilterLiteral {
    let literal = this.filterCache.get(condition.text);
    if (literal === undefined) {
      literal = { kind: 'filter', expression: condition.expression, text: condition.text, position: { line: 0, column: 0 } };
      this.filterCache.set(condition.text, literal);
    }
    return literal;
  }
}

/** Decides a condition on constants. */
function decide(c: Exclude<Condition, { kind: 'triple' }>, values: readonly ObjectTerm[]): boolean {
  const [a, b] = values as [ObjectTerm, ObjectTerm | undefined];
  switch (c.kind) {
    case 'member': {
      const member = a.termType === 'Literal' && passes(c.test, a.datatype.value, a.value);
      return member !== c.negated;
    }
    case 'distinct': {
      const differ = termKey(a) !== termKey(b!);
      if (c.mode === 'individuals') return differ;
      if (c.mode === 'nonliterals') return differ && a.termType !== 'Literal' && b!.termType !== 'Literal';
      return a.termType === 'Literal' && b!.termType === 'Literal' && differ && !sameFloatingValue(a, b!);
    }
    case 'in':
      return c.set.some((v) => termKey(v) === termKey(a));
  }
}

const XSD = 'http://www.w3.org/2001/XMLSchema#';
const FLOATING = new Set([`${XSD}float`, `${XSD}double`]);

/**
 * Whether two literals written differently are the same floating-point value (`"1.0"` and
 * `"1"` as xsd:float, not `"0"` and `"-0"`, NaN as itself); other literals are compared as
 * terms by the caller (an approximation of value identity that rules on constants only meet
 * in enumerations).
 */
function sameFloatingValue(a: RDF.Literal, b: RDF.Literal): boolean {
  if (!FLOATING.has(a.datatype.value) || a.datatype.value !== b.datatype.value) return false;
  const value = (l: RDF.Literal): number => {
    const text = l.value.trim();
    const n = text === 'INF' || text === '+INF' ? Infinity : text === '-INF' ? -Infinity : Number(text);
    return l.datatype.value === `${XSD}float` ? Math.fround(n) : n;
  };
  return Object.is(value(a), value(b));
}

/**
 * A key telling rules made by {@link RuleCompiler.finish} apart: equal for rules with the same
 * atoms (tables and arguments) and filters (by text), in the same order, so equal exactly when
 * their Datalog text is.
 */
export function ruleKey(rule: Rule): string {
  const literal = (l: BodyLiteral): string => {
    if (l.kind === 'atom') return atomKey(l);
    if (l.kind === 'filter') return `FILTER(${l.text})`;
    throw new Error(`internal error: an OWL rule has a ${l.kind} literal`);
  };
  return `${rule.head.map(atomKey).join(', ')} :- ${rule.body.map(literal).join(', ')} .`;
}

/** An atom's table and arguments as text. */
function atomKey(a: TupleAtom): string {
  return `${a.table}(${a.args.map((t) => (t.kind === 'var' ? `?${t.name}` : t.kind === 'const' ? termKey(t.term) : atomTermText(t))).join(', ')})`;
}

/** Atoms without repetitions (by their arguments), in order. */
function dedupeAtoms(atoms: readonly TupleAtom[]): TupleAtom[] {
  const seen = new Set<string>();
  const out: TupleAtom[] = [];
  for (const a of atoms) {
    const key = a.args.map((t) => (t.kind === 'var' ? `?${t.name}` : t.kind === 'const' ? termKey(t.term) : atomTermText(t))).join(' ');
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(a);
  }
  return out;
}
