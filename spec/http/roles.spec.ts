import { expect } from 'chai';
import { basicAuth, type EndpointEnv, expectEmpty, expectErrorResponse, readCsv, useEndpoint } from './helpers.js';

/** Requests of one spec over an endpoint: role creation, privilege changes and checks, over HTTP. */
function roleRequests(env: EndpointEnv) {
  const as = (role: string, password: string) => ({ role, password });
  const query = (entries: Record<string, string>): string => new URLSearchParams(entries).toString();
  return {
    as,
    /** POST /roles/<name> (as the first role unless `by` is given). */
    postRole(name: string, body: string, type?: string, by?: { role: string; password: string }): Promise<Response> {
      const suffix = type === undefined ? '' : `?${query({ 'password-specification-type': type })}`;
      return env.fetch(`/roles/${encodeURIComponent(name)}${suffix}`, { method: 'POST', body, headers: { 'content-type': 'text/plain' }, ...(by ? { as: by } : {}) });
    },
    /** Creates a role with a password over HTTP, asserting 201. */
    async createRole(name: string, password: string): Promise<void> {
      const res = await env.fetch(`/roles/${encodeURIComponent(name)}`, { method: 'POST', body: password, headers: { 'content-type': 'text/plain' } });
      await expectEmpty(res, 201);
    },
    /** PATCH /roles/<role>/privileges. */
    patchPrivileges(role: string, operation: string, specifier: string, accessTypes: string, by?: { role: string; password: string }): Promise<Response> {
      const q = query({ operation, 'resource-specifier': specifier, 'access-types': accessTypes });
      return env.fetch(`/roles/${encodeURIComponent(role)}/privileges?${q}`, { method: 'PATCH', ...(by ? { as: by } : {}) });
    },
    /** PATCH /roles/<role>/memberships. */
    patchMemberships(role: string, operation: string, superRole: string, by?: { role: string; password: string }): Promise<Response> {
      return env.fetch(`/roles/${encodeURIComponent(role)}/memberships?${query({ operation, 'super-role-name': superRole })}`, { method: 'PATCH', ...(by ? { as: by } : {}) });
    },
    /** The privileges of a role as the first role sees them. */
    async privileges(role: string): Promise<Array<Record<string, string>>> {
      const res = await env.fetch(`/roles/${encodeURIComponent(role)}/privileges`);
      expect(res.status).to.equal(200);
      return (await readCsv(res)).records;
    },
    /** The status of GET `path` as a role (the body is consumed). */
    async statusAs(path: string, role: string, password: string): Promise<number> {
      const res = await env.fetch(path, { as: as(role, password) });
      await res.text();
      return res.status;
    },
  };
}

/** The `Changed` cell of a 200 answer. */
async function changedOf(res: Response): Promise<string> {
  const table = await readCsv(res);
  expect(res.status, JSON.stringify(table.records)).to.equal(200);
  expect(table.columns).to.deep.equal(['Changed']);
  expect(table.records).to.have.length(1);
  return table.records[0]!.Changed!;
}

/** The Name column of a 200 answer. */
async function namesOf(res: Response): Promise<string[]> {
  const table = await readCsv(res);
  expect(res.status, JSON.stringify(table.records)).to.equal(200);
  expect(table.columns).to.deep.equal(['Name']);
  return table.rows.map((r) => r[0]!);
}

for (const variant of ['A', 'B'] as const) {
  describe(`HTTP roles (variant ${variant})`, () => {
    const env = useEndpoint(`roles-${variant}`, { variant });
    const r = roleRequests(env);

    describe('role lifecycle', () => {
      it('POST creates a role (201, Location) that authenticates with Basic; a duplicate is a 409', async () => {
        const role = env.uniqueName('life');
        const res = await r.postRole(role, 'pw-one');
        await expectEmpty(res, 201);
        expect(res.headers.get('location')).to.equal(`/roles/${role}`);
        // a new role has no privileges: authenticated (403), not refused (401)
        await expectErrorResponse(await env.fetch('/datastores', { as: r.as(role, 'pw-one') }), 403, 'AccessDeniedError');
        await expectErrorResponse(await env.fetch('/datastores', { as: r.as(role, 'wrong') }), 401, 'AuthenticationError');
        env.connection.grantPrivileges(role, '|datastores', 'read');
        expect(await r.statusAs('/datastores', role, 'pw-one')).to.equal(200);
        expect(await expectErrorResponse(await r.postRole(role, 'other'), 409, 'DuplicateResourceError')).to.contain(role);
        expect(await expectErrorResponse(await r.postRole('admin', 'other'), 409, 'DuplicateResourceError')).to.contain('admin');
        // the duplicate changed nothing: the first password still works, the other does not
        expect(await r.statusAs('/datastores', role, 'pw-one')).to.equal(200);
        expect(await r.statusAs('/datastores', role, 'other')).to.equal(401);
      });

      it('GET /roles lists the roles (column Name)', async () => {
        const role = env.uniqueName('listed');
        await r.createRole(role, 'pw');
        const names = await namesOf(await env.fetch('/roles'));
        expect(names).to.include.members(['admin', role]);
        const other = env.uniqueName('listed');
        expect(await namesOf(await env.fetch('/roles'))).to.not.include(other);
      });

      it('GET /roles/<r> gives name and password-hash (an scrypt PHC string), never the password', async () => {
        const role = env.uniqueName('described');
        const password = 'a-very-distinctive-password';
        await r.createRole(role, password);
        const res = await env.fetch(`/roles/${role}`);
        const text = await res.clone().text();
        const table = await readCsv(res);
        expect(res.status).to.equal(200);
        expect(table.columns).to.deep.equal(['Property', 'Value']);
        expect(table.records.map((x) => x.Property)).to.deep.equal(['name', 'password-hash']);
        expect(table.records[0]!.Value).to.equal(role);
        expect(table.records[1]!.Value).to.match(/^\$scrypt\$ln=\d+,r=\d+,p=\d+\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/);
        expect(text).to.not.contain(password);
        await expectErrorResponse(await env.fetch(`/roles/${env.uniqueName('missing')}`), 404, 'UnknownResourceError');
      });

      it('POST with password-specification-type=password-hash creates a role that logs in with the original password', async () => {
        const original = env.uniqueName('orig');
        await r.createRole(original, 'shared-pw');
        const hash = (await readCsv(await env.fetch(`/roles/${original}`))).records.find((x) => x.Property === 'password-hash')!.Value!;
        const copy = env.uniqueName('copy');
        await expectEmpty(await r.postRole(copy, hash, 'password-hash'), 201);
        env.connection.grantPrivileges(copy, '|datastores', 'read');
        expect(await r.statusAs('/datastores', copy, 'shared-pw')).to.equal(200);
        // the hash itself is not a password
        expect(await r.statusAs('/datastores', copy, hash)).to.equal(401);
        const exported = (await readCsv(await env.fetch(`/roles/${copy}`))).records.find((x) => x.Property === 'password-hash')!.Value;
        expect(exported).to.equal(hash);
      });

      it('a bad hash or an unknown password-specification-type is a 400 naming it, and creates nothing', async () => {
        const bad = env.uniqueName('badhash');
        expect(await expectErrorResponse(await r.postRole(bad, 'not-a-hash', 'password-hash'), 400, 'BadRequestError')).to.match(/password hash/);
        expect(await expectErrorResponse(await r.postRole(bad, '$scrypt$ln=99,r=8,p=1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'password-hash'), 400, 'BadRequestError')).to.match(/password hash/);
        expect(await expectErrorResponse(await r.postRole(bad, 'pw', 'plaintext'), 400, 'BadRequestError')).to.contain('plaintext');
        expect(await expectErrorResponse(await r.postRole(bad, '', 'password'), 400, 'BadRequestError')).to.contain('password');
        expect(await expectErrorResponse(await r.postRole(bad, 'pw', 'none'), 400, 'BadRequestError')).to.contain(bad);
        expect(await namesOf(await env.fetch('/roles'))).to.not.include(bad);
        await expectErrorResponse(await env.fetch(`/roles/${bad}`), 404, 'UnknownResourceError');
      });

      it("none creates a role that cannot log in (401) but whose privileges its members inherit", async () => {
        const group = env.uniqueName('nopw');
        const res = await r.postRole(group, '', 'none');
        await expectEmpty(res, 201);
        expect(res.headers.get('location')).to.equal(`/roles/${group}`);
        const described = (await readCsv(await env.fetch(`/roles/${group}`))).records;
        expect(described).to.deep.equal([
          { Property: 'name', Value: group },
          { Property: 'password-hash', Value: '' },
        ]);
        env.connection.grantPrivileges(group, '|datastores', 'read');
        for (const password of ['', 'x', 'none']) {
          await expectErrorResponse(await env.fetch('/datastores', { as: r.as(group, password) }), 401, 'AuthenticationError');
        }
        const member = env.uniqueName('nopw-member');
        await r.createRole(member, 'member-pw');
        expect(await r.statusAs('/datastores', member, 'member-pw')).to.equal(403);
        expect(await changedOf(await r.patchMemberships(member, 'grant', group))).to.equal('true');
        expect(await r.statusAs('/datastores', member, 'member-pw')).to.equal(200);
      });

      it('a role without write on |roles cannot create or delete roles (403) and changes nothing', async () => {
        const weak = env.uniqueName('weak');
        await r.createRole(weak, 'weak-pw');
        env.connection.grantPrivileges(weak, '|roles', 'read');
        const victim = env.uniqueName('victim');
        await r.createRole(victim, 'victim-pw');
        env.connection.grantPrivileges(victim, '|datastores', 'read');
        const wanted = env.uniqueName('wanted');
        await expectErrorResponse(await r.postRole(wanted, 'pw', undefined, r.as(weak, 'weak-pw')), 403, 'AccessDeniedError');
        await expectErrorResponse(await env.fetch(`/roles/${victim}`, { method: 'DELETE', as: r.as(weak, 'weak-pw') }), 403, 'AccessDeniedError');
        const names = await namesOf(await env.fetch('/roles', { as: r.as(weak, 'weak-pw') }));
        expect(names).to.include(victim).and.not.include(wanted);
        expect(await r.statusAs('/datastores', victim, 'victim-pw')).to.equal(200);
        // without read on |roles, listing is refused
        await expectErrorResponse(await env.fetch('/roles', { as: r.as(victim, 'victim-pw') }), 403, 'AccessDeniedError');
      });

      it('DELETE answers 204; the role’s Basic credentials then give 401 and its open connections stop working', async () => {
        const store = await env.createStore();
        const role = env.uniqueName('doomed');
        await r.createRole(role, 'doomed-pw');
        env.connection.grantPrivileges(role, `|datastores|${store}`, 'read');
        env.connection.grantPrivileges(role, '|datastores', 'read');
        const opened = await env.fetch(`/datastores/${store}/connections`, { method: 'POST', as: r.as(role, 'doomed-pw') });
        await expectEmpty(opened, 201);
        const location = opened.headers.get('location')!;
        const token = opened.headers.get('service-authentication-token')!;
        const id = location.split('/').pop()!;
        const service = { authorization: `Service ${token}` };
        const info = await readCsv(await env.fetch(location, { headers: service }));
        expect(info.records).to.deep.equal([{ Property: 'role-name', Value: role, Mutable: 'false' }]);
        const prefixes = await env.fetch(`/datastores/${store}/prefixes?connection=${id}`, { headers: service });
        expect(prefixes.status).to.equal(200);
        await prefixes.text();

        await expectEmpty(await env.fetch(`/roles/${role}`, { method: 'DELETE' }), 204);
        const refused = await env.fetch('/datastores', { as: r.as(role, 'doomed-pw') });
        await expectErrorResponse(refused, 401, 'AuthenticationError');
        expect(refused.headers.get('www-authenticate')).to.equal('Basic realm="quadlog"');
        await expectErrorResponse(await env.fetch(location, { headers: service }), 401, 'AuthenticationError');
        await expectErrorResponse(await env.fetch(`/datastores/${store}/prefixes?connection=${id}`, { headers: service }), 401, 'AuthenticationError');
        expect(await namesOf(await env.fetch('/roles'))).to.not.include(role);
        await expectErrorResponse(await env.fetch(`/roles/${role}`), 404, 'UnknownResourceError');
        await expectErrorResponse(await env.fetch(`/roles/${role}`, { method: 'DELETE' }), 404, 'UnknownResourceError');

        // a new role of the same name (and password, and privileges) does not revive the connection
        await r.createRole(role, 'doomed-pw');
        env.connection.grantPrivileges(role, `|datastores|${store}`, 'read');
        await expectErrorResponse(await env.fetch(location, { headers: service }), 401, 'AuthenticationError');
        await expectErrorResponse(await env.fetch(`/datastores/${store}/prefixes?connection=${id}`, { headers: service }), 401, 'AuthenticationError');
      });
    });

    describe('passwords', () => {
      it('PUT /password old\\nnew answers 204; the old password gives 401 at once, the new one works', async () => {
        const role = env.uniqueName('pw');
        await r.createRole(role, 'old-pw');
        env.connection.grantPrivileges(role, '|datastores', 'read');
        expect(await r.statusAs('/datastores', role, 'old-pw')).to.equal(200);
        await expectEmpty(await env.fetch('/password', { method: 'PUT', body: 'old-pw\nnew-pw', as: r.as(role, 'old-pw') }), 204);
        await expectErrorResponse(await env.fetch('/datastores', { as: r.as(role, 'old-pw') }), 401, 'AuthenticationError');
        expect(await r.statusAs('/datastores', role, 'new-pw')).to.equal(200);
        // CRLF and a final line end are accepted too
        await expectEmpty(await env.fetch('/password', { method: 'PUT', body: 'new-pw\r\nnewer-pw\r\n', as: r.as(role, 'new-pw') }), 204);
        expect(await r.statusAs('/datastores', role, 'newer-pw')).to.equal(200);
        expect(await r.statusAs('/datastores', role, 'new-pw')).to.equal(401);
      });

      it('a wrong old password is a 401 and changes nothing', async () => {
        const role = env.uniqueName('pw-wrong');
        await r.createRole(role, 'right-pw');
        env.connection.grantPrivileges(role, '|datastores', 'read');
        await expectErrorResponse(await env.fetch('/password', { method: 'PUT', body: 'not-it\nhijacked', as: r.as(role, 'right-pw') }), 401, 'AuthenticationError');
        expect(await r.statusAs('/datastores', role, 'right-pw')).to.equal(200);
        expect(await r.statusAs('/datastores', role, 'hijacked')).to.equal(401);
        const hashBefore = env.connection.describeRole(role).passwordHash;
        // the old password of another role does not help either
        await expectErrorResponse(await env.fetch('/password', { method: 'PUT', body: 'admin-secret\nhijacked', as: r.as(role, 'right-pw') }), 401, 'AuthenticationError');
        expect(env.connection.describeRole(role).passwordHash).to.equal(hashBefore);
      });

      it('a malformed body is a 400 and changes nothing', async () => {
        const role = env.uniqueName('pw-bad');
        await r.createRole(role, 'kept-pw');
        env.connection.grantPrivileges(role, '|datastores', 'read');
        for (const body of ['kept-pw', '', 'kept-pw\nnew\nextra', 'kept-pw\n']) {
          const res = await env.fetch('/password', { method: 'PUT', body, as: r.as(role, 'kept-pw') });
          await expectErrorResponse(res, 400, 'BadRequestError');
        }
        expect(await r.statusAs('/datastores', role, 'kept-pw')).to.equal(200);
        expect(await r.statusAs('/datastores', role, 'new')).to.equal(401);
        // without credentials there is no role whose password could change
        await expectErrorResponse(await env.fetch('/password', { method: 'PUT', body: 'kept-pw\nnew', anonymous: true }), 401, 'AuthenticationError');
      });
    });

    describe('privileges', () => {
      it('GET lists ResourceSpecifier and AllowedAccessTypes', async () => {
        const role = env.uniqueName('priv');
        await r.createRole(role, 'pw');
        expect(await r.privileges(role)).to.deep.equal([]);
        expect(await changedOf(await r.patchPrivileges(role, 'grant', '>datastores', 'write,read'))).to.equal('true');
        const res = await env.fetch(`/roles/${role}/privileges`);
        const table = await readCsv(res);
        expect(table.columns).to.deep.equal(['ResourceSpecifier', 'AllowedAccessTypes']);
        expect(table.records).to.deep.equal([{ ResourceSpecifier: '>datastores', AllowedAccessTypes: 'read,write' }]);
        await expectErrorResponse(await env.fetch(`/roles/${env.uniqueName('missing')}/privileges`), 404, 'UnknownResourceError');
      });

      it('PATCH grant answers Changed true, then false; revoke true, then false; the privilege takes effect at once', async () => {
        const store = await env.createStore();
        const role = env.uniqueName('grantee');
        await r.createRole(role, 'pw');
        env.connection.grantPrivileges(role, '|datastores', 'read');
        expect(await r.statusAs(`/datastores/${store}`, role, 'pw')).to.equal(403);
        expect(await changedOf(await r.patchPrivileges(role, 'grant', `|datastores|${store}`, 'read'))).to.equal('true');
        expect(await changedOf(await r.patchPrivileges(role, 'grant', `|datastores|${store}`, 'read'))).to.equal('false');
        expect(await r.statusAs(`/datastores/${store}`, role, 'pw')).to.equal(200);
        expect(await namesOf(await env.fetch('/datastores', { as: r.as(role, 'pw') }))).to.deep.equal([store]);
        expect(await changedOf(await r.patchPrivileges(role, 'revoke', `|datastores|${store}`, 'read'))).to.equal('true');
        expect(await changedOf(await r.patchPrivileges(role, 'revoke', `|datastores|${store}`, 'read'))).to.equal('false');
        expect(await r.statusAs(`/datastores/${store}`, role, 'pw')).to.equal(403);
        expect(await r.privileges(role)).to.deep.equal([{ ResourceSpecifier: '|datastores', AllowedAccessTypes: 'read' }]);
      });

      it('revoking read from a role holding full leaves it able to read', async () => {
        const store = await env.createStore();
        const role = env.uniqueName('full');
        await r.createRole(role, 'pw');
        expect(await changedOf(await r.patchPrivileges(role, 'grant', '>datastores', 'full'))).to.equal('true');
        expect(await r.statusAs(`/datastores/${store}`, role, 'pw')).to.equal(200);
        expect(await changedOf(await r.patchPrivileges(role, 'revoke', '>datastores', 'read'))).to.equal('false');
        expect(await r.privileges(role)).to.deep.equal([{ ResourceSpecifier: '>datastores', AllowedAccessTypes: 'full' }]);
        expect(await r.statusAs(`/datastores/${store}`, role, 'pw')).to.equal(200);
        expect(await r.statusAs('/datastores', role, 'pw')).to.equal(200);
      });

      it('invalid resource specifiers and access types are a 400 naming them, and grant nothing', async () => {
        const role = env.uniqueName('invalid');
        await r.createRole(role, 'pw');
        for (const specifier of ['datastores', '|nothing', '>roles|x', '|datastores|*|rules', '|datastores|ds|unknown', '|datastores||', '|roles|x|y', '|datastores|*x']) {
          const text = await expectErrorResponse(await r.patchPrivileges(role, 'grant', specifier, 'read'), 400, 'BadRequestError');
          expect(text, specifier).to.contain(specifier);
        }
        expect(await expectErrorResponse(await r.patchPrivileges(role, 'grant', '|datastores', 'readwrite'), 400, 'BadRequestError')).to.contain('readwrite');
        expect(await expectErrorResponse(await r.patchPrivileges(role, 'grant', '|datastores', 'read,delete'), 400, 'BadRequestError')).to.contain('delete');
        expect(await expectErrorResponse(await r.patchPrivileges(role, 'give', '|datastores', 'read'), 400, 'BadRequestError')).to.contain('give');
        await expectErrorResponse(await env.fetch(`/roles/${role}/privileges?operation=grant&access-types=read`, { method: 'PATCH' }), 400, 'BadRequestError');
        await expectErrorResponse(await env.fetch(`/roles/${role}/privileges?operation=grant&resource-specifier=%7Cdatastores`, { method: 'PATCH' }), 400, 'BadRequestError');
        expect(await r.privileges(role)).to.deep.equal([]);
        // valid forms, for contrast: wildcards, recursion, escapes, the server itself
        for (const specifier of ['|', '>', '|datastores|*', '>datastores|*', '|roles|*', '|roles|**x', '|roles|a||b', '|datastores|ds|namedgraphs|<http://example.com/g>']) {
          expect(await changedOf(await r.patchPrivileges(role, 'grant', specifier, 'read')), specifier).to.equal('true');
        }
        expect((await r.privileges(role)).map((p) => p.ResourceSpecifier)).to.have.members(['|', '>', '|datastores|*', '>datastores|*', '|roles|*', '|roles|**x', '|roles|a||b', '|datastores|ds|namedgraphs|<http://example.com/g>']);
      });

      it('a role cannot grant or revoke its own privileges (403)', async () => {
        expect(await expectErrorResponse(await r.patchPrivileges('admin', 'grant', '|datastores', 'read'), 403, 'AccessDeniedError')).to.contain('admin');
        await expectErrorResponse(await r.patchPrivileges('admin', 'revoke', '>', 'full'), 403, 'AccessDeniedError');
        expect(await r.privileges('admin')).to.deep.equal([{ ResourceSpecifier: '>', AllowedAccessTypes: 'full' }]);
        // also a role that holds grant on everything it names
        const granter = env.uniqueName('selfish');
        await r.createRole(granter, 'pw');
        env.connection.grantPrivileges(granter, '>', 'grant');
        env.connection.grantPrivileges(granter, '>roles', 'write');
        await expectErrorResponse(await r.patchPrivileges(granter, 'grant', '>', 'full', r.as(granter, 'pw')), 403, 'AccessDeniedError');
        expect(await r.privileges(granter)).to.deep.equal([
          { ResourceSpecifier: '>', AllowedAccessTypes: 'grant' },
          { ResourceSpecifier: '>roles', AllowedAccessTypes: 'write' },
        ]);
      });

      it('a role without grant on the resource (or without write on the receiving role) is refused (403) and nothing changes', async () => {
        const store = await env.createStore();
        const target = env.uniqueName('target');
        await r.createRole(target, 'target-pw');
        const noGrant = env.uniqueName('nogrant');
        await r.createRole(noGrant, 'pw');
        env.connection.grantPrivileges(noGrant, `|roles|${target}`, 'write');
        env.connection.grantPrivileges(noGrant, '>datastores', 'read,write');
        await expectErrorResponse(await r.patchPrivileges(target, 'grant', `|datastores|${store}`, 'read', r.as(noGrant, 'pw')), 403, 'AccessDeniedError');
        const narrow = env.uniqueName('narrow');
        await r.createRole(narrow, 'pw');
        env.connection.grantPrivileges(narrow, `|roles|${target}`, 'write');
        env.connection.grantPrivileges(narrow, `|datastores|${store}`, 'grant');
        // grant on one store does not cover every store
        await expectErrorResponse(await r.patchPrivileges(target, 'grant', '|datastores|*', 'read', r.as(narrow, 'pw')), 403, 'AccessDeniedError');
        await expectErrorResponse(await r.patchPrivileges(target, 'grant', `>datastores|${store}`, 'read', r.as(narrow, 'pw')), 403, 'AccessDeniedError');
        const noWrite = env.uniqueName('nowrite');
        await r.createRole(noWrite, 'pw');
        env.connection.grantPrivileges(noWrite, '>datastores', 'grant');
        env.connection.grantPrivileges(noWrite, '|roles', 'write');
        await expectErrorResponse(await r.patchPrivileges(target, 'grant', `|datastores|${store}`, 'read', r.as(noWrite, 'pw')), 403, 'AccessDeniedError');
        expect(await r.privileges(target)).to.deep.equal([]);
        expect(await r.statusAs(`/datastores/${store}`, target, 'target-pw')).to.equal(403);
        // nor can they take away a privilege
        env.connection.grantPrivileges(target, '|datastores', 'read');
        await expectErrorResponse(await r.patchPrivileges(target, 'revoke', '|datastores', 'read', r.as(noGrant, 'pw')), 403, 'AccessDeniedError');
        expect(await r.privileges(target)).to.deep.equal([{ ResourceSpecifier: '|datastores', AllowedAccessTypes: 'read' }]);
      });

      it('a role with grant on >datastores and write on |roles|x can grant |datastores|ds read to x', async () => {
        const store = await env.createStore();
        const x = env.uniqueName('x');
        await r.createRole(x, 'x-pw');
        const delegate = env.uniqueName('delegate');
        await r.createRole(delegate, 'd-pw');
        env.connection.grantPrivileges(delegate, '>datastores', 'grant');
        env.connection.grantPrivileges(delegate, `|roles|${x}`, 'write');
        expect(await r.statusAs(`/datastores/${store}`, x, 'x-pw')).to.equal(403);
        expect(await changedOf(await r.patchPrivileges(x, 'grant', `|datastores|${store}`, 'read', r.as(delegate, 'd-pw')))).to.equal('true');
        expect(await r.privileges(x)).to.deep.equal([{ ResourceSpecifier: `|datastores|${store}`, AllowedAccessTypes: 'read' }]);
        expect(await r.statusAs(`/datastores/${store}`, x, 'x-pw')).to.equal(200);
        // but only to x, and only on data stores
        const y = env.uniqueName('y');
        await r.createRole(y, 'y-pw');
        await expectErrorResponse(await r.patchPrivileges(y, 'grant', `|datastores|${store}`, 'read', r.as(delegate, 'd-pw')), 403, 'AccessDeniedError');
        await expectErrorResponse(await r.patchPrivileges(x, 'grant', '|roles', 'read', r.as(delegate, 'd-pw')), 403, 'AccessDeniedError');
        expect(await r.privileges(y)).to.deep.equal([]);
        expect(await changedOf(await r.patchPrivileges(x, 'revoke', `|datastores|${store}`, 'read', r.as(delegate, 'd-pw')))).to.equal('true');
        expect(await r.statusAs(`/datastores/${store}`, x, 'x-pw')).to.equal(403);
      });
    });

    describe('memberships', () => {
      it('PATCH grant makes a role a member: it is listed both ways and gains the privileges at once; revoke takes them away at once', async () => {
        const store = await env.createStore();
        const group = env.uniqueName('group');
        await r.createRole(group, 'g-pw');
        env.connection.grantPrivileges(group, `>datastores|${store}`, 'read');
        env.connection.grantPrivileges(group, '|datastores', 'read');
        const member = env.uniqueName('member');
        await r.createRole(member, 'm-pw');
        expect(await namesOf(await env.fetch(`/roles/${member}/memberships`))).to.deep.equal([]);
        expect(await namesOf(await env.fetch(`/roles/${group}/members`))).to.deep.equal([]);
        expect(await r.statusAs(`/datastores/${store}`, member, 'm-pw')).to.equal(403);

        expect(await changedOf(await r.patchMemberships(member, 'grant', group))).to.equal('true');
        expect(await changedOf(await r.patchMemberships(member, 'grant', group))).to.equal('false');
        expect(await namesOf(await env.fetch(`/roles/${member}/memberships`))).to.deep.equal([group]);
        expect(await namesOf(await env.fetch(`/roles/${group}/members`))).to.deep.equal([member]);
        expect(await namesOf(await env.fetch(`/roles/${group}/memberships`))).to.deep.equal([]);
        expect(await r.statusAs(`/datastores/${store}`, member, 'm-pw')).to.equal(200);
        expect(await namesOf(await env.fetch('/datastores', { as: r.as(member, 'm-pw') }))).to.deep.equal([store]);
        // inherited privileges are not listed as the member's own
        expect(await r.privileges(member)).to.deep.equal([]);

        expect(await changedOf(await r.patchMemberships(member, 'revoke', group))).to.equal('true');
        expect(await changedOf(await r.patchMemberships(member, 'revoke', group))).to.equal('false');
        expect(await r.statusAs(`/datastores/${store}`, member, 'm-pw')).to.equal(403);
        expect(await namesOf(await env.fetch(`/roles/${group}/members`))).to.deep.equal([]);
        expect(await namesOf(await env.fetch(`/roles/${member}/memberships`))).to.deep.equal([]);
      });

      it('a privilege granted to or revoked from the super role reaches its members at once', async () => {
        const store = await env.createStore();
        const group = env.uniqueName('live-group');
        await expectEmpty(await r.postRole(group, '', 'none'), 201);
        const member = env.uniqueName('live-member');
        await r.createRole(member, 'm-pw');
        expect(await changedOf(await r.patchMemberships(member, 'grant', group))).to.equal('true');
        expect(await r.statusAs(`/datastores/${store}`, member, 'm-pw')).to.equal(403);
        expect(await changedOf(await r.patchPrivileges(group, 'grant', `|datastores|${store}`, 'read'))).to.equal('true');
        expect(await r.statusAs(`/datastores/${store}`, member, 'm-pw')).to.equal(200);
        expect(await changedOf(await r.patchPrivileges(group, 'revoke', `|datastores|${store}`, 'read'))).to.equal('true');
        expect(await r.statusAs(`/datastores/${store}`, member, 'm-pw')).to.equal(403);
      });

      it('deleting the super role takes its privileges from the members', async () => {
        const store = await env.createStore();
        const group = env.uniqueName('gone-group');
        await expectEmpty(await r.postRole(group, '', 'none'), 201);
        env.connection.grantPrivileges(group, `|datastores|${store}`, 'read');
        const member = env.uniqueName('gone-member');
        await r.createRole(member, 'm-pw');
        expect(await changedOf(await r.patchMemberships(member, 'grant', group))).to.equal('true');
        expect(await r.statusAs(`/datastores/${store}`, member, 'm-pw')).to.equal(200);
        await expectEmpty(await env.fetch(`/roles/${group}`, { method: 'DELETE' }), 204);
        expect(await r.statusAs(`/datastores/${store}`, member, 'm-pw')).to.equal(403);
        expect(await namesOf(await env.fetch(`/roles/${member}/memberships`))).to.deep.equal([]);
        // a new role of the same name does not bring the membership back
        await expectEmpty(await r.postRole(group, '', 'none'), 201);
        env.connection.grantPrivileges(group, `|datastores|${store}`, 'read');
        expect(await r.statusAs(`/datastores/${store}`, member, 'm-pw')).to.equal(403);
      });

      it('memberships are transitive: a ∈ b ∈ c with a privilege on c', async () => {
        const store = await env.createStore();
        const [a, b, c] = [env.uniqueName('a'), env.uniqueName('b'), env.uniqueName('c')];
        await r.createRole(a, 'a-pw');
        await expectEmpty(await r.postRole(b, '', 'none'), 201);
        await expectEmpty(await r.postRole(c, '', 'none'), 201);
        env.connection.grantPrivileges(c, `|datastores|${store}`, 'read');
        expect(await changedOf(await r.patchMemberships(a, 'grant', b))).to.equal('true');
        expect(await r.statusAs(`/datastores/${store}`, a, 'a-pw')).to.equal(403);
        expect(await changedOf(await r.patchMemberships(b, 'grant', c))).to.equal('true');
        expect(await r.statusAs(`/datastores/${store}`, a, 'a-pw')).to.equal(200);
        // direct memberships only
        expect(await namesOf(await env.fetch(`/roles/${a}/memberships`))).to.deep.equal([b]);
        expect(await namesOf(await env.fetch(`/roles/${c}/members`))).to.deep.equal([b]);
        expect(await changedOf(await r.patchMemberships(b, 'revoke', c))).to.equal('true');
        expect(await r.statusAs(`/datastores/${store}`, a, 'a-pw')).to.equal(403);
      });

      it('a membership that would close a cycle is a 400 naming the roles, and changes nothing', async () => {
        const [x, g, h] = [env.uniqueName('cx'), env.uniqueName('cg'), env.uniqueName('ch')];
        for (const role of [x, g, h]) await expectEmpty(await r.postRole(role, '', 'none'), 201);
        expect(await changedOf(await r.patchMemberships(x, 'grant', g))).to.equal('true');
        const text = await expectErrorResponse(await r.patchMemberships(g, 'grant', x), 400, 'BadRequestError');
        expect(text).to.contain(g).and.to.contain(x).and.to.match(/cycle/);
        // a longer cycle, and a role in itself
        expect(await changedOf(await r.patchMemberships(g, 'grant', h))).to.equal('true');
        expect(await expectErrorResponse(await r.patchMemberships(h, 'grant', x), 400, 'BadRequestError')).to.match(/cycle/);
        expect(await expectErrorResponse(await r.patchMemberships(x, 'grant', x), 400, 'BadRequestError')).to.contain(x);
        expect(await namesOf(await env.fetch(`/roles/${g}/memberships`))).to.deep.equal([h]);
        expect(await namesOf(await env.fetch(`/roles/${h}/memberships`))).to.deep.equal([]);
        expect(await namesOf(await env.fetch(`/roles/${x}/memberships`))).to.deep.equal([g]);
      });

      it('granting a membership needs grant on the super role and write on the member; no role grants itself one', async () => {
        const store = await env.createStore();
        const powerful = env.uniqueName('powerful');
        await expectEmpty(await r.postRole(powerful, '', 'none'), 201);
        env.connection.grantPrivileges(powerful, `|datastores|${store}`, 'full');
        const climber = env.uniqueName('climber');
        await r.createRole(climber, 'c-pw');
        env.connection.grantPrivileges(climber, '>roles', 'write');
        env.connection.grantPrivileges(climber, '|roles', 'read');
        // write on every role, but no grant on the super role
        await expectErrorResponse(await r.patchMemberships(climber, 'grant', powerful, r.as(climber, 'c-pw')), 403, 'AccessDeniedError');
        const other = env.uniqueName('other');
        await r.createRole(other, 'o-pw');
        await expectErrorResponse(await r.patchMemberships(other, 'grant', powerful, r.as(climber, 'c-pw')), 403, 'AccessDeniedError');
        // grant on the super role does not let a role make itself a member
        env.connection.grantPrivileges(climber, `|roles|${powerful}`, 'grant');
        await expectErrorResponse(await r.patchMemberships(climber, 'grant', powerful, r.as(climber, 'c-pw')), 403, 'AccessDeniedError');
        expect(await namesOf(await env.fetch(`/roles/${powerful}/members`))).to.deep.equal([]);
        expect(await r.statusAs(`/datastores/${store}`, climber, 'c-pw')).to.equal(403);
        // with grant on the super role and write on another role, it can make that role a member
        expect(await changedOf(await r.patchMemberships(other, 'grant', powerful, r.as(climber, 'c-pw')))).to.equal('true');
        expect(await r.statusAs(`/datastores/${store}`, other, 'o-pw')).to.equal(200);
        await expectErrorResponse(await r.patchMemberships(other, 'grant', env.uniqueName('nobody')), 404, 'UnknownResourceError');
      });
    });

    describe('listing data stores', () => {
      it('a role sees only the stores it may read; GET on another store is a 403', async () => {
        const a = await env.createStore(env.uniqueName('seen'));
        const b = await env.createStore(env.uniqueName('hidden'));
        const role = env.uniqueName('lister');
        await r.createRole(role, 'l-pw');
        env.connection.grantPrivileges(role, '|datastores', 'read');
        env.connection.grantPrivileges(role, `|datastores|${a}`, 'read');
        const names = await namesOf(await env.fetch('/datastores', { as: r.as(role, 'l-pw') }));
        expect(names).to.deep.equal([a]);
        expect(await namesOf(await env.fetch('/datastores'))).to.include.members([a, b]);
        expect(await r.statusAs(`/datastores/${a}`, role, 'l-pw')).to.equal(200);
        expect(await expectErrorResponse(await env.fetch(`/datastores/${b}`, { as: r.as(role, 'l-pw') }), 403, 'AccessDeniedError')).to.contain(b);
        await expectErrorResponse(await env.fetch(`/datastores/${b}/sparql?query=${encodeURIComponent('ASK {}')}`, { as: r.as(role, 'l-pw') }), 403, 'AccessDeniedError');
        await expectErrorResponse(await env.fetch(`/datastores/${b}/connections`, { method: 'POST', as: r.as(role, 'l-pw') }), 403, 'AccessDeniedError');
        // read does not allow deleting
        await expectErrorResponse(await env.fetch(`/datastores/${a}`, { method: 'DELETE', as: r.as(role, 'l-pw') }), 403, 'AccessDeniedError');
        expect(env.connection.listDataStores()).to.include.members([a, b]);
      });

      it('without read on |datastores the list is refused (403), even with read on a store', async () => {
        const a = await env.createStore();
        const role = env.uniqueName('nolist');
        await r.createRole(role, 'pw');
        env.connection.grantPrivileges(role, `|datastores|${a}`, 'read');
        await expectErrorResponse(await env.fetch('/datastores', { as: r.as(role, 'pw') }), 403, 'AccessDeniedError');
        expect(await r.statusAs(`/datastores/${a}`, role, 'pw')).to.equal(200);
      });
    });
  });
}

describe('HTTP roles: secure defaults without the guest role', () => {
  const env = useEndpoint('roles-no-guest', { variant: 'A' });

  it('answers requests without credentials with 401 and WWW-Authenticate', async () => {
    const store = await env.createStore();
    for (const [path, method] of [['/datastores', 'GET'], [`/datastores/${store}`, 'GET'], ['/roles', 'GET'], ['/roles/admin', 'GET'], ['/roles/intruder', 'POST'], ['/roles/admin/privileges', 'GET']] as const) {
      const res = await env.fetch(path, { method, anonymous: true, ...(method === 'POST' ? { body: 'pw' } : {}) });
      await expectErrorResponse(res, 401, 'AuthenticationError');
      expect(res.headers.get('www-authenticate'), `${method} ${path}`).to.equal('Basic realm="quadlog"');
    }
    expect(await namesOf(await env.fetch('/roles'))).to.not.include('intruder');
    expect(await namesOf(await env.fetch('/roles'))).to.not.include('guest');
  });

  it('DELETE /datastores/<ds> without credentials is a 401 and deletes nothing', async () => {
    const store = await env.createStore();
    const res = await env.fetch(`/datastores/${store}`, { method: 'DELETE', anonymous: true });
    await expectErrorResponse(res, 401, 'AuthenticationError');
    expect(env.connection.listDataStores()).to.include(store);
    expect((await env.fetch(`/datastores/${store}`)).status).to.equal(200);
  });

  it('a privilege change without credentials is a 401 and changes nothing', async () => {
    const res = await env.fetch(`/roles/admin/privileges?operation=revoke&resource-specifier=%3E&access-types=full`, { method: 'PATCH', anonymous: true });
    await expectErrorResponse(res, 401, 'AuthenticationError');
    expect(env.connection.listPrivileges('admin')).to.deep.equal([{ resourceSpecifier: '>', accessTypes: ['full'] }]);
  });
});

describe('HTTP roles: the guest role', () => {
  const env = useEndpoint('roles-guest', { variant: 'B', parameters: { 'create-guest-role': 'true' } });
  const r = roleRequests(env);

  it('has no privileges until granted: 403, not 401; read once granted', async () => {
    const store = await env.createStore();
    expect(await r.privileges('guest')).to.deep.equal([]);
    const described = (await readCsv(await env.fetch('/roles/guest'))).records;
    expect(described).to.deep.equal([
      { Property: 'name', Value: 'guest' },
      { Property: 'password-hash', Value: '' },
    ]);
    await expectErrorResponse(await env.fetch('/datastores', { anonymous: true }), 403, 'AccessDeniedError');
    await expectErrorResponse(await env.fetch(`/datastores/${store}`, { anonymous: true }), 403, 'AccessDeniedError');
    await expectErrorResponse(await env.fetch('/roles', { anonymous: true }), 403, 'AccessDeniedError');
    // the guest cannot log in with Basic
    await expectErrorResponse(await env.fetch('/datastores', { headers: { authorization: basicAuth('guest', '') } }), 401, 'AuthenticationError');

    expect(await changedOf(await r.patchPrivileges('guest', 'grant', '>datastores', 'read'))).to.equal('true');
    const list = await env.fetch('/datastores', { anonymous: true });
    expect(await namesOf(list)).to.include(store);
    expect((await env.fetch(`/datastores/${store}`, { anonymous: true })).status).to.equal(200);
    // read only
    await expectErrorResponse(await env.fetch(`/datastores/${env.uniqueName('guest-made')}?type=parallel-nn`, { method: 'POST', anonymous: true }), 403, 'AccessDeniedError');
    await expectErrorResponse(await env.fetch('/roles/guest-made', { method: 'POST', body: 'pw', headers: { 'content-type': 'text/plain' }, anonymous: true }), 403, 'AccessDeniedError');
    expect(await changedOf(await r.patchPrivileges('guest', 'revoke', '>datastores', 'read'))).to.equal('true');
    await expectErrorResponse(await env.fetch(`/datastores/${store}`, { anonymous: true }), 403, 'AccessDeniedError');
  });

  it('DELETE /datastores/<ds> without credentials never deletes: 403 without write, also when the guest may read', async () => {
    const store = await env.createStore();
    await expectErrorResponse(await env.fetch(`/datastores/${store}`, { method: 'DELETE', anonymous: true }), 403, 'AccessDeniedError');
    expect(env.connection.listDataStores()).to.include(store);
    env.connection.grantPrivileges('guest', `|datastores|${store}`, 'read');
    env.connection.grantPrivileges('guest', '|datastores', 'read');
    await expectErrorResponse(await env.fetch(`/datastores/${store}`, { method: 'DELETE', anonymous: true }), 403, 'AccessDeniedError');
    expect(env.connection.listDataStores()).to.include(store);
    expect((await env.fetch(`/datastores/${store}`)).status).to.equal(200);
    env.connection.revokePrivileges('guest', `|datastores|${store}`, 'read');
    env.connection.revokePrivileges('guest', '|datastores', 'read');
  });

  it('a guest cannot grant itself privileges or change a password', async () => {
    await expectErrorResponse(await env.fetch(`/roles/guest/privileges?operation=grant&resource-specifier=%3E&access-types=full`, { method: 'PATCH', anonymous: true }), 403, 'AccessDeniedError');
    expect(await r.privileges('guest')).to.deep.equal([]);
    // the guest has no password, so none is its current one
    await expectErrorResponse(await env.fetch('/password', { method: 'PUT', body: '\nnew-guest-pw', anonymous: true }), 401, 'AuthenticationError');
    await expectErrorResponse(await env.fetch('/datastores', { headers: { authorization: basicAuth('guest', 'new-guest-pw') } }), 401, 'AuthenticationError');
  });
});

describe('HTTP roles: deleting the guest role', () => {
  const env = useEndpoint('roles-guest-deleted', { variant: 'A', parameters: { 'create-guest-role': 'true' } });

  it('makes requests without credentials 401 at once', async () => {
    const store = await env.createStore();
    env.connection.grantPrivileges('guest', '>datastores', 'read');
    expect((await env.fetch(`/datastores/${store}`, { anonymous: true })).status).to.equal(200);
    await expectEmpty(await env.fetch('/roles/guest', { method: 'DELETE' }), 204);
    const res = await env.fetch(`/datastores/${store}`, { anonymous: true });
    await expectErrorResponse(res, 401, 'AuthenticationError');
    expect(res.headers.get('www-authenticate')).to.equal('Basic realm="quadlog"');
    await expectErrorResponse(await env.fetch(`/datastores/${store}`, { method: 'DELETE', anonymous: true }), 401, 'AuthenticationError');
    expect(env.connection.listDataStores()).to.include(store);
  });
});
