import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as RDF from '@rdfjs/types';
import { DataFactory as F, Parser } from 'n3';
import {
  AnswerFormatError,
  createAnswerWriter,
  writeAnswers,
  type AnswerTerm,
} from '../../../lib/formats/answers/index.js';
import { parseCsv, parseTsv, showRows, table } from './answer-parsers.spec.js';
import { w3cPath } from '../../helpers/test-data.js';

const W3C = w3cPath('sparql/sparql11/csv-tsv-res');
const EX = 'http://example.org/';
const XSD = 'http://www.w3.org/2001/XMLSchema#';
type Row = Array<AnswerTerm | undefined>;

const read = (name: string): string => readFileSync(join(W3C, name), 'utf8');

/** The triples of a data file, ordered by subject (the test queries' ORDER BY ?s ?p ?o). */
function triples(file: string): RDF.Quad[] {
  const quads = new Parser({ format: 'text/turtle', baseIRI: `file://${W3C}/${file}`, blankNodePrefix: '' }).parse(read(file));
  return quads.sort((a, b) => (a.subject.value < b.subject.value ? -1 : a.subject.value > b.subject.value ? 1 : 0));
}

/** Renames blank nodes to the label the expected file uses. */
function relabel(term: RDF.Term, label: string): AnswerTerm {
  return (term.termType === 'BlankNode' ? F.blankNode(label) : term) as AnswerTerm;
}

/** `SELECT * WHERE { ?s ?p ?o }` ordered. */
function select01(file: string, blankLabel: string): Row[] {
  return triples(file).map((q) => [q.subject, q.predicate, q.object].map((t) => relabel(t, blankLabel)));
}

/** `SELECT * WHERE { ?s ?p ?o OPTIONAL { ?o ?p2 ?o2 } }` ordered. */
function select02(file: string, blankLabel: string): Row[] {
  const all = triples(file);
  const rows: Row[] = [];
  for (const q of all) {
    const base = [q.subject, q.predicate, q.object].map((t) => relabel(t, blankLabel));
    const matches = all.filter((r) => r.subject.equals(q.object));
    if (matches.length === 0) rows.push([...base, undefined, undefined]);
    for (const m of matches) rows.push([...base, relabel(m.predicate, blankLabel), relabel(m.object, blankLabel)]);
  }
  return rows;
}

/** The expected CSV with the CRLF line ends the format requires (the test files have LF). */
const crlf = (text: string): string => text.replace(/\r?\n/g, '\r\n');

describe('CSV and TSV answer writers', () => {
  describe('W3C csv-tsv-res examples, compared as text', () => {
    it('csvtsv01.csv', () => {
      expect(writeAnswers('text/csv', ['s', 'p', 'o'], select01('data.ttl', 'a'))).to.equal(crlf(read('csvtsv01.csv')));
    });

    it('csvtsv02.csv (unbound values)', () => {
      expect(writeAnswers('text/csv', ['s', 'p', 'o', 'p2', 'o2'], select02('data.ttl', 'a'))).to.equal(crlf(read('csvtsv02.csv')));
    });

    it('csvtsv03.csv (typed literals, a quoted field)', () => {
      expect(writeAnswers('text/csv', ['s', 'p', 'o'], select01('data2.ttl', 'a'))).to.equal(crlf(read('csvtsv03.csv')));
    });

    it('csvtsv01.tsv', () => {
      expect(writeAnswers('text/tab-separated-values', ['s', 'p', 'o'], select01('data.ttl', 'b0'))).to.equal(read('csvtsv01.tsv'));
    });

    it('csvtsv02.tsv (unbound values)', () => {
      expect(writeAnswers('text/tab-separated-values', ['s', 'p', 'o', 'p2', 'o2'], select02('data.ttl', 'b0'))).to.equal(read('csvtsv02.tsv'));
    });

    it('csvtsv03.tsv (typed literals, short forms)', () => {
      // The expected file writes the double "1.0E6" of data2.ttl as 1.0e6: the engine that made
      // it normalised the lexical form. The writer keeps lexical forms, so the answer given is the
      // term that file holds, "1.0e6"^^xsd:double.
      const rows = select01('data2.ttl', 'b0').map((row) =>
        row.map((t) => (t?.termType === 'Literal' && t.value === '1.0E6' ? F.literal('1.0e6', F.namedNode(`${XSD}double`)) : t)),
      );
      expect(writeAnswers('text/tab-separated-values', ['s', 'p', 'o'], rows)).to.equal(read('csvtsv03.tsv'));
    });
  });

  describe('CSV', () => {
    it('quotes fields with quotes, commas and line ends (RFC 4180) and ends lines with CRLF', () => {
      const rows: Row[] = [
        [F.literal('say "hi"'), F.literal('a,b'), F.literal('line\nbreak')],
        [F.literal('cr\rhere'), F.literal('tab\tand ünïcödé 😀'), F.literal(' spaces ')],
      ];
      const text = writeAnswers('text/csv', ['a,b', 'q"', 'plain'], rows);
      expect(text).to.equal(
        '"a,b","q""",plain\r\n' + '"say ""hi""","a,b","line\nbreak"\r\n' + '"cr\rhere",tab\tand ünïcödé 😀, spaces \r\n',
      );
      expect(parseCsv(text)).to.deep.equal([
        ['a,b', 'q"', 'plain'],
        ['say "hi"', 'a,b', 'line\nbreak'],
        ['cr\rhere', 'tab\tand ünïcödé 😀', ' spaces '],
      ]);
    });

    it('writes IRIs and literals as plain values, blank nodes as _:label, unbound as empty', () => {
      const rows: Row[] = [
        [F.namedNode(`${EX}a`), F.literal('chat', 'fr'), F.blankNode('n1'), undefined],
        [undefined, F.literal('1', F.namedNode(`${XSD}integer`)), F.literal(''), F.literal('x', F.namedNode(`${EX}dt`))],
      ];
      expect(writeAnswers('text/csv', ['a', 'b', 'c', 'd'], rows)).to.equal(`a,b,c,d\r\n${EX}a,chat,_:n1,\r\n,1,,x\r\n`);
    });

    it('writes an empty result as the header alone, and zero variables as empty lines', () => {
      expect(writeAnswers('text/csv', ['x', 'y'], [])).to.equal('x,y\r\n');
      expect(writeAnswers('text/csv', [], [[], []])).to.equal('\r\n\r\n\r\n');
    });

    it('has no boolean answers', () => {
      const writer = createAnswerWriter('text/csv', () => expect.fail('nothing is written'));
      expect(() => writer.boolean(true)).to.throw(AnswerFormatError, 'text/csv');
    });
  });

  describe('TSV', () => {
    it('writes terms in Turtle syntax with escapes', () => {
      const rows: Row[] = [
        [
          F.namedNode(`${EX}a b>{c}`),
          F.literal('tab\there\nnew "q" \\ \r\u0001 ü 😀'),
          F.literal('Hallo', 'de-ch'),
          F.literal('x', F.namedNode(`${EX}dt`)),
          F.blankNode('b1'),
        ],
      ];
      expect(writeAnswers('text/tab-separated-values', ['iri', 'str', 'lang', 'typed', 'bnode'], rows)).to.equal(
        '?iri\t?str\t?lang\t?typed\t?bnode\n' +
          `<${EX}a\\u0020b\\u003E\\u007Bc\\u007D>\t"tab\\there\\nnew \\"q\\" \\\\ \\r\\u0001 ü 😀"\t"Hallo"@de-ch\t"x"^^<${EX}dt>\t_:b1\n`,
      );
    });

    it('writes numbers and booleans in short form only when the lexical form is the Turtle token', () => {
      const lit = (value: string, type: string): AnswerTerm => F.literal(value, F.namedNode(XSD + type));
      const row: Row = [
        lit('-12', 'integer'),
        lit('+1.50', 'decimal'),
        lit('.5E-3', 'double'),
        lit('true', 'boolean'),
        lit('1.', 'decimal'),
        lit('INF', 'double'),
        lit('1', 'boolean'),
        lit('12', 'int'),
        lit('abc', 'integer'),
      ];
      const text = writeAnswers('text/tab-separated-values', ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'], [row]);
      expect(text.split('\n')[1]).to.equal(
        ['-12', '+1.50', '.5E-3', 'true', `"1."^^<${XSD}decimal>`, `"INF"^^<${XSD}double>`, `"1"^^<${XSD}boolean>`, `"12"^^<${XSD}int>`, `"abc"^^<${XSD}integer>`].join(
          '\t',
        ),
      );
      // reading the line back gives the same literals
      expect(showRows(table(parseTsv(text)).rows)).to.deep.equal(showRows([row]));
    });

    it('makes blank node labels valid', () => {
      const text = writeAnswers('text/tab-separated-values', ['b'], [[F.blankNode('a b')], [F.blankNode('.x')], [F.blankNode('ok-1.2')]]);
      expect(text).to.equal('?b\n_:xa_20_b\n_:x_2E_x\n_:ok-1.2\n');
      expect(table(parseTsv(text)).rows.map((r) => r[0]?.value)).to.deep.equal(['xa_20_b', 'x_2E_x', 'ok-1.2']);
    });

    it('writes unbound values as empty cells, an empty result as the header alone', () => {
      expect(writeAnswers('text/tab-separated-values', ['x', 'y', 'z'], [[undefined, F.literal('a'), undefined]])).to.equal('?x\t?y\t?z\n\t"a"\t\n');
      expect(writeAnswers('text/tab-separated-values', ['x', 'y'], [])).to.equal('?x\t?y\n');
      expect(writeAnswers('text/tab-separated-values', [], [[]])).to.equal('\n\n');
    });

    it('reads back what it writes', () => {
      const rows: Row[] = [
        [F.namedNode(`${EX}é/ü?q=1#f`), F.literal('a\tb\nc\rd"e\'f\\g\u0000\u007f\u2028'), F.literal('', 'en')],
        [F.blankNode('b0'), F.literal('5', F.namedNode(`${XSD}decimal`)), undefined],
      ];
      const answer = table(parseTsv(writeAnswers('text/tab-separated-values', ['a', 'b', 'c'], rows)));
      expect(answer.variables).to.deep.equal(['a', 'b', 'c']);
      expect(showRows(answer.rows)).to.deep.equal(showRows(rows));
    });

    it('rejects variable names it cannot write, and has no boolean answers', () => {
      expect(() => writeAnswers('text/tab-separated-values', ['a\tb'], [])).to.throw(RangeError);
      const writer = createAnswerWriter('text/tab-separated-values; charset=utf-8', () => {});
      expect(() => writer.boolean(false)).to.throw(AnswerFormatError, 'text/tab-separated-values');
    });
  });
});
