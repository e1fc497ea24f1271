/**
 * A watch of a delta query: an async iterator of the query's answer changes, fed by the
 * store's delta-query registry and never slowing it down.
 *
 * The first event is the whole answer (`kind: 'answer'`) at the version the watch starts
 * from; then one `change` event per version whose answer changed (versions where it did not
 * change send nothing). Events wait in a buffer of at most `highWaterMark` events; when a
 * change finds the buffer full, the buffered events are dropped and the next event is the
 * whole answer again (`kind: 'answer'`, with `missedFrom` naming the first version whose change
 * was dropped): the consumer replaces its copy of the answer and goes on from there.
 * A watch resumed after a version the consumer already has (`after`) starts with the kept
 * changes since that version instead, when the query still keeps all of them.
 * @module
 */
import type { QueryTerm } from '../sparql/query-terms.js';

/** One answer row: the values of the answer variables, in order (undefined: unbound). */
export type DeltaQueryRow = ReadonlyArray<QueryTerm | undefined>;

/** The change of a delta query's answer at one version. */
export interface DeltaQueryChange {
  /** Always `change`. */
  readonly kind: 'change';
  /** The data store version the change leads to. */
  readonly version: number;
  /** The answer variables. */
  readonly variables: readonly string[];
  /** Rows that entered the answer (a row of a bag answer once per copy added). */
  readonly additions: readonly DeltaQueryRow[];
  /** Rows that left the answer (once per copy removed). */
  readonly deletions: readonly DeltaQueryRow[];
}

/** The whole answer of a delta query at one version: the first event of a watch, and after a resynchronisation. */
export interface DeltaQueryAnswer {
  /** Always `answer`. */
  readonly kind: 'answer';
  /** The data store version of the answer. */
  readonly version: number;
  /** The answer variables. */
  readonly variables: readonly string[];
  /** The rows (a row of a bag answer once per copy). */
  readonly rows: readonly DeltaQueryRow[];
  /**
   * After a resynchronisation: the first version whose change was dropped because the consumer
   * fell behind by more than its buffer (undefined for the first event of a watch).
   */
  readonly missedFrom?: number;
}

/** What a watch yields. */
export type DeltaQueryEvent = DeltaQueryAnswer | DeltaQueryChange;

/** Options of a watch. */
export interface WatchOptions {
  /** How many events may wait for the consumer before it is resynchronised (default 256). */
  readonly highWaterMark?: number;
  /**
   * Resumes a watch: the consumer has the answer at this version. When the query still keeps
   * the changes of every version after it, the watch starts with those changes (no whole
   * answer); otherwise it starts with the whole answer, with `missedFrom` = `after + 1`.
   */
  readonly after?: number;
}

/** The buffer of a watch that gives none. */
export const DEFAULT_WATCH_BUFFER = 256;

/** A watch: iterate it with `for await`; `close` (or leaving the loop) ends it. */
export interface DeltaQueryWatch extends AsyncIterableIterator<DeltaQueryEvent> {
  /** Ends the watch: a waiting or later `next()` returns done. */
  close(): void;
}

/** @internal The registry's side of a watch. */
export class Watcher implements DeltaQueryWatch {
  private queue: DeltaQueryEvent[] = [];
  private waiter: { resolve: (r: IteratorResult<DeltaQueryEvent>) => void; reject: (e: Error) => void } | undefined;
  private failure: Error | undefined;
  private ended = false;
  /** Whether the first whole answer was handed over (changes before it are covered by it). */
  private started = false;
  /** The first version whose change was dropped, while a resynchronisation is due. */
  missedFrom: number | undefined;

  /** Creates a watch; `onEnd` is called once when it ends. */
  constructor(
    private readonly limit: number,
    private readonly onEnd: (w: Watcher) => void,
  ) {
    if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError(`invalid high-water mark ${limit}: a positive integer is required`);
  }

  /** Whether the watch has ended. */
  get closed(): boolean {
    return this.ended;
  }

  /** Hands over a change; when the buffer is full, drops it all and asks for a resynchronisation. */
  push(event: DeltaQueryChange): void {
    if (this.ended || !this.started) return;
    if (this.missedFrom !== undefined) return; // the coming answer covers this change
    if (this.deliver(event)) return;
    if (this.queue.length >= this.limit) {
      this.missedFrom = (this.queue.find((e) => e.kind === 'change') ?? event).version;
      this.queue = [];
      return;
    }
    this.queue.push(event);
  }

  /** Hands over a whole answer (the first event, or a resynchronisation): it replaces whatever waits. */
  answer(event: DeltaQueryAnswer): void {
    if (this.ended) return;
    this.started = true;
    this.missedFrom = undefined;
    this.queue = [];
    if (!this.deliver(event)) this.queue.push(event);
  }

  /**
   * Starts a resumed watch with the changes the consumer missed (possibly none), oldest first,
   * instead of a whole answer. They are not counted against the buffer: the query's kept
   * answers bound them.
   */
  resume(changes: readonly DeltaQueryChange[]): void {
    if (this.ended) return;
    this.started = true;
    this.missedFrom = undefined;
    this.queue = [];
    for (const change of changes) if (!this.deliver(change)) this.queue.push(change);
  }

  /** Ends the watch with an error (given to the next `next()`). */
  fail(error: Error): void {
    if (this.ended) return;
    this.failure = error;
    this.queue = [];
    this.end();
  }

  next(): Promise<IteratorResult<DeltaQueryEvent>> {
    const value = this.queue.shift();
    if (value !== undefined) return Promise.resolve({ value, done: false });
    if (this.failure) {
      const error = this.failure;
      this.failure = undefined;
      return Promise.reject(error);
    }
    if (this.ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => (this.waiter = { resolve, reject }));
  }

  return(): Promise<IteratorResult<DeltaQueryEvent>> {
    this.close();
    return Promise.resolve({ value: undefined, done: true });
  }

  close(): void {
    this.failure = undefined;
    this.queue = [];
    this.end();
  }

  [Symbol.asyncIterator](): DeltaQueryWatch {
    return this;
  }

  /** Gives an event to a waiting `next()`, if any. */
  private deliver(event: DeltaQueryEvent): boolean {
    const waiter = this.waiter;
    if (!waiter) return false;
    this.waiter = undefined;
    waiter.resolve({ value: event, done: false });
    return true;
  }

  private end(): void {
    if (this.ended) return;
    this.ended = true;
    this.onEnd(this);
    const waiter = this.waiter;
    this.waiter = undefined;
    if (waiter && this.failure) {
      const error = this.failure;
      this.failure = undefined;
      waiter.reject(error);
    } else waiter?.resolve({ value: undefined, done: true });
  }
}
