/**
 * The data sources of a data store: external tables (delimited files, SQL databases, …) that
 * tuple tables can be mounted on. Each kind of source is a {@link DataSourceKind} registered
 * by type name; registering, deregistering and sampling are not transactional.
 * @module
 */
import type * as RDF from '@rdfjs/types';
import { BadRequestError, DuplicateResourceError, ResourceInUseError, UnknownResourceError } from '../model/errors.js';

/** A row of the data source listing. */
export interface DataSourceRow {
  /** The source's name. */
  readonly name: string;
  /** Its type (e.g. PostgreSQL, DelimitedFile). */
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
  /** Releases what the source holds (connections, files). */
  close(): void;
}

/** A kind of data source: opens one from its parameters (BadRequestError on bad ones). */
export interface DataSourceKind {
  /** Opens a source. */
  open(name: string, parameters: Readonly<Record<string, string>>): Promise<DataSource>;
}

/** The kinds of data source this build can open, by type name. */
export const DATA_SOURCE_KINDS = new Map<string, DataSourceKind>();

/** The most rows a sample returns, whatever limit is asked for. */
export const MAX_SAMPLE_ROWS = 10_000;

interface Entry {
  readonly type: string;
  readonly parameters: Readonly<Record<string, string>>;
  readonly source: DataSource;
}

/** The data sources registered with one data store. */
export class DataSourceRegistry {
  private readonly sources = new Map<string, Entry>();

  constructor(
    /** The store's name (for messages). */
    private readonly storeName: string,
    /** Whether a tuple table is mounted on the named source. */
    private readonly mounted: (source: string) => boolean,
  ) {}

  /** The listing. */
  list(): DataSourceRow[] {
    return [...this.sources].map(([name, e]) => ({ name, type: e.type, parameters: new URLSearchParams(e.parameters).toString(), numberOfTables: e.source.tables().length }));
  }

  /** Registers a source of a known type. */
  async register(name: string, type: string | undefined, parameters: Readonly<Record<string, string>>): Promise<void> {
    if (!/^[A-Za-z_][\w.-]*$/.test(name)) throw new BadRequestError(`invalid data source name '${name}'`);
    if (type === undefined || type === '') throw new BadRequestError(`data source '${name}' needs a type (parameter type)`);
    if (this.sources.has(name)) throw new DuplicateResourceError(`data source '${name}' already exists in data store '${this.storeName}'`);
    const kind = DATA_SOURCE_KINDS.get(type);
    if (!kind) {
      const known = [...DATA_SOURCE_KINDS.keys()];
      throw new BadRequestError(`unknown data source type '${type}' (${known.length > 0 ? `known: ${known.join(', ')}` : 'this build has no data source kinds'})`);
    }
    const source = await kind.open(name, parameters);
    if (this.sources.has(name)) {
      source.close();
      throw new DuplicateResourceError(`data source '${name}' already exists in data store '${this.storeName}'`);
    }
    this.sources.set(name, { type, parameters: { ...parameters }, source });
  }

  /** Deregisters a source on which no tuple table is mounted. */
  deregister(name: string): void {
    const e = this.entry(name);
    if (this.mounted(name)) throw new ResourceInUseError(`data source '${name}' has mounted tuple tables: delete them first`);
    this.sources.delete(name);
    e.source.close();
  }

  /** Property/Value rows of a source. */
  describe(name: string): Array<{ property: string; value: string }> {
    const e = this.entry(name);
    const rows = [
      { property: 'name', value: name },
      { property: 'type', value: e.type },
      { property: 'tables', value: String(e.source.tables().length) },
    ];
    for (const [k, v] of Object.entries(e.parameters)) rows.push({ property: `parameters.${k}`, value: v });
    return [...rows, ...e.source.describe()];
  }

  /** The tables of a source. */
  tables(name: string): DataSourceTableRow[] {
    return this.entry(name).source.tables();
  }

  /** The columns of a table of a source. */
  columns(name: string, table: string): DataSourceColumnRow[] {
    return this.entry(name).source.columns(table);
  }

  /** Up to `limit` (at most {@link MAX_SAMPLE_ROWS}) rows of a table of a source. */
  sample(name: string, table: string, limit: number): Promise<DataSourceSample> {
    if (!Number.isInteger(limit) || limit < 0) throw new BadRequestError(`invalid limit '${limit}': a non-negative integer is required`);
    return this.entry(name).source.sample(table, Math.min(limit, MAX_SAMPLE_ROWS));
  }

  /** Closes every source (the store is deleted). */
  closeAll(): void {
    for (const e of this.sources.values()) e.source.close();
    this.sources.clear();
  }

  private entry(name: string): Entry {
    const e = this.sources.get(name);
    if (!e) throw new UnknownResourceError(`data source '${name}' does not exist in data store '${this.storeName}'`);
    return e;
  }
}
