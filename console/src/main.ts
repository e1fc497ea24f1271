/**
 * The web console of quadlog: sign-in, the list of data stores, and the view of the chosen
 * store. The page is served at `<interface>/console/` and talks to the interface one level up.
 * After sign-in, a role that sees exactly one store finds it open. When the server has the
 * role `guest` (a request without credentials is not refused with 401), the sign-in form
 * offers to continue as guest: the console then sends its requests without credentials.
 *
 * Security: the role's credentials exist only in the {@link Api} object of this page (memory);
 * nothing is written to cookies or localStorage, and only the query history (the texts run,
 * each with the time its last run took) goes to sessionStorage, which a reload keeps and
 * closing the tab ends. Downloaded answers become files from the page's memory (a Blob);
 * nothing else is stored. Sign-out closes the connections the console opened, clears the history and
 * reloads the page, which drops every object holding credentials.
 * @module
 */
import { Api, ApiError, type RequestOptions, resource, SPARQL_JSON } from './api.js';
import { h, must, replace } from './dom.js';
import { HelpPanel } from './help.js';
import { clearHistory } from './query.js';
import { StoreView } from './store.js';
import { listingRows } from './terms.js';

const STORE_TYPES = ['parallel-nn', 'parallel-nw', 'parallel-ww'];

/**
 * What each store type means, shown where a store is created. The names are RDFox's (`n`
 * narrow, 32-bit; `w` wide, 64-bit: the first letter for resource ids, the second for fact
 * ids); quadlog stores facts the same way in each (lib/server/data-store-parameters.ts).
 */
const STORE_TYPE_TEXTS: Readonly<Record<string, string>> = {
  'parallel-nn':
    'The default. In RDFox: narrow (32-bit) ids for resources and facts, up to about 4 billion of each. In quadlog every type stores facts alike; the type is recorded and its property concurrent is false.',
  'parallel-nw':
    'In RDFox: narrow resource ids, wide (64-bit) fact ids, for more than 4 billion facts. In quadlog every type stores facts alike; the type is recorded and its property concurrent is true.',
  'parallel-ww':
    'In RDFox: wide (64-bit) ids for resources and facts, for more than 4 billion of either. In quadlog every type stores facts alike; the type is recorded and its property concurrent is true.',
};

/** The name of the role a request without credentials acts as, when the server has it. */
const GUEST = 'guest';

/**
 * The client of the guest role: its requests carry no `Authorization` header (those on a
 * connection it opened carry the connection's token, as for any role).
 */
class GuestApi extends Api {
  #signedOut = false;

  constructor(base: URL) {
    super(base, GUEST, '');
  }

  override forget(): void {
    super.forget();
    this.#signedOut = true;
  }

  override headers(options: Pick<RequestOptions, 'accept' | 'contentType' | 'connection' | 'requestId'> = {}): Headers {
    const headers = super.headers(options);
    if (!options.connection && !this.#signedOut) headers.delete('Authorization');
    return headers;
  }
}

/** The interface's root: the page is at `<root>console/`. */
const BASE = new URL('../', location.href);

/** Whether the server has a guest role: a request without credentials is not refused with 401. */
async function guestServed(): Promise<boolean> {
  try {
    const response = await fetch(new URL('./datastores', BASE), {
      headers: { Accept: SPARQL_JSON },
      credentials: 'omit',
      cache: 'no-store',
      mode: 'same-origin',
      redirect: 'error',
      referrerPolicy: 'no-referrer',
    });
    await response.body?.cancel();
    return response.status !== 401 && response.status < 500;
  } catch {
    return false;
  }
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** The signed-in console. */
class Console {
  private readonly storeList = h('ul', { class: 'store-list', 'data-role': 'store-list' });
  private readonly main = h('main', { class: 'main' });
  private readonly status = h('p', { class: 'status', 'data-role': 'stores-status' });
  private view: StoreView | undefined;
  /** Whether the list was read since sign-in (the first reading opens a lone store). */
  private listed = false;

  constructor(
    private readonly api: Api,
    private readonly root: HTMLElement,
    private readonly help: HelpPanel,
  ) {}

  start(version: string | undefined): void {
    const signOut = h('button', { type: 'button', 'data-role': 'sign-out' }, 'Sign out');
    signOut.addEventListener('click', () => void this.signOut());
    const name = h('input', { type: 'text', placeholder: 'new store name', 'aria-label': 'new store name', 'data-role': 'new-store-name', required: true });
    const type = h('select', { 'aria-label': 'store type', 'data-role': 'new-store-type' }, ...STORE_TYPES.map((t) => h('option', { value: t }, t)));
    const typeText = h('p', { class: 'hint small store-type-text', 'data-role': 'store-type-text' });
    const explainType = (): void => {
      typeText.textContent = STORE_TYPE_TEXTS[type.value] ?? '';
    };
    type.addEventListener('change', explainType);
    explainType();
    const create = h('form', { class: 'new-store' }, name, type, h('button', { type: 'submit', 'data-role': 'create-store' }, 'Create'), typeText);
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
        h('span', { class: 'who', 'data-role': 'signed-in-as' }, this.api instanceof GuestApi ? 'guest (no credentials)' : `signed in as ${this.api.role}`),
        this.help.button(),
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
      // right after sign-in, a role that sees one store has nothing else to choose
      const first = !this.listed;
      this.listed = true;
      if (first && names.length === 1 && this.view === undefined) await this.choose(names[0]!);
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

function signIn(root: HTMLElement, help: HelpPanel, problem?: string): void {
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
  const start = (api: Api): void => {
    void verify(api).then(
      (version) => new Console(api, root, help).start(version),
      (e: unknown) => {
        api.forget();
        button.disabled = false;
        error.textContent = e instanceof ApiError && e.status === 401 ? 'Wrong role name or password.' : message(e);
        password.focus();
      },
    );
  };
  void guestServed().then((served) => {
    if (!served) return;
    const guest = h('button', { type: 'button', 'data-role': 'sign-in-guest' }, 'Continue as guest');
    guest.addEventListener('click', () => {
      button.disabled = true;
      error.textContent = '';
      start(new GuestApi(BASE));
    });
    button.after(h('p', { class: 'hint small guest-entry' }, 'This server has a guest role: its requests carry no credentials.'), guest);
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    button.disabled = true;
    error.textContent = '';
    const api = new Api(BASE, role.value, password.value);
    password.value = '';
    start(api);
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

{
  const app = must<HTMLElement>(document, '#app');
  signIn(app, new HelpPanel(document.body));
}
