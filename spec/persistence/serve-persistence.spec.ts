/**
 * Specs of `quadlog serve --server-directory`: the flags become the persistence parameters,
 * and a served server restarted on the same directory finds its stores and roles (the demo
 * store is not created twice).
 */
import { expect } from 'chai';
import { join } from 'node:path';
import { parseServeArguments, serve } from '../../lib/shell/serve.js';
import { useTempDir } from './helpers.js';

describe('persistence: quadlog serve --server-directory', () => {
  const tmp = useTempDir('quadlog-serve-');

  it('turns the flags into server parameters and checks them', () => {
    const options = parseServeArguments(['--server-directory', 'server-dir', '--persistence-durability', 'relaxed', '--role', 'a', '--password', 'b'], {});
    expect(options.parameters).to.include({ persistence: 'file', 'server-directory': 'server-dir', 'persistence-durability': 'relaxed' });
    expect(() => parseServeArguments(['--persistence-durability', 'relaxed', '--role', 'a', '--password', 'b'], {})).to.throw(/needs --server-directory/);
    expect(() => parseServeArguments(['--server-directory', '/x', '--persistence-durability', 'often', '--role', 'a', '--password', 'b'], {})).to.throw(/sync or relaxed/);
  });

  it('restarts on the same directory with the demo store and roles it had', async () => {
    const directory = join(tmp.path, 'server');
    const args = ['--port', '0', '--host', '127.0.0.1', '--server-directory', directory, '--role', 'admin', '--password', 'pw', '--no-console'];
    const first = await serve(parseServeArguments(args, {}));
    const stores = first.server.dataStoreNames();
    await first.stop();
    const second = await serve(parseServeArguments(args, {}));
    try {
      expect(second.server.dataStoreNames()).to.deep.equal(stores);
      expect(second.server.roles.has('guest')).to.equal(true);
    } finally {
      await second.stop();
    }
  });
});
