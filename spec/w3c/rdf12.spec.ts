/**
 * The W3C RDF 1.2 syntax test suites (N-Triples, N-Quads, Turtle, TriG: `rdf/rdf12/…/syntax`,
 * `…/eval` and `…/c14n`) run through the public API: every manifest entry is imported into a
 * fresh data store with `DataStoreConnection.importData`. (Each suite's top manifest also
 * includes the RDF 1.1 suite, which `rdf11.spec.ts` runs; the RDF/XML suite has its own
 * runner, `rdf12-xml.spec.ts`.)
 *
 * - positive syntax: the import reports no error;
 * - negative syntax (and negative evaluation): the import reports at least one error and the
 *   store (holding one fact beforehand) is unchanged;
 * - evaluation: the import reports no error and the store, exported as N-Quads, is
 *   isomorphic to the expected N-Triples/N-Quads file (triple terms and base directions
 *   included);
 * - canonical N-Triples/N-Quads (C14N): the store's N-Triples (N-Quads) export is, line for
 *   line (in any order), the expected canonical file.
 *
 * Each input is parsed with base IRI = the manifest's mf:assumedTestBase + the file name.
 * Known failures are listed in {@link EXCLUSIONS} with their reason; they still run and must
 * still fail (so the list is kept honest when a dependency gets fixed).
 */
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type * as RDF from '@rdfjs/types';
import { expect } from 'chai';
import { DataFactory, Parser } from 'n3';
import { ConnectionFactory, Server, N_QUADS, N_TRIPLES, TRIG, TURTLE, type ServerConnection } from '../../lib/index.js';
import { importFailure } from '../helpers/imports.js';
import { isomorphic } from '../helpers/isomorphism.js';
import { readManifest, type ManifestEntry } from '../helpers/w3c-manifest.js';
import { W3C_DIR } from '../helpers/test-data.js';

const W3C_RDF12 = join(W3C_DIR, 'rdf/rdf12');
const SERVER_URL = 'w3c-rdf12';
const SEED = '<http://x/a> <http://x/b> <http://x/c> .\n';

interface Suite {
  /** The manifest's folder below `rdf/rdf12`. */
  readonly folder: string;
  readonly mediaType: string;
}

const SUITES: readonly Suite[] = [
  { folder: 'rdf-n-triples/syntax', mediaType: N_TRIPLES },
  { folder: 'rdf-n-triples/c14n', mediaType: N_TRIPLES },
  { folder: 'rdf-n-quads/syntax', mediaType: N_QUADS },
  { folder: 'rdf-n-quads/c14n', mediaType: N_QUADS },
  { folder: 'rdf-turtle/syntax', mediaType: TURTLE },
  { folder: 'rdf-turtle/eval', mediaType: TURTLE },
  { folder: 'rdf-trig/syntax', mediaType: TRIG },
  { folder: 'rdf-trig/eval', mediaType: TRIG },
];

/**
 * Tests that cannot pass, keyed by `folder/mf:name`, with the reason. They are run with the
 * expectation inverted.
 */
const EXCLUSIONS: Readonly<Record<string, string>> = {};

type Kind = 'positive' | 'negative' | 'eval' | 'c14n';

function kindOf(type: string): Kind {
  if (/PositiveSyntax$/.test(type)) return 'positive';
  if (/Negative(Syntax|Eval)$/.test(type)) return 'negative';
  if (/PositiveC14N$/.test(type)) return 'c14n';
  if (/Eval$/.test(type)) return 'eval';
  throw new Error(`unknown test type ${type}`);
}

const ENCODING = 'urn:x-rdf12-encoding:';

/**
 * The quads in RDF 1.1 terms, so that the isomorphism helper (which knows RDF 1.1 terms) can
 * compare them: a literal with a base direction becomes a typed literal holding tag, direction
 * and lexical form; each distinct triple term becomes a blank node described by three quads
 * (subject, predicate, object) in a graph of their own. Two datasets are isomorphic exactly
 * when their encodings are: a blank node mapping carries triple terms to triple terms.
 */
function rdf11Encoding(quads: readonly RDF.Quad[]): RDF.Quad[] {
  const out: RDF.Quad[] = [];
  const tripleNodes = new Map<string, RDF.BlankNode>();
  const graph = DataFactory.namedNode(`${ENCODING}triple-terms`);
  const key = (term: RDF.Term): string => (term.termType === 'Quad' ? `(${key(term.subject)} ${key(term.predicate)} ${key(term.object)})` : term.termType === 'Literal' ? `${JSON.stringify(term.value)}@${term.language}--${direction(term)}^^${term.datatype.value}` : `${term.termType}:${term.value}`);
  const encode = (term: RDF.Quad_Object): RDF.Quad_Object => {
    if (term.termType === 'Literal') {
      const d = direction(term);
      return d ? DataFactory.literal(`${term.language}|${d}|${term.value}`, DataFactory.namedNode(`${ENCODING}directional`)) : term;
    }
    if (term.termType !== 'Quad') return term;
    const k = key(term);
    let node = tripleNodes.get(k);
    if (node === undefined) {
      node = DataFactory.blankNode(`tt${tripleNodes.size}`);
      tripleNodes.set(k, node);
      out.push(DataFactory.quad(node, DataFactory.namedNode(`${ENCODING}subject`), encode(term.subject), graph));
      out.push(DataFactory.quad(node, DataFactory.namedNode(`${ENCODING}predicate`), term.predicate, graph));
      out.push(DataFactory.quad(node, DataFactory.namedNode(`${ENCODING}object`), encode(term.object), graph));
    }
    return node;
  };
  for (const q of quads) out.push(DataFactory.quad(q.subject, q.predicate, encode(q.object), q.graph));
  return out;
}

function direction(literal: RDF.Literal): string {
  const d = (literal as { direction?: unknown }).direction;
  return typeof d === 'string' ? d : '';
}

function parseNQuads(text: string): RDF.Quad[] {
  const quads: RDF.Quad[] = new Parser({ format: 'N-Quads' }).parse(text);
  return quads;
}

/** The non-empty lines of N-Triples/N-Quads text, sorted. */
function sortedLines(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => line.length > 0)
    .sort();
}

describe('W3C RDF 1.2 syntax suites', function () {
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
        const actual = rdf11Encoding(parseNQuads(exported));
        const expected = rdf11Encoding(parseNQuads(readFileSync(entry.result, 'utf8')));
        if (!isomorphic(actual, expected)) {
          expect.fail(`not isomorphic to ${basename(entry.result)}\nexpected:\n${readFileSync(entry.result, 'utf8')}\nactual:\n${exported}`);
        }
      } else if (kind === 'c14n') {
        if (entry.result === undefined) throw new Error(`${entry.name} has no mf:result`);
        const exported = await ds.exportDataToString(suite.mediaType);
        expect(sortedLines(exported)).to.deep.equal(sortedLines(readFileSync(entry.result, 'utf8')));
      }
    } finally {
      ds.close();
      sc.deleteDataStore(name);
    }
  }

  for (const suite of SUITES) {
    const manifest = readManifest(join(W3C_RDF12, suite.folder, 'manifest.ttl'));
    const base = manifest.assumedTestBase;
    if (base === undefined) throw new Error(`${suite.folder}/manifest.ttl declares no mf:assumedTestBase`);

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
