import { expect } from 'chai';
import { Parser } from 'n3';
import { isomorphic } from '../helpers/isomorphism.js';
import { useEndpoint } from './helpers.js';

const EX = 'http://example.org/';
const JSONLD_DOC = JSON.stringify({
  '@context': { ex: EX },
  '@graph': [
    { '@id': 'ex:alice', 'ex:name': 'Alice', 'ex:knows': { '@id': 'ex:bob' } },
    { '@id': 'ex:g', '@graph': [{ '@id': 'ex:bob', 'ex:age': 7 }] },
  ],
});
const RDFXML_DOC = `<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:ex="${EX}">
  <rdf:Description rdf:about="${EX}carol"><ex:name xml:lang="en">Carol</ex:name></rdf:Description>
</rdf:RDF>`;
const EXPECTED = `<${EX}alice> <${EX}name> "Alice" .
<${EX}alice> <${EX}knows> <${EX}bob> .
<${EX}bob> <${EX}age> "7"^^<http://www.w3.org/2001/XMLSchema#integer> <${EX}g> .
<${EX}carol> <${EX}name> "Carol"@en .
`;

describe('HTTP: JSON-LD and RDF/XML content', () => {
  const env = useEndpoint('rdf-formats');
  const nquads = (text: string) => new Parser({ format: 'N-Quads' }).parse(text);

  it('imports by Content-Type and exports by Accept, each format reading back what it wrote', async () => {
    const store = await env.createStore();
    const path = `/datastores/${store}/content`;
    const a = await env.fetch(path, { method: 'POST', headers: { 'content-type': 'application/ld+json' }, body: JSONLD_DOC });
    expect(a.status, await a.clone().text()).to.equal(200);
    const b = await env.fetch(path, { method: 'POST', headers: { 'content-type': 'application/rdf+xml; charset=UTF-8' }, body: RDFXML_DOC });
    expect(b.status, await b.clone().text()).to.equal(200);
    const all = await env.fetch(path, { headers: { accept: 'application/n-quads' } });
    expect(isomorphic(nquads(await all.text()), nquads(EXPECTED))).to.equal(true);

    const jsonld = await env.fetch(path, { headers: { accept: 'application/ld+json' } });
    expect(jsonld.status).to.equal(200);
    expect(jsonld.headers.get('content-type')).to.equal('application/ld+json; charset=UTF-8');
    const jsonldText = await jsonld.text();
    JSON.parse(jsonldText);
    const xml = await env.fetch(path, { headers: { accept: 'application/rdf+xml, text/turtle;q=0.5' } });
    expect(xml.headers.get('content-type')).to.equal('application/rdf+xml; charset=UTF-8');
    const xmlText = await xml.text();

    // each export read back into a fresh store: JSON-LD keeps the named graph, RDF/XML the default graph only
    for (const [text, type, expected] of [
      [jsonldText, 'application/ld+json', EXPECTED],
      [xmlText, 'application/rdf+xml', EXPECTED.split('\n').filter((l) => !l.includes(`<${EX}g>`)).join('\n')],
    ] as const) {
      const copy = await env.createStore();
      const put = await env.fetch(`/datastores/${copy}/content`, { method: 'POST', headers: { 'content-type': type }, body: text });
      expect(put.status, type).to.equal(200);
      const back = await env.fetch(`/datastores/${copy}/content`, { headers: { accept: 'application/n-quads' } });
      expect(isomorphic(nquads(await back.text()), nquads(expected)), type).to.equal(true);
    }
  });

  it('answers an RDF/XML body with an error with its line and column, and a JSON-LD one too, changing nothing', async () => {
    const store = await env.createStore();
    const path = `/datastores/${store}/content`;
    const xml = await env.fetch(path, { method: 'POST', headers: { 'content-type': 'application/rdf+xml' }, body: RDFXML_DOC.replace('</ex:name>', '</ex:nam>') });
    expect(xml.status).to.equal(400);
    expect(await xml.text()).to.match(/line 3: column \d+: /);
    const json = await env.fetch(path, { method: 'POST', headers: { 'content-type': 'application/ld+json' }, body: '{\n  "@id": "http://example.org/a",\n  "http://example.org/p": nul\n}' });
    expect(json.status).to.equal(400);
    expect(await json.text()).to.contain('line 3: column 30: invalid JSON: unexpected character');
    const empty = await env.fetch(path, { headers: { accept: 'application/n-quads' } });
    expect(await empty.text()).to.equal('');
  });

  it('answers CONSTRUCT in JSON-LD and RDF/XML when Accept asks for them', async () => {
    const store = await env.createStore();
    await env.storeConnection(store).importData('ADD', `<${EX}a> <${EX}name> "Ann" .`);
    const construct = encodeURIComponent(`CONSTRUCT { ?s <${EX}label> ?n } WHERE { ?s <${EX}name> ?n }`);
    const json = await env.fetch(`/datastores/${store}/sparql?query=${construct}`, { headers: { accept: 'application/ld+json' } });
    expect(json.status).to.equal(200);
    expect(json.headers.get('content-type')).to.match(/^application\/ld\+json/);
    expect(JSON.stringify(await json.json())).to.contain('Ann').and.contain(`${EX}a`);
    const xml = await env.fetch(`/datastores/${store}/sparql?query=${construct}`, { headers: { accept: 'application/rdf+xml' } });
    expect(xml.status).to.equal(200);
    expect(xml.headers.get('content-type')).to.match(/^application\/rdf\+xml/);
    expect(await xml.text()).to.contain('Ann').and.contain('rdf:RDF');
  });

  it('exports JSON-LD with the context a request gives', async () => {
    const store = await env.createStore();
    await env.storeConnection(store).importData('ADD', `<${EX}a> <${EX}name> "Ann" .`);
    const res = await env.fetch(`/datastores/${store}/content?context=${encodeURIComponent(JSON.stringify({ e: EX }))}`, { headers: { accept: 'application/ld+json' } });
    expect(res.status).to.equal(200);
    expect(await res.json()).to.deep.equal({ '@context': { e: EX }, '@graph': [{ '@id': 'e:a', 'e:name': ['Ann'] }] });
  });

  it('refuses a JSON-LD body with a remote context', async () => {
    const store = await env.createStore();
    const res = await env.fetch(`/datastores/${store}/content`, {
      method: 'POST',
      headers: { 'content-type': 'application/ld+json' },
      body: JSON.stringify({ '@context': 'http://127.0.0.1:9/context.jsonld', '@id': `${EX}a`, name: 'x' }),
    });
    expect(res.status).to.equal(400);
    expect(await res.text()).to.contain('Failed to load remote context http://127.0.0.1:9/context.jsonld').and.contain("the scheme 'http' is not allowed on import");
  });
});
