/**
 * Data values in OWL 2 RL's clash rules: two literals where at most one value is allowed
 * (functional data properties, maximum cardinality 1) clash when they denote different values
 * in OWL 2's value spaces, which is not SPARQL's `=`: `+0` and `-0` are different xsd:float
 * (xsd:double) values, NaN is the same value as itself, xsd:float and xsd:double values differ
 * from each other and from the numbers of owl:real, and `1` and `1.0` (xsd:integer,
 * xsd:decimal) are one number.
 */
import { expect } from 'chai';
import type { DataStoreConnection } from '../../lib/index.js';
import { useServer } from '../helpers/server.js';
import { TTL_PREFIXES } from './helpers.js';

describe('owl/data values: value identity in clash rules', function () {
  this.timeout(30_000);
  const env = useServer('owl-data-values');

  /** A store with an ontology read from triples and data; whether it holds an owl:Nothing member. */
  async function inconsistent(ontology: string, data: string): Promise<boolean> {
    const ds: DataStoreConnection = await env.newStore();
    const r = await ds.importData('ADD', TTL_PREFIXES + ontology + '\n' + data);
    expect(r.errors, r.text).to.equal(0);
    const a = await ds.importAxiomsFromTriples();
    expect(a.errors, a.text).to.equal(0);
    const answer = await ds.evaluateQuery('ASK { ?x a <http://www.w3.org/2002/07/owl#Nothing> }');
    if (answer.type !== 'boolean') throw new Error('expected a boolean');
    return answer.value;
  }

  const functional = ':p a owl:DatatypeProperty , owl:FunctionalProperty .';
  const cases: Array<[string, string, boolean]> = [
    ['"0.0"^^xsd:float and "-0.0"^^xsd:float', '"0.0"^^xsd:float , "-0.0"^^xsd:float', true],
    ['"0"^^xsd:double and "-0"^^xsd:double', '"0"^^xsd:double , "-0"^^xsd:double', true],
    ['one NaN (xsd:float)', '"NaN"^^xsd:float', false],
    ['one NaN (xsd:double)', '"NaN"^^xsd:double', false],
    ['"1"^^xsd:float and "1.0"^^xsd:float', '"1"^^xsd:float , "1.0"^^xsd:float', false],
    ['"1"^^xsd:float and "1"^^xsd:double', '"1"^^xsd:float , "1"^^xsd:double', true],
    ['"1"^^xsd:float and 1', '"1"^^xsd:float , 1', true],
    ['1 and 1.0 (owl:real)', '1 , 1.0 , "01"^^xsd:int', false],
    ['"-0"^^xsd:integer and 0', '"-0"^^xsd:integer , 0', false],
    ['two strings', '"a" , "b"', true],
    ['a string and a number', '"1" , 1', true],
  ];
  for (const [what, values, clash] of cases) {
    it(`functional data property, ${what}: ${clash ? 'a clash' : 'no clash'}`, async () => {
      expect(await inconsistent(functional, `:x :p ${values} .`)).to.equal(clash);
    });
  }

  it('maximum cardinality 1 and maximum qualified cardinality 1 on data values compare values the same way', async () => {
    const max = ':C rdfs:subClassOf [ a owl:Restriction ; owl:onProperty :p ; owl:maxCardinality 1 ] . :p a owl:DatatypeProperty .';
    expect(await inconsistent(max, ':x a :C ; :p "0.0"^^xsd:float , "-0.0"^^xsd:float .')).to.equal(true);
    expect(await inconsistent(max, ':x a :C ; :p "NaN"^^xsd:float .')).to.equal(false);
    const qcr = ':C rdfs:subClassOf [ a owl:Restriction ; owl:onProperty :p ; owl:maxQualifiedCardinality 1 ; owl:onDataRange xsd:double ] .';
    expect(await inconsistent(qcr, ':x a :C ; :p "0"^^xsd:double , "-0"^^xsd:double .')).to.equal(true);
    expect(await inconsistent(qcr, ':x a :C ; :p "NaN"^^xsd:double , "NaN"^^xsd:double .')).to.equal(false);
  });
});
