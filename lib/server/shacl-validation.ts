/**
 * SHACL validation as the server offers it (see docs/shacl.md): the options a caller gives
 * (data graph, shapes graph, fact domain) resolved against a store state, the access a role
 * needs to validate (it must not learn through a report what it may not read), and the
 * shacl layer's report turned into RDF terms (`shacl-report.ts`). The validation itself is
 * the shacl layer's (`lib/shacl`).
 * @module
 */
import type * as RDF from '@rdfjs/types/data-model.js';
import { DataFactory } from 'n3';
import type { Interrupter } from '../model/control.js';
import type { TermDictionary } from '../model/dictionary.js';
import { AccessDeniedError } from '../model/errors.js';
import { iriKey, keyToTerm } from '../model/terms.js';
import type { FactAccess } from '../storage/fact-access.js';
import { DEFAULT_TRIPLES_ID, QUADS_ID, type StoreState } from '../storage/fact-store.js';
import { reportQuads, validate, type ShaclDataSelection, type ShaclPath, type ShaclReport, type ShaclResult } from '../shacl/index.js';
import { QuadReader } from './quad-reader.js';
import { checkGraphRead, SH, type ValidationOptions, type ValidationReport, type ValidationResult } from './shacl-report.js';

/** A term id no term has (the largest 32-bit id). */
const NO_TERM = 0x7fffffff;

/** A graph of a selection: its term id, `default`, or `absent` for a named graph the store has no term for (an empty graph). */
type ResolvedGraph = number | 'default' | 'absent';

function resolveGraph(dictionary: TermDictionary, iri: string | undefined): ResolvedGraph {
  if (iri === undefined) return 'default';
  const id = dictionary.lookup(iriKey(iri));
  return id >= 0 && id < dictionary.size ? id : 'absent';
}

/** Whether the shapes graph holds SHACL-SPARQL constraints (`sh:sparql`). */
function hasSparqlConstraints(state: StoreState, dictionary: TermDictionary, shapes: ResolvedGraph): boolean {
  if (shapes === 'absent') return false;
  const reader = new QuadReader(state, dictionary, undefined, () => undefined);
  const graph = shapes === 'default' ? DataFactory.defaultGraph() : keyToTerm(dictionary.keyOf(shapes));
  return reader.count(undefined, DataFactory.namedNode(`${SH}sparql`), undefined, graph) > 0;
}

/**
 * Checks that a role with restricted access (`access` defined) may validate: it must read the
 * data graph and the shapes graph; and when the shapes hold SHACL-SPARQL constraints, whose
 * queries may read any graph of the store, every graph of the store.
 * @throws AccessDeniedError when it may not.
 */
export function checkValidationAccess(access: FactAccess | undefined, state: StoreState, dictionary: TermDictionary, options: ValidationOptions): void {
  if (access === undefined) return;
  checkGraphRead(access, options.dataGraph);
  checkGraphRead(access, options.shapesGraph);
  if (!hasSparqlConstraints(state, dictionary, resolveGraph(dictionary, options.shapesGraph))) return;
  access.checkRead(DEFAULT_TRIPLES_ID);
  access.checkRead(QUADS_ID);
  if (access.readableGraph !== undefined) throw new AccessDeniedError('the shapes hold SHACL-SPARQL constraints (sh:sparql), whose queries may read any graph: validating with them needs read access to every graph of the store');
}

/**
 * The selection of a validation on `state`, or undefined when the shapes graph is a named graph
 * the store has never held (there are no shapes: the data conforms).
 * @internal
 */
export function selectionOf(state: StoreState, dictionary: TermDictionary, options: ValidationOptions): ShaclDataSelection | undefined {
  const shapes = resolveGraph(dictionary, options.shapesGraph);
  if (shapes === 'absent') return undefined;
  const data = resolveGraph(dictionary, options.dataGraph);
  return {
    state,
    dictionary,
    // a named graph the store has no term for holds no facts: an id no term has stands for it
    // (not -1, which is the storage's wildcard)
    dataGraph: data === 'absent' ? NO_TERM : data,
    shapesGraph: shapes,
    factDomain: options.factDomain ?? 'all',
  };
}

/** The term of an id of the dictionary. */
function termOf(dictionary: TermDictionary, id: number): RDF.Term {
  return keyToTerm(dictionary.keyOf(id));
}

/** A report of the shacl layer in RDF terms (its quads made by `reportQuads`). */
export function reportInTerms(report: ShaclReport, dictionary: TermDictionary): ValidationReport {
  const quads = reportQuads(report, dictionary);
  const results = report.results.map((r: ShaclResult): ValidationResult => ({
    focusNode: termOf(dictionary, r.focusNode),
    resultPath: r.resultPath === undefined ? undefined : pathText(r.resultPath, dictionary),
    value: r.value === undefined ? undefined : termOf(dictionary, r.value),
    sourceShape: termOf(dictionary, r.sourceShape),
    sourceConstraintComponent: r.sourceConstraintComponent,
    sourceConstraint: r.sourceConstraint === undefined ? undefined : termOf(dictionary, r.sourceConstraint),
    severity: r.severity,
    messages: r.messages,
  }));
  return { conforms: report.conforms, results, quads };
}

/** A path in SPARQL's property path syntax. */
export function pathText(path: ShaclPath, dictionary: TermDictionary): string {
  switch (path.kind) {
    case 'predicate':
      return dictionary.keyOf(path.predicate);
    case 'inverse':
      return `^${pathText(path.path, dictionary)}`;
    case 'sequence':
      return `(${path.paths.map((p) => pathText(p, dictionary)).join('/')})`;
    case 'alternative':
      return `(${path.paths.map((p) => pathText(p, dictionary)).join('|')})`;
    case 'zeroOrMore':
      return `(${pathText(path.path, dictionary)})*`;
    case 'oneOrMore':
      return `(${pathText(path.path, dictionary)})+`;
    case 'zeroOrOne':
      return `(${pathText(path.path, dictionary)})?`;
  }
}

/** An empty, conforming report (no shapes). */
function conformingReport(): ShaclReport {
  return { conforms: true, results: [] };
}

/**
 * Validates `state` as `options` say (no access check: see {@link checkValidationAccess}),
 * optionally only the focus nodes `focusNodes`.
 * @internal
 */
export async function validateState(state: StoreState, dictionary: TermDictionary, options: ValidationOptions, interrupter: Interrupter, focusNodes?: ReadonlySet<number>): Promise<ShaclReport> {
  const selection = selectionOf(state, dictionary, options);
  if (selection === undefined) return conformingReport();
  return validate(selection, focusNodes === undefined ? { interrupter } : { interrupter, focusNodes });
}
