/**
 * The FILTER conditions the OWL compiler builds as algebra are the ones the Datalog parser makes
 * of their text: every builder, and the filters of translated ontologies, are compared with
 * `parseDatalog` of the text they carry.
 */
import type * as RDF from '@rdfjs/types';
import { expect } from 'chai';
import { DataFactory } from 'n3';
import type { Rule } from '../../lib/datalog/ast.js';
import { parseDatalog } from '../../lib/formats/datalog-parser.js';
import {
  among,
  and,
  argument,
  coalesce,
  compare,
  constantTerm,
  datatype,
  FALSE,
  type FilterExpression,
  integer,
  iri,
  isLiteral,
  not,
} from '../../lib/owl/filters.js';
import { translate, XSD } from './helpers.js';

/** A structure with every RDF term replaced by its N-Triples-like text, so that terms of different factories compare equal. */
function plain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plain);
  if (value !== null && typeof value === 'object') {
    if ('termType' in value) {
      const t = value as RDF.Term;
      if (t.termType === 'Literal') return `"${t.value}"@${t.language}^^${t.datatype.value}`;
      return `${t.termType}:${t.value}`;
    }
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  }
  return value;
}

/** The expression the Datalog parser makes of a FILTER text. */
function parsed(text: string): unknown {
  const result = parseDatalog(`<urn:owl:h>[?h] :- FILTER(${text}) .`);
  expect(result.errors, text).to.deep.equal([]);
  const literal = result.document.rules[0]?.body[0];
  if (literal?.kind !== 'filter') throw new Error(`no filter in ${text}`);
  expect(literal.text).to.equal(text);
  return plain(literal.expression);
}

function expectParsesAsBuilt(f: FilterExpression): void {
  expect(plain(f.expression), f.text).to.deep.equal(parsed(f.text));
}

const a = argument({ kind: 'var', name: 'a' });
const b = argument({ kind: 'var', name: 'b' });

describe('owl: FILTER conditions built as algebra', () => {
  it('builds what the parser reads from the same text', () => {
    const cases: FilterExpression[] = [
      isLiteral(a),
      compare('=', datatype(a), iri(`${XSD}integer`)),
      among(datatype(a), [iri(`${XSD}int`), iri(`${XSD}short`)]),
      and(isLiteral(a), compare('>=', a, integer(-128n)), compare('<=', a, integer(127n))),
      compare('>=', a, integer(0n)),
      compare('<=', a, integer(18446744073709551615n)),
      not(and(isLiteral(a), compare('=', datatype(a), iri(`${XSD}string`))), true),
      not(isLiteral(a), true),
      compare('!=', a, b),
      and(not(isLiteral(a), false), not(isLiteral(b), false), compare('!=', a, b)),
      and(isLiteral(a), isLiteral(b), not(coalesce(compare('=', a, b), FALSE), false)),
      compare('!=', a, argument({ kind: 'const', term: DataFactory.namedNode('http://ex/i') })),
      among(a, [
        constantTerm(DataFactory.namedNode('http://ex/x')),
        constantTerm(DataFactory.literal('chat', 'fr')),
        constantTerm(DataFactory.literal('say "hi"\n\t\\ é \u0001', DataFactory.namedNode(`${XSD}string`))),
        constantTerm(DataFactory.literal('1', DataFactory.namedNode(`${XSD}integer`))),
        constantTerm(DataFactory.literal('x', DataFactory.namedNode('http://ex/dt'))),
      ]),
    ];
    for (const c of cases) expectParsesAsBuilt(c);
  });

  it('gives translated ontologies the filters their text parses to', () => {
    const { axioms } = translate(`
      :p a owl:ObjectProperty . :d a owl:DatatypeProperty . :q a owl:DatatypeProperty .
      :A rdfs:subClassOf [ a owl:Restriction ; owl:onProperty :d ; owl:allValuesFrom xsd:byte ] .
      :B rdfs:subClassOf [ a owl:Restriction ; owl:onProperty :p ; owl:maxCardinality 1 ] .
      :C rdfs:subClassOf [ a owl:Restriction ; owl:onProperty :d ; owl:maxCardinality 1 ] .
      :E rdfs:subClassOf [ a owl:Restriction ; owl:onProperty :q ; owl:allValuesFrom xsd:nonNegativeInteger ] .
      :F rdfs:subClassOf [ a owl:Restriction ; owl:onProperty :p ; owl:someValuesFrom [ owl:oneOf (:x :y) ] ] .
      :G owl:equivalentClass [ a owl:Restriction ; owl:onProperty :d ; owl:someValuesFrom xsd:string ] .
      :H rdfs:subClassOf [ a owl:Restriction ; owl:onProperty :r ; owl:maxCardinality 1 ] .
    `);
    const filters = axioms.flatMap((x) => x.rules).flatMap((r: Rule) => r.body.filter((l) => l.kind === 'filter'));
    expect(filters.length).to.be.greaterThan(3);
    for (const f of filters) expect(plain(f.expression), f.text).to.deep.equal(parsed(f.text));
  });
});
