/**
 * The live view of a SELECT query's answer: the query is sent as
 * `GET /datastores/<ds>/sparql?query=…` with `Accept: text/event-stream`, with the role's
 * credentials like every other request of the console (`fetch`, reading the body as it
 * streams), and the endpoint answers with the whole answer, then the answer's changes at every
 * commit. The table shows the answer; each change's added rows are highlighted, its removed
 * rows struck out for a moment, then dropped. The version the table shows is in the head line;
 * when the endpoint had to send the whole answer again (this page fell behind), a notice says
 * from which version the changes were missed.
 *
 * When the stream breaks off (the network, a restarted endpoint), the view reconnects after a
 * pause, giving the last version it holds (`last-event-id`): the endpoint sends the changes
 * after it, or the whole answer again with the notice. An error answer or event ends the view.
 * It also ends when the user toggles it off, runs another query, or leaves the query tab or
 * the store; the request is then aborted, which ends the watch at the endpoint.
 * @module
 */
import { type Api, ApiError, resource } from './api.js';
import { h, replace } from './dom.js';
import { EventStreamParser, LiveAnswer, liveEvent, type LiveRow } from './event-stream.js';
import { type Prefix, showTerm, type Term } from './terms.js';

/** The media type of Server-Sent Events. */
const EVENT_STREAM = 'text/event-stream';

/** How long a removed row stays struck out before it goes (ms). */
const REMOVED_ROW_MS = 1500;

/** The first and the longest pause before reconnecting (ms). */
const RETRY_FIRST_MS = 1000;
const RETRY_MAX_MS = 15_000;

/** What the live view tells the query panel. */
export interface LiveListener {
  /** The view is connecting (`connecting`), shows the answer (`live`), failed (`error`). */
  state(state: 'connecting' | 'live' | 'error', message: string): void;
}

function clock(): string {
  return new Date().toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

/** The live view of one query. */
export class LiveView {
  /** The view's element. */
  readonly element: HTMLElement;
  private readonly head = h('div', { class: 'live-head', 'data-role': 'live-status' });
  private readonly notice = h('p', { class: 'live-notice', 'data-role': 'live-notice', role: 'status', hidden: true });
  private readonly tableHead = h('thead', {});
  private readonly tableBody = h('tbody', {});
  private readonly answer = new LiveAnswer();
  private readonly rowElements = new Map<number, HTMLTableRowElement>();
  private readonly controller = new AbortController();
  private readonly timers = new Set<number>();
  private stopped = false;
  private lastChange = '';

  /** A live view of `text` on `store`, telling `listener` how it goes. */
  constructor(
    private readonly api: Api,
    private readonly store: string,
    private readonly text: string,
    private readonly prefixes: () => readonly Prefix[],
    private readonly listener: LiveListener,
  ) {
    this.element = h(
      'div',
      { class: 'live-view', 'data-role': 'live-view' },
      this.head,
      this.notice,
      h('div', { class: 'table-wrap' }, h('table', { class: 'answer live', 'data-role': 'live-answer' }, this.tableHead, this.tableBody)),
    );
    this.renderHead();
  }

  /** Whether the view still follows the answer. */
  get running(): boolean {
    return !this.stopped;
  }

  /** The version shown (undefined before the first answer). */
  get version(): number | undefined {
    return this.answer.version;
  }

  /** Starts following the answer (reconnecting until stopped or failed). */
  async start(): Promise<void> {
    let pause = RETRY_FIRST_MS;
    while (!this.stopped) {
      this.listener.state('connecting', this.answer.version === undefined ? 'Connecting to the live answer…' : `Reconnecting after version ${this.answer.version}…`);
      try {
        const received = await this.follow();
        if (received) pause = RETRY_FIRST_MS;
      } catch (e) {
        if (this.stopped) return;
        if (e instanceof ApiError || e instanceof SyntaxError || (e instanceof Error && e.name === 'LiveError')) {
          this.fail(e.message);
          return;
        }
        // a network failure: try again after a pause
      }
      if (this.stopped) return;
      await this.sleep(pause);
      pause = Math.min(pause * 2, RETRY_MAX_MS);
    }
  }

  /** Stops following: the request is aborted (the endpoint ends its watch). */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.controller.abort();
    for (const timer of this.timers) window.clearTimeout(timer);
    this.timers.clear();
    this.element.setAttribute('data-state', 'stopped');
  }

  private fail(message: string): void {
    this.stop();
    this.element.setAttribute('data-state', 'failed');
    this.listener.state('error', message);
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = window.setTimeout(() => {
        this.timers.delete(timer);
        resolve();
      }, ms);
      this.timers.add(timer);
      this.controller.signal.addEventListener('abort', () => resolve(), { once: true });
    });
  }

  /** One connection: reads events until the stream ends; resolves whether any event came. */
  private async follow(): Promise<boolean> {
    const params: Record<string, string> = { query: this.text };
    if (this.answer.version !== undefined) params['last-event-id'] = String(this.answer.version);
    const response = await this.api.request(resource('datastores', this.store, 'sparql'), { params, accept: EVENT_STREAM, signal: this.controller.signal });
    const type = (response.headers.get('Content-Type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== EVENT_STREAM || response.body === null) {
      const error = new Error(`the endpoint answered ${type === '' ? 'without a content type' : type}, not a live answer (${EVENT_STREAM})`);
      error.name = 'LiveError';
      throw error;
    }
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    const parser = new EventStreamParser();
    let received = false;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done || this.stopped) break;
        for (const streamEvent of parser.push(value)) {
          const event = liveEvent(streamEvent);
          if (!event) continue;
          received = true;
          if (event.kind === 'error') {
            this.fail(event.message);
            return received;
          }
          this.show(event);
        }
      }
    } finally {
      reader.releaseLock();
    }
    return received;
  }

  private show(event: Parameters<LiveAnswer['apply']>[0]): void {
    const { added, removed } = this.answer.apply(event);
    if (event.kind === 'answer') {
      if (event.missedFrom !== undefined) {
        this.notice.hidden = false;
        this.notice.setAttribute('data-missed-from', String(event.missedFrom));
        replace(this.notice, `Resynchronised at version ${event.version}: the changes from version ${event.missedFrom} on came faster than this page read them, so the whole answer was read again (${clock()}).`);
      }
      this.lastChange = event.missedFrom !== undefined ? 'the whole answer read again' : '';
      this.renderTable();
    } else {
      for (const row of this.answer.rows) {
        const element = this.rowElements.get(row.id);
        if (element && row.state === 'shown' && element.getAttribute('data-live') !== 'shown') element.setAttribute('data-live', 'shown');
      }
      for (const row of removed) this.rowElements.get(row.id)?.setAttribute('data-live', 'removed');
      for (const row of added) this.tableBody.append(this.rowElement(row));
      if (removed.length > 0) {
        const timer = window.setTimeout(() => {
          this.timers.delete(timer);
          this.answer.drop(removed);
          for (const row of removed) {
            this.rowElements.get(row.id)?.remove();
            this.rowElements.delete(row.id);
          }
          this.renderHead();
        }, REMOVED_ROW_MS);
        this.timers.add(timer);
      }
      this.lastChange = `+${added.length} −${removed.length} at ${clock()}`;
    }
    this.renderHead();
    this.listener.state('live', `Live: the answer follows every commit of ${this.store} (toggle Live off to stop).`);
  }

  private renderHead(): void {
    const version = this.answer.version;
    const size = this.answer.size;
    this.head.setAttribute('data-version', version === undefined ? '' : String(version));
    this.head.setAttribute('data-rows', String(size));
    replace(
      this.head,
      h('span', { class: 'live-dot', 'aria-hidden': 'true' }),
      version === undefined ? 'Waiting for the answer…' : `Version ${version} · ${size} ${size === 1 ? 'row' : 'rows'}`,
      this.lastChange !== '' ? h('span', { class: 'hint' }, ` · last change ${this.lastChange}`) : null,
    );
  }

  private renderTable(): void {
    replace(this.tableHead, h('tr', {}, ...this.answer.variables.map((v) => h('th', {}, `?${v}`))));
    this.rowElements.clear();
    replace(this.tableBody, ...this.answer.rows.map((row) => this.rowElement(row)));
  }

  private rowElement(row: LiveRow): HTMLTableRowElement {
    const prefixes = this.prefixes();
    const cell = (term: Term | undefined): HTMLTableCellElement => {
      const shown = showTerm(term, prefixes);
      return h('td', { class: `term term-${shown.kind}`, title: shown.full }, shown.text, shown.annotation !== undefined ? h('span', { class: 'annotation' }, shown.annotation) : null);
    };
    const element = h('tr', { 'data-live': row.state }, ...row.row.map(cell));
    this.rowElements.set(row.id, element);
    return element;
  }
}
