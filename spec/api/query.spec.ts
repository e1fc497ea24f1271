import { expect } from 'chai';
import { AccessDeniedError, BadRequestError, InterruptedError, QueryCompilationError } from '../../lib/index.js';
import { expectError, nquadsOf, useServer } from '../helpers/server.js';

const DATA = `@prefix : <http://example.com/> .
:alice :knows :bob ; :age 42 .
:bob :knows :carol ; :age 7 .
:carol :knows :alice .
`;

describe('api: queries, updates, cursors, commit procedure, statistics', () => {
  const env = useServer('query');

  async function store() {
    const ds = await env.newStore();
    await ds.setPrefix(':', 'http://example.com/');
    const r = await ds.importData('ADD', DATA);
    expect(r.errors).to.equal(0);
    return ds;
  }

  it('answers SELECT with the store prefixes, joins and aggregates', async () => {
    const ds = await store();
    const a = await ds.evaluateQuery('SELECT ?x ?z WHERE { ?x :knows ?y . ?y :knows ?z } ORDER BY ?x');
    expect(a.type).to.equal('bindings');
    if (a.type !== 'bindings') return;
    expect(a.variables).to.deep.equal(['x', 'z']);
    expect(a.rows.map((r) => r.map((t) => t?.value))).to.deep.equal([
      ['http://example.com/alice', 'http://example.com/carol'],
      ['http://example.com/bob', 'http://example.com/alice'],
      ['http://example.com/carol', 'http://example.com/bob'],
    ]);
    const sum = await ds.evaluateQuery('SELECT (SUM(?a) AS ?s) (COUNT(*) AS ?n) WHERE { ?x :age ?a }');
    expect(sum.type === 'bindings' && sum.rows[0]!.map((t) => t?.value)).to.deep.equal(['49', '2']);
  });

  it('answers ASK, CONSTRUCT and property paths', async () => {
    const ds = await store();
    expect(await ds.evaluateQuery('ASK { :alice :knows+ :alice }')).to.deep.equal({ type: 'boolean', value: true });
    expect(await ds.evaluateQuery('ASK { :alice :knows :carol }')).to.deep.equal({ type: 'boolean', value: false });
    const c = await ds.evaluateQuery('CONSTRUCT { ?y :knownBy ?x } WHERE { ?x :knows ?y }');
    expect(c.type === 'quads' && c.quads.length).to.equal(3);
  });

  it('rejects bad queries with QueryCompilationError, naming the problem', async () => {
    const ds = await store();
    const e = await expectError(ds.evaluateQuery('SELECT * WHERE { ?x :knows }'), QueryCompilationError);
    expect(e.message).to.match(/^syntax error in the SPARQL query at line 1, column \d+: unexpected '\}'$/);
    await expectError(ds.evaluateQuery('INSERT DATA { :a :b :c }'), QueryCompilationError);
  });

  it('streams answers in the requested format and refuses formats that do not fit', async () => {
    const ds = await store();
    let out = '';
    const n = await ds.evaluateQueryTo('SELECT ?x WHERE { ?x :age ?a } ORDER BY ?a', 'text/csv', (c) => void (out += c));
    expect(n).to.equal(2);
    expect(out).to.equal('x\r\nhttp://example.com/bob\r\nhttp://example.com/alice\r\n');
    await expectError(ds.evaluateQueryTo('SELECT * WHERE { ?s ?p ?o }', 'text/turtle', () => {}), BadRequestError);
    await expectError(ds.evaluateQueryTo('CONSTRUCT WHERE { ?s ?p ?o }', 'application/sparql-results+json', () => {}), BadRequestError);
  });

  it('gives RDF/JS bindings through an async iterator', async () => {
    const ds = await store();
    const names: string[] = [];
    for await (const b of ds.evaluateQueryIterator('SELECT ?x ?a WHERE { ?x :age ?a } ORDER BY ?a')) names.push(`${b.get('x')!.value} ${b.get('a')!.value}`);
    expect(names).to.deep.equal(['http://example.com/bob 7', 'http://example.com/alice 42']);
  });

  it('sees derived facts, with fact-domain', async () => {
    const ds = await store();
    await ds.importData('ADD', '[?x, :reaches, ?y] :- [?x, :knows, ?y] . [?x, :reaches, ?z] :- [?x, :reaches, ?y], [?y, :knows, ?z] .');
    const all = await ds.evaluateQuery('SELECT (COUNT(*) AS ?n) WHERE { ?x :reaches ?y }');
    expect(all.type === 'bindings' && all.rows[0]![0]!.value).to.equal('9');
    const explicit = await ds.evaluateQuery('SELECT (COUNT(*) AS ?n) WHERE { ?x :reaches ?y }', { factDomain: 'explicit' });
    expect(explicit.type === 'bindings' && explicit.rows[0]![0]!.value).to.equal('0');
  });

  it('runs updates as one transaction; a failed update changes nothing', async () => {
    const ds = await store();
    await ds.evaluateUpdate('DELETE { ?x :age ?a } INSERT { ?x :years ?a } WHERE { ?x :age ?a FILTER(?a > 10) }');
    const q = await ds.evaluateQuery('SELECT ?x WHERE { ?x :years 42 }');
    expect(q.type === 'bindings' && q.rows.length).to.equal(1);
    const before = await nquadsOf(ds);
    await expectError(ds.evaluateUpdate('INSERT DATA { :x :y :z } ; LOAD <file:///does/not/exist.ttl>'), Error);
    expect(await nquadsOf(ds)).to.deep.equal(before);
  });

  it('reads what sparqljs alone gets wrong: bracketed subjects in data and templates, signed numbers', async () => {
    const ds = await env.newStore();
    await ds.setPrefix(':', 'http://example.com/');
    await ds.evaluateUpdate('INSERT DATA { [ :p 1 ; :q [ :r 2 ] ] . :x :n "+5"^^<http://www.w3.org/2001/XMLSchema#integer> }');
    expect(await ds.countFacts()).to.equal(4);
    const a = await ds.evaluateQuery('CONSTRUCT { [ :copy ?o ] . } WHERE { ?s :p ?o }');
    expect(a.type === 'quads' && a.quads.map((q) => `${q.predicate.value} ${q.object.value}`)).to.deep.equal(['http://example.com/copy 1']);
    const b = await ds.evaluateQuery('SELECT ?s WHERE { ?s :n +5 }');
    expect(b.type === 'bindings' && b.rows.map((r) => r[0]!.value)).to.deep.equal(['http://example.com/x']);
    const c = await ds.evaluateQuery('SELECT ?s WHERE { ?s :n 5 }');
    expect(c.type === 'bindings' && c.rows).to.deep.equal([]);
  });

  it('pages through a cursor, which keeps the answer it was opened on when the store changes', async () => {
    const ds = await store();
    const cursor = ds.createCursor('SELECT ?x WHERE { ?x :knows ?y } ORDER BY ?x');
    const first = await cursor.open(2);
    expect(first.position).to.equal(0);
    expect(first.rows.length).to.equal(2);
    expect(first.more).to.equal(true);
    const second = await cursor.advance(2);
    expect(second.position).to.equal(2);
    expect(second.rows.map((r) => r[0]!.value)).to.deep.equal(['http://example.com/carol']);
    expect(second.more).to.equal(false);
    const other = ds.duplicate();
    env.track(other);
    await other.importData('ADD', '<http://example.com/dave> <http://example.com/knows> <http://example.com/alice> .');
    const after = await cursor.advance(1);
    expect(after).to.deep.include({ position: 3, more: false });
    expect(after.rows).to.deep.equal([]);
    const reopened = await cursor.open();
    expect(reopened.rows.length).to.equal(4);
  });

  it('runs the commit procedure inside every write transaction; when it fails, the commit fails', async () => {
    const ds = await store();
    expect(await ds.getCommitProcedure()).to.equal(undefined);
    const procedure = 'PREFIX : <http://example.com/> DELETE { ?x :stale true } INSERT { ?x :checked true } WHERE { ?x :stale true }';
    expect(await ds.setCommitProcedure(procedure)).to.equal(true);
    expect(await ds.setCommitProcedure(procedure)).to.equal(false);
    await ds.importData('ADD', '<http://example.com/bob> <http://example.com/stale> true .');
    const q = await ds.evaluateQuery('SELECT ?x WHERE { ?x :checked true }');
    expect(q.type === 'bindings' && q.rows.map((r) => r[0]!.value)).to.deep.equal(['http://example.com/bob']);
    await expectError(ds.setCommitProcedure('NOT AN UPDATE'), QueryCompilationError);
    // a procedure that fails at run time makes every commit fail, leaving the store as it was:
    // its first run (when it is set) drops a graph, and every later DROP finds no graph
    await ds.importData('ADD', '<http://example.com/s> <http://example.com/p> <http://example.com/o> <http://example.com/doomed> .');
    expect(await ds.setCommitProcedure('DROP GRAPH <http://example.com/doomed>')).to.equal(true);
    const before = await nquadsOf(ds);
    await expectError(ds.importData('ADD', '<http://example.com/x> <http://example.com/y> <http://example.com/z> .'), Error);
    expect(await nquadsOf(ds)).to.deep.equal(before);
    // and one that fails at once cannot be set: a commit procedure's LOAD reads under the
    // server's read policy (here the default: https only, no file IRI)
    await expectError(ds.setCommitProcedure('LOAD <file:///does/not/exist.ttl>'), AccessDeniedError);
    expect(await ds.deleteCommitProcedure()).to.equal(true);
    expect(await ds.deleteCommitProcedure()).to.equal(false);
  });

  it('explains the plan: algebra and join orders', async () => {
    const ds = await store();
    const text = await ds.explainQuery('SELECT ?x ?z WHERE { ?x :knows ?y . ?y :age ?z }');
    expect(text).to.match(/^algebra:\n {2}project \?x \?z\n {4}bgp/);
    expect(text).to.match(/join order:\n {2}1\. \?y <http:\/\/example.com\/age> \?z\n {2}2\. \?x <http:\/\/example.com\/knows> \?y/);
    expect(text).to.match(/answers: 2, evaluated in/);
  });

  it('answers COUNT(*) from counts in every state: latest, old snapshot, inside a write transaction', async () => {
    const ds = await store();
    const count = async (q: string): Promise<string | undefined> => {
      const a = await ds.evaluateQuery(q);
      return a.type === 'bindings' ? a.rows[0]![0]?.value : undefined;
    };
    expect(await count('SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }')).to.equal('5');
    expect(await count('SELECT (COUNT(*) AS ?n) WHERE { ?s :knows ?o }')).to.equal('3');
    expect(await count('SELECT (COUNT(*) AS ?n) WHERE { ?s :nothing ?o }')).to.equal('0');
    expect(await count('SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?s }')).to.equal('0');
    // an old snapshot: the counts describe the newer state, so the engine must scan
    await ds.beginTransaction('read-only');
    const writer = ds.duplicate();
    env.track(writer);
    await writer.importData('ADD', '<http://example.com/x> <http://example.com/knows> <http://example.com/y> .');
    expect(await count('SELECT (COUNT(*) AS ?n) WHERE { ?s :knows ?o }')).to.equal('3');
    await ds.commitTransaction();
    expect(await count('SELECT (COUNT(*) AS ?n) WHERE { ?s :knows ?o }')).to.equal('4');
    await ds.beginTransaction('read-write');
    await ds.importData('DELETE', '<http://example.com/x> <http://example.com/knows> <http://example.com/y> .');
    expect(await count('SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }')).to.equal('5');
    await ds.rollbackTransaction();
    expect(await count('SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }')).to.equal('6');
  });

  it('stops a query at its time limit', async () => {
    const ds = await store();
    const lines: string[] = [];
    for (let i = 0; i < 300; i++) lines.push(`<http://example.com/n${i}> <http://example.com/e> <http://example.com/n${(i * 7) % 300}> .`);
    await ds.importData('ADD', lines.join('\n'));
    const e = await expectError(ds.evaluateQuery('SELECT (COUNT(*) AS ?n) WHERE { ?a :e ?b . ?c :e ?d . ?f :e ?g }', { timeLimitMs: 5 }), InterruptedError);
    expect(e.message).to.match(/time limit/);
  });

  it('lists, creates and deletes statistics', async () => {
    const ds = await store();
    expect(await ds.listStatistics()).to.deep.equal([{ name: 'column-counts', parameters: '' }]);
    await ds.deleteStatistics('column-counts');
    expect(await ds.listStatistics()).to.deep.equal([]);
    await ds.createStatistics('column-counts');
    await expectError(ds.createStatistics('column-counts'), Error);
    await expectError(ds.createStatistics('histograms'), BadRequestError);
    await ds.updateStatistics();
    await ds.updateStatistics('column-counts');
  });
});
