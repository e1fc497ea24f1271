/**
 * Fuzzing resource specifiers (through `grantPrivileges`/`revokePrivileges` and `hasAccess`)
 * and the query-string parameters of the HTTP endpoint. A specifier is either accepted, and
 * then revoking it restores the role's privileges exactly, or refused with a documented error
 * that quotes it; a request with any query string answers with a status below 500 and an
 * error body that names the problem, and the endpoint stays healthy.
 * @module
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { ACCESS_TYPES, type ServerConnection } from '../../lib/index.js';
import { useServer } from '../helpers/server.js';
import { useEndpoint } from '../http/helpers.js';
import { corpus, expectDocumentedError, fuzzParameters, mutatedFile, Tally } from './helpers.js';

/** Pieces specifiers are made of: the grammar's names, wildcards, escapes and noise. */
const SEGMENTS = [
  'datastores', 'roles', 'requests', 'rules', 'axioms', 'commitprocedure', 'tupletables', 'datasources', 'namedgraphs', 'DefaultTriples', 'Quads',
  '*', '**', '***', '||', '|', '>', '', 'mystore', 'r1', '<http://example.com/g>', '<', '>', 'a|b', 'ü', '\u0000', ' ', '%7C',
];
/** Specifiers of the grammar (the mutations start from names that mean something). */
const VALID = [
  '|', '>', '|datastores', '>datastores', '|datastores|*', '>datastores|*', '|datastores|mystore', '>datastores|mystore', '|datastores|mystore|rules',
  '|datastores|mystore|axioms', '|datastores|mystore|commitprocedure', '|datastores|mystore|tupletables', '|datastores|mystore|tupletables|*',
  '|datastores|mystore|tupletables|Quads', '|datastores|mystore|datasources|*', '|datastores|mystore|namedgraphs|<http://example.com/g>',
  '>datastores|mystore|namedgraphs', '|roles', '|roles|*', '|roles|r1', '|requests', '|datastores|a||b', '|datastores|**x',
].map((text, i) => ({ name: `specifier-${i}`, text }));
const randomSpecifier = fc
  .tuple(
    fc.constantFrom('|', '>', '', '||', '>>', '*', '|>'),
    fc.array(fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...SEGMENTS) }, { weight: 1, arbitrary: fc.string({ maxLength: 5 }) }), { maxLength: 6 }),
    fc.constantFrom('|', '||', '>'),
  )
  .map(([start, segments, separator]) => start + segments.join(separator));
const specifierArbitrary = fc.oneof(
  randomSpecifier,
  fc.constantFrom(...VALID.map((v) => v.text)),
  mutatedFile(VALID).map((m) => m.text),
);

/**
 * The text with each lone surrogate replaced by U+FFFD, as a client encodes it: a URL carries
 * UTF-8, which has no lone surrogates (encodeURIComponent throws on them).
 */
function wellFormed(text: string): string {
  return text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}

describe('fuzz: resource specifiers', function () {
  this.timeout(60_000);
  const env = useServer('fuzz-specifiers');

  it('a specifier is granted and revoked cleanly, or refused with an error quoting it', async () => {
    const sc: ServerConnection = env.connection;
    await sc.createRole('r1', 'pw');
    sc.createDataStore('mystore');
    const tally = new Tally();
    fc.assert(
      fc.property(specifierArbitrary, fc.subarray([...ACCESS_TYPES], { minLength: 1 }), (specifier, access) => {
        const context = `specifier ${JSON.stringify(specifier)}, access ${access.join(',')}`;
        const before = JSON.stringify(sc.listPrivileges('r1'));
        let granted: boolean;
        try {
          granted = sc.grantPrivileges('r1', specifier, access);
        } catch (failure) {
          const e = expectDocumentedError(failure, () => false, context);
          expect(e.name, context).to.be.oneOf(['BadRequestError', 'UnknownResourceError']);
          if (e.name === 'BadRequestError') expect(e.message, `the error does not quote the specifier; ${context}`).to.include(specifier);
          tally.add(e.name);
          expect(JSON.stringify(sc.listPrivileges('r1')), `a refused grant changed the privileges; ${context}`).to.equal(before);
          return;
        }
        tally.add(granted ? 'granted' : 'already held');
        expect(granted, context).to.equal(true);
        expect(sc.revokePrivileges('r1', specifier, access), context).to.equal(true);
        expect(JSON.stringify(sc.listPrivileges('r1')), `grant then revoke did not restore the privileges; ${context}`).to.equal(before);
      }),
      fuzzParameters(600),
    );
    tally.report('specifiers');
  });

  it('hasAccess with arbitrary resource paths answers a boolean or refuses cleanly', () => {
    const sc = env.connection;
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constantFrom(...SEGMENTS), fc.string({ maxLength: 4 })), { maxLength: 5 }), fc.constantFrom(...ACCESS_TYPES), (path, access) => {
        try {
          expect(sc.hasAccess(path, access)).to.be.a('boolean');
        } catch (failure) {
          expectDocumentedError(failure, () => false, `hasAccess(${JSON.stringify(path)}, ${access})`);
        }
      }),
      fuzzParameters(400),
    );
  });
});

/** Parameter names the endpoint knows, and some it does not. */
const KEYS = [
  'operation', 'query', 'update', 'default-graph-uri', 'named-graph-uri', 'connection', 'filter', 'limit', 'fact-domain', 'rule-domain', 'prefix-name', 'prefix-iri',
  'component-info', 'type', 'default-graph', 'resource-specifier', 'access-types', 'base-iri', 'base', 'offset', 'timeout', '', '%', '%zz', 'a%00b', 'ü',
];
const VALUES = [
  '', 'set', 'unset', 'clear', 'add-content', 'delete-content', 'grant', 'revoke', 'explicit', 'derived', 'all', 'short', 'extended', 'par-complex-nn', 'ex:',
  'http://example.com/', '|datastores', '>roles|*', 'read,write', '-1', '0', '99999999999999999999', '1e309', 'NaN', '%', '%E0%A4', '%ZZ', '%00', '&', '=', '==',
  'SELECT * WHERE { ?s ?p ?o }', 'ASK {', '<http://example.com/g>', 'true', 'ü%20x',
];
const pairArbitrary = fc.tuple(
  fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...KEYS) }, { weight: 1, arbitrary: fc.string({ maxLength: 6 }) }),
  fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...VALUES) }, { weight: 1, arbitrary: fc.string({ maxLength: 12 }) }),
  fc.boolean(),
);
/** A query string: keys and values, each either percent-encoded properly or left raw (broken escapes included). */
const queryStringArbitrary = fc.array(pairArbitrary, { maxLength: 6 }).map((pairs) =>
  pairs.map(([k, v, raw]) => (raw ? `${k.replace(/[#\s]/g, '')}=${v.replace(/[#\s]/g, '+')}` : `${encodeURIComponent(wellFormed(k))}=${encodeURIComponent(wellFormed(v))}`)).join('&'),
);

describe('fuzz: query-string parameters over HTTP', function () {
  this.timeout(120_000);
  const env = useEndpoint('fuzz-parameters');

  it('any query string on any route answers below 500, and errors name the problem', async function () {
    const store = await env.createStore('fz');
    await env.connection.createRole('r1', 'pw');
    const ds = env.storeConnection(store);
    await ds.importData('ADD', '<http://example.com/a> <http://example.com/p> <http://example.com/b> .', { mediaType: 'application/n-triples' });
    const queries = corpus('sparql/sparql11', ['.rq']);
    const connection = (await env.fetch(`/datastores/${store}/connections`, { method: 'POST' })).headers.get('location') ?? '';
    const cursor = (await env.fetch(`${connection}/cursors?query=${encodeURIComponent('SELECT * WHERE { ?s ?p ?o }')}`, { method: 'POST' })).headers.get('location') ?? '';
    expect(cursor).to.match(/\/cursors\//);
    const routes: ReadonlyArray<{ readonly method: string; readonly path: string; readonly body?: string; readonly accept?: string }> = [
      { method: 'GET', path: '/' },
      { method: 'PATCH', path: '/' },
      { method: 'GET', path: '/datastores' },
      { method: 'GET', path: `/datastores/${store}` },
      { method: 'PATCH', path: `/datastores/${store}` },
      { method: 'GET', path: `/datastores/${store}/sparql`, accept: 'application/sparql-results+json' },
      { method: 'POST', path: `/datastores/${store}/sparql`, body: 'query=ASK%7B%7D' },
      { method: 'GET', path: `/datastores/${store}/content`, accept: 'text/turtle' },
      { method: 'GET', path: `/datastores/${store}/content`, accept: 'application/x.datalog' },
      { method: 'PATCH', path: `/datastores/${store}/content`, body: '<http://example.com/x> <http://example.com/p> 1 .' },
      { method: 'GET', path: `/datastores/${store}/prefixes` },
      { method: 'PATCH', path: `/datastores/${store}/prefixes` },
      { method: 'GET', path: `/datastores/${store}/tupletables` },
      { method: 'GET', path: `/datastores/${store}/stats` },
      { method: 'GET', path: `/datastores/${store}/connections` },
      { method: 'POST', path: `/datastores/${store}/connections` },
      { method: 'GET', path: '/roles/r1/privileges' },
      { method: 'PATCH', path: '/roles/r1/privileges' },
      { method: 'GET', path: '/requests' },
      { method: 'GET', path: '/connections' },
      { method: 'GET', path: '/nonexistent' },
      { method: 'PATCH', path: cursor, accept: 'text/csv' },
      { method: 'GET', path: cursor },
      { method: 'POST', path: `${connection}/cursors` },
      { method: 'POST', path: `${connection}/transaction` },
      { method: 'PATCH', path: connection },
    ];
    const tally = new Tally();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes),
        queryStringArbitrary,
        queries.length > 0 ? fc.option(mutatedFile(queries), { nil: undefined }) : fc.constant(undefined),
        async (route, query, sparql) => {
          const qs = sparql !== undefined && route.path.endsWith('/sparql') ? `${query}&query=${encodeURIComponent(wellFormed(sparql.text))}` : query;
          const context = `${route.method} ${route.path}?${qs}`;
          const headers: Record<string, string> = {};
          if (route.accept) headers.accept = route.accept;
          if (route.body !== undefined) headers['content-type'] = route.method === 'POST' && route.path.endsWith('/sparql') ? 'application/x-www-form-urlencoded' : 'application/n-triples';
          const res = await env.fetch(`${route.path}?${qs}`, { method: route.method, headers, ...(route.body !== undefined ? { body: route.body } : {}) });
          const text = await res.text();
          tally.add(String(res.status));
          expect(res.status, `${context}\n${text}`).to.be.below(500);
          if (res.status >= 400) {
            expect(text.trim(), `an error without a message; ${context}`).to.not.equal('');
            expect(text, `${context}\n${text}`).to.not.match(/\bundefined\b|\[object Object\]|TypeError|RangeError/);
          }
        },
      ),
      fuzzParameters(300),
    );
    tally.report('statuses');
    const health = await env.fetch('/health');
    expect(health.status).to.be.below(300);
  });
});
