/**
 * Term ids and the RDF terms they stand for, as validation needs them: the ids of vocabulary
 * IRIs (-1 when the store has never seen the IRI), and the term object of an id, made once
 * per validation.
 * @module
 */
import type * as RDF from '@rdfjs/types/data-model.js';
import type { TermDictionary } from '../model/dictionary.js';
import { type FactTerm, KIND_BLANK, KIND_IRI, KIND_LITERAL, keyToTerm } from '../model/terms.js';

/** The terms of one validation's ids. */
export class TermTable {
  private readonly terms = new Map<number, FactTerm>();
  private readonly iris = new Map<string, number>();

  /** Terms of the store with this dictionary. */
  constructor(readonly dictionary: TermDictionary) {}

  /** The id of an IRI, or -1 when the store does not know it. */
  iri(iri: string): number {
    let id = this.iris.get(iri);
    if (id === undefined) {
      id = this.dictionary.lookup(`<${iri}>`);
      this.iris.set(iri, id);
    }
    return id;
  }

  /** The IRIs asked for that the store did not know then. */
  unknownIris(): string[] {
    return [...this.iris].filter(([, id]) => id < 0).map(([iri]) => iri);
  }

  /** The number of terms made so far. */
  get termCount(): number {
    return this.terms.size;
  }

  /** The RDF term of an id. */
  term(id: number): FactTerm {
    let t = this.terms.get(id);
    if (t === undefined) {
      t = keyToTerm(this.dictionary.keyOf(id));
      this.terms.set(id, t);
    }
    return t;
  }

  /** The literal of an id, or undefined when the id is not a literal. */
  literal(id: number): RDF.Literal | undefined {
    if (!this.isLiteral(id)) return undefined;
    return this.term(id) as RDF.Literal;
  }

  /** The IRI string of an id, or undefined when it is not an IRI. */
  iriOf(id: number): string | undefined {
    return this.isIri(id) ? this.term(id).value : undefined;
  }

  /** Whether the id is an IRI. */
  isIri(id: number): boolean {
    return id >= 0 && this.dictionary.kindOf(id) === KIND_IRI;
  }

  /** Whether the id is a blank node. */
  isBlank(id: number): boolean {
    return id >= 0 && this.dictionary.kindOf(id) === KIND_BLANK;
  }

  /** Whether the id is a literal. */
  isLiteral(id: number): boolean {
    return id >= 0 && this.dictionary.kindOf(id) === KIND_LITERAL;
  }

  /** The id of a term, interning it when the store does not hold it yet (terms a SPARQL constraint computes). */
  idOf(term: FactTerm, key: string): number {
    const id = this.dictionary.lookup(key);
    if (id >= 0) return id;
    const added = this.dictionary.intern(key);
    this.terms.set(added, term);
    return added;
  }
}
