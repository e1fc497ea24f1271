/**
 * RDF 1.2 terms through the RDF/JS side of the API: quads whose object is a triple term (an
 * RDF/JS `Quad`, nested to any depth) and literals with a base direction are imported as the
 * text formats store them, and `match()` gives them back as RDF/JS terms.
 */
import { expect } from 'chai';
import { DataFactory as N3 } from 'n3';
import { DataFactory as ComunicaFactory } from 'rdf-data-factory';
import type * as RDF from '@rdfjs/types';
import { N_TRIPLES, type DataStoreConnection } from '../../lib/index.js';
import { nquadsOf, useServer } from '../helpers/server.js';
import { importFailure } from '../helpers/imports.js';

const EX = 'http://example.org/';
const REIFIES = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies';

function sample(f: RDF.DataFactory): RDF.Quad[] {
  const directional = f.literal('שלום', { language: 'HE', direction: 'rtl' });
  const inner = f.quad(f.blankNode('x'), f.namedNode(`${EX}says`), directional);
  const nested = f.quad(f.namedNode(`${EX}a`), f.namedNode(`${EX}b`), inner);
  return [f.quad(f.blankNode('r'), f.namedNode(REIFIES), nested), f.quad(f.blankNode('x'), f.namedNode(`${EX}label`), directional)];
}

describe('RDF/JS quads with RDF 1.2 terms', () => {
  const env = useServer('rdfjs-rdf12');
  let ds: DataStoreConnection;
  beforeEach(async () => {
    ds = await env.newStore();
  });

  for (const [name, factory] of [
    ['N3.js', N3 as RDF.DataFactory],
    ['rdf-data-factory (Comunica)', new ComunicaFactory() as RDF.DataFactory],
  ] as const) {
    it(`imports triple terms and directional literals made by ${name}, blank nodes inside triple terms scoped with the others`, async () => {
      const r = await ds.importData('ADD', sample(factory));
      expect(r.errors, r.text).to.equal(0);
      expect(r.changedFacts).to.equal(2);
      const lines = await nquadsOf(ds);
      expect(lines).to.have.length(2);
      const x = /^(_:\S+) <http:\/\/example.org\/label>/.exec(lines.find((l) => l.includes('label'))!)![1]!;
      expect(lines).to.include(`${x} <${EX}label> "שלום"@he--rtl .`);
      expect(lines.find((l) => l.includes(REIFIES))).to.match(new RegExp(`^_:\\S+ <${REIFIES}> <<\\( <${EX}a> <${EX}b> <<\\( ${x} <${EX}says> "שלום"@he--rtl \\)>> \\)>> \\.$`));
    });
  }

  it('stores the same terms as the N-Triples path', async () => {
    await ds.importData('ADD', `<${EX}s> <${EX}p> <<( <${EX}a> <${EX}b> <<( <${EX}c> <${EX}d> "e"@en--ltr )>> )>> .\n`, { mediaType: N_TRIPLES });
    const f: RDF.DataFactory = N3;
    const inner = f.quad(f.namedNode(`${EX}c`), f.namedNode(`${EX}d`), f.literal('e', { language: 'EN', direction: 'ltr' }));
    const r = await ds.importData('ADD', [f.quad(f.namedNode(`${EX}s`), f.namedNode(`${EX}p`), f.quad(f.namedNode(`${EX}a`), f.namedNode(`${EX}b`), inner))]);
    expect(r.errors, r.text).to.equal(0);
    expect(r.changedFacts, 'the same fact: nothing new').to.equal(0);
  });

  it('gives triple terms and directions back from match()', async () => {
    await ds.importData('ADD', sample(N3));
    const objects: RDF.Term[] = [];
    for await (const q of ds.match(null, N3.namedNode(REIFIES))) objects.push((q).object);
    expect(objects).to.have.length(1);
    const nested = objects[0] as RDF.Quad;
    expect(nested.termType).to.equal('Quad');
    expect(nested.subject.equals(N3.namedNode(`${EX}a`))).to.equal(true);
    const inner = nested.object as RDF.Quad;
    expect(inner.termType).to.equal('Quad');
    expect(inner.subject.termType).to.equal('BlankNode');
    const literal = inner.object as RDF.Literal & { direction?: string };
    expect([literal.value, literal.language, literal.direction]).to.deep.equal(['שלום', 'he', 'rtl']);
  });

  it('refuses a triple term where RDF 1.2 has none, and a bad base direction, changing nothing', async () => {
    const f: RDF.DataFactory = N3;
    const t = f.quad(f.namedNode(`${EX}a`), f.namedNode(`${EX}b`), f.namedNode(`${EX}c`));
    const cases: Array<readonly [RDF.Quad, RegExp]> = [
      [f.quad(t, f.namedNode(`${EX}p`), f.namedNode(`${EX}o`)), /a triple term cannot be the subject/],
      [f.quad(f.namedNode(`${EX}s`), f.namedNode(`${EX}p`), f.quad(f.literal('x') as unknown as RDF.Quad_Subject, f.namedNode(`${EX}b`), f.namedNode(`${EX}c`))), /the subject of a triple term must be an IRI or a blank node/],
      [f.quad(f.namedNode(`${EX}s`), f.namedNode(`${EX}p`), f.quad(f.namedNode(`${EX}a`), f.namedNode(`${EX}b`), f.namedNode(`${EX}c`), f.namedNode(`${EX}g`))), /a triple term cannot have a graph/],
      [f.quad(f.namedNode(`${EX}s`), f.namedNode(`${EX}p`), f.literal('x', { language: 'en', direction: 'up' as 'ltr' })), /base direction must be 'ltr' or 'rtl'/],
    ];
    for (const [quad, message] of cases) {
      const r = await importFailure(ds.importData('ADD', [quad]));
      expect(r.text).to.match(message);
    }
    expect(await nquadsOf(ds)).to.deep.equal([]);
  });
});
