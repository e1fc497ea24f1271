import { F, T, table } from './helpers.js';

describe('expressions: string functions', () => {
  describe('STRLEN (code points)', () => {
    table([
      ['STRLEN("chat")', '"4"^^xsd:integer'],
      ['STRLEN("chat"@en)', '"4"^^xsd:integer'],
      ['STRLEN("")', '"0"^^xsd:integer'],
      ['STRLEN("食べ物")', '"3"^^xsd:integer'],
      ['STRLEN("\\U0001F600x")', '"2"^^xsd:integer'],
      ['STRLEN(12)', 'error'],
      ['STRLEN(<http://example.org/>)', 'error'],
    ]);
  });

  describe('SUBSTR (1-based, code points, fn:substring rounding)', () => {
    table([
      ['SUBSTR("foobar", 4)', '"bar"'],
      ['SUBSTR("foobar", 4, 1)', '"b"'],
      ['SUBSTR("foobar"@en, 4, 1)', '"b"@en'],
      ['SUBSTR("foobar"^^xsd:string, 4, 1)', '"b"'],
      ['SUBSTR("foobar", 0, 3)', '"fo"'],
      ['SUBSTR("foobar", -1, 3)', '"f"'],
      ['SUBSTR("foobar", 5, 10)', '"ar"'],
      ['SUBSTR("foobar", 7)', '""'],
      ['SUBSTR("foobar", 2, -1)', '""'],
      ['SUBSTR("12345", 1.5, 2.6)', '"234"'],
      ['SUBSTR("12345", 0e0, 3e0)', '"12"'],
      ['SUBSTR("12345", "NaN"^^xsd:double, 3)', '""'],
      ['SUBSTR("12345", -3, "INF"^^xsd:double)', '"12345"'],
      ['SUBSTR("12345", "-INF"^^xsd:double, "INF"^^xsd:double)', '""'],
      ['SUBSTR("a\\U0001F600b\\U0001F601c", 2, 3)', '"\u{1F600}b\u{1F601}"'],
      ['SUBSTR("食べ物", 2)', '"べ物"'],
      ['SUBSTR("abc", "1")', 'error'],
      ['SUBSTR(1, 1)', 'error'],
    ]);
  });

  describe('UCASE, LCASE', () => {
    table([
      ['UCASE("foo")', '"FOO"'],
      ['UCASE("foo"@en)', '"FOO"@en'],
      ['UCASE("foo"^^xsd:string)', '"FOO"'],
      ['UCASE("straße")', '"STRASSE"'],
      ['LCASE("BAR")', '"bar"'],
      ['LCASE("BAR"@en)', '"bar"@en'],
      ['LCASE("\\U00010400")', '"\u{10428}"'],
      ['UCASE(1)', 'error'],
    ]);
  });

  describe('STRSTARTS, STRENDS, CONTAINS (argument compatibility)', () => {
    table([
      ['STRSTARTS("foobar", "foo")', T],
      ['STRSTARTS("foobar"@en, "foo"@en)', T],
      ['STRSTARTS("foobar"^^xsd:string, "foo"^^xsd:string)', T],
      ['STRSTARTS("foobar"^^xsd:string, "foo")', T],
      ['STRSTARTS("foobar", "foo"^^xsd:string)', T],
      ['STRSTARTS("foobar"@en, "foo")', T],
      ['STRSTARTS("foobar"@en, "foo"^^xsd:string)', T],
      ['STRSTARTS("foobar", "foo"@en)', 'error'],
      ['STRSTARTS("foobar"@en, "foo"@fr)', 'error'],
      ['STRSTARTS("foobar", "bar")', F],
      ['STRSTARTS("foobar", "")', T],
      ['STRSTARTS(<http://example.org/>, "http")', 'error'],
      ['STRENDS("foobar", "bar")', T],
      ['STRENDS("foobar"@en, "bar"@en)', T],
      ['STRENDS("foobar", "foo")', F],
      ['STRENDS("foobar", "bar"@en)', 'error'],
      ['CONTAINS("foobar", "bar")', T],
      ['CONTAINS("foobar"@en, "foo"@en)', T],
      ['CONTAINS("foobar"^^xsd:string, "bar"^^xsd:string)', T],
      ['CONTAINS("foobar", "baz")', F],
      ['CONTAINS("foobar"@en, "bar"@fr)', 'error'],
      ['CONTAINS("foobar", 1)', 'error'],
    ]);
  });

  describe('STRBEFORE, STRAFTER (result language tags)', () => {
    table([
      ['STRBEFORE("abc", "b")', '"a"'],
      ['STRBEFORE("abc"@en, "bc")', '"a"@en'],
      ['STRBEFORE("abc"@en, "b"@cy)', 'error'],
      ['STRBEFORE("abc"^^xsd:string, "")', '""'],
      ['STRBEFORE("abc", "xyz")', '""'],
      ['STRBEFORE("abc"@en, "z"@en)', '""'],
      ['STRBEFORE("abc"@en, "z")', '""'],
      ['STRBEFORE("abc"@en, ""@en)', '""@en'],
      ['STRBEFORE("abc"@en, "")', '""@en'],
      ['STRBEFORE("a.b.c", ".")', '"a"'],
      ['STRAFTER("abc", "b")', '"c"'],
      ['STRAFTER("abc"@en, "ab")', '"c"@en'],
      ['STRAFTER("abc"@en, "b"@cy)', 'error'],
      ['STRAFTER("abc"^^xsd:string, "")', '"abc"'],
      ['STRAFTER("abc", "xyz")', '""'],
      ['STRAFTER("abc"@en, "z"@en)', '""'],
      ['STRAFTER("abc"@en, "z")', '""'],
      ['STRAFTER("abc"@en, ""@en)', '"abc"@en'],
      ['STRAFTER("abc"@en, "")', '"abc"@en'],
      ['STRAFTER("a.b.c", ".")', '"b.c"'],
      ['STRAFTER("abc", ?e)', 'error'],
    ]);
  });

  describe('ENCODE_FOR_URI', () => {
    table([
      ['ENCODE_FOR_URI("Los Angeles")', '"Los%20Angeles"'],
      ['ENCODE_FOR_URI("Los Angeles"@en)', '"Los%20Angeles"'],
      ['ENCODE_FOR_URI("~bébé")', '"~b%C3%A9b%C3%A9"'],
      ['ENCODE_FOR_URI("100% a/b?c=d&e!*\'()")', '"100%25%20a%2Fb%3Fc%3Dd%26e%21%2A%27%28%29"'],
      ['ENCODE_FOR_URI("A-Z_a.z~09")', '"A-Z_a.z~09"'],
      ['ENCODE_FOR_URI("\\U0001F600")', '"%F0%9F%98%80"'],
      ['ENCODE_FOR_URI(<http://example.org/>)', 'error'],
    ]);
  });

  describe('CONCAT', () => {
    table([
      ['CONCAT("foo", "bar")', '"foobar"'],
      ['CONCAT("foo"@en, "bar"@en)', '"foobar"@en'],
      ['CONCAT("foo"^^xsd:string, "bar"^^xsd:string)', '"foobar"'],
      ['CONCAT("foo", "bar"^^xsd:string)', '"foobar"'],
      ['CONCAT("foo"@en, "bar")', '"foobar"'],
      ['CONCAT("foo"@en, "bar"@fr)', '"foobar"'],
      ['CONCAT("foo"@en)', '"foo"@en'],
      ['CONCAT()', '""'],
      ['CONCAT("a", 1)', 'error'],
      ['CONCAT("a", ?e)', 'error'],
    ]);
  });

  describe('LANGMATCHES', () => {
    table([
      ['LANGMATCHES("en", "en")', T],
      ['LANGMATCHES("en-US", "en")', T],
      ['LANGMATCHES("EN-us", "en-US")', T],
      ['LANGMATCHES("en-US", "en-GB")', F],
      ['LANGMATCHES("eng", "en")', F],
      ['LANGMATCHES("fr", "*")', T],
      ['LANGMATCHES("", "*")', F],
      ['LANGMATCHES("", "")', T],
      ['LANGMATCHES(LANG("abc"@en-gb), "en")', T],
      ['LANGMATCHES(LANG("abc"), "en")', F],
      ['LANGMATCHES("en"@en, "en")', 'error'],
      ['LANGMATCHES("en", 1)', 'error'],
    ]);
  });
});
