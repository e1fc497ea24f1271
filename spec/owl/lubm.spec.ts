/**
 * The Univ-Bench ontology of LUBM (test-data/lubm): what its translation contains, the
 * warnings (exactly its two superclass existentials), and the end-to-end check: with its rules
 * and LUBM(1) loaded, the 14 LUBM queries give the reference answer counts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { Parser } from 'n3';
import type { DataStoreConnection } from '../../lib/index.js';
import { type AxiomTranslation, translateAxioms } from '../../lib/owl/index.js';
import { useServer } from '../helpers/server.js';
import { datalogOf, ruleLines } from './helpers.js';
import { LUBM_DIR } from '../helpers/test-data.js';

const LUBM = LUBM_DIR;
const UB = 'http://swat.cse.lehigh.edu/onto/univ-bench.owl#';

/** IRIs `<…univ-bench.owl#x>` written `ub:x`. */
function ub(text: string): string {
  return text.replace(/<http:\/\/swat\.cse\.lehigh\.edu\/onto\/univ-bench\.owl#([^>]*)>/g, 'ub:$1');
}

/** Axiom key (short) → rule lines with the `ub:` prefix. */
function rulesByKey(t: AxiomTranslation): Map<string, string[]> {
  return new Map(t.axioms.map((a) => [ub(a.key), ruleLines(a.rules, new Map([['ub:', UB]]))]));
}

/** The expected answer counts: query → [file, with reasoning, without reasoning]. */
function expectedCounts(): Array<{ query: string; file: string; withReasoning: number; withoutReasoning: number }> {
  const lines = readFileSync(join(LUBM, 'answers-lubm1.tsv'), 'utf8').trim().split('\n').slice(1);
  return lines.map((line) => {
    const [query, file, withReasoning, withoutReasoning] = line.split('\t') as [string, string, string, string];
    return { query, file, withReasoning: Number(withReasoning), withoutReasoning: Number(withoutReasoning) };
  });
}

/** The number of answers of a query file. */
async function count(ds: DataStoreConnection, file: string): Promise<number> {
  const answer = await ds.evaluateQuery(readFileSync(join(LUBM, file), 'utf8'));
  if (answer.type !== 'bindings') throw new Error(`${file}: expected a SELECT query`);
  return answer.rows.length;
}

describe('owl/lubm', function () {
  this.timeout(60_000);
  let translation: AxiomTranslation;

  before(() => {
    const quads = new Parser().parse(readFileSync(join(LUBM, 'univ-bench.ttl'), 'utf8'));
    translation = translateAxioms(quads, { assertions: true });
  });

  describe('translation of univ-bench.ttl', () => {
    it('finds the kinds of axioms the ontology uses', () => {
      const kinds = new Map<string, number>();
      for (const a of translation.axioms) {
        const kind = a.key.slice(0, a.key.indexOf('('));
        kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
      }
      expect(Object.fromEntries(kinds)).to.deep.equal({
        DataPropertyDomain: 4,
        EquivalentClasses: 6,
        InverseObjectProperties: 2,
        ObjectPropertyDomain: 21,
        ObjectPropertyRange: 18,
        SubClassOf: 36,
        SubObjectPropertyOf: 5,
        TransitiveObjectProperty: 1,
      });
      expect(translation.assertions).to.deep.equal([]);
    });

    it('compiles subclass, subproperty, inverse, transitivity, domain and range to the expected rules', () => {
      const rules = rulesByKey(translation);
      const show = (key: string): string[] | undefined => rules.get(key);
      expect(show('SubClassOf(ub:UndergraduateStudent ub:Student)')).to.deep.equal(['[?x, a, ub:Student] :- [?x, a, ub:UndergraduateStudent] .']);
      expect(show('SubObjectPropertyOf(ub:headOf ub:worksFor)')).to.deep.equal(['[?x, ub:worksFor, ?y] :- [?x, ub:headOf, ?y] .']);
      expect(show('InverseObjectProperties(ub:degreeFrom ub:hasAlumnus)')).to.deep.equal([
        '[?y, ub:hasAlumnus, ?x] :- [?x, ub:degreeFrom, ?y] .',
        '[?y, ub:degreeFrom, ?x] :- [?x, ub:hasAlumnus, ?y] .',
      ]);
      expect(show('TransitiveObjectProperty(ub:subOrganizationOf)')).to.deep.equal([
        '[?x, ub:subOrganizationOf, ?z] :- [?x, ub:subOrganizationOf, ?y], [?y, ub:subOrganizationOf, ?z] .',
      ]);
      expect(show('ObjectPropertyRange(ub:advisor ub:Professor)')).to.deep.equal(['[?y, a, ub:Professor] :- [?x, ub:advisor, ?y] .']);
      expect(show('DataPropertyDomain(ub:emailAddress ub:Person)')).to.deep.equal(['[?x, a, ub:Person] :- [?x, ub:emailAddress, ?y] .']);
    });

    it('compiles the intersection + someValuesFrom definitions in both directions', () => {
      const rules = rulesByKey(translation);
      expect(rules.get('EquivalentClasses(ub:Student ObjectIntersectionOf(ub:Person ObjectSomeValuesFrom(ub:takesCourse ub:Course)))')).to.deep.equal([
        '[?x, a, ub:Person] :- [?x, a, ub:Student] .',
        '[?x, a, ub:Student] :- [?x, a, ub:Person], [?x, ub:takesCourse, ?y1], [?y1, a, ub:Course] .',
      ]);
      expect(rules.get('EquivalentClasses(ub:Chair ObjectIntersectionOf(ub:Person ObjectSomeValuesFrom(ub:headOf ub:Department)))')).to.deep.equal([
        '[?x, a, ub:Person] :- [?x, a, ub:Chair] .',
        '[?x, a, ub:Chair] :- [?x, a, ub:Person], [?x, ub:headOf, ?y1], [?y1, a, ub:Department] .',
      ]);
      // Dean's intersection has a single operand
      expect(rules.get('EquivalentClasses(ub:Dean ObjectIntersectionOf(ObjectSomeValuesFrom(ub:headOf ub:College)))')).to.deep.equal([
        '[?x, a, ub:Dean] :- [?x, ub:headOf, ?y1], [?y1, a, ub:College] .',
      ]);
      const defined = [...rules.keys()].filter((k) => k.startsWith('EquivalentClasses(')).map((k) => k.slice('EquivalentClasses('.length, k.indexOf(' ')));
      expect(defined).to.deep.equal(['ub:Chair', 'ub:Dean', 'ub:Director', 'ub:Employee', 'ub:Student', 'ub:TeachingAssistant']);
    });

    it('warns exactly about the two superclass existentials, whose axioms have no rules', () => {
      expect(translation.warnings.map(ub)).to.deep.equal([
        'SubClassOf(ub:GraduateStudent ObjectSomeValuesFrom(ub:takesCourse ub:GraduateCourse)): ObjectSomeValuesFrom(ub:takesCourse ub:GraduateCourse) (existential quantification) cannot be a superclass expression in OWL 2 RL; dropped',
        'SubClassOf(ub:ResearchAssistant ObjectSomeValuesFrom(ub:worksFor ub:ResearchGroup)): ObjectSomeValuesFrom(ub:worksFor ub:ResearchGroup) (existential quantification) cannot be a superclass expression in OWL 2 RL; dropped',
      ]);
      const empty = translation.axioms.filter((a) => a.rules.length === 0).map((a) => ub(a.key));
      expect(empty).to.deep.equal([
        'SubClassOf(ub:GraduateStudent ObjectSomeValuesFrom(ub:takesCourse ub:GraduateCourse))',
        'SubClassOf(ub:ResearchAssistant ObjectSomeValuesFrom(ub:worksFor ub:ResearchGroup))',
      ]);
    });
  });

  describe('LUBM(1) end to end', () => {
    const env = useServer('owl-lubm');
    const expected = expectedCounts();

    it('answers the 14 queries with the reference counts, with the rules of univ-bench.ttl', async () => {
      const started = Date.now();
      const ds = await env.newStore();
      const rules = await ds.importData('ADD', datalogOf(translation), { mediaType: 'application/x.datalog' });
      expect(rules.errors, rules.text).to.equal(0);
      expect(rules.processedRules).to.equal(translation.axioms.reduce((n, a) => n + a.rules.length, 0));
      const data = await ds.importData('ADD', { path: join(LUBM, 'lubm1.nt.gz') });
      expect(data.errors, data.text).to.equal(0);
      expect(data.processedFacts).to.equal(100_543);
      const loaded = Date.now();
      const counts: Record<string, number> = {};
      for (const q of expected) counts[q.query] = await count(ds, q.file);
      expect(counts).to.deep.equal(Object.fromEntries(expected.map((q) => [q.query, q.withReasoning])));
      const done = Date.now();
      expect(done - started, 'LUBM(1) load, materialisation and queries').to.be.below(30_000);
      // (timing, for the record)
      console.log(`      LUBM(1): load + materialisation ${loaded - started} ms, 14 queries ${done - loaded} ms`);
    });

    it('without the rules, the same queries give the counts without reasoning', async () => {
      const ds = await env.newStore();
      const data = await ds.importData('ADD', { path: join(LUBM, 'lubm1.nt.gz') });
      expect(data.errors, data.text).to.equal(0);
      const counts: Record<string, number> = {};
      for (const q of expected) counts[q.query] = await count(ds, q.file);
      expect(counts).to.deep.equal(Object.fromEntries(expected.map((q) => [q.query, q.withoutReasoning])));
    });
  });
});
