/**
 * The reasoning bar for triple term patterns: over random reified statements, random
 * additions and deletions (one or several per transaction), the incrementally maintained
 * materialisation of the provenance rule (and of rules that build triple terms in their heads
 * and read them back, nested ones, NOT over a pattern) equals a from-scratch materialisation
 * after every transaction, under FBF and DRed, and with owl:sameAs rewriting (triple terms are
 * opaque: their parts are not rewritten, a triple term is rewritten only as a whole).
 */
import { expect } from 'chai';
import fc from 'fast-check';
import type { DataStoreConnection } from '../../lib/index.js';
import { factsWithStatus } from '../helpers/facts.js';
import { useServer } from '../helpers/server.js';

const PREFIX = '@prefix : <http://r/> .\n@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .\n@prefix owl: <http://www.w3.org/2002/07/owl#> .\n';
const DATALOG = { mediaType: 'application/x.datalog' } as const;

/** The rules of every run: provenance, heads that build triple terms, rules reading them back. */
const POSITIVE_RULES = [
  '[?s, :assertedBy, ?who] :- [?r, rdf:reifies, <<( ?s ?p ?o )>>], [?r, :source, ?who] .',
  '[?s, :stated, <<( ?s :p ?o )>>] :- [?s, :p, ?o] .',
  '[?r, :confirms, ?s] :- [?r, rdf:reifies, ?t], [?s, :stated, ?t] .',
  '[?who, :vouches, <<( ?who :for <<( ?s ?p ?o )>> )>>] :- [?r, rdf:reifies, <<( ?s ?p ?o )>>], [?r, :source, ?who] .',
  '[?o, :vouchedBy, ?w] :- [?w, :vouches, <<( ?w :for <<( ?s :q ?o )>> )>>] .',
];
/** A rule with NOT over a pattern (not with equality, which refuses NOT). */
const NEGATIVE_RULE = '[?r, :unconfirmed, ?s] :- [?r, rdf:reifies, <<( ?s :p ?o )>>], NOT [?s, :p, ?o] .';

const NODES = [':a', ':b', ':c'];
const PREDICATES = [':p', ':q'];
const REIFIERS = [':r1', ':r2', ':r3'];
const SOURCES = [':w1', ':w2'];

const node = fc.constantFrom(...NODES);
const statement = fc.tuple(node, fc.constantFrom(...PREDICATES), fc.oneof(node, fc.constant('"x"@en--ltr')));
const factArb = fc.oneof(
  { weight: 3, arbitrary: fc.tuple(fc.constantFrom(...REIFIERS), statement).map(([r, [s, p, o]]) => `[${r}, rdf:reifies, <<( ${s} ${p} ${o} )>>] .`) },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...REIFIERS), fc.constantFrom(...SOURCES)).map(([r, w]) => `[${r}, :source, ${w}] .`) },
  { weight: 2, arbitrary: statement.map(([s, p, o]) => `[${s}, ${p}, ${o}] .`) },
);
const sameAsArb = fc.tuple(fc.constantFrom(...NODES, ...SOURCES), fc.constantFrom(...NODES, ...SOURCES)).map(([x, y]) => `[${x}, owl:sameAs, ${y}] .`);

/** One transaction: facts added, and existing facts (by index) deleted. */
interface Step {
  readonly add: string[];
  readonly picks: number[];
}

function stepArb(facts: fc.Arbitrary<string>): fc.Arbitrary<Step> {
  return fc.record({ add: fc.array(facts, { maxLength: 4 }), picks: fc.array(fc.nat(999), { maxLength: 3 }) });
}

describe('datalog/triple term patterns: incremental equals from scratch', function () {
  this.timeout(300_000);
  const env = useServer('triple-terms-property');

  async function fresh(parameters: Record<string, string>, text: string): Promise<{ ds: DataStoreConnection; name: string }> {
    const name = env.uniqueName('tt-prop');
    const ds = await env.newStore(name, undefined, parameters);
    const r = await ds.importData('ADD', PREFIX + text, DATALOG);
    expect(r.errors, r.text).to.equal(0);
    return { ds, name };
  }

  async function check(parameters: Record<string, string>, rules: readonly string[], initial: readonly string[], steps: readonly Step[]): Promise<void> {
    const facts = new Set(initial);
    const { ds, name } = await fresh(parameters, [...rules, ...facts].join('\n'));
    try {
      for (const step of steps) {
        const all = [...facts];
        const gone = all.length === 0 ? [] : [...new Set(step.picks.map((i) => all[i % all.length]!))].filter((f) => !step.add.includes(f));
        await ds.beginTransaction('read-write');
        if (step.add.length > 0) await ds.importData('ADD', PREFIX + step.add.join('\n'), DATALOG);
        if (gone.length > 0) await ds.importData('DELETE', PREFIX + gone.join('\n'), DATALOG);
        await ds.commitTransaction();
        step.add.forEach((f) => facts.add(f));
        gone.forEach((f) => facts.delete(f));
        const oracle = await fresh(parameters, [...rules, ...facts].join('\n'));
        expect(factsWithStatus(env.server, name), `after ${JSON.stringify(step)}\nfacts:\n${[...facts].join('\n')}`).to.deep.equal(factsWithStatus(env.server, oracle.name));
        oracle.ds.close();
        env.connection.deleteDataStore(oracle.name);
      }
    } finally {
      ds.close();
      env.connection.deleteDataStore(name);
    }
  }

  const modes: Array<[string, Record<string, string>]> = [
    ['FBF', {}],
    ['DRed', { 'use-DRed': 'true' }],
    ['FBF, not by levels', { 'by-levels': 'false' }],
  ];
  for (const [label, parameters] of modes) {
    it(`the provenance rule and rules building triple terms over random reified data (${label})`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(factArb, { minLength: 4, maxLength: 14 }), fc.array(stepArb(factArb), { minLength: 1, maxLength: 6 }), (initial, steps) =>
          check(parameters, [...POSITIVE_RULES, NEGATIVE_RULE], initial, steps),
        ),
        { numRuns: 60 },
      );
    });
  }

  const equalityFacts = fc.oneof({ weight: 4, arbitrary: factArb }, { weight: 1, arbitrary: sameAsArb });
  for (const [label, parameters] of [
    ['equality noUNA, FBF', { equality: 'noUNA' }],
    ['equality noUNA, DRed', { equality: 'noUNA', 'use-DRed': 'true' }],
  ] as Array<[string, Record<string, string>]>) {
    it(`the same with owl:sameAs among the parts of triple terms (${label})`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(equalityFacts, { minLength: 4, maxLength: 12 }), fc.array(stepArb(equalityFacts), { minLength: 1, maxLength: 5 }), (initial, steps) =>
          check(parameters, POSITIVE_RULES, initial, steps),
        ),
        { numRuns: 40 },
      );
    });
  }
});
