/**
 * The W3C RDF 1.2 RDF/XML test suite (`rdf/rdf12/rdf-xml`, the only RDF/XML suite in the
 * copied tests), run through the public API: each input is imported into a fresh data store
 * as `application/rdf+xml`, with base IRI = the manifest's mf:assumedTestBase + the file name.
 *
 * The suite tests RDF 1.2 additions: triple terms (`rdf:parseType="Triple"`), annotations
 * (`rdf:annotation`, which give triple terms) and base directions (`its:dir`). The store holds
 * RDF 1.1 terms, so the outcome each test must have is:
 *
 * - evaluation whose expected graph has only RDF 1.1 terms: the import reports no error and
 *   the store, exported as N-Quads, is isomorphic to the expected N-Triples;
 * - evaluation whose expected graph has a triple term or a literal with a base direction: the
 *   import fails with the error that says so (nothing is dropped silently) and the store is
 *   unchanged;
 * - negative syntax: the import reports an error and the store is unchanged.
 */
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { expect } from 'chai';
import { Parser } from 'n3';
import { ConnectionFactory, N_QUADS, N_TRIPLES, Server, type ServerConnection } from '../../lib/index.js';
import { importFailure } from '../helpers/imports.js';
import { isomorphic } from '../helpers/isomorphism.js';
import { readManifest, type ManifestEntry } from '../helpers/w3c-manifest.js';
import { W3C_DIR } from '../helpers/test-data.js';

const MANIFEST = join(W3C_DIR, 'rdf/rdf12/rdf-xml/eval/manifest.ttl');
const SERVER_URL = 'w3c-rdf12-xml';
const SEED = '<http://x/a> <http://x/b> <http://x/c> .\n';

/** Whether N-Triples text has RDF 1.2 terms: a triple term `<<( … )>>` or a literal with a base direction (`@en--ltr`). */
function hasRdf12Terms(ntriples: string): boolean {
  return /<<\(|"@[A-Za-z0-9-]+--(?:ltr|rtl)\b/.test(ntriples);
}

describe('W3C RDF 1.2 RDF/XML suite (rdf-xml)', function () {
  this.timeout(10000);
  let server: Server;
  let sc: ServerConnection;
  let storeCount = 0;

  before(async () => {
    server = await Server.create({ roleName: 'admin', password: 'pw', url: SERVER_URL, parameters: { 'password-hashing': 'fast' } });
    sc = await ConnectionFactory.newServerConnection(SERVER_URL, 'admin', 'pw');
  });

  after(async () => {
    sc?.close();
    await server?.shutdown();
  });

  async function run(base: string, entry: ManifestEntry): Promise<void> {
    const name = `t${++storeCount}`;
    sc.createDataStore(name);
    const ds = sc.newDataStoreConnection(name);
    try {
      const options = { mediaType: 'application/rdf+xml', baseIRI: base + basename(entry.action) };
      const expectedText = entry.result === undefined ? undefined : readFileSync(entry.result, 'utf8');
      if (/NegativeSyntax$/.test(entry.type) || (expectedText !== undefined && hasRdf12Terms(expectedText))) {
        const seeded = await ds.importData('ADD', SEED, { mediaType: N_TRIPLES });
        expect(seeded.errors, seeded.text).to.equal(0);
        const r = await importFailure(ds.importData('ADD', { path: entry.action }, options));
        expect(r.errors, 'the import must report an error').to.be.at.least(1);
        if (expectedText !== undefined) expect(r.text).to.match(/\(RDF 1\.2[:)].*cannot be stored/);
        expect(await ds.exportDataToString(N_QUADS), 'the store must be unchanged').to.equal(SEED);
        return;
      }
      if (expectedText === undefined) throw new Error(`${entry.name} has no mf:result`);
      const r = await ds.importData('ADD', { path: entry.action }, options);
      expect(r.errors, r.text).to.equal(0);
      const exported = await ds.exportDataToString(N_QUADS);
      const actual = new Parser({ format: 'N-Quads' }).parse(exported);
      const expected = new Parser({ format: 'N-Triples' }).parse(expectedText);
      if (!isomorphic(actual, expected)) expect.fail(`not isomorphic to ${basename(entry.result!)}\nexpected:\n${expectedText}\nactual:\n${exported}`);
    } finally {
      ds.close();
      sc.deleteDataStore(name);
    }
  }

  const manifest = readManifest(MANIFEST);
  it('has the 31 tests of the suite', () => expect(manifest.entries).to.have.length(31));
  for (const entry of manifest.entries) {
    it(entry.name, () => run(manifest.assumedTestBase!, entry));
  }
});
