/**
 * RDF 1.2 terms in every answer format: triple terms (nested) and literals with a base
 * direction, as SPARQL 1.2 results formats write them.
 */
import type * as RDF from '@rdfjs/types';
import { expect } from 'chai';
import { DataFactory as F } from 'n3';
import {
  SPARQL_RESULTS_CSV,
  SPARQL_RESULTS_JSON,
  SPARQL_RESULTS_TSV,
  SPARQL_RESULTS_TURTLE,
  SPARQL_RESULTS_XML,
  createTsvByteWriter,
  writeAnswers,
  type AnswerTerm,
} from '../../../lib/formats/answers/index.js';

const EX = 'http://example.org/';
const factory: RDF.DataFactory = F;
const directional = factory.literal('שלום "x"', { language: 'he', direction: 'rtl' });
const inner = factory.quad(F.namedNode(`${EX}a`), F.namedNode(`${EX}b`), directional);
const outer = factory.quad(F.blankNode('r'), F.namedNode(`${EX}reifies`), inner);
const rows: AnswerTerm[][] = [[outer, directional]];

describe('answer writers: RDF 1.2 terms', () => {
  it('JSON: "type":"triple" with subject, predicate and object, and "its:dir"', () => {
    const json = JSON.parse(writeAnswers(SPARQL_RESULTS_JSON, ['t', 'l'], rows)) as { results: { bindings: Record<string, unknown>[] } };
    const literal = { type: 'literal', value: 'שלום "x"', 'xml:lang': 'he', 'its:dir': 'rtl' };
    expect(json.results.bindings).to.deep.equal([
      {
        t: {
          type: 'triple',
          value: {
            subject: { type: 'bnode', value: 'r' },
            predicate: { type: 'uri', value: `${EX}reifies` },
            object: { type: 'triple', value: { subject: { type: 'uri', value: `${EX}a` }, predicate: { type: 'uri', value: `${EX}b` }, object: literal } },
          },
        },
        l: literal,
      },
    ]);
  });

  it('XML: <triple> with <subject>, <predicate>, <object>, and its:dir', () => {
    const xml = writeAnswers(SPARQL_RESULTS_XML, ['t', 'l'], rows);
    const literal = '<literal xml:lang="he" its:dir="rtl" xmlns:its="http://www.w3.org/2005/11/its" its:version="2.0">שלום "x"</literal>';
    expect(xml).to.contain(
      `<binding name="t"><triple><subject><bnode>r</bnode></subject><predicate><uri>${EX}reifies</uri></predicate><object><triple><subject><uri>${EX}a</uri></subject><predicate><uri>${EX}b</uri></predicate><object>${literal}</object></triple></object></triple></binding>`,
    );
    expect(xml).to.contain(`<binding name="l">${literal}</binding>`);
  });

  it('TSV: <<( s p o )>> and @lang--dir, from terms and from the byte writer alike', () => {
    const expected = `?t\t?l\n<<( _:r <${EX}reifies> <<( <${EX}a> <${EX}b> "שלום \\"x\\""@he--rtl )>> )>>\t"שלום \\"x\\""@he--rtl\n`;
    expect(writeAnswers(SPARQL_RESULTS_TSV, ['t', 'l'], rows)).to.equal(expected);
    const bytes = createTsvByteWriter(SPARQL_RESULTS_TSV)!;
    bytes.begin(['t', 'l']);
    bytes.row(rows[0]!);
    bytes.end();
    expect(Buffer.concat(bytes.take()).toString('utf8')).to.equal(expected);
  });

  it('CSV: a triple term as <<( s p o )>> with its parts as TSV writes them, a literal as its lexical form', () => {
    expect(writeAnswers(SPARQL_RESULTS_CSV, ['t', 'l'], rows)).to.equal(
      `t,l\r\n"<<( _:r <${EX}reifies> <<( <${EX}a> <${EX}b> ""שלום \\""x\\""""@he--rtl )>> )>>","שלום ""x"""\r\n`,
    );
  });

  it('Turtle answers: triple terms and directions in Turtle 1.2 syntax', () => {
    const text = writeAnswers(SPARQL_RESULTS_TURTLE, ['t', 'l'], rows);
    expect(text).to.contain(`<<( _:r <${EX}reifies> <<( <${EX}a> <${EX}b> "שלום \\"x\\""@he--rtl )>> )>>`);
  });
});
