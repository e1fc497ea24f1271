/**
 * Every SPARQL XML (.srx) and JSON (.srj) result file of the W3C SPARQL test suites, read and
 * written again in each answer format, then read back: the answers must come back the same
 * (for CSV, as the plain strings the format keeps).
 */
import { expect } from 'chai';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { DataFactory as F, Parser } from 'n3';
import { SparqlJsonParser } from 'sparqljson-parse';
import {
  createAnswerWriter,
  writeAnswers,
  writeBooleanAnswer,
  type AnswerTerm,
} from '../../../lib/formats/answers/index.js';
import { parseCsv, parseSparqlXml, parseTsv, showRows, table, type Answer } from './answer-parsers.spec.js';
import { parseAnswerLines, parseBooleanAnswerLines } from './turtle-writer.spec.js';
import { w3cPath } from '../../helpers/test-data.js';

const ROOT = w3cPath('sparql');

function files(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) files(path, out);
    else if (/\.sr[xj]$/.test(name)) out.push(path);
  }
  return out;
}

const jsonParser = new SparqlJsonParser();

function readJsonAnswer(text: string): Answer {
  const json = JSON.parse(text) as { head: { vars?: string[] }; boolean?: boolean };
  if (typeof json.boolean === 'boolean') return { boolean: jsonParser.parseJsonBoolean(json) };
  const variables = json.head.vars ?? [];
  const rows = jsonParser.parseJsonResults(json).map((b) => variables.map((v) => b[v] as AnswerTerm | undefined));
  return { variables, rows };
}

const prefixes = new Map([
  ['ex:', 'http://example.org/'],
  [':', 'http://www.example.org/'],
  ['xsd:', 'http://www.w3.org/2001/XMLSchema#'],
  ['rdf:', 'http://www.w3.org/1999/02/22-rdf-syntax-ns#'],
]);

function expandIri(value: string): string {
  const colon = value.indexOf(':');
  const namespace = prefixes.get(value.slice(0, colon + 1));
  return namespace !== undefined && !/^[a-z]+:\/\//.test(value) ? namespace + value.slice(colon + 1) : value;
}

/** A term of a JSON-abbrev answer with its IRIs (datatypes and triple terms' parts included) expanded. */
function expandTerm(t: AnswerTerm): AnswerTerm {
  if (t.termType === 'NamedNode') return F.namedNode(expandIri(t.value));
  if (t.termType === 'Literal' && t.language === '') return F.literal(t.value, F.namedNode(expandIri(t.datatype.value)));
  if (t.termType === 'Quad') {
    const [subject, predicate, object] = [expandTerm(t.subject as AnswerTerm), expandTerm(t.predicate as AnswerTerm), expandTerm(t.object as AnswerTerm)];
    if (subject.termType === 'Literal' || subject.termType === 'Quad' || predicate.termType !== 'NamedNode') throw new Error('not a triple term');
    return F.quad(subject, predicate, object);
  }
  return t;
}

/** The CSV strings of a row: IRI, literal lexical form, `_:label`, empty when unbound. */
function csvStrings(row: ReadonlyArray<AnswerTerm | undefined>, abbreviate?: (iri: string) => string): string[] {
  return row.map((t) => {
    if (t === undefined) return '';
    if (t.termType === 'BlankNode') return `_:${t.value}`;
    if (t.termType === 'NamedNode' && abbreviate) return abbreviate(t.value);
    // a triple term keeps its structure, written as TSV writes it (without abbreviations)
    if (t.termType === 'Quad') return writeAnswers('text/tab-separated-values', ['x'], [[t]]).split('\n')[1]!;
    return t.value;
  });
}

/** Whether a row of three values can be a triple (so its Turtle line is one). */
function isTriple(row: ReadonlyArray<AnswerTerm | undefined>): boolean {
  const [s, p, o] = row;
  // Turtle 1.2 has no triple term as subject (only reified triples `<< … >>`)
  return s !== undefined && s.termType !== 'Literal' && s.termType !== 'Quad' && p?.termType === 'NamedNode' && o !== undefined;
}

/** Writes an answer in a format. */
function write(type: string, answer: Answer, options = {}): string {
  if ('boolean' in answer) return writeBooleanAnswer(type, answer.boolean, options);
  return writeAnswers(type, answer.variables, answer.rows, options);
}

describe('W3C result files through every answer format', function () {
  this.timeout(120_000);
  const all = files(ROOT);

  it('finds the result files', () => {
    expect(all.length).to.be.greaterThan(400);
  });

  for (const path of all) {
    const name = relative(ROOT, path);
    it(name, () => {
      const text = readFileSync(path, 'utf8');
      const answer = path.endsWith('.srx') ? parseSparqlXml(text) : readJsonAnswer(text);
      // blank node labels must be read back unchanged by TSV and Turtle
      if (!('boolean' in answer)) {
        answer.rows.forEach((row) => row.forEach((t) => t?.termType === 'BlankNode' && expect(t.value).to.match(/^[A-Za-z0-9_](?:[A-Za-z0-9_-]*[A-Za-z0-9_])?$/)));
      }
      const expectSame = (back: Answer, format: string): void => {
        if ('boolean' in answer) {
          expect(back, format).to.deep.equal({ boolean: answer.boolean });
          return;
        }
        const got = table(back);
        expect(got.variables, format).to.deep.equal(answer.variables);
        expect(showRows(got.rows), format).to.deep.equal(showRows(answer.rows));
      };

      expectSame(readJsonAnswer(write('application/sparql-results+json', answer)), 'json');
      expectSame(parseSparqlXml(write('application/sparql-results+xml', answer)), 'xml');
      // the Turtle lines name no variables, and a boolean is zero or one empty answer
      const readLines = (text: string): Answer => ('boolean' in answer ? parseBooleanAnswerLines(text) : parseAnswerLines(text, answer.variables));
      const turtle = write('application/x.sparql-results+turtle', answer);
      expectSame(readLines(turtle), 'turtle');
      const abbrev = { prefixes, baseIRI: 'http://example.org/base/' };
      const turtleAbbrev = write('application/x.sparql-results+turtle-abbrev', answer, abbrev);
      expectSame(readLines(turtleAbbrev), 'turtle-abbrev');
      if (!('boolean' in answer) && answer.variables.length === 3 && answer.rows.every(isTriple)) {
        for (const text of [turtle, turtleAbbrev]) {
          const triples = new Parser({ format: 'text/turtle', blankNodePrefix: '' }).parse(text).map((q) => [q.subject, q.predicate, q.object]);
          expect(showRows(triples), 'turtle triples').to.deep.equal(showRows(answer.rows));
        }
      }
      const jsonAbbrev = readJsonAnswer(write('application/x.sparql-results+json-abbrev', answer, abbrev));
      expectSame(
        'boolean' in jsonAbbrev
          ? jsonAbbrev
          : {
              variables: jsonAbbrev.variables,
              rows: jsonAbbrev.rows.map((row) => row.map((t) => t && expandTerm(t))),
            },
        'json-abbrev',
      );
      expectSame(parseSparqlXml(write('application/x.sparql-results+xml-abbrev', answer, abbrev), expandIri), 'xml-abbrev');

      if ('boolean' in answer) {
        expect(() => createAnswerWriter('text/csv', () => {}).boolean(answer.boolean)).to.throw();
        return;
      }
      expectSame(parseTsv(write('text/tab-separated-values', answer)), 'tsv');
      expectSame(parseTsv(write('text/x.tab-separated-values-abbrev', answer, abbrev), prefixes), 'tsv-abbrev');
      // an empty line (zero variables) reads as one empty field
      const record = (cells: readonly string[]): string[] => (cells.length === 0 ? [''] : [...cells]);
      const csv = parseCsv(write('text/csv', answer));
      expect(csv, 'csv').to.deep.equal([record(answer.variables), ...answer.rows.map((row) => record(csvStrings(row)))]);
      const abbreviated = (iri: string): string => {
        const back = readJsonAnswer(write('application/x.sparql-results+json-abbrev', { variables: ['x'], rows: [[F.namedNode(iri)]] }, abbrev));
        return table(back).rows[0]![0]!.value;
      };
      const csvAbbrev = parseCsv(write('text/x.csv-abbrev', answer, abbrev));
      expect(csvAbbrev, 'csv-abbrev').to.deep.equal([record(answer.variables), ...answer.rows.map((row) => record(csvStrings(row, abbreviated)))]);
      expect(write('application/x.sparql-results+null', answer)).to.equal('');
    });
  }
});
