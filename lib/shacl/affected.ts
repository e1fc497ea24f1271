/**
 * The focus nodes whose validation result a change can alter, for validating a commit
 * incrementally: validating only those (with {@link ShaclOptions.focusNodes}) and keeping the
 * other results of the validation before the change gives the result of a full validation.
 *
 * Validation of a focus node reads triples of the data graph at "evaluation nodes": the
 * focus node itself (its targets: rdf:type, the predicates of sh:targetSubjectsOf and
 * sh:targetObjectsOf; sh:equals and its kin) and the nodes the shapes' paths reach from it,
 * through nested shapes (sh:node, sh:property, sh:and … applied to value nodes), where
 * sh:class reads rdf:type and sh:closed reads every triple. The affected focus nodes are found
 * backwards from where a changed triple is read: the shapes become an automaton whose states
 * are the places of an evaluation (a shape's focus node, each step of its path, its value
 * nodes, the shapes nested there), each knowing which triples it reads (a step forwards reads
 * the triples of its predicate at their subject, a step backwards at their object, sh:class
 * rdf:type at the subject, sh:closed every triple at the subject), and the walk goes from
 * each changed triple's end in each state that reads it back through the transitions (a
 * path's predicate followed the other way, or into the shape the value nodes came from) to
 * the focus nodes of targeted shapes; both ends of every changed triple are affected too (its
 * targets may have changed). A path that existed only before the change passes through a
 * removed triple whose end nearer the focus node is reached by triples that are still there,
 * so the walk reads the state after the change (the selection's state must be it).
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
import { ANY } from '../storage/tuple-table.js';
import type { CompiledShapes } from './compiled.js';
import { ShaclShapeError } from './errors.js';
import type { ShapesGraph } from './shapes.js';
import type { ShaclDataSelection, ShaclPath } from './types.js';
import { Validation } from './validator.js';
import { RDF_TYPE, RDFS_CLASS, RDFS_SUBCLASS_OF, SH } from './vocabulary.js';

/**
 * The places of validation as an automaton: a state per point of a shape's evaluation (a
 * shape's focus node, each step of its path, its value nodes), with transitions that follow a
 * predicate forwards or backwards and empty ones (from value nodes into the shapes nested
 * there). A node reached in any state is read there.
 */
class Places {
  /** Incoming transitions by state: [from, predicate, direction (1 forwards, -1 backwards, 0 empty)], flattened. */
  private readonly incoming: number[][] = [];
  /** The entry state of each shape read. */
  private readonly entries = new Map<number, number>();
  /**
   * Where triples are read, by predicate (ANY: every predicate): the states whose node is the
   * subject of the triples read there (a step forwards, rdf:type for sh:class, sh:equals and
   * its kin, sh:closed) and those whose node is the object (a step backwards).
   */
  readonly readsSubject = new Map<number, number[]>();
  /** See {@link Places.readsSubject}. */
  readonly readsObject = new Map<number, number[]>();

  /** The places of the shapes of a validation. */
  constructor(private readonly validation: Validation) {}

  private read(index: Map<number, number[]>, predicate: number, state: number): void {
    let states = index.get(predicate);
    if (states === undefined) index.set(predicate, (states = []));
    states.push(state);
  }

  /** The number of states. */
  get size(): number {
    return this.incoming.length;
  }

  /** The incoming transitions of a state. */
  into(state: number): readonly number[] {
    return this.incoming[state]!;
  }

  private state(): number {
    this.incoming.push([]);
    return this.incoming.length - 1;
  }

  private edge(from: number, to: number, predicate: number, direction: number): void {
    this.incoming[to]!.push(from, predicate, direction);
    if (direction !== 0) this.read(direction > 0 ? this.readsSubject : this.readsObject, predicate, from);
  }

  /** The entry state of a shape (built on first use; recursive shapes loop back to it). */
  entry(node: number): number {
    const known = this.entries.get(node);
    if (known !== undefined) return known;
    const entry = this.state();
    this.entries.set(node, entry);
    const shape = this.validation.shapes.shape(node);
    const values = shape.path === undefined ? entry : this.path(shape.path, entry, false);
    const nest = (n: number): void => this.edge(values, this.entry(n), -1, 0);
    for (const c of shape.constraints) {
      switch (c.type) {
        case 'class':
          this.read(this.readsSubject, this.validation.terms.iri(RDF_TYPE), values);
          break;
        case 'closed':
          this.read(this.readsSubject, ANY, values);
          break;
        case 'equals':
        case 'disjoint':
        case 'lessThan':
        case 'lessThanOrEquals':
          this.read(this.readsSubject, c.predicate, entry);
          break;
        case 'not':
        case 'node':
        case 'property':
          nest(c.shape);
          break;
        case 'and':
        case 'or':
        case 'xone':
          c.shapes.forEach(nest);
          break;
        case 'qualified':
          nest(c.shape);
          for (const parent of this.validation.shapes.parentsOf(node)) for (const sibling of this.validation.shapes.propertiesOf(parent)) this.validation.shapes.qualifiedShapesOf(sibling).forEach(nest);
          break;
        default:
          break;
      }
    }
    return entry;
  }

  /** The states of a path from `from`; returns the state of its value nodes. */
  private path(path: ShaclPath, from: number, inverse: boolean): number {
    switch (path.kind) {
      case 'predicate': {
        const to = this.state();
        this.edge(from, to, path.predicate, inverse ? -1 : 1);
        return to;
      }
      case 'inverse':
        return this.path(path.path, from, !inverse);
      case 'sequence': {
        let at = from;
        for (const p of inverse ? [...path.paths].reverse() : path.paths) at = this.path(p, at, inverse);
        return at;
      }
      case 'alternative': {
        const to = this.state();
        for (const p of path.paths) this.edge(this.path(p, from, inverse), to, -1, 0);
        return to;
      }
      case 'zeroOrOne': {
        const to = this.path(path.path, from, inverse);
        this.edge(from, to, -1, 0);
        return to;
      }
      default: {
        // (zero or more, one or more: a loop; the start is a place of evaluation either way)
        const loop = this.state();
        this.edge(from, loop, -1, 0);
        const end = this.path(path.path, loop, inverse);
        this.edge(end, loop, -1, 0);
        return path.kind === 'zeroOrMore' ? loop : end;
      }
    }
  }
}

/** The places visited after which the walk gives up and answers 'all' (a few tens of milliseconds of walking). */
const MAX_VISITS = 100_000;

/** The automaton of compiled shapes (with the entry states of targeted shapes), or 'all' when the shapes cannot be read. */
const automata = new WeakMap<CompiledShapes, { places: Places; entries: Set<number> } | 'all'>();

/** The automaton of a validation's shapes, built once per compiled shapes. */
function automatonOf(validation: Validation): { places: Places; entries: Set<number> } | 'all' {
  const known = automata.get(validation.compiled);
  if (known !== undefined) return known;
  const places = new Places(validation);
  const entries = new Set<number>();
  let out: { places: Places; entries: Set<number> } | 'all' = { places, entries };
  try {
    for (const node of validation.shapes.targetedShapes()) entries.add(places.entry(node));
  } catch (e) {
    if (!(e instanceof ShaclShapeError)) throw e;
    out = 'all';
  }
  automata.set(validation.compiled, out);
  return out;
}

/** Whether a changed triple of the data graph can change the shapes, when the shapes graph is the data graph too. */
function touchesShapes(shapes: ShapesGraph, s: number, p: number, o: number): boolean {
  const terms = shapes.terms;
  return shapes.structure.has(s) || terms.iriOf(p)?.startsWith(SH) === true || (p === terms.iri(RDF_TYPE) && [RDFS_CLASS, `${SH}NodeShape`, `${SH}PropertyShape`].some((c) => terms.iri(c) === o));
}

/**
 * Whether `changes` can have changed the shapes `compiled` holds (read from the state before
 * the changes): a change in the shapes graph, or, when it is the data graph too, a triple at a
 * node of a shape's structure, with a SHACL predicate or declaring a class or shape.
 */
export function changesShapes(compiled: CompiledShapes, changes: TransactionChanges): boolean {
  const selection = compiled.selection;
  const triples = changedTriples(selection, changes);
  if (triples === 'all') return true;
  if (selection.shapesGraph !== selection.dataGraph || triples.length === 0) return false;
  for (let i = 0; i < triples.length; i += 3) if (touchesShapes(compiled.shapes, triples[i]!, triples[i + 1]!, triples[i + 2]!)) return true;
  return false;
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
 * tell (see the module documentation). The set may hold nodes that are no focus node. With
 * `compiled`, the shapes as read for an earlier state whose shapes graph held the same.
 */
export function affectedFocusNodes(selection: ShaclDataSelection, changes: TransactionChanges, compiled?: CompiledShapes): Set<number> | 'all' {
  const triples = changedTriples(selection, changes);
  if (triples === 'all') return 'all';
  const affected = new Set<number>();
  if (triples.length === 0) return affected;
  const validation = new Validation(selection, compiled);
  if (validation.hasSparql()) return 'all';
  const terms = validation.terms;
  const automaton = automatonOf(validation);
  if (automaton === 'all') return 'all';
  const { places, entries } = automaton;
  const sameGraph = selection.shapesGraph === selection.dataGraph;
  const subClassOf = terms.iri(RDFS_SUBCLASS_OF);
  for (let i = 0; i < triples.length; i += 3) {
    const s = triples[i]!;
    const p = triples[i + 1]!;
    const o = triples[i + 2]!;
    if (p === subClassOf) return 'all';
    if (sameGraph && touchesShapes(validation.shapes, s, p, o)) return 'all';
    affected.add(s);
    affected.add(o);
  }
  // backwards through the places: from each end of a changed triple in every state to the focus nodes of targeted shapes
  const data = validation.data;
  const seen: Set<number>[] = Array.from({ length: places.size }, () => new Set<number>());
  const stack: number[] = [];
  let visits = 0;
  const visit = (state: number, node: number): void => {
    const nodes = seen[state]!;
    if (nodes.has(node)) return;
    nodes.add(node);
    visits++;
    stack.push(state, node);
  };
  for (let i = 0; i < triples.length; i += 3) {
    const s = triples[i]!;
    const p = triples[i + 1]!;
    for (const state of places.readsSubject.get(p) ?? []) visit(state, s);
    for (const state of places.readsSubject.get(ANY) ?? []) visit(state, s);
    for (const state of places.readsObject.get(p) ?? []) visit(state, triples[i + 2]!);
  }
  while (stack.length > 0) {
    // a walk this long costs about as much as validating everything (and holds the event loop)
    if (visits > MAX_VISITS) return 'all';
    const node = stack.pop()!;
    const state = stack.pop()!;
    if (entries.has(state)) affected.add(node);
    const into = places.into(state);
    for (let i = 0; i < into.length; i += 3) {
      const from = into[i]!;
      const direction = into[i + 2]!;
      if (direction === 0) visit(from, node);
      else if (direction > 0) for (const n of data.subjects(into[i + 1]!, node)) visit(from, n);
      else for (const n of data.objects(node, into[i + 1]!)) visit(from, n);
    }
  }
  return affected;
}
