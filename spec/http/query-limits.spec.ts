/**
 * Query limits over HTTP: the `query-time-limit` and `query-memory-limit` parameters of
 * /datastores/<ds>/sparql, the server's own limits, and the statuses of their errors
 * (409 InterruptedError, 422 MemoryLimitError, 400 for a refused or malformed limit). Also the
 * flags of `quadlog serve` that set the server's limits.
 */
import { expect } from 'chai';
import { parseServeArguments } from '../../lib/shell/serve.js';
import { bigNTriples } from '../helpers/server.js';
import { expectEmpty, expectErrorResponse, readCsv, useEndpoint } from './helpers.js';

const P = 'http://example.com/big/p';
const enc = encodeURIComponent;
/** An aggregate over 27 million combinations: far longer than any limit here. */
const ENDLESS = `SELECT (COUNT(*) AS ?n) WHERE { ?a <${P}> ?b . ?c <${P}> ?d . ?f <${P}> ?g }`;
/** 90,000 distinct pairs. */
const DISTINCT_PAIRS = `SELECT DISTINCT ?a ?c WHERE { ?a <${P}> ?b . ?c <${P}> ?d }`;
/** Small enough that a DISTINCT stops before its answer passes the 16 KiB the endpoint holds back. */
const SMALL_LIMIT = 5_000;

describe('http: query limits', () => {
  describe('per request', () => {
    const env = useEndpoint('query-limits');
    let store: string;
    before(async () => {
      store = await env.createStore();
      expect((await env.storeConnection(store).importData('ADD', bigNTriples(300))).errors).to.equal(0);
    });
    const sparql = (params: string, init?: RequestInit): Promise<Response> => env.fetch(`/datastores/${store}/sparql?${params}`, init);

    it('query-time-limit stops a query: 409 InterruptedError', async () => {
      const text = await expectErrorResponse(await sparql(`query=${enc(ENDLESS)}&query-time-limit=30`), 409, 'InterruptedError');
      expect(text).to.match(/exceeded its time limit/);
    });

    it('query-memory-limit stops a query: 422 MemoryLimitError naming the limit and what held it', async () => {
      const text = await expectErrorResponse(await sparql(`query=${enc(DISTINCT_PAIRS)}&query-memory-limit=${SMALL_LIMIT}`), 422, 'MemoryLimitError');
      expect(text).to.contain(`memory limit of ${SMALL_LIMIT} bytes`);
      expect(text).to.contain('DISTINCT');
      // the endpoint and the store serve the next request
      const table = await readCsv(await sparql(`query=${enc(`SELECT DISTINCT ?a WHERE { ?a <${P}> ?b }`)}&query-memory-limit=100000`));
      expect(table.rows).to.have.length(300);
    });

    it('the parameters work in a form body and for updates (the WHERE clause)', async () => {
      const form = (body: string): Promise<Response> => env.fetch(`/datastores/${store}/sparql`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
      await expectErrorResponse(await form(`query=${enc(DISTINCT_PAIRS)}&query-memory-limit=${SMALL_LIMIT}`), 422, 'MemoryLimitError');
      const update = `INSERT { ?a <http://example.com/q> ?c } WHERE { ?a <${P}> ?b . ?c <${P}> ?d }`;
      await expectErrorResponse(await form(`update=${enc(update)}&query-memory-limit=${SMALL_LIMIT}`), 422, 'MemoryLimitError');
      await expectErrorResponse(await form(`update=${enc(`INSERT { ?a <http://example.com/q> ?g } WHERE { ?a <${P}> ?b . ?c <${P}> ?d . ?f <${P}> ?g FILTER(STRLEN(STR(?b)) + STRLEN(STR(?d)) + STRLEN(STR(?g)) < 0) }`)}&query-time-limit=30`), 409, 'InterruptedError');
      const count = await readCsv(await sparql(`query=${enc('SELECT (COUNT(*) AS ?n) WHERE { ?s <http://example.com/q> ?o }')}`));
      expect(count.rows).to.deep.equal([['0']]);
      await expectEmpty(await form(`update=${enc('INSERT DATA { <http://example.com/x> <http://example.com/y> 1 }')}&query-time-limit=60000`), 204);
    });

    it('refuses malformed or repeated limits: 400', async () => {
      for (const bad of ['query-time-limit=soon', 'query-time-limit=0', 'query-memory-limit=-5', 'query-memory-limit=1.5', 'query-time-limit=10&query-time-limit=20']) {
        const text = await expectErrorResponse(await sparql(`query=${enc('ASK {}')}&${bad}`), 400, 'BadRequestError');
        expect(text).to.match(/query-(time|memory)-limit/);
      }
    });
  });

  describe("the server's limits", () => {
    const env = useEndpoint('query-limits-server', { parameters: { 'query-time-limit': '1000', 'query-memory-limit': String(SMALL_LIMIT) } });
    const open = useEndpoint('query-limits-override', { parameters: { 'query-memory-limit': String(SMALL_LIMIT), 'allow-query-limit-override': 'true' } });

    async function storeOf(e: typeof env): Promise<string> {
      const store = await e.createStore();
      expect((await e.storeConnection(store).importData('ADD', bigNTriples(300))).errors).to.equal(0);
      return store;
    }

    it('apply to requests that give none', async () => {
      const store = await storeOf(env);
      await expectErrorResponse(await env.fetch(`/datastores/${store}/sparql?query=${enc(ENDLESS)}`), 409, 'InterruptedError');
      await expectErrorResponse(await env.fetch(`/datastores/${store}/sparql?query=${enc(DISTINCT_PAIRS)}`), 422, 'MemoryLimitError');
    });

    it('a request may lower them; raising them is refused with 400 naming the server parameter', async () => {
      const store = await storeOf(env);
      await expectErrorResponse(await env.fetch(`/datastores/${store}/sparql?query=${enc(`SELECT DISTINCT ?a WHERE { ?a <${P}> ?b }`)}&query-memory-limit=2000`), 422, 'MemoryLimitError');
      const time = await expectErrorResponse(await env.fetch(`/datastores/${store}/sparql?query=${enc('ASK {}')}&query-time-limit=60000`), 400, 'BadRequestError');
      expect(time).to.match(/query-time-limit of 1000 ms.*allow-query-limit-override/);
      await expectErrorResponse(await env.fetch(`/datastores/${store}/sparql?query=${enc('ASK {}')}&query-memory-limit=${SMALL_LIMIT + 1}`), 400, 'BadRequestError');
    });

    it('with allow-query-limit-override=true a request may raise them', async () => {
      const store = await storeOf(open);
      await expectErrorResponse(await open.fetch(`/datastores/${store}/sparql?query=${enc(DISTINCT_PAIRS)}`), 422, 'MemoryLimitError');
      const table = await readCsv(await open.fetch(`/datastores/${store}/sparql?query=${enc(DISTINCT_PAIRS)}&query-memory-limit=100000000`));
      expect(table.rows).to.have.length(90_000);
    });

    it('max-memory below what the process holds refuses imports: 503 MemoryExhaustedError, nothing imported', async () => {
      const store = await storeOf(open);
      open.connection.setServerProperty('max-memory', 1 << 24);
      try {
        const res = await open.fetch(`/datastores/${store}/content`, { method: 'POST', headers: { 'content-type': 'application/n-triples' }, body: '<http://example.com/new> <http://example.com/p> 1 .\n' });
        const text = await expectErrorResponse(res, 503, 'MemoryExhaustedError');
        expect(text).to.match(/max-memory/);
      } finally {
        open.connection.setServerProperty('max-memory', 2 ** 40);
      }
      const count = await readCsv(await open.fetch(`/datastores/${store}/sparql?query=${enc('SELECT (COUNT(*) AS ?n) WHERE { <http://example.com/new> ?p ?o }')}`));
      expect(count.rows).to.deep.equal([['0']]);
    });
  });

  describe('quadlog serve flags', () => {
    it('--query-time-limit, --query-memory-limit and --allow-query-limit-override set the server parameters', () => {
      const options = parseServeArguments(['--query-time-limit', '30000', '--query-memory-limit', 'none', '--allow-query-limit-override'], {});
      expect(options.parameters).to.include({ 'query-time-limit': '30000', 'query-memory-limit': 'none', 'allow-query-limit-override': 'true' });
      expect(parseServeArguments([], {}).parameters).to.not.have.property('query-time-limit');
    });

    it('refuses values that are not positive integers or none', () => {
      expect(() => parseServeArguments(['--query-time-limit', '1s'], {})).to.throw(/invalid --query-time-limit '1s'/);
      expect(() => parseServeArguments(['--query-memory-limit', '0'], {})).to.throw(/invalid --query-memory-limit '0'/);
    });
  });
});
