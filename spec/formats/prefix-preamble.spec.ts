import { expect } from 'chai';
import { ImportReport, type NotificationRow } from '../../lib/formats/notifications.js';
import { PrefixPreamble } from '../../lib/formats/prefix-preamble.js';
import { parseRdf, sniffContent, type TermIds } from '../../lib/formats/rdf-parse.js';
import { TURTLE, TRIG } from '../../lib/formats/media-types.js';
import { describeTurtleError, type N3ErrorContext } from '../../lib/formats/turtle-errors.js';
import { Interrupter } from '../../lib/model/control.js';

const EX = 'http://example.com/';
const STORE = new Map([
  ['ex:', EX],
  ['foaf:', 'http://xmlns.com/foaf/0.1/'],
]);

/** What reading `text` as `mediaType` with the store's `prefixes` gives: error and prefix rows, statements as term keys. */
async function read(text: string, prefixes: ReadonlyMap<string, string>, mediaType = TURTLE): Promise<{ errors: NotificationRow[]; prefixes: NotificationRow[]; statements: string[][] }> {
  const keys: string[] = [];
  const ids: TermIds = {
    intern: (key) => keys.push(key) - 1,
    internBytes: () => {
      throw new Error('Turtle is not read as bytes');
    },
  };
  const report = new ImportReport();
  const statements: string[][] = [];
  let n = 0;
  const content = await sniffContent(chunksOf(text));
  const parsed = parseRdf(content, ids, report, { mediaType, baseIRI: EX, prefixes, freshBlankNode: () => `_:f${++n}`, interrupter: new Interrupter() });
  for await (const batch of parsed) {
    for (let i = 0; i < batch.count; i++) statements.push([...batch.quads.subarray(4 * i, 4 * i + 4)].map((id) => (id < 0 ? '' : keys[id]!)));
  }
  return { errors: report.notifications.filter((r) => r.type === 'error'), prefixes: report.notifications.filter((r) => r.type === 'prefix'), statements };
}

/** The UTF-8 bytes of `text` as one chunk. */
async function* chunksOf(text: string): AsyncGenerator<Uint8Array> {
  yield await Promise.resolve(new TextEncoder().encode(text));
}

const at = (rows: readonly NotificationRow[]): Array<[number | undefined, number | undefined]> => rows.map((r) => [r.line, r.column]);

describe('the store prefixes before Turtle content (prefix preamble)', () => {
  it('reads the content with the store prefixes it does not declare itself', async () => {
    const r = await read('ex:a foaf:name "A" .\n', STORE);
    expect(r.errors).to.deep.equal([]);
    expect(r.statements).to.deep.equal([[`<${EX}a>`, '<http://xmlns.com/foaf/0.1/name>', '"A"', '']]);
  });

  it('places an error on the first line of the content at its line 1 and the offending column', async () => {
    const r = await read('ex:a ex:b nope:c .\n', STORE);
    expect(at(r.errors)).to.deep.equal([[1, 11]]);
    expect(r.errors[0]!.description).to.contain("unknown prefix 'nope:'");
    const first = await read('} ex:a ex:b .\n', STORE);
    expect(at(first.errors)).to.deep.equal([[1, 1]]);
  });

  it('places an error on a later line at that line and column', async () => {
    const text = '@prefix q: <http://q/> .\nq:a q:b q:c .\n\tq:a   q:b  q:c ; ex:p nope:x .\n';
    const r = await read(text, STORE);
    expect(at(r.errors)).to.deep.equal([[3, text.split('\n')[2]!.indexOf('nope:') + 1]]);
    expect(r.statements).to.have.length(2);
  });

  it('gives the same positions whether the store has prefixes or none', async () => {
    const text = '<http://e/a> <http://e/b> <http://e/c> .\n<http://e/a> <http://e/b> "open\n';
    const withPrefixes = await read(text, STORE);
    const without = await read(text, new Map());
    expect(at(without.errors)).to.deep.equal(at(withPrefixes.errors));
    expect(without.errors[0]!.line).to.equal(2);
    const unknown = await read('ex:a ex:b ex:c .\n', new Map());
    expect(at(unknown.errors)).to.deep.equal([[1, 1]]);
  });

  it('lets the content redefine a store prefix: the content IRI wins and is reported as defined', async () => {
    const r = await read('@prefix ex: <http://other.org/> .\nex:a ex:b ex:c .\n', STORE);
    expect(r.errors).to.deep.equal([]);
    expect(r.prefixes.map((p) => [p.description, p.value])).to.deep.equal([['ex:', 'http://other.org/']]);
    expect(r.statements).to.deep.equal([['<http://other.org/a>', '<http://other.org/b>', '<http://other.org/c>', '']]);
  });

  it('reports only the content declarations as defined, in TriG too', async () => {
    const r = await read('@prefix g: <http://g/> .\ng:x { ex:a ex:b ex:c }\n', STORE, TRIG);
    expect(r.errors).to.deep.equal([]);
    expect(r.prefixes.map((p) => p.description)).to.deep.equal(['g:']);
    expect(r.statements).to.deep.equal([[`<${EX}a>`, `<${EX}b>`, `<${EX}c>`, '<http://g/x>']]);
  });

  it('leaves out store prefixes Turtle cannot declare, so that no error points into the preamble', async () => {
    const odd = new Map([
      ['ex:', EX],
      ['bad name:', 'http://bad/'],
      ['sp:', 'http://space in/iri'],
    ]);
    const r = await read('ex:a ex:b ex:c .\n', odd);
    expect(r.errors).to.deep.equal([]);
    expect(r.statements).to.have.length(1);
    const e = await read('ex:a ex:b sp:c .\n', odd);
    expect(at(e.errors)).to.deep.equal([[1, 11]]);
  });

  it('maps a position n3 reports on the preamble line to no line of the content, never line 0', () => {
    const preamble = new PrefixPreamble(STORE);
    expect(preamble.lines).to.equal(1);
    expect([1, 2, 4].map((l) => preamble.contentLine(l))).to.deep.equal([undefined, 1, 3]);
    const options = { showContent: true, mapLine: (l: number) => preamble.contentLine(l) };
    const error = (message: string, context: N3ErrorContext): Error & { context: N3ErrorContext } => Object.assign(new Error(message), { context });
    expect(describeTurtleError(error('Unexpected literal on line 1.', { line: 1, token: { type: 'literal', line: 1, start: 20, end: 25 } }), options)).to.deep.equal({ message: 'a literal can only be the object of a triple' });
    expect(describeTurtleError(error('Unexpected literal on line 2.', { line: 2, token: { type: 'literal', line: 2, start: 4, end: 8 } }), options)).to.deep.include({ line: 1, column: 5 });
    // a missing '.' after a string that spans lines is reported where the string ends
    const afterLong = error('Expected punctuation to follow "x" on line 5.', { line: 5, token: { type: 'prefixed', line: 5, start: 0, end: 4 }, previousToken: { type: 'literal', line: 3, endLine: 4, start: 2, end: 3 } });
    expect(describeTurtleError(afterLong, options)).to.deep.include({ line: 3, column: 4, message: "missing '.' after the statement" });
    const none = new PrefixPreamble(new Map());
    expect([none.text, none.lines, none.contentLine(1)]).to.deep.equal(['', 0, 1]);
  });

  it('reads empty content, with or without store prefixes', async () => {
    for (const prefixes of [STORE, new Map<string, string>()]) {
      for (const text of ['', '\n', '# nothing']) expect(await read(text, prefixes)).to.deep.equal({ errors: [], prefixes: [], statements: [] });
    }
  });

  it('reads content that starts with a byte order mark, with or without store prefixes', async () => {
    for (const prefixes of [STORE, new Map<string, string>()]) {
      const r = await read('\ufeff<http://e/a> <http://e/b> <http://e/c> .\n<http://e/a> <http://e/b> nope:x .\n', prefixes);
      expect(r.statements).to.have.length(1);
      expect(at(r.errors)).to.deep.equal([[2, 27]]);
    }
  });
});
