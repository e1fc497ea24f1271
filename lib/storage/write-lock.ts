/**
 * The write lock of a data store: one holder at a time, waiters served first come first
 * served, each with its own timeout.
 * @module
 */
import { LockTimeoutError } from '../model/errors.js';

interface Waiter {
  resolve: () => void;
  timer: NodeJS.Timeout | undefined;
}

/** An asynchronous mutex with per-acquisition timeouts. */
export class WriteLock {
  private held = false;
  private readonly queue: Waiter[] = [];

  /** Whether somebody holds the lock. */
  get locked(): boolean {
    return this.held;
  }

  /**
   * Acquires the lock, waiting at most `timeoutMs` (Infinity waits forever); rejects with
   * LockTimeoutError when the time runs out.
   */
  acquire(timeoutMs: number, what = 'the data store'): Promise<void> {
    if (!this.held) {
      this.held = true;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = { resolve, timer: undefined };
      if (Number.isFinite(timeoutMs)) {
        waiter.timer = setTimeout(() => {
          const i = this.queue.indexOf(waiter);
          if (i >= 0) this.queue.splice(i, 1);
          reject(new LockTimeoutError(`could not acquire the write lock of ${what} within ${timeoutMs} ms: another read/write transaction is open`));
        }, timeoutMs);
      }
      this.queue.push(waiter);
    });
  }

  /** Releases the lock, handing it to the next waiter. */
  release(): void {
    const next = this.queue.shift();
    if (next) {
      if (next.timer) clearTimeout(next.timer);
      next.resolve();
    } else this.held = false;
  }
}
