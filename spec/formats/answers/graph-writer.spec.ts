/**
 * The writer of graph answers (CONSTRUCT and DESCRIBE): it hands text out as triples are given,
 * and the text is that of n3's Writer given the whole graph at once, in every RDF format.
 */
import { expect } from 'chai';
import { DataFactory as F, Parser, Writer } from 'n3';
import type * as RDF from '@rdfjs/types/data-model.js';
import { AnswerFormatError, GraphAnswerWriter, graphMediaType } from '../../../lib/formats/answers/index.js';

const EX = 'http://example.org/';
const prefixes = new Map([
  ['ex:', EX],
  ['xsd:', 'http://www.w3.org/2001/XMLSchema#'],
]);

const quads: RDF.Quad[] = [
  F.quad(F.namedNode(`${EX}a`), F.namedNode(`${EX}p`), F.literal('x', 'en')),
  F.quad(F.namedNode(`${EX}a`), F.namedNode(`${EX}p`), F.literal('5', F.namedNode('http://www.w3.org/2001/XMLSchema#integer'))),
  F.quad(F.namedNode(`${EX}a`), F.namedNode(`${EX}q`), F.blankNode('c1_b')),
  F.quad(F.blankNode('c1_b'), F.namedNode('http://www.w3.org/1999/02/22-rdf-syntax-ns#type'), F.namedNode('http://elsewhere.example/T')),
  F.quad(F.namedNode(`${EX}c`), F.namedNode(`${EX}p`), F.literal('line\nbreak "quoted"')),
];

function oneShot(format: string): string {
  const declared: Record<string, string> = {};
  for (const [name, iri] of prefixes) declared[name.slice(0, -1)] = iri;
  let text = '';
  const writer = new Writer({ format, prefixes: declared });
  writer.addQuads(quads);
  writer.end((error, result: string) => {
    if (error) throw error;
    text = result;
  });
  return text;
}

describe('formats: the graph answer writer', () => {
  for (const format of ['text/turtle', 'application/n-triples', 'application/n-quads', 'application/trig']) {
    it(`writes ${format} as the triples come, the text of a one-shot n3 Writer`, () => {
      const chunks: string[] = [];
      const writer = new GraphAnswerWriter(format, (chunk) => chunks.push(chunk), prefixes);
      const afterEach: number[] = [];
      for (const q of quads) {
        writer.quad(q);
        afterEach.push(chunks.join('').length);
      }
      writer.end();
      const text = chunks.join('');
      expect(text).to.equal(oneShot(format));
      // text is handed out with every triple, before the end
      expect(afterEach[0]).to.be.greaterThan(0);
      for (let i = 1; i < afterEach.length; i++) expect(afterEach[i]).to.be.greaterThan(afterEach[i - 1]!);
      expect(chunks.every((c) => c !== '')).to.equal(true);
      expect(new Parser({ format }).parse(text)).to.have.length(quads.length);
    });
  }

  it('writes an empty graph as the prefixes alone (Turtle) or nothing (N-Triples)', () => {
    const turtle: string[] = [];
    const t = new GraphAnswerWriter('text/turtle', (c) => turtle.push(c), prefixes);
    t.end();
    expect(turtle.join('')).to.equal(`@prefix ex: <${EX}>.\n@prefix xsd: <http://www.w3.org/2001/XMLSchema#>.\n\n`);
    const lines: string[] = [];
    const n = new GraphAnswerWriter('application/n-triples', (c) => lines.push(c), prefixes);
    n.end();
    expect(lines).to.deep.equal([]);
  });

  it('knows the RDF formats by their aliases and refuses the rest', () => {
    expect(graphMediaType('text/turtle; charset=utf-8')).to.equal('text/turtle');
    expect(graphMediaType('application/sparql-results+json')).to.equal(undefined);
    expect(() => new GraphAnswerWriter('application/sparql-results+json', () => undefined)).to.throw(AnswerFormatError);
  });

  it('refuses triples after the end', () => {
    const writer = new GraphAnswerWriter('application/n-triples', () => undefined);
    writer.end();
    expect(() => writer.quad(quads[0]!)).to.throw(/after the answer ended/);
  });
});
