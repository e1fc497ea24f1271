/**
 * Deep nesting, as an attacker would send it: parenthesised expressions in SPARQL FILTERs and
 * Datalog rules, nested group patterns and property paths, Turtle collections and blank-node
 * property lists. Each is answered or refused with a documented error naming its position;
 * none overflows the stack (a RangeError) or holds the process for long.
 * @module
 */
import { expect } from 'chai';
import fc from 'fast-check';
import type { DataStoreConnection } from '../../lib/index.js';
import { useServer } from '../helpers/server.js';
import { expectDocumentedError, fuzzParameters, HANG_BOUND_MS, Tally, withinBound } from './helpers.js';

/** Queries get a time limit: what is tested is the parser, not how long a legal query may run. */
const LIMIT = { timeLimitMs: 5000 };

/** A nested input of a given depth, and how to send it. */
const SHAPES: ReadonlyArray<{ readonly name: string; readonly run: (ds: DataStoreConnection, depth: number) => Promise<unknown> }> = [
  { name: 'FILTER expression', run: (ds, n) => ds.evaluateQuery(`SELECT * WHERE { ?x ?p ?o FILTER(${'('.repeat(n)}?x${')'.repeat(n)} = 1) }`, LIMIT) },
  { name: 'unary operators', run: (ds, n) => ds.evaluateQuery(`ASK { ?x ?p ?o FILTER(${'!'.repeat(n)}BOUND(?x)) }`, LIMIT) },
  { name: 'group patterns', run: (ds, n) => ds.evaluateQuery(`SELECT * WHERE ${'{'.repeat(n)} ?x ?p ?o ${'}'.repeat(n)}`, LIMIT) },
  { name: 'property path', run: (ds, n) => ds.evaluateQuery(`SELECT * WHERE { ?x ${'('.repeat(n)}<http://example.com/p>${')*'.repeat(n)} ?o }`, LIMIT) },
  { name: 'update WHERE', run: (ds, n) => ds.evaluateUpdate(`DELETE { ?x ?p ?o } WHERE { ?x ?p ?o FILTER(${'('.repeat(n)}?x${')'.repeat(n)} = 1) }`) },
  { name: 'Datalog FILTER', run: (ds, n) => ds.importData('ADD', `[?x, <http://example.com/r>, ?o] :- [?x, <http://example.com/p>, ?o], FILTER(${'('.repeat(n)}?o${')'.repeat(n)} > 1) .`, { mediaType: 'application/x.datalog' }) },
  { name: 'Datalog BIND', run: (ds, n) => ds.importData('ADD', `[?x, <http://example.com/r>, ?y] :- [?x, <http://example.com/p>, ?o], BIND(${'-('.repeat(n)}?o${')'.repeat(n)} AS ?y) .`, { mediaType: 'application/x.datalog' }) },
  { name: 'Turtle collections', run: (ds, n) => ds.importData('ADD', `<http://example.com/a> <http://example.com/p> ${'('.repeat(n)}1${')'.repeat(n)} .`, { mediaType: 'text/turtle' }) },
  { name: 'Turtle blank nodes', run: (ds, n) => ds.importData('ADD', `<http://example.com/a> <http://example.com/p> ${'[ <http://example.com/p> '.repeat(n)}1${' ]'.repeat(n)} .`, { mediaType: 'text/turtle' }) },
];

describe('fuzz: deep nesting', function () {
  this.timeout(120_000);
  const env = useServer('fuzz-nesting');

  it('any depth up to 20,000 is answered or refused with a positioned error, never a stack overflow', async () => {
    const tally = new Tally();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...SHAPES), fc.oneof(fc.integer({ min: 1, max: 600 }), fc.integer({ min: 1, max: 20_000 })), async (shape, depth) => {
        const context = `${shape.name}, depth ${depth}`;
        if (process.env.QUADLOG_FUZZ_TRACE) console.log(`      ${context}`);
        // a fresh tiny store per input: what earlier inputs imported must not make this one slow
        const ds = await env.newStore();
        await ds.importData('ADD', '<http://example.com/a> <http://example.com/p> 2 .', { mediaType: 'text/turtle' });
        try {
          await withinBound(shape.run(ds, depth), HANG_BOUND_MS, context);
          tally.add(`${shape.name}: accepted`);
        } catch (failure) {
          const e = expectDocumentedError(failure, () => true, context);
          tally.add(`${shape.name}: ${e.name}`);
          expect(e.message, context).to.not.match(/call stack|Maximum/i);
        }
      }),
      fuzzParameters(20),
    );
    tally.report('nesting');
  });
});
