/**
 * Term ids during one query: the store's dictionary ids (>= 0), and query-local ids (from
 * {@link FIRST_LOCAL_ID} down) for terms the store does not hold (constants of the query,
 * values computed by BIND, aggregates and casts, blank nodes of CONSTRUCT templates). The ids
 * between are the sentinels of `quad-source.ts`: UNBOUND (-1) and DEFAULT_GRAPH (-2). The
 * terms of stored ids are decoded once per store and kept across queries (a bounded cache).
 * @module
 */
import type * as RDF from '@rdfjs/types/data-model.js';
import type { TermDictionary } from '../model/dictionary.js';
import { knownLiteralKey, rememberKeyedString } from '../expressions/index.js';
import { keyToTerm, termToKey } from '../model/terms.js';
import { DEFAULT_GRAPH } from './quad-source.js';

/** A term a solution can hold. */
export type QueryTerm = RDF.NamedNode | RDF.BlankNode | RDF.Literal | RDF.Quad;

/** The first query-local id (the next ones count down from it), below every sentinel. */
export const FIRST_LOCAL_ID = DEFAULT_GRAPH - 1;

/** log2 of the most entries a {@link StoredTerms} cache holds. */
const STORED_TERMS_BITS = 16;

/**
 * The terms of a store's ids, decoded once and kept across queries: a direct-mapped cache of
 * at most 2^16 entries (and no more than the dictionary has terms, rounded up to a power of
 * two), so that repeated queries do not decode and allocate the same terms again. It is
 * dropped when the dictionary is truncated (a rollback may give the ids to other terms).
 */
class StoredTerms {
  private ids = new Int32Array(0);
  private terms: Array<QueryTerm | undefined> = [];
  private mask = -1;
  private truncations: number;

  constructor(private readonly dictionary: TermDictionary) {
    this.truncations = dictionary.truncations;
  }

  /** The term of a stored id (a string literal carries its decoded value for the expression evaluator). */
  term(id: number): QueryTerm {
    if (this.truncations !== this.dictionary.truncations) this.reset();
    let i = id & this.mask;
    if (i >= 0 && this.ids[i] === id) return this.terms[i]!;
    const key = this.dictionary.keyOf(id);
    const t = keyToTerm(key);
    if (t.termType === 'Literal') rememberKeyedString(t, key);
    if (this.mask + 1 < Math.min(1 << STORED_TERMS_BITS, this.dictionary.size)) {
      this.grow();
      i = id & this.mask;
    }
    this.ids[i] = id;
    this.terms[i] = t;
    return t;
  }

  private reset(): void {
    this.truncations = this.dictionary.truncations;
    this.ids.fill(-1);
    this.terms.fill(undefined);
  }

  /** Doubles the capacity (at least 1,024 entries); the entries held are dropped. */
  private grow(): void {
    let capacity = Math.max(1024, (this.mask + 1) * 2);
    while (capacity < Math.min(1 << STORED_TERMS_BITS, this.dictionary.size)) capacity *= 2;
    this.ids = new Int32Array(capacity).fill(-1);
    this.terms = new Array<QueryTerm | undefined>(capacity).fill(undefined);
    this.mask = capacity - 1;
  }
}

const storedTerms = new WeakMap<TermDictionary, StoredTerms>();

/** Ids of the terms a query sees. */
export class QueryTerms {
  private readonly local: QueryTerm[] = [];
  private readonly localIds = new Map<string, number>();
  private readonly cache: StoredTerms;

  /** Creates the table over a store's dictionary. */
  constructor(private readonly dictionary: TermDictionary) {
    let cache = storedTerms.get(dictionary);
    if (cache === undefined) storedTerms.set(dictionary, (cache = new StoredTerms(dictionary)));
    this.cache = cache;
  }

  /** The id of a term: the store's id when it has the term, else a query-local id. */
  idOf(term: QueryTerm): number {
    // a value the evaluator made knows its key without the term's getters
    const key = (term.termType === 'Literal' ? knownLiteralKey(term) : undefined) ?? termToKey(term);
    // a term the store lacked stays query-local for the rest of the query (one id per term,
    // even if a writer adds the term meanwhile), and the dictionary is not asked again
    let local = this.localIds.get(key);
    if (local !== undefined) return local;
    const id = this.dictionary.lookup(key);
    if (id >= 0) return id;
    local = FIRST_LOCAL_ID - this.local.length;
    this.local.push(term);
    this.localIds.set(key, local);
    return local;
  }

  /**
   * The term of an id. A string literal of the store carries its decoded value (the expression
   * evaluator reads it without the term's getters).
   */
  termOf(id: number): QueryTerm {
    return id <= FIRST_LOCAL_ID ? this.local[FIRST_LOCAL_ID - id]! : this.cache.term(id);
  }

  /** The store's triple terms, indexed by their parts. */
  get tripleTerms(): TermDictionary['tripleTerms'] {
    return this.dictionary.tripleTerms;
  }

  /** Whether an id names a term of the store (so that it can match stored facts). */
  stored(id: number): boolean {
    return id >= 0;
  }
}
