import { expect } from 'chai';
import { expectEmpty, expectErrorResponse, readCsv, readJson, useEndpoint } from './helpers.js';

for (const variant of ['A', 'B'] as const) {
  describe(`HTTP prefixes (variant ${variant})`, () => {
    const env = useEndpoint(`prefixes-${variant}`, { variant });

    it('GET lists PrefixName and PrefixIRI (the default prefixes of a new store)', async () => {
      const store = await env.createStore();
      const table = await readCsv(await env.fetch(`/datastores/${store}/prefixes`));
      expect(table.columns).to.deep.equal(['PrefixName', 'PrefixIRI']);
      expect(table.records).to.deep.include({ PrefixName: 'rdf:', PrefixIRI: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#' });
      expect(table.records).to.deep.include({ PrefixName: 'sh:', PrefixIRI: 'http://www.w3.org/ns/shacl#' });
      const json = await readJson(await env.fetch(`/datastores/${store}/prefixes?filter=${encodeURIComponent('?PrefixName = "owl:"')}`, { headers: { accept: 'application/sparql-results+json' } }));
      expect(json.bindings).to.deep.equal([{ PrefixName: { type: 'literal', value: 'owl:' }, PrefixIRI: { type: 'uri', value: 'http://www.w3.org/2002/07/owl#' } }]);
      // a filter may use the store's prefixes
      const byIri = await readCsv(await env.fetch(`/datastores/${store}/prefixes?filter=${encodeURIComponent('?PrefixIRI = xsd:')}`));
      expect(byIri.records).to.deep.equal([{ PrefixName: 'xsd:', PrefixIRI: 'http://www.w3.org/2001/XMLSchema#' }]);
    });

    it('PUT replaces all prefixes with those of the body (Turtle and SPARQL style): 204', async () => {
      const store = await env.createStore();
      const body = '@prefix ex: <http://example.com/> .\nPREFIX foaf: <http://xmlns.com/foaf/0.1/>\n@prefix : <http://example.com/default#> .\n';
      await expectEmpty(await env.fetch(`/datastores/${store}/prefixes`, { method: 'PUT', body, headers: { 'content-type': 'text/turtle' } }), 204);
      const table = await readCsv(await env.fetch(`/datastores/${store}/prefixes`));
      expect(table.records).to.deep.equal([
        { PrefixName: 'ex:', PrefixIRI: 'http://example.com/' },
        { PrefixName: 'foaf:', PrefixIRI: 'http://xmlns.com/foaf/0.1/' },
        { PrefixName: ':', PrefixIRI: 'http://example.com/default#' },
      ]);
      await expectEmpty(await env.fetch(`/datastores/${store}/prefixes`, { method: 'PUT', body: '@prefix d: <http://d/> .', headers: { 'content-type': 'application/x.datalog' } }), 204);
      await expectEmpty(await env.fetch(`/datastores/${store}/prefixes`, { method: 'PUT', body: '' }), 204);
      expect((await readCsv(await env.fetch(`/datastores/${store}/prefixes`))).records).to.deep.equal([]);
    });

    it('PUT refuses a body with facts or rules (400) or of a non-RDF type (415), changing nothing', async () => {
      const store = await env.createStore();
      const before = (await readCsv(await env.fetch(`/datastores/${store}/prefixes`))).records;
      const withFact = '@prefix ex: <http://example.com/> .\nex:a ex:b ex:c .';
      expect(await expectErrorResponse(await env.fetch(`/datastores/${store}/prefixes`, { method: 'PUT', body: withFact, headers: { 'content-type': 'text/turtle' } }), 400, 'ParsingError')).to.contain('prefix declarations only');
      const withRule = '@prefix ex: <http://example.com/> .\n[?x, ex:q, ?y] :- [?x, ex:p, ?y] .';
      await expectErrorResponse(await env.fetch(`/datastores/${store}/prefixes`, { method: 'PUT', body: withRule, headers: { 'content-type': 'application/x.datalog' } }), 400, 'ParsingError');
      await expectErrorResponse(await env.fetch(`/datastores/${store}/prefixes`, { method: 'PUT', body: '{}', headers: { 'content-type': 'application/json' } }), 415, 'UnsupportedMediaTypeError');
      expect((await readCsv(await env.fetch(`/datastores/${store}/prefixes`))).records).to.deep.equal(before);
    });

    it('PATCH set and unset answer 200 with Changed', async () => {
      const store = await env.createStore();
      const set = (iri: string): Promise<Response> => env.fetch(`/datastores/${store}/prefixes?operation=set&prefix-name=ex:&prefix-iri=${encodeURIComponent(iri)}`, { method: 'PATCH' });
      let res = await set('http://example.com/');
      expect(res.status).to.equal(200);
      expect((await readCsv(res)).records).to.deep.equal([{ Changed: 'true' }]);
      expect((await readCsv(await set('http://example.com/'))).records).to.deep.equal([{ Changed: 'false' }]);
      expect((await readCsv(await set('http://example.org/'))).records).to.deep.equal([{ Changed: 'true' }]);
      res = await env.fetch(`/datastores/${store}/prefixes`, { method: 'PATCH', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'operation=unset&prefix-name=ex%3A' });
      expect(res.status).to.equal(200);
      expect((await readCsv(res)).records).to.deep.equal([{ Changed: 'true' }]);
      expect((await readCsv(await env.fetch(`/datastores/${store}/prefixes?operation=unset&prefix-name=ex:`, { method: 'PATCH' }))).records).to.deep.equal([{ Changed: 'false' }]);
      const json = await readJson(await env.fetch(`/datastores/${store}/prefixes?operation=unset&prefix-name=rdf:`, { method: 'PATCH', headers: { accept: 'application/sparql-results+json' } }));
      expect(json.bindings).to.deep.equal([{ Changed: { type: 'literal', value: 'true', datatype: 'http://www.w3.org/2001/XMLSchema#boolean' } }]);
    });

    it('PATCH with missing or bad parameters is a 400', async () => {
      const store = await env.createStore();
      await expectErrorResponse(await env.fetch(`/datastores/${store}/prefixes?operation=set&prefix-name=ex:`, { method: 'PATCH' }), 400, 'BadRequestError');
      await expectErrorResponse(await env.fetch(`/datastores/${store}/prefixes?operation=set&prefix-iri=http://x/`, { method: 'PATCH' }), 400, 'BadRequestError');
      await expectErrorResponse(await env.fetch(`/datastores/${store}/prefixes?operation=drop&prefix-name=ex:`, { method: 'PATCH' }), 400, 'BadRequestError');
      await expectErrorResponse(await env.fetch(`/datastores/${store}/prefixes`, { method: 'PATCH' }), 400, 'BadRequestError');
      await expectErrorResponse(await env.fetch(`/datastores/${store}/prefixes?operation=set&prefix-name=ex&prefix-iri=http://x/`, { method: 'PATCH' }), 400);
      await expectErrorResponse(await env.fetch('/datastores/missing/prefixes'), 404, 'UnknownResourceError');
    });
  });
}
