/**
 * Stratification as RDFox does it, on whole programs: the dependency graph over atom patterns
 * (variables replaced by ANY) with both-way edges between patterns that unify. The manual's
 * unstratifiable program fails with a message naming the cycle, the rules and the NOT; programs
 * whose negated or aggregated patterns do not unify with a head of their own component are
 * accepted, and maintained incrementally exactly as materialisation from scratch; a BIND whose
 * variable is bound elsewhere tests it (also in the proof checks of maintenance).
 */
import { expect } from 'chai';
import fc from 'fast-check';
import type { DataStoreConnection, ImportResult, UpdateType } from '../../lib/index.js';
import { factsWithStatus } from '../helpers/facts.js';
import { sortedLines, useServer } from '../helpers/server.js';

const EX = 'http://ex/';
const PREFIX = `@prefix : <${EX}> .\n`;
const DATALOG = { mediaType: 'application/x.datalog' } as const;

/** The error rows of a failed import (not thrown). */
async function rejected(ds: DataStoreConnection, text: string): Promise<ImportResult> {
  const r = await ds.importData('ADD', PREFIX + text, { ...DATALOG, rejectOnError: false });
  expect(r.errors, r.text).to.equal(1);
  expect(r.changedRules).to.equal(0);
  return r;
}

function firstError(r: ImportResult): { line: number | undefined; column: number | undefined; description: string } {
  const row = r.rows.find((x) => x.type === 'error')!;
  return { line: row.line, column: row.column, description: row.description };
}

describe('datalog/stratification as RDFox', function () {
  this.timeout(60_000);
  const env = useServer('stratification-rdfox');

  async function load(ds: DataStoreConnection, text: string, update: UpdateType = 'ADD'): Promise<ImportResult> {
    const r = await ds.importData(update, PREFIX + text, DATALOG);
    expect(r.errors, r.text).to.equal(0);
    return r;
  }

  async function derived(ds: DataStoreConnection): Promise<string[]> {
    return sortedLines(await ds.exportDataToString('application/n-triples', { 'fact-domain': 'derived' }));
  }

  const t = (s: string, p: string, o: string): string => `<${EX}${s}> <${EX}${p}> <${EX}${o}> .`;

  // the manual's example ("Restrictions on Rule Sets"): two rules that stratify, and a third that does not
  const CONTRACTORS = '[?x, :contractorFor, ?y] :- [?x, :worksFor, ?y], NOT [?x, :employeeOf, ?y] .';
  const ACME = '[?x, :employeeOf, :acme] :- [?x, :worksFor, :acme] .';
  const EMPLOYEES = '[?x, :employeeOf, ?y] :- [?x, :worksFor, ?y], NOT [?x, :contractorFor, ?y] .';

  it("accepts the manual's two stratified rules and reasons with them", async () => {
    const ds = await env.newStore();
    await load(ds, [CONTRACTORS, ACME, '[:mary, :worksFor, :acme] . [:bob, :worksFor, :initech] .'].join('\n'));
    expect(await derived(ds)).to.deep.equal([t('bob', 'contractorFor', 'initech'), t('mary', 'employeeOf', 'acme')]);
  });

  it("rejects the manual's third rule, naming the cycle through NOT, its rules (those imported before by their text) and where the NOT is", async () => {
    const ds = await env.newStore();
    await load(ds, [CONTRACTORS, ACME].join('\n'));
    const r = await rejected(ds, EMPLOYEES);
    expect(firstError(r)).to.deep.equal({
      line: 2,
      column: EMPLOYEES.indexOf('NOT') + 1,
      description:
        `the program cannot be stratified: NOT in the rule at line 2: column 1 is on a cycle of dependencies: ` +
        `[ANY, <${EX}employeeOf>, ANY] depends through NOT on [ANY, <${EX}contractorFor>, ANY] (rule at line 2: column 1), ` +
        `which depends through NOT on [ANY, <${EX}employeeOf>, ANY] ` +
        `(rule [?x, <${EX}contractorFor>, ?y] :- [?x, <${EX}worksFor>, ?y], NOT [?x, <${EX}employeeOf>, ?y] .)`,
    });
  });

  it('the same three rules in one import: the cycle goes through both rules', async () => {
    const ds = await env.newStore();
    const r = await rejected(ds, [CONTRACTORS, ACME, EMPLOYEES].join('\n'));
    expect(firstError(r).description).to.equal(
      `the program cannot be stratified: NOT in the rule at line 4: column 1 is on a cycle of dependencies: ` +
        `[ANY, <${EX}employeeOf>, ANY] depends through NOT on [ANY, <${EX}contractorFor>, ANY] (rule at line 4: column 1), ` +
        `which depends through NOT on [ANY, <${EX}employeeOf>, ANY] (rule at line 2: column 1)`,
    );
    expect([firstError(r).line, firstError(r).column]).to.deep.equal([4, EMPLOYEES.indexOf('NOT') + 1]);
  });

  it('a cycle through patterns that unify says so, and a cycle through AGGREGATE says AGGREGATE', async () => {
    const ds = await env.newStore();
    const neg = '[?x, :a, :k] :- [?x, :p, ?y], NOT [?x, :b, ?y] .';
    const r = await rejected(ds, [neg, '[?x, :b, ?y] :- [?x, :a, ?z], [?x, :p, ?y] .'].join('\n'));
    expect(firstError(r).description).to.equal(
      `the program cannot be stratified: NOT in the rule at line 2: column 1 is on a cycle of dependencies: ` +
        `[ANY, <${EX}a>, <${EX}k>] depends through NOT on [ANY, <${EX}b>, ANY] (rule at line 2: column 1), ` +
        `which depends on [ANY, <${EX}a>, ANY] (rule at line 3: column 1), which unifies with [ANY, <${EX}a>, <${EX}k>]`,
    );
    const agg = '[?x, :total, ?n] :- [?x, :item, ?i], AGGREGATE([?x, :total, ?m] ON ?x BIND SUM(?m) AS ?n) .';
    const r2 = await rejected(ds, agg);
    expect(firstError(r2)).to.deep.equal({
      line: 2,
      column: agg.indexOf('AGGREGATE') + 1,
      description:
        `the program cannot be stratified: AGGREGATE in the rule at line 2: column 1 is on a cycle of dependencies: ` +
        `[ANY, <${EX}total>, ANY] depends through AGGREGATE on [ANY, <${EX}total>, ANY] (rule at line 2: column 1)`,
    });
  });

  it('accepts NOT over a pattern that does not unify with the heads of its component (a constant differs)', async () => {
    const ds = await env.newStore();
    await load(
      ds,
      `[?x, :status, :active] :- [?x, :account, ?a], NOT [?x, :status, :closed] .
       [?x, :status, :closed] :- [?x, :closedOn, ?d] .
       [?x, :flag, :red] :- [?x, :status, :closed], NOT [?x, :flag, :green] .
       [:u1, :account, :a1] . [:u2, :account, :a2] . [:u2, :closedOn, "2020"] . [:u2, :flag, :green] .`,
    );
    expect(await derived(ds)).to.deep.equal([t('u1', 'status', 'active'), t('u2', 'status', 'closed')]);
    // incremental: closing u1 withdraws its active status, reopening u2 gives it back
    await load(ds, '[:u1, :closedOn, "2021"] .');
    await load(ds, '[:u2, :closedOn, "2020"] .', 'DELETE');
    expect(await derived(ds)).to.deep.equal([t('u1', 'flag', 'red'), t('u1', 'status', 'closed'), t('u2', 'status', 'active')]);
  });

  it('still rejects NOT over a pattern that unifies with a head of its own component', async () => {
    const ds = await env.newStore();
    const r = await rejected(ds, '[?x, :status, :active] :- [?x, :account, ?a], NOT EXISTS ?s IN [?x, :status, ?s] .');
    expect(firstError(r).description).to.match(/^the program cannot be stratified: NOT in the rule at line 2: column 1 is on a cycle of dependencies: \[ANY, <http:\/\/ex\/status>, <http:\/\/ex\/active>\] depends through NOT on \[ANY, <http:\/\/ex\/status>, ANY\]/);
  });

  it('a pattern with a variable predicate unifies with every triple pattern', async () => {
    const ds = await env.newStore();
    await load(ds, '[?x, :copy, ?y] :- [?x, ?p, ?y], FILTER(?p != :copy) .');
    const r = await rejected(ds, '[?x, :lonely, :yes] :- [?x, :p, ?y], NOT [?x, :q, ?y] .');
    expect(firstError(r).description).to.include(`unifies with [ANY, ANY, ANY]`);
  });

  it('named graph and tuple table atoms are patterns too', async () => {
    const ds = await env.newStore();
    await ds.createTupleTable('T', { arity: '2' });
    await load(ds, '[?x, :s, ?y] :g1 :- T(?x, ?y), NOT [?x, :s, ?y] :g2 .\n[?x, :s, ?y] :g2 :- T(?y, ?x) .\nT(:a, :b) . T(:b, :b) .');
    expect(sortedLines(await ds.exportDataToString('application/n-quads', { 'fact-domain': 'derived' }))).to.deep.equal([
      `<${EX}a> <${EX}s> <${EX}b> <${EX}g1> .`,
      `<${EX}b> <${EX}s> <${EX}a> <${EX}g2> .`,
      `<${EX}b> <${EX}s> <${EX}b> <${EX}g2> .`,
    ]);
    const r = await rejected(ds, '[?x, :s, ?y] ?g :- T(?x, ?g), [?y, :s, ?x] :g1 .');
    expect(firstError(r).description).to.include(`depends through NOT on [ANY, <${EX}s>, ANY] <${EX}g2>`);
  });

  describe('BIND of a variable bound elsewhere', () => {
    it('is a test, also when maintenance checks whether a fact is still derivable', async () => {
      const ds = await env.newStore();
      await load(ds, '[?x, :next, ?z] :- [?x, :v, ?y], BIND(?y + 1 AS ?z) .\n[?x, :fixed, ?y] :- [?x, :v, ?y], [?x, :w, ?y], BIND(?y AS ?y2), [?x, :v, ?y2] .\n[:a, :v, 1] . [:a, :v, 5] . [:a, :w, 5] .');
      expect(await derived(ds)).to.deep.equal([`<${EX}a> <${EX}fixed> "5"^^<http://www.w3.org/2001/XMLSchema#integer> .`, `<${EX}a> <${EX}next> "2"^^<http://www.w3.org/2001/XMLSchema#integer> .`, `<${EX}a> <${EX}next> "6"^^<http://www.w3.org/2001/XMLSchema#integer> .`]);
      // :a :next 2 has no other derivation: [:a, :v, 5] gives 6, not 2
      await load(ds, '[:a, :v, 1] .', 'DELETE');
      expect(await derived(ds)).to.deep.equal([`<${EX}a> <${EX}fixed> "5"^^<http://www.w3.org/2001/XMLSchema#integer> .`, `<${EX}a> <${EX}next> "6"^^<http://www.w3.org/2001/XMLSchema#integer> .`]);
    });
  });

  describe('incremental maintenance of programs only pattern stratification accepts', () => {
    const RULES = [
      '[?x, :status, :active] :- [?x, :account, ?a], NOT [?x, :status, :closed] .',
      '[?x, :status, :closed] :- [?x, :closedOn, ?d] .',
      '[?x, :status, :closed] :- [?x, :link, ?y], [?y, :status, :closed] .',
      '[?x, :flag, :red] :- [?x, :status, :closed], NOT [?x, :flag, :green] .',
      '[?x, :flag, :green] :- [?x, :account, :vip] .',
      '[?x, :count, ?n] :- [?x, :status, :active], AGGREGATE([?x, :flag, :red] ON ?x BIND COUNT(*) AS ?n) .',
      '[?x, :rank, ?n] :- AGGREGATE([?x, :status, :closed], [?x, :link, ?y] ON ?x BIND COUNT(?y) AS ?n) .',
    ];
    const U = ['u1', 'u2', 'u3'];
    const fact = fc.oneof(
      fc.tuple(fc.constantFrom(...U), fc.constantFrom('a1', 'vip')).map(([u, a]) => `[:${u}, :account, :${a}] .`),
      fc.constantFrom(...U).map((u) => `[:${u}, :closedOn, "d"] .`),
      fc.tuple(fc.constantFrom(...U), fc.constantFrom(...U)).map(([u, v]) => `[:${u}, :link, :${v}] .`),
      fc.constantFrom(...U).map((u) => `[:${u}, :flag, :green] .`),
      fc.constantFrom(...U).map((u) => `[:${u}, :status, :active] .`),
    );
    for (const [label, parameters] of [
      ['FBF', {}],
      ['DRed', { 'use-DRed': 'true' }],
      ['FBF, not by levels', { 'by-levels': 'false' }],
    ] as Array<[string, Record<string, string>]>) {
      it(`random updates (${label})`, async () => {
        await fc.assert(
          fc.asyncProperty(
            fc.array(fact, { minLength: 3, maxLength: 10 }),
            fc.array(fc.record({ add: fc.array(fact, { maxLength: 3 }), remove: fc.array(fc.nat(99), { maxLength: 3 }), rule: fc.option(fc.nat(RULES.length - 1), { nil: undefined, freq: 3 }) }), { minLength: 1, maxLength: 6 }),
            async (initial, steps) => {
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
            },
          ),
          { numRuns: 60 },
        );
      });
    }
  });
});
