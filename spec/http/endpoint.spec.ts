import { Agent, request } from 'node:http';
import { expect } from 'chai';
import { ConnectionFactory, Server } from '../../lib/index.js';
import * as http from '../../lib/http/index.js';
import { startEndpoint } from '../../lib/http/index.js';
import { ADMIN_AUTH, ADMIN_PASSWORD, ADMIN_ROLE } from './helpers.js';

describe('HTTP endpoint lifecycle', () => {
  let server: Server;

  before(async () => {
    server = await Server.create({ roleName: ADMIN_ROLE, password: ADMIN_PASSWORD, url: 'test://http-endpoint/lifecycle' });
  });

  after(() => server.shutdown());

  it('exports only startEndpoint and createRequestHandler at run time', () => {
    expect(Object.keys(http)).to.deep.equal(['createRequestHandler', 'startEndpoint']);
  });

  it('listens on 127.0.0.1 with a free port for port 0 and reports its URL', async () => {
    const endpoint = await startEndpoint(server, { port: 0 });
    try {
      expect(endpoint.url).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(endpoint.url).to.equal(`http://127.0.0.1:${endpoint.port}`);
      expect(endpoint.variant).to.equal('B');
      const res = await fetch(`${endpoint.url}/health`);
      expect(res.status).to.equal(204);
    } finally {
      await endpoint.close();
    }
  });

  it('rejects invalid options', async () => {
    for (const options of [{ port: -1 }, { port: 70000 }, { port: 1.5 }, { variant: 'C' as 'A' }, { objectKeepAliveTime: 0 }]) {
      let failed = false;
      await startEndpoint(server, options).then(
        (e) => e.close(),
        (e: Error) => {
          failed = e instanceof RangeError;
        },
      );
      expect(failed, JSON.stringify(options)).to.equal(true);
    }
  });

  it('fails when the port is taken, naming the port', async () => {
    const first = await startEndpoint(server, { port: 0 });
    try {
      let error: unknown;
      await startEndpoint(server, { port: first.port }).catch((e: unknown) => (error = e));
      expect(error).to.have.property('code', 'EADDRINUSE');
      expect((error as Error).message).to.equal(`port ${first.port} on 127.0.0.1 is already in use (choose another port, or 0 for any free one)`);
    } finally {
      await first.close();
    }
  });

  it('close() stops listening, closes idle keep-alive sockets and the connections opened over HTTP', async () => {
    const endpoint = await startEndpoint(server, { port: 0 });
    const admin = await ConnectionFactory.newServerConnection(server.url, ADMIN_ROLE, ADMIN_PASSWORD);
    admin.createDataStore('closing');
    const created = await fetch(`${endpoint.url}/datastores/closing/connections`, { method: 'POST', headers: { authorization: ADMIN_AUTH } });
    expect(created.status).to.equal(201);
    // the connection holds the store's write lock until it is closed
    const begun = await fetch(`${endpoint.url}${created.headers.get('location')!}/transaction?operation=begin-read-write`, { method: 'POST', headers: { authorization: ADMIN_AUTH } });
    expect(begun.status).to.equal(204);
    // a keep-alive socket left idle must not hold close() up
    const keepAliveMs = await new Promise<number>((resolve, reject) => {
      const req = request(`${endpoint.url}/health`, { agent: new Agent({ keepAlive: true }) }, (res) => {
        res.resume();
        res.on('end', () => resolve(1000 * Number(/timeout=(\d+)/.exec(String(res.headers['keep-alive']))?.[1])));
      });
      req.on('error', reject);
      req.end();
    });
    expect(keepAliveMs).to.be.greaterThan(0);
    // close() cuts the idle socket: it does not wait for the server's keep-alive timer to end it
    const started = performance.now();
    await endpoint.close();
    expect(performance.now() - started).to.be.below(keepAliveMs);
    await endpoint.close();
    let refused = false;
    await fetch(`${endpoint.url}/health`).catch(() => (refused = true));
    expect(refused).to.equal(true);
    const local = admin.newDataStoreConnection('closing');
    await local.beginTransaction('read-write', { lockTimeoutMs: 100 });
    await local.rollbackTransaction();
    local.close();
    admin.close();
  });

  it('serves variant A when asked', async () => {
    const endpoint = await startEndpoint(server, { port: 0, variant: 'A' });
    try {
      expect(endpoint.variant).to.equal('A');
      const res = await fetch(`${endpoint.url}/requests`, { headers: { authorization: ADMIN_AUTH } });
      expect(res.status).to.equal(404);
      expect(res.headers.get('service-request-id')).to.equal(null);
    } finally {
      await endpoint.close();
    }
  });
});
