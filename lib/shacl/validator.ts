/**
 * SHACL Core validation over a store's indexes: the focus nodes of each targeted shape, the
 * value nodes of its path, and every constraint checked on term ids (literal comparisons
 * through the expressions layer). Conformance of a node to a shape (for sh:node, sh:not,
 * sh:and, sh:or, sh:xone and qualified value shapes) is checked without collecting results
 * and remembered for the validation. SPARQL constraints go to a {@link SparqlConstraints}
 * runner, loaded only when the shapes graph has some.
 * @module
 */
import type * as RDF from '@rdfjs/types/data-model.js';
import { valueCompare } from '../expressions/comparison.js';
import { regexMatches } from '../expressions/regex.js';
import { decode } from '../expressions/values.js';
import { Interrupter } from '../model/control.js';
import { ANY, factDomainMask } from '../storage/tuple-table.js';
import { GraphReader } from './graph.js';
import { pathValues } from './paths.js';
import { CompiledShapes } from './compiled.js';
import type { Constraint, Shape, ShapesGraph } from './shapes.js';
import type { TermTable } from './terms.js';
import type { ShaclDataSelection, ShaclOptions, ShaclPath, ShaclReport, ShaclResult } from './types.js';
import { RDF_LANG_STRING, RDF_TYPE, RDFS_SUBCLASS_OF } from './vocabulary.js';

/** Where a check puts its results: an array, or null when only conformance is asked (stop at the first). */
type Out = ShaclResult[] | null;

/** What a SPARQL constraint runner does for the validator (see sparql-constraints.ts). */
export interface SparqlConstraints {
  /** Checks a sh:sparql or SPARQL-based component constraint of `shape` at `focus` (value nodes `values`); returns whether no result was found. */
  check(validation: Validation, shape: Shape, constraint: Extract<Constraint, { type: 'sparql' | 'custom' }>, focus: number, values: readonly number[], out: Out): boolean;
}

/** One validation: the graphs read, the shapes, and what it remembers while it runs. */
export class Validation {
  /** The data graph. */
  readonly data: GraphReader;
  /** The shapes. */
  readonly shapes: ShapesGraph;
  /** The terms of the ids. */
  readonly terms: TermTable;
  /** The runner of SPARQL constraints (set before validating when the shapes have some). */
  sparql: SparqlConstraints | undefined;
  private readonly conformance = new Map<number, Map<number, boolean>>();
  private readonly checking = new Set<string>();
  private readonly superclasses = new Map<number, ReadonlySet<number>>();
  private readonly instances = new Map<number, ReadonlySet<number>>();
  private readonly rdfType: number;
  private readonly subClassOf: number;

  /** The shapes as read (possibly for an earlier state with the same shapes graph). */
  readonly compiled: CompiledShapes;

  /**
   * A validation of the selection's data graph against its shapes graph; with `compiled`, the
   * shapes read for another state whose shapes graph is the same as this one's.
   */
  constructor(readonly selection: ShaclDataSelection, compiled?: CompiledShapes) {
    const mask = factDomainMask(selection.factDomain, 'all');
    if (compiled === undefined) compiled = new CompiledShapes(selection);
    else compiled.bind(selection);
    this.compiled = compiled;
    this.terms = compiled.terms;
    this.data = new GraphReader(selection.state, selection.dataGraph, mask);
    this.shapes = compiled.shapes;
    this.rdfType = this.terms.iri(RDF_TYPE);
    this.subClassOf = this.terms.iri(RDFS_SUBCLASS_OF);
  }

  /** Whether the shapes graph holds SPARQL constraints or SPARQL-based constraint components. */
  hasSparql(): boolean {
    return this.compiled.hasSparql();
  }

  /** Runs the validation. */
  async run(options: ShaclOptions): Promise<ShaclReport> {
    const interrupter = options.interrupter ?? new Interrupter();
    const results: ShaclResult[] = [];
    const focusFilter = options.focusNodes;
    let work = 0;
    for (const node of this.shapes.targetedShapes()) {
      const shape = this.shapes.shape(node);
      if (shape.deactivated) continue;
      const focus = focusFilter ?? (await this.targetsOfAsync(shape, interrupter));
      for (const f of focus) {
        if (focusFilter !== undefined && !this.isTarget(shape, f)) continue;
        this.validateShape(shape, f, results);
        if ((++work & 31) === 0) await interrupter.maybeYield();
      }
      await interrupter.maybeYield();
    }
    return { conforms: results.length === 0, results };
  }

  /** {@link Validation.targetsOf}, pausing for the interrupter while it reads (the classes' instances are read once per validation). */
  private async targetsOfAsync(shape: Shape, interrupter: Interrupter): Promise<readonly number[]> {
    const t = shape.targets;
    const pause = (): Promise<void> => interrupter.maybeYield();
    for (const c of t.classes) {
      if (this.instances.has(c)) continue;
      const classes = this.subclassesOf(c);
      const out = new Set<number>();
      for (const k of classes) await this.data.forEachAsync(this.rdfType, k, (s) => void out.add(s), pause);
      this.instances.set(c, out);
    }
    if (t.classes.length === 1 && t.nodes.length === 0 && t.subjectsOf.length === 0 && t.objectsOf.length === 0) return [...this.instancesOf(t.classes[0]!)];
    const out = new Set<number>(t.nodes);
    for (const c of t.classes) for (const n of this.instancesOf(c)) out.add(n);
    for (const p of t.subjectsOf) await this.data.forEachAsync(p, ANY, (s) => void out.add(s), pause);
    for (const p of t.objectsOf) await this.data.forEachAsync(p, ANY, (_s, o) => void out.add(o), pause);
    return [...out];
  }

  /** The focus nodes of a shape's targets. */
  targetsOf(shape: Shape): readonly number[] {
    const t = shape.targets;
    // the common case: one class and nothing else
    if (t.classes.length === 1 && t.nodes.length === 0 && t.subjectsOf.length === 0 && t.objectsOf.length === 0) return [...this.instancesOf(t.classes[0]!)];
    const out = new Set<number>(shape.targets.nodes);
    for (const c of shape.targets.classes) for (const n of this.instancesOf(c)) out.add(n);
    for (const p of shape.targets.subjectsOf) this.data.forEachWithPredicate(p, (s) => void out.add(s));
    for (const p of shape.targets.objectsOf) this.data.forEachWithPredicate(p, (_s, o) => void out.add(o));
    return [...out];
  }

  /** Whether `node` is a focus node of a shape's targets. */
  isTarget(shape: Shape, node: number): boolean {
    const t = shape.targets;
    return t.nodes.includes(node) || t.classes.some((c) => this.isInstance(node, c)) || t.subjectsOf.some((p) => this.data.hasAny(node, p)) || t.objectsOf.some((p) => this.data.hasSubjectOf(p, node));
  }

  /** The SHACL instances of a class in the data graph (rdf:type of it or of a subclass). */
  private instancesOf(cls: number): ReadonlySet<number> {
    const known = this.instances.get(cls);
    if (known !== undefined) return known;
    const out = new Set<number>();
    this.instances.set(cls, out);
    for (const c of this.subclassesOf(cls)) for (const n of this.data.subjects(this.rdfType, c)) out.add(n);
    return out;
  }

  /** A class and its subclasses in the data graph. */
  private subclassesOf(cls: number): Set<number> {
    const classes = new Set<number>([cls]);
    const stack = [cls];
    while (stack.length > 0) {
      for (const sub of this.data.subjects(this.subClassOf, stack.pop()!)) {
        if (classes.has(sub)) continue;
        classes.add(sub);
        stack.push(sub);
      }
    }
    return classes;
  }

  /** The classes a class is a subclass of (itself included), in the data graph. */
  private superclassesOf(cls: number): ReadonlySet<number> {
    let out = this.superclasses.get(cls);
    if (out === undefined) {
      const set = new Set<number>([cls]);
      const stack = [cls];
      while (stack.length > 0) {
        for (const sup of this.data.objects(stack.pop()!, this.subClassOf)) {
          if (set.has(sup)) continue;
          set.add(sup);
          stack.push(sup);
        }
      }
      this.superclasses.set(cls, (out = set));
    }
    return out;
  }

  /** Whether `node` is a SHACL instance of `cls` in the data graph. */
  isInstance(node: number, cls: number): boolean {
    if (this.rdfType < 0 || cls < 0) return false;
    for (const t of this.data.objects(node, this.rdfType)) if (t === cls || this.superclassesOf(t).has(cls)) return true;
    return false;
  }

  /** Whether `node` conforms to the shape at `shapeNode` (remembered). */
  conforms(shapeNode: number, node: number): boolean {
    let byNode = this.conformance.get(shapeNode);
    const known = byNode?.get(node);
    if (known !== undefined) return known;
    const key = `${shapeNode} ${node}`;
    // a recursive shape (undefined in SHACL): assume conformance while it is checked
    if (this.checking.has(key)) return true;
    this.checking.add(key);
    let ok: boolean;
    try {
      ok = this.validateShape(this.shapes.shape(shapeNode), node, null);
    } finally {
      this.checking.delete(key);
    }
    if (byNode === undefined) this.conformance.set(shapeNode, (byNode = new Map<number, boolean>()));
    byNode.set(node, ok);
    return ok;
  }

  /** The value nodes of a shape at a focus node. */
  valueNodes(shape: Shape, focus: number): number[] {
    const path = shape.path;
    if (path === undefined) return [focus];
    // (the objects of one subject and predicate are distinct: no set needed)
    if (path.kind === 'predicate') return this.data.objects(focus, path.predicate);
    return [...pathValues(this.data, path, focus)];
  }

  /** Validates `focus` against a shape; results go to `out` (or, with null, stops at the first). Returns whether it conforms. */
  validateShape(shape: Shape, focus: number, out: Out): boolean {
    if (shape.deactivated) return true;
    const values = this.valueNodes(shape, focus);
    let ok = true;
    for (const c of shape.constraints) {
      if (!this.check(shape, c, focus, values, out)) {
        ok = false;
        if (out === null) return false;
      }
    }
    return ok;
  }

  /** Adds a result (when collecting); always returns false, for `return this.fail(…)`. */
  fail(out: Out, shape: Shape, c: Constraint, focus: number, value: number | undefined, extra?: { readonly path?: ShaclPath; readonly messages?: readonly RDF.Literal[]; readonly constraint?: number }): false {
    if (out === null) return false;
    const path = extra?.path ?? shape.path;
    const messages = extra?.messages !== undefined && extra.messages.length > 0 ? extra.messages : shape.messages;
    out.push({
      focusNode: focus,
      ...(path !== undefined ? { resultPath: path } : {}),
      ...(value !== undefined ? { value } : {}),
      sourceShape: shape.node,
      sourceConstraintComponent: c.component,
      ...(extra?.constraint !== undefined ? { sourceConstraint: extra.constraint } : {}),
      severity: shape.severity,
      messages,
    });
    return false;
  }

  /** Checks each value node with `test`; a result for each that fails. */
  private each(shape: Shape, c: Constraint, focus: number, values: readonly number[], out: Out, test: (v: number) => boolean): boolean {
    let ok = true;
    for (const v of values) {
      if (test(v)) continue;
      ok = this.fail(out, shape, c, focus, v);
      if (out === null) return false;
    }
    return ok;
  }

  /** The text of an IRI or literal (undefined for a blank node or a triple term). */
  private text(v: number): string | undefined {
    const t = this.terms.term(v);
    return t.termType === 'NamedNode' || t.termType === 'Literal' ? t.value : undefined;
  }

  /** The order of two terms as SPARQL's `<` sees them, or undefined when they cannot be compared. */
  private compare(a: number, b: number): number | undefined {
    try {
      const c = valueCompare(this.terms.term(a), this.terms.term(b));
      return Number.isNaN(c) ? undefined : c;
    } catch {
      return undefined;
    }
  }

  private check(shape: Shape, c: Constraint, focus: number, values: readonly number[], out: Out): boolean {
    switch (c.type) {
      case 'class':
        return this.each(shape, c, focus, values, out, (v) => this.isInstance(v, c.cls));
      case 'datatype': {
        const iri = this.terms.iriOf(c.datatype);
        return this.each(shape, c, focus, values, out, (v) => {
          const lit = this.terms.literal(v);
          if (lit === undefined || iri === undefined) return false;
          const dt = lit.language !== '' ? RDF_LANG_STRING : lit.datatype.value;
          return dt === iri && decode(lit).kind !== 'invalid';
        });
      }
      case 'nodeKind':
        return this.each(shape, c, focus, values, out, (v) => {
          const kind = this.terms.isIri(v) ? 'IRI' : this.terms.isBlank(v) ? 'BlankNode' : this.terms.isLiteral(v) ? 'Literal' : '';
          switch (c.kind) {
            case 'BlankNodeOrIRI':
              return kind === 'IRI' || kind === 'BlankNode';
            case 'BlankNodeOrLiteral':
              return kind === 'Literal' || kind === 'BlankNode';
            case 'IRIOrLiteral':
              return kind === 'IRI' || kind === 'Literal';
            default:
              return kind === c.kind;
          }
        });
      case 'minCount':
        return values.length >= c.n || this.fail(out, shape, c, focus, undefined);
      case 'maxCount':
        return values.length <= c.n || this.fail(out, shape, c, focus, undefined);
      case 'minLength':
      case 'maxLength':
        return this.each(shape, c, focus, values, out, (v) => {
          const s = this.text(v);
          if (s === undefined) return false;
          const n = [...s].length;
          return c.type === 'minLength' ? n >= c.n : n <= c.n;
        });
      case 'minExclusive':
      case 'minInclusive':
      case 'maxExclusive':
      case 'maxInclusive':
        return this.each(shape, c, focus, values, out, (v) => {
          const r = this.compare(v, c.bound);
          if (r === undefined) return false;
          return c.type === 'minExclusive' ? r > 0 : c.type === 'minInclusive' ? r >= 0 : c.type === 'maxExclusive' ? r < 0 : r <= 0;
        });
      case 'pattern':
        return this.each(shape, c, focus, values, out, (v) => {
          const s = this.text(v);
          return s !== undefined && regexMatches(s, c.pattern, c.flags);
        });
      case 'languageIn':
        return this.each(shape, c, focus, values, out, (v) => {
          const lang = this.terms.literal(v)?.language.toLowerCase() ?? '';
          return lang !== '' && c.languages.some((range) => range === '*' || lang === range || lang.startsWith(`${range}-`));
        });
      case 'uniqueLang': {
        if (shape.path === undefined) return true;
        const seen = new Map<string, number>();
        for (const v of values) {
          const lang = this.terms.literal(v)?.language.toLowerCase() ?? '';
          if (lang !== '') seen.set(lang, (seen.get(lang) ?? 0) + 1);
        }
        let ok = true;
        for (const n of seen.values()) {
          if (n < 2) continue;
          ok = this.fail(out, shape, c, focus, undefined);
          if (out === null) return false;
        }
        return ok;
      }
      case 'equals':
      case 'disjoint': {
        const other = new Set(this.data.objects(focus, c.predicate));
        const mine = new Set(values);
        let ok = true;
        if (c.type === 'equals') {
          for (const v of mine) if (!other.has(v) && !(ok = this.fail(out, shape, c, focus, v)) && out === null) return false;
          for (const v of other) if (!mine.has(v) && !(ok = this.fail(out, shape, c, focus, v)) && out === null) return false;
        } else {
          for (const v of mine) if (other.has(v) && !(ok = this.fail(out, shape, c, focus, v)) && out === null) return false;
        }
        return ok;
      }
      case 'lessThan':
      case 'lessThanOrEquals': {
        if (shape.path === undefined) return true;
        const other = this.data.objects(focus, c.predicate);
        let ok = true;
        for (const v of values) {
          for (const w of other) {
            const r = this.compare(v, w);
            if (r !== undefined && (c.type === 'lessThan' ? r < 0 : r <= 0)) continue;
            ok = this.fail(out, shape, c, focus, v);
            if (out === null) return false;
          }
        }
        return ok;
      }
      case 'not':
        return this.each(shape, c, focus, values, out, (v) => !this.conforms(c.shape, v));
      case 'node':
        return this.each(shape, c, focus, values, out, (v) => this.conforms(c.shape, v));
      case 'and':
        return this.each(shape, c, focus, values, out, (v) => c.shapes.every((s) => this.conforms(s, v)));
      case 'or':
        return this.each(shape, c, focus, values, out, (v) => c.shapes.some((s) => this.conforms(s, v)));
      case 'xone':
        return this.each(shape, c, focus, values, out, (v) => c.shapes.filter((s) => this.conforms(s, v)).length === 1);
      case 'property': {
        const property = this.shapes.shape(c.shape);
        let ok = true;
        for (const v of values) {
          if (out === null) {
            if (!this.conforms(c.shape, v)) return false;
          } else if (!this.validateShape(property, v, out)) ok = false;
        }
        return ok;
      }
      case 'qualified': {
        if (shape.path === undefined) return true;
        const siblings = new Set<number>();
        if (c.disjoint) {
          for (const parent of this.shapes.parentsOf(shape.node)) {
            for (const sibling of this.shapes.propertiesOf(parent)) {
              if (sibling === shape.node) continue;
              for (const q of this.shapes.qualifiedShapesOf(sibling)) if (q !== c.shape) siblings.add(q);
            }
          }
        }
        let count = 0;
        for (const v of values) {
          if (!this.conforms(c.shape, v)) continue;
          let other = false;
          for (const s of siblings) if (this.conforms(s, v)) other = true;
          if (!other) count++;
        }
        if (c.min !== undefined && count < c.min) return this.fail(out, shape, c, focus, undefined);
        if (c.max !== undefined && count > c.max) return this.fail(out, shape, c, focus, undefined);
        return true;
      }
      case 'closed': {
        let ok = true;
        for (const v of values) {
          const edges = this.data.outgoing(v);
          for (let i = 0; i < edges.length; i += 2) {
            const p = edges[i]!;
            if (c.allowed.has(p)) continue;
            ok = this.fail(out, shape, c, focus, edges[i + 1], { path: { kind: 'predicate', predicate: p } });
            if (out === null) return false;
          }
        }
        return ok;
      }
      case 'hasValue':
        return values.includes(c.value) || this.fail(out, shape, c, focus, undefined);
      case 'in':
        return this.each(shape, c, focus, values, out, (v) => c.values.has(v));
      case 'sparql':
      case 'custom':
        if (this.sparql === undefined) throw new Error('SPARQL constraints were not prepared');
        return this.sparql.check(this, shape, c, focus, values, out);
    }
  }
}

