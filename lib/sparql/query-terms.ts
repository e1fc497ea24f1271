/**
 * Term ids during one query: the store's dictionary ids (>= 0), and query-local ids (<= -3)
 * for terms the store does not hold (constants of the query, values computed by BIND,
 * aggregates and casts, blank nodes of CONSTRUCT templates). -1 means unbound; -2 is kept for
 * the default graph.
 * @module
 */
import type * as RDF from '@rdfjs/types';
import type { TermDictionary } from '../model/dictionary.js';
import { keyToTerm, termToKey } from '../model/terms.js';

/** A term a solution can hold. */
export type QueryTerm = RDF.NamedNode | RDF.BlankNode | RDF.Literal;

/** Unbound slot value. */
export const UNBOUND_ID = -1;

/** Ids of the terms a query sees. */
export class QueryTerms {
  private readonly local: QueryTerm[] = [];
  private readonly localIds = new Map<string, number>();
  private readonly decoded = new Map<number, QueryTerm>();

  /** Creates the table over a store's dictionary. */
  constructor(private readonly dictionary: TermDictionary) {}

  /** The id of a term: the store's id when it has the term, else a query-local id. */
  idOf(term: QueryTerm): number {
    const key = termToKey(term);
    const id = this.dictionary.lookup(key);
    if (id >= 0) return id;
    let local = this.localIds.get(key);
    if (local === undefined) {
      local = -(this.local.length + 3);
      this.local.push(term);
      this.localIds.set(key, local);
    }
    return local;
  }

  /** The term of an id. */
  termOf(id: number): QueryTerm {
    if (id <= -3) return this.local[-id - 3]!;
    let t = this.decoded.get(id);
    if (t === undefined) {
      t = keyToTerm(this.dictionary.keyOf(id));
      if (this.decoded.size > 200_000) this.decoded.clear();
      this.decoded.set(id, t);
    }
    return t;
  }

  /** Whether an id names a term of the store (so that it can match stored facts). */
  stored(id: number): boolean {
    return id >= 0;
  }
}
