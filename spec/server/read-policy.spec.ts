import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from 'chai';
import { AccessDeniedError, BadRequestError, ConnectionFactory, ParsingError, Server, UnknownResourceError } from '../../lib/index.js';
import type { OpenedSource } from '../../lib/formats/content-source.js';
import { checkUrl, openIriUnder, type ReadPolicy, readPolicyOf, STRICT_READ_POLICY } from '../../lib/server/read-policy.js';
import { listen } from '../helpers/listen.js';
import { expectError } from '../helpers/server.js';

/** The whole content of an opened source, as text. */
async function textOf(opened: OpenedSource): Promise<string> {
  const parts: Buffer[] = [];
  for await (const chunk of opened.chunks) parts.push(Buffer.from(chunk));
  return Buffer.concat(parts).toString('utf8');
}

/** A port on which nothing listens: bound, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('server: read policy of imports by IRI', () => {
  let root: string;
  let sandbox: string;
  let outside: string;
  const secret = `SECRET-${randomUUID()}`;
  const TTL = '<http://example.com/a> <http://example.com/p> <http://example.com/b> .\n';

  before(() => {
    root = mkdtempSync(join(tmpdir(), 'quadlog-read-policy-'));
    sandbox = join(root, 'sandbox');
    outside = join(root, 'outside');
    mkdirSync(sandbox);
    mkdirSync(outside);
    mkdirSync(join(sandbox, 'sub'));
    writeFileSync(join(sandbox, 'a.ttl'), TTL);
    writeFileSync(join(sandbox, 'sub', 'b.nt'), TTL);
    writeFileSync(join(outside, 'secret.ttl'), `${secret}\n`);
    symlinkSync(join(outside, 'secret.ttl'), join(sandbox, 'link-out.ttl'));
    symlinkSync(outside, join(sandbox, 'dir-out'));
    symlinkSync(join(outside, 'gone.ttl'), join(sandbox, 'dangling-out.ttl'));
    symlinkSync(join(sandbox, 'a.ttl'), join(sandbox, 'link-in.ttl'));
    symlinkSync('loop-b', join(sandbox, 'loop-a'));
    symlinkSync('loop-a', join(sandbox, 'loop-b'));
    symlinkSync(sandbox, join(root, 'sandbox-link'));
  });

  after(() => rmSync(root, { recursive: true, force: true }));

  const fileIri = (path: string): string => pathToFileURL(path).href;
  const withSandbox = (directory: string = sandbox, schemes = 'file'): ReadPolicy => readPolicyOf({ 'sandbox-directory': directory, 'allowed-url-schemes-on-import': schemes });

  describe('parameters', () => {
    it('defaults to https only and no sandbox', () => {
      const policy = readPolicyOf({});
      expect([...policy.allowedSchemes]).to.deep.equal(['https']);
      expect(policy.sandboxDirectory).to.equal(undefined);
      expect([...STRICT_READ_POLICY.allowedSchemes]).to.deep.equal(['https']);
      expect(readPolicyOf({ 'sandbox-directory': '' }).sandboxDirectory).to.equal(undefined);
    });

    it('reads a comma-separated list of file, http and https (any case, spaces around items)', () => {
      expect([...readPolicyOf({ 'allowed-url-schemes-on-import': 'file,http,https' }).allowedSchemes].sort()).to.deep.equal(['file', 'http', 'https']);
      expect([...readPolicyOf({ 'allowed-url-schemes-on-import': ' HTTP , http ' }).allowedSchemes]).to.deep.equal(['http']);
    });

    it('refuses other schemes and empty items, naming the value', () => {
      for (const value of ['ftp', 'https,ftp', 'https,', '', ' , ', 'data', 'http:']) {
        const e = (() => {
          try {
            readPolicyOf({ 'allowed-url-schemes-on-import': value });
          } catch (error) {
            return error as Error;
          }
          return expect.fail(`'${value}' was accepted`);
        })();
        expect(e, value).to.be.instanceOf(BadRequestError);
        expect(e.message).to.contain(`'${value}'`).and.to.contain('allowed-url-schemes-on-import');
      }
    });

    it('refuses a sandbox directory that does not exist or is a file', () => {
      expect(() => readPolicyOf({ 'sandbox-directory': join(root, 'no-such-dir') })).to.throw(BadRequestError, /sandbox-directory.*not an existing directory/);
      expect(() => readPolicyOf({ 'sandbox-directory': join(sandbox, 'a.ttl') })).to.throw(BadRequestError, /not an existing directory/);
      expect(readPolicyOf({ 'sandbox-directory': sandbox }).sandboxDirectory).to.equal(sandbox);
    });

    it('makes Server.create fail, leaving no server registered', async () => {
      const url = `test://read-policy/${randomUUID()}`;
      await expectError(Server.create({ roleName: 'admin', password: 'pw', url, parameters: { 'allowed-url-schemes-on-import': 'ftp' } }), BadRequestError);
      expect(() => Server.lookup(url)).to.throw(UnknownResourceError);
      await expectError(Server.create({ roleName: 'admin', password: 'pw', url, parameters: { 'sandbox-directory': join(root, 'missing') } }), BadRequestError);
      expect(() => Server.lookup(url)).to.throw(UnknownResourceError);
      const server = await Server.create({ roleName: 'admin', password: 'pw', url, parameters: { 'sandbox-directory': sandbox, 'allowed-url-schemes-on-import': 'file,https' } });
      try {
        expect(server.readPolicy.sandboxDirectory).to.equal(sandbox);
        expect([...server.readPolicy.allowedSchemes].sort()).to.deep.equal(['file', 'https']);
      } finally {
        await server.shutdown();
      }
    });
  });

  describe('file IRIs', () => {
    it('reads a file inside the sandbox, also through a link inside it and a linked sandbox', async () => {
      expect(await textOf(await openIriUnder(fileIri(join(sandbox, 'a.ttl')), withSandbox()))).to.equal(TTL);
      expect(await textOf(await openIriUnder(fileIri(join(sandbox, 'sub', 'b.nt')), withSandbox()))).to.equal(TTL);
      expect(await textOf(await openIriUnder(fileIri(join(sandbox, 'link-in.ttl')), withSandbox()))).to.equal(TTL);
      // the sandbox named through a link, the file named through the real path, and the reverse
      expect(await textOf(await openIriUnder(fileIri(join(realpathSync(sandbox), 'a.ttl')), withSandbox(join(root, 'sandbox-link'))))).to.equal(TTL);
      expect(await textOf(await openIriUnder(fileIri(join(root, 'sandbox-link', 'a.ttl')), withSandbox()))).to.equal(TTL);
    });

    it("lets a store's commit procedure LOAD what the server's policy allows", async () => {
      const url = `test://read-policy-commit/${randomUUID()}`;
      const server = await Server.create({ roleName: 'admin', password: 'pw', url, parameters: { 'sandbox-directory': sandbox, 'allowed-url-schemes-on-import': 'file' } });
      try {
        const sc = await ConnectionFactory.newServerConnection(url, 'admin', 'pw');
        sc.createDataStore('s');
        const ds = sc.newDataStoreConnection('s');
        await ds.setCommitProcedure(`LOAD <${fileIri(join(sandbox, 'a.ttl'))}>`);
        await ds.importData('ADD', '<http://example.com/x> <http://example.com/p> <http://example.com/y> .');
        expect(await ds.countFacts()).to.equal(2);
        await expectError(ds.setCommitProcedure(`LOAD <${fileIri(join(outside, 'secret.ttl'))}>`), AccessDeniedError);
        ds.close();
        sc.close();
      } finally {
        await server.shutdown();
      }
    });

    it('refuses every file IRI when there is no sandbox directory', async () => {
      for (const policy of [readPolicyOf({ 'allowed-url-schemes-on-import': 'file' }), readPolicyOf({ 'allowed-url-schemes-on-import': 'file', 'sandbox-directory': '' })]) {
        const e = await expectError(openIriUnder(fileIri(join(sandbox, 'a.ttl')), policy), AccessDeniedError);
        expect(e.message).to.contain(fileIri(join(sandbox, 'a.ttl'))).and.to.contain('sandbox-directory is not set');
      }
    });

    it('refuses file IRIs when file is not an allowed scheme, even with a sandbox', async () => {
      const iri = fileIri(join(sandbox, 'a.ttl'));
      const e = await expectError(openIriUnder(iri, withSandbox(sandbox, 'https')), AccessDeniedError);
      expect(e.message).to.equal(`cannot import from '${iri}': the scheme 'file' is not allowed on import (allowed-url-schemes-on-import is 'https')`);
    });

    it('refuses files outside the sandbox: by path, by .., through links to files and directories', async () => {
      const iris = [
        fileIri(join(outside, 'secret.ttl')),
        `${fileIri(sandbox)}/../outside/secret.ttl`,
        `${fileIri(sandbox)}/%2e%2e/outside/secret.ttl`,
        fileIri(join(sandbox, 'link-out.ttl')),
        fileIri(join(sandbox, 'dir-out', 'secret.ttl')),
        'file:///etc/passwd',
      ];
      for (const iri of iris) {
        const e = await expectError(openIriUnder(iri, withSandbox()), AccessDeniedError);
        expect(e.message, iri).to.contain(`'${iri}'`).and.to.contain('outside the sandbox directory').and.not.to.contain(secret);
        // nor where the sandbox is
        expect(e.message.replace(iri, '<iri>')).not.to.contain(root);
      }
    });

    it('does not tell whether a file outside the sandbox exists', async () => {
      const message = async (iri: string): Promise<string> => (await expectError(openIriUnder(iri, withSandbox()), AccessDeniedError)).message.replace(iri, '<iri>');
      const existing = await message(fileIri(join(sandbox, 'dir-out', 'secret.ttl')));
      expect(await message(fileIri(join(sandbox, 'dir-out', 'no-such.ttl')))).to.equal(existing);
      expect(await message(fileIri(join(sandbox, 'dangling-out.ttl')))).to.equal(existing);
      expect(await message(fileIri(join(outside, 'no-such.ttl')))).to.equal(existing);
      expect(await message('file:///etc/no-such-file-anywhere')).to.equal(existing);
    });

    it('fails for a directory, a missing file and a link loop in the sandbox, naming the IRI', async () => {
      const dir = await expectError(openIriUnder(fileIri(join(sandbox, 'sub')), withSandbox()), ParsingError);
      expect(dir.message).to.contain(fileIri(join(sandbox, 'sub'))).and.to.contain('directory');
      const top = await expectError(openIriUnder(`${fileIri(sandbox)}/`, withSandbox()), ParsingError);
      expect(top.message).to.contain('directory');
      const missing = await expectError(openIriUnder(fileIri(join(sandbox, 'missing.ttl')), withSandbox()), ParsingError);
      expect(missing.message).to.equal(`cannot import from '${fileIri(join(sandbox, 'missing.ttl'))}': there is no such file in the sandbox directory`);
      const below = await expectError(openIriUnder(fileIri(join(sandbox, 'a.ttl', 'x')), withSandbox()), ParsingError);
      expect(below.message).to.contain('no such file');
      const loop = await expectError(openIriUnder(fileIri(join(sandbox, 'loop-a')), withSandbox()), ParsingError);
      expect(loop.message).to.contain('symbolic links');
    });

    it('refuses a FIFO without blocking', async function () {
      const fifo = join(sandbox, `fifo-${process.pid}`);
      try {
        execFileSync('mkfifo', [fifo]);
      } catch {
        this.skip();
      }
      const e = await expectError(openIriUnder(fileIri(fifo), withSandbox()), ParsingError);
      expect(e.message).to.contain('not a regular file');
    });

    it('refuses a file IRI naming another host', async () => {
      const e = await expectError(openIriUnder('file://example.com/etc/passwd', withSandbox()), AccessDeniedError);
      expect(e.message).to.contain("'file://example.com/etc/passwd'").and.to.contain('local path');
    });
  });

  describe('schemes', () => {
    it('refuses http by default and unknown schemes always, naming the IRI and the scheme', async () => {
      const http = await expectError(openIriUnder('http://127.0.0.1:1/data.ttl', STRICT_READ_POLICY), AccessDeniedError);
      expect(http.message).to.equal("cannot import from 'http://127.0.0.1:1/data.ttl': the scheme 'http' is not allowed on import (allowed-url-schemes-on-import is 'https')");
      for (const iri of ['ftp://example.com/data.nt', 'data:text/turtle,x', 'gopher://x/']) {
        const e = await expectError(openIriUnder(iri, readPolicyOf({ 'allowed-url-schemes-on-import': 'file,http,https', 'sandbox-directory': sandbox })), AccessDeniedError);
        expect(e.message).to.contain(`'${iri}'`).and.to.contain(`scheme '${iri.slice(0, iri.indexOf(':'))}'`);
      }
      await expectError(openIriUnder('not an iri', STRICT_READ_POLICY), ParsingError);
    });

    it('checks redirect targets: an allowed scheme, never a file', () => {
      const https = readPolicyOf({});
      const from = new URL('https://example.com/a');
      expect(() => checkUrl(https, new URL('http://example.com/b'), from.href, from)).to.throw(AccessDeniedError, /redirects to a URL of scheme 'http', which is not allowed on import \(allowed-url-schemes-on-import is 'https'\)/);
      expect(() => checkUrl(https, new URL('https://example.com/b'), from.href, from)).not.to.throw();
      const all = readPolicyOf({ 'allowed-url-schemes-on-import': 'file,http,https', 'sandbox-directory': sandbox });
      expect(() => checkUrl(all, new URL(fileIri(join(sandbox, 'a.ttl'))), from.href, from)).to.throw(AccessDeniedError, /redirects to a file IRI/);
      expect(() => checkUrl(all, new URL('ftp://example.com/'), from.href, from)).to.throw(AccessDeniedError, /scheme 'ftp'/);
    });
  });

  describe('fetching', () => {
    const http = readPolicyOf({ 'allowed-url-schemes-on-import': 'http' });
    let web: { readonly url: string; close(): Promise<void> };
    let hanging: { readonly url: string; close(): Promise<void> };

    before(async () => {
      web = await listen((req, res) => {
        const url = req.url ?? '';
        if (url === '/data.ttl') res.writeHead(200, { 'content-type': 'text/turtle' }).end(TTL);
        else if (url === '/error') res.writeHead(500, { 'content-type': 'text/plain' }).end(secret);
        else if (url === '/to-data') res.writeHead(302, { location: '/data.ttl' }).end();
        else if (url === '/to-https') res.writeHead(301, { location: 'https://127.0.0.1:1/data.ttl' }).end();
        else if (url === '/to-file') res.writeHead(307, { location: fileIri(join(sandbox, 'a.ttl')) }).end();
        else if (url.startsWith('/hop/')) {
          const n = Number(url.slice(5));
          res.writeHead(302, { location: n === 0 ? '/data.ttl' : `/hop/${n - 1}` }).end();
        } else if (url === '/cut') {
          res.writeHead(200, { 'content-type': 'text/turtle', 'content-length': '100000' });
          res.write(TTL);
          setTimeout(() => res.destroy(), 20);
        } else res.writeHead(404, { 'content-type': 'text/plain' }).end(`${secret} not found`);
      });
      // accepts connections and never answers
      hanging = await listen(() => undefined);
    });

    after(async () => {
      await web.close();
      await hanging.close();
    });

    /** The message of a failed fetch, with the IRI replaced by `<iri>`. */
    async function failure(iri: string, policy: ReadPolicy = http, timeoutMs?: number): Promise<string> {
      const e = await expectError(
        (async () => {
          const opened = await openIriUnder(iri, policy, timeoutMs !== undefined ? { timeoutMs } : {});
          await textOf(opened);
        })(),
        ParsingError,
      );
      expect(e.message).not.to.contain(secret);
      return e.message.replace(iri, '<iri>');
    }

    it('fetches an allowed http IRI, following redirects up to five', async () => {
      const opened = await openIriUnder(`${web.url}/data.ttl`, http);
      expect(opened.declaredType).to.equal('text/turtle');
      expect(await textOf(opened)).to.equal(TTL);
      expect(await textOf(await openIriUnder(`${web.url}/to-data`, http))).to.equal(TTL);
      expect(await textOf(await openIriUnder(`${web.url}/hop/4`, http))).to.equal(TTL);
    });

    it('answers one message for a closed port, a 404, a 500, too many redirects, a cut body and a time limit', async () => {
      const expected = "cannot import from '<iri>': the resource could not be retrieved";
      const port = await closedPort();
      expect(await failure(`http://127.0.0.1:${port}/data.ttl`)).to.equal(expected);
      expect(await failure(`${web.url}/missing.ttl`)).to.equal(expected);
      expect(await failure(`${web.url}/error`)).to.equal(expected);
      expect(await failure(`${web.url}/hop/5`)).to.equal(expected);
      expect(await failure(`${web.url}/cut`)).to.equal(expected);
      expect(await failure(`http://no-such-host.invalid/data.ttl`)).to.equal(expected);
      expect(await failure(`${hanging.url}/data.ttl`, http, 200)).to.equal(expected);
    });

    it('refuses a redirect to a scheme that is not allowed, and to a file', async () => {
      const https = await expectError(openIriUnder(`${web.url}/to-https`, http), AccessDeniedError);
      expect(https.message).to.contain(`'${web.url}/to-https'`).and.to.contain("scheme 'https', which is not allowed on import (allowed-url-schemes-on-import is 'http')");
      const all = readPolicyOf({ 'allowed-url-schemes-on-import': 'file,http', 'sandbox-directory': sandbox });
      const file = await expectError(openIriUnder(`${web.url}/to-file`, all), AccessDeniedError);
      expect(file.message).to.contain('redirects to a file IRI');
    });
  });
});
