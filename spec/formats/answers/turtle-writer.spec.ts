import { expect } from 'chai';
import { DataFactory as F, Parser } from 'n3';
import { createAnswerWriter, writeAnswers, writeBooleanAnswer, type AnswerTerm } from '../../../lib/formats/answers/index.js';
import { showRows, table, type Answer } from './answer-parsers.spec.js';

const EX = 'http://example.org/';
const XSD = 'http://www.w3.org/2001/XMLSchema#';
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
const TURTLE = 'application/x.sparql-results+turtle';
const TURTLE_ABBREV = 'application/x.sparql-results+turtle-abbrev';
type Row = Array<AnswerTerm | undefined>;

/** One value of an answer line: an IRI, a literal (with its tag or datatype) or any other token. */
const VALUE_RE = /<[^>]*>|"(?:[^"\\\n\r]|\\.)*"(?:@[A-Za-z]+(?:-[A-Za-z0-9]+)*(?:--[a-z]+)?|\^\^(?:<[^>]*>|[^\s"<>]+))?|[^\s"<>]+/y;

/** Where the value at `pos` of an answer line ends, or -1. */
function valueEnd(line: string, pos: number): number {
  VALUE_RE.lastIndex = pos;
  return VALUE_RE.exec(line) === null ? -1 : VALUE_RE.lastIndex;
}

/** Where the triple term `<<( … )>>` at `pos` of an answer line ends (its values separated by single spaces), or -1. */
function tripleTermEnd(line: string, pos: number): number {
  pos += 4;
  for (let part = 0; part < 3; part++) {
    const end = line.startsWith('<<(', pos) ? tripleTermEnd(line, pos) : valueEnd(line, pos);
    if (end < 0 || line[end] !== ' ') return -1;
    pos = end + 1;
  }
  return line.startsWith(')>>', pos) ? pos + 3 : -1;
}

/**
 * Reads answers in the line form of `application/x.sparql-results+turtle(-abbrev)`, whose
 * answers have the values of `variables` (the form does not name them): the `@base` and
 * `@prefix` lines with the empty line after them, then one line per answer, the values
 * separated by single spaces and followed by ` .`. A small tokenizer splits the lines (n3's lexer
 * has no `UNDEF`); the declarations and every value are then read by n3 as one Turtle document.
 */
export function parseAnswerLines(text: string, variables: readonly string[]): { variables: readonly string[]; rows: Row[] } {
  if (text === '') return { variables, rows: [] };
  if (!text.endsWith('\n')) throw new Error('the answers must end with a line end');
  const lines = text.slice(0, -1).split('\n');
  let document = '';
  while (lines.length > 0 && /^@(?:base|prefix) /.test(lines[0]!)) document += `${lines.shift()!}\n`;
  if (document !== '' && lines.shift() !== '') throw new Error('no empty line after the declarations');
  const rows = lines.map((line, r): Row => {
    const row: Row = [];
    let pos = 0;
    while (line.slice(pos) !== '.') {
      const end = line.startsWith('<<(', pos) ? tripleTermEnd(line, pos) : valueEnd(line, pos);
      if (end < 0 || line[end] !== ' ') throw new Error(`bad answer line ${JSON.stringify(line)} at ${pos}`);
      const value = line.slice(pos, end);
      pos = end + 1;
      if (value !== 'UNDEF') document += `<urn:x:r${r}> <urn:x:c${row.length}> ${value} .\n`;
      row.push(undefined);
    }
    if (row.length !== variables.length) throw new Error(`${JSON.stringify(line)} has ${row.length} values for ${variables.length} variables`);
    return row;
  });
  for (const quad of new Parser({ format: 'text/turtle', blankNodePrefix: '' }).parse(document)) {
    const row = rows[Number(quad.subject.value.slice('urn:x:r'.length))]!;
    const column = Number(quad.predicate.value.slice('urn:x:c'.length));
    if (row[column] !== undefined) throw new Error(`two values for ${quad.subject.value} ${quad.predicate.value}`);
    row[column] = quad.object as AnswerTerm;
  }
  return { variables, rows };
}

/** Reads a boolean answer: no answer line is false, one empty answer line is true. */
export function parseBooleanAnswerLines(text: string): Answer {
  const { rows } = parseAnswerLines(text, []);
  if (rows.length > 1) throw new Error(`${rows.length} answers to a boolean query`);
  return { boolean: rows.length === 1 };
}

const rows: Row[] = [
  [F.namedNode(`${EX}a`), F.literal('chat', 'fr'), F.literal('1', F.namedNode(`${XSD}integer`))],
  [F.blankNode('r1'), undefined, F.literal('multi\nline "q" \\', F.namedNode(`${EX}dt`))],
  [undefined, undefined, undefined],
];

/** The triples of a Turtle document as rows of terms, in order. */
function triples(text: string): Row[] {
  return new Parser({ format: 'text/turtle', blankNodePrefix: '' }).parse(text).map((q) => [q.subject, q.predicate, q.object] as Row);
}

describe('Turtle-like answer lines (application/x.sparql-results+turtle)', () => {
  it('writes one line per answer: the values in order, single spaces, then " ." — and no header', () => {
    expect(writeAnswers(TURTLE, ['x', 'y', 'z'], rows)).to.equal(
      [`<${EX}a> "chat"@fr 1 .`, `_:r1 UNDEF "multi\\nline \\"q\\" \\\\"^^<${EX}dt> .`, 'UNDEF UNDEF UNDEF .', ''].join('\n'),
    );
    expect(writeAnswers(TURTLE, ['other', 'names', 'here'], rows)).to.equal(writeAnswers(TURTLE, ['x', 'y', 'z'], rows));
  });

  it('reads back as the same answers', () => {
    const answer = parseAnswerLines(writeAnswers(TURTLE, ['x', 'y', 'z'], rows), ['x', 'y', 'z']);
    expect(showRows(answer.rows)).to.deep.equal(showRows(rows));
  });

  it('writes UNDEF for an unbound value wherever it is', () => {
    const answer: Row[] = [[undefined, F.literal('b')], [F.literal('a'), undefined], [undefined, undefined]];
    const text = writeAnswers(TURTLE, ['x', 'y'], answer);
    expect(text).to.equal('UNDEF "b" .\n"a" UNDEF .\nUNDEF UNDEF .\n');
    expect(showRows(parseAnswerLines(text, ['x', 'y']).rows)).to.deep.equal(showRows(answer));
    // a string "UNDEF" stays a quoted literal
    expect(writeAnswers(TURTLE, ['x'], [[F.literal('UNDEF')]])).to.equal('"UNDEF" .\n');
  });

  it('writes nothing for no answers, and the line "." for each answer with zero variables', () => {
    expect(writeAnswers(TURTLE, ['x', 'y'], [])).to.equal('');
    expect(writeAnswers(TURTLE, [], [])).to.equal('');
    expect(writeAnswers(TURTLE, [], [[], []])).to.equal('.\n.\n');
    expect(parseAnswerLines('.\n.\n', []).rows).to.deep.equal([[], []]);
    expect(writeAnswers(TURTLE, ['x'], [[F.literal('1', F.namedNode(`${XSD}integer`))], [undefined]])).to.equal('1 .\nUNDEF .\n');
  });

  it('writes a boolean as SELECT DISTINCT with no variables: true is ".", false is nothing', () => {
    expect(writeBooleanAnswer(TURTLE, true)).to.equal('.\n');
    expect(writeBooleanAnswer(TURTLE, false)).to.equal('');
    expect(writeBooleanAnswer(TURTLE, true)).to.equal(writeAnswers(TURTLE, [], [[]]));
    expect(writeBooleanAnswer(TURTLE, false)).to.equal(writeAnswers(TURTLE, [], []));
    expect(writeBooleanAnswer(TURTLE_ABBREV, true)).to.equal('.\n');
    expect(writeBooleanAnswer(TURTLE_ABBREV, false)).to.equal('');
    for (const value of [true, false]) expect(parseBooleanAnswerLines(writeBooleanAnswer(TURTLE, value))).to.deep.equal({ boolean: value });
    const chunks: string[] = [];
    createAnswerWriter(TURTLE, (c) => chunks.push(c)).boolean(false);
    expect(chunks).to.deep.equal([]);
  });

  it('the -abbrev variant writes its declarations before a boolean as before any answers', () => {
    const options = { prefixes: new Map([['ex:', EX]]), baseIRI: 'http://base.example/' };
    const preamble = `@base <http://base.example/> .\n@prefix ex: <${EX}> .\n\n`;
    expect(writeBooleanAnswer(TURTLE_ABBREV, true, options)).to.equal(`${preamble}.\n`);
    expect(writeBooleanAnswer(TURTLE_ABBREV, false, options)).to.equal(preamble);
    expect(writeBooleanAnswer(TURTLE_ABBREV, true, options)).to.equal(writeAnswers(TURTLE_ABBREV, [], [[]], options));
    expect(writeBooleanAnswer(TURTLE_ABBREV, false, options)).to.equal(writeAnswers(TURTLE_ABBREV, [], [], options));
    expect(parseBooleanAnswerLines(writeBooleanAnswer(TURTLE_ABBREV, true, options))).to.deep.equal({ boolean: true });
    expect(parseBooleanAnswerLines(writeBooleanAnswer(TURTLE_ABBREV, false, options))).to.deep.equal({ boolean: false });
  });

  it('writes literals with language tags, datatypes, short forms and escapes', () => {
    const answer: Row[] = [
      [F.literal('a b', 'en-GB'), F.literal('plain'), F.literal('x', F.namedNode(`${XSD}date`))],
      [F.literal('5.5', F.namedNode(`${XSD}decimal`)), F.literal('1.0e6', F.namedNode(`${XSD}double`)), F.literal('true', F.namedNode(`${XSD}boolean`))],
      [F.literal('7', F.namedNode(`${XSD}decimal`)), F.literal('+1', F.namedNode(`${XSD}integer`)), F.literal('yes', F.namedNode(`${XSD}boolean`))],
      [F.literal('tab\t"é😀"\u0001\r'), F.literal(''), F.literal('s', F.namedNode(`${XSD}string`))],
    ];
    const text = writeAnswers(TURTLE, ['a', 'b', 'c'], answer);
    expect(text).to.equal(
      [
        `"a b"@en-gb "plain" "x"^^<${XSD}date> .`,
        '5.5 1.0e6 true .',
        `"7"^^<${XSD}decimal> +1 "yes"^^<${XSD}boolean> .`,
        '"tab\\t\\"é😀\\"\\u0001\\r" "" "s" .',
        '',
      ].join('\n'),
    );
    expect(showRows(parseAnswerLines(text, ['a', 'b', 'c']).rows)).to.deep.equal(showRows(answer));
  });

  it('writes IRIs in angle brackets, characters not allowed there as \\u escapes', () => {
    const answer: Row[] = [[F.namedNode(`${EX}a b`), F.namedNode(`${EX}q?x=<1>&y="2"`), F.namedNode(`${EX}é#x`)]];
    const text = writeAnswers(TURTLE, ['a', 'b', 'c'], answer);
    expect(text).to.equal(`<${EX}a\\u0020b> <${EX}q?x=\\u003C1\\u003E&y=\\u00222\\u0022> <${EX}é#x> .\n`);
  });

  it('writes blank nodes as _:label, making labels that are not valid Turtle valid', () => {
    const text = writeAnswers(TURTLE, ['a', 'b', 'c'], [[F.blankNode('b0'), F.blankNode('0.a_b-c'), F.blankNode('a.')]]);
    expect(text).to.equal('_:b0 _:0.a_b-c _:xa_2E_ .\n');
    expect(showRows(parseAnswerLines(text, ['a', 'b', 'c']).rows)).to.deep.equal([['_:b0', '_:0.a_b-c', '_:xa_2E_']]);
  });

  it('the -abbrev variant declares the base IRI and the prefixes, then uses them', () => {
    const prefixes = new Map([
      ['ex:', EX],
      ['xsd:', XSD],
      [':', 'http://default.example/'],
      ['bad prefix:', 'http://bad/'],
      ['empty:', ''],
    ]);
    const answer: Row[] = [
      [F.namedNode(`${EX}a`), F.literal('x', F.namedNode(`${XSD}date`)), F.namedNode('http://base.example/doc/p/q#f')],
      [F.namedNode('http://base.example/doc/../x'), F.namedNode('http://other.example/a'), F.namedNode('http://base.example/doc/')],
      [F.namedNode('http://default.example/c'), F.namedNode(`${EX}has/slash`), undefined],
      [F.namedNode('http://bad/x'), F.literal('5', F.namedNode(`${XSD}integer`)), F.blankNode('b1')],
    ];
    const text = writeAnswers(TURTLE_ABBREV, ['s', 'd', 'r'], answer, { prefixes, baseIRI: 'http://base.example/doc/' });
    expect(text).to.equal(
      [
        '@base <http://base.example/doc/> .',
        `@prefix ex: <${EX}> .`,
        `@prefix xsd: <${XSD}> .`,
        '@prefix : <http://default.example/> .',
        '',
        'ex:a "x"^^xsd:date <p/q#f> .',
        '<http://base.example/doc/../x> <http://other.example/a> <> .',
        `:c <${EX}has/slash> UNDEF .`,
        '<http://bad/x> 5 _:b1 .',
        '',
      ].join('\n'),
    );
    expect(showRows(parseAnswerLines(text, ['s', 'd', 'r']).rows)).to.deep.equal(showRows(answer));
  });

  it('the -abbrev variant: no @base without a base IRI, and nothing before the answers without declarations', () => {
    const answer: Row[] = [[F.namedNode(`${EX}a`)], [F.namedNode('http://base.example/b')]];
    expect(writeAnswers(TURTLE_ABBREV, ['x'], answer, { prefixes: new Map([['ex:', EX]]) })).to.equal(`@prefix ex: <${EX}> .\n\nex:a .\n<http://base.example/b> .\n`);
    expect(writeAnswers(TURTLE_ABBREV, ['x'], answer, { baseIRI: 'http://base.example/' })).to.equal(`@base <http://base.example/> .\n\n<${EX}a> .\n<b> .\n`);
    expect(writeAnswers(TURTLE_ABBREV, ['x'], answer, { baseIRI: '' })).to.equal(writeAnswers(TURTLE, ['x'], answer));
    expect(writeAnswers(TURTLE_ABBREV, ['x'], answer)).to.equal(writeAnswers(TURTLE, ['x'], answer));
    // a base below which nothing can be written relative is still declared
    expect(writeAnswers(TURTLE_ABBREV, ['x'], answer, { baseIRI: 'http://base.example/doc' })).to.equal(
      `@base <http://base.example/doc> .\n\n<${EX}a> .\n<http://base.example/b> .\n`,
    );
  });

  it('the plain variant ignores the prefixes and the base IRI', () => {
    const options = { prefixes: new Map([['ex:', EX]]), baseIRI: EX };
    expect(writeAnswers(TURTLE, ['x', 'y', 'z'], rows, options)).to.equal(writeAnswers(TURTLE, ['x', 'y', 'z'], rows));
    expect(writeBooleanAnswer(TURTLE, true, options)).to.equal('.\n');
  });

  it('with three variables all bound, the answers are Turtle whose triples are the answers', () => {
    const answer: Row[] = [
      [F.namedNode(`${EX}a`), F.namedNode(RDF_TYPE), F.namedNode(`${EX}C`)],
      [F.blankNode('b0'), F.namedNode(`${EX}name`), F.literal('multi\nline "q" \\', 'en')],
      [F.namedNode('http://base.example/doc/x'), F.namedNode(`${EX}p/q`), F.literal('1', F.namedNode(`${XSD}integer`))],
      [F.namedNode(`${EX}a`), F.namedNode(`${EX}p`), F.literal('d', F.namedNode(`${XSD}date`))],
      [F.namedNode(`${EX}a`), F.namedNode(`${EX}p`), F.blankNode('b0')],
      [F.namedNode('http://base.example/doc/'), F.namedNode(`${EX}p`), F.literal('2.5E1', F.namedNode(`${XSD}double`))],
    ];
    const options = {
      prefixes: new Map([
        ['ex:', EX],
        ['xsd:', XSD],
        ['rdf:', 'http://www.w3.org/1999/02/22-rdf-syntax-ns#'],
      ]),
      baseIRI: 'http://base.example/doc/',
    };
    const plain = writeAnswers(TURTLE, ['s', 'p', 'o'], answer);
    const abbrev = writeAnswers(TURTLE_ABBREV, ['s', 'p', 'o'], answer, options);
    expect(abbrev).to.include('\nex:a rdf:type ex:C .\n');
    expect(abbrev).to.include('\n<x> <http://example.org/p/q> 1 .\n');
    expect(showRows(triples(plain))).to.deep.equal(showRows(answer));
    expect(showRows(triples(abbrev))).to.deep.equal(showRows(answer));
    const chunks: string[] = [];
    const writer = createAnswerWriter(TURTLE, (c) => chunks.push(c));
    writer.begin(['s', 'p', 'o']);
    for (const row of answer) writer.row(row);
    writer.end();
    // every line on its own is Turtle too
    for (const chunk of chunks) expect(triples(chunk)).to.have.length(1);
  });

  it('streams: nothing at begin (the declarations in -abbrev), one line per row, nothing at end', () => {
    const chunks: string[] = [];
    const writer = createAnswerWriter(TURTLE, (c) => chunks.push(c));
    writer.begin(['x']);
    expect(chunks).to.deep.equal([]);
    writer.row([F.literal('1')]);
    writer.row([undefined]);
    expect(chunks).to.deep.equal(['"1" .\n', 'UNDEF .\n']);
    writer.end();
    expect(chunks).to.have.length(2);

    const abbrevChunks: string[] = [];
    const abbrevWriter = createAnswerWriter(TURTLE_ABBREV, (c) => abbrevChunks.push(c), { prefixes: new Map([['ex:', EX]]) });
    abbrevWriter.begin(['x']);
    expect(abbrevChunks).to.deep.equal([`@prefix ex: <${EX}> .\n\n`]);
    abbrevWriter.row([F.namedNode(`${EX}a`)]);
    expect(abbrevChunks[1]).to.equal('ex:a .\n');
  });

  it('the reader rejects what is not the line form', () => {
    expect(() => parseAnswerLines('<http://e/a> .', ['x'])).to.throw();
    expect(() => parseAnswerLines('<http://e/a>  .\n', ['x'])).to.throw();
    expect(() => parseAnswerLines('<http://e/a>.\n', ['x'])).to.throw();
    expect(() => parseAnswerLines('<http://e/a> <http://e/b> .\n', ['x'])).to.throw();
    expect(() => parseAnswerLines('@prefix e: <http://e/> .\ne:a .\n', ['x'])).to.throw();
    expect(table(parseAnswerLines('@prefix e: <http://e/> .\n\ne:a .\n', ['x'])).rows.map((r) => r[0]?.value)).to.deep.equal(['http://e/a']);
  });
});
