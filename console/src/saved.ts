/**
 * The saved queries of a store, kept on the server (`/datastores/<ds>/saved-queries`) and so
 * shared with every role that may read the store: a list (open a query into the editor,
 * delete it), and a form that saves the editor's text under a name (a name already saved is
 * replaced). A role that may only read the store sees the list; its saves are refused with
 * the endpoint's message. An endpoint without saved queries shows a hint instead.
 * @module
 */
import { type Api, ApiError, resource } from './api.js';
import { h, replace } from './dom.js';
import { listingRows } from './terms.js';

/** One saved query as the listing gives it. */
interface Saved {
  readonly name: string;
  readonly text: string;
  readonly savedBy: string;
  readonly savedAt: string;
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** A moment of the listing (xsd:dateTime) as local date and time, to the minute. */
function when(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The first line of a query that says what it does (comments and prologue skipped), shortened. */
function gist(text: string): string {
  const line = text.split('\n').map((l) => l.trim()).find((l) => l !== '' && !l.startsWith('#') && !/^(PREFIX|BASE)\b/i.test(l)) ?? '';
  return line.length > 90 ? `${line.slice(0, 89)}…` : line;
}

/** The saved queries of one store, for the query tab. */
export class SavedQueriesPanel {
  /** The panel's element. */
  readonly element: HTMLElement;
  private readonly list = h('ul', { class: 'saved-list', 'data-role': 'saved-queries' });
  private readonly status = h('p', { class: 'status', 'data-role': 'saved-status' });
  private readonly name = h('input', { type: 'text', class: 'saved-name', placeholder: 'name of the query', 'aria-label': 'saved query name', 'data-role': 'saved-query-name', maxlength: 100 });
  private queries: Saved[] = [];

  /**
   * The panel of `store`: `current` gives the editor's text (what Save saves), `load` puts a
   * saved query's text into the editor.
   */
  constructor(
    private readonly api: Api,
    private readonly store: string,
    private readonly current: () => string,
    private readonly load: (text: string) => void,
  ) {
    const save = h('button', { type: 'submit', 'data-role': 'save-query' }, 'Save query');
    const form = h('form', { class: 'toolbar saved-form' }, this.name, save);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.save();
    });
    const refresh = h('button', { type: 'button', class: 'small', title: 'Reload the saved queries', 'aria-label': 'reload saved queries', onclick: () => void this.refresh() }, '↻');
    this.element = h(
      'details',
      { class: 'saved-queries', 'data-role': 'saved-queries-panel', open: true },
      h('summary', {}, 'Saved queries ', refresh),
      form,
      this.status,
      this.list,
    );
    void this.refresh();
  }

  /** The path of the store's saved queries, or of one of them. */
  private path(name?: string): string {
    return name === undefined ? resource('datastores', this.store, 'saved-queries') : resource('datastores', this.store, 'saved-queries', name);
  }

  private show(text: string, state?: 'error'): void {
    this.status.textContent = text;
    if (state) this.status.setAttribute('data-state', state);
    else this.status.removeAttribute('data-state');
  }

  /** Reads the saved queries again and shows them. */
  async refresh(): Promise<void> {
    try {
      const answer = await this.api.table(this.path());
      this.queries = listingRows(answer).map((r) => ({ name: r['Name'] ?? '', text: r['Query'] ?? '', savedBy: r['SavedBy'] ?? '', savedAt: r['SavedAt'] ?? '' }));
    } catch (e) {
      this.queries = [];
      replace(this.list);
      if (e instanceof ApiError && (e.status === 404 || e.status === 405) && /no resource at path/.test(e.message)) this.show('This endpoint keeps no saved queries.');
      else this.show(message(e), 'error');
      return;
    }
    this.render();
  }

  private render(): void {
    if (this.queries.length === 0) {
      replace(this.list, h('li', { class: 'hint' }, 'No saved queries yet: write one, name it and press Save query.'));
      return;
    }
    replace(
      this.list,
      ...this.queries.map((q) =>
        h(
          'li',
          { 'data-name': q.name },
          h('button', { type: 'button', class: 'link-button', 'data-role': 'open-saved-query', title: q.text, onclick: () => this.open(q) }, q.name),
          h('span', { class: 'saved-gist' }, gist(q.text)),
          h('span', { class: 'saved-meta hint small' }, `${q.savedBy}, ${when(q.savedAt)}`),
          this.deleteButton(q.name),
        ),
      ),
    );
  }

  /** Puts a saved query into the editor, and its name into the form (saving again replaces it). */
  private open(query: Saved): void {
    this.load(query.text);
    this.name.value = query.name;
    this.show(`Opened ${query.name}.`);
  }

  /** Saves the editor's text under the name of the form. */
  private async save(): Promise<void> {
    const name = this.name.value.trim();
    if (name === '') {
      this.show('Give the query a name first.', 'error');
      this.name.focus();
      return;
    }
    const text = this.current();
    try {
      const response = await this.api.request(this.path(name), { method: 'PUT', body: text, contentType: 'application/sparql-query' });
      this.show(response.status === 201 ? `Saved ${name}.` : `Replaced ${name}.`);
    } catch (e) {
      this.show(message(e), 'error');
      return;
    }
    await this.refresh();
  }

  /** The delete button of a saved query: a first click asks, a second one deletes. */
  private deleteButton(name: string): HTMLButtonElement {
    const button = h('button', { type: 'button', class: 'small danger', 'data-role': 'delete-saved-query', 'aria-label': `delete saved query ${name}`, title: 'Delete (every role that reads this store loses it)' }, '✕');
    button.addEventListener('click', () => {
      if (button.getAttribute('data-state') === 'confirm') void this.remove(name);
      else {
        button.setAttribute('data-state', 'confirm');
        button.textContent = 'Delete?';
      }
    });
    button.addEventListener('blur', () => {
      button.removeAttribute('data-state');
      button.textContent = '✕';
    });
    return button;
  }

  /** Deletes a saved query. */
  private async remove(name: string): Promise<void> {
    try {
      await this.api.request(this.path(name), { method: 'DELETE' });
      this.show(`Deleted ${name}.`);
    } catch (e) {
      this.show(message(e), 'error');
      return;
    }
    await this.refresh();
  }
}
