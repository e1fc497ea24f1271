/**
 * Printing for the shell: answer tables (terms in Turtle syntax, IRIs abbreviated by the
 * store's prefixes), listings, durations, sizes and progress lines.
 * @module
 */
import type * as RDF from '@rdfjs/types/data-model.js';
import { createTableWriter, type ProgressReport } from '../index.js';

/** Formats rows of RDF terms as lines of cells in Turtle syntax, with the store's prefixes. */
export class TermFormatter {
  private line = '';
  private readonly writer;

  /** Creates a formatter using `prefixes` (name with colon → IRI) to abbreviate IRIs. */
  constructor(prefixes: ReadonlyMap<string, string>) {
    // the abbreviating TSV format writes every term in Turtle syntax, one row per line
    this.writer = createTableWriter('text/x.tab-separated-values-abbrev', (chunk) => (this.line += chunk), { prefixes });
  }

  /** The cells of the header of a table with these columns (`?name`). */
  header(columns: readonly string[]): string[] {
    this.line = '';
    this.writer.begin(columns);
    return this.cells();
  }

  /** The cells of one row ('' for unbound). */
  row(values: ReadonlyArray<RDF.Term | undefined>): string[] {
    this.line = '';
    this.writer.row(values);
    return this.cells();
  }

  private cells(): string[] {
    const text = this.line.endsWith('\n') ? this.line.slice(0, -1) : this.line;
    return text === '' ? [] : text.split('\t');
  }
}

/** The display width of a cell (code points). */
function width(text: string): number {
  return [...text].length;
}

function pad(text: string, to: number): string {
  const w = width(text);
  return w >= to ? text : text + ' '.repeat(to - w);
}

/** A table printed page by page: column widths come from the first page (and grow with later ones). */
export class TablePrinter {
  private widths: number[];
  private started = false;

  /** Creates a printer for a table with the given header cells. */
  constructor(private readonly headerCells: readonly string[]) {
    this.widths = headerCells.map(width);
  }

  /** The text of a page of rows (with the header before the first page). */
  page(rows: ReadonlyArray<readonly string[]>): string {
    for (const row of rows) row.forEach((cell, i) => (this.widths[i] = Math.max(this.widths[i] ?? 0, width(cell))));
    const lines: string[] = [];
    if (!this.started) {
      this.started = true;
      if (this.headerCells.length > 0) {
        lines.push(this.line(this.headerCells));
        lines.push(this.widths.map((w) => '-'.repeat(w + 2)).join('+'));
      }
    }
    for (const row of rows) lines.push(this.line(row));
    return lines.length > 0 ? lines.join('\n') + '\n' : '';
  }

  private line(cells: readonly string[]): string {
    return cells
      .map((cell, i) => ` ${pad(cell, this.widths[i] ?? 0)} `)
      .join('|')
      .replace(/\s+$/, '');
  }
}

/** A listing of columns and rows of plain text (roles, stores, properties). */
export function listing(columns: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const printer = new TablePrinter(columns);
  return printer.page(rows);
}

/** Seconds with up to three decimals: `0.012 s`. */
export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(ms < 10_000 ? 3 : 1)} s`;
}

/** A byte size in B, KB, MB or GB (powers of 1000). */
export function bytesText(n: number): string {
  if (n < 1000) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = n / 1000;
  let u = 0;
  while (v >= 1000 && u < units.length - 1) {
    v /= 1000;
    u++;
  }
  return `${v.toFixed(v < 10 ? 2 : 1)} ${units[u]!}`;
}

/** A count with thousands separators: `12,345`. */
export function count(n: number): string {
  return Math.round(n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** `n word` or `n words`. */
export function plural(n: number, word: string, words = `${word}s`): string {
  return `${count(n)} ${n === 1 ? word : words}`;
}

/** The rate and time left of a progress report: per second by bytes (when read) or facts. */
export function progressRates(report: ProgressReport): { readonly rate: string; readonly left: string | undefined } {
  const secs = report.elapsedMs / 1000;
  const byBytes = report.bytes > 0;
  const perSecond = secs > 0 ? (byBytes ? report.bytes : report.facts) / secs : 0;
  const rate = byBytes ? `${bytesText(perSecond)}/s` : `${count(perSecond)} facts/s`;
  const f = report.fraction;
  const left = f !== undefined && f > 0 && f < 1 ? `${Math.ceil((secs * (1 - f)) / f)} s left` : undefined;
  return { rate, left };
}

/** A one-line description of a progress report, for output that is not a terminal. */
export function progressLine(label: string, report: ProgressReport): string {
  const parts: string[] = [];
  if (report.fraction !== undefined) parts.push(`${Math.floor(report.fraction * 100)}%`);
  if (report.bytes > 0) parts.push(report.totalBytes !== undefined ? `${bytesText(report.bytes)} of ${bytesText(report.totalBytes)}` : bytesText(report.bytes));
  parts.push(plural(report.facts, 'fact'));
  const { rate, left } = progressRates(report);
  parts.push(rate);
  if (left) parts.push(left);
  parts.push(`${seconds(report.elapsedMs)} elapsed`);
  return `${label}: ${parts.join(', ')}`;
}
