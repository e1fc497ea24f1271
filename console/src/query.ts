/**
 * The query tab of a store: the editor, Run (Ctrl-Enter) and Stop, the history, and the
 * answer, paged through a cursor.
 *
 * A run opens a data store connection of its own (its token kept in memory), then
 * - a query becomes a cursor on it (`POST …/cursors`), whose pages are fetched one at a time
 *   (`PATCH …/cursors/<id>?operation=open|advance&limit=<page size>`): the page never holds more
 *   than one page of rows. The ten pages seen last are kept for Previous; going back further
 *   opens the cursor again and skips ahead;
 * - an update is sent to `/datastores/<ds>/sparql?connection=<id>`.
 * Stop cancels the running request: in variant B by its request ID (`DELETE /requests/<id>`),
 * and in both variants by interrupting the connection (`PATCH …?operation=interrupt`), then
 * drops the HTTP request (which the endpoint also takes as a cancellation). The connection is
 * closed when the query stops or fails, when the next query runs, when another store is chosen
 * and at sign-out.
 *
 * Live (a toggle) follows a SELECT query's answer as commits change it (see live.ts) instead of
 * paging through a cursor; it stops when toggled off, at Stop, when another query runs, and when
 * the query tab or the store is left.
 *
 * Plan shows the query's plan (`POST …/sparql?explain=true`, answered as text). Download and
 * Copy fetch the editor's query's whole answer again in the format chosen (downloads.ts) and
 * save it as a file or copy it; Stop stops them as it stops a query. An error that names a
 * line and column (a syntax error) is marked there in the editor. A SELECT answer with one
 * label column and numeric columns (an aggregate) can be seen as a bar or line chart
 * (charts.ts). The keys of these tools are listed in shortcuts.ts.
 *
 * The store's saved queries (saved.ts) are listed between the toolbar and the answer.
 *
 * The history (the last 50 texts run, per store, each with the time its last run took) is kept
 * in the tab's sessionStorage: it survives a reload, is never shared with other tabs or sites,
 * is gone when the tab closes, and sign-out clears it.
 * @module
 */
import { Api, ApiError, type OpenConnection, randomId, resource, SPARQL_JSON } from './api.js';
import { chartData, type ChartKind, chartPicture } from './charts.js';
import { h, replace } from './dom.js';
import { copyText, type DownloadFormat, downloadName, fetchAnswer, formatsFor, saveBlob } from './downloads.js';
import { createEditor, type SparqlEditor } from './editor.js';
import { errorPosition } from './error-position.js';
import { graphPicture, type Triple } from './graph.js';
import { LiveView } from './live.js';
import { SavedQueriesPanel } from './saved.js';
import { type Answer, parseSparqlJson, type Prefix, showTerm, type SparqlForm, sparqlForm, type Term } from './terms.js';

const HISTORY_KEY = 'quadlog-console:history';
const HISTORY_SIZE = 50;
const KEPT_PAGES = 10;
const SKIP_CHUNK = 1000;
const PAGE_SIZES = [100, 500, 1000];

/** An entry of the query history. */
interface HistoryEntry {
  readonly store: string;
  readonly text: string;
  /** How long its last run took (milliseconds), once known. */
  readonly ms?: number;
}

function readHistory(): HistoryEntry[] {
  try {
    const parsed: unknown = JSON.parse(sessionStorage.getItem(HISTORY_KEY) ?? '[]');
    if (!Array.isArray(parsed)) return [];
    return parsed.filter(
      (e): e is HistoryEntry =>
        typeof e === 'object' && e !== null && typeof (e as HistoryEntry).store === 'string' && typeof (e as HistoryEntry).text === 'string' && ['number', 'undefined'].includes(typeof (e as HistoryEntry).ms),
    );
  } catch {
    return [];
  }
}

/** Forgets the query history (at sign-out). */
export function clearHistory(): void {
  sessionStorage.removeItem(HISTORY_KEY);
}

function remember(store: string, text: string, ms?: number): void {
  const entries = readHistory().filter((e) => !(e.store === store && e.text === text));
  entries.unshift({ store, text, ...(ms !== undefined ? { ms: Math.round(ms * 10) / 10 } : {}) });
  sessionStorage.setItem(HISTORY_KEY, JSON.stringify(entries.slice(0, HISTORY_SIZE)));
}

/** A page of a cursor. */
interface Page {
  readonly position: number;
  readonly answer: Answer;
  readonly more: boolean;
}

/** The cursor whose pages are shown. */
interface Shown {
  readonly connection: OpenConnection;
  readonly cursor: URL;
  readonly form: SparqlForm;
  readonly pageSize: number;
  page: Page;
  /** The row count, once the last page was seen. */
  total: number | undefined;
  readonly pages: Map<number, Page>;
}

/** The request running now. */
interface Running {
  readonly requestId: string;
  readonly controller: AbortController;
  readonly started: number;
  connection: OpenConnection | undefined;
  stops: number;
}

function duration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}

function milliseconds(since: number): string {
  return duration(performance.now() - since);
}

/** The query tab of one store. */
export class QueryPanel {
  /** The tab's element. */
  readonly element: HTMLElement;
  private readonly editor: SparqlEditor;
  private readonly status = h('div', { class: 'status', 'data-role': 'status', 'data-seq': '0', 'aria-live': 'polite' });
  private readonly results = h('div', { class: 'results', 'data-role': 'results' });
  private readonly runButton = h('button', { type: 'button', class: 'primary', 'data-role': 'run', title: 'Run (Ctrl-Enter)' }, 'Run');
  private readonly stopButton = h('button', { type: 'button', 'data-role': 'stop', disabled: true, title: 'Stop the running request' }, 'Stop');
  private readonly pageSize = h('select', { 'data-role': 'page-size', 'aria-label': 'rows per page' }, ...PAGE_SIZES.map((n) => h('option', { value: n }, `${n} rows a page`)));
  private readonly history = h('select', { 'data-role': 'history', 'aria-label': 'query history' });
  private readonly planButton = h('button', { type: 'button', 'data-role': 'plan', title: 'Show the plan of the query (Ctrl-Shift-Enter)' }, 'Plan');
  private readonly format = h('select', { 'data-role': 'download-format', 'aria-label': 'answer format' });
  private readonly downloadButton = h('button', { type: 'button', 'data-role': 'download', title: 'Download the whole answer in the chosen format (Ctrl-Shift-S)' }, 'Download');
  private readonly copyButton = h('button', { type: 'button', 'data-role': 'copy', title: 'Copy the whole answer in the chosen format' }, 'Copy');
  private formats: DownloadFormat[] = [];
  private readonly liveButton = h(
    'button',
    { type: 'button', class: 'live-toggle', 'data-role': 'live', 'aria-pressed': 'false', title: 'Keep the answer of a SELECT query up to date as commits change it' },
    'Live',
  );
  private live: LiveView | undefined;
  private running: Running | undefined;
  private shown: Shown | undefined;
  private view: 'table' | 'graph' = 'table';
  private chartView: 'table' | ChartKind = 'table';
  private ticker: number | undefined;

  /** The tab of `store`; `prefixes` gives the store's prefixes as last read. */
  constructor(
    private readonly api: Api,
    private readonly store: string,
    private readonly prefixes: () => readonly Prefix[],
  ) {
    const host = h('div', { class: 'editor-host' });
    const last = readHistory().find((e) => e.store === store)?.text;
    this.editor = createEditor(
      host,
      prefixes,
      {
        run: () => void this.run(),
        plan: () => void this.plan(),
        download: () => void this.download(),
        stop: () => {
          if (!this.running && !this.live) return false;
          void this.stop();
          return true;
        },
        changed: () => this.fillFormats(),
      },
      last ?? 'SELECT ?s ?p ?o WHERE { ?s ?p ?o } LIMIT 100',
    );
    this.runButton.addEventListener('click', () => void this.run());
    this.planButton.addEventListener('click', () => void this.plan());
    this.downloadButton.addEventListener('click', () => void this.download());
    this.copyButton.addEventListener('click', () => void this.copy());
    this.stopButton.addEventListener('click', () => void this.stop());
    this.liveButton.addEventListener('click', () => {
      if (this.live) this.stopLive();
      else this.startLive();
    });
    this.history.addEventListener('change', () => {
      const index = Number(this.history.value);
      const entry = this.storeHistory()[index];
      if (entry) this.editor.setText(entry.text);
      this.history.value = '';
      this.editor.focus();
    });
    this.fillHistory();
    this.fillFormats();
    this.element = h(
      'section',
      { class: 'query-panel', 'data-role': 'query-panel' },
      host,
      h(
        'div',
        { class: 'toolbar' },
        this.runButton,
        this.stopButton,
        this.liveButton,
        this.planButton,
        this.pageSize,
        this.history,
        h('span', { class: 'answer-tools' }, this.format, this.downloadButton, this.copyButton),
        h('span', { class: 'hint' }, 'Ctrl-Enter runs · Ctrl-Shift-Enter plans · the store’s prefixes complete as you type'),
      ),
      new SavedQueriesPanel(
        api,
        store,
        () => this.editor.text(),
        (text) => {
          this.editor.setText(text);
          this.editor.focus();
        },
      ).element,
      this.status,
      this.results,
    );
  }

  private storeHistory(): HistoryEntry[] {
    return readHistory().filter((e) => e.store === this.store);
  }

  private fillHistory(): void {
    const entries = this.storeHistory();
    replace(
      this.history,
      h('option', { value: '' }, entries.length === 0 ? 'History (empty)' : `History (${entries.length})`),
      ...entries.map((e, i) => h('option', { value: i, 'data-ms': e.ms }, `${e.text.replace(/\s+/g, ' ').slice(0, 90)}${e.ms !== undefined ? ` · ${duration(e.ms)}` : ''}`)),
    );
    this.history.value = '';
  }

  /** Offers the download formats of the editor's text (table formats for SELECT and ASK, graph formats for CONSTRUCT and DESCRIBE). */
  private fillFormats(): void {
    const formats = formatsFor(sparqlForm(this.editor.text()));
    const same = formats.length === this.formats.length && formats.every((f, i) => f === this.formats[i]);
    if (!same) {
      const chosen = this.format.value;
      this.formats = formats;
      replace(this.format, ...formats.map((f) => h('option', { value: f.mediaType }, f.label)));
      if (formats.some((f) => f.mediaType === chosen)) this.format.value = chosen;
    }
    const none = formats.length === 0;
    this.format.disabled = none;
    this.downloadButton.disabled = none || this.running !== undefined;
    this.copyButton.disabled = none || this.running !== undefined;
    this.planButton.disabled = this.running !== undefined;
  }

  /** The editor (for the tests' and the user's focus). */
  focus(): void {
    this.editor.focus();
  }

  /** Outcomes shown so far (the status's `data-seq`: a new outcome is a new number). */
  private outcomes = 0;

  private setStatus(state: 'running' | 'done' | 'error' | 'stopped' | 'live', ...parts: Array<string | Node>): void {
    this.status.setAttribute('data-state', state);
    if (state !== 'running') this.status.setAttribute('data-seq', String(++this.outcomes));
    replace(this.status, ...parts);
  }

  private setRunning(running: Running | undefined, doing = 'Running'): void {
    this.running = running;
    this.runButton.disabled = running !== undefined;
    this.stopButton.disabled = running === undefined;
    this.fillFormats();
    window.clearInterval(this.ticker);
    this.ticker = undefined;
    if (running) {
      const tick = (): void => this.setStatus('running', `${doing}… ${milliseconds(running.started)}`);
      tick();
      this.ticker = window.setInterval(tick, 200);
    }
  }

  /** Follows the answer of the editor's SELECT query live (the Live toggle). */
  startLive(): void {
    if (this.running || this.live) return;
    const text = this.editor.text();
    if (sparqlForm(text) !== 'SELECT') {
      this.setStatus('error', 'Live answers are for SELECT queries: write one, then toggle Live.');
      return;
    }
    remember(this.store, text);
    this.fillHistory();
    void this.close();
    const live = new LiveView(this.api, this.store, text, this.prefixes, {
      state: (state, message) => {
        if (this.live !== live) return;
        if (state === 'error') {
          this.endLive();
          this.setStatus('error', message);
        } else this.setStatus(state === 'connecting' ? 'running' : 'live', message);
      },
    });
    this.live = live;
    this.liveButton.setAttribute('aria-pressed', 'true');
    this.stopButton.disabled = false;
    this.pageSize.disabled = true;
    replace(this.results, live.element);
    void live.start();
  }

  /** Stops the live answer (the table stays as it was last shown). */
  stopLive(): void {
    const live = this.live;
    if (!live) return;
    this.endLive();
    this.setStatus('stopped', live.version === undefined ? 'Live answer stopped.' : `Live answer stopped at version ${live.version}.`);
  }

  private endLive(): void {
    const live = this.live;
    this.live = undefined;
    live?.stop();
    this.liveButton.setAttribute('aria-pressed', 'false');
    this.stopButton.disabled = this.running === undefined;
    this.pageSize.disabled = false;
  }

  /** Runs the editor's text. */
  async run(): Promise<void> {
    if (this.running) return;
    this.stopLive();
    const text = this.editor.text();
    const form = sparqlForm(text);
    if (form === undefined) {
      this.setStatus('error', 'Nothing to run: write a query or an update.');
      return;
    }
    remember(this.store, text);
    this.fillHistory();
    this.editor.clearError();
    await this.close();
    replace(this.results);
    const running: Running = { requestId: randomId(), controller: new AbortController(), started: performance.now(), connection: undefined, stops: 0 };
    this.setRunning(running);
    try {
      const connection = await this.api.openConnection(this.store);
      running.connection = connection;
      if (running.stops > 0) throw new ApiError(409, 'stopped');
      if (form === 'UPDATE') {
        if (running.stops > 0) throw new ApiError(409, 'stopped');
        await this.api.request(resource('datastores', this.store, 'sparql'), {
          method: 'POST',
          body: text,
          contentType: 'application/sparql-update',
          connection,
          requestId: running.requestId,
          signal: running.controller.signal,
        });
        const took = performance.now() - running.started;
        this.setRunning(undefined);
        this.timed(text, took);
        await this.api.closeConnection(connection);
        this.setStatus('done', `Update done in ${duration(took)}.`);
        return;
      }
      const created = await this.api.request(new URL(`${connection.url.href}/cursors`), {
        method: 'POST',
        body: text,
        contentType: 'application/sparql-query',
        connection,
        signal: running.controller.signal,
      });
      if (running.stops > 0) throw new ApiError(409, 'stopped');
      const location = created.headers.get('Location');
      if (location === null) throw new ApiError(500, 'the endpoint did not return the cursor');
      const cursor = new URL(location, this.api.base);
      const pageSize = Number(this.pageSize.value);
      const page = await this.fetchPage(cursor, connection, 'open', pageSize, running);
      const took = performance.now() - running.started;
      this.setRunning(undefined);
      this.timed(text, took);
      this.shown = { connection, cursor, form, pageSize, page, total: page.more ? undefined : page.answer.rows.length, pages: new Map([[0, page]]) };
      this.render(`first page in ${duration(took)}`);
    } catch (e) {
      this.setRunning(undefined);
      this.failed(e, running);
      if (running.connection) await this.api.closeConnection(running.connection);
    }
  }

  /** Keeps the time a run of `text` took with its history entry. */
  private timed(text: string, ms: number): void {
    remember(this.store, text, ms);
    this.fillHistory();
  }

  private failed(e: unknown, running: Running): void {
    if (running.stops > 0) {
      this.setStatus('stopped', `Stopped after ${milliseconds(running.started)}.`);
      return;
    }
    const message = e instanceof ApiError ? e.message : e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    const position = e instanceof ApiError && e.status === 400 ? errorPosition(message) : undefined;
    if (position) {
      this.editor.markError(position, message);
      const go = h('button', { type: 'button', class: 'link', 'data-role': 'error-position', 'data-line': position.line, 'data-column': position.column, title: 'Go to the error (F8)' }, `line ${position.line}, column ${position.column}`);
      go.addEventListener('click', () => this.editor.goToError());
      this.setStatus('error', message, ' ', go);
    } else this.setStatus('error', message);
  }

  /** Shows the plan of the editor's query (`explain=true`), with the time it took. */
  async plan(): Promise<void> {
    if (this.running) return;
    const text = this.editor.text();
    const form = sparqlForm(text);
    if (form === undefined || form === 'UPDATE') {
      this.setStatus('error', form === undefined ? 'Nothing to plan: write a query.' : 'An update has no plan: Plan is for queries.');
      return;
    }
    this.stopLive();
    this.editor.clearError();
    await this.close();
    const running: Running = { requestId: randomId(), controller: new AbortController(), started: performance.now(), connection: undefined, stops: 0 };
    this.setRunning(running, 'Planning');
    try {
      const response = await this.api.request(resource('datastores', this.store, 'sparql'), {
        method: 'POST',
        params: { explain: 'true' },
        body: text,
        contentType: 'application/sparql-query',
        accept: 'text/plain',
        requestId: running.requestId,
        signal: running.controller.signal,
      });
      const plan = await response.text();
      const took = performance.now() - running.started;
      this.setRunning(undefined);
      this.setStatus('done', `Plan in ${duration(took)} (the query was evaluated to find its join orders).`);
      replace(this.results, h('section', { class: 'plan', 'data-role': 'plan-view' }, h('h3', {}, 'Plan'), h('pre', { class: 'code plan-text', 'data-role': 'plan-text' }, plan)));
    } catch (e) {
      this.setRunning(undefined);
      if (e instanceof ApiError && [404, 405, 501].includes(e.status) && !/syntax|line \d/i.test(e.message)) this.setStatus('error', `This endpoint does not show query plans (${e.message}).`);
      else this.failed(e, running);
    }
  }

  /** The download format chosen. */
  private chosenFormat(): DownloadFormat | undefined {
    return this.formats.find((f) => f.mediaType === this.format.value) ?? this.formats[0];
  }

  /** Fetches the whole answer of the editor's query in the chosen format (as a stoppable request). */
  private async wholeAnswer(doing: string): Promise<{ blob: Blob; format: DownloadFormat; took: number } | undefined> {
    if (this.running) return undefined;
    const text = this.editor.text();
    const format = this.chosenFormat();
    if (!format) {
      this.setStatus('error', 'Only the answer of a query can be downloaded or copied: write a query.');
      return undefined;
    }
    this.editor.clearError();
    const running: Running = { requestId: randomId(), controller: new AbortController(), started: performance.now(), connection: undefined, stops: 0 };
    this.setRunning(running, doing);
    try {
      const blob = await fetchAnswer(this.api, this.store, text, format, running.controller.signal);
      const took = performance.now() - running.started;
      this.setRunning(undefined);
      return { blob, format, took };
    } catch (e) {
      this.setRunning(undefined);
      this.failed(e, running);
      return undefined;
    }
  }

  /** Downloads the whole answer of the editor's query in the chosen format. */
  async download(): Promise<void> {
    const got = await this.wholeAnswer('Downloading');
    if (!got) return;
    const name = downloadName(this.store, got.format);
    saveBlob(got.blob, name);
    this.setStatus('done', h('span', { 'data-role': 'downloaded', 'data-file': name }, `Downloaded ${name} (${got.format.label}, ${got.blob.size} bytes) in ${duration(got.took)}.`));
  }

  /** Copies the whole answer of the editor's query in the chosen format to the clipboard. */
  async copy(): Promise<void> {
    const got = await this.wholeAnswer('Copying');
    if (!got) return;
    try {
      await copyText(await got.blob.text());
      this.setStatus('done', `Copied the answer (${got.format.label}, ${got.blob.size} bytes) to the clipboard.`);
    } catch (e) {
      this.setStatus('error', e instanceof Error ? e.message : String(e));
    }
  }

  private async fetchPage(cursor: URL, connection: OpenConnection, operation: 'open' | 'advance', limit: number, running: Running | undefined): Promise<Page> {
    const response = await this.api.request(cursor, {
      method: 'PATCH',
      params: { operation, limit: String(limit) },
      accept: SPARQL_JSON,
      connection,
      ...(running ? { requestId: running.requestId, signal: running.controller.signal } : {}),
    });
    const answer = parseSparqlJson(await response.text());
    return { position: Number(response.headers.get('Service-Cursor-Position') ?? '0'), answer, more: response.headers.get('Service-Cursor-More') === 'true' };
  }

  /**
   * Stops the running request: cancels it by its request ID (variant B) and interrupts its
   * connection, then drops the HTTP request, which cancels it at the endpoint too (so that an
   * interruption that came before the query started is not lost). Closing the connection
   * afterwards stops its cursor's query whatever happened.
   */
  async stop(): Promise<void> {
    if (this.live) {
      this.stopLive();
      return;
    }
    const running = this.running;
    if (!running) return;
    running.stops++;
    window.clearInterval(this.ticker);
    this.setStatus('running', 'Stopping…');
    if (running.stops === 1) {
      const attempts: Array<Promise<unknown>> = [];
      if (this.api.variant === 'B') attempts.push(this.api.request(resource('requests', running.requestId), { method: 'DELETE' }));
      if (running.connection) attempts.push(this.api.request(running.connection.url, { method: 'PATCH', params: { operation: 'interrupt' }, connection: running.connection }));
      await Promise.allSettled(attempts);
    }
    if (this.running === running) running.controller.abort();
  }

  /** Goes to another page of the shown cursor. */
  private async turn(to: 'first' | 'previous' | 'next'): Promise<void> {
    const shown = this.shown;
    if (!shown || this.running) return;
    const running: Running = { requestId: randomId(), controller: new AbortController(), started: performance.now(), connection: shown.connection, stops: 0 };
    this.setRunning(running);
    try {
      // the cursor stands after the furthest page fetched; the pages kept end there, so a
      // page after the one shown is either kept or the cursor's next
      let page: Page;
      const target = to === 'first' ? 0 : to === 'previous' ? Math.max(0, shown.page.position - shown.pageSize) : shown.page.position + shown.page.answer.rows.length;
      const kept = shown.pages.get(target);
      if (kept && to !== 'first') page = kept;
      else if (to === 'next') page = await this.fetchPage(shown.cursor, shown.connection, 'advance', shown.pageSize, running);
      else {
        // back to the start, then skip ahead in chunks (never holding more than a chunk)
        page = await this.fetchPage(shown.cursor, shown.connection, 'open', target === 0 ? shown.pageSize : 0, running);
        let position = page.answer.rows.length;
        while (target > 0 && position < target) {
          const skipped = await this.fetchPage(shown.cursor, shown.connection, 'advance', Math.min(SKIP_CHUNK, target - position), running);
          position += skipped.answer.rows.length;
          if (!skipped.more) break;
        }
        if (target > 0) page = await this.fetchPage(shown.cursor, shown.connection, 'advance', shown.pageSize, running);
        shown.pages.clear();
      }
      this.setRunning(undefined);
      shown.page = page;
      shown.pages.set(page.position, page);
      while (shown.pages.size > KEPT_PAGES) shown.pages.delete(shown.pages.keys().next().value!);
      if (!page.more) shown.total = page.position + page.answer.rows.length;
      this.render(`page in ${milliseconds(running.started)}`);
    } catch (e) {
      this.setRunning(undefined);
      if (e instanceof ApiError && e.status === 404 && running.stops === 0) {
        this.setStatus('error', 'The cursor is gone: its connection expired after being idle. Run the query again.');
        this.shown = undefined;
        return;
      }
      this.failed(e, running);
    }
  }

  private render(timing: string): void {
    const shown = this.shown;
    if (!shown) return;
    const { page } = shown;
    const rows = page.answer.rows;
    if (shown.form === 'ASK') {
      const value = rows.length > 0;
      this.setStatus('done', `ASK answered ${String(value)} (${timing}).`);
      replace(this.results, h('p', { class: 'ask', 'data-role': 'ask' }, String(value)));
      return;
    }
    const first = rows.length === 0 ? page.position : page.position + 1;
    const last = page.position + rows.length;
    const range = rows.length === 0 ? (page.position === 0 ? 'No answers' : `No more answers after row ${page.position}`) : `Rows ${first}–${last}${shown.total !== undefined ? ` of ${shown.total}` : ' (more follow)'}`;
    this.setStatus('done', `${range} · ${timing}`);
    const button = (label: string, role: string, enabled: boolean, action: () => void): HTMLButtonElement => {
      const b = h('button', { type: 'button', 'data-role': role, disabled: !enabled }, label);
      b.addEventListener('click', action);
      return b;
    };
    const pager = h(
      'nav',
      { class: 'pager', 'aria-label': 'pages' },
      button('« First', 'first', page.position > 0, () => void this.turn('first')),
      button('◀ Previous', 'previous', page.position > 0, () => void this.turn('previous')),
      h('span', { class: 'range', 'data-role': 'range', 'data-first': first, 'data-last': last, 'data-more': String(page.more) }, range),
      button('Next ▶', 'next', page.more, () => void this.turn('next')),
    );
    const graphLike = shown.form === 'CONSTRUCT' || shown.form === 'DESCRIBE';
    const content = h('div', { class: 'answer-view' });
    const showView = (): void => {
      if (graphLike && this.view === 'graph') {
        const triples = rows.map((r): Triple => [r[0], r[1], r[2]]);
        replace(content, graphPicture(triples, this.prefixes()));
      } else replace(content, this.table(page.answer));
    };
    let switcher: HTMLElement | undefined;
    const chart = shown.form === 'SELECT' ? chartData(page.answer, this.prefixes()) : undefined;
    if (chart) {
      const views = ['table', 'bar', 'line'] as const;
      const showChart = (): void => {
        if (this.chartView === 'table') replace(content, this.table(page.answer));
        else replace(content, chartPicture(chart, this.chartView));
      };
      const tabs = views.map((v) => {
        const b = h('button', { type: 'button', role: 'tab', 'data-role': `chart-${v}`, 'aria-selected': String(this.chartView === v) }, v === 'table' ? 'Table' : v === 'bar' ? 'Bar' : 'Line');
        b.addEventListener('click', () => {
          this.chartView = v;
          for (const other of tabs) other.setAttribute('aria-selected', String(other === b));
          showChart();
        });
        return b;
      });
      switcher = h('div', { class: 'view-switch', role: 'tablist', 'aria-label': 'view of the answer' }, ...tabs);
      showChart();
      replace(this.results, pager, switcher, content);
      return;
    }
    if (graphLike) {
      const tabs = (['table', 'graph'] as const).map((v) => {
        const b = h('button', { type: 'button', role: 'tab', 'data-role': `view-${v}`, 'aria-selected': String(this.view === v) }, v === 'table' ? 'Triples' : 'Graph');
        b.addEventListener('click', () => {
          this.view = v;
          for (const other of tabs) other.setAttribute('aria-selected', String(other === b));
          showView();
        });
        return b;
      });
      switcher = h('div', { class: 'view-switch', role: 'tablist' }, ...tabs);
    }
    showView();
    replace(this.results, pager, switcher, content);
  }

  private table(answer: Answer): HTMLElement {
    const prefixes = this.prefixes();
    const cell = (term: Term | undefined): HTMLTableCellElement => {
      const shown = showTerm(term, prefixes);
      return h('td', { class: `term term-${shown.kind}`, title: shown.full }, shown.text, shown.annotation !== undefined ? h('span', { class: 'annotation' }, shown.annotation) : null);
    };
    const position = this.shown?.page.position ?? 0;
    return h(
      'div',
      { class: 'table-wrap' },
      h(
        'table',
        { class: 'answer', 'data-role': 'answer' },
        h('thead', {}, h('tr', {}, h('th', { class: 'row-number' }, '#'), ...answer.variables.map((v) => h('th', {}, `?${v}`)))),
        h('tbody', {}, ...answer.rows.map((row, i) => h('tr', {}, h('td', { class: 'row-number' }, position + i + 1), ...row.map(cell)))),
      ),
    );
  }

  /** Closes the shown cursor's connection (when another query runs, or the tab goes). */
  async close(): Promise<void> {
    const shown = this.shown;
    this.shown = undefined;
    if (shown) await this.api.closeConnection(shown.connection);
  }

  /** Stops whatever runs and closes the connection. */
  async dispose(): Promise<void> {
    window.clearInterval(this.ticker);
    this.stopLive();
    if (this.running) {
      this.running.stops = 2;
      this.running.controller.abort();
      if (this.running.connection) await this.api.closeConnection(this.running.connection);
    }
    await this.close();
  }
}
