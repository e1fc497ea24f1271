/**
 * The `PostgreSQL` kind of data source, through the `pg` client (see sync-sql.ts for how it is
 * reached synchronously). Parameters, as RDFox names them: `connection-string` (required: a
 * URI, or libpq's keyword/value settings, see libpq-conninfo.ts), `batch-size` (rows fetched at
 * a time, default 1024) and `connection-keep-alive-time` (seconds an unused connection stays
 * open, default 60); and quadlog's `statement-timeout` (seconds any one SQL statement may run,
 * default {@link DEFAULT_STATEMENT_TIMEOUT_S}; 0: no limit), since the store waits while a
 * statement runs. A query's time limit cancels the statement it waits for too. Its tables are the tables and views
 * of every schema but the system ones; a mounted tuple table names one (`table.name`, with
 * `table.schema`) or gives a query (`query`).
 *
 * Column types map to XSD datatypes (integers to xsd:integer, numeric to xsd:decimal, real to
 * xsd:float, double precision to xsd:double, boolean, date, time and timestamps to their XSD
 * types, anything else to xsd:string), and values are read as PostgreSQL's text form, turned
 * into the lexical form of that datatype. Bound columns become a parameterised `WHERE`.
 * @module
 */
import { DataFactory } from 'n3';
import { BadRequestError, InterruptedError, ParsingError, UnknownResourceError } from '../model/errors.js';
import { XSD, XSD_STRING } from '../model/terms.js';
import type { ColumnFilter, DataSource, DataSourceColumnRow, DataSourceKind, DataSourceSample, DataSourceTableRow, SourceRecord, TableSelector } from './source.js';
import { asAsync, settled, tableRow } from './source.js';
import { pgSettingsOf } from './libpq-conninfo.js';
import { QUERY_CANCELED, type SqlAnswer, SqlDeadlineError, SqlError, SyncSql } from './sync-sql.js';

/** The type name of PostgreSQL sources. */
export const POSTGRESQL_TYPE = 'PostgreSQL';

const PARAMETERS = ['connection-string', 'batch-size', 'connection-keep-alive-time', 'statement-timeout'];

/**
 * How long one SQL statement may run by default (seconds): the store waits while it runs, so a
 * statement that never ends must not hold it for ever.
 */
export const DEFAULT_STATEMENT_TIMEOUT_S = 60;

/** How long connecting may take before the source is reported unreachable. */
const CONNECT_TIMEOUT_MS = 10_000;

/** XSD datatypes of PostgreSQL's built-in types, by type id (pg_type.oid). */
const DATATYPE_BY_OID: ReadonlyMap<number, string> = new Map([
  [20, 'integer'], // int8
  [21, 'integer'], // int2
  [23, 'integer'], // int4
  [26, 'integer'], // oid
  [1700, 'decimal'], // numeric
  [700, 'float'], // float4
  [701, 'double'], // float8
  [16, 'boolean'],
  [1082, 'date'],
  [1083, 'time'],
  [1266, 'time'], // timetz
  [1114, 'dateTime'], // timestamp
  [1184, 'dateTime'], // timestamptz
].map(([oid, t]): [number, string] => [oid as number, `${XSD}${t as string}`]));

/** XSD datatypes of information_schema type names. */
const DATATYPE_BY_NAME: ReadonlyMap<string, string> = new Map([
  ['bigint', 'integer'],
  ['integer', 'integer'],
  ['smallint', 'integer'],
  ['numeric', 'decimal'],
  ['real', 'float'],
  ['double precision', 'double'],
  ['boolean', 'boolean'],
  ['date', 'date'],
  ['time without time zone', 'time'],
  ['time with time zone', 'time'],
  ['timestamp without time zone', 'dateTime'],
  ['timestamp with time zone', 'dateTime'],
].map(([n, t]): [string, string] => [n!, `${XSD}${t!}`]));


/** A PostgreSQL text value as the lexical form of its XSD datatype. */
function lexicalOf(value: string, datatype: string): string {
  switch (datatype) {
    case `${XSD}boolean`:
      return value === 't' ? 'true' : value === 'f' ? 'false' : value;
    case `${XSD}dateTime`: {
      // '2020-01-02 03:04:05.5+01' → '2020-01-02T03:04:05.5+01:00'
      const m = /^(\d{4,}-\d\d-\d\d) (\d\d:\d\d:\d\d(?:\.\d+)?)([+-]\d\d)?(?::?(\d\d))?$/.exec(value);
      if (!m) return value;
      const zone = m[3] === undefined ? '' : `${m[3]}:${m[4] ?? '00'}`;
      return `${m[1]!}T${m[2]!}${zone === '+00:00' ? 'Z' : zone}`;
    }
    case `${XSD}double`:
    case `${XSD}float`:
      return value === 'Infinity' ? 'INF' : value === '-Infinity' ? '-INF' : value;
    default:
      return value;
  }
}

/** An identifier quoted for SQL. */
function identifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

interface TableEntry {
  readonly schema: string;
  readonly name: string;
  readonly columns: DataSourceColumnRow[];
}

/** A PostgreSQL database opened as a data source. */
class PostgreSQLSource implements DataSource {
  private readonly tableList: TableEntry[];

  constructor(
    private readonly name: string,
    private readonly sql: SyncSql,
    private readonly batchSize: number,
    private readonly statementTimeout: number,
    tables: TableEntry[],
  ) {
    this.tableList = tables;
  }

  describe(): Array<{ property: string; value: string }> {
    return [
      { property: 'batch-size', value: String(this.batchSize) },
      { property: 'statement-timeout', value: String(this.statementTimeout) },
    ];
  }

  tables(): DataSourceTableRow[] {
    return this.tableList.map((t) => tableRow(this.display(t), t.columns));
  }

  columns(table: string): DataSourceColumnRow[] {
    return [...this.find({ table }).columns];
  }

  selectorColumns(selector: TableSelector): Promise<DataSourceColumnRow[]> {
    return settled(() => {
      if ('table' in selector) return [...this.find(selector).columns];
      const answer = this.run(() => this.sql.query(`SELECT * FROM (${selector.query}) AS quadlog_query LIMIT 0`), 'query');
      return answer.fields.map((f, i) => ({ column: i + 1, name: f.name, datatype: DATATYPE_BY_OID.get(f.type) ?? XSD_STRING }));
    });
  }

  sample(table: string, limit: number): Promise<DataSourceSample> {
    return settled(() => {
      const t = this.find({ table });
      const answer = this.run(() => this.sql.query(`SELECT * FROM ${this.from(t)} LIMIT ${limit}`), `table ${table}`);
      return {
        variables: t.columns.map((c) => c.name),
        rows: answer.rows.map((r) => r.map((v, i) => (v === null ? undefined : DataFactory.literal(lexicalOf(v, t.columns[i]!.datatype), DataFactory.namedNode(t.columns[i]!.datatype))))),
      };
    });
  }

  rows(selector: TableSelector, filter?: ColumnFilter): AsyncIterable<SourceRecord> {
    return asAsync(() => this.readSync(selector, filter));
  }

  *readSync(selector: TableSelector, filter?: ColumnFilter, deadline = Infinity): Generator<SourceRecord> {
    let from: string;
    let columns: readonly DataSourceColumnRow[];
    let what: string;
    if ('table' in selector) {
      const t = this.find(selector);
      from = this.from(t);
      columns = t.columns;
      what = `table ${this.display(t)}`;
    } else {
      from = `(${selector.query}) AS quadlog_query`;
      columns = this.run(() => this.sql.query(`SELECT * FROM ${from} LIMIT 0`, [], deadline), 'query').fields.map((f, i) => ({ column: i + 1, name: f.name, datatype: DATATYPE_BY_OID.get(f.type) ?? XSD_STRING }));
      what = 'query';
    }
    const params: string[] = [];
    const conditions: string[] = [];
    for (const [column, value] of filter ?? []) {
      const c = columns[column]!;
      let v = value;
      if (c.datatype === `${XSD}dateTime` && v.endsWith('Z')) v = `${v.slice(0, -1)}+00:00`;
      params.push(v);
      conditions.push(`${identifier(c.name)} = $${params.length}`);
    }
    const text = `SELECT ${columns.map((c) => identifier(c.name)).join(', ')} FROM ${from}${conditions.length > 0 ? ` WHERE ${conditions.join(' AND ')}` : ''}`;
    const datatypes = columns.map((c) => c.datatype);
    const convert = (r: ReadonlyArray<string | null>): SourceRecord => r.map((v, i) => (v === null ? null : lexicalOf(v, datatypes[i]!)));
    if (conditions.length > 0) {
      // a lookup is usually selective: one round trip when it fits in a batch, a cursor otherwise
      const first = this.run(() => this.sql.query(`${text} LIMIT ${this.batchSize + 1}`, params, deadline), what).rows;
      if (first.length <= this.batchSize) {
        for (const r of first) yield convert(r);
        return;
      }
    }
    const rows = this.run(() => this.sql.rows(text, params, this.batchSize, deadline), what);
    for (;;) {
      const next = this.run(() => rows.next(), what);
      if (next.done === true) return;
      yield convert(next.value);
    }
  }

  close(): Promise<void> {
    return this.sql.close().then(() => undefined);
  }

  /**
   * Runs a request, turning a PostgreSQL error into one naming the source and what was read,
   * and a passed deadline into the query's InterruptedError.
   */
  private run<T>(action: () => T, what: string): T {
    try {
      return action();
    } catch (e) {
      if (e instanceof SqlDeadlineError) throw new InterruptedError(`the query exceeded its time limit (the SQL statement reading ${what} of data source '${this.name}' was cancelled)`);
      if (e instanceof SqlError && e.code === QUERY_CANCELED && this.statementTimeout > 0) {
        throw new ParsingError(`data source '${this.name}', ${what}: the SQL statement was cancelled after running longer than the data source's statement-timeout of ${this.statementTimeout} s`);
      }
      if (e instanceof SqlError) throw new ParsingError(`data source '${this.name}', ${what}: PostgreSQL reported: ${e.message}${e.code ? ` (${e.code})` : ''}`);
      throw e;
    }
  }

  private display(t: TableEntry): string {
    return t.schema === 'public' ? t.name : `${t.schema}.${t.name}`;
  }

  private from(t: TableEntry): string {
    return `${identifier(t.schema)}.${identifier(t.name)}`;
  }

  private find(selector: { readonly table: string; readonly schema?: string }): TableEntry {
    let schema = selector.schema;
    let name = selector.table;
    if (schema === undefined) {
      const exact = this.tableList.find((t) => this.display(t) === name);
      if (exact) return exact;
      const dot = name.indexOf('.');
      if (dot > 0) {
        schema = name.slice(0, dot);
        name = name.slice(dot + 1);
      } else schema = 'public';
    }
    const t = this.tableList.find((e) => e.schema === schema && e.name === name);
    if (!t) throw new UnknownResourceError(`data source '${this.name}' has no table '${schema === 'public' ? name : `${schema}.${name}`}'`);
    return t;
  }
}

/** A positive (or, with `min` 0, non-negative) integer parameter; seconds may have an `s` after them. */
function positive(source: string, key: string, value: string | undefined, fallback: number, min = 1): number {
  if (value === undefined) return fallback;
  const n = Number(value.replace(/\s*s$/, ''));
  if (!/^\d+(\s*s)?$/.test(value) || !Number.isSafeInteger(n) || n < min) throw new BadRequestError(`invalid ${key} '${value}' for data source '${source}': a ${min === 0 ? 'non-negative' : 'positive'} integer is required`);
  return n;
}

/** The PostgreSQL kind: opening connects and reads the list of tables and their columns. */
export const postgresqlKind: DataSourceKind = {
  async open(name: string, parameters: Readonly<Record<string, string>>): Promise<DataSource> {
    for (const key of Object.keys(parameters)) {
      if (!PARAMETERS.includes(key)) throw new BadRequestError(`unknown parameter '${key}' for data source '${name}' of type ${POSTGRESQL_TYPE} (known: ${PARAMETERS.join(', ')})`);
    }
    const connectionString = parameters['connection-string'];
    if (connectionString === undefined || connectionString === '') throw new BadRequestError(`data source '${name}' of type ${POSTGRESQL_TYPE} needs the parameter 'connection-string'`);
    const batchSize = positive(name, 'batch-size', parameters['batch-size'], 1024);
    const keepAlive = positive(name, 'connection-keep-alive-time', parameters['connection-keep-alive-time'], 60);
    const statementTimeout = positive(name, 'statement-timeout', parameters['statement-timeout'], DEFAULT_STATEMENT_TIMEOUT_S, 0);
    if (statementTimeout > 2_147_483) throw new BadRequestError(`invalid statement-timeout '${parameters['statement-timeout']!}' for data source '${name}': at most 2147483 seconds`);
    const connection = pgSettingsOf(connectionString, name);
    const sql = new SyncSql({ connection, statementTimeoutMs: statementTimeout * 1000, keepAliveMs: keepAlive * 1000, connectTimeoutMs: CONNECT_TIMEOUT_MS });
    let answer: SqlAnswer;
    try {
      answer = sql.query(
        `SELECT table_schema, table_name, column_name, data_type FROM information_schema.columns
         WHERE table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY table_schema, table_name, ordinal_position`,
      );
    } catch (e) {
      await sql.close();
      if (e instanceof SqlError) throw new BadRequestError(`data source '${name}': cannot use the PostgreSQL database: ${e.message}${e.code ? ` (${e.code})` : ''}`);
      throw e;
    }
    const tables: TableEntry[] = [];
    for (const [schema, table, column, type] of answer.rows) {
      let t = tables[tables.length - 1];
      if (!t || t.schema !== schema || t.name !== table) tables.push((t = { schema: schema!, name: table!, columns: [] }));
      t.columns.push({ column: t.columns.length + 1, name: column!, datatype: DATATYPE_BY_NAME.get(type!) ?? XSD_STRING });
    }
    return new PostgreSQLSource(name, sql, batchSize, statementTimeout, tables);
  },
};
