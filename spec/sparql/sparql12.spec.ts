/**
 * SPARQL 1.2 through the public API: texts only traqula parses (triple terms, reifiers,
 * annotations, VERSION, base directions) evaluated by the one engine; triple-term patterns
 * matched on the triple-term index by whichever part is bound, the new
 * functions, updates and CONSTRUCT templates with triple terms, and SPARQL 1.1 errors as before.
 */
import { expect } from 'chai';
import { QueryCompilationError, type DataStoreConnection } from '../../lib/index.js';
import { mayBeSparql12 } from '../../lib/sparql/sparql12.js';
import { useServer } from '../helpers/server.js';

const EX = 'http://example.com/';
const REIFIES = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies';
const P = `PREFIX : <${EX}> PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> `;

/** The rows of a SELECT as strings (`-` for unbound), sorted. */
async function rows(ds: DataStoreConnection, text: string): Promise<string[]> {
  const answer = await ds.evaluateQuery(text);
  if (answer.type !== 'bindings') throw new Error(`expected bindings, got ${answer.type}`);
  const show = (t: unknown): string => {
    if (t === undefined) return '-';
    const term = t as { termType: string; value: string; subject?: unknown; predicate?: unknown; object?: unknown; language?: string; direction?: string };
    if (term.termType === 'Quad') return `<<( ${show(term.subject)} ${show(term.predicate)} ${show(term.object)} )>>`;
    if (term.termType === 'Literal') return `"${term.value}"${term.language ? `@${term.language}${term.direction ? `--${term.direction}` : ''}` : ''}`;
    return term.value.replace(EX, ':');
  };
  return answer.rows.map((r) => r.map(show).join(' ')).sort();
}

describe('sparql: SPARQL 1.2', () => {
  const env = useServer('sparql12');
  let ds: DataStoreConnection;

  before(async () => {
    ds = await env.newStore();
    const lines: string[] = [];
    for (let i = 0; i < 20; i++) {
      lines.push(`<${EX}s${i}> <${EX}p> <${EX}o${i % 4}> .`);
      lines.push(`<${EX}r${i}> <${REIFIES}> <<( <${EX}s${i}> <${EX}p> <${EX}o${i % 4}> )>> .`);
      lines.push(`<${EX}r${i}> <${EX}source> <${EX}w${i % 2}> .`);
    }
    const r = await ds.importData('ADD', lines.join('\n'));
    expect(r.errors, r.text).to.equal(0);
  });

  it('matches a triple-term pattern by a bound part, on the triple-term index', async () => {
    const q = `${P} SELECT ?r ?s { ?r rdf:reifies <<( ?s :p :o1 )>> }`;
    expect(await rows(ds, q)).to.deep.equal(['r1 s1', 'r13 s13', 'r17 s17', 'r5 s5', 'r9 s9'].map((x) => x.replace(/(\w+) (\w+)/, ':$1 :$2')).sort());
    // every part free: all 20
    expect(await rows(ds, `${P} SELECT * { ?r rdf:reifies <<( ?s ?p ?o )>> }`)).to.have.length(20);
    // nested and joined with a fact
    expect(await rows(ds, `${P} SELECT ?w { ?r rdf:reifies <<( :s2 ?p ?o )>> ; :source ?w }`)).to.deep.equal([':w0']);
  });

  it('reads reifier and annotation syntax', async () => {
    expect(await rows(ds, `${P} SELECT ?w { << :s3 :p :o3 ~ ?r >> :source ?w }`)).to.deep.equal([':w1']);
    expect(await rows(ds, `${P} SELECT ?w { :s4 :p :o0 {| :source ?w |} }`)).to.deep.equal([':w0']);
  });

  it('evaluates TRIPLE, SUBJECT, PREDICATE, OBJECT, isTRIPLE and the direction functions', async () => {
    const q = `${P} VERSION "1.2" SELECT ?t ?s ?is ?x ?d ?dl ?hl ?hd {
      BIND(TRIPLE(:a, :b, "c") AS ?t) BIND(SUBJECT(?t) AS ?s) BIND(isTRIPLE(?t) AS ?is) BIND(OBJECT(:a) AS ?x)
      BIND(STRLANGDIR("abc", "en", "rtl") AS ?d) BIND(LANGDIR(?d) AS ?dl) BIND(hasLANG(?d) AS ?hl) BIND(hasLANGDIR("x"@en) AS ?hd) }`;
    expect(await rows(ds, q)).to.deep.equal(['<<( :a :b "c" )>> :a "true" - "abc"@en--rtl "rtl" "true" "false"']);
    expect(await rows(ds, `${P} SELECT ?y { BIND(PREDICATE(<<( :a :b :c )>>) AS ?y) }`)).to.deep.equal([':b']);
  });

  it('inserts and deletes triple terms with INSERT DATA, DELETE DATA and INSERT … WHERE', async () => {
    const store = await env.newStore();
    await store.evaluateUpdate(`${P} INSERT DATA { :x :says <<( :a :b :c )>> . << :a :b :d ~ :r >> :since 2020 }`);
    expect(await rows(store, `${P} SELECT ?o { :x :says <<( :a :b ?o )>> }`)).to.deep.equal([':c']);
    expect(await rows(store, `${P} SELECT ?o { :r rdf:reifies <<( :a :b ?o )>> }`)).to.deep.equal([':d']);
    await store.evaluateUpdate(`${P} INSERT { ?o :about <<( :x :said ?o )>> } WHERE { :x :says <<( :a :b ?o )>> }`);
    expect(await rows(store, `${P} SELECT ?s ?o { ?s :about <<( :x :said ?o )>> }`)).to.deep.equal([':c :c']);
    await store.evaluateUpdate(`${P} DELETE DATA { :x :says <<( :a :b :c )>> }`);
    expect(await rows(store, `${P} SELECT ?o { :x :says ?o }`)).to.deep.equal([]);
  });

  it('instantiates triple terms in CONSTRUCT templates', async () => {
    const answer = await ds.evaluateQuery(`${P} CONSTRUCT { ?w :vouches <<( ?s :p :o2 )>> } WHERE { ?r rdf:reifies <<( ?s :p :o2 )>> ; :source ?w } `);
    if (answer.type !== 'quads') throw new Error('expected triples');
    expect(answer.quads).to.have.length(5);
    expect(answer.quads.every((q) => q.object.termType === 'Quad')).to.equal(true);
  });

  it('computes a triple term written with variables in BIND for each solution', async () => {
    const q = `${P} SELECT ?t { ?s :p :o1 BIND(<<( ?s :p :o1 )>> AS ?t) }`;
    expect(await rows(ds, q)).to.deep.equal(['s1', 's13', 's17', 's5', 's9'].map((s) => `<<( :${s} :p :o1 )>>`).sort());
    const store = await env.newStore();
    await store.evaluateUpdate(`${P} INSERT DATA { GRAPH :g { :a :p :b . :c :p :d } }`);
    expect(await rows(store, `${P} SELECT ?t { GRAPH ?g { ?s ?p ?o BIND(<<( ?s ?p ?o )>> AS ?t) } }`)).to.deep.equal(['<<( :a :p :b )>>', '<<( :c :p :d )>>']);
  });

  it('counts the solutions of a lone triple-term pattern', async () => {
    expect(await rows(ds, `${P} SELECT (COUNT(*) AS ?n) { ?r rdf:reifies <<( ?s :p ?o )>> }`)).to.deep.equal(['"20"']);
    expect(await rows(ds, `${P} SELECT (COUNT(*) AS ?n) { ?r rdf:reifies <<( ?s :p :o3 )>> }`)).to.deep.equal(['"5"']);
  });

  it('keeps the hidden variable of a triple-term pattern inside its subquery', async () => {
    const store = await env.newStore();
    await store.evaluateUpdate(`${P} INSERT DATA { :r1 rdf:reifies <<( :a :p :b )>> . :r2 rdf:reifies <<( :c :p :d )>> . :x :says <<( :a :p :d )>> . :y :says <<( :c :p :b )>> }`);
    // the subquery's ?o is not the outer ?o: the outer triple term is matched on its own
    const inner = `{ SELECT ?r ?s { ?r rdf:reifies <<( ?s :p ?o )>> } }`;
    const expected = [':r1 :a :d :x', ':r2 :c :b :y'];
    expect(await rows(store, `${P} SELECT ?r ?s ?o ?x { ${inner} ?x :says <<( ?s :p ?o )>> }`)).to.deep.equal(expected);
    expect(await rows(store, `${P} SELECT ?r ?s ?o ?x { ?x :says <<( ?s :p ?o )>> ${inner} }`)).to.deep.equal(expected);
    const grouped = `{ SELECT ?s (COUNT(*) AS ?n) { ?r rdf:reifies <<( ?s :p ?o )>> } GROUP BY ?s }`;
    expect(await rows(store, `${P} SELECT ?s ?o ?n { ?x :says <<( ?s :p ?o )>> ${grouped} }`)).to.deep.equal([':a :d "1"', ':c :b "1"']);
    // nor does it show among the columns of SELECT *
    const answer = await store.evaluateQuery(`${P} SELECT * { ${inner} ?x :says <<( ?s :p ?o )>> }`);
    if (answer.type !== 'bindings') throw new Error('expected bindings');
    expect([...answer.variables].sort()).to.deep.equal(['o', 'r', 's', 'x']);
  });

  it('keeps the base direction in the string functions, and LANG gives the tag alone', async () => {
    const q = `SELECT ?l ?c ?d ?u ?b ?e ?n { BIND("abc"@en--rtl AS ?x)
      BIND(LANG(?x) AS ?l) BIND(CONCAT(?x, "d"@en--rtl) AS ?c) BIND(CONCAT(?x, "d"@en--ltr) AS ?d) BIND(UCASE(?x) AS ?u)
      BIND(STRBEFORE(?x, "c") AS ?b) BIND(sameTerm(?x, "abc"@en--ltr) AS ?e) BIND(?x = "abc"@en AS ?n) }`;
    expect(await rows(ds, q)).to.deep.equal(['"en" "abcd"@en--rtl "abcd" "ABC"@en--rtl "ab"@en--rtl "false" "false"']);
    // arguments of different base directions are incompatible: an error, ?x unbound
    const incompatible = await ds.evaluateQuery('SELECT ?x { BIND(CONTAINS("abc"@en--ltr, "b"@en--rtl) AS ?x) }');
    expect(incompatible.type === 'bindings' && incompatible.rows[0]![0]).to.equal(undefined);
  });

  it("applies SPARQL 1.2's rules on SELECT clauses, in texts of either parser", async () => {
    const refused = async (text: string): Promise<string> => {
      const e = await ds.evaluateQuery(text).catch((x: unknown) => x);
      expect(e, text).to.be.instanceOf(QueryCompilationError);
      return (e as Error).message;
    };
    // a variable an earlier SELECT expression binds may be used by a later one
    expect(await rows(ds, 'SELECT (COUNT(?v) AS ?c) (?c + 1 AS ?d) { VALUES ?v { 1 2 3 } }')).to.deep.equal(['"3" "4"']);
    expect(await rows(ds, `${P} SELECT (COUNT(?t) AS ?c) (?c + 1 AS ?d) { ?r rdf:reifies ?t FILTER(isTRIPLE(?t)) }`)).to.deep.equal(['"20" "21"']);
    expect(await refused(`${P} SELECT (1 AS ?z) { ?s :p ?z } GROUP BY ?z`)).to.match(/\?z is already in scope/);
    expect(await refused(`${P} SELECT (1 AS ?z) { ?r rdf:reifies <<( ?s :p ?z )>> } GROUP BY ?z`)).to.match(/\?z is already in scope/);
    expect(await refused('SELECT (1 AS ?z) {} GROUP BY (2 AS ?z)')).to.match(/\?z is already in scope/);
    expect(await rows(ds, `${P} SELECT (1 AS ?z) { ?s :p ?z } GROUP BY ?s LIMIT 1`)).to.deep.equal(['"1"']);
    expect(await refused(`${P} SELECT ?s (COUNT(*) AS ?n) { ?s :p ?o }`)).to.match(/\?s is projected but neither grouped/);
    expect(await refused(`${P} SELECT ?s (COUNT(*) AS ?n) { ?r rdf:reifies <<( ?s :p ?o )>> }`)).to.match(/\?s is projected but neither grouped/);
    expect(await refused('SELECT (COUNT(COUNT(*)) AS ?c) {}')).to.match(/cannot hold another aggregate/);
    expect(await refused('SELECT * { VALUES (?a ?a) { (1 1) } }')).to.match(/\?a is named twice in a VALUES block/);
    expect(await refused('SELECT * { VALUES (?a ?b ?a) { (<<( <x:a> <x:b> <x:c> )>> 1 1) } }')).to.match(/\?a is named twice/);
  });

  it('refuses a codepoint escape of a surrogate, with its line and column', async () => {
    const e = await ds.evaluateQuery('SELECT * {\n  ?s ?p "a\\uD83C\\uDCA1" }').catch((x: unknown) => x);
    expect(e).to.be.instanceOf(QueryCompilationError);
    expect((e as Error).message).to.match(/line 2, column 11: the escape \\uD83C stands for a surrogate/);
    const iri = await ds.evaluateQuery('SELECT * { ?s ?p <http://e/\\uDCA1> }').catch((x: unknown) => x);
    expect(iri).to.be.instanceOf(QueryCompilationError);
    // the pair as one \U escape, and an escaped backslash before "uD83C", are fine
    expect(await rows(ds, 'SELECT ?x { BIND("\\U0001F0A1\\\\uD83C" AS ?x) }')).to.deep.equal(['"\u{1F0A1}\\uD83C"']);
  });

  it('reads a negation of a negation (!!)', async () => {
    expect(await rows(ds, 'SELECT ?b { BIND(!!"a" AS ?b) }')).to.deep.equal(['"true"']);
  });

  it('keeps sparqljs errors (with line and column) for texts that are not SPARQL 1.2 either', async () => {
    const error = await ds.evaluateQuery('SELECT * WHERE {\n ?s ?p }').catch((e: unknown) => e);
    expect(error).to.be.instanceOf(QueryCompilationError);
    expect((error as Error).message).to.match(/line 2/);
    const twelve = await ds.evaluateQuery('SELECT * WHERE {\n << ?s ?p >> ?q ?o }').catch((e: unknown) => e);
    expect(twelve).to.be.instanceOf(QueryCompilationError);
    expect((twelve as Error).message).to.match(/line 2/);
    expect(mayBeSparql12('SELECT * { ?s ?p ?o }')).to.equal(false);
    expect(mayBeSparql12('SELECT * { ?s ?p <<( ?a ?b ?c )>> }')).to.equal(true);
  });
});
