/**
 * What the SPARQL evaluator's parts read: quads of the query's dataset as term ids.
 * @module
 */

/** Graph argument meaning "the active default graph" (the default graph of the dataset). */
export const DEFAULT_GRAPH = -2;
/** Graph argument meaning "any named graph of the dataset" (the graph term is reported). */
export const ANY_NAMED_GRAPH = -1;
/** A pattern position that matches anything. */
export const UNBOUND = -1;

/** Receives a match; returning true stops the scan. */
export type MatchCallback = (s: number, p: number, o: number, g: number) => boolean | void;

/** The quads of a query's dataset, by term id. */
export interface QuadSource {
  /**
   * Calls `onMatch` for every quad matching the pattern (UNBOUND positions match anything);
   * `graph` is DEFAULT_GRAPH, ANY_NAMED_GRAPH or a graph's term id. For the default graph
   * `onMatch` gets `g = DEFAULT_GRAPH`. Duplicates are never reported (the default graph of a
   * dataset that merges several graphs reports each triple once). Returns true when
   * `onMatch` returned true (stop).
   */
  match(s: number, p: number, o: number, graph: number, onMatch: MatchCallback): boolean;
  /**
   * The matches of {@link QuadSource.match} as a resumable step function: each call visits at
   * most `budget` stored rows (so reports at most `budget` matches) and returns true once the
   * scan is over (all matches reported, or `onMatch` returned true). Lets a long scan yield to
   * the event loop, and a join advance one row at a time.
   */
  matcher?(s: number, p: number, o: number, graph: number, onMatch: MatchCallback): (budget: number) => boolean;
  /** Calls `onNode` once for every term used as a subject or object in the graph (for zero-length paths). */
  nodes(graph: number, onNode: (node: number) => boolean | void): boolean;
  /** An estimate of the number of matches of a pattern with these constants (UNBOUND elsewhere). */
  estimate?(s: number, p: number, o: number, graph: number): number;
  /**
   * The exact number of matches of a pattern of distinct variables and at most one constant
   * (UNBOUND elsewhere) when it is known without a scan, else undefined.
   */
  exactCount?(s: number, p: number, o: number, graph: number): number | undefined;
  /** The id of an IRI, or -1 when the store has no such term (then nothing can match it). */
  iriId(iri: string): number;
}
