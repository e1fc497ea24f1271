import { expect } from 'chai';
import { DataFactory as F } from 'n3';
import {
  ANSWER_MEDIA_TYPES,
  AnswerFormatError,
  NullAnswerWriter,
  answerMediaType,
  createAnswerWriter,
  supportsBoolean,
  writeAnswers,
  writeBooleanAnswer,
} from '../../../lib/formats/answers/index.js';

const EX = 'http://example.org/';

describe('answer writer API', () => {
  it('lists the supported media types', () => {
    expect([...ANSWER_MEDIA_TYPES].sort()).to.deep.equal(
      [
        'application/sparql-results+json',
        'application/sparql-results+xml',
        'text/csv',
        'text/tab-separated-values',
        'application/x.sparql-results+turtle',
        'text/x.csv-abbrev',
        'text/x.tab-separated-values-abbrev',
        'application/x.sparql-results+json-abbrev',
        'application/x.sparql-results+xml-abbrev',
        'application/x.sparql-results+turtle-abbrev',
        'application/x.sparql-results+null',
      ].sort(),
    );
  });

  it('tells which formats hold boolean answers', () => {
    const noBoolean = ['text/csv', 'text/tab-separated-values', 'text/x.csv-abbrev', 'text/x.tab-separated-values-abbrev'];
    for (const type of ANSWER_MEDIA_TYPES) expect(supportsBoolean(type), type).to.equal(!noBoolean.includes(type));
    expect(supportsBoolean('text/turtle')).to.equal(false);
    expect(supportsBoolean('Application/SPARQL-Results+JSON; charset=utf-8')).to.equal(true);
  });

  it('recognises media types case-insensitively and ignores parameters', () => {
    expect(answerMediaType('TEXT/CSV ; charset=UTF-8')).to.equal('text/csv');
    expect(answerMediaType('text/turtle')).to.equal(undefined);
    expect(createAnswerWriter('Application/Sparql-Results+Xml;charset=utf-8', () => {}).contentType).to.equal('application/sparql-results+xml; charset=utf-8');
  });

  it('throws AnswerFormatError naming an unknown media type', () => {
    expect(() => createAnswerWriter('text/turtle', () => {})).to.throw(AnswerFormatError, 'text/turtle');
    try {
      writeAnswers('application/x-unknown', ['x'], []);
      expect.fail('no error');
    } catch (e) {
      expect(e).to.be.instanceOf(AnswerFormatError);
      expect((e as AnswerFormatError).mediaType).to.equal('application/x-unknown');
      expect((e as Error).message).to.include('application/x-unknown');
    }
  });

  it('gives the content type of each format', () => {
    const expected: Record<string, string> = {
      'application/sparql-results+json': 'application/sparql-results+json',
      'application/sparql-results+xml': 'application/sparql-results+xml; charset=utf-8',
      'text/csv': 'text/csv; charset=utf-8',
      'text/tab-separated-values': 'text/tab-separated-values; charset=utf-8',
      'application/x.sparql-results+turtle': 'application/x.sparql-results+turtle; charset=utf-8',
      'text/x.csv-abbrev': 'text/x.csv-abbrev; charset=utf-8',
      'text/x.tab-separated-values-abbrev': 'text/x.tab-separated-values-abbrev; charset=utf-8',
      'application/x.sparql-results+json-abbrev': 'application/x.sparql-results+json-abbrev',
      'application/x.sparql-results+xml-abbrev': 'application/x.sparql-results+xml-abbrev; charset=utf-8',
      'application/x.sparql-results+turtle-abbrev': 'application/x.sparql-results+turtle-abbrev; charset=utf-8',
      'application/x.sparql-results+null': 'application/x.sparql-results+null',
    };
    for (const type of ANSWER_MEDIA_TYPES) expect(createAnswerWriter(type, () => {}).contentType).to.equal(expected[type]);
  });

  it('checks the order of calls and the length of rows', () => {
    for (const type of ANSWER_MEDIA_TYPES) {
      const writer = createAnswerWriter(type, () => {});
      expect(() => writer.row([]), type).to.throw(Error, 'row() called before begin()');
      expect(() => writer.end(), type).to.throw(Error, 'end() called before begin()');
      writer.begin(['x', 'y']);
      expect(() => writer.begin(['x']), type).to.throw(Error, 'begin() called inside a table');
      expect(() => writer.row([F.literal('1')]), type).to.throw(RangeError, '1 values for 2 variables');
      expect(() => writer.row([F.literal('1'), undefined, undefined]), type).to.throw(RangeError);
      if (supportsBoolean(type)) expect(() => writer.boolean(true), type).to.throw(Error, 'boolean() called inside a table');
      writer.row([F.literal('1'), undefined]);
      writer.end();
      expect(() => writer.row([undefined, undefined]), type).to.throw(Error, 'row() called after the answer ended');
      expect(() => writer.end(), type).to.throw(Error, 'end() called after the answer ended');
    }
    for (const type of ANSWER_MEDIA_TYPES.filter(supportsBoolean)) {
      const writer = createAnswerWriter(type, () => {});
      writer.boolean(false);
      expect(() => writer.begin([]), type).to.throw(Error, 'begin() called after the answer ended');
      expect(() => writer.boolean(true), type).to.throw(Error, 'boolean() called after the answer ended');
    }
  });

  it('a failed begin leaves the writer unstarted', () => {
    const writer = createAnswerWriter('text/tab-separated-values', () => {});
    expect(() => writer.begin(['a\nb'])).to.throw(RangeError);
    writer.begin(['ab']);
  });

  it('streams: each row is written when given, in one chunk, by every writing format', () => {
    for (const type of ANSWER_MEDIA_TYPES.filter((t) => !t.endsWith('+null'))) {
      const chunks: string[] = [];
      const writer = createAnswerWriter(type, (c) => chunks.push(c));
      writer.begin(['x']);
      const afterBegin = chunks.length;
      // the Turtle answer lines have no header (the -abbrev variant writes its declarations, if any)
      if (type.includes('+turtle')) expect(afterBegin, type).to.equal(0);
      else expect(afterBegin, type).to.be.greaterThan(0);
      writer.row([F.namedNode(`${EX}first`)]);
      expect(chunks.length, type).to.equal(afterBegin + 1);
      expect(chunks[afterBegin], type).to.include('first');
      writer.row([F.namedNode(`${EX}second`)]);
      expect(chunks.length, type).to.equal(afterBegin + 2);
      expect(chunks[afterBegin + 1], type).to.include('second');
      writer.end();
      expect(chunks.join(''), type).to.equal(writeAnswers(type, ['x'], [[F.namedNode(`${EX}first`)], [F.namedNode(`${EX}second`)]]));
    }
  });

  it('application/x.sparql-results+null writes nothing and counts the rows', () => {
    const writer = createAnswerWriter('application/x.sparql-results+null', () => expect.fail('nothing is written'));
    expect(writer).to.be.instanceOf(NullAnswerWriter);
    writer.begin(['x']);
    for (let i = 0; i < 5; i++) writer.row([F.literal(String(i))]);
    writer.end();
    expect((writer as NullAnswerWriter).rowCount).to.equal(5);
    expect(writeAnswers('application/x.sparql-results+null', ['x'], [[undefined]])).to.equal('');
    expect(writeBooleanAnswer('application/x.sparql-results+null', true)).to.equal('');
  });

  it('writeAnswers takes any iterable of rows', () => {
    function* generate(): Generator<[ReturnType<typeof F.literal>]> {
      yield [F.literal('a')];
      yield [F.literal('b')];
    }
    expect(writeAnswers('text/csv', ['v'], generate())).to.equal('v\r\na\r\nb\r\n');
  });

  it('writeBooleanAnswer refuses formats without booleans', () => {
    expect(() => writeBooleanAnswer('text/x.csv-abbrev', true)).to.throw(AnswerFormatError, 'text/x.csv-abbrev');
  });
});
