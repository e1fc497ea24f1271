/**
 * Tuple tables in SPARQL: RDFox's `TT name { t1 … tn }` operator and the equivalent
 * `(t1 … tn) rdfox:TT "name"` form (also spelled out with rdf:first/rdf:rest), over the
 * built-in table SKOLEM (computing and unpacking its blank nodes, with the binding
 * restriction) and over in-memory tables (reading, INSERT DATA, DELETE WHERE), in queries and
 * in the WHERE clause of updates; errors worded against the text as written.
 */
import { expect } from 'chai';
import { BadRequestError, type DataStoreConnection, QueryCompilationError, type QueryAnswer } from '../../lib/index.js';
import { skolemLabel } from '../../lib/model/skolem.js';
import { tupleTableEdits } from '../../lib/sparql/tuple-table-syntax.js';
import { expectError, useServer } from '../helpers/server.js';

const EX = 'http://ex/';
const PROLOGUE = `PREFIX : <${EX}>\n`;

/** Rows sorted by their text. */
function sorted(list: string[][]): string[][] {
  return list.sort((a, b) => (a.join(' ') < b.join(' ') ? -1 : a.join(' ') > b.join(' ') ? 1 : 0));
}

/** The rows of a SELECT answer as lists of term values (blank nodes as `_:label`), sorted. */
function rows(answer: QueryAnswer): string[][] {
  if (answer.type !== 'bindings') throw new Error(`expected bindings, got ${answer.type}`);
  return sorted(answer.rows.map((r) => r.map((t) => (t === undefined ? '' : t.termType === 'BlankNode' ? `_:${t.value}` : t.value))));
}

async function select(ds: DataStoreConnection, query: string): Promise<string[][]> {
  return rows(await ds.evaluateQuery(PROLOGUE + query));
}

/** The SKOLEM blank node of an employment, as `_:label`. */
function employment(person: string, company: string): string {
  return `_:${skolemLabel(['"Employment"', `<${EX}${person}>`, `<${EX}${company}>`])}`;
}

describe('sparql/tuple tables (TT and rdfox:TT)', () => {
  const env = useServer('sparql-tuple-tables');
  let ds: DataStoreConnection;

  before(async () => {
    ds = await env.newStore();
    const r = await ds.importData('ADD', `@prefix : <${EX}> . :Peter :worksFor :Company1 , :Company2 . :Paul :worksFor :Company1 .`);
    expect(r.errors, r.text).to.equal(0);
  });

  describe('SKOLEM', () => {
    const expected = sorted([
      [`${EX}Paul`, `${EX}Company1`, employment('Paul', 'Company1')],
      [`${EX}Peter`, `${EX}Company1`, employment('Peter', 'Company1')],
      [`${EX}Peter`, `${EX}Company2`, employment('Peter', 'Company2')],
    ]);

    it('TT SKOLEM { … } gives the blank node of the leading arguments', async () => {
      expect(await select(ds, 'SELECT ?p ?c ?e WHERE { ?p :worksFor ?c . TT SKOLEM { "Employment" ?p ?c ?e } }')).to.deep.equal(expected);
      expect(await select(ds, 'SELECT ?e WHERE { TT SKOLEM { "Employment" :Paul :Company1 ?e } }')).to.deep.equal([[employment('Paul', 'Company1')]]);
    });

    it('(…) rdfox:TT "SKOLEM", in short and spelled-out collection form, and a lower-case tt, give the same answers', async () => {
      expect(await select(ds, 'SELECT ?p ?c ?e WHERE { ?p :worksFor ?c . ("Employment" ?p ?c ?e) rdfox:TT "SKOLEM" }')).to.deep.equal(expected);
      const spelledOut = 'SELECT ?p ?c ?e WHERE { ?p :worksFor ?c . _:b0 rdfox:TT "SKOLEM" . _:b0 rdf:first "Employment" ; rdf:rest _:b1 . _:b1 rdf:first ?p ; rdf:rest _:b2 . _:b2 rdf:first ?c ; rdf:rest _:b3 . _:b3 rdf:first ?e ; rdf:rest rdf:nil }';
      expect(await select(ds, spelledOut)).to.deep.equal(expected);
      expect(await select(ds, 'SELECT ?p ?c ?e WHERE { tt SKOLEM { "Employment" ?p ?c ?e } . ?p :worksFor ?c }')).to.deep.equal(expected);
    });

    it('checks a bound last argument, and unpacks a term made earlier in the query', async () => {
      const checked = 'SELECT ?p ?c WHERE { ?p :worksFor ?c . TT SKOLEM { "Employment" ?p ?c ?e } . TT SKOLEM { "Employment" :Paul :Company1 ?e } }';
      expect(await select(ds, checked)).to.deep.equal([[`${EX}Paul`, `${EX}Company1`]]);
      const unpacked = await select(ds, 'SELECT ?t ?p ?c WHERE { ?p0 :worksFor ?c0 . TT SKOLEM { "Employment" ?p0 ?c0 ?e } . TT SKOLEM { ?t ?p ?c ?e } }');
      expect(unpacked).to.deep.equal(sorted(expected.map(([p, c]) => ['Employment', p!, c!])));
      expect(await ds.evaluateQuery(PROLOGUE + 'ASK { TT SKOLEM { "Employment" :Paul :Company1 ?e } . TT SKOLEM { "Employment" :Paul :Company2 ?e } }')).to.deep.equal({ type: 'boolean', value: false });
      expect(await ds.evaluateQuery(PROLOGUE + 'ASK { TT SKOLEM { "Employment" :Paul :Company1 ?e } . TT SKOLEM { ?t :Paul ?c ?e } FILTER(?c = :Company1) }')).to.deep.equal({ type: 'boolean', value: true });
    });

    it('in the WHERE clause of INSERT; the terms it stores can then be unpacked', async () => {
      const store = await env.newStore();
      await store.importData('ADD', `@prefix : <${EX}> . :Peter :worksFor :Company1 . :Paul :worksFor :Company1 .`);
      await store.evaluateUpdate(PROLOGUE + 'INSERT { ?e a :Employment ; :employee ?p } WHERE { ?p :worksFor ?c . TT SKOLEM { "Employment" ?p ?c ?e } }');
      expect(await select(store, 'SELECT ?e ?p WHERE { ?e a :Employment ; :employee ?p }')).to.deep.equal(
        sorted([
          [employment('Paul', 'Company1'), `${EX}Paul`],
          [employment('Peter', 'Company1'), `${EX}Peter`],
        ]),
      );
      expect(await select(store, 'SELECT ?t ?p ?c WHERE { ?e a :Employment . TT SKOLEM { ?t ?p ?c ?e } }')).to.deep.equal([
        ['Employment', `${EX}Paul`, `${EX}Company1`],
        ['Employment', `${EX}Peter`, `${EX}Company1`],
      ]);
    });

    it('gives the terms rules give (and unpacks them)', async () => {
      const store = await env.newStore();
      await store.importData('ADD', `@prefix : <${EX}> .\n:worksFor[:Paul, :Company1] .\n:Employment[?E] :- :worksFor[?P, ?C], SKOLEM("Employment", ?P, ?C, ?E) .`, { mediaType: 'application/x.datalog' });
      expect(await select(store, 'SELECT ?e ?t ?p ?c WHERE { ?e a :Employment . TT SKOLEM { ?t ?p ?c ?e } }')).to.deep.equal([[employment('Paul', 'Company1'), 'Employment', `${EX}Paul`, `${EX}Company1`]]);
    });

    it('a term the store does not hold can be an argument; OPTIONAL and FILTER EXISTS work with tuple table atoms', async () => {
      const made = await select(ds, 'SELECT ?e WHERE { TT SKOLEM { "never stored" 42 ?e } }');
      expect(made).to.deep.equal([[`_:${skolemLabel(['"never stored"', '"42"^^<http://www.w3.org/2001/XMLSchema#integer>'])}`]]);
      expect(await select(ds, 'SELECT ?p ?e WHERE { ?p :worksFor :Company2 OPTIONAL { TT SKOLEM { "Employment" ?p :Company2 ?e } } }')).to.deep.equal([[`${EX}Peter`, employment('Peter', 'Company2')]]);
      expect(await select(ds, 'SELECT ?p WHERE { ?p :worksFor ?c FILTER EXISTS { TT SKOLEM { "Employment" ?p ?c ?e } } }')).to.have.length(3);
    });

    it('a node SKOLEM did not make is checked once the rest of the pattern binds the other arguments', async () => {
      const store = await env.newStore();
      const label = employment('Paul', 'Company1').slice(2);
      await store.importData('ADD', `@prefix : <${EX}> . _:${label} a :Employment . _:other a :Employment . :Paul :worksFor :Company1 .`);
      const query = 'SELECT ?p WHERE { ?e a :Employment . { ?p :worksFor ?c . TT SKOLEM { "Employment" ?p ?c ?e } } }';
      expect(await select(store, query)).to.deep.equal([[`${EX}Paul`]]);
      expect(await select(store, 'SELECT ?e WHERE { ?e a :Employment . TT SKOLEM { ?t ?p ?c ?e } }')).to.deep.equal([]);
    });

    it('inside GRAPH: tuple table atoms do not depend on the graph; GRAPH ?g gives one solution per named graph', async () => {
      const store = await env.newStore();
      await store.importData('ADD', `<${EX}a> <${EX}p> <${EX}b> <${EX}g1> .\n<${EX}a> <${EX}p> <${EX}b> <${EX}g2> .`, { mediaType: 'application/n-quads' });
      const node = `_:${skolemLabel([`<${EX}a>`])}`;
      expect(await select(store, 'SELECT ?g ?e WHERE { GRAPH ?g { TT SKOLEM { :a ?e } } }')).to.deep.equal([
        [`${EX}g1`, node],
        [`${EX}g2`, node],
      ]);
      expect(await select(store, 'SELECT ?g ?e WHERE { GRAPH ?g { ?x :p ?y . TT SKOLEM { ?x ?g ?e } } }')).to.deep.equal(
        sorted([
          [`${EX}g1`, `_:${skolemLabel([`<${EX}a>`, `<${EX}g1>`])}`],
          [`${EX}g2`, `_:${skolemLabel([`<${EX}a>`, `<${EX}g2>`])}`],
        ]),
      );
      expect(await select(ds, 'SELECT ?g ?e WHERE { GRAPH ?g { TT SKOLEM { :a ?e } } }')).to.deep.equal([]);
    });

    it('refuses a query where neither the leading arguments nor the last one can be bound (the planning error)', async () => {
      const e = await expectError(ds.evaluateQuery('SELECT ?P ?C ?E WHERE { TT SKOLEM { "Employment" ?P ?C ?E } }'), QueryCompilationError);
      expect(e.message).to.equal(
        'the tuple table atom TT SKOLEM { "Employment" ?P ?C ?E } cannot be evaluated: SKOLEM needs either all its arguments but the last bound (?P, ?C are not bound by the rest of the query) or its last argument ?E bound (to unpack it)',
      );
      // also when the rest of the pattern matches nothing
      await expectError(ds.evaluateQuery(PROLOGUE + 'SELECT * WHERE { ?p :none ?c . TT SKOLEM { ?p ?x ?e } }'), QueryCompilationError);
    });

    it('refuses to insert into SKOLEM, naming the table', async () => {
      const e = await expectError(ds.evaluateUpdate(PROLOGUE + 'INSERT DATA { TT SKOLEM { :a :b } }'), BadRequestError);
      expect(e.message).to.contain("tuple table 'SKOLEM' is built in");
      expect(e.message).to.contain('cannot be inserted');
    });
  });

  describe('in-memory tuple tables', () => {
    let store: DataStoreConnection;
    before(async () => {
      store = await env.newStore();
      await store.createTupleTable('Pairs', { arity: '2' });
    });

    it('INSERT DATA and INSERT … WHERE add facts, TT and rdfox:TT read them, DELETE (spelled-out form) removes them', async () => {
      await store.evaluateUpdate(PROLOGUE + 'INSERT DATA { TT Pairs { :a :b } . TT Pairs { :a :c } . :b :label "B" }');
      expect(await store.countFacts({ tupleTable: 'Pairs' })).to.equal(2);
      expect(await select(store, 'SELECT ?x ?y WHERE { TT Pairs { ?x ?y } }')).to.deep.equal([
        [`${EX}a`, `${EX}b`],
        [`${EX}a`, `${EX}c`],
      ]);
      expect(await select(store, 'SELECT ?y ?l WHERE { (:a ?y) rdfox:TT "Pairs" . ?y :label ?l }')).to.deep.equal([[`${EX}b`, 'B']]);
      await store.evaluateUpdate(PROLOGUE + 'INSERT { TT Pairs { ?y ?x } } WHERE { TT Pairs { ?x ?y } }');
      expect(await store.countFacts({ tupleTable: 'Pairs' })).to.equal(4);
      // SPARQL allows no blank nodes (so no collections) in DELETE templates: the list nodes are variables there
      await store.evaluateUpdate(PROLOGUE + 'DELETE { ?l rdfox:TT "Pairs" . ?l rdf:first :a ; rdf:rest ?m . ?m rdf:first ?y ; rdf:rest rdf:nil } WHERE { TT Pairs { :a ?y } }');
      expect(await select(store, 'SELECT ?x ?y WHERE { TT Pairs { ?x ?y } }')).to.deep.equal([
        [`${EX}b`, `${EX}a`],
        [`${EX}c`, `${EX}a`],
      ]);
    });

    it('checks names and arities', async () => {
      expect((await expectError(store.evaluateQuery('SELECT * WHERE { TT Missing { ?x } }'), QueryCompilationError)).message).to.equal("tuple table 'Missing' does not exist (in TT Missing { ?x })");
      expect((await expectError(store.evaluateQuery('SELECT * WHERE { TT Pairs { ?x } }'), QueryCompilationError)).message).to.equal("tuple table 'Pairs' takes 2 arguments, not 1 (in TT Pairs { ?x })");
      expect((await expectError(store.evaluateQuery('SELECT * WHERE { () rdfox:TT "SKOLEM" }'), QueryCompilationError)).message).to.contain("tuple table 'SKOLEM' takes at least 1 argument, not 0");
      expect((await expectError(store.evaluateQuery('SELECT * WHERE { (?x ?y) rdfox:TT ?t }'), QueryCompilationError)).message).to.contain('cannot stand for a tuple table name');
      expect((await expectError(store.evaluateQuery('SELECT * WHERE { <http://ex/l> rdfox:TT "Pairs" }'), QueryCompilationError)).message).to.contain('well-formed RDF collection');
    });
  });

  describe('the TT syntax', () => {
    it('is rewritten to the rdfox:TT form outside strings, comments, IRIs and names', () => {
      const text = 'SELECT * WHERE { ?TT <urn:TT> "TT X { }" . # TT Y { ?a }\n TT SKOLEM { ?a ?b } :x.TT ?y }';
      const edits = tupleTableEdits(text);
      expect(edits).to.have.length(2);
      let out = '';
      let at = 0;
      for (const e of edits) {
        out += text.slice(at, e.start) + e.replacement;
        at = e.end;
      }
      out += text.slice(at);
      expect(out).to.equal('SELECT * WHERE { ?TT <urn:TT> "TT X { }" . # TT Y { ?a }\n ( ?a ?b ) <https://rdfox.com/vocabulary#TT> "SKOLEM" :x.TT ?y }');
    });

    it('syntax errors inside TT point at the text as written', async () => {
      const e = await expectError(ds.evaluateQuery('SELECT * WHERE {\n  TT SKOLEM { "a" ?x . ?e }\n}'), QueryCompilationError);
      expect(e.message).to.equal("syntax error in the SPARQL query at line 2, column 22: unexpected '.'");
      const after = await expectError(ds.evaluateQuery('SELECT * WHERE { TT SKOLEM { "a" ?e } ?x ?y }'), QueryCompilationError);
      expect(after.message).to.match(/^syntax error in the SPARQL query at line 1, column (3[89]|4[0-2]): unexpected '\?x'$/);
      const update = await expectError(ds.evaluateUpdate('INSERT { ?e a ?t } WHERE { TT SKOLEM { "a" ?e }'), QueryCompilationError);
      expect(update.message).to.contain('syntax error in the SPARQL update');
    });
  });
});
