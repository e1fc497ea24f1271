import { expect } from 'chai';
import { RE2JS } from 're2js';
import { MAX_CODE_POINT } from '../../lib/expressions/code-point-ranges.js';
import { GENERAL_CATEGORIES, categoryRanges } from '../../lib/expressions/unicode-categories.js';
import { CATEGORY_RUNS, UNICODE_VERSION } from '../../lib/expressions/unicode-category-table.js';
import { LEAF_CATEGORIES, encodeRuns, runtimeCategories } from './unicode-category-generator.js';

describe('expressions: Unicode general categories', () => {
  it('the table agrees with JavaScript’s \\p{…} at every code point', function () {
    // A table of another Unicode version than the runtime's differs where the versions do; the
    // generator (unicode-category-generator.ts) writes it anew from the runtime's tables.
    if (process.versions.unicode !== UNICODE_VERSION) this.skip();
    this.timeout(120000);
    const tests = new Map(LEAF_CATEGORIES.map((name) => [name, new RegExp(`^\\p{${name}}$`, 'u')]));
    let next = 0;
    for (const [, name, length] of CATEGORY_RUNS.matchAll(/([A-Z][a-z])(\d+)/g)) {
      const test = tests.get(name!);
      if (test === undefined) expect.fail(`unknown category ${name}`);
      const end = next + Number(length);
      // the runtime's two-letter categories do not overlap, so a code point in the table's
      // category is in no other of the runtime's
      for (let c = next; c < end; c++) if (!test.test(String.fromCodePoint(c))) expect.fail(`U+${c.toString(16)} is in ${name} in the table, not in JavaScript's tables`);
      next = end;
    }
    expect(next).to.equal(MAX_CODE_POINT + 1);
  });

  it('the table is what the generator writes from JavaScript’s tables', function () {
    if (process.versions.unicode !== UNICODE_VERSION) this.skip();
    this.timeout(120000);
    expect(encodeRuns(runtimeCategories()) === CATEGORY_RUNS).to.equal(true);
  });

  it('the generator writes the table from the runs of code point categories', () => {
    const ids = new Uint8Array(6);
    ids.set([0, 0, 1, 1, 1, 0]);
    expect(encodeRuns(ids)).to.equal('Lu2Ll3Lu1');
  });

  it('the ranges agree with the regular expression engine’s \\p{…} (at every range’s ends, their neighbours and middle)', function () {
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

  it('the one-letter groups are the unions of their categories (C with the surrogates) and together cover every code point', () => {
    for (const group of 'LMNPSZC') {
      const members = LEAF_CATEGORIES.filter((n) => n[0] === group);
      expect(categoryRanges([group]), group).to.deep.equal(categoryRanges(members));
    }
    expect(categoryRanges([...'LMNPSZC'])).to.deep.equal([[0, MAX_CODE_POINT]]);
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
