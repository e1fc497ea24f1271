/**
 * A bounded hand-over of answer rows from a running query to a reader that pulls them: the
 * query pauses while the reader has enough rows waiting, and stops when the reader goes away.
 * @module
 */

/** Raised inside the producer when its reader cancelled (the producer's caller ignores it). */
export class ChannelCancelled extends Error {
  constructor() {
    super('the reader of the answers went away');
    this.name = 'ChannelCancelled';
  }
}

/** Rows from one producer to one reader, with backpressure. */
export class AnswerChannel<Row> {
  private rows: Row[] = [];
  private head = 0;
  private ended = false;
  private failure: { error: unknown } | undefined;
  private cancelled = false;
  private demand = 0;
  private wakeProducer: (() => void) | undefined;
  private wakeReader: (() => void) | undefined;

  /**
   * Creates a channel holding up to `highWater` waiting rows before the producer pauses.
   * `stopProducer`, when given, stops a producer that may not pause for a long time (a query
   * computing an aggregate hands over no row until the end): it is called when the reader
   * cancels, and by {@link AnswerChannel.interrupt}.
   */
  constructor(
    private readonly highWater = 1024,
    private readonly stopProducer?: () => void,
  ) {}

  /** Rows waiting to be taken. */
  get buffered(): number {
    return this.rows.length - this.head;
  }

  /** Whether the producer has finished and every row was taken. */
  get exhausted(): boolean {
    return this.ended && this.buffered === 0;
  }

  // ---- producer side ----

  /** Hands over one row. */
  push(row: Row): void {
    this.rows.push(row);
    if (this.buffered >= this.demand) this.notifyReader();
  }

  /**
   * For the producer between batches: a promise to wait for while enough rows are waiting;
   * throws {@link ChannelCancelled} once the reader has cancelled.
   */
  readonly pause = (): Promise<void> | undefined => {
    if (this.cancelled) throw new ChannelCancelled();
    if (this.buffered < Math.max(this.highWater, this.demand)) return undefined;
    return new Promise<void>((resolve) => (this.wakeProducer = resolve)).then(() => {
      if (this.cancelled) throw new ChannelCancelled();
    });
  };

  /** The producer is done (with the error it failed with, if any). */
  end(error?: unknown): void {
    this.ended = true;
    if (error !== undefined && !(error instanceof ChannelCancelled)) this.failure = { error };
    this.notifyReader();
  }

  // ---- reader side ----

  /**
   * Up to `max` rows: waits until `max` rows are waiting or the producer is done. When
   * `lookahead` is set, one more row is awaited (and kept) so that {@link AnswerChannel.buffered}
   * tells whether more rows follow. Throws the producer's error.
   */
  async take(max: number, lookahead = false): Promise<Row[]> {
    const want = max + (lookahead ? 1 : 0);
    while (this.buffered < want && !this.ended) {
      this.demand = want;
      const woken = new Promise<void>((resolve) => (this.wakeReader = resolve));
      this.notifyProducer();
      await woken;
    }
    this.demand = 0;
    if (this.failure) throw this.failure.error;
    const n = Math.min(max, this.buffered);
    const out = this.rows.slice(this.head, this.head + n);
    this.head += n;
    if (this.head > 4096 && this.head * 2 > this.rows.length) {
      this.rows = this.rows.slice(this.head);
      this.head = 0;
    }
    if (this.buffered < this.highWater) this.notifyProducer();
    return out;
  }

  /**
   * Stops the producer when a reader is waiting for rows (a cursor's page being read), so that
   * the reader gets the producer's error; returns whether it did. An idle channel is left alone.
   */
  interrupt(): boolean {
    if (this.wakeReader === undefined || this.ended) return false;
    this.stopProducer?.();
    return true;
  }

  /** The reader goes away: the producer stops at its next pause (or at once, with `stopProducer`). */
  cancel(): void {
    this.cancelled = true;
    this.stopProducer?.();
    this.rows = [];
    this.head = 0;
    this.notifyProducer();
  }

  private notifyReader(): void {
    const wake = this.wakeReader;
    this.wakeReader = undefined;
    wake?.();
  }

  private notifyProducer(): void {
    const wake = this.wakeProducer;
    this.wakeProducer = undefined;
    wake?.();
  }
}
