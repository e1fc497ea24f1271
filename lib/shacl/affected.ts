/**
 * The focus nodes whose validation result a change can alter, for validating a commit
 * incrementally: validating only those (with {@link ShaclOptions.focusNodes}) and keeping the
 * other results of the validation before the change gives the result of a full validation.
 *
 * Validation of a focus node reads triples of the data graph at "evaluation nodes": the
 * focus node itself (its targets: rdf:type, the predicates of sh:targetSubjectsOf and
 * sh:targetObjectsOf; sh:equals and its kin) and the nodes the shapes' paths reach from it,
 * through nested shapes (sh:node, sh:property, sh:and … applied to value nodes), where
 * sh:class reads rdf:type and sh:closed reads every triple. A changed triple is read only at
 * its subject or its object, so the affected focus nodes are among the nodes from which the
 * ends of a changed triple are reached by following the shapes' path predicates (in their
 * direction) at most as many steps as the shapes can take (unbounded with `*`, `+` or
 * recursive shapes). A path that existed only before the change passes through a removed
 * triple whose end nearer the focus node is reached by triples that are still there, so the
 * walk is made backwards in the state after the change (the selection's state must be it).
 *
 * 'all' when the change can alter the shapes themselves (a change in the shapes graph, or,
 * when it is the data graph too, to a node of a shape's structure, a triple with a SHACL
 * predicate or a class declaration), when rdfs:subClassOf changes (targets by class and
 * sh:class read the subclass hierarchy), when the shapes hold SPARQL constraints (which may
 * read anything), and when the shapes cannot be read.
 * @module
 */
import type { TransactionChanges } from '../storage/change-log.js';
import { DEFAULT_TRIPLES_ID, QUADS_ID } from '../storage/fact-store.js';
import { ShaclShapeError } from './errors.js';
import { pathSteps } from './paths.js';
import type { ShaclDataSelection } from './types.js';
import { Validation } from './validator.js';
import { RDF_TYPE, RDFS_CLASS, RDFS_SUBCLASS_OF, SH } from './vocabulary.js';

/** What the shapes read: the predicates their paths follow forwards and backwards, and the most steps from a focus node. */
interface Reach {
  readonly forward: Set<number>;
  readonly backward: Set<number>;
  depth: number;
}

/** The steps from a shape's focus node to its deepest evaluation node (Infinity when recursive or unbounded). */
function shapeDepth(validation: Validation, node: number, reach: Reach, active: Set<number>, known: Map<number, number>): number {
  const cached = known.get(node);
  if (cached !== undefined) return cached;
  if (active.has(node)) return Infinity;
  active.add(node);
  const shape = validation.shapes.shape(node);
  const base = shape.path === undefined ? 0 : pathSteps(shape.path, reach.forward, reach.backward);
  let nested = 0;
  const visit = (n: number): void => void (nested = Math.max(nested, shapeDepth(validation, n, reach, active, known)));
  for (const c of shape.constraints) {
    switch (c.type) {
      case 'not':
      case 'node':
      case 'property':
        visit(c.shape);
        break;
      case 'and':
      case 'or':
      case 'xone':
        c.shapes.forEach(visit);
        break;
      case 'qualified':
        visit(c.shape);
        for (const parent of validation.shapes.parentsOf(node)) for (const sibling of validation.shapes.propertiesOf(parent)) validation.shapes.qualifiedShapesOf(sibling).forEach(visit);
        break;
      default:
        break;
    }
  }
  active.delete(node);
  const depth = base + nested;
  known.set(node, depth);
  return depth;
}

/** The changed triples of the data graph, as [s, p, o, …], or 'all' when the shapes graph changed. */
function changedTriples(selection: ShaclDataSelection, changes: TransactionChanges): number[] | 'all' {
  const out: number[] = [];
  for (const [table, delta] of changes) {
    for (const tuples of [delta.added, delta.removed]) {
      for (let i = 0; i + delta.arity <= tuples.length; i += delta.arity) {
        const graph: number | 'default' | undefined = table === DEFAULT_TRIPLES_ID ? 'default' : table === QUADS_ID ? tuples[i + 3]! : undefined;
        if (graph === undefined) continue;
        const inData = graph === selection.dataGraph;
        if (graph === selection.shapesGraph && !inData) return 'all';
        if (inData) out.push(tuples[i]!, tuples[i + 1]!, tuples[i + 2]!);
      }
    }
  }
  return out;
}

/**
 * The focus nodes whose validation result `changes` (the net added and removed facts per
 * table, as the commit feed gives them; for the selection's fact domain) can alter, for the
 * shapes of the selection, whose state is the one after the changes; 'all' when it cannot
 * tell (see the module documentation). The set may hold nodes that are no focus node.
 */
export function affectedFocusNodes(selection: ShaclDataSelection, changes: TransactionChanges): Set<number> | 'all' {
  const triples = changedTriples(selection, changes);
  if (triples === 'all') return 'all';
  const affected = new Set<number>();
  if (triples.length === 0) return affected;
  const validation = new Validation(selection);
  if (validation.hasSparql()) return 'all';
  const terms = validation.terms;
  const reach: Reach = { forward: new Set(), backward: new Set(), depth: 0 };
  try {
    const known = new Map<number, number>();
    for (const node of validation.shapes.targetedShapes()) reach.depth = Math.max(reach.depth, shapeDepth(validation, node, reach, new Set(), known));
  } catch (e) {
    if (e instanceof ShaclShapeError) return 'all';
    throw e;
  }
  const sameGraph = selection.shapesGraph === selection.dataGraph;
  const subClassOf = terms.iri(RDFS_SUBCLASS_OF);
  const type = terms.iri(RDF_TYPE);
  const classMarks = new Set([terms.iri(RDFS_CLASS), terms.iri(`${SH}NodeShape`), terms.iri(`${SH}PropertyShape`)]);
  const structure = validation.shapes.structure;
  for (let i = 0; i < triples.length; i += 3) {
    const s = triples[i]!;
    const p = triples[i + 1]!;
    const o = triples[i + 2]!;
    if (p === subClassOf) return 'all';
    if (sameGraph && (structure.has(s) || terms.iriOf(p)?.startsWith(SH) === true || (p === type && classMarks.has(o)))) return 'all';
    affected.add(s);
    affected.add(o);
  }
  // backwards along the path predicates, as many steps as the shapes take
  const data = validation.data;
  let frontier = [...affected];
  for (let step = 0; step < reach.depth && frontier.length > 0; step++) {
    const next: number[] = [];
    const add = (n: number): void => {
      if (affected.has(n)) return;
      affected.add(n);
      next.push(n);
    };
    for (const x of frontier) {
      for (const p of reach.forward) for (const n of data.subjects(p, x)) add(n);
      for (const p of reach.backward) for (const n of data.objects(x, p)) add(n);
    }
    frontier = next;
  }
  return affected;
}
