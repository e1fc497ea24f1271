/**
 * Paging of a command's output at a terminal. Output is held until it is longer than the
 * screen (or until it has waited a moment: a command that prints slowly is shown as it goes),
 * then it goes through a pager: `$PAGER`, else `less -FRX` when less is installed, else the
 * built-in one, which stops after each screenful and asks for a key (space: a screenful more,
 * Enter: a line, q: stop). Closing the pager before the end interrupts the command and drops
 * the rest of its output. Output shorter than the screen is written as it is.
 * @module
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { Keypress } from './typeahead.js';

/** How long output shorter than the screen is held before it is shown (ms). */
const HOLD_MS = 250;

/** What the built-in pager shows while it waits for a key. */
export const MORE_PROMPT = '-- more -- (space: next page, Enter: next line, q: stop)';

/** What the pager needs from the terminal. */
export interface PagerTerminal {
  /** Writes to the screen. */
  write(text: string): void | Promise<void>;
  /** The screen's size. */
  size(): { readonly rows: number; readonly columns: number };
  /** The next key typed (for the built-in pager). */
  nextKey(): Promise<Keypress>;
  /** Stops reading the keyboard while an external pager reads it, and starts again. */
  pauseInput(): void;
  /** See {@link PagerTerminal.pauseInput}. */
  resumeInput(): void;
  /** Interrupts the command (its output is no longer wanted). */
  interrupt(): void;
  /** Called before the command's output is shown (to end a line of keys typed ahead). */
  beforeOutput?(): void;
}

/** How output is paged: `auto` (an external pager when there is one), `builtin`, or `off`. */
export type PagerMode = 'auto' | 'builtin' | 'off';

/**
 * The external pager command: `$PAGER` when set (empty: none), else `less -FRX` when less is
 * on the PATH, else undefined (the built-in pager).
 */
export function externalPager(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const pager = env.PAGER;
  if (pager !== undefined) return pager.trim() === '' ? undefined : pager;
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    try {
      accessSync(join(dir, 'less'), constants.X_OK);
      return 'less -FRX';
    } catch {
      // not here
    }
  }
  return undefined;
}

/** The screen rows a text takes (lines wrapped at `columns`; escape sequences take none). */
function rowsOf(line: string, columns: number): number {
  // eslint-disable-next-line no-control-regex
  const width = [...line.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '')].length;
  return Math.max(1, Math.ceil(width / Math.max(1, columns)));
}

/** Splits text into lines keeping their line breaks (the last may have none). */
function linesOf(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

type State = 'holding' | 'direct' | 'builtin' | 'external' | 'stopped';

/** The output of one command at a terminal, paged when long (see the module documentation). */
export class PagedOutput {
  private state: State = 'holding';
  private held: string[] = [];
  /** Rows written since the screen was last filled (direct and built-in). */
  private rows = 0;
  /** Whether the last text written ended a line. */
  private atLineStart = true;
  private timer: NodeJS.Timeout | undefined;
  private child: ChildProcess | undefined;
  private childExited: Promise<void> | undefined;
  private dropped = false;
  private readonly errors: Array<{ readonly text: string; readonly write: (text: string) => void | Promise<void> }> = [];
  /** Writes to the screen in order (a held text shown by the timer, then what follows). */
  private queue: Promise<void> = Promise.resolve();

  /** Pages a command's output on `terminal`, with an external pager `command` (none: built-in). */
  constructor(
    private readonly terminal: PagerTerminal,
    private readonly command: string | undefined,
  ) {}

  private get pageRows(): number {
    // a line is left for the prompt (or the pager's question)
    return Math.max(2, this.terminal.size().rows - 1);
  }

  private rowsOfText(text: string): number {
    const columns = this.terminal.size().columns;
    let rows = 0;
    for (const line of linesOf(text)) rows += rowsOf(line.replace(/\n$/, ''), columns);
    return rows;
  }

  /** Writes output of the command; a returned promise is awaited before more is written. */
  write(text: string): void | Promise<void> {
    if (text === '') return;
    switch (this.state) {
      case 'stopped':
        this.dropped = true;
        return;
      case 'holding': {
        this.held.push(text);
        const all = this.held.join('');
        if (this.rowsOfText(all) > this.pageRows) {
          this.held = [];
          this.cancelTimer();
          if (this.command !== undefined) return this.startExternal(all);
          this.state = 'builtin';
          return this.enqueue(() => this.paced(all));
        }
        // shown after a moment: a command that prints slowly (a watch, a sleep) is not held back
        this.timer ??= setTimeout(() => void this.flush(), HOLD_MS);
        return;
      }
      case 'external':
        return this.toChild(text);
      case 'direct':
      case 'builtin':
        return this.enqueue(() => this.paced(text));
    }
  }

  /**
   * Writes an error line of the command: after what is held, or after an external pager has
   * ended; the interruption caused by closing the pager is not reported.
   */
  async error(text: string, write: (text: string) => void | Promise<void>): Promise<void> {
    if (this.state === 'stopped' && /\bInterruptedError\b/.test(text)) return;
    if (this.state === 'external') {
      this.errors.push({ text, write });
      return;
    }
    await this.flush();
    await this.enqueue(async () => {
      this.terminal.beforeOutput?.();
      await write(text);
    });
  }

  private enqueue(fn: () => Promise<void>): Promise<void> {
    this.queue = this.queue.then(fn, fn);
    return this.queue;
  }

  /** Shows what is held and writes the rest as it comes (paged from the next screenful on). */
  async flush(): Promise<void> {
    this.cancelTimer();
    if (this.state !== 'holding') return;
    this.state = 'direct';
    const text = this.held.join('');
    this.held = [];
    if (text !== '') await this.enqueue(() => this.paced(text));
  }

  /** Ends the command's output: what is held is shown, an external pager is waited for. */
  async end(): Promise<void> {
    this.cancelTimer();
    if (this.state === 'holding') {
      const text = this.held.join('');
      this.held = [];
      this.state = 'direct';
      if (text !== '') await this.show(text);
    }
    await this.queue;
    if (this.child) {
      this.child.stdin?.end();
      await this.childExited;
      this.child = undefined;
      this.terminal.resumeInput();
    }
    for (const { text, write } of this.errors.splice(0)) {
      if (!(this.state === 'stopped' && /\bInterruptedError\b/.test(text))) await write(text);
    }
    if (this.dropped) await this.terminal.write('(the rest of the output was dropped: the pager was closed)\n');
  }

  /** Whether the pager was closed before the output ended (the command was interrupted for it). */
  get stopped(): boolean {
    return this.state === 'stopped';
  }

  private cancelTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private async show(text: string): Promise<void> {
    this.terminal.beforeOutput?.();
    this.atLineStart = text.endsWith('\n');
    await this.terminal.write(text);
  }

  private stop(): void {
    this.state = 'stopped';
    this.terminal.interrupt();
  }

  // ---- an external pager ----

  private startExternal(text: string): Promise<void> | undefined {
    this.state = 'external';
    this.terminal.beforeOutput?.();
    this.terminal.pauseInput();
    const child = spawn(this.command!, { shell: true, stdio: ['pipe', 'inherit', 'inherit'] });
    this.child = child;
    this.childExited = new Promise<void>((resolve) => {
      child.once('close', () => {
        if (this.state === 'external') this.stop();
        resolve();
      });
      child.once('error', () => resolve());
    });
    // a pager closed early: its input is broken, the rest is not wanted
    child.stdin.on('error', () => {
      if (this.state === 'external') this.stop();
    });
    return this.toChild(text);
  }

  private toChild(text: string): Promise<void> | undefined {
    const stdin = this.child?.stdin;
    if (!stdin || stdin.destroyed) {
      this.dropped = true;
      return undefined;
    }
    if (stdin.write(text)) return undefined;
    return new Promise<void>((resolve) => {
      const done = (): void => {
        stdin.off('drain', done);
        stdin.off('close', done);
        resolve();
      };
      stdin.once('drain', done);
      stdin.once('close', done);
    });
  }

  // ---- the built-in pager, and writing with it in reserve ----

  /** Writes text a line at a time, asking for a key whenever a screenful has been written. */
  private async paced(text: string): Promise<void> {
    const columns = this.terminal.size().columns;
    let chunk = '';
    for (const line of linesOf(text)) {
      if (this.state === 'stopped') {
        this.dropped = true;
        return;
      }
      // a line continuing the last one takes no new row
      const rows = this.atLineStart ? rowsOf(line.replace(/\n$/, ''), columns) : 0;
      if (this.rows + rows > this.pageRows) {
        if (chunk !== '') await this.show(chunk);
        chunk = '';
        const more = await this.ask();
        if (more === 0) {
          this.stop();
          this.dropped = true;
          return;
        }
        this.rows = Math.max(0, this.pageRows - more);
      }
      this.rows += rows;
      chunk += line;
      this.atLineStart = line.endsWith('\n');
    }
    if (chunk !== '') await this.show(chunk);
  }

  /** Asks for a key; resolves with the rows to write before asking again (0: stop). */
  private async ask(): Promise<number> {
    this.state = 'builtin';
    await this.terminal.write(MORE_PROMPT);
    for (;;) {
      const press = await this.terminal.nextKey();
      const name = press.key?.name ?? press.text;
      let rows: number | undefined;
      if (name === 'space' || press.text === ' ' || name === 'pagedown') rows = this.pageRows;
      else if (name === 'return' || name === 'enter' || name === 'down' || name === 'j') rows = 1;
      else if (name === 'q' || name === 'escape' || (press.key?.ctrl && name === 'c')) rows = 0;
      if (rows === undefined) continue;
      await this.terminal.write('\r\x1b[K');
      return rows;
    }
  }
}
