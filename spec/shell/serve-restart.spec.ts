/**
 * Specs of `quadlog serve --server-directory DIR` restarted on a directory that already holds a
 * server, as child processes: without `--role/--password` it takes the roles from the
 * directory (no password generated or printed) and serves the stores; with them (flags or
 * environment) it checks them against the stored role and refuses a wrong password.
 */
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServe, type ServeProcess } from '../persistence/serve-process.js';
import { basic } from './helpers.js';

const QUERY = 'SELECT ?d WHERE { <http://example.com/family#alice> <http://example.com/family#ancestorOf> ?d } ORDER BY ?d';

/** The demo store's answer to {@link QUERY} as CSV, with the role's credentials. */
async function ancestors(serving: ServeProcess, role: string, password: string): Promise<{ status: number; body: string }> {
  const res = await fetch(`${serving.url}/datastores/demo/sparql`, { method: 'POST', headers: { authorization: basic(role, password), accept: 'text/csv', 'content-type': 'application/sparql-query' }, body: QUERY });
  return { status: res.status, body: await res.text() };
}

describe('quadlog serve: a restart on the same server directory', function () {
  this.timeout(120_000);
  let root = '';
  let directory = '';
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'quadlog-serve-restart-'));
    directory = join(root, 'server');
    const first = await startServe(['--server-directory', directory, '--role', 'admin', '--password', 'pw', '--port', '0', '--no-console']);
    expect(first.url, first.stderr()).to.be.a('string');
    expect((await first.stop()).code).to.equal(0);
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('starts without --role and --password: the roles come from the directory, no password is generated', async () => {
    const serving = await startServe(['--server-directory', directory, '--port', '0', '--no-console']);
    try {
      expect(serving.url, serving.stderr()).to.be.a('string');
      expect(serving.stdout()).to.not.match(/generated|first role/);
      expect(serving.stdout()).to.include(directory);
      const stores = await fetch(`${serving.url}/datastores`, { headers: { authorization: basic('admin', 'pw'), accept: 'text/csv' } });
      expect(stores.status).to.equal(200);
      expect(await stores.text()).to.equal('Name\r\ndemo\r\n');
      const answer = await ancestors(serving, 'admin', 'pw');
      expect(answer.status).to.equal(200);
      expect(answer.body).to.include('http://example.com/family#carol');
      expect((await ancestors(serving, 'admin', 'wrong')).status).to.equal(401);
      // the guest still reads the demo store, as granted by the first run
      expect((await fetch(`${serving.url}/datastores`)).status).to.equal(200);
    } finally {
      expect((await serving.stop()).code).to.equal(0);
    }
  });

  it('checks --role/--password against the stored role: a wrong password exits non-zero with a clear message', async () => {
    const wrong = await startServe(['--server-directory', directory, '--role', 'admin', '--password', 'wrong', '--port', '0', '--no-console']);
    const exit = await wrong.exited;
    expect(wrong.url).to.equal(undefined);
    expect(exit.code).to.equal(1);
    expect(wrong.stderr()).to.match(/^quadlog serve: /m);
    expect(wrong.stderr()).to.include(`the role 'admin' and password given do not match the roles of the server directory ${directory}`);
    expect(wrong.stderr()).to.not.match(/AuthenticationError|at .*\.ts:\d+/);
    // an unknown role is refused the same way
    const unknown = await startServe(['--server-directory', directory, '--role', 'nobody', '--password', 'pw', '--port', '0', '--no-console']);
    expect((await unknown.exited).code).to.equal(1);
    expect(unknown.stderr()).to.include(`the role 'nobody' and password given do not match the roles of the server directory ${directory}`);
    // from the environment too
    const env = await startServe(['--server-directory', directory, '--port', '0', '--no-console'], { QUADLOG_ROLE: 'admin', QUADLOG_PASSWORD: 'nope' });
    expect((await env.exited).code).to.equal(1);
    expect(env.stderr()).to.include("the role 'admin' and password given");
  });

  it('starts with the right --role/--password and serves the stores', async () => {
    const serving = await startServe(['--server-directory', directory, '--role', 'admin', '--password', 'pw', '--port', '0', '--no-console']);
    try {
      expect(serving.url, serving.stderr()).to.be.a('string');
      expect(serving.stdout()).to.not.match(/generated/);
      const answer = await ancestors(serving, 'admin', 'pw');
      expect(answer.status).to.equal(200);
      expect(answer.body).to.include('http://example.com/family#carol');
    } finally {
      expect((await serving.stop()).code).to.equal(0);
    }
  });

  it('refuses --import without --role/--password on a directory that holds a server, naming what is needed', async () => {
    const serving = await startServe(['--server-directory', directory, '--port', '0', '--no-console', '--import', join(root, 'missing.ttl')]);
    expect((await serving.exited).code).to.equal(1);
    expect(serving.stderr()).to.include('--import on a server directory that already holds a server needs --role and --password');
  });
});
