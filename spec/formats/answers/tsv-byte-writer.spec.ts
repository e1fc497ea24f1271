/**
 * The TSV answer writer of rows of term ids: byte for byte the UTF-8 of the text writer's TSV,
 * for stored and query-made terms, with and without prefixes, also after a rollback gave the
 * ids of stored terms to other terms.
 */
import { expect } from 'chai';
import { DataFactory } from 'n3';
import type * as RDF from '@rdfjs/types';
import { TermDictionary } from '../../../lib/model/dictionary.js';
import { keyToTerm, termToKey } from '../../../lib/model/terms.js';
import { createAnswerWriter, createTsvByteWriter, type AnswerTerm, type RowTerms } from '../../../lib/formats/answers/index.js';
import { TSV_CHUNK_SIZE } from '../../../lib/formats/answers/tsv-byte-writer.js';
import { awkwardTerms } from '../../helpers/awkward-terms.js';

const EX = 'http://example.com/';
const XSD = 'http://www.w3.org/2001/XMLSchema#';
const PREFIXES = new Map([
  ['ex:', EX],
  ['xsd:', XSD],
]);

/** Terms whose TSV text is not their canonical form: short numbers and booleans, typed literals. */
function shortForms(): AnswerTerm[] {
  const typed = (v: string, t: string): RDF.Literal => DataFactory.literal(v, DataFactory.namedNode(`${XSD}${t}`));
  return [typed('42', 'integer'), typed('-0.5', 'decimal'), typed('1.0E3', 'double'), typed('true', 'boolean'), typed('042', 'integer'), typed('2024-01-01', 'date'), DataFactory.namedNode(`${EX}abbreviated`)];
}

/** A dictionary of the terms, and row terms that also know `made` under ids -3, -4, … */
function setUp(stored: readonly AnswerTerm[], made: readonly AnswerTerm[]): { dictionary: TermDictionary; ids: number[]; madeIds: number[]; terms: RowTerms } {
  const dictionary = new TermDictionary();
  const ids = stored.map((t) => dictionary.intern(termToKey(t)));
  const madeIds = made.map((_, i) => -3 - i);
  const terms: RowTerms = { dictionary, termOf: (id) => (id >= 0 ? keyToTerm(dictionary.keyOf(id)) : made[-3 - id]!) };
  return { dictionary, ids, madeIds, terms };
}

/** The TSV text writer's output and the byte writer's, for rows of ids. */
function both(mediaType: string, variables: readonly string[], rows: ReadonlyArray<readonly number[]>, terms: RowTerms): { text: string; bytes: Buffer; chunks: Uint8Array[] } {
  let text = '';
  const textWriter = createAnswerWriter(mediaType, (chunk) => (text += chunk), { prefixes: PREFIXES });
  const byteWriter = createTsvByteWriter(mediaType, { prefixes: PREFIXES })!;
  const chunks: Uint8Array[] = [];
  const copies: Buffer[] = [];
  const take = (): void => {
    for (const c of byteWriter.take()) {
      chunks.push(c);
      copies.push(Buffer.from(c));
    }
  };
  textWriter.begin(variables);
  byteWriter.begin(variables);
  const ids = new Int32Array(variables.length);
  for (const row of rows) {
    textWriter.row(row.map((id) => (id === -1 ? undefined : terms.termOf(id))));
    ids.set(row);
    byteWriter.rowIds(ids, terms);
    take();
  }
  textWriter.end();
  byteWriter.end();
  take();
  // a chunk handed out is never written to again
  chunks.forEach((c, i) => expect(Buffer.compare(Buffer.from(c), copies[i]!), `chunk ${i}`).to.equal(0));
  return { text, bytes: Buffer.concat(chunks), chunks };
}

describe('formats/answers/tsv-byte-writer: TSV from rows of term ids', () => {
  for (const mediaType of ['text/tab-separated-values', 'text/x.tab-separated-values-abbrev']) {
    it(`writes the text writer's bytes for awkward stored and query-made terms (${mediaType})`, () => {
      const stored = [...awkwardTerms(), ...shortForms()];
      const made = [DataFactory.literal('made\there'), DataFactory.literal('7', DataFactory.namedNode(`${XSD}integer`)), DataFactory.namedNode(`${EX}made`)];
      const { ids, madeIds, terms } = setUp(stored, made);
      const all = [...ids, ...madeIds, -1];
      const rows: number[][] = [];
      for (let i = 0; i < 3000; i++) rows.push([all[i % all.length]!, all[(i * 7 + 3) % all.length]!, all[(i * 13 + 5) % all.length]!]);
      const { text, bytes, chunks } = both(mediaType, ['a', 'b', 'c'], rows, terms);
      expect(bytes.toString('utf8')).to.equal(text);
      expect(chunks.length).to.be.greaterThan(1);
      for (const c of chunks) expect(c.length).to.be.within(1, TSV_CHUNK_SIZE);
    });
  }

  it('knows stored terms across answers, and forgets them when a rollback gives their ids to other terms', () => {
    const { dictionary, ids, terms } = setUp([DataFactory.namedNode(`${EX}kept`)], []);
    const mark = dictionary.size;
    const before = dictionary.intern(termToKey(DataFactory.literal('5', DataFactory.namedNode(`${XSD}integer`))));
    const first = both('text/tab-separated-values', ['x'], [[ids[0]!], [before]], terms);
    expect(first.bytes.toString('utf8')).to.equal('?x\n<http://example.com/kept>\n5\n');
    dictionary.truncate(mark);
    const after = dictionary.intern(termToKey(DataFactory.literal('five')));
    expect(after).to.equal(before);
    const second = both('text/tab-separated-values', ['x'], [[ids[0]!], [after]], terms);
    expect(second.bytes.toString('utf8')).to.equal(second.text);
    expect(second.text).to.equal('?x\n<http://example.com/kept>\n"five"\n');
  });

  it('refuses a variable name TSV cannot hold, as the text writer does', () => {
    expect(() => createTsvByteWriter('text/tab-separated-values')!.begin(['a\tb'])).to.throw(RangeError, /cannot be written in TSV/);
  });
});
