/**
 * The catalogue of a data store: tuple table descriptions, prefixes and base IRI, rules,
 * axioms, statistics and saved queries, as an immutable.js value. A write transaction edits a draft; commit publishes it with the facts.
 *
 * The catalogue holds the store's rules without knowing what a rule is (storage imports no
 * datalog): it is generic in the rule type `R`, `unknown` unless the holder says (the server,
 * which parses them, types its catalogues with datalog's `Rule`).
 * @module
 */
import { OrderedMap, Record, type RecordOf } from 'immutable';
import { RDF_NS, XSD } from '../model/terms.js';

/** The type of in-memory tuple tables (their facts are stored). */
export const MEMORY_TABLE_TYPE = 'memory';

/** The type of built-in tuple tables, whose content the store determines (nothing is stored). */
export const BUILTIN_TABLE_TYPE = 'builtin';

/** The type of tuple tables mounted on a data source (their facts are read from the source when used). */
export const DATA_SOURCE_TABLE_TYPE = 'dataSource';

/** The maximum arity of a table whose atoms may have any number of arguments (2^32 - 1). */
export const UNBOUNDED_ARITY = 0xffffffff;

/** Description of one tuple table. */
export interface TupleTableInfo {
  /** Table name (e.g. `DefaultTriples`). */
  readonly name: string;
  /** Unique numeric id within the store. */
  readonly id: number;
  /** Kind of table: `memory` for in-memory tables, `builtin` for built-in ones (such as SKOLEM), `dataSource` for mounted ones. */
  readonly type: string;
  /** Minimum number of arguments of atoms over the table. */
  readonly minArity: number;
  /** Maximum number of arguments of atoms over the table. */
  readonly maxArity: number;
  /** Creation parameters. */
  readonly parameters: Readonly<{ [key: string]: string }>;
}

/** Whether a table stores facts (built-in tables store none: their facts are computed). */
export function storesFacts(info: TupleTableInfo): boolean {
  return info.type !== BUILTIN_TABLE_TYPE && info.type !== DATA_SOURCE_TABLE_TYPE;
}

/**
 * Why a table that stores no facts ({@link storesFacts} false) refuses what was asked, for a
 * message after the table's name: `is built in: <builtInReason> and cannot be <refused>` for a
 * built-in table, `is a data-source table: its facts come from its data source, not from the
 * store, and cannot be <refused>` for a mounted one (which is not built in).
 */
export function unstoredFactsText(info: TupleTableInfo, refused: string, builtInReason = 'its facts are computed by the store'): string {
  if (info.type === DATA_SOURCE_TABLE_TYPE) return `is a data-source table: its facts come from its data source, not from the store, and cannot be ${refused}`;
  return `is built in: ${builtInReason} and cannot be ${refused}`;
}

/**
 * Reads the rows of a tuple table mounted on a data source, synchronously, as canonical term
 * keys (see model/terms.ts). Rules and queries reach mounted tables through it.
 */
export interface MountedTableReader {
  /**
   * Calls `onRow` with each row whose columns equal the keys `bound` gives (undefined where
   * a column is free); bound columns are pushed down to the source where it can take them.
   * Returns true when `onRow` asked to stop (by returning true). `deadline` (a
   * performance.now() value, the reading query's time limit) stops a wait on the source
   * (a SQL statement is cancelled) with InterruptedError.
   */
  scan(bound: ReadonlyArray<string | undefined>, onRow: (row: readonly string[]) => boolean, deadline?: number): boolean;
}

const mountedReaders = new WeakMap<TupleTableInfo, MountedTableReader>();

/** Attaches the reader of a mounted table to its catalogue entry (done when it is mounted). */
export function attachMountedReader(info: TupleTableInfo, reader: MountedTableReader): void {
  mountedReaders.set(info, reader);
}

/**
 * The reader of a mounted table's catalogue entry.
 * @throws Error naming the table when none is attached (its data source is not open).
 */
export function mountedReaderOf(info: TupleTableInfo): MountedTableReader {
  const reader = mountedReaders.get(info);
  if (!reader) throw new Error(`tuple table '${info.name}' is mounted on data source '${info.parameters['data-source-name'] ?? ''}', which is not open`);
  return reader;
}

/** A rule held by a store, with the domain it belongs to (`user`, `axioms`, …); `R` is the rule's type. */
export interface StoredRule<R = unknown> {
  /** The rule's canonical text, which identifies it. */
  readonly key: string;
  /** The rule, as parsed (opaque to the storage layer). */
  readonly rule: R;
  /** The rule domain. */
  readonly domain: string;
}

/** An OWL axiom held by a store: its destination graph ('' = default), its key, and the keys of its rules. */
export interface AxiomEntry {
  /** The destination graph IRI, or '' for the default graph. */
  readonly destination: string;
  /** The axiom's canonical text. */
  readonly key: string;
  /** Keys of the rules the axiom compiles to. */
  readonly ruleKeys: readonly string[];
}

/** A query saved in a store under a name (see `server/saved-queries.ts`), with who saved it and when. */
export interface SavedQuery {
  /** The name it is saved under. */
  readonly name: string;
  /** The SPARQL text. */
  readonly text: string;
  /** The role that saved it. */
  readonly savedBy: string;
  /** When it was saved (ISO 8601, UTC). */
  readonly savedAt: string;
}

/** Fields of a {@link Catalogue}; `R` is the type of its rules. */
export interface CatalogueFields<R = unknown> {
  /** Tuple tables by name, in creation order. */
  tupleTables: OrderedMap<string, TupleTableInfo>;
  /** Prefix name (with the colon) → IRI, in definition order. */
  prefixes: OrderedMap<string, string>;
  /** The base IRI for import, export and queries. */
  baseIRI: string;
  /** The rules, by key, in the order they were added. */
  rules: OrderedMap<string, StoredRule<R>>;
  /** The commit procedure (a SPARQL update), or '' for none. */
  commitProcedure: string;
  /** OWL axioms by destination graph and key. */
  axioms: OrderedMap<string, AxiomEntry>;
  /** Statistics objects by name, with their parameters. */
  statistics: OrderedMap<string, Readonly<{ [key: string]: string }>>;
  /** Saved queries by name, in the order they were first saved. */
  savedQueries: OrderedMap<string, SavedQuery>;
}

/** The record factory behind {@link Catalogue} (one for every rule type: storage never looks inside a rule). */
const CatalogueRecord = Record<CatalogueFields>({
  tupleTables: OrderedMap<string, TupleTableInfo>(),
  prefixes: OrderedMap<string, string>(),
  baseIRI: '',
  rules: OrderedMap<string, StoredRule>(),
  commitProcedure: '',
  axioms: OrderedMap<string, AxiomEntry>(),
  statistics: OrderedMap<string, Readonly<{ [key: string]: string }>>([['column-counts', {}]]),
  savedQueries: OrderedMap<string, SavedQuery>(),
});

/**
 * A new catalogue: the given fields, the defaults elsewhere (no tables, prefixes or rules; the
 * column-counts statistics). `R` is the type of its rules, which the caller vouches for: the
 * catalogue only keeps them.
 */
export function Catalogue<R = unknown>(fields: Partial<CatalogueFields<R>> = {}): Catalogue<R> {
  return CatalogueRecord(fields as Partial<CatalogueFields>) as Catalogue<R>;
}

/** One catalogue value (an immutable record of {@link CatalogueFields}), with rules of type `R`. */
export type Catalogue<R = unknown> = RecordOf<CatalogueFields<R>>;

/** The prefixes every new store starts with. */
export const DEFAULT_PREFIXES: ReadonlyArray<readonly [string, string]> = [
  ['owl:', 'http://www.w3.org/2002/07/owl#'],
  ['rdf:', RDF_NS],
  ['rdfs:', 'http://www.w3.org/2000/01/rdf-schema#'],
  ['rdfox:', 'https://rdfox.com/vocabulary#'],
  ['sh:', 'http://www.w3.org/ns/shacl#'],
  ['swrl:', 'http://www.w3.org/2003/11/swrl#'],
  ['swrlb:', 'http://www.w3.org/2003/11/swrlb#'],
  ['xsd:', XSD],
];

/** The base IRI of a new store. */
export const DEFAULT_BASE_IRI = 'https://quadlog.invalid/data-store/';
