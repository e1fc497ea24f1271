/**
 * The progress of long operations on a terminal: a bar (cli-progress) with the part done, the
 * bytes or facts so far, the rate and the time left; without a known total, the amounts and
 * the rate only.
 * @module
 */
import { SingleBar } from 'cli-progress';
import type { ProgressReport } from '../index.js';
import { bytesText, type ProgressDisplay, progressRates } from '../commands/index.js';

/** The bar's scale: fractions are shown in thousandths. */
const SCALE = 1000;

function amount(report: ProgressReport): string {
  const facts = `${Math.round(report.facts).toLocaleString('en')} facts`;
  if (report.bytes === 0) return facts;
  const bytes = report.totalBytes !== undefined ? `${bytesText(report.bytes)}/${bytesText(report.totalBytes)}` : bytesText(report.bytes);
  return `${bytes}, ${facts}`;
}

/** Progress bars on a terminal stream. */
export class TerminalProgress implements ProgressDisplay {
  private bar: SingleBar | undefined;
  private label = '';

  /** Creates the display on `stream` (a TTY). */
  constructor(private readonly stream: NodeJS.WriteStream) {}

  /** Shows (or moves) the bar of an operation. */
  update(label: string, report: ProgressReport): void {
    const determinate = report.fraction !== undefined;
    if (!this.bar || label !== this.label) {
      this.stop();
      this.label = label;
      const format = determinate ? '{label} |{bar}| {percentage}% | {amount} | {rate} | {left}' : '{label} | {amount} | {rate} | {elapsed} s';
      this.bar = new SingleBar({ stream: this.stream, format, barsize: 24, hideCursor: false, clearOnComplete: true, linewrap: false, fps: 8, noTTYOutput: false });
      this.bar.start(SCALE, 0, this.payload(report));
    }
    this.bar.update(Math.round((report.fraction ?? 0) * SCALE), this.payload(report));
  }

  /** Removes the bar of an operation that ended. */
  end(label: string, report: ProgressReport): void {
    if (this.bar && label === this.label) this.bar.update(Math.round((report.fraction ?? 0) * SCALE), this.payload(report));
    this.stop();
  }

  private stop(): void {
    this.bar?.stop();
    this.bar = undefined;
  }

  private payload(report: ProgressReport): Record<string, string> {
    const { rate, left } = progressRates(report);
    return { label: this.label, amount: amount(report), rate, left: left ?? 'time left unknown', elapsed: (report.elapsedMs / 1000).toFixed(0) };
  }
}
