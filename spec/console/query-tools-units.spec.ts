/**
 * The query tools' code that needs no browser: the line and column of an error message, the
 * download formats of each query form and the downloads' file names, and the charts' reading
 * of an answer and their ticks.
 */
import { expect } from 'chai';
import { chartData, ticks } from '../../console/src/charts.js';
import { downloadName, formatsFor } from '../../console/src/downloads.js';
import { errorPosition } from '../../console/src/error-position.js';
import type { Answer, Term } from '../../console/src/terms.js';

const XSD = 'http://www.w3.org/2001/XMLSchema#';
const iri = (value: string): Term => ({ type: 'uri', value });
const int = (value: number): Term => ({ type: 'literal', value: String(value), datatype: `${XSD}integer` });
const dec = (value: number): Term => ({ type: 'literal', value: String(value), datatype: `${XSD}decimal` });
const str = (value: string): Term => ({ type: 'literal', value });

describe('console: query tools (no browser)', () => {
  it('reads the line and column of the endpoint’s error messages', () => {
    expect(errorPosition('QueryCompilationError: syntax error in the SPARQL query at line 4, column 15: unexpected \')\'')).to.deep.equal({ line: 4, column: 15 });
    expect(errorPosition("QueryCompilationError: unknown prefix 'foo:' at line 1, column 22: declare it")).to.deep.equal({ line: 1, column: 22 });
    expect(errorPosition('error: line 3: column 7: Resource expected.')).to.deep.equal({ line: 3, column: 7 });
    expect(errorPosition('InterruptedError: the query exceeded its time limit')).to.equal(undefined);
    expect(errorPosition('at line 0, column 3')).to.equal(undefined);
  });

  it('offers the formats of each form of query, and names the files by store, time and format', () => {
    expect(formatsFor('SELECT').map((f) => f.extension)).to.deep.equal(['csv', 'tsv', 'srj', 'srx']);
    expect(formatsFor('ASK').map((f) => f.extension)).to.deep.equal(['srj', 'srx']);
    expect(formatsFor('CONSTRUCT').map((f) => f.mediaType)).to.deep.equal(['text/turtle', 'application/n-triples']);
    expect(formatsFor('DESCRIBE')).to.deep.equal(formatsFor('CONSTRUCT'));
    expect(formatsFor('UPDATE')).to.deep.equal([]);
    expect(formatsFor(undefined)).to.deep.equal([]);
    const when = new Date(2026, 10, 29, 9, 5, 7);
    expect(downloadName('family', formatsFor('SELECT')[0]!, when)).to.equal('family-2026-11-29-090507.csv');
    expect(downloadName('a/b c', formatsFor('CONSTRUCT')[1]!, when)).to.equal('a_b_c-2026-11-29-090507.nt');
    expect(downloadName('..', formatsFor('CONSTRUCT')[0]!, when)).to.equal('answer-2026-11-29-090507.ttl');
  });

  it('charts an answer with one label column and numeric columns, and nothing else', () => {
    const answer: Answer = {
      variables: ['c', 'n', 'total'],
      rows: [
        [iri('http://e/books'), int(3), dec(39.5)],
        [iri('http://e/games'), int(2), undefined],
        [str('tools'), int(1), dec(8.25)],
      ],
    };
    expect(chartData(answer, [{ name: 'e:', iri: 'http://e/' }])).to.deep.equal({
      labelVariable: 'c',
      labels: ['e:books', 'e:games', 'tools'],
      series: [
        { variable: 'n', values: [3, 2, 1] },
        { variable: 'total', values: [39.5, null, 8.25] },
      ],
    });
    // two label columns, no numeric column, no rows, a column of strings among numbers
    expect(chartData({ variables: ['a', 'b', 'n'], rows: [[iri('x'), iri('y'), int(1)]] }, [])).to.equal(undefined);
    expect(chartData({ variables: ['a', 'b'], rows: [[iri('x'), iri('y')]] }, [])).to.equal(undefined);
    expect(chartData({ variables: ['a', 'n'], rows: [] }, [])).to.equal(undefined);
    expect(chartData({ variables: ['a', 'n'], rows: [[iri('x'), int(1)], [iri('y'), str('2')]] }, [])).to.equal(undefined);
  });

  it('puts round ticks from at or below the least value to at or above the greatest', () => {
    expect(ticks(0, 75)).to.deep.equal([0, 20, 40, 60, 80]);
    expect(ticks(0, 3)).to.deep.equal([0, 1, 2, 3]);
    expect(ticks(-12, 40)).to.deep.equal([-20, 0, 20, 40]);
    expect(ticks(0, 0.35)).to.deep.equal([0, 0.1, 0.2, 0.3, 0.4]);
    expect(ticks(5, 5)).to.deep.equal([5]);
  });
});
