import { expect } from 'chai';
import { expectEmpty, expectErrorResponse, readCsv, useEndpoint } from './helpers.js';

const PROCEDURE = 'PREFIX ex: <http://example.com/>\nINSERT { ex:log ex:saw ?s } WHERE { ?s ex:p ?o }';

describe('HTTP commit procedure (variant B)', () => {
  const env = useEndpoint('commit-procedure-B', { variant: 'B' });

  it('GET answers 204 when no commit procedure is set', async () => {
    const store = await env.createStore();
    await expectEmpty(await env.fetch(`/datastores/${store}/commitprocedure`), 204);
  });

  it('PUT sets it (200 with Changed), GET returns it as application/sparql-update, DELETE removes it', async () => {
    const store = await env.createStore();
    const put = await env.fetch(`/datastores/${store}/commitprocedure`, { method: 'PUT', body: PROCEDURE, headers: { 'content-type': 'application/sparql-update' } });
    expect(put.status).to.equal(200);
    expect((await readCsv(put)).records).to.deep.equal([{ Changed: 'true' }]);
    const again = await env.fetch(`/datastores/${store}/commitprocedure`, { method: 'PUT', body: PROCEDURE, headers: { 'content-type': 'application/sparql-update' } });
    expect((await readCsv(again)).records).to.deep.equal([{ Changed: 'false' }]);
    const get = await env.fetch(`/datastores/${store}/commitprocedure`);
    expect(get.status).to.equal(200);
    expect(get.headers.get('content-type')).to.match(/^application\/sparql-update/);
    expect(await get.text()).to.equal(PROCEDURE);

    // the procedure runs at every commit
    const c = env.storeConnection(store);
    await c.importData('ADD', '<http://example.com/a> <http://example.com/p> "1" .', { mediaType: 'application/n-triples' });
    expect(await c.exportDataToString('application/n-triples')).to.contain('<http://example.com/log> <http://example.com/saw> <http://example.com/a>');

    const del = await env.fetch(`/datastores/${store}/commitprocedure`, { method: 'DELETE' });
    expect(del.status).to.equal(200);
    expect((await readCsv(del)).records).to.deep.equal([{ Changed: 'true' }]);
    expect((await readCsv(await env.fetch(`/datastores/${store}/commitprocedure`, { method: 'DELETE' }))).records).to.deep.equal([{ Changed: 'false' }]);
    await expectEmpty(await env.fetch(`/datastores/${store}/commitprocedure`), 204);
  });

  it('PUT refuses other media types (415), empty bodies and invalid updates (400)', async () => {
    const store = await env.createStore();
    await expectErrorResponse(await env.fetch(`/datastores/${store}/commitprocedure`, { method: 'PUT', body: PROCEDURE, headers: { 'content-type': 'text/turtle' } }), 415, 'UnsupportedMediaTypeError');
    await expectErrorResponse(await env.fetch(`/datastores/${store}/commitprocedure`, { method: 'PUT', body: '', headers: { 'content-type': 'application/sparql-update' } }), 400, 'BadRequestError');
    await expectErrorResponse(await env.fetch(`/datastores/${store}/commitprocedure`, { method: 'PUT', body: 'INSERT nonsense', headers: { 'content-type': 'application/sparql-update' } }), 400);
    await expectEmpty(await env.fetch(`/datastores/${store}/commitprocedure`), 204);
  });
});

describe('HTTP commit procedure (variant A)', () => {
  const env = useEndpoint('commit-procedure-A', { variant: 'A' });

  it('does not exist: 404 for every method', async () => {
    const store = await env.createStore();
    for (const method of ['GET', 'PUT', 'DELETE']) {
      await expectErrorResponse(await env.fetch(`/datastores/${store}/commitprocedure`, { method, ...(method === 'PUT' ? { body: PROCEDURE } : {}) }), 404, 'UnknownResourceError');
    }
  });
});
