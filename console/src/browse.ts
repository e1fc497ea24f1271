/**
 * The browse tab of a store: an IRI's facts, as subject and as object (a page at a time), each
 * marked explicit or derived, with "why?" on the derived ones; the IRI's classes with their
 * instance counts; and, when no IRI is chosen, an overview of the store's classes, properties
 * and named graphs with their counts.
 *
 * Everything is read with SPARQL queries on `GET /datastores/<ds>/sparql`. The endpoint's SPARQL
 * protocol has no fact domain, so whether a fact is explicit is asked of the explanation
 * resource (`GET /datastores/<ds>/explanation?fact=…&max-distance-from-root=0`, whose root fact
 * has the type `explicit` or `derived`), for the facts of the page shown only. The statistics
 * resource (`/datastores/<ds>/stats`) lists statistics objects without counts, so the overview
 * counts with aggregate queries.
 * @module
 */
import { type Api, resource } from './api.js';
import { h, replace } from './dom.js';
import { type Answer, iriRef, type Prefix, showTerm, type Term } from './terms.js';

/** Facts shown per page, as subject and as object. */
export const FACTS_PER_PAGE = 50;

/** The most classes and properties the overview lists. */
export const OVERVIEW_LIMIT = 200;

const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';

/** How many explanation requests run at once when a page's facts are marked. */
const MARKING_CONCURRENCY = 6;

/** Whether a fact is explicit, derived, or unknown (blank nodes, no explanation resource, an error). */
export type FactKind = 'explicit' | 'derived' | 'unknown';

/** A fact as shown: its terms (graph undefined for the default graph). */
export interface Fact {
  /** The subject. */
  readonly subject: Term;
  /** The predicate. */
  readonly predicate: Term;
  /** The object. */
  readonly object: Term;
  /** The named graph, undefined for the default graph. */
  readonly graph: Term | undefined;
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * A fact in the Datalog syntax of the explanation resource (`[s, p, o]`, `[s, p, o] <g>` in a
 * named graph), or undefined when a term has no such syntax (blank nodes, triple terms).
 */
export function datalogFact(fact: Fact): string | undefined {
  const terms = [fact.subject, fact.predicate, fact.object, ...(fact.graph ? [fact.graph] : [])];
  if (terms.some((t) => t.type === 'bnode' || t.type === 'triple')) return undefined;
  const text = (t: Term): string => (t.type === 'uri' ? iriRef(t.value) : showTerm(t, []).full);
  const triple = `[${text(fact.subject)}, ${text(fact.predicate)}, ${text(fact.object)}]`;
  return fact.graph ? `${triple} ${text(fact.graph)}` : triple;
}

/**
 * The IRI a user typed: `<…>`, a full IRI, or a prefixed name of the store's prefixes; undefined
 * when it is none of these.
 */
export function typedIri(text: string, prefixes: readonly Prefix[]): string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  if (trimmed.startsWith('<') && trimmed.endsWith('>')) return trimmed.slice(1, -1);
  const colon = trimmed.indexOf(':');
  if (colon >= 0) {
    const prefix = prefixes.find((p) => p.name === trimmed.slice(0, colon + 1));
    if (prefix) return prefix.iri + trimmed.slice(colon + 1);
    if (/^[A-Za-z][A-Za-z0-9+.-]*:\S+$/.test(trimmed)) return trimmed;
  }
  return undefined;
}

/** Runs `tasks` with at most `limit` running at once. */
async function inTurn(tasks: ReadonlyArray<() => Promise<void>>, limit: number): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < tasks.length) await tasks[next++]!();
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
}

/** The browse tab of a store. */
export class BrowsePanel {
  /** The tab's element. */
  readonly element: HTMLElement;
  private readonly content = h('div', { class: 'browse-content', 'data-role': 'browse-content' });
  private readonly input = h('input', { type: 'text', class: 'wide', placeholder: 'an IRI: ex:alice or <http://…>', 'aria-label': 'IRI to browse', 'data-role': 'browse-iri' });
  private readonly problem = h('span', { class: 'error', 'data-role': 'browse-problem' });
  /** The IRI shown (undefined: the overview). */
  private iri: string | undefined;
  /** Bumped at each view, so that an answer of an older view is dropped. */
  private generation = 0;

  /**
   * The tab of `store`: `prefixes` shortens IRIs, `explains` says whether the endpoint explains
   * facts, `why` opens the explanation of a fact (Datalog).
   */
  constructor(
    private readonly api: Api,
    private readonly store: string,
    private readonly prefixes: () => readonly Prefix[],
    private readonly explains: () => boolean,
    private readonly why: (fact: string) => void,
  ) {
    const form = h('form', { class: 'toolbar browse-form' }, this.input, h('button', { type: 'submit', class: 'primary' }, 'Browse'), this.problem);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const iri = typedIri(this.input.value, this.prefixes());
      this.problem.textContent = iri === undefined ? 'Not an IRI: write <http://…> or a prefixed name of the store.' : '';
      if (iri !== undefined) this.open(iri);
    });
    const overview = h('button', { type: 'button', 'data-role': 'browse-overview' }, 'Overview');
    overview.addEventListener('click', () => this.open(undefined));
    form.prepend(overview);
    this.element = h('section', { class: 'browse-panel', 'data-role': 'browse-panel' }, form, this.content);
  }

  /** The IRI shown, or undefined for the overview. */
  get shown(): string | undefined {
    return this.iri;
  }

  /** Shows an IRI's facts and classes, or the store's overview (undefined). */
  open(iri: string | undefined): void {
    this.iri = iri;
    this.input.value = iri === undefined ? '' : (showTerm({ type: 'uri', value: iri }, this.prefixes()).text);
    this.problem.textContent = '';
    const generation = ++this.generation;
    if (iri === undefined) void this.overview(generation);
    else this.facts(iri, generation);
  }

  /** Shows the view again (after the store changed). */
  refresh(): void {
    this.open(this.iri);
  }

  private query(text: string): Promise<Answer> {
    return this.api.table(resource('datastores', this.store, 'sparql'), { params: { query: text } });
  }

  private current(generation: number): boolean {
    return generation === this.generation;
  }

  /** A term as a table cell; IRIs carry `data-iri` (and take the focus), which the store view opens here on a click or Enter. */
  private cell(term: Term | undefined): HTMLTableCellElement {
    const shown = showTerm(term, this.prefixes());
    return h(
      'td',
      { class: `term term-${shown.kind}`, title: shown.full, ...(term?.type === 'uri' ? { 'data-iri': term.value, tabindex: 0 } : {}) },
      shown.text,
      shown.annotation !== undefined ? h('span', { class: 'annotation' }, shown.annotation) : null,
    );
  }

  // ---- an IRI ----

  private facts(iri: string, generation: number): void {
    const ref = iriRef(iri);
    const heading = h('h3', { class: 'browse-iri' }, showTerm({ type: 'uri', value: iri }, this.prefixes()).text, ' ', h('span', { class: 'hint small' }, iri));
    const classes = h('div', { 'data-role': 'browse-classes' }, 'Reading the classes…');
    const asSubject = h('div', { 'data-role': 'browse-as-subject' });
    const asObject = h('div', { 'data-role': 'browse-as-object' });
    replace(this.content, heading, h('h3', {}, 'Classes'), classes, h('h3', {}, 'As subject'), asSubject, h('h3', {}, 'As object'), asObject);
    void this.classesOf(ref, classes, generation);
    void this.factPage(iri, 'subject', 0, asSubject, generation);
    void this.factPage(iri, 'object', 0, asObject, generation);
  }

  private async classesOf(ref: string, target: HTMLElement, generation: number): Promise<void> {
    try {
      const answer = await this.query(`SELECT ?class (COUNT(DISTINCT ?instance) AS ?instances) WHERE { ${ref} <${RDF_TYPE}> ?class . ?instance <${RDF_TYPE}> ?class } GROUP BY ?class ORDER BY DESC(?instances) ?class`);
      if (!this.current(generation)) return;
      if (answer.rows.length === 0) {
        replace(target, h('p', { class: 'hint' }, 'No class: the IRI is the subject of no rdf:type fact.'));
        return;
      }
      replace(target, this.countTable(['Class', 'Instances'], answer, 'browse-class-table'));
    } catch (e) {
      if (this.current(generation)) replace(target, h('p', { class: 'error' }, message(e)));
    }
  }

  private async factPage(iri: string, position: 'subject' | 'object', offset: number, target: HTMLElement, generation: number): Promise<void> {
    const ref = iriRef(iri);
    const pattern = position === 'subject' ? `${ref} ?p ?x` : `?x ?p ${ref}`;
    const text = `SELECT ?p ?x ?g WHERE { { ${pattern} } UNION { GRAPH ?g { ${pattern} } } } ORDER BY ?g ?p ?x LIMIT ${FACTS_PER_PAGE + 1} OFFSET ${offset}`;
    replace(target, h('p', { class: 'hint' }, 'Reading…'));
    let answer: Answer;
    try {
      answer = await this.query(text);
    } catch (e) {
      if (this.current(generation)) replace(target, h('p', { class: 'error' }, message(e)));
      return;
    }
    if (!this.current(generation)) return;
    const more = answer.rows.length > FACTS_PER_PAGE;
    const me: Term = { type: 'uri', value: iri };
    const facts: Fact[] = [];
    for (const [p, x, g] of answer.rows.slice(0, FACTS_PER_PAGE)) {
      if (!p || !x) continue;
      facts.push(position === 'subject' ? { subject: me, predicate: p, object: x, graph: g } : { subject: x, predicate: p, object: me, graph: g });
    }
    if (facts.length === 0 && offset === 0) {
      replace(target, h('p', { class: 'hint' }, `No fact has it as ${position}.`));
      return;
    }
    const rows = facts.map((fact) => {
      const kind = h('td', { class: 'fact-kind', 'data-role': 'fact-kind' }, '…');
      const row = h(
        'tr',
        { 'data-fact': datalogFact(fact) ?? '' },
        position === 'subject' ? this.cell(fact.predicate) : this.cell(fact.subject),
        position === 'subject' ? this.cell(fact.object) : this.cell(fact.predicate),
        this.cell(fact.graph),
        kind,
      );
      return { fact, row, kind };
    });
    const previous = h('button', { type: 'button', 'data-role': `browse-${position}-previous`, disabled: offset === 0 }, 'Previous');
    const next = h('button', { type: 'button', 'data-role': `browse-${position}-next`, disabled: !more }, 'Next');
    previous.addEventListener('click', () => void this.factPage(iri, position, Math.max(0, offset - FACTS_PER_PAGE), target, generation));
    next.addEventListener('click', () => void this.factPage(iri, position, offset + FACTS_PER_PAGE, target, generation));
    const range = h('span', { class: 'range' }, `facts ${offset + 1}–${offset + facts.length}${more ? '' : ` of ${offset + facts.length}`}`);
    const columns = position === 'subject' ? ['Property', 'Object'] : ['Subject', 'Property'];
    replace(
      target,
      h('div', { class: 'pager' }, previous, next, range),
      h(
        'div',
        { class: 'table-wrap' },
        h(
          'table',
          { class: 'answer browse-facts', 'data-role': `browse-facts-${position}` },
          h('thead', {}, h('tr', {}, ...[...columns, 'Graph', ''].map((c) => h('th', {}, c)))),
          h('tbody', {}, ...rows.map((r) => r.row)),
        ),
      ),
    );
    await this.mark(rows, generation);
  }

  /** Marks each fact of a page explicit or derived, a derived one with its "why?". */
  private async mark(rows: ReadonlyArray<{ fact: Fact; row: HTMLElement; kind: HTMLElement }>, generation: number): Promise<void> {
    const explains = this.explains();
    await inTurn(
      rows.map(({ fact, row, kind }) => async () => {
        const datalog = datalogFact(fact);
        const found: FactKind = explains && datalog !== undefined ? await this.kindOf(datalog) : 'unknown';
        if (!this.current(generation)) return;
        row.setAttribute('data-kind', found);
        const badge = h('span', { class: `badge badge-${found}` }, found === 'unknown' ? '?' : found);
        if (found === 'unknown') badge.setAttribute('title', datalog === undefined ? 'a fact with a blank node cannot be explained' : 'the endpoint does not say whether the fact is explicit');
        replace(kind, badge);
        if (found === 'derived' && datalog !== undefined) {
          const why = h('button', { type: 'button', class: 'small', 'data-role': 'why', title: `explain ${datalog}` }, 'why?');
          why.addEventListener('click', () => this.why(datalog));
          kind.append(' ', why);
        }
      }),
      MARKING_CONCURRENCY,
    );
  }

  private async kindOf(fact: string): Promise<FactKind> {
    try {
      const response = await this.api.request(resource('datastores', this.store, 'explanation'), {
        params: { fact, type: 'shortest', 'max-distance-from-root': '0' },
        accept: 'application/x.explanation+json',
      });
      const json = (await response.json()) as { facts?: Record<string, { type?: unknown }> };
      const type = json.facts?.['0']?.type;
      return type === 'explicit' || type === 'derived' ? type : 'unknown';
    } catch {
      return 'unknown';
    }
  }

  // ---- the overview ----

  private async overview(generation: number): Promise<void> {
    const total = h('p', { 'data-role': 'browse-total' }, 'Counting…');
    const classes = h('div', { 'data-role': 'overview-classes' }, 'Counting…');
    const properties = h('div', { 'data-role': 'overview-properties' }, 'Counting…');
    const graphs = h('div', { 'data-role': 'overview-graphs' }, 'Counting…');
    replace(
      this.content,
      h('p', { class: 'hint' }, 'The store at a glance: its classes and properties in the default graph, and its named graphs, with their counts (explicit and derived facts). Click an IRI to browse it.'),
      total,
      h('div', { class: 'overview' }, h('div', {}, h('h3', {}, 'Classes'), classes), h('div', {}, h('h3', {}, 'Properties'), properties), h('div', {}, h('h3', {}, 'Named graphs'), graphs)),
    );
    const fill = async (target: HTMLElement, text: string, columns: readonly [string, string], role: string, empty: string): Promise<void> => {
      try {
        const answer = await this.query(text);
        if (!this.current(generation)) return;
        const capped = answer.rows.length >= OVERVIEW_LIMIT ? h('p', { class: 'hint small' }, `The ${OVERVIEW_LIMIT} largest are listed.`) : null;
        replace(target, answer.rows.length === 0 ? h('p', { class: 'hint' }, empty) : this.countTable(columns, answer, role), capped);
      } catch (e) {
        if (this.current(generation)) replace(target, h('p', { class: 'error' }, message(e)));
      }
    };
    await Promise.all([
      (async () => {
        try {
          const answer = await this.query('SELECT (COUNT(*) AS ?facts) WHERE { ?s ?p ?o }');
          if (this.current(generation)) total.textContent = `${answer.rows[0]?.[0]?.value ?? '0'} facts in the default graph.`;
        } catch (e) {
          if (this.current(generation)) total.textContent = message(e);
        }
      })(),
      fill(classes, `SELECT ?class (COUNT(DISTINCT ?x) AS ?instances) WHERE { ?x <${RDF_TYPE}> ?class } GROUP BY ?class ORDER BY DESC(?instances) ?class LIMIT ${OVERVIEW_LIMIT}`, ['Class', 'Instances'], 'overview-class-table', 'No class: no rdf:type fact.'),
      fill(properties, `SELECT ?property (COUNT(*) AS ?facts) WHERE { ?s ?property ?o } GROUP BY ?property ORDER BY DESC(?facts) ?property LIMIT ${OVERVIEW_LIMIT}`, ['Property', 'Facts'], 'overview-property-table', 'No facts.'),
      fill(graphs, `SELECT ?graph (COUNT(*) AS ?facts) WHERE { GRAPH ?graph { ?s ?p ?o } } GROUP BY ?graph ORDER BY ?graph LIMIT ${OVERVIEW_LIMIT}`, ['Graph', 'Facts'], 'overview-graph-table', 'No named graphs.'),
    ]);
  }

  /** A two-column table of terms and counts. */
  private countTable(columns: readonly [string, string] | readonly string[], answer: Answer, role: string): HTMLElement {
    return h(
      'div',
      { class: 'table-wrap' },
      h(
        'table',
        { class: 'answer counts', 'data-role': role },
        h('thead', {}, h('tr', {}, ...columns.map((c) => h('th', {}, c)))),
        h('tbody', {}, ...answer.rows.map(([term, count]) => h('tr', { 'data-term': term?.value ?? '' }, this.cell(term), h('td', { class: 'count', 'data-role': 'count' }, count?.value ?? '')))),
      ),
    );
  }
}
