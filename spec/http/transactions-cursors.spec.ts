import { expect } from 'chai';
import { expectEmpty, expectErrorResponse, readCsv, readJson, useEndpoint, type EndpointEnv } from './helpers.js';

const DATA = Array.from({ length: 5 }, (_, i) => `<http://example.com/s${i}> <http://example.com/p> ${i} .`).join('\n');
const QUERY = 'SELECT ?s ?o WHERE { ?s <http://example.com/p> ?o } ORDER BY ?o';

async function openConnection(env: EndpointEnv, store: string): Promise<{ location: string; id: string; token: string }> {
  const res = await env.fetch(`/datastores/${store}/connections`, { method: 'POST' });
  const location = res.headers.get('location')!;
  return { location, id: location.split('/').pop()!, token: res.headers.get('service-authentication-token')! };
}

for (const variant of ['A', 'B'] as const) {
  describe(`HTTP transactions and cursors (variant ${variant})`, () => {
    const env = useEndpoint(`tx-cursors-${variant}`, { variant });
    let store: string;

    before(async () => {
      store = await env.createStore();
      await env.storeConnection(store).importData('ADD', DATA, { mediaType: 'text/turtle' });
    });

    describe('transaction', () => {
      it('GET gives transaction-state none, read-only or read-write', async () => {
        const { location } = await openConnection(env, store);
        const state = async (): Promise<string> => (await readCsv(await env.fetch(`${location}/transaction`))).records[0]!.Value!;
        const table = await readCsv(await env.fetch(`${location}/transaction`));
        expect(table.columns).to.deep.equal(['Property', 'Value']);
        expect(table.records).to.deep.equal([{ Property: 'transaction-state', Value: 'none' }]);
        await expectEmpty(await env.fetch(`${location}/transaction?operation=begin-read-only`, { method: 'POST' }), 204);
        expect(await state()).to.equal('read-only');
        await expectEmpty(await env.fetch(`${location}/transaction?operation=commit`, { method: 'POST' }), 204);
        await expectEmpty(await env.fetch(`${location}/transaction`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'operation=begin-read-write' }), 204);
        expect(await state()).to.equal('read-write');
        await expectEmpty(await env.fetch(`${location}/transaction?operation=rollback`, { method: 'POST' }), 204);
        expect(await state()).to.equal('none');
      });

      it('commit makes the changes of the transaction visible; rollback discards them', async () => {
        const own = await env.createStore();
        const { location, id, token } = await openConnection(env, own);
        const service = { authorization: `Service ${token}` };
        await expectEmpty(await env.fetch(`${location}/transaction?operation=begin-read-write`, { method: 'POST', headers: service }), 204);
        await readCsv(await env.fetch(`/datastores/${own}/prefixes?operation=set&prefix-name=a:&prefix-iri=http://a/&connection=${id}`, { method: 'PATCH', headers: service }));
        await expectEmpty(await env.fetch(`${location}/transaction?operation=commit`, { method: 'POST', headers: service }), 204);
        expect((await env.storeConnection(own).getPrefixes()).get('a:')).to.equal('http://a/');
        await expectEmpty(await env.fetch(`${location}/transaction?operation=begin-read-write`, { method: 'POST', headers: service }), 204);
        await readCsv(await env.fetch(`/datastores/${own}/prefixes?operation=unset&prefix-name=a:&connection=${id}`, { method: 'PATCH', headers: service }));
        await expectEmpty(await env.fetch(`${location}/transaction?operation=rollback`, { method: 'POST', headers: service }), 204);
        expect((await env.storeConnection(own).getPrefixes()).get('a:')).to.equal('http://a/');
      });

      it('refuses bad operations (400) and operations the state does not allow (409)', async () => {
        const { location } = await openConnection(env, store);
        await expectErrorResponse(await env.fetch(`${location}/transaction`, { method: 'POST' }), 400, 'BadRequestError');
        await expectErrorResponse(await env.fetch(`${location}/transaction?operation=begin`, { method: 'POST' }), 400, 'BadRequestError');
        await expectErrorResponse(await env.fetch(`${location}/transaction?operation=commit`, { method: 'POST' }), 409, 'TransactionError');
        await expectEmpty(await env.fetch(`${location}/transaction?operation=begin-read-only`, { method: 'POST' }), 204);
        await expectErrorResponse(await env.fetch(`${location}/transaction?operation=begin-read-write`, { method: 'POST' }), 409, 'TransactionError');
        await expectEmpty(await env.fetch(`${location}/transaction?operation=rollback`, { method: 'POST' }), 204);
      });

      it('needs the connection’s credentials', async () => {
        const { location } = await openConnection(env, store);
        await expectErrorResponse(await env.fetch(`${location}/transaction`, { headers: { authorization: 'Service wrong' } }), 401, 'AuthenticationError');
        await expectErrorResponse(await env.fetch(`/datastores/${store}/connections/none/transaction`), 404, 'UnknownResourceError');
      });
    });

    describe('cursors', () => {
      it('POST creates a cursor (201, Location); GET lists it and describes it', async () => {
        const { location } = await openConnection(env, store);
        const res = await env.fetch(`${location}/cursors?query=${encodeURIComponent(QUERY)}`, { method: 'POST' });
        await expectEmpty(res, 201);
        const cursor = res.headers.get('location')!;
        expect(cursor).to.match(new RegExp(`^${location}/cursors/[0-9a-f]{16}$`));
        const list = await readCsv(await env.fetch(`${location}/cursors`));
        expect(list.columns).to.deep.equal(['CursorID', 'Query', 'Position', 'Opened']);
        expect(list.records).to.deep.equal([{ CursorID: cursor.split('/').pop()!, Query: QUERY, Position: '0', Opened: 'false' }]);
        const one = await readCsv(await env.fetch(cursor));
        expect(one.records.map((r) => r.Property)).to.deep.equal(['cursor-id', 'query', 'position', 'opened', 'more']);
      });

      it('PATCH open and advance page through the answers with limit', async () => {
        const { location } = await openConnection(env, store);
        const cursor = (await env.fetch(`${location}/cursors`, { method: 'POST', body: QUERY, headers: { 'content-type': 'application/sparql-query' } })).headers.get('location')!;
        let res = await env.fetch(`${cursor}?operation=open&limit=2`, { method: 'PATCH' });
        expect(res.headers.get('service-cursor-position')).to.equal('0');
        expect(res.headers.get('service-cursor-more')).to.equal('true');
        let page = await readCsv(res);
        expect(page.columns).to.deep.equal(['s', 'o']);
        expect(page.records).to.deep.equal([
          { s: 'http://example.com/s0', o: '0' },
          { s: 'http://example.com/s1', o: '1' },
        ]);
        res = await env.fetch(`${cursor}?operation=advance&limit=2`, { method: 'PATCH', headers: { accept: 'application/sparql-results+json' } });
        expect(res.headers.get('service-cursor-position')).to.equal('2');
        const json = await readJson(res);
        expect(json.bindings.map((b) => b.o?.value)).to.deep.equal(['2', '3']);
        res = await env.fetch(`${cursor}`, { method: 'PATCH', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'operation=advance' });
        expect(res.headers.get('service-cursor-more')).to.equal('false');
        page = await readCsv(res);
        expect(page.records.map((r) => r.o)).to.deep.equal(['4']);
        const one = await readCsv(await env.fetch(cursor));
        expect(Object.fromEntries(one.records.map((r) => [r.Property, r.Value]))).to.include({ position: '5', opened: 'true', more: 'false' });
        // reopening starts again
        page = await readCsv(await env.fetch(`${cursor}?operation=open&limit=1`, { method: 'PATCH' }));
        expect(page.records.map((r) => r.o)).to.deep.equal(['0']);
      });

      it('a cursor sees the connection’s transaction', async () => {
        const own = await env.createStore();
        const { location, id } = await openConnection(env, own);
        await expectEmpty(await env.fetch(`${location}/transaction?operation=begin-read-write`, { method: 'POST' }), 204);
        await readCsv(await env.fetch(`/datastores/${own}/prefixes?operation=set&prefix-name=ex:&prefix-iri=http://example.com/&connection=${id}`, { method: 'PATCH' }));
        // the cursor's query uses the prefix set inside the transaction
        const cursor = (await env.fetch(`${location}/cursors?query=${encodeURIComponent('ASK { FILTER(ex:a = <http://example.com/a>) }')}`, { method: 'POST' })).headers.get('location')!;
        const json = await readJson(await env.fetch(`${cursor}?operation=open`, { method: 'PATCH', headers: { accept: 'application/sparql-results+json' } }));
        expect(json.vars).to.deep.equal([]);
        expect(json.bindings).to.have.length(1);
        await expectEmpty(await env.fetch(`${location}/transaction?operation=rollback`, { method: 'POST' }), 204);
      });

      it('refuses missing or bad queries, updates, bad operations and limits', async () => {
        const { location } = await openConnection(env, store);
        await expectErrorResponse(await env.fetch(`${location}/cursors`, { method: 'POST' }), 400, 'BadRequestError');
        await expectErrorResponse(await env.fetch(`${location}/cursors`, { method: 'POST', body: QUERY, headers: { 'content-type': 'text/plain' } }), 415, 'UnsupportedMediaTypeError');
        await expectErrorResponse(await env.fetch(`${location}/cursors?query=SELEKT`, { method: 'POST' }), 400, 'QueryCompilationError');
        await expectErrorResponse(await env.fetch(`${location}/cursors?query=${encodeURIComponent('INSERT DATA { <a:b> <a:c> <a:d> }')}`, { method: 'POST' }), 400, 'BadRequestError');
        const cursor = (await env.fetch(`${location}/cursors?query=${encodeURIComponent(QUERY)}`, { method: 'POST' })).headers.get('location')!;
        await expectErrorResponse(await env.fetch(`${cursor}?operation=advance`, { method: 'PATCH' }), 409, 'TransactionError');
        await expectErrorResponse(await env.fetch(`${cursor}?operation=rewind`, { method: 'PATCH' }), 400, 'BadRequestError');
        await expectErrorResponse(await env.fetch(`${cursor}?operation=open&limit=-1`, { method: 'PATCH' }), 400, 'BadRequestError');
        await expectErrorResponse(await env.fetch(`${cursor}?operation=open`, { method: 'PATCH', headers: { accept: 'image/png' } }), 406, 'NotAcceptableError');
        await expectErrorResponse(await env.fetch(`${location}/cursors/unknown`), 404, 'UnknownResourceError');
      });

      it('DELETE closes a cursor (204)', async () => {
        const { location } = await openConnection(env, store);
        const cursor = (await env.fetch(`${location}/cursors?query=${encodeURIComponent(QUERY)}`, { method: 'POST' })).headers.get('location')!;
        await expectEmpty(await env.fetch(cursor, { method: 'DELETE' }), 204);
        await expectErrorResponse(await env.fetch(cursor), 404, 'UnknownResourceError');
        expect((await readCsv(await env.fetch(`${location}/cursors`))).records).to.deep.equal([]);
      });

      it('a cursor reads every page from the state it was opened on, whatever is committed between pages', async () => {
        const own = await env.createStore();
        const writer = env.storeConnection(own);
        // many rows: the query pauses between pages
        const many = (stem: string, n: number): string => Array.from({ length: n }, (_, i) => `<http://example.com/${stem}${i}> <http://example.com/p> ${i} .`).join('\n');
        await writer.importData('ADD', many('s', 20000), { mediaType: 'text/turtle' });
        const { location } = await openConnection(env, own);
        const cursor = (await env.fetch(`${location}/cursors?query=${encodeURIComponent('SELECT ?s WHERE { ?s <http://example.com/p> ?o }')}`, { method: 'POST' })).headers.get('location')!;
        const first = await readCsv(await env.fetch(`${cursor}?operation=open&limit=100`, { method: 'PATCH' }));
        expect(first.rows).to.have.length(100);
        // a write that removes matching facts and adds others
        await writer.importData('DELETE', many('s', 5000), { mediaType: 'text/turtle' });
        await writer.importData('ADD', many('new', 5000), { mediaType: 'text/turtle' });
        const rest = await env.fetch(`${cursor}?operation=advance`, { method: 'PATCH' });
        expect(rest.headers.get('service-cursor-position')).to.equal('100');
        expect(rest.headers.get('service-cursor-more')).to.equal('false');
        const rows = [...first.rows, ...(await readCsv(rest)).rows].map((r) => r[0]!);
        expect(rows).to.have.length(20000);
        expect(new Set(rows)).to.deep.equal(new Set(Array.from({ length: 20000 }, (_, i) => `http://example.com/s${i}`)));
        // opened again, it reads the store as it is now
        const now = await readCsv(await env.fetch(`${cursor}?operation=open`, { method: 'PATCH' }));
        expect(now.rows).to.have.length(20000);
        expect(now.rows.filter((r) => r[0]!.includes('/new'))).to.have.length(5000);
      });
    });
  });
}
