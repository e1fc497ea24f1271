/**
 * One request cannot freeze the server: while each hostile request of the security review runs
 * (a catastrophic regular expression, a VALUES block joined with the store, a flat expression
 * of 100,000 terms, 100,000 PREFIX lines, a rule with a 50,000-term BIND) or a join whose other
 * side costs millions of rows (OPTIONAL, MINUS, NOT EXISTS, a join of groups), `/health` answers
 * before it ends, and the server's time limit (`query-time-limit`, 2 s) or a size refusal stops
 * it with an error: none of them runs to completion. Nothing here measures time: the checks
 * are the order in which answers arrive and what they say, so a loaded machine passes too.
 */
import { expect } from 'chai';
import { useEndpoint } from './helpers.js';

/** The answers to /health, asked one after the other, that must come while a request stopped by the time limit runs. */
const HEALTH_ANSWERS = 5;

/** Distinct terms `1+1+…` (n of them). */
const flat = (n: number): string => Array.from({ length: n }, () => '1').join('+');

interface Hostile {
  readonly name: string;
  /** The request: the path below the store and its init. */
  readonly request: (store: string) => [string, RequestInit];
  /** What its error text must say. */
  readonly refusal: RegExp;
}

const sparql = (store: string, text: string, update = false): [string, RequestInit] => [
  `/datastores/${store}/sparql`,
  { method: 'POST', headers: { 'content-type': update ? 'application/sparql-update' : 'application/sparql-query', accept: 'text/csv' }, body: text },
];

const HOSTILE: readonly Hostile[] = [
  {
    name: 'a VALUES block of 20,000 rows joined with the store',
    request: (s) => sparql(s, `SELECT * WHERE { ?s ?p ?o . VALUES ?x { ${Array.from({ length: 20000 }, (_, i) => `"${i}"`).join(' ')} } FILTER(?x != ?o) }`),
    refusal: /time limit/,
  },
  {
    name: 'a VALUES block of 20,000 rows driving the join',
    request: (s) => sparql(s, `SELECT * WHERE { VALUES ?x { ${Array.from({ length: 20000 }, (_, i) => `"${i}"`).join(' ')} } ?s ?p ?o . FILTER(?x != ?o) }`),
    refusal: /time limit/,
  },
  {
    name: '100,000 PREFIX lines',
    request: (s) => sparql(s, `${Array.from({ length: 100000 }, (_, i) => `PREFIX p${i}: <http://example.com/${i}#>`).join('\n')}\nSELECT * WHERE { ?s ?p ?o }`),
    refusal: /time limit/,
  },
  {
    name: 'a flat expression of 100,000 terms',
    request: (s) => sparql(s, `SELECT * WHERE { BIND(${flat(100000)} AS ?x) }`),
    refusal: /time limit|nests more than/,
  },
  {
    name: 'an update whose WHERE joins 20,000 VALUES rows with the store',
    request: (s) => sparql(s, `INSERT { ?s <http://example.com/q> ?x } WHERE { ?s ?p ?o . VALUES ?x { ${Array.from({ length: 20000 }, (_, i) => `"${i}"`).join(' ')} } FILTER(?x != ?o) }`, true),
    refusal: /time limit/,
  },
  {
    name: 'an OPTIONAL whose other side is evaluated with each solution (27 million rows)',
    request: (s) => sparql(s, 'SELECT * WHERE { ?s ?p ?o OPTIONAL { ?a ?p ?b . ?c ?p ?d FILTER(?b = ?d && ?b != ?d) } }'),
    refusal: /time limit/,
  },
  {
    name: 'a MINUS whose other side takes 27 million rows to evaluate',
    request: (s) => sparql(s, 'SELECT * WHERE { ?s ?p ?o MINUS { ?a ?p ?b . ?c ?p ?d . ?e ?p ?f FILTER(?b = ?d && ?d = ?f && ?b != ?f) } }'),
    refusal: /time limit/,
  },
  {
    name: 'a FILTER NOT EXISTS whose pattern holds a FILTER (evaluated with each solution)',
    request: (s) => sparql(s, 'SELECT * WHERE { ?s ?p ?o FILTER NOT EXISTS { ?a ?p ?b . ?c ?p ?d FILTER(?b = ?d && ?b != ?d) } }'),
    refusal: /time limit/,
  },
  {
    name: 'a join of two groups, the second evaluated with each solution of the first',
    request: (s) => sparql(s, 'SELECT (COUNT(*) AS ?n) WHERE { { ?s ?p ?o FILTER(?o != "x") } { ?a ?q ?b . ?c ?q ?d . ?e ?q ?f } }'),
    refusal: /time limit/,
  },
  {
    name: 'a rule with a 50,000-term BIND',
    request: (s) => [
      `/datastores/${s}/content?operation=add-content`,
      { method: 'PATCH', headers: { 'content-type': 'application/x.datalog' }, body: `[?x, <http://example.com/q>, ?z] :- [?x, <http://example.com/p>, ?y], BIND(${flat(50000)} AS ?z) .` },
    ],
    refusal: /nests more than/,
  },
];

describe('HTTP: no request freezes the server', function () {
  this.timeout(120_000);
  const env = useEndpoint('liveness', { parameters: { 'query-time-limit': '2000' } });
  let store = '';

  before(async () => {
    store = await env.createStore('live');
    const triples = Array.from({ length: 300 }, (_, i) => `<http://example.com/s${i}> <http://example.com/p> "v${i}" .`).join('\n');
    const res = await env.fetch(`/datastores/${store}/content`, { method: 'POST', headers: { 'content-type': 'application/n-triples' }, body: triples });
    expect(res.status).to.be.within(200, 299);
  });

  for (const hostile of HOSTILE) {
    it(`answers /health while ${hostile.name} runs, and stops it`, async () => {
      const events: string[] = [];
      const [path, init] = hostile.request(store);
      // an answer that had started streaming when the limit struck ends with the connection cut
      // (its status was sent): that is stopped too
      const running = env.fetch(path, init).then(
        async (res) => {
          const text = await res.text().catch(() => 'the answer was cut: time limit');
          events.push('hostile');
          return { status: res.status === 200 && text.endsWith('time limit') ? 499 : res.status, text };
        },
        () => {
          events.push('hostile');
          return { status: 499, text: 'the connection was cut: time limit' };
        },
      );
      // ask for /health, one request after the other, until the hostile request ended: each
      // answer that came while it still ran is counted
      let health = 0;
      let answered = 0;
      while (events.length === 0) {
        const res = await fetch(`${env.url}/health`);
        if (events.length === 0) {
          health = res.status;
          answered++;
        }
        await res.arrayBuffer();
      }
      const answer = await running;
      expect(answer.status, answer.text).to.be.within(400, 499);
      expect(answer.text).to.match(hostile.refusal);
      if (hostile.refusal.source.includes('time limit') && !/nests more than/.test(answer.text)) {
        // it ran until the limit stopped it: /health must have answered again and again
        // meanwhile (a server that holds its event loop answers the first one, sent before the
        // evaluation started, and then none until the limit)
        expect(answered, 'answers to /health while the request ran').to.be.at.least(HEALTH_ANSWERS);
        expect(health).to.be.within(200, 299);
      }
    });
  }

  it('answers a catastrophic regular expression at once (a linear-time engine)', async () => {
    const [path, init] = sparql(store, `SELECT * WHERE { BIND("${'a'.repeat(5000)}!" AS ?o) FILTER(REGEX(?o, "^(a+)+$")) }`);
    const res = await env.fetch(path, init);
    expect(res.status, await res.clone().text()).to.equal(200);
    expect((await res.text()).trim()).to.equal('o');
  });
});
