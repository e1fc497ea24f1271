/**
 * Reading W3C test manifests (`mf:Manifest` in Turtle) with n3's parser: the entries of
 * `mf:entries` in list order, with their type, name, action, result and approval.
 * @module
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Parser, type Quad } from 'n3';

/** The test-manifest vocabulary namespace. */
export const MF = 'http://www.w3.org/2001/sw/DataAccess/tests/test-manifest#';
/** The RDF test vocabulary namespace. */
export const RDFT = 'http://www.w3.org/ns/rdftest#';
const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';

/** One entry of a manifest's `mf:entries` list. */
export interface ManifestEntry {
  /** The entry's IRI. */
  readonly iri: string;
  /** Local name of its `rdf:type` in the rdft: namespace (e.g. `TestTurtleEval`), or the full IRI otherwise. */
  readonly type: string;
  /** Its `mf:name`. */
  readonly name: string;
  /** Its `rdfs:comment`, if any. */
  readonly comment: string | undefined;
  /** Absolute path of the `mf:action` file. */
  readonly action: string;
  /** Absolute path of the `mf:result` file, if any. */
  readonly result: string | undefined;
  /** Local name of its `rdft:approval` (e.g. `Approved`, `Proposed`), if any. */
  readonly approval: string | undefined;
}

/** A parsed manifest. */
export interface Manifest {
  /** Its `rdfs:label`. */
  readonly label: string;
  /** Its `mf:assumedTestBase` (base IRI prefix for the test files), if declared. */
  readonly assumedTestBase: string | undefined;
  /** The entries in list order. */
  readonly entries: readonly ManifestEntry[];
}

function localName(iri: string, namespace: string): string {
  return iri.startsWith(namespace) ? iri.slice(namespace.length) : iri;
}

/** Reads a manifest file; relative IRIs resolve against the file's own `file:` URL. */
export function readManifest(path: string): Manifest {
  const baseIRI = pathToFileURL(path).href;
  const quads: Quad[] = new Parser({ format: 'text/turtle', baseIRI }).parse(readFileSync(path, 'utf8'));
  const bySubject = new Map<string, Map<string, Quad['object'][]>>();
  for (const q of quads) {
    const s = `${q.subject.termType}:${q.subject.value}`;
    let props = bySubject.get(s);
    if (!props) bySubject.set(s, (props = new Map<string, Quad['object'][]>()));
    let values = props.get(q.predicate.value);
    if (!values) props.set(q.predicate.value, (values = []));
    values.push(q.object);
  }
  const objects = (subject: Quad['object'], predicate: string): Quad['object'][] => bySubject.get(`${subject.termType}:${subject.value}`)?.get(predicate) ?? [];
  const one = (subject: Quad['object'], predicate: string): Quad['object'] | undefined => objects(subject, predicate)[0];
  const fileOf = (term: Quad['object'] | undefined): string | undefined => (term?.termType === 'NamedNode' && term.value.startsWith('file:') ? fileURLToPath(term.value) : undefined);

  const manifestNode = quads.find((q) => q.predicate.value === `${RDF}type` && q.object.value === `${MF}Manifest`)?.subject;
  if (!manifestNode) throw new Error(`${path} has no mf:Manifest`);
  const entries: ManifestEntry[] = [];
  let list = one(manifestNode, `${MF}entries`);
  while (list && !(list.termType === 'NamedNode' && list.value === `${RDF}nil`)) {
    const item = one(list, `${RDF}first`);
    if (!item) throw new Error(`${path}: malformed mf:entries list`);
    const type = one(item, `${RDF}type`);
    const action = fileOf(one(item, `${MF}action`));
    if (!type || !action) throw new Error(`${path}: entry ${item.value} lacks rdf:type or a file mf:action`);
    const approval = one(item, `${RDFT}approval`);
    entries.push({
      iri: item.value,
      type: localName(type.value, RDFT),
      name: one(item, `${MF}name`)?.value ?? localName(item.value, `${baseIRI}#`),
      comment: one(item, 'http://www.w3.org/2000/01/rdf-schema#comment')?.value,
      action,
      result: fileOf(one(item, `${MF}result`)),
      approval: approval ? localName(approval.value, RDFT) : undefined,
    });
    list = one(list, `${RDF}rest`);
  }
  return {
    label: one(manifestNode, 'http://www.w3.org/2000/01/rdf-schema#label')?.value ?? path,
    assumedTestBase: one(manifestNode, `${MF}assumedTestBase`)?.value,
    entries,
  };
}
