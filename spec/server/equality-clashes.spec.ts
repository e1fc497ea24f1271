/**
 * Clashes of equality reasoning (the `equality` parameter): an `owl:sameAs` between terms that
 * are `owl:differentFrom`, and between literals denoting different data values, make the terms
 * members of `owl:Nothing` in every equality mode, as RDFox reports contradictions.
 */
import { expect } from 'chai';
import type { DataStoreConnection } from '../../lib/index.js';
import { useServer } from '../helpers/server.js';

const PREFIXES = 'PREFIX : <http://example.com/> PREFIX owl: <http://www.w3.org/2002/07/owl#> PREFIX xsd: <http://www.w3.org/2001/XMLSchema#> ';

describe('server: equality clashes (owl:differentFrom, literals)', () => {
  const env = useServer('equality-clashes');

  async function nothing(ds: DataStoreConnection): Promise<string[]> {
    const a = await ds.evaluateQuery(`${PREFIXES} SELECT ?x WHERE { ?x a owl:Nothing }`);
    if (a.type !== 'bindings') throw new Error('expected bindings');
    return a.rows.map(([t]) => {
      if (t === undefined) return 'UNDEF';
      return t.termType === 'Literal' ? `"${t.value}"^^${t.datatype.value.replace('http://www.w3.org/2001/XMLSchema#', 'xsd:')}` : t.value.replace('http://example.com/', ':');
    }).sort();
  }

  for (const mode of ['noUNA', 'UNA']) {
    it(`${mode}: a derived owl:sameAs between individuals that are owl:differentFrom makes both members of owl:Nothing (RDFox's manual)`, async () => {
      const ds = await env.newStore(undefined, undefined, { equality: mode });
      await ds.importData('ADD', '@prefix : <http://example.com/> . [?y, owl:sameAs, ?z] :- [?x, :hasMother, ?y], [?x, :hasMother, ?z] .');
      const r = await ds.importData('ADD', `@prefix : <http://example.com/> .
        :irene_curie :hasMother _:marie_curie .
        :irene_curie :hasMother _:eve_curie .
        _:marie_curie owl:differentFrom _:eve_curie .
        _:marie_curie :name "Marie" . _:eve_curie :name "Eve" .`);
      expect(r.errors, r.text).to.equal(0);
      const a = await ds.evaluateQuery(`${PREFIXES} SELECT ?n WHERE { ?x a owl:Nothing ; :name ?n }`);
      if (a.type !== 'bindings') throw new Error('expected bindings');
      expect([...new Set(a.rows.map(([n]) => n!.value))].sort()).to.deep.equal(['Eve', 'Marie']);
    });

    it(`${mode}: the clash goes when the owl:differentFrom is deleted`, async () => {
      const ds = await env.newStore(undefined, undefined, { equality: mode });
      await ds.importData('ADD', '@prefix : <http://example.com/> . _:a owl:sameAs _:b . _:a owl:differentFrom _:b . _:a :p :v .');
      expect(await ds.evaluateQuery(`${PREFIXES} ASK { ?x a owl:Nothing ; :p :v }`)).to.deep.include({ type: 'boolean', value: true });
      await ds.evaluateUpdate(`${PREFIXES} DELETE WHERE { ?a owl:differentFrom ?b }`);
      expect(await ds.evaluateQuery(`${PREFIXES} ASK { ?x a owl:Nothing }`)).to.deep.include({ type: 'boolean', value: false });
    });

    it(`${mode}: an owl:sameAs derived between two literals with different values is a contradiction; equal values are not`, async () => {
      const ds = await env.newStore(undefined, undefined, { equality: mode });
      await ds.importData('ADD', '@prefix : <http://example.com/> . [?y, owl:sameAs, ?z] :- [?x, :age, ?y], [?x, :age, ?z] .');
      const r = await ds.importData('ADD', `@prefix : <http://example.com/> .
        _:ann :age 30 , 31 .
        _:bob :age 40 , "040"^^xsd:integer , 40.0 .
        _:cid :age "0.0"^^xsd:float , "-0.0"^^xsd:float .
        _:dan :age "NaN"^^xsd:double .
        _:eve :age "1"^^xsd:float , "1"^^xsd:double .`);
      expect(r.errors, r.text).to.equal(0);
      expect(await nothing(ds)).to.deep.equal(['"-0.0"^^xsd:float', '"0.0"^^xsd:float', '"1"^^xsd:double', '"1"^^xsd:float', '"30"^^xsd:integer', '"31"^^xsd:integer']);
    });
  }

  it('off: owl:sameAs is an ordinary property, and nothing clashes', async () => {
    const ds = await env.newStore();
    await ds.importData('ADD', '@prefix : <http://example.com/> . :a owl:sameAs :b . :a owl:differentFrom :b .');
    await ds.importData('ADD', '@prefix : <http://example.com/> . [?y, owl:sameAs, ?z] :- [?x, :age, ?y], [?x, :age, ?z] .');
    await ds.importData('ADD', '@prefix : <http://example.com/> . :ann :age 30, 31 .');
    expect(await nothing(ds)).to.deep.equal([]);
  });
});
