import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as RDF from '@rdfjs/types';
import { DataFactory as F, Parser } from 'n3';
import { SparqlJsonParser } from 'sparqljson-parse';
import { createAnswerWriter, writeAnswers, writeBooleanAnswer, type AnswerTerm } from '../../../lib/formats/answers/index.js';
import { show } from './answer-parsers.spec.js';
import { w3cPath } from '../../helpers/test-data.js';

const W3C = w3cPath('sparql/sparql11/json-res');
const EX = 'http://example.org/';
const XSD = 'http://www.w3.org/2001/XMLSchema#';
type Row = Array<AnswerTerm | undefined>;

const parser = new SparqlJsonParser();

/** Bindings as {variable: shown term} objects, for comparisons. */
function shownBindings(json: string): Array<Record<string, string | null>> {
  return parser.parseJsonResults(JSON.parse(json)).map((b) => Object.fromEntries(Object.entries(b).map(([k, t]) => [k, show(t)])));
}

/** The parsed JSON document. */
interface JsonDocument {
  head: { vars?: string[] };
  results?: { bindings: Array<Record<string, unknown>> };
}
const parse = (json: string): JsonDocument => JSON.parse(json) as JsonDocument;

function triples(): RDF.Quad[] {
  const quads = new Parser({ format: 'text/turtle', blankNodePrefix: '' }).parse(readFileSync(join(W3C, 'data.ttl'), 'utf8'));
  return quads.sort((a, b) => (a.subject.value < b.subject.value ? -1 : a.subject.value > b.subject.value ? 1 : 0));
}

const relabel = (t: RDF.Term): AnswerTerm => (t.termType === 'BlankNode' ? F.blankNode('b0') : (t as AnswerTerm));

describe('JSON answer writer', () => {
  describe('W3C json-res examples', () => {
    it('jsonres01: SELECT * (IRIs, simple and typed literals, a blank node)', () => {
      const rows = triples().map((q) => [q.subject, q.predicate, q.object].map(relabel));
      const json = writeAnswers('application/sparql-results+json', ['s', 'p', 'o'], rows);
      const expected = readFileSync(join(W3C, 'jsonres01.srj'), 'utf8');
      expect(parse(json).head).to.deep.equal(parse(expected).head);
      expect(shownBindings(json)).to.deep.equal(shownBindings(expected));
    });

    it('jsonres02: OPTIONAL (unbound variables left out of bindings)', () => {
      const all = triples();
      const rows: Row[] = all.flatMap((q): Row[] => {
        const base = [q.subject, q.predicate, q.object].map(relabel);
        const matches = all.filter((r) => r.subject.equals(q.object));
        return matches.length === 0 ? [[...base, undefined, undefined]] : matches.map((m) => [...base, relabel(m.predicate), relabel(m.object)]);
      });
      const json = writeAnswers('application/sparql-results+json', ['s', 'p', 'o', 'p2', 'o2'], rows);
      const expected = readFileSync(join(W3C, 'jsonres02.srj'), 'utf8');
      expect(parse(json).head).to.deep.equal(parse(expected).head);
      expect(shownBindings(json)).to.deep.equal(shownBindings(expected));
      expect(parse(json).results!.bindings[1]).to.have.keys('s', 'p', 'o');
    });

    for (const [file, value] of [['jsonres03.srj', true], ['jsonres04.srj', false]] as const) {
      it(`${file}: ASK ${value}`, () => {
        const json = writeBooleanAnswer('application/sparql-results+json', value);
        const expected = JSON.parse(readFileSync(join(W3C, file), 'utf8')) as unknown;
        expect(JSON.parse(json)).to.deep.equal(expected);
        expect(parser.parseJsonBoolean(JSON.parse(json))).to.equal(value);
      });
    }
  });

  it('writes the exact structure of the SPARQL 1.1 JSON format', () => {
    const rows: Row[] = [
      [F.namedNode(`${EX}a`), F.literal('chat', 'fr'), F.literal('1', F.namedNode(`${XSD}integer`)), F.literal('plain')],
      [F.blankNode('r1'), undefined, F.literal('s', F.namedNode(`${XSD}string`)), undefined],
    ];
    const json = writeAnswers('application/sparql-results+json', ['x', 'y', 'z', 'w'], rows);
    expect(JSON.parse(json)).to.deep.equal({
      head: { vars: ['x', 'y', 'z', 'w'] },
      results: {
        bindings: [
          {
            x: { type: 'uri', value: `${EX}a` },
            y: { type: 'literal', value: 'chat', 'xml:lang': 'fr' },
            z: { type: 'literal', value: '1', datatype: `${XSD}integer` },
            w: { type: 'literal', value: 'plain' },
          },
          { x: { type: 'bnode', value: 'r1' }, z: { type: 'literal', value: 's' } },
        ],
      },
    });
  });

  it('escapes quotes, backslashes, control characters and keeps unicode', () => {
    const value = 'say "hi"\\ \n\r\t\u0000\u001f\u2028 é 😀 </script>';
    const json = writeAnswers('application/sparql-results+json', ['v"\\'], [[F.literal(value)], [F.namedNode(`${EX}"q"`)]]);
    const parsed = JSON.parse(json) as { head: { vars: string[] }; results: { bindings: Array<Record<string, { value: string }>> } };
    expect(parsed.head.vars).to.deep.equal(['v"\\']);
    expect(parsed.results.bindings[0]!['v"\\']!.value).to.equal(value);
    expect(shownBindings(json)).to.deep.equal([{ 'v"\\': JSON.stringify(value) }, { 'v"\\': `<${EX}"q">` }]);
  });

  it('writes empty results, zero variables and all-unbound rows', () => {
    expect(JSON.parse(writeAnswers('application/sparql-results+json', ['x'], []))).to.deep.equal({ head: { vars: ['x'] }, results: { bindings: [] } });
    expect(JSON.parse(writeAnswers('application/sparql-results+json', [], [[]]))).to.deep.equal({ head: { vars: [] }, results: { bindings: [{}] } });
    expect(JSON.parse(writeAnswers('application/sparql-results+json', ['x', 'y'], [[undefined, undefined]]))).to.deep.equal({
      head: { vars: ['x', 'y'] },
      results: { bindings: [{}] },
    });
  });

  it('streams: the opening, then each binding as its row is given, then the closing', () => {
    const chunks: string[] = [];
    const writer = createAnswerWriter('application/sparql-results+json', (c) => chunks.push(c));
    writer.begin(['x']);
    expect(chunks.join('')).to.equal('{"head":{"vars":["x"]},"results":{"bindings":[');
    writer.row([F.namedNode(`${EX}1`)]);
    expect(chunks).to.have.length(2);
    expect(chunks[1]).to.equal(`\n{"x":{"type":"uri","value":"${EX}1"}}`);
    writer.row([F.literal('2')]);
    expect(chunks[2]).to.equal(',\n{"x":{"type":"literal","value":"2"}}');
    writer.end();
    expect(chunks[3]).to.equal('\n]}}\n');
    expect(JSON.parse(chunks.join(''))).to.have.nested.property('results.bindings').with.length(2);
  });
});
