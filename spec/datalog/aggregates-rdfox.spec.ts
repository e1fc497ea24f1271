/**
 * RDFox's aggregate functions in rules: MUL, COUNT_MIN, COUNT_MAX and the two-argument
 * MIN_ARGMIN, MAX_ARGMIN, MIN_ARGMAX and MAX_ARGMAX (the accumulators, then rules over a
 * store: groups, ties, errors, empty groups, DISTINCT), COUNT over `*` and lists of
 * expressions, the scope of an AGGREGATE's variables, incremental maintenance checked against
 * materialisation from scratch, and the export of such rules read back unchanged.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { DataFactory } from 'n3';
import { createAggregator, type Value } from '../../lib/expressions/index.js';
import type { DataStoreConnection, ImportResult, UpdateType } from '../../lib/index.js';
import { factsWithStatus } from '../helpers/facts.js';
import { sortedLines, useServer } from '../helpers/server.js';
import { show, term } from '../expressions/helpers.js';

const EX = 'http://ex/';
const PREFIX = `@prefix : <${EX}> .\n`;
const DATALOG = { mediaType: 'application/x.datalog' } as const;
const XSD = 'http://www.w3.org/2001/XMLSchema#';

/** Runs a one-argument aggregate over term texts (`undefined` = an error) and renders the result. */
function agg(fn: Parameters<typeof createAggregator>[0], values: ReadonlyArray<string | undefined>, distinct = false): string {
  const a = createAggregator(fn, distinct);
  for (const v of values) a.add(v === undefined ? undefined : term(v));
  const r = a.result();
  return r === undefined ? 'unbound' : show(r);
}

/** Runs a two-argument aggregate over pairs (A, V) of term texts. */
function agg2(fn: Parameters<typeof createAggregator>[0], pairs: ReadonlyArray<readonly [string | undefined, string | undefined]>, distinct = false): string {
  const a = createAggregator(fn, distinct);
  const t = (x: string | undefined): Value | undefined => (x === undefined ? undefined : term(x));
  for (const [x, v] of pairs) a.add(t(x), t(v));
  const r = a.result();
  return r === undefined ? 'unbound' : show(r);
}

/** An N-Triples term: `name` → `<http://ex/name>`; literals pass through. */
function nt(x: string): string {
  return x.startsWith('"') || x.startsWith('<') ? x : `<${EX}${x}>`;
}

/** An integer literal in N-Triples. */
function int(n: number | bigint): string {
  return `"${n}"^^<${XSD}integer>`;
}

describe('datalog/aggregates as RDFox has them', function () {
  this.timeout(60_000);

  describe('the accumulators', () => {
    it('MUL multiplies with type promotion; of nothing it is 1; an error or a non-number makes it an error', () => {
      expect(agg('mul', ['2', '3', '4'])).to.equal('"24"^^xsd:integer');
      expect(agg('mul', ['2', '1.5'])).to.equal('"3.0"^^xsd:decimal');
      expect(agg('mul', ['2', '0.5e0'])).to.equal('"1.0E0"^^xsd:double');
      expect(agg('mul', ['99999999999', '99999999999'])).to.equal('"9999999999800000000001"^^xsd:integer');
      expect(agg('mul', [])).to.equal('"1"^^xsd:integer');
      expect(agg('mul', ['2', undefined])).to.equal('unbound');
      expect(agg('mul', ['2', '"x"'])).to.equal('unbound');
      expect(agg('mul', ['2', '2', '3'], true)).to.equal('"6"^^xsd:integer');
    });

    it('COUNT_MIN and COUNT_MAX count the solutions holding the least and the greatest value', () => {
      expect(agg('count_min', ['3', '1', '2', '1'])).to.equal('"2"^^xsd:integer');
      expect(agg('count_max', ['3', '1', '3', '2', '3'])).to.equal('"3"^^xsd:integer');
      expect(agg('count_max', ['"a"', '"b"', '<http://e/x>'])).to.equal('"1"^^xsd:integer');
      // errors are left out; of nothing they are 0
      expect(agg('count_min', [undefined, '5', undefined, '5'])).to.equal('"2"^^xsd:integer');
      expect(agg('count_min', [])).to.equal('"0"^^xsd:integer');
      expect(agg('count_max', [undefined])).to.equal('"0"^^xsd:integer');
      // a tie is the same term: 1 and 1.0 are different values in the ORDER BY order
      expect(agg('count_min', ['1', '1.0', '1'])).to.equal('"2"^^xsd:integer');
      expect(agg('count_min', ['1', '1', '2'], true)).to.equal('"1"^^xsd:integer');
    });

    it('the ARG functions give the least or greatest A among the solutions with the least or greatest V', () => {
      const pairs = [['"b"', '1'], ['"a"', '1'], ['"d"', '2'], ['"c"', '2'], ['"e"', '1.5']] as const;
      expect(agg2('min_argmin', pairs)).to.equal('"a"');
      expect(agg2('max_argmin', pairs)).to.equal('"b"');
      expect(agg2('min_argmax', pairs)).to.equal('"c"');
      expect(agg2('max_argmax', pairs)).to.equal('"d"');
      // A and V of any kind of term, ordered as ORDER BY orders them
      expect(agg2('min_argmin', [['<http://e/y>', '"k"'], ['<http://e/x>', '"k"'], ['1', '"l"']])).to.equal('<http://e/x>');
    });

    it('the ARG functions: a solution without V is left out, one without A offers none, nothing gives nothing', () => {
      expect(agg2('min_argmin', [['"q"', undefined], ['"r"', '5']])).to.equal('"r"');
      expect(agg2('min_argmin', [[undefined, '1'], ['"z"', '1'], ['"y"', '2']])).to.equal('"z"');
      expect(agg2('min_argmin', [[undefined, '1'], ['"y"', '2']])).to.equal('unbound');
      expect(agg2('max_argmax', [])).to.equal('unbound');
      expect(agg2('max_argmax', [['"a"', '1'], ['"a"', '1'], ['"b"', '1']], true)).to.equal('"b"');
    });
  });

  describe('in rules', () => {
    const env = useServer('aggregates-rdfox');

    async function load(ds: DataStoreConnection, text: string, update: UpdateType = 'ADD'): Promise<ImportResult> {
      const r = await ds.importData(update, PREFIX + text, DATALOG);
      expect(r.errors, r.text).to.equal(0);
      return r;
    }

    /** The derived triples with predicate `p`, as sorted `subject object` N-Triples pairs. */
    async function derived(ds: DataStoreConnection, p: string): Promise<string[]> {
      const lines = sortedLines(await ds.exportDataToString('application/n-triples', { 'fact-domain': 'derived' }));
      return lines.filter((l) => l.includes(` <${EX}${p}> `)).map((l) => l.replace(` <${EX}${p}> `, ' ').replace(/ \.$/, ''));
    }

    const PEOPLE = `
      :ann a :Person ; :age 40 ; :name "Ann" ; :family :f1 .
      :bob a :Person ; :age 40 ; :name "Bob" ; :family :f1 .
      :cid a :Person ; :age 12 ; :name "Cid" ; :family :f1 .
      :dee a :Person ; :age 12 ; :name "Dee" ; :family :f2 .
      :eve a :Person ; :age 7 ; :name "Eve" ; :family :f2 .
    `;

    async function people(): Promise<DataStoreConnection> {
      const ds = await env.newStore();
      const r = await ds.importData('ADD', PREFIX + PEOPLE, { mediaType: 'text/turtle' });
      expect(r.errors, r.text).to.equal(0);
      return ds;
    }

    it("computes the manual's census example: the oldest age, how many have it, the first of them by name", async () => {
      const ds = await people();
      await load(
        ds,
        `[:census, :maxAge, ?m], [:census, :maxAgeCount, ?c], [:census, :firstOldest, ?f] :-
           AGGREGATE(:Person[?p], :age[?p, ?a], :name[?p, ?n] BIND MAX(?a) AS ?m BIND COUNT_MAX(?a) AS ?c BIND MIN_ARGMAX(?n, ?a) AS ?f) .`,
      );
      expect(await derived(ds, 'maxAge')).to.deep.equal([`${nt('census')} ${int(40)}`]);
      expect(await derived(ds, 'maxAgeCount')).to.deep.equal([`${nt('census')} ${int(2)}`]);
      expect(await derived(ds, 'firstOldest')).to.deep.equal([`${nt('census')} "Ann"`]);
    });

    it('per group, every function with ties; DISTINCT', async () => {
      const ds = await people();
      await load(
        ds,
        `[?f, :youngestCount, ?a], [?f, :oldestCount, ?b], [?f, :minYoungest, ?c], [?f, :maxYoungest, ?d], [?f, :minOldest, ?e], [?f, :maxOldest, ?g], [?f, :ageProduct, ?h], [?f, :distinctAgeProduct, ?i] :-
           AGGREGATE(:family[?p, ?f], :age[?p, ?x] ON ?f
             BIND COUNT_MIN(?x) AS ?a BIND COUNT_MAX(?x) AS ?b
             BIND MIN_ARGMIN(?p, ?x) AS ?c BIND MAX_ARGMIN(?p, ?x) AS ?d BIND MIN_ARGMAX(?p, ?x) AS ?e BIND MAX_ARGMAX(?p, ?x) AS ?g
             BIND MUL(?x) AS ?h BIND MUL(DISTINCT ?x) AS ?i) .`,
      );
      const f1 = nt('f1');
      const f2 = nt('f2');
      expect(await derived(ds, 'youngestCount')).to.deep.equal([`${f1} ${int(1)}`, `${f2} ${int(1)}`]);
      expect(await derived(ds, 'oldestCount')).to.deep.equal([`${f1} ${int(2)}`, `${f2} ${int(1)}`]);
      expect(await derived(ds, 'minYoungest')).to.deep.equal([`${f1} ${nt('cid')}`, `${f2} ${nt('eve')}`]);
      expect(await derived(ds, 'maxYoungest')).to.deep.equal([`${f1} ${nt('cid')}`, `${f2} ${nt('eve')}`]);
      expect(await derived(ds, 'minOldest')).to.deep.equal([`${f1} ${nt('ann')}`, `${f2} ${nt('dee')}`]);
      expect(await derived(ds, 'maxOldest')).to.deep.equal([`${f1} ${nt('bob')}`, `${f2} ${nt('dee')}`]);
      expect(await derived(ds, 'ageProduct')).to.deep.equal([`${f1} ${int(40 * 40 * 12)}`, `${f2} ${int(84)}`]);
      expect(await derived(ds, 'distinctAgeProduct')).to.deep.equal([`${f1} ${int(480)}`, `${f2} ${int(84)}`]);
    });

    it('a group whose MUL meets a non-number gets no fact; the other groups do', async () => {
      const ds = await people();
      await load(ds, '[:cid, :age, "twelve"] .\n[?f, :product, ?h] :- AGGREGATE(:family[?p, ?f], :age[?p, ?x] ON ?f BIND MUL(?x) AS ?h) .');
      expect(await derived(ds, 'product')).to.deep.equal([`${nt('f2')} ${int(84)}`]);
    });

    it('without ON, an empty body is one empty group: COUNT_MIN 0, MUL 1, the ARG functions nothing', async () => {
      const ds = await env.newStore();
      await load(
        ds,
        `[:all, :countMin, ?c] :- AGGREGATE(:age[?p, ?x] BIND COUNT_MIN(?x) AS ?c) .
         [:all, :product, ?m] :- AGGREGATE(:age[?p, ?x] BIND MUL(?x) AS ?m) .
         [:all, :youngest, ?y] :- AGGREGATE(:age[?p, ?x] BIND MIN_ARGMIN(?p, ?x) AS ?y) .`,
      );
      expect(await derived(ds, 'countMin')).to.deep.equal([`${nt('all')} ${int(0)}`]);
      expect(await derived(ds, 'product')).to.deep.equal([`${nt('all')} ${int(1)}`]);
      expect(await derived(ds, 'youngest')).to.deep.equal([]);
      await load(ds, '[:z, :age, 3] .');
      expect(await derived(ds, 'countMin')).to.deep.equal([`${nt('all')} ${int(1)}`]);
      expect(await derived(ds, 'product')).to.deep.equal([`${nt('all')} ${int(3)}`]);
      expect(await derived(ds, 'youngest')).to.deep.equal([`${nt('all')} ${nt('z')}`]);
    });

    it('COUNT(*), COUNT(DISTINCT *), COUNT() and COUNT over a list of expressions', async () => {
      const ds = await env.newStore();
      await load(
        ds,
        `[:a, :p, :x] . [:a, :p, :y] . [:b, :p, :x] . [:x, :v, 1] . [:y, :v, 1] .
         [:all, :star, ?n] :- AGGREGATE([?s, :p, ?o] BIND COUNT(*) AS ?n) .
         [:all, :distinctObjects, ?n] :- AGGREGATE([?s, :p, ?o], [?o, :v, ?w] BIND COUNT(DISTINCT ?o) AS ?n) .
         [:all, :distinctStar, ?n] :- AGGREGATE([?s, :p, ?o], [?o, :v, ?w] BIND COUNT(DISTINCT *) AS ?n) .
         [:all, :empty, ?n] :- AGGREGATE([?s, :p, ?o] BIND COUNT() AS ?n) .
         [:all, :pairs, ?n] :- AGGREGATE([?s, :p, ?o], [?o, :v, ?w] BIND COUNT(DISTINCT ?s, ?w) AS ?n) .
         [:all, :bound, ?n] :- AGGREGATE([?s, :p, ?o] BIND COUNT(?s, IF(?o = :y, 1, 1 / 0)) AS ?n) .`,
      );
      const all = nt('all');
      expect(await derived(ds, 'star')).to.deep.equal([`${all} ${int(3)}`]);
      expect(await derived(ds, 'distinctObjects')).to.deep.equal([`${all} ${int(2)}`]);
      // the solutions (?s, ?o, ?w) are three different ones
      expect(await derived(ds, 'distinctStar')).to.deep.equal([`${all} ${int(3)}`]);
      expect(await derived(ds, 'empty')).to.deep.equal([`${all} ${int(3)}`]);
      // (?s, ?w): (:a, 1) twice and (:b, 1)
      expect(await derived(ds, 'pairs')).to.deep.equal([`${all} ${int(2)}`]);
      // only the solution where every expression has a value counts
      expect(await derived(ds, 'bound')).to.deep.equal([`${all} ${int(1)}`]);
    });

    it('the variables of an AGGREGATE other than its group variables are its own', async () => {
      const ds = await env.newStore();
      await load(
        ds,
        `[:f, :m, :a] . [:f, :m, :b] . [:f, :m, :c] . [:a, :age, 30] . [:b, :age, 9] . [:c, :age, 5] . [:f, :pick, :a] .
         [?f, :children, ?n] :- [?f, :pick, ?m], AGGREGATE([?f, :m, ?m], [?m, :age, ?x], FILTER(?x < 18) ON ?f BIND COUNT(?m) AS ?n) .
         [?f, :ratio, ?r] :- AGGREGATE([?f, :m, ?m], [?m, :age, ?x], FILTER(?x >= 18) ON ?f BIND COUNT(?m) AS ?a),
                             AGGREGATE([?f, :m, ?m], [?m, :age, ?x], FILTER(?x < 18) ON ?f BIND COUNT(?m) AS ?c), BIND(?a / ?c AS ?r) .`,
      );
      // ?m inside is not the ?m of [?f, :pick, ?m]: both children count
      expect(await derived(ds, 'children')).to.deep.equal([`${nt('f')} ${int(2)}`]);
      expect(await derived(ds, 'ratio')).to.deep.equal([`${nt('f')} "0.5"^^<${XSD}decimal>`]);
    });

    it('exported rules read back as the same rules and derive the same facts', async () => {
      const ds = await people();
      const rules = [
        '[?f, :a, ?v] :- AGGREGATE(:family[?p, ?f], :age[?p, ?x] ON ?f BIND MUL(DISTINCT ?x) AS ?v) .',
        '[?f, :b, ?v], [?f, :c, ?w] :- AGGREGATE(:family[?p, ?f], :age[?p, ?x] ON ?f BIND COUNT_MIN(?x) AS ?v BIND count_max(DISTINCT ?x + 1) AS ?w) .',
        '[?f, :d, ?v] :- AGGREGATE(:family[?p, ?f], :age[?p, ?x], :name[?p, ?n] ON ?f BIND MIN_ARGMIN(?n, ?x) AS ?v BIND MAX_ARGMIN(DISTINCT STR(?n), -?x) AS ?w BIND MIN_ARGMAX(?p, ?x) AS ?y BIND MAX_ARGMAX(?p, COALESCE(?x, 0)) AS ?z) .',
        '[:all, :e, ?n] :- AGGREGATE(:family[?p, ?f], :age[?p, ?x] BIND COUNT(DISTINCT ?f, ?x) AS ?n BIND COUNT() AS ?m) .',
      ];
      await load(ds, rules.join('\n'));
      const exported = await ds.exportDataToString('application/x.datalog');
      const again = await people();
      const r = await again.importData('ADD', exported, DATALOG);
      expect(r.errors, r.text).to.equal(0);
      expect(r.changedRules).to.equal(rules.length);
      expect(await again.exportDataToString('application/x.datalog')).to.equal(exported);
      expect(exported).to.include('BIND MIN_ARGMIN(?n, ?x) AS ?v BIND MAX_ARGMIN(DISTINCT STR(?n), -?x) AS ?w');
      expect(exported).to.include('COUNT(DISTINCT ?f, ?x) AS ?n BIND COUNT() AS ?m');
      const derivedOf = async (c: DataStoreConnection): Promise<string[]> => sortedLines(await c.exportDataToString('application/n-triples', { 'fact-domain': 'derived' }));
      expect(await derivedOf(again)).to.deep.equal(await derivedOf(ds));
      expect(await derivedOf(ds)).to.have.length.greaterThan(8);
    });

    it('SAMPLE and GROUP_CONCAT are refused with a reason', async () => {
      const ds = await env.newStore();
      const r = await ds.importData('ADD', `${PREFIX}[?f, :names, ?v] :- AGGREGATE(:family[?p, ?f], :name[?p, ?n] ON ?f BIND GROUP_CONCAT(?n) AS ?v) .`, { ...DATALOG, rejectOnError: false });
      expect(r.errors).to.equal(1);
      expect(r.rows.find((row) => row.type === 'error')?.description).to.equal(
        'aggregate function GROUP_CONCAT is not allowed in rules: its result is not determined by the values aggregated (SAMPLE, SAMPLE_ARGMIN, SAMPLE_ARGMAX and GROUP_CONCAT are for queries only)',
      );
    });

    describe('incremental maintenance equals materialisation from scratch', () => {
      const RULES = [
        '[?f, :n1, ?v] :- AGGREGATE(:family[?p, ?f], :age[?p, ?x] ON ?f BIND COUNT_MIN(?x) AS ?v) .',
        '[?f, :n2, ?v] :- AGGREGATE(:family[?p, ?f], :age[?p, ?x] ON ?f BIND COUNT_MAX(DISTINCT ?x) AS ?v) .',
        '[?f, :n3, ?v] :- AGGREGATE(:family[?p, ?f], :age[?p, ?x] ON ?f BIND MUL(?x) AS ?v) .',
        '[?f, :n4, ?v] :- AGGREGATE(:family[?p, ?f], :age[?p, ?x] ON ?f BIND MIN_ARGMIN(?p, ?x) AS ?v) .',
        '[?f, :n5, ?v] :- AGGREGATE(:family[?p, ?f], :age[?p, ?x] ON ?f BIND MAX_ARGMIN(?p, ?x) AS ?v) .',
        '[?f, :n6, ?v] :- AGGREGATE(:family[?p, ?f], :age[?p, ?x] ON ?f BIND MIN_ARGMAX(?p, ?x) AS ?v) .',
        '[?f, :n7, ?v] :- AGGREGATE(:family[?p, ?f], :age[?p, ?x] ON ?f BIND MAX_ARGMAX(?p, ?x) AS ?v) .',
        // the results feed further rules, and a NOT over them
        '[?p, :eldest, :yes] :- [?f, :n7, ?p] .',
        '[?p, :notEldest, :yes] :- :family[?p, ?f], NOT [?p, :eldest, :yes] .',
        '[:all, :n8, ?v] :- AGGREGATE([?p, :notEldest, :yes], :age[?p, ?x] BIND MAX_ARGMAX(?p, ?x) AS ?v BIND COUNT_MIN(?x) AS ?c) .',
      ];
      const PEOPLE_IDS = ['p1', 'p2', 'p3', 'p4', 'p5'];
      const fact = fc.oneof(
        fc.tuple(fc.constantFrom(...PEOPLE_IDS), fc.constantFrom('f1', 'f2')).map(([p, f]) => `[:${p}, :family, :${f}] .`),
        fc.tuple(fc.constantFrom(...PEOPLE_IDS), fc.integer({ min: 1, max: 4 })).map(([p, a]) => `[:${p}, :age, ${a}] .`),
        fc.constantFrom(...PEOPLE_IDS).map((p) => `[:${p}, :age, "old"] .`),
      );
      type Step = { add: string[]; remove: number[]; rule?: number };
      const step: fc.Arbitrary<Step> = fc.record({
        add: fc.array(fact, { maxLength: 4 }),
        remove: fc.array(fc.nat(99), { maxLength: 3 }),
        rule: fc.option(fc.nat(RULES.length - 1), { nil: undefined, freq: 4 }),
      });

      for (const [label, parameters] of [
        ['FBF', {}],
        ['DRed', { 'use-DRed': 'true' }],
        ['FBF, not by levels', { 'by-levels': 'false' }],
      ] as Array<[string, Record<string, string>]>) {
        it(`random updates (${label})`, async () => {
          await fc.assert(
            fc.asyncProperty(fc.array(fact, { minLength: 4, maxLength: 12 }), fc.array(step, { minLength: 1, maxLength: 6 }), async (initial, steps) => {
              const name = env.uniqueName('inc');
              const ds = await env.newStore(name, undefined, parameters);
              const facts = new Set(initial);
              const rules = new Set(RULES);
              try {
                await load(ds, [...RULES, ...facts].join('\n'));
                for (const s of steps) {
                  await ds.beginTransaction('read-write');
                  const gone = [...facts].filter((_, i) => s.remove.some((k) => k % Math.max(1, facts.size) === i));
                  if (gone.length > 0) await load(ds, gone.join('\n'), 'DELETE');
                  if (s.add.length > 0) await load(ds, s.add.join('\n'));
                  if (s.rule !== undefined) {
                    const rule = RULES[s.rule]!;
                    await load(ds, rule, rules.has(rule) ? 'DELETE' : 'ADD');
                    if (rules.has(rule)) rules.delete(rule);
                    else rules.add(rule);
                  }
                  await ds.commitTransaction();
                  gone.forEach((f) => facts.delete(f));
                  s.add.forEach((f) => facts.add(f));
                  const oracleName = env.uniqueName('oracle');
                  const oracle = await env.newStore(oracleName, undefined, parameters);
                  await load(oracle, [...rules, ...facts].join('\n'));
                  expect(factsWithStatus(env.server, name), JSON.stringify(s)).to.deep.equal(factsWithStatus(env.server, oracleName));
                  oracle.close();
                  env.connection.deleteDataStore(oracleName);
                }
              } finally {
                ds.close();
                env.connection.deleteDataStore(name);
              }
            }),
            { numRuns: 40 },
          );
        });
      }
    });
  });

  it('accumulators take the second argument only for the ARG functions', () => {
    const a = createAggregator('count_max', false);
    a.add(DataFactory.literal('1'), DataFactory.literal('ignored'));
    expect(show(a.result()!)).to.equal('"1"^^xsd:integer');
  });
});
