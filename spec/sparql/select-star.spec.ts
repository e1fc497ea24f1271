/**
 * The columns of `SELECT *` are the variables in scope in the order they first appear in the
 * query (as Jena, RDF4J and Comunica give them), not sorted by name: in the API's answers, in
 * cursors, in the heads of the JSON and XML answer formats and in the CSV and TSV header lines.
 */
import { expect } from 'chai';
import type { DataStoreConnection } from '../../lib/index.js';
import { firstAppearances } from '../../lib/sparql/select-star.js';
import { useServer } from '../helpers/server.js';

const EX = 'http://ex/';

describe('sparql: the columns of SELECT *', function () {
  this.timeout(60_000);
  const env = useServer('sparql-select-star');

  async function store(): Promise<DataStoreConnection> {
    const ds = await env.newStore();
    await ds.importData('ADD', `<${EX}s> <${EX}p> <${EX}o> . <${EX}o> <${EX}q> "v" .`);
    return ds;
  }

  async function columns(ds: DataStoreConnection, query: string): Promise<string[]> {
    const a = await ds.evaluateQuery(query);
    if (a.type !== 'bindings') return expect.fail('expected bindings');
    return [...a.variables];
  }

  async function formatted(ds: DataStoreConnection, query: string, mediaType: string): Promise<string> {
    let out = '';
    await ds.evaluateQueryTo(query, mediaType, (chunk) => void (out += chunk));
    return out;
  }

  it('orders the variables by their first appearance in the WHERE clause', async () => {
    const ds = await store();
    expect(await columns(ds, `SELECT * WHERE { ?zebra <${EX}p> ?apple . ?apple <${EX}q> ?mango }`)).to.deep.equal(['zebra', 'apple', 'mango']);
    // a blank node's property list, OPTIONAL, BIND, VALUES, GRAPH, and `$` variables
    expect(await columns(ds, `SELECT * WHERE { ?z <${EX}p> [ <${EX}q> ?m ] }`)).to.deep.equal(['z', 'm']);
    expect(await columns(ds, 'SELECT * WHERE { ?z ?y ?x OPTIONAL { ?x ?b ?a } BIND(1 AS ?c) }')).to.deep.equal(['z', 'y', 'x', 'b', 'a', 'c']);
    expect(await columns(ds, 'SELECT * WHERE { VALUES ($v2 ?v1) { (1 2) } }')).to.deep.equal(['v2', 'v1']);
    expect(await columns(ds, 'SELECT * WHERE { GRAPH ?g { ?s ?p ?o } }')).to.deep.equal(['g', 's', 'p', 'o']);
    // a subquery's columns come in the order of its SELECT clause
    expect(await columns(ds, 'SELECT * WHERE { { SELECT ?b ?a WHERE { ?a ?p ?b } } }')).to.deep.equal(['b', 'a']);
    // only variables in scope: not those of FILTER, MINUS or an unprojected subquery variable
    expect(await columns(ds, 'SELECT * WHERE { ?y ?x ?w FILTER(?f != 1) MINUS { ?w ?m ?n } { SELECT ?v WHERE { ?v ?u ?t } } }')).to.deep.equal(['y', 'x', 'w', 'v']);
    // DISTINCT, ORDER BY and LIMIT keep them
    expect(await columns(ds, 'SELECT DISTINCT * WHERE { ?z ?y ?x } ORDER BY ?x LIMIT 1')).to.deep.equal(['z', 'y', 'x']);
  });

  it('the answer formats and cursors follow the same order', async () => {
    const ds = await store();
    const q = `SELECT * WHERE { ?zebra <${EX}p> ?apple . ?apple <${EX}q> ?mango }`;
    const json = JSON.parse(await formatted(ds, q, 'application/sparql-results+json')) as { head: { vars: string[] } };
    expect(json.head.vars).to.deep.equal(['zebra', 'apple', 'mango']);
    expect((await formatted(ds, q, 'text/csv')).split(/\r?\n/)[0]).to.equal('zebra,apple,mango');
    expect((await formatted(ds, q, 'text/tab-separated-values')).split('\n')[0]).to.equal('?zebra\t?apple\t?mango');
    const xml = await formatted(ds, q, 'application/sparql-results+xml');
    expect([...xml.matchAll(/<variable name="([^"]+)"/g)].map((m) => m[1])).to.deep.equal(['zebra', 'apple', 'mango']);
    await using cursor = ds.createCursor(q);
    const page = await cursor.open();
    expect(page.variables).to.deep.equal(['zebra', 'apple', 'mango']);
    expect(page.rows).to.have.length(1);
  });

  it('finds variables outside strings, IRIs and comments only', () => {
    const text = 'SELECT * # ?comment\n WHERE { ?b <http://x/?iri> "?string" . $a ?b ?c }';
    expect([...firstAppearances(text).keys()]).to.deep.equal(['b', 'a', 'c']);
  });
});
