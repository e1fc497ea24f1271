import { request, type IncomingHttpHeaders } from 'node:http';
import { expect } from 'chai';
import { ADMIN_AUTH, expectErrorResponse, readCsv, useEndpoint } from './helpers.js';
import { streamBody } from './content-helpers.js';

const FORM = 'application/x-www-form-urlencoded';
const MiB = 1024 * 1024;

/** A response read with node:http. */
interface RawResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/**
 * Sends a request that declares `declared` body bytes but sends only `sent` of them, and
 * resolves with the response (then cuts the connection): a server that waited for the whole
 * body before answering would never answer.
 */
function answerToPartialBody(url: string, headers: Readonly<Record<string, string>>, declared: number, sent: number): Promise<RawResponse> {
  return new Promise<RawResponse>((resolve, reject) => {
    let settled = false;
    const req = request(url, { method: 'POST', headers: { ...headers, 'content-length': String(declared) } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => {
        settled = true;
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
        req.destroy();
      });
    });
    req.on('error', (e) => {
      if (!settled) reject(e);
    });
    req.write(Buffer.alloc(sent, 0x61));
  });
}

/** Sends `body` (written as it is, never copied) with node:http and reads the response. */
function send(url: string, headers: Readonly<Record<string, string>>, body: Buffer): Promise<RawResponse> {
  return new Promise<RawResponse>((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { ...headers, 'content-length': String(body.length) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('http: request bodies are read only after authentication, within their limits', () => {
  describe('on a server without a guest role', () => {
    const env = useEndpoint('request-bodies');

    it('answers an anonymous form body 401 before the body has arrived', async function () {
      this.timeout(20_000);
      const store = await env.createStore();
      const answer = await answerToPartialBody(`${env.url}/datastores/${store}/sparql`, { 'content-type': FORM }, 8 * MiB, 1024);
      expect(answer.status, answer.body).to.equal(401);
      expect(answer.body).to.match(/^AuthenticationError: /);
      expect(answer.headers.connection).to.equal('close');
      // a wrong password is refused just as early
      const wrong = await answerToPartialBody(`${env.url}/datastores/${store}/sparql`, { 'content-type': FORM, authorization: `Basic ${Buffer.from('admin:wrong').toString('base64')}` }, 8 * MiB, 1024);
      expect(wrong.status, wrong.body).to.equal(401);
      // and so is an unknown Service token when the connection would be named in the body
      const token = await answerToPartialBody(`${env.url}/datastores/${store}/sparql`, { 'content-type': FORM, authorization: 'Service not-a-token' }, 8 * MiB, 1024);
      expect(token.status, token.body).to.equal(401);
    });

    it('does not hold anonymous form bodies in memory (10 × 8 MiB answered 401)', async function () {
      this.timeout(60_000);
      const store = await env.createStore();
      const body = Buffer.alloc(8 * MiB, 0x61);
      body.write('query=', 0);
      const url = `${env.url}/datastores/${store}/sparql`;
      // warm up (sockets, parsers), then measure the peak while the bodies are sent
      expect((await send(url, { 'content-type': FORM }, Buffer.from('query=ASK%7B%7D'))).status).to.equal(401);
      const before = process.memoryUsage().arrayBuffers;
      let peak = before;
      const sample = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage().arrayBuffers);
      }, 1);
      try {
        const answers = await Promise.all(Array.from({ length: 10 }, () => send(url, { 'content-type': FORM }, body)));
        for (const answer of answers) expect(answer.status, answer.body).to.equal(401);
      } finally {
        clearInterval(sample);
      }
      peak = Math.max(peak, process.memoryUsage().arrayBuffers);
      expect(peak - before, `grew by ${Math.round((peak - before) / MiB)} MiB`).to.be.lessThan(40 * MiB);
    });

    it('still reads the form bodies of authenticated requests (Basic)', async () => {
      const store = await env.createStore();
      const ok = await env.fetch(`/datastores/${store}/sparql`, { method: 'POST', headers: { 'content-type': FORM }, body: new URLSearchParams({ query: 'SELECT ?x WHERE { VALUES ?x { 1 } }' }).toString() });
      expect((await readCsv(ok)).rows).to.deep.equal([['1']]);
    });

    it('authenticates a Service token whose connection is named in the form body', async () => {
      const store = await env.createStore();
      const open = async (): Promise<{ id: string; token: string; location: string }> => {
        const created = await env.fetch(`/datastores/${store}/connections`, { method: 'POST' });
        const location = created.headers.get('location')!;
        return { id: location.split('/').pop()!, token: created.headers.get('service-authentication-token')!, location };
      };
      const a = await open();
      const b = await open();
      const form = (fields: Record<string, string>): RequestInit => ({ method: 'POST', headers: { 'content-type': FORM }, body: new URLSearchParams(fields).toString() });
      const as = (token: string, init: RequestInit): RequestInit => ({ ...init, headers: { ...(init.headers as Record<string, string>), authorization: `Service ${token}` } });
      const query = 'SELECT ?x WHERE { VALUES ?x { 2 } }';
      // the connection named in the body, with its token
      expect((await readCsv(await env.fetch(`/datastores/${store}/sparql`, as(a.token, form({ connection: a.id, query }))))).rows).to.deep.equal([['2']]);
      // named in the query string, the body holding the query
      expect((await readCsv(await env.fetch(`/datastores/${store}/sparql?connection=${b.id}`, as(b.token, form({ query }))))).rows).to.deep.equal([['2']]);
      // another connection's token
      const foreign = await expectErrorResponse(await env.fetch(`/datastores/${store}/sparql`, as(b.token, form({ connection: a.id, query }))), 401, 'AuthenticationError');
      expect(foreign).to.contain(a.id);
      // a token, but no connection named anywhere
      expect(await expectErrorResponse(await env.fetch(`/datastores/${store}/sparql`, as(a.token, form({ query }))), 401, 'AuthenticationError')).to.contain('connection=');
      // Basic credentials of the connection's role with a connection named in the body
      expect((await readCsv(await env.fetch(`/datastores/${store}/sparql`, form({ connection: a.id, query })))).rows).to.deep.equal([['2']]);
      for (const c of [a, b]) expect((await env.fetch(c.location, { method: 'DELETE', headers: { authorization: `Service ${c.token}` } })).status).to.equal(204);
    });
  });

  describe('over their limits', () => {
    const LIMIT = 64 * 1024;
    const env = useEndpoint('request-bodies-limit', { maxContentBytes: LIMIT });

    it('answers a streamed form body over the limit 413, readable by the client, and closes the connection', async () => {
      const store = await env.createStore();
      const answer = await streamBody(`${env.url}/datastores/${store}/sparql`, { method: 'POST', headers: { 'content-type': FORM }, first: 'query=', filler: 'a'.repeat(1024), totalBytes: 16 * LIMIT });
      expect(answer.status, answer.body).to.equal(413);
      expect(answer.body).to.match(/^PayloadTooLargeError: /);
      expect(answer.headers.connection).to.equal('close');
      // fetch, with a streamed body, reads it too
      let left = 16;
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (left-- > 0) controller.enqueue(Buffer.alloc(LIMIT / 2, 0x61));
          else controller.close();
        },
      });
      const res = await fetch(`${env.url}/datastores/${store}/sparql`, { method: 'POST', headers: { authorization: ADMIN_AUTH, 'content-type': FORM }, body: stream, duplex: 'half' });
      await expectErrorResponse(res, 413, 'PayloadTooLargeError');
    });

    it('answers a form body whose Content-Length is over the limit 413 before it has arrived', async function () {
      this.timeout(20_000);
      const store = await env.createStore();
      const answer = await answerToPartialBody(`${env.url}/datastores/${store}/sparql`, { 'content-type': FORM, authorization: ADMIN_AUTH }, 4 * MiB, 1024);
      expect(answer.status, answer.body).to.equal(413);
      expect(answer.headers.connection).to.equal('close');
    });

    it('answers a streamed content body over maxContentBytes 413 and closes the connection', async () => {
      const store = await env.createStore();
      const answer = await streamBody(`${env.url}/datastores/${store}/content`, {
        method: 'PUT',
        headers: { 'content-type': 'application/n-triples' },
        first: '<http://example.com/s> <http://example.com/p> "first" .\n',
        filler: '<http://example.com/s> <http://example.com/p> "filler" .\n',
        totalBytes: 16 * LIMIT,
      });
      expect(answer.status, answer.body).to.equal(413);
      expect(answer.body).to.match(/^PayloadTooLargeError: /);
      expect(answer.headers.connection).to.equal('close');
    });
  });
});
