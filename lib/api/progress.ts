/**
 * Progress of long operations (imports, exports, reasoning) for an `onProgress` callback.
 *
 * Nothing is measured unless a callback is given: the operations then sample a few counters
 * on a timer, so that the work itself is not slowed by reporting.
 * @module
 */

/** What is in progress. */
export type ProgressOperation = 'import' | 'export' | 'reasoning';

/** One report of a long operation's progress. */
export interface ProgressReport {
  /** What is in progress: an import, an export, or reasoning (materialisation). */
  readonly operation: ProgressOperation;
  /**
   * Bytes so far: of the input as read (before decompression: the bytes of a gzip'd file)
   * for imports, of the output written for exports; 0 for reasoning.
   */
  readonly bytes: number;
  /** The size of the input in bytes when every source's size is known (imports); else undefined. */
  readonly totalBytes: number | undefined;
  /**
   * Facts so far: read from the input (imports), written (exports), or derived by the rules
   * (reasoning: rows added to the store since reasoning started).
   */
  readonly facts: number;
  /**
   * The part of the work done, from 0 to 1, when it can be told: by bytes for imports whose
   * size is known, by the rows scanned for exports; undefined otherwise (reasoning).
   */
  readonly fraction: number | undefined;
  /** Milliseconds since the operation started. */
  readonly elapsedMs: number;
  /** True for the last report, sent once the operation has ended (successfully or not). */
  readonly finished: boolean;
}

/** Options of the calls that report progress. */
export interface ProgressOptions {
  /**
   * Called about every {@link ProgressOptions.progressIntervalMs} while the operation runs,
   * and once more with `finished: true` when it ends. An exception it throws is ignored.
   * Without it nothing is measured.
   */
  readonly onProgress?: ((report: ProgressReport) => void) | undefined;
  /** How often `onProgress` is called, in milliseconds (default 250, at least 10). */
  readonly progressIntervalMs?: number | undefined;
}

/** The default interval between progress reports, in milliseconds. */
export const DEFAULT_PROGRESS_INTERVAL_MS = 250;

/** What a sampler reads: the counters of the phase running. */
export type ProgressSample = Omit<ProgressReport, 'elapsedMs' | 'finished'>;

/**
 * Calls a progress callback on a timer with what a sampler reads, until stopped.
 * @internal
 */
export class ProgressMonitor {
  private readonly started = performance.now();
  private readonly timer: NodeJS.Timeout;
  private stopped = false;

  private constructor(
    private readonly callback: (report: ProgressReport) => void,
    private sampler: () => ProgressSample,
    intervalMs: number,
  ) {
    this.timer = setInterval(() => this.report(false), Math.max(10, intervalMs));
    this.timer.unref();
  }

  /** A monitor when `options` has a callback; undefined (and no cost) otherwise. */
  static start(options: ProgressOptions | undefined, sampler: () => ProgressSample): ProgressMonitor | undefined {
    const callback = options?.onProgress;
    if (callback === undefined) return undefined;
    return new ProgressMonitor(callback, sampler, options?.progressIntervalMs ?? DEFAULT_PROGRESS_INTERVAL_MS);
  }

  /** Samples another phase from now on (an import followed by its reasoning). */
  phase(sampler: () => ProgressSample): void {
    this.report(false);
    this.sampler = sampler;
  }

  /** Sends the last report and stops the timer (harmless when called again). */
  finish(): void {
    if (this.stopped) return;
    this.report(true);
    this.stopped = true;
    clearInterval(this.timer);
  }

  private report(finished: boolean): void {
    if (this.stopped) return;
    let sample: ProgressSample;
    try {
      sample = this.sampler();
    } catch {
      return;
    }
    try {
      this.callback({ ...sample, elapsedMs: performance.now() - this.started, finished });
    } catch {
      // a failing callback does not disturb the operation
    }
  }
}

/** Runs `fn` with a monitor, finishing the monitor however `fn` ends. @internal */
export async function monitored<T>(monitor: { finish(): void } | undefined, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } finally {
    monitor?.finish();
  }
}
