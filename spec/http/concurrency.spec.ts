/**
 * 50 clients at once, each making the same number of requests, adding and deleting its own facts (content
 * PATCH and POST, SPARQL updates) and querying them: no 5xx, every request answered, each
 * client reads its own writes, and the final content is exactly what the successful updates
 * imply. Lock contention may answer 423 (LockTimeoutError), which changes nothing.
 */
import { expect } from 'chai';
import { useEndpoint } from './helpers.js';

const EX = 'http://example.com/';
const CLIENTS = 50;
/** The requests of each client (a count, not a duration: a busy machine makes fewer requests in a given time). */
const REQUESTS = 8;

/** A small deterministic pseudo-random generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('http: 50 concurrent clients', function () {
  this.timeout(120_000);
  const env = useEndpoint('concurrency');

  it('answers every request without 5xx and keeps the content consistent', async () => {
    const store = await env.createStore();
    const content = `/datastores/${store}/content`;
    const sparql = `/datastores/${store}/sparql`;
    const statuses = new Map<number, number>();
    const failures: string[] = [];
    const fact = (client: number, k: number): string => `<${EX}c${client}> <${EX}has> "${k}" .`;

    const client = async (id: number): Promise<Set<number>> => {
      const next = random(id + 1);
      const present = new Set<number>();
      let counter = 0;
      const note = (status: number, what: string, body: string): void => {
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        if (status >= 500) failures.push(`client ${id} ${what}: ${status} ${body}`);
      };
      for (let request = 0; request < REQUESTS; request++) {
        const choice = next();
        if (choice < 0.3) {
          // add a fresh fact, by PATCH or POST
          const k = counter++;
          const post = next() < 0.5;
          const res = await env.fetch(post ? content : `${content}?operation=add-content`, { method: post ? 'POST' : 'PATCH', headers: { 'content-type': 'application/n-triples' }, body: fact(id, k) });
          const body = await res.text();
          note(res.status, 'add', body);
          if (res.status === 200) {
            expect(body).to.contain('information: #changed-facts = 1');
            present.add(k);
          } else expect(res.status, body).to.equal(423);
        } else if (choice < 0.45 && present.size > 0) {
          // delete one of its facts with delete-content
          const k = [...present][Math.floor(next() * present.size)]!;
          const res = await env.fetch(`${content}?operation=delete-content`, { method: 'PATCH', headers: { 'content-type': 'application/n-triples' }, body: fact(id, k) });
          const body = await res.text();
          note(res.status, 'delete', body);
          if (res.status === 200) present.delete(k);
          else expect(res.status, body).to.equal(423);
        } else if (choice < 0.6) {
          // a SPARQL update: insert a fresh fact or delete one
          const inserting = present.size === 0 || next() < 0.6;
          const k = inserting ? counter++ : [...present][Math.floor(next() * present.size)]!;
          const update = `${inserting ? 'INSERT' : 'DELETE'} DATA { ${fact(id, k).slice(0, -2)} }`;
          const res = await env.fetch(sparql, { method: 'POST', headers: { 'content-type': 'application/sparql-update' }, body: update });
          const body = await res.text();
          note(res.status, 'update', body);
          if (res.status === 204) {
            if (inserting) present.add(k);
            else present.delete(k);
          } else expect(res.status, body).to.equal(423);
        } else {
          // read its own writes
          const query = `SELECT ?k WHERE { <${EX}c${id}> <${EX}has> ?k }`;
          const res = await env.fetch(`${sparql}?query=${encodeURIComponent(query)}`, { headers: { accept: 'text/tab-separated-values' } });
          const body = await res.text();
          note(res.status, 'query', body);
          expect(res.status, body).to.equal(200);
          const seen = body
            .trim()
            .split('\n')
            .slice(1)
            .map((l) => Number(JSON.parse(l) as string))
            .sort((a, b) => a - b);
          expect(seen, `client ${id} reads its own writes`).to.deep.equal([...present].sort((a, b) => a - b));
        }
      }
      return present;
    };

    const results = await Promise.all(Array.from({ length: CLIENTS }, (_, i) => client(i)));
    expect(failures).to.deep.equal([]);
    const total = [...statuses.values()].reduce((a, b) => a + b, 0);
    expect(total).to.equal(CLIENTS * REQUESTS);
    for (const status of statuses.keys()) expect([200, 204, 423]).to.include(status);

    const expected = results.flatMap((present, id) => [...present].map((k) => fact(id, k))).sort();
    const exported = (await env.storeConnection(store).exportDataToString('application/n-triples')).split('\n').filter((l) => l !== '').sort();
    expect(exported).to.deep.equal(expected);
    const count = await env.fetch(`${sparql}?query=${encodeURIComponent('SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }')}`);
    expect((await count.text()).trim().split(/\r?\n/)[1]).to.equal(String(expected.length));
  });
});
