import { expect } from 'chai';
import { ImportReport } from '../../lib/formats/notifications.js';
import { ABSENT_TERM, parseRdf, sniffContent, type TermIds } from '../../lib/formats/rdf-parse.js';
import { N_QUADS, N_TRIPLES, TURTLE } from '../../lib/formats/media-types.js';
import { Interrupter } from '../../lib/model/control.js';
import { keyedTermIds } from '../helpers/term-ids.js';

const EX = 'http://example.com/';
const decoder = new TextDecoder();

/** `text` as chunks of `size` bytes; `closed` is set when the reader stops early or reaches the end. */
function chunked(text: string, size: number): { chunks: AsyncIterable<Uint8Array>; state: { read: number; closed: boolean } } {
  const bytes = new TextEncoder().encode(text);
  const state = { read: 0, closed: false };
  async function* chunks(): AsyncGenerator<Uint8Array> {
    try {
      for (let i = 0; i < bytes.length; i += size) {
        state.read++;
        yield await Promise.resolve(bytes.subarray(i, i + size));
      }
    } finally {
      state.closed = true;
    }
  }
  return { chunks: chunks(), state };
}

function options(mediaType: string) {
  let n = 0;
  return { mediaType, baseIRI: EX, prefixes: new Map([['ex:', EX]]), freshBlankNode: () => `_:f${++n}`, interrupter: new Interrupter() };
}

const lines = (n: number, graph = ''): string => Array.from({ length: n }, (_, i) => `<${EX}s${i}> <${EX}p> "${i}"${graph} .\n`).join('');

describe('parseRdf: statements handed down in batches of term ids', () => {
  for (const [mediaType, text] of [
    [N_TRIPLES, lines(30_000)],
    [TURTLE, lines(30_000)],
  ] as const) {
    it(`gives every statement of ${mediaType}, in order, in more than one bounded batch`, async () => {
      const ids = keyedTermIds();
      const report = new ImportReport();
      const { chunks } = chunked(text, 1 << 20);
      const parsed = parseRdf(await sniffContent(chunks), ids, report, options(mediaType));
      expect(parsed.mediaType).to.equal(mediaType);
      let batches = 0;
      const objects: string[] = [];
      for await (const batch of parsed) {
        batches++;
        expect(batch.count).to.be.above(0).and.at.most(batch.quads.length / 4);
        for (let i = 0; i < batch.count; i++) {
          expect(batch.quads[4 * i + 3]).to.equal(-1);
          objects.push(ids.keys[batch.quads[4 * i + 2]!]!);
        }
      }
      expect(report.errors).to.equal(0);
      expect(batches).to.be.above(1);
      expect(objects).to.deep.equal(Array.from({ length: 30_000 }, (_, i) => `"${i}"`));
    });
  }

  it('gives named graphs by id, terms a lookup does not know as ABSENT_TERM, and error rows with their lines', async () => {
    const known = keyedTermIds();
    known.intern(`<${EX}s0>`);
    known.intern(`<${EX}p>`);
    known.intern('"0"');
    known.intern(`<${EX}g>`);
    const lookup: TermIds = { intern: (key) => known.keys.indexOf(key) < 0 ? ABSENT_TERM : known.keys.indexOf(key), internBytes: (b, s, e) => lookup.intern(decoder.decode(b.subarray(s, e))) };
    const report = new ImportReport();
    const text = `${lines(2, ` <${EX}g>`)}<${EX}bad> .\n`;
    const parsed = parseRdf(await sniffContent(chunked(text, 7).chunks), lookup, report, options(N_QUADS));
    const statements: number[][] = [];
    for await (const batch of parsed) for (let i = 0; i < batch.count; i++) statements.push([...batch.quads.subarray(4 * i, 4 * i + 4)]);
    expect(statements).to.deep.equal([
      [0, 1, 2, 3],
      [ABSENT_TERM, 1, ABSENT_TERM, 3],
    ]);
    expect(report.notifications.filter((r) => r.type === 'error').map((r) => r.line)).to.deep.equal([3]);
  });

  for (const mediaType of [N_TRIPLES, TURTLE]) {
    it(`stops reading ${mediaType} content when its reader stops`, async () => {
      const { chunks, state } = chunked(lines(20_000), 4096);
      const parsed = parseRdf(await sniffContent(chunks), keyedTermIds(), new ImportReport(), options(mediaType));
      for await (const batch of parsed) {
        expect(batch.count).to.be.above(0);
        break;
      }
      expect(state.closed).to.equal(true);
      expect(state.read).to.be.below(100);
    });
  }
});
