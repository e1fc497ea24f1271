/**
 * The web console of quadlog: sign-in, the list of data stores, and the view of the chosen
 * store. The page is served at `<interface>/console/` and talks to the interface one level up.
 *
 * Security: the role's credentials exist only in the {@link Api} object of this page (memory);
 * nothing is written to cookies or localStorage, and only the query history goes to
 * sessionStorage. Sign-out closes the connections the console opened, clears the history and
 * reloads the page, which drops every object holding credentials.
 * @module
 */
import { Api, ApiError, resource } from './api.js';
import { h, must, replace } from './dom.js';
import { clearHistory } from './query.js';
import { StoreView } from './store.js';
import { listingRows } from './terms.js';

const STORE_TYPES = ['parallel-nn', 'parallel-nw', 'parallel-ww'];

/** The interface's root: the page is at `<root>console/`. */
const BASE = new URL('../', location.href);

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** The signed-in console. */
class Console {
  private readonly storeList = h('ul', { class: 'store-list', 'data-role': 'store-list' });
  private readonly main = h('main', { class: 'main' });
  private readonly status = h('p', { class: 'status', 'data-role': 'stores-status' });
  private view: StoreView | undefined;

  constructor(
    private readonly api: Api,
    private readonly root: HTMLElement,
  ) {}

  start(version: string | undefined): void {
    const signOut = h('button', { type: 'button', 'data-role': 'sign-out' }, 'Sign out');
    signOut.addEventListener('click', () => void this.signOut());
    const name = h('input', { type: 'text', placeholder: 'new store name', 'aria-label': 'new store name', 'data-role': 'new-store-name', required: true });
    const type = h('select', { 'aria-label': 'store type', 'data-role': 'new-store-type' }, ...STORE_TYPES.map((t) => h('option', { value: t }, t)));
    const create = h('form', { class: 'new-store' }, name, type, h('button', { type: 'submit', 'data-role': 'create-store' }, 'Create'));
    create.addEventListener('submit', (event) => {
      event.preventDefault();
      const store = name.value.trim();
      if (store === '') return;
      void this.api
        .request(resource('datastores', store), { method: 'POST', params: { type: type.value } })
        .then(async () => {
          name.value = '';
          await this.loadStores();
          await this.choose(store);
        })
        .catch((e: unknown) => (this.status.textContent = message(e)));
    });
    const refresh = h('button', { type: 'button', class: 'small', title: 'reload the list' }, '↻');
    refresh.addEventListener('click', () => void this.loadStores());
    replace(
      this.root,
      h(
        'header',
        { class: 'top' },
        h('h1', {}, 'quadlog'),
        h('span', { class: 'where' }, `${BASE.host}${version !== undefined ? ` · ${version}` : ''}`),
        h('span', { class: 'spacer' }),
        h('span', { class: 'who', 'data-role': 'signed-in-as' }, `signed in as ${this.api.role}`),
        signOut,
      ),
      h('div', { class: 'layout' }, h('nav', { class: 'sidebar' }, h('div', { class: 'sidebar-head' }, h('h2', {}, 'Data stores'), refresh), this.storeList, create, this.status), this.main),
    );
    replace(this.main, h('p', { class: 'hint empty' }, 'Choose a data store, or create one.'));
    void this.loadStores();
  }

  async loadStores(): Promise<void> {
    try {
      const names = listingRows(await this.api.table('/datastores'))
        .map((r) => r['Name'] ?? '')
        .sort();
      this.status.textContent = '';
      replace(
        this.storeList,
        ...names.map((store) => {
          const button = h('button', { type: 'button', 'data-store': store, 'aria-current': String(this.view?.store === store) }, store);
          button.addEventListener('click', () => void this.choose(store));
          return h('li', {}, button);
        }),
      );
      if (names.length === 0) this.storeList.append(h('li', { class: 'hint' }, 'No data stores yet.'));
    } catch (e) {
      this.status.textContent = e instanceof ApiError && e.status === 403 ? 'This role may not list the data stores.' : message(e);
    }
  }

  async choose(store: string): Promise<void> {
    await this.view?.dispose();
    this.view = new StoreView(this.api, store, () => {
      this.view = undefined;
      replace(this.main, h('p', { class: 'hint empty' }, `Deleted ${store}.`));
      void this.loadStores();
    });
    for (const button of this.storeList.querySelectorAll('button[data-store]')) button.setAttribute('aria-current', String(button.getAttribute('data-store') === store));
    replace(this.main, this.view.element);
  }

  async signOut(): Promise<void> {
    await this.view?.dispose();
    this.api.forget();
    clearHistory();
    location.reload();
  }
}

function signIn(root: HTMLElement, problem?: string): void {
  const role = h('input', { type: 'text', name: 'role', autocomplete: 'username', required: true, 'data-role': 'role', id: 'sign-in-role' });
  const password = h('input', { type: 'password', name: 'password', autocomplete: 'current-password', 'data-role': 'password', id: 'sign-in-password' });
  const error = h('p', { class: 'error', 'data-role': 'sign-in-error', role: 'alert' }, problem ?? '');
  const button = h('button', { type: 'submit', class: 'primary', 'data-role': 'sign-in' }, 'Sign in');
  const form = h(
    'form',
    { class: 'sign-in', 'data-role': 'sign-in-form' },
    h('h1', {}, 'quadlog console'),
    h('p', { class: 'hint' }, `Sign in to ${BASE.host}${BASE.pathname === '/' ? '' : BASE.pathname} with a role of the server.`),
    h('label', { for: 'sign-in-role' }, 'Role'),
    role,
    h('label', { for: 'sign-in-password' }, 'Password'),
    password,
    button,
    error,
    h('p', { class: 'hint small' }, 'The password stays in this page’s memory only and is sent with each request; the browser keeps no copy of it.'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    button.disabled = true;
    error.textContent = '';
    const api = new Api(BASE, role.value, password.value);
    password.value = '';
    void verify(api).then(
      (version) => new Console(api, root).start(version),
      (e: unknown) => {
        api.forget();
        button.disabled = false;
        error.textContent = e instanceof ApiError && e.status === 401 ? 'Wrong role name or password.' : message(e);
        password.focus();
      },
    );
  });
  replace(root, h('div', { class: 'sign-in-page' }, form));
  role.focus();
}

/** Checks the credentials (a connection check that opens nothing) and reads the server version. */
async function verify(api: Api): Promise<string | undefined> {
  try {
    const rows = listingRows(await api.table('/', { params: { filter: '?Property = "version"' } }));
    return rows[0]?.['Value'];
  } catch (e) {
    // a role that may not read the server's properties is still signed in
    if (e instanceof ApiError && e.status === 403) return undefined;
    throw e;
  }
}

signIn(must<HTMLElement>(document, '#app'));
