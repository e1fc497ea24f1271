import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { expect } from 'chai';
import { type DataStoreConnection, ImportError } from '../../lib/index.js';
import { expectError, useServer } from '../helpers/server.js';

const EX = 'http://example.com/';

/** The UTF-8 bytes of `before`, then `bad`, then the UTF-8 bytes of `after`. */
function withBytes(before: string, bad: readonly number[], after: string): Buffer {
  return Buffer.concat([Buffer.from(before, 'utf8'), Buffer.from(bad), Buffer.from(after, 'utf8')]);
}

/** Chunks of `bytes`, `size` bytes each. */
async function* chunked(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
  await Promise.resolve();
}

describe('server: imports refuse malformed UTF-8', () => {
  const env = useServer('import-utf8');
  let dir: string;
  let store: DataStoreConnection;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quadlog-import-utf8-'));
    store = await env.newStore();
    await store.importData('ADD', `<${EX}kept> <${EX}p> "é" .\n`);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  // each: media type, content with a malformed sequence, its byte offset and line
  const prefix = `@prefix : <${EX}> .\n`;
  const cases: ReadonlyArray<{ readonly type: string; readonly name: string; readonly bytes: Buffer; readonly offset: number; readonly line: number }> = [
    { type: 'text/turtle', name: 'data.ttl', bytes: withBytes(`${prefix}:a :p "a`, [0xc3, 0x28], `" .\n:b :p :c .\n`), offset: prefix.length + 8, line: 2 },
    { type: 'application/trig', name: 'data.trig', bytes: withBytes(`${prefix}:g { :a :p "`, [0xff], `" . }\n`), offset: prefix.length + 12, line: 2 },
    { type: 'application/x.datalog', name: 'rules.dlog', bytes: withBytes(`${prefix}[:a, :p, "x"] .\n[?x, :q, "`, [0xed, 0xa0, 0x80], `"] :- [?x, :p, ?y] .\n`), offset: prefix.length + 16 + 10, line: 3 },
    { type: 'application/n-triples', name: 'data.nt', bytes: withBytes(`<${EX}a> <${EX}p> "a`, [0xc3, 0x28], `" .\n`), offset: -1, line: 1 },
  ];

  for (const c of cases) {
    it(`refuses ${c.type} with malformed UTF-8, from bytes, a stream, a gzip'd buffer and a file, changing nothing`, async () => {
      const file = join(dir, c.name);
      writeFileSync(file, c.bytes);
      const before = await store.countFacts();
      const sources = [c.bytes, chunked(c.bytes, 3), gzipSync(c.bytes), { path: file }];
      for (const [i, source] of sources.entries()) {
        const e = await expectError(store.importData('ADD', source, { mediaType: c.type }), ImportError);
        if (c.offset >= 0) {
          expect(e.message, `source ${i}`).to.contain(`invalid UTF-8 byte sequence at byte offset ${c.offset}`);
          expect(e.firstError?.line, `source ${i}`).to.equal(c.line);
        } else expect(e.message, `source ${i}`).to.contain('invalid UTF-8 byte sequence');
        expect(e.message).to.not.contain('\uFFFD');
        expect(await store.countFacts()).to.equal(before);
      }
      // detected from the file name, with no media type stated
      await expectError(store.importData('ADD', { path: file }), ImportError);
      expect(await store.countFacts()).to.equal(before);
    });
  }

  it('imports well-formed multi-byte text however it is chunked', async () => {
    const ds = await env.newStore();
    const text = `${prefix}:a :p "aé漢😀" .\n`;
    const bytes = Buffer.from(text, 'utf8');
    await ds.importData('ADD', chunked(bytes, 1), { mediaType: 'text/turtle' });
    await ds.importData('ADD', chunked(Buffer.from(`${prefix}[:b, :p, "ß😀"] .\n`, 'utf8'), 1), { mediaType: 'application/x.datalog' });
    const answer = await ds.evaluateQuery(`SELECT ?o WHERE { ?s <${EX}p> ?o } ORDER BY ?o`);
    expect(answer.type === 'bindings' && answer.rows.map((r) => r[0]?.value)).to.deep.equal(['aé漢😀', 'ß😀']);
  });
});
