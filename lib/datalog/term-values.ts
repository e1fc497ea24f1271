/**
 * Term ids ⇄ RDF/JS values for expression evaluation, with a cache of decoded ids. One cache
 * lives for one reasoning run (ids interned by a rolled-back transaction are reused later).
 * @module
 */
import type * as RDF from '@rdfjs/types';
import type { TermDictionary } from '../model/dictionary.js';
import { keyToTerm, termToKey } from '../model/terms.js';

/** A value an expression works on. */
export type TermValue = RDF.NamedNode | RDF.BlankNode | RDF.Literal;

/** Decodes and encodes terms for one run. */
export class TermValues {
  private readonly cache = new Map<number, TermValue>();

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
}
