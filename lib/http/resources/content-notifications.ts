/**
 * The answer of a content update: the import's notification rows (columns Type, Line, Column,
 * Description, Value) in the SPARQL answer format the Accept header names, or in the text
 * form (`error: line 1: column 3: …`, `prefix: … = …`, `information: … = …`, Content-Type
 * text/plain) when Accept is absent, `*\/*` or text/plain.
 *
 * Statuses without Notify-Immediately (the whole request is processed first): 400 when the
 * import found an error; 204 with an empty body when there is nothing to report; else 200.
 * With `Notify-Immediately: true` the answer starts at the first error or warning — status
 * 400 when an error came first, 202 when a warning did (the outcome is then unknown until the
 * end of the body) — and every row is written as it occurs while the body is still arriving;
 * an import without errors or warnings is answered as without the header.
 * @module
 */
import type { ServerResponse } from 'node:http';
import type * as RDF from '@rdfjs/types/data-model.js';
import { DataFactory } from 'n3';
import { ANSWER_MEDIA_TYPES, createTableWriter, formatNotification, type ImportResult, NOTIFICATION_COLUMNS, type NotificationRow, type TableWriter } from '../../index.js';
import { errorText } from '../errors.js';
import { booleanTerm, integerTerm } from '../exchange.js';
import { negotiateOrThrow } from '../negotiation.js';

/** The media type of the text form of notifications. */
export const TEXT_PLAIN = 'text/plain';

/**
 * The media type of a content update's answer: text/plain (the default, also for `*\/*`) or a
 * SPARQL answer format.
 * @throws NotAcceptableError (406) when Accept names neither.
 */
export function notificationMediaType(accept: string | undefined): string {
  return negotiateOrThrow(accept, [TEXT_PLAIN, ...ANSWER_MEDIA_TYPES], TEXT_PLAIN);
}

/**
 * Which rows an operation answers with:
 * - `summary`: every notification row and the whole summary (add-content, POST, delete-content in B);
 * - `quiet`: nothing (204) unless there are errors or warnings, then every row (PUT, delete-content in A);
 * - `axioms`: the notification rows and the #processed-axioms and #changed-axioms rows.
 */
export type AnswerShape = 'summary' | 'quiet' | 'axioms';

/** The answer terms of a notification row (empty values and unknown positions are unbound). */
export function notificationTerms(row: NotificationRow): Array<RDF.Term | undefined> {
  const integer = (n: number | undefined): RDF.Term | undefined => (n === undefined ? undefined : integerTerm(n));
  let value: RDF.Term | undefined;
  if (row.value !== '') {
    if (row.type === 'information') value = row.value === 'true' || row.value === 'false' ? booleanTerm(row.value === 'true') : integerTerm(row.value);
    else value = DataFactory.literal(row.value);
  }
  return [DataFactory.literal(row.type), integer(row.line), integer(row.column), DataFactory.literal(row.description), value];
}

/** The rows of a finished import that an answer of `shape` carries. */
export function answerRows(result: ImportResult, shape: AnswerShape): readonly NotificationRow[] {
  if (shape === 'axioms') return result.rows.filter((r) => r.type !== 'information' || r.description === '#processed-axioms' || r.description === '#changed-axioms');
  if (shape === 'quiet' && result.errors === 0 && result.warnings === 0) return [];
  return result.rows;
}

/**
 * Writes the answer of one content update to a response, either all at the end or, with
 * Notify-Immediately, from the first error or warning on.
 */
export class NotificationAnswer {
  private readonly seen: NotificationRow[] = [];
  private written = 0;
  private writer: TableWriter | undefined;

  /** An answer in `mediaType` (text/plain or an answer format); `immediate` for Notify-Immediately. */
  constructor(
    private readonly res: ServerResponse,
    private readonly mediaType: string,
    private readonly immediate: boolean,
  ) {}

  /** Whether the answer has started (its status can no longer change). */
  get started(): boolean {
    return this.res.headersSent;
  }

  /** Records a row as the import reports it; with Notify-Immediately, sends it (starting the answer at the first error or warning). */
  readonly onNotification = (row: NotificationRow): void => {
    this.seen.push(row);
    if (!this.immediate) return;
    if (!this.started) {
      if (row.type !== 'error' && row.type !== 'warning') return;
      this.start(row.type === 'error' ? 400 : 202);
    }
    this.writePending();
  };

  /**
   * Ends the answer of a finished import: the rows of `shape` (those not sent yet), with
   * status 400 when there were errors, 204 when there is nothing to report, else 200.
   */
  finish(result: ImportResult, shape: AnswerShape): void {
    const rows = answerRows(result, shape);
    if (this.started) {
      // the notifications were sent as they came (the answer started at an error or a
      // warning, so every shape has rows): the summary follows them
      this.writePending();
      for (const row of rows) if (row.type === 'information') this.write(row);
      this.end();
      return;
    }
    if (rows.length === 0) {
      this.res.writeHead(result.errors > 0 ? 400 : 204);
      this.res.end();
      return;
    }
    this.start(result.errors > 0 ? 400 : 200);
    for (const row of rows) this.write(row);
    this.end();
  }

  /**
   * Ends an answer that has started when the operation failed with an error instead of
   * finishing: the error becomes a last error row. Returns false (writing nothing) when the
   * answer has not started, so that the caller reports the error as the response.
   */
  abort(error: unknown): boolean {
    if (!this.started) return false;
    if (!this.res.writableEnded) {
      this.write({ type: 'error', description: errorText(error), value: '' });
      this.end();
    }
    return true;
  }

  private start(status: number): void {
    if (this.mediaType === TEXT_PLAIN) {
      this.res.writeHead(status, { 'Content-Type': 'text/plain; charset=UTF-8' });
      return;
    }
    const writer = createTableWriter(this.mediaType, (chunk) => void this.res.write(chunk));
    this.res.writeHead(status, { 'Content-Type': writer.contentType });
    writer.begin(NOTIFICATION_COLUMNS);
    this.writer = writer;
  }

  private writePending(): void {
    while (this.written < this.seen.length) this.write(this.seen[this.written++]!);
  }

  private write(row: NotificationRow): void {
    if (this.writer) this.writer.row(notificationTerms(row));
    else this.res.write(`${formatNotification(row)}\n`);
  }

  private end(): void {
    this.writer?.end();
    this.res.end();
  }
}
