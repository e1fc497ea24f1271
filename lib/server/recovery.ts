/**
 * What a persistent server reports while it starts: the events of loading each store and what
 * each load did. Kept apart from the persistence modules, which work on internal types, so
 * that the public `Server` options reach only these plain types. Also the last load of a
 * store as its status shows it (the `recovery` property, the `Recovery` component).
 * @module
 */
import type { Component } from './component-info.js';

/** What loading a store found, for start-up reports. */
export interface StoreLoadReport {
  /** Whether a snapshot was read. */
  readonly snapshot: boolean;
  /** Log records replayed (of the sealed logs an interrupted compaction left, and of the log). */
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
  /**
   * A sentence about a torn log tail that was cut, or undefined when the log ended cleanly.
   * A log whose last record is incomplete or damaged (a write cut short by a crash or `kill
   * -9`), with no whole record after it, is truncated to its last whole record; the
   * transaction of the cut record is lost (with `persistence-durability=sync` it was never
   * acknowledged). The sentence names what was cut, where and how many whole records were
   * kept, e.g. `cut an incomplete record at byte 4120 (37 bytes to the end of the file: …)
   * from …/transactions.qlog; 12 whole records kept`. It is also the store's `recovery`
   * property and the `Log tail cut` of its `Recovery` component. When a sealed log (left by
   * an interrupted compaction) was cut too, the sentences are joined with `; `.
   */
  readonly cut: string | undefined;
  /**
   * Log records committed one by one after the load, so that the store's delta queries
   * compute the changes of the versions they had not computed when the process stopped
   * (0 when there were none, or the store has no delta query).
   */
  readonly recommitted: number;
}

/**
 * What start-up reports about each store (`Server.create({ onRecovery })`, and afterwards
 * `server.recoveryEvents()`): `loading` when a store's files are about to be read, then
 * `loaded` with what the load found — `report.cut` says whether a torn log tail was cut — or
 * `offline` when its files cannot be loaded.
 */
export type RecoveryEvent =
  | {
      /** A store's files are about to be read. */
      readonly kind: 'loading';
      /** The store's name. */
      readonly store: string;
    }
  | {
      /** The store was loaded. */
      readonly kind: 'loaded';
      /** The store's name. */
      readonly store: string;
      /** What the load found: snapshot, records replayed, reasoning, and `cut`, the torn log tail cut (if any). */
      readonly report: StoreLoadReport;
      /** How long the load took, in milliseconds. */
      readonly elapsedMs: number;
    }
  | {
      /** The store's files cannot be loaded: it is left offline (see `server.offlineDataStores()`). */
      readonly kind: 'offline';
      /** The store's name. */
      readonly store: string;
      /** Why, naming the store, the file and the byte offset. */
      readonly error: Error;
    };

/** @internal The last load of a store from the server directory, as its status shows it. */
export interface StoreRecovery {
  /** When the load finished. */
  readonly at: Date;
  /** How long it took, in milliseconds. */
  readonly elapsedMs: number;
  /** What it found. */
  readonly report: StoreLoadReport;
}

/**
 * @internal The `Recovery` component of a store loaded from the server directory: when, how
 * long, what was read and replayed, and the log tail cut (`none` when the log ended cleanly).
 */
export function recoveryComponent(recovery: StoreRecovery): Component {
  const { report } = recovery;
  const properties: Array<[string, string | number | boolean]> = [
    ['Loaded at', recovery.at.toISOString()],
    ['Load time (ms)', Math.round(recovery.elapsedMs)],
    ['Snapshot read', report.snapshot],
    ['Log records replayed', report.records],
    ['Incrementally maintained', report.maintained],
    ['Rematerialised', report.rematerialised],
    ['Log tail cut', report.cut ?? 'none'],
  ];
  if (report.unavailableSources.length > 0) properties.push(['Unavailable data sources', report.unavailableSources.join(', ')]);
  return { name: 'Recovery', properties, children: [] };
}
