/**
 * Reading the W3C SPARQL 1.0 / 1.1 test manifests (`mf:Manifest` in Turtle, read with n3),
 * mapping their files to the IRIs they are published under, and a small adapter to the
 * SPARQL methods of a data store connection.
 *
 * The manifests of the SPARQL suites differ from those of the RDF suites (which
 * `w3c-manifest.ts` reads): an entry's `mf:action` is a blank node holding the query
 * (`qt:query`) or update (`ut:request`) and its dataset (`qt:data`, `qt:graphData`,
 * `ut:data`, `ut:graphData [ ut:graph <file>; rdfs:label "graph IRI" ]`), an update test's
 * `mf:result` is such a node too, entries may lack `rdf:type` (meaning
 * `mf:QueryEvaluationTest`), and manifests include other manifests with `mf:include`.
 * @module
 */
import { readFileSync } from 'node:fs';
import { dirname, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type * as RDF from '@rdfjs/types';
import { Parser, type Quad } from 'n3';
import type { ResultTerm } from './sparql-results.js';
import { MF } from './w3c-manifest.js';
import { W3C_DIR } from './test-data.js';

export { MF };
/** The query-test vocabulary namespace. */
export const QT = 'http://www.w3.org/2001/sw/DataAccess/tests/test-query#';
/** The update-test vocabulary namespace. */
export const UT = 'http://www.w3.org/2009/sparql/tests/test-update#';
/** The DAWG test vocabulary namespace (approval). */
export const DAWGT = 'http://www.w3.org/2001/sw/DataAccess/tests/test-dawg#';
/** The service-description vocabulary namespace (entailment regimes). */
export const SD = 'http://www.w3.org/ns/sparql-service-description#';
const RDF_NS = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
const RDFS_NS = 'http://www.w3.org/2000/01/rdf-schema#';

/** Where the W3C test repository is published; a file's IRI is this plus its path below {@link W3C_DIR}. */
export const PUBLISHED_ROOT = 'https://w3c.github.io/rdf-tests/';

/**
 * The IRI a test file is published under (e.g.
 * `https://w3c.github.io/rdf-tests/sparql/sparql11/aggregates/agg01.ttl`): the base IRI for
 * parsing the file, and the name of the graph it is loaded into by `qt:graphData`, `FROM` and
 * `FROM NAMED`. Every relative IRI of the suites (in manifests, queries, data and results)
 * resolves against the file's own location, so any base that keeps the directory layout works;
 * this one is used for all of them.
 */
export function publishedIri(path: string): string {
  const rel = relative(W3C_DIR, path);
  if (rel.startsWith('..')) throw new Error(`${path} is not below ${W3C_DIR}`);
  return PUBLISHED_ROOT + rel.split(sep).join('/');
}

/** The local path of a published IRI (inverse of {@link publishedIri}), or undefined when it names no file there. */
export function publishedPath(iri: string): string | undefined {
  return iri.startsWith(PUBLISHED_ROOT) ? `${W3C_DIR}/${iri.slice(PUBLISHED_ROOT.length)}` : undefined;
}

/** A file loaded into a named graph. */
export interface NamedGraphFile {
  /** The graph's IRI. */
  readonly name: string;
  /** Absolute path of the file. */
  readonly path: string;
}

/** The dataset of a test's action or of an update test's expected result. */
export interface TestDataset {
  /** Files whose triples form the default graph (`qt:data`, `ut:data`). */
  readonly defaultGraph: readonly string[];
  /** Files loaded into named graphs (`qt:graphData`: named after the file; `ut:graphData`: after its `rdfs:label`). */
  readonly namedGraphs: readonly NamedGraphFile[];
}

/** One entry of a SPARQL manifest's `mf:entries`. */
export interface SparqlTestEntry {
  /** The entry's IRI (or blank node label). */
  readonly iri: string;
  /** The folder of its manifest relative to the suite root (`aggregates`, `syntax-sparql1`, …). */
  readonly folder: string;
  /** Absolute path of the manifest. */
  readonly manifest: string;
  /** Its `mf:name`. */
  readonly name: string;
  /** Local name of its `rdf:type` in the mf: namespace (`QueryEvaluationTest` when absent), or the full IRI. */
  readonly type: string;
  /** Its `rdfs:comment`, if any. */
  readonly comment: string | undefined;
  /** Local name of its `dawgt:approval` (`Approved`, `Proposed`, `NotApproved`, `Deprecated`), if any. */
  readonly approval: string | undefined;
  /**
   * The query or update file: `qt:query` or `ut:request` of the action, or the action itself
   * when it is a file (syntax tests).
   */
  readonly query: string | undefined;
  /** The dataset given by the action (empty for syntax tests). */
  readonly dataset: TestDataset;
  /** `qt:serviceData` of the action: data of remote SERVICE endpoints (IRIs of the endpoints). */
  readonly serviceEndpoints: readonly string[];
  /** `sd:entailmentRegime` of the action, if any. */
  readonly entailmentRegime: string | undefined;
  /** The expected result file (`mf:result` when it is a file). */
  readonly result: string | undefined;
  /** The expected dataset of an update test (`mf:result [ ut:data …; ut:graphData … ]`). */
  readonly resultDataset: TestDataset | undefined;
  /** Local names of `mf:requires` values. */
  readonly requires: readonly string[];
  /** Whether `mf:resultCardinality mf:LaxCardinality` (REDUCED: duplicates may be dropped). */
  readonly laxCardinality: boolean;
  /** Every local file the entry names (action, data, results), for exclusion by format. */
  readonly files: readonly string[];
}

/** A parsed SPARQL manifest. */
export interface SparqlManifest {
  /** Absolute path of the manifest file. */
  readonly path: string;
  /** Its folder relative to the suite root. */
  readonly folder: string;
  /** Its `rdfs:label` (the folder when absent). */
  readonly label: string;
  /** The entries in list order. */
  readonly entries: readonly SparqlTestEntry[];
}

type Term = Quad['object'];

/** The triples of one Turtle file grouped by subject and predicate. */
class Graph {
  private readonly bySubject = new Map<string, Map<string, Term[]>>();

  constructor(quads: readonly Quad[]) {
    for (const q of quads) {
      const s = Graph.key(q.subject);
      let props = this.bySubject.get(s);
      if (!props) this.bySubject.set(s, (props = new Map<string, Term[]>()));
      let values = props.get(q.predicate.value);
      if (!values) props.set(q.predicate.value, (values = []));
      values.push(q.object);
    }
  }

  private static key(term: RDF.Term): string {
    return `${term.termType}:${term.value}`;
  }

  all(subject: Term, predicate: string): Term[] {
    return this.bySubject.get(Graph.key(subject))?.get(predicate) ?? [];
  }

  one(subject: Term, predicate: string): Term | undefined {
    return this.all(subject, predicate)[0];
  }

  list(head: Term | undefined, where: string): Term[] {
    const items: Term[] = [];
    while (head && !(head.termType === 'NamedNode' && head.value === `${RDF_NS}nil`)) {
      const item = this.one(head, `${RDF_NS}first`);
      if (!item) throw new Error(`${where}: malformed RDF list`);
      items.push(item);
      head = this.one(head, `${RDF_NS}rest`);
    }
    return items;
  }
}

function localName(iri: string, namespace: string): string {
  return iri.startsWith(namespace) ? iri.slice(namespace.length) : iri;
}

function fileOf(term: Term | undefined): string | undefined {
  return term?.termType === 'NamedNode' && term.value.startsWith('file:') ? fileURLToPath(term.value) : undefined;
}

/**
 * Reads a manifest and, recursively, the manifests it includes (`mf:include`), in order;
 * each manifest once. `root` is the suite's root folder (entries' folders are relative to
 * it). Relative IRIs of a manifest resolve against its own `file:` URL.
 */
export function readSparqlManifests(path: string, root: string = dirname(path)): SparqlManifest[] {
  const out: SparqlManifest[] = [];
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    const baseIRI = pathToFileURL(file).href;
    const quads = new Parser({ format: 'text/turtle', baseIRI }).parse(readFileSync(file, 'utf8'));
    const graph = new Graph(quads);
    const manifestNode = quads.find((q) => q.predicate.value === `${RDF_NS}type` && q.object.value === `${MF}Manifest`)?.subject;
    if (!manifestNode) throw new Error(`${file} has no mf:Manifest`);
    const folder = relative(root, dirname(file)).split(sep).join('/');
    const entries = graph.list(graph.one(manifestNode, `${MF}entries`), file).map((item) => readEntry(graph, item, file, folder));
    if (entries.length > 0 || graph.one(manifestNode, `${MF}include`) === undefined) {
      out.push({ path: file, folder, label: graph.one(manifestNode, `${RDFS_NS}label`)?.value ?? folder, entries });
    }
    for (const included of graph.list(graph.one(manifestNode, `${MF}include`), file)) {
      const includedFile = fileOf(included);
      if (includedFile === undefined) throw new Error(`${file}: mf:include of a non-file ${included.value}`);
      visit(includedFile);
    }
  };
  visit(path);
  return out;
}

function readEntry(graph: Graph, item: Term, manifest: string, folder: string): SparqlTestEntry {
  const files: string[] = [];
  const file = (term: Term | undefined): string | undefined => {
    const f = fileOf(term);
    if (f !== undefined) files.push(f);
    return f;
  };
  const dataset = (node: Term | undefined, ns: string): TestDataset => {
    if (node === undefined || node.termType === 'NamedNode' || node.termType === 'Literal') return { defaultGraph: [], namedGraphs: [] };
    const defaultGraph = graph.all(node, `${ns}data`).map((t) => file(t) ?? t.value);
    const namedGraphs = graph.all(node, `${ns}graphData`).map((g): NamedGraphFile => {
      const direct = file(g);
      // qt:graphData <file>: the graph is named after the file
      if (direct !== undefined) return { name: publishedIri(direct), path: direct };
      // ut:graphData [ ut:graph <file> ; rdfs:label "graph IRI" ]
      const path = file(graph.one(g, `${UT}graph`) ?? graph.one(g, `${QT}graph`));
      const label = graph.one(g, `${RDFS_NS}label`)?.value;
      if (path === undefined) throw new Error(`${manifest}: graphData of ${item.value} without a graph file`);
      return { name: label ?? publishedIri(path), path };
    });
    return { defaultGraph, namedGraphs };
  };

  const typeTerm = graph.one(item, `${RDF_NS}type`);
  const actionTerm = graph.one(item, `${MF}action`);
  const resultTerm = graph.one(item, `${MF}result`);
  const actionFile = file(actionTerm);
  const isNode = (t: Term | undefined): t is Term => t !== undefined && t.termType === 'BlankNode';
  const query = actionFile ?? (isNode(actionTerm) ? file(graph.one(actionTerm, `${QT}query`) ?? graph.one(actionTerm, `${UT}request`)) : undefined);
  const actionDataset = isNode(actionTerm)
    ? (() => {
        const q = dataset(actionTerm, QT);
        const u = dataset(actionTerm, UT);
        return { defaultGraph: [...q.defaultGraph, ...u.defaultGraph], namedGraphs: [...q.namedGraphs, ...u.namedGraphs] };
      })()
    : { defaultGraph: [], namedGraphs: [] };
  const serviceEndpoints = isNode(actionTerm)
    ? graph.all(actionTerm, `${QT}serviceData`).map((s) => {
        const endpoint = graph.one(s, `${QT}endpoint`)?.value ?? s.value;
        file(graph.one(s, `${QT}data`));
        return endpoint;
      })
    : [];
  const result = file(resultTerm);
  const resultDataset = isNode(resultTerm) ? dataset(resultTerm, UT) : undefined;
  const approval = graph.one(item, `${DAWGT}approval`);
  return {
    iri: item.value,
    folder,
    manifest,
    name: graph.one(item, `${MF}name`)?.value ?? item.value.replace(/^.*[#/]/, ''),
    type: typeTerm ? localName(typeTerm.value, MF) : 'QueryEvaluationTest',
    comment: graph.one(item, `${RDFS_NS}comment`)?.value,
    approval: approval ? localName(approval.value, DAWGT) : undefined,
    query,
    dataset: actionDataset,
    serviceEndpoints,
    entailmentRegime: isNode(actionTerm) ? graph.one(actionTerm, `${SD}entailmentRegime`)?.value : undefined,
    result,
    resultDataset,
    requires: graph.all(item, `${MF}requires`).map((t) => localName(t.value, MF)),
    laxCardinality: graph.all(item, `${MF}resultCardinality`).some((t) => t.value === `${MF}LaxCardinality`),
    files,
  };
}

// ---------------------------------------------------------------------------------------------
// The SPARQL methods of a connection

/** What `DataStoreConnection.evaluateQuery` answers (the runner's own copy of the type). */
export type QueryAnswer =
  | {
      readonly type: 'bindings';
      readonly variables: readonly string[];
      readonly rows: ReadonlyArray<ReadonlyArray<ResultTerm | undefined>>;
      readonly ordered: boolean;
    }
  | { readonly type: 'boolean'; readonly value: boolean }
  | { readonly type: 'quads'; readonly quads: readonly RDF.Quad[] };

/** Options of the SPARQL methods. */
export interface SparqlOptions {
  /** Base IRI for the relative IRIs of the query or update. */
  readonly baseIRI?: string;
}

/** The SPARQL methods of a data store connection. */
export interface SparqlEngine {
  /** Evaluates a query (SELECT, ASK, CONSTRUCT, DESCRIBE). */
  evaluateQuery(query: string, options?: SparqlOptions): Promise<QueryAnswer>;
  /** Evaluates an update request. */
  evaluateUpdate(update: string, options?: SparqlOptions): Promise<void>;
}

type MaybeEngine = Partial<Record<keyof SparqlEngine, unknown>>;

/**
 * Why `connection` (or a prototype, such as `DataStoreConnection.prototype`) has no SPARQL
 * methods, or undefined when it has both.
 */
export function missingSparqlMethods(connection: object): string | undefined {
  const c = connection as MaybeEngine;
  const missing = (['evaluateQuery', 'evaluateUpdate'] as const).filter((m) => typeof c[m] !== 'function');
  return missing.length === 0 ? undefined : `DataStoreConnection has no ${missing.join(' / ')} yet (the SPARQL engine has not landed)`;
}

/**
 * The SPARQL methods of `connection`, called dynamically (so that this compiles before
 * `DataStoreConnection` has them).
 * @throws Error when the connection has no such methods.
 */
export function sparqlEngine(connection: object): SparqlEngine {
  const reason = missingSparqlMethods(connection);
  if (reason !== undefined) throw new Error(reason);
  const c = connection as MaybeEngine;
  const query = c.evaluateQuery as (this: object, query: string, options?: SparqlOptions) => Promise<QueryAnswer>;
  const update = c.evaluateUpdate as (this: object, update: string, options?: SparqlOptions) => Promise<void>;
  return {
    evaluateQuery: (text, options) => query.call(connection, text, options),
    evaluateUpdate: (text, options) => update.call(connection, text, options),
  };
}
