/**
 * The delta-query bar: after any sequence of commits (facts in and out, `owl:sameAs` facts,
 * rules with negation and aggregation in and out, OWL 2 RL axioms in and out), for every
 * registered query, the previous answer plus the version's additions minus its deletions
 * equals the answer computed from scratch (as bags), and a watch of the query ends in that
 * answer too; under FBF and DRed, with equality off (rules with NOT and AGGREGATE) and on
 * (`equality=noUNA` or `UNA`: `owl:sameAs` is an equality, functional properties make terms the same),
 * for queries computed from the change log and for queries that re-run, over the fact domains
 * `all`, `explicit` and `derived`.
 *
 * The runs are seeded: set QUADLOG_PROPERTY_SEED to replay a failure (fast-check prints the
 * seed and the path of the counterexample in the failure message) and QUADLOG_PROPERTY_RUNS to
 * run more cases.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import type { DataStoreConnection, DeltaQueryEvent, DeltaQueryWatch, QueryAnswer } from '../../lib/index.js';
import { useServer } from '../helpers/server.js';

const PREFIX = '@prefix : <http://r/> .\n@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n';
const TURTLE_PREFIXES = '@prefix : <http://r/> .\n@prefix owl: <http://www.w3.org/2002/07/owl#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n';
const DATALOG = { mediaType: 'application/x.datalog' };
const TRIG = { mediaType: 'application/trig' };

/**
 * Rules. Layer 0 (p0, C0, f, owl:sameAs, r0 in :g) is explicit, then layers 1 and 2 (p1, q1,
 * C1, p2, C2); negation and aggregation read lower layers only. The axioms below derive the
 * OWL layer (s, t, u, D, E) from layers 0 and 1 and, through E ≡ C1, C1: no cycle goes through
 * NOT or AGGREGATE. Rules with NOT or AGGREGATE are refused by a store with equality.
 */
const RULES: ReadonlyArray<{ readonly text: string; readonly stratified?: true }> = [
  { text: '[?x, :p1, ?y] :- [?x, :p0, ?y] .' },
  { text: '[?x, :p1, ?z] :- [?x, :p1, ?y], [?y, :p0, ?z] .' },
  { text: ':C1[?x] :- :C0[?x], NOT [?x, :p0, ?x] .', stratified: true },
  { text: '[?x, :q1, ?y] :g :- [?x, :r0, ?y] :g, :C0[?y] .' },
  { text: '[?x, :p2, ?n] :- AGGREGATE([?x, :p1, ?y] ON ?x BIND COUNT(?y) AS ?n) .', stratified: true },
  { text: ':C2[?x] :- :C1[?x], NOT EXISTS ?y IN [?x, :p1, ?y] .', stratified: true },
  { text: '[?x, :p2, ?y] :- [?x, :q1, ?y] :g, NOT :C1[?x] .', stratified: true },
  { text: '[?x, :s, ?y] :- [?x, :f, ?y], :C0[?y] .' },
  { text: '[?y, owl:sameAs, ?z] :- [?x, :r0, ?y] :g, [?x, :r0, ?z] :g, [?x, :f, ?x] .' },
];

/** OWL 2 RL axioms as triples, each read from its own named graph `:ax<i>` into the default graph's axioms. */
const AXIOMS: readonly string[] = [
  ':C0 rdfs:subClassOf :D .',
  ':p0 rdfs:subPropertyOf :s .',
  ':s rdfs:domain :E .',
  ':s rdfs:range :D .',
  ':s owl:inverseOf :t .',
  ':t a owl:TransitiveProperty .',
  '[ a owl:Restriction ; owl:onProperty :p1 ; owl:someValuesFrom :D ] rdfs:subClassOf :E .',
  ':f a owl:FunctionalProperty .',
  ':D rdfs:subClassOf [ a owl:Restriction ; owl:onProperty :u ; owl:hasValue :a ] .',
  ':E owl:equivalentClass :C1 .',
  ':f rdfs:subPropertyOf :u .',
  ':v a owl:FunctionalProperty .',
];

/** How a query's changes are computed (as `describeDeltaQuery` says). */
type Computation = 'incremental' | 'rerun';

/** The queries, with the computation their shape gets. */
const QUERIES: ReadonlyArray<{ readonly text: string; readonly factDomain?: string; readonly computation: Computation }> = [
  { text: 'SELECT * WHERE { ?x :p1 ?y }', computation: 'incremental' },
  { text: 'SELECT * WHERE { ?x :p1 ?y . ?y :p1 ?z }', computation: 'incremental' },
  { text: 'SELECT ?x ?n WHERE { ?x a :C1 . ?x :p2 ?n }', computation: 'incremental' },
  { text: 'SELECT * WHERE { ?x :p0 ?y FILTER(?x != ?y) }', factDomain: 'explicit', computation: 'incremental' },
  { text: 'SELECT * WHERE { GRAPH ?g { ?x ?p ?y } }', computation: 'incremental' },
  { text: 'SELECT * WHERE { ?x :p1 ?y . GRAPH :g { ?y :q1 ?z } }', computation: 'incremental' },
  { text: 'SELECT * WHERE { ?x a :D . ?x :s ?y }', computation: 'incremental' },
  { text: 'SELECT * WHERE { ?x owl:sameAs ?y FILTER(?x != ?y) }', computation: 'incremental' },
  { text: 'SELECT * WHERE { ?x :t ?y . ?y a ?c }', computation: 'incremental' },
  { text: 'SELECT * WHERE { ?x ?p ?y }', factDomain: 'explicit', computation: 'incremental' },
  { text: 'SELECT ?x ?y WHERE { ?x a owl:Nothing . ?x :u ?y }', computation: 'incremental' },
  { text: 'SELECT * WHERE { ?x a :E . ?x :u ?y FILTER(isIRI(?y)) }', computation: 'incremental' },
  { text: 'SELECT * WHERE { ?x :v ?y FILTER(?y = 1) }', computation: 'incremental' },
  { text: 'SELECT ?x WHERE { ?x :t ?x }', computation: 'incremental' },
  { text: 'SELECT ?x WHERE { ?x :v 1 }', computation: 'incremental' },
  { text: 'SELECT ?x WHERE { ?x :v "01"^^xsd:integer . ?x a :D }', computation: 'incremental' },
  { text: 'SELECT * WHERE { GRAPH ?g { ?x ?p ?x } }', computation: 'incremental' },
  { text: 'SELECT ?x WHERE { ?x :p1 ?y }', computation: 'rerun' },
  { text: 'SELECT (COUNT(*) AS ?n) WHERE { ?x ?p ?y }', computation: 'rerun' },
  { text: 'SELECT * WHERE { ?x a :C0 OPTIONAL { ?x :p1 ?y } }', computation: 'rerun' },
  { text: 'SELECT DISTINCT ?y WHERE { ?x :p2 ?y }', computation: 'rerun' },
  { text: 'SELECT ?x (COUNT(?y) AS ?n) WHERE { ?x owl:sameAs ?y } GROUP BY ?x', computation: 'rerun' },
  { text: 'SELECT * WHERE { ?x a :E MINUS { ?x a :D } }', computation: 'rerun' },
  { text: 'SELECT ?c WHERE { ?x a ?c }', factDomain: 'explicit', computation: 'rerun' },
  { text: 'SELECT * WHERE { ?x :s ?y }', factDomain: 'derived', computation: 'rerun' },
  { text: 'SELECT ?x (SUM(?y) AS ?n) WHERE { ?x :v ?y } GROUP BY ?x', computation: 'rerun' },
];

const constant = fc.constantFrom(':a', ':b', ':c', ':d');
const factArb = fc.oneof(
  { weight: 3, arbitrary: fc.tuple(constant, constant).map(([a, b]) => `[${a}, :p0, ${b}] .`) },
  { weight: 2, arbitrary: constant.map((a) => `:C0[${a}] .`) },
  { weight: 2, arbitrary: fc.tuple(constant, constant).map(([a, b]) => `[${a}, :r0, ${b}] :g .`) },
  { weight: 2, arbitrary: fc.tuple(constant, constant).map(([a, b]) => `[${a}, :f, ${b}] .`) },
  { weight: 2, arbitrary: fc.tuple(constant, constant).map(([a, b]) => `[${a}, owl:sameAs, ${b}] .`) },
  // with equality, a graph name the same as another term copies the graph's quads
  { weight: 1, arbitrary: fc.tuple(constant, fc.constantFrom(':g', ':p0')).map(([a, b]) => `[${b}, owl:sameAs, ${a}] .`) },
  { weight: 1, arbitrary: fc.tuple(constant, constant).map(([a, b]) => `[${a}, owl:differentFrom, ${b}] .`) },
  { weight: 1, arbitrary: fc.tuple(constant, fc.constantFrom('1', '"01"^^xsd:integer', '2', '"x"')).map(([a, v]) => `[${a}, :v, ${v}] .`) },
);

/** A catalogue change: a rule or an axiom in (or out, when it is there). */
type CatalogueChange = { readonly rule: number } | { readonly axiom: number };

type Step =
  /** One transaction: facts added, existing explicit facts removed (picked by index), maybe a catalogue change. */
  | { readonly kind: 'facts'; readonly add: readonly string[]; readonly picks: readonly number[]; readonly change?: CatalogueChange }
  /** A catalogue change alone. */
  | { readonly kind: 'catalogue'; readonly change: CatalogueChange }
  /**
   * One transaction that adds facts that are not explicit and removes them again, removes
   * explicit facts (picked by index) and adds them back, and maybe adds a rule or axiom that is
   * not in and removes it again: no answer may change.
   */
  | { readonly kind: 'cancel'; readonly add: readonly string[]; readonly picks: readonly number[]; readonly change?: CatalogueChange };

const changeArb: fc.Arbitrary<CatalogueChange> = fc.oneof(fc.record({ rule: fc.nat(RULES.length - 1) }), fc.record({ axiom: fc.nat(AXIOMS.length - 1) }));

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record(
      {
        kind: fc.constant('facts' as const),
        add: fc.array(factArb, { maxLength: 5 }),
        picks: fc.array(fc.nat(99), { maxLength: 3 }),
        change: fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: changeArb }),
      },
      { requiredKeys: ['kind', 'add', 'picks'] },
    ),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('catalogue' as const), change: changeArb }) },
  {
    weight: 1,
    arbitrary: fc.record(
      { kind: fc.constant('cancel' as const), add: fc.array(factArb, { maxLength: 3 }), picks: fc.array(fc.nat(99), { maxLength: 2 }), change: fc.option(changeArb, { nil: undefined }) },
      { requiredKeys: ['kind', 'add', 'picks'] },
    ),
  },
);

/** A program at the start: each rule and axiom in with probability one half. */
const programArb: fc.Arbitrary<CatalogueChange[]> = fc
  .tuple(fc.array(fc.boolean(), { minLength: RULES.length, maxLength: RULES.length }), fc.array(fc.boolean(), { minLength: AXIOMS.length, maxLength: AXIOMS.length }))
  .map(([r, a]) => [...r.flatMap((on, rule) => (on ? [{ rule }] : [])), ...a.flatMap((on, axiom) => (on ? [{ axiom }] : []))]);

const caseArb = fc.record({
  program: programArb,
  initial: fc.array(factArb, { maxLength: 8 }),
  una: fc.boolean(),
  chosen: fc.array(fc.nat(QUERIES.length - 1), { minLength: 1, maxLength: 40 }),
  smallBuffers: fc.array(fc.boolean(), { minLength: QUERIES.length, maxLength: QUERIES.length }),
  steps: fc.array(stepArb, { minLength: 1, maxLength: 10 }),
});

type Bag = Map<string, number>;
type Row = ReadonlyArray<{ termType: string; value: string; datatype?: { value: string }; language?: string } | undefined>;

const termText = (t: Row[number]): string => (t ? `${t.termType}:${t.value}${t.language ? `@${t.language}` : ''}${t.datatype ? `^^${t.datatype.value}` : ''}` : '-');
const rowText = (row: Row): string => row.map(termText).join(' ');

function bagOf(rows: readonly Row[]): Bag {
  const bag: Bag = new Map();
  for (const r of rows) bag.set(rowText(r), (bag.get(rowText(r)) ?? 0) + 1);
  return bag;
}

function add(bag: Bag, rows: readonly Row[]): void {
  for (const r of rows) bag.set(rowText(r), (bag.get(rowText(r)) ?? 0) + 1);
}

function remove(bag: Bag, rows: readonly Row[], what: string): void {
  for (const r of rows) {
    const k = rowText(r);
    const n = bag.get(k) ?? 0;
    expect(n, `${what}: deleted row ${k} was not in the answer`).to.be.greaterThan(0);
    if (n === 1) bag.delete(k);
    else bag.set(k, n - 1);
  }
}

function sorted(bag: Bag): string[] {
  return [...bag].flatMap(([k, n]) => Array.from({ length: n }, () => k)).sort();
}

async function scratch(ds: DataStoreConnection, query: { text: string; factDomain?: string }): Promise<Bag> {
  const answer: QueryAnswer = await ds.evaluateQuery(query.text, query.factDomain ? { factDomain: query.factDomain } : {});
  if (answer.type !== 'bindings') throw new Error('not a SELECT');
  return bagOf(answer.rows);
}

/** The next event of a watch, or a failure naming the query if none comes (a guard against a hang, not a timing assertion). */
async function nextEvent(watch: DeltaQueryWatch, what: string): Promise<DeltaQueryEvent> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: the watch sent no event`)), 20_000);
  });
  try {
    const next = await Promise.race([watch.next(), timeout]);
    if (next.done) throw new Error(`${what}: the watch ended`);
    return next.value;
  } finally {
    clearTimeout(timer);
  }
}

/** A registered query with the client's copies of its answer: from its kept changes, and from its watch. */
interface Tracked {
  readonly name: string;
  readonly text: string;
  readonly factDomain?: string;
  readonly computation: Computation;
  /** The answer rebuilt from the kept additions and deletions. */
  readonly bag: Bag;
  /** The last version whose kept answers were applied. */
  seen: number;
  /** The last version whose answer changed (the watch must reach it). */
  lastChange: number;
  readonly watch: DeltaQueryWatch;
}

/** Applies a watch's events to a copy of the answer until it reaches `version`. */
async function followWatch(q: Tracked, copy: { bag: Bag; version: number }, version: number): Promise<void> {
  while (copy.version < version) {
    const event = await nextEvent(q.watch, q.text);
    if (event.kind === 'answer') copy.bag = bagOf(event.rows);
    else {
      remove(copy.bag, event.deletions, `${q.text} (watch)`);
      add(copy.bag, event.additions);
    }
    copy.version = event.version;
  }
}

/** A program configuration: the store's parameters, and the rules it accepts. */
interface Configuration {
  readonly parameters: Readonly<Record<string, string>>;
  readonly equality: boolean;
}

/** One case: the program and facts at the start, the queries registered (indexes), which watches have a buffer of one event, the steps. */
interface Case {
  readonly program: readonly CatalogueChange[];
  readonly initial: readonly string[];
  /** With equality: `UNA` rather than `noUNA`. */
  readonly una: boolean;
  readonly chosen: readonly number[];
  readonly smallBuffers: readonly boolean[];
  readonly steps: readonly Step[];
}

async function check(env: ReturnType<typeof useServer>, config: Configuration, { program, initial, una, chosen, smallBuffers, steps }: Case): Promise<void> {
  const name = env.uniqueName('dq');
  const ds = await env.newStore(name, undefined, config.equality ? { ...config.parameters, equality: una ? 'UNA' : 'noUNA' } : config.parameters);
  const tracked: Tracked[] = [];
  try {
    await ds.setPrefix(':', 'http://r/');
    // the axioms' triples, each in its own graph (their rules come and go with the steps)
    await ds.importData('ADD', TURTLE_PREFIXES + AXIOMS.map((a, i) => `:ax${i} { ${a} }`).join('\n'), TRIG);
    const facts = new Set<string>();
    const rules = new Set<number>();
    const axioms = new Set<number>();
    const usable = (change: CatalogueChange): boolean => !('rule' in change) || !config.equality || !RULES[change.rule]!.stratified;
    const apply = async (change: CatalogueChange): Promise<void> => {
      if ('rule' in change) {
        const there = rules.has(change.rule);
        await ds.importData(there ? 'DELETE' : 'ADD', PREFIX + RULES[change.rule]!.text, DATALOG);
        if (there) rules.delete(change.rule);
        else rules.add(change.rule);
      } else {
        const there = axioms.has(change.axiom);
        await ds.importAxiomsFromTriples(`http://r/ax${change.axiom}`, false, undefined, there ? 'DELETE' : 'ADD');
        if (there) axioms.delete(change.axiom);
        else axioms.add(change.axiom);
      }
    };
    for (const change of program) if (usable(change)) await apply(change);
    if (initial.length > 0) await ds.importData('ADD', PREFIX + initial.join('\n'), DATALOG);
    initial.forEach((f) => facts.add(f));
    for (const [at, i] of [...new Set(chosen)].entries()) {
      const query = QUERIES[i]!;
      const q: Tracked = {
        name: `q${i}`,
        ...query,
        bag: new Map(),
        seen: -1,
        lastChange: -1,
        watch: undefined as unknown as DeltaQueryWatch,
      };
      await ds.registerDeltaQuery(q.name, q.text, q.factDomain ? { factDomain: q.factDomain } : {});
      for (const [k, n] of await scratch(ds, q)) q.bag.set(k, n);
      (q as { watch: DeltaQueryWatch }).watch = ds.watch(q.name, smallBuffers[at] ? { highWaterMark: 1 } : {});
      tracked.push(q);
    }
    for (const step of steps) {
      let quiet = false;
      if (step.kind === 'facts') {
        const all = [...facts];
        const gone = all.length === 0 ? [] : [...new Set(step.picks.map((i) => all[i % all.length]!))];
        await ds.beginTransaction('read-write');
        if (step.add.length > 0) await ds.importData('ADD', PREFIX + step.add.join('\n'), DATALOG);
        if (gone.length > 0) await ds.importData('DELETE', PREFIX + gone.join('\n'), DATALOG);
        if (step.change && usable(step.change)) await apply(step.change);
        await ds.commitTransaction();
        step.add.forEach((f) => facts.add(f));
        gone.forEach((f) => facts.delete(f));
      } else if (step.kind === 'catalogue') {
        if (!usable(step.change)) continue;
        await apply(step.change);
      } else {
        const fresh = [...new Set(step.add)].filter((f) => !facts.has(f));
        const all = [...facts];
        const back = all.length === 0 ? [] : [...new Set(step.picks.map((i) => all[i % all.length]!))];
        const change = step.change && usable(step.change) && !('rule' in step.change ? rules.has(step.change.rule) : axioms.has(step.change.axiom)) ? step.change : undefined;
        if (fresh.length === 0 && back.length === 0 && !change) continue;
        await ds.beginTransaction('read-write');
        if (fresh.length > 0) await ds.importData('ADD', PREFIX + fresh.join('\n'), DATALOG);
        if (back.length > 0) await ds.importData('DELETE', PREFIX + back.join('\n'), DATALOG);
        if (change) await apply(change);
        if (fresh.length > 0) await ds.importData('DELETE', PREFIX + fresh.join('\n'), DATALOG);
        if (back.length > 0) await ds.importData('ADD', PREFIX + back.join('\n'), DATALOG);
        if (change) await apply(change);
        await ds.commitTransaction();
        quiet = true;
      }
      const context = `after ${JSON.stringify(step)}; rules ${[...rules].join(',')}; axioms ${[...axioms].join(',')}; facts ${[...facts].join(' ')}`;
      for (const q of tracked) {
        const kept = await ds.getDeltaQueryAnswers(q.name);
        const fresh = kept.filter((a) => a.version > q.seen);
        if (quiet) expect(fresh, `${q.text}: a transaction that added and removed the same facts changed the answer`).to.deep.equal([]);
        remove(
          q.bag,
          fresh.filter((e) => e.type === 'deletions').flatMap((e) => e.rows),
          q.text,
        );
        add(
          q.bag,
          fresh.filter((e) => e.type === 'additions').flatMap((e) => e.rows),
        );
        for (const a of fresh) {
          q.seen = Math.max(q.seen, a.version);
          q.lastChange = Math.max(q.lastChange, a.version);
        }
        const description = await ds.describeDeltaQuery(q.name);
        expect(description.error, q.text).to.equal(undefined);
        expect(sorted(q.bag), `${q.text} ${context}`).to.deep.equal(sorted(await scratch(ds, q)));
      }
    }
    // each watch ends in the same answer; the shapes are as documented
    for (const q of tracked) {
      const first = await nextEvent(q.watch, q.text);
      expect(first.kind, q.text).to.equal('answer');
      const copy = { bag: bagOf(first.kind === 'answer' ? first.rows : []), version: first.version };
      await followWatch(q, copy, q.lastChange);
      expect(sorted(copy.bag), `${q.text} (watch)`).to.deep.equal(sorted(await scratch(ds, q)));
      expect((await ds.describeDeltaQuery(q.name)).computation, q.text).to.equal(q.computation);
    }
  } finally {
    for (const q of tracked) q.watch?.close();
    ds.close();
    env.connection.deleteDataStore(name);
  }
}

describe('server: delta queries (property)', function () {
  this.timeout(600_000);
  const env = useServer('delta-queries-property');
  const seed = process.env.QUADLOG_PROPERTY_SEED ? Number(process.env.QUADLOG_PROPERTY_SEED) : undefined;
  const numRuns = Number(process.env.QUADLOG_PROPERTY_RUNS) || 25;
  let n = 0;
  for (const [equality, equalityParameters] of [
    ['rules with NOT and AGGREGATE, OWL axioms', {}],
    ['equality=noUNA or UNA, OWL axioms', { equality: 'noUNA' }],
  ] as const) {
    for (const [algorithm, parameters] of [
      ['FBF', {}],
      ['DRed', { 'use-DRed': 'true' }],
    ] as const) {
      const config: Configuration = { parameters: { ...equalityParameters, ...parameters }, equality: 'equality' in equalityParameters };
      const configSeed = seed ?? 3201 + n++;
      it(`previous answer + additions - deletions = the answer from scratch (${equality}; ${algorithm})`, async () => {
        await fc.assert(
          fc.asyncProperty(caseArb, (c) => check(env, config, c)),
          { numRuns, seed: configSeed },
        );
      });
    }
  }
});
