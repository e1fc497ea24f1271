import { expect } from 'chai';
import { DataFactory, Parser } from 'n3';
import type * as RDF from '@rdfjs/types';
import { TermDictionary } from '../../lib/model/dictionary.js';
import { termToKey } from '../../lib/model/terms.js';
import { CHUNK_SIZE, NTriplesByteWriter } from '../../lib/formats/ntriples-byte-writer.js';
import { createRdfByteWriter, createRdfWriter } from '../../lib/formats/rdf-serialize.js';
import { N_QUADS, N_TRIPLES, TRIG, TURTLE } from '../../lib/formats/media-types.js';
import { awkwardTerms } from '../helpers/awkward-terms.js';

const namedNode = (iri: string): RDF.NamedNode => DataFactory.namedNode(iri);
const blankNode = (label: string): RDF.BlankNode => DataFactory.blankNode(label);
const literal = (lexical: string, tagOrType?: string | RDF.NamedNode): RDF.Literal => DataFactory.literal(lexical, tagOrType);
const EX = 'http://example.com/';

/** Interns the terms; returns their ids. */
function internAll(dictionary: TermDictionary, terms: readonly RDF.Term[]): number[] {
  return terms.map((t) => dictionary.intern(termToKey(t)));
}

/** The text the string writer gives for the statements, and the bytes of the byte writer. */
function both(dictionary: TermDictionary, mediaType: string, statements: ReadonlyArray<readonly [number, number, number, number]>): { text: string; chunks: Uint8Array[] } {
  const options = { prefixes: new Map([['ex:', EX]]) };
  const textWriter = createRdfWriter(mediaType, dictionary, options);
  const byteWriter = createRdfByteWriter(mediaType, dictionary, options);
  let text = '';
  const chunks: Uint8Array[] = [];
  statements.forEach(([s, p, o, g], i) => {
    textWriter.statement(s, p, o, g);
    byteWriter.statement(s, p, o, g);
    if (i % 97 === 0) {
      text += textWriter.take();
      chunks.push(...byteWriter.take());
    }
  });
  textWriter.end();
  byteWriter.end();
  text += textWriter.take();
  chunks.push(...byteWriter.take());
  return { text, chunks };
}

describe('NTriplesByteWriter', () => {
  const dictionary = new TermDictionary();
  const terms = awkwardTerms();
  const ids = internAll(dictionary, terms);
  const subjects = ids.filter((_, i) => terms[i]!.termType !== 'Literal');
  const predicates = ids.filter((_, i) => terms[i]!.termType === 'NamedNode');
  /** Every term as object, each subject and predicate in turn, half of them in a named graph. */
  const statements = ids.map((o, i) => [subjects[i % subjects.length]!, predicates[(i * 7) % predicates.length]!, o, i % 2 === 0 ? -1 : subjects[(i * 3) % subjects.length]!] as const);

  for (const mediaType of [N_TRIPLES, N_QUADS]) {
    it(`writes the same bytes as the string writer for ${terms.length} awkward terms (${mediaType})`, () => {
      const { text, chunks } = both(dictionary, mediaType, statements);
      expect(text).to.not.equal('');
      const bytes = Buffer.concat(chunks);
      expect(bytes.equals(Buffer.from(text, 'utf8')), `${bytes.toString('utf8')}\n---\n${text}`).to.equal(true);
    });
  }

  it('escapes as N-Triples requires and copies everything else as it is', () => {
    const d = new TermDictionary();
    const [s, p, o1, o2, o3, o4] = internAll(d, [
      namedNode(`${EX}a b<c>"d{e}f|g^h\`i\\j`),
      namedNode(`${EX}é😀`),
      literal('q"b\\n\nr\rt\tb\bf\fz\u0000d\u007f😀'),
      literal('x', 'en-gb'),
      literal('1', namedNode(`${EX}d t`)),
      blankNode('b1'),
    ]);
    const w = new NTriplesByteWriter(d, false);
    for (const o of [o1!, o2!, o3!, o4!]) w.statement(s!, p!, o, -1);
    w.end();
    const text = Buffer.concat(w.take()).toString('utf8');
    const subject = `<${EX}a\\u0020b\\u003Cc\\u003E\\u0022d\\u007Be\\u007Df\\u007Cg\\u005Eh\\u0060i\\u005Cj>`;
    expect(text.split('\n')).to.deep.equal([
      `${subject} <${EX}é😀> "q\\"b\\\\n\\nr\\rt\\tb\\bf\\fz\\u0000d\\u007F😀" .`,
      `${subject} <${EX}é😀> "x"@en-gb .`,
      `${subject} <${EX}é😀> "1"^^<${EX}d\\u0020t> .`,
      `${subject} <${EX}é😀> _:b1 .`,
      '',
    ]);
  });

  it('writes triple terms (nested, with escapes inside) and base directions as the string writer does', () => {
    const d = new TermDictionary();
    const inner = DataFactory.quad(namedNode(`${EX}a`), namedNode(`${EX}p`), literal('x"y\n\u0001\uFFFE\uFFFF\uFFFD'));
    const directional = DataFactory.literal('שלום', { language: 'he', direction: 'rtl' } as unknown as string);
    const [s, p, t1, t2, t3, l] = internAll(d, [
      namedNode(`${EX}s`),
      namedNode(`${EX}p`),
      inner,
      DataFactory.quad(blankNode('b1'), namedNode(`${EX}q`), inner),
      DataFactory.quad(blankNode('b1'), namedNode(`${EX}q`), directional),
      directional,
    ]);
    const statements = [t1!, t2!, t3!, l!].map((o) => [s!, p!, o, -1] as const);
    const expected = [
      `<${EX}s> <${EX}p> <<( <${EX}a> <${EX}p> "x\\"y\\n\\u0001\\uFFFE\\uFFFF\uFFFD" )>> .`,
      `<${EX}s> <${EX}p> <<( _:b1 <${EX}q> <<( <${EX}a> <${EX}p> "x\\"y\\n\\u0001\\uFFFE\\uFFFF\uFFFD" )>> )>> .`,
      `<${EX}s> <${EX}p> <<( _:b1 <${EX}q> "שלום"@he--rtl )>> .`,
      `<${EX}s> <${EX}p> "שלום"@he--rtl .`,
      '',
    ];
    for (const mediaType of [N_TRIPLES, N_QUADS]) {
      const { text, chunks } = both(d, mediaType, statements);
      expect(text.split('\n')).to.deep.equal(expected);
      expect(Buffer.concat(chunks).toString('utf8')).to.equal(text);
    }
    for (const mediaType of [TURTLE, TRIG]) {
      const { text } = both(d, mediaType, statements);
      const read = new Parser({ format: mediaType }).parse(text);
      expect(read, text).to.have.length(4);
      expect(read[0]!.object.termType).to.equal('Quad');
      expect(read[0]!.object.equals(inner), text).to.equal(true);
      expect((read[3]!.object as unknown as { direction: string }).direction).to.equal('rtl');
    }
  });

  it('skips statements in named graphs when writing N-Triples, and writes their graph as N-Quads', () => {
    const d = new TermDictionary();
    const [s, p, o, g] = internAll(d, [namedNode(`${EX}s`), namedNode(`${EX}p`), literal('o'), namedNode(`${EX}g`)]);
    const triples = new NTriplesByteWriter(d, false);
    const quads = new NTriplesByteWriter(d, true);
    for (const w of [triples, quads]) {
      w.statement(s!, p!, o!, g!);
      w.statement(s!, p!, o!, -1);
      w.end();
    }
    expect(Buffer.concat(triples.take()).toString()).to.equal(`<${EX}s> <${EX}p> "o" .\n`);
    expect(Buffer.concat(quads.take()).toString()).to.equal(`<${EX}s> <${EX}p> "o" <${EX}g> .\n<${EX}s> <${EX}p> "o" .\n`);
  });

  it('hands out chunks of at most CHUNK_SIZE bytes holding whole lines, the last one at the end, and never writes to them again', () => {
    const d = new TermDictionary();
    const p = d.intern(`<${EX}p>`);
    const w = new NTriplesByteWriter(d, false);
    const taken: Uint8Array[] = [];
    const copies: Buffer[] = [];
    let expected = '';
    for (let i = 0; i < 20_000; i++) {
      const s = d.intern(`<${EX}s${i}>`);
      const o = d.intern(`"value ${i} é 😀"`);
      w.statement(s, p, o, -1);
      expected += `<${EX}s${i}> <${EX}p> "value ${i} é 😀" .\n`;
      if (i % 1000 === 0) {
        for (const chunk of w.take()) {
          taken.push(chunk);
          copies.push(Buffer.from(chunk));
        }
      }
    }
    // a line longer than a chunk gets a chunk of its own
    const long = d.intern(`"${'x'.repeat(CHUNK_SIZE + 10)}"`);
    w.statement(p, p, long, -1);
    expected += `<${EX}p> <${EX}p> "${'x'.repeat(CHUNK_SIZE + 10)}" .\n`;
    const beforeEnd = w.take();
    w.end();
    const rest = w.take();
    expect(rest).to.have.length(1);
    expect(w.take()).to.deep.equal([]);
    const chunks = [...taken, ...beforeEnd, ...rest];
    expect(Buffer.concat(chunks).toString('utf8')).to.equal(expected);
    for (const chunk of chunks) expect(chunk[chunk.length - 1]).to.equal(0x0a);
    for (const chunk of chunks.slice(0, -1)) expect(chunk.length).to.be.within(1, CHUNK_SIZE);
    expect(chunks.at(-1)!.length).to.equal(CHUNK_SIZE + 10 + `<${EX}p> <${EX}p> "" .\n`.length);
    // the chunks handed out early still hold what they held
    taken.forEach((chunk, i) => expect(Buffer.from(chunk).equals(copies[i]!)).to.equal(true));
  });

  it('follows the dictionary when its arena is replaced between statements', () => {
    const d = new TermDictionary();
    const p = d.intern(`<${EX}p>`);
    const w = new NTriplesByteWriter(d, false);
    let expected = '';
    for (let i = 0; i < 5000; i++) {
      // each new term may grow (and so replace) the arena
      const s = d.intern(`<${EX}${'s'.repeat(i % 50)}${i}>`);
      w.statement(s, p, s, -1);
      expected += `<${EX}${'s'.repeat(i % 50)}${i}> <${EX}p> <${EX}${'s'.repeat(i % 50)}${i}> .\n`;
    }
    w.end();
    expect(Buffer.concat(w.take()).toString('utf8')).to.equal(expected);
  });

  it('gives the UTF-8 of the text writers for Turtle and TriG', () => {
    for (const mediaType of [TURTLE, TRIG]) {
      const { text, chunks } = both(dictionary, mediaType, statements);
      expect(Buffer.concat(chunks).toString('utf8')).to.equal(text);
    }
  });
});
