/**
 * A real SPARQL client from npm (fetch-sparql-endpoint) against /datastores/<ds>/sparql:
 * SELECT, ASK, CONSTRUCT and an update, over GET, form POST and direct POST.
 */
import { expect } from 'chai';
import type * as RDF from '@rdfjs/types';
import { SparqlEndpointFetcher } from 'fetch-sparql-endpoint';
import { ADMIN_AUTH, useEndpoint } from './helpers.js';

const EX = 'http://example.com/';

/** Every item of a stream. */
function collect<T>(stream: NodeJS.ReadableStream): Promise<T[]> {
  return new Promise<T[]>((resolve, reject) => {
    const items: T[] = [];
    stream.on('data', (item: T) => void items.push(item));
    stream.on('error', reject);
    stream.on('end', () => resolve(items));
  });
}

describe('http: a SPARQL client from npm (fetch-sparql-endpoint)', () => {
  const env = useEndpoint('sparql-client');
  let endpoint = '';

  before(async () => {
    const store = await env.createStore();
    await env.storeConnection(store).importData('ADD', `<${EX}a> <${EX}knows> <${EX}b> .\n<${EX}b> <${EX}knows> <${EX}c> .\n<${EX}a> <${EX}name> "Ann"@en .\n`);
    endpoint = `${env.url}/datastores/${store}/sparql`;
  });

  const clients: ReadonlyArray<[string, () => SparqlEndpointFetcher]> = [
    ['GET', () => new SparqlEndpointFetcher({ method: 'GET', defaultHeaders: new Headers({ authorization: ADMIN_AUTH }) })],
    ['form POST', () => new SparqlEndpointFetcher({ method: 'POST', defaultHeaders: new Headers({ authorization: ADMIN_AUTH }) })],
    ['direct POST', () => new SparqlEndpointFetcher({ method: 'POST', directPost: true, defaultHeaders: new Headers({ authorization: ADMIN_AUTH }) })],
  ];

  for (const [how, client] of clients) {
    describe(`queries over ${how}`, () => {
      it('SELECT gives the bindings as RDF/JS terms', async () => {
        const rows = await collect<Record<string, RDF.Term>>(await client().fetchBindings(endpoint, `SELECT ?x ?y WHERE { ?x <${EX}knows> ?y } ORDER BY ?x`));
        expect(rows.map((r) => [r['x']!.value, r['y']!.value])).to.deep.equal([
          [`${EX}a`, `${EX}b`],
          [`${EX}b`, `${EX}c`],
        ]);
        const literal = await collect<Record<string, RDF.Term>>(await client().fetchBindings(endpoint, `SELECT ?n WHERE { <${EX}a> <${EX}name> ?n }`));
        expect(literal[0]!['n']).to.deep.include({ termType: 'Literal', value: 'Ann', language: 'en' });
      });

      it('ASK gives the boolean', async () => {
        expect(await client().fetchAsk(endpoint, `ASK { <${EX}a> <${EX}knows> <${EX}b> }`)).to.equal(true);
        expect(await client().fetchAsk(endpoint, `ASK { <${EX}c> <${EX}knows> ?x }`)).to.equal(false);
      });

      it('CONSTRUCT gives the triples', async () => {
        const quads = await collect<RDF.Quad>(await client().fetchTriples(endpoint, `CONSTRUCT { ?y <${EX}knownBy> ?x } WHERE { ?x <${EX}knows> ?y }`));
        expect(quads.map((q) => `${q.subject.value} ${q.predicate.value} ${q.object.value}`).sort()).to.deep.equal([`${EX}b ${EX}knownBy ${EX}a`, `${EX}c ${EX}knownBy ${EX}b`]);
      });
    });
  }

  it('runs an update, then sees its effect', async () => {
    const client = new SparqlEndpointFetcher({ defaultHeaders: new Headers({ authorization: ADMIN_AUTH }) });
    await client.fetchUpdate(endpoint, `INSERT DATA { <${EX}c> <${EX}knows> <${EX}d> }`);
    expect(await client.fetchAsk(endpoint, `ASK { <${EX}c> <${EX}knows> <${EX}d> }`)).to.equal(true);
    await client.fetchUpdate(endpoint, `DELETE WHERE { <${EX}c> <${EX}knows> ?x }`);
    expect(await client.fetchAsk(endpoint, `ASK { <${EX}c> <${EX}knows> ?x }`)).to.equal(false);
  });

  it('surfaces a syntax error reported by the endpoint', async () => {
    const client = new SparqlEndpointFetcher({ method: 'GET', defaultHeaders: new Headers({ authorization: ADMIN_AUTH }) });
    let failure: unknown;
    try {
      // fetchUpdate sends the text as it is, so the endpoint's parser is the one that fails
      await client.fetchUpdate(endpoint, `INSERT DATA { GRAPH <${EX}g> { <${EX}s> <${EX}p> "unterminated } }`);
    } catch (e) {
      failure = e;
    }
    expect(failure).to.be.instanceOf(Error);
    expect(String(failure)).to.match(/HTTP status 400/);
  });
});
