import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { expect } from 'chai';
import { parseServeArguments, serve, type Serving } from '../../lib/shell/serve.js';
import { ConnectionFactory } from '../../lib/index.js';
import { CLI, TSX } from './helpers.js';

const run = promisify(execFile);

describe('shell: quadlog serve', () => {
  it('takes the first role from the flags, else the environment, else generates a password', () => {
    const flags = parseServeArguments(['--role', 'ops', '--password', 'pw', '--port', '0', '--variant', 'A', '--no-demo'], {});
    expect(flags).to.deep.include({ role: 'ops', password: 'pw', generatedPassword: false, port: 0, variant: 'A', demo: false });
    const env = parseServeArguments([], { QUADLOG_ROLE: 'envrole', QUADLOG_PASSWORD: 'envpw' });
    expect(env).to.deep.include({ role: 'envrole', password: 'envpw', generatedPassword: false, port: 12110, host: '127.0.0.1', variant: 'B', demo: true });
    const generated = parseServeArguments([], {});
    expect(generated.role).to.equal('admin');
    expect(generated.generatedPassword).to.equal(true);
    expect(generated.password).to.have.length.greaterThan(11);
    expect(parseServeArguments([], {}).password).to.not.equal(generated.password);
  });

  it('names the problem with bad arguments', () => {
    expect(() => parseServeArguments(['--port', 'x'], {})).to.throw(/--port 'x'/);
    expect(() => parseServeArguments(['--variant', 'C'], {})).to.throw(/--variant 'C'/);
    expect(() => parseServeArguments(['--role', 'r'], {})).to.throw(/--role and --password/);
    expect(() => parseServeArguments(['--bogus'], {})).to.throw(/bogus/);
  });

  it('takes the safe I/O flags: sandbox directory, allowed URL schemes, content size limit', () => {
    const o = parseServeArguments(['--sandbox-directory', 'sandbox-dir', '--allowed-url-schemes', 'file,https', '--max-content-size', '1048576', '--no-demo'], {});
    expect(o.parameters).to.deep.equal({ 'sandbox-directory': 'sandbox-dir', 'allowed-url-schemes-on-import': 'file,https' });
    expect(o.maxContentBytes).to.equal(1048576);
    const none = parseServeArguments(['--no-demo'], {});
    expect(none.parameters).to.equal(undefined);
    expect(none.maxContentBytes).to.equal(undefined);
    for (const bad of ['0', '-5', '1e9', '12k', '']) expect(() => parseServeArguments([`--max-content-size=${bad}`], {})).to.throw(`--max-content-size '${bad}'`);
  });

  it('--help (or -h) prints the usage and exits 0, starting nothing', async () => {
    expect(parseServeArguments(['--help'], {}).help).to.equal(true);
    expect(parseServeArguments(['--port', '0', '-h'], {}).help).to.equal(true);
    const { stdout, stderr } = await run(process.execPath, ['--import', TSX, CLI, 'serve', '--help']);
    expect(stdout).to.match(/^usage: quadlog serve /);
    expect(stdout).to.contain('--import FILE...');
    expect(stderr).to.equal('');
  });

  it('takes --import FILE... and --store, and names what is wrong with them', () => {
    const o = parseServeArguments(['--import', 'a.ttl', 'b.nt.gz', '--import', 'c.dlog'], {});
    expect(o.imports).to.deep.equal(['a.ttl', 'c.dlog', 'b.nt.gz']);
    expect(o.importStore).to.equal('demo');
    expect(parseServeArguments(['--no-demo', '--import', 'a.ttl', '--store', 'mine'], {})).to.include({ importStore: 'mine', demo: false });
    expect(() => parseServeArguments(['a.ttl'], {})).to.throw(/unexpected argument 'a.ttl'/);
    expect(() => parseServeArguments(['--store', 'mine'], {})).to.throw(/--store names the store of --import/);
    expect(() => parseServeArguments(['--no-demo', '--import', 'a.ttl'], {})).to.throw(/needs --store NAME/);
  });

  describe('with --import', () => {
    let dir: string;
    before(() => {
      dir = mkdtempSync(join(tmpdir(), 'quadlog-serve-import-'));
      writeFileSync(join(dir, 'people.ttl'), '@prefix ex: <http://example.com/family#> .\nex:dana ex:parentOf ex:alice .\n');
      writeFileSync(join(dir, 'more.nt.gz'), gzipSync('<http://example.com/family#erin> <http://example.com/family#parentOf> <http://example.com/family#dana> .\n'));
      writeFileSync(join(dir, 'bad.ttl'), '@prefix ex: <http://example.com/> .\nex:a ex:b .\n');
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    it('loads the files into the demo store before serving, where the rules see them', async () => {
      const serving = await serve(parseServeArguments(['--port', '0', '--role', 'admin', '--password', 'pw', '--import', join(dir, 'people.ttl'), join(dir, 'more.nt.gz')], {}));
      try {
        const sc = await ConnectionFactory.newServerConnection(serving.server.url, 'admin', 'pw');
        const ds = sc.newDataStoreConnection('demo');
        const answer = await ds.evaluateQuery('ASK { <http://example.com/family#erin> <http://example.com/family#ancestorOf> <http://example.com/family#carol> }');
        expect(answer.type === 'boolean' && answer.value).to.equal(true);
        ds.close();
        sc.close();
      } finally {
        await serving.stop();
      }
    });

    it('loads them into a named store (created when absent) without the demo', async () => {
      const serving = await serve(parseServeArguments(['--port', '0', '--no-demo', '--role', 'admin', '--password', 'pw', '--import', join(dir, 'people.ttl'), '--store', 'family'], {}));
      try {
        const sc = await ConnectionFactory.newServerConnection(serving.server.url, 'admin', 'pw');
        expect(sc.listDataStores()).to.deep.equal(['family']);
        const ds = sc.newDataStoreConnection('family');
        expect(await ds.countFacts()).to.equal(1);
        ds.close();
        sc.close();
      } finally {
        await serving.stop();
      }
    });

    it('stops with the file, line and column of an error, serving nothing', async () => {
      const failure = await run(process.execPath, ['--import', TSX, CLI, 'serve', '--port', '0', '--no-demo', '--store', 's', '--import', join(dir, 'bad.ttl')]).then(
        () => expect.fail('serve started'),
        (e: unknown) => e as { code: number; stderr: string },
      );
      expect(failure.code).to.equal(1);
      expect(failure.stderr).to.contain(`--import ${join(dir, 'bad.ttl')}`);
      expect(failure.stderr).to.match(/line 2/);
    });
  });

  describe('with the safe I/O flags', () => {
    let dir: string;
    let serving: Serving;
    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'quadlog-serve-'));
      serving = await serve(parseServeArguments(['--port', '0', '--no-demo', '--role', 'admin', '--password', 'pw', '--sandbox-directory', dir, '--allowed-url-schemes', 'file', '--max-content-size', '100'], {}));
    });
    after(async () => {
      await serving?.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    it('sets the server parameters and the endpoint limit', async () => {
      expect(serving.server.readPolicy.sandboxDirectory).to.equal(dir);
      expect([...serving.server.readPolicy.allowedSchemes]).to.deep.equal(['file']);
      const auth = `Basic ${Buffer.from('admin:pw').toString('base64')}`;
      expect((await fetch(`${serving.endpoint.url}/datastores/s?type=parallel-nn`, { method: 'POST', headers: { authorization: auth } })).status).to.equal(201);
      const res = await fetch(`${serving.endpoint.url}/datastores/s/content?operation=add-content`, { method: 'PATCH', headers: { authorization: auth, 'content-type': 'text/turtle' }, body: `<http://example.com/a> <http://example.com/p> "${'x'.repeat(200)}" .` });
      expect(res.status, await res.text()).to.equal(413);
    });

    it('fails to start with an invalid scheme list', async () => {
      const error = await serve(parseServeArguments(['--port', '0', '--no-demo', '--allowed-url-schemes', 'ftp'], {})).then(
        () => expect.fail('serve started'),
        (e: unknown) => e as Error,
      );
      expect(error.message).to.contain("'ftp'");
    });
  });

  describe('with the demo store', () => {
    let serving: Serving;
    before(async () => {
      serving = await serve(parseServeArguments(['--port', '0', '--password', "it's secret", '--role', 'admin'], {}));
    });
    after(async () => {
      await serving.stop();
    });

    it('prints the URL and curl commands that work exactly as printed', async () => {
      expect(serving.banner).to.include(serving.endpoint.url);
      const commands = serving.banner.split('\n').filter((l) => l.startsWith('  curl ')).map((l) => l.trim());
      expect(commands).to.have.length(4);
      const outputs: string[] = [];
      for (const command of [...commands.slice(0, 3), commands[1]!, commands[3]!]) {
        const { stdout } = await run('bash', ['-c', `${command} --fail --silent --show-error`]);
        outputs.push(stdout);
      }
      expect(outputs[0]!.split('\r\n')).to.include('demo');
      const before = outputs[1]!.trim().split('\r\n');
      expect(before[0]).to.equal('person,descendant');
      expect(before).to.include('http://example.com/family#alice,http://example.com/family#carol');
      expect(outputs[2]).to.include('#changed-facts = 1');
      // the rules derived the new ancestors of erin
      const after = outputs[3]!.trim().split('\r\n');
      expect(after.length - before.length).to.equal(3);
      expect(after).to.include('http://example.com/family#alice,http://example.com/family#erin');
      // the guest reads the demo store without credentials
      expect(outputs[4]).to.include('ex:,http://example.com/family#');
    });

    it('lets requests without credentials read the demo store only, never write', async () => {
      const url = serving.endpoint.url;
      expect(serving.banner).to.include("role 'guest', which may read the demo store only");
      expect((await fetch(`${url}/datastores`)).status).to.equal(200);
      expect(await (await fetch(`${url}/datastores`)).text()).to.equal('Name\r\ndemo\r\n');
      const write = await fetch(`${url}/datastores/demo/content?operation=add-content`, { method: 'PATCH', headers: { 'content-type': 'text/turtle' }, body: 'ex:x ex:y ex:z .' });
      expect(write.status).to.equal(403);
      expect((await fetch(`${url}/datastores/demo`, { method: 'DELETE' })).status).to.equal(403);
      expect((await fetch(`${url}/roles`)).status).to.equal(403);
      const admin = await ConnectionFactory.newServerConnection(serving.server.url, 'admin', "it's secret");
      admin.createDataStore('private');
      admin.close();
      expect(await (await fetch(`${url}/datastores`)).text()).to.equal('Name\r\ndemo\r\n');
      expect((await fetch(`${url}/datastores/private`)).status).to.equal(403);
    });
  });

  it('chooses who may act without credentials: the demo reader by default, --guest, --no-guest', () => {
    expect(parseServeArguments([], {}).guest).to.equal('demo');
    expect(parseServeArguments(['--no-demo'], {}).guest).to.equal('none');
    expect(parseServeArguments(['--no-guest'], {}).guest).to.equal('none');
    expect(parseServeArguments(['--guest', '--no-demo'], {})).to.deep.include({ guest: 'all', parameters: { 'create-guest-role': 'true' } });
    expect(() => parseServeArguments(['--guest', '--no-guest'], {})).to.throw(/contradict/);
  });

  describe('without the demo store', () => {
    let serving: Serving;
    before(async () => {
      serving = await serve(parseServeArguments(['--port', '0', '--no-demo', '--role', 'admin', '--password', 'pw'], {}));
    });
    after(async () => {
      await serving.stop();
    });

    it('refuses every request without credentials (401)', async () => {
      for (const [method, path] of [['GET', '/datastores'], ['POST', '/datastores/x?type=parallel-nn'], ['GET', '/roles'], ['GET', '/']]) {
        const res = await fetch(`${serving.endpoint.url}${path!}`, { method: method! });
        expect(res.status, `${method!} ${path!}`).to.equal(401);
        expect(res.headers.get('www-authenticate')).to.equal('Basic realm="quadlog"');
      }
      expect(serving.banner).not.to.include('without credentials');
    });
  });
});
