/**
 * The import tab: files chosen or dropped are sent one after the other to
 * `PATCH /datastores/<ds>/content?operation=add-content` (or add-content-update-prefixes),
 * streamed by the browser, with the upload's progress, then the import's notification rows
 * (errors and warnings with line and column, prefixes, counters). The media type comes from the
 * file name (Turtle, N-Triples, N-Quads, TriG, Datalog rules); other files, gzip included, are
 * sent without one and the endpoint detects the format. Optionally the OWL axioms of the
 * imported triples are read afterwards (`operation=add-axioms`).
 * @module
 */
import { type Api, ApiError, resource, SPARQL_JSON } from './api.js';
import { h, replace } from './dom.js';
import { mediaTypeOfFile, type Notification, notificationsOf, parseSparqlJson } from './terms.js';

/** The answer of an upload: status and notification rows. */
interface UploadAnswer {
  readonly status: number;
  readonly rows: readonly Notification[];
  readonly message: string;
}

function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** The import tab of a store; `changed` is called after every import. */
export class ImportPanel {
  /** The tab's element. */
  readonly element: HTMLElement;
  private readonly list = h('ol', { class: 'imports', 'data-role': 'imports' });
  private readonly updatePrefixes = h('input', { type: 'checkbox', checked: true, 'data-role': 'update-prefixes' });
  private readonly axioms = h('input', { type: 'checkbox', 'data-role': 'add-axioms' });
  private queue: Promise<void> = Promise.resolve();

  /** The tab of `store`. */
  constructor(
    private readonly api: Api,
    private readonly store: string,
    private readonly changed: () => void,
  ) {
    const input = h('input', { type: 'file', multiple: true, 'data-role': 'file-input', class: 'file-input', id: 'import-files' });
    input.addEventListener('change', () => {
      if (input.files) this.enqueue([...input.files]);
      input.value = '';
    });
    const drop = h(
      'div',
      { class: 'drop-zone', 'data-role': 'drop-zone' },
      h('p', {}, 'Drop files here, or ', h('label', { for: 'import-files', class: 'link' }, 'choose files'), '.'),
      h('p', { class: 'hint' }, 'Turtle (.ttl), N-Triples (.nt), N-Quads (.nq), TriG (.trig), Datalog rules (.dlog); other files, gzip included, are recognised by their content.'),
      input,
    );
    drop.addEventListener('dragover', (event) => {
      event.preventDefault();
      drop.classList.add('dragging');
    });
    drop.addEventListener('dragleave', () => drop.classList.remove('dragging'));
    drop.addEventListener('drop', (event) => {
      event.preventDefault();
      drop.classList.remove('dragging');
      const files = event.dataTransfer?.files;
      if (files) this.enqueue([...files]);
    });
    this.element = h(
      'section',
      { class: 'import-panel', 'data-role': 'import-panel' },
      drop,
      h(
        'div',
        { class: 'options' },
        h('label', {}, this.updatePrefixes, ' add the prefixes the files declare to the store'),
        h('label', {}, this.axioms, ' then read OWL axioms from the default graph (add-axioms)'),
      ),
      this.list,
    );
  }

  private enqueue(files: readonly File[]): void {
    for (const file of files) {
      const entry = this.entry(file);
      this.list.prepend(entry.element);
      this.queue = this.queue.then(() => this.upload(file, entry)).catch(() => undefined);
    }
  }

  private entry(file: File): { element: HTMLElement; progress: HTMLProgressElement; status: HTMLElement; rows: HTMLElement } {
    const progress = h('progress', { max: 1, value: 0, 'aria-label': `progress of ${file.name}` });
    const status = h('span', { class: 'import-status', 'data-role': 'import-status' }, 'waiting');
    const rows = h('div', { class: 'notifications' });
    const element = h('li', { class: 'import', 'data-file': file.name }, h('div', { class: 'import-head' }, h('strong', {}, file.name), ` ${sizeText(file.size)} `, progress, status), rows);
    return { element, progress, status, rows };
  }

  private async upload(file: File, entry: ReturnType<ImportPanel['entry']>): Promise<void> {
    const operation = this.updatePrefixes.checked ? 'add-content-update-prefixes' : 'add-content';
    entry.status.textContent = 'sending';
    entry.element.setAttribute('data-state', 'sending');
    let answer: UploadAnswer;
    try {
      answer = await this.send(file, operation, entry.progress);
      if (answer.status < 400 && this.axioms.checked) {
        const axioms = await this.api.table(resource('datastores', this.store, 'content'), { method: 'PATCH', params: { operation: 'add-axioms' } });
        answer = { ...answer, rows: [...answer.rows, ...notificationsOf(axioms)] };
      }
    } catch (e) {
      answer = { status: e instanceof ApiError ? e.status : 0, rows: [], message: e instanceof Error ? e.message : String(e) };
    }
    const errors = answer.rows.filter((r) => r.type === 'error').length;
    const failed = answer.status >= 400 || answer.status === 0;
    const changed = answer.rows.filter((r) => r.type === 'information' && /^#changed-/.test(r.description)).map((r) => `${r.value} ${r.description.slice('#changed-'.length)}`);
    entry.element.setAttribute('data-state', failed ? 'failed' : 'done');
    entry.status.textContent = failed
      ? errors > 0
        ? `failed: ${errors} error${errors === 1 ? '' : 's'}, nothing imported`
        : `failed: ${answer.message}`
      : `imported${changed.length > 0 ? `: ${changed.join(', ')} changed` : ''}`;
    replace(entry.rows, answer.rows.length > 0 ? notificationTable(answer.rows) : null);
    this.changed();
  }

  /** Sends one file with XMLHttpRequest, whose upload reports progress (fetch's does not). */
  private send(file: File, operation: string, progress: HTMLProgressElement): Promise<UploadAnswer> {
    return new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open('PATCH', this.api.url(resource('datastores', this.store, 'content'), { operation }).href);
      xhr.withCredentials = false;
      const headers = this.api.headers({ accept: SPARQL_JSON, ...(mediaTypeOfFile(file.name) !== undefined ? { contentType: mediaTypeOfFile(file.name) } : {}) });
      headers.forEach((value, key) => xhr.setRequestHeader(key, value));
      xhr.upload.addEventListener('progress', (event) => {
        if (event.lengthComputable) progress.value = event.loaded / Math.max(1, event.total);
      });
      xhr.addEventListener('load', () => {
        progress.value = 1;
        const type = xhr.getResponseHeader('Content-Type') ?? '';
        let rows: Notification[] = [];
        if (type.startsWith(SPARQL_JSON) && xhr.responseText !== '') {
          try {
            rows = notificationsOf(parseSparqlJson(xhr.responseText));
          } catch {
            rows = [];
          }
        }
        resolve({ status: xhr.status, rows, message: type.startsWith(SPARQL_JSON) ? `HTTP ${xhr.status}` : xhr.responseText.trim() });
      });
      xhr.addEventListener('error', () => reject(new Error('the upload failed (the connection was lost)')));
      // a Blob without a type sends no Content-Type (the browser's guess for a File could be wrong)
      xhr.send(headers.has('content-type') ? file : new Blob([file]));
    });
  }
}

/** The table of an import's notification rows. */
export function notificationTable(rows: readonly Notification[]): HTMLElement {
  return h(
    'table',
    { class: 'notifications-table', 'data-role': 'notifications' },
    h('thead', {}, h('tr', {}, ...['Type', 'Line', 'Column', 'Description', 'Value'].map((c) => h('th', {}, c)))),
    h(
      'tbody',
      {},
      ...rows.map((r) =>
        h(
          'tr',
          { class: `notification-${r.type}`, 'data-type': r.type },
          h('td', {}, r.type),
          h('td', { 'data-role': 'line' }, r.line ?? ''),
          h('td', { 'data-role': 'column' }, r.column ?? ''),
          h('td', {}, r.description),
          h('td', {}, r.value),
        ),
      ),
    ),
  );
}
