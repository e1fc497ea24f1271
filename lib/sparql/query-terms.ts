/**
 * Term ids during one query: the store's dictionary ids (>= 0), and query-local ids (from
 * {@link FIRST_LOCAL_ID} down) for terms the store does not hold (constants of the query,
 * values computed by BIND, aggregates and casts, blank nodes of CONSTRUCT templates). The ids
 * between are the sentinels of `quad-source.ts`: UNBOUND (-1) and DEFAULT_GRAPH (-2).
 * @module
 */
import type * as RDF from '@rdfjs/types';
import type { TermDictionary } from '../model/dictionary.js';
import { knownLiteralKey, rememberKeyedString } from '../expressions/index.js';
import { keyToTerm, termToKey } from '../model/terms.js';
import { DEFAULT_GRAPH } from './quad-source.js';

/** A term a solution can hold. */
export type QueryTerm = RDF.NamedNode | RDF.BlankNode | RDF.Literal;

/** The first query-local id (the next ones count down from it), below every sentinel. */
export const FIRST_LOCAL_ID = DEFAULT_GRAPH - 1;

/** Ids of the terms a query sees. */
export class QueryTerms {
  private readonly local: QueryTerm[] = [];
  private readonly localIds = new Map<string, number>();
  private readonly decoded = new Map<number, QueryTerm>();

  /** Creates the table over a store's dictionary. */
  constructor(private readonly dictionary: TermDictionary) {}

  /** The id of a term: the store's id when it has the term, else a query-local id. */
  idOf(term: QueryTerm): number {
    // a value the evaluator made knows its key without the term's getters
    const key = (term.termType === 'Literal' ? knownLiteralKey(term) : undefined) ?? termToKey(term);
    const id = this.dictionary.lookup(key);
    if (id >= 0) return id;
    let local = this.localIds.get(key);
    if (local === undefined) {
      local = FIRST_LOCAL_ID - this.local.length;
      this.local.push(term);
      this.localIds.set(key, local);
    }
    return local;
  }

  /** The term of an id. */
  termOf(id: number): QueryTerm {
    return this.term(id, false);
  }

  /**
   * The term of an id as an expression reads it: as {@link termOf}, and a string literal made
   * here carries its decoded value (the expression evaluator reads it without the term's getters).
   */
  valueOf(id: number): QueryTerm {
    return this.term(id, true);
  }

  /** The term of an id, made once per query; `withValue`: a string literal made now carries its decoded value. */
  private term(id: number, withValue: boolean): QueryTerm {
    if (id <= FIRST_LOCAL_ID) return this.local[FIRST_LOCAL_ID - id]!;
    let t = this.decoded.get(id);
    if (t === undefined) {
      const key = this.dictionary.keyOf(id);
      t = keyToTerm(key);
      if (withValue && t.termType === 'Literal') rememberKeyedString(t, key);
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
