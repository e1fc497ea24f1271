/**
 * An index over the triples of one graph for reading OWL axioms: objects by subject and
 * predicate, triples by predicate, RDF collections (`rdf:first`/`rdf:rest` lists), and a record
 * of which triples were read, so that what was not understood can be reported.
 * @module
 */
import type * as RDF from '@rdfjs/types/data-model.js';
import { DataFactory } from 'n3';
import { termToKey } from '../model/terms.js';
import { V } from './vocabulary.js';

/** A term that can be the subject of a triple. */
export type SubjectTerm = RDF.NamedNode | RDF.BlankNode;
/** A term that can be the object of a triple. */
export type ObjectTerm = RDF.NamedNode | RDF.BlankNode | RDF.Literal;

/** A triple of the graph (graph component dropped). */
export interface Triple {
  /** Subject. */
  readonly s: SubjectTerm;
  /** Predicate IRI. */
  readonly p: string;
  /** Object. */
  readonly o: ObjectTerm;
  /** Position in {@link OntologyGraph.triples}. */
  readonly index: number;
}

/**
 * The key of a term in the axiom graph and in axiom texts: the store's canonical key
 * (`model/terms.ts`: `<iri>`, `_:label`, a literal in its canonical form), `?name` for a variable.
 */
export function termKey(term: RDF.Term): string {
  return term.termType === 'Variable' ? `?${term.value}` : termToKey(term);
}

/** A cheap string identifying a term (for indexing; not for display). */
function idOf(term: RDF.Term): string {
  switch (term.termType) {
    case 'NamedNode':
      return `<${term.value}`;
    case 'BlankNode':
      return `_${term.value}`;
    case 'Literal':
      return term.language !== '' ? `"${term.value}\u0000@${term.language}` : `"${term.value}\u0000${term.datatype.value}`;
    default:
      return `?${term.value}`;
  }
}

/** The triples of one subject and predicate. */
interface Objects {
  readonly terms: ObjectTerm[];
  readonly ids: string[];
  readonly triples: number[];
  /** Ids of `terms`, once there are many of them. */
  set?: Set<string>;
}

/** Thrown by {@link OntologyGraph.list} for a malformed RDF list. */
export class MalformedListError extends Error {}

const NO_OBJECTS: readonly ObjectTerm[] = [];

/** The triples of one graph, indexed for axiom reading. */
export class OntologyGraph {
  /** The distinct triples (IRI or blank node subject, IRI predicate), in input order. */
  readonly triples: readonly Triple[];
  private readonly bySubject = new Map<string, Map<string, Objects>>();
  private readonly byPredicate = new Map<string, Triple[]>();
  private readonly consumed: Uint8Array;

  /** Indexes the quads (their graph component is ignored, duplicate triples are dropped). */
  constructor(quads: readonly RDF.Quad[]) {
    const triples: Triple[] = [];
    for (const q of quads) {
      const s = q.subject;
      const o = q.object;
      if (s.termType !== 'NamedNode' && s.termType !== 'BlankNode') continue;
      if (q.predicate.termType !== 'NamedNode') continue;
      if (o.termType !== 'NamedNode' && o.termType !== 'BlankNode' && o.termType !== 'Literal') continue;
      const p = q.predicate.value;
      const sid = idOf(s);
      let preds = this.bySubject.get(sid);
      if (!preds) this.bySubject.set(sid, (preds = new Map<string, Objects>()));
      let objects = preds.get(p);
      if (!objects) preds.set(p, (objects = { terms: [], ids: [], triples: [] }));
      const oid = idOf(o);
      if (objects.set ? objects.set.has(oid) : objects.ids.includes(oid)) continue;
      const t: Triple = { s, p, o, index: triples.length };
      triples.push(t);
      objects.terms.push(o);
      objects.ids.push(oid);
      objects.triples.push(t.index);
      if (objects.set) objects.set.add(oid);
      else if (objects.ids.length > 16) objects.set = new Set(objects.ids);
      let list = this.byPredicate.get(p);
      if (!list) this.byPredicate.set(p, (list = []));
      list.push(t);
    }
    this.triples = triples;
    this.consumed = new Uint8Array(triples.length);
  }

  /** The objects of `subject predicate ?o`. */
  objects(subject: RDF.Term, predicate: string): readonly ObjectTerm[] {
    return this.bySubject.get(idOf(subject))?.get(predicate)?.terms ?? NO_OBJECTS;
  }

  /** The predicates used with `subject`. */
  predicates(subject: RDF.Term): readonly string[] {
    return [...(this.bySubject.get(idOf(subject))?.keys() ?? [])];
  }

  /** The triples with predicate `predicate`. */
  withPredicate(predicate: string): readonly Triple[] {
    return this.byPredicate.get(predicate) ?? [];
  }

  /** Whether the triple `subject rdf:type type` is in the graph. */
  hasType(subject: RDF.Term, type: string): boolean {
    return this.objects(subject, V.type).some((o) => o.termType === 'NamedNode' && o.value === type);
  }

  /** Records that a triple was read (understood); nothing when it is not in the graph. */
  consume(s: RDF.Term, p: string, o: RDF.Term): void {
    const objects = this.bySubject.get(idOf(s))?.get(p);
    if (!objects) return;
    const i = objects.ids.indexOf(idOf(o));
    if (i >= 0) this.consumed[objects.triples[i]!] = 1;
  }

  /** Records that every triple `subject predicate ?o` was read. */
  consumeAll(subject: RDF.Term, predicate: string): void {
    const objects = this.bySubject.get(idOf(subject))?.get(predicate);
    if (objects) for (const i of objects.triples) this.consumed[i] = 1;
  }

  /** Whether a triple of the graph was read. */
  isConsumed(t: Triple): boolean {
    return this.consumed[t.index] === 1;
  }

  /**
   * The members of the RDF list starting at `head`, marking its `rdf:first`/`rdf:rest`
   * (and `rdf:type rdf:List`) triples as read.
   * @throws MalformedListError when the list is not well formed: a node without exactly one
   * `rdf:first` and one `rdf:rest`, a literal or cycle in the spine, or an end other than `rdf:nil`.
   */
  list(head: RDF.Term): ObjectTerm[] {
    const members: ObjectTerm[] = [];
    const visited = new Set<string>();
    let node: RDF.Term = head;
    for (;;) {
      if (node.termType === 'NamedNode' && node.value === V.nil) return members;
      const key = termKey(node);
      if (node.termType === 'Literal') throw new MalformedListError(`malformed RDF list: ${key} is a literal, not a list node`);
      if (visited.has(key)) throw new MalformedListError(`malformed RDF list: cycle through ${key}`);
      visited.add(key);
      const firsts = this.objects(node, V.first);
      const rests = this.objects(node, V.rest);
      // marked read even when malformed: the problem is reported once, for the list
      this.consumeAll(node, V.first);
      this.consumeAll(node, V.rest);
      if (firsts.length === 0 && rests.length === 0) {
        throw new MalformedListError(members.length === 0 ? `malformed RDF list: ${key} is not a list (no rdf:first/rdf:rest)` : `malformed RDF list: it ends in ${key} instead of rdf:nil`);
      }
      if (firsts.length !== 1) throw new MalformedListError(`malformed RDF list: node ${key} has ${firsts.length} rdf:first values`);
      if (rests.length !== 1) throw new MalformedListError(`malformed RDF list: node ${key} has ${rests.length} rdf:rest values`);
      if (this.hasType(node, V.List)) this.consume(node, V.type, DataFactory.namedNode(V.List));
      members.push(firsts[0]!);
      node = rests[0]!;
    }
  }
}
