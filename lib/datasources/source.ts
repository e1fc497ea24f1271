/**
 * What every kind of data source offers: the shape of an opened source (its tables, their
 * columns, sampled and streamed rows) and of a kind that opens sources from their
 * registration parameters. The server's registry (server/data-sources.ts) holds the opened
 * sources; mounted tuple tables read them through {@link DataSource.rows}.
 * @module
 */
import type * as RDF from '@rdfjs/types/data-model.js';

/** A row of the data source listing. */
export interface DataSourceRow {
  /** The source's name. */
  readonly name: string;
  /** Its type (e.g. PostgreSQL, delimitedFile). */
  readonly type: string;
  /** Its creation parameters in query-string form. */
  readonly parameters: string;
  /** How many tables it offers. */
  readonly numberOfTables: number;
}

/** A table of a data source. */
export interface DataSourceTableRow {
  /** The table's name. */
  readonly name: string;
  /** Its number of columns. */
  readonly numberOfColumns: number;
  /** `name1=dt1&name2=dt2…` (column name = datatype IRI), percent-encoded. */
  readonly columns: string;
}

/** A column of a data source table. */
export interface DataSourceColumnRow {
  /** Its index (from 1). */
  readonly column: number;
  /** Its name. */
  readonly name: string;
  /** The IRI of the datatype that best matches the source column type. */
  readonly datatype: string;
}

/** Rows sampled from a data source table, one variable per column. */
export interface DataSourceSample {
  /** The column names. */
  readonly variables: string[];
  /** The rows (undefined = null in the source). */
  readonly rows: Array<Array<RDF.Term | undefined>>;
}

/**
 * One row read from a source: the lexical form of each column's value (in the column's
 * datatype), or null for a SQL NULL. An empty cell of a delimited file is `''`.
 */
export type SourceRecord = ReadonlyArray<string | null>;

/** Equality conditions on source columns (0-based column index → lexical value) a read must meet. */
export type ColumnFilter = ReadonlyMap<number, string>;

/** An opened data source. */
export interface DataSource {
  /** Property/Value rows beyond name, type and parameters. */
  describe(): Array<{ property: string; value: string }>;
  /** The tables it offers. */
  tables(): DataSourceTableRow[];
  /** The columns of one table (UnknownResourceError when absent). */
  columns(table: string): DataSourceColumnRow[];
  /** Up to `limit` rows of a table. */
  sample(table: string, limit: number): Promise<DataSourceSample>;
  /**
   * The rows of a table (or of a query a kind supports instead of a table), read from the
   * source now (nothing is cached), with `filter`'s columns equal to its values when the kind
   * can push conditions down (rows not meeting it may still be returned by kinds that cannot).
   */
  rows(table: TableSelector, filter?: ColumnFilter): AsyncIterable<SourceRecord>;
  /**
   * The same rows as {@link rows}, read synchronously (rules and queries are evaluated
   * synchronously); conditions in `filter` are pushed down where the kind can. `deadline` (a
   * performance.now() value: the reading query's time limit) stops a kind that waits on a
   * server, with InterruptedError, when it passes during a wait.
   */
  readSync(table: TableSelector, filter?: ColumnFilter, deadline?: number): Iterable<SourceRecord>;
  /** The columns of what a selector names (for a query, found by running it without rows). */
  selectorColumns(table: TableSelector): Promise<DataSourceColumnRow[]>;
  /** Releases what the source holds (connections, files). */
  close(): void | Promise<void>;
}

/** What a mounted tuple table reads: a table of the source, or (for SQL sources) a query. */
export type TableSelector = { readonly table: string; readonly schema?: string } | { readonly query: string };

/** A file named by a data source's parameters, opened under the server's read policy. */
export interface OpenedFile {
  /** The bytes of the file. */
  readonly chunks: AsyncIterable<Uint8Array>;
  /** Releases the file when its chunks are not read to the end. */
  readonly close?: () => Promise<void>;
}

/** What a kind may use from the server that opens it. */
export interface SourceContext {
  /**
   * Opens a file named by a parameter, as the server's read policy allows.
   * @throws AccessDeniedError when the policy refuses it; ParsingError when it cannot be read.
   */
  openFile(file: string): Promise<OpenedFile>;
  /**
   * Opens a file named by a parameter for synchronous reading, as {@link openFile} decides;
   * the caller closes the descriptor it returns.
   */
  openFileSync(file: string): number;
}

/** A kind of data source: opens one from its parameters (BadRequestError on bad ones). */
export interface DataSourceKind {
  /** Opens a source. */
  open(name: string, parameters: Readonly<Record<string, string>>, context: SourceContext): Promise<DataSource>;
}

/** The listing row of a table with the given columns. */
export function tableRow(name: string, columns: readonly DataSourceColumnRow[]): DataSourceTableRow {
  return { name, numberOfColumns: columns.length, columns: new URLSearchParams(columns.map((c): [string, string] => [c.name, c.datatype])).toString() };
}

/** The result of a synchronous step as a promise (its exception as a rejection). */
export function settled<T>(step: () => T): Promise<T> {
  try {
    return Promise.resolve(step());
  } catch (e) {
    return Promise.reject(e instanceof Error ? e : new Error(String(e)));
  }
}

/** A synchronous iterable read as an asynchronous one. */
export function asAsync<T>(items: () => Iterable<T>): AsyncIterable<T> {
  return {
    [Symbol.asyncIterator](): AsyncIterator<T> {
      let it: Iterator<T> | undefined;
      return {
        next: () => settled(() => (it ??= items()[Symbol.iterator]()).next()),
        return: (value?: unknown) => settled(() => it?.return?.() ?? { done: true as const, value: value as T }),
      };
    },
  };
}
