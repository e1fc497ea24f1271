/**
 * The built-in rule set `rdfox:TBoxReasoning`: imported by IRI (never read from anywhere, so
 * the URL scheme policy does not apply), its rules go to the internal rule domain and make
 * `rdfs:subClassOf` reflexive and transitive with `owl:Thing` above every class; they are
 * maintained incrementally; deleting the IRI removes them again.
 */
import { expect } from 'chai';
import { AccessDeniedError, ConnectionFactory, type DataStoreConnection, type ImportResult, type UpdateType } from '../../lib/index.js';
import { expectError, useServer } from '../helpers/server.js';

const EX = 'http://ex/';
const OWL_THING = 'http://www.w3.org/2002/07/owl#Thing';
const TBOX = 'rdfox:TBoxReasoning';

describe('datalog/built-in rule set rdfox:TBoxReasoning', function () {
  this.timeout(20_000);
  // https is not even allowed: nothing is fetched
  const env = useServer('tbox-reasoning', { 'allowed-url-schemes-on-import': 'file' });

  async function importIris(ds: DataStoreConnection, iris: string[], update: UpdateType = 'ADD'): Promise<ImportResult> {
    const r = await ds.importData(update, { iris });
    expect(r.errors, r.text).to.equal(0);
    return r;
  }

  async function turtle(ds: DataStoreConnection, text: string, update: UpdateType = 'ADD'): Promise<void> {
    const r = await ds.importData(update, `@prefix : <${EX}> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n@prefix owl: <http://www.w3.org/2002/07/owl#> .\n${text}`, { mediaType: 'text/turtle' });
    expect(r.errors, r.text).to.equal(0);
  }

  /** The superclasses of `:c` (IRIs, sorted). */
  async function superclasses(ds: DataStoreConnection, c: string): Promise<string[]> {
    const a = await ds.evaluateQuery(`SELECT ?x WHERE { <${EX}${c}> <http://www.w3.org/2000/01/rdf-schema#subClassOf> ?x }`);
    if (a.type !== 'bindings') expect.fail('expected bindings');
    return a.rows.map((r) => String(r[0]?.value)).sort();
  }

  it("answers the manual's query: every superclass of :Child, itself and owl:Thing included", async () => {
    const ds = await env.newStore();
    await turtle(ds, ':Child rdfs:subClassOf :Person .\n:Person rdfs:subClassOf :Human .');
    const r = await importIris(ds, [TBOX]);
    expect(r.processedRules).to.equal(6);
    expect(r.changedRules).to.equal(6);
    expect(r.processedFacts).to.equal(0);
    expect(await superclasses(ds, 'Child')).to.deep.equal([`${EX}Child`, `${EX}Human`, `${EX}Person`, OWL_THING].sort());
    expect(await superclasses(ds, 'Human')).to.deep.equal([`${EX}Human`, OWL_THING].sort());
  });

  it('puts its rules in the internal domain, once, whatever else the import holds', async () => {
    const ds = await env.newStore();
    await importIris(ds, ['  rdfox:TBoxReasoning  ', '# a comment', '']);
    expect(await ds.exportDataToString('application/x.datalog')).to.not.include(':-');
    const internal = await ds.exportDataToString('application/x.datalog', { 'rule-domain': 'internal' });
    expect(internal.split('\n').filter((l) => l.includes(':-'))).to.have.length(6);
    expect(internal).to.include('owl:Thing');
    // again: nothing new
    const again = await importIris(ds, [TBOX, 'https://rdfox.com/vocabulary#TBoxReasoning']);
    expect(again.processedRules).to.equal(12);
    expect(again.changedRules).to.equal(0);
  });

  it('is maintained incrementally: classes and subclass triples come and go', async () => {
    const ds = await env.newStore();
    await importIris(ds, [TBOX]);
    await turtle(ds, ':A rdfs:subClassOf :B .\n:B rdfs:subClassOf :C .\n:D a owl:Class .');
    expect(await superclasses(ds, 'A')).to.deep.equal([`${EX}A`, `${EX}B`, `${EX}C`, OWL_THING].sort());
    expect(await superclasses(ds, 'D')).to.deep.equal([`${EX}D`, OWL_THING].sort());
    await turtle(ds, ':B rdfs:subClassOf :C .', 'DELETE');
    expect(await superclasses(ds, 'A')).to.deep.equal([`${EX}A`, `${EX}B`, OWL_THING].sort());
    expect(await superclasses(ds, 'C')).to.deep.equal([]);
  });

  it('deleting the IRI removes the rules and what only they derived', async () => {
    const ds = await env.newStore();
    await turtle(ds, ':A rdfs:subClassOf :B .');
    await importIris(ds, ['https://rdfox.com/vocabulary#TBoxReasoning']);
    expect(await superclasses(ds, 'A')).to.have.length(3);
    const r = await importIris(ds, [TBOX], 'DELETE');
    expect(r.changedRules).to.equal(6);
    expect(await ds.exportDataToString('application/x.datalog', { 'rule-domain': 'internal' })).to.not.include(':-');
    expect(await superclasses(ds, 'A')).to.deep.equal([`${EX}B`]);
    // deleting it again changes nothing
    expect((await importIris(ds, [TBOX], 'DELETE')).changedRules).to.equal(0);
  });

  it('user rules are left alone by its deletion, and it leaves the equality rules alone', async () => {
    const ds = await env.newStore(undefined, undefined, { equality: 'noUNA' });
    const before = await ds.exportDataToString('application/x.datalog', { 'rule-domain': 'internal' });
    await ds.importData('ADD', `[?x, <${EX}q>, ?y] :- [?x, <${EX}p>, ?y] .`, { mediaType: 'application/x.datalog' });
    await importIris(ds, [TBOX]);
    await importIris(ds, [TBOX], 'DELETE');
    expect(await ds.exportDataToString('application/x.datalog', { 'rule-domain': 'internal' })).to.equal(before);
    expect(await ds.exportDataToString('application/x.datalog')).to.include(`<${EX}q>`);
  });

  it('other IRIs of the rdfox scheme are refused as before, and nothing of the list is imported', async () => {
    const ds = await env.newStore();
    const e = await expectError(ds.importData('ADD', { iris: [TBOX, 'rdfox:Nothing'] }), AccessDeniedError);
    expect(e.message).to.equal("cannot import from 'rdfox:Nothing': the scheme 'rdfox' is not supported on import (only file, http, https can be allowed)");
    expect(await ds.exportDataToString('application/x.datalog', { 'rule-domain': 'internal' })).to.not.include(':-');
  });

  it('needs the privilege to write the store\'s rules', async () => {
    const name = env.uniqueName('guarded');
    env.connection.createDataStore(name);
    const grant = async (role: string, needs: readonly string[]): Promise<DataStoreConnection> => {
      await env.connection.createRole(role, 'pw');
      for (const spec of needs) env.connection.grantPrivileges(role, spec, 'read,write');
      const sc = env.track(await ConnectionFactory.newServerConnection(env.url, role, 'pw'));
      return env.track(sc.newDataStoreConnection(name));
    };
    const store = `|datastores|${name}`;
    const without = await grant(`${name}-facts`, [store, `${store}|tupletables|DefaultTriples`]);
    await expectError(without.importData('ADD', { iris: [TBOX] }), AccessDeniedError);
    const holder = await grant(`${name}-rules`, [store, `${store}|rules`]);
    expect((await holder.importData('ADD', { iris: [TBOX] })).changedRules).to.equal(6);
  });
});
