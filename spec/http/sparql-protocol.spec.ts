/**
 * The W3C SPARQL 1.1 Protocol tests (test-data/w3c/sparql/sparql11/protocol/manifest.ttl), each
 * run as concrete HTTP requests against /datastores/<ds>/sparql of a fresh store holding the
 * dataset the test describes (data1.nt, data2.nt and data3.nt in the named graphs their labels
 * give). Every test of the manifest applies to the endpoint; none is left out. Then further
 * protocol behaviour: content negotiation, status codes and error bodies.
 */
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { expectEmpty, expectErrorResponse, readCsv, readJson, readTsv, useEndpoint } from './helpers.js';
import { w3cPath } from '../helpers/test-data.js';

const PROTOCOL = w3cPath('sparql/sparql11/protocol');
const KASEI = 'http://kasei.us/2009/09/sparql/data/';
const enc = encodeURIComponent;

/** What a response of a protocol test must be. */
interface Expected {
  /** The status class. */
  readonly status: '2xx' | '4xx';
  /** The form of the result, when the test checks it. */
  readonly format?: 'boolean' | 'tabular' | 'RDF';
  /** The ASK answer, when the test checks it. */
  readonly boolean?: boolean;
}

/** One request of a protocol test (path relative to the endpoint, starting with `?` or empty). */
interface Step {
  readonly method: string;
  readonly query?: string;
  readonly contentType?: string;
  readonly body?: string;
  readonly expect: Expected;
}

/** A protocol test: the graphs it loads (by data file) and its requests in order. */
interface ProtocolTest {
  readonly graphs?: readonly number[];
  readonly steps: readonly Step[];
}

const OK_TRUE: Expected = { status: '2xx', format: 'boolean', boolean: true };
const ASK_1_2 = `ASK { <${KASEI}data1.rdf> a ?type . <${KASEI}data2.rdf> a ?type . }`;
const ASK_NAMED_1_2 = `ASK { GRAPH ?g1 { <${KASEI}data1.rdf> a ?type } GRAPH ?g2 { <${KASEI}data2.rdf> a ?type } }`;
const PREFIXES = 'PREFIX dc: <http://purl.org/dc/terms/>\nPREFIX foaf: <http://xmlns.com/foaf/0.1/>\n';
const INSERT_THREE = `INSERT DATA {
    GRAPH <${KASEI}data1.rdf> { <${KASEI}data1.rdf> a foaf:Document }
    GRAPH <${KASEI}data2.rdf> { <${KASEI}data2.rdf> a foaf:Document }
    GRAPH <${KASEI}data3.rdf> { <${KASEI}data3.rdf> a foaf:Document }
}`;
const DATA0 = `default-graph-uri=${enc(`${KASEI}data0.rdf`)}`;
const bib = (graph: string, extra = ''): string =>
  `ASK {\n GRAPH <${graph}> {\n  <${KASEI}data1.rdf> a <http://purl.org/dc/terms/BibliographicResource> .\n  <${KASEI}data2.rdf> a <http://purl.org/dc/terms/BibliographicResource> .\n }\n FILTER NOT EXISTS { GRAPH <${graph}> { <${KASEI}data3.rdf> ${extra || 'a <http://purl.org/dc/terms/BibliographicResource>'} } }\n}`;
const askPost = (query: string): Step => ({ method: 'POST', contentType: 'application/sparql-query', body: query, expect: OK_TRUE });

/** The manifest's tests by local name, as concrete requests. */
const TESTS: Readonly<Record<string, ProtocolTest>> = {
  query_post_form: { steps: [{ method: 'POST', query: `?${DATA0}`, contentType: 'application/x-www-form-urlencoded', body: 'query=ASK%20%7B%7D', expect: OK_TRUE }] },
  query_dataset_default_graphs_get: {
    graphs: [1, 2],
    steps: [{ method: 'GET', query: `?query=${enc(ASK_1_2)}&default-graph-uri=${enc(`${KASEI}data1.rdf`)}&default-graph-uri=${enc(`${KASEI}data2.rdf`)}`, expect: OK_TRUE }],
  },
  query_dataset_default_graphs_post: {
    graphs: [1, 2],
    steps: [{ method: 'POST', query: `?default-graph-uri=${enc(`${KASEI}data1.rdf`)}&default-graph-uri=${enc(`${KASEI}data2.rdf`)}`, contentType: 'application/sparql-query', body: ASK_1_2, expect: OK_TRUE }],
  },
  query_dataset_named_graphs_post: {
    graphs: [1, 2],
    steps: [{ method: 'POST', query: `?named-graph-uri=${enc(`${KASEI}data1.rdf`)}&named-graph-uri=${enc(`${KASEI}data2.rdf`)}`, contentType: 'application/sparql-query', body: ASK_NAMED_1_2, expect: OK_TRUE }],
  },
  query_dataset_named_graphs_get: {
    graphs: [1, 2],
    steps: [{ method: 'GET', query: `?query=${enc(ASK_NAMED_1_2)}&named-graph-uri=${enc(`${KASEI}data1.rdf`)}&named-graph-uri=${enc(`${KASEI}data2.rdf`)}`, expect: OK_TRUE }],
  },
  query_dataset_full: {
    graphs: [1, 2, 3],
    steps: [
      {
        method: 'POST',
        query: `?default-graph-uri=${enc(`${KASEI}data3.rdf`)}&named-graph-uri=${enc(`${KASEI}data1.rdf`)}&named-graph-uri=${enc(`${KASEI}data2.rdf`)}`,
        contentType: 'application/sparql-query',
        body: `ASK {\n  <${KASEI}data3.rdf> a ?type\n  GRAPH ?g1 { <${KASEI}data1.rdf> a ?type }\n  GRAPH ?g2 { <${KASEI}data2.rdf> a ?type }\n}`,
        expect: OK_TRUE,
      },
    ],
  },
  query_multiple_dataset: {
    graphs: [1, 2, 3],
    steps: [
      {
        method: 'POST',
        query: `?named-graph-uri=${enc(`${KASEI}data1.rdf`)}&named-graph-uri=${enc(`${KASEI}data2.rdf`)}`,
        contentType: 'application/sparql-query',
        body: `ASK FROM <${KASEI}data3.rdf> { GRAPH ?g1 { <${KASEI}data1.rdf> a ?type } GRAPH ?g2 { <${KASEI}data2.rdf> a ?type } }`,
        expect: OK_TRUE,
      },
    ],
  },
  query_get: { steps: [{ method: 'GET', query: `?query=ASK%20%7B%7D&${DATA0}`, expect: OK_TRUE }] },
  query_content_type_select: { steps: [{ method: 'POST', query: `?${DATA0}`, contentType: 'application/sparql-query', body: 'SELECT (1 AS ?value) {}', expect: { status: '2xx', format: 'tabular' } }] },
  query_content_type_ask: { steps: [{ method: 'POST', query: `?${DATA0}`, contentType: 'application/sparql-query', body: 'ASK {}', expect: { status: '2xx', format: 'boolean' } }] },
  query_content_type_describe: { steps: [{ method: 'POST', query: `?${DATA0}`, contentType: 'application/sparql-query', body: 'DESCRIBE <http://example.org/>', expect: { status: '2xx', format: 'RDF' } }] },
  query_content_type_construct: { steps: [{ method: 'POST', query: `?${DATA0}`, contentType: 'application/sparql-query', body: 'CONSTRUCT { <s> <p> 1 } WHERE {}', expect: { status: '2xx', format: 'RDF' } }] },
  update_dataset_default_graph: {
    steps: [
      {
        method: 'POST',
        query: `?using-graph-uri=${enc(`${KASEI}data1.rdf`)}`,
        contentType: 'application/sparql-update',
        body: `${PREFIXES}CLEAR ALL ;\nINSERT DATA { GRAPH <${KASEI}data1.rdf> { <${KASEI}data1.rdf> a foaf:Document } } ;\nINSERT { GRAPH <http://example.org/protocol-update-dataset-test/> { ?s a dc:BibliographicResource } }\nWHERE { ?s a foaf:Document }`,
        expect: { status: '2xx' },
      },
      askPost(`ASK { GRAPH <http://example.org/protocol-update-dataset-test/> { <${KASEI}data1.rdf> a <http://purl.org/dc/terms/BibliographicResource> } }`),
    ],
  },
  update_dataset_default_graphs: {
    steps: [
      {
        method: 'POST',
        query: `?using-graph-uri=${enc(`${KASEI}data1.rdf`)}&using-graph-uri=${enc(`${KASEI}data2.rdf`)}`,
        contentType: 'application/sparql-update',
        body: `${PREFIXES}DROP ALL ;\n${INSERT_THREE} ;\nINSERT { GRAPH <http://example.org/protocol-update-dataset-graphs-test/> { ?s a dc:BibliographicResource } }\nWHERE { ?s a foaf:Document }`,
        expect: { status: '2xx' },
      },
      askPost(bib('http://example.org/protocol-update-dataset-graphs-test/')),
    ],
  },
  update_dataset_named_graphs: {
    steps: [
      {
        method: 'POST',
        query: `?using-named-graph-uri=${enc(`${KASEI}data1.rdf`)}&using-named-graph-uri=${enc(`${KASEI}data2.rdf`)}`,
        contentType: 'application/sparql-update',
        body: `${PREFIXES}DROP ALL ;\n${INSERT_THREE} ;\nINSERT { GRAPH <http://example.org/protocol-update-dataset-named-graphs-test/> { ?s a dc:BibliographicResource } }\nWHERE { GRAPH ?g { ?s a foaf:Document } }`,
        expect: { status: '2xx' },
      },
      askPost(bib('http://example.org/protocol-update-dataset-named-graphs-test/')),
    ],
  },
  update_dataset_full: {
    steps: [
      {
        method: 'POST',
        query: `?using-graph-uri=${enc(`${KASEI}data1.rdf`)}&using-named-graph-uri=${enc(`${KASEI}data2.rdf`)}`,
        contentType: 'application/sparql-update',
        body: `${PREFIXES}DROP ALL ;\n${INSERT_THREE} ;\nINSERT { GRAPH <http://example.org/protocol-update-dataset-full-test/> { ?s <http://example.org/in> ?in } }\nWHERE {\n { GRAPH ?g { ?s a foaf:Document } BIND(?g AS ?in) }\n UNION\n { ?s a foaf:Document . BIND("default" AS ?in) }\n}`,
        expect: { status: '2xx' },
      },
      askPost(
        `ASK {\n GRAPH <http://example.org/protocol-update-dataset-full-test/> {\n  <${KASEI}data1.rdf> <http://example.org/in> "default" .\n  <${KASEI}data2.rdf> <http://example.org/in> <${KASEI}data2.rdf> .\n }\n FILTER NOT EXISTS { GRAPH <http://example.org/protocol-update-dataset-full-test/> { <${KASEI}data3.rdf> ?p ?o } }\n}`,
      ),
    ],
  },
  update_post_form: { steps: [{ method: 'POST', contentType: 'application/x-www-form-urlencoded', body: 'update=CLEAR+ALL', expect: { status: '2xx' } }] },
  update_post_direct: { steps: [{ method: 'POST', contentType: 'application/sparql-update', body: 'CLEAR ALL', expect: { status: '2xx' } }] },
  update_base_uri: {
    steps: [
      {
        method: 'POST',
        contentType: 'application/sparql-update',
        body: 'CLEAR SILENT GRAPH <http://example.org/protocol-base-test/> ;\nINSERT DATA { GRAPH <http://example.org/protocol-base-test/> { <http://example.org/s> <http://example.org/p> <test> } }',
        expect: { status: '2xx' },
      },
      askPost('ASK { GRAPH <http://example.org/protocol-base-test/> { <http://example.org/s> <http://example.org/p> ?o FILTER (isIRI(?o) && STR(?o) != "test") } }'),
    ],
  },
  query_post_direct: { steps: [askPost('ASK {}')] },
  bad_query_method: { steps: [{ method: 'PUT', query: `?query=ASK%20%7B%7D&${DATA0}`, contentType: 'application/x-www-form-urlencoded', expect: { status: '4xx' } }] },
  bad_multiple_queries: { steps: [{ method: 'GET', query: '?query=ASK%20%7B%7D&query=SELECT%20%2A%20%7B%7D', expect: { status: '4xx' } }] },
  bad_query_wrong_media_type: { steps: [{ method: 'POST', contentType: 'text/plain', body: 'ASK {}', expect: { status: '4xx' } }] },
  bad_query_missing_form_type: { steps: [{ method: 'POST', body: 'query=ASK%20%7B%7D', expect: { status: '4xx' } }] },
  bad_query_missing_direct_type: { steps: [{ method: 'POST', body: 'ASK {}', expect: { status: '4xx' } }] },
  bad_query_non_utf8: { steps: [{ method: 'POST', contentType: 'application/sparql-query; charset=UTF-16', body: 'ASK {}', expect: { status: '4xx' } }] },
  bad_query_syntax: { steps: [{ method: 'GET', query: '?query=ASK%20%7B', expect: { status: '4xx' } }] },
  bad_update_get: { steps: [{ method: 'GET', query: '?update=CLEAR%20ALL', expect: { status: '4xx' } }] },
  bad_multiple_updates: { steps: [{ method: 'POST', contentType: 'application/x-www-form-urlencoded', body: 'update=CLEAR%20NAMED&update=CLEAR%20DEFAULT', expect: { status: '4xx' } }] },
  bad_update_wrong_media_type: { steps: [{ method: 'POST', contentType: 'text/plain', body: 'CLEAR NAMED', expect: { status: '4xx' } }] },
  bad_update_missing_form_type: { steps: [{ method: 'POST', body: 'update=CLEAR%20NAMED', expect: { status: '4xx' } }] },
  bad_update_non_utf8: { steps: [{ method: 'POST', contentType: 'application/sparql-update; charset=UTF-16', body: 'CLEAR NAMED', expect: { status: '4xx' } }] },
  bad_update_syntax: { steps: [{ method: 'POST', contentType: 'application/x-www-form-urlencoded', body: 'update=CLEAR%20XYZ', expect: { status: '4xx' } }] },
  bad_update_dataset_conflict: {
    steps: [
      {
        method: 'POST',
        query: `?using-named-graph-uri=${enc('http://example/people')}`,
        contentType: 'application/sparql-update',
        body: "PREFIX foaf: <http://xmlns.com/foaf/0.1/>\nWITH <http://example/addresses>\nDELETE { ?person foaf:givenName 'Bill' }\nINSERT { ?person foaf:givenName 'William' }\nWHERE { ?person foaf:givenName 'Bill' }",
        expect: { status: '4xx' },
      },
    ],
  },
};

/** The local names of the manifest's entries, in order. */
function manifestEntries(): string[] {
  const text = readFileSync(`${PROTOCOL}/manifest.ttl`, 'utf8');
  const list = /mf:entries\s*\(([^)]*)\)/.exec(text);
  if (!list) throw new Error('the protocol manifest has no mf:entries list');
  return list[1]!.split(/\s+/).filter((t) => t.startsWith(':')).map((t) => t.slice(1));
}

/** The test's name in the manifest. */
function manifestName(id: string): string {
  const text = readFileSync(`${PROTOCOL}/manifest.ttl`, 'utf8');
  const m = new RegExp(`^:${id} rdf:type mf:ProtocolTest ;\\s*mf:name\\s+"((?:[^"\\\\]|\\\\.)*)"`, 'm').exec(text);
  return m ? m[1]!.replace(/\\"/g, '"') : id;
}

/** Checks a response against what the manifest expects. */
async function check(res: Response, expected: Expected, what: string): Promise<void> {
  const body = await res.text();
  const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
  if (expected.status === '2xx') expect(res.status, `${what}: ${body}`).to.be.within(200, 399);
  else expect(res.status, `${what}: ${body}`).to.be.within(400, 499);
  if (expected.format === 'boolean') {
    expect(type, what).to.be.oneOf(['application/sparql-results+xml', 'application/sparql-results+json']);
    const value = type.endsWith('json') ? (JSON.parse(body) as { boolean?: boolean }).boolean : /<boolean>\s*(true|false)\s*<\/boolean>/.exec(body)?.[1] === 'true';
    if (expected.boolean !== undefined) expect(value, `${what}: ${body}`).to.equal(expected.boolean);
  } else if (expected.format === 'tabular') {
    expect(type, what).to.be.oneOf(['application/sparql-results+xml', 'application/sparql-results+json', 'text/csv', 'text/tab-separated-values']);
  } else if (expected.format === 'RDF') {
    expect(type, what).to.be.oneOf(['application/rdf+xml', 'text/turtle', 'application/n-triples', 'application/xhtml+xml']);
  }
}

describe('http: SPARQL 1.1 Protocol (W3C protocol tests)', () => {
  const env = useEndpoint('sparql-protocol');

  it('covers every test of the manifest', () => {
    expect(Object.keys(TESTS).sort()).to.deep.equal(manifestEntries().sort());
  });

  for (const id of manifestEntries()) {
    const test = TESTS[id];
    it(`${id}: ${manifestName(id)}`, async () => {
      expect(test, `no concrete test for ${id}`).not.to.equal(undefined);
      const store = await env.createStore();
      const connection = env.storeConnection(store);
      for (const n of test!.graphs ?? []) {
        const result = await connection.importData('ADD', { path: `${PROTOCOL}/data${n}.nt` }, { defaultGraph: `${KASEI}data${n}.rdf` });
        expect(result.errors).to.equal(0);
      }
      for (const [i, step] of test!.steps.entries()) {
        const headers: Record<string, string> = {};
        if (step.contentType !== undefined) headers['content-type'] = step.contentType;
        const init: RequestInit = { method: step.method, headers };
        // without a stated type, a string body would be sent as text/plain: send bytes
        if (step.body !== undefined) init.body = step.contentType === undefined ? new TextEncoder().encode(step.body) : step.body;
        const res = await env.fetch(`/datastores/${store}/sparql${step.query ?? ''}`, init);
        await check(res, step.expect, `${id}, request ${i + 1}`);
      }
    });
  }
});

describe('http: /datastores/<ds>/sparql', () => {
  const env = useEndpoint('sparql-endpoint', { variant: 'A' });
  let store = '';
  const EX = 'http://example.com/';
  const sparql = (query: string, init: RequestInit = {}): Promise<Response> => env.fetch(`/datastores/${store}/sparql${query}`, init);

  before(async () => {
    store = await env.createStore();
    const connection = env.storeConnection(store);
    await connection.setPrefix(':', EX);
    await connection.importData('ADD', ':a :p :b . :b :p :c . :a :name "Ann" .');
  });

  it('negotiates SELECT answers (CSV by default, JSON, TSV and XML on request)', async () => {
    const query = `?query=${enc('SELECT ?x ?y WHERE { ?x :p ?y } ORDER BY ?x')}`;
    const csv = await readCsv(await sparql(query));
    expect(csv.columns).to.deep.equal(['x', 'y']);
    expect(csv.rows).to.deep.equal([
      [`${EX}a`, `${EX}b`],
      [`${EX}b`, `${EX}c`],
    ]);
    const json = await readJson(await sparql(query, { headers: { accept: 'application/sparql-results+json' } }));
    expect(json.bindings[0]!['x']).to.deep.equal({ type: 'uri', value: `${EX}a` });
    const tsv = await readTsv(await sparql(query, { headers: { accept: 'text/tab-separated-values' } }));
    expect(tsv.rows[0]).to.deep.equal([`<${EX}a>`, `<${EX}b>`]);
    const xml = await sparql(query, { headers: { accept: 'application/sparql-results+xml;q=0.9, text/html' } });
    expect(xml.headers.get('content-type')).to.match(/^application\/sparql-results\+xml/);
    expect(await xml.text()).to.contain(`<uri>${EX}a</uri>`);
    await expectErrorResponse(await sparql(query, { headers: { accept: 'text/turtle' } }), 406, 'NotAcceptableError');
  });

  it('answers ASK in a format that holds booleans, and CONSTRUCT in RDF formats (Turtle by default)', async () => {
    const ask = await readJson(await sparql(`?query=${enc('ASK { :a :p :b }')}`));
    expect(ask.boolean).to.equal(true);
    const askXml = await sparql(`?query=${enc('ASK { :a :p :c }')}`, { headers: { accept: 'text/csv;q=1, application/sparql-results+xml;q=0.5' } });
    expect(await askXml.text()).to.match(/<boolean>false<\/boolean>/);
    await expectErrorResponse(await sparql(`?query=${enc('ASK {}')}`, { headers: { accept: 'text/csv' } }), 406, 'NotAcceptableError');
    const construct = `?query=${enc('CONSTRUCT { ?y :q ?x } WHERE { ?x :p ?y }')}`;
    const turtle = await sparql(construct);
    expect(turtle.headers.get('content-type')).to.equal('text/turtle; charset=UTF-8');
    expect(await turtle.text()).to.match(/:b :q :a|<http:\/\/example\.com\/b> <http:\/\/example\.com\/q> <http:\/\/example\.com\/a>/);
    const nt = await sparql(construct, { headers: { accept: 'application/n-triples' } });
    expect((await nt.text()).trim().split('\n').sort()).to.deep.equal([`<${EX}b> <${EX}q> <${EX}a> .`, `<${EX}c> <${EX}q> <${EX}b> .`]);
    await expectErrorResponse(await sparql(construct, { headers: { accept: 'application/sparql-results+json' } }), 406, 'NotAcceptableError');
  });

  it('answers a successful update 204 with no body, and applies it', async () => {
    const other = await env.createStore();
    const path = `/datastores/${other}/sparql`;
    await expectEmpty(await env.fetch(path, { method: 'POST', headers: { 'content-type': 'application/sparql-update' }, body: `INSERT DATA { <${EX}s> <${EX}p> 1 }` }), 204);
    await expectEmpty(await env.fetch(path, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `update=${enc(`INSERT DATA { <${EX}s> <${EX}p> 2 }`)}` }), 204);
    const count = await readCsv(await env.fetch(`${path}?query=${enc('SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }')}`));
    expect(count.rows).to.deep.equal([['2']]);
  });

  it('reports syntax errors as 400 with the message, and refuses mixed or misplaced operations', async () => {
    const syntax = await expectErrorResponse(await sparql(`?query=${enc('SELECT ?x WHERE { ?x')}`), 400, 'QueryCompilationError');
    expect(syntax.length).to.be.greaterThan('QueryCompilationError: '.length + 5);
    const both = await expectErrorResponse(
      await sparql('', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `query=${enc('ASK {}')}&update=${enc('CLEAR ALL')}` }),
      400,
      'BadRequestError',
    );
    expect(both).to.match(/not both/);
    await expectErrorResponse(await sparql(`?query=${enc('CLEAR ALL')}`), 400, 'BadRequestError');
    await expectErrorResponse(await sparql('', { method: 'POST', headers: { 'content-type': 'application/sparql-update' }, body: 'ASK {}' }), 400, 'BadRequestError');
    await expectErrorResponse(await sparql('?update=CLEAR%20ALL'), 400, 'BadRequestError');
    await expectErrorResponse(await sparql(''), 400, 'BadRequestError');
    await expectErrorResponse(await sparql(`?query=${enc('ASK {}')}&using-graph-uri=${enc(EX)}`), 400, 'BadRequestError');
    await expectErrorResponse(await sparql(`?query=${enc('ASK {}')}&colour=blue`), 400, 'BadRequestError');
    await expectErrorResponse(await sparql('', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'ASK {}' }), 415, 'UnsupportedMediaTypeError');
    await expectErrorResponse(await sparql('', { method: 'DELETE' }), 405, 'MethodNotAllowedError');
    await expectErrorResponse(await env.fetch(`/datastores/nowhere/sparql?query=${enc('ASK {}')}`), 404, 'UnknownResourceError');
  });

  it('uses the store prefixes, the base parameter, and POST with the query in the query string', async () => {
    const names = await readCsv(await sparql(`?query=${enc('SELECT ?n WHERE { :a :name ?n }')}`));
    expect(names.rows).to.deep.equal([['Ann']]);
    const based = await readCsv(await sparql(`?base=${enc(EX)}&query=${enc('SELECT ?y WHERE { <a> <p> ?y }')}`));
    expect(based.rows).to.deep.equal([[`${EX}b`]]);
    const post = await readCsv(await sparql(`?query=${enc('SELECT ?y WHERE { :b :p ?y }')}`, { method: 'POST' }));
    expect(post.rows).to.deep.equal([[`${EX}c`]]);
  });

  it('evaluates in a named connection, seeing its open transaction', async () => {
    const created = await env.fetch(`/datastores/${store}/connections`, { method: 'POST' });
    const location = created.headers.get('location')!;
    const auth = { authorization: `Service ${created.headers.get('service-authentication-token')!}` };
    const id = location.split('/').pop()!;
    await expectEmpty(await env.fetch(`${location}/transaction?operation=begin-read-write`, { method: 'POST', headers: auth }), 204);
    await expectEmpty(await sparql(`?connection=${id}`, { method: 'POST', headers: { ...auth, 'content-type': 'application/sparql-update' }, body: 'INSERT DATA { :d :p :e }' }), 204);
    const inside = await readCsv(await sparql(`?connection=${id}&query=${enc('SELECT ?y WHERE { :d :p ?y }')}`, { headers: auth }));
    expect(inside.rows).to.deep.equal([[`${EX}e`]]);
    const outside = await readCsv(await sparql(`?query=${enc('SELECT ?y WHERE { :d :p ?y }')}`));
    expect(outside.rows).to.deep.equal([]);
    await expectEmpty(await env.fetch(`${location}/transaction?operation=rollback`, { method: 'POST', headers: auth }), 204);
    await expectEmpty(await env.fetch(location, { method: 'DELETE', headers: auth }), 204);
  });
});
