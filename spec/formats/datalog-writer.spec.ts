import { expect } from 'chai';
import fc from 'fast-check';
import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import type { ConstantTerm, DatalogDocument, DatalogTerm, Rule, TupleAtom } from '../../lib/datalog/ast.js';
import { parseDatalog, type DatalogParseOptions } from '../../lib/formats/datalog-parser.js';
import { writeDatalog } from '../../lib/formats/datalog-writer.js';

const EX = 'http://example.org/';
const XSD = 'http://www.w3.org/2001/XMLSchema#';
const RDF_NS = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
const POSITION = { line: 1, column: 1 };

function showTerm(term: RDF.Term): string {
  switch (term.termType) {
    case 'NamedNode':
      return `<${term.value}>`;
    case 'BlankNode':
      return `_:${term.value}`;
    case 'Literal':
      return term.language
        ? `${JSON.stringify(term.value)}@${term.language}`
        : `${JSON.stringify(term.value)}^^<${term.datatype.value}>`;
    case 'Variable':
      return `?${term.value}`;
    default:
      return term.termType;
  }
}

/** A comparable copy of an AST value: positions dropped, RDF terms as strings. */
function strip(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(strip);
  if (value !== null && typeof value === 'object') {
    if ('termType' in value) return showTerm(value as RDF.Term);
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => key !== 'position')
        .map(([key, v]) => [key, strip(v)]),
    );
  }
  return value;
}

function comparable(document: { rules: readonly Rule[]; facts?: readonly TupleAtom[] }): unknown {
  return { rules: strip(document.rules), facts: strip(document.facts ?? []) };
}

function parseOk(text: string, options?: DatalogParseOptions): DatalogDocument {
  const result = parseDatalog(text, options);
  expect(result.errors, `${JSON.stringify(result.errors)}\n${text}`).to.deep.equal([]);
  return result.document;
}

const iri = (value: string): ConstantTerm => ({ kind: 'const', term: DataFactory.namedNode(value) });
const v = (name: string): DatalogTerm => ({ kind: 'var', name });
const lit = (value: string, languageOrDatatype?: string): ConstantTerm => ({
  kind: 'const',
  term:
    languageOrDatatype === undefined
      ? DataFactory.literal(value)
      : languageOrDatatype.includes(':')
        ? DataFactory.literal(value, DataFactory.namedNode(languageOrDatatype))
        : DataFactory.literal(value, languageOrDatatype),
});
const triple = (s: DatalogTerm, p: DatalogTerm, o: DatalogTerm): TupleAtom => ({
  kind: 'atom',
  table: 'DefaultTriples',
  args: [s, p, o],
  position: POSITION,
});
const fact = (table: string, ...args: DatalogTerm[]): TupleAtom => ({ kind: 'atom', table, args, position: POSITION });

const PREFIXES = new Map([
  [':', EX],
  ['xsd:', XSD],
]);

describe('writeDatalog', () => {
  it('writes prefixes, then facts and rules one per line', () => {
    const document = parseOk(
      '@prefix : <http://example.org/> .\n' +
        '[?x, :q, ?y] :- [?x, :p, ?y], NOT [?y, a, :C], FILTER(?y > 3) .\n' +
        '[:a, :p, "x"] .\n' +
        ':C[:b] :g .\n',
    );
    expect(writeDatalog(document, { prefixes: PREFIXES })).to.equal(
      '@prefix : <http://example.org/> .\n' +
        '@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n' +
        '\n' +
        '[:a, :p, "x"] .\n' +
        '[:b, a, :C] :g .\n' +
        '[?x, :q, ?y] :- [?x, :p, ?y], NOT [?y, a, :C], FILTER(?y > 3) .\n',
    );
  });

  it('writes nothing for an empty document, and no blank line without prefixes', () => {
    expect(writeDatalog({ rules: [] })).to.equal('');
    expect(writeDatalog({ rules: [] }, { prefixes: PREFIXES })).to.equal(
      '@prefix : <http://example.org/> .\n@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n',
    );
    expect(writeDatalog({ rules: [], facts: [triple(iri(`${EX}a`), iri(`${EX}p`), iri(`${EX}b`))] })).to.equal(
      '[<http://example.org/a>, <http://example.org/p>, <http://example.org/b>] .\n',
    );
  });

  it('abbreviates IRIs with the longest prefix whose local part is valid', () => {
    const prefixes = new Map([
      ['ex:', EX],
      ['sub:', `${EX}sub/`],
      ['rdf:', RDF_NS],
    ]);
    const atoms = [
      triple(iri(`${EX}sub/x`), iri(`${RDF_NS}type`), iri(`${EX}a.b`)),
      triple(iri(`${EX}x.`), iri(`${EX}-x`), iri(`${EX}a b`)),
      triple(iri(`${EX}a:-b`), iri(`${EX}`), iri(`${EX}a:b%20c`)),
      triple(iri('http://other/x'), iri(`${EX}1`), iri(`${EX}_x`)),
    ];
    expect(writeDatalog({ rules: [], facts: atoms }, { prefixes }).split('\n').slice(4, -1)).to.deep.equal([
      '[sub:x, rdf:type, ex:a.b] .',
      '[<http://example.org/x.>, <http://example.org/-x>, <http://example.org/a\\u0020b>] .',
      '[<http://example.org/a:-b>, ex:, ex:a:b%20c] .',
      '[<http://other/x>, ex:1, ex:_x] .',
    ]);
  });

  it('writes rdf:type as `a` only in predicate position when no prefix applies', () => {
    const type = iri(`${RDF_NS}type`);
    expect(writeDatalog({ rules: [], facts: [triple(type, type, type)] })).to.equal(
      '[<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>, a, <http://www.w3.org/1999/02/22-rdf-syntax-ns#type>] .\n',
    );
  });

  it('writes literals of every kind', () => {
    const args = [
      lit('plain'),
      lit('esc "q" \\ \n \r \t \b \f \u0001 é'),
      lit('chat', 'fr'),
      lit('5', `${XSD}int`),
      lit('-12', `${XSD}integer`),
      lit('1 2', `${XSD}integer`),
      lit('-.5', `${XSD}decimal`),
      lit('1e3', `${XSD}double`),
      lit('INF', `${XSD}double`),
      lit('true', `${XSD}boolean`),
      lit('1', `${XSD}boolean`),
      lit('s', `${XSD}string`),
      lit('d', 'http://dt/x'),
      { kind: 'const', term: DataFactory.blankNode('b1') } as ConstantTerm,
    ];
    expect(writeDatalog({ rules: [], facts: [fact('L', ...args)] }, { prefixes: PREFIXES }).split('\n')[3]).to.equal(
      'L("plain", "esc \\"q\\" \\\\ \\n \\r \\t \\b \\f \\u0001 é", "chat"@fr, "5"^^xsd:int, -12, "1 2"^^xsd:integer, ' +
        '-.5, 1e3, "INF"^^xsd:double, true, "1"^^xsd:boolean, "s", "d"^^<http://dt/x>, _:b1) .',
    );
  });

  it('quotes tuple table names that are keywords or not identifiers, and writes other tables generally', () => {
    const x = v('x');
    const facts = [
      fact('Person', iri(`${EX}a`)),
      fact('NOT', iri(`${EX}a`)),
      fact('filter', iri(`${EX}a`)),
      fact('my "table"', iri(`${EX}a`)),
      fact('DefaultTriples', iri(`${EX}a`), iri(`${EX}b`)),
      fact('Quads', iri(`${EX}a`), iri(`${EX}b`), iri(`${EX}c`)),
    ];
    const rule: Rule = { head: [fact('T', x)], body: [fact('Quads', x, x, x, x)], position: POSITION };
    expect(writeDatalog({ rules: [rule], facts }, { prefixes: PREFIXES }).split('\n').slice(3, -1)).to.deep.equal([
      'Person(:a) .',
      '"NOT"(:a) .',
      '"filter"(:a) .',
      '"my \\"table\\""(:a) .',
      'DefaultTriples(:a, :b) .',
      'Quads(:a, :b, :c) .',
      'T(?x) :- [?x, ?x, ?x] ?x .',
    ]);
  });

  it('writes every kind of body literal', () => {
    const text =
      '@prefix : <http://example.org/> .\n' +
      ':r[?x] :- :C[?x], NOT EXISTS ?y, ?z IN (:h[?x, ?y], :g[?y, ?z]), NOT(:a[?x], :b[?x]), NOT exist ?w IN :c[?w],\n' +
      '  AGGREGATE(:m[?x, ?m], FILTER(?m != :z), BIND(STR(?m) AS ?s) ON ?x BIND count(distinct *) AS ?n BIND Sum(?m * 2) AS ?t),\n' +
      '  AGGREGATE(:m[?x, ?m] BIND COUNT(?m) AS ?k), BIND ( ?n + 1 as ?n1 ) .\n' +
      '[:a, :p, :b] :- .\n';
    expect(writeDatalog(parseOk(text), { prefixes: new Map([[':', EX]]) })).to.equal(
      '@prefix : <http://example.org/> .\n' +
        '\n' +
        '[?x, a, :r] :- [?x, a, :C], NOT EXISTS ?y, ?z IN ([?x, :h, ?y], [?y, :g, ?z]), NOT([?x, a, :a], [?x, a, :b]), ' +
        'NOT EXISTS ?w IN ([?w, a, :c]), AGGREGATE([?x, :m, ?m], FILTER(?m != :z), BIND(STR(?m) AS ?s) ON ?x ' +
        'BIND COUNT(DISTINCT *) AS ?n BIND SUM(?m * 2) AS ?t), AGGREGATE([?x, :m, ?m] BIND COUNT(?m) AS ?k), ' +
        'BIND(?n + 1 AS ?n1) .\n' +
        '[:a, :p, :b] :- .\n',
    );
  });

  it('rejects variable names that cannot be written', () => {
    expect(() => writeDatalog({ rules: [], facts: [fact('T', v('a b'))] })).to.throw(RangeError, /invalid variable name/);
  });

  describe('round trip', () => {
    const corpus = [
      '[?x, :locatedIn, ?z] :- [?x, :locatedIn, ?y], [?y, :locatedIn, ?z] .',
      '[?x, :contractorFor, ?y] :- [?x, :worksFor, ?y], NOT [?x, :employeeOf, ?y] .',
      '[?d, :deptAvgSalary, ?z] :- [?d, rdf:type, :Department], AGGREGATE([?x, :worksFor, ?d], [?x, :salary, ?s] ON ?d BIND AVG(?s) AS ?z) .',
      '[?x, :fullName, ?n] :- [?x, :firstName, ?y], [?x, :lastName, ?z], BIND(CONCAT(?y, " ", ?z) AS ?n) .',
      ':monthlyPayment[?id, ?m] :Payroll :- [?id, rdf:type, :Employee], :yearlySalary[?id, ?s] :HR, BIND(?s / 12 AS ?m) .',
      ':Person[?person] :Personnel, :Address[?address] :Personnel :- :hasAddress[?person, ?address] :Personnel.',
      ':hasFirstName[?p, ?f], :hasLastName[?p, ?l] :- Person(?p, ?f, ?l, ?a) .',
      ':cTemperature[?x, ?z] :- BIND ((?y - 32) / 1.8 AS ?z), :fTemperature[?x, ?y] .',
      ':PositiveNumber[?x] :- FILTER(?x > 0), :Number[?x] .',
      ':BasicComponent[?x] :- :Component[?x], NOT EXISTS ?y IN (:Component[?y], :hasComponent[?x, ?y]) .',
      ':TopComponent[?x] :- :hasComponent[?x, ?y], NOT EXIST ?y IN (:hasComponent[?y, ?x]) .',
      ':minAge[?f, ?min], :maxAge[?f, ?max] :- :Family[?f], AGGREGATE(:hasMember[?f, ?m], :hasAge[?m, ?a] ON ?f BIND MIN(?a) AS ?min BIND MAX(?a) AS ?max) .',
      ':ratio[?f, ?r] :- :Family[?f], AGGREGATE(:hasMember[?f, ?m], :hasAge[?m, ?a], FILTER(?a >= 18) ON ?f BIND COUNT(?m) AS ?n), BIND(?n / 2 AS ?r) .',
      ':close[?f1, ?f2] :- AGGREGATE(:Family[?f1], :hasMember[?f1, ?m1], :Family[?f2], :hasMember[?f2, ?m2], :hasFriend[?m1, ?m2] ON ?f1 ?f2 BIND COUNT(*) AS ?n), FILTER (?n > 3) .',
      ':cnt[?x, ?c] :- :Family[?x], AGGREGATE(:hasMember[?x, ?y], :hasFriend[?y, ?z] ON ?x BIND COUNT(DISTINCT ?z) AS ?c) .',
      ':total[?x, ?t] :- AGGREGATE(:v[?x, ?v] ON ?x BIND SUM(DISTINCT ?v * 1.5e0) AS ?t BIND max(xsd:integer(?v)) AS ?mx) .',
      ':e[?E, ?P], :c[?E, ?C] :- :worksFor[?P, ?C], SKOLEM("Employment", ?P, ?C, ?E) .',
      ':startDate[?E, "2020-02-03"^^xsd:date] :- SKOLEM("Employment", :Peter, :Company1, ?E) .',
      '[?x, :p, ?y] :- [?x, :q, ?y], FILTER((STRSTARTS(STR(?y), ").#") || CONTAINS(?y, \'a.b)\')) && ?x != <http://e/(x).>) .',
      '[?x, :p, ?y] :- [?x, :q, ?y], FILTER(\n  ?y > 3 # comment with ) and .\n  && REGEX(?y, "^a\\\\.b$", "i")\n) .',
      '[?x, :label, ?l] :- [?x, :name, ?n], BIND(LANG(?n) AS ?lang), FILTER(?lang IN ("en", "fr")), BIND(STRLANG(?n, "en") AS ?l) .',
      '[?x, :q, ?g] :- [?x, ?p, ?y] ?g, T(?x, ?y, "a"@en, 1, 2.5, 3e0, true, _:b) .',
      '[?x, :p, :o] :- [?x, a, :C], NOT(:D[?x], [?x, :r, ?x] :g), "quoted table"(?x) .',
      '[:a, :r, :b] :- .',
      '[?x, :p, ?y], [?y, :p, ?x] :- [?x, :sym, ?y] .',
      '[?x, :p, ?y] :- [?x, :q, ?y], BIND(IF(BOUND(?y), COALESCE(?y, 0), -1) AS ?z), FILTER(!ISBLANK(?z) && DATATYPE(?z) = xsd:integer) .',
      // RDFox's aggregate functions, COUNT() and COUNT over a list
      '[:c, :maxAge, ?m], [:c, :count, ?n], [:c, :first, ?f] :- AGGREGATE(:Person[?p], :age[?p, ?a], :name[?p, ?n0] BIND MAX(?a) AS ?m BIND COUNT_MAX(?a) AS ?n BIND MIN_ARGMAX(?n0, ?a) AS ?f) .',
      '[?f, :p, ?v] :- AGGREGATE(:m[?f, ?x], :v[?x, ?y] ON ?f BIND mul(DISTINCT ?y) AS ?v BIND Count_Min(?y) AS ?w BIND MAX_ARGMIN(DISTINCT STR(?x), -?y) AS ?u BIND MIN_ARGMIN(?x,?y) AS ?s BIND MAX_ARGMAX(?x, COALESCE(?y, 0)) AS ?t) .',
      '[?f, :n, ?v] :- AGGREGATE(:m[?f, ?x], :v[?x, ?y] ON ?f BIND COUNT() AS ?v BIND COUNT(DISTINCT ?x, ?y) AS ?w BIND COUNT(?x, STR(?y)) AS ?c) .',
    ];
    const facts = [
      '[:a, :p, :b] .',
      ':C[:a] .',
      '[:a, :p, "x\\ny"] :g .',
      'T(:a, "1"^^xsd:integer, "x"@en-gb, _:b0, 1.0, -2, "\\u00E9\\U0001F600") .',
      '"NOT"(:a) .',
      'SKOLEM("E", :a, _:e) .',
    ];
    const header = `@prefix : <${EX}> .\n@prefix xsd: <${XSD}> .\nPREFIX rdf: <${RDF_NS}>\n`;

    it('gives back the same rules and facts for a corpus of documents', () => {
      const document = parseOk(header + [...corpus, ...facts].join('\n'));
      expect(document.rules).to.have.length(corpus.length);
      expect(document.facts).to.have.length(facts.length);
      for (const prefixes of [document.prefixes, new Map([...document.prefixes, ['long:', `${EX}sub/`]])]) {
        const written = writeDatalog(document, { prefixes });
        const reparsed = parseOk(written);
        expect(comparable(reparsed)).to.deep.equal(comparable(document));
        expect([...reparsed.prefixes]).to.deep.equal([...prefixes]);
        // Writing again is stable.
        expect(writeDatalog(reparsed, { prefixes })).to.equal(written);
      }
    });

    it('gives back the same rules without prefixes when expressions use none', () => {
      const document = parseOk(
        header + corpus.filter((r) => !/(FILTER|BIND|AGGREGATE)[^.]*(xsd|:[a-z])/i.test(r)).join('\n'),
      );
      expect(document.rules.length).to.be.greaterThan(5);
      const written = writeDatalog(document);
      expect(written).not.to.match(/@prefix/);
      expect(comparable(parseOk(written))).to.deep.equal(comparable(document));
    });

    it('gives back every rule written on its own, one rule per corpus entry', () => {
      for (const text of corpus) {
        const document = parseOk(header + text);
        const written = writeDatalog(document, { prefixes: document.prefixes });
        expect(written.trimEnd().split('\n').pop()).to.match(/ \.$/);
        expect(comparable(parseOk(written)), text).to.deep.equal(comparable(document));
      }
    });

    it('gives back random facts and rules (property)', function () {
      this.timeout(30000);
      /** A string of `first` followed by up to `max` characters of `rest`. */
      const word = (first: string, rest: string, max: number): fc.Arbitrary<string> =>
        fc
          .tuple(fc.constantFrom(...first), fc.string({ unit: fc.constantFrom(...rest), maxLength: max }))
          .map(([a, b]) => a + b);
      const LETTERS = 'abcxyzABCXYZ';
      const DIGITS = '0123456789';
      const namespaces = [EX, `${EX}ns#`, 'urn:x:', 'http://other.org/a/b/'];
      const prefixes = new Map([
        ['ex:', EX],
        ['h:', `${EX}ns#`],
        ['u:', 'urn:x:'],
      ]);
      const localChars = fc.constantFrom(...'abcXYZ019_-.:%~éΩ /#>"{\\'.split(''));
      const iriArb = fc
        .tuple(fc.constantFrom(...namespaces), fc.string({ unit: localChars, maxLength: 6 }))
        .map(([ns, local]) => DataFactory.namedNode(ns + local));
      const anyIri = fc.oneof(iriArb, fc.string({ unit: 'binary', maxLength: 8 }).map((s) => DataFactory.namedNode(`http://x/${s}`)));
      const literalArb = fc.oneof(
        fc.string({ unit: 'binary', maxLength: 10 }).map((s) => DataFactory.literal(s)),
        fc
          .tuple(
            fc.string({ unit: 'binary', maxLength: 6 }),
            fc.tuple(word('abcz', 'abcz', 7), fc.array(word('a1', 'a1z9', 7), { maxLength: 2 })),
          )
          .map(([s, [primary, subtags]]) => [s, [primary, ...subtags].join('-')] as const)
          .map(([s, lang]) => DataFactory.literal(s, lang)),
        fc
          .tuple(
            fc.oneof(
              fc
                .tuple(
                  fc.constantFrom('', '+', '-'),
                  word(DIGITS, DIGITS, 3),
                  fc.constantFrom('', '.', '.5', '.25'),
                  fc.constantFrom('', 'e1', 'E-2', 'e+10'),
                )
                .map((parts) => parts.join('')),
              fc.constantFrom('true', 'false', 'INF', 'NaN', ' 1', ''),
            ),
            fc.constantFrom('integer', 'decimal', 'double', 'boolean', 'int', 'date').map((t) => XSD + t),
          )
          .map(([s, dt]) => DataFactory.literal(s, DataFactory.namedNode(dt))),
        fc.tuple(fc.string({ maxLength: 4 }), anyIri).map(([s, dt]) => DataFactory.literal(s, dt)),
      );
      const blankArb = fc
        .tuple(word(`${LETTERS}${DIGITS}_`, `${LETTERS}${DIGITS}_.-`, 4), fc.constantFrom('', '_', '-', '9'))
        .filter(([label, last]) => last !== '' || !label.endsWith('.'))
        .map(([label, last]) => DataFactory.blankNode(label + last));
      const constant: fc.Arbitrary<ConstantTerm> = fc
        .oneof(anyIri, literalArb, blankArb)
        .map((term) => ({ kind: 'const' as const, term }));
      const variable: fc.Arbitrary<DatalogTerm> = word(`${LETTERS}_`, `${LETTERS}${DIGITS}_`, 5).map((name) => ({ kind: 'var' as const, name }));
      const termArb = (ground: boolean): fc.Arbitrary<DatalogTerm> => (ground ? constant : fc.oneof(constant, variable));
      const tableArb = fc.oneof(
        fc.constantFrom('DefaultTriples', 'Quads'),
        word(`${LETTERS}_`, `${LETTERS}${DIGITS}_`, 6),
        fc.constantFrom('NOT', 'Filter', 'in', 'exists'),
        fc.string({ unit: 'binary', minLength: 1, maxLength: 6 }),
      );
      const atomArb = (ground: boolean): fc.Arbitrary<TupleAtom> =>
        fc.tuple(tableArb, fc.nat(3)).chain(([table, extra]) => {
          const arity = table === 'DefaultTriples' ? 3 : table === 'Quads' ? 4 : extra + 1;
          return fc
            .array(termArb(ground), { minLength: arity, maxLength: arity })
            .map((args) => ({ kind: 'atom' as const, table, args, position: POSITION }));
        });
      const ruleArb: fc.Arbitrary<Rule> = fc
        .tuple(
          fc.array(atomArb(false), { minLength: 1, maxLength: 3 }),
          fc.array(
            fc.oneof(
              atomArb(false),
              fc
                .tuple(
                  fc.array(word('abc', 'abc123', 3), { maxLength: 2 }),
                  fc.array(atomArb(false), { minLength: 1, maxLength: 3 }),
                )
                .map(([existentialVariables, atoms]) => ({
                  kind: 'not' as const,
                  existentialVariables,
                  atoms,
                  position: POSITION,
                })),
            ),
            { maxLength: 4 },
          ),
        )
        .map(([head, body]) => ({ head, body, position: POSITION }));
      fc.assert(
        fc.property(fc.array(atomArb(true), { maxLength: 4 }), fc.array(ruleArb, { maxLength: 3 }), (factList, rules) => {
          const written = writeDatalog({ rules, facts: factList }, { prefixes });
          const result = parseDatalog(written);
          expect(result.errors, written).to.deep.equal([]);
          expect(comparable(result.document), written).to.deep.equal(comparable({ rules, facts: factList }));
        }),
        { numRuns: 300 },
      );
    });
  });
});
