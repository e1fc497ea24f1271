/**
 * The SHACL tab: validates a graph of the store against the shapes of another (or the default
 * graph) with `GET /datastores/<ds>/shacl` answering the typed report as `application/json`,
 * and shows whether the data conforms and a table of the results. The tab exists only when
 * the endpoint validates: {@link shaclAvailable} asks it to validate against a shapes graph no
 * store holds (an empty shapes graph: no work).
 * @module
 */
import { type Api, resource, routeServed } from './api.js';
import { h, replace } from './dom.js';

const JSON_TYPE = 'application/json';

/** A shapes graph no store holds, for the probe. */
const PROBE_GRAPH = 'urn:quadlog:console:no-shapes';

/** Whether the endpoint validates the store (404, 405 and 501 say it does not). */
export function shaclAvailable(api: Api, store: string): Promise<boolean> {
  return routeServed(api, resource('datastores', store, 'shacl'), { params: { 'shapes-graph': PROBE_GRAPH }, accept: JSON_TYPE });
}

/** One result as the route writes it (terms as N-Triples text). */
interface Result {
  readonly focusNode: string;
  readonly resultPath?: string;
  readonly value?: string;
  readonly sourceShape: string;
  readonly sourceConstraintComponent: string;
  readonly severity: string;
  readonly messages: readonly string[];
}

const SH = 'http://www.w3.org/ns/shacl#';

/** An IRI of the SHACL namespace as `sh:…`. */
function short(iri: string): string {
  return iri.startsWith(SH) ? `sh:${iri.slice(SH.length)}` : iri;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** The results of the route's JSON. */
function resultsOf(json: unknown): { conforms: boolean; results: Result[] } {
  const record = isRecord(json) ? json : {};
  const results = Array.isArray(record['results']) ? record['results'].filter(isRecord) : [];
  return {
    conforms: record['conforms'] === true,
    results: results.map((r) => ({
      focusNode: text(r['focusNode']),
      resultPath: text(r['resultPath']),
      value: text(r['value']),
      sourceShape: text(r['sourceShape']),
      sourceConstraintComponent: text(r['sourceConstraintComponent']),
      severity: text(r['severity']),
      messages: Array.isArray(r['messages']) ? r['messages'].map(text) : [],
    })),
  };
}

/** The SHACL tab of a store. */
export class ShaclPanel {
  /** The tab's element. */
  readonly element: HTMLElement;
  private readonly report = h('div', { class: 'shacl-report', 'data-role': 'shacl-report' });

  /** The tab of `store`. */
  constructor(
    private readonly api: Api,
    private readonly store: string,
  ) {
    const data = h('input', { type: 'text', class: 'wide', placeholder: 'data graph IRI (empty: the default graph)', 'aria-label': 'data graph', 'data-role': 'data-graph' });
    const shapes = h('input', { type: 'text', class: 'wide', placeholder: 'shapes graph IRI (empty: the default graph)', 'aria-label': 'shapes graph', 'data-role': 'shapes-graph' });
    const domain = h('select', { 'aria-label': 'fact domain', 'data-role': 'fact-domain' }, h('option', { value: 'all' }, 'explicit and derived facts'), h('option', { value: 'explicit' }, 'explicit facts'), h('option', { value: 'derived' }, 'derived facts'));
    const form = h('form', { class: 'toolbar' }, data, shapes, domain, h('button', { type: 'submit', class: 'primary' }, 'Validate'));
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.validate(data.value.trim(), shapes.value.trim(), domain.value);
    });
    this.element = h('section', { class: 'shacl-panel' }, h('p', { class: 'hint' }, 'Validates a graph of the store against the SHACL shapes held in a graph of the store.'), form, this.report);
  }

  private async validate(dataGraph: string, shapesGraph: string, factDomain: string): Promise<void> {
    replace(this.report, 'Validating…');
    const params: Record<string, string> = { 'fact-domain': factDomain };
    if (dataGraph !== '') params['data-graph'] = dataGraph;
    if (shapesGraph !== '') params['shapes-graph'] = shapesGraph;
    try {
      const response = await this.api.request(resource('datastores', this.store, 'shacl'), { params, accept: JSON_TYPE });
      const { conforms, results } = resultsOf(await response.json());
      const verdict = h(
        'p',
        { class: conforms ? 'shacl-verdict shacl-conforms' : 'shacl-verdict shacl-violated', 'data-role': 'shacl-verdict', 'data-conforms': String(conforms) },
        conforms ? 'The data conforms to the shapes.' : `The data does not conform to the shapes: ${results.length} result${results.length === 1 ? '' : 's'}.`,
      );
      if (results.length === 0) {
        replace(this.report, verdict);
        return;
      }
      const cell = (value: string | undefined, mono = true): HTMLTableCellElement => h('td', mono ? { class: 'term' } : {}, value ?? '');
      const table = h(
        'div',
        { class: 'table-wrap' },
        h(
          'table',
          { class: 'answer', 'data-role': 'shacl-results' },
          h('thead', {}, h('tr', {}, ...['focus node', 'path', 'value', 'component', 'shape', 'severity', 'message'].map((c) => h('th', {}, c)))),
          h(
            'tbody',
            {},
            ...results.map((r) =>
              h('tr', { 'data-severity': short(r.severity) }, cell(r.focusNode), cell(r.resultPath), cell(r.value), cell(short(r.sourceConstraintComponent)), cell(r.sourceShape), cell(short(r.severity)), cell(r.messages.join(' '), false)),
            ),
          ),
        ),
      );
      replace(this.report, verdict, table);
    } catch (e) {
      replace(this.report, h('p', { class: 'error' }, e instanceof Error ? e.message : String(e)));
    }
  }
}
