import { expect } from 'chai';
import { BadRequestError, InterruptedError, InvalidConnectionError, TransactionError } from '../../lib/index.js';
import { bigNTriples, expectError, useServer } from '../helpers/server.js';

/** 27 million solutions: far too many to hold, quick to start. */
const HUGE = 'SELECT ?a ?c ?f WHERE { ?a <http://example.com/big/p> ?b . ?c <http://example.com/big/p> ?d . ?f <http://example.com/big/p> ?g }';

describe('api: queries run alongside the event loop and stream their answers', () => {
  const env = useServer('query-streaming');

  async function bigStore(n = 300) {
    const ds = await env.newStore();
    const r = await ds.importData('ADD', bigNTriples(n));
    expect(r.errors).to.equal(0);
    return ds;
  }

  it('lets other work run during a long query, and interrupt() stops it', async () => {
    const ds = await bigStore();
    // the query cannot end by itself (27 million solutions to count): it ends only when the
    // third tick of a timer interrupts it, so the timer must have run three times beside it
    let ticks = 0;
    const timer = setInterval(() => {
      if (++ticks === 3) ds.interrupt();
    }, 5);
    try {
      await expectError(ds.evaluateQuery(`SELECT (COUNT(*) AS ?n) WHERE { ${HUGE.slice(HUGE.indexOf('{') + 1, -1)} }`), InterruptedError);
    } finally {
      clearInterval(timer);
    }
    expect(ticks).to.be.at.least(3);
    // the connection serves the next call
    const a = await ds.evaluateQuery('ASK { ?s ?p ?o }');
    expect(a).to.deep.equal({ type: 'boolean', value: true });
  });

  it('interrupts a long property path closure', async () => {
    const ds = await env.newStore();
    const lines: string[] = [];
    for (let i = 0; i < 3000; i++) lines.push(`<http://example.com/n${i}> <http://example.com/next> <http://example.com/n${i + 1}> .`);
    await ds.importData('ADD', lines.join('\n'));
    // 4.5 million pairs to count: interrupted by the fourth tick of a timer running beside it
    let ticks = 0;
    const timer = setInterval(() => {
      if (++ticks === 4) ds.interrupt();
    }, 5);
    try {
      await expectError(ds.evaluateQuery('SELECT (COUNT(*) AS ?n) WHERE { ?x <http://example.com/next>* ?y }'), InterruptedError);
    } finally {
      clearInterval(timer);
    }
    expect(ticks).to.be.at.least(4);
  });

  it('produces iterator answers as they are read, and stops the query when the loop ends early', async () => {
    const ds = await bigStore();
    const seen: string[] = [];
    for await (const b of ds.evaluateQueryIterator(HUGE)) {
      seen.push(b.get('a')!.value);
      if (seen.length === 5) break;
    }
    expect(seen).to.have.length(5);
    // the connection was released when the loop ended
    expect(await ds.countFacts()).to.equal(300);
  });

  it('reads one snapshot from start to end while other connections commit changes', async () => {
    const ds = await bigStore(20_000);
    const other = env.track(ds.duplicate());
    const seen = new Set<string>();
    let changed = false;
    for await (const b of ds.evaluateQueryIterator('SELECT ?s ?o WHERE { ?s <http://example.com/big/p> ?o }')) {
      seen.add(b.get('s')!.value);
      if (!changed && seen.size === 10) {
        changed = true;
        // remove half of the facts and add new ones while the query is suspended
        const removed = await other.importData('DELETE', bigNTriples(10_000));
        expect(removed.changedFacts).to.equal(10_000);
        await other.importData('ADD', '<http://example.com/new> <http://example.com/big/p> "new" .');
      }
    }
    expect(changed).to.equal(true);
    expect(seen.size).to.equal(20_000);
    expect(seen.has('http://example.com/new')).to.equal(false);
    expect(await ds.countFacts()).to.equal(10_001);
  });

  it('reports a failing query through the iterator', async () => {
    const ds = await bigStore(10);
    const run = async (): Promise<void> => {
      for await (const b of ds.evaluateQueryIterator('SELECT ?x WHERE { ?x ?p }')) void b;
    };
    await expectError(run(), Error);
    await expectError(async () => {
      for await (const b of ds.evaluateQueryIterator('ASK { ?s ?p ?o }')) void b;
    }, Error);
  });

  it('pages through a huge answer with a cursor while the connection does other work', async () => {
    const ds = await bigStore();
    const cursor = ds.createCursor(HUGE);
    const first = await cursor.open(3);
    expect(first.rows).to.have.length(3);
    expect(first.variables).to.deep.equal(['a', 'c', 'f']);
    expect(first.more).to.equal(true);
    // the connection is free between pages
    expect(await ds.countFacts()).to.equal(300);
    const second = await cursor.advance(1000);
    expect(second.position).to.equal(3);
    expect(second.rows).to.have.length(1000);
    cursor.close();
    await expectError(cursor.advance(1), TransactionError);
  });

  it('stops a cursor\'s query when its connection closes', async () => {
    const ds = await bigStore();
    const own = env.track(ds.duplicate());
    const cursor = own.createCursor(HUGE);
    expect((await cursor.open(2)).rows).to.have.length(2);
    own.close();
    await expectError(cursor.advance(2), InvalidConnectionError);
  });

  it('gives ASK and CONSTRUCT answers through a cursor', async () => {
    const ds = await bigStore(4);
    const ask = ds.createCursor('ASK { ?s ?p ?o }');
    expect(await ask.open()).to.deep.include({ variables: [], rows: [[]], more: false });
    const construct = ds.createCursor('CONSTRUCT { ?s <http://example.com/q> ?o } WHERE { ?s ?p ?o }');
    const page = await construct.open(10);
    expect(page.variables).to.deep.equal(['subject', 'predicate', 'object']);
    expect(page.rows).to.have.length(4);
    expect(page.more).to.equal(false);
  });

  it('streams a CONSTRUCT through a cursor: the first page comes while the rest is not built yet', async () => {
    const ds = await bigStore();
    // 27 million distinct triples: a cursor that built them all before its first page would never answer
    const construct = ds.createCursor(`CONSTRUCT { ?a ?c ?f } WHERE { ${HUGE.slice(HUGE.indexOf('{') + 1, -1)} }`);
    const page = await construct.open(5);
    expect(page.variables).to.deep.equal(['subject', 'predicate', 'object']);
    expect(page.rows).to.have.length(5);
    expect(page.more).to.equal(true);
    expect((await construct.advance(5)).rows).to.have.length(5);
    construct.close();
  });

  it('refuses a CONSTRUCT through the iterator before evaluating its WHERE clause', async () => {
    const ds = await bigStore(4);
    // the WHERE clause would fail when evaluated: the refusal comes first
    const iterate = async (): Promise<void> => {
      for await (const _ of ds.evaluateQueryIterator('CONSTRUCT { ?s ?p ?o } WHERE { SERVICE <http://example.com/sparql> { ?s ?p ?o } }')) void _;
    };
    const e = await expectError(iterate(), BadRequestError);
    expect(e.message).to.match(/only SELECT queries give bindings \(this is a CONSTRUCT or DESCRIBE query\)/);
  });

  it('fails a suspended cursor cleanly when the store is compacted under it', async () => {
    const ds = await bigStore(5000);
    await ds.importData('DELETE', bigNTriples(10));
    const cursor = ds.createCursor('SELECT ?s WHERE { ?s ?p ?o }');
    await cursor.open(1);
    const other = env.track(ds.duplicate());
    await other.compact();
    const e = await expectError(cursor.advance(5000), TransactionError);
    expect(e.message).to.match(/compacted/);
  });

  it('pauses a streamed answer while the writer is not ready', async () => {
    const ds = await bigStore(5000);
    let chunks = 0;
    let pauses = 0;
    const n = await ds.evaluateQueryTo('SELECT ?s ?o WHERE { ?s ?p ?o }', 'text/csv', () => {
      chunks++;
      if (chunks % 1000 !== 0) return undefined;
      pauses++;
      return new Promise<void>((resolve) => setTimeout(resolve, 1));
    });
    expect(n).to.equal(5000);
    expect(pauses).to.equal(Math.floor(chunks / 1000));
  });
});
