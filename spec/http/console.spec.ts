/**
 * The web console's files as the endpoint serves them (lib/http/console.ts): paths, content
 * types, caching, compression, the security headers, the option that turns the console off,
 * and the console under a handler's prefix. The browser specs are in spec/console/.
 */
import { gunzipSync } from 'node:zlib';
import { request } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { Server } from '../../lib/index.js';
import { createRequestHandler, startEndpoint, type EndpointHandle } from '../../lib/http/index.js';
import { CONSOLE_CSP, consolePolicy, createConsoleListener } from '../../lib/http/console.js';
import { consoleBundle } from '../helpers/console-bundle.js';
import { listen } from '../helpers/listen.js';
import { ADMIN_PASSWORD, ADMIN_ROLE, TEST_SERVER_PARAMETERS } from '../helpers/server.js';

/** A raw GET (node:http, so that no decoding happens behind our back). */
function get(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  // the path goes out as written (a URL object would resolve its dot segments)
  const { hostname, port } = new URL(url);
  const path = url.slice(url.indexOf('/', url.indexOf('//') + 2));
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('HTTP endpoint: the web console files', () => {
  let server: Server;
  let endpoint: EndpointHandle;
  let files: readonly string[];

  before(async function () {
    this.timeout(60_000);
    files = (await consoleBundle()).files;
    server = await Server.create({ roleName: ADMIN_ROLE, password: ADMIN_PASSWORD, parameters: { ...TEST_SERVER_PARAMETERS } });
    endpoint = await startEndpoint(server, { port: 0 });
  });

  after(async () => {
    await endpoint?.close();
    await server?.shutdown();
  });

  const script = (): string => files.find((f) => /^main-[A-Z2-7]{8}\.js$/.test(f))!;
  const style = (): string => files.find((f) => /^console-[A-Z2-7]{8}\.css$/.test(f))!;

  it('answers GET /console/ with the page: HTML, no-store, a strict CSP with a fresh style nonce, the security headers, without authentication', async () => {
    const res = await get(`${endpoint.url}/console/`);
    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.equal('text/html; charset=UTF-8');
    expect(res.headers['cache-control']).to.equal('no-store');
    const csp = String(res.headers['content-security-policy']);
    const nonce = /'nonce-([A-Za-z0-9+/=]{24})'/.exec(csp)?.[1];
    expect(nonce, csp).to.be.a('string');
    expect(csp).to.equal(consolePolicy(nonce));
    expect(csp).to.contain(`style-src 'self' 'nonce-${nonce}'`);
    const html = res.body.toString('utf8');
    expect(html).to.contain(`nonce="${nonce}"`);
    expect(html).not.to.contain('%NONCE%');
    const again = await get(`${endpoint.url}/console/`);
    expect(String(again.headers['content-security-policy'])).not.to.contain(nonce);
    for (const directive of ["default-src 'none'", "script-src 'self'", "style-src 'self'", "connect-src 'self'", "frame-ancestors 'none'", "form-action 'none'", "base-uri 'none'"]) {
      expect(csp).to.contain(directive);
    }
    expect(csp.replace(/'nonce-[^']+'/, '')).not.to.match(/unsafe|https?:|\*/);
    expect(res.headers).to.include({ 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer', 'x-frame-options': 'DENY', 'cross-origin-opener-policy': 'same-origin' });
    expect(res.headers).not.to.have.property('set-cookie');
    expect(res.headers).not.to.have.property('access-control-allow-origin');
    expect(html).to.contain(`<script type="module" src="${script()}"></script>`);
    expect(html).to.contain(`href="${style()}"`);
    // nothing from elsewhere: every reference is a relative file name
    expect(html).not.to.match(/(?:src|href)="(?:https?:)?\/\//);
    expect((await get(`${endpoint.url}/console/index.html`)).body.toString('utf8').replace(/nonce="[^"]*"/, '')).to.equal(html.replace(/nonce="[^"]*"/, ''));
  });

  it('serves hashed files as immutable for a year, with their content types', async () => {
    const js = await get(`${endpoint.url}/console/${script()}`);
    expect(js.status).to.equal(200);
    expect(js.headers['content-type']).to.equal('text/javascript; charset=UTF-8');
    expect(js.headers['cache-control']).to.equal('public, max-age=31536000, immutable');
    expect(js.headers['content-security-policy']).to.equal(CONSOLE_CSP);
    const css = await get(`${endpoint.url}/console/${style()}`);
    expect(css.headers['content-type']).to.equal('text/css; charset=UTF-8');
    const licences = await get(`${endpoint.url}/console/licenses.txt`);
    expect(licences.headers['content-type']).to.equal('text/plain; charset=UTF-8');
    expect(licences.headers['cache-control']).to.equal('no-cache');
    expect(licences.body.toString('utf8')).to.contain('@codemirror/view');
  });

  it('compresses text for clients that accept gzip, and answers 304 to a matching If-None-Match', async () => {
    const plain = await get(`${endpoint.url}/console/${script()}`);
    const zipped = await get(`${endpoint.url}/console/${script()}`, { 'accept-encoding': 'gzip, br' });
    expect(zipped.headers['content-encoding']).to.equal('gzip');
    expect(zipped.headers['vary']).to.equal('Accept-Encoding');
    expect(zipped.body.length).to.be.below(plain.body.length / 2);
    expect(gunzipSync(zipped.body).equals(plain.body)).to.equal(true);
    const refused = await get(`${endpoint.url}/console/${script()}`, { 'accept-encoding': 'gzip;q=0' });
    expect(refused.headers).not.to.have.property('content-encoding');
    const licences = await get(`${endpoint.url}/console/licenses.txt`);
    const again = await get(`${endpoint.url}/console/licenses.txt`, { 'if-none-match': String(licences.headers['etag']) });
    expect(again.status).to.equal(304);
    expect(again.body.length).to.equal(0);
  });

  it('redirects /console to /console/, answers HEAD, refuses other methods and unknown files', async () => {
    const redirect = await get(`${endpoint.url}/console?x=1`);
    expect(redirect.status).to.equal(301);
    expect(redirect.headers['location']).to.equal('/console/?x=1');
    const head = await get(`${endpoint.url}/console/`, {}, 'HEAD');
    expect(head.status).to.equal(200);
    expect(Number(head.headers['content-length'])).to.be.above(100);
    const post = await get(`${endpoint.url}/console/`, {}, 'POST');
    expect(post.status).to.equal(405);
    expect(post.headers['allow']).to.equal('GET, HEAD');
    for (const path of ['/console/nothing.js', '/console/../package.json', '/console/%2e%2e%2fpackage.json', '/console/sub/index.html', '/console/.hidden']) {
      const res = await get(`${endpoint.url}${path}`);
      expect(res.status, path).to.equal(404);
      expect(res.headers['content-security-policy'], path).to.equal(CONSOLE_CSP);
    }
  });

  it('is not served when the endpoint option console is false (the path is then unknown: 404)', async () => {
    const off = await startEndpoint(server, { port: 0, console: false });
    try {
      const res = await get(`${off.url}/console/`);
      expect(res.status).to.equal(404);
      expect(res.body.toString('utf8')).to.contain("no resource at path '/console/'");
      expect((await get(`${off.url}/health`)).status).to.equal(204);
    } finally {
      await off.close();
    }
  });

  it('is served under the prefix of a mounted handler, and redirects there', async () => {
    const handler = createRequestHandler(server, { prefix: '/kg' });
    const listening = await listen((req, res) => handler(req, res));
    try {
      const page = await get(`${listening.url}/kg/console/`);
      expect(page.status).to.equal(200);
      expect(page.headers['content-type']).to.equal('text/html; charset=UTF-8');
      expect((await get(`${listening.url}/kg/console`)).headers['location']).to.equal('/kg/console/');
      expect((await get(`${listening.url}/console/`)).status).to.equal(404);
    } finally {
      await listening.close();
      await handler.close();
    }
  });

  it('answers 503 naming the build when there is no bundle', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'quadlog-console-empty-'));
    try {
      const listener = createConsoleListener('', empty);
      const listening = await listen((req, res) => {
        if (!listener(req, res, req.url ?? '/')) res.writeHead(418).end();
      });
      try {
        const res = await get(`${listening.url}/console/`);
        expect(res.status).to.equal(503);
        expect(res.body.toString('utf8')).to.contain('npm run build');
        expect((await get(`${listening.url}/other`)).status).to.equal(418);
        // a bundle that appears later is served without a restart
        await writeFile(join(empty, 'index.html'), '<!doctype html><title>x</title>');
        expect((await get(`${listening.url}/console/`)).status).to.equal(200);
      } finally {
        await listening.close();
      }
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });
});
