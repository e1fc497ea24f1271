import { expect } from 'chai';
import type * as RDF from '@rdfjs/types';
import { Algebra } from 'sparqlalgebrajs';
import type {
  AggregateLiteral,
  BindLiteral,
  BodyLiteral,
  ConstantTerm,
  AtomTerm,
  FilterLiteral,
  NegationLiteral,
  Rule,
  TupleAtom,
} from '../../lib/datalog/ast.js';
import { parseDatalog, type DatalogParseOptions, type DatalogParseResult } from '../../lib/formats/datalog-parser.js';

const EX = 'http://example.org/';
const XSD = 'http://www.w3.org/2001/XMLSchema#';
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
const PREFIX = `@prefix : <${EX}> .\n@prefix xsd: <${XSD}> .\n`;

/** A term as a short string: `?x`, `<iri>`, `_:b`, `"v"@l`, `"v"^^<dt>`. */
function show(t: AtomTerm): string {
  if (t.kind === 'var') return `?${t.name}`;
  if (t.kind === 'triple') return `<<( ${show(t.subject)} ${show(t.predicate)} ${show(t.object)} )>>`;
  return showTerm(t.term);
}

function showTerm(term: RDF.Term): string {
  switch (term.termType) {
    case 'NamedNode':
      return `<${term.value}>`;
    case 'BlankNode':
      return `_:${term.value}`;
    case 'Literal':
      if (term.language) return `${JSON.stringify(term.value)}@${term.language}`;
      return `${JSON.stringify(term.value)}^^<${term.datatype.value}>`;
    default:
      return `${term.termType}(${term.value})`;
  }
}

/** An atom as `Table(t1, …)`, IRIs of example.org shortened to `:local`. */
function atom(a: TupleAtom): string {
  return `${a.table}(${a.args.map((t) => show(t).replace(`<${EX}`, ':').replace(/^(:[^>]*)>$/, '$1')).join(', ')})`;
}

function parseOk(text: string, options?: DatalogParseOptions): DatalogParseResult {
  const result = parseDatalog(text, options);
  expect(result.errors, JSON.stringify(result.errors)).to.deep.equal([]);
  return result;
}

function oneRule(text: string, options?: DatalogParseOptions): Rule {
  const { document } = parseOk(PREFIX + text, options);
  expect(document.rules).to.have.length(1);
  return document.rules[0]!;
}

function oneFact(text: string, options?: DatalogParseOptions): TupleAtom {
  const { document } = parseOk(PREFIX + text, options);
  expect(document.facts).to.have.length(1);
  expect(document.rules).to.have.length(0);
  return document.facts[0]!;
}

function bodyOf(text: string): BodyLiteral[] {
  return [...oneRule(`[?x, :h, ?x] :- ${text} .`).body];
}

/** The errors as [line, column, message]; relative IRIs are resolved against http://base/ by default. */
function errorsOf(text: string, options: DatalogParseOptions = { baseIRI: 'http://base/' }): Array<[number, number, string]> {
  return parseDatalog(text, options).errors.map((e) => [e.line, e.column, e.message]);
}

describe('parseDatalog', () => {
  it('refuses an expression with more than 1,000 chained operators at one level before parsing it, at the operator', () => {
    const head = '[?x, <http://e/q>, ?z] :- [?x, <http://e/p>, ?y], BIND(';
    const terms = Array.from({ length: 50000 }, () => '1');
    const result = parseDatalog(`${head}${terms.join('+')} AS ?z) .`);
    // the 1,001st '+' (signed numbers after a term count as operators too)
    expect(result.errors.map((e) => [e.line, e.column])).to.deep.equal([[1, head.length + 2 * 1001]]);
    expect(result.errors[0]!.message).to.contain('nests more than 500 levels deep');
    const chained = parseDatalog(`${head}?y * 2 - 1 + ${Array.from({ length: 400 }, () => '1').join(' - ')} AS ?z) .`);
    expect(chained.errors).to.deep.equal([]);
  });

  describe('atoms', () => {
    it('parses default graph triple, property and class atoms into DefaultTriples', () => {
      const rule = oneRule('[?x, :p, ?y], :q[?x, ?y], :C[?x] :- [?x, :r, ?y] .');
      expect(rule.head.map(atom)).to.deep.equal([
        'DefaultTriples(?x, :p, ?y)',
        'DefaultTriples(?x, :q, ?y)',
        `DefaultTriples(?x, <${RDF_TYPE}>, :C)`,
      ]);
      expect(rule.body.map((b) => atom(b as TupleAtom))).to.deep.equal(['DefaultTriples(?x, :r, ?y)']);
    });

    it('parses named graph atoms (a graph term after the atom) into Quads', () => {
      const rule = oneRule(':monthly[?id, ?m] :Payroll :- [?id, a, :Employee] ?g, :yearly[?id, ?s] <http://example.org/HR>, :C[?s] _:g1, BIND(?s / 12 AS ?m) .');
      expect(rule.head.map(atom)).to.deep.equal(['Quads(?id, :monthly, ?m, :Payroll)']);
      expect(rule.body.slice(0, 3).map((b) => atom(b as TupleAtom))).to.deep.equal([
        `Quads(?id, <${RDF_TYPE}>, :Employee, ?g)`,
        'Quads(?id, :yearly, ?s, :HR)',
        `Quads(?s, <${RDF_TYPE}>, :C, _:g1)`,
      ]);
    });

    it('reads a prefixed graph name directly followed by the arrow or the final dot', () => {
      const rule = oneRule(':A[?x] :G:- :B[?x] :H.');
      expect(rule.head.map(atom)).to.deep.equal([`Quads(?x, <${RDF_TYPE}>, :A, :G)`]);
      expect(atom(rule.body[0] as TupleAtom)).to.equal(`Quads(?x, <${RDF_TYPE}>, :B, :H)`);
    });

    it('parses general atoms over identifiers and quoted tuple table names', () => {
      const rule = oneRule(
        ':e[?E, ?P] :- SKOLEM("Employment", ?P, ?C, ?E), "my table"(?P), Quads(?P, :p, ?C, :g), DefaultTriples(?P, :p, ?C) .',
      );
      const body = rule.body.map((b) => atom(b as TupleAtom));
      expect(body).to.deep.equal([
        `SKOLEM("Employment"^^<${XSD}string>, ?P, ?C, ?E)`,
        'my table(?P)',
        'Quads(?P, :p, ?C, :g)',
        'DefaultTriples(?P, :p, ?C)',
      ]);
    });

    it('accepts general atoms in heads and facts', () => {
      expect(atom(oneFact('Person(:alice, "Alice", 42) .'))).to.equal(
        `Person(:alice, "Alice"^^<${XSD}string>, "42"^^<${XSD}integer>)`,
      );
      expect(oneRule('T(?x) :- [?x, a, :C] .').head.map(atom)).to.deep.equal(['T(?x)']);
    });

    it('reads $x as a variable and `a` as rdf:type only in predicate position', () => {
      const rule = oneRule('[$x, a, ?y] :- [$x, :p, ?y] .');
      expect(rule.head.map(atom)).to.deep.equal([`DefaultTriples(?x, <${RDF_TYPE}>, ?y)`]);
      expect(errorsOf(`${PREFIX}[a, :p, :o] .`)).to.deep.equal([
        [3, 2, "expected the subject (a variable, IRI, blank node, literal or triple term), found 'a'"],
      ]);
    });

    it('records the position of every atom and literal', () => {
      const rule = oneRule('[?x, :p, ?y] :-\n  :q[?x, ?y],\n    FILTER(?x != ?y), NOT :r[?x] .');
      expect(rule.position).to.deep.equal({ line: 3, column: 1 });
      expect(rule.head[0]!.position).to.deep.equal({ line: 3, column: 1 });
      expect(rule.body.map((b) => b.position)).to.deep.equal([
        { line: 4, column: 3 },
        { line: 5, column: 5 },
        { line: 5, column: 23 },
      ]);
    });
  });

  describe('statements', () => {
    it('parses rules with several head atoms, empty bodies and facts in order', () => {
      const { document } = parseOk(
        `${PREFIX}[:a, :p, :b] .\n:C[:a] .\n[?x, :q, ?y], [?y, :q, ?x] :- [?x, :p, ?y] .\n[:a, :r, :b] :- .\n`,
      );
      expect(document.facts.map(atom)).to.deep.equal([
        'DefaultTriples(:a, :p, :b)',
        `DefaultTriples(:a, <${RDF_TYPE}>, :C)`,
      ]);
      expect(document.rules).to.have.length(2);
      expect(document.rules[0]!.head).to.have.length(2);
      expect(document.rules[1]!.body).to.deep.equal([]);
    });

    it('returns an empty document for empty input and comments only', () => {
      for (const text of ['', '   \n', '# only a comment\n# another']) {
        const { document } = parseOk(text);
        expect(document.rules).to.deep.equal([]);
        expect(document.facts).to.deep.equal([]);
        expect(document.prefixes.size).to.equal(0);
      }
    });

    it('skips comments but not # inside IRIs and strings', () => {
      const rule = oneRule(
        '# leading comment\n[?x, <http://example.org/a#b>, "x # y"] :- # comment after arrow\n  [?x, :p, ?y] . # trailing',
      );
      expect(rule.head.map(atom)).to.deep.equal([`DefaultTriples(?x, :a#b, "x # y"^^<${XSD}string>)`]);
    });
  });

  describe('prefixes and base', () => {
    it('supports @prefix and PREFIX declarations, including the empty prefix', () => {
      const { document } = parseOk('@prefix ex: <http://ex/> .\nPREFIX : <http://empty/>\nprefix low: <http://low/>\n[ex:a, :b, low:c] .');
      expect(document.facts.map(atom)).to.deep.equal(['DefaultTriples(<http://ex/a>, <http://empty/b>, <http://low/c>)']);
      expect([...document.prefixes]).to.deep.equal([
        ['ex:', 'http://ex/'],
        [':', 'http://empty/'],
        ['low:', 'http://low/'],
      ]);
    });

    it('uses the store prefixes, which declarations override, and reports only declared ones', () => {
      const prefixes = new Map([
        ['ex:', 'http://store/'],
        ['st:', 'http://st/'],
      ]);
      const { document } = parseOk('[ex:a, st:b, ex:c] .\n@prefix ex: <http://doc/> .\n[ex:a, st:b, ex:c] .', { prefixes });
      expect(document.facts.map(atom)).to.deep.equal([
        'DefaultTriples(<http://store/a>, <http://st/b>, <http://store/c>)',
        'DefaultTriples(<http://doc/a>, <http://st/b>, <http://doc/c>)',
      ]);
      expect([...document.prefixes]).to.deep.equal([['ex:', 'http://doc/']]);
    });

    it('uses the prefixes in force in expressions', () => {
      const prefixes = new Map([['st:', 'http://st/']]);
      const rule = oneRule('[?x, :p, ?y] :- [?x, :q, ?y], FILTER(?y = st:v || ?y = :w) .', { prefixes });
      const expression = (rule.body[1] as FilterLiteral).expression;
      expect(expression.expressionType).to.equal('operator');
      const args = (expression as Algebra.OperatorExpression).args as Algebra.OperatorExpression[];
      expect(args.map((a) => ((a.args[1] as Algebra.TermExpression).term as RDF.NamedNode).value)).to.deep.equal([
        'http://st/v',
        `${EX}w`,
      ]);
    });

    it('expands prefixed names with dots, escapes, percent-encodings and colons in the local part', () => {
      const fact = oneFact('[:a.b, :c\\~d, :e%20f] .');
      expect(fact.args.map(show)).to.deep.equal([`<${EX}a.b>`, `<${EX}c~d>`, `<${EX}e%20f>`]);
      const other = oneFact('[:g:h, :1x, :o].');
      expect(other.args.map(show)).to.deep.equal([`<${EX}g:h>`, `<${EX}1x>`, `<${EX}o>`]);
    });

    it('resolves relative IRIs against the base option, @base and BASE', () => {
      const { document } = parseOk(
        '[<a>, <#f>, <../b>] .\n@base <http://other/x/y> .\n[<a>, <?q>, <//host/p>] .\nBASE <sub/>\n[<c>, <>, <http://abs/z>] .',
        { baseIRI: 'http://base/dir/doc' },
      );
      expect(document.facts.map((f) => f.args.map(show))).to.deep.equal([
        ['<http://base/dir/a>', '<http://base/dir/doc#f>', '<http://base/b>'],
        ['<http://other/x/a>', '<http://other/x/y?q>', '<http://host/p>'],
        ['<http://other/x/sub/c>', '<http://other/x/sub/>', '<http://abs/z>'],
      ]);
    });

    it('resolves like RFC 3986 section 5.4', () => {
      const base = 'http://a/b/c/d;p?q';
      const cases: Array<[string, string]> = [
        ['g', 'http://a/b/c/g'],
        ['./g', 'http://a/b/c/g'],
        ['g/', 'http://a/b/c/g/'],
        ['/g', 'http://a/g'],
        ['//g', 'http://g'],
        ['?y', 'http://a/b/c/d;p?y'],
        ['g?y', 'http://a/b/c/g?y'],
        ['#s', 'http://a/b/c/d;p?q#s'],
        ['g#s', 'http://a/b/c/g#s'],
        [';x', 'http://a/b/c/;x'],
        ['', 'http://a/b/c/d;p?q'],
        ['.', 'http://a/b/c/'],
        ['./', 'http://a/b/c/'],
        ['..', 'http://a/b/'],
        ['../', 'http://a/b/'],
        ['../g', 'http://a/b/g'],
        ['../..', 'http://a/'],
        ['../../g', 'http://a/g'],
        ['../../../g', 'http://a/g'],
        ['/./g', 'http://a/g'],
        ['/../g', 'http://a/g'],
        ['g.', 'http://a/b/c/g.'],
        ['..g', 'http://a/b/c/..g'],
        ['./../g', 'http://a/b/g'],
        ['g/./h', 'http://a/b/c/g/h'],
        ['g/../h', 'http://a/b/c/h'],
      ];
      const text = cases.map(([rel]) => `[<${rel}>, <p>, <o>] .`).join('\n');
      const { document } = parseOk(text, { baseIRI: base });
      expect(document.facts.map((f) => (f.args[0] as { term: RDF.Term }).term.value)).to.deep.equal(
        cases.map(([, abs]) => abs),
      );
    });

    it('resolves relative IRIs in prefix declarations and in expressions', () => {
      const rule = oneRule('@prefix r: <rel/> .\n[?x, r:p, ?y] :- [?x, <q>, ?y], FILTER(?y != <z>) .', {
        baseIRI: 'http://b/d/',
      });
      expect(show(rule.head[0]!.args[1]!)).to.equal('<http://b/d/rel/p>');
      const expression = (rule.body[1] as FilterLiteral).expression as Algebra.OperatorExpression;
      expect(((expression.args[1] as Algebra.TermExpression).term as RDF.NamedNode).value).to.equal('http://b/d/z');
    });

    it('reports relative IRIs when there is no base', () => {
      const text =
        '[<urn:a>, <http://b>, <c>] .\n@prefix r: <rel/> .\n[?x, <urn:p>, ?y] :- [?x, <urn:q>, ?y], FILTER(?y != <z>) .';
      expect(errorsOf(text, {})).to.deep.equal([
        [1, 23, 'relative IRI <c> cannot be resolved: there is no base IRI'],
        [2, 12, 'relative IRI <rel/> cannot be resolved: there is no base IRI'],
        [3, 54, 'relative IRI <z> cannot be resolved: there is no base IRI'],
      ]);
    });

    it('reports unknown prefixes, naming them, in atoms, datatypes and expressions', () => {
      expect(
        errorsOf('[?x, foo:p, ?y] :- [?x, <q>, ?y] .\n[<a>, <b>, "1"^^bar:t] .\n[?x, <p>, ?y] :- [?x, <q>, ?y], FILTER(?y = baz:v) .\n'),
      ).to.deep.equal([
        [1, 6, "unknown prefix 'foo:': declare it in the input or add it to the store's prefixes"],
        [2, 17, "unknown prefix 'bar:': declare it in the input or add it to the store's prefixes"],
        [3, 45, "unknown prefix 'baz:': declare it in the input or add it to the store's prefixes"],
      ]);
    });
  });

  describe('literals', () => {
    it('parses strings of every kind with escapes', () => {
      const fact = oneFact(
        `Strings("a", 'b', """multi\nline "quoted" """, '''it's''', "tab\\t nl\\n q\\" bs\\\\ \\u00E9 \\U0001F600", "") .`,
      );
      expect(fact.args.map((t) => (t as { term: RDF.Literal }).term.value)).to.deep.equal([
        'a',
        'b',
        'multi\nline "quoted" ',
        "it's",
        'tab\t nl\n q" bs\\ é 😀',
        '',
      ]);
    });

    it('parses language tags (lower-cased) and datatypes given by IRIs or prefixed names', () => {
      const fact = oneFact('L("chat"@FR, "x"@en-GB, "5"^^xsd:int, "d"^^<http://dt/x>, "s"^^xsd:string) .');
      expect(fact.args.map(show)).to.deep.equal([
        '"chat"@fr',
        '"x"@en-gb',
        `"5"^^<${XSD}int>`,
        '"d"^^<http://dt/x>',
        `"s"^^<${XSD}string>`,
      ]);
      const typed = (fact.args[4] as ConstantTerm).term;
      const simple = (oneFact('L("s") .').args[0] as ConstantTerm).term;
      expect(typed.equals(simple)).to.equal(true);
    });

    it('parses numbers keeping their lexical form, and booleans', () => {
      const fact = oneFact('N(1, -5, +01, 1.5, -.5, 2.0, 1e3, 1.5E-2, .5e+1, true, false) .');
      expect(fact.args.map(show)).to.deep.equal([
        `"1"^^<${XSD}integer>`,
        `"-5"^^<${XSD}integer>`,
        `"+01"^^<${XSD}integer>`,
        `"1.5"^^<${XSD}decimal>`,
        `"-.5"^^<${XSD}decimal>`,
        `"2.0"^^<${XSD}decimal>`,
        `"1e3"^^<${XSD}double>`,
        `"1.5E-2"^^<${XSD}double>`,
        `".5e+1"^^<${XSD}double>`,
        `"true"^^<${XSD}boolean>`,
        `"false"^^<${XSD}boolean>`,
      ]);
    });

    it('ends a statement at a dot right after an integer', () => {
      expect(oneFact('[:a, :p, 12].').args.map(show)[2]).to.equal(`"12"^^<${XSD}integer>`);
      expect(oneFact('N(12) .').args.map(show)).to.deep.equal([`"12"^^<${XSD}integer>`]);
    });

    it('parses blank nodes in facts and rules', () => {
      expect(oneFact('[_:b1, :p, _:x.y] .').args.map(show)).to.deep.equal(['_:b1', `<${EX}p>`, '_:x.y']);
      expect(oneRule('[?x, :p, _:c] :- [?x, :q, _:d] .').head[0]!.args.map(show)[2]).to.equal('_:c');
    });
  });

  describe('FILTER and BIND', () => {
    it('parses FILTER into a SPARQL algebra expression and keeps its source text', () => {
      const [, filter] = bodyOf('[?x, :p, ?y], FILTER(?y > 3 && ?x != :a)') as [TupleAtom, FilterLiteral];
      expect(filter.kind).to.equal('filter');
      expect(filter.text).to.equal('?y > 3 && ?x != :a');
      const e = filter.expression as Algebra.OperatorExpression;
      expect(e.operator).to.equal('&&');
      expect((e.args[0] as Algebra.OperatorExpression).operator).to.equal('>');
    });

    it('handles nested parentheses and strings or IRIs containing ")", "." and "#"', () => {
      const [, filter, bind] = bodyOf(
        `[?x, :p, ?y], FILTER((STRSTARTS(STR(?y), ").#") || CONTAINS(?y, 'a.b)')) && ((?x) = <http://e/(x).>)), BIND(CONCAT(STR(?y), " AS ) ", '''.''') AS ?z)`,
      ) as [TupleAtom, FilterLiteral, BindLiteral];
      expect(filter.text).to.equal(
        `(STRSTARTS(STR(?y), ").#") || CONTAINS(?y, 'a.b)')) && ((?x) = <http://e/(x).>)`,
      );
      expect((filter.expression as Algebra.OperatorExpression).operator).to.equal('&&');
      expect(bind.text).to.equal(`CONCAT(STR(?y), " AS ) ", '''.''')`);
      expect(bind.variable).to.equal('z');
      const concat = bind.expression as Algebra.OperatorExpression;
      expect(concat.operator).to.equal('concat');
      expect(concat.args).to.have.length(3);
    });

    it('parses BIND, taking the last top-level AS, case-insensitively', () => {
      const [, bind] = bodyOf('[?x, :p, ?y], bind ((?y - 32) / 1.8 as ?c)') as [TupleAtom, BindLiteral];
      expect(bind).to.include({ kind: 'bind', text: '(?y - 32) / 1.8', variable: 'c' });
      expect((bind.expression as Algebra.OperatorExpression).operator).to.equal('/');
    });

    it('parses expressions over several lines, keeping inner comments in the text', () => {
      const [, filter] = bodyOf('[?x, :p, ?y],\n FILTER(\n  ?y > 3 # big\n  && ?y < 10\n)') as [TupleAtom, FilterLiteral];
      expect(filter.text).to.equal('?y > 3 # big\n  && ?y < 10');
      expect((filter.expression as Algebra.OperatorExpression).operator).to.equal('&&');
    });

    it('parses term expressions and functions named by IRIs', () => {
      const [, filter, bind] = bodyOf('[?x, :p, ?y], FILTER(?y), BIND(xsd:integer(?y) AS ?i)') as [
        TupleAtom,
        FilterLiteral,
        BindLiteral,
      ];
      expect(filter.expression).to.deep.include({ expressionType: 'term' });
      expect(((filter.expression as Algebra.TermExpression).term as RDF.Variable).value).to.equal('y');
      const named = bind.expression as Algebra.NamedExpression;
      expect(named.expressionType).to.equal('named');
      expect(named.name.value).to.equal(`${XSD}integer`);
    });
  });

  describe('negation', () => {
    it('parses NOT atom and NOT(atoms)', () => {
      const [, n1, n2] = bodyOf('[?x, :p, ?y], NOT [?x, :q, ?y], not(:r[?x], :s[?y] :g)') as [
        TupleAtom,
        NegationLiteral,
        NegationLiteral,
      ];
      expect(n1.kind).to.equal('not');
      expect(n1.existentialVariables).to.deep.equal([]);
      expect(n1.atoms.map(atom)).to.deep.equal(['DefaultTriples(?x, :q, ?y)']);
      expect(n2.atoms.map(atom)).to.deep.equal([
        `DefaultTriples(?x, <${RDF_TYPE}>, :r)`,
        `Quads(?y, <${RDF_TYPE}>, :s, :g)`,
      ]);
    });

    it('parses NOT EXISTS and NOT EXIST with one or several variables', () => {
      const [, n1, n2, n3] = bodyOf(
        ':C[?x], NOT EXISTS ?y IN (:C[?y], :h[?x, ?y]), NOT EXIST ?y, ?z IN [?x, ?y, ?z], not exists ?w IN T(?x, ?w)',
      ) as [TupleAtom, NegationLiteral, NegationLiteral, NegationLiteral];
      expect(n1.existentialVariables).to.deep.equal(['y']);
      expect(n1.atoms.map(atom)).to.deep.equal([`DefaultTriples(?y, <${RDF_TYPE}>, :C)`, 'DefaultTriples(?x, :h, ?y)']);
      expect(n2.existentialVariables).to.deep.equal(['y', 'z']);
      expect(n2.atoms.map(atom)).to.deep.equal(['DefaultTriples(?x, ?y, ?z)']);
      expect(n3.existentialVariables).to.deep.equal(['w']);
      expect(n3.atoms.map(atom)).to.deep.equal(['T(?x, ?w)']);
    });

    it('rejects FILTER and BIND inside NOT', () => {
      expect(errorsOf('[?x, <p>, ?y] :- [?x, <q>, ?y], NOT(FILTER(?x = ?y)) .')).to.deep.equal([
        [1, 37, 'FILTER is not supported inside NOT (only tuple table atoms are)'],
      ]);
    });
  });

  describe('aggregation', () => {
    it('parses AGGREGATE with group variables and several binds', () => {
      const [, agg] = bodyOf(
        ':F[?f], AGGREGATE(:m[?f, ?m], :age[?m, ?a] ON ?f BIND MIN(?a) AS ?min BIND max(?a + 1) AS ?max)',
      ) as [TupleAtom, AggregateLiteral];
      expect(agg.kind).to.equal('aggregate');
      expect(agg.body.map((b) => atom(b as TupleAtom))).to.deep.equal([
        'DefaultTriples(?f, :m, ?m)',
        'DefaultTriples(?m, :age, ?a)',
      ]);
      expect(agg.groupBy).to.deep.equal(['f']);
      expect(agg.bindings.map((b) => [b.fn, b.distinct, b.text, b.variable])).to.deep.equal([
        ['min', false, '?a', 'min'],
        ['max', false, '?a + 1', 'max'],
      ]);
      const min = agg.bindings[0]!.expression as Algebra.TermExpression;
      expect(min.expressionType).to.equal('term');
      expect(min.term.termType).to.equal('Variable');
      expect(min.term.value).to.equal('a');
      expect((agg.bindings[1]!.expression as Algebra.OperatorExpression).operator).to.equal('+');
    });

    it('parses COUNT(*), COUNT(DISTINCT …), SUM and AVG, several group variables and none', () => {
      const [a1, a2] = bodyOf(
        'AGGREGATE([?f1, :m, ?a], [?f2, :m, ?b] ON ?f1 ?f2 BIND COUNT(*) AS ?n BIND count(DISTINCT ?a) AS ?d), AGGREGATE(:s[?p, ?s] BIND SUM(?s * 2) AS ?t BIND Avg(DISTINCT ?s) AS ?v BIND COUNT(DISTINCT *) AS ?c)',
      ) as [AggregateLiteral, AggregateLiteral];
      expect(a1.groupBy).to.deep.equal(['f1', 'f2']);
      expect(a1.bindings.map((b) => [b.fn, b.distinct, b.text, b.variable, b.expression === undefined])).to.deep.equal([
        ['count', false, '*', 'n', true],
        ['count', true, '?a', 'd', false],
      ]);
      expect(a2.groupBy).to.deep.equal([]);
      expect(a2.bindings.map((b) => [b.fn, b.distinct, b.text, b.variable, b.expression === undefined])).to.deep.equal([
        ['sum', false, '?s * 2', 't', false],
        ['avg', true, '?s', 'v', false],
        ['count', true, '*', 'c', true],
      ]);
    });

    it('allows FILTER and BIND in the aggregated body, and an aggregate without binds', () => {
      const [agg] = bodyOf(
        'AGGREGATE(:m[?f, ?m], :age[?m, ?a], FILTER(?a >= 18), BIND(?a * 2 AS ?b) ON ?f BIND COUNT(?m) AS ?n)',
      ) as [AggregateLiteral];
      expect(agg.body.map((b) => b.kind)).to.deep.equal(['atom', 'atom', 'filter', 'bind']);
      expect((agg.body[2] as FilterLiteral).text).to.equal('?a >= 18');
      const [plain] = bodyOf('AGGREGATE(:m[?x, ?m] ON ?x)') as [AggregateLiteral];
      expect(plain.bindings).to.deep.equal([]);
      expect(plain.groupBy).to.deep.equal(['x']);
    });

    it("parses RDFox's MUL, COUNT_MIN, COUNT_MAX and the two-argument ARG functions", () => {
      const [agg] = bodyOf(
        'AGGREGATE(:p[?x, ?n], :age[?x, ?a] BIND MUL(?a) AS ?m BIND count_min(DISTINCT ?a) AS ?c BIND COUNT_MAX(?a) AS ?d BIND MIN_ARGMIN(?n, ?a) AS ?e BIND MAX_ARGMIN(DISTINCT ?n, ?a + 1) AS ?f BIND Min_ArgMax(?n, ?a) AS ?g BIND MAX_ARGMAX(STR(?n), COALESCE(?a, 0)) AS ?h)',
      ) as [AggregateLiteral];
      expect(agg.bindings.map((b) => [b.fn, b.distinct, b.text, b.variable, b.expressions?.length])).to.deep.equal([
        ['mul', false, '?a', 'm', 1],
        ['count_min', true, '?a', 'c', 1],
        ['count_max', false, '?a', 'd', 1],
        ['min_argmin', false, '?n, ?a', 'e', 2],
        ['max_argmin', true, '?n, ?a + 1', 'f', 2],
        ['min_argmax', false, '?n, ?a', 'g', 2],
        ['max_argmax', false, 'STR(?n), COALESCE(?a, 0)', 'h', 2],
      ]);
      const [first, second] = agg.bindings[4]!.expressions! as [Algebra.TermExpression, Algebra.OperatorExpression];
      expect(first.term.value).to.equal('n');
      expect(second.operator).to.equal('+');
      expect(agg.bindings[4]!.expression).to.equal(first);
    });

    it('parses COUNT() and COUNT over a list of expressions', () => {
      const [agg] = bodyOf('AGGREGATE(:p[?x, ?y] BIND COUNT() AS ?a BIND COUNT(?x, ?y) AS ?b BIND COUNT(DISTINCT ?x, STR(?y)) AS ?c)') as [AggregateLiteral];
      expect(agg.bindings.map((b) => [b.fn, b.distinct, b.text, b.expressions?.length, b.expression === undefined])).to.deep.equal([
        ['count', false, '', 0, true],
        ['count', false, '?x, ?y', 2, false],
        ['count', true, '?x, STR(?y)', 2, false],
      ]);
    });

    it('refuses SAMPLE, SAMPLE_ARGMIN, SAMPLE_ARGMAX and GROUP_CONCAT, and wrong numbers of arguments', () => {
      const why = 'is not allowed in rules: its result is not determined by the values aggregated (SAMPLE, SAMPLE_ARGMIN, SAMPLE_ARGMAX and GROUP_CONCAT are for queries only)';
      expect(
        errorsOf(
          '[?x, <p>, ?y] :- AGGREGATE([?x, <q>, ?a] ON ?x BIND SAMPLE(?a) AS ?y) .\n' +
            '[?x, <p>, ?y] :- AGGREGATE([?x, <q>, ?a] ON ?x BIND group_concat(?a) AS ?y) .\n' +
            '[?x, <p>, ?y] :- AGGREGATE([?x, <q>, ?a] ON ?x BIND SUM(?a, ?x) AS ?y) .\n' +
            '[?x, <p>, ?y] :- AGGREGATE([?x, <q>, ?a] ON ?x BIND FOO(?a) AS ?y) .\n' +
            '[?x, <p>, ?y] :- AGGREGATE([?x, <q>, ?a] ON ?x BIND SUM() AS ?y) .\n' +
            '[?x, <p>, ?y] :- AGGREGATE([?x, <q>, ?a] ON ?x BIND SAMPLE_ARGMIN(?a, ?x) AS ?y) .\n' +
            '[?x, <p>, ?y] :- AGGREGATE([?x, <q>, ?a] ON ?x BIND MIN_ARGMAX(?a) AS ?y) .\n' +
            '[?x, <p>, ?y] :- AGGREGATE([?x, <q>, ?a] ON ?x BIND MIN_ARGMAX(?a, ?x, ?a) AS ?y) .\n' +
            '[?x, <p>, ?y] :- AGGREGATE([?x, <q>, ?a] ON ?x BIND MAX_ARGMIN(?a, ) AS ?y) .\n',
        ),
      ).to.deep.equal([
        [1, 53, `aggregate function SAMPLE ${why}`],
        [2, 53, `aggregate function GROUP_CONCAT ${why}`],
        [3, 59, "SUM takes a single expression, found ','"],
        [4, 53, "expected an aggregate function (COUNT, SUM, MUL, AVG, MIN, MAX, COUNT_MIN, COUNT_MAX, MIN_ARGMIN, MAX_ARGMIN, MIN_ARGMAX or MAX_ARGMAX) after BIND, found 'FOO'"],
        [5, 57, "expected an expression in SUM, found ')'"],
        [6, 53, `aggregate function SAMPLE_ARGMIN ${why}`],
        [7, 66, 'MIN_ARGMAX takes two expressions (MIN_ARGMAX(A, V)), found one'],
        [8, 70, 'MIN_ARGMAX takes two expressions (MIN_ARGMAX(A, V)), found more'],
        [9, 68, "expected an expression in MAX_ARGMIN, found ')'"],
      ]);
    });

    it('reports what is expected inside AGGREGATE', () => {
      expect(
        errorsOf(
          '[?x, <p>, ?y] :- AGGREGATE([?x, <q>, ?a] FOO) .\n' +
            '[?x, <p>, ?y] :- AGGREGATE([?x, <q>, ?a] ON ?x ?y BIND) .\n' +
            '[?x, <p>, ?y] :- AGGREGATE([?x, <q>, ?a] ON BIND MIN(?a) AS ?y) .\n' +
            '[?x, <p>, ?y] :- AGGREGATE([?x, <q>, ?a] ON ?x BIND MIN(?a) ?y) .\n' +
            '[?x, <p>, ?y] :- AGGREGATE([?x, <q>, ?a], NOT [?a, <r>, ?x] ON ?x) .\n',
        ),
      ).to.deep.equal([
        [1, 42, "expected ',', 'ON', 'BIND' or ')', found 'FOO'"],
        [2, 55, "expected an aggregate function (COUNT, SUM, MUL, AVG, MIN, MAX, COUNT_MIN, COUNT_MAX, MIN_ARGMIN, MAX_ARGMIN, MIN_ARGMAX or MAX_ARGMAX) after BIND, found ')'"],
        [3, 45, "expected a group variable after ON, found 'BIND'"],
        [4, 61, "expected 'AS' after MIN(…), found variable ?y"],
        [5, 43, 'NOT is not allowed inside AGGREGATE'],
      ]);
    });
  });

  describe('errors', () => {
    it('reports the exact position and what was expected and found', () => {
      expect(errorsOf('[?x, <p> ?y] :- [?x, <q>, ?y] .')).to.deep.equal([[1, 10, "expected ',', found variable ?y"]]);
      expect(errorsOf('[?x, <p>, ?y] :- [?x, <q>, ?y]')).to.deep.equal([
        [1, 31, "expected ',' or '.' after a body formula, found end of input"],
      ]);
      expect(errorsOf('[?x, <p>, ?y] [?x, <q>, ?y] .')).to.deep.equal([[1, 15, "expected ',', ':-' or '.', found '['"]]);
      expect(errorsOf('[?x, <p>, ?y], [?y, <p>, ?x] .')).to.deep.equal([
        [1, 30, "expected ',' or ':-' after the rule head, found '.'"],
      ]);
      expect(errorsOf('<p>(?x) .')).to.deep.equal([[1, 4, "expected '[' after IRI <p>, found '('"]]);
      expect(errorsOf('T ?x .')).to.deep.equal([[1, 3, "expected '(' after the tuple table name 'T', found variable ?x"]]);
      expect(errorsOf('T() .')).to.deep.equal([[1, 3, "expected a term (a variable, IRI, blank node, literal or triple term), found ')'"]]);
      expect(errorsOf(':- [?x, <p>, ?y] .')).to.deep.equal([[1, 1, "expected an atom or a declaration, found ':-'"]]);
      expect(errorsOf('[?x, <p>, ?y] :- ?x .')).to.deep.equal([
        [1, 18, 'expected a body formula (an atom, FILTER, BIND, NOT or AGGREGATE), found variable ?x'],
      ]);
    });

    it('reports lexical errors', () => {
      expect(errorsOf('[<a>, <b>, "unterminated] .\n[<a>, <b>, <c>] .')).to.deep.equal([
        [1, 12, 'unterminated string literal (use """…""" for strings spanning lines)'],
      ]);
      expect(errorsOf('[<a>, <b>, "bad \\q escape"] .')).to.deep.equal([
        [1, 12, "invalid escape sequence '\\q' in string literal"],
      ]);
      expect(errorsOf('[<a>, <b c>, <d>] .')).to.deep.equal([
        [1, 7, 'invalid IRI (IRIs are written <…> without spaces, quotes or braces)'],
      ]);
      expect(errorsOf('[<a>, <b>, _:] .')).to.deep.equal([[1, 12, 'invalid blank node label after _:']]);
    });

    it('rejects facts with variables, and bad declarations', () => {
      expect(errorsOf('[<a>, <b>, ?c] .')).to.deep.equal([[1, 12, 'a fact must be ground, but it contains variable ?c']]);
      expect(errorsOf('@prefix ex <http://ex/> .\n@prefix ex: http .\n@base <x>\n[<a>, <b>, <c>] .')).to.deep.equal([
        [1, 9, "expected a prefix name such as 'ex:' after @prefix, found 'ex'"],
        [2, 13, "expected an IRI in angle brackets after 'ex:', found 'http'"],
        [4, 1, "expected '.' after the @base declaration, found '['"],
      ]);
    });

    it('requires keywords used as tuple table names to be quoted', () => {
      expect(errorsOf('[?x, <p>, ?y] :- Filter[?x] .')).to.deep.equal([[1, 24, "expected '(' after FILTER, found '['"]]);
      expect(errorsOf('IN(<a>) .')).to.deep.equal([[1, 1, "expected an atom or a declaration, found 'IN'"]]);
      const { document } = parseOk('"IN"(<urn:a>) .\n"filter"(<urn:b>) .');
      expect(document.facts.map((f) => f.table)).to.deep.equal(['IN', 'filter']);
    });

    it('maps SPARQL expression errors to positions in the Datalog text', () => {
      expect(
        errorsOf(
          '[?x, <p>, ?y] :- FILTER(?x > ) .\n' +
            '[?x, <p>, ?y] :- FILTER(?x + * 3) .\n' +
            '[?x, <p>, ?y] :- [?x, <q>, ?y], FILTER(STR(?x) = "a" ||\n   ?y ?z) .\n' +
            '[?x, <p>, ?y] :- BIND(?x ~ 1 AS ?y) .\n' +
            '[?x, <p>, ?y] :- BIND(?x AS 1) .\n' +
            '[?x, <p>, ?y] :- BIND(?x) .\n' +
            '[?x, <p>, ?y] :- FILTER() .\n',
        ),
      ).to.deep.equal([
        [1, 30, 'invalid expression in FILTER: the expression is incomplete'],
        [2, 30, "invalid expression in FILTER: unexpected '*'"],
        [4, 7, "invalid expression in FILTER: unexpected '?z'"],
        [5, 26, "invalid expression in BIND: unexpected unrecognised text '~'"],
        [6, 29, 'expected a variable after AS, found number 1'],
        [7, 25, "expected 'AS ?variable' at the end of BIND, found ')'"],
        [8, 25, "expected an expression in FILTER, found ')'"],
      ]);
    });

    it('rejects EXISTS and aggregates inside expressions', () => {
      expect(
        errorsOf(
          '[?x, <p>, ?y] :- [?x, <q>, ?y], FILTER(NOT EXISTS { ?x <http://r> ?y }) .\n' +
            '[?x, <p>, ?y] :- [?x, <q>, ?y], BIND(COUNT(?x) AS ?z) .\n',
        ),
      ).to.deep.equal([
        [1, 40, 'invalid expression in FILTER: EXISTS and NOT EXISTS are not allowed in rule expressions'],
        [2, 38, 'invalid expression in BIND: aggregate functions are only allowed in AGGREGATE … BIND'],
      ]);
    });

    it('recovers at the end of each bad statement and reports every error', () => {
      const text = [
        '@prefix : <http://example.org/> .',
        '[?x, :p ?y] :- [?x, :q, ?y] .', // missing comma
        '[?x, :ok1, ?y] :- [?x, :q, ?y] .',
        '[?x, :p, ?y :- [?x, :q, ?y] .', // missing bracket
        '[?x, :ok2, ?y] :- [?x, :q, ?y] .',
        '[?x, :p, ?y] :- FILTER(?x > 3 .', // unclosed FILTER
        '[?x, :ok3, ?y] :- [?x, :q, ?y], FILTER(?x = "a.b") .',
        '[?x, :p, ?y] :- [?x, :q, ?y], [?y, :r, (?z)] .', // bad term in brackets
        '[:ok4, :p, 1.5] .',
        '[?x, :p, ?y] :- [?x, :q, ?y], FILTER(?x ?y) .',
        ':C[:ok5] .',
      ].join('\n');
      const result = parseDatalog(text);
      expect(result.errors.map((e) => [e.line, e.column])).to.deep.equal([
        [2, 9],
        [4, 13],
        [6, 31],
        [8, 40],
        [10, 41],
      ]);
      expect(result.document.rules.map((r) => show(r.head[0]!.args[1]!))).to.deep.equal([
        `<${EX}ok1>`,
        `<${EX}ok2>`,
        `<${EX}ok3>`,
      ]);
      expect(result.document.facts.map((f) => show(f.args[0]!))).to.deep.equal([`<${EX}ok4>`, `<${EX}ok5>`]);
    });

    it('recovers after lexical errors inside a statement', () => {
      const result = parseDatalog('[<a>, <b>, "x\\z"] .\n[<a>, <b>, "y"] .\n[<a>, <b>, $] .\n[<a>, <b>, "z"] .', {
        baseIRI: 'http://base/',
      });
      expect(result.errors.map((e) => [e.line, e.column])).to.deep.equal([
        [1, 12],
        [3, 12],
      ]);
      expect(result.document.facts).to.have.length(2);
    });
  });
});
