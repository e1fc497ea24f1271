import { expect } from 'chai';
import type * as RDF from '@rdfjs/types';
import { BadRequestError, DataFactory, type DataStoreConnection } from '../../lib/index.js';
import { expectError, useServer } from '../helpers/server.js';

const namedNode = (iri: string): RDF.NamedNode => DataFactory.namedNode(iri);
const literal = (text: string): RDF.Literal => DataFactory.literal(text);
const variable = (name: string): RDF.Variable | undefined => DataFactory.variable?.(name);
const EX = 'http://example.com/';
const ex = (local: string): RDF.NamedNode => namedNode(`${EX}${local}`);

const DATA = `
@prefix : <${EX}> .
:ann :name "Ann" ; :knows :bob , _:c .
:bob :name "Bob" ; :knows :ann .
_:c :name "Cy" .
GRAPH :g1 { :ann :likes :tea }
GRAPH :g2 { :bob :likes :coffee }
`;

/** The values of an answer, as strings, row by row. */
async function rows(ds: DataStoreConnection, query: string, bindings?: Record<string, RDF.Term>): Promise<string[][]> {
  const answer = await ds.evaluateQuery(query, bindings ? { bindings } : {});
  if (answer.type !== 'bindings') throw new Error('expected bindings');
  return answer.rows.map((row) => row.map((t) => t?.value ?? '-')).sort((a, b) => a.join().localeCompare(b.join()));
}

describe('sparql: bound parameters', () => {
  const env = useServer('bound-parameters');
  let ds: DataStoreConnection;

  before(async () => {
    ds = await env.newStore();
    await ds.setPrefix(':', EX);
    await ds.importData('ADD', DATA);
  });

  it('puts a value in as a term wherever its variable occurs, and keeps a projected variable as a column', async () => {
    expect(await rows(ds, 'SELECT ?who ?name WHERE { ?who :name ?name }', { who: ex('ann') })).to.deep.equal([[`${EX}ann`, 'Ann']]);
    expect(await rows(ds, 'SELECT * WHERE { ?who :knows ?x . ?x :name ?n }', { who: ex('bob') })).to.deep.equal([[`${EX}bob`, `${EX}ann`, 'Ann']]);
    // in a FILTER, and with a name written with its sigil
    expect(await rows(ds, 'SELECT ?n WHERE { ?p :name ?n FILTER(?n != ?skip) }', { $skip: literal('Bob') })).to.deep.equal([['Ann'], ['Cy']]);
    // as a GRAPH name
    expect(await rows(ds, 'SELECT ?s ?o WHERE { GRAPH ?g { ?s :likes ?o } }', { g: ex('g2') })).to.deep.equal([[`${EX}bob`, `${EX}coffee`]]);
    // in a subquery that projects it, and under OPTIONAL
    expect(await rows(ds, 'SELECT ?who ?n WHERE { { SELECT DISTINCT ?who WHERE { ?who :knows ?x } } OPTIONAL { ?who :name ?n } }', { who: ex('ann') })).to.deep.equal([[`${EX}ann`, 'Ann']]);
  });

  it('leaves the query text itself unchanged for the next call without values', async () => {
    const text = 'SELECT ?who WHERE { ?who :name ?n }';
    expect(await rows(ds, text, { who: ex('bob') })).to.have.length(1);
    expect(await rows(ds, text)).to.have.length(3);
  });

  it('takes a value that would break out of the text as nothing but a literal', async () => {
    const hostile = literal('x" } ; DROP ALL ; INSERT DATA { <http://evil/> <http://evil/> "');
    expect(await rows(ds, 'SELECT ?p WHERE { ?p :name ?n }', { n: hostile })).to.deep.equal([]);
    await ds.evaluateUpdate('INSERT { ?p :note ?text } WHERE { ?p :name "Ann" }', { bindings: { text: hostile } });
    expect(await rows(ds, 'SELECT ?t WHERE { :ann :note ?t }')).to.deep.equal([[hostile.value]]);
    expect(await rows(ds, 'SELECT ?s WHERE { ?s ?p ?o FILTER(STRSTARTS(STR(?s), "http://evil")) }')).to.deep.equal([]);
    await ds.evaluateUpdate('DELETE WHERE { :ann :note ?t }');
  });

  it('answers ASK and CONSTRUCT with the values in place', async () => {
    expect(await ds.evaluateQuery('ASK { ?a :knows ?b }', { bindings: { a: ex('bob'), b: ex('ann') } })).to.deep.include({ type: 'boolean', value: true });
    expect(await ds.evaluateQuery('ASK { ?a :knows ?b }', { bindings: { a: ex('bob'), b: ex('bob') } })).to.deep.include({ type: 'boolean', value: false });
    const graph = await ds.evaluateQuery('CONSTRUCT { ?a :friendOf ?b } WHERE { ?a :knows ?b }', { bindings: { a: ex('bob') } });
    expect(graph.type === 'quads' && graph.quads.map((q) => [q.subject.value, q.object.value])).to.deep.equal([[`${EX}bob`, `${EX}ann`]]);
  });

  it('finds a blank node handed back from an earlier answer', async () => {
    const first = await ds.evaluateQuery('SELECT ?c WHERE { ?c :name "Cy" }');
    const c = first.type === 'bindings' ? first.rows[0]![0]! : undefined;
    expect(c?.termType).to.equal('BlankNode');
    expect(await rows(ds, 'SELECT ?who WHERE { ?who :knows ?c }', { c: c as RDF.BlankNode })).to.deep.equal([[`${EX}ann`]]);
  });

  it('refuses a name the query does not use, a variable the query binds itself, and values that are not terms of a graph', async () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['SELECT ?n WHERE { ?p :name ?n }', { persn: ex('ann') }, 'bound parameter ?persn does not occur in the query'],
      ['SELECT ?x WHERE { BIND(:ann AS ?x) }', { x: ex('bob') }, 'bound parameter ?x is given a value by the query itself (BIND'],
      ['SELECT ?x WHERE { VALUES ?x { :ann } }', { x: ex('bob') }, 'bound parameter ?x is given a value by the query itself (VALUES)'],
      ['SELECT (COUNT(*) AS ?c) WHERE { ?s ?p ?o }', { c: literal('1') }, 'bound parameter ?c is given a value by the query itself'],
      ['SELECT ?n WHERE { ?p :name ?n }', { n: variable('m') }, 'the value of bound parameter ?n must be an RDF/JS named node, blank node or literal (found a Variable)'],
      ['SELECT ?n WHERE { ?p :name ?n }', { n: 'Ann' }, 'the value of bound parameter ?n must be an RDF/JS named node'],
      ['SELECT ?n WHERE { ?p :name ?n }', { 'n }': literal('x') }, "invalid bound parameter name 'n }'"],
    ];
    for (const [query, bindings, message] of cases) {
      const e = await expectError(ds.evaluateQuery(query, { bindings: bindings as Record<string, RDF.Literal> }), BadRequestError);
      expect(e.message, query).to.include(message);
    }
    const e = await expectError(ds.evaluateUpdate('INSERT DATA { :a :b :c }', { bindings: { x: ex('a') } }), BadRequestError);
    expect(e.message).to.include('bound parameter ?x does not occur');
  });
});
