/**
 * Data and rules shared by the reasoning benchmark (`bench/reason.ts`): the RDFS rule set in
 * Datalog and N3, the Deep Taxonomy benchmark as N3.js's perf script builds it, loading the
 * LUBM files into an `N3.Store`, and a seeded sampler for the incremental runs.
 * @module
 */
import { createReadStream, readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { DataFactory, Parser, Store, StreamParser, getRulesFromDataset, type Rule } from 'n3';
import type { Quad } from '@rdfjs/types';
import { LUBM } from '../../spec/helpers/test-data.js';

/** The rdf: namespace. */
export const RDF_NS = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
/** The rdfs: namespace. */
export const RDFS_NS = 'http://www.w3.org/2000/01/rdf-schema#';

/** The LUBM files of test-data/ (gzip'd N-Triples) by short name. */
export const LUBM_FILES: Readonly<Record<'lubm1' | 'lubm10', string>> = {
  lubm1: LUBM.lubm1,
  lubm10: LUBM.lubm10,
};

/** The Univ-Bench ontology, added to both LUBM data sets. */
export const LUBM_ONTOLOGY = LUBM.ontology;

/** RDFS rules rdfs2, 3, 5, 7, 9 and 11 in quadlog's Datalog syntax (rdf: and rdfs: are predeclared prefixes). */
export const RDFS_DATALOG = `
[?x, rdf:type, ?c] :- [?p, rdfs:domain, ?c], [?x, ?p, ?y] .
[?y, rdf:type, ?c] :- [?p, rdfs:range, ?c], [?x, ?p, ?y] .
[?p, rdfs:subPropertyOf, ?r] :- [?p, rdfs:subPropertyOf, ?q], [?q, rdfs:subPropertyOf, ?r] .
[?x, ?q, ?y] :- [?p, rdfs:subPropertyOf, ?q], [?x, ?p, ?y] .
[?x, rdf:type, ?d] :- [?c, rdfs:subClassOf, ?d], [?x, rdf:type, ?c] .
[?c, rdfs:subClassOf, ?e] :- [?c, rdfs:subClassOf, ?d], [?d, rdfs:subClassOf, ?e] .
`;

/** The same six rules in N3, with the body atoms in the same order as {@link RDFS_DATALOG}. */
export const RDFS_N3 = `
@prefix rdf: <${RDF_NS}> .
@prefix rdfs: <${RDFS_NS}> .
{ ?p rdfs:domain ?c . ?x ?p ?y . } => { ?x a ?c . } .
{ ?p rdfs:range ?c . ?x ?p ?y . } => { ?y a ?c . } .
{ ?p rdfs:subPropertyOf ?q . ?q rdfs:subPropertyOf ?r . } => { ?p rdfs:subPropertyOf ?r . } .
{ ?p rdfs:subPropertyOf ?q . ?x ?p ?y . } => { ?x ?q ?y . } .
{ ?c rdfs:subClassOf ?d . ?x a ?c . } => { ?x a ?d . } .
{ ?c rdfs:subClassOf ?d . ?d rdfs:subClassOf ?e . } => { ?c rdfs:subClassOf ?e . } .
`;

/**
 * The Deep Taxonomy rule exactly as N3.js's `perf/N3Reasoner-perf.js` writes it
 * (`SUBCLASS_RULE`).
 */
export const TAXONOMY_N3 = '{ ?s a ?o . ?o <http://www.w3.org/2000/01/rdf-schema#subClassOf> ?o2 . } => { ?s a ?o2 . } .';

/** {@link TAXONOMY_N3} in quadlog's Datalog, body atoms in the same order. */
export const TAXONOMY_DATALOG = '[?s, rdf:type, ?o2] :- [?s, rdf:type, ?o], [?o, rdfs:subClassOf, ?o2] .\n';

/** The namespace of the Deep Taxonomy benchmark's terms. */
const ES = 'http://eulersharp.sourceforge.net/2009/12dtb/test#';
const TYPE = `${RDF_NS}type`;
const SUBCLASS_OF = `${RDFS_NS}subClassOf`;

/**
 * The triples of the (non-extended) Deep Taxonomy benchmark of size `size`, as
 * `generateDeepTaxonomy(size)` of the `deep-taxonomy-benchmark` package (used by N3.js's
 * perf script) builds them: `ind a N0`, `N<size> ⊑ A2`, and for i < size
 * `N<i> ⊑ N<i+1>`, `N<i> ⊑ I<i+1>`, `N<i> ⊑ J<i+1>`. Each triple is [subject, predicate,
 * object] IRIs, in the package's insertion order.
 */
export function* taxonomyTriples(size: number): Generator<readonly [string, string, string]> {
  yield [`${ES}ind`, TYPE, `${ES}N0`];
  yield [`${ES}N${size}`, SUBCLASS_OF, `${ES}A2`];
  for (let i = 0; i < size; i++) {
    yield [`${ES}N${i}`, SUBCLASS_OF, `${ES}N${i + 1}`];
    yield [`${ES}N${i}`, SUBCLASS_OF, `${ES}I${i + 1}`];
    yield [`${ES}N${i}`, SUBCLASS_OF, `${ES}J${i + 1}`];
  }
}

/** The number of triples the rule derives on a Deep Taxonomy of size `size`: `ind` gets N1…N<size>, I1…I<size>, J1…J<size> and A2. */
export function taxonomyExpectedNew(size: number): number {
  return 3 * size + 1;
}

/** {@link taxonomyTriples} as N-Triples text (for quadlog). */
export function taxonomyNTriples(size: number): string {
  const lines: string[] = [];
  for (const [s, p, o] of taxonomyTriples(size)) lines.push(`<${s}> <${p}> <${o}> .`);
  return `${lines.join('\n')}\n`;
}

/** {@link taxonomyTriples} in an `N3.Store`, each added with `addQuad` (the package adds the same quads with `addQuad`/`addQuads`). */
export function taxonomyN3Store(size: number): Store {
  const store = new Store();
  for (const [s, p, o] of taxonomyTriples(size)) store.addQuad(DataFactory.quad(DataFactory.namedNode(s), DataFactory.namedNode(p), DataFactory.namedNode(o)));
  return store;
}

/** Parses N3 rules (`{ … } => { … } .`) the way N3.js's perf script does: `getRulesFromDataset(new Store(new Parser({ format: 'text/n3' }).parse(text)))`. */
export function n3Rules(text: string): Rule[] {
  return getRulesFromDataset(new Store(new Parser({ format: 'text/n3' }).parse(text)));
}

/** Loads gzip'd N-Triples and then Turtle files into a new `N3.Store` (stream parser for the former, `Parser.parse` for the latter). */
export async function loadN3Store(ntGzFiles: readonly string[], turtleFiles: readonly string[]): Promise<Store> {
  const store = new Store();
  for (const file of ntGzFiles) {
    const sink = new Writable({
      objectMode: true,
      highWaterMark: 1024,
      write(q: Quad, _encoding, callback): void {
        store.addQuad(q);
        callback();
      },
    });
    await pipeline(createReadStream(file, { highWaterMark: 1 << 20 }), createGunzip(), new StreamParser({ format: 'N-Triples' }), sink);
  }
  for (const file of turtleFiles) store.addQuads(new Parser({ format: 'Turtle', baseIRI: `file://${file}` }).parse(readFileSync(file, 'utf8')));
  return store;
}

/** mulberry32: a small seeded PRNG returning floats in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Picks `k` distinct items of `items` uniformly at random (partial Fisher–Yates on an index array), in sampling order. */
export function sample<T>(items: readonly T[], k: number, random: () => number): T[] {
  if (k > items.length) throw new Error(`cannot sample ${k} of ${items.length} items`);
  const index = Uint32Array.from({ length: items.length }, (_, i) => i);
  const out: T[] = [];
  for (let i = 0; i < k; i++) {
    const j = i + Math.floor(random() * (items.length - i));
    const pick = index[j]!;
    index[j] = index[i]!;
    index[i] = pick;
    out.push(items[pick]!);
  }
  return out;
}

/** Nodes of the chain of the `chain` part of the reasoning benchmark. */
export const CHAIN_NODES = 1500;

/** The transitive closure of `:par` as two Datalog rules (the linear form). */
export const CHAIN_DATALOG = '@prefix : <http://ex/> .\n[?x, :anc, ?y] :- [?x, :par, ?y] .\n[?x, :anc, ?z] :- [?x, :anc, ?y], [?y, :par, ?z] .\n';

/** The `:par` edge from node `i` to node `i + 1`, as an N-Triples line. */
export function chainEdge(i: number): string {
  return `<http://ex/n${i}> <http://ex/par> <http://ex/n${i + 1}> .`;
}

/** The edges of a chain of `nodes` nodes, as N-Triples. */
export function chainNTriples(nodes: number): string {
  return `${Array.from({ length: nodes - 1 }, (_, i) => chainEdge(i)).join('\n')}\n`;
}
