import { expect } from 'chai';
import { ev, F, T } from './helpers.js';

/** SPARQL string literal for a JS string (escapes backslash, quote and newlines). */
function q(s: string): string {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t')}"`;
}

function regex(text: string, pattern: string, flags?: string): string {
  return ev(`REGEX(${q(text)}, ${q(pattern)}${flags === undefined ? '' : `, ${q(flags)}`})`);
}

function replace(text: string, pattern: string, replacement: string, flags?: string): string {
  return ev(`REPLACE(${q(text)}, ${q(pattern)}, ${q(replacement)}${flags === undefined ? '' : `, ${q(flags)}`})`);
}

describe('expressions: REGEX and REPLACE (XPath regular expressions)', () => {
  describe('REGEX basics', () => {
    const cases: [string, string, string | undefined, string][] = [
      ['abracadabra', 'bra', undefined, T],
      ['abracadabra', '^a.*a$', undefined, T],
      ['abracadabra', '^bra', undefined, F],
      ['Alice', '^ali', 'i', T],
      ['Alice', '^ali', undefined, F],
      ['helloworld', 'hello world', 'x', T],
      ['hello world', 'hello\\ world', 'x', F],
      ['hello world', 'hello[ ]world', 'x', T],
      ['a+b', 'a+b', 'q', T],
      ['aab', 'a+b', 'q', F],
      ['A.B', 'a.b', 'qi', T],
      ['', '', undefined, T],
    ];
    for (const [text, pattern, flags, expected] of cases) {
      it(`REGEX(${JSON.stringify(text)}, ${JSON.stringify(pattern)}${flags ? `, "${flags}"` : ''}) → ${expected}`, () => {
        expect(regex(text, pattern, flags)).to.equal(expected);
      });
    }

    it('works on language-tagged and xsd:string texts; not on IRIs, numbers or tagged patterns', () => {
      expect(ev('REGEX("Hello"@en, "^H")')).to.equal(T);
      expect(ev('REGEX("Hello"^^xsd:string, "^H"^^xsd:string)')).to.equal(T);
      expect(ev('REGEX(<http://example.org/>, "^http")')).to.equal('error');
      expect(ev('REGEX(STR(<http://example.org/>), "^http")')).to.equal(T);
      expect(ev('REGEX(12, "1")')).to.equal('error');
      expect(ev('REGEX("a", "a"@en)')).to.equal('error');
      expect(ev('REGEX("a", "a", 1)')).to.equal('error');
      expect(ev('REGEX(?e, "a")')).to.equal('error');
    });
  });

  describe('XPath semantics translated to JavaScript', () => {
    it('. matches neither \\n nor \\r, except with the s flag', () => {
      expect(regex('a\nb', 'a.b')).to.equal(F);
      expect(regex('a\rb', 'a.b')).to.equal(F);
      expect(regex('a\u2028b', 'a.b')).to.equal(T);
      expect(regex('a\nb', 'a.b', 's')).to.equal(T);
    });

    it('^ and $ match at line boundaries (\\n only) with the m flag', () => {
      expect(regex('a\nb', '^b$')).to.equal(F);
      expect(regex('a\nb', '^b$', 'm')).to.equal(T);
      expect(regex('a\nb', 'a$', 'm')).to.equal(T);
      expect(regex('a\rb', '^b', 'm')).to.equal(F);
      expect(regex('ab\n', 'b$')).to.equal(F);
    });

    it('\\s is XML whitespace, \\d decimal digits, \\w not punctuation/separator/other', () => {
      expect(regex('a\u00a0b', 'a\\sb')).to.equal(F);
      expect(regex('a\tb', 'a\\sb')).to.equal(T);
      expect(regex('\u0663', '^\\d$')).to.equal(T);
      expect(regex('é', '^\\w$')).to.equal(T);
      expect(regex('_', '^\\w$')).to.equal(F);
      expect(regex('+', '^\\w$')).to.equal(T);
      expect(regex('-', '^\\W$')).to.equal(T);
      expect(regex('a-', '^[\\w-]+$')).to.equal(T);
      expect(regex('x', '^[^\\w]$')).to.equal(F);
      expect(regex('!', '^[^\\w]$')).to.equal(T);
    });

    it('\\i and \\c are XML name characters', () => {
      expect(regex('_a-b.c', '^\\i\\c*$')).to.equal(T);
      expect(regex('1abc', '^\\i\\c*$')).to.equal(F);
      expect(regex('1', '^\\I$')).to.equal(T);
      expect(regex(' ', '^\\C$')).to.equal(T);
    });

    it('\\p{…} categories and Is-blocks, \\P{…} complements', () => {
      expect(regex('Ab', '^\\p{Lu}\\p{Ll}$')).to.equal(T);
      expect(regex('ab', '^\\p{Lu}')).to.equal(F);
      expect(regex('a', '^\\P{Lu}$')).to.equal(T);
      expect(regex('abc', '^\\p{IsBasicLatin}+$')).to.equal(T);
      expect(regex('é', '^\\p{IsBasicLatin}$')).to.equal(F);
      expect(regex('é', '^\\P{IsBasicLatin}$')).to.equal(T);
      expect(regex('α', '^\\p{IsGreek}$')).to.equal(T);
      expect(regex('α', '^\\p{IsGreekandCoptic}$')).to.equal(T);
      expect(regex('é', '^\\p{IsLatin-1Supplement}$')).to.equal(T);
      expect(regex('€', '^\\p{Sc}$')).to.equal(T);
      expect(regex('x', '\\p{IsNoSuchBlock}')).to.equal('error');
      expect(regex('x', '\\p{Foo}')).to.equal('error');
    });

    it('character class subtraction', () => {
      expect(regex('b', '^[a-z-[aeiou]]$')).to.equal(T);
      expect(regex('e', '^[a-z-[aeiou]]$')).to.equal(F);
      expect(regex('e', '^[a-z-[aeiou-[e]]]$')).to.equal(T);
      expect(regex('E', '^[^a-z-[E]]$')).to.equal(F);
      expect(regex('F', '^[^a-z-[E]]$')).to.equal(T);
    });

    it('character classes: literal - at the ends, escapes, ranges, non-BMP characters', () => {
      expect(regex('-', '^[a-]$')).to.equal(T);
      expect(regex('-', '^[-a]$')).to.equal(T);
      expect(regex('+', '^[+-]$')).to.equal(T);
      expect(regex(']', '^[\\]]$')).to.equal(T);
      expect(regex('^', '^[a^]$')).to.equal(T);
      expect(regex('\u{1F600}', '^[\u{1F600}-\u{1F64F}]$')).to.equal(T);
      expect(regex('\u{1F600}', '^.$')).to.equal(T);
      expect(regex('a\u{1F600}b', '^a.b$')).to.equal(T);
    });

    it('quantifiers, reluctant quantifiers, groups and back-references', () => {
      expect(regex('aaa', '^a{3}$')).to.equal(T);
      expect(regex('aaaa', '^a{2,3}$')).to.equal(F);
      expect(regex('aaaa', '^a{2,}$')).to.equal(T);
      expect(regex('abab', '^(ab)\\1$')).to.equal(T);
      expect(regex('abab', '^(?:ab)+$')).to.equal(T);
      expect(replace('aaa', 'a+?', 'b')).to.equal('"bbb"');
      expect(regex('abcdefghijkk', '^(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)(k)\\11$')).to.equal(T);
      expect(regex('a1', '^(a)\\10$')).to.equal(F);
      expect(regex('aa0', '^(a)\\10$')).to.equal(T);
    });

    it('flag i: characters match their case variants (upper-case or lower-case equal); \\p{…} stays case-sensitive', () => {
      expect(regex('ABC', '^abc$', 'i')).to.equal(T);
      expect(regex('aBc', '^[a-c]+$', 'i')).to.equal(T);
      expect(regex('B', '^[^b]$', 'i')).to.equal(F);
      expect(regex('E', '^[a-z-[e]]$', 'i')).to.equal(F);
      expect(regex('\u212A', '^k$', 'i')).to.equal(T); // KELVIN SIGN: lower-case is k
      expect(regex('\u0131', '^i$', 'i')).to.equal(T); // dotless i: upper-case is I
      expect(regex('\u017F', '^S$', 'i')).to.equal(T); // long s: upper-case is S
      expect(regex('\u03C2', '^\u03A3$', 'i')).to.equal(T); // final sigma
      expect(regex('\u{10428}', '^\u{10400}$', 'i')).to.equal(T); // Deseret
      expect(regex('a', '^\\p{Lu}$', 'i')).to.equal(F);
      expect(regex('A', '^\\p{Lu}$', 'i')).to.equal(T);
      expect(regex('A', '^\\P{Lu}$', 'i')).to.equal(F);
      expect(regex('a', '^[\\p{Lu}x]$', 'i')).to.equal(F);
      expect(regex('X', '^[\\p{Ll}x]$', 'i')).to.equal(T);
      expect(regex('Aa', '^(a)\\1$', 'i')).to.equal(T);
      expect(regex('A+', 'a+', 'qi')).to.equal(T);
    });

    it('rejects invalid patterns and flags', () => {
      for (const p of ['(', ')', 'a{2', 'a{,2}', 'a{3,2}', '[a', '[]', '*a', 'a**', '\\', '\\k', '(?=a)', '(?<n>a)', '\\1(a)', '[a-]b-c]', '[z-a]', 'a]', '{', '^*', '[a-[b]'])
        expect(regex('a', p), p).to.equal('error');
      expect(regex('a', 'a', 'g')).to.equal('error');
      expect(regex('a', 'a', 'u')).to.equal('error');
    });
  });

  describe('REPLACE', () => {
    it('replaces every match, with $N group references and \\ escapes', () => {
      expect(replace('abracadabra', 'bra', '*')).to.equal('"a*cada*"');
      expect(replace('abracadabra', 'a.*a', '*')).to.equal('"*"');
      expect(replace('abracadabra', 'a.*?a', '*')).to.equal('"*c*bra"');
      expect(replace('abracadabra', 'a', '')).to.equal('"brcdbr"');
      expect(replace('abracadabra', 'a(.)', 'a$1$1')).to.equal('"abbraccaddabbra"');
      expect(replace('darted', '^(.*?)d(.*)$', '$1c$2')).to.equal('"carted"');
      expect(replace('abc', 'b', '$0$0')).to.equal('"abbc"');
      expect(replace('abc', 'b', '\\$1')).to.equal('"a$1c"');
      expect(replace('abc', 'b', '\\\\')).to.equal('"a\\c"');
      expect(replace('abc', '(b)', '$10')).to.equal('"ab0c"');
      expect(replace('abc', '(b)', '$2')).to.equal('"ac"');
      expect(replace('AAA', 'a', 'b', 'i')).to.equal('"bbb"');
      expect(replace('a.b.c', '.', '$', 'q')).to.equal('"a$b$c"');
    });

    it('keeps the language tag of the input', () => {
      expect(ev('REPLACE("abc"@en, "b", "x")')).to.equal('"axc"@en');
      expect(ev('REPLACE("abc"^^xsd:string, "b", "x")')).to.equal('"axc"');
    });

    it('is an error when the pattern matches the empty string or the replacement is invalid', () => {
      expect(replace('abc', '.*', 'x')).to.equal('error');
      expect(replace('abc', 'x?', 'x')).to.equal('error');
      expect(replace('abc', '^', 'x')).to.equal('error');
      expect(replace('abc', 'b', '$')).to.equal('error');
      expect(replace('abc', 'b', '$x')).to.equal('error');
      expect(replace('abc', 'b', '\\n')).to.equal('error');
      expect(replace('abc', '(', 'x')).to.equal('error');
      expect(ev('REPLACE("abc", "b"@en, "x")')).to.equal('error');
      expect(ev('REPLACE("abc", "b", 1)')).to.equal('error');
    });
  });
});
