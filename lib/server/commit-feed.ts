/**
 * The commit feed of a data store: every commit publishes one {@link CommitRecord} (its
 * version, its net explicit changes, its net changes of presence and whether it changed the
 * catalogue) to the store's subscriptions, in commit order, after reasoning, the commit
 * procedure and the durable log append. This is what delta queries and replicas consume.
 *
 * Semantics:
 * - every published version has exactly one record, also a commit that changed nothing
 *   (empty maps, `catalogueChanged` false), so a consumer sees consecutive versions and can
 *   tell a missed one; rolled-back transactions, compaction and the log replay at start-up
 *   publish nothing;
 * - a subscription receives the record of every commit published after
 *   {@link CommitFeed.subscribe} returned: a consumer that subscribes and then reads the
 *   committed state at version V applies the records of the versions after V;
 * - commits never wait for a consumer: each subscription buffers up to its high-water mark
 *   of records; the commit that would go past it ends the subscription with a
 *   {@link CommitFeedOverflowError} instead (the buffered records are dropped, the error
 *   names the first version not delivered, from which the consumer resynchronises).
 * @module
 */
import { QuadlogError } from '../model/errors.js';
import type { TransactionChanges } from '../storage/change-log.js';

/** What one commit changed, as the commit feed publishes it. */
export interface CommitRecord {
  /** The version the commit published. */
  readonly version: number;
  /**
   * The net change of the explicit facts, by table id (only tables with a change): tuples that
   * became explicit (`added`) and tuples that stopped being explicit (`removed`), flattened.
   */
  readonly explicit: TransactionChanges;
  /**
   * The net change of presence (the `all` domain: explicit or derived), by table id: tuples
   * that were absent before the commit and are facts after it (`added`, whether explicit,
   * derived or both), and tuples that were facts and are absent now (`removed`). A fact whose
   * status changes but stays present (explicit → derived) is not here; it is in `explicit`
   * when its explicit status changed. With `explicit`, this is what delta queries over either
   * domain need. Facts of a deleted tuple table are not listed: the table leaves the catalogue.
   */
  readonly all: TransactionChanges;
  /** Whether the catalogue changed: rules, axioms, prefixes, base IRI, commit procedure, tuple tables, statistics. */
  readonly catalogueChanged: boolean;
}

/** Options of a subscription. */
export interface CommitSubscriptionOptions {
  /** How many records may wait for the consumer before the subscription ends (default {@link DEFAULT_HIGH_WATER_MARK}). */
  readonly highWaterMark?: number;
}

/** The high-water mark of a subscription that gives none. */
export const DEFAULT_HIGH_WATER_MARK = 1024;

/** A subscription to a store's commits: iterate it (`for await`); `close` ends it. */
export interface CommitSubscription extends AsyncIterable<CommitRecord> {
  /** Ends the subscription: a waiting or later `next()` returns done, buffered records are dropped. */
  close(): void;
  /** How many records wait for the consumer. */
  readonly buffered: number;
}

/** The end of a subscription whose consumer fell behind by more than its high-water mark. */
export class CommitFeedOverflowError extends QuadlogError {
  override readonly status: number = 409;
  /** Creates the error for a subscription of `limit` records that could not take version `missedFrom`. */
  constructor(
    /** The subscription's high-water mark. */
    readonly limit: number,
    /** The first version the subscription did not deliver. */
    readonly missedFrom: number,
  ) {
    super(`the consumer fell behind by more than ${limit} commits: the subscription ended before version ${missedFrom}`);
  }
}

/** One subscription: a bounded queue and at most one waiting `next()`. */
class Subscription implements CommitSubscription, AsyncIterator<CommitRecord> {
  private queue: Array<CommitRecord | undefined> = [];
  private head = 0;
  private waiter: ((result: IteratorResult<CommitRecord>) => void) | undefined;
  private waiterFailed: ((error: Error) => void) | undefined;
  private failure: Error | undefined;
  private ended = false;

  constructor(
    private readonly limit: number,
    private readonly onEnd: (s: Subscription) => void,
  ) {}

  get buffered(): number {
    return this.queue.length - this.head;
  }

  /** Takes a published record (never waits). */
  push(record: CommitRecord): void {
    if (this.ended) return;
    const waiter = this.waiter;
    if (waiter) {
      this.waiter = this.waiterFailed = undefined;
      waiter({ value: record, done: false });
      return;
    }
    if (this.buffered >= this.limit) {
      this.fail(new CommitFeedOverflowError(this.limit, record.version));
      return;
    }
    this.queue.push(record);
  }

  next(): Promise<IteratorResult<CommitRecord>> {
    if (this.head < this.queue.length) {
      const value = this.queue[this.head]!;
      this.queue[this.head++] = undefined; // let the consumed record go
      if (this.head === this.queue.length) {
        this.queue = [];
        this.head = 0;
      } else if (this.head > 1024 && this.head * 2 > this.queue.length) {
        this.queue = this.queue.slice(this.head);
        this.head = 0;
      }
      return Promise.resolve({ value, done: false });
    }
    if (this.failure) {
      const error = this.failure;
      this.failure = undefined;
      return Promise.reject(error);
    }
    if (this.ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => {
      this.waiter = resolve;
      this.waiterFailed = reject;
    });
  }

  return(): Promise<IteratorResult<CommitRecord>> {
    this.close();
    return Promise.resolve({ value: undefined, done: true });
  }

  close(): void {
    this.failure = undefined;
    this.end();
  }

  [Symbol.asyncIterator](): AsyncIterator<CommitRecord> {
    return this;
  }

  /** Ends the subscription with an error (given to the next `next()`). */
  private fail(error: Error): void {
    this.failure = error;
    this.end();
  }

  private end(): void {
    if (this.ended) return;
    this.ended = true;
    this.queue = [];
    this.head = 0;
    this.onEnd(this);
    const waiter = this.waiter;
    const failed = this.waiterFailed;
    this.waiter = this.waiterFailed = undefined;
    if (this.failure && failed) {
      const error = this.failure;
      this.failure = undefined;
      failed(error);
    } else waiter?.({ value: undefined, done: true });
  }
}

/** The subscriptions of one store and the publishing of its commits. */
export class CommitFeed {
  private readonly subscriptions = new Set<Subscription>();

  /** Whether anyone listens (the records are only made then). */
  get listening(): boolean {
    return this.subscriptions.size > 0;
  }

  /** A new subscription, receiving the commits published from now on. */
  subscribe(options: CommitSubscriptionOptions = {}): CommitSubscription {
    const limit = options.highWaterMark ?? DEFAULT_HIGH_WATER_MARK;
    if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError(`invalid high-water mark ${limit}: a positive integer is required`);
    const subscription = new Subscription(limit, (s) => this.subscriptions.delete(s));
    this.subscriptions.add(subscription);
    return subscription;
  }

  /** Hands a record to every subscription (in commit order: called once per commit, right after it is published). */
  publish(record: CommitRecord): void {
    for (const s of [...this.subscriptions]) s.push(record);
  }

  /** Ends every subscription (the store is deleted or the server shuts down). */
  closeAll(): void {
    for (const s of [...this.subscriptions]) s.close();
  }
}
