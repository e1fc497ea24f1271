import { expect } from 'chai';
import { DataFactory as F } from 'n3';
import { writeAnswers, type AnswerTerm } from '../../../lib/formats/answers/index.js';
import { PrefixAbbreviator, blankNodeLabel, relativizer, shortLiteral } from '../../../lib/formats/answers/term-syntax.js';
import { parseCsv, parseSparqlXml, parseTsv, showRows, table } from './answer-parsers.spec.js';
import { parseAnswerLines } from './turtle-writer.spec.js';

const EX = 'http://example.org/';
const XSD = 'http://www.w3.org/2001/XMLSchema#';
type Row = Array<AnswerTerm | undefined>;

const prefixes = new Map([
  ['ex:', EX],
  ['exs:', `${EX}sub/`],
  [':', 'http://default.example/'],
  ['xsd:', XSD],
]);

const rows: Row[] = [
  [F.namedNode(`${EX}a`), F.namedNode(`${EX}sub/b`), F.namedNode('http://default.example/c')],
  [F.namedNode(`${EX}has/slash`), F.namedNode('http://nowhere.example/x'), F.literal('5', F.namedNode(`${XSD}integer`))],
  [F.literal('d', F.namedNode(`${XSD}date`)), F.blankNode('b0'), F.literal('x', 'en')],
  [F.namedNode(`${EX}`), F.namedNode(`${EX}trailing.`), undefined],
];

describe('the -abbrev answer formats', () => {
  describe('PrefixAbbreviator', () => {
    it('uses the longest namespace that leaves a valid local part', () => {
      const abbreviator = new PrefixAbbreviator(prefixes);
      expect(abbreviator.abbreviate(`${EX}sub/b`)).to.equal('exs:b');
      expect(abbreviator.abbreviate(`${EX}sub`)).to.equal('ex:sub');
      expect(abbreviator.abbreviate(`${EX}sub/x/y`)).to.equal(undefined);
      expect(abbreviator.abbreviate(`${EX}`)).to.equal('ex:');
      expect(abbreviator.abbreviate('http://default.example/c')).to.equal(':c');
      expect(abbreviator.abbreviate('http://unknown.example/c')).to.equal(undefined);
    });

    it('accepts exactly the Turtle local parts (no escapes)', () => {
      const abbreviator = new PrefixAbbreviator(new Map([['ex:', EX]]));
      const valid = ['a', '1a', '_a', 'a.b', 'a-b', 'a:b', ':a', 'a%20b', 'é', 'a·b', '123', 'a\u0301'];
      const invalid = ['a/b', 'a.', '.a', '-a', 'a b', 'a#b', 'a?b', 'a%2', 'a~b', "a'b", 'a,b', 'a(b)', 'a\tb'];
      for (const local of valid) expect(abbreviator.abbreviate(EX + local), local).to.equal(`ex:${local}`);
      for (const local of invalid) expect(abbreviator.abbreviate(EX + local), local).to.equal(undefined);
    });

    it('ignores prefix names that are not valid and empty namespaces; the first of equal namespaces wins', () => {
      const abbreviator = new PrefixAbbreviator(
        new Map([
          ['bad name:', EX],
          ['1x:', EX],
          ['noColon', EX],
          ['e:', ''],
          ['first:', EX],
          ['second:', EX],
        ]),
      );
      expect(abbreviator.prefixes.map(([name]) => name)).to.deep.equal(['first:', 'second:']);
      expect(abbreviator.abbreviate(`${EX}a`)).to.equal('first:a');
      expect(abbreviator.abbreviate('b')).to.equal(undefined);
    });
  });

  describe('term helpers', () => {
    it('relativizer only writes references that resolve back to the IRI', () => {
      const relative = relativizer('http://e.org/dir/')!;
      expect(relative('http://e.org/dir/a/b?q#f')).to.equal('a/b?q#f');
      expect(relative('http://e.org/dir/')).to.equal('');
      expect(relative('http://e.org/dir/#f')).to.equal('#f');
      expect(relative('http://e.org/dir/?q')).to.equal('?q');
      expect(relative('http://e.org/other')).to.equal(undefined);
      expect(relative('http://e.org/dir//x')).to.equal(undefined);
      expect(relative('http://e.org/dir/a:b')).to.equal(undefined);
      expect(relative('http://e.org/dir/./a')).to.equal(undefined);
      expect(relative('http://e.org/dir/a/..')).to.equal(undefined);
      expect(relativizer('http://e.org/dir/doc')).to.equal(undefined);
      expect(relativizer('http://e.org/dir/?q=/')).to.equal(undefined);
      expect(relativizer('http://e.org/a/../b/')).to.equal(undefined);
      expect(relativizer('not an iri/')).to.equal(undefined);
    });

    it('shortLiteral and blankNodeLabel', () => {
      expect(shortLiteral(`${XSD}integer`, '007')).to.equal('007');
      expect(shortLiteral(`${XSD}decimal`, '7')).to.equal(undefined);
      expect(shortLiteral(`${XSD}double`, '7.0')).to.equal(undefined);
      expect(shortLiteral(`${XSD}double`, '7E0')).to.equal('7E0');
      expect(shortLiteral(`${XSD}boolean`, 'false')).to.equal('false');
      expect(shortLiteral(`${XSD}string`, '1')).to.equal(undefined);
      expect(blankNodeLabel('b0')).to.equal('b0');
      expect(blankNodeLabel('0.a_b-c')).to.equal('0.a_b-c');
      expect(blankNodeLabel('a.')).to.equal('xa_2E_');
      expect(blankNodeLabel('')).to.equal('x');
    });
  });

  it('text/x.tab-separated-values-abbrev: prefixed names instead of <…>, short numbers, reads back with the prefixes', () => {
    const text = writeAnswers('text/x.tab-separated-values-abbrev', ['a', 'b', 'c'], rows, { prefixes });
    expect(text).to.equal(
      [
        '?a\t?b\t?c',
        'ex:a\texs:b\t:c',
        `<${EX}has/slash>\t<http://nowhere.example/x>\t5`,
        '"d"^^xsd:date\t_:b0\t"x"@en',
        `ex:\t<${EX}trailing.>\t`,
        '',
      ].join('\n'),
    );
    expect(showRows(table(parseTsv(text, prefixes)).rows)).to.deep.equal(showRows(rows));
  });

  it('text/x.csv-abbrev: prefixed names where a prefix applies, everything else as in CSV', () => {
    const text = writeAnswers('text/x.csv-abbrev', ['a', 'b', 'c'], rows, { prefixes });
    expect(parseCsv(text)).to.deep.equal([
      ['a', 'b', 'c'],
      ['ex:a', 'exs:b', ':c'],
      [`${EX}has/slash`, 'http://nowhere.example/x', '5'],
      ['d', '_:b0', 'x'],
      ['ex:', `${EX}trailing.`, ''],
    ]);
  });

  it('application/x.sparql-results+json-abbrev: uri values and datatypes abbreviated', () => {
    const json = JSON.parse(writeAnswers('application/x.sparql-results+json-abbrev', ['a', 'b', 'c'], rows, { prefixes })) as unknown;
    expect(json).to.deep.equal({
      head: { vars: ['a', 'b', 'c'] },
      results: {
        bindings: [
          { a: { type: 'uri', value: 'ex:a' }, b: { type: 'uri', value: 'exs:b' }, c: { type: 'uri', value: ':c' } },
          {
            a: { type: 'uri', value: `${EX}has/slash` },
            b: { type: 'uri', value: 'http://nowhere.example/x' },
            c: { type: 'literal', value: '5', datatype: 'xsd:integer' },
          },
          {
            a: { type: 'literal', value: 'd', datatype: 'xsd:date' },
            b: { type: 'bnode', value: 'b0' },
            c: { type: 'literal', value: 'x', 'xml:lang': 'en' },
          },
          { a: { type: 'uri', value: 'ex:' }, b: { type: 'uri', value: `${EX}trailing.` } },
        ],
      },
    });
  });

  it('application/x.sparql-results+xml-abbrev: uri contents and datatypes abbreviated', () => {
    const xml = writeAnswers('application/x.sparql-results+xml-abbrev', ['a', 'b', 'c'], rows, { prefixes });
    expect(xml).to.include('<binding name="a"><uri>ex:a</uri></binding>');
    expect(xml).to.include('<binding name="c"><literal datatype="xsd:integer">5</literal></binding>');
    const expand = (value: string): string => {
      const colon = value.indexOf(':');
      const namespace = prefixes.get(value.slice(0, colon + 1));
      return namespace !== undefined && !value.startsWith('http://') ? namespace + value.slice(colon + 1) : value;
    };
    expect(showRows(table(parseSparqlXml(xml, expand)).rows)).to.deep.equal(showRows(rows));
  });

  it('application/x.sparql-results+turtle-abbrev: the prefixes declared, then answer lines with prefixed names', () => {
    const text = writeAnswers('application/x.sparql-results+turtle-abbrev', ['a', 'b', 'c'], rows, { prefixes });
    expect(text).to.equal(
      [
        `@prefix ex: <${EX}> .`,
        `@prefix exs: <${EX}sub/> .`,
        '@prefix : <http://default.example/> .',
        `@prefix xsd: <${XSD}> .`,
        '',
        'ex:a exs:b :c .',
        `<${EX}has/slash> <http://nowhere.example/x> 5 .`,
        '"d"^^xsd:date _:b0 "x"@en .',
        `ex: <${EX}trailing.> UNDEF .`,
        '',
      ].join('\n'),
    );
    expect(showRows(parseAnswerLines(text, ['a', 'b', 'c']).rows)).to.deep.equal(showRows(rows));
  });

  it('without prefixes the -abbrev formats write what the plain formats write', () => {
    const pairs = [
      ['text/x.csv-abbrev', 'text/csv'],
      ['text/x.tab-separated-values-abbrev', 'text/tab-separated-values'],
      ['application/x.sparql-results+json-abbrev', 'application/sparql-results+json'],
      ['application/x.sparql-results+xml-abbrev', 'application/sparql-results+xml'],
      ['application/x.sparql-results+turtle-abbrev', 'application/x.sparql-results+turtle'],
    ];
    for (const [abbrev, plain] of pairs) {
      expect(writeAnswers(abbrev!, ['a', 'b', 'c'], rows), abbrev).to.equal(writeAnswers(plain!, ['a', 'b', 'c'], rows));
    }
  });

  it('the plain formats ignore the prefixes and the base IRI', () => {
    for (const type of ['text/csv', 'text/tab-separated-values', 'application/sparql-results+json', 'application/sparql-results+xml', 'application/x.sparql-results+turtle']) {
      expect(writeAnswers(type, ['a', 'b', 'c'], rows, { prefixes, baseIRI: EX }), type).to.equal(writeAnswers(type, ['a', 'b', 'c'], rows));
    }
  });
});
