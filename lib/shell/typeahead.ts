/**
 * Keys typed at the terminal while a command runs: shown as they are typed (after the
 * command's output so far, on a line of their own), kept, and handed to the line editor at
 * the next prompt, one line at a time, as if typed there. Ctrl-C interrupts the command and
 * drops them. The built-in pager reads its keys from here too.
 * @module
 */

/** A key as node:readline's keypress events describe it. */
export interface KeyInfo {
  readonly name?: string | undefined;
  readonly ctrl?: boolean | undefined;
  readonly meta?: boolean | undefined;
  readonly shift?: boolean | undefined;
  readonly sequence?: string | undefined;
}

/** One keypress: the text it produced and the key. */
export interface Keypress {
  readonly text: string | undefined;
  readonly key: KeyInfo | undefined;
}

type KeypressListener = (text: string | undefined, key: KeyInfo | undefined) => void;

function isEnter(press: Keypress): boolean {
  return press.key?.name === 'return' || press.key?.name === 'enter';
}

/** Whether a keypress types text (rather than moving, deleting or controlling). */
function printable(press: Keypress): string | undefined {
  const text = press.text;
  if (text === undefined || text === '' || press.key?.ctrl || press.key?.meta) return undefined;
  // control characters and escape sequences (arrows, function keys) are kept but not shown
  return [...text].every((c) => c >= ' ' && c !== '\x7f') ? text : undefined;
}

/** Captures the keys typed while a command runs (see the module documentation). */
export class TypeAhead {
  private readonly kept: Keypress[] = [];
  private editor: KeypressListener[] = [];
  private capturing = false;
  private column = 0;
  private waiter: ((press: Keypress) => void) | undefined;
  private readonly listener: KeypressListener = (text, key) => this.press({ text, key });

  /**
   * Creates the capture of `input`'s keypress events; `echo` shows what is typed, `interrupt`
   * is called on Ctrl-C.
   */
  constructor(
    private readonly input: NodeJS.EventEmitter,
    private readonly echo: (text: string) => void,
    private readonly interrupt: () => void,
  ) {}

  /** Takes the keys from the line editor (a command starts). */
  start(): void {
    if (this.capturing) return;
    this.editor = this.input.listeners('keypress') as KeypressListener[];
    for (const l of this.editor) this.input.off('keypress', l);
    this.input.on('keypress', this.listener);
    this.capturing = true;
    this.column = 0;
  }

  /** Gives the keys back to the line editor (the command ended, or asks a question). */
  stop(): void {
    if (!this.capturing) return;
    this.input.off('keypress', this.listener);
    for (const l of this.editor) this.input.on('keypress', l);
    this.capturing = false;
    // a line of echoed keys is left open: the prompt is drawn over it, with the keys replayed
    this.column = 0;
  }

  /** Whether keys typed are being kept. */
  get active(): boolean {
    return this.capturing;
  }

  /** Whether keys are kept for the next prompt. */
  get pending(): boolean {
    return this.kept.length > 0;
  }

  /**
   * Ends the line of echoed keys before the command writes more, so that its output starts
   * on a line of its own.
   */
  closeLine(): void {
    if (this.column === 0) return;
    this.column = 0;
    this.echo('\r\n');
  }

  /** The next key, for the built-in pager (not kept, not shown). */
  nextKey(): Promise<Keypress> {
    return new Promise<Keypress>((resolve) => (this.waiter = resolve));
  }

  /**
   * Hands the kept keys to the line editor, up to the first Enter (the rest wait for the next
   * prompt). Call once the prompt is shown and the editor has its keys back.
   */
  replay(): void {
    while (this.kept.length > 0) {
      const press = this.kept.shift()!;
      for (const l of this.editor) l(press.text, press.key);
      if (isEnter(press)) return;
    }
  }

  /** Drops the kept keys. */
  clear(): void {
    this.kept.length = 0;
  }

  private press(press: Keypress): void {
    const waiter = this.waiter;
    if (press.key?.ctrl && press.key.name === 'c') {
      // as at a shell: Ctrl-C interrupts, and what was typed ahead goes (a waiting pager stops)
      this.kept.length = 0;
      this.waiter = undefined;
      this.closeLine();
      this.interrupt();
      waiter?.(press);
      return;
    }
    if (waiter) {
      this.waiter = undefined;
      waiter(press);
      return;
    }
    this.kept.push(press);
    const text = printable(press);
    if (text !== undefined) {
      this.column += [...text].length;
      this.echo(text);
    } else if (isEnter(press)) {
      this.column = 0;
      this.echo('\r\n');
    } else if (press.key?.name === 'backspace' && this.column > 0) {
      this.column--;
      this.echo('\b \b');
    }
  }
}
