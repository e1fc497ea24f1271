import { expect } from 'chai';
import { DataFactory } from 'n3';
import type * as RDF from '@rdfjs/types';
import {
  KIND_BLANK,
  KIND_IRI,
  KIND_LITERAL,
  RDF_LANG_STRING,
  XSD,
  XSD_STRING,
  iriKey,
  keyToTerm,
  normalizeLanguage,
  termToKey,
} from '../../lib/model/terms.js';
import { TermDictionary } from '../../lib/model/dictionary.js';

const namedNode = (iri: string): RDF.NamedNode => DataFactory.namedNode(iri);
const blankNode = (label: string): RDF.BlankNode => DataFactory.blankNode(label);
const literal = (value: string, languageOrDatatype?: string | RDF.NamedNode): RDF.Literal => DataFactory.literal(value, languageOrDatatype);
const variable = (name: string): RDF.Variable => DataFactory.variable(name);
const defaultGraph = (): RDF.DefaultGraph => DataFactory.defaultGraph();

/** A language-tagged literal from another RDF/JS factory that keeps the tag's case. */
function casedLiteral(value: string, language: string): RDF.Literal {
  const term: RDF.Literal = {
    termType: 'Literal',
    value,
    language,
    datatype: namedNode(RDF_LANG_STRING),
    equals: (other) => other?.termType === 'Literal' && other.value === value && other.language === language,
  };
  return term;
}

/** Asserts that `term` maps to `key` and back to an equal term. */
function roundTrip(term: RDF.Term, key: string): void {
  expect(termToKey(term)).to.equal(key);
  const back = keyToTerm(key);
  expect(back.equals(term), `${key} came back as ${JSON.stringify(back)}`).to.equal(true);
  expect(termToKey(back)).to.equal(key);
}

describe('terms', () => {
  describe('termToKey / keyToTerm', () => {
    it('round-trips IRIs', () => {
      roundTrip(namedNode('http://example.org/a'), '<http://example.org/a>');
      roundTrip(namedNode('http://example.org/路径?q=ü#frag'), '<http://example.org/路径?q=ü#frag>');
      roundTrip(namedNode(''), '<>');
      expect(keyToTerm('<http://example.org/a>').termType).to.equal('NamedNode');
    });

    it('round-trips blank nodes', () => {
      roundTrip(blankNode('b0'), '_:b0');
      roundTrip(blankNode('node-with.dots_and-dashes'), '_:node-with.dots_and-dashes');
      expect(keyToTerm('_:b0').termType).to.equal('BlankNode');
    });

    it('gives a simple literal and an explicit xsd:string literal the same key', () => {
      const simple = literal('hello');
      const typed = literal('hello', namedNode(XSD_STRING));
      expect(termToKey(simple)).to.equal('"hello"');
      expect(termToKey(typed)).to.equal('"hello"');
      const back = keyToTerm('"hello"');
      expect(back.termType).to.equal('Literal');
      expect(back.value).to.equal('hello');
      if (back.termType !== 'Literal') throw new Error('not a literal');
      expect(back.datatype.value).to.equal(XSD_STRING);
      expect(back.language).to.equal('');
      expect(back.equals(typed)).to.equal(true);
    });

    it('round-trips the empty literal and unicode lexical forms', () => {
      roundTrip(literal(''), '""');
      roundTrip(literal('héllo 日本 😀 𝄞'), '"héllo 日本 😀 𝄞"');
      roundTrip(literal('line\nbreak\ttab\\backslash'), '"line\nbreak\ttab\\backslash"');
    });

    it('lower-cases language tags and round-trips language-tagged literals', () => {
      expect(termToKey(casedLiteral('chat', 'FR'))).to.equal('"chat"@fr');
      expect(termToKey(casedLiteral('colour', 'en-GB'))).to.equal('"colour"@en-gb');
      expect(termToKey(literal('chat', 'FR'))).to.equal('"chat"@fr');
      roundTrip(literal('colour', 'en-gb'), '"colour"@en-gb');
      const back = keyToTerm('"chat"@fr');
      if (back.termType !== 'Literal') throw new Error('not a literal');
      expect(back.language).to.equal('fr');
      expect(back.datatype.value).to.equal(RDF_LANG_STRING);
      expect(normalizeLanguage('EN-Latn-US')).to.equal('en-latn-us');
    });

    it('round-trips datatype literals', () => {
      roundTrip(literal('42', namedNode(`${XSD}integer`)), `"42"^^<${XSD}integer>`);
      roundTrip(literal('', namedNode('http://example.org/dt')), '""^^<http://example.org/dt>');
      const back = keyToTerm(`"2024-01-01"^^<${XSD}date>`);
      if (back.termType !== 'Literal') throw new Error('not a literal');
      expect(back.value).to.equal('2024-01-01');
      expect(back.datatype.value).to.equal(`${XSD}date`);
      expect(back.language).to.equal('');
    });

    it('round-trips literals whose lexical form contains ", "@en and ^^<', () => {
      const tricky = ['"', '""', 'say "hi"', 'x"@en', '"@en', 'a"^^<http://example.org/dt>', '^^<', 'end"', '"@en"^^<x>"'];
      for (const lexical of tricky) {
        roundTrip(literal(lexical), `"${lexical}"`);
        roundTrip(literal(lexical, 'en'), `"${lexical}"@en`);
        roundTrip(literal(lexical, namedNode(`${XSD}token`)), `"${lexical}"^^<${XSD}token>`);
      }
    });

    it('keeps distinct terms distinct', () => {
      const terms: RDF.Term[] = [
        namedNode('a'),
        blankNode('a'),
        literal('a'),
        literal('a', 'en'),
        literal('a', namedNode(`${XSD}token`)),
        literal('a"@en'),
        literal('a"^^<a>'),
        literal('<a>'),
        literal('_:a'),
      ];
      const keys = terms.map(termToKey);
      expect(new Set(keys).size).to.equal(terms.length);
    });

    it('rejects variables and the default graph', () => {
      expect(() => termToKey(variable('x'))).to.throw(TypeError);
      expect(() => termToKey(defaultGraph())).to.throw(TypeError);
    });

    it('encodes the kind in the first character', () => {
      expect(termToKey(namedNode('x')).charCodeAt(0)).to.equal(KIND_IRI);
      expect(termToKey(blankNode('x')).charCodeAt(0)).to.equal(KIND_BLANK);
      expect(termToKey(literal('x')).charCodeAt(0)).to.equal(KIND_LITERAL);
      expect(iriKey('http://example.org/x')).to.equal(termToKey(namedNode('http://example.org/x')));
    });

    it('round-trips through the dictionary', () => {
      const terms: RDF.Term[] = [
        namedNode('http://example.org/ü'),
        blankNode('b1'),
        literal(''),
        casedLiteral('😀"@en', 'EN'),
        literal('1.5', namedNode(`${XSD}decimal`)),
      ];
      const dict = new TermDictionary();
      const ids = terms.map((t) => dict.intern(termToKey(t)));
      ids.forEach((id, i) => {
        const back = keyToTerm(dict.keyOf(id));
        const expected = terms[i]!;
        if (expected.termType === 'Literal' && expected.language) {
          expect(back.equals(literal(expected.value, expected.language.toLowerCase()))).to.equal(true);
        } else expect(back.equals(expected)).to.equal(true);
      });
    });
  });
});
