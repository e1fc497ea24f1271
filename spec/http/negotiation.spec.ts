import { expect } from 'chai';
import { ANSWER_MEDIA_TYPES } from '../../lib/index.js';
import { chooseAnswerType, DEFAULT_ANSWER_TYPE, negotiate, negotiateOrThrow, parseAccept } from '../../lib/http/negotiation.js';

const RDF_TYPES = ['text/turtle', 'application/n-triples', 'application/n-quads', 'application/trig'];

describe('HTTP content negotiation', () => {
  it('parses media ranges with q-values, ignoring other parameters and malformed entries', () => {
    expect(parseAccept('text/csv;charset=UTF-8, application/json;q=0.5 , bogus, */*;q=0.1;level=1')).to.deep.equal([
      { type: 'text', subtype: 'csv', q: 1, index: 0 },
      { type: 'application', subtype: 'json', q: 0.5, index: 1 },
      { type: '*', subtype: '*', q: 0.1, index: 2 },
    ]);
    expect(parseAccept('text/csv;q=2, text/tsv;q=abc')[0]!.q).to.equal(1);
  });

  it('uses the default when Accept is absent, empty or */*', () => {
    expect(DEFAULT_ANSWER_TYPE).to.equal('text/csv');
    expect(chooseAnswerType(undefined)).to.equal('text/csv');
    expect(chooseAnswerType('')).to.equal('text/csv');
    expect(chooseAnswerType('*/*')).to.equal('text/csv');
    expect(chooseAnswerType('text/*')).to.equal('text/csv');
  });

  it('honours q-values and the most specific range', () => {
    expect(chooseAnswerType('text/csv;q=0.2, application/sparql-results+json')).to.equal('application/sparql-results+json');
    expect(chooseAnswerType('application/sparql-results+xml, text/csv')).to.equal('application/sparql-results+xml');
    expect(chooseAnswerType('text/*;q=0.1, text/csv;q=0.2, text/tab-separated-values;q=0.5')).to.equal('text/tab-separated-values');
    expect(chooseAnswerType('text/*;q=0.9, text/csv;q=0.1')).to.equal('text/tab-separated-values');
    expect(chooseAnswerType('*/*;q=0.1, text/csv;q=0')).to.not.equal('text/csv');
    expect(chooseAnswerType('Application/SPARQL-Results+JSON; charset=utf-8')).to.equal('application/sparql-results+json');
  });

  it('fails with 406 when nothing is acceptable', () => {
    expect(() => chooseAnswerType('text/html')).to.throw(/text\/html/).with.property('status', 406);
    expect(() => chooseAnswerType('text/csv;q=0')).to.throw().with.property('status', 406);
    expect(negotiate('image/png', ANSWER_MEDIA_TYPES)).to.equal(undefined);
  });

  it('chooses among any list of types', () => {
    expect(negotiate(undefined, RDF_TYPES)).to.equal('text/turtle');
    expect(negotiate(undefined, RDF_TYPES, 'application/n-quads')).to.equal('application/n-quads');
    expect(negotiate('application/*', RDF_TYPES, 'text/turtle')).to.equal('application/n-triples');
    expect(negotiate('application/trig;q=0.8, text/turtle;q=0.7', RDF_TYPES)).to.equal('application/trig');
    expect(negotiateOrThrow('application/n-quads', RDF_TYPES)).to.equal('application/n-quads');
    expect(() => negotiateOrThrow('text/csv', RDF_TYPES)).to.throw(/text\/turtle/);
  });
});
