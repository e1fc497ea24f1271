/**
 * The types of SHACL validation: which facts it reads (the selection), its options, the
 * paths of property shapes, and the validation report as typed results of term ids.
 * @module
 */
import type * as RDF from '@rdfjs/types/data-model.js';
import type { Interrupter } from '../model/control.js';
import type { TermDictionary } from '../model/dictionary.js';
import type { StoreState } from '../storage/fact-store.js';
import type { FactDomain } from '../storage/tuple-table.js';

/** Which facts validation reads. */
export interface ShaclDataSelection {
  /** The store state read (a snapshot or the write transaction). */
  readonly state: StoreState;
  /** The store's term dictionary. */
  readonly dictionary: TermDictionary;
  /** The data graph: the term id of a named graph, or the default graph. */
  readonly dataGraph: number | 'default';
  /** The shapes graph: the term id of a named graph, or the default graph. */
  readonly shapesGraph: number | 'default';
  /**
   * Which facts of the data graph count: the explicit ones, the derived ones (those that follow
   * from rules, whether or not also explicit), or both. The shapes graph is read whole.
   */
  readonly factDomain: FactDomain;
}

/** Options of a validation. */
export interface ShaclOptions {
  /** Validate only these focus nodes (term ids); all targets when absent. */
  readonly focusNodes?: ReadonlySet<number>;
  /** Yield/interrupt hook: called often; may throw to stop (time limits). */
  readonly interrupter?: Interrupter;
}

/**
 * A SHACL property path over term ids: a predicate, or an inverse, sequence, alternative,
 * zero-or-more, one-or-more or zero-or-one path of other paths.
 */
export type ShaclPath =
  | { readonly kind: 'predicate'; readonly predicate: number }
  | { readonly kind: 'inverse' | 'zeroOrMore' | 'oneOrMore' | 'zeroOrOne'; readonly path: ShaclPath }
  | { readonly kind: 'sequence' | 'alternative'; readonly paths: readonly ShaclPath[] };

/** One validation result. */
export interface ShaclResult {
  /** The focus node (term id). */
  readonly focusNode: number;
  /** The path of the property shape (or the predicate of a closed shape's result), if any. */
  readonly resultPath?: ShaclPath;
  /** The value node at fault (term id), if any. */
  readonly value?: number;
  /** The shape whose constraint was not met (term id). */
  readonly sourceShape: number;
  /** The IRI of the constraint component. */
  readonly sourceConstraintComponent: string;
  /** The node of a SPARQL-based constraint (term id), if any. */
  readonly sourceConstraint?: number;
  /** The IRI of the severity (sh:Violation unless the shape says otherwise). */
  readonly severity: string;
  /** The messages of the result (sh:message of the shape or constraint, or the query's). */
  readonly messages: readonly RDF.Literal[];
}

/** A validation report. */
export interface ShaclReport {
  /** Whether the data conforms: no result at all (of any severity). */
  readonly conforms: boolean;
  /** The results. */
  readonly results: readonly ShaclResult[];
}
