/**
 * OWL 2 RL rules at work: ontologies translated to rules, loaded into a store with data, and
 * the facts the store derives (classification, property rules, owl:sameAs, contradictions as
 * owl:Nothing membership, data ranges, a destination graph, withdrawing an axiom's rules).
 */
import { expect } from 'chai';
import { Writer } from 'n3';
import type { DataStoreConnection } from '../../lib/index.js';
import type { AxiomTranslation } from '../../lib/owl/index.js';
import { useServer } from '../helpers/server.js';
import { datalogOf, EX, short, translate, TTL_PREFIXES } from './helpers.js';

const DATALOG = { mediaType: 'application/x.datalog' } as const;
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';

describe('owl/reasoning', function () {
  this.timeout(30_000);
  const env = useServer('owl-reasoning');

  /** Imports the rules of a translation, asserting there are no errors. */
  async function importRules(ds: DataStoreConnection, t: AxiomTranslation, update: 'ADD' | 'DELETE' = 'ADD'): Promise<void> {
    const r = await ds.importData(update, datalogOf(t), DATALOG);
    expect(r.errors, r.text).to.equal(0);
  }

  /** A store with the rules and the ABox assertions of a Turtle document (ontology and data). */
  async function storeOf(turtle: string, destinationGraph?: string): Promise<{ ds: DataStoreConnection; t: AxiomTranslation }> {
    const ds = await env.newStore();
    const t = translate(turtle, { assertions: true, ...(destinationGraph !== undefined ? { destinationGraph } : {}) });
    await importRules(ds, t);
    const nt = new Writer({ format: 'N-Triples' }).quadsToString([...t.assertions]);
    if (destinationGraph === undefined) {
      const r = await ds.importData('ADD', nt, { mediaType: 'application/n-triples' });
      expect(r.errors, r.text).to.equal(0);
    }
    return { ds, t };
  }

  /** The answers of a SELECT query (prefixes added) as sorted lines of short terms. */
  async function select(ds: DataStoreConnection, query: string): Promise<string[]> {
    const prefixes = TTL_PREFIXES.replace(/@prefix ([^ ]*) (<[^>]*>) \./g, 'PREFIX $1 $2');
    const answer = await ds.evaluateQuery(prefixes + query);
    if (answer.type !== 'bindings') throw new Error('expected bindings');
    return answer.rows.map((row) => row.map((t) => (t === undefined ? 'UNDEF' : t.termType === 'Literal' ? JSON.stringify(t.value) : short(`<${t.value}>`))).join(' ')).sort();
  }

  /** The members of a class. */
  function members(ds: DataStoreConnection, cls: string): Promise<string[]> {
    return select(ds, `SELECT ?x WHERE { ?x a ${cls} }`);
  }

  it('classifies individuals through definitions, unions, enumerations and nested restrictions', async () => {
    const { ds } = await storeOf(
      [
        ':Chair owl:intersectionOf (:Person [ a owl:Restriction ; owl:onProperty :headOf ; owl:someValuesFrom :Department ]) ; rdfs:subClassOf :Professor .',
        '[ owl:unionOf (:Student :Professor [ owl:oneOf (:guest) ]) ] rdfs:subClassOf :Member .',
        '[ owl:onProperty :advises ; owl:someValuesFrom [ owl:onProperty :takesCourse ; owl:someValuesFrom :Course ] ] rdfs:subClassOf :Tutor .',
        '[ owl:onProperty :status ; owl:hasValue :tenured ] rdfs:subClassOf :Tenured .',
        ':Tenured rdfs:subClassOf [ owl:onProperty :contract ; owl:hasValue :permanent ] .',
        ':Professor rdfs:subClassOf [ owl:intersectionOf (:Staff [ owl:onProperty :teaches ; owl:allValuesFrom :Course ]) ] .',
        ':p1 a :Person ; :headOf :d1 ; :teaches :c1 ; :status :tenured . :d1 a :Department .',
        ':p2 a :Person ; :headOf :x . :s1 a :Student ; :takesCourse :c2 . :c2 a :Course . :t1 :advises :s1 .',
      ].join('\n'),
    );
    expect(await members(ds, ':Chair')).to.deep.equal([':p1']);
    expect(await members(ds, ':Professor')).to.deep.equal([':p1']);
    expect(await members(ds, ':Member')).to.deep.equal([':guest', ':p1', ':s1']);
    expect(await members(ds, ':Tutor')).to.deep.equal([':t1']);
    expect(await members(ds, ':Staff')).to.deep.equal([':p1']);
    expect(await members(ds, ':Course')).to.deep.equal([':c1', ':c2']);
    expect(await select(ds, 'SELECT ?x ?v WHERE { ?x :contract ?v }')).to.deep.equal([':p1 :permanent']);
  });

  it('applies property axioms: hierarchy, chains with inverses, inverses, symmetry, transitivity, domain and range', async () => {
    const { ds } = await storeOf(
      [
        ':headOf rdfs:subPropertyOf :worksFor . :worksFor rdfs:subPropertyOf :memberOf . :memberOf owl:inverseOf :member .',
        ':uncle owl:propertyChainAxiom (:childOf :brother) . :nephew owl:propertyChainAxiom ([ owl:inverseOf :brother ] [ owl:inverseOf :childOf ]) .',
        ':knows a owl:SymmetricProperty . :partOf a owl:TransitiveProperty . :likes owl:equivalentProperty :enjoys .',
        ':worksFor rdfs:domain :Employee ; rdfs:range :Organization .',
        ':alice :headOf :dept . :bob :childOf :carol . :carol :brother :dave . :alice :knows :bob .',
        ':a :partOf :b . :b :partOf :c . :c :partOf :d . :alice :likes :tea .',
      ].join('\n'),
    );
    expect(await select(ds, 'SELECT ?x ?y WHERE { ?x :memberOf ?y }')).to.deep.equal([':alice :dept']);
    expect(await select(ds, 'SELECT ?x ?y WHERE { ?x :member ?y }')).to.deep.equal([':dept :alice']);
    expect(await select(ds, 'SELECT ?x ?y WHERE { ?x :uncle ?y }')).to.deep.equal([':bob :dave']);
    expect(await select(ds, 'SELECT ?x ?y WHERE { ?x :nephew ?y }')).to.deep.equal([':dave :bob']);
    expect(await select(ds, 'SELECT ?x ?y WHERE { ?x :knows ?y }')).to.deep.equal([':alice :bob', ':bob :alice']);
    expect(await select(ds, 'SELECT ?y WHERE { :a :partOf ?y }')).to.deep.equal([':b', ':c', ':d']);
    expect(await select(ds, 'SELECT ?y WHERE { :alice :enjoys ?y }')).to.deep.equal([':tea']);
    expect(await members(ds, ':Employee')).to.deep.equal([':alice']);
    expect(await members(ds, ':Organization')).to.deep.equal([':dept']);
  });

  it('derives owl:sameAs from functional, inverse-functional, maxCardinality 1 and keys', async () => {
    const { ds } = await storeOf(
      [
        ':mother a owl:FunctionalProperty , owl:ObjectProperty . :ssn a owl:InverseFunctionalProperty .',
        ':Single rdfs:subClassOf [ owl:onProperty :spouse ; owl:maxQualifiedCardinality 1 ; owl:onClass :Person ] . :spouse a owl:ObjectProperty .',
        ':Citizen owl:hasKey (:passport) .',
        ':a :mother :m1 , :m2 . :x :ssn :n . :y :ssn :n .',
        ':s a :Single ; :spouse :w1 , :w2 , :w3 . :w1 a :Person . :w2 a :Person .',
        ':c1 a :Citizen ; :passport "P1" . :c2 a :Citizen ; :passport "P1" . :c3 a :Citizen ; :passport "P2" .',
      ].join('\n'),
    );
    expect(await select(ds, 'SELECT ?x ?y WHERE { ?x owl:sameAs ?y }')).to.deep.equal([':c1 :c2', ':c2 :c1', ':m1 :m2', ':m2 :m1', ':w1 :w2', ':w2 :w1', ':x :y', ':y :x']);
    expect(await members(ds, 'owl:Nothing')).to.deep.equal([]);
  });

  it('derives owl:Nothing for contradictions', async () => {
    const { ds } = await storeOf(
      [
        ':Cat owl:disjointWith :Dog . [] a owl:AllDisjointClasses ; owl:members (:Red :Green :Blue) .',
        ':Vegan rdfs:subClassOf [ owl:complementOf [ owl:onProperty :eats ; owl:someValuesFrom :Meat ] ] .',
        ':Orphan rdfs:subClassOf [ owl:onProperty :parent ; owl:maxCardinality 0 ] .',
        ':parentOf a owl:AsymmetricProperty . :marriedTo a owl:IrreflexiveProperty . :loves owl:propertyDisjointWith :hates .',
        '[] a owl:AllDifferent ; owl:members (:i1 :i2 :i3) .',
        '[] a owl:NegativePropertyAssertion ; owl:sourceIndividual :n1 ; owl:assertionProperty :knows ; owl:targetIndividual :n2 .',
        ':c1 a :Cat , :Dog . :c2 a :Red , :Blue . :c3 a :Green .',
        ':v a :Vegan ; :eats :steak . :steak a :Meat . :v2 a :Vegan ; :eats :salad .',
        ':o a :Orphan ; :parent :pp . :o2 a :Orphan .',
        ':pa :parentOf :pb . :pb :parentOf :pa . :m :marriedTo :m . :l :loves :h ; :hates :h .',
        ':i1 owl:sameAs :i2 . :n1 :knows :n2 .',
      ].join('\n'),
    );
    expect(await members(ds, 'owl:Nothing')).to.deep.equal([':c1', ':c2', ':i1', ':i2', ':l', ':m', ':n1', ':n2', ':o', ':pa', ':pb', ':v']);
  });

  it('checks data values against datatypes and compares them by value', async () => {
    const { ds } = await storeOf(
      [
        ':age a owl:DatatypeProperty , owl:FunctionalProperty ; rdfs:range xsd:integer .',
        ':Adult owl:equivalentClass [ owl:onProperty :age ; owl:someValuesFrom xsd:nonNegativeInteger ] .',
        ':ok1 :age "41"^^xsd:int . :ok2 :age 1 , "01"^^xsd:integer .',
        ':bad1 :age "forty" . :bad2 :age 1 , 2 . :neg :age "-1"^^xsd:integer .',
      ].join('\n'),
    );
    expect(await members(ds, 'owl:Nothing')).to.deep.equal([':bad1', ':bad2']);
    // by value: 1 and "41"^^xsd:int are non-negative integers, -1 is not
    expect(await members(ds, ':Adult')).to.deep.equal([':bad2', ':ok1', ':ok2']);
    expect(await select(ds, 'SELECT ?x ?y WHERE { ?x owl:sameAs ?y }')).to.deep.equal([]);
  });

  it('marks individuals that are the same and different as owl:Nothing, and no others', async () => {
    const { ds } = await storeOf(':a owl:differentFrom :b . :c owl:differentFrom :d . :a owl:sameAs :a . :b owl:sameAs :a . :c owl:sameAs :e .');
    expect(await members(ds, 'owl:Nothing')).to.deep.equal([':a', ':b']);
  });

  it('class assertions with class expressions apply to the individual', async () => {
    const { ds } = await storeOf(':a a [ owl:intersectionOf (:B [ owl:onProperty :p ; owl:allValuesFrom :C ]) ] ; :p :x , :y .');
    expect(await members(ds, ':B')).to.deep.equal([':a']);
    expect(await members(ds, ':C')).to.deep.equal([':x', ':y']);
  });

  it('rules read and write the destination graph', async () => {
    const { ds } = await storeOf(':A rdfs:subClassOf :B . :p a owl:TransitiveProperty .', `${EX}g`);
    const r = await ds.importData('ADD', `<${EX}x> <${RDF_TYPE}> <${EX}A> <${EX}g> .\n<${EX}x> <${EX}p> <${EX}y> <${EX}g> .\n<${EX}y> <${EX}p> <${EX}z> <${EX}g> .\n<${EX}u> <${RDF_TYPE}> <${EX}A> .\n`, {
      mediaType: 'application/n-quads',
    });
    expect(r.errors, r.text).to.equal(0);
    expect(await select(ds, 'SELECT ?x WHERE { GRAPH :g { ?x a :B } }')).to.deep.equal([':x']);
    expect(await select(ds, 'SELECT ?y WHERE { GRAPH :g { :x :p ?y } }')).to.deep.equal([':y', ':z']);
    expect(await members(ds, ':B')).to.deep.equal([]);
  });

  it("deleting an axiom's rules withdraws exactly what it derived", async () => {
    const ontology = ':A rdfs:subClassOf :B . :B rdfs:subClassOf :C . :A rdfs:subClassOf :D .';
    const { ds, t } = await storeOf(`${ontology}\n:x a :A .`);
    expect(await members(ds, ':C')).to.deep.equal([':x']);
    const after = translate(ontology.replace(':B rdfs:subClassOf :C .', ''));
    const keys = new Set(after.axioms.map((a) => a.key));
    const removed = t.axioms.filter((a) => !keys.has(a.key));
    expect(removed.map((a) => short(a.key))).to.deep.equal(['SubClassOf(:B :C)']);
    await importRules(ds, { axioms: removed, warnings: [], assertions: [] }, 'DELETE');
    expect(await members(ds, ':C')).to.deep.equal([]);
    expect(await members(ds, ':B')).to.deep.equal([':x']);
    expect(await members(ds, ':D')).to.deep.equal([':x']);
  });
});
