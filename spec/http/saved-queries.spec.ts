/**
 * Saved queries over HTTP (`/datastores/<ds>/saved-queries[/<name>]`): the listing in the
 * negotiated formats, PUT (201 new, 204 replaced), GET of the text, DELETE, the errors (an
 * invalid name, a text that does not parse with its line and column, an unknown name, a body
 * of another type), the version header, access (a role that may only read the store lists and
 * reads but cannot save or delete; a role without read access is refused), and a restart of a
 * server with a server directory.
 */
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Server } from '../../lib/index.js';
import { startEndpoint } from '../../lib/http/index.js';
import { ADMIN_AUTH, ADMIN_PASSWORD, ADMIN_ROLE, basicAuth, expectErrorResponse, readCsv, readJson, useEndpoint } from './helpers.js';

const PEOPLE = 'PREFIX ex: <http://example.com/>\nSELECT ?p WHERE { ?p a ex:Person }';

for (const variant of ['A', 'B'] as const) {
  describe(`HTTP saved queries (variant ${variant})`, () => {
    const env = useEndpoint(`saved-queries-${variant}`, { variant });
    const put = (store: string, name: string, text: string, init: { contentType?: string; authorization?: string } = {}): Promise<Response> =>
      env.fetch(`/datastores/${store}/saved-queries/${encodeURIComponent(name)}`, {
        method: 'PUT',
        body: text,
        headers: { 'content-type': init.contentType ?? 'application/sparql-query', authorization: init.authorization ?? ADMIN_AUTH },
      });

    it('PUT saves (201 with Location, then 204 when replaced), GET lists and reads the text, DELETE removes', async () => {
      const store = await env.createStore();
      expect((await readCsv(await env.fetch(`/datastores/${store}/saved-queries`))).records).to.deep.equal([]);
      const created = await put(store, 'all people', PEOPLE);
      expect(created.status).to.equal(201);
      expect(created.headers.get('location')).to.equal(`/datastores/${store}/saved-queries/all%20people`);
      const replaced = await put(store, 'all people', `${PEOPLE} ORDER BY ?p`, { contentType: 'text/plain' });
      expect(replaced.status).to.equal(204);
      // an update is saved too, and a body without Content-Type is read as the text
      const update = await env.fetch(`/datastores/${store}/saved-queries/add-one`, { method: 'PUT', body: 'INSERT DATA { <http://example.com/a> <http://example.com/b> 1 }' });
      expect(update.status).to.equal(201);

      const table = await readCsv(await env.fetch(`/datastores/${store}/saved-queries`));
      expect(table.columns).to.deep.equal(['Name', 'Query', 'SavedBy', 'SavedAt']);
      expect(table.records.map((r) => [r['Name'], r['Query'], r['SavedBy']])).to.deep.equal([
        ['add-one', 'INSERT DATA { <http://example.com/a> <http://example.com/b> 1 }', ADMIN_ROLE],
        ['all people', `${PEOPLE} ORDER BY ?p`, ADMIN_ROLE],
      ]);
      expect(Date.parse(table.records[0]!['SavedAt']!)).to.be.closeTo(Date.now(), 60_000);
      const json = await readJson(await env.fetch(`/datastores/${store}/saved-queries?filter=${encodeURIComponent('?Name = "add-one"')}`, { headers: { accept: 'application/sparql-results+json' } }));
      expect(json.bindings).to.have.length(1);
      expect(json.bindings[0]!['SavedAt']).to.include({ type: 'literal', datatype: 'http://www.w3.org/2001/XMLSchema#dateTime' });

      const one = await env.fetch(`/datastores/${store}/saved-queries/all%20people`);
      expect(one.status).to.equal(200);
      expect(one.headers.get('content-type')).to.match(/^application\/sparql-query/);
      expect(one.headers.get('last-modified')).to.be.a('string');
      expect(await one.text()).to.equal(`${PEOPLE} ORDER BY ?p`);

      const deleted = await env.fetch(`/datastores/${store}/saved-queries/add-one`, { method: 'DELETE' });
      expect(deleted.status).to.equal(204);
      expect((await readCsv(await env.fetch(`/datastores/${store}/saved-queries`))).records.map((r) => r['Name'])).to.deep.equal(['all people']);
    });

    it('refuses an invalid name, a text that does not parse (with its line and column), an empty text and another body type; 404 for an unknown name', async () => {
      const store = await env.createStore();
      expect(await expectErrorResponse(await put(store, 'a/b', PEOPLE), 400, 'BadRequestError')).to.contain('invalid saved query name');
      expect(await expectErrorResponse(await put(store, ' lead', PEOPLE), 400, 'BadRequestError')).to.contain('invalid saved query name');
      expect(await expectErrorResponse(await put(store, 'x'.repeat(101), PEOPLE), 400, 'BadRequestError')).to.contain('at most 100 characters');
      const syntax = await expectErrorResponse(await put(store, 'broken', 'SELECT ?s WHERE {\n  ?s ?p ?o .\n  FILTER(?s = \n}'), 400, 'QueryCompilationError');
      expect(syntax).to.match(/line 4, column 1/);
      expect(await expectErrorResponse(await put(store, 'empty', '  \n'), 400, 'BadRequestError')).to.contain('must not be empty');
      await expectErrorResponse(await put(store, 'json', '{}', { contentType: 'application/json' }), 415, 'UnsupportedMediaTypeError');
      expect((await readCsv(await env.fetch(`/datastores/${store}/saved-queries`))).records).to.deep.equal([]);
      expect(await expectErrorResponse(await env.fetch(`/datastores/${store}/saved-queries/nothing`), 404, 'UnknownResourceError')).to.contain('"nothing"');
      await expectErrorResponse(await env.fetch(`/datastores/${store}/saved-queries/nothing`, { method: 'DELETE' }), 404, 'UnknownResourceError');
      await expectErrorResponse(await env.fetch(`/datastores/${store}/saved-queries`, { method: 'POST' }), 405, 'MethodNotAllowedError');
    });

    it('answers carry the store version; a save is a new version of the store', async () => {
      const store = await env.createStore();
      const listed = await env.fetch(`/datastores/${store}/saved-queries`);
      await listed.text();
      const before = Number(listed.headers.get('quadlog-version'));
      expect(Number.isInteger(before)).to.equal(true);
      const saved = await put(store, 'q', PEOPLE);
      expect(Number(saved.headers.get('quadlog-version'))).to.equal(before + 1);
      const read = await env.fetch(`/datastores/${store}/saved-queries/q`);
      await read.text();
      expect(read.headers.get('quadlog-version')).to.equal(String(before + 1));
    });

    it('a role that may read the store lists and reads them but cannot save or delete (403); a role without read access is refused', async () => {
      const store = await env.createStore();
      expect((await put(store, 'shared', PEOPLE)).status).to.equal(201);
      const reader = `${store}-reader`;
      await env.connection.createRole(reader, 'pw');
      env.connection.grantPrivileges(reader, `|datastores|${store}`, 'read');
      const asReader = basicAuth(reader, 'pw');
      const listing = await readCsv(await env.fetch(`/datastores/${store}/saved-queries`, { headers: { authorization: asReader } }));
      expect(listing.records.map((r) => [r['Name'], r['SavedBy']])).to.deep.equal([['shared', ADMIN_ROLE]]);
      expect(await (await env.fetch(`/datastores/${store}/saved-queries/shared`, { headers: { authorization: asReader } })).text()).to.equal(PEOPLE);
      expect(await expectErrorResponse(await put(store, 'mine', PEOPLE, { authorization: asReader }), 403, 'AccessDeniedError')).to.contain('access to');
      await expectErrorResponse(await put(store, 'shared', 'SELECT * {}', { authorization: asReader }), 403, 'AccessDeniedError');
      await expectErrorResponse(await env.fetch(`/datastores/${store}/saved-queries/shared`, { method: 'DELETE', headers: { authorization: asReader } }), 403, 'AccessDeniedError');

      const writer = `${store}-writer`;
      await env.connection.createRole(writer, 'pw');
      env.connection.grantPrivileges(writer, `|datastores|${store}`, 'read,write');
      expect((await put(store, 'mine', 'ASK {}', { authorization: basicAuth(writer, 'pw') })).status).to.equal(201);

      const stranger = `${store}-stranger`;
      await env.connection.createRole(stranger, 'pw');
      const asStranger = basicAuth(stranger, 'pw');
      await expectErrorResponse(await env.fetch(`/datastores/${store}/saved-queries`, { headers: { authorization: asStranger } }), 403, 'AccessDeniedError');
      await expectErrorResponse(await env.fetch(`/datastores/${store}/saved-queries/shared`, { headers: { authorization: asStranger } }), 403, 'AccessDeniedError');
      await expectErrorResponse(await put(store, 'theirs', PEOPLE, { authorization: asStranger }), 403, 'AccessDeniedError');
      const names = (await readCsv(await env.fetch(`/datastores/${store}/saved-queries`))).records.map((r) => [r['Name'], r['SavedBy'], r['Query']]);
      expect(names).to.deep.equal([
        ['mine', writer, 'ASK {}'],
        ['shared', ADMIN_ROLE, PEOPLE],
      ]);
    });
  });
}

describe('HTTP saved queries of a server with a server directory', () => {
  let directory = '';
  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'quadlog-saved-queries-'));
  });
  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  /** A server on `directory` and its endpoint; `run` gets the endpoint's URL. */
  async function serve(run: (url: string) => Promise<void>): Promise<void> {
    const server = await Server.create({ roleName: ADMIN_ROLE, password: ADMIN_PASSWORD, parameters: { 'password-hashing': 'fast', persistence: 'file', 'server-directory': join(directory, 'server') } });
    const endpoint = await startEndpoint(server, { port: 0 });
    try {
      await run(endpoint.url);
    } finally {
      await endpoint.close();
      await server.shutdown();
    }
  }

  it('keeps the saved queries across a restart, also after a compaction, and keeps a deletion', async () => {
    const auth = { authorization: ADMIN_AUTH };
    await serve(async (url) => {
      expect((await fetch(`${url}/datastores/kept`, { method: 'POST', headers: auth })).status).to.equal(201);
      for (const [name, text] of [['one', PEOPLE], ['two', 'ASK { ?s ?p ?o }'], ['gone', 'SELECT * { ?s ?p ?o }']] as const) {
        expect((await fetch(`${url}/datastores/kept/saved-queries/${name}`, { method: 'PUT', body: text, headers: auth })).status).to.equal(201);
      }
      expect((await fetch(`${url}/datastores/kept/saved-queries/gone`, { method: 'DELETE', headers: auth })).status).to.equal(204);
    });
    const listed = async (url: string): Promise<string[][]> => (await readCsv(await fetch(`${url}/datastores/kept/saved-queries`, { headers: auth }))).records.map((r) => [r['Name']!, r['Query']!, r['SavedBy']!]);
    const expected = [
      ['one', PEOPLE, ADMIN_ROLE],
      ['two', 'ASK { ?s ?p ?o }', ADMIN_ROLE],
    ];
    await serve(async (url) => {
      expect(await listed(url)).to.deep.equal(expected);
      // a compaction writes them into the snapshot
      expect((await fetch(`${url}/datastores/kept?operation=compact`, { method: 'PATCH', headers: auth })).status).to.be.within(200, 299);
    });
    await serve(async (url) => {
      expect(await listed(url)).to.deep.equal(expected);
      expect(await (await fetch(`${url}/datastores/kept/saved-queries/one`, { headers: auth })).text()).to.equal(PEOPLE);
    });
  });
});
