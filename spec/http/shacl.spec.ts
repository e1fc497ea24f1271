import { expect } from 'chai';
import { Parser } from 'n3';
import { expectErrorResponse, useEndpoint } from './helpers.js';

const EX = 'http://example.org/';
const SH = 'http://www.w3.org/ns/shacl#';
const SHAPES_TTL = `@prefix sh: <${SH}> . @prefix ex: <${EX}> .
ex:PersonShape a sh:NodeShape ; sh:targetClass ex:Person ; sh:property [ sh:path ex:name ; sh:minCount 1 ] .`;

describe('HTTP SHACL validation (GET /datastores/<ds>/shacl)', () => {
  const env = useEndpoint('shacl-http');

  async function storeWithShapes(parameters: Readonly<Record<string, string>> = {}): Promise<string> {
    const store = await env.createStore(undefined, undefined, parameters);
    const c = env.storeConnection(store);
    await c.importData('ADD', SHAPES_TTL, { defaultGraph: `${EX}shapes` });
    await c.importData('ADD', `<${EX}bob> a <${EX}Person> .`, { defaultGraph: `${EX}data` });
    return store;
  }

  it('answers the report as Turtle by default, and in the format Accept asks for, with Quadlog-Conforms', async () => {
    const store = await storeWithShapes();
    const q = `data-graph=${encodeURIComponent(`${EX}data`)}&shapes-graph=${encodeURIComponent(`${EX}shapes`)}`;
    const res = await env.fetch(`/datastores/${store}/shacl?${q}`);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/turtle/);
    expect(res.headers.get('quadlog-conforms')).to.equal('false');
    const quads = new Parser().parse(await res.text());
    expect(quads.some((x) => x.predicate.value === `${SH}focusNode` && x.object.value === `${EX}bob`)).to.equal(true);
    const nt = await env.fetch(`/datastores/${store}/shacl?${q}`, { headers: { accept: 'application/n-triples' } });
    expect(nt.headers.get('content-type')).to.match(/^application\/n-triples/);
    expect(new Parser({ format: 'N-Triples' }).parse(await nt.text())).to.have.length(quads.length);
    // the default graph holds no Person
    const other = await env.fetch(`/datastores/${store}/shacl?shapes-graph=${encodeURIComponent(`${EX}shapes`)}`);
    expect(other.headers.get('quadlog-conforms')).to.equal('true');
  });

  it('answers the typed report as JSON', async () => {
    const store = await storeWithShapes();
    const res = await env.fetch(`/datastores/${store}/shacl?data-graph=${encodeURIComponent(`${EX}data`)}&shapes-graph=${encodeURIComponent(`${EX}shapes`)}&fact-domain=explicit`, { headers: { accept: 'application/json' } });
    expect(res.status).to.equal(200);
    const body = (await res.json()) as { conforms: boolean; results: Array<Record<string, unknown>> };
    expect(body.conforms).to.equal(false);
    expect(body.results).to.have.length(1);
    expect(body.results[0]).to.include({ focusNode: `<${EX}bob>`, resultPath: `<${EX}name>`, sourceConstraintComponent: `${SH}MinCountConstraintComponent`, severity: `${SH}Violation` });
    // the data graph has no derived facts: nothing to validate
    const derived = await env.fetch(`/datastores/${store}/shacl?data-graph=${encodeURIComponent(`${EX}data`)}&shapes-graph=${encodeURIComponent(`${EX}shapes`)}&fact-domain=derived`, { headers: { accept: 'application/json' } });
    expect(((await derived.json()) as { conforms: boolean }).conforms).to.equal(true);
  });

  it('refuses unknown parameters, bad values and formats it cannot write', async () => {
    const store = await storeWithShapes();
    expect(await expectErrorResponse(await env.fetch(`/datastores/${store}/shacl?graph=x`), 400, 'BadRequestError')).to.contain("unknown parameter 'graph'");
    expect(await expectErrorResponse(await env.fetch(`/datastores/${store}/shacl?fact-domain=implicit`), 400, 'BadRequestError')).to.contain('fact domain');
    expect(await expectErrorResponse(await env.fetch(`/datastores/${store}/shacl?data-graph=no%20iri`), 400, 'BadRequestError')).to.contain('data graph');
    await expectErrorResponse(await env.fetch(`/datastores/${store}/shacl`, { headers: { accept: 'text/csv' } }), 406);
  });

  it('a commit that does not conform answers 422 with the results, and changes nothing', async () => {
    const store = await storeWithShapes({ 'shacl-validation-on-commit': 'on', 'shacl-shapes-graph': `${EX}shapes` });
    const res = await env.fetch(`/datastores/${store}/content`, { method: 'POST', body: `<${EX}carl> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <${EX}Person> .`, headers: { 'content-type': 'application/n-triples' } });
    const text = await expectErrorResponse(res, 422, 'ShaclViolationError');
    expect(text).to.contain(`${EX}carl`).and.contain('MinCount');
    expect(await env.storeConnection(store).exportDataToString('application/n-triples')).not.to.contain('carl');
  });
});
