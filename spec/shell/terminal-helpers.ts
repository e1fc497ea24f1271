/**
 * `quadlog shell` in a real pseudo-terminal, for the specs of the terminal's features (pager,
 * typing ahead, clearing the screen): tmux on a server socket of its own (`tmux -L <unique>`),
 * with the screen size and environment a spec chooses. Keys are sent with send-keys; the
 * screen is read with capture-pane and polled until the expected text appears (no timing is
 * assumed; the bound is the test's timeout). The same way in as spec/shell/interactive.spec.ts.
 * @module
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CLI, tempDir, TSX, which } from './helpers.js';

const run = promisify(execFile);

/** Installs tmux when it is missing (the specs need a terminal; they never skip). */
export async function ensureTmux(): Promise<void> {
  if (await which('tmux')) return;
  await run('apt-get', ['install', '-y', 'tmux'], { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } }).catch(async () => {
    await run('apt-get', ['update'], { maxBuffer: 64 * 1024 * 1024 });
    await run('apt-get', ['install', '-y', 'tmux'], { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }, maxBuffer: 64 * 1024 * 1024 });
  });
}

/** How to start the terminal. */
export interface TerminalOptions {
  /** The directory the shell runs in. */
  readonly dir: string;
  /** The history file. */
  readonly history: string;
  /** Screen columns (default 100). */
  readonly columns?: number;
  /** Screen rows (default 30). */
  readonly rows?: number;
  /** Environment of the shell: `NAME=value` assignments, or `-u NAME` to remove one (env(1)). */
  readonly env?: readonly string[];
  /** Arguments of `quadlog shell` (e.g. `--endpoint`). */
  readonly args?: readonly string[];
}

function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** A terminal running `quadlog shell`. */
export class Terminal {
  private constructor(private readonly socket: string) {}

  /** Starts the shell and waits for its first prompt. */
  static async start(options: TerminalOptions): Promise<Terminal> {
    const socket = `quadlog-spec-${process.pid}-${Math.random().toString(36).slice(2)}`;
    const env = ['env', ...(options.env ?? []).flatMap((e) => (e.startsWith('-u ') ? ['-u', e.slice(3)] : [e])), `QUADLOG_HISTORY=${options.history}`].map(quote).join(' ');
    const command = `cd ${quote(options.dir)} && ${env} ${quote(process.execPath)} --import ${quote(TSX)} ${quote(CLI)} shell ${(options.args ?? []).map(quote).join(' ')}; echo "[exited $?]"; sleep 600`;
    await run('tmux', ['-L', socket, '-f', '/dev/null', 'new-session', '-d', '-x', String(options.columns ?? 100), '-y', String(options.rows ?? 30), command]);
    const terminal = new Terminal(socket);
    await terminal.waitFor(/> $/m);
    return terminal;
  }

  /** Sends keys (tmux key names, or literal text with `literal`). */
  async keys(keys: readonly string[], literal = false): Promise<void> {
    await run('tmux', ['-L', this.socket, 'send-keys', '-t', '0', ...(literal ? ['-l'] : []), ...keys]);
  }

  /** Types text literally. */
  type(text: string): Promise<void> {
    return this.keys([text], true);
  }

  /** Types a line and Enter. */
  async line(text: string): Promise<void> {
    await this.type(text);
    await this.keys(['Enter']);
  }

  /** The visible screen only (`history`: with the scrollback before it). */
  async screen(history = false): Promise<string> {
    const { stdout } = await run('tmux', ['-L', this.socket, 'capture-pane', '-p', '-J', ...(history ? ['-S', '-1000'] : []), '-t', '0']);
    return stdout;
  }

  /**
   * Polls the screen (with its scrollback when `history`) until `pattern` matches; returns it.
   * After 60 s it fails showing the screen (a bound for a test that would time out anyway).
   */
  async waitFor(pattern: RegExp, history = true): Promise<string> {
    const give = Date.now() + 60_000;
    for (;;) {
      const screen = await this.screen(history);
      if (pattern.test(screen)) return screen;
      if (Date.now() > give) throw new Error(`${String(pattern)} never matched the screen:\n${screen}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Ends the terminal (and the shell in it). */
  async kill(): Promise<void> {
    await run('tmux', ['-L', this.socket, 'kill-server']).catch(() => undefined);
  }
}

/** The last non-empty line of a screen. */
export function lastLine(screen: string): string {
  const lines = screen.split('\n').filter((l) => l.trim() !== '');
  return lines[lines.length - 1] ?? '';
}

/** N-Triples of `n` facts whose subjects sort in their order: <http://e.com/n1000> … */
export function numberedFacts(n: number): string {
  let text = '';
  for (let i = 0; i < n; i++) text += `<http://e.com/n${1000 + i}> <http://e.com/p> "v${1000 + i}" .\n`;
  return text;
}

/** The terminal of each test of a spec, and the fresh directory it runs in. */
export interface TerminalFixture {
  /** The test's directory. */
  readonly dir: string;
  /** Starts the test's terminal in its directory (history in `history` there unless given). */
  start(options?: Omit<TerminalOptions, 'dir' | 'history'> & { readonly history?: string }): Promise<Terminal>;
}

/**
 * The hooks a terminal spec needs: tmux installed before the tests (it may take apt-get's
 * time), a fresh directory named after `prefix` before each test, and after it the terminal
 * killed and the directory removed. Call it inside the spec's describe.
 */
export function useTerminal(prefix: string): TerminalFixture {
  let dir: ReturnType<typeof tempDir> | undefined;
  let terminal: Terminal | undefined;
  before(async function () {
    this.timeout(600_000);
    await ensureTmux();
  });
  beforeEach(() => {
    dir = tempDir(prefix);
  });
  afterEach(async () => {
    await terminal?.kill();
    terminal = undefined;
    dir?.remove();
  });
  return {
    get dir(): string {
      return dir!.path;
    },
    async start(options = {}): Promise<Terminal> {
      await terminal?.kill();
      terminal = await Terminal.start({ ...options, dir: dir!.path, history: options.history ?? join(dir!.path, 'history') });
      return terminal;
    },
  };
}
