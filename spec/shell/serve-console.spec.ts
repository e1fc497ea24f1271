import { expect } from 'chai';
import { parseServeArguments, serve } from '../../lib/shell/serve.js';
import { consoleBundle } from '../helpers/console-bundle.js';

describe('shell: quadlog serve and the web console', () => {
  before(async function () {
    this.timeout(60_000);
    await consoleBundle();
  });

  it('serves the console at /console/ and names it in the banner', async () => {
    const options = parseServeArguments(['--port', '0', '--no-demo', '--role', 'admin', '--password', 'pw'], {});
    expect(options).not.to.have.property('console');
    const serving = await serve(options);
    try {
      expect(serving.banner).to.include(`web console: ${serving.endpoint.url}/console/`);
      const page = await fetch(`${serving.endpoint.url}/console/`);
      expect(page.status).to.equal(200);
      expect(page.headers.get('content-type')).to.equal('text/html; charset=UTF-8');
    } finally {
      await serving.stop();
    }
  });

  it('--no-console turns it off', async () => {
    const options = parseServeArguments(['--port', '0', '--no-demo', '--role', 'admin', '--password', 'pw', '--no-console'], {});
    expect(options.console).to.equal(false);
    const serving = await serve(options);
    try {
      expect(serving.banner).not.to.include('web console');
      expect((await fetch(`${serving.endpoint.url}/console/`)).status).to.equal(404);
    } finally {
      await serving.stop();
    }
  });
});
