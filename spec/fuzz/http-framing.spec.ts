/**
 * Abusing the HTTP endpoint with raw sockets: broken request lines, wrong Content-Lengths,
 * invalid chunked encoding, huge headers, slow bodies, half-sent requests, and clients that
 * hang up in the middle of a request or of a large answer. After each, the endpoint must
 * answer another client's normal requests, `/health` must answer, and the store must still
 * take writes (no lock or transaction left behind by a vanished client).
 * @module
 */
import { connect, type Socket } from 'node:net';
import { expect } from 'chai';
import fc from 'fast-check';
import { ADMIN_AUTH, useEndpoint } from '../http/helpers.js';
import { fuzzParameters } from './helpers.js';

/** What a raw exchange received: the bytes as latin1 text, and whether the server closed the socket. */
interface RawReply {
  readonly text: string;
  readonly closedByServer: boolean;
}

/** The status code of the first response in a raw reply, or undefined when there was none. */
function statusOf(reply: RawReply): number | undefined {
  const m = /^HTTP\/1\.[01] (\d{3})/.exec(reply.text);
  return m ? Number(m[1]) : undefined;
}

/** Opens a raw TCP connection to the endpoint. */
function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port }, () => resolve(socket));
    socket.once('error', reject);
  });
}

/**
 * Writes `parts` to a fresh socket (pausing `pauseMs` between them), then half-closes it when
 * `end` is set, and collects what comes back until the server closes the socket or `waitMs`
 * pass (then the client hangs up itself).
 */
async function exchange(port: number, parts: ReadonlyArray<string | Buffer>, options: { readonly pauseMs?: number; readonly end?: boolean; readonly waitMs?: number } = {}): Promise<RawReply> {
  const socket = await open(port);
  let text = '';
  let closedByServer = false;
  const closed = new Promise<void>((resolve) => {
    socket.on('data', (d: Buffer) => (text += d.toString('latin1')));
    socket.on('error', () => resolve());
    socket.on('end', () => {
      closedByServer = true;
      resolve();
    });
    socket.on('close', () => resolve());
  });
  for (const [i, part] of parts.entries()) {
    if (socket.destroyed) break;
    socket.write(part);
    if (options.pauseMs && i < parts.length - 1) await new Promise((r) => setTimeout(r, options.pauseMs));
  }
  if (options.end) socket.end();
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([closed, new Promise<void>((r) => (timer = setTimeout(r, options.waitMs ?? 3000)))]);
  clearTimeout(timer);
  socket.destroy();
  return { text, closedByServer };
}

/** A request head with the first role's credentials. */
function head(method: string, path: string, headers: Record<string, string> = {}): string {
  const lines = [`${method} ${path} HTTP/1.1`, 'Host: 127.0.0.1', `Authorization: ${ADMIN_AUTH}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  return `${lines.join('\r\n')}\r\n\r\n`;
}

describe('fuzz: HTTP framing and disconnects', function () {
  this.timeout(120_000);
  const env = useEndpoint('fuzz-framing');
  let store = '';
  let writes = 0;

  before(async () => {
    store = await env.createStore('big');
    const ds = env.storeConnection(store);
    // an answer large enough that it cannot sit in the socket buffers at once
    const lines = Array.from({ length: 40_000 }, (_, i) => `<http://example.com/s${i}> <http://example.com/p> "a value long enough to fill buffers ${i}" .`);
    await ds.importData('ADD', lines.join('\n'), { mediaType: 'application/n-triples' });
  });

  /** Another client's normal requests succeed: /health, a query, and a write (no lock held by a vanished client). */
  async function expectHealthy(after: string): Promise<void> {
    const health = await env.fetch('/health');
    expect(health.status, `/health after ${after}`).to.be.below(300);
    await health.arrayBuffer();
    const ask = await env.fetch(`/datastores/${store}/sparql?query=${encodeURIComponent('ASK { <http://example.com/s1> ?p ?o }')}`, { headers: { accept: 'application/sparql-results+json' } });
    expect(ask.status, `a query after ${after}`).to.equal(200);
    expect(await ask.json()).to.deep.include({ boolean: true });
    const write = await env.fetch(`/datastores/${store}/content?operation=add-content`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/n-triples' },
      body: `<http://example.com/w${++writes}> <http://example.com/p> "after" .\n`,
    });
    expect(write.status, `a write after ${after}: ${await write.text()}`).to.be.below(300);
  }

  const port = (): number => env.endpoint.port;

  it('a garbage request line gets 400 or a closed socket, and others are unaffected', async () => {
    for (const garbage of ['GARBAGE\r\n\r\n', 'GET\r\n\r\n', 'GET / HTTP/9.9\r\n\r\n', '\u0000\u0001\u0002\r\n\r\n', 'GET /health HTTP/1.1\r\nNoColonHeader\r\n\r\n', 'G\u00e9T / HTTP/1.1\r\n\r\n']) {
      const reply = await exchange(port(), [garbage]);
      const status = statusOf(reply);
      expect(status === undefined ? reply.closedByServer || reply.text === '' : status >= 400 && status < 500, JSON.stringify(garbage) + reply.text).to.equal(true);
      await expectHealthy(JSON.stringify(garbage));
    }
  });

  it('a Content-Length larger than the body: the request waits, the client leaves, nothing is imported', async () => {
    const body = '<http://example.com/partial> <http://example.com/p> 1 .\n';
    const reply = await exchange(port(), [head('PATCH', `/datastores/${store}/content?operation=add-content`, { 'Content-Type': 'application/n-triples', 'Content-Length': String(body.length + 500) }), body], { waitMs: 300 });
    expect(statusOf(reply)).to.equal(undefined);
    await expectHealthy('a short body');
    const count = await env.fetch(`/datastores/${store}/sparql?query=${encodeURIComponent('ASK { <http://example.com/partial> ?p ?o }')}`, { headers: { accept: 'application/sparql-results+json' } });
    expect(await count.json()).to.deep.include({ boolean: false });
  });

  it('a Content-Length larger than the body followed by a half-close: no 5xx', async () => {
    const reply = await exchange(port(), [head('PATCH', `/datastores/${store}/content?operation=add-content`, { 'Content-Type': 'application/n-triples', 'Content-Length': '1000' }), '<http://example.com/x>'], { end: true });
    const status = statusOf(reply);
    if (status !== undefined) expect(status).to.be.below(500);
    await expectHealthy('a half-closed short body');
  });

  it('a Content-Length smaller than the body: the rest is read as the next request and refused', async () => {
    // Node answers the unparsable leftover with its own 400 and closes the socket, which may cut
    // off the answer of the first request: either way, nothing of it is a 5xx
    const body = 'query=ASK%7B%7DGARBAGE GARBAGE\r\n\r\n';
    const reply = await exchange(port(), [head('POST', `/datastores/${store}/sparql`, { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': '15', Accept: 'application/sparql-results+json' }), body], { end: true });
    const statuses = [...reply.text.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => Number(m[1]));
    expect(statuses, reply.text).to.include(400); // the leftover, as a request, is refused
    for (const status of statuses) expect(status, reply.text).to.be.oneOf([200, 400]);
    await expectHealthy('a long body');
  });

  it('Content-Length and Transfer-Encoding together, two Content-Lengths, a negative one: 400', async () => {
    const cases: Array<Record<string, string>> = [
      { 'Content-Length': '5', 'Transfer-Encoding': 'chunked' },
      { 'Content-Length': '5\r\nContent-Length: 6' },
      { 'Content-Length': '-1' },
      { 'Content-Length': '99999999999999999999999' },
      { 'Transfer-Encoding': 'gzip, chunked, identity' },
    ];
    for (const headers of cases) {
      const reply = await exchange(port(), [head('POST', `/datastores/${store}/sparql`, { 'Content-Type': 'application/sparql-query', ...headers }), 'ASK{}'], { end: true });
      const status = statusOf(reply);
      if (status !== undefined) expect(status, JSON.stringify(headers)).to.be.within(400, 499);
      await expectHealthy(JSON.stringify(headers));
    }
  });

  it('invalid chunked encodings are refused, and others are unaffected', async () => {
    const h = head('PATCH', `/datastores/${store}/content?operation=add-content`, { 'Content-Type': 'application/n-triples', 'Transfer-Encoding': 'chunked' });
    const triple = '<http://example.com/chunk> <http://example.com/p> 1 .\n';
    for (const chunks of [
      `zz\r\n${triple}\r\n0\r\n\r\n`,
      `${(triple.length + 10).toString(16)}\r\n${triple}\r\n0\r\n\r\n`,
      `${triple.length.toString(16)}\r\n${triple}XX0\r\n\r\n`,
      `-5\r\nabc\r\n0\r\n\r\n`,
      `fffffffffffffffff\r\n${triple}\r\n0\r\n\r\n`,
      `${triple.length.toString(16)};ext=1\r\n${triple}`, // never finished: the client leaves
    ]) {
      const reply = await exchange(port(), [h, chunks], { end: true, waitMs: 1000 });
      const status = statusOf(reply);
      if (status !== undefined) expect(status, JSON.stringify(chunks) + reply.text).to.be.below(500);
      await expectHealthy(`chunks ${JSON.stringify(chunks)}`);
    }
    const ask = await env.fetch(`/datastores/${store}/sparql?query=${encodeURIComponent('ASK { <http://example.com/chunk> ?p ?o }')}`, { headers: { accept: 'application/sparql-results+json' } });
    expect(await ask.json(), 'a broken chunked body imported something').to.deep.include({ boolean: false });
  });

  it('huge headers (100 kB in one, 2,000 of them) and a huge URL answer below 500 (431 for the 100 kB one)', async () => {
    for (const request of [
      head('GET', '/health', { 'X-Huge': 'x'.repeat(100_000) }),
      head('GET', '/health', Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`X-H${i}`, 'v']))),
      head('GET', `/datastores/${store}/sparql?query=${'A'.repeat(100_000)}`),
    ]) {
      const reply = await exchange(port(), [request], { end: true });
      const status = statusOf(reply);
      if (status !== undefined) expect(status, `${request.slice(0, 60)}: ${reply.text}`).to.be.below(500);
      if (request.includes('X-Huge')) expect(status).to.equal(431);
      if (status === undefined) expect(reply.closedByServer || reply.text === '').to.equal(true);
      await expectHealthy('huge headers');
    }
  });

  it('a slow body (a few bytes, a pause, the rest) is served while other clients are served meanwhile', async () => {
    const update = 'INSERT DATA { <http://example.com/slow> <http://example.com/p> 1 }';
    const h = head('POST', `/datastores/${store}/sparql`, { 'Content-Type': 'application/sparql-update', 'Content-Length': String(Buffer.byteLength(update)) });
    const socket = await open(port());
    let text = '';
    socket.on('data', (d: Buffer) => (text += d.toString('latin1')));
    const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write(h + update.slice(0, 7));
    await expectHealthy('the start of a slow body'); // served while the slow body waits
    socket.end(update.slice(7));
    await Promise.race([ended, new Promise((r) => setTimeout(r, 20_000))]);
    socket.destroy();
    expect(statusOf({ text, closedByServer: true })).to.be.within(200, 299);
    const ask = await env.fetch(`/datastores/${store}/sparql?query=${encodeURIComponent('ASK { <http://example.com/slow> ?p ?o }')}`, { headers: { accept: 'application/sparql-results+json' } });
    expect(await ask.json()).to.deep.include({ boolean: true });
  });

  it('many half-sent request heads at once do not stop other clients', async () => {
    const sockets = await Promise.all(Array.from({ length: 50 }, () => open(port())));
    for (const s of sockets) {
      s.on('error', () => undefined);
      s.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
    }
    await expectHealthy('50 half-sent heads');
    for (const s of sockets) s.destroy();
    await expectHealthy('50 abandoned heads');
  });

  it('a client hanging up in the middle of an import changes nothing and leaves no lock', async () => {
    const lines = Array.from({ length: 2000 }, (_, i) => `<http://example.com/gone${i}> <http://example.com/p> ${i} .\n`).join('');
    const h = head('PATCH', `/datastores/${store}/content?operation=add-content`, { 'Content-Type': 'application/n-triples', 'Content-Length': String(lines.length) });
    await exchange(port(), [h, lines.slice(0, 30_000)], { waitMs: 200 });
    await expectHealthy('a hang-up mid-import');
    const ask = await env.fetch(`/datastores/${store}/sparql?query=${encodeURIComponent('ASK { <http://example.com/gone1> ?p ?o }')}`, { headers: { accept: 'application/sparql-results+json' } });
    expect(await ask.json(), 'a half-received import was applied').to.deep.include({ boolean: false });
  });

  it('clients hanging up in the middle of large answers (exports and queries) leave the endpoint serving', async () => {
    for (const request of [
      head('GET', `/datastores/${store}/content`, { Accept: 'application/n-triples' }),
      head('GET', `/datastores/${store}/sparql?query=${encodeURIComponent('SELECT * WHERE { ?s ?p ?o } ORDER BY ?o')}`, { Accept: 'text/csv' }),
      head('GET', `/datastores/${store}/sparql?query=${encodeURIComponent('CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }')}`, { Accept: 'text/turtle' }),
    ]) {
      const socket = await open(port());
      socket.on('error', () => undefined);
      const got = new Promise<void>((resolve) => {
        let received = 0;
        socket.on('data', (d: Buffer) => {
          received += d.length;
          if (received > 2000) resolve();
        });
        socket.on('close', () => resolve());
      });
      socket.write(request);
      await got;
      socket.destroy(); // mid-response
      await expectHealthy('a hang-up mid-answer');
    }
  });

  it('random bytes before, inside and instead of requests never give a 5xx', async () => {
    const pieces = [head('GET', '/health'), head('POST', `/datastores/${store}/sparql`, { 'Content-Type': 'application/sparql-query', 'Content-Length': '5' }) + 'ASK{}', '\r\n', 'Transfer-Encoding: chunked\r\n', '0\r\n\r\n', ' HTTP/1.1'];
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(fc.constantFrom(...pieces), fc.uint8Array({ maxLength: 40 }).map((b) => Buffer.from(b).toString('latin1'))), { minLength: 1, maxLength: 5 }), async (parts) => {
        const reply = await exchange(port(), parts.map((p) => Buffer.from(p, 'latin1')), { end: true, waitMs: 1500 });
        for (const m of reply.text.matchAll(/HTTP\/1\.[01] (\d{3})/g)) expect(Number(m[1]), JSON.stringify(parts) + reply.text).to.be.below(500);
      }),
      fuzzParameters(40),
    );
    await expectHealthy('random bytes');
  });
});
