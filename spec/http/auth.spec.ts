import { expect } from 'chai';
import { ADMIN_AUTH, ADMIN_PASSWORD, basicAuth, expectEmpty, expectErrorResponse, readCsv, useEndpoint } from './helpers.js';

describe('HTTP authentication', () => {
  const env = useEndpoint('auth', { parameters: { 'create-guest-role': 'true' } });

  before(async () => {
    await env.connection.createRole('alice', 'alice-secret');
    env.connection.grantPrivileges('alice', '|datastores', 'read');
    env.connection.grantPrivileges('guest', '>datastores', 'read');
  });

  it('serves requests without Authorization as the guest role', async () => {
    const store = await env.createStore();
    const res = await env.fetch(`/datastores/${store}/connections`, { method: 'POST', anonymous: true });
    expect(res.status).to.equal(201);
    const location = res.headers.get('location')!;
    const table = await readCsv(await env.fetch(location, { anonymous: true }));
    expect(table.records).to.deep.equal([{ Property: 'role-name', Value: 'guest', Mutable: 'false' }]);
  });

  it('accepts Basic credentials of any role', async () => {
    expect((await env.fetch('/datastores', { as: { role: 'alice', password: 'alice-secret' } })).status).to.equal(200);
    expect((await env.fetch('/datastores')).status).to.equal(200);
  });

  it('refuses wrong Basic credentials with 401 and WWW-Authenticate', async () => {
    for (const authorization of [basicAuth('admin', 'wrong'), basicAuth('nobody', 'x'), 'Basic !!!', 'Basic ' + Buffer.from('no-colon').toString('base64'), 'Basic']) {
      const res = await env.fetch('/datastores', { headers: { authorization } });
      await expectErrorResponse(res, 401, 'AuthenticationError');
      expect(res.headers.get('www-authenticate')).to.equal('Basic realm="quadlog"');
    }
  });

  it('refuses unknown schemes and Service tokens without a connection', async () => {
    expect(await expectErrorResponse(await env.fetch('/datastores', { headers: { authorization: 'Bearer abc' } }), 401, 'AuthenticationError')).to.contain('Bearer');
    expect(await expectErrorResponse(await env.fetch('/datastores', { headers: { authorization: 'Service abc' } }), 401, 'AuthenticationError')).to.contain('connection');
  });

  it('takes a changed password and a deleted role into account on the next request', async () => {
    await env.connection.createRole('carol', 'carol-secret');
    env.connection.grantPrivileges('carol', '|datastores', 'read');
    const auth = basicAuth('carol', 'carol-secret');
    const statuses = await Promise.all(Array.from({ length: 10 }, async () => (await env.fetch('/datastores', { headers: { authorization: auth } })).status));
    expect(statuses).to.deep.equal(Array<number>(10).fill(200));
    const res = await env.fetch('/password', { method: 'PUT', body: 'carol-secret\ncarol-new', headers: { authorization: auth } });
    expect(res.status).to.equal(204);
    await expectErrorResponse(await env.fetch('/datastores', { headers: { authorization: auth } }), 401, 'AuthenticationError');
    const fresh = basicAuth('carol', 'carol-new');
    expect((await env.fetch('/datastores', { headers: { authorization: fresh } })).status).to.equal(200);
    env.connection.deleteRole('carol');
    await expectErrorResponse(await env.fetch('/datastores', { headers: { authorization: fresh } }), 401, 'AuthenticationError');
  });

  describe('on a connection', () => {
    let location: string;
    let token: string;
    let otherToken: string;
    let store: string;

    before(async () => {
      store = await env.createStore();
      const res = await env.fetch(`/datastores/${store}/connections`, { method: 'POST' });
      location = res.headers.get('location')!;
      token = res.headers.get('service-authentication-token')!;
      const other = await env.fetch(`/datastores/${store}/connections`, { method: 'POST' });
      otherToken = other.headers.get('service-authentication-token')!;
    });

    it('issues 128-bit tokens', () => {
      expect(token).to.match(/^[A-Za-z0-9_-]{22}$/);
      expect(Buffer.from(token, 'base64url')).to.have.length(16);
      expect(otherToken).to.not.equal(token);
    });

    it('accepts the Service token of the connection and Basic of its role', async () => {
      expect((await env.fetch(location, { headers: { authorization: `Service ${token}` } })).status).to.equal(200);
      expect((await env.fetch(location, { headers: { authorization: ADMIN_AUTH } })).status).to.equal(200);
      const id = location.split('/').pop()!;
      const res = await env.fetch(`/datastores/${store}/prefixes?connection=${id}`, { headers: { authorization: `Service ${token}` } });
      expect(res.status).to.equal(200);
      await res.text();
    });

    it('refuses a wrong token or another connection’s token (401)', async () => {
      const id = location.split('/').pop()!;
      for (const t of ['x', token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A'), otherToken, '']) {
        await expectErrorResponse(await env.fetch(location, { headers: { authorization: `Service ${t}` } }), 401, 'AuthenticationError');
        await expectErrorResponse(await env.fetch(`/datastores/${store}/prefixes?connection=${id}`, { headers: { authorization: `Service ${t}` } }), 401, 'AuthenticationError');
      }
    });

    it('refuses another role’s valid credentials (403) and no credentials (401)', async () => {
      const id = location.split('/').pop()!;
      await expectErrorResponse(await env.fetch(location, { as: { role: 'alice', password: 'alice-secret' } }), 403, 'AccessDeniedError');
      await expectErrorResponse(await env.fetch(`/datastores/${store}/prefixes?connection=${id}`, { as: { role: 'alice', password: 'alice-secret' } }), 403, 'AccessDeniedError');
      await expectErrorResponse(await env.fetch(location, { anonymous: true }), 401, 'AuthenticationError');
      await expectErrorResponse(await env.fetch(location, { headers: { authorization: basicAuth('admin', 'wrong') } }), 401, 'AuthenticationError');
    });

    it('never lists tokens', async () => {
      const text = await (await env.fetch(`/datastores/${store}/connections`)).text();
      expect(text).to.not.contain(token);
      const one = await (await env.fetch(location, { headers: { accept: 'application/sparql-results+json' } })).text();
      expect(one).to.not.contain(token);
    });

    it('check-password verifies the password of the connection’s role', async () => {
      await expectEmpty(await env.fetch(`${location}?operation=check-password`, { method: 'PATCH', body: ADMIN_PASSWORD, headers: { authorization: `Service ${token}` } }), 204);
      await expectErrorResponse(await env.fetch(`${location}?operation=check-password`, { method: 'PATCH', body: 'nope', headers: { authorization: `Service ${token}` } }), 401, 'AuthenticationError');
    });
  });
});

describe('HTTP authentication without the guest role', () => {
  const env = useEndpoint('auth-no-guest');

  it('answers 401 to requests without credentials', async () => {
    const res = await env.fetch('/datastores', { anonymous: true });
    expect(await expectErrorResponse(res, 401, 'AuthenticationError')).to.contain("no 'guest' role");
    expect(res.headers.get('www-authenticate')).to.equal('Basic realm="quadlog"');
    expect((await env.fetch('/datastores')).status).to.equal(200);
  });
});
