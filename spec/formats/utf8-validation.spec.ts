import { expect } from 'chai';
import { InvalidUtf8Error, Utf8Validator } from '../../lib/formats/utf8-validation.js';
import { firstInvalidUtf8 } from '../../lib/model/utf8.js';

const strict = new TextDecoder('utf-8', { fatal: true });

/** Whether the strict decoder accepts `bytes`. */
function decodes(bytes: Uint8Array): boolean {
  try {
    strict.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** The error of validating `bytes` split into the given chunk sizes (the rest as one chunk), or undefined. */
function validate(bytes: Uint8Array, sizes: readonly number[] = []): InvalidUtf8Error | undefined {
  const validator = new Utf8Validator();
  try {
    let at = 0;
    for (const size of sizes) {
      validator.write(bytes.subarray(at, Math.min(bytes.length, at + size)));
      at = Math.min(bytes.length, at + size);
    }
    validator.write(bytes.subarray(at));
    validator.end();
    return undefined;
  } catch (e) {
    expect(e).to.be.instanceOf(InvalidUtf8Error);
    return e as InvalidUtf8Error;
  }
}

describe('formats: UTF-8 validation of text input', () => {
  it('finds the first malformed sequence with its byte offset, line and column', () => {
    const cases: Array<[number[], number, number, number]> = [
      [[0x61, 0xc3, 0x28], 1, 1, 2],
      [[0xff], 0, 1, 1],
      [[0x61, 0x0a, 0x62, 0x62, 0xc3, 0xa9, 0xe2, 0x82], 6, 2, 4],
      [[0xc0, 0xaf], 0, 1, 1], // overlong
      [[0xed, 0xa0, 0x80], 0, 1, 1], // surrogate
      [[0xf4, 0x90, 0x80, 0x80], 0, 1, 1], // above U+10FFFF
      [[0x0a, 0x0a, 0x80], 2, 3, 1], // a lone continuation byte
    ];
    for (const [bytes, offset, line, column] of cases) {
      const input = Uint8Array.from(bytes);
      expect(firstInvalidUtf8(input), bytes.join(' ')).to.equal(offset);
      for (let split = 0; split <= input.length; split++) {
        const e = validate(input, [split]);
        expect(e, `${bytes.join(' ')} split at ${split}`).to.not.equal(undefined);
        expect([e!.offset, e!.line, e!.column], `${bytes.join(' ')} split at ${split}`).to.deep.equal([offset, line, column]);
        expect(e!.message).to.equal(`line ${line}: column ${column}: invalid UTF-8 byte sequence at byte offset ${offset}`);
        expect(e!.name).to.equal('ParsingError');
      }
    }
  });

  it('accepts well-formed UTF-8 however it is split, byte by byte included', () => {
    const text = 'aé\nß漢字😀\r\nz\uFEFF';
    const bytes = new TextEncoder().encode(text);
    for (let split = 0; split <= bytes.length; split++) expect(validate(bytes, [split]), `split at ${split}`).to.equal(undefined);
    expect(validate(bytes, Array.from({ length: bytes.length }, () => 1))).to.equal(undefined);
  });

  it('agrees with a strict decoder on every two-byte input and on random bytes, split anywhere', () => {
    for (let a = 0x80; a < 0x100; a++) {
      for (let b = 0; b < 0x100; b += 7) {
        const bytes = Uint8Array.from([a, b, 0x41]);
        expect(validate(bytes) === undefined, `${a} ${b}`).to.equal(decodes(bytes));
        expect(validate(bytes, [1]) === undefined, `${a} ${b} split`).to.equal(decodes(bytes));
      }
    }
    let seed = 7;
    const random = (): number => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % 256;
    for (let n = 0; n < 2000; n++) {
      const bytes = Uint8Array.from({ length: 1 + (n % 9) }, () => (random() < 128 ? random() & 0x7f : random()));
      const offset = firstInvalidUtf8(bytes);
      expect(offset < 0, bytes.join(' ')).to.equal(decodes(bytes));
      const e = validate(bytes, [n % bytes.length, 1]);
      expect(e?.offset ?? -1, bytes.join(' ')).to.equal(offset);
    }
  });

  it('refuses input that ends inside a sequence', () => {
    const e = validate(Uint8Array.from([0x61, 0x62, 0xe2, 0x82]), [3]);
    expect(e?.offset).to.equal(2);
    expect(e?.column).to.equal(3);
  });
});
