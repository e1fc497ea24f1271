/**
 * The export tab of a store: downloads the whole store, or one named graph, as a file.
 *
 * The whole store comes from `GET /datastores/<ds>/content` in the chosen format, with
 * `fact-domain` (explicit facts by default, as the endpoint does) or, for the rules,
 * `rule-domain`. A named graph comes from the SPARQL endpoint as the answer of
 * `CONSTRUCT { ?s ?p ?o } WHERE { GRAPH <g> { ?s ?p ?o } }` (its explicit and derived facts:
 * the SPARQL protocol has no fact domain). The answer is read into the page, then saved
 * through a link with `download`, so the file holds the bytes the endpoint sent.
 * @module
 */
import { type Api, resource } from './api.js';
import { h, replace } from './dom.js';
import { saveBlob } from './downloads.js';
import { iriRef, listingRows } from './terms.js';

/** A format of the export: its media type, label, file extension and what it holds. */
export interface ExportFormat {
  /** The media type asked for. */
  readonly mediaType: string;
  /** Its name in the list. */
  readonly label: string;
  /** The file name extension. */
  readonly extension: string;
  /** What the format holds: every graph, the default graph only, or the rules. */
  readonly holds: 'all graphs' | 'default graph' | 'rules';
}

/** The formats of a whole-store export, the default first. */
export const STORE_FORMATS: readonly ExportFormat[] = [
  { mediaType: 'application/trig', label: 'TriG', extension: 'trig', holds: 'all graphs' },
  { mediaType: 'application/n-quads', label: 'N-Quads', extension: 'nq', holds: 'all graphs' },
  { mediaType: 'text/turtle', label: 'Turtle', extension: 'ttl', holds: 'default graph' },
  { mediaType: 'application/n-triples', label: 'N-Triples', extension: 'nt', holds: 'default graph' },
  { mediaType: 'application/x.datalog', label: 'Datalog rules', extension: 'dlog', holds: 'rules' },
];

/** The formats of a named graph's export. */
export const GRAPH_FORMATS: readonly ExportFormat[] = STORE_FORMATS.filter((f) => f.holds === 'default graph');

/** A file name made of a store's name and a graph IRI's last segment (letters, digits, `._-`). */
export function exportFileName(store: string, graph: string | undefined, extension: string): string {
  const safe = (text: string): string => text.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+|_+$/g, '');
  const last = graph === undefined ? '' : safe(graph.replace(/[/#]+$/, '').split(/[/#:]/).pop() ?? '');
  return `${safe(store) || 'store'}${last === '' ? '' : `-${last}`}.${extension}`;
}

/** The export tab of a store. */
export class ExportPanel {
  /** The tab's element. */
  readonly element: HTMLElement;
  private readonly graph = h('select', { 'aria-label': 'what to export', 'data-role': 'export-graph' });
  private readonly format = h('select', { 'aria-label': 'export format', 'data-role': 'export-format' });
  private readonly domain = h(
    'select',
    { 'aria-label': 'fact domain', 'data-role': 'export-domain' },
    h('option', { value: 'explicit' }, 'explicit facts'),
    h('option', { value: 'all' }, 'explicit and derived facts'),
  );
  private readonly rules = h(
    'select',
    { 'aria-label': 'rule domain', 'data-role': 'export-rules', hidden: true },
    h('option', { value: 'user' }, 'rules'),
    h('option', { value: 'axioms' }, 'rules from OWL axioms'),
    h('option', { value: 'all' }, 'all rules'),
  );
  private readonly note = h('p', { class: 'hint', 'data-role': 'export-note' });
  private readonly status = h('p', { class: 'status', 'data-role': 'export-status' });
  private readonly button = h('button', { type: 'button', class: 'primary', 'data-role': 'export' }, 'Download');

  /** The tab of `store`. */
  constructor(
    private readonly api: Api,
    private readonly store: string,
  ) {
    this.graph.addEventListener('change', () => this.formats());
    this.format.addEventListener('change', () => this.explain());
    this.domain.addEventListener('change', () => this.explain());
    this.rules.addEventListener('change', () => this.explain());
    this.button.addEventListener('click', () => void this.download());
    this.element = h(
      'section',
      { class: 'export-panel', 'data-role': 'export-panel' },
      h('p', { class: 'hint' }, 'Download the store, or one named graph, as a file.'),
      h('div', { class: 'toolbar' }, this.graph, this.format, this.domain, this.rules, this.button),
      this.note,
      this.status,
    );
    replace(this.graph, h('option', { value: '' }, 'the whole store'));
    this.formats();
  }

  /** Reads the named graphs (for the list). */
  async load(): Promise<void> {
    const chosen = this.graph.value;
    try {
      const answer = await this.api.table(resource('datastores', this.store, 'sparql'), {
        params: { query: 'SELECT ?graph (COUNT(*) AS ?facts) WHERE { GRAPH ?graph { ?s ?p ?o } } GROUP BY ?graph ORDER BY ?graph' },
      });
      const graphs = listingRows(answer).filter((r) => (r['graph'] ?? '') !== '');
      replace(
        this.graph,
        h('option', { value: '' }, 'the whole store'),
        ...graphs.map((r) => h('option', { value: r['graph'] ?? '' }, `graph <${r['graph'] ?? ''}> (${r['facts'] ?? '?'} facts)`)),
      );
      if ([...this.graph.options].some((o) => o.value === chosen)) this.graph.value = chosen;
    } catch (e) {
      this.status.textContent = `The named graphs could not be listed: ${e instanceof Error ? e.message : String(e)}`;
    }
    this.formats();
  }

  private formats(): void {
    const chosen = this.format.value;
    const formats = this.graph.value === '' ? STORE_FORMATS : GRAPH_FORMATS;
    replace(this.format, ...formats.map((f) => h('option', { value: f.mediaType }, f.label)));
    if (formats.some((f) => f.mediaType === chosen)) this.format.value = chosen;
    this.explain();
  }

  private chosenFormat(): ExportFormat {
    const formats = this.graph.value === '' ? STORE_FORMATS : GRAPH_FORMATS;
    return formats.find((f) => f.mediaType === this.format.value) ?? formats[0]!;
  }

  private explain(): void {
    this.status.removeAttribute('data-state');
    this.status.textContent = '';
    const format = this.chosenFormat();
    const whole = this.graph.value === '';
    this.domain.hidden = !whole || format.holds === 'rules';
    this.rules.hidden = format.holds !== 'rules';
    this.note.textContent = !whole
      ? 'The graph’s explicit and derived facts, as the SPARQL endpoint answers a CONSTRUCT query over it.'
      : format.holds === 'rules'
        ? 'The store’s rules in Datalog.'
        : format.holds === 'all graphs'
          ? 'The default graph and every named graph.'
          : 'The default graph only (TriG or N-Quads hold the named graphs too).';
  }

  private async download(): Promise<void> {
    const format = this.chosenFormat();
    const graph = this.graph.value === '' ? undefined : this.graph.value;
    const name = exportFileName(this.store, graph, format.extension);
    this.button.disabled = true;
    this.status.removeAttribute('data-state');
    this.status.textContent = `Exporting ${name}…`;
    try {
      const response =
        graph === undefined
          ? await this.api.request(resource('datastores', this.store, 'content'), {
              params: format.holds === 'rules' ? { 'rule-domain': this.rules.value } : { 'fact-domain': this.domain.value },
              accept: format.mediaType,
            })
          : await this.api.request(resource('datastores', this.store, 'sparql'), {
              params: { query: `CONSTRUCT { ?s ?p ?o } WHERE { GRAPH ${iriRef(graph)} { ?s ?p ?o } }` },
              accept: format.mediaType,
            });
      const data = await response.blob();
      saveBlob(new Blob([data], { type: format.mediaType }), name);
      this.status.setAttribute('data-state', 'done');
      this.status.textContent = `Saved ${name} (${data.size.toLocaleString('en')} bytes).`;
    } catch (e) {
      this.status.setAttribute('data-state', 'error');
      this.status.textContent = e instanceof Error ? e.message : String(e);
    } finally {
      this.button.disabled = false;
    }
  }
}
