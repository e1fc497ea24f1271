/**
 * Fuzzing the SPARQL parser and compiler through `evaluateQuery` and `evaluateUpdate`: queries
 * (`.rq`) and updates (`.ru`) of the W3C SPARQL 1.0 and 1.1 suites, mutated, and random text.
 * Every query answers or fails with a documented error (a syntax error names its line and
 * column); every update either applies or fails and leaves the store byte-for-byte as it was.
 * @module
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { type QuadlogError } from '../../lib/index.js';
import { corpus, describeInput, expectDocumentedError, fuzzInput, fuzzParameters, HANG_BOUND_MS, snapshot, Tally, withinBound, useFuzzStores } from './helpers.js';

const BASELINE = `@prefix : <http://example.org/> .
@prefix ex: <http://example.com/> .
:s :p :o , 1 , "two" , "3"^^<http://www.w3.org/2001/XMLSchema#integer> ; :q :s2 .
:s2 :p "x"@en ; :q :s .
ex:a ex:p ex:b .
GRAPH :g { :s :p :g1 . :g1 :p 2.5 }`;
const BASELINE_RULE = '[?x, <http://example.org/linked>, ?y] :- [?x, <http://example.org/q>, ?y] .';

/** A syntax error must say where; other compilation errors (an ungrouped variable, …) need not. */
const syntaxNeedsPosition = (e: QuadlogError): boolean => /syntax error|parse error|lexical error/i.test(e.message);

describe('fuzz: SPARQL queries and updates (mutated W3C files)', function () {
  this.timeout(120_000);
  const fuzz = useFuzzStores(async (ds) => {
    await ds.importData('ADD', BASELINE, { mediaType: 'application/trig' });
    await ds.importData('ADD', BASELINE_RULE, { mediaType: 'application/x.datalog' });
  });

  it('a mutated query answers or fails with a documented error', async function () {
    const files = [...corpus('sparql/sparql11', ['.rq']), ...corpus('sparql/sparql10', ['.rq'])];
    if (files.length === 0) this.skip();
    const tally = new Tally();
    await fc.assert(
      fc.asyncProperty(fuzzInput(files), async (input) => {
        const text = typeof input.text === 'string' ? input.text : Buffer.from(input.text).toString('latin1');
        const context = describeInput({ source: input.source, text });
        try {
          // the time limit ends runaway products of the tiny store; the bound catches a hang that ignores it
          const answer = await withinBound(fuzz.ds.evaluateQuery(text, { timeLimitMs: 5000 }), HANG_BOUND_MS, context);
          tally.add(`answered ${answer.type}`);
        } catch (failure) {
          const e = expectDocumentedError(failure, syntaxNeedsPosition, context);
          tally.add(e.name);
        }
        expect(await fuzz.ds.countFacts(), `a query changed the store; ${context}`).to.equal(fuzz.base.count);
      }),
      fuzzParameters(250),
    );
    tally.report('queries');
  });

  it('a mutated update applies or fails with a documented error, and a failure changes nothing', async function () {
    const files = [...corpus('sparql/sparql11', ['.ru']), ...corpus('sparql/sparql11', ['.rq'])];
    if (files.length === 0) this.skip();
    const updates = files.filter((f) => f.name.endsWith('.ru'));
    const tally = new Tally();
    await fc.assert(
      fc.asyncProperty(fc.oneof({ weight: 4, arbitrary: fuzzInput(updates) }, { weight: 1, arbitrary: fuzzInput(files) }), async (input) => {
        const text = typeof input.text === 'string' ? input.text : Buffer.from(input.text).toString('latin1');
        const context = describeInput({ source: input.source, text });
        try {
          await withinBound(fuzz.ds.evaluateUpdate(text), HANG_BOUND_MS, context);
        } catch (failure) {
          const e = expectDocumentedError(failure, syntaxNeedsPosition, context);
          tally.add(e.name);
          expect(await snapshot(fuzz.ds), `the store changed after a failed update; ${context}`).to.deep.equal(fuzz.base);
          return;
        }
        tally.add('applied');
        const after = await snapshot(fuzz.ds);
        if (JSON.stringify(after) !== JSON.stringify(fuzz.base)) await fuzz.fresh();
      }),
      fuzzParameters(200),
    );
    tally.report('updates');
  });

  it('a cursor page of any non-negative limit answers at most that many rows', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.nat(20), fc.constant(2 ** 40), fc.constant(Number.POSITIVE_INFINITY)), fc.nat(20), async (first, next) => {
        const cursor = fuzz.ds.createCursor('SELECT * WHERE { ?s ?p ?o }');
        try {
          const page = await cursor.open(first);
          expect(page.rows.length).to.be.at.most(first);
          const more = await cursor.advance(next);
          expect(more.rows.length).to.be.at.most(next);
        } finally {
          cursor.close();
        }
      }),
      fuzzParameters(30),
    );
  });

  // found by this spec: a bare RangeError before (lib/api/cursor.ts, page())
  it('a negative or NaN cursor limit is refused with a documented error', async () => {
    for (const limit of [-1, Number.NaN]) {
      const cursor = fuzz.ds.createCursor('SELECT * WHERE { ?s ?p ?o }');
      try {
        await cursor.open(limit);
        expect.fail(`open(${limit}) succeeded`);
      } catch (failure) {
        expectDocumentedError(failure, () => false, `open(${limit})`);
      } finally {
        cursor.close();
      }
    }
  });

  it('a failing update inside a transaction leaves the transaction usable and the store unchanged after rollback', async function () {
    const updates = corpus('sparql/sparql11', ['.ru']);
    if (updates.length === 0) this.skip();
    const tally = new Tally();
    await fc.assert(
      fc.asyncProperty(fuzzInput(updates), async (input) => {
        const text = typeof input.text === 'string' ? input.text : Buffer.from(input.text).toString('latin1');
        const context = describeInput({ source: input.source, text });
        await fuzz.ds.beginTransaction('read-write');
        try {
          await withinBound(fuzz.ds.evaluateUpdate(text), HANG_BOUND_MS, context);
          tally.add('applied');
        } catch (failure) {
          tally.add(expectDocumentedError(failure, syntaxNeedsPosition, context).name);
        } finally {
          await fuzz.ds.rollbackTransaction();
        }
        expect(await snapshot(fuzz.ds), `the store changed after a rollback; ${context}`).to.deep.equal(fuzz.base);
      }),
      fuzzParameters(80),
    );
    tally.report('updates in transactions');
  });
});
