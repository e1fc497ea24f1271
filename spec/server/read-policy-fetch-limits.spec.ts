import { expect } from 'chai';
import { gzipSync } from 'node:zlib';
import { BadRequestError, ParsingError } from '../../lib/index.js';
import type { OpenedSource } from '../../lib/formats/content-source.js';
import { openIriUnder, readPolicyOf } from '../../lib/server/read-policy.js';
import { type Listening, listen } from '../helpers/listen.js';
import { expectError, useServer } from '../helpers/server.js';

const TRIPLE = '<http://e/a> <http://e/p> <http://e/b> .\n';
const SECRET = 'SECRET-BODY-TEXT';
/** 20 MB of triples that gzip to a few kilobytes. */
const BOMB = gzipSync(Buffer.from(`${SECRET}${TRIPLE}`.repeat(20_000_000 / (SECRET.length + TRIPLE.length))));

/** Reads a source to its end, returning how many bytes came. */
async function drain(opened: OpenedSource): Promise<number> {
  let n = 0;
  for await (const chunk of opened.chunks) n += chunk.length;
  return n;
}

describe('server: limits on fetched bodies (max-fetch-size, fetch-timeout)', function () {
  this.timeout(30_000);
  let site: Listening;
  const timers = new Set<NodeJS.Timeout>();
  /** Bytes the endless paths had sent when their client went away. */
  const sent = new Map<string, number>();

  before(async () => {
    site = await listen((req, res) => {
      res.setHeader('content-type', 'application/n-triples');
      if (req.url === '/small.nt') {
        res.end(TRIPLE);
      } else if (req.url === '/declared-large.nt') {
        res.setHeader('content-length', String(10_000_000));
        res.write(SECRET);
      } else if (req.url === '/endless.nt') {
        // no Content-Length: the body grows until the client gives up
        let n = 0;
        const more = (): void => {
          while (res.write(`${SECRET}${TRIPLE}`)) {
            n += SECRET.length + TRIPLE.length;
            if (n > 50_000_000) return void res.end();
          }
          res.once('drain', more);
        };
        res.on('close', () => sent.set('endless', n));
        more();
      } else if (req.url === '/bomb.nt.gz') {
        res.end(BOMB);
      } else if (req.url === '/slow.nt') {
        // a byte now and then, for ever
        res.write(SECRET);
        const t = setInterval(() => res.write(' '), 50);
        timers.add(t);
        res.on('close', () => clearInterval(t));
      } else if (req.url === '/no-headers.nt') {
        // never answers
      } else {
        res.statusCode = 404;
        res.end();
      }
    });
  });

  after(async () => {
    for (const t of timers) clearInterval(t);
    await site.close();
  });

  const policy = (extra: Record<string, string> = {}): ReturnType<typeof readPolicyOf> => readPolicyOf({ 'allowed-url-schemes-on-import': 'http', ...extra });

  it('has defaults (1 GiB, 5 minutes), takes positive integers or none, and refuses other values', () => {
    expect(policy().maxFetchBytes).to.equal(2 ** 30);
    expect(policy().fetchTimeoutMs).to.equal(300_000);
    expect(policy({ 'max-fetch-size': 'none', 'fetch-timeout': 'none' })).to.deep.include({ maxFetchBytes: Infinity, fetchTimeoutMs: Infinity });
    for (const [name, value] of [['max-fetch-size', '0'], ['max-fetch-size', '1GB'], ['fetch-timeout', '-1'], ['fetch-timeout', '']]) {
      expect(() => policy({ [name!]: value! }), `${name} ${value}`).to.throw(BadRequestError, name);
    }
  });

  it('reads a body within the limits', async () => {
    expect(await drain(await openIriUnder(`${site.url}/small.nt`, policy({ 'max-fetch-size': String(TRIPLE.length) })))).to.equal(TRIPLE.length);
  });

  it('refuses a body whose Content-Length is over max-fetch-size before reading it', async () => {
    const iri = `${site.url}/declared-large.nt`;
    const e = await expectError(openIriUnder(iri, policy({ 'max-fetch-size': '1000' })), ParsingError);
    expect(e.message).to.include(iri).and.include('max-fetch-size').and.include('1000 bytes');
    expect(e.message).not.to.include(SECRET);
  });

  it('stops reading a body without Content-Length as soon as it passes max-fetch-size', async () => {
    const iri = `${site.url}/endless.nt`;
    const opened = await openIriUnder(iri, policy({ 'max-fetch-size': '100000' }));
    const e = await expectError(drain(opened), ParsingError);
    expect(e.message).to.include(iri).and.include('max-fetch-size').and.include('100000 bytes');
    expect(e.message).not.to.include(SECRET);
    for (let i = 0; i < 100 && !sent.has('endless'); i++) await new Promise((r) => setTimeout(r, 20));
    // the server was cut off long before the end of its 50 MB
    expect(sent.get('endless')).to.be.below(20_000_000);
  });

  it('holds a gzip\'d body to max-fetch-size once decompressed, however small it is sent', async () => {
    const iri = `${site.url}/bomb.nt.gz`;
    expect(BOMB.length).to.be.below(100_000);
    const e = await expectError(drain(await openIriUnder(iri, policy({ 'max-fetch-size': '100000' }))), ParsingError);
    expect(e.message).to.include(iri).and.include('max-fetch-size').and.include('100000 bytes');
    expect(e.message).not.to.include(SECRET);
  });

  it('stops a body that trickles past fetch-timeout, and a server that never answers', async () => {
    let iri = `${site.url}/slow.nt`;
    const opened = await openIriUnder(iri, policy({ 'fetch-timeout': '500' }));
    let e = await expectError(drain(opened), ParsingError);
    expect(e.message).to.include(iri).and.include('fetch-timeout').and.include('500 ms');
    expect(e.message).not.to.include(SECRET);
    iri = `${site.url}/no-headers.nt`;
    e = await expectError(openIriUnder(iri, policy({ 'fetch-timeout': '300' })), ParsingError);
    expect(e.message).to.include(iri).and.include('fetch-timeout');
  });

  describe('through LOAD and imports by IRI of a server', () => {
    const env = useServer('read-policy-fetch-limits', { 'allowed-url-schemes-on-import': 'http', 'max-fetch-size': '100000', 'fetch-timeout': '500' });

    it('fails the import naming the IRI and the limit, and changes nothing', async () => {
      const ds = await env.newStore();
      let e = await expectError(ds.evaluateUpdate(`LOAD <${site.url}/endless.nt>`), Error);
      expect(e.message).to.include(`${site.url}/endless.nt`).and.include('max-fetch-size');
      e = await expectError(ds.importData('ADD', { iris: [`${site.url}/slow.nt`] }), Error);
      expect(e.message).to.include(`${site.url}/slow.nt`).and.include('fetch-timeout');
      await ds.evaluateUpdate(`LOAD <${site.url}/small.nt>`);
      expect(await ds.exportDataToString('application/n-triples')).to.equal(TRIPLE);
    });
  });
});
