/**
 * The reasoning bar: after any sequence of updates, the incrementally maintained
 * materialisation equals a from-scratch materialisation of the same explicit facts and rules
 * (facts and their explicit/derived status), under FBF and DRed, by levels and not.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import type { DataStoreConnection } from '../../lib/index.js';
import { factsWithStatus } from '../helpers/facts.js';
import { arity, atom, CONSTANTS, RELATIONS } from '../helpers/random-programs.js';
import { useServer } from '../helpers/server.js';

const PREFIX = '@prefix : <http://r/> .\n';
const DATALOG_TYPE = { mediaType: 'application/x.datalog' };
const term = fc.oneof({ weight: 5, arbitrary: fc.constantFrom('?x', '?y', '?z') }, { weight: 1, arbitrary: fc.constantFrom(...CONSTANTS) });
const relation = fc.constantFrom(...RELATIONS);

/** The aggregates of random rules (`$` is the aggregated variable): SPARQL's COUNT and RDFox's own. */
const AGGREGATES = ['COUNT($)', 'COUNT_MIN($)', 'COUNT_MAX(DISTINCT $)', 'MIN_ARGMAX($, STRLEN(STR($)))', 'MAX_ARGMIN($, $)', 'MUL(STRLEN(STR($)))'];

/**
 * Adds a SKOLEM atom to a random rule's body (`choice` picks its use) and returns the head's
 * terms: a node made of a variable bound by an atom of a lower layer than the head's, which
 * the head gets (so nodes are made only of the finitely many terms of lower layers); a bound
 * variable unpacked into a new one the head gets; or a test that one bound variable is the
 * node of another.
 */
function withSkolem(choice: number, bound: readonly string[], boundBelow: readonly string[], parts: string[], headTerms: readonly string[]): string[] {
  const x = bound[choice % bound.length]!;
  if (choice % 4 < 2 && boundBelow.length > 0) {
    parts.push(`SKOLEM("n${choice % 2}", ${boundBelow[choice % boundBelow.length]!}, ?s)`);
    return ['?s', headTerms[1]!];
  }
  if (choice % 4 === 2) {
    parts.push(`SKOLEM("n0", ?k, ${x})`);
    return [headTerms[0]!, '?k'];
  }
  parts.push(`SKOLEM(${x}, ${bound[(choice + 1) % bound.length]!})`);
  return [...headTerms];
}

/** A random safe, stratified rule (negation and aggregation only over lower layers; SKOLEM makes nodes only from lower layers). */
const ruleArb = fc
  .record({
    head: relation,
    body: fc.array(fc.tuple(fc.nat(RELATIONS.length - 1), fc.array(term, { minLength: 2, maxLength: 2 })), { minLength: 1, maxLength: 3 }),
    negation: fc.option(fc.tuple(fc.nat(RELATIONS.length - 1), fc.array(term, { minLength: 2, maxLength: 2 })), { freq: 3 }),
    aggregate: fc.option(fc.nat(RELATIONS.length * AGGREGATES.length - 1), { freq: 6 }),
    filter: fc.boolean(),
    headArgs: fc.array(fc.nat(5), { minLength: 2, maxLength: 2 }),
    skolem: fc.oneof({ weight: 3, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.nat(11) }),
  })
  .map(({ head, body, negation, aggregate, filter, headArgs, skolem }) => {
    const parts: string[] = [];
    const bound: string[] = [];
    const boundBelow: string[] = [];
    for (const [ri, args] of body) {
      const r = RELATIONS.filter((x) => x.layer <= head.layer)[ri % RELATIONS.filter((x) => x.layer <= head.layer).length]!;
      if (r.layer < head.layer) for (const t of args.slice(0, arity(r))) if (t.startsWith('?')) boundBelow.push(t);
      const a = args.slice(0, arity(r));
      parts.push(atom(r, a));
      for (const t of a) if (t.startsWith('?') && !bound.includes(t)) bound.push(t);
    }
    if (bound.length === 0) {
      const r = RELATIONS[0];
      parts.push(atom(r, ['?x', '?y']));
      bound.push('?x', '?y');
    }
    const lower = RELATIONS.filter((x) => x.layer < head.layer);
    let headTerms: string[];
    if (aggregate !== null && lower.length > 0 && head.kind !== 'class') {
      const r = lower[aggregate % lower.length]!;
      const inner = r.kind === 'class' ? atom(r, ['?u']) : atom(r, ['?u', '?v']);
      const counted = r.kind === 'class' ? '?u' : '?v';
      const fn = AGGREGATES[Math.floor(aggregate / RELATIONS.length) % AGGREGATES.length]!.replaceAll('$', counted);
      parts.push(`AGGREGATE(${inner} ON ?u BIND ${fn} AS ?n)`);
      headTerms = ['?u', '?n'];
    } else {
      headTerms = headArgs.map((i) => bound[i % bound.length]!);
      if (skolem !== null) headTerms = withSkolem(skolem, bound, boundBelow, parts, headTerms);
    }
    if (negation !== null && lower.length > 0) {
      const [ri, args] = negation;
      const r = lower[ri % lower.length]!;
      const a = args.slice(0, arity(r)).map((t) => (t.startsWith('?') && !bound.includes(t) ? '?w' : t));
      parts.push(a.includes('?w') ? `NOT EXISTS ?w IN ${atom(r, a)}` : `NOT ${atom(r, a)}`);
    }
    if (filter && bound.length >= 2) parts.push(`FILTER(${bound[0]} != ${bound[1]})`);
    return `${atom(head, headTerms.slice(0, arity(head)))} :- ${parts.join(', ')} .`;
  });

const factArb = fc.tuple(relation, fc.constantFrom(...CONSTANTS), fc.constantFrom(...CONSTANTS)).map(([r, a, b]) => `${atom(r, [a, b].slice(0, arity(r)))} .`);

/** Deletions name existing facts by index (modulo the number of facts at that point). */
type Step =
  | { kind: 'add-facts'; facts: string[] }
  | { kind: 'delete-facts'; picks: number[] }
  | { kind: 'add-rule' | 'delete-rule'; rule: string }
  | { kind: 'commit-mixed'; add: string[]; picks: number[]; deleteRule?: number | null; addRule?: string | null };

/** Update steps over the given rules and facts. */
function stepsOf(rules: fc.Arbitrary<string>, facts: fc.Arbitrary<string>): fc.Arbitrary<Step> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.array(facts, { minLength: 1, maxLength: 6 }).map((f): Step => ({ kind: 'add-facts', facts: f })) },
    { weight: 3, arbitrary: fc.array(fc.nat(999), { minLength: 1, maxLength: 4 }).map((picks): Step => ({ kind: 'delete-facts', picks })) },
    { weight: 2, arbitrary: rules.map((rule): Step => ({ kind: 'add-rule', rule })) },
    { weight: 1, arbitrary: fc.nat(20).map((i): Step => ({ kind: 'delete-rule', rule: String(i) })) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.array(facts, { maxLength: 4 }), fc.array(fc.nat(999), { maxLength: 4 }), fc.option(fc.nat(20), { freq: 2 }), fc.option(rules, { freq: 3 }))
        .map(([add, picks, deleteRule, addRule]): Step => ({ kind: 'commit-mixed', add, picks, deleteRule, addRule })),
    },
  );
}

const stepArb = stepsOf(ruleArb, factArb);

/** With equality on: no NOT or AGGREGATE (such rules are rejected), and owl:sameAs facts. */
const positiveRuleArb = ruleArb.filter((r) => !/NOT|AGGREGATE/.test(r));
const sameAsArb = fc.tuple(fc.constantFrom(...CONSTANTS), fc.constantFrom(...CONSTANTS)).map(([a, b]) => `[${a}, owl:sameAs, ${b}] .`);
const equalityFactArb = fc.oneof({ weight: 3, arbitrary: factArb }, { weight: 1, arbitrary: sameAsArb });
const equalityStepArb = stepsOf(positiveRuleArb, equalityFactArb);

/** Every fact of every table with its status. */
function dump(env: ReturnType<typeof useServer>, name: string): string[] {
  return factsWithStatus(env.server, name);
}

async function fresh(env: ReturnType<typeof useServer>, parameters: Record<string, string>): Promise<{ ds: DataStoreConnection; name: string }> {
  const name = env.uniqueName('prop');
  const ds = await env.newStore(name, undefined, parameters);
  await ds.createTupleTable('T', { arity: '2' });
  return { ds, name };
}

/** The facts named by indices into the current fact set. */
function pick(facts: ReadonlySet<string>, picks: readonly number[]): string[] {
  const all = [...facts];
  return all.length === 0 ? [] : [...new Set(picks.map((i) => all[i % all.length]!))];
}

async function check(env: ReturnType<typeof useServer>, parameters: Record<string, string>, steps: Step[]): Promise<void> {
  const { ds, name } = await fresh(env, parameters);
  const facts = new Set<string>();
  const rules: string[] = [];
  try {
    for (const step of steps) {
      if (step.kind === 'add-facts') {
        const r = await ds.importData('ADD', PREFIX + step.facts.join('\n'), DATALOG_TYPE);
        expect(r.errors, r.text).to.equal(0);
        step.facts.forEach((f) => facts.add(f));
      } else if (step.kind === 'delete-facts') {
        const gone = pick(facts, step.picks);
        if (gone.length === 0) continue;
        const r = await ds.importData('DELETE', PREFIX + gone.join('\n'), DATALOG_TYPE);
        expect(r.errors, r.text).to.equal(0);
        gone.forEach((f) => facts.delete(f));
      } else if (step.kind === 'add-rule') {
        const r = await ds.importData('ADD', PREFIX + step.rule, DATALOG_TYPE);
        expect(r.errors, `${r.text}\n${step.rule}`).to.equal(0);
        if (!rules.includes(step.rule)) rules.push(step.rule);
      } else if (step.kind === 'delete-rule') {
        if (rules.length === 0) continue;
        const rule = rules.splice(Number(step.rule) % rules.length, 1)[0]!;
        const r = await ds.importData('DELETE', PREFIX + rule, DATALOG_TYPE);
        expect(r.errors, r.text).to.equal(0);
      } else if (step.kind === 'commit-mixed') {
        // one transaction: maybe a rule out, maybe a rule in, facts in, facts out
        await ds.beginTransaction('read-write');
        if (step.deleteRule != null && rules.length > 0) {
          const rule = rules.splice(step.deleteRule % rules.length, 1)[0]!;
          const r = await ds.importData('DELETE', PREFIX + rule, DATALOG_TYPE);
          expect(r.errors, r.text).to.equal(0);
        }
        if (step.addRule != null) {
          const r = await ds.importData('ADD', PREFIX + step.addRule, DATALOG_TYPE);
          expect(r.errors, `${r.text}\n${step.addRule}`).to.equal(0);
          if (!rules.includes(step.addRule)) rules.push(step.addRule);
        }
        if (step.add.length > 0) await ds.importData('ADD', PREFIX + step.add.join('\n'), DATALOG_TYPE);
        const gone = pick(new Set([...facts, ...step.add]), step.picks);
        if (gone.length > 0) await ds.importData('DELETE', PREFIX + gone.join('\n'), DATALOG_TYPE);
        await ds.commitTransaction();
        step.add.forEach((f) => facts.add(f));
        gone.forEach((f) => facts.delete(f));
      }
      const oracle = await fresh(env, parameters);
      const r = await oracle.ds.importData('ADD', PREFIX + [...rules, ...facts].join('\n'), DATALOG_TYPE);
      expect(r.errors, r.text).to.equal(0);
      expect(dump(env, name), `after ${JSON.stringify(step)}\nrules:\n${rules.join('\n')}`).to.deep.equal(dump(env, oracle.name));
      oracle.ds.close();
      env.connection.deleteDataStore(oracle.name);
    }
  } finally {
    ds.close();
    env.connection.deleteDataStore(name);
  }
}

/** Counterexamples found earlier, run every time before the random cases. */
const REGRESSIONS: Array<[string[], string[], Step[]]> = [
  // one transaction removes the rule that derived an explicit fact and adds a fact from which
  // the fact is derived again through a fact derived in the same pass: with the levels merged,
  // the re-derivation found the fact still derived and forgot that it had been marked to lose
  // that status
  [
    ['[:a, :p0, :b] .', '[:a, :p2, :b] .'],
    ['[?x, :p2, ?y] :- [?x, :p0, ?y] .', '[?x, :p2, ?y] :- [?x, :p1, ?y] .', '[?x, :p1, ?y] :- T(?x, ?y) .'],
    [{ kind: 'commit-mixed', add: ['T(:a, :b) .'], picks: [], deleteRule: 0, addRule: null }],
  ],
  // FBF: the proof search inside an overdeletion left its row filter behind, so the rest of the
  // pivot's join ran on the wrong facts and missed a candidate (a fact kept its derived status)
  [
    [':C0[:a] .', '[:a, :p0, :a] .', '[:b, :p0, :a] .', '[:a, :p0, :c] .'],
    ['[?x, :p0, ?x] :- [?x, :p0, :a] .', '[?x, :p0, ?z] :- [:a, :p0, ?z], :C0[:a], [?x, :p0, ?x] .'],
    [{ kind: 'add-rule', rule: '[?x, :p0, ?x] :- [?x, :p0, ?x] .' }, { kind: 'delete-facts', picks: [0] }],
  ],
];

describe('datalog/maintenance: incremental equals from scratch', function () {
  this.timeout(120_000);
  const env = useServer('maintenance-property');
  const modes: Array<[string, Record<string, string>]> = [
    ['FBF, by levels', {}],
    ['DRed, by levels', { 'use-DRed': 'true' }],
    ['FBF, not by levels', { 'by-levels': 'false' }],
    ['DRed, not by levels', { 'use-DRed': 'true', 'by-levels': 'false' }],
  ];
  for (const [label, parameters] of modes) {
    it(`random programs and updates (${label})`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(factArb, { minLength: 8, maxLength: 20 }), fc.array(ruleArb, { minLength: 1, maxLength: 4 }), fc.array(stepArb, { minLength: 2, maxLength: 8 }), (facts, rules, steps) =>
          check(env, parameters, [{ kind: 'add-facts', facts }, ...rules.map((rule): Step => ({ kind: 'add-rule', rule })), ...steps]),
        ),
        { numRuns: 250, examples: REGRESSIONS },
      );
    });
  }
  const equalityModes: Array<[string, Record<string, string>]> = [
    ['equality noUNA, FBF', { equality: 'noUNA' }],
    ['equality noUNA, DRed', { equality: 'noUNA', 'use-DRed': 'true' }],
    ['equality UNA, FBF', { equality: 'UNA' }],
  ];
  for (const [label, parameters] of equalityModes) {
    it(`random programs and updates with owl:sameAs (${label})`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(equalityFactArb, { minLength: 6, maxLength: 14 }), fc.array(positiveRuleArb, { minLength: 1, maxLength: 3 }), fc.array(equalityStepArb, { minLength: 2, maxLength: 6 }), (facts, rules, steps) =>
          check(env, parameters, [{ kind: 'add-facts', facts }, ...rules.map((rule): Step => ({ kind: 'add-rule', rule })), ...steps]),
        ),
        { numRuns: 40 },
      );
    });
  }
});
