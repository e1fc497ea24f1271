import { expect } from 'chai';
import { DataFactory as F } from 'n3';
import { createAnswerWriter, writeAnswers, writeBooleanAnswer, type AnswerTerm } from '../../../lib/formats/answers/index.js';
import { parseSparqlXml, showRows, table } from './answer-parsers.spec.js';

const EX = 'http://example.org/';
const XSD = 'http://www.w3.org/2001/XMLSchema#';
const XML = 'application/sparql-results+xml';
type Row = Array<AnswerTerm | undefined>;

describe('XML answer writer', () => {
  it('writes the SPARQL results XML format', () => {
    const rows: Row[] = [
      [F.namedNode(`${EX}a`), F.literal('chat', 'fr'), F.literal('1', F.namedNode(`${XSD}integer`))],
      [F.blankNode('r1'), undefined, F.literal('s')],
    ];
    expect(writeAnswers(XML, ['x', 'y', 'z'], rows)).to.equal(
      [
        '<?xml version="1.0"?>',
        '<sparql xmlns="http://www.w3.org/2005/sparql-results#">',
        '  <head>',
        '    <variable name="x"/>',
        '    <variable name="y"/>',
        '    <variable name="z"/>',
        '  </head>',
        '  <results>',
        '    <result>',
        `      <binding name="x"><uri>${EX}a</uri></binding>`,
        '      <binding name="y"><literal xml:lang="fr">chat</literal></binding>',
        `      <binding name="z"><literal datatype="${XSD}integer">1</literal></binding>`,
        '    </result>',
        '    <result>',
        '      <binding name="x"><bnode>r1</bnode></binding>',
        '      <binding name="z"><literal>s</literal></binding>',
        '    </result>',
        '  </results>',
        '</sparql>',
        '',
      ].join('\n'),
    );
  });

  it('writes boolean answers', () => {
    for (const value of [true, false]) {
      const xml = writeBooleanAnswer(XML, value);
      expect(xml).to.equal(
        `<?xml version="1.0"?>\n<sparql xmlns="http://www.w3.org/2005/sparql-results#">\n  <head/>\n  <boolean>${value}</boolean>\n</sparql>\n`,
      );
      expect(parseSparqlXml(xml)).to.deep.equal({ boolean: value });
    }
  });

  it('writes empty results and zero variables', () => {
    expect(parseSparqlXml(writeAnswers(XML, ['x'], []))).to.deep.equal({ variables: ['x'], rows: [] });
    expect(parseSparqlXml(writeAnswers(XML, [], [[]]))).to.deep.equal({ variables: [], rows: [[]] });
  });

  it('escapes markup characters in text and attributes', () => {
    const text = 'a < b && c > d ]]> "q" \'s\'';
    const xml = writeAnswers(XML, ['v&"<>'], [[F.literal(text, F.namedNode(`${EX}t?a=1&b=<2>`))], [F.namedNode(`${EX}?a=1&b=<2>`)]]);
    expect(xml).to.include(`<binding name="v&amp;&quot;&lt;&gt;"><literal datatype="${EX}t?a=1&amp;b=&lt;2&gt;">a &lt; b &amp;&amp; c &gt; d ]]&gt; "q" 's'</literal>`);
    expect(xml).to.include(`<uri>${EX}?a=1&amp;b=&lt;2&gt;</uri>`);
    const answer = table(parseSparqlXml(xml));
    expect(answer.variables).to.deep.equal(['v&"<>']);
    expect(showRows(answer.rows)).to.deep.equal(showRows([[F.literal(text, F.namedNode(`${EX}t?a=1&b=<2>`))], [F.namedNode(`${EX}?a=1&b=<2>`)]]));
  });

  it('keeps line ends and tabs through XML normalisation', () => {
    const value = 'one\r\ntwo\rthree\n\tfour';
    const xml = writeAnswers(XML, ['v\tw'], [[F.literal(value, 'en')]]);
    expect(xml).to.include('<variable name="v&#9;w"/>');
    expect(xml).to.include('one&#13;\ntwo&#13;three\n\tfour');
    const answer = table(parseSparqlXml(xml));
    expect(answer.variables).to.deep.equal(['v\tw']);
    expect(answer.rows[0]![0]!.value).to.equal(value);
  });

  it('keeps unicode, and replaces characters XML 1.0 cannot hold by U+FFFD', () => {
    const xml = writeAnswers(XML, ['v'], [[F.literal('é 日本語 😀 \u0000\u0008\u000b\u001f\ufffe\uffff \ud800x \udc00')]]);
    expect(table(parseSparqlXml(xml)).rows[0]![0]!.value).to.equal('é 日本語 😀 \ufffd\ufffd\ufffd\ufffd\ufffd\ufffd \ufffdx \ufffd');
  });

  it('streams: head at begin, one result per row, the closing tags at end', () => {
    const chunks: string[] = [];
    const writer = createAnswerWriter(XML, (c) => chunks.push(c));
    writer.begin(['x']);
    expect(chunks).to.have.length(1);
    expect(chunks[0]).to.match(/<results>\n$/);
    writer.row([F.literal('1')]);
    expect(chunks[1]).to.equal('    <result>\n      <binding name="x"><literal>1</literal></binding>\n    </result>\n');
    writer.end();
    expect(chunks[2]).to.equal('  </results>\n</sparql>\n');
  });
});
