import { expect } from 'chai';
import { DataFactory as F, Parser } from 'n3';
import { createAnswerWriter, writeAnswers, writeBooleanAnswer, type AnswerTerm } from '../../../lib/formats/answers/index.js';
import { parseResultSetTurtle, showRows, table } from './answer-parsers.spec.js';

const EX = 'http://example.org/';
const XSD = 'http://www.w3.org/2001/XMLSchema#';
const RS = 'http://www.w3.org/2001/sw/DataAccess/tests/result-set#';
const TURTLE = 'application/x.sparql-results+turtle';
const TURTLE_ABBREV = 'application/x.sparql-results+turtle-abbrev';
type Row = Array<AnswerTerm | undefined>;

const rows: Row[] = [
  [F.namedNode(`${EX}a`), F.literal('chat', 'fr'), F.literal('1', F.namedNode(`${XSD}integer`))],
  [F.blankNode('r1'), undefined, F.literal('multi\nline "q" \\', F.namedNode(`${EX}dt`))],
  [undefined, undefined, undefined],
];

describe('Turtle (result-set vocabulary) answer writer', () => {
  it('writes a result set with one rs:solution per row, numbered by rs:index', () => {
    expect(writeAnswers(TURTLE, ['x', 'y', 'z'], rows)).to.equal(
      [
        `@prefix rs: <${RS}> .`,
        '',
        '[] a rs:ResultSet ;',
        '    rs:resultVariable "x", "y", "z" ;',
        `    rs:solution [ rs:index 1 ; rs:binding [ rs:variable "x" ; rs:value <${EX}a> ], [ rs:variable "y" ; rs:value "chat"@fr ], [ rs:variable "z" ; rs:value 1 ] ] ;`,
        `    rs:solution [ rs:index 2 ; rs:binding [ rs:variable "x" ; rs:value _:r1 ], [ rs:variable "z" ; rs:value "multi\\nline \\"q\\" \\\\"^^<${EX}dt> ] ] ;`,
        '    rs:solution [ rs:index 3 ] .',
        '',
      ].join('\n'),
    );
  });

  it('is Turtle that reads back as the same answers', () => {
    const answer = table(parseResultSetTurtle(writeAnswers(TURTLE, ['x', 'y', 'z'], rows), ['x', 'y', 'z']));
    expect(showRows(answer.rows)).to.deep.equal(showRows(rows));
  });

  it('writes boolean answers with rs:boolean', () => {
    for (const value of [true, false]) {
      const text = writeBooleanAnswer(TURTLE, value);
      expect(text).to.equal(`@prefix rs: <${RS}> .\n\n[] a rs:ResultSet ;\n    rs:boolean ${value} .\n`);
      expect(parseResultSetTurtle(text)).to.deep.equal({ boolean: value });
    }
  });

  it('writes empty results and zero variables', () => {
    const empty = writeAnswers(TURTLE, ['x'], []);
    expect(empty).to.equal(`@prefix rs: <${RS}> .\n\n[] a rs:ResultSet ;\n    rs:resultVariable "x" .\n`);
    expect(parseResultSetTurtle(empty)).to.deep.equal({ variables: ['x'], rows: [] });
    const none = writeAnswers(TURTLE, [], [[], []]);
    expect(none).to.equal(`@prefix rs: <${RS}> .\n\n[] a rs:ResultSet ;\n    rs:solution [ rs:index 1 ] ;\n    rs:solution [ rs:index 2 ] .\n`);
    expect(parseResultSetTurtle(none)).to.deep.equal({ variables: [], rows: [[], []] });
  });

  it('escapes variable names, strings and IRIs', () => {
    const answer: Row[] = [[F.literal('tab\t"é😀"\u0001'), F.namedNode(`${EX}a b`)]];
    const text = writeAnswers(TURTLE, ['v"1', 'w'], answer);
    expect(text).to.include('rs:resultVariable "v\\"1", "w"');
    expect(text).to.include(`"tab\\t\\"é😀\\"\\u0001"`);
    expect(text).to.include(`<${EX}a\\u0020b>`);
  });

  it('the -abbrev variant declares and uses the prefixes, and the base IRI', () => {
    const prefixes = new Map([
      ['ex:', EX],
      ['xsd:', XSD],
      ['rs:', 'http://example.org/other/'],
      ['bad prefix:', 'http://bad/'],
    ]);
    const answer: Row[] = [
      [F.namedNode(`${EX}a`), F.literal('x', F.namedNode(`${XSD}date`)), F.namedNode('http://base.example/doc/p/q#f')],
      [F.namedNode('http://base.example/doc/../x'), F.namedNode('http://other.example/a'), F.namedNode('http://base.example/doc/')],
    ];
    const text = writeAnswers(TURTLE_ABBREV, ['s', 'd', 'r'], answer, { prefixes, baseIRI: 'http://base.example/doc/' });
    expect(text).to.equal(
      [
        '@base <http://base.example/doc/> .',
        `@prefix rs1: <${RS}> .`,
        `@prefix ex: <${EX}> .`,
        `@prefix xsd: <${XSD}> .`,
        '@prefix rs: <http://example.org/other/> .',
        '',
        '[] a rs1:ResultSet ;',
        '    rs1:resultVariable "s", "d", "r" ;',
        '    rs1:solution [ rs1:index 1 ; rs1:binding [ rs1:variable "s" ; rs1:value ex:a ], [ rs1:variable "d" ; rs1:value "x"^^xsd:date ], [ rs1:variable "r" ; rs1:value <p/q#f> ] ] ;',
        '    rs1:solution [ rs1:index 2 ; rs1:binding [ rs1:variable "s" ; rs1:value <http://base.example/doc/../x> ], [ rs1:variable "d" ; rs1:value <http://other.example/a> ], [ rs1:variable "r" ; rs1:value <> ] ] .',
        '',
      ].join('\n'),
    );
    const back = table(parseResultSetTurtle(text, ['s', 'd', 'r']));
    expect(showRows(back.rows)).to.deep.equal(showRows(answer));
  });

  it('the -abbrev variant reuses a prefix the store has for the result-set vocabulary', () => {
    const text = writeAnswers(TURTLE_ABBREV, ['x'], [[F.namedNode(`${RS}value`)]], { prefixes: new Map([['r:', RS]]) });
    expect(text.startsWith(`@prefix r: <${RS}> .\n\n[] a r:ResultSet ;\n    r:resultVariable "x" ;\n    r:solution [ r:index 1 ; r:binding [ r:variable "x" ; r:value r:value ] ] .`)).to.equal(true);
    expect(new Parser().parse(text)).to.have.length.greaterThan(0);
  });

  it('streams: the preamble and resource at begin, each solution as its row is given', () => {
    const chunks: string[] = [];
    const writer = createAnswerWriter(TURTLE, (c) => chunks.push(c));
    writer.begin(['x']);
    expect(chunks).to.have.length(1);
    writer.row([F.literal('1')]);
    expect(chunks[1]).to.equal(' ;\n    rs:solution [ rs:index 1 ; rs:binding [ rs:variable "x" ; rs:value "1" ] ]');
    writer.end();
    expect(chunks[2]).to.equal(' .\n');
  });
});
