/**
 * The W3C RDF 1.1 syntax test suites (N-Triples, N-Quads, Turtle, TriG) run through the
 * public API (see `spec/helpers/w3c-rdf-syntax.ts` for what each kind of test checks).
 *
 * The stores keep their default prefixes (owl:, rdf:, rdfs:, xsd:, …), which quadlog lets
 * Turtle/TriG input use without declaring them: that is how users meet the parser, and no
 * test of these suites depends on an undeclared prefix among them (the outcomes are the
 * same with the prefixes removed).
 */
import { join } from 'node:path';
import { N_QUADS, N_TRIPLES, TRIG, TURTLE } from '../../lib/index.js';
import { describeSyntaxSuites } from '../helpers/w3c-rdf-syntax.js';
import { W3C_DIR } from '../helpers/test-data.js';

describeSyntaxSuites({
  title: 'W3C RDF 1.1 syntax suites',
  serverUrl: 'w3c-rdf11',
  root: join(W3C_DIR, 'rdf/rdf11'),
  // the N-Triples and N-Quads manifests declare no base (their syntax has no relative IRIs)
  publishedBase: 'https://w3c.github.io/rdf-tests/rdf/rdf11/',
  suites: [
    { folder: 'rdf-n-triples', mediaType: N_TRIPLES },
    { folder: 'rdf-n-quads', mediaType: N_QUADS },
    { folder: 'rdf-turtle', mediaType: TURTLE },
    { folder: 'rdf-trig', mediaType: TRIG },
  ],
  // none at present: tests that cannot pass, keyed by `folder/mf:name`, with the reason
  exclusions: {},
});
