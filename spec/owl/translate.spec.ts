/**
 * OWL 2 RL axioms → Datalog rules: the rules each construct compiles to (compared as Datalog
 * text), the keys of axioms, the warnings for what is outside OWL 2 RL or malformed, RDF lists,
 * ABox assertions and the destination graph.
 */
import { expect } from 'chai';
import { Parser } from 'n3';
import { parseDatalog } from '../../lib/formats/datalog-parser.js';
import { translateAxioms } from '../../lib/owl/index.js';
import { EX, quadsOf, ruleLines, rulesOf, short, translate, TTL_PREFIXES, warningsOf } from './helpers.js';

/** The condition that ?y1 and ?y2 are literals with different data values (OWL 2 value identity). */
const DIFFERENT_VALUES =
  'isLiteral(?y1) && isLiteral(?y2) && !sameTerm(?y1, ?y2) && !COALESCE(?y1 = ?y2 && (DATATYPE(?y1) = DATATYPE(?y2) && STRSTARTS(STR(?y1), "-") = STRSTARTS(STR(?y2), "-") || ' +
  '!(DATATYPE(?y1) IN (<http://www.w3.org/2001/XMLSchema#float>, <http://www.w3.org/2001/XMLSchema#double>)) && !(DATATYPE(?y2) IN (<http://www.w3.org/2001/XMLSchema#float>, <http://www.w3.org/2001/XMLSchema#double>))), false)';

const INTEGERS = [
  'byte',
  'int',
  'integer',
  'long',
  'negativeInteger',
  'nonNegativeInteger',
  'nonPositiveInteger',
  'positiveInteger',
  'short',
  'unsignedByte',
  'unsignedInt',
  'unsignedLong',
  'unsignedShort',
]
  .map((d) => `<http://www.w3.org/2001/XMLSchema#${d}>`)
  .join(', ');

describe('owl/translate', () => {
  describe('subclass axioms with OWL 2 RL class expressions', () => {
    it('named classes (cax-sco)', () => {
      expect(rulesOf(':A rdfs:subClassOf :B .')).to.deep.equal({ 'SubClassOf(:A :B)': ['[?x, a, :B] :- [?x, a, :A] .'] });
    });

    it('intersection and existential on the left, nested into one body (cls-int1, cls-svf1)', () => {
      expect(rulesOf('[ owl:intersectionOf (:A [ a owl:Restriction ; owl:onProperty :p ; owl:someValuesFrom :B ]) ] rdfs:subClassOf :C .')).to.deep.equal({
        'SubClassOf(ObjectIntersectionOf(:A ObjectSomeValuesFrom(:p :B)) :C)': ['[?x, a, :C] :- [?x, a, :A], [?x, :p, ?y1], [?y1, a, :B] .'],
      });
    });

    it('nested existentials become a chain (cls-svf1)', () => {
      expect(rulesOf('[ owl:onProperty :p ; owl:someValuesFrom [ owl:onProperty :q ; owl:someValuesFrom :D ] ] rdfs:subClassOf :E .')).to.deep.equal({
        'SubClassOf(ObjectSomeValuesFrom(:p ObjectSomeValuesFrom(:q :D)) :E)': ['[?x, a, :E] :- [?x, :p, ?y1], [?y1, :q, ?y2], [?y2, a, :D] .'],
      });
    });

    it('someValuesFrom owl:Thing and inverse properties (cls-svf2)', () => {
      expect(rulesOf('[ owl:onProperty [ owl:inverseOf :p ] ; owl:someValuesFrom owl:Thing ] rdfs:subClassOf :E .')).to.deep.equal({
        'SubClassOf(ObjectSomeValuesFrom(ObjectInverseOf(:p) owl:Thing) :E)': ['[?x, a, :E] :- [?y1, :p, ?x] .'],
      });
    });

    it('a union on the left gives one rule per disjunct, enumerations give facts (cls-uni, cls-oo)', () => {
      expect(rulesOf('[ owl:unionOf (:A :B [ owl:oneOf (:a :b) ]) ] rdfs:subClassOf :F .')).to.deep.equal({
        'SubClassOf(ObjectUnionOf(:A :B ObjectOneOf(:a :b)) :F)': ['[?x, a, :F] :- [?x, a, :A] .', '[?x, a, :F] :- [?x, a, :B] .', '[:a, a, :F] :- .', '[:b, a, :F] :- .'],
      });
    });

    it('an enumeration inside an existential binds the value', () => {
      expect(rulesOf('[ owl:onProperty :p ; owl:someValuesFrom [ owl:oneOf (:a) ] ] rdfs:subClassOf :F .')).to.deep.equal({
        'SubClassOf(ObjectSomeValuesFrom(:p ObjectOneOf(:a)) :F)': ['[?x, a, :F] :- [?x, :p, :a] .'],
      });
    });

    it('hasValue on either side (cls-hv1, cls-hv2)', () => {
      expect(rulesOf(':G rdfs:subClassOf [ owl:onProperty :p ; owl:hasValue :v ] . [ owl:onProperty :p ; owl:hasValue "v" ] rdfs:subClassOf :H .')).to.deep.equal({
        'SubClassOf(:G ObjectHasValue(:p :v))': ['[?x, :p, :v] :- [?x, a, :G] .'],
        'SubClassOf(DataHasValue(:p "v") :H)': ['[?x, a, :H] :- [?x, :p, "v"] .'],
      });
    });

    it('an intersection on the right gives one rule per conjunct; allValuesFrom extends the body (cls-avf)', () => {
      expect(rulesOf(':A rdfs:subClassOf [ owl:intersectionOf (:B [ a owl:Restriction ; owl:onProperty :p ; owl:allValuesFrom :C ]) ] .')).to.deep.equal({
        'SubClassOf(:A ObjectIntersectionOf(:B ObjectAllValuesFrom(:p :C)))': ['[?x, a, :B] :- [?x, a, :A] .', '[?y1, a, :C] :- [?x, a, :A], [?x, :p, ?y1] .'],
      });
    });

    it('nested allValuesFrom', () => {
      expect(rulesOf(':A rdfs:subClassOf [ owl:onProperty :p ; owl:allValuesFrom [ owl:onProperty :q ; owl:allValuesFrom :C ] ] .')).to.deep.equal({
        'SubClassOf(:A ObjectAllValuesFrom(:p ObjectAllValuesFrom(:q :C)))': ['[?y2, a, :C] :- [?x, a, :A], [?x, :p, ?y1], [?y1, :q, ?y2] .'],
      });
    });

    it('complementOf on the right derives owl:Nothing (cls-com)', () => {
      expect(rulesOf(':G rdfs:subClassOf [ owl:complementOf [ owl:unionOf (:A [ owl:onProperty :p ; owl:someValuesFrom owl:Thing ]) ] ] .')).to.deep.equal({
        'SubClassOf(:G ObjectComplementOf(ObjectUnionOf(:A ObjectSomeValuesFrom(:p owl:Thing))))': [
          '[?x, a, owl:Nothing] :- [?x, a, :G], [?x, a, :A] .',
          '[?x, a, owl:Nothing] :- [?x, a, :G], [?x, :p, ?y1] .',
        ],
      });
    });

    it('maxCardinality 0, plain and qualified (cls-maxc1, cls-maxqc1/2)', () => {
      expect(rulesOf(':G rdfs:subClassOf [ owl:onProperty :p ; owl:maxCardinality 0 ] , [ owl:onProperty :p ; owl:maxQualifiedCardinality 0 ; owl:onClass :C ] .')).to.deep.equal({
        'SubClassOf(:G ObjectMaxCardinality(0 :p))': ['[?x, a, owl:Nothing] :- [?x, a, :G], [?x, :p, ?y1] .'],
        'SubClassOf(:G ObjectMaxCardinality(0 :p :C))': ['[?x, a, owl:Nothing] :- [?x, a, :G], [?x, :p, ?y1], [?y1, a, :C] .'],
      });
    });

    it('maxCardinality 1 derives owl:sameAs for object properties, a clash for data properties (cls-maxc2, cls-maxqc3)', () => {
      const rules = rulesOf(
        [
          ':op a owl:ObjectProperty . :dp a owl:DatatypeProperty .',
          ':G rdfs:subClassOf [ owl:onProperty :op ; owl:maxCardinality 1 ] , [ owl:onProperty :dp ; owl:maxCardinality 1 ] ,',
          '  [ owl:onProperty :p ; owl:maxQualifiedCardinality 1 ; owl:onClass :C ] , [ owl:onProperty :up ; owl:maxCardinality 1 ] .',
        ].join('\n'),
      );
      expect(rules).to.deep.equal({
        'SubClassOf(:G ObjectMaxCardinality(1 :op))': ['[?y1, owl:sameAs, ?y2] :- [?x, a, :G], [?x, :op, ?y1], [?x, :op, ?y2], FILTER(?y1 != ?y2) .'],
        'SubClassOf(:G DataMaxCardinality(1 :dp))': [
          `[?x, a, owl:Nothing] :- [?x, a, :G], [?x, :dp, ?y1], [?x, :dp, ?y2], FILTER(${DIFFERENT_VALUES}) .`,
        ],
        'SubClassOf(:G ObjectMaxCardinality(1 :p :C))': [
          '[?y1, owl:sameAs, ?y2] :- [?x, a, :G], [?x, :p, ?y1], [?x, :p, ?y2], [?y1, a, :C], [?y2, a, :C], FILTER(?y1 != ?y2) .',
        ],
        // a property of unknown kind gets both rules
        'SubClassOf(:G ObjectMaxCardinality(1 :up))': [
          '[?y1, owl:sameAs, ?y2] :- [?x, a, :G], [?x, :up, ?y1], [?x, :up, ?y2], FILTER(!isLiteral(?y1) && !isLiteral(?y2) && ?y1 != ?y2) .',
          `[?x, a, owl:Nothing] :- [?x, a, :G], [?x, :up, ?y1], [?x, :up, ?y2], FILTER(${DIFFERENT_VALUES}) .`,
        ],
      });
    });

    it('exact cardinality 0 and 1: the maximum is kept, the minimum dropped with a warning', () => {
      const t = translate(':op a owl:ObjectProperty . :G rdfs:subClassOf [ owl:onProperty :op ; owl:cardinality 1 ] , [ owl:onProperty :op ; owl:cardinality 0 ] .');
      expect(t.axioms.map((a) => [short(a.key), ruleLines(a.rules)])).to.deep.equal([
        ['SubClassOf(:G ObjectExactCardinality(0 :op))', ['[?x, a, owl:Nothing] :- [?x, a, :G], [?x, :op, ?y1] .']],
        ['SubClassOf(:G ObjectExactCardinality(1 :op))', ['[?y1, owl:sameAs, ?y2] :- [?x, a, :G], [?x, :op, ?y1], [?x, :op, ?y2], FILTER(?y1 != ?y2) .']],
      ]);
      expect(t.warnings.map(short)).to.deep.equal([
        'SubClassOf(:G ObjectExactCardinality(1 :op)): ObjectExactCardinality(1 :op): its minimum-cardinality half (at least one value) cannot be a superclass expression in OWL 2 RL; dropped',
      ]);
    });

    it('owl:Thing on the right is a tautology, owl:Nothing an ordinary class', () => {
      expect(rulesOf(':A rdfs:subClassOf owl:Thing . :B rdfs:subClassOf owl:Nothing .')).to.deep.equal({
        'SubClassOf(:A owl:Thing)': [],
        'SubClassOf(:B owl:Nothing)': ['[?x, a, owl:Nothing] :- [?x, a, :B] .'],
      });
    });
  });

  describe('data ranges', () => {
    it('a datatype on the left tests the literal: datatype IRI with the XSD derivation hierarchy, and bounds of integer types', () => {
      expect(rulesOf(':dp a owl:DatatypeProperty . [ owl:onProperty :dp ; owl:someValuesFrom xsd:short ] rdfs:subClassOf :S .')).to.deep.equal({
        'SubClassOf(DataSomeValuesFrom(:dp xsd:short) :S)': [`[?x, a, :S] :- [?x, :dp, ?y1], FILTER(isLiteral(?y1) && DATATYPE(?y1) IN (${INTEGERS}) && ?y1 >= -32768 && ?y1 <= 32767) .`],
      });
      expect(rulesOf('[ owl:onProperty :dp ; owl:someValuesFrom rdfs:Literal ] rdfs:subClassOf :S .')).to.deep.equal({
        'SubClassOf(DataSomeValuesFrom(:dp <http://www.w3.org/2000/01/rdf-schema#Literal>) :S)': ['[?x, a, :S] :- [?x, :dp, ?y1], FILTER(isLiteral(?y1)) .'],
      });
    });

    it('a datatype range or allValuesFrom derives owl:Nothing for values outside it', () => {
      expect(rulesOf(':dp a owl:DatatypeProperty ; rdfs:range xsd:integer .')).to.deep.equal({
        'DataPropertyRange(:dp xsd:integer)': [`[?x, a, owl:Nothing] :- [?x, :dp, ?y], FILTER(!(isLiteral(?y) && DATATYPE(?y) IN (${INTEGERS}))) .`],
      });
      expect(rulesOf(':G rdfs:subClassOf [ owl:onProperty :dp ; owl:allValuesFrom [ a rdfs:Datatype ; owl:intersectionOf (xsd:integer xsd:nonNegativeInteger) ] ] .')).to.deep.equal({
        'SubClassOf(:G DataAllValuesFrom(:dp DataIntersectionOf(xsd:integer xsd:nonNegativeInteger)))': [
          `[?x, a, owl:Nothing] :- [?x, a, :G], [?x, :dp, ?y1], FILTER(!(isLiteral(?y1) && DATATYPE(?y1) IN (${INTEGERS}))) .`,
          `[?x, a, owl:Nothing] :- [?x, a, :G], [?x, :dp, ?y1], FILTER(!(isLiteral(?y1) && DATATYPE(?y1) IN (${INTEGERS}) && ?y1 >= 0)) .`,
        ],
      });
    });

    it('an IRI restricting the values of a declared data property is a datatype', () => {
      expect(rulesOf(':dp a owl:DatatypeProperty ; rdfs:range :myType .')).to.deep.equal({
        'DataPropertyRange(:dp :myType)': ['[?x, a, owl:Nothing] :- [?x, :dp, ?y], FILTER(!(isLiteral(?y) && DATATYPE(?y) = <http://ex/myType>)) .'],
      });
    });

    it('facets, data unions and datatype definitions are outside OWL 2 RL', () => {
      const w = warningsOf(
        [
          '[ owl:onProperty :dp ; owl:someValuesFrom [ a rdfs:Datatype ; owl:onDatatype xsd:integer ; owl:withRestrictions ([ xsd:minInclusive 1 ]) ] ] rdfs:subClassOf :A .',
          '[ owl:onProperty :dp ; owl:someValuesFrom [ a rdfs:Datatype ; owl:unionOf (xsd:integer xsd:string) ] ] rdfs:subClassOf :B .',
          ':D a rdfs:Datatype ; owl:equivalentClass xsd:integer .',
        ].join('\n'),
      );
      expect(w).to.deep.equal([
        'DatatypeDefinition(:D xsd:integer): datatype definitions are outside OWL 2 RL; dropped',
        'SubClassOf(DataSomeValuesFrom(:dp DataUnionOf(xsd:integer xsd:string)) :B): DataUnionOf(xsd:integer xsd:string) (a union of data ranges) is outside OWL 2 RL; dropped',
        'SubClassOf(DataSomeValuesFrom(:dp DatatypeRestriction(xsd:integer xsd:minInclusive "1"^^xsd:integer)) :A): DatatypeRestriction(xsd:integer xsd:minInclusive "1"^^xsd:integer) (datatype restriction with facets) is outside OWL 2 RL; dropped',
      ]);
    });
  });

  describe('equivalences and disjointness', () => {
    it('a definition contributes both directions where admitted (cax-eqc1/2, cls-int2)', () => {
      expect(rulesOf(':Chair owl:intersectionOf (:Person [ a owl:Restriction ; owl:onProperty :headOf ; owl:someValuesFrom :Department ]) .')).to.deep.equal({
        'EquivalentClasses(:Chair ObjectIntersectionOf(:Person ObjectSomeValuesFrom(:headOf :Department)))': [
          '[?x, a, :Person] :- [?x, a, :Chair] .',
          '[?x, a, :Chair] :- [?x, a, :Person], [?x, :headOf, ?y1], [?y1, a, :Department] .',
        ],
      });
    });

    it('owl:equivalentClass, unionOf, oneOf and complementOf definitions', () => {
      expect(rulesOf(':A owl:equivalentClass :B . :E1 owl:equivalentClass [ owl:unionOf (:A :B) ] . :E2 owl:oneOf (:a :b) . :E3 owl:complementOf :A .')).to.deep.equal({
        'EquivalentClasses(:A :B)': ['[?x, a, :B] :- [?x, a, :A] .', '[?x, a, :A] :- [?x, a, :B] .'],
        'EquivalentClasses(:E1 ObjectUnionOf(:A :B))': ['[?x, a, :E1] :- [?x, a, :A] .', '[?x, a, :E1] :- [?x, a, :B] .'],
        'EquivalentClasses(:E2 ObjectOneOf(:a :b))': ['[:a, a, :E2] :- .', '[:b, a, :E2] :- .'],
        'EquivalentClasses(:E3 ObjectComplementOf(:A))': ['[?x, a, owl:Nothing] :- [?x, a, :E3], [?x, a, :A] .'],
      });
      expect(warningsOf(':E1 owl:equivalentClass [ owl:unionOf (:A :B) ] .')).to.deep.equal([]);
    });

    it('an equivalence admitted in no direction is reported', () => {
      expect(warningsOf(':A owl:equivalentClass [ owl:onProperty :p ; owl:minCardinality 2 ] .')).to.deep.equal([
        'EquivalentClasses(:A ObjectMinCardinality(2 :p)): ObjectMinCardinality(2 :p) (cardinality restriction) cannot be a subclass expression in OWL 2 RL; dropped',
        'EquivalentClasses(:A ObjectMinCardinality(2 :p)): ObjectMinCardinality(2 :p) (minimum cardinality) cannot be a superclass expression in OWL 2 RL; dropped',
      ]);
    });

    it('disjointWith and AllDisjointClasses (cax-dw, cax-adc)', () => {
      expect(rulesOf(':A owl:disjointWith :B . [] a owl:AllDisjointClasses ; owl:members (:A :B [ owl:onProperty :p ; owl:hasValue :v ]) .')).to.deep.equal({
        'DisjointClasses(:A :B)': ['[?x, a, owl:Nothing] :- [?x, a, :A], [?x, a, :B] .'],
        'DisjointClasses(:A :B ObjectHasValue(:p :v))': [
          '[?x, a, owl:Nothing] :- [?x, a, :A], [?x, a, :B] .',
          '[?x, a, owl:Nothing] :- [?x, a, :A], [?x, :p, :v] .',
          '[?x, a, owl:Nothing] :- [?x, a, :B], [?x, :p, :v] .',
        ],
      });
    });

    it('disjointUnionOf: the parts are subclasses and disjoint; the covering is left out', () => {
      const t = translate(':C owl:disjointUnionOf (:A :B) .');
      expect(t.axioms.map((a) => [short(a.key), ruleLines(a.rules)])).to.deep.equal([
        ['DisjointUnion(:C :A :B)', ['[?x, a, :C] :- [?x, a, :A] .', '[?x, a, :C] :- [?x, a, :B] .', '[?x, a, owl:Nothing] :- [?x, a, :A], [?x, a, :B] .']],
      ]);
      expect(t.warnings).to.deep.equal([]);
    });
  });

  describe('property axioms', () => {
    it('subPropertyOf, chains with inverses, equivalentProperty, inverseOf (prp-spo1/2, prp-eqp1/2, prp-inv1/2)', () => {
      expect(
        rulesOf(':p rdfs:subPropertyOf :q . :p owl:propertyChainAxiom (:q [ owl:inverseOf :r ] :s) . :p owl:equivalentProperty :q2 . :p owl:inverseOf :pi . :pi owl:inverseOf :p .'),
      ).to.deep.equal({
        'SubObjectPropertyOf(:p :q)': ['[?x, :q, ?y] :- [?x, :p, ?y] .'],
        'SubObjectPropertyOf(ObjectPropertyChain(:q ObjectInverseOf(:r) :s) :p)': ['[?x0, :p, ?x3] :- [?x0, :q, ?x1], [?x2, :r, ?x1], [?x2, :s, ?x3] .'],
        'EquivalentObjectProperties(:p :q2)': ['[?x, :q2, ?y] :- [?x, :p, ?y] .', '[?x, :p, ?y] :- [?x, :q2, ?y] .'],
        // stated in both directions: one axiom
        'InverseObjectProperties(:p :pi)': ['[?y, :pi, ?x] :- [?x, :p, ?y] .', '[?y, :p, ?x] :- [?x, :pi, ?y] .'],
      });
    });

    it('data property axioms are named as such', () => {
      expect(Object.keys(rulesOf(':d1 a owl:DatatypeProperty ; rdfs:subPropertyOf :d2 ; owl:equivalentProperty :d3 . :d2 a owl:DatatypeProperty . :d3 a owl:DatatypeProperty .'))).to.deep.equal([
        'EquivalentDataProperties(:d1 :d3)',
        'SubDataPropertyOf(:d1 :d2)',
      ]);
    });

    it('domain and range, with class expressions (prp-dom, prp-rng)', () => {
      expect(rulesOf(':p rdfs:domain :D ; rdfs:range [ owl:intersectionOf (:R [ owl:onProperty :q ; owl:allValuesFrom :S ]) ] .')).to.deep.equal({
        'ObjectPropertyDomain(:p :D)': ['[?x, a, :D] :- [?x, :p, ?y] .'],
        'ObjectPropertyRange(:p ObjectIntersectionOf(:R ObjectAllValuesFrom(:q :S)))': ['[?y, a, :R] :- [?x, :p, ?y] .', '[?y1, a, :S] :- [?x, :p, ?y], [?y, :q, ?y1] .'],
      });
    });

    it('property characteristics (prp-fp, prp-ifp, prp-symp, prp-asyp, prp-irp, prp-trp)', () => {
      expect(
        rulesOf(':f a owl:FunctionalProperty , owl:ObjectProperty . :if a owl:InverseFunctionalProperty . :sy a owl:SymmetricProperty . :as a owl:AsymmetricProperty . :ir a owl:IrreflexiveProperty . :tr a owl:TransitiveProperty . :df a owl:FunctionalProperty , owl:DatatypeProperty .'),
      ).to.deep.equal({
        'AsymmetricObjectProperty(:as)': ['[?x, a, owl:Nothing] :- [?x, :as, ?y], [?y, :as, ?x] .'],
        'FunctionalDataProperty(:df)': [
          `[?x, a, owl:Nothing] :- [?x, :df, ?y1], [?x, :df, ?y2], FILTER(${DIFFERENT_VALUES}) .`,
        ],
        'FunctionalObjectProperty(:f)': ['[?y1, owl:sameAs, ?y2] :- [?x, :f, ?y1], [?x, :f, ?y2], FILTER(?y1 != ?y2) .'],
        'InverseFunctionalObjectProperty(:if)': ['[?y1, owl:sameAs, ?y2] :- [?y1, :if, ?x], [?y2, :if, ?x], FILTER(?y1 != ?y2) .'],
        'IrreflexiveObjectProperty(:ir)': ['[?x, a, owl:Nothing] :- [?x, :ir, ?x] .'],
        'SymmetricObjectProperty(:sy)': ['[?y, :sy, ?x] :- [?x, :sy, ?y] .'],
        'TransitiveObjectProperty(:tr)': ['[?x, :tr, ?z] :- [?x, :tr, ?y], [?y, :tr, ?z] .'],
      });
    });

    it('reflexive properties are outside OWL 2 RL', () => {
      const t = translate(':rf a owl:ReflexiveProperty .');
      expect(t.axioms.map((a) => [short(a.key), a.rules.length])).to.deep.equal([['ReflexiveObjectProperty(:rf)', 0]]);
      expect(t.warnings.map(short)).to.deep.equal(['ReflexiveObjectProperty(:rf): reflexive properties are outside OWL 2 RL; dropped']);
    });

    it('propertyDisjointWith and AllDisjointProperties (prp-pdw, prp-adp)', () => {
      expect(rulesOf(':p owl:propertyDisjointWith :q . [] a owl:AllDisjointProperties ; owl:members (:p :q :r) .')).to.deep.equal({
        'DisjointObjectProperties(:p :q)': ['[?x, a, owl:Nothing] :- [?x, :p, ?y], [?x, :q, ?y] .'],
        'DisjointObjectProperties(:p :q :r)': [
          '[?x, a, owl:Nothing] :- [?x, :p, ?y], [?x, :q, ?y] .',
          '[?x, a, owl:Nothing] :- [?x, :p, ?y], [?x, :r, ?y] .',
          '[?x, a, owl:Nothing] :- [?x, :q, ?y], [?x, :r, ?y] .',
        ],
      });
    });

    it('hasKey (prp-key)', () => {
      expect(rulesOf(':K owl:hasKey (:p :dp) .')).to.deep.equal({
        'HasKey(:K (:dp :p))': ['[?x1, owl:sameAs, ?x2] :- [?x1, a, :K], [?x2, a, :K], [?x1, :dp, ?z1], [?x2, :dp, ?z1], [?x1, :p, ?z2], [?x2, :p, ?z2], FILTER(?x1 != ?x2) .'],
      });
    });
  });

  describe('individuals', () => {
    it('differentFrom and AllDifferent: sameAs between different individuals makes both owl:Nothing (eq-diff1/2/3)', () => {
      expect(rulesOf(':a owl:differentFrom :c . [] a owl:AllDifferent ; owl:distinctMembers (:a :b :c) .')).to.deep.equal({
        'DifferentIndividuals(:a :b :c)': [
          '[?x, a, owl:Nothing], [?y, a, owl:Nothing] :- [?x, owl:sameAs, ?y], FILTER(?x IN (<http://ex/a>, <http://ex/b>, <http://ex/c>)), FILTER(?y IN (<http://ex/a>, <http://ex/b>, <http://ex/c>)), FILTER(?x != ?y) .',
        ],
        'DifferentIndividuals(:a :c)': [
          '[?x, a, owl:Nothing], [?y, a, owl:Nothing] :- [?x, owl:sameAs, ?y], FILTER(?x IN (<http://ex/a>, <http://ex/c>)), FILTER(?y IN (<http://ex/a>, <http://ex/c>)), FILTER(?x != ?y) .',
        ],
      });
    });

    it('differentFrom with blank nodes gives ground rules', () => {
      const t = translateAxioms(new Parser().parse(`${TTL_PREFIXES}_:u owl:differentFrom :a .`), { assertions: false });
      expect(t.axioms).to.have.length(1);
      expect(ruleLines(t.axioms[0]!.rules).map((l) => l.replace(/_:[A-Za-z0-9_]+/g, '_:u'))).to.deep.equal([
        '[:a, a, owl:Nothing], [_:u, a, owl:Nothing] :- [:a, owl:sameAs, _:u] .',
        '[_:u, a, owl:Nothing], [:a, a, owl:Nothing] :- [_:u, owl:sameAs, :a] .',
      ]);
    });

    it('an individual different from itself is a contradiction', () => {
      expect(rulesOf(':a owl:differentFrom :a .')).to.deep.equal({ 'DifferentIndividuals(:a :a)': ['[:a, a, owl:Nothing] :- .'] });
    });

    it('data that merely uses RDF vocabulary (lists, containers, rdf:value) is assertions, not warnings', () => {
      const ttl = ':x :authors (:a :b) ; rdf:value 3 ; a rdf:Bag , rdfs:Resource ; rdf:_1 :a .';
      const t = translate(ttl, { assertions: true });
      expect(t.warnings).to.deep.equal([]);
      expect(t.axioms).to.deep.equal([]);
      expect(t.assertions).to.have.length(quadsOf(ttl).length);
    });

    it('negative property assertions (prp-npa1/2)', () => {
      expect(
        rulesOf(
          '[] a owl:NegativePropertyAssertion ; owl:sourceIndividual :a ; owl:assertionProperty :p ; owl:targetIndividual :b . [] a owl:NegativePropertyAssertion ; owl:sourceIndividual :a ; owl:assertionProperty :d ; owl:targetValue 5 .',
        ),
      ).to.deep.equal({
        'NegativeDataPropertyAssertion(:d :a "5"^^xsd:integer)': ['[:a, a, owl:Nothing] :- [:a, :d, 5] .'],
        'NegativeObjectPropertyAssertion(:p :a :b)': ['[:a, a, owl:Nothing], [:b, a, owl:Nothing] :- [:a, :p, :b] .'],
      });
    });

    it('class assertions with a class expression become rules about the individual', () => {
      expect(rulesOf(':a a [ owl:intersectionOf (:B [ owl:onProperty :p ; owl:allValuesFrom :C ]) ] .')).to.deep.equal({
        'ClassAssertion(ObjectIntersectionOf(:B ObjectAllValuesFrom(:p :C)) :a)': ['[:a, a, :B] :- .', '[?y1, a, :C] :- [:a, :p, ?y1] .'],
      });
    });

    it('with assertions: class and property assertions, sameAs, differentFrom (pairs of AllDifferent)', () => {
      const ttl = [
        ':A a owl:Class . :p a owl:ObjectProperty . :n a owl:NamedIndividual . :label a owl:AnnotationProperty .',
        ':a a :A , owl:Thing , owl:NamedIndividual ; :p :b ; :d "x" ; :label "not an assertion" ; rdfs:label "nor this" .',
        ':a owl:sameAs :s . [] a owl:AllDifferent ; owl:members (:c :b :a) .',
      ].join('\n');
      const lines = (t: ReturnType<typeof translate>): string[] => t.assertions.map((q) => short(`<${q.subject.value}> <${q.predicate.value}> ${q.object.termType === 'Literal' ? `"${q.object.value}"` : `<${q.object.value}>`}`));
      expect(lines(translate(ttl, { assertions: true })).sort()).to.deep.equal([
        ':a :d "x"',
        ':a :p :b',
        ':a <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> :A',
        ':a <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> owl:Thing',
        ':a owl:differentFrom :b',
        ':a owl:differentFrom :c',
        ':a owl:sameAs :s',
        ':b owl:differentFrom :c',
      ]);
      expect(translate(ttl, { assertions: true }).assertions.every((q) => q.graph.termType === 'DefaultGraph')).to.equal(true);
      const without = translate(ttl);
      expect(without.assertions).to.deep.equal([]);
      expect(without.warnings).to.deep.equal([]);
      // the clash rule of AllDifferent is there either way
      expect(without.axioms.map((a) => short(a.key))).to.deep.equal(['DifferentIndividuals(:a :b :c)']);
    });
  });

  describe('warnings', () => {
    it('superclass existentials (outside OWL 2 RL) are dropped with a warning naming the axiom', () => {
      const t = translate(':GraduateStudent rdfs:subClassOf :Person , [ a owl:Restriction ; owl:onProperty :takesCourse ; owl:someValuesFrom :GraduateCourse ] .');
      expect(t.axioms.map((a) => [short(a.key), ruleLines(a.rules)])).to.deep.equal([
        ['SubClassOf(:GraduateStudent :Person)', ['[?x, a, :Person] :- [?x, a, :GraduateStudent] .']],
        ['SubClassOf(:GraduateStudent ObjectSomeValuesFrom(:takesCourse :GraduateCourse))', []],
      ]);
      expect(t.warnings.map(short)).to.deep.equal([
        'SubClassOf(:GraduateStudent ObjectSomeValuesFrom(:takesCourse :GraduateCourse)): ObjectSomeValuesFrom(:takesCourse :GraduateCourse) (existential quantification) cannot be a superclass expression in OWL 2 RL; dropped',
      ]);
    });

    it('only the part outside OWL 2 RL is dropped', () => {
      const t = translate(':A rdfs:subClassOf [ owl:intersectionOf (:B [ owl:unionOf (:C :D) ]) ] . [ owl:unionOf (:E [ owl:onProperty :p ; owl:allValuesFrom :F ]) ] rdfs:subClassOf :G .');
      expect(t.axioms.map((a) => [short(a.key), ruleLines(a.rules)])).to.deep.equal([
        ['SubClassOf(:A ObjectIntersectionOf(:B ObjectUnionOf(:C :D)))', ['[?x, a, :B] :- [?x, a, :A] .']],
        ['SubClassOf(ObjectUnionOf(:E ObjectAllValuesFrom(:p :F)) :G)', ['[?x, a, :G] :- [?x, a, :E] .']],
      ]);
      expect(t.warnings.map(short)).to.deep.equal([
        'SubClassOf(:A ObjectIntersectionOf(:B ObjectUnionOf(:C :D))): ObjectUnionOf(:C :D) (disjunction) cannot be a superclass expression in OWL 2 RL; dropped',
        'SubClassOf(ObjectUnionOf(:E ObjectAllValuesFrom(:p :F)) :G): ObjectAllValuesFrom(:p :F) (universal quantification) cannot be a subclass expression in OWL 2 RL; dropped',
      ]);
    });

    it('a disjunct outside OWL 2 RL inside a conjunction on the left drops only that disjunct', () => {
      const t = translate('[ owl:intersectionOf (:A [ owl:unionOf (:B [ owl:onProperty :p ; owl:allValuesFrom :C ]) ]) ] rdfs:subClassOf :D .');
      expect(t.axioms.flatMap((a) => ruleLines(a.rules))).to.deep.equal(['[?x, a, :D] :- [?x, a, :A], [?x, a, :B] .']);
      expect(t.warnings.map(short)).to.deep.equal([
        'SubClassOf(ObjectIntersectionOf(:A ObjectUnionOf(:B ObjectAllValuesFrom(:p :C))) :D): ObjectAllValuesFrom(:p :C) (universal quantification) cannot be a subclass expression in OWL 2 RL; dropped',
      ]);
    });

    it('a conjunct outside OWL 2 RL on the left drops the whole body', () => {
      const t = translate('[ owl:intersectionOf (:E [ owl:complementOf :F ]) ] rdfs:subClassOf :G .');
      expect(t.axioms.map((a) => a.rules.length)).to.deep.equal([0]);
      expect(t.warnings.map(short)).to.deep.equal([
        'SubClassOf(ObjectIntersectionOf(:E ObjectComplementOf(:F)) :G): ObjectComplementOf(:F) (complement) cannot be a subclass expression in OWL 2 RL; dropped',
      ]);
    });

    it('owl:Thing on the left, self restrictions, min cardinalities, oneOf on the right', () => {
      expect(warningsOf('owl:Thing rdfs:subClassOf :A . :B rdfs:subClassOf [ owl:onProperty :p ; owl:hasSelf true ] . :C rdfs:subClassOf [ owl:oneOf (:a) ] .')).to.deep.equal([
        'SubClassOf(:B ObjectHasSelf(:p)): ObjectHasSelf(:p) (local reflexivity) is outside OWL 2 RL; dropped',
        'SubClassOf(:C ObjectOneOf(:a)): ObjectOneOf(:a) (enumeration) cannot be a superclass expression in OWL 2 RL; dropped',
        'SubClassOf(owl:Thing :A): a rule would not bind all its variables (a subclass expression such as owl:Thing that does not restrict individuals is outside OWL 2 RL); dropped',
      ]);
    });

    it('malformed restrictions and class expressions', () => {
      expect(
        warningsOf(
          [
            ':A rdfs:subClassOf [ a owl:Restriction ; owl:onProperty :p ] .',
            ':B rdfs:subClassOf [ a owl:Restriction ; owl:onProperty :p ; owl:someValuesFrom :X ; owl:allValuesFrom :Y ] .',
            ':C rdfs:subClassOf [ owl:onProperty :p ; owl:maxCardinality "one" ] .',
            ':D rdfs:subClassOf [ rdfs:label "no constructor" ] .',
            ':E rdfs:subClassOf [ owl:onProperty "p" ; owl:someValuesFrom :X ] .',
            ':F rdfs:subClassOf "literal" .',
          ].join('\n'),
        ).map((w) => w.replace(/_:[A-Za-z0-9_-]+/g, '_:b')),
      ).to.deep.equal([
        'SubClassOf(:A Malformed(_:b)): restriction _:b on :p has no restriction (owl:someValuesFrom, owl:allValuesFrom, owl:hasValue, cardinality, …); dropped',
        'SubClassOf(:B Malformed(_:b)): restriction _:b on :p has several restrictions (owl:someValuesFrom, owl:allValuesFrom); dropped',
        'SubClassOf(:C Malformed(_:b)): restriction _:b has the cardinality "one", not a non-negative integer; dropped',
        'SubClassOf(:D Malformed(_:b)): _:b is used as a class expression but has no owl:intersectionOf, owl:unionOf, owl:complementOf, owl:oneOf or owl:onProperty; dropped',
        'SubClassOf(:E Malformed(_:b)): "p" is not a property expression; dropped',
        'SubClassOf(:F Malformed("literal")): "literal" is not a class expression; dropped',
      ]);
    });

    it('triples in the OWL vocabulary that no axiom reads are reported, annotations and declarations are not', () => {
      const w = warningsOf(
        [
          '<http://ex/onto> a owl:Ontology ; rdfs:comment "c" ; owl:versionInfo "1" ; owl:imports <http://ex/other> .',
          ':A a owl:Class ; rdfs:label "A" . :p a owl:ObjectProperty , rdf:Property .',
          '[] a owl:Restriction ; owl:onProperty :p ; owl:someValuesFrom :Z .',
          '[] a owl:Axiom ; owl:annotatedSource :A ; owl:annotatedProperty rdfs:subClassOf ; owl:annotatedTarget :B ; rdfs:comment "why" .',
          ':A rdfs:subClassOf :B .',
        ].join('\n'),
      ).map((w) => w.replace(/_:[A-Za-z0-9_-]+/g, '_:b'));
      expect(w).to.deep.equal([
        'Import(:other): imported ontologies are not read; ignored',
        'unrecognised triples _:b <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> owl:Restriction ; owl:onProperty :p ; owl:someValuesFrom :Z: not part of any axiom that was read (malformed or unsupported); ignored',
      ]);
    });
  });

  describe('RDF lists', () => {
    it('reads lists in order, however their nodes are written', () => {
      const ttl = ':C owl:intersectionOf _:l1 . _:l1 rdf:first :A ; rdf:rest _:l2 . _:l2 rdf:rest rdf:nil ; rdf:first [ owl:onProperty :p ; owl:hasValue :v ] .';
      expect(rulesOf(ttl)).to.deep.equal({
        'EquivalentClasses(:C ObjectIntersectionOf(:A ObjectHasValue(:p :v)))': ['[?x, a, :A] :- [?x, a, :C] .', '[?x, :p, :v] :- [?x, a, :C] .', '[?x, a, :C] :- [?x, a, :A], [?x, :p, :v] .'],
      });
      expect(warningsOf(ttl)).to.deep.equal([]);
    });

    const malformed: Array<[string, string, RegExp]> = [
      ['no rdf:nil at the end', ':C owl:intersectionOf [ rdf:first :A ; rdf:rest :B ] .', /malformed RDF list: it ends in :B instead of rdf:nil/],
      ['two rdf:first', ':C owl:intersectionOf [ rdf:first :A , :B ; rdf:rest rdf:nil ] .', /malformed RDF list: node _:\S+ has 2 rdf:first values/],
      ['no rdf:rest', ':C owl:intersectionOf [ rdf:first :A ] .', /malformed RDF list: node _:\S+ has 0 rdf:rest values/],
      ['a cycle', ':C owl:intersectionOf _:l . _:l rdf:first :A ; rdf:rest _:l .', /malformed RDF list: cycle through _:\S+/],
      ['a literal in the spine', ':C owl:intersectionOf [ rdf:first :A ; rdf:rest "x" ] .', /malformed RDF list: "x" is a literal/],
      ['an empty list', ':C owl:intersectionOf () .', /has an empty owl:intersectionOf list/],
      ['not a list', ':C owl:unionOf :A .', /malformed RDF list: :A is not a list/],
    ];
    for (const [what, ttl, pattern] of malformed) {
      it(`reports a malformed list: ${what}`, () => {
        const t = translate(ttl);
        expect(t.axioms.flatMap((a) => a.rules)).to.deep.equal([]);
        expect(t.warnings).to.have.length(1);
        expect(short(t.warnings[0]!)).to.match(/^EquivalentClasses\(:C Malformed\(:C\)\): /);
        expect(short(t.warnings[0]!)).to.match(pattern);
      });
    }

    it('malformed member lists of n-ary axioms', () => {
      const w = warningsOf('[] a owl:AllDisjointClasses ; owl:members [ rdf:first :A ] . :p owl:propertyChainAxiom [ rdf:first :q ; rdf:rest :r ] . :K owl:hasKey "x" .');
      expect(w.map((x) => x.replace(/_:[A-Za-z0-9_-]+/g, '_:b'))).to.deep.equal([
        'DisjointClasses(_:b): malformed RDF list: node _:b has 0 rdf:rest values (list of _:b); dropped',
        'HasKey(:K "x"): malformed RDF list: "x" is a literal, not a list node (list of :K); dropped',
        'SubObjectPropertyOf(ObjectPropertyChain(_:b) :p): malformed RDF list: it ends in :r instead of rdf:nil (list of :p); dropped',
      ]);
    });
  });

  describe('keys and output', () => {
    const ontology = [
      ':Chair owl:intersectionOf (:Person [ owl:onProperty :headOf ; owl:someValuesFrom :Department ]) .',
      ':A rdfs:subClassOf [ owl:unionOf (:B :C) ] , [ owl:intersectionOf (:D [ owl:onProperty :p ; owl:allValuesFrom [ owl:oneOf (:a :b) ] ]) ] .',
      '[] a owl:AllDisjointClasses ; owl:members (:X :Y :Z) .',
      ':p owl:propertyChainAxiom (:q :r) ; owl:inverseOf [ owl:inverseOf :s ] .',
      ':K owl:hasKey (:k2 :k1) .',
    ].join('\n');

    it('the same axioms read twice (other blank node labels, other triple order) give the same keys and rules', () => {
      const q1 = quadsOf(ontology);
      const q2 = new Parser({ blankNodePrefix: 'other' }).parse(TTL_PREFIXES + ontology).reverse();
      const t1 = translateAxioms(q1, { assertions: true });
      const t2 = translateAxioms(q2, { assertions: true });
      expect(t1.axioms.map((a) => a.key)).to.deep.equal(t2.axioms.map((a) => a.key));
      expect(t1.axioms.map((a) => ruleLines(a.rules))).to.deep.equal(t2.axioms.map((a) => ruleLines(a.rules)));
      expect(t1.warnings).to.deep.equal(t2.warnings);
      expect(t1.axioms.map((a) => a.key).join('\n')).not.to.match(/_:/);
    });

    it('set-like operands are sorted in keys; the same axiom stated twice appears once', () => {
      const t = translate(':A owl:disjointWith :B . :B owl:disjointWith :A . [] a owl:AllDisjointClasses ; owl:members (:B :A) .');
      expect(t.axioms.map((a) => short(a.key))).to.deep.equal(['DisjointClasses(:A :B)']);
      expect(t.axioms[0]!.rules).to.have.length(1);
    });

    it('removing an axiom removes exactly its key', () => {
      const before = translate(ontology).axioms.map((a) => short(a.key));
      const after = translate(ontology.replace(':K owl:hasKey (:k2 :k1) .', '')).axioms.map((a) => short(a.key));
      expect(before.filter((k) => !after.includes(k))).to.deep.equal(['HasKey(:K (:k1 :k2))']);
      expect(after.filter((k) => !before.includes(k))).to.deep.equal([]);
    });

    it('rules use the destination graph when given', () => {
      const t = translate(':A rdfs:subClassOf :B . :p a owl:TransitiveProperty .', { destinationGraph: `${EX}g` });
      expect(t.axioms.flatMap((a) => ruleLines(a.rules))).to.deep.equal([
        '[?x, a, :B] :g :- [?x, a, :A] :g .',
        '[?x, :p, ?z] :g :- [?x, :p, ?y] :g, [?y, :p, ?z] :g .',
      ]);
      for (const r of t.axioms.flatMap((a) => a.rules)) {
        for (const atom of [...r.head, ...r.body]) expect(atom).to.include({ kind: 'atom', table: 'Quads' });
      }
    });

    it('the rules written as Datalog parse back', () => {
      const t = translate(`${ontology}\n:dp a owl:DatatypeProperty ; rdfs:range xsd:integer . :f a owl:FunctionalProperty . :a owl:differentFrom :b .`);
      for (const a of t.axioms) {
        for (const line of ruleLines(a.rules)) {
          const parsed = parseDatalog(line, { prefixes: new Map([[':', EX], ['owl:', 'http://www.w3.org/2002/07/owl#'], ['xsd:', 'http://www.w3.org/2001/XMLSchema#']]) });
          expect(parsed.errors, line).to.deep.equal([]);
          expect(parsed.document.rules).to.have.length(1);
        }
      }
    });
  });
});
