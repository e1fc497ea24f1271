/**
 * Test isolation: servers created without a `url` claim no global name, servers are disposable
 * (`await using`), shutting a server down closes the endpoints started on it, and the
 * `password-hashing` server parameter makes cheap hashes that still check passwords.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import {
  AuthenticationError,
  BadRequestError,
  ConnectionFactory,
  type Cursor,
  type DataStoreConnection,
  DuplicateResourceError,
  InvalidConnectionError,
  Server,
  type ServerConnection,
  TransactionError,
  UnknownResourceError,
} from '../../lib/index.js';
import { startEndpoint } from '../../lib/http/index.js';
import { expectError } from '../helpers/server.js';

const ROLE = 'admin';
const PASSWORD = 'isolation-secret';
const FAST = { 'password-hashing': 'fast' } as const;

/** The PHC string of a role's password hash. */
async function hashOf(server: Server, role: string): Promise<string> {
  using sc = await ConnectionFactory.newServerConnection(server.url, ROLE, PASSWORD);
  return sc.describeRole(role).passwordHash!;
}

describe('test isolation', () => {
  describe('server URLs', () => {
    it('a server created without a url gets a unique one of its own, not a global name', async () => {
      const server = await Server.create({ roleName: ROLE, password: PASSWORD, parameters: FAST });
      try {
        expect(server.url).to.match(/^local\/[0-9a-f-]{36}$/);
        expect(Server.lookup(server.url)).to.equal(server);
        expect(() => Server.lookup('local')).to.throw(UnknownResourceError);
        using sc = await ConnectionFactory.newServerConnection(server.url, ROLE, PASSWORD);
        expect(sc.serverURL).to.equal(server.url);
      } finally {
        await server.shutdown();
      }
      expect(() => Server.lookup(server.url)).to.throw(UnknownResourceError);
    });

    it('two servers created without a url coexist, each with its own stores', async () => {
      await using first = await Server.create({ roleName: ROLE, password: PASSWORD, parameters: FAST });
      await using second = await Server.create({ roleName: 'other', password: 'other-secret', parameters: FAST });
      expect(first.url).to.not.equal(second.url);
      using a = await ConnectionFactory.newServerConnection(first.url, ROLE, PASSWORD);
      using b = await ConnectionFactory.newServerConnection(second.url, 'other', 'other-secret');
      a.createDataStore('shared-name');
      b.createDataStore('shared-name');
      using ds = a.newDataStoreConnection('shared-name');
      await ds.importData('ADD', '<http://example.com/s> <http://example.com/p> <http://example.com/o> .', { mediaType: 'application/n-triples' });
      using other = b.newDataStoreConnection('shared-name');
      expect(await ds.countFacts()).to.equal(1);
      expect(await other.countFacts()).to.equal(0);
      // each server knows only its own roles
      await expectError(ConnectionFactory.newServerConnection(first.url, 'other', 'other-secret'), AuthenticationError);
    });

    it('a server created with a url registers under it, as long as it runs', async () => {
      const url = `test://isolation/${randomUUID()}`;
      const server = await Server.create({ roleName: ROLE, password: PASSWORD, url, parameters: FAST });
      try {
        expect(server.url).to.equal(url);
        expect(Server.lookup(url)).to.equal(server);
        const error = await expectError(Server.create({ roleName: ROLE, password: PASSWORD, url, parameters: FAST }), DuplicateResourceError);
        expect(error.message).to.contain(url);
        using sc = await ConnectionFactory.newServerConnection(url, ROLE, PASSWORD);
        expect(sc.serverURL).to.equal(url);
      } finally {
        await server.shutdown();
      }
      await using again = await Server.create({ roleName: ROLE, password: PASSWORD, url, parameters: FAST });
      expect(Server.lookup(url)).to.equal(again);
    });

    it("the name 'local' is claimed only by a server created with url: 'local'", async () => {
      await using unnamed = await Server.create({ roleName: ROLE, password: PASSWORD, parameters: FAST });
      {
        await using local = await Server.create({ roleName: ROLE, password: PASSWORD, url: 'local', parameters: FAST });
        expect(Server.lookup('local')).to.equal(local);
        using sc = await ConnectionFactory.newServerConnection('local', ROLE, PASSWORD);
        expect(sc.serverURL).to.equal('local');
        expect(unnamed.url).to.not.equal('local');
      }
      expect(() => Server.lookup('local')).to.throw(UnknownResourceError);
    });
  });

  describe('disposal', () => {
    it('await using shuts the server down and using closes connections and cursors', async () => {
      let server: Server | undefined;
      let sc: ServerConnection | undefined;
      let ds: DataStoreConnection | undefined;
      let cursor: Cursor | undefined;
      {
        await using s = await Server.create({ roleName: ROLE, password: PASSWORD, parameters: FAST });
        server = s;
        using c = await ConnectionFactory.newServerConnection(s.url, ROLE, PASSWORD);
        sc = c;
        c.createDataStore('store');
        {
          using d = c.newDataStoreConnection('store');
          ds = d;
          using k = d.createCursor('SELECT * WHERE { ?s ?p ?o }');
          cursor = k;
          await k.open();
        }
        expect(ds.isClosed).to.equal(true);
        await expectError(() => cursor.open(), TransactionError);
        expect(sc.isClosed).to.equal(false);
        expect(server.isShutdown).to.equal(false);
      }
      expect(sc.isClosed).to.equal(true);
      expect(server.isShutdown).to.equal(true);
      expect(() => Server.lookup(server.url)).to.throw(UnknownResourceError);
    });

    it('await using works on connections too, and disposing after an explicit close is harmless', async () => {
      await using server = await Server.create({ roleName: ROLE, password: PASSWORD, parameters: FAST });
      await using sc = await ConnectionFactory.newServerConnection(server.url, ROLE, PASSWORD);
      sc.close();
      await server.shutdown();
      expect(sc.isClosed).to.equal(true);
    });

    it('connections of a server that was shut down stop working', async () => {
      const server = await Server.create({ roleName: ROLE, password: PASSWORD, parameters: FAST });
      using sc = await ConnectionFactory.newServerConnection(server.url, ROLE, PASSWORD);
      sc.createDataStore('store');
      using ds = sc.newDataStoreConnection('store');
      await server.shutdown();
      await expectError(ds.countFacts(), InvalidConnectionError);
      await expectError(ConnectionFactory.newServerConnection(server.url, ROLE, PASSWORD), UnknownResourceError);
    });
  });

  describe('shutdown listeners', () => {
    it('are called once, in order; shutdown waits for async ones; unsubscribed ones are not called', async () => {
      const server = await Server.create({ roleName: ROLE, password: PASSWORD, parameters: FAST });
      const calls: string[] = [];
      server.onShutdown(() => {
        calls.push('sync');
      });
      server.onShutdown(async () => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        calls.push('async');
      });
      const off = server.onShutdown(() => {
        calls.push('removed');
      });
      off();
      off();
      const done = server.shutdown();
      expect(calls).to.deep.equal(['sync']);
      expect(server.shutdown()).to.equal(done);
      await done;
      expect(calls).to.deep.equal(['sync', 'async']);
      await server.shutdown();
      expect(calls).to.deep.equal(['sync', 'async']);
      expect(() => server.onShutdown(() => undefined)).to.throw(UnknownResourceError, /shut down/);
    });

    it('a failing listener does not stop the others; the awaited shutdown rejects with its error', async () => {
      const server = await Server.create({ roleName: ROLE, password: PASSWORD, parameters: FAST });
      let called = false;
      server.onShutdown(() => {
        throw new Error('listener failed');
      });
      server.onShutdown(() => {
        called = true;
      });
      const error = await expectError(server.shutdown(), Error);
      expect(error.message).to.equal('listener failed');
      expect(called).to.equal(true);
      expect(() => Server.lookup(server.url)).to.throw(UnknownResourceError);
    });

    it('several failures reject with an AggregateError', async () => {
      const server = await Server.create({ roleName: ROLE, password: PASSWORD, parameters: FAST });
      server.onShutdown(() => Promise.reject(new Error('one')));
      server.onShutdown(() => Promise.reject(new Error('two')));
      const error = await expectError(server.shutdown(), AggregateError);
      expect(error.errors.map((e: Error) => e.message)).to.deep.equal(['one', 'two']);
    });

    it('an unawaited shutdown whose listener fails raises no unhandled rejection', async () => {
      const unhandled: unknown[] = [];
      const record = (reason: unknown): void => {
        unhandled.push(reason);
      };
      process.on('unhandledRejection', record);
      try {
        const server = await Server.create({ roleName: ROLE, password: PASSWORD, parameters: FAST });
        server.onShutdown(() => Promise.reject(new Error('ignored')));
        void server.shutdown();
        await new Promise((resolve) => setTimeout(resolve, 20));
      } finally {
        process.off('unhandledRejection', record);
      }
      expect(unhandled).to.deep.equal([]);
    });
  });

  describe('endpoints', () => {
    it('shutting the server down closes an endpoint started on it', async () => {
      const server = await Server.create({ roleName: ROLE, password: PASSWORD, parameters: FAST });
      const endpoint = await startEndpoint(server, { port: 0 });
      const auth = `Basic ${Buffer.from(`${ROLE}:${PASSWORD}`).toString('base64')}`;
      try {
        const res = await fetch(`${endpoint.url}/datastores`, { headers: { authorization: auth } });
        await res.text();
        expect(res.status).to.equal(200);
      } finally {
        await server.shutdown();
      }
      const failure = await expectError(fetch(`${endpoint.url}/datastores`, { headers: { authorization: auth } }), TypeError);
      expect((failure.cause as NodeJS.ErrnoException | undefined)?.code).to.equal('ECONNREFUSED');
      await endpoint.close();
    });

    it('an endpoint closed first no longer listens for the shutdown', async () => {
      const server = await Server.create({ roleName: ROLE, password: PASSWORD, parameters: FAST });
      const endpoint = await startEndpoint(server, { port: 0 });
      await endpoint.close();
      // a second endpoint on the same server still closes with it
      const second = await startEndpoint(server, { port: 0 });
      await server.shutdown();
      await expectError(fetch(`${second.url}/`), TypeError);
    });

    it('an endpoint cannot be started on a server that was shut down', async () => {
      const server = await Server.create({ roleName: ROLE, password: PASSWORD, parameters: FAST });
      await server.shutdown();
      await expectError(startEndpoint(server, { port: 0 }), UnknownResourceError);
    });

    it('HTTP authentication on a fast-hashing server still refuses a wrong password', async () => {
      await using server = await Server.create({ roleName: ROLE, password: PASSWORD, parameters: FAST });
      const endpoint = await startEndpoint(server, { port: 0 });
      const basic = (password: string): string => `Basic ${Buffer.from(`${ROLE}:${password}`).toString('base64')}`;
      const wrong = await fetch(`${endpoint.url}/datastores`, { headers: { authorization: basic('wrong') } });
      await wrong.text();
      expect(wrong.status).to.equal(401);
      const right = await fetch(`${endpoint.url}/datastores`, { headers: { authorization: basic(PASSWORD) } });
      await right.text();
      expect(right.status).to.equal(200);
    });
  });

  describe('password hashing', () => {
    it('the fast path still refuses wrong passwords, of the first role and of other roles', async () => {
      await using server = await Server.create({ roleName: ROLE, password: PASSWORD, parameters: FAST });
      await expectError(ConnectionFactory.newServerConnection(server.url, ROLE, 'wrong'), AuthenticationError);
      await expectError(ConnectionFactory.newServerConnection(server.url, ROLE, ''), AuthenticationError);
      await expectError(ConnectionFactory.newServerConnection(server.url, 'nobody', PASSWORD), AuthenticationError);
      using sc = await ConnectionFactory.newServerConnection(server.url, ROLE, PASSWORD);
      await sc.createRole('reader', 'reader-secret');
      await expectError(ConnectionFactory.newServerConnection(server.url, 'reader', 'wrong'), AuthenticationError);
      using reader = await ConnectionFactory.newServerConnection(server.url, 'reader', 'reader-secret');
      await expectError(reader.checkPassword('wrong'), AuthenticationError);
      await reader.changeRolePassword('reader-secret', 'new-secret');
      await expectError(ConnectionFactory.newServerConnection(server.url, 'reader', 'reader-secret'), AuthenticationError);
      using again = await ConnectionFactory.newServerConnection(server.url, 'reader', 'new-secret');
      expect(again.roleName).to.equal('reader');
    });

    it('a hash made fast keeps its cost and verifies on a server with the default cost (and the other way round)', async () => {
      await using fast = await Server.create({ roleName: ROLE, password: PASSWORD, parameters: FAST });
      await using slow = await Server.create({ roleName: ROLE, password: PASSWORD });
      const fastHash = await hashOf(fast, ROLE);
      const slowHash = await hashOf(slow, ROLE);
      expect(fastHash).to.match(/^\$scrypt\$ln=4,r=8,p=1\$/);
      expect(slowHash).to.match(/^\$scrypt\$ln=14,r=8,p=1\$/);
      {
        using admin = await ConnectionFactory.newServerConnection(slow.url, ROLE, PASSWORD);
        await admin.createRole('copied', fastHash, 'password-hash');
        expect(admin.describeRole('copied').passwordHash).to.equal(fastHash);
      }
      {
        using admin = await ConnectionFactory.newServerConnection(fast.url, ROLE, PASSWORD);
        await admin.createRole('copied', slowHash, 'password-hash');
        expect(admin.describeRole('copied').passwordHash).to.equal(slowHash);
      }
      for (const server of [fast, slow]) {
        using copied = await ConnectionFactory.newServerConnection(server.url, 'copied', PASSWORD);
        expect(copied.roleName).to.equal('copied');
        await expectError(ConnectionFactory.newServerConnection(server.url, 'copied', 'wrong'), AuthenticationError);
      }
    });

    it('an explicit scrypt cost is used for new hashes and listed among the server parameters', async () => {
      await using server = await Server.create({ roleName: ROLE, password: PASSWORD, parameters: { 'password-hashing': 'scrypt:ln=6,r=4' } });
      expect(await hashOf(server, ROLE)).to.match(/^\$scrypt\$ln=6,r=4,p=1\$/);
      using sc = await ConnectionFactory.newServerConnection(server.url, ROLE, PASSWORD);
      expect(sc.getServerProperties().find((r) => r.property === 'parameters.password-hashing')?.value).to.equal('scrypt:ln=6,r=4');
      await expectError(ConnectionFactory.newServerConnection(server.url, ROLE, 'wrong'), AuthenticationError);
    });

    it('a password the server has just hashed costs no second hash to log in with', async () => {
      await using server = await Server.create({ roleName: ROLE, password: PASSWORD, parameters: FAST });
      /** The server's count of password hashes computed, as its component information lists it. */
      const hashes = (sc: ServerConnection): number => {
        const row = sc.getComponentInfo().find((r) => r.componentId === 1 && r.property === 'Password hashes computed');
        expect(row, 'a component info row counting password hashes').to.not.equal(undefined);
        return Number(row!.value);
      };
      const created = server.roles.passwordHashesComputed;
      expect(created).to.equal(1); // the first role's password
      using sc = await ConnectionFactory.newServerConnection(server.url, ROLE, PASSWORD);
      expect(hashes(sc)).to.equal(created);
      await sc.createRole('reader', 'reader-secret');
      const afterCreate = hashes(sc);
      expect(afterCreate).to.equal(created + 1);
      using reader = await ConnectionFactory.newServerConnection(server.url, 'reader', 'reader-secret');
      expect(reader.roleName).to.equal('reader');
      expect(hashes(sc)).to.equal(afterCreate);
      // the first failed check also makes the stand-in hash for unknown roles, once
      await expectError(ConnectionFactory.newServerConnection(server.url, 'nobody', 'wrong'), AuthenticationError);
      const afterUnknown = hashes(sc);
      expect(afterUnknown).to.equal(afterCreate + 2);
      await expectError(ConnectionFactory.newServerConnection(server.url, 'reader', 'wrong'), AuthenticationError);
      expect(hashes(sc)).to.equal(afterUnknown + 1);
    });

    it('the default cost is scrypt ln=14, also when asked for by name', async () => {
      await using server = await Server.create({ roleName: ROLE, password: PASSWORD, parameters: { 'password-hashing': 'default' } });
      expect(await hashOf(server, ROLE)).to.match(/^\$scrypt\$ln=14,r=8,p=1\$/);
    });

    for (const value of ['cheap', 'FAST', '', 'scrypt:ln=3', 'scrypt:ln=21', 'scrypt:ln=10,r=0', 'scrypt:ln=10,p=17', 'scrypt:N=1024', 'bcrypt']) {
      it(`refuses password-hashing=${JSON.stringify(value)} with a clear error, registering nothing`, async () => {
        const url = `test://isolation/${randomUUID()}`;
        const error = await expectError(Server.create({ roleName: ROLE, password: PASSWORD, url, parameters: { 'password-hashing': value } }), BadRequestError);
        expect(error.message).to.contain(`invalid value '${value}' for server parameter 'password-hashing'`);
        expect(error.message).to.match(/default, fast .* or scrypt:ln=|must be in range \(ln 4–20, r 1–32, p 1–16\)/);
        expect(() => Server.lookup(url)).to.throw(UnknownResourceError);
      });
    }

    it('hashes below the smallest cost are refused on import', async () => {
      await using server = await Server.create({ roleName: ROLE, password: PASSWORD, parameters: FAST });
      using sc = await ConnectionFactory.newServerConnection(server.url, ROLE, PASSWORD);
      const weak = (await hashOf(server, ROLE)).replace('$ln=4,', '$ln=3,');
      const error = await expectError(sc.createRole('weak', weak, 'password-hash'), BadRequestError);
      expect(error.message).to.contain('out of range (ln 4–20');
    });
  });
});
