import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import {
  AccessDeniedError,
  AuthenticationError,
  BadRequestError,
  ConnectionFactory,
  DuplicateResourceError,
  InvalidConnectionError,
  type PropertyRow,
  Server,
  UnknownResourceError,
} from '../../lib/index.js';
import { ADMIN_PASSWORD, ADMIN_ROLE, expectError, useServer } from '../helpers/server.js';

const PACKAGE_VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

function property(rows: readonly PropertyRow[], name: string): PropertyRow {
  const row = rows.find((r) => r.property === name);
  expect(row, `property ${name}`).to.not.equal(undefined);
  return row!;
}

describe('ServerConnection', () => {
  const env = useServer('server-connection', { 'license-file': '/etc/quadlog/license', persistence: 'off' });

  describe('opening connections', () => {
    it('connects as the first role with its password', async () => {
      const sc = env.track(await ConnectionFactory.newServerConnection(env.url, ADMIN_ROLE, ADMIN_PASSWORD));
      expect(sc.roleName).to.equal(ADMIN_ROLE);
      expect(sc.serverURL).to.equal(env.url);
      expect(sc.isClosed).to.equal(false);
    });

    it('has no guest role unless the server is created with create-guest-role=true', async () => {
      await expectError(ConnectionFactory.newServerConnection(env.url, 'guest', 'guest'), AuthenticationError);
      await expectError(() => ConnectionFactory.newGuestConnection(env.url), AuthenticationError);
      expect(env.connection.listRoles()).to.deep.equal([ADMIN_ROLE]);
      const url = `test://guest/${env.uniqueName()}`;
      const server = await Server.create({ roleName: ADMIN_ROLE, password: ADMIN_PASSWORD, url, parameters: { 'create-guest-role': 'true' } });
      try {
        const guest = ConnectionFactory.newGuestConnection(url);
        expect(guest.roleName).to.equal('guest');
        // the guest has no password (it cannot log in) and no privileges until granted
        await expectError(ConnectionFactory.newServerConnection(url, 'guest', ''), AuthenticationError);
        await expectError(() => guest.listDataStores(), AccessDeniedError);
        const admin = await ConnectionFactory.newServerConnection(url, ADMIN_ROLE, ADMIN_PASSWORD);
        admin.grantPrivileges('guest', '|datastores', 'read');
        expect(guest.listDataStores()).to.deep.equal([]);
        admin.close();
        guest.close();
      } finally {
        await server.shutdown();
      }
      await expectError(Server.create({ roleName: 'x', password: 'y', url: `${url}-bad`, parameters: { 'create-guest-role': 'yes' } }), BadRequestError);
    });

    it('rejects a wrong password with AuthenticationError', async () => {
      await expectError(ConnectionFactory.newServerConnection(env.url, ADMIN_ROLE, 'wrong'), AuthenticationError);
    });

    it('rejects an unknown role with AuthenticationError', async () => {
      await expectError(ConnectionFactory.newServerConnection(env.url, 'nobody', ADMIN_PASSWORD), AuthenticationError);
    });

    it('rejects an unknown server URL with UnknownResourceError', async () => {
      await expectError(ConnectionFactory.newServerConnection(`${env.url}/missing`, ADMIN_ROLE, ADMIN_PASSWORD), UnknownResourceError);
    });

    it('does not create a second server at a URL in use', async () => {
      await expectError(Server.create({ roleName: 'other', password: 'x', url: env.url }), DuplicateResourceError);
    });

    it('refuses guest as the name of the first role', async () => {
      await expectError(Server.create({ roleName: 'guest', password: 'x', url: `${env.url}/guest-first` }), BadRequestError);
      await expectError(ConnectionFactory.newServerConnection(`${env.url}/guest-first`, 'guest', 'x'), UnknownResourceError);
    });

    it('fails every call after close', async () => {
      const sc = await ConnectionFactory.newServerConnection(env.url, ADMIN_ROLE, ADMIN_PASSWORD);
      sc.close();
      expect(sc.isClosed).to.equal(true);
      await expectError(() => sc.listDataStores(), InvalidConnectionError);
      await expectError(() => sc.getServerProperties(), InvalidConnectionError);
      sc.close(); // closing twice is harmless
    });

    it('duplicate() gives a second working connection with the same role', () => {
      const copy = env.track(env.connection.duplicate());
      expect(copy).to.not.equal(env.connection);
      expect(copy.roleName).to.equal(ADMIN_ROLE);
      expect(copy.listDataStores()).to.deep.equal(env.connection.listDataStores());
      copy.close();
      expect(env.connection.isClosed).to.equal(false);
    });
  });

  describe('server properties', () => {
    it('are exactly version, git-SHA, max-memory, available-memory, num-threads and the creation parameters', () => {
      const rows = env.connection.getServerProperties();
      expect(rows.map((r) => [r.property, r.mutable])).to.deep.equal([
        ['version', false],
        ['git-SHA', false],
        ['max-memory', true],
        ['available-memory', false],
        ['num-threads', true],
        ['parameters.password-hashing', false],
        ['parameters.license-file', false],
        ['parameters.persistence', false],
      ]);
      expect(property(rows, 'parameters.license-file').value).to.equal('/etc/quadlog/license');
      expect(property(rows, 'parameters.persistence').value).to.equal('off');
    });

    it('report the package version and integer memory figures', () => {
      const rows = env.connection.getServerProperties();
      expect(property(rows, 'version').value).to.equal(PACKAGE_VERSION);
      expect(property(rows, 'git-SHA').value).to.be.a('string').and.not.equal('');
      const max = property(rows, 'max-memory').value;
      const available = property(rows, 'available-memory').value;
      expect(max).to.match(/^\d+$/);
      expect(available).to.match(/^\d+$/);
      expect(Number(available)).to.be.at.most(Number(max));
      expect(property(rows, 'num-threads').value).to.match(/^[1-9]\d*$/);
    });

    it('sets num-threads (as a number or a string)', () => {
      const sc = env.connection;
      const before = sc.getNumberOfThreads();
      sc.setNumberOfThreads(3);
      expect(sc.getNumberOfThreads()).to.equal(3);
      sc.setServerProperty('num-threads', '5');
      expect(property(sc.getServerProperties(), 'num-threads').value).to.equal('5');
      sc.setNumberOfThreads(before);
      expect(sc.getNumberOfThreads()).to.equal(before);
    });

    it('rejects invalid num-threads values with BadRequestError and keeps the old value', async () => {
      const sc = env.connection;
      const before = sc.getNumberOfThreads();
      for (const bad of ['0', 'abc', '-1', '1.5', '', '1025']) {
        await expectError(() => sc.setServerProperty('num-threads', bad), BadRequestError);
      }
      await expectError(() => sc.setNumberOfThreads(0), BadRequestError);
      expect(sc.getNumberOfThreads()).to.equal(before);
    });

    it('sets max-memory and rejects nonsense values', async () => {
      const sc = env.connection;
      const before = property(sc.getServerProperties(), 'max-memory').value;
      sc.setServerProperty('max-memory', 1 << 30);
      expect(property(sc.getServerProperties(), 'max-memory').value).to.equal(String(1 << 30));
      await expectError(() => sc.setServerProperty('max-memory', 'lots'), BadRequestError);
      await expectError(() => sc.setServerProperty('max-memory', '1'), BadRequestError);
      expect(property(sc.getServerProperties(), 'max-memory').value).to.equal(String(1 << 30));
      sc.setServerProperty('max-memory', before);
      expect(property(sc.getServerProperties(), 'max-memory').value).to.equal(before);
    });

    it('refuses to set immutable and unknown properties with BadRequestError', async () => {
      const sc = env.connection;
      for (const name of ['version', 'git-SHA', 'available-memory', 'parameters.license-file']) {
        const error = await expectError(() => sc.setServerProperty(name, '1'), BadRequestError);
        expect(error.message).to.contain(name);
      }
      const unknown = await expectError(() => sc.setServerProperty('no-such-property', '1'), BadRequestError);
      expect(unknown.message).to.contain('unknown');
      expect(property(sc.getServerProperties(), 'version').value).to.equal(PACKAGE_VERSION);
    });
  });

  describe('data stores', () => {
    it('creates a store of the default type parallel-nn and lists it', () => {
      const sc = env.connection;
      const name = env.uniqueName('default-type');
      sc.createDataStore(name);
      expect(sc.listDataStores()).to.include(name);
      const ds = env.track(sc.newDataStoreConnection(name));
      expect(ds.type).to.equal('parallel-nn');
      expect(ds.dataStoreName).to.equal(name);
      expect(ds.roleName).to.equal(ADMIN_ROLE);
    });

    it('accepts the older type names as aliases', async () => {
      const sc = env.connection;
      const cases: Array<[string, string]> = [
        ['par-complex-nn', 'parallel-nn'],
        ['par-complex-nw', 'parallel-nw'],
        ['par-simple-ww', 'parallel-ww'],
        ['parallel-nw', 'parallel-nw'],
      ];
      for (const [given, resolved] of cases) {
        const name = env.uniqueName(given);
        sc.createDataStore(name, given);
        const ds = env.track(sc.newDataStoreConnection(name));
        expect(ds.type, given).to.equal(resolved);
        const concurrent = (await ds.getDataStoreProperties()).find((r) => r.property === 'concurrent')!.value;
        expect(concurrent, given).to.equal(String(resolved !== 'parallel-nn'));
      }
    });

    it('lists the stores in creation order', () => {
      const sc = env.connection;
      const a = env.uniqueName('order-a');
      const b = env.uniqueName('order-b');
      sc.createDataStore(b);
      sc.createDataStore(a);
      const names = sc.listDataStores();
      expect(names.indexOf(b)).to.be.lessThan(names.indexOf(a));
    });

    it('rejects an unknown type, naming the allowed ones, and creates nothing', async () => {
      const sc = env.connection;
      const name = env.uniqueName('bad-type');
      const error = await expectError(() => sc.createDataStore(name, 'par-complex-xx'), BadRequestError);
      expect(error.message).to.contain("'par-complex-xx'").and.contain('parallel-nn');
      expect(sc.listDataStores()).to.not.include(name);
    });

    it('rejects an unknown creation parameter', async () => {
      const sc = env.connection;
      const name = env.uniqueName('bad-param');
      const error = await expectError(() => sc.createDataStore(name, 'parallel-nn', { 'no-such-parameter': 'true' }), BadRequestError);
      expect(error.message).to.contain("'no-such-parameter'");
      expect(sc.listDataStores()).to.not.include(name);
    });

    it('rejects a bad parameter value', async () => {
      const sc = env.connection;
      const name = env.uniqueName('bad-value');
      const error = await expectError(() => sc.createDataStore(name, undefined, { 'by-levels': 'sometimes' }), BadRequestError);
      expect(error.message).to.contain("'sometimes'").and.contain('by-levels');
      expect(sc.listDataStores()).to.not.include(name);
    });

    it('rejects an invalid store name', async () => {
      await expectError(() => env.connection.createDataStore('has space'), BadRequestError);
      await expectError(() => env.connection.createDataStore('a/b'), BadRequestError);
    });

    it('rejects a duplicate name with DuplicateResourceError and keeps the first store', async () => {
      const ds = await env.newStore(env.uniqueName('dup'));
      await ds.importData('ADD', '<http://example.com/a> <http://example.com/b> <http://example.com/c> .');
      await expectError(() => env.connection.createDataStore(ds.dataStoreName), DuplicateResourceError);
      await expectError(() => env.connection.createDataStore(ds.dataStoreName, 'parallel-ww'), DuplicateResourceError);
      expect(await ds.countFacts()).to.equal(1);
      expect(ds.type).to.equal('parallel-nn');
    });

    it('fails on unknown stores with UnknownResourceError', async () => {
      await expectError(() => env.connection.deleteDataStore('no-such-store'), UnknownResourceError);
      await expectError(() => env.connection.newDataStoreConnection('no-such-store'), UnknownResourceError);
      await expectError(ConnectionFactory.newDataStoreConnection(env.url, 'no-such-store', ADMIN_ROLE, ADMIN_PASSWORD), UnknownResourceError);
    });

    it('opens data store connections directly, checking credentials', async () => {
      const ds = await env.newStore();
      await env.connection.createRole('direct-reader', 'reader-secret');
      await expectError(ConnectionFactory.newDataStoreConnection(env.url, ds.dataStoreName, 'direct-reader', 'reader-secret'), AccessDeniedError);
      env.connection.grantPrivileges('direct-reader', `|datastores|${ds.dataStoreName}`, 'read');
      const direct = env.track(await ConnectionFactory.newDataStoreConnection(env.url, ds.dataStoreName, 'direct-reader', 'reader-secret'));
      expect(direct.roleName).to.equal('direct-reader');
      expect(direct.uniqueId).to.equal(ds.uniqueId);
      await expectError(ConnectionFactory.newDataStoreConnection(env.url, ds.dataStoreName, 'direct-reader', 'wrong'), AuthenticationError);
    });

    it('deleting a store removes it from the list and invalidates its connections', async () => {
      const sc = env.connection;
      const ds = await env.newStore(env.uniqueName('doomed'));
      const other = env.track(ds.duplicate());
      await ds.importData('ADD', '<http://example.com/a> <http://example.com/b> <http://example.com/c> .');
      await other.beginTransaction('read-only');
      const name = ds.dataStoreName;
      sc.deleteDataStore(name);
      expect(sc.listDataStores()).to.not.include(name);

      for (const conn of [ds, other]) {
        await expectError(conn.countFacts(), InvalidConnectionError);
        await expectError(conn.importData('ADD', '<http://example.com/x> <http://example.com/y> <http://example.com/z> .'), InvalidConnectionError);
        await expectError(conn.exportDataToString('application/n-triples'), InvalidConnectionError);
        await expectError(conn.getPrefixes(), InvalidConnectionError);
        await expectError(conn.setBaseIRI('http://example.com/'), InvalidConnectionError);
        await expectError(conn.getDataStoreProperties(), InvalidConnectionError);
        await expectError(conn.listTupleTables(), InvalidConnectionError);
        await expectError(conn.beginTransaction(), InvalidConnectionError);
        await expectError(conn.commitTransaction(), InvalidConnectionError);
        await expectError(conn.clear(), InvalidConnectionError);
        await expectError(() => conn.uniqueId, InvalidConnectionError);
        await expectError(() => conn.duplicate(), InvalidConnectionError);
        conn.close(); // closing still works
        expect(conn.isClosed).to.equal(true);
      }
      await expectError(() => sc.newDataStoreConnection(name), UnknownResourceError);
    });

    it('a new store with the name of a deleted one is a fresh, empty store', async () => {
      const sc = env.connection;
      const old = await env.newStore(env.uniqueName('reborn'));
      const name = old.dataStoreName;
      const oldId = old.uniqueId;
      await old.importData('ADD', '<http://example.com/a> <http://example.com/b> <http://example.com/c> .');
      sc.deleteDataStore(name);
      sc.createDataStore(name);
      const fresh = env.track(sc.newDataStoreConnection(name));
      expect(fresh.uniqueId).to.not.equal(oldId);
      expect(await fresh.countFacts()).to.equal(0);
      await expectError(old.countFacts(), InvalidConnectionError);
    });
  });
});
