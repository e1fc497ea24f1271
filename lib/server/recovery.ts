/**
 * What a persistent server reports while it starts: the events of loading each store and what
 * each load did. Kept apart from the persistence modules, which work on internal types, so
 * that the public `Server` options reach only these plain types.
 * @module
 */

/** What loading a store found, for start-up reports. */
export interface StoreLoadReport {
  /** Whether a snapshot was read. */
  readonly snapshot: boolean;
  /** Log records replayed. */
  readonly records: number;
  /** Whether the materialisation was recomputed from scratch. */
  readonly rematerialised: boolean;
  /** Whether the replayed changes were followed by an incremental maintenance run. */
  readonly maintained: boolean;
  /**
   * Data sources that tuple tables are mounted on but that cannot be read (not registered, or
   * not opened at start-up): their tables read as empty while the store was loaded.
   */
  readonly unavailableSources: readonly string[];
  /** A sentence about a torn log tail that was cut, if any. */
  readonly cut: string | undefined;
}

/** What start-up reports about each store (and the server documents). */
export type RecoveryEvent =
  | { readonly kind: 'loading'; readonly store: string }
  | { readonly kind: 'loaded'; readonly store: string; readonly report: StoreLoadReport; readonly elapsedMs: number }
  | { readonly kind: 'offline'; readonly store: string; readonly error: Error };
