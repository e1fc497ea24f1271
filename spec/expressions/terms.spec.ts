import { expect } from 'chai';
import { DataFactory } from 'n3';
import { ev, evaluate, F, T, table } from './helpers.js';

describe('expressions: term functions', () => {
  describe('STR, LANG, DATATYPE', () => {
    table([
      ['STR(<http://example.org/a>)', '"http://example.org/a"'],
      ['STR("abc"@en)', '"abc"'],
      ['STR(1.50)', '"1.50"'],
      ['STR("x"^^<http://example.org/dt>)', '"x"'],
      ['STR(1 + 1.5)', '"2.5"'],
      ['LANG("abc"@en-GB)', '"en-gb"'],
      ['LANG("abc")', '""'],
      ['LANG(1)', '""'],
      ['LANG(<http://example.org/a>)', 'error'],
      ['DATATYPE("abc")', '<http://www.w3.org/2001/XMLSchema#string>'],
      ['DATATYPE("abc"^^xsd:string)', '<http://www.w3.org/2001/XMLSchema#string>'],
      ['DATATYPE("abc"@en)', '<http://www.w3.org/1999/02/22-rdf-syntax-ns#langString>'],
      ['DATATYPE(1)', '<http://www.w3.org/2001/XMLSchema#integer>'],
      ['DATATYPE("1"^^xsd:byte)', '<http://www.w3.org/2001/XMLSchema#byte>'],
      ['DATATYPE("abc"^^xsd:integer)', '<http://www.w3.org/2001/XMLSchema#integer>'],
      ['DATATYPE("x"^^<http://example.org/dt>)', '<http://example.org/dt>'],
      ['DATATYPE(<http://example.org/a>)', 'error'],
      ['DATATYPE(?e)', 'error'],
    ]);
    it('STR and DATATYPE of a blank node are errors', () => {
      const b = DataFactory.blankNode('b');
      expect(ev('STR(?b)', { b })).to.equal('error');
      expect(ev('DATATYPE(?b)', { b })).to.equal('error');
      expect(ev('LANG(?b)', { b })).to.equal('error');
    });
  });

  describe('IRI / URI', () => {
    table([
      ['IRI("http://example.org/x")', '<http://example.org/x>'],
      ['URI("http://example.org/x")', '<http://example.org/x>'],
      ['IRI(<http://example.org/x>)', '<http://example.org/x>'],
      ['IRI("x")', '<http://example.org/base/x>'],
      ['IRI("../y?q#f")', '<http://example.org/y?q#f>'],
      ['IRI("/abs")', '<http://example.org/abs>'],
      ['IRI("#frag")', '<http://example.org/base/#frag>'],
      ['IRI("//other.org/p")', '<http://other.org/p>'],
      ['IRI("")', '<http://example.org/base/>'],
      ['IRI("x"^^xsd:string)', '<http://example.org/base/x>'],
      ['IRI("x"@en)', 'error'],
      ['IRI(1)', 'error'],
      ['IRI("http://example.org/a b")', 'error'],
      ['IRI("http://example.org/<a>")', 'error'],
    ]);
    it('resolves against the base IRI of the context (RFC 3986)', () => {
      const ctx = { now: new Date(), baseIRI: 'http://a/b/c/d;p?q' };
      const cases: [string, string][] = [
        ['g', 'http://a/b/c/g'],
        ['./g', 'http://a/b/c/g'],
        ['g/', 'http://a/b/c/g/'],
        ['?y', 'http://a/b/c/d;p?y'],
        ['g?y', 'http://a/b/c/g?y'],
        [';x', 'http://a/b/c/;x'],
        ['.', 'http://a/b/c/'],
        ['..', 'http://a/b/'],
        ['../g', 'http://a/b/g'],
        ['../..', 'http://a/'],
        ['../../../g', 'http://a/g'],
        ['/./g', 'http://a/g'],
        ['g/../h', 'http://a/b/c/h'],
        ['g;x=1/../y', 'http://a/b/c/y'],
      ];
      for (const [ref, expected] of cases) expect(ev(`IRI("${ref}")`, {}, ctx), ref).to.equal(`<${expected}>`);
    });
    it('a relative IRI without a base IRI is an error', () => {
      expect(ev('IRI("x")', {}, { now: new Date() })).to.equal('error');
      expect(ev('IRI("urn:x")', {}, { now: new Date() })).to.equal('<urn:x>');
    });
  });

  describe('BNODE', () => {
    it('BNODE() is fresh on every call', () => {
      expect(ev('sameTerm(BNODE(), BNODE())')).to.equal(F);
      expect(ev('isBLANK(BNODE())')).to.equal(T);
      const a = evaluate('BNODE()');
      const b = evaluate('BNODE()');
      expect(a.termType).to.equal('BlankNode');
      expect(a.equals(b)).to.equal(false);
    });
    it('BNODE(label) is the same node for the same label within one evaluation, fresh across evaluations', () => {
      expect(ev('sameTerm(BNODE("a"), BNODE("a"))')).to.equal(T);
      expect(ev('sameTerm(BNODE("a"), BNODE("b"))')).to.equal(F);
      expect(ev('sameTerm(BNODE("a"), BNODE("a"^^xsd:string))')).to.equal(T);
      expect(evaluate('BNODE("a")').equals(evaluate('BNODE("a")'))).to.equal(false);
      expect(ev('BNODE("a"@en)')).to.equal('error');
      expect(ev('BNODE(1)')).to.equal('error');
    });
    it('uses the context callback when there is one', () => {
      const calls: (string | undefined)[] = [];
      const ctx = {
        now: new Date(),
        bnode: (label?: string) => {
          calls.push(label);
          return DataFactory.blankNode(label === undefined ? 'fresh' : `L_${label}`);
        },
      };
      expect(ev('BNODE()', {}, ctx)).to.equal('_:fresh');
      expect(ev('BNODE("x")', {}, ctx)).to.equal('_:L_x');
      expect(calls).to.deep.equal([undefined, 'x']);
    });
  });

  describe('STRDT, STRLANG', () => {
    table([
      ['STRDT("123", xsd:integer)', '"123"^^xsd:integer'],
      ['STRDT("123", xsd:integer) = 123', T],
      ['STRDT("iiii", <http://example/romanNumeral>)', '"iiii"^^<http://example/romanNumeral>'],
      ['STRDT("abc", xsd:string)', '"abc"'],
      ['STRDT("abc"^^xsd:string, xsd:string)', '"abc"'],
      ['STRDT("abc"@en, xsd:string)', 'error'],
      ['STRDT("abc", "xsd:string")', 'error'],
      ['STRDT(1, xsd:string)', 'error'],
      ['STRDT("abc", rdf:langString)', 'error'],
      ['STRLANG("chat", "en")', '"chat"@en'],
      ['STRLANG("chat", "en-US")', '"chat"@en-us'],
      ['STRLANG("chat"^^xsd:string, "fr")', '"chat"@fr'],
      ['STRLANG("chat"@en, "fr")', 'error'],
      ['STRLANG("chat", "")', 'error'],
      ['STRLANG("chat", "not a tag")', 'error'],
      ['STRLANG("chat", "toolongsubtag")', 'error'],
      ['STRLANG(<http://example.org/>, "en")', 'error'],
    ]);
  });

  describe('UUID, STRUUID', () => {
    it('UUID() is a fresh urn:uuid IRI', () => {
      const a = evaluate('UUID()');
      expect(a.termType).to.equal('NamedNode');
      expect(a.value).to.match(/^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(evaluate('UUID()').value).to.not.equal(a.value);
      expect(ev('isIRI(UUID())')).to.equal(T);
    });
    it('STRUUID() is a fresh UUID string', () => {
      const a = ev('STRUUID()');
      expect(a).to.match(/^"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"$/);
      expect(ev('STRUUID()')).to.not.equal(a);
      expect(ev('STRLEN(STRUUID())')).to.equal('"36"^^xsd:integer');
    });
  });

  describe('isIRI, isURI, isBLANK, isLITERAL', () => {
    table([
      ['isIRI(<http://example.org/>)', T],
      ['isURI(<http://example.org/>)', T],
      ['isIRI("http://example.org/")', F],
      ['isBLANK(<http://example.org/>)', F],
      ['isLITERAL("a")', T],
      ['isLITERAL(1)', T],
      ['isLITERAL("x"^^<http://example.org/dt>)', T],
      ['isLITERAL(<http://example.org/>)', F],
      ['isIRI(?e)', 'error'],
    ]);
    it('of blank nodes', () => {
      const b = DataFactory.blankNode('b');
      expect(ev('isBLANK(?b)', { b })).to.equal(T);
      expect(ev('isIRI(?b)', { b })).to.equal(F);
      expect(ev('isLITERAL(?b)', { b })).to.equal(F);
    });
  });

  describe('hash functions', () => {
    table([
      ['MD5("abc")', '"900150983cd24fb0d6963f7d28e17f72"'],
      ['MD5("abc"^^xsd:string)', '"900150983cd24fb0d6963f7d28e17f72"'],
      ['SHA1("abc")', '"a9993e364706816aba3e25717850c26c9cd0d89d"'],
      ['SHA256("abc")', '"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"'],
      [
        'SHA384("abc")',
        '"cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7"',
      ],
      [
        'SHA512("abc")',
        '"ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"',
      ],
      ['MD5("")', '"d41d8cd98f00b204e9800998ecf8427e"'],
      ['MD5("café")', '"07117fe4a1ebd544965dc19573183da2"'],
      ['MD5("abc"@en)', 'error'],
      ['SHA1(1)', 'error'],
      ['SHA256(<http://example.org/>)', 'error'],
    ]);
  });
});
