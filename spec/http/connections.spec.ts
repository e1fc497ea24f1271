import { expect } from 'chai';
import { ADMIN_PASSWORD, delay, expectEmpty, expectErrorResponse, makeSlowStore, readCsv, useEndpoint } from './helpers.js';

const KINDS = [
  { kind: 'server', base: (): string => '/connections' },
  { kind: 'data store', base: (store: string): string => `/datastores/${store}/connections` },
] as const;

for (const variant of ['A', 'B'] as const) {
  describe(`HTTP connections (variant ${variant})`, () => {
    const env = useEndpoint(`connections-${variant}`, { variant });
    let store: string;

    before(async () => {
      store = await env.createStore();
      await env.connection.createRole('bob', 'bob-secret');
      env.connection.grantPrivileges('bob', '>datastores', 'read,write');
    });

    for (const { kind, base } of KINDS) {
      describe(`${kind} connections`, () => {
        it('POST creates one: 201 with Location and Service-Authentication-Token', async () => {
          const res = await env.fetch(base(store), { method: 'POST' });
          await expectEmpty(res, 201);
          const location = res.headers.get('location')!;
          expect(location).to.match(new RegExp(`^${base(store)}/[0-9a-f]{20}$`));
          expect(res.headers.get('service-authentication-token')).to.match(/^[A-Za-z0-9_-]{22}$/);
        });

        it('GET lists the identifiers (Name) and GET one gives role-name', async () => {
          const created = await env.fetch(base(store), { method: 'POST' });
          const location = created.headers.get('location')!;
          const id = location.split('/').pop()!;
          const list = await readCsv(await env.fetch(base(store)));
          expect(list.columns).to.deep.equal(['Name']);
          expect(list.records.map((r) => r.Name)).to.include(id);
          const one = await readCsv(await env.fetch(location));
          expect(one.columns).to.deep.equal(['Property', 'Value', 'Mutable']);
          expect(one.records).to.deep.equal([{ Property: 'role-name', Value: 'admin', Mutable: 'false' }]);
        });

        it('a role lists only its own connections; the first role lists all', async () => {
          const bobs = await env.fetch(base(store), { method: 'POST', as: { role: 'bob', password: 'bob-secret' } });
          const bobId = bobs.headers.get('location')!.split('/').pop()!;
          const admins = await env.fetch(base(store), { method: 'POST' });
          const adminId = admins.headers.get('location')!.split('/').pop()!;
          const asBob = (await readCsv(await env.fetch(base(store), { as: { role: 'bob', password: 'bob-secret' } }))).records.map((r) => r.Name);
          expect(asBob).to.include(bobId);
          expect(asBob).to.not.include(adminId);
          const asAdmin = (await readCsv(await env.fetch(base(store)))).records.map((r) => r.Name);
          expect(asAdmin).to.include.members([bobId, adminId]);
        });

        it('DELETE closes it (204); later requests on it are 404', async () => {
          const location = (await env.fetch(base(store), { method: 'POST' })).headers.get('location')!;
          await expectEmpty(await env.fetch(location, { method: 'DELETE' }), 204);
          await expectErrorResponse(await env.fetch(location), 404, 'UnknownResourceError');
          await expectErrorResponse(await env.fetch(location, { method: 'DELETE' }), 404, 'UnknownResourceError');
        });

        it('PATCH check-password: 204 for the right password (body or form), 401 otherwise', async () => {
          const location = (await env.fetch(base(store), { method: 'POST' })).headers.get('location')!;
          await expectEmpty(await env.fetch(`${location}?operation=check-password`, { method: 'PATCH', body: ADMIN_PASSWORD, headers: { 'content-type': 'text/plain' } }), 204);
          await expectEmpty(
            await env.fetch(location, { method: 'PATCH', body: `operation=check-password&password=${ADMIN_PASSWORD}`, headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
            204,
          );
          await expectErrorResponse(await env.fetch(`${location}?operation=check-password`, { method: 'PATCH', body: 'wrong' }), 401, 'AuthenticationError');
        });

        it('PATCH interrupt answers 204; duplicate answers 204 with the Location of a new connection', async () => {
          const location = (await env.fetch(base(store), { method: 'POST' })).headers.get('location')!;
          await expectEmpty(await env.fetch(`${location}?operation=interrupt`, { method: 'PATCH' }), 204);
          const dup = await env.fetch(`${location}?operation=duplicate`, { method: 'PATCH' });
          await expectEmpty(dup, 204);
          const copy = dup.headers.get('location')!;
          expect(copy).to.match(new RegExp(`^${base(store)}/[0-9a-f]{20}$`));
          expect(copy).to.not.equal(location);
          const token = dup.headers.get('service-authentication-token')!;
          expect((await env.fetch(copy, { headers: { authorization: `Service ${token}` } })).status).to.equal(200);
          expect((await env.fetch(location)).status).to.equal(200);
        });

        it('PATCH without a known operation is a 400', async () => {
          const location = (await env.fetch(base(store), { method: 'POST' })).headers.get('location')!;
          await expectErrorResponse(await env.fetch(location, { method: 'PATCH' }), 400, 'BadRequestError');
          await expectErrorResponse(await env.fetch(`${location}?operation=explode`, { method: 'PATCH' }), 400, 'BadRequestError');
        });
      });
    }

    it('POST on the connections of an unknown store is a 404', async () => {
      await expectErrorResponse(await env.fetch('/datastores/nowhere/connections', { method: 'POST' }), 404, 'UnknownResourceError');
      await expectErrorResponse(await env.fetch('/datastores/nowhere/connections'), 404, 'UnknownResourceError');
    });

    it('a data store connection is not found under another store', async () => {
      const other = await env.createStore();
      const id = (await env.fetch(`/datastores/${store}/connections`, { method: 'POST' })).headers.get('location')!.split('/').pop()!;
      await expectErrorResponse(await env.fetch(`/datastores/${other}/connections/${id}`), 404, 'UnknownResourceError');
      await expectErrorResponse(await env.fetch(`/connections/${id}`), 404, 'UnknownResourceError');
    });

    describe('connection=<id>', () => {
      it('runs data store requests in the named connection (its transaction is visible)', async () => {
        const location = (await env.fetch(`/datastores/${store}/connections`, { method: 'POST' })).headers.get('location')!;
        const id = location.split('/').pop()!;
        await expectEmpty(await env.fetch(`${location}/transaction?operation=begin-read-write`, { method: 'POST' }), 204);
        const changed = await readCsv(await env.fetch(`/datastores/${store}/prefixes?operation=set&prefix-name=tx:&prefix-iri=http://tx/&connection=${id}`, { method: 'PATCH' }));
        expect(changed.records).to.deep.equal([{ Changed: 'true' }]);
        // outside the transaction the prefix is not there yet
        const outside = await readCsv(await env.fetch(`/datastores/${store}/prefixes`));
        expect(outside.records.map((r) => r.PrefixName)).to.not.include('tx:');
        const inside = await readCsv(await env.fetch(`/datastores/${store}/prefixes?connection=${id}`));
        expect(inside.records.map((r) => r.PrefixName)).to.include('tx:');
        await expectEmpty(await env.fetch(`${location}/transaction?operation=rollback`, { method: 'POST' }), 204);
        const after = await readCsv(await env.fetch(`/datastores/${store}/prefixes`));
        expect(after.records.map((r) => r.PrefixName)).to.not.include('tx:');
      });

      it('runs server requests in a named server connection', async () => {
        const id = (await env.fetch('/connections', { method: 'POST' })).headers.get('location')!.split('/').pop()!;
        const res = await env.fetch(`/datastores?connection=${id}`);
        expect((await readCsv(res)).records.map((r) => r.Name)).to.include(store);
      });

      it('refuses an unknown id (404), another store’s or the wrong kind of connection (400)', async () => {
        await expectErrorResponse(await env.fetch(`/datastores/${store}/prefixes?connection=nope`), 404, 'UnknownResourceError');
        await expectErrorResponse(await env.fetch(`/datastores/${store}/prefixes?connection=`), 400, 'BadRequestError');
        const other = await env.createStore();
        const otherId = (await env.fetch(`/datastores/${other}/connections`, { method: 'POST' })).headers.get('location')!.split('/').pop()!;
        expect(await expectErrorResponse(await env.fetch(`/datastores/${store}/prefixes?connection=${otherId}`), 400, 'BadRequestError')).to.contain(other);
        const serverId = (await env.fetch('/connections', { method: 'POST' })).headers.get('location')!.split('/').pop()!;
        await expectErrorResponse(await env.fetch(`/datastores/${store}/prefixes?connection=${serverId}`), 400, 'BadRequestError');
        await expectErrorResponse(await env.fetch(`/datastores?connection=${otherId}`), 400, 'BadRequestError');
      });

      it('serves one request at a time (a second concurrent one is a 409); PATCH interrupt stops the running one', async () => {
        const slow = await makeSlowStore(env);
        const location = (await env.fetch(`/datastores/${slow}/connections`, { method: 'POST' })).headers.get('location')!;
        const id = location.split('/').pop()!;
        const running = env.fetch(`/datastores/${slow}?operation=recompute-materialization&connection=${id}`, { method: 'PATCH' });
        await delay(60);
        const second = await env.fetch(`/datastores/${slow}/prefixes?connection=${id}`);
        expect(await expectErrorResponse(second, 409, 'ResourceInUseError')).to.contain('one request at a time');
        // interrupt and delete are not requests *on* the connection's work: they are served at once
        await expectEmpty(await env.fetch(`${location}?operation=interrupt`, { method: 'PATCH' }), 204);
        await expectErrorResponse(await running, 409, 'InterruptedError');
        // the connection remains usable
        expect((await env.fetch(`/datastores/${slow}/prefixes?connection=${id}`)).status).to.equal(200);
      });

      it('requests on a connection of a deleted store fail (409)', async () => {
        const doomed = await env.createStore();
        const id = (await env.fetch(`/datastores/${doomed}/connections`, { method: 'POST' })).headers.get('location')!.split('/').pop()!;
        await expectEmpty(await env.fetch(`/datastores/${doomed}`, { method: 'DELETE' }), 204);
        await expectErrorResponse(await env.fetch(`/datastores/${doomed}/prefixes?connection=${id}`), 409, 'InvalidConnectionError');
        await expectEmpty(await env.fetch(`/datastores/${doomed}/connections/${id}`, { method: 'DELETE' }), 204);
      });
    });
  });
}

describe('HTTP connection expiry', () => {
  const env = useEndpoint('connections-expiry', { objectKeepAliveTime: 250 });

  it('deletes a connection unused for object-keep-alive-time', async () => {
    const store = await env.createStore();
    const location = (await env.fetch(`/datastores/${store}/connections`, { method: 'POST' })).headers.get('location')!;
    const server = (await env.fetch('/connections', { method: 'POST' })).headers.get('location')!;
    await delay(450);
    await expectErrorResponse(await env.fetch(location), 404, 'UnknownResourceError');
    await expectErrorResponse(await env.fetch(server), 404, 'UnknownResourceError');
  });

  it('keeps a connection that requests use', async () => {
    const store = await env.createStore();
    const location = (await env.fetch(`/datastores/${store}/connections`, { method: 'POST' })).headers.get('location')!;
    const id = location.split('/').pop()!;
    for (let i = 0; i < 4; i++) {
      await delay(150);
      expect((await env.fetch(`/datastores/${store}/prefixes?connection=${id}`)).status).to.equal(200);
    }
    expect((await env.fetch(location)).status).to.equal(200);
  });
});
