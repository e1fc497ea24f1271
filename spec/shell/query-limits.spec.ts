/**
 * The shell's query limits: the variables `query.time-limit` and `query.memory-limit` become the
 * limits of the queries the shell runs.
 */
import { expect } from 'chai';
import { ConnectionFactory, Server } from '../../lib/index.js';
import { Shell } from '../../lib/commands/index.js';
import { bigNTriples } from '../helpers/server.js';

describe('shell: query limits', () => {
  let server: Server;
  let shell: Shell;
  let out = '';
  let err = '';

  before(async () => {
    server = await Server.create({ roleName: 'admin', password: 'pw', parameters: { 'password-hashing': 'fast' } });
    const connection = await ConnectionFactory.newServerConnection(server.url, 'admin', 'pw');
    connection.createDataStore('big');
    const ds = connection.newDataStoreConnection('big');
    await ds.importData('ADD', bigNTriples(300));
    ds.close();
    shell = new Shell({
      connection,
      io: { write: (t) => void (out += t), error: (t) => void (err += t) },
      files: { readText: () => Promise.reject(new Error('no files')), createWriter: () => Promise.reject(new Error('no files')) },
      variables: {},
    });
    await shell.run('active big', { interactive: true });
  });

  after(async () => {
    await shell.close();
    await server.shutdown();
  });

  it('query.memory-limit stops a query that holds more, naming the limit', async () => {
    err = '';
    await shell.run('set query.memory-limit 5000', { interactive: true });
    await shell.run('SELECT DISTINCT ?a ?c WHERE { ?a <http://example.com/big/p> ?b . ?c <http://example.com/big/p> ?d }', { interactive: true });
    expect(err).to.contain('memory limit of 5000 bytes');
    await shell.run('set query.memory-limit none', { interactive: true });
    out = '';
    err = '';
    await shell.run('ASK { ?s ?p ?o }', { interactive: true });
    expect(err).to.equal('');
  });

  it('refuses a value that is not a positive number of bytes or none', async () => {
    err = '';
    await shell.run('set query.memory-limit lots', { interactive: true });
    await shell.run('set query.memory-limit 0', { interactive: true });
    expect(err).to.contain("invalid value 'lots' for 'query.memory-limit'");
    expect(err).to.contain("invalid value '0' for 'query.memory-limit'");
  });
});
