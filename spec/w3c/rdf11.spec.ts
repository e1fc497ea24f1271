/**
 * The W3C RDF 1.1 syntax test suites (N-Triples, N-Quads, Turtle, TriG) run through the
 * public API: every manifest entry is imported into a fresh data store with
 * `DataStoreConnection.importData`.
 *
 * - positive syntax: the import reports no error;
 * - negative syntax (and negative evaluation): the import reports at least one error and the
 *   store (holding one fact beforehand) is unchanged;
 * - evaluation: the import reports no error and the store, exported as N-Quads, is
 *   isomorphic to the expected N-Triples/N-Quads file.
 *
 * Each input is parsed with base IRI = the manifest's mf:assumedTestBase + the file name.
 * The stores keep their default prefixes (owl:, rdf:, rdfs:, xsd:, …), which quadlog lets
 * Turtle/TriG input use without declaring them: that is how users meet the parser, and no
 * test of these suites depends on an undeclared prefix among them (the outcomes are the
 * same with the prefixes removed).
 *
 * Known failures are listed in {@link EXCLUSIONS} with their reason; they still run and must
 * still fail (so the list is kept honest when a dependency gets fixed).
 */
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { expect } from 'chai';
import { Parser, type Quad } from 'n3';
import { ConnectionFactory, Server, N_QUADS, N_TRIPLES, TRIG, TURTLE, type ServerConnection } from '../../lib/index.js';
import { importFailure } from '../helpers/imports.js';
import { isomorphic } from '../helpers/isomorphism.js';
import { readManifest, type ManifestEntry } from '../helpers/w3c-manifest.js';
import { W3C_DIR } from '../helpers/test-data.js';

const W3C_RDF11 = join(W3C_DIR, 'rdf/rdf11');
const SERVER_URL = 'w3c-rdf11';
/** Where the suites are published; the base of the manifests that declare none. */
const PUBLISHED_BASE = 'https://w3c.github.io/rdf-tests/rdf/rdf11/';
const SEED = '<http://x/a> <http://x/b> <http://x/c> .\n';

interface Suite {
  readonly folder: string;
  readonly mediaType: string;
}

const SUITES: readonly Suite[] = [
  { folder: 'rdf-n-triples', mediaType: N_TRIPLES },
  { folder: 'rdf-n-quads', mediaType: N_QUADS },
  { folder: 'rdf-turtle', mediaType: TURTLE },
  { folder: 'rdf-trig', mediaType: TRIG },
];

/**
 * Tests that cannot pass, keyed by `folder/mf:name`, with the reason. They are run with the
 * expectation inverted.
 */
const EXCLUSIONS: Readonly<Record<string, string>> = {};

type Kind = 'positive' | 'negative' | 'eval';

function kindOf(type: string): Kind {
  if (/PositiveSyntax$/.test(type)) return 'positive';
  if (/Negative(Syntax|Eval)$/.test(type)) return 'negative';
  if (/Eval$/.test(type)) return 'eval';
  throw new Error(`unknown test type ${type}`);
}

function parseNQuads(text: string): Quad[] {
  return new Parser({ format: 'N-Quads' }).parse(text);
}

describe('W3C RDF 1.1 syntax suites', function () {
  this.timeout(10000);
  let server: Server;
  let sc: ServerConnection;
  let storeCount = 0;

  before(async () => {
    server = await Server.create({ roleName: 'admin', password: 'pw', url: SERVER_URL });
    sc = await ConnectionFactory.newServerConnection(SERVER_URL, 'admin', 'pw');
  });

  after(async () => {
    sc?.close();
    await server?.shutdown();
  });

  /** Runs one test; throws (an assertion error) when it fails. */
  async function run(suite: Suite, base: string, entry: ManifestEntry): Promise<void> {
    const kind = kindOf(entry.type);
    const name = `t${++storeCount}`;
    sc.createDataStore(name);
    const ds = sc.newDataStoreConnection(name);
    try {
      const options = { mediaType: suite.mediaType, baseIRI: base + basename(entry.action) };
      if (kind === 'negative') {
        const seeded = await ds.importData('ADD', SEED, { mediaType: N_TRIPLES });
        expect(seeded.errors, seeded.text).to.equal(0);
        const before = await ds.exportDataToString(N_QUADS);
        const r = await importFailure(ds.importData('ADD', { path: entry.action }, options));
        expect(r.errors, 'a negative test must report an error').to.be.at.least(1);
        expect(await ds.exportDataToString(N_QUADS), 'the store must be unchanged').to.equal(before);
        return;
      }
      const r = await ds.importData('ADD', { path: entry.action }, options);
      expect(r.errors, r.text).to.equal(0);
      if (kind === 'eval') {
        if (entry.result === undefined) throw new Error(`${entry.name} has no mf:result`);
        const exported = await ds.exportDataToString(N_QUADS);
        const actual = parseNQuads(exported);
        const expected = parseNQuads(readFileSync(entry.result, 'utf8'));
        if (!isomorphic(actual, expected)) {
          expect.fail(`not isomorphic to ${basename(entry.result)}\nexpected:\n${readFileSync(entry.result, 'utf8')}\nactual:\n${exported}`);
        }
      }
    } finally {
      ds.close();
      sc.deleteDataStore(name);
    }
  }

  for (const suite of SUITES) {
    const manifest = readManifest(join(W3C_RDF11, suite.folder, 'manifest.ttl'));
    // the N-Triples and N-Quads manifests declare no base (their syntax has no relative IRIs)
    const base = manifest.assumedTestBase ?? `${PUBLISHED_BASE}${suite.folder}/`;

    describe(`${manifest.label} (${suite.folder})`, () => {
      for (const entry of manifest.entries) {
        const exclusion = EXCLUSIONS[`${suite.folder}/${entry.name}`];
        if (exclusion === undefined) {
          it(entry.name, () => run(suite, base, entry));
        } else {
          it(`${entry.name} [known failure: ${exclusion}]`, async () => {
            let failed = false;
            try {
              await run(suite, base, entry);
            } catch {
              failed = true;
            }
            expect(failed, `${entry.name} now passes: remove it from EXCLUSIONS`).to.equal(true);
          });
        }
      }
    });
  }
});
