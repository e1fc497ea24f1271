import { expect } from 'chai';
import { Parser } from 'sparqljs';
import { Algebra, translate } from 'sparqlalgebrajs';
import { QueryCompilationError } from '../../lib/model/errors.js';
import { checkBlankNodeScopes, keepOptionalFilterScope, unescapeIriCodepoints } from '../../lib/sparql/syntax.js';

const parse = (text: string): object => new Parser({ prefixes: { '': 'http://example.org/' } }).parse(text);

describe('sparql/syntax', () => {
  describe('unescapeIriCodepoints', () => {
    it('replaces \\u and \\U escapes in IRI references', () => {
      expect(unescapeIriCodepoints('SELECT * { <\\u0078> :p <a\\U0001F600b> }')).to.equal('SELECT * { <x> :p <a😀b> }');
    });

    it('leaves strings, comments and text without escapes alone', () => {
      const text = 'SELECT * # <\\u0078>\n{ ?s :p "<\\u0078>", \'\'\'<\\u0079>\'\'\' FILTER(?a<?b) }';
      expect(unescapeIriCodepoints(text)).to.equal(text);
    });

    it('keeps the escape of a character an IRI cannot hold', () => {
      expect(unescapeIriCodepoints('ASK { <a\\u003Eb> :p 1 }')).to.equal('ASK { <a\\u003Eb> :p 1 }');
      expect(unescapeIriCodepoints('ASK { <a\\u0020b> :p 1 }')).to.equal('ASK { <a\\u0020b> :p 1 }');
    });

    it('makes the query acceptable to sparqljs', () => {
      expect(() => parse('SELECT * { <http://e/\\u0078> :p 1 }')).to.throw();
      expect(() => parse(unescapeIriCodepoints('SELECT * { <http://e/\\u0078> :p 1 }'))).to.not.throw();
    });
  });

  describe('checkBlankNodeScopes', () => {
    const ok = (text: string): void => {
      expect(() => checkBlankNodeScopes(parse(text))).to.not.throw();
    };
    const bad = (text: string): void => {
      expect(() => checkBlankNodeScopes(parse(text))).to.throw(QueryCompilationError, /_:a .*more than one basic graph pattern/);
    };

    it('accepts a label used within one basic graph pattern, also across a FILTER', () => {
      ok('SELECT * { _:a :p ?x . _:a :q ?y }');
      ok('SELECT * { _:a :p ?x FILTER(?x > 1) _:a :q ?y }');
      ok('SELECT * { _:a :p ?x OPTIONAL { _:b :q ?x . _:b :r ?y } }');
      ok('SELECT * { [] :p ?x OPTIONAL { [] :q ?x } }');
    });

    it('rejects a label used in two basic graph patterns', () => {
      bad('SELECT * { _:a :p ?v . { _:a :q 1 } }');
      bad('SELECT * { { _:a :p ?v } _:a :q 1 }');
      bad('SELECT * { { _:a :p ?v } UNION { _:a :q 1 } }');
      bad('SELECT * { _:a :p ?v OPTIONAL { ?s :p ?v } _:a :q 1 }');
      bad('SELECT * { _:a :p ?v GRAPH ?g { ?s :p ?v } _:a :q 1 }');
      bad('SELECT * { _:a :p ?v MINUS { _:a :q 1 } }');
      bad('SELECT * { _:a :p ?v BIND(1 AS ?w) _:a :q ?w }');
      bad('SELECT * { _:a :p ?v FILTER EXISTS { _:a :q 1 } }');
      bad('SELECT * { _:a :p ?v { SELECT ?v { _:a :q ?v } } }');
    });
  });

  describe('keepOptionalFilterScope', () => {
    const algebra = (text: string): Algebra.Operation => {
      const parsed = parse(text);
      keepOptionalFilterScope(parsed);
      return translate(parsed as Parameters<typeof translate>[0]);
    };
    const leftJoin = (op: Algebra.Operation): Algebra.LeftJoin => {
      let cur: Algebra.Operation = op;
      while (cur.type === Algebra.types.PROJECT) cur = cur.input;
      expect(cur.type).to.equal(Algebra.types.LEFT_JOIN);
      return cur as Algebra.LeftJoin;
    };

    it('keeps a FILTER of a nested group inside the right side of the LeftJoin', () => {
      const lj = leftJoin(algebra('SELECT * { ?b :t ?t OPTIONAL { { ?b :p ?p FILTER(?t = "x") } } }'));
      expect(lj.expression).to.equal(undefined);
      expect(lj.input[1].type).to.equal(Algebra.types.JOIN);
      expect((lj.input[1] as Algebra.Join).input.map((o) => o.type)).to.deep.equal([Algebra.types.FILTER, Algebra.types.VALUES]);
    });

    it('leaves a FILTER of the OPTIONAL group itself as the LeftJoin condition', () => {
      const lj = leftJoin(algebra('SELECT * { ?b :t ?t OPTIONAL { ?b :p ?p FILTER(?t = "x") } }'));
      expect(lj.expression).to.not.equal(undefined);
      expect(lj.input[1].type).to.equal(Algebra.types.BGP);
    });

    it('leaves OPTIONAL groups without nested filters alone', () => {
      const lj = leftJoin(algebra('SELECT * { ?b :t ?t OPTIONAL { { ?b :p ?p } } }'));
      expect(lj.input[1].type).to.equal(Algebra.types.BGP);
    });
  });
});
