/**
 * Datalog reasoning through the public API: importing rules and facts in Datalog syntax,
 * materialisation (recursion, named graphs, tuple tables, FILTER, BIND, NOT, AGGREGATE),
 * explicit/derived status, reasoning inside transactions, recomputation, clearing rules,
 * rule export and interrupting a long materialisation.
 */
import { expect } from 'chai';
import { BadRequestError, type DataStoreConnection, type ImportResult, InterruptedError, type UpdateType } from '../../lib/index.js';
import { factsWithStatus } from '../helpers/facts.js';
import { expectError, sortedLines, useServer } from '../helpers/server.js';

const EX = 'http://ex/';
const XSD = 'http://www.w3.org/2001/XMLSchema#';
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
const PREFIX = `@prefix : <${EX}> .\n`;
const DATALOG = { mediaType: 'application/x.datalog' } as const;

/** An N-Triples/N-Quads term: `name` → `<http://ex/name>`; literals and full IRIs pass through. */
function term(x: string): string {
  return x.startsWith('"') || x.startsWith('<') ? x : `<${EX}${x}>`;
}

/** One N-Quads line. */
function q(s: string, p: string, o: string, g?: string): string {
  return `${term(s)} ${term(p)} ${term(o)}${g !== undefined ? ` ${term(g)}` : ''} .`;
}

/** An integer literal. */
function int(n: number): string {
  return `"${n}"^^<${XSD}integer>`;
}

/** Imports Datalog text (with the `:` prefix), asserting it has no errors. */
async function datalog(ds: DataStoreConnection, text: string, update: UpdateType = 'ADD'): Promise<ImportResult> {
  const r = await ds.importData(update, PREFIX + text, DATALOG);
  expect(r.errors, r.text).to.equal(0);
  return r;
}

/** The facts of the default graph and the named graphs in a fact domain, as sorted N-Quads lines. */
async function facts(ds: DataStoreConnection, domain: 'explicit' | 'derived' | 'all'): Promise<string[]> {
  return sortedLines(await ds.exportDataToString('application/n-quads', { 'fact-domain': domain }));
}

/** The rules of the user domain as Datalog text. */
function rulesOf(ds: DataStoreConnection, domain?: string): Promise<string> {
  return ds.exportDataToString('application/x.datalog', domain !== undefined ? { 'rule-domain': domain } : {});
}

/** The rule statements (lines with `:-`) of a Datalog export. */
function ruleLines(text: string): string[] {
  return text.split('\n').filter((l) => l.includes(':-'));
}

describe('datalog/reasoning', function () {
  this.timeout(20_000);
  const env = useServer('datalog-reasoning');

  /** Every fact of every tuple table with its status (E, D or ED), read from the committed state. */
  function dump(ds: DataStoreConnection): string[] {
    return factsWithStatus(env.server, ds.dataStoreName);
  }

  /** A new store whose prefixes include `:` (so rule exports abbreviate with it). */
  async function newStore(parameters: Record<string, string> = {}): Promise<DataStoreConnection> {
    const ds = await env.newStore(undefined, undefined, parameters);
    await ds.setPrefix(':', EX);
    return ds;
  }

  const ANCESTOR = '[?x, :anc, ?y] :- [?x, :par, ?y] .\n[?x, :anc, ?z] :- [?x, :anc, ?y], [?y, :par, ?z] .\n';

  describe('importing Datalog', () => {
    it('detects the media type and counts processed and changed rules and facts', async () => {
      const ds = await newStore();
      // no media type given: the content is recognised as Datalog
      const r = await ds.importData('ADD', `${PREFIX}${ANCESTOR}[:a, :par, :b] .\n[:b, :par, :c] .\n`);
      expect(r.errors, r.text).to.equal(0);
      expect([r.processedRules, r.changedRules, r.processedFacts, r.changedFacts]).to.deep.equal([2, 2, 2, 2]);
      expect(r.text).to.include('#changed-rules = 2');
      expect(await facts(ds, 'derived')).to.deep.equal([q('a', 'anc', 'b'), q('a', 'anc', 'c'), q('b', 'anc', 'c')].sort());

      // the same rule again changes nothing; a new one is counted
      const again = await datalog(ds, '[?x, :anc, ?y] :- [?x, :par, ?y] .\n[?y, :child, ?x] :- [?x, :par, ?y] .\n');
      expect([again.processedRules, again.changedRules]).to.deep.equal([2, 1]);
      expect(ruleLines(await rulesOf(ds))).to.have.length(3);
      expect(await facts(ds, 'derived')).to.include.members([q('b', 'child', 'a'), q('c', 'child', 'b')]);
    });

    it('DELETE of a rule removes the rule and its consequences, keeping the explicit facts', async () => {
      const ds = await newStore();
      await datalog(ds, `${ANCESTOR}[:a, :par, :b] .\n[:b, :par, :c] .\n[:a, :anc, :c] .\n`);
      const r = await datalog(ds, '[?x, :anc, ?z] :- [?x, :anc, ?y], [?y, :par, ?z] .', 'DELETE');
      expect([r.processedRules, r.changedRules]).to.deep.equal([1, 1]);
      expect(ruleLines(await rulesOf(ds))).to.deep.equal(['[?x, :anc, ?y] :- [?x, :par, ?y] .']);
      // a:anc:c is still explicit; only the one-step ancestors remain derived
      expect(await facts(ds, 'derived')).to.deep.equal([q('a', 'anc', 'b'), q('b', 'anc', 'c')].sort());
      expect(await facts(ds, 'all')).to.deep.equal([q('a', 'par', 'b'), q('b', 'par', 'c'), q('a', 'anc', 'b'), q('b', 'anc', 'c'), q('a', 'anc', 'c')].sort());

      // deleting a rule that is not there changes nothing
      const none = await datalog(ds, '[?x, :anc, ?z] :- [?x, :anc, ?y], [?y, :par, ?z] .', 'DELETE');
      expect([none.processedRules, none.changedRules]).to.deep.equal([1, 0]);

      const last = await datalog(ds, '[?x, :anc, ?y] :- [?x, :par, ?y] .', 'DELETE');
      expect(last.changedRules).to.equal(1);
      expect(await facts(ds, 'derived')).to.deep.equal([]);
      expect(ruleLines(await rulesOf(ds))).to.deep.equal([]);
      expect(await ds.countFacts()).to.equal(3);
    });

    it('reads facts in every Datalog form: triples, classes, predicate atoms, named graphs and tuple tables', async () => {
      const ds = await newStore();
      await ds.createTupleTable('T', { arity: '2' });
      const r = await datalog(ds, '[:a, :p, :b] .\n:C[:a] .\n:p[:c, :d] .\n[:a, :p, :b] :g .\nT(:a, :b) .\n[:a, :n, 42] .\n');
      expect([r.processedFacts, r.changedFacts]).to.deep.equal([6, 6]);
      expect(await facts(ds, 'explicit')).to.deep.equal([q('a', 'p', 'b'), q('a', `<${RDF_TYPE}>`, 'C'), q('c', 'p', 'd'), q('a', 'p', 'b', 'g'), q('a', 'n', int(42))].sort());
      expect(await ds.countFacts({ tupleTable: 'T' })).to.equal(1);
      expect(await ds.countFacts({ tupleTable: 'Quads' })).to.equal(1);
      expect(dump(ds)).to.include(`T(<${EX}a> <${EX}b>) E`);
    });

    it('the store prefixes apply to rules without @prefix', async () => {
      const ds = await env.newStore();
      await ds.setPrefix('ex:', EX);
      const r = await ds.importData('ADD', '[?x, ex:knows, ?y] :- [?y, ex:knows, ?x] .\nex:Person[?x] :- [?x, ex:knows, ?y] .\n[ex:a, ex:knows, ex:b] .', DATALOG);
      expect(r.errors, r.text).to.equal(0);
      expect(r.changedRules).to.equal(2);
      // a→b is explicit and derived (from b→a, itself derived)
      expect(await facts(ds, 'derived')).to.deep.equal([q('a', 'knows', 'b'), q('b', 'knows', 'a'), q('a', `<${RDF_TYPE}>`, 'Person'), q('b', `<${RDF_TYPE}>`, 'Person')].sort());
      expect(await facts(ds, 'explicit')).to.deep.equal([q('a', 'knows', 'b')]);
      // the rule export abbreviates with the store prefixes
      expect(ruleLines(await rulesOf(ds))).to.include('[?x, ex:knows, ?y] :- [?y, ex:knows, ?x] .');
    });
  });

  describe('materialisation', () => {
    it('computes the transitive closure of a chain and maintains it under deletion', async () => {
      const ds = await newStore({ 'use-DRed': 'true' });
      const n = 8;
      const chain = Array.from({ length: n }, (_, i) => `[:n${i}, :par, :n${i + 1}] .`).join('\n');
      await datalog(ds, ANCESTOR + chain);
      const expected = (cut: number): string[] => {
        const out: string[] = [];
        for (let i = 0; i <= n; i++) for (let j = i + 1; j <= n; j++) if (cut < 0 || i >= cut || j <= cut) out.push(q(`n${i}`, 'anc', `n${j}`));
        return out.sort();
      };
      expect(await facts(ds, 'derived')).to.deep.equal(expected(-1));
      expect(await ds.countFacts({ factDomain: 'derived' })).to.equal((n * (n + 1)) / 2);
      // cutting the chain in the middle splits the closure
      await datalog(ds, '[:n4, :par, :n5] .', 'DELETE');
      const cut = expected(-1).filter((l) => {
        const m = /n(\d+)> <http:\/\/ex\/anc> <http:\/\/ex\/n(\d+)>/.exec(l)!;
        return Number(m[2]) <= 4 || Number(m[1]) >= 5;
      });
      expect(await facts(ds, 'derived')).to.deep.equal(cut);
      expect(cut).to.have.length(10 + 6);
    });

    it('applies rules over named graphs', async () => {
      const ds = await newStore();
      await datalog(ds, '[?x, :q, ?y] :h :- [?x, :p, ?y] :g .\n[?y, :back, ?x] :- [?x, :q, ?y] :h .\n[:a, :p, :b] :g .\n[:c, :p, :d] .\n[:e, :p, :f] :other .');
      expect(await facts(ds, 'derived')).to.deep.equal([q('a', 'q', 'b', 'h'), q('b', 'back', 'a')].sort());
      await datalog(ds, '[:a, :p, :b] :g .', 'DELETE');
      expect(await facts(ds, 'derived')).to.deep.equal([]);
    });

    it('applies rules over user tuple tables', async () => {
      const ds = await newStore();
      await ds.createTupleTable('T', { arity: '2' });
      await datalog(ds, 'T(?y, ?x) :- [?x, :p, ?y] .\n[?x, :fromT, ?y] :- T(?x, ?y) .\n[:a, :p, :b] .\nT(:c, :d) .');
      expect(await ds.countFacts({ tupleTable: 'T' })).to.equal(2);
      expect(await ds.countFacts({ tupleTable: 'T', factDomain: 'derived' })).to.equal(1);
      expect(dump(ds).filter((l) => l.startsWith('T('))).to.deep.equal([`T(<${EX}b> <${EX}a>) D`, `T(<${EX}c> <${EX}d>) E`]);
      expect(await facts(ds, 'derived')).to.deep.equal([q('b', 'fromT', 'a'), q('c', 'fromT', 'd')].sort());
      await datalog(ds, 'T(:c, :d) .', 'DELETE');
      expect(await facts(ds, 'derived')).to.deep.equal([q('b', 'fromT', 'a')]);
    });

    it('FILTER keeps only the matching bindings', async () => {
      const ds = await newStore();
      await datalog(
        ds,
        ':Adult[?x] :- [?x, :age, ?a], FILTER(?a >= 18) .\n:Grown[?x] :- [?x, :age, ?a], FILTER(isNumeric(?a) && ?a >= 18) .\n' +
          '[:ann, :age, 30] .\n[:bob, :age, 12] .\n[:cid, :age, 18] .\n[:dan, :age, "old"] .',
      );
      // rules order terms of every type as RDFox does: the string "old" comes after every number
      const adults = [q('ann', `<${RDF_TYPE}>`, 'Adult'), q('cid', `<${RDF_TYPE}>`, 'Adult'), q('dan', `<${RDF_TYPE}>`, 'Adult')];
      expect(await facts(ds, 'derived')).to.deep.equal([...adults, q('ann', `<${RDF_TYPE}>`, 'Grown'), q('cid', `<${RDF_TYPE}>`, 'Grown')].sort());
    });

    it('BIND computes new values (CONCAT, arithmetic)', async () => {
      const ds = await newStore();
      await datalog(
        ds,
        '[?x, :name, ?n] :- [?x, :first, ?f], [?x, :last, ?l], BIND(CONCAT(?f, " ", ?l) AS ?n) .\n' +
          '[?x, :nextAge, ?m] :- [?x, :age, ?a], BIND(?a * 2 + 1 AS ?m) .\n' +
          '[:ann, :first, "Ann"] .\n[:ann, :last, "Lee"] .\n[:ann, :age, 20] .\n[:bob, :first, "Bob"] .',
      );
      expect(await facts(ds, 'derived')).to.deep.equal([q('ann', 'name', '"Ann Lee"'), q('ann', 'nextAge', int(41))].sort());
    });

    it('NOT and NOT EXISTS … IN react to facts appearing and disappearing', async () => {
      const ds = await newStore();
      await datalog(
        ds,
        ':Single[?x] :- :Person[?x], NOT EXISTS ?y IN [?x, :marriedTo, ?y] .\n' +
          ':Free[?x] :- :Person[?x], NOT (:Busy[?x], :Working[?x]) .\n' +
          ':Person[:a] .\n:Person[:b] .\n[:b, :marriedTo, :c] .\n:Busy[:a] .',
      );
      const type = `<${RDF_TYPE}>`;
      expect(await facts(ds, 'derived')).to.deep.equal([q('a', type, 'Single'), q('a', type, 'Free'), q('b', type, 'Free')].sort());
      await datalog(ds, ':Working[:a] .\n[:a, :marriedTo, :d] .');
      expect(await facts(ds, 'derived')).to.deep.equal([q('b', type, 'Free')]);
      await datalog(ds, '[:b, :marriedTo, :c] .\n[:a, :marriedTo, :d] .', 'DELETE');
      expect(await facts(ds, 'derived')).to.deep.equal([q('a', type, 'Single'), q('b', type, 'Single'), q('b', type, 'Free')].sort());
    });

    it('AGGREGATE computes COUNT, COUNT(DISTINCT), SUM, MIN, MAX and AVG per group and keeps them up to date', async () => {
      const ds = await newStore();
      await datalog(
        ds,
        '[?c, :orders, ?n] :- AGGREGATE([?o, :customer, ?c] ON ?c BIND COUNT(?o) AS ?n) .\n' +
          '[?c, :products, ?n] :- AGGREGATE([?o, :customer, ?c], [?o, :product, ?p] ON ?c BIND COUNT(DISTINCT ?p) AS ?n) .\n' +
          '[?c, :total, ?s], [?c, :min, ?lo], [?c, :max, ?hi], [?c, :avg, ?m] :- ' +
          'AGGREGATE([?o, :customer, ?c], [?o, :amount, ?a] ON ?c BIND SUM(?a) AS ?s BIND MIN(?a) AS ?lo BIND MAX(?a) AS ?hi BIND AVG(?a) AS ?m) .\n' +
          '[?c, :bought, ?n] ?p :- AGGREGATE([?o, :customer, ?c], [?o, :product, ?p] ON ?c ?p BIND COUNT(*) AS ?n) .\n' +
          '[:o1, :customer, :ann] . [:o1, :product, :tea] . [:o1, :amount, 10] .\n' +
          '[:o2, :customer, :ann] . [:o2, :product, :tea] . [:o2, :amount, 20] .\n' +
          '[:o3, :customer, :ann] . [:o3, :product, :jam] . [:o3, :amount, 30] .\n' +
          '[:o4, :customer, :bob] . [:o4, :product, :jam] . [:o4, :amount, 5] .\n',
      );
      const dec = (v: string): string => `"${v}"^^<${XSD}decimal>`;
      const expectedFor = (ann: { orders: number; total: number; max: number; avg: string; tea: number }): string[] =>
        [
          q('ann', 'orders', int(ann.orders)),
          q('ann', 'products', int(2)),
          q('ann', 'total', int(ann.total)),
          q('ann', 'min', int(10)),
          q('ann', 'max', int(ann.max)),
          q('ann', 'avg', dec(ann.avg)),
          q('ann', 'bought', int(ann.tea), 'tea'),
          q('ann', 'bought', int(1), 'jam'),
          q('bob', 'orders', int(1)),
          q('bob', 'products', int(1)),
          q('bob', 'total', int(5)),
          q('bob', 'min', int(5)),
          q('bob', 'max', int(5)),
          q('bob', 'avg', dec('5.0')),
          q('bob', 'bought', int(1), 'jam'),
        ].sort();
      expect(await facts(ds, 'derived')).to.deep.equal(expectedFor({ orders: 3, total: 60, max: 30, avg: '20.0', tea: 2 }));
      // a new order replaces the old aggregate values
      await datalog(ds, '[:o5, :customer, :ann] . [:o5, :product, :tea] . [:o5, :amount, 40] .');
      expect(await facts(ds, 'derived')).to.deep.equal(expectedFor({ orders: 4, total: 100, max: 40, avg: '25.0', tea: 3 }));
      await datalog(ds, '[:o5, :customer, :ann] . [:o5, :product, :tea] . [:o5, :amount, 40] .', 'DELETE');
      expect(await facts(ds, 'derived')).to.deep.equal(expectedFor({ orders: 3, total: 60, max: 30, avg: '20.0', tea: 2 }));
    });
  });

  describe('explicit and derived status', () => {
    it('a fact both imported and derived is in both domains until both supports are gone', async () => {
      const ds = await newStore();
      await datalog(ds, '[?y, :knows, ?x] :- [?x, :knows, ?y] .\n[:a, :knows, :b] .\n[:b, :knows, :a] .');
      const ab = q('a', 'knows', 'b');
      const ba = q('b', 'knows', 'a');
      expect(await facts(ds, 'explicit')).to.deep.equal([ab, ba].sort());
      expect(await facts(ds, 'derived')).to.deep.equal([ab, ba].sort());
      // deleting the explicit copy of b→a leaves it derived (from a→b)
      const r = await datalog(ds, '[:b, :knows, :a] .', 'DELETE');
      expect(r.changedFacts).to.equal(1);
      expect(await facts(ds, 'explicit')).to.deep.equal([ab]);
      expect(await facts(ds, 'derived')).to.deep.equal([ab, ba].sort());
      // deleting the support removes both
      await datalog(ds, '[:a, :knows, :b] .', 'DELETE');
      expect(await facts(ds, 'all')).to.deep.equal([]);
      expect(await ds.countFacts()).to.equal(0);
    });

    it('importing an already derived fact counts as a change and makes it explicit', async () => {
      const ds = await newStore();
      await datalog(ds, '[?x, :q, ?y] :- [?x, :p, ?y] .\n[:a, :p, :b] .');
      expect(await facts(ds, 'explicit')).to.deep.equal([q('a', 'p', 'b')]);
      const r = await datalog(ds, '[:a, :q, :b] .');
      expect([r.processedFacts, r.changedFacts]).to.deep.equal([1, 1]);
      expect(await facts(ds, 'explicit')).to.deep.equal([q('a', 'p', 'b'), q('a', 'q', 'b')].sort());
      expect(await facts(ds, 'derived')).to.deep.equal([q('a', 'q', 'b')]);
      // importing it again changes nothing
      expect((await datalog(ds, '[:a, :q, :b] .')).changedFacts).to.equal(0);
      // without its support it stays, as an explicit fact only
      await datalog(ds, '[:a, :p, :b] .', 'DELETE');
      expect(await facts(ds, 'all')).to.deep.equal([q('a', 'q', 'b')]);
      expect(await facts(ds, 'derived')).to.deep.equal([]);
    });
  });

  describe('a rule removed while additions derive its head again', () => {
    // One transaction removes the only rule that derived an explicit fact and adds a fact from
    // which other rules derive it again, through a fact that is itself derived only in that
    // transaction: the fact must stay derived. Levels merged (by-levels=false) or one
    // recursive level put all of it in one maintenance pass.
    for (const [label, parameters, rules] of [
      ['levels merged', { 'by-levels': 'false' }, '[?x, :q, ?y] :- [?x, :r, ?y] .\n[?x, :r, ?y] :- [?x, :s, ?y] .'],
      ['one recursive level', {}, '[?x, :q, ?y] :- [?x, :r, ?y] .\n[?x, :r, ?y] :- [?x, :s, ?y] .\n[?x, :r, ?y] :- [?x, :q, ?y], [?x, :t, ?y] .'],
    ] as const) {
      for (const dred of [false, true]) {
        it(`keeps the fact derived (${label}, ${dred ? 'DRed' : 'FBF'})`, async () => {
          const ds = await newStore({ ...parameters, ...(dred ? { 'use-DRed': 'true' } : {}) });
          await datalog(ds, `[?x, :q, ?y] :- [?x, :p, ?y] .\n${rules}\n[:a, :p, :b] .\n[:a, :q, :b] .`);
          expect(await facts(ds, 'derived')).to.deep.equal([q('a', 'q', 'b')]);
          await ds.beginTransaction('read-write');
          await datalog(ds, '[?x, :q, ?y] :- [?x, :p, ?y] .', 'DELETE');
          await datalog(ds, '[:a, :s, :b] .');
          await ds.commitTransaction();
          const derived = [q('a', 'q', 'b'), q('a', 'r', 'b')].sort();
          expect(await facts(ds, 'derived')).to.deep.equal(derived);
          await ds.recomputeMaterialization();
          expect(await facts(ds, 'derived')).to.deep.equal(derived);
        });
      }
    }
  });

  describe('pivots whose next atom has no match yet', () => {
    // The facts a rule's second atom reads (rdfs:domain facts) are derived in the same run as
    // the data, some after a data fact with the same property was pivoted and found nothing,
    // and another such data fact arrives later still through a chain of rules: every
    // derivation must be found, as a recomputation finds it (a pivot that remembered finding
    // nothing for a property would miss the last one).
    const RULES = `[?x, rdf:type, ?c] :- [?p, rdfs:domain, ?c], [?x, ?p, ?y] .
[?p, rdfs:domain, ?c] :- [?p, :hasDomain, ?c] .
[?p, :hasDomain, ?c] :- [?p, :declaredWith, ?k], [?k, :domainIs, ?c] .
[?x, :r2, ?y] :- [?x, :r1, ?y] .
[?x, :q, ?y] :- [?x, :r2, ?y] .`;
    const type = (x: string, c: string): string => q(x, `<${RDF_TYPE}>`, c);
    for (const dred of [false, true]) {
      it(`derives through facts that arrive after the pivot (${dred ? 'DRed' : 'FBF'})`, async () => {
        const ds = await newStore(dred ? { 'use-DRed': 'true' } : {});
        const types = async (): Promise<string[]> => (await facts(ds, 'derived')).filter((l) => l.includes(RDF_TYPE));
        await datalog(ds, `${RULES}\n[:a, :p, :b] .\n[:p, :declaredWith, :k1] .\n[:k1, :domainIs, :C] .`);
        expect(await types()).to.deep.equal([type('a', 'C')]);
        // (e q f) is pivoted before q has a domain; (i q j) comes two rule steps after it has one
        await datalog(ds, '[:e, :q, :f] .\n[:q, :hasDomain, :D] .\n[:i, :r1, :j] .');
        expect(await types()).to.deep.equal([type('a', 'C'), type('e', 'D'), type('i', 'D')].sort());
        await datalog(ds, '[:k1, :domainIs, :C] .', 'DELETE');
        expect(await types()).to.deep.equal([type('e', 'D'), type('i', 'D')].sort());
        const before = await facts(ds, 'all');
        await ds.recomputeMaterialization();
        expect(await facts(ds, 'all')).to.deep.equal(before);
      });
    }
  });

  describe('reasoning inside transactions', () => {
    async function requiresReasoning(ds: DataStoreConnection): Promise<string> {
      const row = (await ds.getDataStoreProperties()).find((r) => r.property === 'requires-incremental-reasoning');
      expect(row).to.not.equal(undefined);
      return row!.value;
    }

    it('pending reasoning is reported, update-materialization clears it, reads see derived facts and commit publishes them', async () => {
      const ds = await newStore();
      await datalog(ds, ANCESTOR);
      const reader = env.track(ds.duplicate());
      await ds.beginTransaction('read-write');
      expect(await requiresReasoning(ds)).to.equal('false');
      await datalog(ds, '[:a, :par, :b] .\n[:b, :par, :c] .');
      expect(await requiresReasoning(ds)).to.equal('true');
      await ds.updateMaterialization();
      expect(await requiresReasoning(ds)).to.equal('false');
      expect(await facts(ds, 'derived')).to.deep.equal([q('a', 'anc', 'b'), q('a', 'anc', 'c'), q('b', 'anc', 'c')].sort());

      // an export inside the transaction brings the materialisation up to date itself
      await datalog(ds, '[:c, :par, :d] .');
      expect(await requiresReasoning(ds)).to.equal('true');
      expect(await facts(ds, 'derived')).to.include(q('a', 'anc', 'd'));
      expect(await ds.countFacts({ factDomain: 'derived' })).to.equal(6);

      // a read-only transaction opened before the commit keeps its snapshot
      await reader.beginTransaction('read-only');
      expect(await reader.countFacts()).to.equal(0);
      await ds.commitTransaction();
      expect(await reader.countFacts()).to.equal(0);
      expect(await facts(reader, 'all')).to.deep.equal([]);
      await reader.commitTransaction();
      expect(await facts(reader, 'derived')).to.have.length(6);
      expect(await reader.countFacts({ factDomain: 'explicit' })).to.equal(3);
      expect(await requiresReasoning(ds)).to.equal('false');
    });

    it('rollback leaves neither the facts nor their consequences, nor the rules', async () => {
      const ds = await newStore();
      await datalog(ds, '[?x, :q, ?y] :- [?x, :p, ?y] .\n[:a, :p, :b] .');
      const before = dump(ds);
      await ds.beginTransaction('read-write');
      await datalog(ds, ANCESTOR + '[:c, :p, :d] .\n[:c, :par, :d] .');
      expect(await facts(ds, 'derived')).to.deep.equal([q('a', 'q', 'b'), q('c', 'q', 'd'), q('c', 'anc', 'd')].sort());
      await ds.rollbackTransaction();
      expect(dump(ds)).to.deep.equal(before);
      expect(await facts(ds, 'derived')).to.deep.equal([q('a', 'q', 'b')]);
      expect(ruleLines(await rulesOf(ds))).to.deep.equal(['[?x, :q, ?y] :- [?x, :p, ?y] .']);
      // the store still reasons normally afterwards
      await datalog(ds, '[:e, :p, :f] .');
      expect(await facts(ds, 'derived')).to.deep.equal([q('a', 'q', 'b'), q('e', 'q', 'f')].sort());
    });
  });

  /** A program touching named graphs, a tuple table, FILTER, BIND, NOT and AGGREGATE. */
  const PROGRAM =
    ANCESTOR +
    '[?x, :q, ?y] :h :- [?x, :p, ?y] :g .\n' +
    'T(?x, ?y) :- [?x, :anc, ?y], FILTER(?x != ?y) .\n' +
    '[?x, :label, ?l] :- [?x, :name, ?n], BIND(CONCAT("name: ", ?n) AS ?l) .\n' +
    ':Root[?x] :- [?x, :par, ?y], NOT EXISTS ?z IN [?z, :par, ?x] .\n' +
    '[?x, :descendants, ?n] :- AGGREGATE(T(?x, ?y) ON ?x BIND COUNT(?y) AS ?n) .\n';
  const DATA = '[:a, :par, :b] .\n[:b, :par, :c] .\n[:c, :par, :d] .\n[:a, :anc, :c] .\n[:a, :name, "A"] .\n[:a, :p, :b] :g .\n';

  async function programStore(parameters: Record<string, string> = {}): Promise<DataStoreConnection> {
    const ds = await newStore(parameters);
    await ds.createTupleTable('T', { arity: '2' });
    await datalog(ds, PROGRAM + DATA);
    return ds;
  }

  describe('recomputing and clearing rules', () => {
    it('recomputeMaterialization gives the same facts with the same statuses', async () => {
      const modes: Array<Record<string, string>> = [{}, { 'use-DRed': 'true' }];
      for (const parameters of modes) {
        const ds = await programStore(parameters);
        // some incremental history first
        await datalog(ds, '[:b, :par, :c] .', 'DELETE');
        await datalog(ds, '[:b, :par, :c] .\n[:d, :par, :e] .');
        const before = dump(ds);
        expect(before).to.include(`DefaultTriples(<${EX}a> <${EX}anc> <${EX}c>) ED`);
        expect(before).to.include(`DefaultTriples(<${EX}a> <${RDF_TYPE}> <${EX}Root>) D`);
        expect(before).to.include(`DefaultTriples(<${EX}a> <${EX}descendants> "4"^^<${XSD}integer>) D`);
        await ds.recomputeMaterialization();
        expect(dump(ds)).to.deep.equal(before);
      }
    });

    it('clearRulesExplicateFacts drops the rules and makes every fact explicit', async () => {
      const ds = await programStore();
      const all = await facts(ds, 'all');
      const tCount = await ds.countFacts({ tupleTable: 'T' });
      expect(all.length).to.be.greaterThan(await ds.countFacts({ factDomain: 'explicit' }));
      await ds.clearRulesExplicateFacts();
      expect(ruleLines(await rulesOf(ds))).to.deep.equal([]);
      expect(ruleLines(await rulesOf(ds, 'all'))).to.deep.equal([]);
      expect(await facts(ds, 'explicit')).to.deep.equal(all);
      expect(await facts(ds, 'derived')).to.deep.equal([]);
      expect(await ds.countFacts({ tupleTable: 'T', factDomain: 'explicit' })).to.equal(tCount);
      expect(await ds.countFacts({ tupleTable: 'T', factDomain: 'derived' })).to.equal(0);
      expect(dump(ds).every((l) => l.endsWith(' E'))).to.equal(true);
      // without rules, deleting a former premise no longer changes anything else
      await datalog(ds, '[:a, :par, :b] .', 'DELETE');
      expect(await facts(ds, 'all')).to.deep.equal(all.filter((l) => l !== q('a', 'par', 'b')));
    });
  });

  describe('rule export', () => {
    it('exports the user rules (default) and all rules; a reimport gives the same program and materialisation', async () => {
      const ds = await programStore();
      const user = await rulesOf(ds);
      expect(await rulesOf(ds, 'user')).to.equal(user);
      expect(ruleLines(user)).to.have.length(7);
      expect(user).to.include('@prefix : <http://ex/> .');
      expect(ruleLines(await rulesOf(ds, 'all'))).to.deep.equal(ruleLines(user));
      expect(ruleLines(await rulesOf(ds, 'axioms'))).to.deep.equal([]);

      const copy = await newStore();
      await copy.createTupleTable('T', { arity: '2' });
      const r = await copy.importData('ADD', user, DATALOG);
      expect(r.errors, r.text).to.equal(0);
      expect(r.changedRules).to.equal(7);
      await datalog(copy, DATA);
      expect(await rulesOf(copy)).to.equal(user);
      expect(dump(copy)).to.deep.equal(dump(ds));
    });

    it('rejects an invalid rule-domain', async () => {
      const ds = await newStore();
      const e = await expectError(rulesOf(ds, 'everything'), BadRequestError);
      expect(e.message).to.include('everything');
    });
  });

  describe('interrupt', () => {
    /** A store holding a chain of `n` :par facts (no rules yet, so importing it is quick). */
    async function chainStore(n: number): Promise<DataStoreConnection> {
      const ds = await newStore();
      const chain = Array.from({ length: n }, (_, i) => `[:n${i}, :par, :n${i + 1}] .`).join('\n');
      await datalog(ds, `${chain}\n[:x, :y, :z] .\n[?x, :copy, ?y] :- [?x, :y, ?y] .`);
      return ds;
    }

    /** Runs `action`, interrupting `ds` after `ms` milliseconds; expects InterruptedError well before the work could finish. */
    async function interrupted(ds: DataStoreConnection, ms: number, action: () => Promise<unknown>): Promise<void> {
      const started = performance.now();
      const timer = setTimeout(() => ds.interrupt(), ms);
      try {
        await expectError(action(), InterruptedError);
      } finally {
        clearTimeout(timer);
      }
      // the closure of 1500 nodes (over a million facts) takes far longer than this
      expect(performance.now() - started).to.be.lessThan(5_000);
    }

    it('interrupting the materialisation of an import leaves the store unchanged', async () => {
      const ds = await chainStore(1500);
      const before = dump(ds);
      const rulesBefore = await rulesOf(ds);
      // the input is two rules: the time goes into materialising their consequences
      await interrupted(ds, 30, () => ds.importData('ADD', PREFIX + ANCESTOR, DATALOG));
      expect(dump(ds)).to.deep.equal(before);
      expect(await rulesOf(ds)).to.equal(rulesBefore);
      expect(await ds.countFacts()).to.equal(1502);
      expect(await ds.countFacts({ factDomain: 'derived' })).to.equal(1);
      // the connection works again after the interrupt
      await datalog(ds, '[:a, :y, :b] .');
      expect(await facts(ds, 'derived')).to.deep.equal([q('a', 'copy', 'b'), q('x', 'copy', 'z')].sort());
      // and the interrupted run left nothing behind for later runs (the rows it had appended
      // are reused by the facts above)
      await datalog(ds, '[:a, :y, :b] .', 'DELETE');
      expect(await facts(ds, 'derived')).to.deep.equal([q('x', 'copy', 'z')]);
    });

    it('interrupting an import of facts and rules together adds neither', async () => {
      const ds = await newStore();
      await datalog(ds, '[:x, :y, :z] .');
      const n = 1500;
      const chain = Array.from({ length: n }, (_, i) => `[:m${i}, :par, :m${i + 1}] .`).join('\n');
      await interrupted(ds, 30, () => ds.importData('ADD', PREFIX + ANCESTOR + chain, DATALOG));
      expect(await facts(ds, 'all')).to.deep.equal([q('x', 'y', 'z')]);
      expect(ruleLines(await rulesOf(ds))).to.deep.equal([]);
    });

    it('interrupting the reasoning of a commit rolls the transaction back', async () => {
      const ds = await chainStore(1500);
      const before = dump(ds);
      await ds.beginTransaction('read-write');
      await datalog(ds, ANCESTOR + '[:a, :y, :b] .');
      await interrupted(ds, 30, () => ds.commitTransaction());
      expect(ds.transactionType).to.equal(undefined);
      expect(dump(ds)).to.deep.equal(before);
      expect(ruleLines(await rulesOf(ds))).to.deep.equal(['[?x, :copy, ?y] :- [?x, :y, ?y] .']);
    });
  });
});
