/**
 * CONSTRUCT and DESCRIBE stream their triples like SELECT rows: written while the WHERE clause
 * is still being evaluated, paused while the writer is not ready (backpressure), stopped by the
 * time limit and by interrupts, and holding only the keys of the triples sent (to remove
 * duplicates) against the memory budget, where a collected answer holds every triple.
 */
import { expect } from 'chai';
import { type DataStoreConnection, InterruptedError, MemoryLimitError } from '../../lib/index.js';
import { bigNTriples, expectError, useServer } from '../helpers/server.js';

const P = 'http://example.com/big/p';
const Q = 'http://example.com/q';
/** Subjects in the store: the pairs below are N² solutions. */
const N = 450;
/** N² = 202,500 solutions, each giving one distinct triple. */
const PAIRS = `?a <${P}> ?b . ?c <${P}> ?d`;
const BIG = `CONSTRUCT { ?a <${Q}> ?c } WHERE { ${PAIRS} }`;

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The number of line feeds in a chunk of N-Triples text or bytes. */
function lineCount(chunk: string | Uint8Array): number {
  let n = 0;
  if (typeof chunk === 'string') {
    for (let i = chunk.indexOf('\n'); i >= 0; i = chunk.indexOf('\n', i + 1)) n++;
  } else {
    for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) n++;
  }
  return n;
}

describe('sparql: CONSTRUCT and DESCRIBE stream their triples', () => {
  const env = useServer('construct-streaming');
  let ds: DataStoreConnection;

  before(async () => {
    ds = await env.newStore();
    expect((await ds.importData('ADD', bigNTriples(N))).errors).to.equal(0);
  });

  for (const how of ['evaluateQueryTo', 'evaluateQueryToBytes'] as const) {
    it(`${how}: the first triples are written while the WHERE clause runs, and it waits for a writer that is not ready`, async () => {
      let release!: () => void;
      const notReady = new Promise<void>((resolve) => (release = resolve));
      let firstArrived!: () => void;
      const first = new Promise<void>((resolve) => (firstArrived = resolve));
      let chunks = 0;
      let lines = 0;
      let resolved = false;
      const write = (chunk: string | Uint8Array): Promise<void> | undefined => {
        chunks++;
        lines += lineCount(chunk);
        if (chunks > 1) return undefined;
        // the first chunk is not taken until the test says so
        firstArrived();
        return notReady;
      };
      const running = (how === 'evaluateQueryTo' ? ds.evaluateQueryTo(BIG, 'application/n-triples', write) : ds.evaluateQueryToBytes(BIG, 'application/n-triples', write)).then((n) => {
        resolved = true;
        return n;
      });
      await first;
      // time for the evaluation to reach its next pause (at most 256 steps of its scan)
      await delay(50);
      const atPause = lines;
      // some triples out, far from all, and the evaluation stopped for the writer
      expect(resolved).to.equal(false);
      expect(atPause).to.be.greaterThan(0);
      expect(atPause).to.be.lessThan(N * N / 10);
      await delay(50);
      expect(lines).to.equal(atPause);
      release();
      expect(await running).to.equal(N * N);
      expect(lines).to.equal(N * N);
      expect(chunks).to.be.greaterThan(how === 'evaluateQueryTo' ? N * N - 1 : 100);
    });
  }

  it('over a writer that drains each chunk a turn later, few chunks are ever waiting (the evaluation keeps pace with it)', async () => {
    let outstanding = 0;
    let mostOutstanding = 0;
    let chunks = 0;
    let bytes = 0;
    const count = await ds.evaluateQueryToBytes(BIG, 'application/n-triples', (chunk) => {
      chunks++;
      bytes += chunk.length;
      outstanding++;
      mostOutstanding = Math.max(mostOutstanding, outstanding);
      // like a socket's write: drained once the event loop has turned
      return new Promise<void>((resolve) =>
        setImmediate(() => {
          outstanding--;
          resolve();
        }),
      );
    });
    expect(count).to.equal(N * N);
    // 64 KiB chunks of the whole answer; collected whole, every chunk would be waiting at once.
    // The evaluation waits every 256 steps of its scan (of up to 16 rows each): about 290 KB
    expect(chunks).to.be.at.least(Math.floor(bytes / 65536));
    expect(chunks).to.be.greaterThan(50);
    expect(mostOutstanding).to.be.at.most(8);
  });

  it('an interrupt from the writer, after the first chunk, stops the evaluation (it was still running)', async () => {
    let lines = 0;
    let interrupted = false;
    await expectError(
      ds.evaluateQueryToBytes(BIG, 'application/n-triples', (chunk) => {
        lines += lineCount(chunk);
        if (!interrupted) {
          interrupted = true;
          ds.interrupt();
        }
      }),
      InterruptedError,
    );
    expect(lines).to.be.greaterThan(0);
    expect(lines).to.be.lessThan(N * N);
    // the connection serves the next call
    expect(await ds.evaluateQuery('ASK { ?s ?p ?o }')).to.deep.equal({ type: 'boolean', value: true });
  });

  it('the time limit stops a streamed CONSTRUCT (time waiting for the writer does not count)', async () => {
    const endless = `CONSTRUCT { ?a <${Q}> ?f } WHERE { ${PAIRS} . ?f <${P}> ?g }`;
    let lines = 0;
    const e = await expectError(
      ds.evaluateQueryTo(endless, 'application/n-triples', (chunk) => void (lines += lineCount(chunk)), { timeLimitMs: 300 }),
      InterruptedError,
    );
    expect(e.message).to.match(/time limit/);
    expect(lines).to.be.greaterThan(0);
    // a writer that keeps the query waiting far longer than its time limit
    let first = true;
    const slow = await ds.evaluateQueryTo(`CONSTRUCT { ?a <${Q}> ?b } WHERE { ?a <${P}> ?b }`, 'application/n-triples', () => {
      if (!first) return undefined;
      first = false;
      return delay(900);
    }, { timeLimitMs: 600 });
    expect(slow).to.equal(N);
  });

  it('holds only the keys of the triples sent: an answer too big for the limit collected streams within it', async () => {
    // 202,500 triples: about 14 MB of keys, about 70 MB as collected triples (estimates)
    const limit = { memoryLimitBytes: 30_000_000 };
    expect(await ds.evaluateQueryToBytes(BIG, 'application/n-triples', () => undefined, limit)).to.equal(N * N);
    const e = await expectError(ds.evaluateQuery(BIG, limit), MemoryLimitError);
    expect(e.message).to.match(/CONSTRUCT/);
  });

  it('sends each triple once, holding keys only of triples that can repeat', async () => {
    // 202,500 solutions, 450 distinct triples
    let lines = 0;
    const repeating = `CONSTRUCT { ?a <${Q}> "k" } WHERE { ${PAIRS} }`;
    expect(await ds.evaluateQueryTo(repeating, 'application/n-triples', (chunk) => void (lines += lineCount(chunk)), { memoryLimitBytes: 100_000 })).to.equal(N);
    expect(lines).to.equal(N);
    // a template's blank node is new with each solution: its triples are never held
    const fresh = `CONSTRUCT { _:x <${Q}> ?a . _:x <${Q}> ?c } WHERE { ${PAIRS} }`;
    // (two triples per solution, one where ?a and ?c are the same)
    expect(await ds.evaluateQueryToBytes(fresh, 'application/n-triples', () => undefined, { memoryLimitBytes: 10_000 })).to.equal(2 * N * N - N);
    // … but two of its triples that coincide within one solution are one triple
    const twice = `CONSTRUCT { _:x <${Q}> ?a . _:x <${Q}> ?c } WHERE { ?a <${P}> ?b . BIND(?a AS ?c) }`;
    const text: string[] = [];
    expect(await ds.evaluateQueryTo(twice, 'application/n-triples', (chunk) => void text.push(chunk))).to.equal(N);
    expect(new Set(text.join('').trim().split('\n')).size).to.equal(N);
  });

  it('applies LIMIT and OFFSET to the solutions of the WHERE clause', async () => {
    const text: string[] = [];
    const n = await ds.evaluateQueryTo(`${BIG} ORDER BY ?a ?c OFFSET 10 LIMIT 1000`, 'application/n-triples', (chunk) => void text.push(chunk));
    expect(n).to.equal(1000);
    expect(text.join('').trim().split('\n')).to.have.length(1000);
    let none = 0;
    expect(await ds.evaluateQueryTo(`${BIG} LIMIT 0`, 'application/n-triples', () => void none++)).to.equal(0);
    expect(none).to.equal(0);
  });

  it('DESCRIBE writes each resource in turn and waits for a writer that is not ready', async () => {
    let release!: () => void;
    const notReady = new Promise<void>((resolve) => (release = resolve));
    let firstArrived!: () => void;
    const first = new Promise<void>((resolve) => (firstArrived = resolve));
    let lines = 0;
    let resolved = false;
    const running = ds
      .evaluateQueryTo(`DESCRIBE ?a WHERE { ?a <${P}> ?b }`, 'application/n-triples', (chunk) => {
        lines += lineCount(chunk);
        if (lines > 1) return undefined;
        firstArrived();
        return notReady;
      })
      .then((n) => {
        resolved = true;
        return n;
      });
    await first;
    await delay(50);
    expect(resolved).to.equal(false);
    const atPause = lines;
    expect(atPause).to.be.greaterThan(0);
    expect(atPause).to.be.lessThan(N);
    release();
    expect(await running).to.equal(N);
    expect(lines).to.equal(N);
  });

  it('DESCRIBE follows blank nodes and describes a node once, however often it is reached', async () => {
    const small = await env.newStore();
    const EX = 'http://example.com/';
    await small.importData(
      'ADD',
      `<${EX}a> <${EX}p> _:b1 . _:b1 <${EX}q> _:b2 . _:b2 <${EX}r> "deep" . <${EX}c> <${EX}p> _:b1 . <${EX}a> <${EX}s> "x" .`,
    );
    const text: string[] = [];
    const n = await small.evaluateQueryTo(`DESCRIBE <${EX}a> <${EX}c>`, 'application/n-triples', (chunk) => void text.push(chunk));
    expect(n).to.equal(5);
    const lines = text.join('').trim().split('\n');
    expect(lines).to.have.length(5);
    expect(lines.filter((l) => l.includes('"deep"'))).to.have.length(1);
    const collected = await small.evaluateQuery(`DESCRIBE <${EX}a> <${EX}c>`);
    expect(collected.type === 'quads' && collected.quads.length).to.equal(5);
    small.close();
  });
});
