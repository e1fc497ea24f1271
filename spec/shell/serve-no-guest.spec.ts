/**
 * Specs of `quadlog serve --no-guest` restarted on a server directory whose roles include
 * `guest` (made by a first run with the demo): requests without credentials are refused (401)
 * for the whole run, with or without --role/--password, and the role is kept in the directory,
 * so that a later run without the flag lets them in again.
 */
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuthenticationError, ConnectionFactory, GUEST_ROLE, Server } from '../../lib/index.js';
import { startServe, type ServeProcess } from '../persistence/serve-process.js';
import { basic } from './helpers.js';

const QUERY = 'SELECT ?d WHERE { <http://example.com/family#alice> <http://example.com/family#ancestorOf> ?d }';

/** The statuses of requests without credentials: the store list, a query of the demo store, its prefixes. */
async function anonymous(serving: ServeProcess): Promise<number[]> {
  const url = serving.url!;
  const answers = await Promise.all([
    fetch(`${url}/datastores`, { headers: { accept: 'text/csv' } }),
    fetch(`${url}/datastores/demo/sparql?query=${encodeURIComponent(QUERY)}`, { headers: { accept: 'text/csv' } }),
    fetch(`${url}/datastores/demo/prefixes`, { headers: { accept: 'text/csv' } }),
  ]);
  for (const answer of answers) await answer.arrayBuffer();
  return answers.map((a) => a.status);
}

/** The roles of the server, listed by the admin. */
async function roles(serving: ServeProcess): Promise<string[]> {
  const res = await fetch(`${serving.url!}/roles`, { headers: { authorization: basic('admin', 'pw'), accept: 'text/csv' } });
  expect(res.status).to.equal(200);
  return (await res.text()).trim().split('\r\n').slice(1);
}

describe('quadlog serve --no-guest: a restart on a server directory that holds a guest role', function () {
  this.timeout(120_000);
  let root = '';
  let directory = '';
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'quadlog-serve-no-guest-'));
    directory = join(root, 'server');
    // the first run creates the demo store and the role guest, which may read it
    const first = await startServe(['--server-directory', directory, '--role', 'admin', '--password', 'pw', '--port', '0', '--no-console']);
    try {
      expect(first.url, first.stderr()).to.be.a('string');
      expect(await anonymous(first)).to.deep.equal([200, 200, 200]);
    } finally {
      expect((await first.stop()).code).to.equal(0);
    }
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  for (const credentials of [[], ['--role', 'admin', '--password', 'pw']]) {
    it(`refuses requests without credentials ${credentials.length === 0 ? 'without' : 'with'} --role/--password, keeping the role for later runs`, async () => {
      const serving = await startServe(['--server-directory', directory, '--no-guest', '--port', '0', '--no-console', ...credentials]);
      try {
        expect(serving.url, serving.stderr()).to.be.a('string');
        expect(await anonymous(serving)).to.deep.equal([401, 401, 401]);
        const refused = await fetch(`${serving.url!}/datastores`);
        expect(refused.headers.get('www-authenticate')).to.equal('Basic realm="quadlog"');
        expect(await refused.text()).to.include('refuses requests without credentials');
        expect(serving.stdout()).to.include("requests without credentials are refused: the role 'guest' is kept, but no request acts as it in this run");
        expect(serving.stdout()).to.not.include('requests without credentials act as');
        // the roles work as before, and the guest role is still there
        const stores = await fetch(`${serving.url!}/datastores`, { headers: { authorization: basic('admin', 'pw'), accept: 'text/csv' } });
        expect(stores.status).to.equal(200);
        expect(await stores.text()).to.equal('Name\r\ndemo\r\n');
        expect(await roles(serving)).to.include(GUEST_ROLE);
      } finally {
        expect((await serving.stop()).code).to.equal(0);
      }
      const again = await startServe(['--server-directory', directory, '--port', '0', '--no-console']);
      try {
        expect(again.url, again.stderr()).to.be.a('string');
        expect(await anonymous(again)).to.deep.equal([200, 200, 200]);
      } finally {
        expect((await again.stop()).code).to.equal(0);
      }
    });
  }

  it('refuses them with --no-demo too (without --guest nobody acts without credentials)', async () => {
    const serving = await startServe(['--server-directory', directory, '--no-demo', '--port', '0', '--no-console']);
    try {
      expect(serving.url, serving.stderr()).to.be.a('string');
      expect(await anonymous(serving)).to.deep.equal([401, 401, 401]);
    } finally {
      expect((await serving.stop()).code).to.equal(0);
    }
  });
});

describe('roles: refusing the guest role for a run', () => {
  it('refuses guest connections while the role is kept', async () => {
    const server = await Server.create({ roleName: 'admin', password: 'pw', parameters: { 'password-hashing': 'fast', 'create-guest-role': 'true' } });
    try {
      ConnectionFactory.newGuestConnection(server.url).close();
      expect(server.roles.refusesGuest).to.equal(false);
      server.roles.refuseGuest();
      expect(server.roles.refusesGuest).to.equal(true);
      expect(() => ConnectionFactory.newGuestConnection(server.url)).to.throw(AuthenticationError, 'refuses requests without credentials');
      expect(server.roles.has(GUEST_ROLE)).to.equal(true);
    } finally {
      await server.shutdown();
    }
  });
});
