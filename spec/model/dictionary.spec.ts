import { expect } from 'chai';
import fc from 'fast-check';
import { TermDictionary } from '../../lib/model/dictionary.js';

const encoder = new TextEncoder();

/**
 * The dictionary's hash (FNV-1a + avalanche), reproduced here only to build keys that share
 * a home slot. If the implementation's hash changes, the tests below still hold; they merely
 * collide less.
 */
function hashOf(key: string): number {
  const bytes = encoder.encode(key);
  let h = 0x811c9dc5;
  for (const b of bytes) {
    h ^= b;
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h >>> 0;
}

/** Initial slot count of the dictionary's hash table (it stays so below 4096 terms). */
const INITIAL_SLOTS = 1 << 13;

/** `n` distinct IRI keys whose home slot (in the initial table) lies in `homes`. */
function collidingKeys(n: number, homes: ReadonlySet<number>): string[] {
  const keys: string[] = [];
  for (let i = 0; keys.length < n; i++) {
    const key = `<http://example.org/c${i}>`;
    if (homes.has(hashOf(key) & (INITIAL_SLOTS - 1))) keys.push(key);
  }
  return keys;
}

/** Asserts that the dictionary holds exactly `keys`, key i at id i. */
function expectExactly(dict: TermDictionary, keys: readonly string[], absent: readonly string[] = []): void {
  expect(dict.size).to.equal(keys.length);
  keys.forEach((key, id) => {
    if (dict.lookup(key) !== id) expect.fail(`lookup(${key}) = ${dict.lookup(key)}, expected ${id}`);
    if (dict.keyOf(id) !== key) expect.fail(`keyOf(${id}) = ${dict.keyOf(id)}, expected ${key}`);
  });
  for (const key of absent) {
    if (dict.lookup(key) !== -1) expect.fail(`removed ${key} still resolves to ${dict.lookup(key)}`);
  }
  expect(() => dict.keyOf(keys.length)).to.throw(RangeError);
}

describe('TermDictionary', () => {
  const SAMPLE = [
    '<http://example.org/a>',
    '<http://example.org/b>',
    '_:b0',
    '_:node-42',
    '""',
    '"plain"',
    '"héllo wörld"@de',
    '"日本語のテキスト"@ja',
    '"emoji 😀 𝄞 and ñ"',
    '"42"^^<http://www.w3.org/2001/XMLSchema#integer>',
    '"with \\"quote\\" and\nnewline"',
    '<http://example.org/ünïcode/路径>',
  ];

  it('round-trips IRIs, blank nodes and literals (multi-byte UTF-8, empty literal) with dense ids', () => {
    const dict = new TermDictionary();
    const ids = SAMPLE.map((key) => dict.intern(key));
    expect(ids).to.deep.equal(SAMPLE.map((_, i) => i));
    expectExactly(dict, SAMPLE);
    // interning again is idempotent
    expect(SAMPLE.map((key) => dict.intern(key))).to.deep.equal(ids);
    expect(dict.size).to.equal(SAMPLE.length);
  });

  it('distinguishes keys that differ only in kind, case or one byte', () => {
    const dict = new TermDictionary();
    const keys = ['<a>', '"a"', '_:a', '<A>', '"a"@en', '"a"@EN', '"a "', '"a"^^<a>', '"é"', '"e\u0301"'];
    for (const key of keys) dict.intern(key);
    expectExactly(dict, keys);
    expect(dict.lookup('"b"')).to.equal(-1);
    expect(dict.lookup('')).to.equal(-1);
  });

  it('reports the kind byte and the arena range of each term', () => {
    const dict = new TermDictionary();
    for (const key of SAMPLE) dict.intern(key);
    const decoder = new TextDecoder();
    SAMPLE.forEach((key, id) => {
      expect(dict.kindOf(id)).to.equal(key.charCodeAt(0));
      const bytes = dict.arenaBytes.subarray(dict.startOf(id), dict.endOf(id));
      expect(decoder.decode(bytes)).to.equal(key);
      expect(dict.endOf(id) - dict.startOf(id)).to.equal(encoder.encode(key).length);
    });
  });

  it('internBytes and lookupBytes agree with intern on the same text, anywhere in a buffer', () => {
    const dict = new TermDictionary();
    const viaString = SAMPLE.slice(0, 6).map((key) => dict.intern(key));
    const prefix = encoder.encode('garbage before ');
    for (const [i, key] of SAMPLE.entries()) {
      const body = encoder.encode(key);
      const buffer = new Uint8Array(prefix.length + body.length + 7);
      buffer.set(prefix, 0);
      buffer.set(body, prefix.length);
      buffer.fill(0x22, prefix.length + body.length); // trailing bytes must be ignored
      const start = prefix.length;
      const end = start + body.length;
      if (i < viaString.length) expect(dict.lookupBytes(buffer, start, end)).to.equal(viaString[i]);
      else expect(dict.lookupBytes(buffer, start, end)).to.equal(-1);
      const id = dict.internBytes(buffer, start, end);
      expect(id).to.equal(i);
      expect(dict.intern(key)).to.equal(id);
      expect(dict.lookup(key)).to.equal(id);
    }
    expectExactly(dict, SAMPLE);
  });

  it('keeps every id through many rehashes and arena growth (100k terms)', () => {
    const dict = new TermDictionary();
    const keys: string[] = [];
    for (let i = 0; i < 100_000; i++) {
      const key = i % 3 === 0 ? `<http://example.org/resource/${i}>` : i % 3 === 1 ? `"literal ${i} ünïcödé"@en` : `_:b${i}`;
      keys.push(key);
      const id = dict.intern(key);
      if (id !== i) expect.fail(`intern(${key}) = ${id}, expected ${i}`);
    }
    expectExactly(dict, keys);
    // a second pass of interning finds everything and adds nothing
    for (let i = 0; i < keys.length; i += 97) expect(dict.intern(keys[i]!)).to.equal(i);
    expect(dict.size).to.equal(keys.length);
  });

  it('handles a term longer than the scratch buffer and the initial arena', () => {
    const dict = new TermDictionary();
    const long = `"${'ß'.repeat(50_000)}"`; // 100k bytes of UTF-8
    dict.intern('<x>');
    expect(dict.intern(long)).to.equal(1);
    expect(dict.intern('<y>')).to.equal(2);
    expectExactly(dict, ['<x>', long, '<y>']);
  });

  it('looks up keys longer than every term held (none found, none added), also multi-byte ones and after a restore', () => {
    const dict = new TermDictionary();
    dict.intern('"short"');
    expect(dict.lookup(`"${'a'.repeat(1000)}"`)).to.equal(-1);
    // 7 UTF-16 code units, 13 bytes of UTF-8: longer in bytes than '"short"' (7 bytes)
    expect(dict.lookup('"ßßßßß"')).to.equal(-1);
    const bytes = new TextEncoder().encode('"ßßßßß"');
    expect(dict.lookupBytes(bytes, 0, bytes.length)).to.equal(-1);
    expect(dict.size).to.equal(1);
    const long = `"${'ß'.repeat(300)}"`;
    expect(dict.intern(long)).to.equal(1);
    expect(dict.lookup(long)).to.equal(1);
    expect(dict.lookup('"ßßßßß"')).to.equal(-1);
    const copy = new TermDictionary();
    const arena = dict.arenaBytes.slice(0, dict.endOf(1));
    copy.restore(arena, Uint32Array.of(dict.endOf(0), dict.endOf(1)));
    expect(copy.lookup(long)).to.equal(1);
    expect(copy.lookup('"short"')).to.equal(0);
    expect(copy.lookup(`"${'ß'.repeat(301)}"`)).to.equal(-1);
  });

  describe('truncate', () => {
    it('removes exactly the ids >= mark, at every mark, and re-interning reuses the ids', () => {
      const keys = Array.from({ length: 300 }, (_, i) => (i % 2 ? `"v${i}"` : `<http://example.org/${i}>`));
      const dict = new TermDictionary();
      for (const key of keys) dict.intern(key);
      for (let mark = keys.length; mark >= 0; mark -= 7) {
        dict.truncate(mark);
        expectExactly(dict, keys.slice(0, mark), keys.slice(mark));
        // put everything back: ids are assigned densely again
        for (let id = mark; id < keys.length; id++) expect(dict.intern(keys[id]!)).to.equal(id);
        expectExactly(dict, keys);
      }
    });

    it('re-interning after truncate can assign the freed ids to different terms', () => {
      const dict = new TermDictionary();
      for (const key of ['<a>', '<b>', '<c>', '<d>']) dict.intern(key);
      dict.truncate(2);
      expect(dict.intern('"new"')).to.equal(2);
      expect(dict.intern('<c>')).to.equal(3);
      expectExactly(dict, ['<a>', '<b>', '"new"', '<c>'], ['<d>']);
    });

    it('is a no-op at or above the current size', () => {
      const dict = new TermDictionary();
      for (const key of ['<a>', '<b>']) dict.intern(key);
      dict.truncate(2);
      dict.truncate(10);
      expectExactly(dict, ['<a>', '<b>']);
    });

    it('truncates across a rehash that happened after the mark', () => {
      const dict = new TermDictionary();
      const keys = Array.from({ length: 10_000 }, (_, i) => `<http://example.org/t${i}>`);
      for (const key of keys.slice(0, 1000)) dict.intern(key);
      for (const key of keys.slice(1000)) dict.intern(key); // several rehashes
      dict.truncate(1000);
      expectExactly(dict, keys.slice(0, 1000), keys.slice(1000));
      for (const [i, key] of keys.entries()) expect(dict.intern(key)).to.equal(i);
    });

    it('keeps every remaining key findable when removing from long collision clusters (wrapping the table end)', () => {
      // homes at the end and the start of the table, so probe sequences wrap around
      const homes = new Set([INITIAL_SLOTS - 3, INITIAL_SLOTS - 2, INITIAL_SLOTS - 1, 0, 1]);
      const keys = collidingKeys(120, homes);
      const fillers = collidingKeys(40, new Set([2, 3, 4]));
      const all = [...keys.slice(0, 60), ...fillers, ...keys.slice(60)];
      const dict = new TermDictionary();
      for (const key of all) dict.intern(key);
      expectExactly(dict, all);
      for (let mark = all.length; mark >= 0; mark--) {
        dict.truncate(mark);
        expectExactly(dict, all.slice(0, mark), all.slice(mark));
      }
      for (const [i, key] of all.entries()) expect(dict.intern(key)).to.equal(i);
      expectExactly(dict, all);
    });

    it('matches a reference list under random intern / truncate sequences over colliding keys', () => {
      const pool = [...collidingKeys(24, new Set([INITIAL_SLOTS - 1, 0])), ...collidingKeys(8, new Set([5])), '""', '"ü"'];
      const op = fc.oneof(
        fc.record({ kind: fc.constant('intern' as const), key: fc.integer({ min: 0, max: pool.length - 1 }) }),
        fc.record({ kind: fc.constant('truncate' as const), fraction: fc.double({ min: 0, max: 1, noNaN: true }) }),
      );
      fc.assert(
        fc.property(fc.array(op, { maxLength: 80 }), (ops) => {
          const dict = new TermDictionary();
          const model: string[] = [];
          for (const o of ops) {
            if (o.kind === 'intern') {
              const key = pool[o.key]!;
              const known = model.indexOf(key);
              const id = dict.intern(key);
              if (known >= 0) expect(id).to.equal(known);
              else {
                expect(id).to.equal(model.length);
                model.push(key);
              }
            } else {
              const mark = Math.floor(o.fraction * model.length);
              dict.truncate(mark);
              model.length = mark;
            }
            expectExactly(
              dict,
              model,
              pool.filter((k) => !model.includes(k)),
            );
          }
        }),
        { numRuns: 200 },
      );
    });
  });
});
