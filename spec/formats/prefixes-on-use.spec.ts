/**
 * Turtle and TriG declare only the prefixes their statements use: every declared prefix
 * abbreviates something after its declaration, no IRI that a store prefix could abbreviate is
 * left in full, and the document means the same facts (read back with n3, compared up to
 * blank-node isomorphism). Over the awkward terms of the byte writers' specs and IRIs chosen
 * around the prefix rules (nested namespaces, local names with dots and dashes, rdf:type as
 * predicate and object, datatypes written bare or not), with and without a base IRI.
 */
import { expect } from 'chai';
import type * as RDF from '@rdfjs/types';
import { DataFactory as F, Parser } from 'n3';
import { TermDictionary } from '../../lib/model/dictionary.js';
import { termToKey } from '../../lib/model/terms.js';
import { createRdfWriter } from '../../lib/formats/rdf-serialize.js';
import { TRIG, TURTLE } from '../../lib/formats/media-types.js';
import { awkwardTerms } from '../helpers/awkward-terms.js';
import { isomorphic } from '../helpers/isomorphism.js';

const EX = 'http://example.com/';
const RDF_NS = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
const XSD = 'http://www.w3.org/2001/XMLSchema#';
const PREFIXES = new Map([
  ['ex:', EX],
  ['exa:', `${EX}a/`],
  ['rdf:', RDF_NS],
  ['xsd:', XSD],
  ['owl:', 'http://www.w3.org/2002/07/owl#'],
  ['unused:', 'http://unused.example/'],
]);

/** Writes the quads as `mediaType` with the prefixes (and base) and returns the text. */
function write(quads: readonly RDF.Quad[], mediaType: string, baseIRI?: string): string {
  const dictionary = new TermDictionary();
  const id = (t: RDF.Term): number => dictionary.intern(termToKey(t));
  const writer = createRdfWriter(mediaType, dictionary, { prefixes: PREFIXES, ...(baseIRI !== undefined ? { baseIRI } : {}) });
  let text = '';
  for (const q of quads) {
    writer.statement(id(q.subject), id(q.predicate), id(q.object), q.graph.termType === 'DefaultGraph' ? -1 : id(q.graph));
    text += writer.take();
  }
  writer.end();
  return text + writer.take();
}

/** The declared prefix names, and the text without the declarations. */
function declarations(text: string): { names: string[]; body: string } {
  const names: string[] = [];
  const body = text.replace(/^@prefix ([A-Za-z][\w-]*)?: <[^>]*>\s*\.\s*$/gm, (_, name: string | undefined) => {
    names.push(name ?? '');
    return '';
  });
  return { names, body };
}

function quadsOf(text: string, mediaType: string): RDF.Quad[] {
  return new Parser({ format: mediaType }).parse(text);
}

describe('formats: Turtle and TriG declare the prefixes they use', () => {
  const ex = (local: string): RDF.NamedNode => F.namedNode(EX + local);
  const chosen: RDF.Quad[] = [
    F.quad(ex('alice'), F.namedNode(`${RDF_NS}type`), ex('Person')),
    F.quad(ex('a/b'), ex('p'), F.literal('1', F.namedNode(`${XSD}integer`))),
    F.quad(ex('x.y-z'), ex('p'), F.literal('1.5e0', F.namedNode(`${XSD}double`))),
    F.quad(ex('bad/local?q'), ex('p'), F.literal('x', F.namedNode(`${XSD}date`))),
    F.quad(ex('d'), ex('p'), F.namedNode(`${RDF_NS}type`)),
  ];

  it('declares exactly the prefixes that abbreviate something (chosen IRIs)', () => {
    const text = write(chosen, TURTLE);
    const { names, body } = declarations(text);
    expect(names.sort()).to.deep.equal(['ex', 'exa', 'rdf', 'xsd']);
    for (const name of names) expect(body, name).to.match(new RegExp(`(^|[\\s;,(\\[^])${name}:`, 'm'));
    expect(isomorphic(quadsOf(text, TURTLE), chosen)).to.equal(true);
  });

  it('needs no rdf: for rdf:type as a predicate, nor xsd: for literals written bare', () => {
    const quads = [F.quad(ex('a'), F.namedNode(`${RDF_NS}type`), ex('C')), F.quad(ex('a'), ex('n'), F.literal('42', F.namedNode(`${XSD}integer`))), F.quad(ex('a'), ex('s'), F.literal('s'))];
    const { names } = declarations(write(quads, TURTLE));
    expect(names).to.deep.equal(['ex']);
  });

  for (const mediaType of [TURTLE, TRIG]) {
    for (const baseIRI of [undefined, EX, 'http://elsewhere.example/']) {
      it(`keeps every declared prefix used and the facts the same over awkward terms (${mediaType}, base ${baseIRI ?? 'none'})`, () => {
        // IRIs Turtle can carry (the awkward terms include some that only N-Triples writers meet)
        const writable = (t: RDF.Term): boolean =>
          t.termType !== 'NamedNode' || (/^[a-z][a-z0-9+.-]*:/i.test(t.value) && ![...t.value].some((c) => c <= ' ' || (c >= '\u007f' && c <= '\u009f') || '<>"{}|^`\\'.includes(c)));
        const terms = awkwardTerms().filter((t) => writable(t) && (t.termType !== 'Literal' || writable(t.datatype)));
        const iris = terms.filter((t): t is RDF.NamedNode => t.termType === 'NamedNode');
        const quads: RDF.Quad[] = [];
        terms.forEach((o, i) => {
          const s = i % 3 === 0 ? F.blankNode(`b${i}`) : iris[i % iris.length]!;
          const g = mediaType === TRIG && i % 2 === 0 ? iris[(i + 1) % iris.length]! : F.defaultGraph();
          quads.push(F.quad(s, iris[(i + 2) % iris.length]!, o, g));
        });
        quads.push(...chosen);
        const text = write(quads, mediaType, baseIRI);
        const { names, body } = declarations(text);
        for (const name of names) expect(body, `${name}: declared but not used`).to.match(new RegExp(`(^|[\\s;,(\\[{^])${name}:`, 'm'));
        expect(names).to.not.include('unused');
        expect(isomorphic(quadsOf(text, mediaType), quads)).to.equal(true);
      });
    }
  }
});
