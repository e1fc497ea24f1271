/**
 * Where the specs and benchmarks find the data they read: the repository's `test-data/`
 * folder, resolved from this module's own location, so that a clone anywhere works without
 * anything beside it. `QUADLOG_W3C_DIR` and `QUADLOG_LUBM_DIR` may point at other copies (same
 * layout); nothing needs them.
 * @module
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The root of the repository. */
export const REPOSITORY_ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The repository's test-data folder. */
export const TEST_DATA_DIR = join(REPOSITORY_ROOT, 'test-data');
/** The W3C test suites (the layout of the W3C rdf-tests repository: `rdf/rdf11/…`, `sparql/sparql11/…`). */
export const W3C_DIR = process.env.QUADLOG_W3C_DIR ?? join(TEST_DATA_DIR, 'w3c');
/** The LUBM data, ontology, queries and answer counts. */
export const LUBM_DIR = process.env.QUADLOG_LUBM_DIR ?? join(TEST_DATA_DIR, 'lubm');

/** The files of {@link LUBM_DIR}, by what they hold. */
export const LUBM = {
  /** LUBM(1), gzip'd N-Triples (100,543 triples). */
  lubm1: join(LUBM_DIR, 'lubm1.nt.gz'),
  /** LUBM(10), gzip'd N-Triples (1,272,575 triples). */
  lubm10: join(LUBM_DIR, 'lubm10.nt.gz'),
  /** The Univ-Bench ontology in Turtle. */
  ontology: join(LUBM_DIR, 'univ-bench.ttl'),
  /** The answer counts of the 14 queries on LUBM(1), without and with reasoning. */
  answers: join(LUBM_DIR, 'answers-lubm1.tsv'),
} as const;

/** The path of LUBM query `q<n>.rq`. */
export function lubmQuery(n: number): string {
  return join(LUBM_DIR, `q${n}.rq`);
}

/** A path below {@link W3C_DIR}, given as its path in the W3C repository (`sparql/sparql11/json-res`). */
export function w3cPath(path: string): string {
  return join(W3C_DIR, path);
}
