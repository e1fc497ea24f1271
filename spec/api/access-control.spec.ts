/**
 * The privilege matrix of the in-memory API: for every operation of ServerConnection and
 * DataStoreConnection, a role is allowed exactly when it holds every privilege the operation
 * needs, directly or through a membership; without any one of them the call fails with
 * AccessDeniedError and changes nothing (facts, rules, prefixes, tuple tables, stores and
 * roles are compared before and after).
 */
import { expect } from 'chai';
import { AccessDeniedError, ConnectionFactory, type DataStoreConnection, type ServerConnection } from '../../lib/index.js';
import { grantedRole, stateOf } from '../helpers/access.js';
import { rejectionOf, useServer } from '../helpers/server.js';

type Need = readonly [specifier: string, access: string];

interface Operation {
  /** What the call is. */
  readonly name: string;
  /** The privileges it needs (`%s` stands for the name of the prepared store). */
  readonly needs: readonly Need[];
  /** Whether it fails for another reason even when allowed (it must then not fail with AccessDeniedError). */
  readonly failsAnyway?: boolean;
  /** Runs it as the role, on the prepared store. */
  run(sc: ServerConnection, store: string, role: string): Promise<unknown>;
}

const onStore = (fn: (ds: DataStoreConnection, store: string) => Promise<unknown>) =>
  async (sc: ServerConnection, store: string): Promise<unknown> => {
    const ds = sc.newDataStoreConnection(store);
    try {
      const result = await fn(ds, store);
      // an import reports errors in its result: the matrix wants it to have worked
      const report = result as { errors?: number; text?: string } | undefined;
      if (typeof report === 'object' && report !== null && (report.errors ?? 0) > 0) throw new Error(report.text);
      return result;
    } finally {
      ds.close();
    }
  };

const S = '|datastores|%s';
const STORE_READ: Need = [S, 'read'];
const table = (t: string): string => `${S}|tupletables|${t}`;
const G = '<http://example.com/g>';

const OPERATIONS: readonly Operation[] = [
  // server
  { name: 'getServerProperties', needs: [['|', 'read']], run: (sc) => Promise.resolve(sc.getServerProperties()) },
  { name: 'setServerProperty', needs: [['|', 'write']], run: (sc) => Promise.resolve(sc.setServerProperty('num-threads', 2)) },
  { name: 'getComponentInfo', needs: [['|', 'read']], run: (sc) => Promise.resolve(sc.getComponentInfo()) },
  { name: 'listDataStores', needs: [['|datastores', 'read']], run: (sc) => Promise.resolve(sc.listDataStores()) },
  { name: 'createDataStore', needs: [['|datastores', 'write']], run: (sc, store) => Promise.resolve(sc.createDataStore(`${store}-new`)) },
  { name: 'deleteDataStore', needs: [['|datastores', 'write'], [S, 'write']], run: (sc, store) => Promise.resolve(sc.deleteDataStore(store)) },
  { name: 'newDataStoreConnection', needs: [STORE_READ], run: (sc, store) => Promise.resolve(sc.newDataStoreConnection(store).close()) },
  // roles
  { name: 'listRoles', needs: [['|roles', 'read']], run: (sc) => Promise.resolve(sc.listRoles()) },
  { name: 'createRole', needs: [['|roles', 'write']], run: (sc, store) => sc.createRole(`${store}-created`, 'pw') },
  { name: 'deleteRole', needs: [['|roles', 'write'], ['|roles|%s-other', 'write']], run: (sc, store) => Promise.resolve(sc.deleteRole(`${store}-other`)) },
  { name: 'describeRole', needs: [['|roles|%s-other', 'read']], run: (sc, store) => Promise.resolve(sc.describeRole(`${store}-other`)) },
  { name: 'listPrivileges', needs: [['|roles|%s-other', 'read']], run: (sc, store) => Promise.resolve(sc.listPrivileges(`${store}-other`)) },
  { name: 'listRoleMemberships', needs: [['|roles|%s-other', 'read']], run: (sc, store) => Promise.resolve(sc.listRoleMemberships(`${store}-other`)) },
  { name: 'listRoleMembers', needs: [['|roles|%s-other', 'read']], run: (sc, store) => Promise.resolve(sc.listRoleMembers(`${store}-other`)) },
  {
    name: 'grantPrivileges',
    needs: [[S, 'grant'], ['|roles|%s-other', 'write']],
    run: (sc, store) => Promise.resolve(sc.grantPrivileges(`${store}-other`, `|datastores|${store}`, 'read')),
  },
  {
    name: 'revokePrivileges',
    needs: [['|datastores', 'grant'], ['|roles|%s-other', 'write']],
    run: (sc, store) => Promise.resolve(sc.revokePrivileges(`${store}-other`, '|datastores', 'read')),
  },
  { name: 'grantRole', needs: [['|roles|%s-group2', 'grant'], ['|roles|%s-other', 'write']], run: (sc, store) => Promise.resolve(sc.grantRole(`${store}-other`, `${store}-group2`)) },
  { name: 'revokeRole', needs: [['|roles|%s-group2', 'grant'], ['|roles|%s-other', 'write']], run: (sc, store) => Promise.resolve(sc.revokeRole(`${store}-other`, `${store}-group2`)) },
  // store: reading
  { name: 'evaluateQuery (default graph)', needs: [STORE_READ, [table('DefaultTriples'), 'read']], run: onStore((ds) => ds.evaluateQuery('SELECT * WHERE { ?s ?p ?o }')) },
  { name: 'evaluateQuery (named graphs)', needs: [STORE_READ, [table('Quads'), 'read']], run: onStore((ds) => ds.evaluateQuery('SELECT * WHERE { GRAPH ?g { ?s ?p ?o } }')) },
  { name: 'countFacts', needs: [STORE_READ, [table('DefaultTriples'), 'read'], [table('Quads'), 'read']], run: onStore((ds) => ds.countFacts()) },
  { name: 'exportData (facts)', needs: [STORE_READ, [table('DefaultTriples'), 'read'], [table('Quads'), 'read']], run: onStore((ds) => ds.exportDataToString('application/n-quads')) },
  { name: 'exportData (rules)', needs: [STORE_READ, [`${S}|rules`, 'read']], run: onStore((ds) => ds.exportDataToString('application/x.datalog')) },
  { name: 'getPrefixes', needs: [STORE_READ], run: onStore((ds) => ds.getPrefixes()) },
  { name: 'getDataStoreProperties', needs: [STORE_READ], run: onStore((ds) => ds.getDataStoreProperties()) },
  { name: 'listTupleTables', needs: [STORE_READ, [`${S}|tupletables`, 'read']], run: onStore((ds) => ds.listTupleTables()) },
  { name: 'describeTupleTable', needs: [STORE_READ, [table('T'), 'read']], run: onStore((ds) => ds.describeTupleTable('T')) },
  { name: 'listAxioms', needs: [STORE_READ, [`${S}|axioms`, 'read']], run: onStore((ds) => ds.listAxioms()) },
  { name: 'getCommitProcedure', needs: [STORE_READ, [`${S}|commitprocedure`, 'read']], run: onStore((ds) => ds.getCommitProcedure()) },
  { name: 'listDataSources', needs: [STORE_READ, [`${S}|datasources`, 'read']], run: onStore((ds) => ds.listDataSources()) },
  { name: 'beginTransaction', needs: [STORE_READ], run: onStore((ds) => ds.beginTransaction('read-only')) },
  // store: writing
  { name: 'importData (triples)', needs: [STORE_READ, [table('DefaultTriples'), 'write']], run: onStore((ds) => ds.importData('ADD', '<http://example.com/n> <http://example.com/p> 1 .', { mediaType: 'text/turtle' })) },
  {
    name: 'importData (a named graph)',
    needs: [STORE_READ, [table('Quads'), 'write'], [`${S}|namedgraphs|${G}`, 'write']],
    run: onStore((ds) => ds.importData('ADD', `<http://example.com/n> <http://example.com/p> "1" ${G} .`, { mediaType: 'application/n-quads' })),
  },
  { name: 'importData (rules)', needs: [STORE_READ, [`${S}|rules`, 'write'], [table('DefaultTriples'), 'read']], run: onStore((ds) => ds.importData('ADD', '[?x, <http://example.com/q>, ?y] :- [?x, <http://example.com/r>, ?y] .', { mediaType: 'application/x.datalog' })) },
  { name: 'importData (DELETE)', needs: [STORE_READ, [table('DefaultTriples'), 'write']], run: onStore((ds) => ds.importData('DELETE', '<http://example.com/a> <http://example.com/p> <http://example.com/b> .')) },
  { name: 'evaluateUpdate', needs: [STORE_READ, [table('DefaultTriples'), 'write']], run: onStore((ds) => ds.evaluateUpdate('INSERT DATA { <http://example.com/u> <http://example.com/p> 2 }')) },
  {
    name: 'evaluateUpdate (GRAPH)',
    needs: [STORE_READ, [table('Quads'), 'write'], [`${S}|namedgraphs|${G}`, 'write']],
    run: onStore((ds) => ds.evaluateUpdate(`INSERT DATA { GRAPH ${G} { <http://example.com/u> <http://example.com/p> 2 } }`)),
  },
  { name: 'setPrefix', needs: [STORE_READ, [S, 'write']], run: onStore((ds) => ds.setPrefix('new:', 'http://example.com/new#')) },
  { name: 'unsetPrefix', needs: [STORE_READ, [S, 'write']], run: onStore((ds) => ds.unsetPrefix('ex:')) },
  { name: 'setBaseIRI', needs: [STORE_READ, [S, 'write']], run: onStore((ds) => ds.setBaseIRI('http://example.com/base/')) },
  { name: 'deleteStatistics', needs: [STORE_READ, [S, 'write']], run: onStore((ds) => ds.deleteStatistics('column-counts')) },
  { name: 'compact', needs: [STORE_READ, [S, 'write']], run: onStore((ds) => ds.compact()) },
  { name: 'recomputeMaterialization', needs: [STORE_READ, [S, 'write']], run: onStore((ds) => ds.recomputeMaterialization()) },
  { name: 'setCommitProcedure', needs: [STORE_READ, [`${S}|commitprocedure`, 'write']], run: onStore((ds) => ds.setCommitProcedure('INSERT { ?s a <http://example.com/C> } WHERE { ?s ?p ?o }')) },
  { name: 'importAxiomsFromTriples', needs: [STORE_READ, [`${S}|axioms`, 'write'], [table('DefaultTriples'), 'read']], run: onStore((ds) => ds.importAxiomsFromTriples()) },
  { name: 'createTupleTable', needs: [STORE_READ, [`${S}|tupletables`, 'write']], run: onStore((ds) => ds.createTupleTable('U', { arity: '2' })) },
  { name: 'deleteTupleTable', needs: [STORE_READ, [`${S}|tupletables`, 'write'], [table('T'), 'write']], run: onStore((ds) => ds.deleteTupleTable('T')) },
  { name: 'registerDataSource', failsAnyway: true, needs: [STORE_READ, [`${S}|datasources`, 'write']], run: onStore((ds) => ds.registerDataSource('src', 'delimitedFile', { delimiter: ',' })) }, // no file: fails after the privilege check
  {
    name: 'clear',
    needs: [STORE_READ, [S, 'write'], [`${S}|rules`, 'write'], [`${S}|axioms`, 'write'], [table('DefaultTriples'), 'write'], [table('Quads'), 'write'], [table('T'), 'write'], [`${S}|namedgraphs|*`, 'write']],
    run: onStore((ds) => ds.clear()),
  },
];

describe('access control of the in-memory API (privilege matrix)', () => {
  const env = useServer('access-control');
  let hash: string;
  let counter = 0;

  before(async () => {
    await env.connection.createRole('hash-source', 'pw');
    hash = env.connection.describeRole('hash-source').passwordHash!;
  });

  /** A store with a fact, a fact in a named graph, a rule, a prefix and a tuple table, and two roles to act on. */
  async function prepare(): Promise<string> {
    const store = `ac-${++counter}`;
    const admin = env.connection;
    admin.createDataStore(store);
    const ds = env.track(admin.newDataStoreConnection(store));
    await ds.setPrefix('ex:', 'http://example.com/');
    await ds.importData('ADD', `<http://example.com/a> <http://example.com/p> <http://example.com/b> .\n<http://example.com/a> <http://example.com/r> <http://example.com/c> ${G} .`, { mediaType: 'application/n-quads' });
    await ds.importData('ADD', '[?x, ex:q2, ?y] :- [?x, ex:p, ?y] .', { mediaType: 'application/x.datalog' });
    await ds.createTupleTable('T', { arity: '2' });
    for (const r of ['other', 'group2']) await admin.createRole(`${store}-${r}`, hash, 'password-hash');
    admin.grantPrivileges(`${store}-other`, '|datastores', 'read');
    admin.grantRole(`${store}-other`, `${store}-group2`);
    return store;
  }

  const state = (store: string): Promise<string> => stateOf(env.connection, store);

  /** A role holding `needs` (directly, or through a group when `viaGroup`), connected. */
  async function roleWith(store: string, needs: readonly Need[], viaGroup: boolean): Promise<{ sc: ServerConnection; role: string }> {
    const role = `${store}-actor-${++counter}`;
    await grantedRole(env.connection, role, hash, store, needs, viaGroup);
    return { sc: env.track(await ConnectionFactory.newServerConnection(env.url, role, 'pw')), role };
  }

  describe('named graphs', () => {
    const H = '<http://example.com/h>';
    async function reader(store: string, extra: readonly Need[] = []): Promise<DataStoreConnection> {
      const { sc } = await roleWith(store, [STORE_READ, [table('DefaultTriples'), 'read'], [table('Quads'), 'read'], [`${S}|namedgraphs|${G}`, 'read'], ...extra], false);
      return env.track(sc.newDataStoreConnection(store));
    }

    it('hides the graphs a role may not read from queries, exports and counts', async () => {
      const store = await prepare();
      const admin = env.track(env.connection.newDataStoreConnection(store));
      await admin.importData('ADD', `<http://example.com/x> <http://example.com/p> "secret" ${H} .`, { mediaType: 'application/n-quads' });
      const ds = await reader(store);
      const answer = await ds.evaluateQuery('SELECT ?g ?o WHERE { GRAPH ?g { ?s ?p ?o } }');
      expect(answer.type === 'bindings' && answer.rows.map((r) => r[0]?.value)).to.deep.equal(['http://example.com/g']);
      const named = await ds.evaluateQuery(`ASK { GRAPH ${H} { ?s ?p ?o } }`);
      expect(named.type === 'boolean' && named.value).to.equal(false);
      const from = await ds.evaluateQuery(`SELECT ?o FROM ${H} WHERE { ?s ?p ?o }`);
      expect(from.type === 'bindings' && from.rows.length).to.equal(0);
      expect(await ds.exportDataToString('application/n-quads')).not.to.contain('secret');
      // the default graph's fact and the fact a rule derives from it, and the fact of the readable graph
      expect(await ds.countFacts()).to.equal(3);
      expect(await admin.countFacts()).to.equal(4);
    });

    it('lets an update read only readable graphs and write only writable ones', async () => {
      const store = await prepare();
      const admin = env.track(env.connection.newDataStoreConnection(store));
      await admin.importData('ADD', `<http://example.com/x> <http://example.com/p> "secret" ${H} .`, { mediaType: 'application/n-quads' });
      const ds = await reader(store, [[table('DefaultTriples'), 'write'], [table('Quads'), 'write'], [`${S}|namedgraphs|${G}`, 'write']]);
      // the unreadable graph matches nothing, so nothing is copied
      await ds.evaluateUpdate(`INSERT { GRAPH ${G} { ?s ?p ?o } } WHERE { GRAPH ${H} { ?s ?p ?o } }`);
      await ds.evaluateUpdate(`COPY ${H} TO ${G}`);
      expect(await admin.exportDataToString('application/n-quads')).to.contain(`"secret" ${H}`);
      expect((await admin.exportDataToString('application/n-quads')).match(/secret/g)).to.have.length(1);
      // writing into a graph the role may not write fails and changes nothing
      const before = await state(store);
      const error = await rejectionOf(ds.evaluateUpdate(`INSERT DATA { GRAPH ${G} { <http://example.com/ok> <http://example.com/p> 1 } GRAPH ${H} { <http://example.com/no> <http://example.com/p> 1 } }`));
      expect(error).to.be.instanceOf(AccessDeniedError);
      expect(error.message).to.contain(`|namedgraphs|${H}`);
      expect(await state(store)).to.equal(before);
    });

    it('hides them from tuple table atoms over Quads, in queries and in the WHERE of updates', async () => {
      const store = await prepare();
      const admin = env.track(env.connection.newDataStoreConnection(store));
      await admin.importData('ADD', `<http://example.com/x> <http://example.com/p> "secret" ${H} .`, { mediaType: 'application/n-quads' });
      const ds = await reader(store, [[table('DefaultTriples'), 'write'], [table('Quads'), 'write'], [`${S}|namedgraphs|${G}`, 'write']]);
      const answer = await ds.evaluateQuery('SELECT ?s ?o ?g WHERE { TT Quads { ?s ?p ?o ?g } }');
      expect(answer.type === 'bindings' && answer.rows.map((r) => r[2]?.value)).to.deep.equal(['http://example.com/g']);
      const bound = await ds.evaluateQuery(`ASK { TT Quads { ?s ?p ?o ${H} } }`);
      expect(bound.type === 'boolean' && bound.value).to.equal(false);
      await ds.evaluateUpdate(`INSERT { GRAPH ${G} { <http://example.com/copy> <http://example.com/p> ?o } } WHERE { TT Quads { ?s ?p ?o ?g } }`);
      const all = await admin.exportDataToString('application/n-quads');
      expect(all.match(/secret/g)).to.have.length(1);
      expect(all).to.contain(`<http://example.com/copy> <http://example.com/p> <http://example.com/c> ${G}`);
    });

    it('refuses rules whose bodies read graphs the role may not read', async () => {
      const store = await prepare();
      const ds = await reader(store, [[`${S}|rules`, 'write'], [table('DefaultTriples'), 'write']]);
      const before = await state(store);
      const refused = [
        `[?s, <http://example.com/leak>, ?o] :- [?s, ?p, ?o] ${H} .`,
        '[?s, <http://example.com/leak>, ?o] :- [?s, ?p, ?o] ?g .',
        `[?s, <http://example.com/leak>, ?o] :- [?s, <http://example.com/p>, ?o], NOT [?o, ?p2, ?x] ${H} .`,
        `[?s, <http://example.com/leak>, ?n] :- AGGREGATE([?s, ?p, ?o] ${H} ON ?s BIND COUNT(?o) AS ?n) .`,
        '[?s, <http://example.com/leak>, ?o] :- [?s, ?p, ?o] <http://example.com/not-yet> .',
      ];
      for (const rule of refused) {
        const error = await rejectionOf(ds.importData('ADD', rule, { mediaType: 'application/x.datalog' }));
        expect(error, rule).to.be.instanceOf(AccessDeniedError);
      }
      expect(await state(store)).to.equal(before);
      await ds.importData('ADD', `[?s, <http://example.com/seen>, ?o] :- [?s, ?p, ?o] ${G} .`, { mediaType: 'application/x.datalog' });
      const answer = await ds.evaluateQuery('SELECT ?o WHERE { ?s <http://example.com/seen> ?o }');
      expect(answer.type === 'bindings' && answer.rows.map((r) => r[0]?.value)).to.deep.equal(['http://example.com/c']);
    });

    it('applies a revoked privilege to the next call of an open connection', async () => {
      const store = await prepare();
      const ds = await reader(store);
      expect(await ds.countFacts()).to.equal(3);
      const role = (ds as unknown as { roleName: string }).roleName;
      env.connection.revokePrivileges(role, `|datastores|${store}|tupletables|Quads`, 'read');
      expect(await rejectionOf(ds.countFacts())).to.be.instanceOf(AccessDeniedError);
      env.connection.revokePrivileges(role, `|datastores|${store}`, 'read');
      expect(await rejectionOf(ds.getPrefixes())).to.be.instanceOf(AccessDeniedError);
      env.connection.deleteRole(role);
      expect((await rejectionOf(ds.getPrefixes())).message).to.contain('was deleted');
    });
  });

  it('refuses a call before it waits for the write lock', async () => {
    const store = await prepare();
    const holder = env.track(env.connection.newDataStoreConnection(store));
    await holder.beginTransaction('read-write');
    try {
      const { sc } = await roleWith(store, [STORE_READ], false);
      const ds = env.track(sc.newDataStoreConnection(store));
      for (const call of [() => ds.setPrefix('z:', 'http://example.com/z#'), () => ds.clear(), () => ds.setCommitProcedure('CLEAR DEFAULT'), () => ds.deleteStatistics('column-counts')]) {
        expect(await rejectionOf(call)).to.be.instanceOf(AccessDeniedError);
      }
    } finally {
      await holder.rollbackTransaction();
    }
  });

  for (const op of OPERATIONS) {
    describe(op.name, () => {
      it('is refused to a role without privileges and changes nothing', async () => {
        const store = await prepare();
        const { sc, role } = await roleWith(store, [], false);
        const before = await state(store);
        const error = await rejectionOf(() => op.run(sc, store, role));
        expect(error, `${error.name}: ${error.message}`).to.be.instanceOf(AccessDeniedError);
        expect(error.message).to.contain(`role '${role}'`);
        expect(await state(store)).to.equal(before);
      });

      it('is allowed with exactly the privileges it needs, granted directly or through a membership', async () => {
        for (const viaGroup of [false, true]) {
          const store = await prepare();
          const { sc, role } = await roleWith(store, op.needs, viaGroup);
          if (op.failsAnyway) {
            const error = await rejectionOf(() => op.run(sc, store, role));
            expect(error, `${error.name}: ${error.message}`).not.to.be.instanceOf(AccessDeniedError);
          } else await op.run(sc, store, role);
        }
      });

      if (op.needs.length > 1) {
        it('is refused without any one of them and changes nothing', async () => {
          for (let i = 0; i < op.needs.length; i++) {
            const store = await prepare();
            const { sc, role } = await roleWith(store, op.needs.filter((_, j) => j !== i), i % 2 === 1);
            const before = await state(store);
            const error = await rejectionOf(() => op.run(sc, store, role));
            expect(error, `without ${op.needs[i]!.join(' ')}: ${error.name}: ${error.message}`).to.be.instanceOf(AccessDeniedError);
            expect(await state(store), `without ${op.needs[i]!.join(' ')}`).to.equal(before);
          }
        });
      }
    });
  }
});
