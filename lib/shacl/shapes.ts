/**
 * The shapes of a shapes graph: which nodes are shapes with targets, and each shape read into
 * its targets, path, severity, messages and constraints (one per value of each parameter of a
 * SHACL Core component, sh:sparql constraint or SPARQL-based constraint component the shape
 * uses). Shapes are read on first use, so that an ill-formed shape no target reaches does not
 * stop validation.
 * @module
 */
import type * as RDF from '@rdfjs/types/data-model.js';
import { ShaclShapeError } from './errors.js';
import type { GraphReader } from './graph.js';
import { readPath } from './paths.js';
import type { TermTable } from './terms.js';
import type { ShaclPath } from './types.js';
import { RDF_FIRST, RDF_NIL, RDF_REST, RDF_TYPE, RDFS_CLASS, RDFS_SUBCLASS_OF, SH, SH_VIOLATION, sh, XSD_BOOLEAN } from './vocabulary.js';

/** The targets of a shape (term ids). */
export interface ShapeTargets {
  /** sh:targetNode values. */
  readonly nodes: readonly number[];
  /** sh:targetClass values, and the shape itself when it is a class (implicit class target). */
  readonly classes: readonly number[];
  /** sh:targetSubjectsOf values. */
  readonly subjectsOf: readonly number[];
  /** sh:targetObjectsOf values. */
  readonly objectsOf: readonly number[];
}

/** A SPARQL query of a constraint, with the prefixes its sh:prefixes declare. */
export interface SparqlText {
  /** The query text (SELECT or ASK). */
  readonly text: string;
  /** The prefixes declared through sh:prefixes / sh:declare. */
  readonly prefixes: ReadonlyMap<string, string>;
}

/** A SPARQL-based validator of a constraint component. */
export interface ComponentValidator {
  /** The validator node. */
  readonly node: number;
  /** The query. */
  readonly query: SparqlText;
  /** Whether it is an ASK validator (else SELECT). */
  readonly ask: boolean;
  /** The messages of the validator. */
  readonly messages: readonly RDF.Literal[];
}

/** A constraint of a shape: the component's parameters and the component IRI it reports. */
export type Constraint =
  | { readonly type: 'class'; readonly component: string; readonly cls: number }
  | { readonly type: 'datatype'; readonly component: string; readonly datatype: number }
  | { readonly type: 'nodeKind'; readonly component: string; readonly kind: string }
  | { readonly type: 'minCount' | 'maxCount' | 'minLength' | 'maxLength'; readonly component: string; readonly n: number }
  | { readonly type: 'minExclusive' | 'minInclusive' | 'maxExclusive' | 'maxInclusive'; readonly component: string; readonly bound: number }
  | { readonly type: 'pattern'; readonly component: string; readonly pattern: string; readonly flags: string }
  | { readonly type: 'languageIn'; readonly component: string; readonly languages: readonly string[] }
  | { readonly type: 'uniqueLang'; readonly component: string }
  | { readonly type: 'equals' | 'disjoint' | 'lessThan' | 'lessThanOrEquals'; readonly component: string; readonly predicate: number }
  | { readonly type: 'not' | 'node' | 'property'; readonly component: string; readonly shape: number }
  | { readonly type: 'and' | 'or' | 'xone'; readonly component: string; readonly shapes: readonly number[] }
  | { readonly type: 'qualified'; readonly component: string; readonly shape: number; readonly min: number | undefined; readonly max: number | undefined; readonly disjoint: boolean }
  | { readonly type: 'closed'; readonly component: string; readonly allowed: ReadonlySet<number> }
  | { readonly type: 'hasValue'; readonly component: string; readonly value: number }
  | { readonly type: 'in'; readonly component: string; readonly values: ReadonlySet<number> }
  | { readonly type: 'sparql'; readonly component: string; readonly constraint: number; readonly query: SparqlText; readonly messages: readonly RDF.Literal[] }
  | {
      readonly type: 'custom';
      readonly component: string;
      readonly componentNode: number;
      readonly validator: ComponentValidator;
      /** Parameter values by variable name (the local name of the parameter's path). */
      readonly parameters: ReadonlyMap<string, number>;
    };

/** A shape read from the shapes graph. */
export interface Shape {
  /** The shape's node (term id). */
  readonly node: number;
  /** The path of a property shape; undefined for a node shape. */
  readonly path: ShaclPath | undefined;
  /** Whether sh:deactivated is true. */
  readonly deactivated: boolean;
  /** The severity IRI. */
  readonly severity: string;
  /** sh:message values. */
  readonly messages: readonly RDF.Literal[];
  /** The targets. */
  readonly targets: ShapeTargets;
  /** The constraints. */
  readonly constraints: readonly Constraint[];
}

/** The SPARQL-based constraint components declared in the shapes graph. */
interface CustomComponent {
  readonly node: number;
  readonly iri: string;
  /** Parameters: path predicate, variable name, optional. */
  readonly parameters: readonly { readonly predicate: number; readonly name: string; readonly optional: boolean }[];
  readonly validator: ComponentValidator | undefined;
  readonly nodeValidator: ComponentValidator | undefined;
  readonly propertyValidator: ComponentValidator | undefined;
}

const CORE_PARAMETERS = [
  'class', 'datatype', 'nodeKind', 'minCount', 'maxCount', 'minExclusive', 'minInclusive', 'maxExclusive', 'maxInclusive',
  'minLength', 'maxLength', 'pattern', 'languageIn', 'uniqueLang', 'equals', 'disjoint', 'lessThan', 'lessThanOrEquals',
  'not', 'and', 'or', 'xone', 'node', 'property', 'qualifiedValueShape', 'closed', 'hasValue', 'in', 'sparql',
] as const;

/** The shapes of one shapes graph, read on demand. */
export class ShapesGraph {
  private readonly shapes = new Map<number, Shape>();
  private readonly reading = new Set<number>();
  private components: CustomComponent[] | undefined;
  /** Every node read as part of a shape (shapes, lists, paths, constraints), for telling changes to the shapes apart. */
  readonly structure = new Set<number>();

  private targeted: number[] | undefined;
  private reader: GraphReader;

  /** Shapes of the graph `graph` reads, with the terms of `terms`. */
  constructor(graph: GraphReader, readonly terms: TermTable) {
    this.reader = graph;
  }

  /** The reader of the shapes graph. */
  get graph(): GraphReader {
    return this.reader;
  }

  /**
   * Reads the shapes graph through `graph` from now on: a reader of another state whose shapes
   * graph is the same (the shapes already read are kept).
   */
  rebind(graph: GraphReader): void {
    this.reader = graph;
  }

  private id(local: string): number {
    return this.terms.iri(SH + local);
  }

  /** The nodes that are shapes with a target (explicit or implicit), in no particular order. */
  targetedShapes(): number[] {
    this.targeted ??= this.readTargetedShapes();
    return this.targeted;
  }

  private readTargetedShapes(): number[] {
    const out = new Set<number>();
    for (const t of ['targetNode', 'targetClass', 'targetSubjectsOf', 'targetObjectsOf']) this.graph.forEachWithPredicate(this.id(t), (s) => void out.add(s));
    const type = this.terms.iri(RDF_TYPE);
    const rdfsClass = this.terms.iri(RDFS_CLASS);
    for (const kind of ['NodeShape', 'PropertyShape']) {
      for (const s of this.graph.subjects(type, this.id(kind))) if (this.graph.has(s, type, rdfsClass)) out.add(s);
    }
    return [...out];
  }

  /** The shape at `node`, read on first use. */
  shape(node: number): Shape {
    let s = this.shapes.get(node);
    if (s === undefined) {
      if (this.reading.has(node)) throw new ShaclShapeError('a shape refers to itself while it is read');
      this.reading.add(node);
      try {
        s = this.read(node);
      } finally {
        this.reading.delete(node);
      }
      this.shapes.set(node, s);
    }
    return s;
  }

  private list(head: number): number[] {
    const members = this.graph.list(head, this.terms.iri(RDF_FIRST), this.terms.iri(RDF_REST), this.terms.iri(RDF_NIL));
    if (members === undefined) throw new ShaclShapeError(`${this.describe(head)} is not a well-formed RDF list`);
    let node = head;
    for (let i = 0; i < members.length; i++) {
      this.structure.add(node);
      node = this.graph.object(node, this.terms.iri(RDF_REST));
    }
    return members;
  }

  private describe(node: number): string {
    const t = this.terms.term(node);
    return t.termType === 'NamedNode' ? `<${t.value}>` : t.termType === 'BlankNode' ? `_:${t.value}` : JSON.stringify(t.value);
  }

  private literalNumber(node: number, what: string): number {
    const lit = this.terms.literal(node);
    const n = lit === undefined ? NaN : Number(lit.value);
    if (!Number.isInteger(n)) throw new ShaclShapeError(`sh:${what} must be an integer`);
    return n;
  }

  private isTrue(node: number): boolean {
    const lit = this.terms.literal(node);
    // (only the literal true: "1"^^xsd:boolean does not turn a parameter on, see the W3C test uniqueLang-002)
    return lit !== undefined && lit.value === 'true' && lit.datatype.value === XSD_BOOLEAN;
  }

  private read(node: number): Shape {
    const g = this.graph;
    this.structure.add(node);
    // every triple of the shape node, read once, by predicate
    const byPredicate = new Map<number, number[]>();
    for (let i = 0, out = g.outgoing(node); i < out.length; i += 2) {
      const list = byPredicate.get(out[i]!);
      if (list === undefined) byPredicate.set(out[i]!, [out[i + 1]!]);
      else list.push(out[i + 1]!);
    }
    const values = (local: string): number[] => byPredicate.get(this.id(local)) ?? [];
    const pathNodes = values('path');
    if (pathNodes.length > 1) throw new ShaclShapeError(`shape ${this.describe(node)} has more than one sh:path`);
    const path = pathNodes.length === 1 ? readPath(g, this.terms, pathNodes[0]!) : undefined;
    if (pathNodes.length === 1) this.addPathStructure(pathNodes[0]!);
    const deactivated = values('deactivated').some((v) => this.isTrue(v));
    const severityNode = values('severity')[0];
    const severity = severityNode === undefined ? SH_VIOLATION : (this.terms.iriOf(severityNode) ?? SH_VIOLATION);
    const messages = values('message').map((m) => this.terms.literal(m)).filter((m): m is RDF.Literal => m !== undefined);
    const types = byPredicate.get(this.terms.iri(RDF_TYPE)) ?? [];
    const implicit = types.includes(this.terms.iri(RDFS_CLASS)) && (types.includes(this.id('NodeShape')) || types.includes(this.id('PropertyShape')));
    const targets: ShapeTargets = {
      nodes: values('targetNode'),
      classes: implicit ? [...values('targetClass'), node] : values('targetClass'),
      subjectsOf: values('targetSubjectsOf'),
      objectsOf: values('targetObjectsOf'),
    };
    const constraints: Constraint[] = [];
    for (const local of CORE_PARAMETERS) for (const v of values(local)) this.addCore(constraints, node, local, v);
    const min = values('qualifiedMinCount');
    const max = values('qualifiedMaxCount');
    const disjoint = values('qualifiedValueShapesDisjoint').some((v) => this.isTrue(v));
    for (const q of values('qualifiedValueShape')) {
      const minCount = min[0] === undefined ? undefined : this.literalNumber(min[0], 'qualifiedMinCount');
      const maxCount = max[0] === undefined ? undefined : this.literalNumber(max[0], 'qualifiedMaxCount');
      if (minCount !== undefined) constraints.push({ type: 'qualified', component: sh('QualifiedMinCountConstraintComponent'), shape: q, min: minCount, max: undefined, disjoint });
      if (maxCount !== undefined) constraints.push({ type: 'qualified', component: sh('QualifiedMaxCountConstraintComponent'), shape: q, min: undefined, max: maxCount, disjoint });
    }
    this.addCustom(constraints, node, path !== undefined);
    return { node, path, deactivated, severity, messages, targets, constraints };
  }

  private addPathStructure(node: number): void {
    if (!this.terms.isBlank(node) || this.structure.has(node)) return;
    this.structure.add(node);
    for (let i = 0, out = this.graph.outgoing(node); i < out.length; i += 2) this.addPathStructure(out[i + 1]!);
  }

  private addCore(out: Constraint[], shape: number, local: (typeof CORE_PARAMETERS)[number], v: number): void {
    const component = sh(`${local[0]!.toUpperCase()}${local.slice(1)}ConstraintComponent`);
    switch (local) {
      case 'class':
      case 'datatype':
        out.push(local === 'class' ? { type: 'class', component, cls: v } : { type: 'datatype', component, datatype: v });
        return;
      case 'nodeKind': {
        const iri = this.terms.iriOf(v);
        if (iri === undefined || !iri.startsWith(SH)) throw new ShaclShapeError('sh:nodeKind must be an IRI of SHACL');
        out.push({ type: 'nodeKind', component, kind: iri.slice(SH.length) });
        return;
      }
      case 'minCount':
      case 'maxCount':
      case 'minLength':
      case 'maxLength':
        out.push({ type: local, component, n: this.literalNumber(v, local) });
        return;
      case 'minExclusive':
      case 'minInclusive':
      case 'maxExclusive':
      case 'maxInclusive':
        out.push({ type: local, component, bound: v });
        return;
      case 'pattern': {
        const flags = this.graph.objects(shape, this.id('flags')).map((f) => this.terms.literal(f)?.value ?? '')[0] ?? '';
        out.push({ type: 'pattern', component, pattern: this.terms.literal(v)?.value ?? this.terms.term(v).value, flags });
        return;
      }
      case 'languageIn':
        out.push({ type: 'languageIn', component, languages: this.list(v).map((l) => this.terms.term(l).value.toLowerCase()) });
        return;
      case 'uniqueLang':
        if (this.isTrue(v)) out.push({ type: 'uniqueLang', component });
        return;
      case 'equals':
      case 'disjoint':
      case 'lessThan':
      case 'lessThanOrEquals':
        out.push({ type: local, component, predicate: v });
        return;
      case 'not':
      case 'node':
      case 'property':
        out.push({ type: local, component, shape: v });
        return;
      case 'and':
      case 'or':
      case 'xone':
        out.push({ type: local, component, shapes: this.list(v) });
        return;
      case 'qualifiedValueShape':
        return;
      case 'closed': {
        if (!this.isTrue(v)) return;
        const allowed = new Set<number>();
        for (const p of this.graph.objects(shape, this.id('property'))) {
          for (const path of this.graph.objects(p, this.id('path'))) if (this.terms.isIri(path)) allowed.add(path);
        }
        for (const list of this.graph.objects(shape, this.id('ignoredProperties'))) for (const p of this.list(list)) allowed.add(p);
        out.push({ type: 'closed', component, allowed });
        return;
      }
      case 'hasValue':
        out.push({ type: 'hasValue', component, value: v });
        return;
      case 'in':
        out.push({ type: 'in', component, values: new Set(this.list(v)) });
        return;
      case 'sparql': {
        this.structure.add(v);
        if (this.graph.objects(v, this.id('deactivated')).some((d) => this.isTrue(d))) return;
        const select = this.graph.objects(v, this.id('select'));
        if (select.length !== 1) throw new ShaclShapeError('a SPARQL constraint must have exactly one sh:select');
        const messages = this.graph.objects(v, this.id('message')).map((m) => this.terms.literal(m)).filter((m): m is RDF.Literal => m !== undefined);
        out.push({ type: 'sparql', component: sh('SPARQLConstraintComponent'), constraint: v, query: this.sparqlText(v, select[0]!), messages });
        return;
      }
    }
  }

  /** The text of a query node's value with the prefixes of its sh:prefixes. */
  sparqlText(owner: number, textNode: number): SparqlText {
    const text = this.terms.literal(textNode)?.value;
    if (text === undefined) throw new ShaclShapeError('a SPARQL query of a shape must be a literal');
    const prefixes = new Map<string, string>();
    // the declarations of the sh:prefixes values and of the ontologies they import (owl:imports)
    const ontologies = this.graph.objects(owner, this.id('prefixes'));
    const imports = this.terms.iri('http://www.w3.org/2002/07/owl#imports');
    for (let i = 0; i < ontologies.length; i++) {
      const ontology = ontologies[i]!;
      this.structure.add(ontology);
      for (const imported of this.graph.objects(ontology, imports)) if (!ontologies.includes(imported)) ontologies.push(imported);
      for (const declaration of this.graph.objects(ontology, this.id('declare'))) {
        const prefix = this.terms.literal(this.graph.object(declaration, this.id('prefix')))?.value;
        const namespaceNode = this.graph.object(declaration, this.id('namespace'));
        if (prefix === undefined || namespaceNode < 0) throw new ShaclShapeError('a prefix declaration (sh:declare) lacks sh:prefix or sh:namespace');
        const namespace = this.terms.term(namespaceNode).value;
        const known = prefixes.get(`${prefix}:`);
        if (known !== undefined && known !== namespace) throw new ShaclShapeError(`prefix ${prefix}: is declared with two namespaces`);
        prefixes.set(`${prefix}:`, namespace);
      }
    }
    return { text, prefixes };
  }

  /** Whether `node` is a SHACL instance of `cls` in the shapes graph (rdf:type, then rdfs:subClassOf*). */
  private instanceOf(node: number, cls: number): boolean {
    const type = this.terms.iri(RDF_TYPE);
    const sub = this.terms.iri(RDFS_SUBCLASS_OF);
    const seen = new Set<number>();
    const stack = this.graph.objects(node, type);
    while (stack.length > 0) {
      const c = stack.pop()!;
      if (c === cls) return true;
      if (seen.has(c)) continue;
      seen.add(c);
      stack.push(...this.graph.objects(c, sub));
    }
    return false;
  }

  private customComponents(): CustomComponent[] {
    if (this.components !== undefined) return this.components;
    const out: CustomComponent[] = [];
    const parameterId = this.id('parameter');
    const candidates = new Set<number>();
    this.graph.forEachWithPredicate(parameterId, (s) => void candidates.add(s));
    for (const node of candidates) {
      if (!this.instanceOf(node, this.id('ConstraintComponent'))) continue;
      const iri = this.terms.iriOf(node);
      if (iri === undefined) continue;
      const parameters = this.graph.objects(node, parameterId).map((p) => {
        const path = this.graph.object(p, this.id('path'));
        const predicate = this.terms.iriOf(path);
        if (predicate === undefined) throw new ShaclShapeError(`a parameter of ${iri} lacks an IRI sh:path`);
        const name = predicate.replace(/^.*[#/:]/, '');
        return { predicate: path, name, optional: this.graph.objects(p, this.id('optional')).some((o) => this.isTrue(o)) };
      });
      const validator = (local: string): ComponentValidator | undefined => {
        const v = this.graph.object(node, this.id(local));
        if (v < 0) return undefined;
        const ask = this.graph.object(v, this.id('ask'));
        const select = this.graph.object(v, this.id('select'));
        if (ask < 0 && select < 0) return undefined;
        const messages = this.graph.objects(v, this.id('message')).map((m) => this.terms.literal(m)).filter((m): m is RDF.Literal => m !== undefined);
        return { node: v, query: this.sparqlText(v, ask >= 0 ? ask : select), ask: ask >= 0, messages };
      };
      out.push({ node, iri, parameters, validator: validator('validator'), nodeValidator: validator('nodeValidator'), propertyValidator: validator('propertyValidator') });
    }
    return (this.components = out);
  }

  private addCustom(out: Constraint[], shape: number, property: boolean): void {
    for (const c of this.customComponents()) {
      const mandatory = c.parameters.filter((p) => !p.optional);
      if (mandatory.length === 0) continue;
      const valueLists = c.parameters.map((p) => this.graph.objects(shape, p.predicate));
      if (mandatory.some((p) => this.graph.objects(shape, p.predicate).length === 0)) continue;
      const validator = (property ? c.propertyValidator : c.nodeValidator) ?? (c.validator?.ask === true ? c.validator : undefined);
      if (validator === undefined) continue;
      // one constraint per combination of parameter values
      let combinations: Map<string, number>[] = [new Map<string, number>()];
      c.parameters.forEach((p, i) => {
        const vs = valueLists[i]!;
        if (vs.length === 0) return;
        combinations = combinations.flatMap((m) => vs.map((v) => new Map<string, number>(m).set(p.name, v)));
      });
      for (const parameters of combinations) out.push({ type: 'custom', component: c.iri, componentNode: c.node, validator, parameters });
    }
  }

  /** The shapes that have `node` as a value of sh:property. */
  parentsOf(node: number): number[] {
    return this.graph.subjects(this.id('property'), node);
  }

  /** The sh:property values of a shape. */
  propertiesOf(node: number): number[] {
    return this.graph.objects(node, this.id('property'));
  }

  /** The sh:qualifiedValueShape values of a shape. */
  qualifiedShapesOf(node: number): number[] {
    return this.graph.objects(node, this.id('qualifiedValueShape'));
  }
}
