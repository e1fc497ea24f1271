/**
 * Test helper: the runner of the W3C RDF syntax suites (N-Triples, N-Quads, Turtle, TriG; RDF
 * 1.1 in `spec/w3c/rdf11.spec.ts`, RDF 1.2 in `spec/w3c/rdf12.spec.ts`). Every manifest entry
 * is imported into a fresh data store with `DataStoreConnection.importData`:
 *
 * - positive syntax: the import reports no error;
 * - negative syntax (and negative evaluation): the import reports at least one error and the
 *   store (holding one fact beforehand) is unchanged;
 * - evaluation: the import reports no error and the store, exported as N-Quads, is isomorphic
 *   to the expected N-Triples/N-Quads file (triple terms and base directions included);
 * - canonical N-Triples/N-Quads (C14N, RDF 1.2): the store's export in the suite's format is,
 *   line for line (in any order), the expected canonical file.
 *
 * Each input is parsed with base IRI = the manifest's mf:assumedTestBase (or the suite's
 * published folder) + the file name. Known failures are listed with their reason; they still
 * run and must still fail (so a list is kept honest when a dependency gets fixed).
 */
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { expect } from 'chai';
import { Parser, type Quad } from 'n3';
import { ConnectionFactory, N_QUADS, N_TRIPLES, Server, type ServerConnection } from '../../lib/index.js';
import { importFailure } from './imports.js';
import { isomorphic } from './isomorphism.js';
import { readManifest, type ManifestEntry } from './w3c-manifest.js';

/** One suite: its manifest's folder and the media type of its files. */
export interface SyntaxSuite {
  readonly folder: string;
  readonly mediaType: string;
}

/** A run of suites. */
export interface SyntaxSuites {
  /** The title of the outer `describe`. */
  readonly title: string;
  /** The URL the run's server is registered under. */
  readonly serverUrl: string;
  /** The folder holding the suites' folders. */
  readonly root: string;
  /** Where the suites are published: the base of the manifests that declare none. */
  readonly publishedBase: string;
  readonly suites: readonly SyntaxSuite[];
  /** Tests that cannot pass, keyed by `folder/mf:name`, with the reason. */
  readonly exclusions: Readonly<Record<string, string>>;
}

const SEED = '<http://x/a> <http://x/b> <http://x/c> .\n';

type Kind = 'positive' | 'negative' | 'eval' | 'c14n';

function kindOf(type: string): Kind {
  if (/PositiveSyntax$/.test(type)) return 'positive';
  if (/Negative(Syntax|Eval)$/.test(type)) return 'negative';
  if (/PositiveC14N$/.test(type)) return 'c14n';
  if (/Eval$/.test(type)) return 'eval';
  throw new Error(`unknown test type ${type}`);
}

function parseNQuads(text: string): Quad[] {
  return new Parser({ format: 'N-Quads' }).parse(text);
}

function sortedLines(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => line.length > 0)
    .sort();
}

/** Declares the mocha tests of the suites. */
export function describeSyntaxSuites(run: SyntaxSuites): void {
  describe(run.title, function () {
    this.timeout(10000);
    let server: Server;
    let sc: ServerConnection;
    let storeCount = 0;

    before(async () => {
      server = await Server.create({ roleName: 'admin', password: 'pw', url: run.serverUrl, parameters: { 'password-hashing': 'fast' } });
      sc = await ConnectionFactory.newServerConnection(run.serverUrl, 'admin', 'pw');
    });

    after(async () => {
      sc?.close();
      await server?.shutdown();
    });

    /** Runs one test; throws (an assertion error) when it fails. */
    async function test(suite: SyntaxSuite, base: string, entry: ManifestEntry): Promise<void> {
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
        if (kind === 'positive') return;
        if (entry.result === undefined) throw new Error(`${entry.name} has no mf:result`);
        const expectedText = readFileSync(entry.result, 'utf8');
        if (kind === 'c14n') {
          expect(sortedLines(await ds.exportDataToString(suite.mediaType))).to.deep.equal(sortedLines(expectedText));
          return;
        }
        const exported = await ds.exportDataToString(N_QUADS);
        if (!isomorphic(parseNQuads(exported), parseNQuads(expectedText))) {
          expect.fail(`not isomorphic to ${basename(entry.result)}\nexpected:\n${expectedText}\nactual:\n${exported}`);
        }
      } finally {
        ds.close();
        sc.deleteDataStore(name);
      }
    }

    for (const suite of run.suites) {
      const manifest = readManifest(join(run.root, suite.folder, 'manifest.ttl'));
      const base = manifest.assumedTestBase ?? `${run.publishedBase}${suite.folder}/`;

      describe(`${manifest.label} (${suite.folder})`, () => {
        for (const entry of manifest.entries) {
          const exclusion = run.exclusions[`${suite.folder}/${entry.name}`];
          if (exclusion === undefined) {
            it(entry.name, () => test(suite, base, entry));
          } else {
            it(`${entry.name} [known failure: ${exclusion}]`, async () => {
              let failed = false;
              try {
                await test(suite, base, entry);
              } catch {
                failed = true;
              }
              expect(failed, `${entry.name} now passes: remove it from the exclusions`).to.equal(true);
            });
          }
        }
      });
    }
  });
}
