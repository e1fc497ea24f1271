import { expect } from 'chai';
import { Parser } from 'sparqljs';
import { Algebra, translate } from 'sparqlalgebrajs';
import { QueryCompilationError } from '../../lib/model/errors.js';
import { checkBlankNodeScopes, keepOptionalFilterScope, keepPositiveSigns, labelBracketSubjects, parseSparqlText, unescapeIriCodepoints } from '../../lib/sparql/syntax.js';

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

  describe('keepPositiveSigns', () => {
    const XSD = 'http://www.w3.org/2001/XMLSchema#';
    it('keeps the sign of numbers written as terms, with the datatype of their form', () => {
      expect(keepPositiveSigns('SELECT * { :x ?p +5 }')).to.equal(`SELECT * { :x ?p "+5"^^<${XSD}integer> }`);
      expect(keepPositiveSigns('SELECT * { :x :p +1.5, +.5e3 ; :q +7 }')).to.equal(`SELECT * { :x :p "+1.5"^^<${XSD}decimal>, "+.5e3"^^<${XSD}double> ; :q "+7"^^<${XSD}integer> }`);
      expect(keepPositiveSigns('SELECT * { VALUES ?x { +2 } }')).to.equal(`SELECT * { VALUES ?x { "+2"^^<${XSD}integer> } }`);
    });
    it('leaves additions, exponents, strings, IRIs and comments alone', () => {
      for (const text of [
        'SELECT * { ?s :p ?a FILTER(?a +5 > 3) }',
        'SELECT (?a +5 AS ?b) { ?s :p ?a }',
        'SELECT * { :x :p 1.0E+5 }',
        'SELECT * { :x :p "a +5" } # +5',
        'SELECT * { :x <http://e/+5> ?o }',
        'SELECT * { :x :p (1 +5) }',
      ]) {
        expect(keepPositiveSigns(text), text).to.equal(text);
      }
    });
  });

  describe('labelBracketSubjects', () => {
    it('labels blank node property lists standing as whole triples', () => {
      expect(labelBracketSubjects('INSERT DATA { [ :p 1 ] }')).to.equal('INSERT DATA { _:sb1  :p 1   }');
      expect(labelBracketSubjects('CONSTRUCT { ?a :q 1 . [ :p ?s ; :r [ :t 2 ] ] . } WHERE { ?s ?p ?o }')).to.equal(
        'CONSTRUCT { ?a :q 1 . _:sb1  :p ?s ; :r [ :t 2 ]   . } WHERE { ?s ?p ?o }',
      );
    });
    it('leaves other brackets alone, and avoids labels the text uses', () => {
      expect(labelBracketSubjects('CONSTRUCT { [ :p 1 ] :q 2 } WHERE {}')).to.equal('CONSTRUCT { [ :p 1 ] :q 2 } WHERE {}');
      expect(labelBracketSubjects('INSERT DATA { _:sb1 :p "[" . [ :p 1 ] . }')).to.equal('INSERT DATA { _:sb1 :p "[" . _:sb2  :p 1   . }');
    });
    it('lets sparqljs read what it fails on', () => {
      const parser = new Parser({ prefixes: { '': 'http://e/' } });
      const parsed = parseSparqlText((t) => parser.parse(t), 'INSERT DATA { [ :p 1 ; :q [ :r 2 ] ] }');
      expect(parsed.type).to.equal('update');
      expect(() => parser.parse('INSERT DATA { [ :p 1 ] }')).to.throw(TypeError);
    });
  });
});
