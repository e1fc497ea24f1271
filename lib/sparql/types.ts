/**
 * The types shared by the SPARQL entry points (query.ts, update.ts) and the evaluator behind
 * them (evaluation.ts, update-execution.ts): options, answers, the sink answers are pushed
 * into, and what an update needs from its store. Types only: importing this module loads
 * nothing.
 * @module
 */
import type * as RDF from '@rdfjs/types/data-model.js';
import type { Interrupter } from '../model/control.js';
import type { TermDictionary } from '../model/dictionary.js';
import type { FactAccess } from '../storage/fact-access.js';
import type { WriteTransaction } from '../storage/fact-store.js';
import type { EvaluationLimits } from './query-budget.js';
import type { QueryTerm } from './query-terms.js';

/** Values for variables of a query, by variable name (without `?`): see bound-parameters.ts. */
export type BoundParameters = Readonly<Record<string, RDF.Term>>;

/** Options of a query evaluation. */
export interface QueryOptions {
  /** Base IRI for relative IRIs (default: the store's). */
  readonly baseIRI?: string;
  /** `explicit`, `derived` or `all` (default). */
  readonly factDomain?: string;
  /** Graphs forming the default graph (overrides FROM; the protocol's default-graph-uri). */
  readonly defaultGraphs?: readonly string[];
  /** The named graphs (overrides FROM NAMED; the protocol's named-graph-uri). */
  readonly namedGraphs?: readonly string[];
  /**
   * Stop with InterruptedError ("exceeded its time limit") after this many milliseconds of
   * evaluation (time spent waiting for the reader of the answer does not count). Default: the
   * server parameter `query-time-limit`; a larger value than it is refused unless the server
   * allows overrides (`allow-query-limit-override`).
   */
  readonly timeLimitMs?: number;
  /**
   * Stop with MemoryLimitError when what the query holds in memory (sorts, groups, DISTINCT,
   * solutions held for joins, CONSTRUCT and DESCRIBE answers; estimated bytes, see "Limits" in
   * docs/sparql.md) would pass this many bytes. Default: the server parameter
   * `query-memory-limit`; a larger value is refused unless the server allows overrides.
   */
  readonly memoryLimitBytes?: number;
  /**
   * Values for variables of the text, by name (without `?`): each is put into the query as a
   * term wherever its variable occurs, never as text, so no value can change the query's
   * meaning (see "Bound parameters" in docs/sparql.md). A name the text does not use, or a
   * variable the text binds itself (BIND, VALUES, a SELECT expression), is refused.
   */
  readonly bindings?: Readonly<Record<string, RDF.Term>>;
}

/** Options of an evaluation inside the library: the public options plus the role's fact access. */
export interface EvaluationOptions extends QueryOptions {
  /** What the role may read (undefined: everything). */
  readonly access?: FactAccess | undefined;
  /** The role evaluating the query, for AGENT(). */
  readonly agent?: string | undefined;
  /** The built-in tables whose rows the store computes (SHACL's); without them, such tables cannot be queried. */
  readonly computedTables?: ComputedTables | undefined;
}

/** The answer of a query. */
export type QueryAnswer =
  | {
      /** SELECT. */
      readonly type: 'bindings';
      /** The projected variables, without `?`. */
      readonly variables: readonly string[];
      /** One row per solution; undefined = unbound. */
      readonly rows: ReadonlyArray<ReadonlyArray<QueryTerm | undefined>>;
      /** Whether the order of rows is significant (ORDER BY). */
      readonly ordered: boolean;
    }
  | {
      /** ASK. */
      readonly type: 'boolean';
      /** The answer. */
      readonly value: boolean;
    }
  | {
      /** CONSTRUCT and DESCRIBE. */
      readonly type: 'quads';
      /** The triples of the result graph (in the default graph). */
      readonly quads: readonly RDF.Quad[];
    };

/** The terms of the ids a sink receives in {@link AnswerSink.rowIds}. */
export interface AnswerIds {
  /** The store's dictionary: an id >= 0 is its term (its canonical form is in the arena). */
  readonly dictionary: TermDictionary;
  /** The term of any id of a row: the store's, or one the query made (ids below -2). */
  termOf(id: number): QueryTerm;
}

/** Receives a query's answer as it is produced. */
export interface AnswerSink {
  /**
   * SELECT, optional: one row as term ids instead of terms (-1 = unbound), for writers that copy
   * a stored term's bytes rather than format a term object. The array is the evaluator's and
   * changes after the call. When a sink has it, {@link AnswerSink.row} is not called.
   */
  rowIds?(ids: Int32Array, terms: AnswerIds): void;
  /** SELECT: the variables, before any row. */
  variables(names: readonly string[], ordered: boolean): void;
  /** SELECT: one row (undefined = unbound). */
  row(values: ReadonlyArray<QueryTerm | undefined>): void;
  /** ASK: the answer. */
  boolean(value: boolean): void;
  /**
   * CONSTRUCT and DESCRIBE, optional, with {@link AnswerSink.quad}: the result graph begins
   * (called once, before the WHERE clause is evaluated and before any triple), so that a sink
   * can refuse the answer type or write a preamble.
   */
  graphBegin?(): void;
  /**
   * CONSTRUCT and DESCRIBE, optional: one triple of the result graph (in the default graph), as
   * soon as a solution gives it; each triple comes once. After the last one,
   * {@link AnswerSink.end} is called. When a sink has it, {@link AnswerSink.quads} is not called.
   * The evaluator pauses for backpressure between batches of the WHERE clause's solutions (and of
   * a described resource's triples), as it does for SELECT rows.
   */
  quad?(quad: RDF.Quad): void;
  /**
   * CONSTRUCT and DESCRIBE, for a sink without {@link AnswerSink.quad}: the whole result graph
   * in one call, collected by the evaluator (and held against the query's memory budget);
   * {@link AnswerSink.end} is not called then.
   */
  quads(quads: readonly RDF.Quad[]): void;
  /** SELECT: after the last row; CONSTRUCT and DESCRIBE given through {@link AnswerSink.quad}: after the last triple. */
  end(): void;
}

/** What an update needs from the store around it. */
export interface UpdateTarget {
  /** The transaction. */
  readonly tx: WriteTransaction;
  /** The store's dictionary. */
  readonly dictionary: TermDictionary;
  /** Adds an explicit fact (tuple of ids) to a table; true when it changed. */
  addFact(tableId: number, tuple: Uint32Array): boolean;
  /** Removes an explicit fact; true when it changed. */
  removeFact(tableId: number, tuple: Uint32Array): boolean;
  /** Imports the content of an IRI into the default graph or a named graph (LOAD). */
  load(iri: string, graph: string | undefined): Promise<void>;
  /** The interrupt flag. */
  readonly interrupter: Interrupter;
  /** The limits of the update's WHERE clauses (one deadline for the whole update; undefined: none). */
  readonly limits?: EvaluationLimits | undefined;
  /** The built-in tables whose rows the store computes (SHACL's), for WHERE clauses. */
  readonly computedTables?: ComputedTables | undefined;
}

/** The protocol's using-graph-uri and using-named-graph-uri: the dataset of every WHERE clause. */
export interface UpdateDataset {
  /** Graphs merged into the default graph of the WHERE clauses (USING). */
  readonly usingGraphs?: readonly string[];
  /** Named graphs of the WHERE clauses (USING NAMED). */
  readonly usingNamedGraphs?: readonly string[];
}

/**
 * The built-in tables whose rows the store computes from an atom's leading arguments (the
 * server's SHACL tables): the query layer asks for the rows of each such atom before it is
 * evaluated, and scans them like a table's facts.
 */
export interface ComputedTables {
  /** Whether the built-in table `table` is one of them. */
  has(table: string): boolean;
  /**
   * The rows of an atom of `table` whose leading arguments are `args` (the arguments before
   * the last `width` ones, all constants), each row the values of the last `width` arguments,
   * computed by the reading query's `deadline` (`performance.now()` time; Infinity: none).
   * @throws QueryCompilationError when the arguments are not ones the table takes.
   * @throws InterruptedError when the deadline passes first.
   */
  rows(table: string, args: readonly RDF.Term[], deadline: number): Promise<ReadonlyArray<readonly RDF.Term[]>>;
  /** The number of trailing arguments an atom's rows give (the others select the rows). */
  readonly width: number;
}
