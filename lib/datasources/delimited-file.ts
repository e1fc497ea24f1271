/**
 * The `delimitedFile` kind of data source: a CSV, TSV or other delimited file, read with the
 * csv-parse library as a stream (never whole into memory) every time it is read. Parameters,
 * as RDFox names them: `file` (required), `delimiter` (default `,`; `<tab>` and `<space>`
 * stand for those characters), `header` (default `false`) and `quote` (default `"`). It has
 * one table, `records`, whose columns are named by the header row, or `1`, `2`, … without
 * one; every value is a string.
 *
 * The file must be UTF-8: its bytes are checked as they are read, before csv-parse decodes
 * them, and a malformed byte sequence fails the read (registering the source too, when it lies
 * in what registering reads) with a {@link ParsingError} naming the source, the file and the
 * byte offset and line of the sequence, instead of becoming U+FFFD. No record from the chunk
 * that holds it, or after it, is read.
 *
 * csv-parse is loaded the first time a file is read, not when quadlog is imported, with
 * `require` (its CommonJS build), so that the synchronous read stays synchronous.
 * @module
 */
import { isUtf8 } from 'node:buffer';
import { closeSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import { DataFactory } from 'n3';
import type * as CsvParse from 'csv-parse';
import { AccessDeniedError, BadRequestError, ParsingError, UnknownResourceError } from '../model/errors.js';
import { XSD_STRING } from '../model/terms.js';
import { firstInvalidUtf8, sequenceLength } from '../model/utf8.js';
import {
  type DataSource,
  type DataSourceColumnRow,
  type DataSourceKind,
  type DataSourceSample,
  type OpenedFile,
  type SourceContext,
  type SourceRecord,
  settled,
  type TableSelector,
  tableRow,
} from './source.js';

/** The type name of delimited file sources. */
export const DELIMITED_FILE_TYPE = 'delimitedFile';

/** The one table of a delimited file source. */
export const RECORDS_TABLE = 'records';

const PARAMETERS = ['file', 'delimiter', 'header', 'quote'];

/** The parsed parameters of a delimited file source. */
interface Settings {
  readonly file: string;
  readonly delimiter: string;
  readonly header: boolean;
  readonly quote: string;
}

/** A single character named by a parameter value (`<tab>`, `<space>` or the character itself). */
function character(source: string, key: string, value: string): string {
  const c = value === '<tab>' ? '\t' : value === '<space>' ? ' ' : value;
  if ([...c].length !== 1) throw new BadRequestError(`invalid ${key} '${value}' for data source '${source}': a single character (or <tab>, <space>) is required`);
  if (c === '\n' || c === '\r') throw new BadRequestError(`invalid ${key} for data source '${source}': it cannot be a line break`);
  return c;
}

function settingsOf(source: string, parameters: Readonly<Record<string, string>>): Settings {
  for (const key of Object.keys(parameters)) {
    if (!PARAMETERS.includes(key)) throw new BadRequestError(`unknown parameter '${key}' for data source '${source}' of type ${DELIMITED_FILE_TYPE} (known: ${PARAMETERS.join(', ')})`);
  }
  const file = parameters.file;
  if (file === undefined || file === '') throw new BadRequestError(`data source '${source}' of type ${DELIMITED_FILE_TYPE} needs the parameter 'file'`);
  const header = parameters.header ?? 'false';
  if (header !== 'true' && header !== 'false') throw new BadRequestError(`invalid header '${header}' for data source '${source}': true or false is required`);
  const delimiter = character(source, 'delimiter', parameters.delimiter ?? ',');
  const quote = character(source, 'quote', parameters.quote ?? '"');
  if (delimiter === quote) throw new BadRequestError(`invalid delimiter for data source '${source}': it is the same character as the quote`);
  return { file, delimiter, header: header === 'true', quote };
}

/** A delimited file opened as a data source. */
class DelimitedFileSource implements DataSource {
  constructor(
    private readonly name: string,
    private readonly settings: Settings,
    private readonly context: SourceContext,
    private readonly columnRows: readonly DataSourceColumnRow[],
  ) {}

  describe(): Array<{ property: string; value: string }> {
    return [{ property: 'columns', value: String(this.columnRows.length) }];
  }

  tables(): ReturnType<DataSource['tables']> {
    return [tableRow(RECORDS_TABLE, this.columnRows)];
  }

  columns(table: string): DataSourceColumnRow[] {
    this.check(table);
    return [...this.columnRows];
  }

  selectorColumns(selector: TableSelector): Promise<DataSourceColumnRow[]> {
    return settled(() => {
      if ('query' in selector) throw new BadRequestError(`data source '${this.name}' of type ${DELIMITED_FILE_TYPE} cannot run queries: name its table (${RECORDS_TABLE})`);
      return this.columns(selector.table);
    });
  }

  async sample(table: string, limit: number): Promise<DataSourceSample> {
    this.check(table);
    const rows: DataSourceSample['rows'] = [];
    if (limit > 0) {
      for await (const record of this.rows({ table })) {
        rows.push(record.map((v) => (v === null || v === '' ? undefined : DataFactory.literal(v))));
        if (rows.length >= limit) break;
      }
    }
    return { variables: this.columnRows.map((c) => c.name), rows };
  }

  /** The records, each checked to have the file's number of columns (conditions are not pushed down). */
  async *rows(selector: TableSelector): AsyncGenerator<SourceRecord> {
    if ('query' in selector) throw new BadRequestError(`data source '${this.name}' of type ${DELIMITED_FILE_TYPE} cannot run queries`);
    this.check(selector.table);
    const n = this.columnRows.length;
    let row = 0;
    for await (const record of readRecords(this.name, this.settings, this.context)) {
      row++;
      if (row === 1 && this.settings.header) continue;
      if (record.length < n) throw shortRow(this.name, this.settings.file, row, record.length, n);
      yield record.length === n ? record : record.slice(0, n);
    }
  }

  /** The records, read synchronously, checked as {@link rows} checks them. */
  *readSync(selector: TableSelector): Generator<SourceRecord> {
    if ('query' in selector) throw new BadRequestError(`data source '${this.name}' of type ${DELIMITED_FILE_TYPE} cannot run queries`);
    this.check(selector.table);
    const n = this.columnRows.length;
    let row = 0;
    for (const record of readRecordsSync(this.name, this.settings, this.context)) {
      row++;
      if (row === 1 && this.settings.header) continue;
      if (record.length < n) throw shortRow(this.name, this.settings.file, row, record.length, n);
      yield record.length === n ? record : record.slice(0, n);
    }
  }

  close(): void {
    // nothing is held between reads
  }

  private check(table: string): void {
    if (table !== RECORDS_TABLE) throw new UnknownResourceError(`data source '${this.name}' has no table '${table}' (a ${DELIMITED_FILE_TYPE} source has one table, ${RECORDS_TABLE})`);
  }
}

/** The error of a row with too few columns. */
function shortRow(source: string, file: string, row: number, found: number, required: number): ParsingError {
  return new ParsingError(`data source '${source}', table ${RECORDS_TABLE}: row ${row} of file '${file}' has ${found} column${found === 1 ? '' : 's'}, but ${required} are required`);
}

const requireLibrary = createRequire(import.meta.url);

let csvParse: typeof CsvParse | undefined;

/** The parser of a source's settings (csv-parse loaded on first use). */
function parserOf(settings: Settings): CsvParse.Parser {
  csvParse ??= requireLibrary('csv-parse') as typeof CsvParse;
  return csvParse.parse({ delimiter: settings.delimiter, quote: settings.quote, relax_column_count: true, skip_empty_lines: true, bom: true });
}

/** A malformed UTF-8 byte sequence in a delimited file. */
class InvalidUtf8InFile extends ParsingError {
  constructor(source: string, file: string, offset: number, line: number) {
    super(`data source '${source}': file '${file}' is not UTF-8: invalid UTF-8 byte sequence at byte offset ${offset} (line ${line})`);
    this.name = 'ParsingError';
  }
}

const LF = 0x0a;

/** The line feeds in `bytes[0, end)`. */
function lineFeeds(bytes: Buffer, end: number): number {
  let n = 0;
  for (let i = bytes.indexOf(LF); i >= 0 && i < end; i = bytes.indexOf(LF, i + 1)) n++;
  return n;
}

/**
 * Checks a file's bytes as UTF-8 as they are read, chunk by chunk (a sequence may be split
 * between chunks), and hands on only the bytes checked: those of a sequence cut off at the end
 * of a chunk wait for the next one. Node's `isUtf8` checks each chunk; only a chunk that fails
 * is scanned byte by byte, to say where.
 */
class Utf8Check {
  /** Bytes of the file checked so far. */
  private checked = 0;
  /** The line of the first byte not checked, from 1. */
  private line = 1;
  /** The start of a sequence cut off at the end of the previous chunk. */
  private pending: Buffer = Buffer.alloc(0);

  constructor(
    private readonly source: string,
    private readonly file: string,
  ) {}

  /**
   * Checks the next chunk; returns the bytes to parse (the chunk, without a sequence cut off
   * at its end, after the bytes that waited).
   * @throws InvalidUtf8InFile at a malformed sequence.
   */
  write(chunk: Uint8Array): Buffer {
    const view = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const bytes = this.pending.length === 0 ? view : Buffer.concat([this.pending, view]);
    let cut = bytes.length;
    for (let i = bytes.length - 1; i >= 0 && i >= bytes.length - 3; i--) {
      const b = bytes[i]!;
      if (b < 0x80) break;
      if (b >= 0xc0) {
        if (bytes.length - i < sequenceLength(b)) cut = i;
        break;
      }
    }
    const whole = bytes.subarray(0, cut);
    if (!isUtf8(whole)) {
      const at = firstInvalidUtf8(whole);
      throw new InvalidUtf8InFile(this.source, this.file, this.checked + at, this.line + lineFeeds(whole, at));
    }
    this.checked += cut;
    this.line += lineFeeds(whole, cut);
    this.pending = Buffer.from(bytes.subarray(cut));
    return whole;
  }

  /**
   * Ends the file.
   * @throws InvalidUtf8InFile when it ends inside a sequence.
   */
  end(): void {
    if (this.pending.length > 0) throw new InvalidUtf8InFile(this.source, this.file, this.checked, this.line);
  }
}

/** Bytes read from the file at a time. */
const CHUNK_BYTES = 1 << 16;

/**
 * The records of the file, read synchronously: the file in chunks through csv-parse's stream
 * parser, whose records are taken from its readable side as soon as each chunk is written.
 */
function* readRecordsSync(source: string, settings: Settings, context: SourceContext): Generator<string[]> {
  let fd: number;
  try {
    fd = context.openFileSync(settings.file);
  } catch (e) {
    throw unreadable(source, settings.file, e);
  }
  const parser = parserOf(settings);
  const check = new Utf8Check(source, settings.file);
  // errors surface through `errored`; the listener keeps the event from being unhandled
  parser.on('error', () => undefined);
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  try {
    for (;;) {
      let n: number;
      try {
        n = readSync(fd, buffer, 0, CHUNK_BYTES, null);
      } catch (e) {
        throw unreadable(source, settings.file, e);
      }
      if (n === 0) {
        check.end();
        parser.end();
      } else {
        const bytes = check.write(buffer.subarray(0, n));
        // the parser may keep what it is given: a copy, as the buffer is read into again
        if (bytes.length > 0) parser.write(Buffer.from(bytes));
      }
      for (let r = parser.read() as string[] | null; r !== null; r = parser.read() as string[] | null) yield r;
      if (parser.errored) throw unreadable(source, settings.file, parser.errored);
      if (n === 0) break;
    }
  } finally {
    closeSync(fd);
    if (!parser.destroyed) parser.destroy();
  }
}

/** Why a file could not be read, for a message that names the source (never the file's content). */
function unreadable(source: string, file: string, e: unknown): Error {
  if (e instanceof InvalidUtf8InFile) return e;
  if (csvParse !== undefined && e instanceof csvParse.CsvError) {
    const line = typeof e.lines === 'number' ? ` at line ${e.lines}` : '';
    return new ParsingError(`data source '${source}': file '${file}' is not a valid delimited file${line} (${e.code})`);
  }
  const reason = e instanceof Error ? e.message.replace(/^cannot import from '[^']*': /, '') : String(e);
  // a refusal stays a refusal (HTTP 403); anything else is a file that cannot be read
  const Kind = e instanceof AccessDeniedError ? AccessDeniedError : ParsingError;
  return new Kind(`data source '${source}': cannot read file '${file}': ${reason}`);
}

/** The records of the file, streamed through csv-parse. */
async function* readRecords(source: string, settings: Settings, context: SourceContext): AsyncGenerator<string[]> {
  let opened: OpenedFile;
  try {
    opened = await context.openFile(settings.file);
  } catch (e) {
    throw unreadable(source, settings.file, e);
  }
  const parser = parserOf(settings);
  const check = new Utf8Check(source, settings.file);
  const feeding = (async () => {
    try {
      for await (const chunk of opened.chunks) {
        if (parser.destroyed) break;
        const bytes = check.write(chunk);
        if (bytes.length > 0 && !parser.write(bytes)) await drainedOrClosed(parser);
      }
      if (!parser.destroyed) {
        check.end();
        parser.end();
      }
    } catch (e) {
      parser.destroy(e instanceof Error ? e : new Error(String(e)));
    }
  })();
  try {
    for await (const record of parser as AsyncIterable<string[]>) yield record;
  } catch (e) {
    throw unreadable(source, settings.file, e);
  } finally {
    if (!parser.destroyed) parser.destroy();
    await feeding;
    await opened.close?.();
  }
}

/** The delimited file kind: opening reads the first record to learn the columns. */
export const delimitedFileKind: DataSourceKind = {
  async open(name: string, parameters: Readonly<Record<string, string>>, context: SourceContext): Promise<DataSource> {
    const settings = settingsOf(name, parameters);
    let first: string[] | undefined;
    for await (const record of readRecords(name, settings, context)) {
      first = record;
      break;
    }
    const columns: DataSourceColumnRow[] = (first ?? []).map((cell, i) => ({ column: i + 1, name: settings.header ? cell : String(i + 1), datatype: XSD_STRING }));
    const names = new Set<string>();
    for (const c of columns) {
      if (c.name === '') throw new BadRequestError(`data source '${name}': column ${c.column} of the header of file '${settings.file}' has no name`);
      if (names.has(c.name)) throw new BadRequestError(`data source '${name}': the header of file '${settings.file}' names column '${c.name}' twice`);
      names.add(c.name);
    }
    return new DelimitedFileSource(name, settings, context, columns);
  },
};

/** Resolves once the parser takes writes again or is closed; the listener that did not fire is removed (one pair per wait would pile up on a long file). */
function drainedOrClosed(parser: NodeJS.EventEmitter): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = (): void => {
      parser.off('drain', done);
      parser.off('close', done);
      resolve();
    };
    parser.once('drain', done).once('close', done);
  });
}
