import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { AccessDeniedError, AuthenticationError, type ComponentInfoRow, ConnectionFactory, DataStoreConnection, EmbeddedStore, InvalidConnectionError, open, OWNER_ROLE, Server, UnknownResourceError } from '../../lib/index.js';
import { startEndpoint } from '../../lib/http/index.js';

const EX = 'http://example.com/';
const TRIPLES = `<${EX}ann> <${EX}knows> <${EX}bob> .\n<${EX}bob> <${EX}knows> <${EX}cat> .\n`;

/** The values of the first column of a SELECT answer. */
async function column(store: DataStoreConnection, query: string): Promise<string[]> {
  const answer = await store.evaluateQuery(query);
  if (answer.type !== 'bindings') throw new Error(`expected bindings, got ${answer.type}`);
  return answer.rows.map((row) => row[0]?.value ?? '');
}

/** How many listening sockets (TCP servers, UDP sockets) the process holds. */
function listeners(): number {
  return process.getActiveResourcesInfo().filter((r) => r === 'TCPServerWrap' || r === 'UDPWrap' || r === 'PipeServerWrap').length;
}

/** The value of a property of a component in component-information rows. */
function component(rows: readonly ComponentInfoRow[], property: string): ComponentInfoRow['value'] | undefined {
  return rows.find((r) => r.property === property)?.value;
}

describe('open(): a store on a private server', () => {
  it('is importable from the package root, also dynamically, and answers a query', async () => {
    const quadlog = await import('../../lib/index.js');
    await using store = await quadlog.open();
    await store.importData('ADD', TRIPLES);
    expect(await column(store, `SELECT ?o WHERE { <${EX}ann> <${EX}knows> ?o }`)).to.deep.equal([`${EX}bob`]);
    expect(store.dataStoreName).to.equal('default');
    expect(store.roleName).to.equal(OWNER_ROLE);
  });

  it('is a DataStoreConnection: every method of one is there, and they work on the store', async () => {
    await using store = await open({ name: 'people' });
    expect(store).to.be.instanceOf(DataStoreConnection);
    expect(store).to.be.instanceOf(EmbeddedStore);
    const methods = Object.getOwnPropertyNames(DataStoreConnection.prototype).filter((name) => name !== 'constructor' && typeof Object.getOwnPropertyDescriptor(DataStoreConnection.prototype, name)?.value === 'function');
    expect(methods.length).to.be.greaterThan(40);
    for (const name of methods) expect(typeof (store as unknown as Record<string, unknown>)[name], name).to.equal('function');

    // a round of calls through the inherited methods
    expect(await store.setPrefix('ex:', EX)).to.equal(true);
    expect((await store.getPrefixes()).get('ex:')).to.equal(EX);
    await store.beginTransaction('read-write');
    await store.importData('ADD', TRIPLES);
    await store.importData('ADD', '[?x, ex:reaches, ?y] :- [?x, ex:knows, ?y] . [?x, ex:reaches, ?z] :- [?x, ex:reaches, ?y], [?y, ex:knows, ?z] .');
    await store.commitTransaction();
    expect(await column(store, 'SELECT ?y WHERE { ex:ann ex:reaches ?y } ORDER BY ?y')).to.deep.equal([`${EX}bob`, `${EX}cat`]);
    await store.evaluateUpdate('DELETE DATA { ex:bob ex:knows ex:cat }');
    expect(await column(store, 'SELECT ?y WHERE { ex:ann ex:reaches ?y }')).to.deep.equal([`${EX}bob`]);
    expect(await store.countFacts()).to.equal(2) // ann knows bob, and ann reaches bob derived from it;
    expect(await store.exportDataToString('application/n-triples')).to.include(`<${EX}ann> <${EX}knows> <${EX}bob>`);
    const rows: string[] = [];
    for await (const row of store.evaluateQueryIterator('SELECT ?s WHERE { ?s ex:knows ?o }')) rows.push(row.get('s')?.value ?? '');
    expect(rows).to.deep.equal([`${EX}ann`]);
    expect((await store.getDataStoreProperties()).length).to.be.greaterThan(0);
    expect(component(await store.getComponentInfo(), 'Name')).to.equal('people');
    using second = store.duplicate();
    expect(await second.countFacts()).to.equal(2);
  });

  it('takes store parameters', async () => {
    await using store = await open({ parameters: { equality: 'noUNA' } });
    const equality = (await store.getDataStoreProperties()).find((r) => r.property === 'parameters.equality' || r.property === 'equality');
    expect(equality?.value).to.equal('noUNA');
    await store.importData('ADD', `<${EX}a> <http://www.w3.org/2002/07/owl#sameAs> <${EX}b> . <${EX}a> <${EX}p> "x" .`);
    expect(await column(store, `SELECT ?v WHERE { <${EX}b> <${EX}p> ?v }`)).to.deep.equal(['x']);
  });

  it('closes with await using, and close() shuts its server down', async () => {
    let kept: EmbeddedStore | undefined;
    let url = '';
    {
      await using store = await open();
      kept = store;
      url = store.server.url;
      expect(() => Server.lookup(url)).to.not.throw();
    }
    expect(kept.isClosed).to.equal(true);
    expect(kept.server.isShutdown).to.equal(true);
    expect(() => Server.lookup(url)).to.throw(UnknownResourceError);
    let failure: unknown;
    await kept.countFacts().catch((e: unknown) => (failure = e));
    expect(failure).to.be.instanceOf(InvalidConnectionError);

    const store = await open();
    await store.close();
    expect(store.server.isShutdown).to.equal(true);
    await store.close(); // twice is harmless
  });

  it('gives two opens two isolated stores', async () => {
    await using one = await open();
    await using two = await open();
    expect(one.server).to.not.equal(two.server);
    expect(one.server.url).to.not.equal(two.server.url);
    expect(one.password).to.not.equal(two.password);
    await one.importData('ADD', TRIPLES);
    expect(await one.countFacts()).to.equal(2);
    expect(await two.countFacts()).to.equal(0);
  });

  it('needs the random password to connect: no other code gets in by the URL alone', async () => {
    await using store = await open();
    expect(store.server.url).to.match(/^local\/[0-9a-f-]{36}$/);
    expect(store.password).to.have.length.greaterThanOrEqual(40);
    for (const password of ['', 'secret', 'owner', 'admin']) {
      let failure: unknown;
      await ConnectionFactory.newServerConnection(store.server.url, OWNER_ROLE, password).catch((e: unknown) => (failure = e));
      expect(failure, password).to.be.instanceOf(AuthenticationError);
    }
    expect(() => ConnectionFactory.newGuestConnection(store.server.url)).to.throw(AuthenticationError);
    await using ds = await ConnectionFactory.newDataStoreConnection(store.server.url, 'default', OWNER_ROLE, store.password);
    expect(await ds.countFacts()).to.equal(0);
  });

  it('listens on nothing', async () => {
    const before = listeners();
    await using store = await open();
    await store.importData('ADD', TRIPLES);
    expect(listeners()).to.equal(before);
    // and the measure sees an endpoint
    const endpoint = await startEndpoint(store.server, { port: 0 });
    expect(listeners()).to.equal(before + 1);
    await endpoint.close();
  });

  it('computes no slow password hash: its one hash is of the cheapest cost', async () => {
    await using store = await open();
    await using sc = await ConnectionFactory.newServerConnection(store.server.url, OWNER_ROLE, store.password);
    // creating the role hashed its password once; opening connections with it hashed nothing more
    expect(component(sc.getComponentInfo(), 'Password hashes computed')).to.equal(1);
    expect(sc.describeRole(OWNER_ROLE).passwordHash).to.match(/^\$scrypt\$ln=4,/);
    // other roles are hashed at the server's cost as always
    await sc.createRole('reader', 'a chosen password');
    expect(sc.describeRole('reader').passwordHash).to.match(/^\$scrypt\$ln=14,/);
  });

  it('is served over HTTP by quadlog/http, as its role with its password, and the endpoint closes with the store', async () => {
    const store = await open({ name: 'web' });
    await store.importData('ADD', TRIPLES);
    const endpoint = await startEndpoint(store.server, { port: 0 });
    const query = encodeURIComponent(`SELECT ?o WHERE { <${EX}ann> <${EX}knows> ?o }`);
    const url = `${endpoint.url}/datastores/web/sparql?query=${query}`;
    const authorization = `Basic ${Buffer.from(`${store.roleName}:${store.password}`).toString('base64')}`;
    const response = await fetch(url, { headers: { authorization, accept: 'text/csv' } });
    expect(response.status).to.equal(200);
    expect(await response.text()).to.equal(`o\r\n${EX}bob\r\n`);
    expect((await fetch(url)).status).to.equal(401);
    await store.close();
    let failure: unknown;
    await fetch(url, { headers: { authorization } }).catch((e: unknown) => (failure = e));
    expect(failure, 'the endpoint closed with the store').to.be.instanceOf(Error);
  });

  describe('with a directory', () => {
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'quadlog-open-'));
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('keeps the store between opens, with a new password each time', async () => {
      let first: string;
      {
        await using store = await open({ directory: dir, name: 'kept' });
        first = store.password;
        await store.importData('ADD', TRIPLES);
      }
      await using again = await open({ directory: dir, name: 'kept' });
      expect(again.password).to.not.equal(first);
      expect(await again.countFacts()).to.equal(2);
      let failure: unknown;
      await ConnectionFactory.newServerConnection(again.server.url, OWNER_ROLE, first).catch((e: unknown) => (failure = e));
      expect(failure).to.be.instanceOf(AuthenticationError);
    });

    it('refuses a directory of a server it did not make, even one with a role named owner, and leaves its password alone', async () => {
      for (const roleName of ['admin', OWNER_ROLE]) {
        const server = await Server.create({ roleName, password: 'secret', parameters: { persistence: 'file', 'server-directory': dir, 'password-hashing': 'fast' } });
        await server.shutdown();
        let failure: unknown;
        await open({ directory: dir }).catch((e: unknown) => (failure = e));
        expect(failure, roleName).to.be.instanceOf(AccessDeniedError);
        expect(String(failure)).to.include('was not made by open()');
        // the chosen password still works
        const again = await Server.create({ roleName, password: 'secret', url: `open-refused-${roleName}`, parameters: { persistence: 'file', 'server-directory': dir, 'password-hashing': 'fast' } });
        await using sc = await ConnectionFactory.newServerConnection(again.url, roleName, 'secret');
        expect(sc.roleName).to.equal(roleName);
        await again.shutdown();
        rmSync(dir, { recursive: true, force: true });
        mkdirSync(dir);
      }
    });
  });
});
