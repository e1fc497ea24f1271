/**
 * A tuple table mounted on a data source: the mount parameters (as RDFox names them) that
 * turn each source row into a tuple of RDF terms, and the reader rules and queries use.
 *
 * - `table.name` (+ `table.schema`) or `query`: what is read (a source with one table needs
 *   neither);
 * - `columns`: the table's arity (default: the number of source columns);
 * - `<k>` (k from 1): the lexical template of column k, where `{n}` is the n-th source column,
 *   `{Name}` the source column of that name and `{row#}` the row number (default `{k}`);
 * - `<k>.datatype`: `iri`, `bnode`, `string`, `integer`, `double`, or a datatype IRI written
 *   in full or with `xsd:`, `rdf:` or `rdfs:` (default: the source column's datatype for a
 *   template that is one placeholder, else `string`);
 * - `<k>.if-empty`: `default` (the default: `<k>.default` when given, else the row is
 *   skipped), `absent` (the row is skipped) or `leave` (the empty value is used);
 * - `<k>.default`: the lexical form used for an empty value under `if-empty=default`;
 * - `<k>.invalid-literal-policy`: `error` (the default: reading fails, naming the row and
 *   column), `as-string` or `as-string-silent` (the value becomes a plain string).
 *
 * A value is empty when a source column its template names is empty or NULL. Nothing is
 * cached: every scan reads the source. A bound column whose template is one placeholder
 * (with constant text around it) is pushed down to the source as an equality on that source
 * column; the rows are checked against every bound column in any case.
 * @module
 */
import { BadRequestError, ParsingError } from '../model/errors.js';
import { RDF_NS, XSD, XSD_STRING } from '../model/terms.js';
import type { MountedTableReader } from '../storage/catalogue.js';
import type { DataSource, DataSourceColumnRow, SourceRecord, TableSelector } from './source.js';

/** The mount parameters that are not per column. */
const TABLE_PARAMETERS = new Set(['type', 'data-source-name', 'table.name', 'table.schema', 'query', 'columns']);

/** The per-column settings, after `<k>.`. */
const COLUMN_SETTINGS = new Set(['datatype', 'if-empty', 'default', 'invalid-literal-policy', 'type', 'nullable', 'time-zone']);

/** A piece of a lexical template: constant text, a source column (0-based) or the row number. */
type Piece = { readonly text: string } | { readonly column: number } | { readonly row: true };

/** How column values become a term. */
type TermKind = { readonly kind: 'iri' } | { readonly kind: 'bnode' } | { readonly kind: 'literal'; readonly datatype: string };

/** One output column of a mounted table. */
interface OutputColumn {
  readonly pieces: readonly Piece[];
  readonly term: TermKind;
  readonly ifEmpty: 'default' | 'absent' | 'leave';
  readonly defaultValue: string | undefined;
  readonly invalidLiteral: 'error' | 'as-string';
  /** The source column of a template that is one placeholder with constant text around it. */
  readonly single: { readonly column: number; readonly prefix: string; readonly suffix: string } | undefined;
}


/** Lexical forms of the datatypes whose literals are checked (others are taken as they are). */
const LEXICAL: ReadonlyMap<string, RegExp> = new Map([
  ...['integer', 'long', 'int', 'short', 'byte', 'nonNegativeInteger', 'positiveInteger', 'nonPositiveInteger', 'negativeInteger', 'unsignedLong', 'unsignedInt', 'unsignedShort', 'unsignedByte'].map(
    (t): [string, RegExp] => [`${XSD}${t}`, /^[+-]?\d+$/],
  ),
  [`${XSD}decimal`, /^[+-]?(\d+(\.\d*)?|\.\d+)$/],
  [`${XSD}double`, /^([+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?|[+-]?INF|NaN)$/],
  [`${XSD}float`, /^([+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?|[+-]?INF|NaN)$/],
  [`${XSD}boolean`, /^(true|false|1|0)$/],
  [`${XSD}date`, /^-?\d{4,}-\d\d-\d\d(Z|[+-]\d\d:\d\d)?$/],
  [`${XSD}dateTime`, /^-?\d{4,}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)?$/],
  [`${XSD}time`, /^\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)?$/],
]);

/** The datatype IRI a `<k>.datatype` value names. */
function termKindOf(value: string, what: string): TermKind {
  if (value === 'iri') return { kind: 'iri' };
  if (value === 'bnode') return { kind: 'bnode' };
  if (value === 'string') return { kind: 'literal', datatype: XSD_STRING };
  if (value === 'integer' || value === 'double') return { kind: 'literal', datatype: `${XSD}${value}` };
  const prefixed = /^(xsd|rdf|rdfs):([A-Za-z][\w.-]*)$/.exec(value);
  if (prefixed) {
    const ns = prefixed[1] === 'xsd' ? XSD : prefixed[1] === 'rdf' ? RDF_NS : 'http://www.w3.org/2000/01/rdf-schema#';
    return { kind: 'literal', datatype: `${ns}${prefixed[2]!}` };
  }
  const full = /^<?([A-Za-z][A-Za-z0-9+.-]*:[^<>"\s]+)>?$/.exec(value);
  if (full) return { kind: 'literal', datatype: full[1]! };
  throw new BadRequestError(`invalid ${what} '${value}': iri, bnode, string, integer, double or a datatype IRI (such as xsd:date) is required`);
}

/** The pieces of a lexical template, its placeholders resolved against the source columns. */
function templateOf(template: string, columns: readonly DataSourceColumnRow[], what: string): Piece[] {
  const pieces: Piece[] = [];
  let text = '';
  let i = 0;
  while (i < template.length) {
    const c = template[i]!;
    if (c === '}') throw new BadRequestError(`invalid ${what} '${template}': '}' at position ${i + 1} closes no placeholder`);
    if (c !== '{') {
      text += c;
      i++;
      continue;
    }
    const close = template.indexOf('}', i);
    if (close < 0) throw new BadRequestError(`invalid ${what} '${template}': the placeholder at position ${i + 1} is not closed`);
    const name = template.slice(i + 1, close);
    if (text !== '') pieces.push({ text });
    text = '';
    if (name === 'row#') pieces.push({ row: true });
    else if (/^\d+$/.test(name)) {
      const n = Number(name);
      if (n < 1 || n > columns.length) throw new BadRequestError(`invalid ${what} '${template}': {${name}} names no source column (there are ${columns.length})`);
      pieces.push({ column: n - 1 });
    } else {
      const k = columns.findIndex((col) => col.name === name);
      if (k < 0) throw new BadRequestError(`invalid ${what} '${template}': {${name}} names no source column (columns: ${columns.map((col) => col.name).join(', ')})`);
      pieces.push({ column: k });
    }
    i = close + 1;
  }
  if (text !== '') pieces.push({ text });
  return pieces;
}

/** The single placeholder of a template with constant text around it, if it is one. */
function singleOf(pieces: readonly Piece[]): OutputColumn['single'] {
  const placeholders = pieces.filter((p) => !('text' in p));
  if (placeholders.length !== 1 || !('column' in placeholders[0]!)) return undefined;
  const at = pieces.indexOf(placeholders[0]);
  const textOf = (p: Piece | undefined): string => (p && 'text' in p ? p.text : '');
  return { column: placeholders[0].column, prefix: at > 0 ? textOf(pieces[0]) : '', suffix: at < pieces.length - 1 ? textOf(pieces[pieces.length - 1]) : '' };
}

/** A tuple table over a data source, as described by its mount parameters. */
export class MountedTable implements MountedTableReader {
  private constructor(
    /** The table's name (for messages). */
    readonly name: string,
    /** The data source's name (for messages). */
    readonly sourceName: string,
    private readonly source: DataSource,
    private readonly selector: TableSelector,
    private readonly output: readonly OutputColumn[],
  ) {}

  /** The number of columns of the tuple table. */
  get arity(): number {
    return this.output.length;
  }

  /**
   * Checks mount parameters against the source and describes the table.
   * @throws BadRequestError naming the parameter that is wrong.
   */
  static async create(name: string, sourceName: string, source: DataSource, parameters: Readonly<Record<string, string>>): Promise<MountedTable> {
    for (const key of Object.keys(parameters)) {
      if (TABLE_PARAMETERS.has(key)) continue;
      const m = /^(\d+)(?:\.(.+))?$/.exec(key);
      if (m && (m[2] === undefined || COLUMN_SETTINGS.has(m[2]))) continue;
      if (/^(table|query)\.\d+\.(nullable|time-zone)$/.test(key)) continue;
      throw new BadRequestError(`unknown parameter '${key}' for tuple table '${name}' on data source '${sourceName}'`);
    }
    if (parameters.type !== undefined && parameters.type !== 'dataSource') throw new BadRequestError(`tuple table '${name}' names a data source, so its type can only be dataSource, not '${parameters.type}'`);
    const query = parameters.query;
    const tableName = parameters['table.name'];
    if (query !== undefined && tableName !== undefined) throw new BadRequestError(`tuple table '${name}' takes table.name or query, not both`);
    let selector: TableSelector;
    if (query !== undefined) selector = { query };
    else if (tableName !== undefined) selector = parameters['table.schema'] !== undefined ? { table: tableName, schema: parameters['table.schema'] } : { table: tableName };
    else {
      const tables = source.tables();
      if (tables.length !== 1) throw new BadRequestError(`tuple table '${name}' must name a table of data source '${sourceName}' (parameter table.name) or give a query`);
      selector = { table: tables[0]!.name };
    }
    const columns = await source.selectorColumns(selector);
    const count = parameters.columns ?? String(columns.length);
    if (!/^\d+$/.test(count) || Number(count) < 1 || Number(count) > 31) throw new BadRequestError(`invalid columns '${count}' for tuple table '${name}': an integer from 1 to 31 is required`);
    const n = Number(count);
    for (const key of Object.keys(parameters)) {
      const k = /^(\d+)/.exec(key);
      if (k && !key.startsWith('table.') && (Number(k[1]) < 1 || Number(k[1]) > n)) throw new BadRequestError(`parameter '${key}' of tuple table '${name}' names column ${k[1]!}, but the table has ${n} (parameter columns)`);
    }
    const output: OutputColumn[] = [];
    for (let k = 1; k <= n; k++) {
      const template = parameters[String(k)] ?? `{${k}}`;
      const pieces = templateOf(template, columns, `template for column ${k} of tuple table '${name}'`);
      const single = singleOf(pieces);
      const datatype = parameters[`${k}.datatype`];
      const plain = single && single.prefix === '' && single.suffix === '';
      const term = datatype !== undefined ? termKindOf(datatype, `${k}.datatype of tuple table '${name}'`) : { kind: 'literal' as const, datatype: plain ? columns[single.column]!.datatype : XSD_STRING };
      const ifEmpty = parameters[`${k}.if-empty`] ?? 'default';
      if (ifEmpty !== 'default' && ifEmpty !== 'absent' && ifEmpty !== 'leave') throw new BadRequestError(`invalid ${k}.if-empty '${ifEmpty}' for tuple table '${name}': default, absent or leave is required`);
      const policy = parameters[`${k}.invalid-literal-policy`] ?? 'error';
      if (policy !== 'error' && policy !== 'as-string' && policy !== 'as-string-silent') throw new BadRequestError(`invalid ${k}.invalid-literal-policy '${policy}' for tuple table '${name}': error, as-string or as-string-silent is required`);
      output.push({ pieces, term, ifEmpty, defaultValue: parameters[`${k}.default`], invalidLiteral: policy === 'error' ? 'error' : 'as-string', single });
    }
    return new MountedTable(name, sourceName, source, selector, output);
  }

  /** What the table reads, for messages. */
  private get what(): string {
    return 'query' in this.selector ? 'query' : `table ${this.selector.table}`;
  }

  scan(bound: ReadonlyArray<string | undefined>, onRow: (row: readonly string[]) => boolean, deadline?: number): boolean {
    const filter = new Map<number, string>();
    for (let k = 0; k < this.output.length; k++) {
      const key = bound[k];
      if (key === undefined) continue;
      const col = this.output[k]!;
      if (!col.single) continue;
      const lexical = this.lexicalOf(key, col);
      // a term this column can never hold: no row matches
      if (lexical === undefined) return false;
      if (!lexical.startsWith(col.single.prefix) || !lexical.endsWith(col.single.suffix) || lexical.length < col.single.prefix.length + col.single.suffix.length) return false;
      const value = lexical.slice(col.single.prefix.length, lexical.length - col.single.suffix.length);
      const earlier = filter.get(col.single.column);
      if (earlier !== undefined && earlier !== value) return false;
      filter.set(col.single.column, value);
    }
    const out: string[] = new Array<string>(this.output.length);
    let row = 0;
    for (const record of this.source.readSync(this.selector, filter.size > 0 ? filter : undefined, deadline)) {
      row++;
      if (!this.convert(record, row, out)) continue;
      let matches = true;
      for (let k = 0; k < out.length && matches; k++) if (bound[k] !== undefined && bound[k] !== out[k]) matches = false;
      if (matches && onRow(out)) return true;
    }
    return false;
  }

  /** The lexical form of a key if a term of this column's kind could be it. */
  private lexicalOf(key: string, col: OutputColumn): string | undefined {
    switch (col.term.kind) {
      case 'iri':
        return key.startsWith('<') ? key.slice(1, -1) : undefined;
      case 'bnode':
        return key.startsWith('_:') ? key.slice(2) : undefined;
      case 'literal': {
        if (!key.startsWith('"')) return undefined;
        const close = key.lastIndexOf('"');
        const suffix = key.slice(close + 1);
        const dt = suffix === '' ? XSD_STRING : suffix.startsWith('^^<') ? suffix.slice(3, -1) : undefined;
        // an invalid value may have become a string: then the pushed-down value is the string's
        if (dt === col.term.datatype || (dt === XSD_STRING && col.invalidLiteral === 'as-string')) return key.slice(1, close);
        return undefined;
      }
    }
  }

  /** Fills `out` with the keys of a record's terms; false when the row is skipped (an absent value). */
  private convert(record: SourceRecord, row: number, out: string[]): boolean {
    for (let k = 0; k < this.output.length; k++) {
      const col = this.output[k]!;
      let lexical = '';
      let empty = false;
      for (const p of col.pieces) {
        if ('text' in p) lexical += p.text;
        else if ('row' in p) lexical += String(row);
        else {
          const v = record[p.column];
          if (v === null || v === undefined || v === '') empty = true;
          else lexical += v;
        }
      }
      if (empty) {
        if (col.ifEmpty === 'absent') return false;
        if (col.ifEmpty === 'default') {
          if (col.defaultValue === undefined) return false;
          lexical = col.defaultValue;
        }
      }
      out[k] = this.keyOf(lexical, col, row, k + 1);
    }
    return true;
  }

  /** The canonical key of a value of a column. */
  private keyOf(lexical: string, col: OutputColumn, row: number, column: number): string {
    switch (col.term.kind) {
      case 'iri':
        return `<${lexical}>`;
      case 'bnode':
        return `_:${lexical}`;
      case 'literal': {
        const dt = col.term.datatype;
        if (dt === XSD_STRING) return `"${lexical}"`;
        const pattern = LEXICAL.get(dt);
        if (pattern && !pattern.test(lexical)) {
          if (col.invalidLiteral === 'as-string') return `"${lexical}"`;
          throw new ParsingError(
            `tuple table '${this.name}' on data source '${this.sourceName}', ${this.what}: row ${row}, column ${column}: '${lexical}' is not a valid literal of datatype <${dt}> (set ${column}.invalid-literal-policy to as-string to keep it as a string)`,
          );
        }
        return `"${lexical}"^^<${dt}>`;
      }
    }
  }
}
