import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { expectErrorResponse, readCsv, useEndpoint } from '../http/helpers.js';

describe('datasources: over HTTP', () => {
  const dir = mkdtempSync(join(tmpdir(), 'quadlog-ds-http-'));
  const env = useEndpoint('datasources', { parameters: { 'sandbox-directory': dir, 'allowed-url-schemes-on-import': 'file' } });

  before(() => {
    writeFileSync(join(dir, 'people.tsv'), 'id\tname\n1\tBeverly\n2\tThomas\n');
  });

  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('registers a source, mounts a table with query-string parameters, queries it and refuses to deregister while mounted', async () => {
    const store = await env.createStore();
    const register = await env.fetch(`/datastores/${store}/datasources/people?type=delimitedFile&file=people.tsv&delimiter=%3Ctab%3E&header=true`, { method: 'POST' });
    expect(register.status).to.equal(201);
    const tables = await readCsv(await env.fetch(`/datastores/${store}/datasources/people/tables`));
    expect(tables.rows.map((r) => r.slice(0, 2))).to.deep.equal([['records', '2']]);
    const sample = await readCsv(await env.fetch(`/datastores/${store}/datasources/people/tables/records/data?limit=1`));
    expect(sample.rows).to.deep.equal([['1', 'Beverly']]);
    const mount = await env.fetch(`/datastores/${store}/tupletables/People?data-source-name=people&1=${encodeURIComponent('http://ex.org/p/{id}')}&1.datatype=iri&2=%7Bname%7D`, { method: 'POST' });
    expect(mount.status).to.equal(201);
    const listing = await readCsv(await env.fetch(`/datastores/${store}/tupletables`));
    expect(listing.rows.find((r) => r[0] === 'People')?.[1]).to.equal('dataSource');
    const query = encodeURIComponent('SELECT ?n WHERE { TT People { <http://ex.org/p/2> ?n } }');
    const answer = await env.fetch(`/datastores/${store}/sparql?query=${query}`, { headers: { Accept: 'text/csv' } });
    expect((await readCsv(answer)).rows).to.deep.equal([['Thomas']]);
    expect(await expectErrorResponse(await env.fetch(`/datastores/${store}/datasources/people`, { method: 'DELETE' }), 409, 'ResourceInUseError')).to.contain('People');
  });

  it('answers 400 for a bad delimiter and 403 for a file outside the sandbox', async () => {
    const store = await env.createStore();
    await expectErrorResponse(await env.fetch(`/datastores/${store}/datasources/d?type=delimitedFile&file=people.tsv&delimiter=ab`, { method: 'POST' }), 400, 'BadRequestError');
    await expectErrorResponse(await env.fetch(`/datastores/${store}/datasources/d?type=delimitedFile&file=%2Fetc%2Fpasswd`, { method: 'POST' }), 403, 'AccessDeniedError');
  });
});
