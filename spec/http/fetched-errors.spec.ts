import { expect } from 'chai';
import { listen, type Listening } from '../helpers/listen.js';
import { useEndpoint } from './helpers.js';

/** A page that is not RDF, whose text no answer may echo. */
const PAGE = 'root:x:0:0:root:/root:/bin/bash\n';

describe('http: errors of content read by IRI echo none of it', () => {
  let web: Listening;
  before(async () => {
    web = await listen((req, res) => {
      res.writeHead(200, { 'content-type': req.url === '/passwd.nt' ? 'application/n-triples' : 'text/plain' });
      res.end(PAGE);
    });
  });
  after(() => web.close());
  const env = useEndpoint('fetched-errors', { parameters: { 'allowed-url-schemes-on-import': 'http' } });

  /** Asserts that an answer says nothing of the page. */
  const expectNoPage = (text: string): void => {
    for (const piece of ['root', 'bash', 'x:0', '0:0']) expect(text).to.not.contain(piece);
  };

  it('answers a SPARQL LOAD of a page that is not RDF 400, naming the IRI and the rule, not the page', async () => {
    const store = await env.createStore();
    for (const path of ['/passwd', '/passwd.nt']) {
      const iri = `${web.url}${path}`;
      const res = await env.fetch(`/datastores/${store}/sparql`, { method: 'POST', headers: { 'content-type': 'application/sparql-update' }, body: `LOAD <${iri}>` });
      const text = await res.text();
      expect(res.status, text).to.equal(400);
      expect(text).to.match(/^ParsingError: LOAD </);
      expect(text).to.contain(iri);
      expectNoPage(text);
    }
    expect(await env.storeConnection(store).countFacts()).to.equal(0);
  });

  it('answers a text/uri-list import of such a page with error rows that hold none of it', async () => {
    const store = await env.createStore();
    for (const accept of ['text/plain', 'application/sparql-results+json', 'text/csv']) {
      const res = await env.fetch(`/datastores/${store}/content?operation=add-content`, { method: 'PATCH', headers: { 'content-type': 'text/uri-list', accept }, body: `${web.url}/passwd\n${web.url}/passwd.nt\n` });
      const text = await res.text();
      expect(res.status, text).to.equal(400);
      expect(text).to.contain('error');
      expectNoPage(text);
    }
  });
});
