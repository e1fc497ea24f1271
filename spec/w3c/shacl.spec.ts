/**
 * The W3C SHACL 1.0 test suite (`test-data/w3c/shacl`, core and SPARQL; see its README.md), run through quadlog:
 * every test gets a fresh data store, filled through the public API
 * (`DataStoreConnection.importData`), and the SHACL engine (`lib/shacl`) validates the store's
 * committed state.
 *
 * - The data graph's triples go to the default graph; the shapes graph's triples to the named
 *   graph SHAPES (so that `$shapesGraph` names a graph a query can read). A test whose data and
 *   shapes graph are one file has that file in both, with the same blank nodes.
 * - Each file is read by n3 and imported as N-Quads with its blank node labels made unique to
 *   the test (quadlog keeps labels across imports).
 * - The expected report: `sh:conforms` must be equal, and the results, as triples of their
 *   sh:focusNode, sh:resultPath (with the structure of a complex path), sh:value,
 *   sh:sourceShape, sh:sourceConstraintComponent and sh:resultSeverity (messages left out),
 *   must be isomorphic to the expected ones: the same multiset of results, blank nodes
 *   compared up to renaming.
 * - `mf:result sht:Failure`: validation must fail with ShaclShapeError.
 *
 * Every test of the suite runs; none is excluded.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type * as RDF from '@rdfjs/types';
import { expect } from 'chai';
import { DataFactory, Parser, Writer } from 'n3';
import { ConnectionFactory, N_QUADS, Server, type ServerConnection } from '../../lib/index.js';
import { reportQuads, ShaclShapeError, validate } from '../../lib/shacl/index.js';
import { isomorphic } from '../helpers/isomorphism.js';
import { W3C_DIR } from '../helpers/test-data.js';

const SUITE = join(W3C_DIR, 'shacl');
const SH = 'http://www.w3.org/ns/shacl#';
const RDF_NS = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
const MF = 'http://www.w3.org/2001/sw/DataAccess/tests/test-manifest#';
const SHT = 'http://www.w3.org/ns/shacl-test#';
const SHAPES = 'urn:x-quadlog-test:shapes';
const SERVER_URL = 'w3c-shacl';

/** One test of the suite. */
interface ShaclTest {
  readonly name: string;
  readonly label: string;
  readonly file: string;
  readonly dataFile: string;
  readonly shapesFile: string;
  /** The expected report's triples, or 'failure'. */
  readonly expected: { readonly conforms: boolean; readonly results: RDF.Quad[] } | 'failure';
}

function parseFile(path: string): RDF.Quad[] {
  return new Parser({ format: 'text/turtle', baseIRI: pathToFileURL(path).href }).parse(readFileSync(path, 'utf8'));
}

/** An index of a graph by subject. */
function bySubject(quads: readonly RDF.Quad[]): Map<string, RDF.Quad[]> {
  const out = new Map<string, RDF.Quad[]>();
  for (const q of quads) {
    const key = `${q.subject.termType}:${q.subject.value}`;
    let list = out.get(key);
    if (!list) out.set(key, (list = []));
    list.push(q);
  }
  return out;
}

function objectsOf(index: Map<string, RDF.Quad[]>, node: RDF.Term, predicate: string): RDF.Term[] {
  return (index.get(`${node.termType}:${node.value}`) ?? []).filter((q) => q.predicate.value === predicate).map((q) => q.object);
}

const COMPARED = new Set(['focusNode', 'resultPath', 'value', 'sourceShape', 'sourceConstraintComponent', 'resultSeverity'].map((l) => SH + l));

/** The triples of a report's results that the comparison looks at (see the header). */
function resultTriples(report: readonly RDF.Quad[]): { conforms: boolean; results: RDF.Quad[] } {
  const index = bySubject(report);
  const root = report.find((q) => q.predicate.value === `${RDF_NS}type` && q.object.value === `${SH}ValidationReport`)?.subject;
  if (!root) throw new Error('no sh:ValidationReport');
  const conforms = objectsOf(index, root, `${SH}conforms`)[0]?.value === 'true';
  const out: RDF.Quad[] = [];
  const structure = (node: RDF.Term, seen: Set<string>): void => {
    if (node.termType !== 'BlankNode' || seen.has(node.value)) return;
    seen.add(node.value);
    for (const q of index.get(`BlankNode:${node.value}`) ?? []) {
      out.push(DataFactory.quad(q.subject, q.predicate, q.object));
      structure(q.object, seen);
    }
  };
  for (const result of objectsOf(index, root, `${SH}result`)) {
    out.push(DataFactory.quad(root, DataFactory.namedNode(`${SH}result`), result as RDF.Quad_Object));
    for (const q of index.get(`${result.termType}:${result.value}`) ?? []) {
      if (!COMPARED.has(q.predicate.value)) continue;
      out.push(DataFactory.quad(q.subject, q.predicate, q.object));
      if (q.predicate.value === `${SH}resultPath`) structure(q.object, new Set());
    }
  }
  return { conforms, results: out };
}

/** The test files a manifest includes (recursively), in order. */
function testFiles(manifest: string): string[] {
  const quads = parseFile(manifest);
  const includes = quads.filter((q) => q.predicate.value === `${MF}include`).map((q) => fileURLToPath(q.object.value));
  const out: string[] = [];
  for (const path of includes) {
    if (path.endsWith('manifest.ttl')) out.push(...testFiles(path));
    else out.push(path);
  }
  return out;
}

/** The tests of one test file. */
function readTests(file: string): ShaclTest[] {
  const quads = parseFile(file);
  const index = bySubject(quads);
  const out: ShaclTest[] = [];
  for (const q of quads) {
    if (q.predicate.value !== `${RDF_NS}type` || q.object.value !== `${SHT}Validate`) continue;
    const entry = q.subject;
    const action = objectsOf(index, entry, `${MF}action`)[0]!;
    const dataFile = fileURLToPath(objectsOf(index, action, `${SHT}dataGraph`)[0]!.value);
    const shapesFile = fileURLToPath(objectsOf(index, action, `${SHT}shapesGraph`)[0]!.value);
    const result = objectsOf(index, entry, `${MF}result`)[0]!;
    let expected: ShaclTest['expected'];
    if (result.termType === 'NamedNode' && result.value === `${SHT}Failure`) expected = 'failure';
    else {
      // the report's subgraph: every triple reachable from the report node
      const reportQuadsOf: RDF.Quad[] = [];
      const seen = new Set<string>();
      const walk = (node: RDF.Term): void => {
        const key = `${node.termType}:${node.value}`;
        if (node.termType !== 'BlankNode' || seen.has(key)) return;
        seen.add(key);
        for (const t of index.get(key) ?? []) {
          reportQuadsOf.push(t);
          walk(t.object);
        }
      };
      walk(result);
      expected = resultTriples(reportQuadsOf);
    }
    out.push({
      name: `${file.slice(SUITE.length + 1)}`,
      label: objectsOf(index, entry, 'http://www.w3.org/2000/01/rdf-schema#label')[0]?.value ?? '',
      file,
      dataFile,
      shapesFile,
      expected,
    });
  }
  return out;
}

/** N-Quads of a file's triples in `graph` (undefined: the default graph), blank nodes labelled `<prefix><label>`. */
function nquads(quads: readonly RDF.Quad[], prefix: string, graph: string | undefined): string {
  const rename = <T extends RDF.Term>(t: T): T => (t.termType === 'BlankNode' ? (DataFactory.blankNode(`${prefix}${t.value.replace(/[^A-Za-z0-9_]/g, '_')}`) as unknown as T) : t);
  const g = graph === undefined ? DataFactory.defaultGraph() : DataFactory.namedNode(graph);
  return new Writer({ format: 'N-Quads' }).quadsToString(quads.map((q) => DataFactory.quad(rename(q.subject), q.predicate, rename(q.object), g)));
}

const TESTS = testFiles(join(SUITE, 'manifest.ttl')).flatMap(readTests);

describe('W3C SHACL test suite', function () {
  this.timeout(60000);
  let server: Server;
  let sc: ServerConnection;
  let count = 0;

  before(async () => {
    server = await Server.create({ roleName: 'admin', password: 'pw', url: SERVER_URL, parameters: { 'password-hashing': 'fast' } });
    sc = await ConnectionFactory.newServerConnection(SERVER_URL, 'admin', 'pw');
  });

  after(async () => {
    sc?.close();
    await server?.shutdown();
  });

  it('reads every test of the suite', () => {
    expect(TESTS.length).to.be.greaterThan(100);
  });

  for (const test of TESTS) {
    it(`${test.name}: ${test.label}`, async () => {
      const name = `shacl${++count}`;
      sc.createDataStore(name);
      const ds = sc.newDataStoreConnection(name);
      try {
        const prefix = `t${count}_`;
        const text = nquads(parseFile(test.dataFile), prefix, undefined) + nquads(parseFile(test.shapesFile), prefix, SHAPES);
        const imported = await ds.importData('ADD', text, { mediaType: N_QUADS });
        expect(imported.errors, imported.text).to.equal(0);
        const facts = server.dataStore(name).facts;
        const shapesGraph = facts.dictionary.lookup(`<${SHAPES}>`);
        const selection = { state: facts.committed, dictionary: facts.dictionary, dataGraph: 'default', shapesGraph, factDomain: 'all' } as const;
        if (test.expected === 'failure') {
          let error: unknown;
          try {
            await validate(selection);
          } catch (e) {
            error = e;
          }
          expect(error, 'validation should fail').to.be.instanceOf(ShaclShapeError);
          return;
        }
        const report = await validate(selection);
        const actual = resultTriples(reportQuads(report, facts.dictionary));
        const show = (quads: readonly RDF.Quad[]): string => new Writer({ format: 'N-Triples' }).quadsToString([...quads]);
        expect(actual.conforms, 'sh:conforms').to.equal(test.expected.conforms);
        expect(isomorphic(actual.results, test.expected.results), `results differ:\nactual:\n${show(actual.results)}\nexpected:\n${show(test.expected.results)}`).to.equal(true);
      } finally {
        ds.close();
        sc.deleteDataStore(name);
      }
    });
  }
});
