/**
 * OWL class, data range and property expressions read from their RDF encoding (OWL 2 Mapping to
 * RDF Graphs, §3.2), and their canonical text in a functional-syntax-like notation, used in
 * axiom keys and warnings.
 * @module
 */
import type * as RDF from '@rdfjs/types/data-model.js';
import { DataFactory } from 'n3';
import { MalformedListError, type ObjectTerm, type OntologyGraph, termKey } from './rdf-graph.js';
import { isBuiltinDatatype, isReserved, V } from './vocabulary.js';

/** A property expression: a property IRI, or its inverse (`ObjectInverseOf`). */
export interface PropertyExpression {
  /** The property IRI. */
  readonly iri: string;
  /** Whether this is the inverse of the property. */
  readonly inverse: boolean;
}

/** Bound of a cardinality restriction. */
export type CardinalityBound = 'min' | 'max' | 'exact';

/**
 * A class expression or data range. Data ranges (datatypes, datatype restrictions and boolean
 * combinations of them, enumerations of literals) share the type, and are told apart by
 * {@link isDataRange}.
 */
export type ClassExpression =
  | { readonly kind: 'class'; readonly iri: string }
  | { readonly kind: 'datatype'; readonly iri: string }
  | { readonly kind: 'and'; readonly operands: readonly ClassExpression[] }
  | { readonly kind: 'or'; readonly operands: readonly ClassExpression[] }
  | { readonly kind: 'not'; readonly operand: ClassExpression }
  | { readonly kind: 'oneOf'; readonly values: readonly ObjectTerm[] }
  | { readonly kind: 'some'; readonly property: PropertyExpression; readonly filler: ClassExpression }
  | { readonly kind: 'all'; readonly property: PropertyExpression; readonly filler: ClassExpression }
  | { readonly kind: 'value'; readonly property: PropertyExpression; readonly value: ObjectTerm }
  | { readonly kind: 'self'; readonly property: PropertyExpression }
  | {
      readonly kind: 'cardinality';
      readonly bound: CardinalityBound;
      readonly n: number;
      readonly property: PropertyExpression;
      /** The qualifying class or data range (`owl:onClass`/`owl:onDataRange`); undefined when unqualified. */
      readonly filler: ClassExpression | undefined;
    }
  | { readonly kind: 'facets'; readonly text: string }
  | { readonly kind: 'malformed'; readonly text: string; readonly reason: string };

/** `owl:Thing`. */
export const THING: ClassExpression = { kind: 'class', iri: V.Thing };

/** Whether an expression is a data range (rather than a class expression). */
export function isDataRange(e: ClassExpression): boolean {
  switch (e.kind) {
    case 'datatype':
    case 'facets':
      return true;
    case 'and':
    case 'or':
      return e.operands.length > 0 && e.operands.every(isDataRange);
    case 'not':
      return isDataRange(e.operand);
    case 'oneOf':
      return e.values.length > 0 && e.values.every((v) => v.termType === 'Literal');
    default:
      return false;
  }
}

/** The canonical text of a property expression. */
export function propertyText(p: PropertyExpression): string {
  return p.inverse ? `ObjectInverseOf(<${p.iri}>)` : `<${p.iri}>`;
}

/** Tells whether a property is a data property (for the names of unqualified cardinality restrictions). */
export type DataPropertyTest = (iri: string) => boolean;

function sortedTexts(items: readonly ClassExpression[], dataProperty: DataPropertyTest | undefined): string {
  return items
    .map((e) => expressionText(e, dataProperty))
    .sort()
    .join(' ');
}

/**
 * The canonical text of an expression in a functional-syntax-like notation: IRIs in angle
 * brackets, operands of set-like constructors (intersection, union, enumeration) sorted, so
 * that the same expression always gives the same text. `dataProperty` tells unqualified
 * cardinality restrictions on data properties (`DataMaxCardinality`) from those on object
 * properties; without it they are written as object restrictions.
 */
export function expressionText(e: ClassExpression, dataProperty?: DataPropertyTest): string {
  const text = (x: ClassExpression): string => expressionText(x, dataProperty);
  const data = isDataRange(e);
  switch (e.kind) {
    case 'class':
    case 'datatype':
      return `<${e.iri}>`;
    case 'and':
      return `${data ? 'Data' : 'Object'}IntersectionOf(${sortedTexts(e.operands, dataProperty)})`;
    case 'or':
      return `${data ? 'Data' : 'Object'}UnionOf(${sortedTexts(e.operands, dataProperty)})`;
    case 'not':
      return `${data ? 'Data' : 'Object'}ComplementOf(${text(e.operand)})`;
    case 'oneOf':
      return `${data ? 'Data' : 'Object'}OneOf(${e.values.map(termKey).sort().join(' ')})`;
    case 'some':
      return `${isDataRange(e.filler) ? 'Data' : 'Object'}SomeValuesFrom(${propertyText(e.property)} ${text(e.filler)})`;
    case 'all':
      return `${isDataRange(e.filler) ? 'Data' : 'Object'}AllValuesFrom(${propertyText(e.property)} ${text(e.filler)})`;
    case 'value':
      return `${e.value.termType === 'Literal' ? 'Data' : 'Object'}HasValue(${propertyText(e.property)} ${termKey(e.value)})`;
    case 'self':
      return `ObjectHasSelf(${propertyText(e.property)})`;
    case 'cardinality': {
      const name = { min: 'MinCardinality', max: 'MaxCardinality', exact: 'ExactCardinality' }[e.bound];
      const data = e.filler !== undefined ? isDataRange(e.filler) : !e.property.inverse && dataProperty !== undefined && dataProperty(e.property.iri);
      const kind = data ? 'Data' : 'Object';
      const filler = e.filler === undefined ? '' : ` ${text(e.filler)}`;
      return `${kind}${name}(${e.n} ${propertyText(e.property)}${filler})`;
    }
    case 'facets':
    case 'malformed':
      return e.text;
  }
}

/** The constructor predicates of class expressions and data ranges. */
export const EXPRESSION_CONSTRUCTORS: readonly string[] = [V.intersectionOf, V.unionOf, V.complementOf, V.datatypeComplementOf, V.oneOf, V.onDatatype, V.onProperty, V.onProperties];
const CONSTRUCTORS = EXPRESSION_CONSTRUCTORS;

/** The restriction predicates that go with `owl:onProperty`. */
const RESTRICTIONS = [
  V.someValuesFrom,
  V.allValuesFrom,
  V.hasValue,
  V.hasSelf,
  V.minCardinality,
  V.maxCardinality,
  V.cardinality,
  V.minQualifiedCardinality,
  V.maxQualifiedCardinality,
  V.qualifiedCardinality,
] as const;

const CARDINALITY: Readonly<Record<string, { bound: CardinalityBound; qualified: boolean }>> = {
  [V.minCardinality]: { bound: 'min', qualified: false },
  [V.maxCardinality]: { bound: 'max', qualified: false },
  [V.cardinality]: { bound: 'exact', qualified: false },
  [V.minQualifiedCardinality]: { bound: 'min', qualified: true },
  [V.maxQualifiedCardinality]: { bound: 'max', qualified: true },
  [V.qualifiedCardinality]: { bound: 'exact', qualified: true },
};

/** Reads class expressions, data ranges and property expressions from a graph. */
export class ExpressionReader {
  private readonly stack = new Set<string>();
  private readonly datatypes: ReadonlySet<string>;

  /**
   * @param graph the triples
   * @param dataProperties the properties declared `owl:DatatypeProperty` (and not
   *   `owl:ObjectProperty`): an IRI restricting their values names a datatype
   */
  constructor(
    private readonly graph: OntologyGraph,
    private readonly dataProperties: ReadonlySet<string> = new Set(),
  ) {
    const datatypes = new Set<string>();
    for (const t of graph.withPredicate(V.type)) {
      if (t.s.termType === 'NamedNode' && t.o.termType === 'NamedNode' && t.o.value === V.Datatype) datatypes.add(t.s.value);
    }
    this.datatypes = datatypes;
  }

  /** Whether an IRI names a datatype (built in, or declared `rdfs:Datatype`). */
  isDatatype(iri: string): boolean {
    return isBuiltinDatatype(iri) || this.datatypes.has(iri);
  }

  /**
   * The expression denoted by a term: an IRI is a class (or datatype) name; a blank node is read
   * from its triples, which are marked as read.
   */
  classExpression(term: RDF.Term): ClassExpression {
    if (term.termType === 'NamedNode') return this.isDatatype(term.value) ? { kind: 'datatype', iri: term.value } : { kind: 'class', iri: term.value };
    if (term.termType !== 'BlankNode') return malformed(termKey(term), `${termKey(term)} is not a class expression`);
    return this.structure(term);
  }

  /**
   * The expression encoded by the triples of `node` (a blank node, or an IRI with defining
   * triples such as `owl:intersectionOf`), marking them as read.
   */
  structure(node: RDF.NamedNode | RDF.BlankNode): ClassExpression {
    const key = termKey(node);
    if (this.stack.has(key)) return malformed(key, `cyclic class expression through ${key}`);
    this.stack.add(key);
    try {
      const e = this.readStructure(node, key);
      if (e.kind === 'malformed' && node.termType === 'BlankNode') {
        // the node's OWL triples are part of the malformed expression, reported once for it
        for (const p of this.graph.predicates(node)) if (isReserved(p)) this.graph.consumeAll(node, p);
      }
      return e;
    } finally {
      this.stack.delete(key);
    }
  }

  private readStructure(node: RDF.NamedNode | RDF.BlankNode, key: string): ClassExpression {
    const g = this.graph;
    const present = CONSTRUCTORS.filter((p) => g.objects(node, p).length > 0);
    if (present.length === 0) return malformed(key, `${key} is used as a class expression but has no owl:intersectionOf, owl:unionOf, owl:complementOf, owl:oneOf or owl:onProperty`);
    if (present.length > 1) {
      // read (and so mark) what is there, so that only this problem is reported
      for (const p of present) {
        for (const v of g.objects(node, p)) {
          g.consume(node, p, v);
          if (p === V.intersectionOf || p === V.unionOf || p === V.oneOf) this.members(key, v);
        }
      }
      return malformed(key, `${key} has several class constructors (${present.map((p) => `<${p}>`).join(', ')})`);
    }
    if (node.termType === 'BlankNode') {
      for (const t of [V.OwlClass, V.Restriction, V.Datatype, V.Class]) if (g.hasType(node, t)) g.consume(node, V.type, DataFactory.namedNode(t));
    }
    const constructor = present[0]!;
    const values = g.objects(node, constructor);
    if (values.length !== 1) return malformed(key, `${key} has ${values.length} <${constructor}> values`);
    const value = values[0]!;
    g.consume(node, constructor, value);
    switch (constructor) {
      case V.intersectionOf:
      case V.unionOf: {
        const members = this.members(key, value);
        if (typeof members === 'string') return malformed(key, members);
        if (members.length === 0) return malformed(key, `${key} has an empty <${constructor}> list`);
        const operands = members.map((m) => this.classExpression(m));
        return { kind: constructor === V.intersectionOf ? 'and' : 'or', operands };
      }
      case V.complementOf:
      case V.datatypeComplementOf:
        return { kind: 'not', operand: this.classExpression(value) };
      case V.oneOf: {
        const members = this.members(key, value);
        if (typeof members === 'string') return malformed(key, members);
        if (members.length === 0) return malformed(key, `${key} has an empty owl:oneOf list`);
        return { kind: 'oneOf', values: members };
      }
      case V.onDatatype: {
        const restrictions = g.objects(node, V.withRestrictions);
        g.consumeAll(node, V.withRestrictions);
        const facets: string[] = [];
        for (const r of restrictions) {
          const list = this.members(key, r);
          if (typeof list === 'string') return malformed(key, list);
          for (const f of list) {
            for (const p of g.predicates(f)) {
              for (const o of g.objects(f, p)) {
                g.consume(f, p, o);
                facets.push(`<${p}> ${termKey(o)}`);
              }
            }
          }
        }
        return { kind: 'facets', text: `DatatypeRestriction(${termKey(value)}${facets.map((f) => ` ${f}`).join('')})` };
      }
      case V.onProperties:
        return malformed(key, `${key} is an n-ary data restriction (owl:onProperties), which OWL 2 RL does not support`);
      default:
        return this.restriction(node, key, value);
    }
  }

  private restriction(node: RDF.NamedNode | RDF.BlankNode, key: string, onProperty: ObjectTerm): ClassExpression {
    const g = this.graph;
    const property = this.propertyExpression(onProperty);
    if (typeof property === 'string') return malformed(key, property);
    const present = RESTRICTIONS.filter((p) => g.objects(node, p).length > 0);
    if (present.length !== 1) {
      const what = present.length === 0 ? 'no restriction (owl:someValuesFrom, owl:allValuesFrom, owl:hasValue, cardinality, …)' : `several restrictions (${present.map((p) => `<${p}>`).join(', ')})`;
      return malformed(key, `restriction ${key} on ${propertyText(property)} has ${what}`);
    }
    const predicate = present[0]!;
    const values = g.objects(node, predicate);
    if (values.length !== 1) return malformed(key, `restriction ${key} has ${values.length} <${predicate}> values`);
    const value = values[0]!;
    g.consume(node, predicate, value);
    switch (predicate) {
      case V.someValuesFrom:
        return { kind: 'some', property, filler: this.filler(property, value) };
      case V.allValuesFrom:
        return { kind: 'all', property, filler: this.filler(property, value) };
      case V.hasValue:
        return { kind: 'value', property, value };
      case V.hasSelf:
        return { kind: 'self', property };
      default: {
        const info = CARDINALITY[predicate]!;
        const n = value.termType === 'Literal' && /^\+?[0-9]+$/.test(value.value) ? Number(value.value.replace('+', '')) : undefined;
        if (n === undefined || !Number.isSafeInteger(n)) return malformed(key, `restriction ${key} has the cardinality ${termKey(value)}, not a non-negative integer`);
        let filler: ClassExpression | undefined;
        if (info.qualified) {
          const onClass = g.objects(node, V.onClass);
          const onDataRange = g.objects(node, V.onDataRange);
          const qualifiers = [...onClass, ...onDataRange];
          if (qualifiers.length !== 1) return malformed(key, `qualified cardinality restriction ${key} has ${qualifiers.length} owl:onClass/owl:onDataRange values`);
          g.consumeAll(node, V.onClass);
          g.consumeAll(node, V.onDataRange);
          filler = this.classExpression(qualifiers[0]!);
          if (onDataRange.length === 1 && filler.kind === 'class') filler = { kind: 'datatype', iri: filler.iri };
        }
        return { kind: 'cardinality', bound: info.bound, n, property, filler };
      }
    }
  }

  /** The filler of a restriction: an IRI restricting a data property is a datatype. */
  filler(property: PropertyExpression, term: RDF.Term): ClassExpression {
    const e = this.classExpression(term);
    return e.kind === 'class' && !property.inverse && this.dataProperties.has(property.iri) ? { kind: 'datatype', iri: e.iri } : e;
  }

  /** The members of an RDF list, or the reason it is malformed. */
  members(owner: string, head: RDF.Term): ObjectTerm[] | string {
    try {
      return this.graph.list(head);
    } catch (e) {
      if (e instanceof MalformedListError) return `${e.message} (list of ${owner})`;
      throw e;
    }
  }

  /**
   * The property expression denoted by a term: an IRI, or a blank node with `owl:inverseOf`
   * (read, possibly nested); a string saying what is wrong otherwise.
   */
  propertyExpression(term: RDF.Term, depth = 0): PropertyExpression | string {
    if (term.termType === 'NamedNode') return { iri: term.value, inverse: false };
    if (term.termType !== 'BlankNode' || depth > 16) return `${termKey(term)} is not a property expression`;
    const inverses = this.graph.objects(term, V.inverseOf);
    if (inverses.length !== 1) return `${termKey(term)} is not a property expression (a blank node property needs exactly one owl:inverseOf)`;
    const inner = this.propertyExpression(inverses[0]!, depth + 1);
    if (typeof inner === 'string') return inner;
    this.graph.consume(term, V.inverseOf, inverses[0]!);
    return { iri: inner.iri, inverse: !inner.inverse };
  }
}

function malformed(text: string, reason: string): ClassExpression {
  return { kind: 'malformed', text: `Malformed(${text})`, reason };
}
