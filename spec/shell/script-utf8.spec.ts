/**
 * Specs of scripts that are not UTF-8: `quadlog shell -f`, `exec` and a script on standard input
 * sent to a remote endpoint refuse a script holding a malformed byte sequence whole, naming the
 * script and the byte offset, line and column of the sequence; none of its commands runs.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { ConnectionFactory, ParsingError, Server } from '../../lib/index.js';
import { Shell } from '../../lib/commands/index.js';
import { type EndpointHandle, startEndpoint } from '../../lib/http/index.js';
import { LOCAL_FILES } from '../../lib/shell/session.js';
import { scriptText } from '../../lib/shell/script-text.js';
import { CLI, type CliResult, TSX } from './helpers.js';

/**
 * A script whose first command would create the store `made`, with a Latin-1 "é" (0xE9, which
 * starts no UTF-8 sequence here) on its second line: byte offset 27, line 2, column 9.
 */
const MALFORMED = Buffer.concat([Buffer.from('dstore create made\necho caf'), Buffer.from([0xe9]), Buffer.from(' au lait\necho ran\n')]);
const AT = 'invalid UTF-8 byte sequence at byte offset 27 (line 2, column 9)';

/** Runs `quadlog <args>` in `cwd` with `input` (bytes) on standard input. */
function runCliBytes(args: readonly string[], cwd: string, input: Buffer = Buffer.alloc(0)): Promise<CliResult> {
  return new Promise((resolvePromise, reject) => {
    const env = { ...process.env };
    delete env.QUADLOG_ROLE;
    delete env.QUADLOG_PASSWORD;
    const child = spawn(process.execPath, ['--import', TSX, CLI, ...args], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

describe('shell: scripts that are not UTF-8', function () {
  this.timeout(60_000);
  let dir = '';
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'quadlog-script-utf8-'));
    await writeFile(join(dir, 'bad.qlog'), MALFORMED);
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('places the first malformed sequence by byte offset, line and column', () => {
    expect(scriptText(Buffer.from('echo café\n'))).to.equal('echo café\n');
    expect(() => scriptText(MALFORMED)).to.throw(ParsingError, AT);
    // a sequence cut off at the end, an overlong form and a surrogate, after a 2-byte character
    expect(() => scriptText(Buffer.from([0x61, 0x0a, 0xc3, 0xa9, 0xe2, 0x82]))).to.throw('at byte offset 4 (line 2, column 2)');
    expect(() => scriptText(Buffer.from([0xc0, 0xaf]))).to.throw('at byte offset 0 (line 1, column 1)');
    expect(() => scriptText(Buffer.from([0x20, 0xed, 0xa0, 0x80]))).to.throw('at byte offset 1 (line 1, column 2)');
  });

  it('quadlog shell -f refuses the script before running any of it, naming the file and the offset', async () => {
    const result = await runCliBytes(['shell', '-f', 'bad.qlog'], dir);
    expect(result.code).to.equal(1);
    expect(result.stderr).to.equal(`quadlog shell: cannot read the script 'bad.qlog': ${AT}\n`);
    expect(result.stdout).to.equal('');
  });

  it('exec refuses the script before running any of it, naming the file and the offset', async () => {
    const server = await Server.create({ roleName: 'admin', password: 'pw', parameters: { 'password-hashing': 'fast' } });
    let out = '';
    let err = '';
    const shell = new Shell({
      connection: await ConnectionFactory.newServerConnection(server.url, 'admin', 'pw'),
      io: { write: (t) => void (out += t), error: (t) => void (err += t) },
      files: LOCAL_FILES,
      variables: { 'dir.root': dir },
    });
    try {
      const result = await shell.run('exec bad.qlog\necho after', { source: 'outer' });
      expect(result.status).to.equal('aborted');
      expect(err).to.equal(`outer:1:6: exec, argument 1 'bad.qlog': error: cannot read the script '${join(dir, 'bad.qlog')}': ${AT}\n`);
      expect(out).to.equal('');
      expect(server.dataStoreNames()).to.deep.equal([]);
    } finally {
      await shell.close();
      await server.shutdown();
    }
  });

  describe('sent to a remote endpoint', () => {
    let server: Server;
    let endpoint: EndpointHandle;
    beforeEach(async () => {
      server = await Server.create({ roleName: 'admin', password: 'pw', parameters: { 'password-hashing': 'fast' } });
      endpoint = await startEndpoint(server, { port: 0 });
    });
    afterEach(async () => {
      await endpoint.close();
      await server.shutdown();
    });

    it('refuses a script file or standard input that is not UTF-8 before sending it', async () => {
      const remote = ['shell', '--endpoint', endpoint.url, '--role', 'admin', '--password', 'pw'];
      const [file, stdin] = await Promise.all([runCliBytes([...remote, '-f', 'bad.qlog'], dir), runCliBytes(remote, dir, MALFORMED)]);
      expect(file.code).to.equal(1);
      expect(file.stderr).to.equal(`quadlog shell: cannot read the script 'bad.qlog': ${AT}\n`);
      expect(file.stdout).to.equal('');
      expect(stdin.code).to.equal(1);
      expect(stdin.stderr).to.equal(`quadlog shell: cannot read standard input: ${AT}\n`);
      expect(stdin.stdout).to.equal('');
      expect(server.dataStoreNames()).to.deep.equal([]);
      // well-formed standard input still runs, its characters intact
      const ok = await runCliBytes(remote, dir, Buffer.from('echo café ✓\n'));
      expect(ok.stderr).to.equal('');
      expect(ok.stdout).to.equal('echo café ✓\n'.slice(5));
    });
  });
});
