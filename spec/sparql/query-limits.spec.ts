/**
 * Query limits in process: the time limit and the memory budget of a query (and of an update's
 * WHERE clauses), as options and as server parameters, how a request's limits combine with the
 * server's, and the server property max-memory stopping imports.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { expect } from 'chai';
import { BadRequestError, type DataStoreConnection, InterruptedError, MemoryExhaustedError, MemoryLimitError, Server } from '../../lib/index.js';
import { derivedMemoryLimit, heapLimitBytes, processMemoryBytes, queryLimitsOf, resolveLimits } from '../../lib/server/query-limits.js';
import { describeBytes, QueryBudget } from '../../lib/sparql/query-budget.js';
import { bigNTriples, expectError, TEST_SERVER_PARAMETERS, useServer } from '../helpers/server.js';

const P = 'http://example.com/big/p';
/** An aggregate over 27 million combinations of 300 facts: it runs far longer than any limit here. */
const ENDLESS = `SELECT (COUNT(*) AS ?n) WHERE { ?a <${P}> ?b . ?c <${P}> ?d . ?f <${P}> ?g }`;
/** 90,000 solutions, all distinct. */
const PAIRS = `?a <${P}> ?b . ?c <${P}> ?d`;
/** A small limit every query below that holds its solutions passes. */
const SMALL = 20_000;
/** max-memory restored after a test lowered it (large enough to stop nothing). */
const AMPLE = 2 ** 40;

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function storeOf(env: ReturnType<typeof useServer>, n = 300): Promise<DataStoreConnection> {
  const ds = await env.newStore();
  expect((await ds.importData('ADD', bigNTriples(n))).errors).to.equal(0);
  return ds;
}

async function count(ds: DataStoreConnection, query: string, options: { memoryLimitBytes?: number; timeLimitMs?: number } = {}): Promise<number> {
  const answer = await ds.evaluateQuery(query, options);
  if (answer.type === 'bindings') return answer.rows.length;
  if (answer.type === 'quads') return answer.quads.length;
  return answer.value ? 1 : 0;
}

describe('sparql: query limits', () => {
  describe('the time limit', () => {
    const env = useServer('query-limits-time');
    let ds: DataStoreConnection;
    before(async () => {
      ds = await storeOf(env);
    });

    it('stops a query past timeLimitMs with InterruptedError; the connection serves the next query', async () => {
      const e = await expectError(ds.evaluateQuery(ENDLESS, { timeLimitMs: 30 }), InterruptedError);
      expect(e.message).to.match(/exceeded its time limit/);
      expect(await count(ds, 'ASK { ?s ?p ?o }')).to.equal(1);
    });

    it('stops scans whose rows all fail a FILTER tested in the join (an EXISTS in a BIND, evaluated without yielding)', async () => {
      const wide = await storeOf(env);
      expect((await wide.importData('ADD', bigNTriples(20_000).replaceAll(`<${P}>`, `<${P}2>`))).errors).to.equal(0);
      // 300 rows, each joined with 20,000 rows not one of which passes the FILTER (fewer steps
      // of the join than the engine takes between two looks at the clock)
      const rejectAll = `SELECT ?x WHERE { BIND(EXISTS { ?f <${P}> ?v . ?g <${P}2> ?w FILTER(?w = "none") } AS ?x) }`;
      const e = await expectError(wide.evaluateQuery(rejectAll, { timeLimitMs: 30 }), InterruptedError);
      expect(e.message).to.match(/exceeded its time limit/);
      wide.close();
    });

    it('stops a property path evaluated at once (a sequence with both ends free through a hub)', async () => {
      const hub = await env.newStore();
      const spokes = Array.from({ length: 300 }, (_, i) => `<http://example.com/s${i}> <${P}> <http://example.com/hub> .`).join('\n');
      expect((await hub.importData('ADD', spokes)).errors).to.equal(0);
      // 300 × 300 × 300 paths, walked in one synchronous call (an alternative keeps the sequence one path)
      const step = `(<${P}>|^<${P}>)`;
      const path = `(${step}/${step}/${step}/${step}/${step}/${step})|<http://example.com/other>`;
      const e = await expectError(hub.evaluateQuery(`SELECT (COUNT(*) AS ?n) WHERE { ?a ${path} ?b }`, { timeLimitMs: 30 }), InterruptedError);
      expect(e.message).to.match(/exceeded its time limit/);
      hub.close();
    });

    it('stops scans of tuple table atoms whose rows all fail a FILTER (a product of three TT atoms, evaluated without yielding)', async () => {
      // 27 million rows of the third atom, each rejected: no graph pattern reads a row
      const atoms = 'TT DefaultTriples { ?a ?b ?c } . TT DefaultTriples { ?d ?e ?f } . TT DefaultTriples { ?g ?h ?i }';
      const e = await expectError(ds.evaluateQuery(`SELECT (COUNT(*) AS ?n) WHERE { ${atoms} FILTER(?i = "none") }`, { timeLimitMs: 30 }), InterruptedError);
      expect(e.message).to.match(/exceeded its time limit/);
      // and in an update's WHERE clause, whose tuple table atoms read the write transaction's tables
      const u = await expectError(ds.evaluateUpdate(`INSERT { ?a <http://example.com/q> ?i } WHERE { ${atoms} FILTER(?i = "none") }`, { timeLimitMs: 30 }), InterruptedError);
      expect(u.message).to.match(/exceeded its time limit/);
      expect(await count(ds, 'ASK { ?s ?p ?o }')).to.equal(1);
    });

    it("applies to cursors: the page being read fails", async () => {
      const cursor = ds.createCursor(ENDLESS, { timeLimitMs: 30 });
      await expectError(cursor.open(1), InterruptedError);
      cursor.close();
    });

    it("does not count the time a cursor waits for its next page", async () => {
      const cursor = ds.createCursor(`SELECT ?a ?c WHERE { ${PAIRS} }`, { timeLimitMs: 1500 });
      const first = await cursor.open(1);
      expect(first.rows).to.have.length(1);
      await delay(1800);
      // more rows than the cursor holds waiting: the query resumes after its wait
      const next = await cursor.advance(5000);
      expect(next.rows).to.have.length(5000);
      cursor.close();
    });

    it("applies to an update's WHERE clause; the store is unchanged", async () => {
      const before = await count(ds, 'SELECT * WHERE { ?s ?p ?o }');
      const e = await expectError(
        ds.evaluateUpdate(`INSERT { ?a <http://example.com/q> ?g } WHERE { ?a <${P}> ?b . ?c <${P}> ?d . ?f <${P}> ?g FILTER(STRLEN(STR(?b)) + STRLEN(STR(?d)) + STRLEN(STR(?g)) < 0) }`, { timeLimitMs: 30 }),
        InterruptedError,
      );
      expect(e.message).to.match(/exceeded its time limit/);
      expect(await count(ds, 'SELECT * WHERE { ?s ?p ?o }')).to.equal(before);
    });
  });

  describe('the memory limit', () => {
    const env = useServer('query-limits-memory');
    let ds: DataStoreConnection;
    before(async () => {
      ds = await storeOf(env);
    });

    const cases: Array<[string, string, RegExp]> = [
      ['DISTINCT', `SELECT DISTINCT ?a ?c WHERE { ${PAIRS} }`, /DISTINCT/],
      ['ORDER BY', `SELECT ?a ?c WHERE { ${PAIRS} } ORDER BY ?b ?d`, /ORDER BY/],
      ['GROUP BY', `SELECT ?a ?c (COUNT(*) AS ?n) WHERE { ${PAIRS} } GROUP BY ?a ?c`, /GROUP BY/],
      ['GROUP_CONCAT', `SELECT (GROUP_CONCAT(?b) AS ?all) WHERE { ${PAIRS} }`, /GROUP BY/],
      ['CONSTRUCT', `CONSTRUCT { ?a <http://example.com/q> ?c } WHERE { ${PAIRS} }`, /CONSTRUCT/],
      ['DESCRIBE', `DESCRIBE ?a WHERE { ?a <${P}> ?b }`, /DESCRIBE/],
      ['a join with a subquery', `SELECT * WHERE { ?a <${P}> ?b { SELECT ?c WHERE { ?c <${P}> ?d } LIMIT 1000 } }`, /join/],
      ['MINUS', `SELECT ?a WHERE { ?a <${P}> ?b MINUS { ?a <${P}> ?d } }`, /MINUS/],
    ];
    for (const [what, query, named] of cases) {
      it(`stops ${what} past memoryLimitBytes with MemoryLimitError naming the limit and the structure`, async () => {
        const e = await expectError(ds.evaluateQuery(query, { memoryLimitBytes: what === 'MINUS' || what === 'DESCRIBE' ? 2_000 : SMALL }), MemoryLimitError);
        expect(e.message).to.contain('memory limit');
        expect(e.message).to.match(named);
        expect(e.status).to.equal(422);
      });
    }

    it('lets the same queries run within a limit they fit', async () => {
      expect(await count(ds, `SELECT DISTINCT ?a WHERE { ${PAIRS} }`, { memoryLimitBytes: SMALL * 2 })).to.equal(300);
      expect(await count(ds, `SELECT ?a WHERE { ?a <${P}> ?b } ORDER BY ?b`, { memoryLimitBytes: 100_000 })).to.equal(300);
      expect(await count(ds, `SELECT ?a (COUNT(*) AS ?n) WHERE { ${PAIRS} } GROUP BY ?a`, { memoryLimitBytes: 100_000 })).to.equal(300);
    });

    it('gives back what a finished sort held: several sorts in a row fit one limit that two at once would not', async () => {
      // each ORDER BY of 300 rows needs about a third of the limit; run one after the other (UNION), they fit
      const one = `{ SELECT ?a WHERE { ?a <${P}> ?b } ORDER BY ?b }`;
      expect(await count(ds, `SELECT ?a WHERE { ${one} UNION ${one} UNION ${one} UNION ${one} }`, { memoryLimitBytes: 150_000 })).to.equal(1200);
    });

    it('gives back what a FILTER EXISTS pattern held once it is tested (evaluated per solution)', async () => {
      // each test collects the subquery's 300 solutions (about 40 KB); 300 tests at once would not fit
      const query = `SELECT ?a WHERE { ?a <${P}> ?b FILTER EXISTS { ?a <${P}> ?x OPTIONAL { SELECT ?y WHERE { ?y <${P}> ?z } } } }`;
      expect(await count(ds, query, { memoryLimitBytes: 100_000 })).to.equal(300);
      await expectError(ds.evaluateQuery(query, { memoryLimitBytes: 5_000 }), MemoryLimitError);
    });

    it('frees what a stopped query held: the next query on the connection runs within the same limit', async () => {
      await expectError(ds.evaluateQuery(`SELECT DISTINCT ?a ?c WHERE { ${PAIRS} }`, { memoryLimitBytes: SMALL }), MemoryLimitError);
      expect(await count(ds, `SELECT DISTINCT ?a WHERE { ?a <${P}> ?b }`, { memoryLimitBytes: SMALL * 2 })).to.equal(300);
      await expectError(ds.evaluateQuery(`SELECT ?a ?c WHERE { ${PAIRS} } ORDER BY ?b`, { memoryLimitBytes: SMALL }), MemoryLimitError);
      expect(await count(ds, `SELECT ?a WHERE { ?a <${P}> ?b } ORDER BY ?b`, { memoryLimitBytes: 100_000 })).to.equal(300);
    });

    it('leaves nothing of a stopped query reachable: the heap after a collection is back near where it was', async () => {
      setFlagsFromString('--expose-gc');
      const gc = runInNewContext('gc') as () => void;
      const triples = `SELECT DISTINCT ?a ?c ?f WHERE { ${PAIRS} . ?f <${P}> ?g }`;
      gc();
      const before = process.memoryUsage().heapUsed;
      // about 32 MB of DISTINCT keys, then the limit
      await expectError(ds.evaluateQuery(triples, { memoryLimitBytes: 32 * 1024 * 1024 }), MemoryLimitError);
      // the settled promises of the call let go of the evaluation's frames once the event loop turns
      let after = Infinity;
      for (let turn = 0; turn < 5 && after - before >= 8 * 1024 * 1024; turn++) {
        await new Promise((resolve) => setImmediate(resolve));
        gc();
        after = process.memoryUsage().heapUsed;
      }
      expect(after - before).to.be.lessThan(8 * 1024 * 1024);
    });

    it('applies to cursors, evaluateQueryTo and the iterator', async () => {
      const query = `SELECT DISTINCT ?a ?c WHERE { ${PAIRS} }`;
      const cursor = ds.createCursor(query, { memoryLimitBytes: SMALL });
      await expectError((async () => {
        let page = await cursor.open(1000);
        while (page.more) page = await cursor.advance(1000);
      })(), MemoryLimitError);
      cursor.close();
      await expectError(ds.evaluateQueryTo(query, 'text/csv', () => undefined, { memoryLimitBytes: SMALL }), MemoryLimitError);
      await expectError((async () => {
        for await (const row of ds.evaluateQueryIterator(query, { memoryLimitBytes: SMALL })) void row;
      })(), MemoryLimitError);
    });

    it("applies to an update's WHERE clause; the store is unchanged", async () => {
      const before = await count(ds, 'SELECT * WHERE { ?s ?p ?o }');
      const e = await expectError(ds.evaluateUpdate(`INSERT { ?a <http://example.com/q> ?c } WHERE { ${PAIRS} }`, { memoryLimitBytes: SMALL }), MemoryLimitError);
      expect(e.message).to.match(/update's WHERE clause/);
      expect(await count(ds, 'SELECT * WHERE { ?s ?p ?o }')).to.equal(before);
    });

    it('refuses a limit that is not a positive number', async () => {
      await expectError(ds.evaluateQuery('ASK {}', { memoryLimitBytes: 0 }), BadRequestError);
      await expectError(ds.evaluateQuery('ASK {}', { timeLimitMs: Number.NaN }), BadRequestError);
    });
  });

  describe('server parameters', () => {
    const env = useServer('query-limits-server', { 'query-time-limit': '1000', 'query-memory-limit': String(SMALL) });
    const open = useServer('query-limits-override', { 'query-time-limit': '1000', 'query-memory-limit': String(SMALL), 'allow-query-limit-override': 'true' });

    it('query-time-limit and query-memory-limit apply to every query without limits of its own', async () => {
      const ds = await storeOf(env);
      await expectError(ds.evaluateQuery(ENDLESS), InterruptedError);
      await expectError(ds.evaluateQuery(`SELECT DISTINCT ?a ?c WHERE { ${PAIRS} }`), MemoryLimitError);
      await expectError(ds.evaluateUpdate(`INSERT { ?a <http://example.com/q> ?c } WHERE { ${PAIRS} }`), MemoryLimitError);
      expect(await count(ds, `SELECT DISTINCT ?a WHERE { ?a <${P}> ?b }`)).to.equal(300);
    });

    it('a request may lower them, not raise them', async () => {
      const ds = await storeOf(env);
      await expectError(ds.evaluateQuery(`SELECT DISTINCT ?a WHERE { ?a <${P}> ?b }`, { memoryLimitBytes: 2_000 }), MemoryLimitError);
      const time = await expectError(ds.evaluateQuery('ASK {}', { timeLimitMs: 60_000 }), BadRequestError);
      expect(time.message).to.match(/query-time-limit of 1000 ms.*allow-query-limit-override/);
      const memory = await expectError(ds.evaluateQuery('ASK {}', { memoryLimitBytes: SMALL + 1 }), BadRequestError);
      expect(memory.message).to.match(/query-memory-limit/);
      await expectError(ds.evaluateUpdate('INSERT DATA { <http://example.com/a> <http://example.com/b> 1 }', { timeLimitMs: 60_000 }), BadRequestError);
    });

    it('with allow-query-limit-override=true a request may raise them', async () => {
      const ds = await storeOf(open);
      await expectError(ds.evaluateQuery(`SELECT DISTINCT ?a ?c WHERE { ${PAIRS} }`), MemoryLimitError);
      expect(await count(ds, `SELECT DISTINCT ?a ?c WHERE { ${PAIRS} }`, { memoryLimitBytes: 100_000_000, timeLimitMs: 600_000 })).to.equal(90_000);
    });

    it('are listed among the server properties', () => {
      const rows = env.connection.getServerProperties();
      expect(rows.find((r) => r.property === 'parameters.query-time-limit')?.value).to.equal('1000');
      expect(rows.find((r) => r.property === 'parameters.query-memory-limit')?.value).to.equal(String(SMALL));
    });

    it('refuses invalid values when the server is created', async () => {
      const invalid: Array<Record<string, string>> = [{ 'query-time-limit': 'soon' }, { 'query-memory-limit': '-1' }, { 'query-memory-limit': '0' }, { 'allow-query-limit-override': 'yes' }];
      for (const parameters of invalid) {
        await expectError(Server.create({ roleName: 'admin', password: 'pw', parameters: { ...TEST_SERVER_PARAMETERS, ...parameters } }), BadRequestError);
      }
    });
  });

  describe('resolving limits', () => {
    it('takes the request where it gives one, else the server; none means no limit', () => {
      const settings = queryLimitsOf({ 'query-time-limit': '1000', 'query-memory-limit': 'none' });
      expect(resolveLimits(settings, 1 << 30, {})).to.deep.equal({ timeLimitMs: 1000 });
      expect(resolveLimits(settings, 1 << 30, { timeLimitMs: 10, memoryLimitBytes: 5000 })).to.deep.equal({ timeLimitMs: 10, memoryLimitBytes: 5000 });
      expect(resolveLimits(queryLimitsOf({}), 1 << 30, {})).to.deep.equal({ memoryLimitBytes: derivedMemoryLimit(1 << 30) });
    });

    it('derives the default memory limit from max-memory: a quarter of it, or of the heap limit when smaller', () => {
      expect(derivedMemoryLimit(1 << 26)).to.equal(1 << 24);
      expect(derivedMemoryLimit(Number.MAX_SAFE_INTEGER)).to.equal(Math.floor(heapLimitBytes() / 4));
    });

    it('a budget refuses the charge that would pass its limit, and takes charges again once given back', () => {
      const budget = new QueryBudget(1000);
      const account = budget.account('a test structure');
      account.add(600);
      expect(() => account.add(600)).to.throw(MemoryLimitError, /1000 bytes.*a test structure.*1200 bytes/);
      expect(budget.heldBytes).to.equal(600);
      account.release();
      account.add(900);
      expect(budget.peakBytes).to.equal(900);
      expect(describeBytes(3 * 1024 * 1024)).to.equal('3145728 bytes (3.0 MiB)');
    });
  });

  describe('max-memory', () => {
    const env = useServer('query-limits-max-memory');

    it('the default query memory limit follows max-memory', async () => {
      const ds = await storeOf(env);
      env.connection.setServerProperty('max-memory', 1 << 24);
      try {
        // a quarter of 16 MiB is 4 MiB: sorting 90,000 pairs holds more than that
        const e = await expectError(ds.evaluateQuery(`SELECT ?a ?c WHERE { ${PAIRS} } ORDER BY ?a ?c`), MemoryLimitError);
        expect(e.message).to.contain('4194304 bytes');
      } finally {
        env.connection.setServerProperty('max-memory', AMPLE);
      }
      expect(await count(ds, `SELECT ?a ?c WHERE { ${PAIRS} } ORDER BY ?a ?c`)).to.equal(90_000);
    });

    it('an import is refused while the process holds more than max-memory; nothing is imported', async () => {
      const ds = await env.newStore();
      expect(processMemoryBytes()).to.be.greaterThan(1 << 24);
      env.connection.setServerProperty('max-memory', 1 << 24);
      try {
        const e = await expectError(ds.importData('ADD', bigNTriples(10)), MemoryExhaustedError);
        expect(e.message).to.match(/max-memory of 16777216 bytes/);
        expect(e.status).to.equal(503);
        await expectError(ds.importData('ADD', '@prefix ex: <http://example.com/> . ex:a ex:b ex:c .', { mediaType: 'text/turtle' }), MemoryExhaustedError);
      } finally {
        env.connection.setServerProperty('max-memory', AMPLE);
      }
      expect(await count(ds, 'SELECT * WHERE { ?s ?p ?o }')).to.equal(0);
      expect((await ds.importData('ADD', bigNTriples(10))).changedFacts).to.equal(10);
    });
  });
});
