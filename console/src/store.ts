/**
 * The view of one data store: tabs for querying, browsing, importing, exporting, the rules and
 * axioms, the prefixes (edited in place), the properties, and — when the endpoint offers them —
 * the explanation of a fact and SHACL validation.
 *
 * A click on an IRI anywhere in the view (a cell of an answer, a node of a graph picture, a
 * term of the browse tab) opens it in the browse tab: the view listens for clicks on elements
 * with `data-iri`, and on answer cells of IRIs (`td.term-iri`, whose tooltip is the full IRI).
 * @module
 */
import { type Api, ApiError, resource } from './api.js';
import { BrowsePanel } from './browse.js';
import { h, replace } from './dom.js';
import { ExplanationPanel, explanationAvailable } from './explanation.js';
import { ExportPanel } from './export.js';
import { ImportPanel } from './importer.js';
import { ShaclPanel, shaclAvailable } from './shacl.js';
import { QueryPanel } from './query.js';
import { iriOfTitle, listingRows, type Prefix } from './terms.js';

type TabName = 'query' | 'browse' | 'import' | 'export' | 'rules' | 'prefixes' | 'properties' | 'explanation' | 'shacl';

const TAB_LABELS: Readonly<Record<TabName, string>> = {
  query: 'Query',
  browse: 'Browse',
  import: 'Import',
  export: 'Export',
  rules: 'Rules & axioms',
  prefixes: 'Prefixes',
  properties: 'Properties',
  explanation: 'Explanation',
  shacl: 'SHACL',
};

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** The view of one store. */
export class StoreView {
  /** The view's element. */
  readonly element: HTMLElement;
  private prefixes: Prefix[] = [];
  private readonly query: QueryPanel;
  private readonly importer: ImportPanel;
  private readonly browser: BrowsePanel;
  private readonly exporter: ExportPanel;
  private browsed = false;
  private readonly rules = h('section', { class: 'rules-panel', 'data-role': 'rules-panel' });
  private readonly prefixPanel = h('section', { class: 'prefixes-panel', 'data-role': 'prefixes-panel' });
  private readonly properties = h('section', { class: 'properties-panel', 'data-role': 'properties-panel' });
  private explanation: ExplanationPanel | undefined;
  private shacl: ShaclPanel | undefined;
  private readonly tabs = h('div', { class: 'tabs', role: 'tablist' });
  private readonly body = h('div', { class: 'tab-body' });
  private current: TabName = 'query';

  /** The view of `store`; `deleted` is called when the user deletes it. */
  constructor(
    private readonly api: Api,
    readonly store: string,
    private readonly deleted: () => void,
  ) {
    this.query = new QueryPanel(api, store, () => this.prefixes);
    this.importer = new ImportPanel(api, store, () => {
      void this.loadPrefixes();
      if (this.current === 'rules') void this.loadRules();
    });
    this.browser = new BrowsePanel(
      api,
      store,
      () => this.prefixes,
      () => this.explanation !== undefined,
      (fact) => this.why(fact),
    );
    this.exporter = new ExportPanel(api, store);
    this.element = h('div', { class: 'store-view', 'data-store': store }, h('h2', {}, store), this.tabs, this.body);
    this.element.addEventListener('click', (event) => this.clicked(event));
    this.element.addEventListener('keydown', (event) => {
      // Enter on a focused term of the browse tab opens it, as a click does
      const target = event.target instanceof HTMLElement ? event.target : null;
      const iri = target?.getAttribute('data-iri');
      if (event.key !== 'Enter' || iri === null || iri === undefined || target?.tagName !== 'TD') return;
      event.preventDefault();
      this.browse(iri);
    });
    this.renderTabs();
    this.show('query');
    void this.loadPrefixes();
    void explanationAvailable(api, store).then((available) => {
      this.element.setAttribute('data-explanation', available ? 'present' : 'absent');
      if (!available) return;
      this.explanation = new ExplanationPanel(api, store);
      this.renderTabs();
    });
    void shaclAvailable(api, store).then((available) => {
      this.element.setAttribute('data-shacl', available ? 'present' : 'absent');
      if (!available) return;
      this.shacl = new ShaclPanel(api, store);
      this.renderTabs();
    });
  }

  private renderTabs(): void {
    const names: TabName[] = ['query', 'browse', 'import', 'export', 'rules', 'prefixes', 'properties'];
    if (this.explanation) names.push('explanation');
    if (this.shacl) names.push('shacl');
    replace(
      this.tabs,
      ...names.map((name) => {
        const tab = h('button', { type: 'button', role: 'tab', 'data-tab': name, 'aria-selected': String(this.current === name) }, TAB_LABELS[name]);
        tab.addEventListener('click', () => this.show(name));
        return tab;
      }),
    );
  }

  /** Shows a tab. */
  show(name: TabName): void {
    this.current = name;
    // a live answer follows the store only while the query tab shows it
    if (name !== 'query') this.query.stopLive();
    for (const tab of this.tabs.querySelectorAll('[role=tab]')) tab.setAttribute('aria-selected', String(tab.getAttribute('data-tab') === name));
    switch (name) {
      case 'query':
        replace(this.body, this.query.element);
        this.query.focus();
        break;
      case 'browse':
        replace(this.body, this.browser.element);
        // the overview at first; afterwards the tab shows what it showed last, read again
        if (!this.browsed) this.browser.open(undefined);
        else this.browser.refresh();
        this.browsed = true;
        break;
      case 'import':
        replace(this.body, this.importer.element);
        break;
      case 'export':
        replace(this.body, this.exporter.element);
        void this.exporter.load();
        break;
      case 'rules':
        replace(this.body, this.rules);
        void this.loadRules();
        break;
      case 'prefixes':
        replace(this.body, this.prefixPanel);
        void this.loadPrefixes();
        break;
      case 'properties':
        replace(this.body, this.properties);
        void this.loadProperties();
        break;
      case 'explanation':
        if (this.explanation) replace(this.body, this.explanation.element);
        break;
      case 'shacl':
        if (this.shacl) replace(this.body, this.shacl.element);
        break;
    }
  }

  /** Opens an IRI (undefined: the store's overview) in the browse tab. */
  browse(iri: string | undefined): void {
    this.browsed = true;
    this.show('browse');
    this.browser.open(iri);
  }

  /** A click in the view: one on an IRI opens it in the browse tab (not while text is selected). */
  private clicked(event: MouseEvent): void {
    if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
    const target = event.target instanceof Element ? event.target : null;
    const element = target?.closest('[data-iri], td.term-iri');
    if (!element || !this.element.contains(element)) return;
    const selection = window.getSelection();
    if (selection && !selection.isCollapsed && element.contains(selection.anchorNode)) return;
    const iri = element.getAttribute('data-iri') ?? iriOfTitle(element.getAttribute('title') ?? '');
    if (iri === undefined || (this.current === 'browse' && this.browser.shown === iri)) return;
    event.preventDefault();
    this.browse(iri);
  }

  /** Opens the explanation tab on a fact (Datalog). */
  private why(fact: string): void {
    if (!this.explanation) return;
    this.show('explanation');
    void this.explanation.explainFact(fact);
  }

  /** Reads the store's prefixes (for shortening, completion and the prefixes tab). */
  async loadPrefixes(): Promise<void> {
    try {
      const rows = listingRows(await this.api.table(resource('datastores', this.store, 'prefixes')));
      this.prefixes = rows.map((r) => ({ name: r['PrefixName'] ?? '', iri: r['PrefixIRI'] ?? '' }));
      this.renderPrefixes();
    } catch (e) {
      replace(this.prefixPanel, h('p', { class: 'error' }, message(e)));
    }
  }

  private renderPrefixes(): void {
    const status = h('p', { class: 'status', 'data-role': 'prefix-status' });
    const save = async (oldName: string | undefined, name: string, iri: string): Promise<void> => {
      try {
        if (!/^[A-Za-z_]?[\w.-]*:$/.test(name)) throw new Error(`'${name}' is not a prefix name: it ends with a colon, e.g. ex:`);
        if (oldName !== undefined && oldName !== name) await this.api.table(resource('datastores', this.store, 'prefixes'), { method: 'PATCH', params: { operation: 'unset', 'prefix-name': oldName } });
        await this.api.table(resource('datastores', this.store, 'prefixes'), { method: 'PATCH', params: { operation: 'set', 'prefix-name': name, 'prefix-iri': iri } });
        await this.loadPrefixes();
        const shown = this.prefixPanel.querySelector('[data-role=prefix-status]');
        if (shown) shown.textContent = `Saved ${name} <${iri}>.`;
      } catch (e) {
        status.textContent = message(e);
        status.setAttribute('data-state', 'error');
      }
    };
    const remove = async (name: string): Promise<void> => {
      try {
        await this.api.table(resource('datastores', this.store, 'prefixes'), { method: 'PATCH', params: { operation: 'unset', 'prefix-name': name } });
        await this.loadPrefixes();
      } catch (e) {
        status.textContent = message(e);
      }
    };
    const row = (prefix: Prefix | undefined): HTMLTableRowElement => {
      const name = h('input', { type: 'text', value: prefix?.name ?? '', placeholder: 'ex:', 'aria-label': 'prefix name', 'data-role': 'prefix-name', class: 'narrow' });
      const iri = h('input', { type: 'text', value: prefix?.iri ?? '', placeholder: 'http://example.com/', 'aria-label': 'prefix IRI', 'data-role': 'prefix-iri', class: 'wide' });
      const commit = (): void => {
        if (prefix && name.value === prefix.name && iri.value === prefix.iri) return;
        if (name.value === '' || iri.value === '') return;
        void save(prefix?.name, name.value.trim(), iri.value.trim());
      };
      const actions = h('td', {});
      if (prefix) {
        for (const input of [name, iri]) {
          input.addEventListener('change', commit);
          input.addEventListener('keydown', (event) => {
            if (event.key === 'Enter') commit();
          });
        }
        const del = h('button', { type: 'button', 'data-role': 'prefix-remove', title: `remove ${prefix.name}` }, 'Remove');
        del.addEventListener('click', () => void remove(prefix.name));
        actions.append(del);
      } else {
        const add = h('button', { type: 'button', 'data-role': 'prefix-add' }, 'Add');
        add.addEventListener('click', commit);
        iri.addEventListener('keydown', (event) => {
          if (event.key === 'Enter') commit();
        });
        actions.append(add);
      }
      return h('tr', { 'data-prefix': prefix?.name ?? '' }, h('td', {}, name), h('td', {}, iri), actions);
    };
    replace(
      this.prefixPanel,
      h('p', { class: 'hint' }, 'Edit a name or an IRI in place; Enter or leaving the field saves it. Queries and imports may use these prefixes undeclared.'),
      h(
        'table',
        { class: 'prefixes', 'data-role': 'prefixes' },
        h('thead', {}, h('tr', {}, h('th', {}, 'Prefix'), h('th', {}, 'IRI'), h('th', {}, ''))),
        h('tbody', {}, ...this.prefixes.map((p) => row(p)), row(undefined)),
      ),
      status,
    );
  }

  private async loadRules(): Promise<void> {
    const listing = async (domain: 'user' | 'axioms'): Promise<HTMLElement> => {
      try {
        const response = await this.api.request(resource('datastores', this.store, 'content'), { params: { 'rule-domain': domain }, accept: 'application/x.datalog' });
        const text = (await response.text()).trim();
        const count = text === '' ? 0 : text.split('\n').filter((l) => /:-/.test(l)).length;
        return h(
          'div',
          { class: 'rules-listing', 'data-role': `rules-${domain}` },
          h('h3', {}, domain === 'user' ? `Rules (${count})` : `Rules from OWL axioms (${count})`),
          text === '' ? h('p', { class: 'hint' }, domain === 'user' ? 'No rules: import a Datalog file (.dlog) in the Import tab.' : 'No axioms: import OWL triples and tick “read OWL axioms”.') : h('pre', { class: 'code' }, text),
        );
      } catch (e) {
        return h('p', { class: 'error' }, message(e));
      }
    };
    replace(this.rules, 'Loading…');
    const [user, axioms] = await Promise.all([listing('user'), listing('axioms')]);
    const refresh = h('button', { type: 'button' }, 'Refresh');
    refresh.addEventListener('click', () => void this.loadRules());
    replace(this.rules, h('div', { class: 'toolbar' }, refresh), user, axioms);
  }

  private async loadProperties(): Promise<void> {
    let rows: Array<Record<string, string>>;
    try {
      rows = listingRows(await this.api.table(resource('datastores', this.store)));
    } catch (e) {
      replace(this.properties, h('p', { class: 'error' }, message(e)));
      return;
    }
    const status = h('p', { class: 'status' });
    const body = rows.map((r) => {
      const property = r['Property'] ?? '';
      const value = r['Value'] ?? '';
      let cell: HTMLElement = h('td', {}, value);
      if (r['Mutable'] === 'true') {
        const input = h('input', { type: 'text', value, class: 'wide', 'aria-label': property });
        input.addEventListener('change', () => {
          void this.api
            .request(resource('datastores', this.store), { method: 'PATCH', params: { operation: 'set', [property]: input.value } })
            .then(() => (status.textContent = `Saved ${property}.`))
            .catch((e: unknown) => (status.textContent = message(e)));
        });
        cell = h('td', {}, input);
      }
      return h('tr', {}, h('th', { scope: 'row' }, property), cell);
    });
    const remove = h('button', { type: 'button', class: 'danger', 'data-role': 'delete-store' }, `Delete store ${this.store}…`);
    const confirm = h('span', { class: 'confirm', hidden: true }, `Delete ${this.store} and everything in it? `);
    const yes = h('button', { type: 'button', class: 'danger', 'data-role': 'confirm-delete' }, 'Delete');
    const no = h('button', { type: 'button' }, 'Keep');
    confirm.append(yes, ' ', no);
    remove.addEventListener('click', () => {
      confirm.hidden = false;
      remove.hidden = true;
    });
    no.addEventListener('click', () => {
      confirm.hidden = true;
      remove.hidden = false;
    });
    yes.addEventListener('click', () => {
      void this.dispose()
        .then(() => this.api.request(resource('datastores', this.store), { method: 'DELETE' }))
        .then(() => this.deleted())
        .catch((e: unknown) => (status.textContent = e instanceof ApiError ? e.message : message(e)));
    });
    replace(this.properties, h('table', { class: 'properties', 'data-role': 'properties' }, h('tbody', {}, ...body)), status, h('div', { class: 'toolbar' }, remove, confirm));
  }

  /** Stops what runs and closes the connections of the view. */
  dispose(): Promise<void> {
    return this.query.dispose();
  }
}
