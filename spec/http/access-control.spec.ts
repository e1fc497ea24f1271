/**
 * The privilege matrix over HTTP: for each path and method of the management interface that
 * acts on a protected resource, a role without the privileges it needs gets 403 (never 401:
 * its credentials are right) and nothing changes; with them (granted directly or through a
 * membership) the request succeeds. Requests without credentials get 401 when the server
 * has no guest role.
 */
import { expect } from 'chai';
import { grantedRole, stateOf } from '../helpers/access.js';
import { basicAuth, expectErrorResponse, useEndpoint } from './helpers.js';

interface HttpOperation {
  readonly method: string;
  /** The path; `%s` is the prepared store's name. */
  readonly path: string;
  readonly body?: string;
  readonly contentType?: string;
  /** Privileges needed (`%s` is the store's name). */
  readonly needs: ReadonlyArray<readonly [string, string]>;
}

const STORE = '|datastores|%s';
const OPERATIONS: readonly HttpOperation[] = [
  { method: 'GET', path: '/', needs: [['|', 'read']] },
  { method: 'PATCH', path: '/?operation=set&num-threads=2', needs: [['|', 'read'], ['|', 'write']] },
  { method: 'GET', path: '/datastores', needs: [['|datastores', 'read']] },
  { method: 'POST', path: '/datastores/%s-new?type=parallel-nn', needs: [['|datastores', 'write']] },
  { method: 'DELETE', path: '/datastores/%s', needs: [['|datastores', 'write'], [STORE, 'write']] },
  { method: 'GET', path: '/datastores/%s', needs: [[STORE, 'read']] },
  { method: 'PATCH', path: '/datastores/%s?operation=compact', needs: [[STORE, 'read'], [STORE, 'write']] },
  { method: 'GET', path: '/datastores/%s/prefixes', needs: [[STORE, 'read']] },
  { method: 'PATCH', path: '/datastores/%s/prefixes?operation=set&prefix-name=n:&prefix-iri=http://example.com/n%23', needs: [[STORE, 'read'], [STORE, 'write']] },
  { method: 'GET', path: '/datastores/%s/content', needs: [[STORE, 'read'], [`${STORE}|tupletables|DefaultTriples`, 'read'], [`${STORE}|tupletables|Quads`, 'read']] },
  {
    method: 'PATCH',
    path: '/datastores/%s/content?operation=add-content',
    body: '<http://example.com/n> <http://example.com/p> <http://example.com/o> .',
    contentType: 'application/n-triples',
    needs: [[STORE, 'read'], [`${STORE}|tupletables|DefaultTriples`, 'write']],
  },
  {
    method: 'POST',
    path: '/datastores/%s/content',
    body: '[?x, <http://example.com/q>, ?y] :- [?x, <http://example.com/p>, ?y] .',
    contentType: 'application/x.datalog',
    needs: [[STORE, 'read'], [`${STORE}|rules`, 'write'], [`${STORE}|tupletables|DefaultTriples`, 'read']],
  },
  { method: 'GET', path: '/datastores/%s/sparql?query=SELECT%20*%20WHERE%20%7B%20%3Fs%20%3Fp%20%3Fo%20%7D', needs: [[STORE, 'read'], [`${STORE}|tupletables|DefaultTriples`, 'read']] },
  {
    method: 'POST',
    path: '/datastores/%s/sparql',
    body: 'INSERT DATA { <http://example.com/u> <http://example.com/p> <http://example.com/o> }',
    contentType: 'application/sparql-update',
    needs: [[STORE, 'read'], [`${STORE}|tupletables|DefaultTriples`, 'write']],
  },
  { method: 'GET', path: '/datastores/%s/tupletables', needs: [[STORE, 'read'], [`${STORE}|tupletables`, 'read']] },
  { method: 'POST', path: '/datastores/%s/tupletables/U?arity=2', needs: [[STORE, 'read'], [`${STORE}|tupletables`, 'write']] },
  { method: 'GET', path: '/datastores/%s/datasources', needs: [[STORE, 'read'], [`${STORE}|datasources`, 'read']] },
  { method: 'GET', path: '/datastores/%s/commitprocedure', needs: [[STORE, 'read'], [`${STORE}|commitprocedure`, 'read']] },
  { method: 'POST', path: '/datastores/%s/connections', needs: [[STORE, 'read']] },
  { method: 'GET', path: '/roles', needs: [['|roles', 'read']] },
  { method: 'POST', path: '/roles/%s-made', body: 'pw', contentType: 'text/plain', needs: [['|roles', 'write']] },
  { method: 'GET', path: '/roles/%s-other', needs: [['|roles|%s-other', 'read']] },
  { method: 'DELETE', path: '/roles/%s-other', needs: [['|roles', 'write'], ['|roles|%s-other', 'write']] },
  { method: 'GET', path: '/roles/%s-other/privileges', needs: [['|roles|%s-other', 'read']] },
  {
    method: 'PATCH',
    path: '/roles/%s-other/privileges?operation=grant&resource-specifier=%7Cdatastores%7C%s&access-types=read',
    needs: [[STORE, 'grant'], ['|roles|%s-other', 'write']],
  },
  { method: 'PATCH', path: '/roles/%s-other/memberships?operation=grant&super-role-name=%s-group', needs: [['|roles|%s-group', 'grant'], ['|roles|%s-other', 'write']] },
  { method: 'GET', path: '/roles/%s-group/members', needs: [['|roles|%s-group', 'read']] },
];

describe('HTTP access control (privilege matrix)', () => {
  const env = useEndpoint('access-control');
  let counter = 0;
  let hash: string;

  before(async () => {
    await env.connection.createRole('hash-source', 'pw');
    hash = env.connection.describeRole('hash-source').passwordHash!;
  });

  async function prepare(): Promise<string> {
    const store = await env.createStore(`hac-${++counter}`);
    const ds = env.storeConnection(store);
    await ds.importData('ADD', '<http://example.com/a> <http://example.com/p> <http://example.com/b> .');
    await env.connection.createRole(`${store}-other`, hash, 'password-hash');
    await env.connection.createRole(`${store}-group`);
    return store;
  }

  const state = (store: string): Promise<string> => stateOf(env.connection, store);

  async function actor(store: string, needs: HttpOperation['needs'], viaGroup: boolean): Promise<string> {
    const role = `${store}-actor-${++counter}`;
    await grantedRole(env.connection, role, hash, store, needs, viaGroup);
    return basicAuth(role, 'pw');
  }

  const send = (op: HttpOperation, store: string, authorization: string): Promise<Response> => {
    const headers: Record<string, string> = { authorization };
    if (op.contentType) headers['content-type'] = op.contentType;
    return env.fetch(op.path.replace(/%s/g, store), { method: op.method, headers, ...(op.body !== undefined ? { body: op.body } : {}) });
  };

  for (const op of OPERATIONS) {
    it(`${op.method} ${op.path}: 403 and no change without the privileges it needs; 2xx with them`, async () => {
      const store = await prepare();
      for (let missing = -1; missing < op.needs.length; missing++) {
        if (missing >= 0 && op.needs.length === 1) break;
        const needs = missing < 0 ? [] : op.needs.filter((_, i) => i !== missing);
        const authorization = await actor(store, needs, missing % 2 === 0);
        const before = await state(store);
        const text = await expectErrorResponse(await send(op, store, authorization), 403, 'AccessDeniedError');
        expect(text, `without ${missing < 0 ? 'anything' : op.needs[missing]!.join(' ')}`).to.contain('access to');
        expect(await state(store)).to.equal(before);
      }
      for (const viaGroup of [false, true]) {
        const fresh = viaGroup ? await prepare() : store;
        const res = await send(op, fresh, await actor(fresh, op.needs, viaGroup));
        expect(res.status, `${op.method} ${op.path} with its privileges${viaGroup ? ' (through a membership)' : ''}: ${await res.text()}`).to.be.within(200, 299);
      }
    });
  }

  it('answers 401 to a request without credentials when the server has no guest role, and changes nothing', async () => {
    const store = await prepare();
    const before = await state(store);
    for (const op of OPERATIONS) {
      const res = await env.fetch(op.path.replace(/%s/g, store), { method: op.method, anonymous: true, ...(op.body !== undefined ? { body: op.body } : {}) });
      await expectErrorResponse(res, 401, 'AuthenticationError');
    }
    expect(await state(store)).to.equal(before);
  });
});
