/**
 * SHACL validation reports as the api gives them: the options of a validation (data graph,
 * shapes graph, fact domain), the report's results in RDF terms, and
 * {@link ShaclViolationError}, which a commit that does not conform fails with. Kept apart
 * from `shacl-validation.ts` so that the session and the api use them without loading the
 * shacl layer.
 * @module
 */
import type * as RDF from '@rdfjs/types/data-model.js';
import { AccessDeniedError, BadRequestError, QuadlogError } from '../model/errors.js';
import { iriKey } from '../model/terms.js';
import type { FactAccess } from '../storage/fact-access.js';
import type { FactDomain } from '../storage/tuple-table.js';
import { DEFAULT_TRIPLES_ID, QUADS_ID } from '../storage/fact-store.js';

/** The SHACL namespace. */
export const SH = 'http://www.w3.org/ns/shacl#';

/**
 * Which facts of the data graph are validated: the explicit ones, the derived ones (those that
 * follow from rules, whether or not also explicit), or both (`all`).
 */
export type ShaclFactDomain = FactDomain;

/** What to validate: graphs by IRI (absent: the default graph) and the fact domain. */
export interface ValidationOptions {
  /** The data graph: the IRI of a named graph; the default graph when absent. */
  readonly dataGraph?: string | undefined;
  /** The graph holding the shapes: the IRI of a named graph; the default graph when absent. */
  readonly shapesGraph?: string | undefined;
  /** `all` (default: explicit and derived facts), `explicit` or `derived`; the shapes graph is read whole. */
  readonly factDomain?: ShaclFactDomain | undefined;
}

/** One result of a validation report, in RDF terms. */
export interface ValidationResult {
  /** The focus node the result is about. */
  readonly focusNode: RDF.Term;
  /**
   * The path of the property shape that produced it (or the predicate of a closed shape's
   * result), in SPARQL's property path syntax: `<p>`, `^<p>`, `(<p>/<q>)`, `(<p>|<q>)`,
   * `(<p>)*`, `(<p>)+`, `(<p>)?`; absent for node shapes.
   */
  readonly resultPath?: string | undefined;
  /** The value node that violates the constraint, where there is one. */
  readonly value?: RDF.Term | undefined;
  /** The shape the result comes from (a node of the shapes graph). */
  readonly sourceShape: RDF.Term;
  /** The IRI of the constraint component (e.g. `http://www.w3.org/ns/shacl#MinCountConstraintComponent`). */
  readonly sourceConstraintComponent: string;
  /** The constraint node of a SPARQL-based constraint. */
  readonly sourceConstraint?: RDF.Term | undefined;
  /** The IRI of the severity (`sh:Violation`, `sh:Warning`, `sh:Info`, or another). */
  readonly severity: string;
  /** The messages of the result. */
  readonly messages: readonly RDF.Literal[];
}

/** A validation report in RDF terms, and as the quads of SHACL's report vocabulary. */
export interface ValidationReport {
  /** Whether the data graph conforms to the shapes (no results at all, whatever their severity). */
  readonly conforms: boolean;
  /** The results. */
  readonly results: readonly ValidationResult[];
  /** The report as quads of the default graph (`sh:ValidationReport`, `sh:conforms`, `sh:result` …). */
  readonly quads: readonly RDF.Quad[];
}

/**
 * A commit whose result does not conform to the store's shapes (data store parameter
 * `shacl-validation-on-commit=on`): the transaction was rolled back and the store is as it
 * was. {@link ShaclViolationError.report} holds the results (of the focus nodes the
 * transaction could affect); it is undefined when the committing role may not read the data or
 * the shapes graph. HTTP 422.
 */
export class ShaclViolationError extends QuadlogError {
  override readonly status: number = 422;
  /** The report that refused the commit, or undefined when the role may not read what it says. */
  readonly report: ValidationReport | undefined;
  /** Creates the error from a report (shown in the message when `shown`). */
  constructor(report: ValidationReport, shown = true, options?: ErrorOptions) {
    const n = report.results.length;
    const head = `the transaction was not committed: its result does not conform to the data store's SHACL shapes (${n} validation result${n === 1 ? '' : 's'})`;
    super(shown ? `${head}:\n${describeResults(report.results, 10)}` : `${head}; the role may not read the graphs the report is about`, options);
    this.name = 'ShaclViolationError';
    this.report = shown ? report : undefined;
  }
}

/** A term as N-Triples-like text for messages. */
function text(term: RDF.Term): string {
  if (term.termType === 'NamedNode') return `<${term.value}>`;
  if (term.termType === 'BlankNode') return `_:${term.value}`;
  if (term.termType === 'Literal') return JSON.stringify(term.value);
  return term.value;
}

/** The first `max` results, one a line, for a message. */
export function describeResults(results: readonly ValidationResult[], max: number): string {
  const lines = results.slice(0, max).map((r) => {
    const component = r.sourceConstraintComponent.startsWith(SH) ? `sh:${r.sourceConstraintComponent.slice(SH.length)}` : `<${r.sourceConstraintComponent}>`;
    const parts = [`focus ${text(r.focusNode)}`];
    if (r.resultPath) parts.push(`path ${r.resultPath}`);
    if (r.value) parts.push(`value ${text(r.value)}`);
    parts.push(component);
    const message = r.messages[0]?.value;
    return `  - ${parts.join(', ')}${message ? `: ${message}` : ''}`;
  });
  if (results.length > max) lines.push(`  … and ${results.length - max} more`);
  return lines.join('\n');
}


/** Checks a graph option: an absolute IRI, or absent. */
function checkGraphOption(iri: string | undefined, what: string): void {
  if (iri === undefined) return;
  // eslint-disable-next-line no-control-regex
  if (typeof iri !== 'string' || !/^[A-Za-z][A-Za-z0-9+.-]*:[^\u0000-\u0020<>"{}|^`\\]*$/.test(iri)) throw new BadRequestError(`invalid ${what} '${String(iri)}': the IRI of a named graph is required (leave it out for the default graph)`);
}

/** Checks the options a caller gave (graph IRIs, fact domain). */
export function checkValidationOptions(options: ValidationOptions): void {
  checkGraphOption(options.dataGraph, 'data graph');
  checkGraphOption(options.shapesGraph, 'shapes graph');
  const domain = options.factDomain;
  if (domain !== undefined && domain !== 'explicit' && domain !== 'derived' && domain !== 'all') throw new BadRequestError(`invalid fact domain '${String(domain)}' for SHACL validation (expected explicit, derived or all)`);
}

/**
 * Throws AccessDeniedError unless the role may read a graph: the default graph's table, or the
 * `Quads` table and the named graph.
 */
export function checkGraphRead(access: FactAccess, iri: string | undefined): void {
  if (iri === undefined) {
    access.checkRead(DEFAULT_TRIPLES_ID);
    return;
  }
  access.checkRead(QUADS_ID);
  if (access.readableGraphName !== undefined && !access.readableGraphName(iriKey(iri))) throw new AccessDeniedError(`the role may not read named graph <${iri}>, so it cannot validate it or with its shapes`);
}

/**
 * Whether a role's access lets it read the data graph and the shapes graph of `options` (for
 * the report of a refused commit, shown only then).
 */
export function mayReadGraphs(access: FactAccess | undefined, options: ValidationOptions): boolean {
  if (access === undefined) return true;
  try {
    checkGraphRead(access, options.dataGraph);
    checkGraphRead(access, options.shapesGraph);
    return true;
  } catch (e) {
    if (e instanceof AccessDeniedError) return false;
    throw e;
  }
}

