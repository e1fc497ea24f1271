import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { expect } from 'chai';
import { AccessDeniedError } from '../../lib/index.js';
import { type EndpointHandle, startEndpoint } from '../../lib/http/index.js';
import { expectError } from '../helpers/server.js';
import { expectErrorResponse, type EndpointEnv, useEndpoint } from './helpers.js';
import { serveDocuments, streamBody } from './content-helpers.js';

const EX = 'http://example.com/';
const FACT = `<${EX}kept> <${EX}p> <${EX}o> .\n`;

/** A port on which nothing listens: bound on the loopback, then closed. */
async function closedPort(): Promise<number> {
  const server: HttpServer = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Temporary files: a secret outside any sandbox, and a sandbox with a file and a link out. */
interface Files {
  readonly root: string;
  readonly sandbox: string;
  readonly secret: string;
  readonly secretIri: string;
  readonly insideIri: string;
  readonly linkIri: string;
}

function makeFiles(): Files {
  const root = mkdtempSync(join(tmpdir(), 'quadlog-safe-io-'));
  const sandbox = join(root, 'sandbox');
  mkdirSync(sandbox);
  const secret = `SECRET-${randomUUID()}`;
  // a line that a parser's error message would quote
  writeFileSync(join(root, 'secret.ttl'), `${secret}:x:0:0:${secret}\n`);
  writeFileSync(join(sandbox, 'inside.ttl'), `<${EX}inside> <${EX}p> <${EX}o> .\n`);
  symlinkSync(join(root, 'secret.ttl'), join(sandbox, 'link.ttl'));
  return {
    root,
    sandbox,
    secret,
    secretIri: pathToFileURL(join(root, 'secret.ttl')).href,
    insideIri: pathToFileURL(join(sandbox, 'inside.ttl')).href,
    linkIri: pathToFileURL(join(sandbox, 'link.ttl')).href,
  };
}

/** A store holding one fact, with helpers for the requests of this spec. */
async function storeOf(env: EndpointEnv): Promise<{ name: string; count(): Promise<number>; uriList(list: string): Promise<Response>; update(text: string): Promise<Response> }> {
  const name = await env.createStore();
  const connection = env.storeConnection(name);
  await connection.importData('ADD', FACT);
  return {
    name,
    count: () => connection.countFacts(),
    uriList: (list) => env.fetch(`/datastores/${name}/content?operation=add-content`, { method: 'PATCH', headers: { 'content-type': 'text/uri-list' }, body: list }),
    update: (text) => env.fetch(`/datastores/${name}/sparql`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ update: text }).toString() }),
  };
}

describe('http: safe I/O of imports by IRI and content bodies', function () {
  this.timeout(20_000);

  describe('with the default parameters (https only, no sandbox)', () => {
    const env = useEndpoint('safe-io-default');
    let files: Files;
    before(() => {
      files = makeFiles();
    });
    after(() => rmSync(files.root, { recursive: true, force: true }));

    it('refuses file IRIs in a text/uri-list body (403), telling nothing of the file', async () => {
      const s = await storeOf(env);
      for (const iri of [files.secretIri, 'file:///etc/passwd', files.insideIri]) {
        const text = await expectErrorResponse(await s.uriList(`${iri}\n`), 403, 'AccessDeniedError');
        expect(text).to.contain(`'${iri}'`).and.to.contain("the scheme 'file' is not allowed on import (allowed-url-schemes-on-import is 'https')");
        expect(text).not.to.contain(files.secret).and.not.to.contain('root:');
      }
      expect(await s.count()).to.equal(1);
    });

    it('refuses LOAD of a file IRI on /sparql and in evaluateUpdate; LOAD SILENT does nothing', async () => {
      const s = await storeOf(env);
      const text = await expectErrorResponse(await s.update(`INSERT DATA { <${EX}new> <${EX}p> <${EX}o> } ; LOAD <${files.secretIri}>`), 403, 'AccessDeniedError');
      expect(text).to.contain(files.secretIri).and.not.to.contain(files.secret);
      const passwd = await expectErrorResponse(await s.update('LOAD <file:///etc/passwd>'), 403, 'AccessDeniedError');
      expect(passwd).not.to.contain('root:');
      expect(await s.count()).to.equal(1);
      const connection = env.storeConnection(s.name);
      const e = await expectError(connection.evaluateUpdate(`LOAD <${files.secretIri}>`), AccessDeniedError);
      expect(e.message).not.to.contain(files.secret);
      await expectError(connection.importData('ADD', { iris: [files.secretIri] }), AccessDeniedError);
      expect((await s.update(`LOAD SILENT <${files.secretIri}> ; INSERT DATA { <${EX}after> <${EX}p> <${EX}o> }`)).status).to.equal(204);
      expect(await s.count()).to.equal(2);
    });

    it('refuses http: IRIs of the loopback, naming the scheme rule', async () => {
      const s = await storeOf(env);
      const web = await serveDocuments({ '/data.ttl': { type: 'text/turtle', body: FACT.replace('kept', 'fetched') } });
      try {
        const text = await expectErrorResponse(await s.uriList(`${web.url}/data.ttl`), 403, 'AccessDeniedError');
        expect(text).to.contain(`'${web.url}/data.ttl'`).and.to.contain("the scheme 'http' is not allowed on import");
        await expectErrorResponse(await s.update(`LOAD <${env.url}/>`), 403, 'AccessDeniedError');
      } finally {
        await web.close();
      }
      expect(await s.count()).to.equal(1);
    });

    it('still lets a program import a path it names itself', async () => {
      const s = await storeOf(env);
      const r = await env.storeConnection(s.name).importData('ADD', { path: join(files.sandbox, 'inside.ttl') });
      expect(r.changedFacts).to.equal(1);
    });
  });

  describe('with a sandbox directory and file,http allowed', () => {
    const parameters: Record<string, string> = { 'allowed-url-schemes-on-import': 'file,http' };
    let files: Files;
    before(() => {
      files = makeFiles();
      parameters['sandbox-directory'] = files.sandbox;
    });
    after(() => rmSync(files.root, { recursive: true, force: true }));
    const env = useEndpoint('safe-io-sandbox', { parameters });

    it('imports a file inside the sandbox, by uri-list, LOAD and importData', async () => {
      const s = await storeOf(env);
      const answer = await s.uriList(`${files.insideIri}\n`);
      expect(answer.status, await answer.text()).to.equal(200);
      expect(await s.count()).to.equal(2);
      const t = await storeOf(env);
      expect((await t.update(`LOAD <${files.insideIri}> INTO GRAPH <${EX}g>`)).status).to.equal(204);
      expect(await t.count()).to.equal(2);
      const u = await storeOf(env);
      expect((await env.storeConnection(u.name).importData('ADD', { iris: [files.insideIri] })).changedFacts).to.equal(1);
    });

    it('refuses a file outside the sandbox and a link inside it that leads out', async () => {
      const s = await storeOf(env);
      for (const iri of [files.secretIri, files.linkIri, 'file:///etc/passwd']) {
        const text = await expectErrorResponse(await s.uriList(`${files.insideIri}\n${iri}\n`), 403, 'AccessDeniedError');
        expect(text).to.contain(`'${iri}'`).and.to.contain('outside the sandbox directory');
        expect(text).not.to.contain(files.secret).and.not.to.contain('root:');
        const load = await expectErrorResponse(await s.update(`LOAD <${iri}>`), 403, 'AccessDeniedError');
        expect(load).not.to.contain(files.secret);
      }
      await expectError(env.storeConnection(s.name).evaluateUpdate(`LOAD <${files.linkIri}>`), AccessDeniedError);
      expect(await s.count()).to.equal(1);
    });

    it('answers the same text for a closed port and a 404 page', async () => {
      const s = await storeOf(env);
      const web = await serveDocuments({});
      const port = await closedPort();
      try {
        const closedIri = `http://127.0.0.1:${port}/data.ttl`;
        const missingIri = `${web.url}/data.ttl`;
        const closed = await expectErrorResponse(await s.uriList(closedIri), 400, 'ParsingError');
        const missing = await expectErrorResponse(await s.uriList(missingIri), 400, 'ParsingError');
        expect(closed.replace(closedIri, '<iri>')).to.equal(missing.replace(missingIri, '<iri>'));
        expect(closed).to.equal(`ParsingError: cannot import from '${closedIri}': the resource could not be retrieved\n`);
        const loadClosed = await expectErrorResponse(await s.update(`LOAD <${closedIri}>`), 400, 'ParsingError');
        const loadMissing = await expectErrorResponse(await s.update(`LOAD <${missingIri}>`), 400, 'ParsingError');
        expect(loadClosed.replace(closedIri, '<iri>')).to.equal(loadMissing.replace(missingIri, '<iri>'));
      } finally {
        await web.close();
      }
      expect(await s.count()).to.equal(1);
    });

    it('refuses a redirect to a scheme that is not allowed, and to a file', async () => {
      const s = await storeOf(env);
      const server: HttpServer = createServer((req, res) => {
        if (req.url === '/to-https') res.writeHead(302, { location: 'https://127.0.0.1:1/data.ttl' }).end();
        else res.writeHead(302, { location: files.insideIri }).end();
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      try {
        const https = await expectErrorResponse(await s.uriList(`${base}/to-https`), 403, 'AccessDeniedError');
        expect(https).to.contain(`'${base}/to-https'`).and.to.contain("scheme 'https', which is not allowed on import (allowed-url-schemes-on-import is 'file,http')");
        const file = await expectErrorResponse(await s.uriList(`${base}/to-file`), 403, 'AccessDeniedError');
        expect(file).to.contain('redirects to a file IRI');
      } finally {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
      expect(await s.count()).to.equal(1);
    });
  });

  describe('content bodies over maxContentBytes', () => {
    const env = useEndpoint('safe-io-limit');
    const LIMIT = 4096;
    let small: EndpointHandle;
    before(async () => {
      small = await startEndpoint(env.server, { port: 0, maxContentBytes: LIMIT });
    });
    after(async () => {
      await small.close();
    });

    /** N-Triples of about `bytes` bytes. */
    const ntriples = (bytes: number): string => {
      const lines: string[] = [];
      for (let size = 0, i = 0; size < bytes; i++) {
        const line = `<${EX}s${i}> <${EX}p> "value ${i}" .\n`;
        lines.push(line);
        size += line.length;
      }
      return lines.join('');
    };
    const fetchSmall = (path: string, init: RequestInit): Promise<Response> => {
      const headers = new Headers(init.headers);
      headers.set('authorization', `Basic ${Buffer.from('admin:admin-secret').toString('base64')}`);
      return fetch(small.url + path, { ...init, headers });
    };

    it('refuses a body whose Content-Length is over the limit (413), for PATCH, POST and PUT', async () => {
      const s = await storeOf(env);
      const path = `/datastores/${s.name}/content`;
      const body = ntriples(LIMIT * 2);
      for (const [method, query] of [['PATCH', '?operation=add-content'], ['POST', ''], ['PUT', '']] as const) {
        const text = await expectErrorResponse(await fetchSmall(path + query, { method, headers: { 'content-type': 'application/n-triples' }, body }), 413, 'PayloadTooLargeError');
        expect(text).to.contain(String(LIMIT));
        expect(await s.count(), method).to.equal(1);
      }
      // a body under the limit is imported
      const ok = await fetchSmall(`${path}?operation=add-content`, { method: 'PATCH', headers: { 'content-type': 'application/n-triples' }, body: ntriples(LIMIT / 2) });
      expect(ok.status, await ok.text()).to.equal(200);
      expect(await s.count()).to.be.greaterThan(1);
    });

    it('stops a streamed body (no Content-Length) once it passes the limit, rolling the import back', async () => {
      for (const [method, query, type] of [['PATCH', '?operation=add-content', 'application/n-triples'], ['PUT', '', 'text/turtle'], ['POST', '', '']] as const) {
        const s = await storeOf(env);
        const answer = await streamBody(`${small.url}/datastores/${s.name}/content${query}`, {
          method,
          headers: { 'content-type': type },
          first: ntriples(100),
          filler: `<${EX}x> <${EX}p> "filler" .\n`,
          totalBytes: LIMIT * 64,
        });
        expect(answer.status, `${method}: ${answer.body}`).to.equal(413);
        expect(answer.body).to.match(/^PayloadTooLargeError: /);
        expect(await s.count(), method).to.equal(1);
      }
    });

    it('stops a gzip-compressed body over the limit', async () => {
      const s = await storeOf(env);
      // random values: the compressed body stays over the limit
      const lines = Array.from({ length: 400 }, () => `<${EX}s> <${EX}p> "${randomUUID()}" .\n`).join('');
      const body = gzipSync(lines);
      expect(body.length).to.be.greaterThan(LIMIT);
      // streamed in chunks (no Content-Length), so that the limit is found while decompressing
      const chunks = [body.subarray(0, 1024), body.subarray(1024)];
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          const next = chunks.shift();
          if (next) controller.enqueue(next);
          else controller.close();
        },
      });
      const answer = await fetchSmall(`/datastores/${s.name}/content?operation=add-content`, { method: 'PATCH', headers: { 'content-type': '' }, body: stream, duplex: 'half' });
      await expectErrorResponse(answer, 413, 'PayloadTooLargeError');
      expect(await s.count()).to.equal(1);
    });

    it('refuses SPARQL update bodies and forms over the limit', async () => {
      const s = await storeOf(env);
      const update = `INSERT DATA { ${ntriples(LIMIT)} }`;
      await expectErrorResponse(await fetchSmall(`/datastores/${s.name}/sparql`, { method: 'POST', headers: { 'content-type': 'application/sparql-update' }, body: update }), 413, 'PayloadTooLargeError');
      await expectErrorResponse(
        await fetchSmall(`/datastores/${s.name}/sparql`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ update }).toString() }),
        413,
        'PayloadTooLargeError',
      );
      expect(await s.count()).to.equal(1);
      // the endpoint of the default limit takes the same update
      const ok = await env.fetch(`/datastores/${s.name}/sparql`, { method: 'POST', headers: { 'content-type': 'application/sparql-update' }, body: update });
      expect(ok.status, await ok.text()).to.equal(204);
      expect(await s.count()).to.be.greaterThan(1);
    });

    it('rejects an invalid maxContentBytes', async () => {
      for (const value of [0, -1, 1.5, Number.NaN]) {
        await expectError(startEndpoint(env.server, { port: 0, maxContentBytes: value }), RangeError);
      }
    });
  });
});
