/**
 * A queue of writes run one after another in the order they were queued (a server's writes of
 * its role database and catalogue, to its directory or to PostgreSQL): a failed write does not
 * stop the ones after it.
 * @module
 */

/** Runs queued writes one at a time, in order. */
export class WriteQueue {
  private tail: Promise<void> = Promise.resolve();

  /** Runs `work` after every write queued before it; the promise settles with it. */
  run<T>(work: () => Promise<T>): Promise<T> {
    const result = this.tail.then(work);
    this.tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }

  /** Resolves once every write queued so far has finished. */
  settled(): Promise<void> {
    return this.run(() => Promise.resolve());
  }
}
