/**
 * Fuzzing the RDF parsers through `importData`: files of the W3C N-Triples, N-Quads, Turtle and
 * TriG suites, mutated, imported with their media type or with none (detection), and random
 * bytes. Every import either succeeds or fails with `ImportError` naming a line (and column),
 * and a failed import leaves the store byte-for-byte as it was.
 * @module
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { ImportError, ParsingError } from '../../lib/index.js';
import { corpus, type CorpusFile, describeInput, expectDocumentedError, fuzzInput, fuzzParameters, HANG_BOUND_MS, snapshot, Tally, withinBound, useFuzzStores } from './helpers.js';

/** What every fuzzed store holds before an import: facts in both graphs, a rule, a prefix. */
const BASELINE = `@prefix ex: <http://example.com/> .
ex:a ex:p ex:b ; ex:q "literal"@en , 42 .
ex:b ex:p ex:c .
GRAPH ex:g { ex:a ex:r "in a graph" }`;
const BASELINE_RULE = '[?x, <http://example.com/reach>, ?y] :- [?x, <http://example.com/p>, ?y] .';

const SUITES: ReadonlyArray<{ readonly name: string; readonly dir: string; readonly ext: string; readonly mediaType: string }> = [
  { name: 'N-Triples', dir: 'rdf/rdf11/rdf-n-triples', ext: '.nt', mediaType: 'application/n-triples' },
  { name: 'N-Quads', dir: 'rdf/rdf11/rdf-n-quads', ext: '.nq', mediaType: 'application/n-quads' },
  { name: 'Turtle', dir: 'rdf/rdf11/rdf-turtle', ext: '.ttl', mediaType: 'text/turtle' },
  { name: 'TriG', dir: 'rdf/rdf11/rdf-trig', ext: '.trig', mediaType: 'application/trig' },
];

describe('fuzz: RDF imports (mutated W3C files)', function () {
  this.timeout(120_000);
  const fuzz = useFuzzStores(async (ds) => {
    await ds.setPrefix('ex:', 'http://example.com/');
    await ds.importData('ADD', BASELINE, { mediaType: 'application/trig' });
    await ds.importData('ADD', BASELINE_RULE, { mediaType: 'application/x.datalog' });
  });

  /** Imports one input; checks the error and that a failed import changed nothing. */
  async function importOne(input: { readonly source: string; readonly text: string | Uint8Array }, mediaType: string | undefined, tally: Tally): Promise<void> {
    const context = `${mediaType ?? 'detected'}; ${describeInput(input)}`;
    let failure: unknown;
    try {
      await withinBound(fuzz.ds.importData('ADD', input.text, mediaType !== undefined ? { mediaType } : {}), HANG_BOUND_MS, context);
    } catch (e) {
      failure = e;
    }
    if (failure === undefined) {
      tally.add('accepted');
      await fuzz.fresh();
      return;
    }
    // text errors name a line; a corrupt gzip stream has no text to point into
    const e = expectDocumentedError(failure, (err) => (err instanceof ImportError || err instanceof ParsingError) && !/gzip/.test(err.message), context);
    tally.add(e.name);
    expect(await snapshot(fuzz.ds), `the store changed after a failed import; ${context}`).to.deep.equal(fuzz.base);
  }

  for (const suite of SUITES) {
    it(`${suite.name}: a mutated file is imported or refused with a position, and a refusal changes nothing`, async function () {
      const files: CorpusFile[] = corpus(suite.dir, [suite.ext]);
      if (files.length === 0) this.skip();
      const tally = new Tally();
      await fc.assert(
        fc.asyncProperty(fuzzInput(files), fc.boolean(), async (input, declared) => {
          await importOne(input, declared ? suite.mediaType : undefined, tally);
        }),
        fuzzParameters(150),
      );
      tally.report(suite.name);
    });
  }

  it('a file of one format imported as another is refused cleanly', async function () {
    const files = SUITES.flatMap((s) => corpus(s.dir, [s.ext]));
    if (files.length === 0) this.skip();
    const tally = new Tally();
    await fc.assert(
      fc.asyncProperty(fuzzInput(files), fc.constantFrom(...SUITES.map((s) => s.mediaType), 'application/x.datalog'), async (input, mediaType) => {
        await importOne(input, mediaType, tally);
      }),
      fuzzParameters(100),
    );
    tally.report('cross-format');
  });

  it('gzip-looking and random bytes are refused cleanly', async () => {
    const tally = new Tally();
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.uint8Array({ maxLength: 300 }), fc.uint8Array({ maxLength: 300 }).map((b) => Uint8Array.from([0x1f, 0x8b, 0x08, ...b]))),
        async (bytes) => {
          await importOne({ source: 'random', text: bytes }, undefined, tally);
        },
      ),
      fuzzParameters(100),
    );
    tally.report('bytes');
  });
});
