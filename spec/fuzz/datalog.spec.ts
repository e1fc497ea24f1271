/**
 * Fuzzing the Datalog parser, the safety and stratification checks and the rule compiler
 * through `importData(…, { mediaType: 'application/x.datalog' })`: rule documents written for
 * this spec (every construct of the language: atoms of each shape, NOT, AGGREGATE, BIND,
 * FILTER, named graphs, prefixes) and Turtle files of the W3C suite (spliced in, they bring
 * literals, IRIs and escapes of every kind), mutated. Every import succeeds or fails with a
 * documented error naming a line, and a failed import changes nothing: facts, rules, prefixes.
 * @module
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { ImportError, ParsingError } from '../../lib/index.js';
import { corpus, type CorpusFile, describeInput, expectDocumentedError, fuzzInput, fuzzParameters, HANG_BOUND_MS, snapshot, Tally, withinBound, useFuzzStores } from './helpers.js';

/** Rule documents covering the language (the seed corpus of this spec). */
const RULES: readonly CorpusFile[] = [
  `@prefix : <http://example.com/> .
[?x, :ancestorOf, ?y] :- [?x, :parentOf, ?y] .
[?x, :ancestorOf, ?z] :- [?x, :ancestorOf, ?y], [?y, :parentOf, ?z] .`,
  `PREFIX : <http://example.com/>
:Adult[?p] :- :Person[?p], :age[?p, ?a], FILTER(?a >= 18 && ?a < 200) .
[?p, :label, ?l] :- :name[?p, ?n], BIND(CONCAT(UCASE(?n), "-", STR(?p)) AS ?l) .`,
  `@prefix : <http://example.com/> .
[?x, :contractorFor, ?y] :- [?x, :worksFor, ?y], NOT [?x, :employeeOf, ?y] .
[?x, :lonely, true] :- :Person[?x], NOT EXISTS ?y IN ([?x, :knows, ?y], [?y, :knows, ?x]) .`,
  `@prefix : <http://example.com/> .
[:census, :maxAge, ?m], [:census, :count, ?c] :-
  AGGREGATE(:Person[?p], :age[?p, ?a] BIND MAX(?a) AS ?m BIND COUNT(?p) AS ?c) .
[?d, :headcount, ?n] :- AGGREGATE([?p, :dept, ?d] ON ?d BIND COUNT(DISTINCT ?p) AS ?n) .`,
  `@prefix : <http://example.com/> .
[?s, :inGraph, ?g] :- [?s, :p, ?o] ?g .
[?s, :copied, ?o] :g2 :- [?s, :p, ?o] :g1 .
[:a, :p, :b] . :p[:b, "literal"@en] . [:c, :p, "1"^^<http://www.w3.org/2001/XMLSchema#integer>] :g1 .`,
  `@prefix : <http://example.com/> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
[?x, :doubled, ?y] :- [?x, :value, ?v], BIND(?v * 2 AS ?y), FILTER(isNumeric(?v) || REGEX(STR(?v), "^[0-9]+$", "i")) .
[?x, :cast, ?y] :- [?x, :value, ?v], BIND(xsd:decimal(?v) AS ?y) .
[?x, :when, ?d] :- [?x, :at, ?t], BIND(YEAR(?t) AS ?d), FILTER(?d > 2000) .`,
  `@prefix : <http://example.com/> .
[?x, :sym, ?y] :- [?y, :sym, ?x] .
[?x, a, :Thing] :- [?x, ?p, ?y], FILTER(?p != :sym) .
[?x, :id, ?i] :- :Thing[?x], BIND(IRI(CONCAT(STR(?x), "#id")) AS ?i) .`,
  `[?x, <http://example.com/p>, "a \\"quoted\\" string"] :- [?x, <http://example.com/q>, ?y], FILTER(STRLEN(?y) > 3 || LANG(?y) = "en") .
[<http://example.com/a>, <http://example.com/q>, "hello"] .`,
].map((text, i) => ({ name: `rules-${i + 1}.dlog`, text }));

describe('fuzz: Datalog imports (mutated rule documents)', function () {
  this.timeout(120_000);
  const fuzz = useFuzzStores(async (ds) => {
    await ds.setPrefix('ex:', 'http://example.com/');
    await ds.importData('ADD', '<http://example.com/a> <http://example.com/parentOf> <http://example.com/b> .\n<http://example.com/b> <http://example.com/parentOf> <http://example.com/c> .', { mediaType: 'application/n-triples' });
    await ds.importData('ADD', RULES[0]!.text, { mediaType: 'application/x.datalog' });
  });

  it('the seed documents are valid (the mutations start from accepted input)', async () => {
    for (const file of RULES) {
      await fuzz.ds.importData('ADD', file.text, { mediaType: 'application/x.datalog' });
      await fuzz.fresh();
    }
  });

  it('a mutated rule document is imported or refused with a position, and a refusal changes nothing', async () => {
    const files: CorpusFile[] = [...RULES, ...RULES, ...corpus('rdf/rdf11/rdf-turtle', ['.ttl']).slice(0, 40)];
    const tally = new Tally();
    await fc.assert(
      fc.asyncProperty(fuzzInput(files), fc.constantFrom('ADD' as const, 'DELETE' as const), async (input, type) => {
        const context = `${type}; ${describeInput(input)}`;
        try {
          await withinBound(fuzz.ds.importData(type, input.text, { mediaType: 'application/x.datalog' }), HANG_BOUND_MS, context);
        } catch (failure) {
          const e = expectDocumentedError(failure, (err) => err instanceof ImportError || err instanceof ParsingError, context);
          tally.add(e.name);
          expect(await snapshot(fuzz.ds), `the store changed after a failed import; ${context}`).to.deep.equal(fuzz.base);
          return;
        }
        tally.add(`accepted ${type}`);
        if (JSON.stringify(await snapshot(fuzz.ds)) !== JSON.stringify(fuzz.base)) await fuzz.fresh();
      }),
      fuzzParameters(300),
    );
    tally.report('datalog');
  });
});
