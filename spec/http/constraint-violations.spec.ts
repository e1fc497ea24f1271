import { expect } from 'chai';
import { expectEmpty, expectErrorResponse, readCsv, useEndpoint } from './helpers.js';

const EX = 'http://example.com/';
const RULE = `@prefix : <${EX}> . @prefix rdfox: <https://rdfox.com/vocabulary#> . [?p, a, rdfox:ConstraintViolation] :- [?p, a, :Person], NOT EXISTS ?m IN [?p, :mbox, ?m] .`;

describe('http: commits refused for constraint violations (rdfox:ConstraintViolation)', () => {
  const env = useEndpoint('constraint-violations');

  async function storeWithRule(): Promise<string> {
    const store = await env.createStore();
    await env.storeConnection(store).importData('ADD', RULE);
    return store;
  }

  async function connection(store: string): Promise<{ location: string; id: string; auth: Record<string, string> }> {
    const res = await env.fetch(`/datastores/${store}/connections`, { method: 'POST' });
    const location = res.headers.get('location')!;
    return { location, id: location.split('/').pop()!, auth: { authorization: `Service ${res.headers.get('service-authentication-token')!}` } };
  }

  async function state(location: string, auth: Record<string, string>): Promise<string> {
    return (await readCsv(await env.fetch(`${location}/transaction`, { headers: auth }))).records[0]!.Value!;
  }

  it('answer 422 naming the violation, and change nothing', async () => {
    const store = await storeWithRule();
    const res = await env.fetch(`/datastores/${store}/content`, { method: 'POST', headers: { 'content-type': 'text/turtle' }, body: `<${EX}alice> a <${EX}Person> .` });
    expect(await expectErrorResponse(res, 422, 'ConstraintViolationError')).to.contain(`<${EX}alice>`);
    expect(await env.storeConnection(store).countFacts()).to.equal(0);
  });

  it('leave a connection\'s transaction open after a refused commit, and close the one a PUT began for itself', async () => {
    const store = await storeWithRule();
    const { location, id, auth } = await connection(store);
    await expectEmpty(await env.fetch(`${location}/transaction?operation=begin-read-write`, { method: 'POST', headers: auth }), 204);
    await env.fetch(`/datastores/${store}/content?connection=${id}`, { method: 'POST', headers: { ...auth, 'content-type': 'text/turtle' }, body: `<${EX}alice> a <${EX}Person> .` });
    await expectErrorResponse(await env.fetch(`${location}/transaction?operation=commit`, { method: 'POST', headers: auth }), 422, 'ConstraintViolationError');
    expect(await state(location, auth)).to.equal('read-write');
    await env.fetch(`/datastores/${store}/content?connection=${id}`, { method: 'POST', headers: { ...auth, 'content-type': 'text/turtle' }, body: `<${EX}alice> <${EX}mbox> <mailto:a@example.com> .` });
    await expectEmpty(await env.fetch(`${location}/transaction?operation=commit`, { method: 'POST', headers: auth }), 204);
    expect(await env.storeConnection(store).countFacts()).to.equal(2);
    // a PUT on the connection with no transaction open begins and ends its own (it replaces the rule too)
    await expectErrorResponse(await env.fetch(`/datastores/${store}/content?connection=${id}`, { method: 'PUT', headers: { ...auth, 'content-type': 'text/turtle' }, body: `<${EX}bob> a <https://rdfox.com/vocabulary#ConstraintViolation> .` }), 422, 'ConstraintViolationError');
    expect(await state(location, auth)).to.equal('none');
    expect(await env.storeConnection(store).countFacts()).to.equal(2);
  });
});
