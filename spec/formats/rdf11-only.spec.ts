import { expect } from 'chai';
import { BadRequestError, open } from '../../lib/index.js';

describe('JSON-LD and RDF/XML export of RDF 1.2 terms', () => {
  const cases = [
    ['a triple term', '<http://e/r> <http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies> <<( <http://e/a> <http://e/b> <http://e/c> )>> .', /cannot write a triple term \(RDF 1\.2\)/],
    ['a literal with a base direction', '<http://e/a> <http://e/label> "salaam"@ar--rtl .', /cannot write a literal with a base direction \(RDF 1\.2\)/],
  ] as const;
  for (const [what, data, message] of cases) {
    it(`refuses ${what}, naming it and the formats that can write it, rather than writing it as something else`, async () => {
      await using store = await open();
      await store.importData('ADD', `${data}\n<http://e/x> <http://e/p> "plain"@en .`, { mediaType: 'application/n-triples' });
      for (const [format, name] of [['application/ld+json', 'JSON-LD'], ['application/rdf+xml', 'RDF/XML']] as const) {
        let failure: unknown;
        await store.exportDataToString(format).catch((e: unknown) => (failure = e));
        expect(failure, format).to.be.instanceOf(BadRequestError);
        expect(String(failure)).to.match(message).and.include(name).and.include('N-Triples, N-Quads, Turtle or TriG');
      }
      expect(await store.exportDataToString('application/n-triples')).to.include(data.split(' ')[2]!.slice(0, 3));
    });
  }
});
