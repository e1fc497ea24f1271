/**
 * An index over the triples of one graph for reading OWL axioms: objects by subject and
 * predicate, subjects by predicate, RDF collections (`rdf:first`/`rdf:rest` lists), and a record
 * of which triples were read, so that what was not understood can be reported.
 * @module
 */
import type * as RDF from '@rdfjs/types';
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
}

/** A canonical string for a term: `<iri>`, `_:label`, or an N-Triples literal. */
export function termKey(term: RDF.Term): string {
  switch (term.termType) {
    case 'NamedNode':
      return `<${term.value}>`;
    case 'BlankNode':
      return `_:${term.value}`;
    case 'Literal': {
      const value = JSON.stringify(term.value);
      if (term.language !== '') return `${value}@${term.language}`;
      return `${value}^^<${term.datatype.value}>`;
    }
    default:
      return `?${term.value}`;
  }
}

function tripleKey(s: RDF.Term, p: string, o: RDF.Term): string {
  return `${termKey(s)} <${p}> ${termKey(o)}`;
}

/** Thrown by {@link OntologyGraph.list} for a malformed RDF list. */
export class MalformedListError extends Error {}

/** The triples of one graph, indexed for axiom reading. */
export class OntologyGraph {
  /** All triples (subject, predicate, object all of an admissible kind), in input order. */
  readonly triples: readonly Triple[];
  private readonly bySubject = new Map<string, Map<string, ObjectTerm[]>>();
  private readonly byPredicate = new Map<string, Triple[]>();
  private readonly references = new Map<string, number>();
  private readonly consumed = new Set<string>();

  constructor(quads: readonly RDF.Quad[]) {
    const triples: Triple[] = [];
    const seen = new Set<string>();
    for (const q of quads) {
      const s = q.subject;
      const o = q.object;
      if (s.termType !== 'NamedNode' && s.termType !== 'BlankNode') continue;
      if (q.predicate.termType !== 'NamedNode') continue;
      if (o.termType !== 'NamedNode' && o.termType !== 'BlankNode' && o.termType !== 'Literal') continue;
      const key = tripleKey(s, q.predicate.value, o);
      if (seen.has(key)) continue;
      seen.add(key);
      const t: Triple = { s, p: q.predicate.value, o };
      triples.push(t);
      const sk = termKey(s);
      let preds = this.bySubject.get(sk);
      if (!preds) this.bySubject.set(sk, (preds = new Map()));
      let objects = preds.get(t.p);
      if (!objects) preds.set(t.p, (objects = []));
      objects.push(o);
      let list = this.byPredicate.get(t.p);
      if (!list) this.byPredicate.set(t.p, (list = []));
      list.push(t);
      const ok = termKey(o);
      this.references.set(ok, (this.references.get(ok) ?? 0) + 1);
    }
    this.triples = triples;
  }

  /** The objects of `subject predicate ?o`. */
  objects(subject: RDF.Term, predicate: string): readonly ObjectTerm[] {
    return this.bySubject.get(termKey(subject))?.get(predicate) ?? [];
  }

  /** The predicates used with `subject`. */
  predicates(subject: RDF.Term): readonly string[] {
    return [...(this.bySubject.get(termKey(subject))?.keys() ?? [])];
  }

  /** The triples with predicate `predicate`. */
  withPredicate(predicate: string): readonly Triple[] {
    return this.byPredicate.get(predicate) ?? [];
  }

  /** Whether the triple `subject rdf:type type` is in the graph. */
  hasType(subject: RDF.Term, type: string): boolean {
    return this.objects(subject, V.type).some((o) => o.termType === 'NamedNode' && o.value === type);
  }

  /** How many triples have `term` as object. */
  referenceCount(term: RDF.Term): number {
    return this.references.get(termKey(term)) ?? 0;
  }

  /** Records that a triple was read (understood). */
  consume(s: RDF.Term, p: string, o: RDF.Term): void {
    this.consumed.add(tripleKey(s, p, o));
  }

  /** Records that every triple `subject predicate ?o` was read. */
  consumeAll(subject: RDF.Term, predicate: string): void {
    for (const o of this.objects(subject, predicate)) this.consume(subject, predicate, o);
  }

  /** Whether a triple was read. */
  isConsumed(t: Triple): boolean {
    return this.consumed.has(tripleKey(t.s, t.p, t.o));
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
      if (node.termType === 'Literal') throw new MalformedListError(`malformed RDF list: ${termKey(node)} is a literal, not a list node`);
      const key = termKey(node);
      if (visited.has(key)) throw new MalformedListError(`malformed RDF list: cycle through ${key}`);
      visited.add(key);
      const firsts = this.objects(node, V.first);
      const rests = this.objects(node, V.rest);
      // marked read even when malformed: the problem is reported once, for the list
      for (const f of firsts) this.consume(node, V.first, f);
      for (const r of rests) this.consume(node, V.rest, r);
      if (firsts.length === 0 && rests.length === 0) {
        throw new MalformedListError(
          node === head || members.length === 0 ? `malformed RDF list: ${key} is not a list (no rdf:first/rdf:rest)` : `malformed RDF list: it ends in ${key} instead of rdf:nil`,
        );
      }
      if (firsts.length !== 1) throw new MalformedListError(`malformed RDF list: node ${key} has ${firsts.length} rdf:first values`);
      if (rests.length !== 1) throw new MalformedListError(`malformed RDF list: node ${key} has ${rests.length} rdf:rest values`);
      const first = firsts[0]!;
      const rest = rests[0]!;
      for (const t of this.objects(node, V.type)) if (t.termType === 'NamedNode' && t.value === V.List) this.consume(node, V.type, t);
      members.push(first);
      node = rest;
    }
  }
}
