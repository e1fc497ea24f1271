/**
 * Cooperative scheduling for long work: yield to the event loop every few milliseconds and
 * stop at the next yield once interrupted.
 * @module
 */
import { InterruptedError } from './errors.js';

/** How long a long-running loop may keep the event loop before it yields. */
export const YIELD_INTERVAL_MS = 8;

/** An interrupt flag shared by a connection and the work it runs. */
export class Interrupter {
  private requested = false;
  private lastYield = performance.now();

  /** Asks the running work to stop at its next yield. */
  interrupt(): void {
    this.requested = true;
  }

  /** Clears the flag (at the start of each call). */
  reset(): void {
    this.requested = false;
    this.lastYield = performance.now();
  }

  /** Whether an interrupt is pending. */
  get interrupted(): boolean {
    return this.requested;
  }

  /** Throws InterruptedError when interrupted. */
  check(): void {
    if (this.requested) throw new InterruptedError('the operation was interrupted');
  }

  /** Whether the current slice of work has used up its time (cheap to call often). */
  due(): boolean {
    return performance.now() - this.lastYield >= YIELD_INTERVAL_MS;
  }

  /** Yields to the event loop, then throws InterruptedError when interrupted. */
  async yield(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.lastYield = performance.now();
    this.check();
  }

  /** Yields only when the time slice is used up. */
  async maybeYield(): Promise<void> {
    if (this.due()) await this.yield();
    else this.check();
  }
}

/**
 * An interrupter for work with a deadline: it stops when `outer` is interrupted, and also once
 * `deadline` (`performance.now()` time) has passed, with an InterruptedError saying `message`.
 */
export class DeadlineInterrupter extends Interrupter {
  /** An interrupter following `outer` until `deadline`. */
  constructor(
    private readonly outer: Interrupter,
    private readonly deadline: number,
    private readonly message: string,
  ) {
    super();
  }

  /** Asks the work (and `outer`'s) to stop. */
  override interrupt(): void {
    this.outer.interrupt();
  }

  /** Whether the outer interrupter is interrupted. */
  override get interrupted(): boolean {
    return this.outer.interrupted;
  }

  /** Throws InterruptedError when interrupted or past the deadline. */
  override check(): void {
    this.outer.check();
    if (performance.now() > this.deadline) throw new InterruptedError(this.message);
  }
}

/** `interrupter`, or one that also stops at `deadline` (with `message`) when there is one. */
export function withDeadline(interrupter: Interrupter, deadline: number, message: string): Interrupter {
  return deadline === Infinity ? interrupter : new DeadlineInterrupter(interrupter, deadline, message);
}
