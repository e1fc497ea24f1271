/**
 * Triple term patterns (RDF 1.2 `<<( s p o )>>`) in rules: the provenance rule over reified
 * statements, patterns bound by their triple term or by their parts, nested patterns, heads
 * that build triple terms, NOT and AGGREGATE with patterns, incremental maintenance, and the
 * rules refused (patterns in SKOLEM atoms, unsafe head patterns).
 */
import { expect } from 'chai';
import { type DataStoreConnection, ImportError } from '../../lib/index.js';
import { factsWithStatus } from '../helpers/facts.js';
import { expectError, useServer } from '../helpers/server.js';

const EX = 'http://ex/';
const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
const PREFIX = `@prefix : <${EX}> .\n@prefix rdf: <${RDF}> .\n`;
const DATALOG = { mediaType: 'application/x.datalog' } as const;

const PROVENANCE = '[?s, :assertedBy, ?who] :- [?r, rdf:reifies, <<( ?s ?p ?o )>>], [?r, :source, ?who] .\n';

/** Imports Datalog text (with the prefixes), asserting it has no errors. */
async function datalog(ds: DataStoreConnection, text: string, update: 'ADD' | 'DELETE' = 'ADD'): Promise<void> {
  const r = await ds.importData(update, PREFIX + text, DATALOG);
  expect(r.errors, r.text).to.equal(0);
}

describe('datalog/triple term patterns', function () {
  this.timeout(20_000);
  const env = useServer('datalog-triple-terms');

  /** The facts of the default graph with their status (keys of the dictionary, `ex:` shortened). */
  function triples(name: string): string[] {
    return factsWithStatus(env.server, name, 'DefaultTriples').map((l) => l.replaceAll(`<${EX}`, '<:').replaceAll(`<${RDF}`, '<rdf:'));
  }

  async function store(): Promise<{ ds: DataStoreConnection; name: string }> {
    const name = env.uniqueName('tt');
    return { ds: await env.newStore(name), name };
  }

  it('derives the provenance of reified statements, and retracts it incrementally', async () => {
    const { ds, name } = await store();
    await datalog(ds, PROVENANCE + '[:r1, rdf:reifies, <<( :a :p :b )>>] . [:r1, :source, :wiki] .\n[:r2, rdf:reifies, <<( :c :q "x"@en--ltr )>>] . [:r2, :source, :news] .\n[:r3, :source, :blog] .');
    expect(triples(name).filter((l) => l.includes('assertedBy'))).to.deep.equal(['DefaultTriples(<:a> <:assertedBy> <:wiki>) D', 'DefaultTriples(<:c> <:assertedBy> <:news>) D']);
    await datalog(ds, '[:r1, rdf:reifies, <<( :a :p :b )>>] .', 'DELETE');
    expect(triples(name).filter((l) => l.includes('assertedBy'))).to.deep.equal(['DefaultTriples(<:c> <:assertedBy> <:news>) D']);
    await datalog(ds, '[:r3, rdf:reifies, <<( :a :p :b )>>] .');
    expect(triples(name).filter((l) => l.includes('assertedBy'))).to.deep.equal(['DefaultTriples(<:a> <:assertedBy> <:blog>) D', 'DefaultTriples(<:c> <:assertedBy> <:news>) D']);
  });

  it('matches a pattern with bound parts, constants and repeated variables', async () => {
    const { ds, name } = await store();
    await datalog(
      ds,
      '[:r1, rdf:reifies, <<( :a :p :a )>>] . [:r2, rdf:reifies, <<( :a :p :b )>>] . [:r3, rdf:reifies, <<( :b :q :a )>>] . [:a, :likes, :b] .\n' +
        // parts bound by another atom: the triple term is found by its parts
        '[?r, :aboutLiked, ?x] :- [?x, :likes, ?y], [?r, rdf:reifies, <<( ?x :p ?y )>>] .\n' +
        '[?r, :reflexive, ?x] :- [?r, rdf:reifies, <<( ?x ?p ?x )>>] .\n' +
        '[?r, :withQ, ?o] :- [?r, rdf:reifies, <<( ?s :q ?o )>>] .\n',
    );
    const derived = triples(name).filter((l) => / D$/.test(l));
    expect(derived).to.deep.equal([
      'DefaultTriples(<:r1> <:reflexive> <:a>) D',
      'DefaultTriples(<:r2> <:aboutLiked> <:a>) D',
      'DefaultTriples(<:r3> <:withQ> <:a>) D',
    ]);
  });

  it('builds triple terms in heads, nested ones too, and reads them back', async () => {
    const { ds, name } = await store();
    await datalog(
      ds,
      '[:a, :p, :b] . [:c, :p, "x"@en--rtl] .\n' +
        '[?s, :stated, <<( ?s :p ?o )>>] :- [?s, :p, ?o] .\n' +
        '[?s, :nested, <<( :doc :says <<( ?s :p ?o )>> )>>] :- [?s, :p, ?o] .\n' +
        '[?o, :objectOf, ?s] :- [?s, :nested, <<( :doc :says <<( ?s ?p ?o )>> )>>] .\n',
    );
    const lines = triples(name);
    expect(lines).to.include('DefaultTriples(<:a> <:stated> (<:a> <:p> <:b>)) D');
    expect(lines).to.include('DefaultTriples(<:c> <:stated> (<:c> <:p> "x"@en--rtl)) D');
    expect(lines).to.include('DefaultTriples(<:a> <:nested> (<:doc> <:says> (<:a> <:p> <:b>))) D');
    expect(lines).to.include('DefaultTriples(<:b> <:objectOf> <:a>) D');
    expect(lines).to.include('DefaultTriples("x"@en--rtl <:objectOf> <:c>) D');
    await datalog(ds, '[:a, :p, :b] .', 'DELETE');
    expect(triples(name).filter((l) => l.includes('<:a>'))).to.deep.equal([]);
  });

  it('derives nothing from a head triple term whose subject is a literal', async () => {
    const { ds, name } = await store();
    await datalog(ds, '[:a, :p, "lit"] . [:b, :p, :c] .\n[?o, :about, <<( ?o :p ?s )>>] :- [?s, :p, ?o] .\n');
    expect(triples(name).filter((l) => / D$/.test(l))).to.deep.equal(['DefaultTriples(<:c> <:about> (<:c> <:p> <:b>)) D']);
  });

  it('negates and aggregates over patterns', async () => {
    const { ds, name } = await store();
    await datalog(
      ds,
      '[:r1, rdf:reifies, <<( :a :p :b )>>] . [:r2, rdf:reifies, <<( :a :p :c )>>] . [:r3, rdf:reifies, <<( :d :q :c )>>] . [:a, :p, :b] .\n' +
        // a reifier of no asserted :p statement
        '[?r, :unasserted, true] :- [?r, rdf:reifies, ?t], NOT EXISTS ?s, ?o IN ([?r, rdf:reifies, <<( ?s :p ?o )>>], [?s, :p, ?o]) .\n' +
        '[?s, :reified, ?n] :- AGGREGATE([?r, rdf:reifies, <<( ?s ?p ?o )>>] ON ?s BIND COUNT(?r) AS ?n) .\n',
    );
    const derived = triples(name).filter((l) => / D$/.test(l));
    expect(derived.filter((l) => l.includes('unasserted'))).to.deep.equal([
      `DefaultTriples(<:r2> <:unasserted> "true"^^<http://www.w3.org/2001/XMLSchema#boolean>) D`,
      `DefaultTriples(<:r3> <:unasserted> "true"^^<http://www.w3.org/2001/XMLSchema#boolean>) D`,
    ]);
    expect(derived.filter((l) => l.includes('reified'))).to.deep.equal([
      `DefaultTriples(<:a> <:reified> "2"^^<http://www.w3.org/2001/XMLSchema#integer>) D`,
      `DefaultTriples(<:d> <:reified> "1"^^<http://www.w3.org/2001/XMLSchema#integer>) D`,
    ]);
    await datalog(ds, '[:a, :p, :c] .');
    expect(triples(name).filter((l) => l.includes('unasserted'))).to.deep.equal([`DefaultTriples(<:r3> <:unasserted> "true"^^<http://www.w3.org/2001/XMLSchema#boolean>) D`]);
  });

  it('keeps the rule text with its patterns (export of rules, written as they were read)', async () => {
    const { ds } = await store();
    await datalog(ds, PROVENANCE);
    const text = await ds.exportDataToString('application/x.datalog');
    expect(text).to.include('<<( ?s ?p ?o )>>');
  });

  it('refuses patterns in SKOLEM atoms and head patterns with unbound variables, with positions', async () => {
    const { ds } = await store();
    const skolem = await expectError(ds.importData('ADD', PREFIX + '[?r, :n, ?b] :- [?r, :q, ?s], SKOLEM(<<( ?s :p :o )>>, ?b) .', DATALOG), ImportError);
    expect(skolem.message).to.match(/line 3: column 31: .*triple term pattern \(<<\( \?s <http:\/\/ex\/p> <http:\/\/ex\/o> \)>>\) cannot be an argument of SKOLEM/);
    const unsafe = await expectError(ds.importData('ADD', PREFIX + '[?r, :n, <<( ?r :p ?x )>>] :- [?r, :q, :a] .', DATALOG), ImportError);
    expect(unsafe.message).to.match(/line 3: column 1: head variable \?x is not bound by the rule body/);
  });
});
