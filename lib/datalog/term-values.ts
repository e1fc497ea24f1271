/**
 * Term ids ⇄ RDF/JS values for expression evaluation, with a cache of decoded ids. One cache
 * lives for one reasoning run (ids interned by a rolled-back transaction are reused later).
 * @module
 */
import type * as RDF from '@rdfjs/types/data-model.js';
import type { TermDictionary } from '../model/dictionary.js';
import { internSkolem } from '../model/skolem.js';
import { KIND_BLANK, KIND_IRI, keyToTerm, termToKey } from '../model/terms.js';
import type { SkolemTerms } from './skolem.js';
import type { TripleTermIndex } from '../model/triple-terms.js';
import type { TripleTermAccess } from './triple-term-patterns.js';

/** A value an expression works on. */
export type TermValue = RDF.NamedNode | RDF.BlankNode | RDF.Literal | RDF.Quad;

/** Decodes and encodes terms for one run, and makes the terms of SKOLEM atoms and of triple term patterns. */
export class TermValues implements SkolemTerms, TripleTermAccess {
  private readonly cache = new Map<number, TermValue>();
  /** SKOLEM terms made in this run, by their inputs (ids joined by commas). */
  private readonly skolems = new Map<string, number>();

  /** Creates the cache over a dictionary. */
  constructor(private readonly dictionary: TermDictionary) {}

  /** The value of an id. */
  value(id: number): TermValue {
    let v = this.cache.get(id);
    if (v === undefined) {
      v = keyToTerm(this.dictionary.keyOf(id));
      this.cache.set(id, v);
    }
    return v;
  }

  /** The id of a value (interned if new). */
  id(value: TermValue): number {
    const id = this.dictionary.intern(termToKey(value));
    if (!this.cache.has(id)) this.cache.set(id, value);
    return id;
  }

  /** The canonical key of an id (see model/terms.ts). */
  key(id: number): string {
    return this.dictionary.keyOf(id);
  }

  /** The id of a canonical key (interned if new). */
  internKey(key: string): number {
    return this.dictionary.intern(key);
  }

  /** The id of the SKOLEM term of `inputs` (interned if new, and remembered for unpacking). */
  skolem(inputs: Uint32Array): number {
    const key = inputs.join(',');
    let id = this.skolems.get(key);
    if (id === undefined) this.skolems.set(key, (id = internSkolem(this.dictionary, inputs)));
    return id;
  }

  /** The dictionary's triple terms, by their parts. */
  get tripleTerms(): TripleTermIndex {
    return this.dictionary.tripleTerms;
  }

  /**
   * The id of the triple term with these parts (interned if new); -1 when the subject is not
   * an IRI or a blank node, or the predicate not an IRI.
   */
  buildTripleTerm(subject: number, predicate: number, object: number): number {
    const found = this.dictionary.tripleTerms.find(subject, predicate, object);
    if (found >= 0) return found;
    const s = this.key(subject);
    const p = this.key(predicate);
    const sk = s.charCodeAt(0);
    if ((sk !== KIND_IRI && sk !== KIND_BLANK) || p.charCodeAt(0) !== KIND_IRI) return -1;
    return this.internKey(`(${s} ${p} ${this.key(object)})`);
  }

  /** The inputs SKOLEM made term `id` from, or undefined when it did not make it in this store. */
  skolemInputs(id: number): Uint32Array | undefined {
    return this.dictionary.skolemInputs(id);
  }
}
