/**
 * The data store parameters of validation on commit (`shacl-validation-on-commit`,
 * `shacl-data-graph`, `shacl-shapes-graph`) read into validation options; kept apart from
 * `shacl-commit.ts` so that a store reads them without loading the shacl layer.
 * @module
 */
import type { ValidationOptions } from './shacl-report.js';

/** The store parameter that turns validation on commit on (`on`) or off (`off`, the default). */
export const SHACL_ON_COMMIT = 'shacl-validation-on-commit';
/** The store parameter naming the data graph validated on commit (`default`, or a named graph's IRI). */
export const SHACL_DATA_GRAPH = 'shacl-data-graph';
/** The store parameter naming the graph of the shapes used on commit (`default`, or a named graph's IRI). */
export const SHACL_SHAPES_GRAPH = 'shacl-shapes-graph';

/** What a store validates on commit, from its parameters; undefined when it does not. */
export function commitValidationOf(parameters: Readonly<Record<string, string>>): ValidationOptions | undefined {
  if (parameters[SHACL_ON_COMMIT] !== 'on') return undefined;
  const graph = (value: string | undefined): string | undefined => (value === undefined || value === 'default' ? undefined : value);
  return { dataGraph: graph(parameters[SHACL_DATA_GRAPH]), shapesGraph: graph(parameters[SHACL_SHAPES_GRAPH]), factDomain: 'all' };
}

/** What a validation on commit did (for tests and figures). */
export interface CommitValidation {
  /** `skipped` (no focus node affected), `focused` (the affected focus nodes), `full` (every target). */
  readonly kind: 'skipped' | 'focused' | 'full';
  /** The number of focus nodes validated when `focused`. */
  readonly focusNodes: number;
}

