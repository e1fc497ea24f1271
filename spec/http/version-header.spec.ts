/**
 * The `Quadlog-Version` response header of data store requests, and `Quadlog-Min-Version` on
 * a single server (a version already reached answers at once; a malformed one is refused).
 */
import { expect } from 'chai';
import { useEndpoint } from './helpers.js';

describe('HTTP: data store versions in headers', () => {
  const env = useEndpoint('version-header');

  it('an import, an update and a query answer with the version the store is at after them', async () => {
    const store = await env.createStore();
    const ds = env.storeConnection(store);
    const start = ds.dataStoreVersion;
    const imported = await env.fetch(`/datastores/${store}/content`, { method: 'POST', headers: { 'Content-Type': 'application/n-triples' }, body: '<http://ex/a> <http://ex/p> <http://ex/b> .\n' });
    expect(imported.status).to.equal(200);
    expect(imported.headers.get('quadlog-version')).to.equal(String(start + 1));
    const updated = await env.fetch(`/datastores/${store}/sparql`, { method: 'POST', headers: { 'Content-Type': 'application/sparql-update' }, body: 'INSERT DATA { <http://ex/a> <http://ex/p> <http://ex/c> }' });
    expect(updated.status).to.equal(204);
    expect(updated.headers.get('quadlog-version')).to.equal(String(start + 2));
    const queried = await env.fetch(`/datastores/${store}/sparql?query=${encodeURIComponent('ASK {}')}`, { headers: { 'Quadlog-Min-Version': String(start + 2), Accept: 'application/sparql-results+json' } });
    expect(queried.status).to.equal(200);
    expect(queried.headers.get('quadlog-version')).to.equal(String(start + 2));
    const refused = await env.fetch(`/datastores/${store}/sparql?query=${encodeURIComponent('ASK {}')}`, { headers: { 'Quadlog-Min-Version': 'soon' } });
    expect(refused.status).to.equal(400);
    expect(await refused.text()).to.match(/Quadlog-Min-Version/);
  });
});
