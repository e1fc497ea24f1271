/**
 * Comparisons in rules follow RDFox: `<` `>` `<=` `>=` order any two terms (IRIs, blank nodes,
 * literals of any two datatypes) and `=` `!=` compare any two, in FILTERs, BINDs, IN / NOT IN and
 * AGGREGATE arguments, where SPARQL 1.1 makes such comparisons an error; SPARQL queries over the
 * same data order two IRIs as rules do but keep SPARQL's errors between literals and between
 * kinds. The clique example is the one of RDFox's manual
 * ("Representing Equality Cliques", reasoning chapter), which picks the smallest member with
 * `FILTER(?x < ?y)` over IRIs.
 */
import { expect } from 'chai';
import type { DataStoreConnection } from '../../lib/index.js';
import { sortedLines, useServer } from '../helpers/server.js';

const EX = 'http://ex/';
const PREFIXES = `@prefix : <${EX}> .\n@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n`;

describe('datalog: comparisons in the order of terms (RDFox)', function () {
  this.timeout(60_000);
  const env = useServer('datalog-term-order');

  async function store(data: string, rules: string): Promise<DataStoreConnection> {
    const ds = await env.newStore();
    const d = await ds.importData('ADD', PREFIXES + data, { mediaType: 'text/turtle' });
    expect(d.errors, d.text).to.equal(0);
    const r = await ds.importData('ADD', PREFIXES + rules, { mediaType: 'application/x.datalog' });
    expect(r.errors, r.text).to.equal(0);
    return ds;
  }

  /** The derived `subject object` pairs of predicate `:p` (N-Triples terms, `<http://ex/x>` shortened to `:x`), sorted. */
  async function derived(ds: DataStoreConnection, p: string): Promise<string[]> {
    const lines = sortedLines(await ds.exportDataToString('application/n-triples', { 'fact-domain': 'derived' }));
    return lines
      .filter((l) => l.includes(` <${EX}${p}> `))
      .map((l) => l.replace(` <${EX}${p}> `, ' ').replace(/ \.$/, '').replaceAll(`<${EX}`, ':').replace(/:([\w-]+)>/g, ':$1'))
      .sort();
  }

  async function select(ds: DataStoreConnection, query: string): Promise<string[]> {
    const a = await ds.evaluateQuery(`PREFIX : <${EX}>\n${query}`);
    if (a.type !== 'bindings') return expect.fail('expected bindings');
    return a.rows.map((r) => r.map((t) => (t === undefined ? 'UNDEF' : t.value.replace(EX, ':'))).join(' ')).sort();
  }

  it('orders IRIs: a FILTER(?a > ?b) over sensors derives each unordered pair once', async () => {
    const ds = await store(':s1 a :Sensor . :s2 a :Sensor . :s3 a :Sensor .', '[?a, :pairedWith, ?b] :- :Sensor[?a], :Sensor[?b], FILTER(?a > ?b) .');
    expect(await derived(ds, 'pairedWith')).to.deep.equal([':s2 :s1', ':s3 :s1', ':s3 :s2']);
    // SPARQL orders two IRIs the same way
    expect(await select(ds, 'SELECT ?a ?b WHERE { ?a a :Sensor . ?b a :Sensor FILTER(?a > ?b) }')).to.deep.equal([':s2 :s1', ':s3 :s1', ':s3 :s2']);
    // but keeps SPARQL 1.1's error between kinds: an IRI against a literal
    expect(await select(ds, 'SELECT ?a WHERE { ?a a :Sensor FILTER(?a < "z") }')).to.deep.equal([]);
  });

  it("picks the smallest member of an equality clique as RDFox's manual does", async () => {
    const data = `
      @prefix s1: <http://s1.example/> . @prefix s2: <http://s2.example/> . @prefix s3: <http://s3.example/> .
      s1:john_doe :same s2:john_H_doe . s1:john_doe :same s3:blues_king . s2:john_H_doe :same s3:blues_king .`;
    const rules = `
      [?x, :same, ?x] :- [?x, :same, ?y] .
      [?y, :same, ?x] :- [?x, :same, ?y] .
      [?x, :same, ?z] :- [?x, :same, ?y], [?y, :same, ?z] .
      [?x, :comesBefore, ?y] :- [?x, :same, ?y], FILTER(?x < ?y) .
      [?y, a, :NotSmallestInClique] :- [?x, :comesBefore, ?y] .
      [?x, a, :SmallestInClique] :- [?x, :comesBefore, ?y], NOT [?x, a, :NotSmallestInClique] .`;
    const ds = await store(data, rules);
    expect(await select(ds, 'SELECT ?x ?y WHERE { ?x :comesBefore ?y }')).to.deep.equal([
      'http://s1.example/john_doe http://s2.example/john_H_doe',
      'http://s1.example/john_doe http://s3.example/blues_king',
      'http://s2.example/john_H_doe http://s3.example/blues_king',
    ]);
    expect(await select(ds, 'SELECT ?x WHERE { ?x a :SmallestInClique }')).to.deep.equal(['http://s1.example/john_doe']);
  });

  it('orders blank nodes before IRIs before literals, and blank nodes among themselves', async () => {
    const ds = await store(
      '_:b1 a :T . _:b2 a :T . :i a :T . :j a :T . :T :has "x", 7 .',
      `[:T, :member, ?x] :- [?x, a, :T] .
       [:T, :member, ?x] :- [:T, :has, ?x] .
       [?x, :before, ?y] :- [:T, :member, ?x], [:T, :member, ?y], FILTER(?x < ?y) .`,
    );
    const a = await ds.evaluateQuery(`PREFIX : <${EX}> SELECT ?x ?y WHERE { ?x :before ?y }`);
    if (a.type !== 'bindings') return expect.fail('expected bindings');
    const kinds = a.rows.map(([x, y]) => `${x!.termType} ${y!.termType}`);
    const count = (k: string): number => kinds.filter((x) => x === k).length;
    // 6 members, every pair once: 15 facts, none from a later kind to an earlier one
    expect(kinds).to.have.length(15);
    expect(count('BlankNode BlankNode')).to.equal(1);
    expect(count('BlankNode NamedNode')).to.equal(4);
    expect(count('BlankNode Literal')).to.equal(4);
    expect(count('NamedNode NamedNode')).to.equal(1);
    expect(count('NamedNode Literal')).to.equal(4);
    expect(count('Literal Literal')).to.equal(1);
    expect(await select(ds, 'SELECT ?x ?y WHERE { ?x :before ?y FILTER(!isBlank(?x)) }')).to.include.members([':i :j', '7 x']);
  });

  it('orders literals of different types; numbers, strings and date/times still compare by value', async () => {
    const ds = await store(
      `:a :v 10 . :b :v 9.5 . :c :v "10" . :d :v "9" . :e :v "x"@en . :f :v "x"@de . :g :v "2020-01-01"^^xsd:date .
       :h :v "2020-01-01T00:00:00Z"^^xsd:dateTime . :i :v "abc"^^:custom . :j :v "abd"^^:custom .`,
      '[?x, :less, ?y] :- [?x, :v, ?u], [?y, :v, ?w], FILTER(?u < ?w) .',
    );
    const less = await derived(ds, 'less');
    // numbers by value (9.5 < 10), strings by code point ("10" < "9"), numbers before strings
    expect(less).to.include.members([':b :a', ':c :d', ':a :c', ':b :d']);
    expect(less).not.to.include.members([':a :b']);
    expect(less).not.to.include.members([':d :c']);
    // language-tagged strings (an error in SPARQL) by text and then tag; a dateTime before a date; unknown datatypes by lexical form
    expect(less).to.include.members([':f :e', ':h :g', ':i :j']);
    // every pair of the ten distinct values is ordered one way
    expect(less).to.have.length(45);
  });

  it('`=` and `!=` compare any two terms; NaN and indeterminate date/times are unordered', async () => {
    const ds = await store(
      `:a :v "abc"^^:custom . :b :v "abd"^^:custom . :c :v "abc" . :d :v 1 . :e :v 1.0 .
       :n :w "NaN"^^xsd:double . :m :w 1 .
       :t :z "2020-01-01T12:00:00Z"^^xsd:dateTime . :u :z "2020-01-01T12:00:00"^^xsd:dateTime .`,
      `[?x, :differs, ?y] :- [?x, :v, ?u], [?y, :v, ?w], FILTER(?u != ?w) .
       [?x, :equals, ?y] :- [?x, :v, ?u], [?y, :v, ?w], FILTER(?u = ?w), FILTER(?x != ?y) .
       [?x, :wOrdered, ?y] :- [?x, :w, ?u], [?y, :w, ?w], FILTER(?u < ?w || ?u > ?w) .
       [?x, :zOrdered, ?y] :- [?x, :z, ?u], [?y, :z, ?w], FILTER(?u <= ?w || ?u >= ?w) .
       [?x, :zDiffers, ?y] :- [?x, :z, ?u], [?y, :z, ?w], FILTER(?u != ?w) .`,
    );
    const differs = await derived(ds, 'differs');
    // literals of an unknown datatype (an error in SPARQL) differ from each other and from a string
    expect(differs).to.include.members([':a :b', ':a :c', ':b :c', ':a :d']);
    // 1 = 1.0 by value
    expect(await derived(ds, 'equals')).to.deep.equal([':d :e', ':e :d']);
    expect(differs).not.to.include.members([':d :e']);
    // NaN is neither less nor greater than anything
    expect(await derived(ds, 'wOrdered')).to.deep.equal([]);
    // a dateTime with a timezone against one without: unordered (XML Schema's partial order), yet not equal
    expect(await derived(ds, 'zOrdered')).to.deep.equal([':t :t', ':u :u']);
    expect(await derived(ds, 'zDiffers')).to.deep.equal([':t :u', ':u :t']);
  });

  it('BIND, IN and NOT IN compare in the order of terms too', async () => {
    const ds = await store(
      ':p :q :r . :x :v "abc"^^:custom . :y :v "abd"^^:custom .',
      `[?s, :lessThanObject, ?b] :- [?s, :q, ?o], BIND(?s < ?o AS ?b) .
       [?x, :inList, ?y] :- [?x, :v, ?u], [?y, :v, ?w], FILTER(?u IN (?w, :p)) .
       [?x, :notInList, ?y] :- [?x, :v, ?u], [?y, :v, ?w], FILTER(?u NOT IN (?w, :p)) .`,
    );
    expect(await derived(ds, 'lessThanObject')).to.deep.equal([':p "true"^^<http://www.w3.org/2001/XMLSchema#boolean>']);
    expect(await derived(ds, 'inList')).to.deep.equal([':x :x', ':y :y']);
    expect(await derived(ds, 'notInList')).to.deep.equal([':x :y', ':y :x']);
    // SPARQL: `<` between an IRI and a literal leaves the BIND unbound, and NOT IN over literals of an unknown datatype is an error
    expect(await select(ds, 'SELECT ?b WHERE { :x :v ?o BIND(:x < ?o AS ?b) }')).to.deep.equal(['UNDEF']);
    expect(await select(ds, 'SELECT ?x ?y WHERE { ?x :v ?u . ?y :v ?w FILTER(?u NOT IN (?w)) }')).to.deep.equal([]);
  });

  it('an AGGREGATE compares its arguments in the order of terms', async () => {
    const ds = await store(
      ':g :m :a, :b, :c .',
      '[?g, :countAfterB, ?n] :- [?g, :m, ?z], AGGREGATE([?g, :m, ?x] ON ?g BIND SUM(IF(?x > :b, 1, 0)) AS ?n) .',
    );
    expect(await derived(ds, 'countAfterB')).to.deep.equal([':g "1"^^<http://www.w3.org/2001/XMLSchema#integer>']);
  });
});
