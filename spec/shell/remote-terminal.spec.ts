/**
 * The terminal's features with a remote shell (`quadlog shell --endpoint`): its output is
 * paged, keys typed while a command runs are kept, and `cls` clears this terminal. Driven
 * through a pseudo-terminal (tmux), as interactive.spec.ts, against an endpoint on port 0.
 */
import { expect } from 'chai';
import { ConnectionFactory, Server } from '../../lib/index.js';
import { type EndpointHandle, startEndpoint } from '../../lib/http/index.js';
import { lastLine, numberedFacts, useTerminal } from './terminal-helpers.js';

describe('shell: the terminal of a remote shell pages, keeps typed-ahead keys and clears the screen', function () {
  this.timeout(120_000);
  let server: Server;
  let endpoint: EndpointHandle;
  const tty = useTerminal('quadlog-shell-remote-tty-');

  before(async function () {
    this.timeout(600_000);
    server = await Server.create({ roleName: 'admin', password: 'pw', parameters: { 'password-hashing': 'fast' } });
    endpoint = await startEndpoint(server, { port: 0, objectKeepAliveTime: 60_000 });
    const sc = await ConnectionFactory.newServerConnection(server.url, 'admin', 'pw');
    sc.createDataStore('s');
    const ds = sc.newDataStoreConnection('s');
    await ds.importData('ADD', numberedFacts(100));
    ds.close();
    sc.close();
  });
  after(async () => {
    await endpoint.close();
    await server.shutdown();
  });

  it('pages with the built-in pager, runs a line typed during a command after it, and clears the screen with cls', async () => {
    const t = await tty.start({ env: ['PAGER='], args: ['--endpoint', endpoint.url, '--role', 'admin', '--password', 'pw'] });
    await t.line('active s');
    await t.waitFor(/^s> $/m);
    await t.line('SELECT ?x ?v WHERE { ?x ?p ?v } ORDER BY ?x');
    let screen = await t.waitFor(/^-- more -- \(space: next page, Enter: next line, q: stop\)$/m, false);
    expect(screen).to.contain('<http://e.com/n1026>').and.not.contain('<http://e.com/n1027>');
    await t.keys(['q']);
    screen = await t.waitFor(/^\(the rest of the output was dropped: the pager was closed\)\ns> $/m);
    expect(screen).to.not.contain('n1027');
    // typed while the remote command runs: kept, and run after it
    await t.line('sleep 5000');
    await t.waitFor(/^s> sleep 5000\n/m);
    await t.type('echo one');
    await t.keys(['Enter']);
    await t.type('echo two');
    screen = await t.waitFor(/^s> echo one\none\ns> echo two$/m);
    expect(lastLine(screen)).to.equal('s> echo two');
    await t.keys(['C-u']);
    await t.line('cls');
    screen = await t.waitFor(/^s> \s*$/, false);
    expect(screen).to.not.contain('echo one');
  });
});
