/**
 * Bound parameters over the SPARQL protocol: `$name=<N-Triples term>` gives the variable ?name
 * a value, as a term, for queries and updates.
 */
import { expect } from 'chai';
import { expectErrorResponse, readCsv, useEndpoint } from './helpers.js';

const EX = 'http://example.com/';
const enc = encodeURIComponent;

describe('http: bound parameters ($name=<term>)', () => {
  const env = useEndpoint('bound-parameters');
  let store: string;
  before(async () => {
    store = await env.createStore();
    await env.storeConnection(store).importData('ADD', `<${EX}ann> <${EX}name> "Ann" . <${EX}bob> <${EX}name> "Bob"@en . <${EX}bob> <${EX}age> "42"^^<http://www.w3.org/2001/XMLSchema#integer> .`);
  });
  const sparql = (params: string, init?: RequestInit): Promise<Response> => env.fetch(`/datastores/${store}/sparql?${params}`, init);

  it('binds IRIs and literals (with language or datatype) in a query', async () => {
    const select = `SELECT ?who ?n WHERE { ?who <${EX}name> ?n }`;
    let response = await sparql(`query=${enc(select)}&$who=${enc(`<${EX}ann>`)}`);
    expect(response.status).to.equal(200);
    expect((await readCsv(response)).rows).to.deep.equal([[`${EX}ann`, 'Ann']]);
    response = await sparql(`query=${enc(select)}&$n=${enc('"Bob"@en')}`);
    expect((await readCsv(response)).rows).to.deep.equal([[`${EX}bob`, 'Bob']]);
    response = await sparql(`query=${enc(`ASK { ?s <${EX}age> ?a }`)}&$a=${enc('"42"^^<http://www.w3.org/2001/XMLSchema#integer>')}`, { headers: { accept: 'application/sparql-results+json' } });
    expect(await response.json()).to.deep.include({ boolean: true });
  });

  it('binds a value of an update given as a form, as nothing but a term', async () => {
    const hostile = '"x\\" } ; DROP ALL ; #"';
    const body = new URLSearchParams({ update: `INSERT { ?s <${EX}note> ?v } WHERE { ?s <${EX}name> "Ann" }`, $v: hostile });
    const response = await env.fetch(`/datastores/${store}/sparql`, { method: 'POST', body });
    expect(response.status).to.equal(204);
    const check = await sparql(`query=${enc(`SELECT ?v WHERE { ?s <${EX}note> ?v }`)}`);
    expect((await readCsv(check)).rows).to.deep.equal([['x" } ; DROP ALL ; #']]);
    expect((await readCsv((await sparql(`query=${enc('SELECT (COUNT(*) AS ?c) WHERE { ?s ?p ?o }')}`)))).rows).to.deep.equal([['4']]);
  });

  it('refuses a value that is not one N-Triples term, a parameter given twice, and a name the query does not use: 400', async () => {
    const select = `SELECT ?who WHERE { ?who <${EX}name> ?n }`;
    for (const value of ['ann', `<${EX}a> <${EX}b> <${EX}c> . <${EX}d>`, '?x', '']) {
      const text = await expectErrorResponse(await sparql(`query=${enc(select)}&$who=${enc(value)}`), 400, 'BadRequestError');
      expect(text, value).to.include("the value of parameter '$who' is not one N-Triples term");
    }
    let text = await expectErrorResponse(await sparql(`query=${enc(select)}&$who=${enc(`<${EX}a>`)}&$who=${enc(`<${EX}b>`)}`), 400, 'BadRequestError');
    expect(text).to.include("parameter '$who' is given 2 times");
    text = await expectErrorResponse(await sparql(`query=${enc(select)}&$whom=${enc(`<${EX}a>`)}`), 400, 'BadRequestError');
    expect(text).to.include('bound parameter ?whom does not occur in the query');
  });
});
