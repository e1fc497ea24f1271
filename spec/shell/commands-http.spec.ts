import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { Server } from '../../lib/index.js';
import { type EndpointHandle, startEndpoint } from '../../lib/http/index.js';
import { basic, COMMAND_LIST, EXPECTED_OUTPUT, FAILING_LIST, http, normalise, runCli, tempDir } from './helpers.js';

/** A long query over 1,000 facts: a triple cross product, counted. */
const LONG_QUERY = 'SELECT (COUNT(*) AS ?n) WHERE { ?a ?p ?b . ?c ?q ?d . ?e ?r ?f }';

function chain(n: number): string {
  let text = '';
  for (let i = 0; i < n; i++) text += `<http://e.com/n${i}> <http://e.com/p> <http://e.com/n${i + 1}> . `;
  return text;
}

describe('shell over HTTP: POST /commands and /shells', function () {
  this.timeout(60_000);
  let server: Server;
  let endpoint: EndpointHandle;
  const admin = basic('admin', 'pw');

  beforeEach(async () => {
    server = await Server.create({ roleName: 'admin', password: 'pw', parameters: { 'password-hashing': 'fast' } });
    endpoint = await startEndpoint(server, { port: 0, objectKeepAliveTime: 60_000 });
  });
  afterEach(async () => {
    await endpoint.close();
    await server.shutdown();
  });

  const commands = (script: string, headers: Record<string, string> = {}, query = ''): ReturnType<typeof http> =>
    http(`${endpoint.url}/commands${query}`, 'POST', { authorization: admin, 'content-type': 'text/plain', ...headers }, script);

  it('runs the command list in a fresh shell, streaming its output, with trailers', async () => {
    const answer = await commands(COMMAND_LIST);
    expect(answer.status).to.equal(200);
    expect(answer.headers['content-type']).to.equal('text/plain; charset=UTF-8');
    expect(answer.headers['transfer-encoding']).to.equal('chunked');
    expect(normalise(answer.body)).to.equal(EXPECTED_OUTPUT);
    expect(answer.trailers).to.deep.equal({ 'service-shell-status': 'running', 'service-final-status-code': '200' });
    // each request has a fresh shell: no active store, no variables
    const next = await commands('echo [$(active)]\necho $(greeting)');
    expect(next.body).to.equal("[]\nline 2, column 6: echo: error: variable 'greeting' is not set (used as $(greeting))\n");
    expect(next.trailers['service-shell-status']).to.equal('aborted-non-duplicate');
    expect(next.trailers['service-final-status-code']).to.equal('400');
  });

  it('reports a failure in the output and the trailers, and leaves no transaction open', async () => {
    const answer = await commands(FAILING_LIST);
    expect(answer.status).to.equal(200);
    expect(answer.body).to.contain("line 4, column 10: import, argument 2 'nosuch:graph': error: unknown prefix 'nosuch:' in graph name 'nosuch:graph'\n");
    expect(answer.body).to.contain("transaction on data store 's' rolled back").and.not.contain('not reached');
    expect(answer.trailers['service-shell-status']).to.equal('aborted-non-duplicate');
    expect(answer.trailers['service-error']).to.contain("unknown prefix 'nosuch:'");
    const duplicate = await commands('dstore create s');
    expect(duplicate.trailers['service-shell-status']).to.equal('aborted-duplicate');
    expect(duplicate.trailers['service-final-status-code']).to.equal('409');
    const count = await commands('active s\nSELECT * WHERE { ?s ?p ?o }');
    expect(count.body).to.contain('0 answers');
  });

  it('refuses commands that would prompt, and file access of the server machine other than imports', async () => {
    const answer = await commands('set on-error continue\ndstore create s\ndstore delete s\nrole create r\nexec x.qlog\nexport out.ttl\nset output out.txt\ndstore delete s force\ndstore list');
    expect(answer.body).to.contain("'dstore' asks for confirmation, and this shell cannot ask: add 'force'");
    expect(answer.body).to.contain("'role create' asks for the password, and this shell cannot ask");
    expect(answer.body).to.contain('exec reads a script file, and a remote shell has no file access');
    expect(answer.body).to.contain('exporting to a file is not available in a remote shell');
    expect(answer.body).to.contain('output to a file is not available in a remote shell');
    expect(answer.body).to.contain("data store 's' deleted\nno data stores\n");
  });

  it('runs the command list in a shell of /shells, across requests, with its token', async () => {
    const created = await http(`${endpoint.url}/shells`, 'POST', { authorization: admin });
    expect(created.status).to.equal(201);
    const location = created.headers['location'] as string;
    const token = created.headers['service-authentication-token'] as string;
    expect(location).to.match(/^\/shells\/[0-9a-f]{20}$/);
    const id = location.slice('/shells/'.length);
    // the same command list, in three requests: state (store, prefixes, variables, transaction) carries over
    const lines = COMMAND_LIST.split('\n');
    const parts = [lines.slice(0, 9), lines.slice(9, 16), lines.slice(16)].map((l) => l.join('\n') + '\n');
    let output = '';
    for (const [i, part] of parts.entries()) {
      const auth = i === 1 ? admin : `Service ${token}`;
      const answer = await commands(part, { authorization: auth }, `?shell=${id}`);
      expect(answer.trailers['service-shell-status']).to.equal('running');
      output += answer.body;
    }
    expect(normalise(output)).to.equal(EXPECTED_OUTPUT);
    const shells = await http(`${endpoint.url}/shells`, 'GET', { authorization: admin, accept: 'text/csv' });
    expect(shells.body).to.equal(`Name\r\n${id}\r\n`);
    const description = await http(`${endpoint.url}${location}`, 'GET', { authorization: `Service ${token}`, accept: 'text/csv' });
    expect(description.body).to.equal('Property,Value\r\nrole-name,admin\r\nactive-data-store,family\r\nbusy,false\r\n');
    // another role's credentials or a wrong token are refused
    await commands('role create other password x2');
    expect((await commands('echo x', { authorization: basic('other', 'x2') }, `?shell=${id}`)).status).to.equal(403);
    expect((await commands('echo x', { authorization: 'Service nope' }, `?shell=${id}`)).status).to.equal(401);
    const quit = await commands('quit', { authorization: `Service ${token}` }, `?shell=${id}`);
    expect(quit.trailers['service-shell-status']).to.equal('quit');
    expect((await commands('echo x', { authorization: `Service ${token}` }, `?shell=${id}`)).status).to.equal(404);
  });

  it('interrupts a shell with PATCH operation=interrupt, and the shell goes on', async () => {
    const created = await http(`${endpoint.url}/shells`, 'POST', { authorization: admin });
    const location = created.headers['location'] as string;
    const token = `Service ${created.headers['service-authentication-token'] as string}`;
    const id = location.slice('/shells/'.length);
    await commands(`dstore create s\nimport ! ${chain(1000)}`, { authorization: token }, `?shell=${id}`);
    const running = commands(`${LONG_QUERY}\necho not reached`, { authorization: token }, `?shell=${id}`);
    // interrupt once the shell is busy with the query (polled, no timing assumed)
    for (;;) {
      const d = await http(`${endpoint.url}${location}`, 'GET', { authorization: token, accept: 'text/csv' });
      if (d.body.includes('busy,true')) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const busy = await commands('echo x', { authorization: token }, `?shell=${id}`);
    expect(busy.status).to.equal(409);
    expect((await http(`${endpoint.url}${location}?operation=interrupt`, 'PATCH', { authorization: token })).status).to.equal(204);
    const answer = await running;
    expect(answer.body).to.contain('InterruptedError').and.not.contain('not reached');
    expect(answer.trailers['service-shell-status']).to.equal('aborted-non-duplicate');
    const after = await commands('echo still here', { authorization: token }, `?shell=${id}`);
    expect(after.body).to.equal('still here\n');
    expect((await http(`${endpoint.url}${location}`, 'DELETE', { authorization: token })).status).to.equal(204);
    expect((await http(`${endpoint.url}${location}`, 'GET', { authorization: admin })).status).to.equal(404);
  });

  it('cancels the commands of a request with DELETE /requests/<id>', async () => {
    await commands(`dstore create s\nimport ! ${chain(1000)}`);
    const running = commands(`active s\n${LONG_QUERY}`, { 'service-request-id': 'long-one' });
    for (;;) {
      const listed = await http(`${endpoint.url}/requests`, 'GET', { authorization: admin, accept: 'text/csv' });
      if (listed.body.includes('long-one')) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect((await http(`${endpoint.url}/requests/long-one`, 'DELETE', { authorization: admin })).status).to.equal(204);
    const answer = await running;
    expect(answer.body).to.contain('InterruptedError');
  });

  it('expires idle shells after object-keep-alive-time', async () => {
    await endpoint.close();
    endpoint = await startEndpoint(server, { port: 0, objectKeepAliveTime: 50 });
    const created = await http(`${endpoint.url}/shells`, 'POST', { authorization: admin });
    const location = created.headers['location'] as string;
    for (;;) {
      const d = await http(`${endpoint.url}${location}`, 'GET', { authorization: admin });
      if (d.status === 404) break;
      await new Promise((r) => setTimeout(r, 50));
    }
  });

  it('is what quadlog shell --endpoint runs: a script in one request, with the same output', async () => {
    const dir = tempDir('quadlog-shell-remote-');
    try {
      writeFileSync(join(dir.path, 'list.qlog'), COMMAND_LIST);
      writeFileSync(join(dir.path, 'fail.qlog'), FAILING_LIST);
      const env = { QUADLOG_PASSWORD: 'pw' };
      const [ok, failing, stdin] = await Promise.all([
        runCli(['shell', '--endpoint', endpoint.url, '--role', 'admin', '-f', 'list.qlog'], { cwd: dir.path, env }),
        runCli(['shell', '--endpoint', endpoint.url, '--role', 'admin', '-f', 'fail.qlog'], { cwd: dir.path, env }),
        runCli(['shell', '--endpoint', endpoint.url, '--role', 'admin', '--password', 'pw'], { cwd: dir.path, input: 'echo from stdin\n' }),
      ]);
      expect(ok.stderr).to.equal('');
      expect(ok.code).to.equal(0);
      // the two runs used the same server: the second store creation is the remote's own business
      expect(normalise(ok.stdout)).to.equal(EXPECTED_OUTPUT);
      expect(failing.code).to.equal(1);
      expect(failing.stdout).to.contain("line 4, column 10: import, argument 2 'nosuch:graph'");
      expect(stdin.stdout).to.equal('from stdin\n');
      const wrong = await runCli(['shell', '--endpoint', endpoint.url, '--role', 'admin', '--password', 'nope'], { cwd: dir.path, input: 'echo x\n' });
      expect(wrong.code).to.equal(1);
      expect(wrong.stderr).to.contain('HTTP 401');
    } finally {
      dir.remove();
    }
  });
});
