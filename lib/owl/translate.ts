/**
 * Translation of OWL 2 RL axioms, read from the triples of one graph, to Datalog rules, in the
 * manner of RDFox: every axiom becomes rules of its own (not instances of the generic OWL 2 RL
 * rule tables), so that the rules of an axiom can be withdrawn when it is deleted.
 *
 * The rule tables of OWL 2 Profiles §4.3 are covered as follows (C, D class expressions, p, q
 * property expressions, `x`, `y` variables):
 *
 * - cax-sco, cax-eqc1/2, cls-int1/2, cls-uni, cls-svf1/2, cls-hv1/2, cls-avf, cls-oo: a
 *   subclass axiom `C ⊑ D` compiles C to rule bodies (one per disjunct of a union) and D to
 *   heads (one rule per conjunct of an intersection); nested expressions are translated in
 *   place, e.g. `A ⊓ ∃p.B ⊑ C` gives `C[?x] :- A[?x], [?x, p, ?y], B[?y] .`;
 * - cls-com, cax-dw, cax-adc, cls-maxc1, cls-maxqc1/2, cls-nothing2, prp-irp, prp-asyp, prp-pdw,
 *   prp-adp, prp-npa1/2, eq-diff1/2/3: contradictions derive `owl:Nothing` membership of the
 *   individuals involved (a negative property assertion is read with or without its
 *   `rdf:type owl:NegativePropertyAssertion` triple, as prp-npa1/2 match it);
 * - cls-maxc2, cls-maxqc3/4, prp-fp, prp-ifp, prp-key: derive `owl:sameAs` between distinct
 *   individuals (with equality reasoning off, `owl:sameAs` is an ordinary property); two
 *   different literals where at most one value is allowed are a contradiction;
 * - prp-dom, prp-rng, prp-spo1/2, prp-eqp1/2, prp-inv1/2, prp-symp, prp-trp: one rule each;
 * - scm-*: the schema rules are not needed, as the compiled rules compose (e.g. the rules of
 *   `A ⊑ B` and `B ⊑ C` derive `C[a]` from `A[a]`); no schema triples are derived;
 * - eq-ref, eq-sym, eq-trans, eq-rep-*: equality reasoning is the store's, not the rules';
 * - dt-*: datatype reasoning is limited to testing literals' datatypes (with the XSD derivation
 *   hierarchy) in data ranges.
 *
 * Equivalences contribute each direction that OWL 2 RL admits; a direction that is not
 * admitted (such as `C ⊑ D ⊓ ∃p.E` of the definition `C ≡ D ⊓ ∃p.E`) is left out silently when
 * another direction is admitted completely, and otherwise reported.
 * @module
 */
import type * as RDF from '@rdfjs/types/data-model.js';
import { DataFactory } from 'n3';
import type { DatalogTerm, Rule } from '../datalog/ast.js';
import {
  conjunction,
  constant,
  type PendingRule,
  product,
  propertyTriple,
  RuleCompiler,
  ruleKey,
  TRUE,
  typeTriple,
  variable,
  Variables,
} from './compile.js';
import { type ClassExpression, EXPRESSION_CONSTRUCTORS, ExpressionReader, expressionText, isDataRange, type PropertyExpression, propertyText } from './expressions.js';
import { type ObjectTerm, OntologyGraph, type SubjectTerm, termKey, type Triple } from './rdf-graph.js';
import { ANNOTATION_PREDICATES, DECLARATION_TYPES, OWL, V } from './vocabulary.js';

/** One axiom and the rules it compiles to. */
export interface TranslatedAxiom {
  /** A stable key: the canonical text of the axiom, e.g. `SubClassOf(<a> <b>)`. */
  readonly key: string;
  /** The rules (possibly none, e.g. when the whole axiom is outside OWL 2 RL). */
  readonly rules: readonly Rule[];
}

/** The result of {@link translateAxioms}. */
export interface AxiomTranslation {
  /**
   * One entry per axiom found, sorted by key: a stable key (canonical text of the axiom in a
   * functional-syntax-like notation, e.g. `SubClassOf(<a> <b>)`), and the rules it compiles to.
   * Axioms stated more than once (e.g. `owl:inverseOf` in both directions) appear once.
   */
  readonly axioms: readonly TranslatedAxiom[];
  /**
   * Axioms (or parts of axioms) outside OWL 2 RL that were dropped, and triples that look like
   * malformed or unsupported axioms; each starts with the axiom's key (or the triple) and says why.
   */
  readonly warnings: readonly string[];
  /**
   * With `assertions: true`: the ABox facts found (class assertions with a named class, property
   * assertions, `owl:sameAs`, `owl:differentFrom`, and the pairs of `owl:AllDifferent`
   * as `owl:differentFrom`), as triples in the default graph.
   */
  readonly assertions: readonly RDF.Quad[];
}

/** Options of {@link translateAxioms}. */
export interface TranslateAxiomsOptions {
  /** The graph the rules read and write: undefined = the default graph, else an IRI. */
  readonly destinationGraph?: string;
  /** Whether to collect ABox facts in {@link AxiomTranslation.assertions}. */
  readonly assertions: boolean;
}

/**
 * Reads OWL axioms from the triples of one graph (`quads` all come from the source graph; their
 * graph component is ignored) and translates them to rules whose heads and bodies use the
 * destination graph (undefined = the default graph, else an IRI: atoms become
 * `Quads(s, p, o, <destination>)`).
 *
 * Axioms outside OWL 2 RL, or the parts of them outside it, are dropped with a warning naming
 * the axiom; triples that are neither axioms, declarations, annotations nor assertions but use
 * the RDF, RDFS or OWL vocabulary (such as a restriction no axiom refers to, or a malformed
 * list) are reported too. The same triples always give the same keys and rules.
 */
export function translateAxioms(quads: readonly RDF.Quad[], options: TranslateAxiomsOptions): AxiomTranslation {
  return new Translator(quads, options).run();
}

const PROPERTY_CHARACTERISTICS = [
  V.FunctionalProperty,
  V.InverseFunctionalProperty,
  V.SymmetricProperty,
  V.AsymmetricProperty,
  V.ReflexiveProperty,
  V.IrreflexiveProperty,
  V.TransitiveProperty,
] as const;

/** Characteristics only object properties have. */
const OBJECT_ONLY = new Set<string>([V.InverseFunctionalProperty, V.SymmetricProperty, V.AsymmetricProperty, V.ReflexiveProperty, V.IrreflexiveProperty, V.TransitiveProperty]);

interface AxiomEntry {
  readonly rules: Rule[];
  /** The {@link ruleKey}s of the rules, to leave repetitions out. */
  readonly texts: Set<string>;
}

class Translator {
  private readonly graph: OntologyGraph;
  private readonly reader: ExpressionReader;
  private readonly compiler: RuleCompiler;
  private readonly axioms = new Map<string, AxiomEntry>();
  private readonly warnings = new Set<string>();
  private readonly assertions: RDF.Quad[] = [];
  private readonly assertionKeys = new Set<string>();
  private readonly objectProperties = new Set<string>();
  private readonly dataProperties = new Set<string>();
  private readonly annotationProperties = new Set<string>();

  constructor(
    quads: readonly RDF.Quad[],
    private readonly options: TranslateAxiomsOptions,
  ) {
    this.graph = new OntologyGraph(quads);
    for (const t of this.graph.withPredicate(V.type)) {
      if (t.s.termType !== 'NamedNode' || t.o.termType !== 'NamedNode') continue;
      if (t.o.value === V.ObjectProperty || OBJECT_ONLY.has(t.o.value)) this.objectProperties.add(t.s.value);
      else if (t.o.value === V.DatatypeProperty) this.dataProperties.add(t.s.value);
      else if (t.o.value === V.AnnotationProperty) this.annotationProperties.add(t.s.value);
    }
    this.reader = new ExpressionReader(this.graph, new Set([...this.dataProperties].filter((p) => this.propertyKind(p) === 'data')));
    this.compiler = new RuleCompiler({ destinationGraph: options.destinationGraph, propertyKind: (iri) => this.propertyKind(iri) });
  }

  private propertyKind(iri: string): 'object' | 'data' | undefined {
    const object = this.objectProperties.has(iri);
    const data = this.dataProperties.has(iri);
    return object === data ? undefined : object ? 'object' : 'data';
  }

  run(): AxiomTranslation {
    const g = this.graph;
    this.annotationsOfAxioms();
    for (const t of g.withPredicate(V.subClassOf)) this.subClassOf(t);
    for (const t of g.withPredicate(V.equivalentClass)) this.equivalentClass(t);
    for (const s of this.definedClasses()) this.definition(s);
    for (const t of g.withPredicate(V.disjointWith)) this.disjointClasses([t.s, t.o], () => g.consume(t.s, t.p, t.o));
    for (const t of g.withPredicate(V.disjointUnionOf)) this.disjointUnion(t);
    for (const t of g.withPredicate(V.subPropertyOf)) this.subPropertyOf(t);
    for (const t of g.withPredicate(V.propertyChainAxiom)) this.propertyChain(t);
    for (const t of g.withPredicate(V.equivalentProperty)) this.equivalentProperty(t);
    for (const t of g.withPredicate(V.inverseOf)) if (t.s.termType === 'NamedNode') this.inverseOf(t);
    for (const t of g.withPredicate(V.domain)) this.domainOrRange(t, 'Domain');
    for (const t of g.withPredicate(V.range)) this.domainOrRange(t, 'Range');
    for (const t of g.withPredicate(V.propertyDisjointWith)) this.disjointProperties([t.s, t.o], () => g.consume(t.s, t.p, t.o));
    for (const t of g.withPredicate(V.hasKey)) this.hasKey(t);
    for (const t of g.withPredicate(V.sameAs)) this.sameAs(t);
    for (const t of g.withPredicate(V.differentFrom)) this.differentFrom(t);
    for (const t of g.withPredicate(V.type)) this.typed(t);
    // a negative property assertion without its rdf:type triple, as the rules prp-npa1/2 read it
    for (const t of g.withPredicate(V.sourceIndividual)) if (!g.isConsumed(t)) this.negativeAssertion(t.s);
    this.rest();
    const keys = [...this.axioms.keys()].sort();
    return {
      axioms: keys.map((key) => ({ key, rules: this.axioms.get(key)!.rules })),
      warnings: [...this.warnings].sort(),
      assertions: this.assertions,
    };
  }

  // ---- bookkeeping ----

  /** IRIs with the triples of a class expression (`C owl:intersectionOf (…)`, …), in order. */
  private definedClasses(): RDF.NamedNode[] {
    const found = new Map<string, { s: RDF.NamedNode; index: number }>();
    for (const p of EXPRESSION_CONSTRUCTORS) {
      for (const t of this.graph.withPredicate(p)) {
        if (t.s.termType !== 'NamedNode') continue;
        const old = found.get(t.s.value);
        if (old === undefined || old.index > t.index) found.set(t.s.value, { s: t.s, index: t.index });
      }
    }
    return [...found.values()].sort((a, b) => a.index - b.index).map((x) => x.s);
  }

  /** Records an axiom: its rules (finished from pending rules) and warnings for its problems. */
  private axiom(key: string, pending: readonly PendingRule[], problems: readonly string[]): void {
    let entry = this.axioms.get(key);
    if (!entry) this.axioms.set(key, (entry = { rules: [], texts: new Set() }));
    const issues = [...problems];
    for (const p of pending) {
      const { rule, problem } = this.compiler.finish(p);
      if (problem !== undefined) issues.push(problem);
      if (rule === undefined) continue;
      const text = ruleKey(rule);
      if (entry.texts.has(text)) continue;
      entry.texts.add(text);
      entry.rules.push(rule);
    }
    for (const issue of issues) this.warnings.add(`${key}: ${issue}; dropped`);
  }

  private warn(message: string): void {
    this.warnings.add(message);
  }

  /**
   * Records an ABox fact. The triples of the graph are distinct; `owl:differentFrom` facts,
   * which also come from `owl:AllDifferent`, are checked for repetitions.
   */
  private assert(s: RDF.Term, p: string, o: RDF.Term): void {
    if (!this.options.assertions) return;
    if (p === V.differentFrom) {
      const key = `${termKey(s)} ${termKey(o)}`;
      if (this.assertionKeys.has(key)) return;
      this.assertionKeys.add(key);
    }
    this.assertions.push(DataFactory.quad(s as RDF.Quad_Subject, DataFactory.namedNode(p), o as RDF.Quad_Object));
  }

  /** The canonical text of an expression. */
  private text(e: ClassExpression): string {
    return expressionText(e, (iri) => this.propertyKind(iri) === 'data');
  }

  /** Expressions in the order of their texts (for axioms whose operands form a set). */
  private sorted(operands: readonly ClassExpression[]): ClassExpression[] {
    return operands
      .map((e) => [this.text(e), e] as const)
      .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      .map(([, e]) => e);
  }

  private cls(term: RDF.Term): ClassExpression {
    return this.reader.classExpression(term);
  }

  private prop(term: RDF.Term): PropertyExpression | string {
    return this.reader.propertyExpression(term);
  }

  /** `Object` or `Data`, for the names of property axioms. */
  private flavour(...properties: PropertyExpression[]): 'Object' | 'Data' {
    return properties.length > 0 && properties.every((p) => !p.inverse && this.propertyKind(p.iri) === 'data') ? 'Data' : 'Object';
  }

  // ---- class axioms ----

  /** The rules of `sub ⊑ sup`, and the problems. */
  private subsumption(sub: ClassExpression, sup: ClassExpression, vars = new Variables()): { rules: PendingRule[]; problems: string[] } {
    const x = variable('x');
    const body = this.compiler.condition(sub, x, vars);
    const rules: PendingRule[] = [];
    const problems = new Set(body.problems);
    const bodies = body.alternatives.length > 0 ? body.alternatives : [TRUE];
    for (const alternative of bodies) {
      const head = this.compiler.conclusion(sup, x, x, vars, alternative);
      if (body.alternatives.length > 0) rules.push(...head.rules);
      for (const p of head.problems) problems.add(p);
    }
    return { rules, problems: [...problems] };
  }

  private subClassOf(t: Triple): void {
    this.graph.consume(t.s, t.p, t.o);
    const sub = this.cls(t.s);
    const sup = this.cls(t.o);
    const { rules, problems } = this.subsumption(sub, sup);
    this.axiom(`SubClassOf(${this.text(sub)} ${this.text(sup)})`, rules, problems);
  }

  private equivalentClass(t: Triple): void {
    this.graph.consume(t.s, t.p, t.o);
    this.equivalence([this.cls(t.s), this.cls(t.o)]);
  }

  /** `C owl:intersectionOf (…)` and the like on a named class: an equivalence. */
  private definition(s: RDF.NamedNode): void {
    const named = this.cls(s);
    const defined = this.reader.structure(s);
    if (this.graph.hasType(s, V.Restriction)) this.graph.consume(s, V.type, DataFactory.namedNode(V.Restriction));
    this.equivalence([named, defined]);
  }

  private equivalence(operands: readonly ClassExpression[]): void {
    const texts = operands.map((e) => this.text(e)).sort();
    if (operands.some(isDataRange)) {
      const key = `DatatypeDefinition(${texts.join(' ')})`;
      this.axiom(key, [], ['datatype definitions are outside OWL 2 RL']);
      return;
    }
    const key = `EquivalentClasses(${texts.join(' ')})`;
    const rules: PendingRule[] = [];
    const problemsByDirection: string[][] = [];
    const sorted = this.sorted(operands);
    for (const [i, a] of sorted.entries()) {
      for (const [j, b] of sorted.entries()) {
        if (i === j) continue;
        const r = this.subsumption(a, b);
        rules.push(...r.rules);
        problemsByDirection.push(r.problems);
      }
    }
    const someComplete = problemsByDirection.some((p) => p.length === 0);
    this.axiom(key, rules, someComplete ? [] : [...new Set(problemsByDirection.flat())]);
  }

  private disjointClasses(terms: readonly RDF.Term[], consume: () => void): void {
    consume();
    const operands = this.sorted(terms.map((t) => this.cls(t)));
    const key = `DisjointClasses(${operands.map((e) => this.text(e)).sort().join(' ')})`;
    this.axiom(key, ...this.disjointness(operands));
  }

  private disjointness(operands: readonly ClassExpression[]): [PendingRule[], string[]] {
    const rules: PendingRule[] = [];
    const problems = new Set<string>();
    const x = variable('x');
    const vars = new Variables();
    const conditions = operands.map((c) => this.compiler.condition(c, x, vars));
    for (const c of conditions) for (const p of c.problems) problems.add(p);
    for (let i = 0; i < operands.length; i++) {
      for (let j = i + 1; j < operands.length; j++) {
        for (const body of product(conditions[i]!.alternatives, conditions[j]!.alternatives)) {
          rules.push({ head: [typeTriple(x, V.Nothing)], body });
        }
      }
    }
    return [rules, [...problems]];
  }

  private disjointUnion(t: Triple): void {
    this.graph.consume(t.s, t.p, t.o);
    const whole = this.cls(t.s);
    const members = this.reader.members(termKey(t.s), t.o);
    if (typeof members === 'string') {
      this.axiom(`DisjointUnion(${this.text(whole)} ${termKey(t.o)})`, [], [members]);
      return;
    }
    const parts = this.sorted(members.map((m) => this.cls(m)));
    const key = `DisjointUnion(${this.text(whole)} ${parts.map((e) => this.text(e)).sort().join(' ')})`;
    // the union direction (whole ⊑ part1 ⊔ …) is outside OWL 2 RL; the rest is admitted
    const rules: PendingRule[] = [];
    const problems: string[] = [];
    for (const part of parts) {
      const r = this.subsumption(part, whole);
      rules.push(...r.rules);
      problems.push(...r.problems);
    }
    const [disjoint, disjointProblems] = this.disjointness(parts);
    this.axiom(key, [...rules, ...disjoint], [...problems, ...disjointProblems]);
  }

  private hasKey(t: Triple): void {
    this.graph.consume(t.s, t.p, t.o);
    const c = this.cls(t.s);
    const members = this.reader.members(termKey(t.s), t.o);
    if (typeof members === 'string') {
      this.axiom(`HasKey(${this.text(c)} ${termKey(t.o)})`, [], [members]);
      return;
    }
    const props: PropertyExpression[] = [];
    const problems: string[] = [];
    for (const m of members) {
      const p = this.prop(m);
      if (typeof p === 'string') problems.push(p);
      else props.push(p);
    }
    props.sort((a, b) => (propertyText(a) < propertyText(b) ? -1 : propertyText(a) > propertyText(b) ? 1 : 0));
    const key = `HasKey(${this.text(c)} (${props.map(propertyText).join(' ')}))`;
    if (problems.length > 0 || props.length === 0) {
      this.axiom(key, [], problems.length > 0 ? problems : ['a key needs at least one property']);
      return;
    }
    const vars = new Variables();
    const x1 = variable('x1');
    const x2 = variable('x2');
    const c1 = this.compiler.condition(c, x1, vars);
    const c2 = this.compiler.condition(c, x2, vars);
    const edges = props.flatMap((p) => {
      const z = vars.fresh('z');
      return [propertyTriple(p, x1, z), propertyTriple(p, x2, z)];
    });
    const bodies = product(product(c1.alternatives, c2.alternatives), [conjunction(...edges, { kind: 'distinct', a: x1, b: x2, mode: 'individuals' })]);
    this.axiom(
      key,
      bodies.map((body) => ({ head: [{ s: x1, p: V.sameAs, o: x2 }], body })),
      c1.problems,
    );
  }

  // ---- property axioms ----

  private subPropertyOf(t: Triple): void {
    this.graph.consume(t.s, t.p, t.o);
    const sub = this.prop(t.s);
    const sup = this.prop(t.o);
    if (typeof sub === 'string' || typeof sup === 'string') {
      this.axiom(`SubPropertyOf(${termKey(t.s)} ${termKey(t.o)})`, [], [typeof sub === 'string' ? sub : (sup as string)]);
      return;
    }
    const key = `Sub${this.flavour(sub, sup)}PropertyOf(${propertyText(sub)} ${propertyText(sup)})`;
    this.axiom(key, [this.implication([sub], sup)], []);
  }

  /** `sup(x0, xn) :- p1(x0, x1), …, pn(xn-1, xn)`. */
  private implication(chain: readonly PropertyExpression[], sup: PropertyExpression): PendingRule {
    const xs: DatalogTerm[] = chain.length === 1 ? [variable('x'), variable('y')] : chain.map((_, i) => variable(`x${i}`)).concat([variable(`x${chain.length}`)]);
    const body = conjunction(...chain.map((p, i) => propertyTriple(p, xs[i]!, xs[i + 1]!)));
    return { head: [propertyTriple(sup, xs[0]!, xs[xs.length - 1]!)], body };
  }

  private propertyChain(t: Triple): void {
    this.graph.consume(t.s, t.p, t.o);
    const sup = this.prop(t.s);
    const members = this.reader.members(termKey(t.s), t.o);
    const problems: string[] = [];
    const chain: PropertyExpression[] = [];
    if (typeof members === 'string') problems.push(members);
    else {
      for (const m of members) {
        const p = this.prop(m);
        if (typeof p === 'string') problems.push(p);
        else chain.push(p);
      }
      if (members.length === 0) problems.push('a property chain needs at least one property');
    }
    if (typeof sup === 'string') problems.push(sup);
    const key = `SubObjectPropertyOf(ObjectPropertyChain(${typeof members === 'string' ? termKey(t.o) : chain.map(propertyText).join(' ')}) ${typeof sup === 'string' ? termKey(t.s) : propertyText(sup)})`;
    if (problems.length > 0 || typeof sup === 'string') {
      this.axiom(key, [], problems);
      return;
    }
    this.axiom(key, [this.implication(chain, sup)], []);
  }

  private equivalentProperty(t: Triple): void {
    this.graph.consume(t.s, t.p, t.o);
    const a = this.prop(t.s);
    const b = this.prop(t.o);
    if (typeof a === 'string' || typeof b === 'string') {
      this.axiom(`EquivalentProperties(${[termKey(t.s), termKey(t.o)].sort().join(' ')})`, [], [typeof a === 'string' ? a : (b as string)]);
      return;
    }
    const [first, second] = propertyText(a) <= propertyText(b) ? [a, b] : [b, a];
    const key = `Equivalent${this.flavour(a, b)}Properties(${propertyText(first)} ${propertyText(second)})`;
    this.axiom(key, [this.implication([first], second), this.implication([second], first)], []);
  }

  private inverseOf(t: Triple): void {
    this.graph.consume(t.s, t.p, t.o);
    const a = this.prop(t.s);
    const b = this.prop(t.o);
    if (typeof a === 'string' || typeof b === 'string') {
      this.axiom(`InverseObjectProperties(${[termKey(t.s), termKey(t.o)].sort().join(' ')})`, [], [typeof a === 'string' ? a : (b as string)]);
      return;
    }
    const [first, second] = propertyText(a) <= propertyText(b) ? [a, b] : [b, a];
    const key = `InverseObjectProperties(${propertyText(first)} ${propertyText(second)})`;
    const inverse = (p: PropertyExpression): PropertyExpression => ({ iri: p.iri, inverse: !p.inverse });
    this.axiom(key, [this.implication([first], inverse(second)), this.implication([second], inverse(first))], []);
  }

  private domainOrRange(t: Triple, which: 'Domain' | 'Range'): void {
    this.graph.consume(t.s, t.p, t.o);
    const p = this.prop(t.s);
    const c = which === 'Range' && typeof p !== 'string' ? this.reader.filler(p, t.o) : this.cls(t.o);
    if (typeof p === 'string') {
      this.axiom(`Property${which}(${termKey(t.s)} ${this.text(c)})`, [], [p]);
      return;
    }
    const data = which === 'Range' && isDataRange(c);
    const flavour = data ? 'Data' : this.flavour(p);
    const key = `${flavour}Property${which}(${propertyText(p)} ${this.text(c)})`;
    const x = variable('x');
    const y = variable('y');
    const vars = new Variables();
    const body = conjunction(propertyTriple(p, x, y));
    const r = which === 'Domain' ? this.compiler.conclusion(c, x, x, vars, body) : this.compiler.conclusion(c, y, data ? x : y, vars, body, data ? 'value' : 'individual');
    this.axiom(key, [...r.rules], r.problems);
  }

  private disjointProperties(terms: readonly RDF.Term[], consume: () => void): void {
    consume();
    const props: PropertyExpression[] = [];
    const problems: string[] = [];
    for (const t of terms) {
      const p = this.prop(t);
      if (typeof p === 'string') problems.push(p);
      else props.push(p);
    }
    props.sort((a, b) => (propertyText(a) < propertyText(b) ? -1 : propertyText(a) > propertyText(b) ? 1 : 0));
    const key = `Disjoint${this.flavour(...props)}Properties(${props.map(propertyText).join(' ')})`;
    const x = variable('x');
    const y = variable('y');
    const rules: PendingRule[] = [];
    for (let i = 0; i < props.length; i++) {
      for (let j = i + 1; j < props.length; j++) {
        rules.push({ head: [typeTriple(x, V.Nothing)], body: conjunction(propertyTriple(props[i]!, x, y), propertyTriple(props[j]!, x, y)) });
      }
    }
    this.axiom(key, problems.length > 0 ? [] : rules, problems);
  }

  private characteristic(t: Triple, characteristic: string): void {
    this.graph.consume(t.s, t.p, t.o);
    const p = this.prop(t.s);
    const name = characteristic.slice(V.FunctionalProperty.length - 'FunctionalProperty'.length).replace(/Property$/, '');
    if (typeof p === 'string') {
      this.axiom(`${name}Property(${termKey(t.s)})`, [], [p]);
      return;
    }
    const flavour = OBJECT_ONLY.has(characteristic) ? 'Object' : this.flavour(p);
    const key = `${name}${flavour}Property(${propertyText(p)})`;
    const x = variable('x');
    const y = variable('y');
    const z = variable('z');
    const vars = new Variables();
    const nothing = typeTriple(x, V.Nothing);
    switch (characteristic) {
      case V.FunctionalProperty:
      case V.InverseFunctionalProperty: {
        const q = characteristic === V.FunctionalProperty ? p : { iri: p.iri, inverse: !p.inverse };
        const r = this.compiler.conclusion({ kind: 'cardinality', bound: 'max', n: 1, property: q, filler: undefined }, x, x, vars, TRUE);
        this.axiom(key, r.rules, r.problems);
        return;
      }
      case V.SymmetricProperty:
        this.axiom(key, [{ head: [propertyTriple(p, y, x)], body: conjunction(propertyTriple(p, x, y)) }], []);
        return;
      case V.AsymmetricProperty:
        this.axiom(key, [{ head: [nothing], body: conjunction(propertyTriple(p, x, y), propertyTriple(p, y, x)) }], []);
        return;
      case V.IrreflexiveProperty:
        this.axiom(key, [{ head: [nothing], body: conjunction(propertyTriple(p, x, x)) }], []);
        return;
      case V.TransitiveProperty:
        this.axiom(key, [{ head: [propertyTriple(p, x, z)], body: conjunction(propertyTriple(p, x, y), propertyTriple(p, y, z)) }], []);
        return;
      default:
        this.axiom(key, [], ['reflexive properties are outside OWL 2 RL']);
    }
  }

  // ---- individuals ----

  private sameAs(t: Triple): void {
    this.graph.consume(t.s, t.p, t.o);
    if (t.o.termType === 'Literal') {
      this.warn(`SameIndividual(${termKey(t.s)} ${termKey(t.o)}): a literal is not an individual; dropped`);
      return;
    }
    this.assert(t.s, V.sameAs, t.o);
  }

  private differentFrom(t: Triple): void {
    this.graph.consume(t.s, t.p, t.o);
    if (t.o.termType !== 'Literal') this.assert(t.s, V.differentFrom, t.o);
    this.differentIndividuals([t.s, t.o], false);
  }

  /**
   * Rules deriving `owl:Nothing` for two of the individuals that are `owl:sameAs`, and (with
   * `pairs`) the `owl:differentFrom` assertions of all pairs.
   */
  private differentIndividuals(individuals: readonly ObjectTerm[], pairs = true): void {
    const unique = new Map<string, ObjectTerm>();
    const repeated = new Map<string, ObjectTerm>();
    for (const i of individuals) {
      if (unique.has(termKey(i))) repeated.set(termKey(i), i);
      unique.set(termKey(i), i);
    }
    const members = [...unique.values()].sort((a, b) => (termKey(a) < termKey(b) ? -1 : 1));
    const key = `DifferentIndividuals(${individuals.map(termKey).sort().join(' ')})`;
    const literals = members.filter((m) => m.termType === 'Literal');
    if (literals.length > 0) {
      this.axiom(key, [], [`${literals.map(termKey).join(', ')} ${literals.length === 1 ? 'is a literal' : 'are literals'}, not individuals`]);
      return;
    }
    if (pairs) for (let i = 0; i < members.length; i++) for (let j = i + 1; j < members.length; j++) this.assert(members[i]!, V.differentFrom, members[j]!);
    // an individual different from itself is a contradiction (eq-diff1 with eq-ref)
    const rules: PendingRule[] = [...repeated.values()].map((i) => ({ head: [typeTriple(constant(i), V.Nothing)], body: TRUE }));
    if (members.some((m) => m.termType === 'BlankNode')) {
      // blank nodes cannot be written in a FILTER: one rule per ordered pair
      for (const a of members) {
        for (const b of members) {
          if (a === b) continue;
          const [ca, cb] = [constant(a), constant(b)];
          rules.push({ head: [typeTriple(ca, V.Nothing), typeTriple(cb, V.Nothing)], body: conjunction({ kind: 'triple', s: ca, p: V.sameAs, o: cb }) });
        }
      }
    } else if (members.length > 1) {
      const x = variable('x');
      const y = variable('y');
      rules.push({
        head: [typeTriple(x, V.Nothing), typeTriple(y, V.Nothing)],
        body: conjunction({ kind: 'triple', s: x, p: V.sameAs, o: y }, { kind: 'in', term: x, set: members }, { kind: 'in', term: y, set: members }, { kind: 'distinct', a: x, b: y, mode: 'individuals' }),
      });
    }
    this.axiom(key, rules, []);
  }

  private allDifferent(node: SubjectTerm): void {
    const g = this.graph;
    const lists = [...g.objects(node, V.members), ...g.objects(node, V.distinctMembers)];
    g.consumeAll(node, V.members);
    g.consumeAll(node, V.distinctMembers);
    if (lists.length !== 1) {
      this.warn(`DifferentIndividuals(${termKey(node)}): owl:AllDifferent node ${termKey(node)} has ${lists.length} owl:members/owl:distinctMembers lists; dropped`);
      return;
    }
    const members = this.reader.members(termKey(node), lists[0]!);
    if (typeof members === 'string') {
      this.warn(`DifferentIndividuals(${termKey(node)}): ${members}; dropped`);
      return;
    }
    this.differentIndividuals(members);
  }

  private negativeAssertion(node: SubjectTerm): void {
    const g = this.graph;
    const one = (p: string): ObjectTerm[] => {
      const values = g.objects(node, p);
      g.consumeAll(node, p);
      return [...values];
    };
    const sources = one(V.sourceIndividual);
    const properties = one(V.assertionProperty);
    const targets = [...one(V.targetIndividual), ...one(V.targetValue)];
    if (sources.length !== 1 || properties.length !== 1 || targets.length !== 1) {
      this.warn(`NegativePropertyAssertion(${termKey(node)}): needs exactly one owl:sourceIndividual, owl:assertionProperty and owl:targetIndividual or owl:targetValue; dropped`);
      return;
    }
    const [a, p, b] = [sources[0]!, this.prop(properties[0]!), targets[0]!];
    const data = b.termType === 'Literal';
    const key = `Negative${data ? 'Data' : 'Object'}PropertyAssertion(${typeof p === 'string' ? termKey(properties[0]!) : propertyText(p)} ${termKey(a)} ${termKey(b)})`;
    if (typeof p === 'string') {
      this.axiom(key, [], [p]);
      return;
    }
    const [ca, cb] = [constant(a), constant(b)];
    const head = data ? [typeTriple(ca, V.Nothing)] : [typeTriple(ca, V.Nothing), typeTriple(cb, V.Nothing)];
    this.axiom(key, [{ head, body: conjunction(propertyTriple(p, ca, cb)) }], []);
  }

  /** `rdf:type` triples: declarations, property characteristics, n-ary axioms and class assertions. */
  private typed(t: Triple): void {
    const g = this.graph;
    if (g.isConsumed(t)) return;
    if (t.o.termType === 'Literal') return;
    if (t.o.termType === 'BlankNode') {
      g.consume(t.s, t.p, t.o);
      const c = this.cls(t.o);
      const key = `ClassAssertion(${this.text(c)} ${termKey(t.s)})`;
      const individual = constant(t.s);
      const r = this.compiler.conclusion(c, individual, individual, new Variables(), TRUE);
      this.axiom(key, r.rules, r.problems);
      return;
    }
    const type = t.o.value;
    if ((PROPERTY_CHARACTERISTICS as readonly string[]).includes(type)) {
      this.characteristic(t, type);
      return;
    }
    switch (type) {
      case V.AllDisjointClasses:
      case V.AllDisjointProperties: {
        g.consume(t.s, t.p, t.o);
        const lists = g.objects(t.s, V.members);
        g.consumeAll(t.s, V.members);
        const what = type === V.AllDisjointClasses ? 'DisjointClasses' : 'DisjointProperties';
        const members = lists.length === 1 ? this.reader.members(termKey(t.s), lists[0]!) : `${termKey(t.s)} has ${lists.length} owl:members lists`;
        if (typeof members === 'string') this.warn(`${what}(${termKey(t.s)}): ${members}; dropped`);
        else if (type === V.AllDisjointClasses) this.disjointClasses(members, () => undefined);
        else this.disjointProperties(members, () => undefined);
        return;
      }
      case V.AllDifferent:
        g.consume(t.s, t.p, t.o);
        this.allDifferent(t.s);
        return;
      case V.NegativePropertyAssertion:
        g.consume(t.s, t.p, t.o);
        this.negativeAssertion(t.s);
        return;
      default:
        break;
    }
    if (DECLARATION_TYPES.has(type)) {
      g.consume(t.s, t.p, t.o);
      return;
    }
    // other OWL classes (owl:Restriction of a node no axiom read, …) are reported in rest()
    if (type === V.Thing || type === V.Nothing || !type.startsWith(OWL)) {
      g.consume(t.s, t.p, t.o);
      this.assert(t.s, V.type, t.o);
    }
  }

  /** Reified axioms with annotations (`owl:Axiom`, `owl:Annotation` nodes) are read and ignored. */
  private annotationsOfAxioms(): void {
    const g = this.graph;
    for (const t of g.withPredicate(V.type)) {
      if (t.o.termType !== 'NamedNode' || (t.o.value !== V.Axiom && t.o.value !== V.Annotation)) continue;
      for (const p of g.predicates(t.s)) g.consumeAll(t.s, p);
    }
  }

  /** The triples not read: annotations, property assertions, or reported as unrecognised. */
  private rest(): void {
    const g = this.graph;
    const unrecognised = new Map<string, string[]>();
    for (const t of g.triples) {
      if (g.isConsumed(t)) continue;
      if (ANNOTATION_PREDICATES.has(t.p) || this.annotationProperties.has(t.p)) continue;
      if (t.p === V.imports) {
        this.warn(`Import(${termKey(t.o)}): imported ontologies are not read; ignored`);
        continue;
      }
      // OWL vocabulary that no axiom read looks like a malformed or unsupported axiom; other
      // triples (including RDF lists and containers no axiom refers to) are data
      if (t.p.startsWith(OWL) || (t.p === V.type && t.o.termType === 'NamedNode' && t.o.value.startsWith(OWL))) {
        const subject = termKey(t.s);
        let list = unrecognised.get(subject);
        if (!list) unrecognised.set(subject, (list = []));
        list.push(`<${t.p}> ${termKey(t.o)}`);
        continue;
      }
      this.assert(t.s, t.p, t.o);
    }
    for (const [subject, list] of unrecognised) {
      this.warn(`unrecognised triple${list.length > 1 ? 's' : ''} ${subject} ${list.join(' ; ')}: not part of any axiom that was read (malformed or unsupported); ignored`);
    }
  }
}
