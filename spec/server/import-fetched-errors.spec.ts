import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from 'chai';
import { type DataStoreConnection, ImportError, ParsingError } from '../../lib/index.js';
import { listen, type Listening } from '../helpers/listen.js';
import { expectError, useServer } from '../helpers/server.js';

/** What an attacker would like an error to echo: a line of /etc/passwd. */
const PAGE = 'root:x:0:0:root:/root:/bin/bash\n';
/** Pieces of the page that must not appear in any message. */
const PIECES = ['root', 'bash', 'bin/', 'x:0', '0:0'];

/** Pages of the test web server: path → Content-Type and body. */
const PAGES: Readonly<Record<string, { readonly type: string; readonly body: string }>> = {
  '/passwd': { type: 'text/plain', body: PAGE },
  '/passwd.ttl': { type: 'text/turtle', body: PAGE },
  '/passwd.trig': { type: 'application/trig', body: PAGE },
  '/passwd.nt': { type: 'application/n-triples', body: PAGE },
  '/passwd.nq': { type: 'application/n-quads', body: PAGE },
  '/passwd.dlog': { type: 'application/x.datalog', body: PAGE },
  // broken in other ways, each quoting the secret where a message could
  '/relative.nt': { type: 'application/n-triples', body: '<root-secret> <http://example.com/p> <http://example.com/o> .\n' },
  '/escape.nt': { type: 'application/n-triples', body: '<http://example.com/\\uZZroot> <http://example.com/p> <http://example.com/o> .\n' },
  '/prefix.ttl': { type: 'text/turtle', body: 'rootsecret:a <http://example.com/p> <http://example.com/o> .\n' },
  '/object.ttl': { type: 'text/turtle', body: '<http://example.com/s> <http://example.com/p> "rootsecret" <http://example.com/x> .\n' },
  '/prefixdecl.ttl': { type: 'text/turtle', body: '@prefix rootsecret: "x" .\n' },
  '/rule.dlog': { type: 'application/x.datalog', body: '[?rootsecret, <http://example.com/p>, ?y] :- [?x, <http://example.com/q>, ?y] .\n' },
  '/table.dlog': { type: 'application/x.datalog', body: 'rootsecret(<http://example.com/a>) .\n' },
  '/atom.dlog': { type: 'application/x.datalog', body: '[<http://example.com/a>, <http://example.com/p>, <http://example.com/b>] :- rootsecret .\n' },
  '/utf8.ttl': { type: 'text/turtle', body: '<http://example.com/s> <http://example.com/p> "root\u00e9" .\n' },
};

/** Asserts that a message says nothing of the page. */
function expectNoContent(message: string, where: string): void {
  for (const piece of [...PIECES, 'secret']) expect(message, `${where}: ${message}`).to.not.contain(piece);
}

describe('server: errors of content read by IRI hold none of the content', () => {
  let web: Listening;
  // the sandbox directory exists before the server is created with it
  const sandbox = mkdtempSync(join(tmpdir(), 'quadlog-fetched-errors-'));
  for (const [path, page] of Object.entries(PAGES)) writeFileSync(join(sandbox, path.slice(1)), page.body);
  before(async () => {
    web = await listen((req, res) => {
      const page = PAGES[req.url ?? ''];
      if (!page) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': page.type });
      res.end(req.url === '/utf8.ttl' ? Buffer.from(page.body.replace('\u00e9', '\u0000'), 'utf8').map((b) => (b === 0 ? 0xff : b)) : page.body);
    });
  });
  after(async () => {
    await web.close();
    rmSync(sandbox, { recursive: true, force: true });
  });

  const env = useServer('import-fetched-errors', { 'allowed-url-schemes-on-import': 'http,file', 'sandbox-directory': sandbox });
  let store: DataStoreConnection;
  before(async () => {
    store = await env.newStore();
    await store.importData('ADD', '<http://example.com/kept> <http://example.com/p> "kept" .\n');
  });

  it('LOAD of a page that is not RDF names the IRI and the rule broken, never the page', async () => {
    for (const path of Object.keys(PAGES)) {
      const iri = `${web.url}${path}`;
      const e = await expectError(store.evaluateUpdate(`LOAD <${iri}>`), ParsingError);
      expect(e.message, path).to.contain(iri);
      expectNoContent(e.message, path);
      expect(await store.countFacts()).to.equal(1);
    }
    const e = await expectError(store.evaluateUpdate(`LOAD <${web.url}/passwd>`), ParsingError);
    expect(e.message).to.match(/LOAD <[^>]+> failed: line 1(, column \d+)?: \S/);
  });

  it('imports of IRI lists say which rule was broken where, never what the content holds', async () => {
    for (const path of Object.keys(PAGES)) {
      const e = await expectError(store.importData('ADD', { iris: [`${web.url}${path}`] }), ImportError);
      expectNoContent(e.message, path);
      for (const row of e.result.rows) expectNoContent(`${row.description} ${row.value}`, path);
      expect(e.firstError?.line, path).to.equal(1);
    }
    expect(await store.countFacts()).to.equal(1);
  });

  it('hides the content of file IRIs in the sandbox too, but not of files a program names itself', async () => {
    for (const path of ['passwd.ttl', 'relative.nt', 'rule.dlog']) {
      const iri = pathToFileURL(join(sandbox, path)).href;
      const hidden = await expectError(store.importData('ADD', { iris: [iri] }), ImportError);
      expectNoContent(hidden.message.replace(iri, ''), path);
      // a path given by the program is its own content: the message may quote it
      const shown = await expectError(store.importData('ADD', { path: join(sandbox, path) }), ImportError);
      expect(shown.message, path).to.match(/root|secret/);
    }
  });

  it('keeps the offending text in errors of content the caller gives itself', async () => {
    const e = await expectError(store.importData('ADD', PAGE, { mediaType: 'text/turtle' }), ImportError);
    expect(e.message).to.contain('root');
    const rule = await expectError(store.importData('ADD', PAGES['/table.dlog']!.body, { mediaType: 'application/x.datalog' }), ImportError);
    expect(rule.message).to.contain('rootsecret');
  });
});
