/**
 * Unit tests of the rule body evaluator (RuleEvaluator) on a bare fact store: FILTER and BIND
 * take only expression errors for the SPARQL error value (the body does not match) and let
 * every other error out, and NOW() has one value per evaluator (one
 * reasoning run), not one per process.
 */
import { expect } from 'chai';
import type { BodyLiteral } from '../../lib/datalog/ast.js';
import { RuleEvaluator } from '../../lib/datalog/evaluate.js';
import { compileProgram, type CompiledLiteral, type CompiledRule } from '../../lib/datalog/program.js';
import { type TermValue, TermValues } from '../../lib/datalog/term-values.js';
import { parseDatalog } from '../../lib/formats/datalog-parser.js';
import { InterruptedError } from '../../lib/model/errors.js';
import { DEFAULT_TRIPLES_ID, FactStore } from '../../lib/storage/fact-store.js';
import { EXPLICIT } from '../../lib/storage/tuple-table.js';

const PREFIXES = new Map([[':', 'http://ex/']]);

/** A store holding `:a :p "1"` and `:b :p "2"`. */
async function storeWithFacts(): Promise<FactStore> {
  const store = new FactStore();
  const tx = await store.beginWrite(1000);
  const id = (key: string): number => store.dictionary.intern(key);
  for (const [s, o] of [['a', '"1"'], ['b', '"2"']] as const) tx.table(DEFAULT_TRIPLES_ID).add([id(`<http://ex/${s}>`), id('<http://ex/p>'), id(o)], EXPLICIT, tx.version);
  store.commit(tx);
  return store;
}

/** Compiles one rule (Datalog text, `:` declared) for the store. */
function compile(store: FactStore, text: string): CompiledRule {
  const { document, errors } = parseDatalog(text, { prefixes: PREFIXES });
  expect(errors).to.deep.equal([]);
  const program = compileProgram([{ key: text, rule: document.rules[0]! }], store.committed.catalogue, store.dictionary);
  return program.rules[0]!;
}

/** The rule with the expression of its BIND replaced by NOW() (which the rule compiler refuses). */
function withNow(rule: CompiledRule): CompiledRule {
  const body = rule.body.map((l): CompiledLiteral => {
    if (l.kind !== 'bind') return l;
    const source = { ...l.source, expression: { type: 'expression', expressionType: 'operator', operator: 'now', args: [] } } as unknown as BodyLiteral & { kind: 'bind' };
    return { ...l, source };
  });
  return { ...rule, body };
}

/** Every value the evaluator gives slot `slot` of the rule's body matches. */
function valuesOf(evaluator: RuleEvaluator, terms: TermValues, rule: CompiledRule, slot: number): string[] {
  const out: string[] = [];
  evaluator.run(rule, new Int32Array(rule.slotCount).fill(-1), -1, (slots) => {
    out.push(slots[slot]! < 0 ? 'unbound' : terms.value(slots[slot]!).value);
  });
  return out.sort();
}

/** Term values whose decoding fails with `error` (as an interrupted or broken lookup would). */
class FailingTermValues extends TermValues {
  constructor(
    store: FactStore,
    private readonly error: Error,
  ) {
    super(store.dictionary);
  }

  override value(id: number): TermValue {
    void id;
    throw this.error;
  }
}

describe('datalog: RuleEvaluator', () => {
  describe('errors in FILTER and BIND', () => {
    it('an expression error fails the FILTER and the BIND (the body does not match)', async () => {
      const store = await storeWithFacts();
      const terms = new TermValues(store.dictionary);
      const evaluator = new RuleEvaluator(store.committed, terms);
      const filter = compile(store, '[?x, :q, ?y] :- [?x, :p, ?y], FILTER(?y / 0 > 0) .');
      expect(valuesOf(evaluator, terms, filter, filter.slotNames.indexOf('y'))).to.deep.equal([]);
      const bind = compile(store, '[?x, :q, ?z] :- [?x, :p, ?y], BIND(?y / 0 AS ?z) .');
      expect(valuesOf(evaluator, terms, bind, bind.slotNames.indexOf('z'))).to.deep.equal([]);
      const fine = compile(store, '[?x, :q, ?z] :- [?x, :p, ?y], BIND(STRLEN(?y) AS ?z) .');
      expect(valuesOf(evaluator, terms, fine, fine.slotNames.indexOf('z'))).to.deep.equal(['1', '1']);
    });

    it('any other error (an interruption) stops the evaluation of a FILTER', async () => {
      const store = await storeWithFacts();
      const terms = new FailingTermValues(store, new InterruptedError('interrupted'));
      const rule = compile(store, '[?x, :q, ?y] :- [?x, :p, ?y], FILTER(STRLEN(?y) > 0) .');
      expect(() => valuesOf(new RuleEvaluator(store.committed, terms), terms, rule, 0)).to.throw(InterruptedError);
    });

    it('any other error stops the evaluation of a BIND and of an AGGREGATE', async () => {
      const store = await storeWithFacts();
      const terms = new FailingTermValues(store, new RangeError('broken'));
      const bind = compile(store, '[?x, :q, ?z] :- [?x, :p, ?y], BIND(STRLEN(?y) AS ?z) .');
      expect(() => valuesOf(new RuleEvaluator(store.committed, terms), terms, bind, 0)).to.throw(RangeError, 'broken');
      const aggregate = compile(store, '[?x, :n, ?n] :- AGGREGATE([?x, :p, ?y] ON ?x BIND SUM(STRLEN(?y)) AS ?n) .');
      expect(() => valuesOf(new RuleEvaluator(store.committed, terms), terms, aggregate, 0)).to.throw(RangeError, 'broken');
    });
  });

  describe('NOW()', () => {
    it('is the time of the run: one value for every firing, taken when the run starts', async () => {
      const store = await storeWithFacts();
      const rule = withNow(compile(store, '[?x, :at, ?t] :- [?x, :p, ?y], BIND(STR(?y) AS ?t) .'));
      const slot = rule.slotNames.indexOf('t');
      // wait for the clock to move past now, so that a value taken before (at module load) is older
      const before = Date.now();
      while (Date.now() <= before);
      const terms = new TermValues(store.dictionary);
      const first = valuesOf(new RuleEvaluator(store.committed, terms), terms, rule, slot);
      expect(first).to.have.length(2);
      expect(first[0]).to.equal(first[1]);
      expect(Date.parse(first[0]!)).to.be.greaterThan(before);
      const second = valuesOf(new RuleEvaluator(store.committed, terms), terms, rule, slot);
      expect(Date.parse(second[0]!)).to.be.at.least(Date.parse(first[0]!));
    });

    it('can be given to the evaluator (the clock of the run)', async () => {
      const store = await storeWithFacts();
      const rule = withNow(compile(store, '[?x, :at, ?t] :- [?x, :p, ?y], BIND(STR(?y) AS ?t) .'));
      const terms = new TermValues(store.dictionary);
      const at = new Date('2020-02-29T12:00:00.000Z');
      const values = valuesOf(new RuleEvaluator(store.committed, terms, at), terms, rule, rule.slotNames.indexOf('t'));
      expect(values.map((v) => Date.parse(v))).to.deep.equal([at.getTime(), at.getTime()]);
    });
  });
});
