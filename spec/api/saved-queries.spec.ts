/**
 * Saved queries of the API (`DataStoreConnection.listSavedQueries`, `getSavedQuery`,
 * `saveQuery`, `deleteSavedQuery`): create and replace, the checks of names and texts, their
 * place in transactions, who may read and who may change them, and the catalogue's JSON form
 * (a catalogue written before saved queries existed stays readable; a damaged entry is
 * refused).
 */
import { expect } from 'chai';
import { AccessDeniedError, BadRequestError, ConnectionFactory, QueryCompilationError, TransactionError, UnknownResourceError } from '../../lib/index.js';
import { CorruptFileError } from '../../lib/persistence/errors.js';
import { catalogueFromJson, catalogueToJson } from '../../lib/server/store-persistence.js';
import { Catalogue } from '../../lib/storage/catalogue.js';
import { expectError, useServer } from '../helpers/server.js';
import { ADMIN_ROLE } from '../helpers/server.js';

const PEOPLE = 'PREFIX ex: <http://example.com/>\nSELECT ?p WHERE { ?p a ex:Person }';

describe('saved queries (API)', () => {
  const env = useServer('saved-queries');

  it('saves under a name (true when new, false when replaced), lists by name, reads and deletes', async () => {
    const ds = await env.newStore();
    expect(await ds.listSavedQueries()).to.deep.equal([]);
    const before = ds.dataStoreVersion;
    expect(await ds.saveQuery('people', PEOPLE)).to.equal(true);
    expect(ds.dataStoreVersion).to.equal(before + 1);
    expect(await ds.saveQuery('Ask (all)', 'ASK { ?s ?p ?o }')).to.equal(true);
    expect(await ds.saveQuery('people', `${PEOPLE} LIMIT 10`)).to.equal(false);
    // an update may be saved, and the store's prefixes may be used undeclared
    expect(await ds.saveQuery('tidy', 'DELETE WHERE { ?s rdf:type owl:Nothing }')).to.equal(true);
    const listed = await ds.listSavedQueries();
    expect(listed.map((q) => [q.name, q.text, q.savedBy])).to.deep.equal([
      ['Ask (all)', 'ASK { ?s ?p ?o }', ADMIN_ROLE],
      ['people', `${PEOPLE} LIMIT 10`, ADMIN_ROLE],
      ['tidy', 'DELETE WHERE { ?s rdf:type owl:Nothing }', ADMIN_ROLE],
    ]);
    for (const q of listed) expect(Date.parse(q.savedAt)).to.be.closeTo(Date.now(), 60_000);
    expect((await ds.getSavedQuery('people')).text).to.equal(`${PEOPLE} LIMIT 10`);
    await ds.deleteSavedQuery('tidy');
    expect((await ds.listSavedQueries()).map((q) => q.name)).to.deep.equal(['Ask (all)', 'people']);
    expect((await expectError(ds.getSavedQuery('tidy'), UnknownResourceError)).message).to.contain('"tidy"');
    await expectError(ds.deleteSavedQuery('tidy'), UnknownResourceError);
    // facts are untouched
    expect(await ds.countFacts()).to.equal(0);
  });

  it('refuses invalid names and texts that do not parse (with the line and column), changing nothing', async () => {
    const ds = await env.newStore();
    for (const name of ['', ' x', 'x ', 'a/b', 'new\nline', '-x', 'x'.repeat(101)]) {
      await expectError(ds.saveQuery(name, PEOPLE), BadRequestError);
    }
    expect(await ds.saveQuery('ünïcode 2', PEOPLE)).to.equal(true);
    expect(await ds.saveQuery('x'.repeat(100), PEOPLE)).to.equal(true);
    const syntax = await expectError(ds.saveQuery('broken', 'SELECT ?s WHERE {\n  ?s ?p ?o .\n  FILTER(?s = \n}'), QueryCompilationError);
    expect(syntax.message).to.contain('line 4, column 1');
    await expectError(ds.saveQuery('unknown prefix', 'SELECT ?s WHERE { ?s a nope:Thing }'), QueryCompilationError);
    await expectError(ds.saveQuery('empty', ' \n\t'), BadRequestError);
    expect((await ds.listSavedQueries()).map((q) => q.name)).to.deep.equal(['x'.repeat(100), 'ünïcode 2']);
  });

  it('joins the open read/write transaction (a rollback drops the save); a read-only transaction refuses it', async () => {
    const ds = await env.newStore();
    await ds.beginTransaction('read-write');
    await ds.saveQuery('draft', PEOPLE);
    expect((await ds.listSavedQueries()).map((q) => q.name)).to.deep.equal(['draft']);
    const other = env.track(env.connection.newDataStoreConnection(ds.dataStoreName));
    expect(await other.listSavedQueries()).to.deep.equal([]);
    await ds.rollbackTransaction();
    expect(await ds.listSavedQueries()).to.deep.equal([]);
    await ds.beginTransaction('read-write');
    await ds.saveQuery('kept', PEOPLE);
    await ds.commitTransaction();
    expect((await other.listSavedQueries()).map((q) => q.name)).to.deep.equal(['kept']);
    await ds.beginTransaction('read-only');
    await expectError(ds.saveQuery('nope', PEOPLE), TransactionError);
    expect((await ds.listSavedQueries()).map((q) => q.name)).to.deep.equal(['kept']);
    await ds.rollbackTransaction();
  });

  it('are shared with the roles that may read the store: reading needs read access, saving and deleting write access', async () => {
    const ds = await env.newStore();
    const store = ds.dataStoreName;
    await ds.saveQuery('shared', PEOPLE);
    const sc = env.connection;
    await sc.createRole(`${store}-reader`, 'pw');
    sc.grantPrivileges(`${store}-reader`, `|datastores|${store}`, 'read');
    await sc.createRole(`${store}-writer`, 'pw');
    sc.grantPrivileges(`${store}-writer`, `|datastores|${store}`, 'read,write');
    await sc.createRole(`${store}-stranger`, 'pw');

    const reader = env.track(await ConnectionFactory.newDataStoreConnection(env.url, store, `${store}-reader`, 'pw'));
    expect((await reader.listSavedQueries()).map((q) => [q.name, q.savedBy])).to.deep.equal([['shared', ADMIN_ROLE]]);
    expect((await reader.getSavedQuery('shared')).text).to.equal(PEOPLE);
    await expectError(reader.saveQuery('mine', PEOPLE), AccessDeniedError);
    await expectError(reader.saveQuery('shared', 'ASK {}'), AccessDeniedError);
    await expectError(reader.deleteSavedQuery('shared'), AccessDeniedError);

    const writer = env.track(await ConnectionFactory.newDataStoreConnection(env.url, store, `${store}-writer`, 'pw'));
    expect(await writer.saveQuery('shared', 'ASK {}')).to.equal(false);
    expect((await ds.getSavedQuery('shared')).savedBy).to.equal(`${store}-writer`);

    await expectError(ConnectionFactory.newDataStoreConnection(env.url, store, `${store}-stranger`, 'pw'), AccessDeniedError);
    // a connection whose role loses read access can no longer list them
    sc.revokePrivileges(`${store}-reader`, `|datastores|${store}`, 'read');
    await expectError(reader.listSavedQueries(), AccessDeniedError);
  });
});

describe('saved queries in the catalogue JSON', () => {
  const where = { path: '/x/store.qlog', offset: 64 };

  it('writes them only when there are some, and reads them back in order', () => {
    const empty = catalogueToJson(Catalogue(), 1) as Record<string, unknown>;
    expect(empty).to.not.have.property('savedQueries');
    const withQueries = catalogueFromJson({ ...empty, savedQueries: [{ name: 'b', text: 'ASK {}', savedBy: 'r', savedAt: '2026-01-02T03:04:05.000Z' }, { name: 'a', text: 'SELECT * {}', savedBy: 's', savedAt: '2026-01-02T03:04:06.000Z' }] }, where).catalogue;
    expect([...withQueries.savedQueries.keys()]).to.deep.equal(['b', 'a']);
    expect(catalogueToJson(withQueries, 1)).to.deep.include({ savedQueries: [...withQueries.savedQueries.values()] });
  });

  it('reads a catalogue written before saved queries existed as having none', () => {
    const old = { nextTableId: 1, tables: [], prefixes: [['ex:', 'http://example.com/']], baseIRI: 'http://b/', rules: [], commitProcedure: '', axioms: [], statistics: [['column-counts', {}]] };
    const { catalogue } = catalogueFromJson(old, where);
    expect(catalogue.savedQueries.size).to.equal(0);
    expect(catalogue.prefixes.get('ex:')).to.equal('http://example.com/');
  });

  it('refuses damaged saved queries, naming the file and offset', () => {
    const base = catalogueToJson(Catalogue(), 1) as Record<string, unknown>;
    const good = { name: 'a', text: 'ASK {}', savedBy: 'r', savedAt: '2026-01-02T03:04:05.000Z' };
    for (const savedQueries of [{}, ['x'], [{ ...good, text: 3 }], [{ name: 'a', text: 'ASK {}', savedBy: 'r' }], [good, good]]) {
      let error: unknown;
      try {
        catalogueFromJson({ ...base, savedQueries }, where);
      } catch (e) {
        error = e;
      }
      expect(error, JSON.stringify(savedQueries)).to.be.instanceOf(CorruptFileError);
      expect((error as Error).message).to.contain('/x/store.qlog').and.to.contain('saved quer');
    }
  });
});
