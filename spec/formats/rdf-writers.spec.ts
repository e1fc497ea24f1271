import { expect } from 'chai';
import { Parser } from 'n3';
import { createRequire } from 'node:module';
import type * as RDF from '@rdfjs/types';
import { N_QUADS, N_TRIPLES, type DataStoreConnection } from '../../lib/index.js';
import { isomorphic } from '../helpers/isomorphism.js';
import { useServer } from '../helpers/server.js';

/** What the spec uses of oxigraph (its declarations do not type-check under this project's settings, so it is loaded untyped). */
interface OxigraphStore {
  load(text: string, options: { readonly format: string; readonly base_iri: string }): void;
  match(): RDF.Quad[];
}
const oxigraph = createRequire(import.meta.url)('oxigraph') as { readonly Store: new () => OxigraphStore };

const JSON_LD = 'application/ld+json';
const RDF_XML = 'application/rdf+xml';

/** Data with every kind of term, awkward characters, types, lists of values and named graphs. */
const DATA = `
@prefix ex: <http://example.org/> .
@prefix other: <http://other.example/ns#> .
ex:alice a ex:Person, other:Agent ;
  ex:name "Alice", "Alicia"@es, "Ālis"@en-GB ;
  ex:age 42 ;
  ex:ratio 0.5 ;
  ex:ok true ;
  ex:note "line one\\nline two\\r\\n <tag> & \\"quotes\\" \\t tab" ;
  ex:knows ex:bob, _:someone ;
  <http://no-prefix.example/path/p> <http://no-prefix.example/o> ;
  <http://example.org/a#b/c> "slashes and hashes" ;
  ex:type "a literal under rdf:type's neighbour" .
_:someone ex:name "Someone"^^<http://www.w3.org/2001/XMLSchema#token> ;
  <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> "not a class" .
<urn:isbn:0451450523> other:title "The Last Unicorn" .
ex:g1 { ex:a ex:p ex:b . ex:a ex:p "in g1" . }
ex:g2 { _:x ex:p ex:c . }
ex:g1 { ex:c ex:p ex:d . }
`;

describe('JSON-LD and RDF/XML export', () => {
  const env = useServer('rdf-writers');
  const store = (): Promise<DataStoreConnection> => env.newStore();
  async function loaded(): Promise<DataStoreConnection> {
    const ds = await store();
    const r = await ds.importData('ADDITION_UPDATE_PREFIXES', DATA, { mediaType: 'application/trig' });
    expect(r.errors, r.text).to.equal(0);
    return ds;
  }
  const quadsOf = (text: string, format: 'N-Quads' | 'N-Triples') => new Parser({ format }).parse(text);

  describe('JSON-LD', () => {
    it('round-trips every statement, named graphs included, through quadlog and through oxigraph', async () => {
      const ds = await loaded();
      const original = quadsOf(await ds.exportDataToString(N_QUADS), 'N-Quads');
      const jsonld = await ds.exportDataToString(JSON_LD);
      const document = JSON.parse(jsonld) as { '@context': Record<string, string>; '@graph': unknown[] };
      expect(document['@context']).to.include({ ex: 'http://example.org/', other: 'http://other.example/ns#' });
      expect(jsonld).to.contain('"@id": "ex:alice"').and.contain('"@type": [');
      const again = await store();
      const r = await again.importData('ADD', jsonld, { mediaType: JSON_LD });
      expect(r.errors, r.text).to.equal(0);
      const back = quadsOf(await again.exportDataToString(N_QUADS), 'N-Quads');
      expect(isomorphic(back, original), 'read back by quadlog').to.equal(true);
      const store2 = new oxigraph.Store();
      store2.load(jsonld, { format: JSON_LD, base_iri: 'http://base.example/' });
      expect(isomorphic(store2.match(), original), 'read back by oxigraph').to.equal(true);
    });

    it('writes an empty store as a document with no nodes', async () => {
      const ds = await store();
      const document = JSON.parse(await ds.exportDataToString(JSON_LD)) as { '@graph': unknown[] };
      expect(document['@graph']).to.deep.equal([]);
    });
  });

  describe('RDF/XML', () => {
    it('round-trips the default graph through quadlog and through oxigraph, leaving named graphs out as Turtle does', async () => {
      const ds = await loaded();
      const turtle = quadsOf(await ds.exportDataToString(N_TRIPLES), 'N-Triples');
      const xml = await ds.exportDataToString(RDF_XML);
      expect(xml).to.match(/^<\?xml version="1.0" encoding="utf-8"\?>\n<rdf:RDF xmlns:rdf=/);
      expect(xml).to.contain('xmlns:ex="http://example.org/"').and.contain('<ex:name xml:lang="es">Alicia</ex:name>');
      expect(xml).to.not.contain('in g1');
      const again = await store();
      const r = await again.importData('ADD', xml, { mediaType: RDF_XML });
      expect(r.errors, r.text).to.equal(0);
      const back = quadsOf(await again.exportDataToString(N_QUADS), 'N-Quads');
      expect(isomorphic(back, turtle), 'read back by quadlog').to.equal(true);
      const store2 = new oxigraph.Store();
      store2.load(xml, { format: RDF_XML, base_iri: 'http://base.example/' });
      expect(isomorphic(store2.match(), turtle), 'read back by oxigraph').to.equal(true);
    });

    it('refuses a predicate that does not end in an XML name, and a literal XML cannot hold', async () => {
      const ds = await store();
      await ds.importData('ADD', '<http://x/s> <http://x/p/1> "v" .\n', { mediaType: N_TRIPLES });
      await expectRejection(ds.exportDataToString(RDF_XML), /cannot write the predicate <http:\/\/x\/p\/1>: it does not end in an XML name/);
      const control = await store();
      await control.importData('ADD', '<http://x/s> <http://x/p> "bell \\u0007" .\n', { mediaType: N_TRIPLES });
      await expectRejection(control.exportDataToString(RDF_XML), /control character that XML 1.0 cannot represent/);
    });

    it('writes JSON-LD with a context given by the caller, and refuses a context that is not a JSON object or for another format', async () => {
      const ds = await store();
      await ds.importData('ADD', '<http://x.example/ns#a> <http://x.example/ns#p> <http://x.example/ns#b> .\n', { mediaType: N_TRIPLES });
      const context = { x: 'http://x.example/ns#' };
      const json = JSON.parse(await ds.exportDataToString(JSON_LD, { context: JSON.stringify(context) })) as { '@context': unknown; '@graph': Array<Record<string, unknown>> };
      expect(json['@context']).to.deep.equal(context);
      expect(json['@graph']).to.deep.equal([{ '@id': 'x:a', 'x:p': [{ '@id': 'x:b' }] }]);
      await expectRejection(ds.exportDataToString(JSON_LD, { context: '{"x": ' }), /parameter 'context' is not valid JSON/);
      await expectRejection(ds.exportDataToString(JSON_LD, { context: '"http://remote.example/context.jsonld"' }), /must be a JSON object of terms/);
      await expectRejection(ds.exportDataToString(N_TRIPLES, { context: '{}' }), /applies to JSON-LD exports only/);
    });

    it('writes blank node labels that are not XML names so that they stay distinct', async () => {
      const ds = await store();
      await ds.importData('ADD', '_:1a <http://x/p> _:x-1 .\n_:x-1 <http://x/p> _:b .\n', { mediaType: N_TRIPLES });
      const xml = await ds.exportDataToString(RDF_XML);
      const again = await store();
      await again.importData('ADD', xml, { mediaType: RDF_XML });
      expect(isomorphic(quadsOf(await again.exportDataToString(N_QUADS), 'N-Quads'), quadsOf(await ds.exportDataToString(N_QUADS), 'N-Quads'))).to.equal(true);
    });
  });
});

async function expectRejection(call: Promise<unknown>, message: RegExp): Promise<void> {
  try {
    await call;
  } catch (e) {
    expect((e as Error).message).to.match(message);
    return;
  }
  expect.fail('expected a rejection');
}
