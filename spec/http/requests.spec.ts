import { expect } from 'chai';
import { delay, expectEmpty, expectErrorResponse, makeSlowStore, readCsv, useEndpoint } from './helpers.js';

describe('HTTP request management (variant B)', () => {
  const env = useEndpoint('requests-B', { variant: 'B' });
  const bob = { role: 'bob', password: 'bob-secret' };
  let slow: string;
  let other: string;

  before(async () => {
    await env.connection.createRole(bob.role, bob.password);
    env.connection.grantPrivileges(bob.role, '>datastores', 'read,write');
    [slow, other] = await Promise.all([makeSlowStore(env, 170), makeSlowStore(env, 170)]);
  });

  const recompute = (store: string, id: string, as?: typeof bob): Promise<Response> =>
    env.fetch(`/datastores/${store}?operation=recompute-materialization`, { method: 'PATCH', headers: { 'service-request-id': id }, ...(as ? { as } : {}) });

  /** Waits until `/requests` lists `count` requests with `id` (polling: no guess at how long the request takes to arrive). */
  async function listed(id: string, count = 1): Promise<void> {
    for (;;) {
      const table = await readCsv(await env.fetch('/requests'));
      if (table.records.filter((r) => r.RequestID === id).length >= count) return;
      await delay(5);
    }
  }

  it('GET /requests lists nothing but running work (not itself)', async () => {
    const table = await readCsv(await env.fetch('/requests'));
    expect(table.columns).to.deep.equal(['RequestID', 'StartTime', 'RoleName', 'Method', 'Target']);
    expect(table.rows).to.deep.equal([]);
  });

  it('lists a running request with its ID, start time, role, method and target', async () => {
    const before = Date.now();
    const running = recompute(slow, 'req-list');
    await listed('req-list');
    const table = await readCsv(await env.fetch('/requests'));
    const row = table.records.find((r) => r.RequestID === 'req-list')!;
    expect(row).to.include({ RoleName: 'admin', Method: 'PATCH', Target: `/datastores/${slow}?operation=recompute-materialization` });
    expect(row.StartTime).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Date.parse(row.StartTime!)).to.be.within(before - 1000, Date.now());
    const res = await running;
    expect(res.headers.get('service-request-id')).to.equal('req-list');
    await expectEmpty(res, 204);
    expect((await readCsv(await env.fetch('/requests'))).rows).to.deep.equal([]);
  });

  it('GET /requests/<id> lists Property, Value for every physical request with the ID', async () => {
    const first = recompute(slow, 'shared-id');
    const second = recompute(other, 'shared-id');
    await listed('shared-id', 2);
    const table = await readCsv(await env.fetch('/requests/shared-id'));
    expect(table.columns).to.deep.equal(['Property', 'Value']);
    expect(table.records.map((r) => r.Property)).to.deep.equal(['request-id', 'start-time', 'role-name', 'method', 'target', 'request-id', 'start-time', 'role-name', 'method', 'target']);
    expect(table.records.filter((r) => r.Property === 'target').map((r) => r.Value).sort()).to.deep.equal(
      [`/datastores/${slow}?operation=recompute-materialization`, `/datastores/${other}?operation=recompute-materialization`].sort(),
    );
    await expectEmpty(await first, 204);
    await expectEmpty(await second, 204);
    await expectErrorResponse(await env.fetch('/requests/shared-id'), 404, 'UnknownResourceError');
  });

  it('DELETE /requests/<id> cancels every physical request with the ID (204); their work is rolled back', async () => {
    const facts = await env.storeConnection(slow).countFacts();
    const first = recompute(slow, 'to-cancel');
    const second = recompute(other, 'to-cancel');
    await listed('to-cancel', 2);
    await expectEmpty(await env.fetch('/requests/to-cancel', { method: 'DELETE' }), 204);
    await expectErrorResponse(await first, 409, 'InterruptedError');
    await expectErrorResponse(await second, 409, 'InterruptedError');
    expect(await env.storeConnection(slow).countFacts()).to.equal(facts);
    await expectErrorResponse(await env.fetch('/requests/to-cancel', { method: 'DELETE' }), 404, 'UnknownResourceError');
  });

  it('a long SPARQL query lets other requests through and stops when its request is deleted', async () => {
    // the chain's closure holds ~14,500 facts: a three-way cross product is far too long to finish
    const query = encodeURIComponent('SELECT (COUNT(*) AS ?n) WHERE { ?a ?p ?b . ?c ?q ?d . ?e ?r ?f }');
    const running = env.fetch(`/datastores/${slow}/sparql?query=${query}`, { headers: { 'service-request-id': 'long-query' } });
    await listed('long-query');
    await expectEmpty(await env.fetch('/requests/long-query', { method: 'DELETE' }), 204);
    // the query cannot finish by itself (a cross product of ~14,500 facts three times)
    await expectErrorResponse(await running, 409, 'InterruptedError');
  });

  it('a role sees and cancels only its own requests; the first role sees all', async () => {
    const admins = recompute(slow, 'admin-work');
    const bobs = recompute(other, 'bob-work', bob);
    await listed('admin-work');
    await listed('bob-work');
    const asBob = await readCsv(await env.fetch('/requests', { as: bob }));
    expect(asBob.records.map((r) => r.RequestID)).to.deep.equal(['bob-work']);
    expect(asBob.records[0]).to.include({ RoleName: 'bob' });
    await expectErrorResponse(await env.fetch('/requests/admin-work', { as: bob }), 404, 'UnknownResourceError');
    await expectErrorResponse(await env.fetch('/requests/admin-work', { method: 'DELETE', as: bob }), 404, 'UnknownResourceError');
    const asAdmin = await readCsv(await env.fetch('/requests'));
    expect(asAdmin.records.map((r) => r.RequestID).sort()).to.deep.equal(['admin-work', 'bob-work']);
    await expectEmpty(await env.fetch('/requests/bob-work', { method: 'DELETE' }), 204);
    await expectErrorResponse(await bobs, 409, 'InterruptedError');
    await expectEmpty(await admins, 204);
  });

  it('a client that goes away cancels its request', async () => {
    const controller = new AbortController();
    const abandoned = env.fetch(`/datastores/${other}?operation=recompute-materialization`, { method: 'PATCH', headers: { 'service-request-id': 'gone' }, signal: controller.signal });
    await listed('gone');
    expect((await readCsv(await env.fetch('/requests'))).records.map((r) => r.RequestID)).to.deep.equal(['gone']);
    controller.abort();
    await abandoned.catch(() => undefined);
    // the server sees the socket close and cancels the request: /requests empties
    for (;;) {
      if ((await readCsv(await env.fetch('/requests'))).rows.length === 0) break;
      await delay(5);
    }
  });
});
