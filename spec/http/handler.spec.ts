/**
 * `createRequestHandler`: the management interface mounted under a path prefix in an HTTP
 * server the application runs, beside its own routes — a plain node:http server, and a
 * minimal Express-style `(req, res, next)` chain written here (both the handler at the root of
 * the chain and under a mount path that strips the prefix from `req.url`, as Express does).
 * Requests under the prefix answer as the endpoint of startEndpoint answers them without it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { expect } from 'chai';
import { Server } from '../../lib/index.js';
import { createRequestHandler, type RequestHandler } from '../../lib/http/index.js';
import { listen, type Listening } from '../helpers/listen.js';
import { ADMIN_AUTH, expectEmpty, expectErrorResponse, readCsv, useEndpoint } from './helpers.js';

type Next = (error?: unknown) => void;
type Middleware = (req: IncomingMessage, res: ServerResponse, next: Next) => void;

/** The application's own route, beside the mounted interface. */
function own(res: ServerResponse, text: string): void {
  res.writeHead(200, { 'Content-Type': 'text/plain' });
  res.end(text);
}

/**
 * A minimal Express-style application: middleware run in order, each passing on with
 * `next()`; `use(path, fn)` mounts `fn` under `path` the way Express does (req.url loses the
 * path while fn runs, req.originalUrl keeps the whole target); 404 when nothing answers.
 */
function miniApp(): { use(pathOrFn: string | Middleware, fn?: Middleware): void; listener: (req: IncomingMessage, res: ServerResponse) => void } {
  const stack: Array<{ path: string; fn: Middleware }> = [];
  return {
    use(pathOrFn, fn) {
      if (typeof pathOrFn === 'string') stack.push({ path: pathOrFn, fn: fn! });
      else stack.push({ path: '', fn: pathOrFn });
    },
    listener(req, res) {
      const request = req as IncomingMessage & { originalUrl?: string };
      request.originalUrl = req.url;
      const whole = req.url ?? '/';
      let i = 0;
      const next: Next = (error) => {
        req.url = whole;
        if (error !== undefined) {
          res.writeHead(500).end(error instanceof Error ? error.message : 'error');
          return;
        }
        const layer = stack[i++];
        if (!layer) {
          res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found by the app');
          return;
        }
        if (layer.path !== '') {
          const rest = whole.slice(layer.path.length);
          if (!whole.startsWith(layer.path) || !(rest === '' || rest.startsWith('/') || rest.startsWith('?'))) {
            next();
            return;
          }
          req.url = rest.startsWith('/') ? rest : `/${rest}`;
        }
        layer.fn(req, res, next);
      };
      next();
    },
  };
}

describe('http: createRequestHandler', () => {
  // the reference: the endpoint of startEndpoint on the same server
  const env = useEndpoint('handler');
  let kg: RequestHandler;
  let plain: Listening;
  let store: string;

  before(async () => {
    kg = createRequestHandler(env.server, { prefix: '/kg' });
    // the interface under /kg beside a route of the application; the handler answers what is not the app's
    plain = await listen((req, res) => {
      if (req.url === '/other') own(res, 'other');
      else kg(req, res);
    });
    store = await env.createStore();
    await env.storeConnection(store).importData('ADD', '<http://ex/a> <http://ex/p> <http://ex/b> .');
  });

  after(async () => {
    await plain.close();
    await kg.close();
  });

  /** Fetches a path from the plain server with the first role's credentials. */
  function get(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (!headers.has('authorization')) headers.set('authorization', ADMIN_AUTH);
    return fetch(plain.url + path, { ...init, headers });
  }

  /** Status, content type and body of a response, and its Allow header. */
  async function shape(res: Response): Promise<{ status: number; type: string | null; allow: string | null; body: string }> {
    return { status: res.status, type: res.headers.get('content-type'), allow: res.headers.get('allow'), body: await res.text() };
  }

  it('serves the interface under the prefix beside the application route', async () => {
    const other = await get('/other');
    expect(other.status).to.equal(200);
    expect(await other.text()).to.equal('other');
    await expectEmpty(await get('/kg/health'), 204);
    const stores = await readCsv(await get('/kg/datastores'));
    expect(stores.records.map((r) => r['Name'])).to.include(store);
  });

  it('answers paths under the prefix as the endpoint answers them without it', async () => {
    const requests: Array<[string, RequestInit]> = [
      ['/datastores', {}],
      [`/datastores/${store}/content`, { headers: { accept: 'application/n-triples' } }],
      [`/datastores/${store}/sparql?query=${encodeURIComponent('SELECT ?s WHERE { ?s ?p ?o }')}`, { headers: { accept: 'text/csv' } }],
      [`/datastores/${store}/content?operation=add-content`, { method: 'PATCH', body: '<http://ex/a> <http://ex/p> "open .\n', headers: { 'content-type': 'application/n-triples' } }],
      [`/datastores/${store}/tupletables`, { method: 'PUT' }],
      ['/roles/nobody', {}],
      ['/health', { method: 'POST' }],
    ];
    for (const [path, init] of requests) {
      const mounted = await shape(await get(`/kg${path}`, init));
      const reference = await shape(await env.fetch(path, init));
      // messages name the path the client used
      expect(mounted, path).to.deep.equal({ ...reference, body: reference.body.replaceAll(`on ${path.split('?')[0]!}`, `on /kg${path.split('?')[0]!}`) });
    }
    // the summary of a failed import is a 400 with the notification rows, as always
    const failed = await get(`/kg/datastores/${store}/content?operation=add-content`, { method: 'PATCH', body: 'ex:a ex:p ex:b .', headers: { 'content-type': 'text/turtle' } });
    expect(failed.status).to.equal(400);
    expect((await failed.text()).split('\n')[0]).to.equal("error: line 1: column 1: unknown prefix 'ex:': declare it in the input or add it to the store's prefixes");
  });

  it('serves the prefix itself as the server resource, and a trailing slash as the endpoint does', async () => {
    // the server's properties (available-memory changes from one request to the next)
    const properties = async (res: Response): Promise<string[]> => (await readCsv(res)).records.filter((r) => r['Property'] !== 'available-memory').map((r) => `${r['Property']}=${r['Value']}`);
    const root = await get('/kg');
    expect(root.status).to.equal(200);
    expect(await properties(root)).to.deep.equal(await properties(await env.fetch('/')));
    expect((await get('/kg/datastores/')).status).to.equal(200);
  });

  it('puts the prefix in Location headers, and the paths they name work', async () => {
    const name = env.uniqueName('mounted');
    const created = await get(`/kg/datastores/${name}?type=parallel-nn`, { method: 'POST' });
    await expectEmpty(created, 201);
    expect(created.headers.get('location')).to.equal(`/kg/datastores/${name}`);
    const connection = await get(`/kg/datastores/${name}/connections`, { method: 'POST' });
    await expectEmpty(connection, 201);
    const location = connection.headers.get('location')!;
    expect(location).to.match(new RegExp(`^/kg/datastores/${name}/connections/[0-9a-f]{20}$`));
    const token = connection.headers.get('service-authentication-token')!;
    const described = await readCsv(await get(location, { headers: { authorization: `Service ${token}` } }));
    expect(described.records).to.deep.equal([{ Property: 'role-name', Value: 'admin', Mutable: 'false' }]);
    const duplicate = await get(`${location}?operation=duplicate`, { method: 'PATCH', headers: { authorization: `Service ${token}` } });
    await expectEmpty(duplicate, 204);
    expect(duplicate.headers.get('location')).to.match(new RegExp(`^/kg/datastores/${name}/connections/[0-9a-f]{20}$`));
    // the endpoint's own answers stay without a prefix
    const direct = await env.fetch(`/datastores/${name}/connections`, { method: 'POST' });
    expect(direct.headers.get('location')).to.match(new RegExp(`^/datastores/${name}/connections/`));
  });

  it('names the path with its prefix in 404 and 405 answers, and gives the request ID of variant B', async () => {
    const missing = await expectErrorResponse(await get('/kg/nowhere'), 404, 'UnknownResourceError');
    expect(missing).to.equal("UnknownResourceError: no resource at path '/kg/nowhere'\n");
    const method = await get('/kg/health', { method: 'DELETE' });
    expect(await expectErrorResponse(method, 405, 'MethodNotAllowedError')).to.contain('/kg/health');
    expect((await get('/kg/health', { headers: { 'service-request-id': 'r-1' } })).headers.get('service-request-id')).to.equal('r-1');
  });

  it('answers 404 outside the prefix when there is no next handler, also for paths that only start like it', async () => {
    for (const path of ['/elsewhere', '/kgx', '/k', '/']) {
      const text = await expectErrorResponse(await get(path), 404, 'UnknownResourceError');
      expect(text, path).to.contain(`no resource at path '${path}'`);
    }
  });

  it('rejects invalid options with RangeError', () => {
    for (const options of [{ prefix: 'kg' }, { prefix: '/kg/' }, { prefix: '/k%20g' }, { prefix: '/kg?x' }, { prefix: '//kg' }, { variant: 'C' as 'A' }, { objectKeepAliveTime: -1 }, { maxContentBytes: 0 }]) {
      expect(() => createRequestHandler(env.server, options), JSON.stringify(options)).to.throw(RangeError);
    }
    const root = createRequestHandler(env.server, { prefix: '/' });
    expect([root.prefix, root.variant]).to.deep.equal(['', 'B']);
    void root.close();
  });

  describe('in an Express-style chain', () => {
    let app: Listening;
    let atRoot: RequestHandler;
    let mounted: RequestHandler;
    const seen: string[] = [];

    before(async () => {
      atRoot = createRequestHandler(env.server, { prefix: '/kg', variant: 'A' });
      mounted = createRequestHandler(env.server, { prefix: '/api/graph' });
      const chain = miniApp();
      chain.use((req, _res, next) => {
        seen.push(req.url ?? '');
        next();
      });
      chain.use(atRoot);
      chain.use('/api/graph', mounted);
      chain.use((req, res, next) => (req.url === '/hello' ? own(res, 'hello') : next()));
      app = await listen(chain.listener);
    });

    after(async () => {
      await app.close();
      await atRoot.close();
      await mounted.close();
    });

    const call = (path: string, init: RequestInit = {}): Promise<Response> => fetch(app.url + path, { ...init, headers: { authorization: ADMIN_AUTH, ...init.headers } });

    it('passes requests outside the prefix on with next()', async () => {
      const hello = await call('/hello');
      expect(hello.status).to.equal(200);
      expect(await hello.text()).to.equal('hello');
      const none = await call('/kgx/datastores');
      expect(none.status).to.equal(404);
      expect(await none.text()).to.equal('not found by the app');
      expect(seen).to.include.members(['/hello', '/kgx/datastores']);
    });

    it('answers requests under the prefix itself, never calling next()', async () => {
      await expectEmpty(await call('/kg/health'), 204);
      const stores = await readCsv(await call('/kg/datastores'));
      expect(stores.records.map((r) => r['Name'])).to.include(store);
      const missing = await call('/kg/hello');
      expect(missing.status).to.equal(404);
      expect(await missing.text()).to.match(/^UnknownResourceError: no resource at path '\/kg\/hello'/);
      // variant A has no /requests
      expect((await call('/kg/requests')).status).to.equal(404);
    });

    it('works under a mount path that strips the prefix from req.url (matching req.originalUrl)', async () => {
      await expectEmpty(await call('/api/graph/health'), 204);
      const name = env.uniqueName('express');
      const created = await call(`/api/graph/datastores/${name}?type=parallel-nn`, { method: 'POST' });
      await expectEmpty(created, 201);
      expect(created.headers.get('location')).to.equal(`/api/graph/datastores/${name}`);
      // content without a media type, only Turtle parses (relative IRIs)
      const imported = await call(`/api/graph/datastores/${name}/content`, { method: 'POST', body: Buffer.from('<a> <b> <c> .\n') });
      expect(imported.status, await imported.clone().text()).to.equal(200);
      const listed = await readCsv(await call(`/api/graph/requests`));
      expect(listed.columns).to.include('Target');
    });
  });

  it('close() cancels and closes: later requests under the prefix answer 503, other routes go on', async () => {
    const closing = createRequestHandler(env.server, { prefix: '/kg' });
    const server = await listen((req, res) => closing(req, res, () => own(res, 'app')));
    try {
      const connection = await fetch(`${server.url}/kg/connections`, { method: 'POST', headers: { authorization: ADMIN_AUTH } });
      await expectEmpty(connection, 201);
      const before = await readCsv(await fetch(`${server.url}/kg/connections`, { headers: { authorization: ADMIN_AUTH } }));
      expect(before.records).to.have.length(1);
      await closing.close();
      await closing.close();
      await expectErrorResponse(await fetch(`${server.url}/kg/connections`, { headers: { authorization: ADMIN_AUTH } }), 503, 'ServiceUnavailableError');
      expect(await (await fetch(`${server.url}/elsewhere`)).text()).to.equal('app');
    } finally {
      await server.close();
    }
  });

  it('closes with the server it serves: after shutdown, requests under the prefix answer 503', async () => {
    const served = await Server.create({ roleName: 'admin', password: 'pw', parameters: { 'password-hashing': 'fast' } });
    const mounted = createRequestHandler(served, { prefix: '/kg' });
    const server = await listen((req, res) => mounted(req, res));
    try {
      const auth = `Basic ${Buffer.from('admin:pw').toString('base64')}`;
      expect((await fetch(`${server.url}/kg/datastores`, { headers: { authorization: auth } })).status).to.equal(200);
      await served.shutdown();
      await expectErrorResponse(await fetch(`${server.url}/kg/datastores`, { headers: { authorization: auth } }), 503, 'ServiceUnavailableError');
    } finally {
      await server.close();
    }
    expect(() => createRequestHandler(served, { prefix: '/kg' })).to.throw();
  });
});
