import { expect } from 'chai';
import { ROUTES, Router } from '../../lib/http/router.js';
import { expectErrorResponse, useEndpoint } from './helpers.js';

const METHODS = ['GET', 'PUT', 'POST', 'PATCH', 'DELETE'];

/** A concrete path of a route pattern. */
function concrete(path: string): string {
  return path.replace(/:[a-z]+/g, (p) => `x-${p.slice(1)}`);
}

/** Every path and method of the specification's path map (variant B has all of them). */
const PATH_MAP: ReadonlyArray<[string, string[], 'B'?]> = [
  ['/', ['GET', 'PATCH']],
  ['/commands', ['POST']],
  ['/connections', ['GET', 'POST']],
  ['/connections/:conn', ['GET', 'PATCH', 'DELETE']],
  ['/datastores', ['GET']],
  ['/datastores/:ds', ['GET', 'PATCH', 'POST', 'DELETE']],
  ['/datastores/:ds/commitprocedure', ['GET', 'PUT', 'DELETE'], 'B'],
  ['/datastores/:ds/connections', ['GET', 'POST']],
  ['/datastores/:ds/connections/:conn', ['GET', 'PATCH', 'DELETE']],
  ['/datastores/:ds/connections/:conn/cursors', ['GET', 'POST']],
  ['/datastores/:ds/connections/:conn/cursors/:cursor', ['GET', 'PATCH', 'DELETE']],
  ['/datastores/:ds/connections/:conn/transaction', ['GET', 'POST']],
  ['/datastores/:ds/content', ['GET', 'PATCH', 'PUT', 'POST', 'DELETE']],
  ['/datastores/:ds/deltaqueries', ['GET']],
  ['/datastores/:ds/deltaqueries/:name', ['GET', 'POST', 'DELETE']],
  ['/datastores/:ds/deltaqueryanswers', ['GET']],
  ['/datastores/:ds/deltaqueryanswers/:name', ['GET']],
  ['/datastores/:ds/deltaqueryanswers/:name/:version/:type', ['GET']],
  ['/datastores/:ds/datasources', ['GET']],
  ['/datastores/:ds/datasources/:source', ['GET', 'POST', 'DELETE']],
  ['/datastores/:ds/datasources/:source/tables', ['GET']],
  ['/datastores/:ds/datasources/:source/tables/:table', ['GET']],
  ['/datastores/:ds/datasources/:source/tables/:table/data', ['GET']],
  ['/datastores/:ds/explanation', ['GET']],
  ['/datastores/:ds/prefixes', ['GET', 'PUT', 'PATCH']],
  ['/datastores/:ds/saved-queries', ['GET']],
  ['/datastores/:ds/saved-queries/:name', ['GET', 'PUT', 'DELETE']],
  ['/datastores/:ds/shacl', ['GET']],
  ['/datastores/:ds/sparql', ['GET', 'POST']],
  ['/datastores/:ds/stats', ['GET', 'PUT']],
  ['/datastores/:ds/stats/:stats', ['GET', 'PUT', 'POST', 'DELETE']],
  ['/datastores/:ds/tupletables', ['GET']],
  ['/datastores/:ds/tupletables/:table', ['GET', 'POST', 'DELETE']],
  ['/health', ['GET']],
  ['/password', ['PUT']],
  ['/replication', ['GET']],
  ['/requests', ['GET'], 'B'],
  ['/requests/:request', ['GET', 'DELETE'], 'B'],
  ['/roles', ['GET']],
  ['/roles/:role', ['GET', 'POST', 'DELETE']],
  ['/roles/:role/privileges', ['GET', 'PATCH']],
  ['/roles/:role/memberships', ['GET', 'PATCH']],
  ['/roles/:role/members', ['GET']],
  ['/shells', ['GET', 'POST']],
  ['/shells/:shell', ['GET', 'PATCH', 'DELETE']],
];

describe('HTTP path map', () => {
  it('has exactly the paths and methods of the specification', () => {
    const routes = ROUTES.map((r) => [r.path, [...r.methods].sort()]);
    expect(routes).to.deep.equal(PATH_MAP.map(([p, m]) => [p, [...m].sort()]));
  });

  it('matches percent-encoded segments and ignores one trailing slash', () => {
    const router = new Router('B');
    expect(router.match('/datastores/a%20b/prefixes')?.values).to.deep.equal(['a b']);
    expect(router.match('/datastores/')?.route.path).to.equal('/datastores');
    expect(router.match('/datastores//prefixes')).to.equal(undefined);
    expect(new Router('A').match('/requests')).to.equal(undefined);
    expect(() => router.match('/datastores/%E0%A4%A')).to.throw(/percent-encoding/);
  });

  for (const variant of ['A', 'B'] as const) {
    describe(`over HTTP (variant ${variant})`, () => {
      const env = useEndpoint(`routing-${variant}`, { variant });

      it('answers 405 with Allow for every method a path lacks', async () => {
        for (const [path, methods, only] of PATH_MAP) {
          if (only && only !== variant) continue;
          const missing = METHODS.find((m) => !methods.includes(m))!;
          if (!missing) continue;
          const res = await env.fetch(concrete(path), { method: missing });
          await expectErrorResponse(res, 405, 'MethodNotAllowedError');
          expect(res.headers.get('allow'), path).to.equal(ROUTES.find((r) => r.path === path)!.methods.join(', '));
        }
      });

      it('answers 404 for unknown paths', async () => {
        for (const path of ['/nothing', '/datastores/x/nothing', '/datastores/x/prefixes/extra', '/connections/a/b']) {
          expect(await expectErrorResponse(await env.fetch(path), 404, 'UnknownResourceError')).to.contain('no resource at path');
        }
      });

      it(variant === 'A' ? 'does not know the paths of variant B' : 'has the paths of variant B', async () => {
        const res = await env.fetch('/requests');
        const store = await env.createStore();
        const procedure = await env.fetch(`/datastores/${store}/commitprocedure`);
        if (variant === 'A') {
          await expectErrorResponse(res, 404, 'UnknownResourceError');
          await expectErrorResponse(procedure, 404, 'UnknownResourceError');
        } else {
          expect(res.status).to.equal(200);
          expect(procedure.status).to.equal(204);
          await res.text();
        }
      });

      it('answers 400 on the explanation path without a fact', async () => {
        const store = await env.createStore();
        const text = await expectErrorResponse(await env.fetch(`/datastores/${store}/explanation`), 400, 'BadRequestError');
        expect(text).to.contain("'fact' parameter is required");
      });

      it('answers 400 for malformed percent-encoding in the path', async () => {
        await expectErrorResponse(await env.fetch('/datastores/%E0%A4%A'), 400, 'BadRequestError');
      });

      it(variant === 'B' ? 'echoes Service-Request-ID (given or generated)' : 'sends no Service-Request-ID', async () => {
        const given = await env.fetch('/', { headers: { 'service-request-id': 'my-id-1' } });
        const generated = await env.fetch('/nothing');
        await given.text();
        await generated.text();
        if (variant === 'B') {
          expect(given.headers.get('service-request-id')).to.equal('my-id-1');
          expect(generated.headers.get('service-request-id')).to.match(/^[0-9a-f-]{36}$/);
        } else {
          expect(given.headers.get('service-request-id')).to.equal(null);
          expect(generated.headers.get('service-request-id')).to.equal(null);
        }
      });

      it('reports errors of the API with their class and status', async () => {
        const text = await expectErrorResponse(await env.fetch('/datastores/missing'), 404, 'UnknownResourceError');
        expect(text).to.contain('missing');
        const store = await env.createStore();
        await expectErrorResponse(await env.fetch(`/datastores/${store}?type=parallel-nn`, { method: 'POST' }), 409, 'DuplicateResourceError');
      });

      it('refuses form bodies larger than the limit (413)', async () => {
        const body = 'operation=set&num-threads=' + '1'.repeat(17 * 1024 * 1024);
        const res = await env.fetch('/', { method: 'PATCH', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
        await expectErrorResponse(res, 413, 'PayloadTooLargeError');
      });
    });
  }
});
