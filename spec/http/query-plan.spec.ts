/**
 * The plan of a query over HTTP: `explain=true` on /datastores/<ds>/sparql answers the query's
 * plan as text/plain (its algebra, the join order, the number of answers) instead of its
 * answer, by GET, by a form POST and by a direct POST; an update, a bad value and an Accept the
 * plan cannot meet are refused; a role that may not read the store gets 403.
 */
import { expect } from 'chai';
import { expectErrorResponse, readCsv, type TestRequestInit, useEndpoint } from './helpers.js';

const QUERY = 'PREFIX : <http://e/> SELECT ?x ?z WHERE { ?x :p ?y . ?y :p ?z }';

describe('HTTP query plan (explain=true)', () => {
  const env = useEndpoint('query-plan');
  let store: string;
  before(async () => {
    store = await env.createStore();
    await env.storeConnection(store).importData('ADD', '@prefix : <http://e/> .\n:a :p :b . :b :p :c . :c :p :d .', { mediaType: 'text/turtle' });
  });
  const sparql = (params: Record<string, string>, init?: TestRequestInit): Promise<Response> => env.fetch(`/datastores/${store}/sparql?${new URLSearchParams(params).toString()}`, init);

  function expectPlan(text: string): void {
    expect(text).to.match(/^algebra:\n/);
    expect(text).to.contain('project ?x ?z');
    expect(text).to.contain('?x <http://e/p> ?y');
    expect(text).to.match(/answers: 2, evaluated in [\d.]+ ms\n$/);
  }

  it('GET with explain=true answers the plan as text/plain, not the answer', async () => {
    const res = await sparql({ query: QUERY, explain: 'true' });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('text/plain; charset=UTF-8');
    const text = await res.text();
    expectPlan(text);
    expect(text).not.to.contain('http://e/d,');
  });

  it('a form POST and a direct POST take explain too; explain=false is the usual answer', async () => {
    const form = await env.fetch(`/datastores/${store}/sparql`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/plain' },
      body: new URLSearchParams({ query: QUERY, explain: 'true' }).toString(),
    });
    expect(form.status).to.equal(200);
    expectPlan(await form.text());
    const direct = await env.fetch(`/datastores/${store}/sparql?explain=true`, { method: 'POST', headers: { 'content-type': 'application/sparql-query' }, body: QUERY });
    expect(direct.status).to.equal(200);
    expectPlan(await direct.text());
    const usual = await sparql({ query: QUERY, explain: 'false' }, { headers: { accept: 'text/csv' } });
    expect(usual.status).to.equal(200);
    const table = await readCsv(usual);
    expect(table.rows).to.have.length(2);
  });

  it('refuses an update, a bad value, a repeated parameter (400) and an Accept without text/plain (406)', async () => {
    await expectErrorResponse(
      await env.fetch(`/datastores/${store}/sparql?explain=true`, { method: 'POST', headers: { 'content-type': 'application/sparql-update' }, body: 'INSERT DATA { <http://e/x> <http://e/p> <http://e/y> }' }),
      400,
    );
    // the refused update changed nothing
    const ask = await sparql({ query: 'ASK { <http://e/x> <http://e/p> <http://e/y> }' }, { headers: { accept: 'application/sparql-results+json' } });
    expect(await ask.json()).to.deep.include({ boolean: false });
    expect(await expectErrorResponse(await sparql({ query: QUERY, explain: 'yes' }), 400)).to.contain("'explain'");
    await expectErrorResponse(await env.fetch(`/datastores/${store}/sparql?query=${encodeURIComponent(QUERY)}&explain=true&explain=true`), 400);
    await expectErrorResponse(await sparql({ query: QUERY, explain: 'true' }, { headers: { accept: 'application/sparql-results+json' } }), 406);
    expect(await expectErrorResponse(await sparql({ query: 'SELECT WHERE {', explain: 'true' }), 400)).to.match(/line 1/i);
  });

  it('needs read access to the store (403 otherwise)', async () => {
    await env.connection.createRole('plan-reader', 'secret');
    await expectErrorResponse(await sparql({ query: QUERY, explain: 'true' }, { as: { role: 'plan-reader', password: 'secret' } }), 403);
    env.connection.grantPrivileges('plan-reader', '|datastores', 'read');
    await expectErrorResponse(await sparql({ query: QUERY, explain: 'true' }, { as: { role: 'plan-reader', password: 'secret' } }), 403);
    env.connection.grantPrivileges('plan-reader', `>datastores|${store}`, 'read');
    const res = await sparql({ query: QUERY, explain: 'true' }, { as: { role: 'plan-reader', password: 'secret' } });
    expect(res.status, await res.clone().text()).to.equal(200);
    expectPlan(await res.text());
  });
});
