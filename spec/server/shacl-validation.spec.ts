import { expect } from 'chai';
import { Parser } from 'n3';
import { AccessDeniedError, BadRequestError, ConnectionFactory, type DataStoreConnection, ShaclViolationError, type ValidationResult } from '../../lib/index.js';
import { expectError, namedGraphWriter, nquadsOf, useServer } from '../helpers/server.js';

const EX = 'http://example.org/';
const SH = 'http://www.w3.org/ns/shacl#';
const SHAPES = `${EX}shapes`;
const DATA = `${EX}data`;

/** Persons need exactly one name, a string; knows points at persons. */
const SHAPES_TTL = `@prefix sh: <${SH}> . @prefix ex: <${EX}> . @prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
ex:PersonShape a sh:NodeShape ; sh:targetClass ex:Person ;
  sh:property [ sh:path ex:name ; sh:minCount 1 ; sh:maxCount 1 ; sh:datatype xsd:string ] ;
  sh:property [ sh:path ex:knows ; sh:class ex:Person ] .`;

function key(r: ValidationResult): string {
  return [r.focusNode.value, r.resultPath ?? '', r.value?.value ?? '', r.sourceConstraintComponent.replace(SH, 'sh:'), r.severity.replace(SH, 'sh:')].join(' ');
}

describe('SHACL validation (server and api)', () => {
  const env = useServer('shacl-validation');

  async function storeWith(data: string, parameters: Readonly<Record<string, string>> = {}): Promise<DataStoreConnection> {
    const ds = await env.newStore(undefined, undefined, parameters);
    await ds.importData('ADD', SHAPES_TTL, { defaultGraph: SHAPES });
    if (data !== '') await ds.importData('ADD', data);
    return ds;
  }

  describe('DataStoreConnection.validate', () => {
    it('reports the results of the default graph against a named shapes graph, in RDF terms', async () => {
      const ds = await storeWith(`@prefix ex: <${EX}> . ex:ann a ex:Person ; ex:name "Ann" ; ex:knows ex:rex . ex:bob a ex:Person . ex:rex a ex:Dog .`);
      const report = await ds.validate({ shapesGraph: SHAPES });
      expect(report.conforms).to.equal(false);
      expect(report.results.map(key).sort()).to.deep.equal([
        `${EX}ann <${EX}knows> ${EX}rex sh:ClassConstraintComponent sh:Violation`,
        `${EX}bob <${EX}name>  sh:MinCountConstraintComponent sh:Violation`,
      ]);
      const types = report.quads.filter((q) => q.predicate.value === 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type').map((q) => q.object.value);
      expect(types).to.include(`${SH}ValidationReport`);
      expect(report.quads.filter((q) => q.predicate.value === `${SH}result`)).to.have.length(2);
      expect(report.quads.every((q) => q.graph.termType === 'DefaultGraph')).to.equal(true);
    });

    it('validates a named data graph, and the default graph holds the shapes when no shapes graph is given', async () => {
      const ds = await env.newStore();
      await ds.importData('ADD', SHAPES_TTL);
      await ds.importData('ADD', `@prefix ex: <${EX}> . ex:bob a ex:Person .`, { defaultGraph: DATA });
      expect((await ds.validate()).conforms).to.equal(true);
      const report = await ds.validate({ dataGraph: DATA });
      expect(report.results.map(key)).to.deep.equal([`${EX}bob <${EX}name>  sh:MinCountConstraintComponent sh:Violation`]);
      // a graph the store never held is empty
      expect((await ds.validate({ dataGraph: `${EX}nothing` })).conforms).to.equal(true);
      expect((await ds.validate({ shapesGraph: `${EX}nothing`, dataGraph: DATA })).conforms).to.equal(true);
    });

    it('reads derived facts with factDomain all (the default) and only explicit ones with explicit', async () => {
      const ds = await storeWith(`@prefix ex: <${EX}> . ex:bob a ex:Person ; ex:label "Bob" .`);
      await ds.importData('ADD', `@prefix ex: <${EX}> . [?x, ex:name, ?n] :- [?x, ex:label, ?n] .`);
      expect((await ds.validate({ shapesGraph: SHAPES })).conforms).to.equal(true);
      const explicit = await ds.validate({ shapesGraph: SHAPES, factDomain: 'explicit' });
      expect(explicit.results.map(key)).to.deep.equal([`${EX}bob <${EX}name>  sh:MinCountConstraintComponent sh:Violation`]);
    });

    it('reads only derived facts of the data graph with factDomain derived, and the whole shapes graph', async () => {
      // ann is a person explicitly; bob is one by a rule; neither has a name
      const ds = await storeWith(`@prefix ex: <${EX}> . ex:ann a ex:Person . ex:bob ex:member ex:club .`);
      await ds.importData('ADD', `@prefix ex: <${EX}> . [?x, a, ex:Person] :- [?x, ex:member, ?c] .`);
      const focus = async (factDomain: 'explicit' | 'derived' | 'all'): Promise<string[]> => (await ds.validate({ shapesGraph: SHAPES, factDomain })).results.map((r) => r.focusNode.value).sort();
      expect(await focus('all')).to.deep.equal([`${EX}ann`, `${EX}bob`]);
      expect(await focus('explicit')).to.deep.equal([`${EX}ann`]);
      expect(await focus('derived')).to.deep.equal([`${EX}bob`]);
      // a fact both explicit and derived is in the derived domain
      await ds.importData('ADD', `@prefix ex: <${EX}> . ex:bob a ex:Person .`);
      expect(await focus('derived')).to.deep.equal([`${EX}bob`]);
    });

    it('validates the state of the open read/write transaction', async () => {
      const ds = await storeWith('');
      await ds.beginTransaction('read-write');
      await ds.importData('ADD', `@prefix ex: <${EX}> . ex:bob a ex:Person .`);
      expect((await ds.validate({ shapesGraph: SHAPES })).conforms).to.equal(false);
      await ds.rollbackTransaction();
      expect((await ds.validate({ shapesGraph: SHAPES })).conforms).to.equal(true);
    });

    it('writes the report in every RDF format', async () => {
      const ds = await storeWith(`@prefix ex: <${EX}> . ex:bob a ex:Person .`);
      const expected = (await ds.validate({ shapesGraph: SHAPES })).quads.length;
      for (const type of ['text/turtle', 'application/n-triples', 'application/n-quads', 'application/trig']) {
        const text = await ds.validateToString(type, { shapesGraph: SHAPES });
        expect(new Parser({ format: type }).parse(text), type).to.have.length(expected);
      }
      const turtle = await ds.validateToString('turtle', { shapesGraph: SHAPES });
      expect(turtle).to.contain('sh:ValidationReport').and.contain('sh:conforms false');
      expect(JSON.stringify(JSON.parse(await ds.validateToString('application/ld+json', { shapesGraph: SHAPES })))).to.contain('ValidationReport');
      expect(await ds.validateToString('application/rdf+xml', { shapesGraph: SHAPES })).to.contain('ValidationReport');
    });

    it('refuses bad options and formats', async () => {
      const ds = await storeWith('');
      expect((await expectError(ds.validate({ dataGraph: 'not an iri' }), BadRequestError)).message).to.contain('data graph');
      expect((await expectError(ds.validate({ factDomain: 'implicit' as 'all' }), BadRequestError)).message).to.contain('fact domain');
      expect((await expectError(ds.validateToString('text/csv'), BadRequestError)).message).to.contain('unsupported media type');
    });
  });

  describe('access', () => {
    async function roleConnection(store: string, grants: ReadonlyArray<readonly [string, string]>): Promise<DataStoreConnection> {
      const role = env.uniqueName(`${store}-role`);
      await env.connection.createRole(role, 'pw');
      for (const [resource, access] of grants) env.connection.grantPrivileges(role, resource.replace(/%s/g, store), access);
      const sc = env.track(await ConnectionFactory.newServerConnection(env.url, role, 'pw'));
      return env.track(sc.newDataStoreConnection(store));
    }

    it('needs read access to the data graph and the shapes graph', async () => {
      const ds = await storeWith(`@prefix ex: <${EX}> . ex:bob a ex:Person .`);
      const store = ds.dataStoreName;
      const base: Array<[string, string]> = [
        ['|datastores', 'read'],
        ['|datastores|%s', 'read'],
        ['|datastores|%s|tupletables|DefaultTriples', 'read'],
      ];
      const noShapes = await roleConnection(store, base);
      expect((await expectError(noShapes.validate({ shapesGraph: SHAPES }), AccessDeniedError)).message).to.contain('Quads');
      const otherGraph = await roleConnection(store, [...base, ['|datastores|%s|tupletables|Quads', 'read'], [`|datastores|%s|namedgraphs|<${EX}other>`, 'read']]);
      expect((await expectError(otherGraph.validate({ shapesGraph: SHAPES }), AccessDeniedError)).message).to.contain(SHAPES);
      const allowed = await roleConnection(store, [...base, ['|datastores|%s|tupletables|Quads', 'read'], [`|datastores|%s|namedgraphs|<${SHAPES}>`, 'read']]);
      expect((await allowed.validate({ shapesGraph: SHAPES })).results).to.have.length(1);
      const noDefault = await roleConnection(store, [['|datastores', 'read'], ['|datastores|%s', 'read'], ['|datastores|%s|tupletables|Quads', 'read']]);
      await expectError(noDefault.validate({ shapesGraph: SHAPES }), AccessDeniedError);
    });

    it('needs read access to every graph when the shapes hold SHACL-SPARQL constraints', async () => {
      const ds = await env.newStore();
      await ds.importData('ADD', `@prefix sh: <${SH}> . @prefix ex: <${EX}> .
        ex:S a sh:NodeShape ; sh:targetNode ex:bob ; sh:sparql [ sh:select "SELECT $this WHERE { GRAPH ?g { ?s ?p ?o } }" ] .`);
      await ds.importData('ADD', `<${EX}secret> <${EX}is> "hidden" .`, { defaultGraph: `${EX}secret` });
      const store = ds.dataStoreName;
      const base: Array<[string, string]> = [
        ['|datastores', 'read'],
        ['|datastores|%s', 'read'],
        ['|datastores|%s|tupletables|DefaultTriples', 'read'],
        ['|datastores|%s|tupletables|Quads', 'read'],
      ];
      const some = await roleConnection(store, [...base, [`|datastores|%s|namedgraphs|<${EX}public>`, 'read']]);
      expect((await expectError(some.validate(), AccessDeniedError)).message).to.contain('SHACL-SPARQL');
      const all = await roleConnection(store, [...base, ['|datastores|%s|namedgraphs|*', 'read']]);
      expect((await all.validate()).conforms).to.equal(false);
    });
  });

  describe('validation on commit', () => {
    const ON = { 'shacl-validation-on-commit': 'on', 'shacl-shapes-graph': SHAPES };

    it('refuses a commit whose result does not conform, with the report, leaving the store unchanged (HTTP 422)', async () => {
      const ds = await storeWith(`@prefix ex: <${EX}> . ex:ann a ex:Person ; ex:name "Ann" .`, ON);
      const before = await nquadsOf(ds);
      const e = await expectError(ds.importData('ADD', `@prefix ex: <${EX}> . ex:bob a ex:Person . ex:ann ex:knows ex:bob .`), ShaclViolationError);
      expect(e.status).to.equal(422);
      expect(e.message).to.contain(`${EX}bob`).and.contain('MinCount');
      expect(e.report!.conforms).to.equal(false);
      expect(e.report!.results.map(key)).to.deep.equal([`${EX}bob <${EX}name>  sh:MinCountConstraintComponent sh:Violation`]);
      expect(await nquadsOf(ds)).to.deep.equal(before);
      // a conforming change commits
      await ds.importData('ADD', `@prefix ex: <${EX}> . ex:bob a ex:Person ; ex:name "Bob" . ex:ann ex:knows ex:bob .`);
      expect(await ds.countFacts()).to.be.greaterThan(before.length);
    });

    it('checks the result of an explicit transaction at commit: a fix within it commits, a deletion that breaks a shape does not', async () => {
      const ds = await storeWith('', ON);
      await ds.beginTransaction('read-write');
      await ds.importData('ADD', `@prefix ex: <${EX}> . ex:bob a ex:Person .`);
      await ds.importData('ADD', `@prefix ex: <${EX}> . ex:bob ex:name "Bob" .`);
      await ds.commitTransaction();
      const before = await nquadsOf(ds);
      await ds.beginTransaction('read-write');
      await ds.importData('DELETE', `@prefix ex: <${EX}> . ex:bob ex:name "Bob" .`);
      await expectError(ds.commitTransaction(), ShaclViolationError);
      expect(ds.transactionType).to.equal(undefined);
      expect(await nquadsOf(ds)).to.deep.equal(before);
    });

    it('validates derived facts: a rule whose consequence violates a shape is refused', async () => {
      const ds = await storeWith(`@prefix ex: <${EX}> . ex:rex ex:owner ex:ann . ex:ann a ex:Person ; ex:name "Ann" .`, ON);
      const e = await expectError(ds.importData('ADD', `@prefix ex: <${EX}> . [?o, rdf:type, ex:Person] :- [?x, ex:owner, ?o], [?x, ex:owner, ?o] .
        [?x, rdf:type, ex:Person] :- [?x, ex:owner, ?o] .`), ShaclViolationError);
      expect(e.report!.results.map((r) => r.focusNode.value)).to.deep.equal([`${EX}rex`]);
      expect(await ds.importData('ADD', `@prefix ex: <${EX}> . ex:rex ex:name "Rex" .`)).to.have.property('errors', 0);
    });

    it('validates only the focus nodes a small transaction can affect, and everything when the shapes change', async () => {
      const ds = await storeWith(`@prefix ex: <${EX}> . ex:ann a ex:Person ; ex:name "Ann" . ex:bob a ex:Person ; ex:name "Bob" .`, ON);
      const store = env.server.dataStore(ds.dataStoreName);
      await ds.importData('ADD', `@prefix ex: <${EX}> . ex:ann ex:knows ex:bob .`);
      expect(store.lastCommitValidation?.kind).to.equal('focused');
      expect(store.lastCommitValidation?.focusNodes).to.be.within(1, 2);
      await ds.importData('ADD', `@prefix ex: <${EX}> . ex:x ex:unrelated ex:y .`);
      expect(store.lastCommitValidation?.kind).to.be.oneOf(['skipped', 'focused']);
      expect(store.lastCommitValidation?.focusNodes).to.be.at.most(2);
      await ds.importData('ADD', `@prefix sh: <${SH}> . @prefix ex: <${EX}> . ex:PersonShape sh:property [ sh:path ex:age ; sh:maxCount 1 ] .`, { defaultGraph: SHAPES });
      expect(store.lastCommitValidation?.kind).to.equal('full');
      // a shapes change that the data violates is refused
      await expectError(ds.importData('ADD', `@prefix sh: <${SH}> . @prefix ex: <${EX}> . ex:PersonShape sh:property [ sh:path ex:age ; sh:minCount 1 ] .`, { defaultGraph: SHAPES }), ShaclViolationError);
    });

    it('validates a named data graph on commit (shacl-data-graph) and leaves other graphs alone', async () => {
      const ds = await storeWith('', { ...ON, 'shacl-data-graph': DATA });
      await ds.importData('ADD', `@prefix ex: <${EX}> . ex:bob a ex:Person .`);
      await expectError(ds.importData('ADD', `@prefix ex: <${EX}> . ex:bob a ex:Person .`, { defaultGraph: DATA }), ShaclViolationError);
    });

    it('tells the report only to a role that may read the graphs it is about', async () => {
      const ds = await storeWith('', { ...ON, 'shacl-data-graph': DATA });
      const writer = await namedGraphWriter(env, ds.dataStoreName, DATA);
      const e = await expectError(writer.importData('ADD', `<${EX}carl> a <${EX}Person> .`, { defaultGraph: DATA }), ShaclViolationError);
      expect(e.report).to.equal(undefined);
      expect(e.message).not.to.contain('carl');
      expect(e.message).to.contain('may not read');
    });

    it('refuses bad values of the parameters', () => {
      expect(() => env.connection.createDataStore(env.uniqueName(), undefined, { 'shacl-validation-on-commit': 'yes' })).to.throw(BadRequestError, 'on or off');
      expect(() => env.connection.createDataStore(env.uniqueName(), undefined, { 'shacl-shapes-graph': 'shapes' })).to.throw(BadRequestError, 'IRI');
    });
  });
});
