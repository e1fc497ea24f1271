/**
 * Live answers over HTTP (Server-Sent Events): the event format, for a registered query and for
 * `sparql?query=`; 100 subscribers at once; a slow subscriber that neither slows commits nor
 * loses anything silently (it is resynchronised with `missedFrom`); resuming with
 * Last-Event-ID (replayed changes, or a resynchronisation when they are no longer kept); and
 * the watch of a query text going away with its client.
 */
import { expect } from 'chai';
import { deltaQueriesOf } from '../../lib/server/delta-queries.js';
import { EventStreamClient, type ReceivedEvent } from './event-stream-client.js';
import { ADMIN_AUTH, useEndpoint } from './helpers.js';

const EX = 'http://example.com/';
const Q = `SELECT ?s ?o WHERE { ?s <${EX}p> ?o }`;

type Bindings = Array<Record<string, { type: string; value: string; datatype?: string; 'xml:lang'?: string }>>;

function bindingsOf(data: Record<string, unknown>, key: 'results' | 'additions' | 'deletions'): Bindings {
  return (data[key] as { bindings: Bindings }).bindings;
}

/** A client's copy of the answer: subjects, kept up to date from the events. */
class Replica {
  readonly subjects = new Set<string>();
  version = -1;
  resynchronised: number[] = [];
  apply(e: ReceivedEvent): void {
    const version = e.data['version'] as number;
    expect(e.id).to.equal(String(version));
    expect(version).to.be.above(this.version);
    this.version = version;
    if (e.event === 'answer') {
      this.subjects.clear();
      for (const b of bindingsOf(e.data, 'results')) this.subjects.add(b['s']!.value);
      if (e.data['missedFrom'] !== undefined) this.resynchronised.push(e.data['missedFrom'] as number);
    } else {
      expect(e.event).to.equal('change');
      for (const b of bindingsOf(e.data, 'deletions')) this.subjects.delete(b['s']!.value);
      for (const b of bindingsOf(e.data, 'additions')) this.subjects.add(b['s']!.value);
    }
  }
}

async function nextEvent(client: EventStreamClient): Promise<ReceivedEvent> {
  const e = await client.next();
  if (!e) throw new Error('the event stream ended');
  return e;
}

describe('live answers over HTTP (Server-Sent Events)', () => {
  const env = useEndpoint('live-answers');

  async function storeWithQuery(parameters = ''): Promise<string> {
    const store = await env.createStore();
    const res = await env.fetch(`/datastores/${store}/deltaqueries/live${parameters}`, { method: 'POST', headers: { 'content-type': 'application/sparql-query' }, body: Q });
    expect(res.status, await res.text()).to.equal(201);
    return store;
  }

  function subscribe(path: string, headers: Record<string, string> = {}): Promise<EventStreamClient> {
    return EventStreamClient.open(env.url + path, { authorization: ADMIN_AUTH, ...headers });
  }

  it('sends the whole answer, then each version’s change, as SPARQL JSON bindings', async () => {
    const store = await storeWithQuery();
    const ds = env.storeConnection(store);
    await ds.importData('ADD', `<${EX}a> <${EX}p> "one"@en .`);
    const client = await subscribe(`/datastores/${store}/deltaqueries/live`);
    try {
      expect(client.status).to.equal(200);
      expect(client.response.headers['content-type']).to.match(/^text\/event-stream/);
      const first = await nextEvent(client);
      expect(first.event).to.equal('answer');
      expect(first.data['head']).to.deep.equal({ vars: ['s', 'o'] });
      expect(bindingsOf(first.data, 'results')).to.deep.equal([{ s: { type: 'uri', value: `${EX}a` }, o: { type: 'literal', value: 'one', 'xml:lang': 'en' } }]);
      expect(first.data).to.not.have.property('missedFrom');
      await ds.importData('ADD', `<${EX}b> <${EX}p> 2 .`);
      await ds.importData('DELETE', `<${EX}a> <${EX}p> "one"@en .`);
      const added = await nextEvent(client);
      expect(added.event).to.equal('change');
      expect(Number(added.id)).to.be.above(Number(first.id));
      expect(bindingsOf(added.data, 'additions')).to.deep.equal([{ s: { type: 'uri', value: `${EX}b` }, o: { type: 'literal', value: '2', datatype: 'http://www.w3.org/2001/XMLSchema#integer' } }]);
      expect(bindingsOf(added.data, 'deletions')).to.deep.equal([]);
      const removed = await nextEvent(client);
      expect(Number(removed.id)).to.equal(Number(added.id) + 1);
      expect(bindingsOf(removed.data, 'deletions').map((b) => b['s']!.value)).to.deep.equal([`${EX}a`]);
    } finally {
      client.close();
    }
  });

  it('answers a SELECT text at sparql?query= live, with the caller’s credentials, and ends the watch when the client goes', async () => {
    const store = await env.createStore();
    const ds = env.storeConnection(store);
    await ds.importData('ADD', `<${EX}a> <${EX}p> <${EX}o> .`);
    const unauthenticated = await EventStreamClient.open(`${env.url}/datastores/${store}/sparql?query=${encodeURIComponent(Q)}`, {});
    expect(unauthenticated.status).to.equal(401);
    unauthenticated.close();
    const registry = deltaQueriesOf(env.server.dataStore(store));
    const client = await subscribe(`/datastores/${store}/sparql?query=${encodeURIComponent(Q)}`);
    const replica = new Replica();
    replica.apply(await nextEvent(client));
    expect([...replica.subjects]).to.deep.equal([`${EX}a`]);
    expect(registry.active, 'the query text is registered for the stream').to.equal(true);
    await ds.importData('ADD', `<${EX}b> <${EX}p> <${EX}o> .`);
    replica.apply(await nextEvent(client));
    expect([...replica.subjects].sort()).to.deep.equal([`${EX}a`, `${EX}b`]);
    client.close();
    while (registry.active) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await ds.listDeltaQueries()).to.deep.equal([]);
  });

  it('gives 100 subscribers at once every version in order', async () => {
    const store = await storeWithQuery();
    const ds = env.storeConnection(store);
    const clients = await Promise.all(Array.from({ length: 100 }, () => subscribe(`/datastores/${store}/deltaqueries/live`)));
    try {
      const firsts = await Promise.all(clients.map((c) => nextEvent(c)));
      for (const f of firsts) expect(f.event).to.equal('answer');
      const commits = 10;
      for (let i = 0; i < commits; i++) await ds.importData('ADD', `<${EX}s${i}> <${EX}p> <${EX}o> .`);
      await Promise.all(
        clients.map(async (client, n) => {
          let last = Number(firsts[n]!.id);
          for (let i = 0; i < commits; i++) {
            const e = await nextEvent(client);
            expect(e.event).to.equal('change');
            expect(Number(e.id)).to.equal(last + 1);
            last = Number(e.id);
            expect(bindingsOf(e.data, 'additions').map((b) => b['s']!.value)).to.deep.equal([`${EX}s${i}`]);
          }
        }),
      );
    } finally {
      for (const c of clients) c.close();
    }
  });

  it('lets a subscriber that reads nothing fall behind without slowing commits, then resynchronises it with missedFrom', async () => {
    const store = await storeWithQuery();
    const ds = env.storeConnection(store);
    const slow = await subscribe(`/datastores/${store}/deltaqueries/live`);
    const replica = new Replica();
    try {
      replica.apply(await nextEvent(slow));
      slow.pause();
      // each change event is about 64 KiB: far more than the socket buffers and the watch's buffer (256 events) hold
      const big = 'x'.repeat(64 * 1024);
      const commits = 600;
      for (let i = 0; i < commits; i++) await ds.importData('ADD', `<${EX}s${i}> <${EX}p> "${big}" .`);
      // every commit finished while the subscriber read nothing
      slow.resume();
      while (replica.subjects.size < commits) replica.apply(await nextEvent(slow));
      expect(replica.resynchronised.length).to.be.greaterThan(0);
      expect(replica.subjects.size).to.equal(commits);
      expect(replica.subjects.has(`${EX}s0`) && replica.subjects.has(`${EX}s${commits - 1}`)).to.equal(true);
    } finally {
      slow.close();
    }
  });

  it('resumes after Last-Event-ID with the kept changes, or with the whole answer and missedFrom when they are gone', async () => {
    const store = await storeWithQuery('?additions-max-size=5&deletions-max-size=5');
    const ds = env.storeConnection(store);
    await ds.importData('ADD', `<${EX}a> <${EX}p> <${EX}o> .`);
    const first = await subscribe(`/datastores/${store}/deltaqueries/live`);
    const seen = await nextEvent(first);
    first.close();
    const lastId = Number(seen.id);

    await ds.importData('ADD', `<${EX}b> <${EX}p> <${EX}o> .`);
    await ds.importData('DELETE', `<${EX}a> <${EX}p> <${EX}o> .`);
    const resumed = await subscribe(`/datastores/${store}/deltaqueries/live`, { 'last-event-id': String(lastId) });
    try {
      const one = await nextEvent(resumed);
      expect(one.event).to.equal('change');
      expect(Number(one.id)).to.equal(lastId + 1);
      expect(bindingsOf(one.data, 'additions').map((b) => b['s']!.value)).to.deep.equal([`${EX}b`]);
      const two = await nextEvent(resumed);
      expect(two.event).to.equal('change');
      expect(bindingsOf(two.data, 'deletions').map((b) => b['s']!.value)).to.deep.equal([`${EX}a`]);
    } finally {
      resumed.close();
    }

    // more changes than the query keeps: the versions after lastId are no longer all held
    for (let i = 0; i < 6; i++) await ds.importData('ADD', `<${EX}c${i}> <${EX}p> <${EX}o> .`);
    for (const how of ['header', 'parameter'] as const) {
      const path = `/datastores/${store}/deltaqueries/live${how === 'parameter' ? `?last-event-id=${lastId}` : ''}`;
      const late = await subscribe(path, how === 'header' ? { 'last-event-id': String(lastId) } : {});
      try {
        const e = await nextEvent(late);
        expect(e.event).to.equal('answer');
        expect(e.data['missedFrom']).to.equal(lastId + 1);
        expect(bindingsOf(e.data, 'results').map((b) => b['s']!.value).sort()).to.deep.equal([`${EX}b`, ...Array.from({ length: 6 }, (_, i) => `${EX}c${i}`)]);
      } finally {
        late.close();
      }
    }
  });
});
