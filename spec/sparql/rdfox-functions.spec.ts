/**
 * RDFox's function library end to end: unprefixed names (`LOG`, `DAY_OF_THE_WEEK`, …) and the
 * XPath function IRIs in SPARQL queries and updates and in rule BIND/FILTER, through the public
 * API; errors leaving BIND variables unbound; wrong arities refused when the text is parsed;
 * and syntax errors in rewritten texts reported at their place in the text as written.
 */
import { expect } from 'chai';
import { type DataStoreConnection, QueryCompilationError } from '../../lib/index.js';
import { parseDatalog } from '../../lib/formats/datalog-parser.js';
import { importFailure } from '../helpers/imports.js';
import { ADMIN_ROLE, expectError, sortedLines, useServer } from '../helpers/server.js';

const EX = 'http://ex/';
const XSD = 'http://www.w3.org/2001/XMLSchema#';
const DATALOG = { mediaType: 'application/x.datalog' } as const;
const DATA = `@prefix : <${EX}> .
@prefix xsd: <${XSD}> .
:one :n 1 .
:two :n 2 .
:zero :n 0 .
:text :n "abc" .
:sun :date "2024-03-03"^^xsd:date .
:mon :date "2024-03-04"^^xsd:date .
:sat :date "2024-03-09T23:30:00-05:00"^^xsd:dateTime .
`;

/** The rows of a SELECT as arrays of N-Triples-like strings (`-` for unbound). */
async function select(ds: DataStoreConnection, query: string): Promise<string[][]> {
  const r = await ds.evaluateQuery(query);
  if (r.type !== 'bindings') throw new Error(`not a SELECT: ${r.type}`);
  return r.rows.map((row) =>
    row.map((t) => {
      if (t === undefined) return '-';
      if (t.termType === 'Literal') return t.datatype.value === `${XSD}string` ? `"${t.value}"` : `"${t.value}"^^${t.datatype.value.replace(XSD, 'xsd:')}`;
      return t.value.replace(EX, ':');
    }),
  );
}

/** The error messages of a Datalog text, with their positions. */
function datalogErrors(text: string): Array<[number, number, string]> {
  return parseDatalog(text, { prefixes: new Map([[':', EX]]) }).errors.map((e) => [e.line, e.column, e.message]);
}

describe('sparql: RDFox functions', function () {
  this.timeout(20_000);
  const env = useServer('rdfox-functions');

  async function store(): Promise<DataStoreConnection> {
    const ds = await env.newStore();
    await ds.setPrefix(':', EX);
    const r = await ds.importData('ADD', DATA);
    expect(r.errors, r.text).to.equal(0);
    return ds;
  }

  describe('in SPARQL queries', () => {
    it('AGENT() is the role evaluating the query', async () => {
      const ds = await store();
      expect(await select(ds, 'SELECT ?a WHERE { BIND(AGENT() AS ?a) }')).to.deep.equal([[`"${ADMIN_ROLE}"`]]);
    });

    it('calls unprefixed names and math: IRIs; an error leaves the BIND variable unbound', async () => {
      const ds = await store();
      const rows = await select(
        ds,
        `PREFIX math: <http://www.w3.org/2005/xpath-functions/math#>
         SELECT ?x ?f ?r ?m WHERE {
           ?x :n ?n
           BIND(LOG(1/?n) AS ?f)
           BIND(math:sqrt(?n) AS ?r)
           BIND(MAXFN(?n, 1) AS ?m)
         } ORDER BY ?x`,
      );
      expect(rows).to.deep.equal([
        [':one', '"0.0E0"^^xsd:double', '"1.0E0"^^xsd:double', '"1"^^xsd:integer'],
        [':text', '-', '-', '-'],
        [':two', '"-6.931471805599453E-1"^^xsd:double', '"1.4142135623730951E0"^^xsd:double', '"2"^^xsd:integer'],
        [':zero', '-', '"0.0E0"^^xsd:double', '"1"^^xsd:integer'],
      ]);
    });

    it('filters, orders and projects with them, in any case', async () => {
      const ds = await store();
      expect(await select(ds, 'SELECT ?x (day_of_the_week(?d) AS ?w) WHERE { ?x :date ?d FILTER(DAY_OF_THE_WEEK(?d) >= 6) } ORDER BY DESC(Time_On_Timeline(?d))')).to.deep.equal([
        [':sat', '"6"^^xsd:integer'],
        [':sun', '"7"^^xsd:integer'],
      ]);
      expect(await select(ds, 'SELECT (SUM(EXP2(?n)) AS ?s) WHERE { ?x :n ?n FILTER(ISINTEGER(?n)) }')).to.deep.equal([['"7.0E0"^^xsd:double']]);
      expect(await select(ds, 'SELECT (DATE_TIME(2024, 2, 29, 12, 0, 0, 60) AS ?t) (TO_TIMEZONE(?t, 0) AS ?u) WHERE {}')).to.deep.equal([
        ['"2024-02-29T12:00:00+01:00"^^xsd:dateTime', '"2024-02-29T11:00:00Z"^^xsd:dateTime'],
      ]);
    });

    it('leaves names inside strings, IRIs and prefixed names alone', async () => {
      const ds = await store();
      await ds.importData('ADD', `<${EX}a> <${EX}LOG(1)> "LOG(2)" .`);
      expect(await select(ds, 'SELECT ?o WHERE { ?s <http://ex/LOG(1)> ?o FILTER(?o = "LOG(2)") }')).to.deep.equal([['"LOG(2)"']]);
    });

    it('works in updates', async () => {
      const ds = await store();
      await ds.evaluateUpdate('INSERT { ?x :log10 ?l } WHERE { ?x :n ?n BIND(LOG10(?n * 10) AS ?l) }');
      expect(await select(ds, 'SELECT ?x ?l WHERE { ?x :log10 ?l } ORDER BY ?x')).to.deep.equal([
        [':one', '"1.0E0"^^xsd:double'],
        [':two', '"1.3010299956639813E0"^^xsd:double'],
        [':zero', '"-INF"^^xsd:double'],
      ]);
    });

    it('refuses a call with a wrong number of arguments when the query is parsed, at the call', async () => {
      const ds = await store();
      const e = await expectError(ds.evaluateQuery('SELECT (LOG(1, 2) AS ?x) WHERE {}'), QueryCompilationError);
      expect(e.message).to.equal('wrong number of arguments in the SPARQL query at line 1, column 9: LOG takes 1 argument, got 2');
      const u = await expectError(ds.evaluateUpdate('INSERT { :a :b ?x } WHERE {\n  BIND(MINFN() AS ?x)\n}'), QueryCompilationError);
      expect(u.message).to.equal('wrong number of arguments in the SPARQL update at line 2, column 8: MINFN takes at least 1 argument, got 0');
    });

    it('reports syntax errors at their place in the text as written, after a rewrite on the same line', async () => {
      const ds = await store();
      const query = 'SELECT * WHERE { ?x :n ?n BIND(SQRT(?n) ?n AS ?y) }';
      const e = await expectError(ds.evaluateQuery(query), QueryCompilationError);
      expect(e.message).to.equal(`syntax error in the SPARQL query at line 1, column ${query.indexOf('?n AS') + 1}: unexpected '?n'`);
      const named = 'SELECT * WHERE {\n  ?x :n ?n BIND(?n LOG(?n) AS ?y) }';
      const f = await expectError(ds.evaluateQuery(named), QueryCompilationError);
      expect(f.message).to.equal(`syntax error in the SPARQL query at line 2, column ${'  ?x :n ?n BIND(?n '.length + 1}: unexpected 'LOG'`);
    });

    it('still reports the unknown names sparqljs cannot read as they are', async () => {
      const ds = await store();
      const e = await expectError(ds.evaluateQuery('SELECT (POWER(2, 3) AS ?x) WHERE {}'), QueryCompilationError);
      expect(e.message).to.match(/^syntax error in the SPARQL query at line 1, column 9: unexpected 'POWER'$/);
    });
  });

  describe('in rules', () => {
    it('BIND(LOG(1/?n) AS ?f): derived where defined, no fact where the expression is an error', async () => {
      const ds = await store();
      const r = await ds.importData('ADD', `@prefix : <${EX}> .\n[?x, :f, ?f] :- [?x, :n, ?n], BIND(LOG(1/?n) AS ?f) .`, DATALOG);
      expect(r.errors, r.text).to.equal(0);
      expect(await select(ds, 'SELECT ?x ?f WHERE { ?x :f ?f } ORDER BY ?x')).to.deep.equal([
        [':one', '"0.0E0"^^xsd:double'],
        [':two', '"-6.931471805599453E-1"^^xsd:double'],
      ]);
    });

    it('FILTER with unprefixed names, and function IRIs through prefixes', async () => {
      const ds = await store();
      const rules = `@prefix : <${EX}> .
@prefix math: <http://www.w3.org/2005/xpath-functions/math#> .
@prefix fn: <http://www.w3.org/2005/xpath-functions#> .
[?x, a, :Weekend] :- [?x, :date, ?d], FILTER(DAY_OF_THE_WEEK(?d) IN (6, 7)) .
[?x, :root, ?r] :- [?x, :n, ?n], FILTER(ISINTEGER(?n) && ?n > 0), BIND(math:pow(?n, 0.5) AS ?r) .
[?x, :year, ?y] :- [?x, :date, ?d], BIND(fn:year-from-date(?d) AS ?y) .
[?x, :span, ?s] :- [?x, :date, ?d], BIND(DAY_TIME_DURATION(DAY_OF_THE_WEEK(?d), 0, 0, 0) AS ?s) .`;
      const r = await ds.importData('ADD', rules, DATALOG);
      expect(r.errors, r.text).to.equal(0);
      const facts = sortedLines(await ds.exportDataToString('application/n-triples', { 'fact-domain': 'derived' }));
      expect(facts).to.deep.equal(
        [
          `<${EX}mon> <${EX}span> "P1D"^^<${XSD}dayTimeDuration> .`,
          `<${EX}mon> <${EX}year> "2024"^^<${XSD}integer> .`,
          `<${EX}one> <${EX}root> "1.0E0"^^<${XSD}double> .`,
          `<${EX}sat> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <${EX}Weekend> .`,
          `<${EX}sat> <${EX}span> "P6D"^^<${XSD}dayTimeDuration> .`,
          `<${EX}sat> <${EX}year> "2024"^^<${XSD}integer> .`,
          `<${EX}sun> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <${EX}Weekend> .`,
          `<${EX}sun> <${EX}span> "P7D"^^<${XSD}dayTimeDuration> .`,
          `<${EX}sun> <${EX}year> "2024"^^<${XSD}integer> .`,
          `<${EX}two> <${EX}root> "1.4142135623730951E0"^^<${XSD}double> .`,
        ].sort(),
      );
    });

    it('refuses a wrong number of arguments when the rule is parsed, at the name', async () => {
      const ds = await store();
      const line = '[?x, :f, ?f] :- [?x, :n, ?n], BIND(LOG(?n, 2) AS ?f) .';
      const r = await importFailure(ds.importData('ADD', `@prefix : <${EX}> .\n${line}`, DATALOG));
      const error = r.rows.find((row) => row.type === 'error')!;
      expect([error.line, error.column, error.description]).to.deep.equal([2, line.indexOf('LOG') + 1, 'invalid expression in BIND: LOG takes 1 argument, got 2']);
    });

    it('reports syntax errors in rewritten expressions at their place in the rule as written', () => {
      const bind = '[?x, :f, ?f] :- [?x, :n, ?n], BIND(LOG(?n) ?n AS ?f) .';
      expect(datalogErrors(bind)).to.deep.equal([[1, bind.indexOf('?n AS') + 1, "invalid expression in BIND: unexpected '?n'"]]);
      const named = '[?x, :f, ?f] :- [?x, :n, ?n],\n  FILTER(?n SQRT(?n)) .';
      expect(datalogErrors(named)).to.deep.equal([[2, '  FILTER(?n '.length + 1, "invalid expression in FILTER: unexpected 'SQRT'"]]);
      const incomplete = '[?x, :f, ?f] :- [?x, :n, ?n], BIND(LOG(?n) + AS ?f) .';
      expect(datalogErrors(incomplete)[0]![2]).to.equal('invalid expression in BIND: the expression is incomplete');
    });

    it('parses the expression of the issue, which was refused before', () => {
      expect(datalogErrors('[?x, :f, ?f] :- [?x, :n, ?n], BIND(LOG(1/?n) AS ?f) .')).to.deep.equal([]);
    });
  });
});
