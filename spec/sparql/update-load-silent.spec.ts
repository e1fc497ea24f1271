import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from 'chai';
import { AccessDeniedError, ConnectionFactory, type DataStoreConnection, ParsingError } from '../../lib/index.js';
import { expectError, useServer } from '../helpers/server.js';

describe('sparql: LOAD SILENT turns a failed load into success, and nothing else', () => {
  const sandbox = mkdtempSync(join(tmpdir(), 'quadlog-load-silent-'));
  const outside = mkdtempSync(join(tmpdir(), 'quadlog-load-silent-outside-'));
  after(() => {
    rmSync(sandbox, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });
  writeFileSync(join(sandbox, 'a.nt'), '<http://e/a> <http://e/p> <http://e/b> .\n');
  writeFileSync(join(sandbox, 'bad.ttl'), '<http://e/a> <http://e/p> "unterminated .\n');
  writeFileSync(join(sandbox, 'g.trig'), '<http://e/locked> { <http://e/a> <http://e/p> <http://e/c> . }\n');
  writeFileSync(join(outside, 'x.nt'), '<http://e/x> <http://e/p> <http://e/x> .\n');
  const env = useServer('sparql-load-silent', { 'sandbox-directory': sandbox, 'allowed-url-schemes-on-import': 'file' });
  const iri = (dir: string, file: string): string => pathToFileURL(join(dir, file)).href;

  /** A store and a connection of a role that may write the default graph and the graph <http://e/open> only. */
  async function limited(): Promise<{ admin: DataStoreConnection; ds: DataStoreConnection }> {
    const name = env.uniqueName('load-silent');
    const sc = env.connection;
    sc.createDataStore(name);
    const role = `${name}-writer`;
    await sc.createRole(role, 'pw');
    sc.grantPrivileges(role, `|datastores|${name}`, 'read');
    sc.grantPrivileges(role, `|datastores|${name}|tupletables|DefaultTriples`, 'read,write');
    sc.grantPrivileges(role, `|datastores|${name}|tupletables|Quads`, 'read,write');
    sc.grantPrivileges(role, `|datastores|${name}|namedgraphs|<http://e/open>`, 'read,write');
    const rc = env.track(await ConnectionFactory.newServerConnection(env.url, role, 'pw'));
    return { admin: env.track(sc.newDataStoreConnection(name)), ds: env.track(rc.newDataStoreConnection(name)) };
  }

  it('succeeds silently when the resource is missing, refused by the read policy, or not valid RDF', async () => {
    const { admin, ds } = await limited();
    await ds.evaluateUpdate(`LOAD SILENT <${iri(sandbox, 'missing.nt')}>`);
    await ds.evaluateUpdate(`LOAD SILENT <${iri(outside, 'x.nt')}>`);
    await ds.evaluateUpdate(`LOAD SILENT <https://127.0.0.1:1/none.nt>`);
    await ds.evaluateUpdate(`LOAD SILENT <${iri(sandbox, 'bad.ttl')}> INTO GRAPH <http://e/open>`);
    // without SILENT, each is an error
    await expectError(ds.evaluateUpdate(`LOAD <${iri(sandbox, 'missing.nt')}>`), ParsingError);
    await expectError(ds.evaluateUpdate(`LOAD <${iri(outside, 'x.nt')}>`), AccessDeniedError);
    await ds.evaluateUpdate(`LOAD SILENT <${iri(sandbox, 'a.nt')}> INTO GRAPH <http://e/open>`);
    expect(await admin.exportDataToString('application/n-quads')).to.equal('<http://e/a> <http://e/p> <http://e/b> <http://e/open> .\n');
  });

  it('does not hide that the role may not write the graph LOAD writes to', async () => {
    const { admin, ds } = await limited();
    const e = await expectError(ds.evaluateUpdate(`LOAD SILENT <${iri(sandbox, 'a.nt')}> INTO GRAPH <http://e/locked>`), AccessDeniedError);
    expect(e.message).to.include('write');
    // a graph named in the content counts too
    await expectError(ds.evaluateUpdate(`LOAD SILENT <${iri(sandbox, 'g.trig')}>`), AccessDeniedError);
    // the refused update changed nothing, even when it loaded something before the refusal
    await expectError(ds.evaluateUpdate(`LOAD <${iri(sandbox, 'a.nt')}> ; LOAD SILENT <${iri(sandbox, 'a.nt')}> INTO GRAPH <http://e/locked>`), AccessDeniedError);
    expect(await admin.exportDataToString('application/n-quads')).to.equal('');
  });
});
