/**
 * A query that fails after its answer has started to stream (the endpoint holds back only the
 * first 16 KiB): the status can no longer change, so the response is cut short in a way every
 * client notices, never ended as if the answer were whole.
 */
import { expect } from 'chai';
import http from 'node:http';
import net from 'node:net';
import { bigNTriples } from '../helpers/server.js';
import { ADMIN_AUTH, useEndpoint } from './helpers.js';

const P = 'http://example.com/big/p';
/** 90,000 distinct pairs (about 5 MB of CSV): its DISTINCT table grows with every row sent. */
const DISTINCT_PAIRS = `SELECT DISTINCT ?a ?c WHERE { ?a <${P}> ?b . ?c <${P}> ?d }`;
/** Large enough for a few hundred KiB of the answer to go out before the DISTINCT passes it. */
const LATE_LIMIT = 300_000;
/** 27 million rows: no time limit here lets it finish. */
const ENDLESS = `SELECT ?a ?c ?f WHERE { ?a <${P}> ?b . ?c <${P}> ?d . ?f <${P}> ?g }`;

/** What a node:http client saw of a response. */
interface Seen {
  readonly status: number;
  readonly bytes: number;
  /** Whether the body ended cleanly ('end' with the message complete). */
  readonly cleanEnd: boolean;
  /** The error the response or the request reported, if any. */
  readonly error: string | undefined;
}

/** GETs `path` with node:http (HTTP/1.1, chunked answers) and reads the whole response. */
function get(base: string, path: string): Promise<Seen> {
  return new Promise((resolve) => {
    let status = 0;
    let bytes = 0;
    let cleanEnd = false;
    let error: string | undefined;
    let settled = false;
    const settle = (): void => {
      if (settled) return;
      settled = true;
      resolve({ status, bytes, cleanEnd, error });
    };
    const req = http.get(`${base}${path}`, { headers: { authorization: ADMIN_AUTH, accept: 'text/csv' } }, (res) => {
      status = res.statusCode ?? 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => (cleanEnd = res.complete));
      res.on('error', (e) => (error ??= e.message));
      res.on('close', () => {
        if (!res.complete) error ??= 'incomplete message';
        settle();
      });
    });
    req.on('error', (e) => {
      error ??= e.message;
      // (with no response at all, nothing else settles)
      setImmediate(settle);
    });
  });
}

/** Sends an HTTP/1.0 GET over a bare socket (no chunked encoding for it); resolves with the head and body it got. */
function getHttp10(port: number, path: string): Promise<{ head: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(`GET ${path} HTTP/1.0\r\nHost: localhost\r\nAccept: text/csv\r\nAuthorization: ${ADMIN_AUTH}\r\n\r\n`);
    });
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const data = Buffer.concat(chunks).toString('utf8');
      const split = data.indexOf('\r\n\r\n');
      resolve({ head: data.slice(0, split), body: data.slice(split + 4) });
    });
  });
}

for (const variant of ['A', 'B'] as const) {
  describe(`http: an answer cut short after it started (variant ${variant})`, () => {
    const env = useEndpoint(`aborted-answers-${variant}`, { variant });
    let store: string;
    const query = (text: string, limits: string): string => `/datastores/${store}/sparql?query=${encodeURIComponent(text)}&${limits}`;

    before(async () => {
      store = await env.createStore();
      expect((await env.storeConnection(store).importData('ADD', bigNTriples(300))).errors).to.equal(0);
    });

    it('a memory limit struck after the first 16 KiB: the client sees a failed 200, never a clean end', async () => {
      const seen = await get(env.url, query(DISTINCT_PAIRS, `query-memory-limit=${LATE_LIMIT}`));
      expect(seen.status).to.equal(200);
      expect(seen.bytes).to.be.greaterThan(16 * 1024);
      expect(seen.cleanEnd).to.equal(false);
      expect(seen.error).to.be.a('string');
      // the endpoint serves the next request, and the same query with room enough ends cleanly
      const whole = await get(env.url, query(DISTINCT_PAIRS, 'query-memory-limit=100000000'));
      expect(whole).to.include({ status: 200, cleanEnd: true, error: undefined });
      expect(whole.bytes).to.be.greaterThan(seen.bytes);
    });

    it('a time limit: either an error status (struck early) or a failed 200, never a clean end', async () => {
      const seen = await get(env.url, query(ENDLESS, 'query-time-limit=1500'));
      if (seen.status === 200) {
        expect(seen.cleanEnd).to.equal(false);
        expect(seen.error).to.be.a('string');
      } else expect(seen.status).to.equal(409);
    });

    it('an HTTP/1.0 client, whose answer would end with the connection, gets the error status of a failure after 16 KiB', async () => {
      const port = Number(new URL(env.url).port);
      const failed = await getHttp10(port, query(DISTINCT_PAIRS, `query-memory-limit=${LATE_LIMIT}`));
      expect(failed.head).to.match(/^HTTP\/1\.1 422 /);
      expect(failed.body).to.match(/^MemoryLimitError: /);
      // a whole answer comes with its length
      const whole = await getHttp10(port, query(`SELECT ?a WHERE { ?a <${P}> ?b }`, ''));
      expect(whole.head).to.match(/^HTTP\/1\.1 200 /);
      expect(whole.head).to.match(/content-length: \d+/i);
      expect(whole.body.split('\r\n').filter((l) => l !== '')).to.have.length(301);
    });
  });
}
