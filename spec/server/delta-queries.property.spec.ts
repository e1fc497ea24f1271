/**
 * The delta-query bar: after any sequence of commits (facts in and out, rules with negation and
 * aggregation in and out), for every registered query, the previous answer plus the version's
 * additions minus its deletions equals the answer computed from scratch, under FBF and DRed,
 * for queries computed from the change log and for queries that re-run.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import type { DataStoreConnection, QueryAnswer } from '../../lib/index.js';
import { useServer } from '../helpers/server.js';

const PREFIX = '@prefix : <http://r/> .\n';
const DATALOG = { mediaType: 'application/x.datalog' };

/** Stratified rules: layer 0 (p0, C0, r0 in :g) explicit, then layers 1 and 2; negation and aggregation read lower layers only. */
const RULES = [
  '[?x, :p1, ?y] :- [?x, :p0, ?y] .',
  '[?x, :p1, ?z] :- [?x, :p1, ?y], [?y, :p0, ?z] .',
  ':C1[?x] :- :C0[?x], NOT [?x, :p0, ?x] .',
  '[?x, :q1, ?y] :g :- [?x, :r0, ?y] :g, :C0[?y] .',
  '[?x, :p2, ?n] :- AGGREGATE([?x, :p1, ?y] ON ?x BIND COUNT(?y) AS ?n) .',
  ':C2[?x] :- :C1[?x], NOT EXISTS ?y IN [?x, :p1, ?y] .',
  '[?x, :p2, ?y] :- [?x, :q1, ?y] :g, NOT :C1[?x] .',
];

/** Queries: the first six are computed from the change log, the others re-run. */
const QUERIES: ReadonlyArray<{ readonly text: string; readonly factDomain?: string }> = [
  { text: 'SELECT * WHERE { ?x :p1 ?y }' },
  { text: 'SELECT * WHERE { ?x :p1 ?y . ?y :p1 ?z }' },
  { text: 'SELECT ?x ?n WHERE { ?x a :C1 . ?x :p2 ?n }' },
  { text: 'SELECT * WHERE { ?x :p0 ?y FILTER(?x != ?y) }', factDomain: 'explicit' },
  { text: 'SELECT * WHERE { GRAPH ?g { ?x ?p ?y } }' },
  { text: 'SELECT * WHERE { ?x :p1 ?y . GRAPH :g { ?y :q1 ?z } }' },
  { text: 'SELECT ?x WHERE { ?x :p1 ?y }' },
  { text: 'SELECT (COUNT(*) AS ?n) WHERE { ?x ?p ?y }' },
  { text: 'SELECT * WHERE { ?x a :C0 OPTIONAL { ?x :p1 ?y } }' },
  { text: 'SELECT DISTINCT ?y WHERE { ?x :p2 ?y }' },
];

const constant = fc.constantFrom(':a', ':b', ':c', ':d');
const factArb = fc.oneof(
  fc.tuple(constant, constant).map(([a, b]) => `[${a}, :p0, ${b}] .`),
  constant.map((a) => `:C0[${a}] .`),
  fc.tuple(constant, constant).map(([a, b]) => `[${a}, :r0, ${b}] :g .`),
);

type Step =
  | { readonly kind: 'facts'; readonly add: readonly string[]; readonly picks: readonly number[] }
  | { readonly kind: 'rule'; readonly rule: number };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('facts' as const), add: fc.array(factArb, { maxLength: 5 }), picks: fc.array(fc.nat(99), { maxLength: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('rule' as const), rule: fc.nat(RULES.length - 1) }) },
);

type Bag = Map<string, number>;

const rowText = (row: ReadonlyArray<{ termType: string; value: string } | undefined>): string => row.map((t) => (t ? `${t.termType}:${t.value}` : '-')).join(' ');

function bagOf(rows: ReadonlyArray<ReadonlyArray<{ termType: string; value: string } | undefined>>): Bag {
  const bag: Bag = new Map();
  for (const r of rows) bag.set(rowText(r), (bag.get(rowText(r)) ?? 0) + 1);
  return bag;
}

function sorted(bag: Bag): string[] {
  return [...bag].flatMap(([k, n]) => Array.from({ length: n }, () => k)).sort();
}

async function scratch(ds: DataStoreConnection, query: { text: string; factDomain?: string }): Promise<Bag> {
  const answer: QueryAnswer = await ds.evaluateQuery(query.text, query.factDomain ? { factDomain: query.factDomain } : {});
  if (answer.type !== 'bindings') throw new Error('not a SELECT');
  return bagOf(answer.rows);
}

async function check(env: ReturnType<typeof useServer>, parameters: Record<string, string>, chosen: readonly number[], steps: readonly Step[]): Promise<void> {
  const name = env.uniqueName('dq');
  const ds = await env.newStore(name, undefined, parameters);
  try {
    await ds.setPrefix(':', 'http://r/');
    const queries = [...new Set(chosen)].map((i) => ({ name: `q${i}`, ...QUERIES[i]! }));
    const answers = new Map<string, Bag>();
    const seen = new Map<string, number>();
    for (const q of queries) {
      await ds.registerDeltaQuery(q.name, q.text, q.factDomain ? { factDomain: q.factDomain } : {});
      answers.set(q.name, await scratch(ds, q));
      seen.set(q.name, -1);
    }
    const facts = new Set<string>();
    const rules = new Set<number>();
    for (const step of steps) {
      if (step.kind === 'facts') {
        const all = [...facts];
        const gone = all.length === 0 ? [] : [...new Set(step.picks.map((i) => all[i % all.length]!))];
        await ds.beginTransaction('read-write');
        if (step.add.length > 0) await ds.importData('ADD', PREFIX + step.add.join('\n'), DATALOG);
        if (gone.length > 0) await ds.importData('DELETE', PREFIX + gone.join('\n'), DATALOG);
        await ds.commitTransaction();
        step.add.forEach((f) => facts.add(f));
        gone.forEach((f) => facts.delete(f));
      } else if (rules.has(step.rule)) {
        await ds.importData('DELETE', PREFIX + RULES[step.rule]!, DATALOG);
        rules.delete(step.rule);
      } else {
        await ds.importData('ADD', PREFIX + RULES[step.rule]!, DATALOG);
        rules.add(step.rule);
      }
      for (const q of queries) {
        const kept = await ds.getDeltaQueryAnswers(q.name);
        const bag = answers.get(q.name)!;
        const fresh = kept.filter((a) => a.version > seen.get(q.name)!);
        for (const a of fresh.filter((e) => e.type === 'deletions')) {
          for (const r of a.rows) {
            const k = rowText(r);
            const n = bag.get(k) ?? 0;
            expect(n, `${q.text}: deleted row ${k} was not in the answer`).to.be.greaterThan(0);
            if (n === 1) bag.delete(k);
            else bag.set(k, n - 1);
          }
        }
        for (const a of fresh.filter((e) => e.type === 'additions')) for (const r of a.rows) bag.set(rowText(r), (bag.get(rowText(r)) ?? 0) + 1);
        for (const a of fresh) seen.set(q.name, Math.max(seen.get(q.name)!, a.version));
        const description = await ds.describeDeltaQuery(q.name);
        expect(description.error, q.text).to.equal(undefined);
        expect(sorted(bag), `${q.text} after ${JSON.stringify(step)}; rules ${[...rules].join(',')}`).to.deep.equal(sorted(await scratch(ds, q)));
      }
    }
    // the shapes are as documented
    for (const q of queries) {
      const expected = Number(q.name.slice(1)) < 6 ? 'incremental' : 'rerun';
      expect((await ds.describeDeltaQuery(q.name)).computation, q.text).to.equal(expected);
    }
  } finally {
    ds.close();
    env.connection.deleteDataStore(name);
  }
}

describe('server: delta queries (property)', function () {
  this.timeout(600_000);
  const env = useServer('delta-queries-property');
  for (const [label, parameters] of [
    ['FBF', {}],
    ['DRed', { 'use-DRed': 'true' }],
  ] as const) {
    it(`previous answer + additions - deletions = the answer from scratch (${label})`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(fc.nat(QUERIES.length - 1), { minLength: 1, maxLength: 5 }), fc.array(stepArb, { minLength: 1, maxLength: 8 }), (chosen, steps) =>
          check(env, parameters, chosen, steps),
        ),
        { numRuns: 30 },
      );
    });
  }
});
