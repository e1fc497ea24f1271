import { expect } from 'chai';
import { RE2JS } from 're2js';
import { GENERAL_CATEGORIES, categoryRanges } from '../../lib/expressions/unicode-categories.js';

describe('expressions: Unicode general categories', () => {
  it('the ranges read from JavaScript agree with the regular expression engine’s \\p{…} (at every range’s ends, their neighbours and middle)', function () {
    this.timeout(120000);
    for (const name of GENERAL_CATEGORIES) {
      const engine = RE2JS.compile(`^\\p{${name}}$`);
      const ranges = categoryRanges([name]);
      expect(ranges.length, name).to.be.greaterThan(0);
      for (const [from, to] of ranges) {
        for (const c of [from, to, (from + to) >> 1]) if (!engine.test(String.fromCodePoint(c))) expect.fail(`${name}: U+${c.toString(16)} is in the ranges, not in the engine's class`);
        for (const c of [from - 1, to + 1]) if (c >= 0 && c <= 0x10ffff && engine.test(String.fromCodePoint(c))) expect.fail(`${name}: U+${c.toString(16)} is in the engine's class, not in the ranges`);
      }
    }
  });

  it('unions of categories, lone surrogates included in C', () => {
    const letters = categoryRanges(['Lu', 'Ll']);
    const inside = (c: number): boolean => letters.some(([f, t]) => c >= f && c <= t);
    expect(inside(0x41)).to.equal(true);
    expect(inside(0x61)).to.equal(true);
    expect(inside(0x30)).to.equal(false);
    expect(categoryRanges(['C']).some(([f, t]) => f <= 0xd800 && t >= 0xdfff)).to.equal(true);
  });
});
