/**
 * Axioms read from triples in a store that reasons with equality: the triples an axiom is read
 * from are the explicit ones, not the copies equality derives (which gave an RDF list node two
 * `rdf:first` values and the axiom was rejected as malformed).
 */
import { expect } from 'chai';
import { useServer } from '../helpers/server.js';

const PREFIXES = 'PREFIX : <http://example.com/> PREFIX owl: <http://www.w3.org/2002/07/owl#> ';

describe('server: importAxiomsFromTriples after owl:sameAs facts', () => {
  const env = useServer('axioms-after-equality');

  for (const mode of ['noUNA', 'UNA']) {
    it(`${mode}: reads owl:AllDifferent lists from explicit facts, and the axiom clashes with the equality`, async () => {
      const ds = await env.newStore(undefined, undefined, { equality: mode });
      const r = await ds.importData('ADD', `@prefix : <http://example.com/> .
        :a owl:sameAs :b .
        [] a owl:AllDifferent ; owl:members ( :a :c ) .
        :b owl:sameAs :c .`);
      expect(r.errors, r.text).to.equal(0);
      const a = await ds.importAxiomsFromTriples(undefined, false, undefined, 'ADD', { rejectOnError: false });
      expect(a.errors, a.text).to.equal(0);
      expect(a.text).not.to.match(/malformed|rdf:first/);
      expect((await ds.listAxioms()).map((x) => x.axiom).filter((x) => x.startsWith('DifferentIndividuals'))).to.deep.equal(['DifferentIndividuals(<http://example.com/a> <http://example.com/c>)']);
      const answer = await ds.evaluateQuery(`${PREFIXES} ASK { :a a owl:Nothing . :c a owl:Nothing }`);
      expect(answer).to.deep.include({ type: 'boolean', value: true });
    });
  }

  it('with assertions, derived facts are not made explicit', async () => {
    const ds = await env.newStore(undefined, undefined, { equality: 'noUNA' });
    await ds.importData('ADD', '@prefix : <http://example.com/> . :a owl:sameAs :b . :a :p :v .');
    const a = await ds.importAxiomsFromTriples(undefined, true);
    expect(a.errors, a.text).to.equal(0);
    await ds.importData('DELETE', '@prefix : <http://example.com/> . :a owl:sameAs :b .');
    const answer = await ds.evaluateQuery(`${PREFIXES} ASK { :b :p :v }`);
    expect(answer).to.deep.include({ type: 'boolean', value: false });
  });
});
