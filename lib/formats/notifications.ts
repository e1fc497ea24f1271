/**
 * The notification answer of an import: error, warning and prefix rows as the input is
 * read, then the summary (information rows). Available as structured rows (columns Type,
 * Line, Column, Description, Value) and as the plain-text lines of the management interface.
 * @module
 */
import type { NotificationRow } from '../model/import-result.js';

export type { ImportResult, NotificationRow, NotificationType } from '../model/import-result.js';

/** Column names of the notification answer, in order. */
export const NOTIFICATION_COLUMNS = ['Type', 'Line', 'Column', 'Description', 'Value'] as const;

/** Collects the notifications and counters of one import. */
export class ImportReport {
  private readonly messages: NotificationRow[] = [];
  /** Number of error rows. */
  errors = 0;
  /** Number of warning rows. */
  warnings = 0;
  /** Whether the import stopped before reading all input. */
  aborted = false;
  /** Facts read from the input. */
  processedFacts = 0;
  /** Facts actually added or deleted. */
  changedFacts = 0;
  /** Rules read from the input. */
  processedRules = 0;
  /** Rules actually added or deleted. */
  changedRules = 0;
  /** Axioms read. */
  processedAxioms = 0;
  /** Axioms actually added or deleted. */
  changedAxioms = 0;
  /** Called with each error, warning or prefix row as it is recorded (for streaming answers). */
  onRow: ((row: NotificationRow) => void) | undefined;

  /** Records an error at an input position. */
  error(message: string, line?: number, column?: number): void {
    this.errors++;
    this.push({ type: 'error', line, column, description: message, value: '' });
  }

  /** Records a warning at an input position. */
  warning(message: string, line?: number, column?: number): void {
    this.warnings++;
    this.push({ type: 'warning', line, column, description: message, value: '' });
  }

  /** Records a prefix definition found in the input. */
  prefix(name: string, iri: string): void {
    this.push({ type: 'prefix', description: name, value: iri });
  }

  /** Error, warning and prefix rows, in input order. */
  get notifications(): readonly NotificationRow[] {
    return this.messages;
  }

  /** The summary rows (#aborted, #errors, …). */
  summary(): NotificationRow[] {
    const info = (description: string, value: string | number | boolean): NotificationRow => ({ type: 'information', description, value: String(value) });
    return [
      info('#aborted', this.aborted),
      info('#errors', this.errors),
      info('#warnings', this.warnings),
      info('#processed-facts', this.processedFacts),
      info('#changed-facts', this.changedFacts),
      info('#processed-rules', this.processedRules),
      info('#changed-rules', this.changedRules),
      info('#processed-axioms', this.processedAxioms),
      info('#changed-axioms', this.changedAxioms),
    ];
  }

  /** Every row: notifications then summary. */
  rows(): NotificationRow[] {
    return [...this.messages, ...this.summary()];
  }

  /** The plain-text form, one line per row, each ending with a newline. */
  toText(): string {
    return this.rows().map((r) => `${formatNotification(r)}\n`).join('');
  }

  private push(row: NotificationRow): void {
    this.messages.push(row);
    this.onRow?.(row);
  }
}

/** One row in the plain-text form. */
export function formatNotification(row: NotificationRow): string {
  switch (row.type) {
    case 'prefix':
      return `prefix: ${row.description} = ${row.value}`;
    case 'information':
      return `information: ${row.description} = ${row.value}`;
    default: {
      const at = (row.line !== undefined ? `line ${row.line}: ` : '') + (row.column !== undefined ? `column ${row.column}: ` : '');
      return `${row.type}: ${at}${row.description}`;
    }
  }
}
