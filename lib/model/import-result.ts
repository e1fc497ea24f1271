/**
 * The outcome of an import as every layer sees it: the notification rows (errors, warnings,
 * prefixes, then the summary) and the counters. The types live here, in the lowest layer, so
 * that the errors of `errors.ts` can carry a result; `formats/notifications.ts` builds them.
 * @module
 */

/** Kinds of notification rows. */
export type NotificationType = 'error' | 'warning' | 'prefix' | 'information';

/** One row of the notification answer. */
export interface NotificationRow {
  /** `error`, `warning`, `prefix` or `information`. */
  readonly type: NotificationType;
  /** 1-based input line, when known. */
  readonly line?: number;
  /** 1-based input column, when known. */
  readonly column?: number;
  /** The message, the prefix name (with colon) or the counter name (`#errors`, …). */
  readonly description: string;
  /** The prefix IRI or the counter value; empty for errors and warnings. */
  readonly value: string;
}

/** The outcome of an import: notification rows, counters and the text form. */
export interface ImportResult {
  /** Error, warning and prefix rows followed by the information rows. */
  readonly rows: readonly NotificationRow[];
  /** Number of errors (when non-zero, nothing was changed). */
  readonly errors: number;
  /** Number of warnings. */
  readonly warnings: number;
  /** Facts read from the input. */
  readonly processedFacts: number;
  /** Facts actually added or deleted. */
  readonly changedFacts: number;
  /** Rules read. */
  readonly processedRules: number;
  /** Rules actually added or deleted. */
  readonly changedRules: number;
  /** Axioms read. */
  readonly processedAxioms: number;
  /** Axioms actually added or deleted. */
  readonly changedAxioms: number;
  /** Prefix definitions found in the input, in order (name with colon → IRI). */
  readonly prefixes: ReadonlyMap<string, string>;
  /** The plain-text form (`error: line N: column N: …`, `prefix: …`, `information: …`). */
  readonly text: string;
}
