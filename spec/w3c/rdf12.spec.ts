/**
 * The W3C RDF 1.2 syntax test suites (N-Triples, N-Quads, Turtle, TriG: `rdf/rdf12/…/syntax`,
 * `…/eval` and `…/c14n`) run through the public API (see `spec/helpers/w3c-rdf-syntax.ts` for
 * what each kind of test checks; evaluation compares triple terms, with the blank nodes inside
 * them, and base directions). Each suite's top manifest also includes the RDF 1.1 suite, which
 * `rdf11.spec.ts` runs; the RDF/XML suite has its own runner, `rdf12-xml.spec.ts`.
 */
import { join } from 'node:path';
import { N_QUADS, N_TRIPLES, TRIG, TURTLE } from '../../lib/index.js';
import { describeSyntaxSuites } from '../helpers/w3c-rdf-syntax.js';
import { W3C_DIR } from '../helpers/test-data.js';

describeSyntaxSuites({
  title: 'W3C RDF 1.2 syntax suites',
  serverUrl: 'w3c-rdf12',
  root: join(W3C_DIR, 'rdf/rdf12'),
  publishedBase: 'https://w3c.github.io/rdf-tests/rdf/rdf12/',
  suites: [
    { folder: 'rdf-n-triples/syntax', mediaType: N_TRIPLES },
    { folder: 'rdf-n-triples/c14n', mediaType: N_TRIPLES },
    { folder: 'rdf-n-quads/syntax', mediaType: N_QUADS },
    { folder: 'rdf-n-quads/c14n', mediaType: N_QUADS },
    { folder: 'rdf-turtle/syntax', mediaType: TURTLE },
    { folder: 'rdf-turtle/eval', mediaType: TURTLE },
    { folder: 'rdf-trig/syntax', mediaType: TRIG },
    { folder: 'rdf-trig/eval', mediaType: TRIG },
  ],
  // none at present: tests that cannot pass, keyed by `folder/mf:name`, with the reason
  exclusions: {},
});
