/**
 * The explanation tab: why a fact holds, as an expandable proof tree, from
 * `GET /datastores/<ds>/explanation?fact=…&type=…` answering RDFox's
 * `application/x.explanation+json` (facts by id, each with its rule instances and the ids of
 * their body facts). The tab exists only when the endpoint implements explanations: the store
 * view asks {@link explanationAvailable} first. The tree opens at its first {@link OPEN_LEVELS}
 * levels; deeper facts are built when the user opens them.
 * @module
 */
import { type Api, resource, routeServed } from './api.js';
import { h, replace } from './dom.js';

const EXPLANATION_TYPE = 'application/x.explanation+json';

/** How many levels of facts the proof tree shows open at first (the explained fact is level 1). */
export const OPEN_LEVELS = 2;

/** Whether the endpoint explains facts of a store (501, 404 and 405 say it does not). */
export function explanationAvailable(api: Api, store: string): Promise<boolean> {
  return routeServed(api, resource('datastores', store, 'explanation'), { accept: EXPLANATION_TYPE });
}

/** A fact of an explanation. */
interface Fact {
  readonly fact: string;
  readonly type: string;
  readonly ruleInstances: ReadonlyArray<{ readonly rule: string; readonly bodyFacts: ReadonlyArray<string | null> }>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The facts of an explanation by id. */
function factsOf(json: unknown): Map<string, Fact> {
  const facts = new Map<string, Fact>();
  const all = isRecord(json) && isRecord(json['facts']) ? json['facts'] : {};
  for (const [id, value] of Object.entries(all)) {
    if (!isRecord(value)) continue;
    const instances = Array.isArray(value['rule-instances']) ? value['rule-instances'] : [];
    facts.set(id, {
      fact: typeof value['fact'] === 'string' ? value['fact'] : id,
      type: typeof value['type'] === 'string' ? value['type'] : String(value['type']),
      ruleInstances: instances.filter(isRecord).map((r) => ({
        // the grounded rule (the instance) when the endpoint sends it, else the rule
        rule: typeof r['grounded-rule'] === 'string' ? r['grounded-rule'] : typeof r['rule'] === 'string' ? r['rule'] : '',
        bodyFacts: Array.isArray(r['body-facts']) ? r['body-facts'].map((b) => (typeof b === 'string' || typeof b === 'number' ? String(b) : null)) : [],
      })),
    });
  }
  return facts;
}

/** The explanation tab of a store. */
export class ExplanationPanel {
  /** The tab's element. */
  readonly element: HTMLElement;
  private readonly tree = h('div', { class: 'proof', 'data-role': 'proof' });
  private readonly fact = h('input', { type: 'text', class: 'wide', placeholder: '[ex:alice, ex:ancestorOf, ex:carol]', 'aria-label': 'fact', 'data-role': 'fact' });
  private readonly type = h('select', { 'aria-label': 'explanation type' }, ...['shortest', 'to-explicit', 'exhaustive'].map((t) => h('option', { value: t }, t)));

  /** The tab of `store`. */
  constructor(
    private readonly api: Api,
    private readonly store: string,
  ) {
    const form = h('form', { class: 'toolbar' }, this.fact, this.type, h('button', { type: 'submit', class: 'primary' }, 'Explain'));
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.explain(this.fact.value, this.type.value);
    });
    this.element = h('section', { class: 'explanation-panel' }, h('p', { class: 'hint' }, 'A fact in Datalog syntax; the store’s prefixes apply.'), form, this.tree);
  }

  /** Explains `fact` (Datalog) with the chosen type, as if the user had typed it. */
  explainFact(fact: string): Promise<void> {
    this.fact.value = fact;
    return this.explain(fact, this.type.value);
  }

  private async explain(fact: string, type: string): Promise<void> {
    replace(this.tree, 'Explaining…');
    try {
      const response = await this.api.request(resource('datastores', this.store, 'explanation'), { params: { fact, type }, accept: EXPLANATION_TYPE });
      const facts = factsOf(await response.json());
      const root = facts.get('0') ?? [...facts.values()][0];
      if (!root) {
        replace(this.tree, 'The explanation is empty.');
        return;
      }
      replace(this.tree, this.node(root, facts, new Set(), 1));
    } catch (e) {
      replace(this.tree, h('p', { class: 'error' }, e instanceof Error ? e.message : String(e)));
    }
  }

  /**
   * A fact as a collapsible node whose rule instances are built when it is opened; a node of
   * the first {@link OPEN_LEVELS} levels (`level` 1 is the root) is open and built at once.
   */
  private node(fact: Fact, facts: ReadonlyMap<string, Fact>, path: ReadonlySet<Fact>, level: number): HTMLElement {
    const label = (): Node[] => [h('code', {}, fact.fact), document.createTextNode(' '), h('span', { class: `badge badge-${fact.type}` }, fact.type)];
    if (fact.ruleInstances.length === 0 || path.has(fact)) {
      return h('div', { class: 'proof-leaf' }, ...label(), path.has(fact) ? h('span', { class: 'hint' }, ' (a cycle: shown above)') : null);
    }
    const summary = h('summary', {}, ...label());
    const details = h('details', { class: 'proof-node' }, summary);
    const inner = new Set(path).add(fact);
    let built = false;
    const build = (): void => {
      if (built) return;
      built = true;
      for (const instance of fact.ruleInstances) {
        details.append(
          h(
            'div',
            { class: 'rule-instance' },
            h('div', { class: 'rule' }, 'by ', h('code', {}, instance.rule)),
            ...instance.bodyFacts.map((id) => {
              const body = id === null ? undefined : facts.get(id);
              return body ? this.node(body, facts, inner, level + 1) : h('div', { class: 'proof-leaf hint' }, 'a condition that is not a fact (NOT, BIND, FILTER)');
            }),
          ),
        );
      }
    };
    details.addEventListener('toggle', () => {
      if (details.open) build();
    });
    if (level <= OPEN_LEVELS) {
      build();
      details.open = true;
    }
    return details;
  }
}
