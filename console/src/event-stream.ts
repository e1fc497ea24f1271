/**
 * What the console's live view reads, without the DOM: Server-Sent Events taken apart as the
 * body of a `text/event-stream` answer arrives (in chunks cut anywhere), the live-answer events
 * of the endpoint (`answer`, `change`, `error`; their data is one line of JSON with SPARQL JSON
 * bindings), and a live answer that applies them: the rows in arrival order, each change's
 * added rows appended and removed rows marked (the view strikes them out, then drops them).
 * @module
 */
import { parseSparqlJson, type Term } from './terms.js';

/** One event of a stream: its id (`id:`), its type (`event:`, default `message`) and its data. */
export interface StreamEvent {
  /** The last id the stream gave (carried over from earlier events, as EventSource does). */
  readonly id: string | undefined;
  /** The type. */
  readonly type: string;
  /** The data lines, joined by line feeds. */
  readonly data: string;
}

/**
 * Takes a `text/event-stream` body apart, chunk by chunk: {@link EventStreamParser.push} returns
 * the events the text so far completes. Lines end with CR LF, LF or CR; comment lines (`:`) and
 * unknown fields are skipped; an event without data is not dispatched.
 */
export class EventStreamParser {
  private buffer = '';
  private lastId: string | undefined;
  private type = '';
  private data: string[] = [];
  private pendingCr = false;

  /** Adds text; returns the events it completes. */
  push(text: string): StreamEvent[] {
    let input = text;
    // a CR that ended the last chunk may be the first half of CR LF
    if (this.pendingCr && input.startsWith('\n')) input = input.slice(1);
    this.pendingCr = false;
    this.buffer += input;
    const events: StreamEvent[] = [];
    for (;;) {
      const match = /\r\n|\n|\r/.exec(this.buffer);
      if (!match) break;
      if (match[0] === '\r' && match.index === this.buffer.length - 1) {
        this.pendingCr = true;
      }
      const line = this.buffer.slice(0, match.index);
      this.buffer = this.buffer.slice(match.index + match[0].length);
      const event = this.line(line);
      if (event) events.push(event);
    }
    return events;
  }

  private line(line: string): StreamEvent | undefined {
    if (line === '') {
      const data = this.data;
      const type = this.type;
      this.data = [];
      this.type = '';
      if (data.length === 0) return undefined;
      return { id: this.lastId, type: type === '' ? 'message' : type, data: data.join('\n') };
    }
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.type = value;
    else if (field === 'id' && !value.includes('\u0000')) this.lastId = value;
    return undefined;
  }
}

/** A row of an answer: one term (or undefined) per variable. */
export type Row = ReadonlyArray<Term | undefined>;

/** A live-answer event of the endpoint. */
export type LiveEvent =
  | { readonly kind: 'answer'; readonly version: number; readonly variables: readonly string[]; readonly rows: readonly Row[]; readonly missedFrom: number | undefined }
  | { readonly kind: 'change'; readonly version: number; readonly variables: readonly string[]; readonly additions: readonly Row[]; readonly deletions: readonly Row[] }
  | { readonly kind: 'error'; readonly message: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The rows of `{"head":…,"results":{"bindings":[…]}}` shaped data. */
function rowsOf(head: unknown, bindings: unknown): { variables: readonly string[]; rows: readonly Row[] } {
  const answer = parseSparqlJson(JSON.stringify({ head, results: { bindings } }));
  return { variables: answer.variables, rows: answer.rows };
}

/**
 * The live-answer event of a stream event, or undefined for other event types.
 * @throws Error when its data is not what the endpoint sends.
 */
export function liveEvent(event: StreamEvent): LiveEvent | undefined {
  if (event.type !== 'answer' && event.type !== 'change' && event.type !== 'error') return undefined;
  const data: unknown = JSON.parse(event.data);
  if (!isRecord(data)) throw new Error(`the ${event.type} event's data is not a JSON object`);
  if (event.type === 'error') return { kind: 'error', message: typeof data['message'] === 'string' ? data['message'] : 'the live answer failed' };
  const version = data['version'];
  if (typeof version !== 'number') throw new Error(`the ${event.type} event has no version`);
  if (event.type === 'answer') {
    const results = isRecord(data['results']) ? data['results']['bindings'] : undefined;
    const { variables, rows } = rowsOf(data['head'], results);
    const missed = data['missedFrom'];
    return { kind: 'answer', version, variables, rows, missedFrom: typeof missed === 'number' ? missed : undefined };
  }
  const additions = rowsOf(data['head'], isRecord(data['additions']) ? data['additions']['bindings'] : undefined);
  const deletions = rowsOf(data['head'], isRecord(data['deletions']) ? data['deletions']['bindings'] : undefined);
  return { kind: 'change', version, variables: additions.variables, additions: additions.rows, deletions: deletions.rows };
}

/** The key of a row: equal rows (same terms) have equal keys. */
export function rowKey(row: Row): string {
  return JSON.stringify(row.map((t) => (t === undefined ? null : [t.type, t.value, t.datatype ?? '', t.lang ?? ''])));
}

/** A row of a live answer, with its state: shown, just added, or removed (struck out until dropped). */
export interface LiveRow {
  /** The row's identity in this answer (stable while it is shown). */
  readonly id: number;
  /** The terms. */
  readonly row: Row;
  /** Its key. */
  readonly key: string;
  /** `added` by the last change, `removed` by one, or plain. */
  state: 'shown' | 'added' | 'removed';
}

/**
 * The rows of a live answer, in arrival order. An `answer` event replaces them; a `change`
 * marks one shown row per deleted row `removed` (a bag: one copy per deletion) and appends
 * the added rows as `added`. Rows marked removed stay until {@link LiveAnswer.drop} (the view
 * shows them struck out for a moment).
 */
export class LiveAnswer {
  /** The answer variables. */
  variables: readonly string[] = [];
  /** The data store version of the answer. */
  version: number | undefined;
  /** The rows, removed ones included until dropped. */
  rows: LiveRow[] = [];
  private nextId = 0;

  /** The number of rows in the answer (without those removed). */
  get size(): number {
    return this.rows.filter((r) => r.state !== 'removed').length;
  }

  /** Applies an answer or a change; returns the rows it added and those it marked removed. */
  apply(event: Exclude<LiveEvent, { kind: 'error' }>): { readonly added: readonly LiveRow[]; readonly removed: readonly LiveRow[] } {
    this.version = event.version;
    this.variables = event.variables;
    if (event.kind === 'answer') {
      this.rows = event.rows.map((row) => ({ id: this.nextId++, row, key: rowKey(row), state: 'shown' as const }));
      return { added: [], removed: [] };
    }
    for (const r of this.rows) if (r.state === 'added') r.state = 'shown';
    const removed: LiveRow[] = [];
    for (const row of event.deletions) {
      const key = rowKey(row);
      const found = this.rows.find((r) => r.key === key && r.state !== 'removed');
      if (found) {
        found.state = 'removed';
        removed.push(found);
      }
    }
    const added = event.additions.map((row): LiveRow => ({ id: this.nextId++, row, key: rowKey(row), state: 'added' }));
    this.rows.push(...added);
    return { added, removed };
  }

  /** Drops rows marked removed (those given, or all). */
  drop(rows?: readonly LiveRow[]): void {
    const gone = new Set(rows ?? this.rows.filter((r) => r.state === 'removed'));
    this.rows = this.rows.filter((r) => !(gone.has(r) && r.state === 'removed'));
  }
}
