/**
 * The built-in tuple table SKOLEM in rules: the Employment example of RDFox's manual, the
 * same blank node for the same arguments (across transactions, stores and an export imported
 * again), incremental maintenance (SKOLEM behaves like a function of its inputs), BIND feeding
 * SKOLEM, unpacking, and the binding restriction, heads and negation refused.
 */
import { expect } from 'chai';
import { type DataStoreConnection, ImportError, ResourceInUseError } from '../../lib/index.js';
import { skolemLabel } from '../../lib/model/skolem.js';
import { factsWithStatus } from '../helpers/facts.js';
import { expectError, sortedLines, useServer } from '../helpers/server.js';

const EX = 'http://ex/';
const PREFIX = `@prefix : <${EX}> .\n`;
const DATALOG = { mediaType: 'application/x.datalog' } as const;
const XSD_DATE = 'http://www.w3.org/2001/XMLSchema#date';
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';

const EMPLOYMENT_RULES =
  ':Employment[?E], :employee[?E, ?P], :inCompany[?E, ?C] :- :worksFor[?P, ?C], SKOLEM("Employment", ?P, ?C, ?E) .\n' +
  `:startDate[?E, "2020-02-03"^^<${XSD_DATE}>] :- SKOLEM("Employment", :Peter, :Company1, ?E) .\n`;
const EMPLOYMENT_FACTS = ':worksFor[:Peter, :Company1] . :worksFor[:Peter, :Company2] . :worksFor[:Paul, :Company1] .\n';

/** The label SKOLEM gives the blank node of an employment. */
function employment(person: string, company: string): string {
  return skolemLabel(['"Employment"', `<${EX}${person}>`, `<${EX}${company}>`]);
}

/** Imports Datalog text (with the `:` prefix), asserting it has no errors. */
async function datalog(ds: DataStoreConnection, text: string, update: 'ADD' | 'DELETE' = 'ADD'): Promise<void> {
  const r = await ds.importData(update, PREFIX + text, DATALOG);
  expect(r.errors, r.text).to.equal(0);
}

/** The facts in a fact domain, as sorted N-Quads lines. */
async function facts(ds: DataStoreConnection, domain: 'explicit' | 'derived' | 'all' = 'all'): Promise<string[]> {
  return sortedLines(await ds.exportDataToString('application/n-quads', { 'fact-domain': domain }));
}

/** The message of the rule import that fails (it must fail). */
async function importError(ds: DataStoreConnection, text: string): Promise<string> {
  const e = await expectError(ds.importData('ADD', PREFIX + text, DATALOG), ImportError);
  return e.message;
}

describe('datalog/SKOLEM', function () {
  this.timeout(20_000);
  const env = useServer('datalog-skolem');

  describe('the Employment example of the manual', () => {
    it('invents one blank node per person and company, the same one in every rule', async () => {
      const ds = await env.newStore();
      await datalog(ds, EMPLOYMENT_FACTS + EMPLOYMENT_RULES);
      const e1 = employment('Peter', 'Company1');
      const e2 = employment('Peter', 'Company2');
      const e3 = employment('Paul', 'Company1');
      expect(new Set([e1, e2, e3]).size).to.equal(3);
      const line = (s: string, p: string, o: string): string => `_:${s} ${p} ${o} .`;
      expect(await facts(ds, 'derived')).to.deep.equal(
        sortedLines(
          [
            line(e1, `<${RDF_TYPE}>`, `<${EX}Employment>`),
            line(e1, `<${EX}employee>`, `<${EX}Peter>`),
            line(e1, `<${EX}inCompany>`, `<${EX}Company1>`),
            line(e1, `<${EX}startDate>`, `"2020-02-03"^^<${XSD_DATE}>`),
            line(e2, `<${RDF_TYPE}>`, `<${EX}Employment>`),
            line(e2, `<${EX}employee>`, `<${EX}Peter>`),
            line(e2, `<${EX}inCompany>`, `<${EX}Company2>`),
            line(e3, `<${RDF_TYPE}>`, `<${EX}Employment>`),
            line(e3, `<${EX}employee>`, `<${EX}Paul>`),
            line(e3, `<${EX}inCompany>`, `<${EX}Company1>`),
          ].join('\n'),
        ),
      );
    });

    it('the blank node is a SKOLEM label made from the arguments: another first argument gives another node', async () => {
      const ds = await env.newStore();
      await datalog(ds, EMPLOYMENT_FACTS + ':Contract[?E] :- :worksFor[?P, ?C], SKOLEM("Contract", ?P, ?C, ?E) .\n' + EMPLOYMENT_RULES);
      const contracts = (await facts(ds, 'derived')).filter((l) => l.endsWith(`<${EX}Contract> .`));
      expect(contracts).to.have.length(3);
      for (const c of contracts) expect(c).to.match(/^_:sk_[0-9a-f]{32} /);
      expect(contracts).to.include(`_:${skolemLabel(['"Contract"', `<${EX}Peter>`, `<${EX}Company1>`])} <${RDF_TYPE}> <${EX}Contract> .`);
      expect(contracts.join('\n')).not.to.contain(employment('Peter', 'Company1'));
    });

    it('SKOLEM with one argument is one fixed blank node (of no inputs)', async () => {
      const ds = await env.newStore();
      await datalog(ds, ':a[:x] .\n:root[?n] :- :a[?x], SKOLEM(?n) .');
      expect(await facts(ds, 'derived')).to.deep.equal([`_:${skolemLabel([])} <${RDF_TYPE}> <${EX}root> .`]);
    });
  });

  describe('determinism', () => {
    it('gives the same terms in later transactions, in other stores, and to SPARQL', async () => {
      const a = await env.newStore();
      await datalog(a, EMPLOYMENT_RULES);
      await datalog(a, ':worksFor[:Peter, :Company1] .');
      await datalog(a, ':worksFor[:Paul, :Company1] .');
      const b = await env.newStore();
      await datalog(b, ':worksFor[:Paul, :Company1] . :worksFor[:Peter, :Company1] .\n' + EMPLOYMENT_RULES);
      expect(await facts(a, 'derived')).to.have.length(7);
      expect(await facts(a, 'derived')).to.deep.equal(await facts(b, 'derived'));
      const answer = await a.evaluateQuery(`SELECT ?e WHERE { TT SKOLEM { "Employment" <${EX}Paul> <${EX}Company1> ?e } }`);
      expect(answer.type === 'bindings' && answer.rows.map((r) => r[0]?.value)).to.deep.equal([employment('Paul', 'Company1')]);
    });

    it('literal arguments are hashed in canonical N-Triples form (quotes, backslashes and line breaks escaped)', async () => {
      const ds = await env.newStore();
      await datalog(ds, ':note[:x, "two\\nlines \\"quoted\\" \\\\"] . :note[:y, "x"@EN] .\n:made[?e, ?t] :- :note[?x, ?t], SKOLEM(?t, ?e) .');
      const derived = await facts(ds, 'derived');
      expect(derived).to.include(`_:${skolemLabel(['"two\nlines "quoted" \\"'])} <${EX}made> "two\\nlines \\"quoted\\" \\\\" .`);
      expect(derived).to.include(`_:${skolemLabel(['"x"@en'])} <${EX}made> "x"@en .`);
    });
  });

  describe('incremental maintenance', () => {
    it('deleting the worksFor facts retracts the employments; adding them back gives the same blank nodes', async () => {
      const ds = await env.newStore();
      await datalog(ds, EMPLOYMENT_FACTS + EMPLOYMENT_RULES);
      const before = await facts(ds);
      await datalog(ds, ':worksFor[:Peter, :Company2] .', 'DELETE');
      const e2 = employment('Peter', 'Company2');
      const after = await facts(ds);
      expect(after.filter((l) => l.includes(e2))).to.deep.equal([]);
      expect(after.filter((l) => l.includes(employment('Peter', 'Company1')))).to.have.length(4);
      await datalog(ds, ':worksFor[:Peter, :Company1] . :worksFor[:Paul, :Company1] .', 'DELETE');
      // the start date's rule reads nothing but SKOLEM, whose facts never go
      expect(await facts(ds)).to.deep.equal([`_:${employment('Peter', 'Company1')} <${EX}startDate> "2020-02-03"^^<${XSD_DATE}> .`]);
      await datalog(ds, EMPLOYMENT_FACTS);
      expect(await facts(ds)).to.deep.equal(before);
    });

    it('keeps an employment derived another way, and follows changes inside one transaction', async () => {
      const ds = await env.newStore();
      await datalog(ds, EMPLOYMENT_FACTS + EMPLOYMENT_RULES + ':worksFor[?P, ?C] :- :contract[?P, ?C] .');
      await datalog(ds, ':contract[:Peter, :Company2] .');
      await datalog(ds, ':worksFor[:Peter, :Company2] .', 'DELETE');
      expect((await facts(ds, 'derived')).filter((l) => l.includes(employment('Peter', 'Company2')))).to.have.length(3);
      await ds.beginTransaction('read-write');
      await datalog(ds, ':contract[:Peter, :Company2] .', 'DELETE');
      await datalog(ds, ':worksFor[:Paul, :Company2] .');
      await ds.commitTransaction();
      const derived = await facts(ds, 'derived');
      expect(derived.filter((l) => l.includes(employment('Peter', 'Company2')))).to.deep.equal([]);
      expect(derived.filter((l) => l.includes(employment('Paul', 'Company2')))).to.have.length(3);
    });

    it('incremental results equal a from-scratch materialisation (with unpacking)', async () => {
      const rules = EMPLOYMENT_RULES + ':colleague[?P, ?Q] :- :Employment[?E], SKOLEM(?t, ?P, ?C, ?E), :worksFor[?Q, ?C] .\n';
      const ds = await env.newStore();
      await datalog(ds, rules + EMPLOYMENT_FACTS);
      await datalog(ds, ':worksFor[:Paul, :Company1] .', 'DELETE');
      await datalog(ds, ':worksFor[:Mary, :Company2] .');
      const scratch = await env.newStore();
      await datalog(scratch, rules + ':worksFor[:Peter, :Company1] . :worksFor[:Peter, :Company2] . :worksFor[:Mary, :Company2] .');
      expect(await facts(ds)).to.deep.equal(await facts(scratch));
      expect(await facts(ds, 'derived')).to.include(`<${EX}Mary> <${EX}colleague> <${EX}Peter> .`);
      await ds.recomputeMaterialization();
      expect(await facts(ds)).to.deep.equal(await facts(scratch));
    });
  });

  describe('BIND and SKOLEM', () => {
    it('a BIND computes a leading argument of SKOLEM (the program of the issue)', async () => {
      const ds = await env.newStore();
      await datalog(
        ds,
        ':temperature[:Bath, 20] . :temperature[:Bath, 23] .\n' +
          ':summary[?node], :place[?node, :Bath], :avgTemp[?node, ?avgTemp] :- ' +
          'AGGREGATE(:temperature[:Bath, ?t] BIND AVG(?t) AS ?avg), BIND(ROUND(?avg) AS ?avgTemp), SKOLEM("Bath Summary", ?avgTemp, ?node) .',
      );
      const node = skolemLabel(['"Bath Summary"', '"22.0"^^<http://www.w3.org/2001/XMLSchema#decimal>']);
      expect(await facts(ds, 'derived')).to.include(`_:${node} <${EX}place> <${EX}Bath> .`);
      await datalog(ds, ':temperature[:Bath, 23] .', 'DELETE');
      const derived = await facts(ds, 'derived');
      expect(derived.join('\n')).not.to.contain(node);
      expect(derived).to.include(`_:${skolemLabel(['"Bath Summary"', '"20.0"^^<http://www.w3.org/2001/XMLSchema#decimal>'])} <${EX}place> <${EX}Bath> .`);
    });

    it('a BIND and a SKOLEM atom may give the same variable: it is then a test', async () => {
      const ds = await env.newStore();
      await datalog(ds, ':p[:a, :b] .\n:same[?x] :- :p[?x, ?y], SKOLEM(?x, ?e), BIND(?e AS ?f), SKOLEM(?x, ?f) .');
      expect(await facts(ds, 'derived')).to.deep.equal([`<${EX}a> <${RDF_TYPE}> <${EX}same> .`]);
    });

    it('SKOLEM inside an AGGREGATE', async () => {
      const ds = await env.newStore();
      await datalog(ds, ':p[:a, :b] . :p[:a, :c] . :p[:d, :b] .\n[?x, :n, ?n] :- AGGREGATE(:p[?x, ?y], SKOLEM(?y, ?e) ON ?x BIND COUNT(DISTINCT ?e) AS ?n) .');
      const counts = (await facts(ds, 'derived')).map((l) => l.replace(/\^\^<[^>]*>/, ''));
      expect(counts).to.deep.equal([`<${EX}a> <${EX}n> "2" .`, `<${EX}d> <${EX}n> "1" .`]);
    });
  });

  describe('unpacking', () => {
    it('a bound last argument gives back the arguments SKOLEM made it from', async () => {
      const ds = await env.newStore();
      await datalog(ds, EMPLOYMENT_FACTS + EMPLOYMENT_RULES + ':kind[?E, ?t], :who[?E, ?P] :- :Employment[?E], SKOLEM(?t, ?P, ?C, ?E) .');
      const e3 = employment('Paul', 'Company1');
      const derived = await facts(ds, 'derived');
      expect(derived).to.include(`_:${e3} <${EX}kind> "Employment" .`);
      expect(derived).to.include(`_:${e3} <${EX}who> <${EX}Paul> .`);
    });

    it('a blank node SKOLEM did not make is not unpacked; with every argument bound it is checked', async () => {
      const ds = await env.newStore();
      const label = employment('Paul', 'Company1');
      await datalog(ds, `:Employment[_:${label}] . :Employment[_:other] .\n:who[?E, ?P] :- :Employment[?E], SKOLEM(?t, ?P, ?C, ?E) .\n` + ':checked[?E] :- :Employment[?E], SKOLEM("Employment", :Paul, :Company1, ?E) .');
      expect(await facts(ds, 'derived')).to.deep.equal([`_:${label} <${RDF_TYPE}> <${EX}checked> .`]);
    });

    it('a node SKOLEM did not make is checked against arguments the rest of the body binds, whatever the join order', async () => {
      const ds = await env.newStore();
      const label = employment('Paul', 'Company1');
      // the node arrives as data (as from another store's export); no rule here makes it
      await datalog(ds, `:Employment[_:${label}] . :Employment[_:other] . :worksFor[:Paul, :Company1] . :worksFor[:Peter, :Company1] .`);
      await datalog(ds, ':match[?E, ?P] :- :Employment[?E], :worksFor[?P, ?C], SKOLEM("Employment", ?P, ?C, ?E) .');
      await datalog(ds, ':match2[?E, ?P] :- :worksFor[?P, ?C], SKOLEM("Employment", ?P, ?C, ?E), :Employment[?E] .');
      expect(await facts(ds, 'derived')).to.deep.equal([`_:${label} <${EX}match2> <${EX}Paul> .`, `_:${label} <${EX}match> <${EX}Paul> .`]);
    });
  });

  describe('errors', () => {
    it('refuses a SKOLEM atom with neither its leading arguments nor its last one bound, naming the atom, its position and the argument', async () => {
      const ds = await env.newStore();
      const message = await importError(ds, ':x[?E] :- :p[?P, ?y], SKOLEM("Employment", ?P, ?C, ?E) .');
      expect(message).to.contain('line 2: column 23: SKOLEM("Employment", ?P, ?C, ?E): argument 3 (?C) is not bound');
      expect(message).to.contain('neither is the last argument (?E)');
      expect(await ds.exportDataToString('application/x.datalog')).not.to.contain(':-');
    });

    it('refuses SKOLEM atoms in heads and under NOT', async () => {
      const ds = await env.newStore();
      expect(await importError(ds, 'SKOLEM(?x, ?e) :- :p[?x, ?e] .')).to.contain('line 2: column 1: SKOLEM(?x, ?e): SKOLEM atoms are not allowed in rule heads');
      expect(await importError(ds, ':q[?x] :- :p[?x, ?e], NOT SKOLEM(?x, ?e) .')).to.contain('SKOLEM atoms cannot be negated');
    });

    it('a head variable only SKOLEM could bind, with SKOLEM unbound, is reported at the SKOLEM atom', async () => {
      const ds = await env.newStore();
      expect(await importError(ds, ':x[?E] :- SKOLEM(?P, ?E) .')).to.contain('SKOLEM(?P, ?E): argument 1 (?P) is not bound');
    });

    it('refuses facts of SKOLEM, naming the table', async () => {
      const ds = await env.newStore();
      const e = await expectError(ds.importData('ADD', PREFIX + 'SKOLEM("a", _:b) .', DATALOG), ImportError);
      expect(e.message).to.contain("tuple table 'SKOLEM' is built in");
      expect(e.message).to.contain('cannot be imported');
      const d = await expectError(ds.importData('DELETE', PREFIX + 'SKOLEM("a", _:b) .', DATALOG), ImportError);
      expect(d.message).to.contain('cannot be deleted');
    });

    it('SKOLEM can be deleted when no rule uses it, is then unknown to rules, and is created again with no parameters', async () => {
      const ds = await env.newStore();
      await datalog(ds, ':e[?e] :- :p[?x], SKOLEM(?x, ?e) .');
      await expectError(ds.deleteTupleTable('SKOLEM'), ResourceInUseError);
      await datalog(ds, ':e[?e] :- :p[?x], SKOLEM(?x, ?e) .', 'DELETE');
      await ds.deleteTupleTable('SKOLEM');
      expect(await importError(ds, ':e[?e] :- :p[?x], SKOLEM(?x, ?e) .')).to.contain("tuple table 'SKOLEM' does not exist");
      await ds.createTupleTable('SKOLEM', {});
      await datalog(ds, ':p[:a] .\n:e[?e] :- :p[?x], SKOLEM(?x, ?e) .');
      expect(await facts(ds, 'derived')).to.deep.equal([`_:${skolemLabel([`<${EX}a>`])} <${RDF_TYPE}> <${EX}e> .`]);
    });
  });

  describe('export and import again', () => {
    for (const [type, domain] of [
      ['application/n-quads', 'explicit'],
      ['text/turtle', 'all'],
      ['application/trig', 'all'],
      ['application/n-triples', 'explicit'],
    ] as const) {
      it(`a fresh store importing the ${domain} facts (${type}) and the rules meets the same SKOLEM terms`, async () => {
        const rules = EMPLOYMENT_RULES + ':who[?E, ?P] :- :Employment[?E], SKOLEM(?t, ?P, ?C, ?E) .\n';
        const a = await env.newStore();
        await datalog(a, rules + EMPLOYMENT_FACTS);
        const exportedFacts = await a.exportDataToString(type, { 'fact-domain': domain });
        const exportedRules = await a.exportDataToString('application/x.datalog');
        const b = await env.newStore();
        const r1 = await b.importData('ADD', exportedFacts, { mediaType: type });
        expect(r1.errors, r1.text).to.equal(0);
        const r2 = await b.importData('ADD', exportedRules, DATALOG);
        expect(r2.errors, r2.text).to.equal(0);
        expect(await facts(b)).to.deep.equal(await facts(a));
        if (domain === 'explicit') expect(factsWithStatus(env.server, b.dataStoreName)).to.deep.equal(factsWithStatus(env.server, a.dataStoreName));
        // the SKOLEM terms met again are the rules' own: nothing is derived twice
        const count = (lines: string[]): number => lines.filter((l) => l.includes(`<${EX}who>`)).length;
        expect(count(await facts(b))).to.equal(3);
      });
    }
  });
});
