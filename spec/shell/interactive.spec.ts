/**
 * The interactive shell driven through a real pseudo-terminal: tmux, on a server socket of its
 * own (`tmux -L <unique>`), in a fresh directory with its own history file. Keys are typed with
 * send-keys and the screen is read with capture-pane, polled until the expected text appears
 * (no timing is assumed; the bound is the test's timeout).
 */
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { CLI, tempDir, TSX, which } from './helpers.js';

const run = promisify(execFile);

/** Installs tmux when it is missing (the specs need a terminal; they never skip). */
async function ensureTmux(): Promise<void> {
  if (await which('tmux')) return;
  await run('apt-get', ['install', '-y', 'tmux'], { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } }).catch(async () => {
    await run('apt-get', ['update'], { maxBuffer: 64 * 1024 * 1024 });
    await run('apt-get', ['install', '-y', 'tmux'], { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }, maxBuffer: 64 * 1024 * 1024 });
  });
}

/** A terminal running `quadlog shell`. */
class Terminal {
  private constructor(
    private readonly socket: string,
    readonly dir: string,
  ) {}

  static async start(dir: string, history: string): Promise<Terminal> {
    const socket = `quadlog-spec-${process.pid}-${Math.random().toString(36).slice(2)}`;
    const command = `cd '${dir}' && QUADLOG_HISTORY='${history}' '${process.execPath}' --import '${TSX}' '${CLI}' shell; echo "[exited $?]"; sleep 600`;
    await run('tmux', ['-L', socket, '-f', '/dev/null', 'new-session', '-d', '-x', '200', '-y', '50', command]);
    const terminal = new Terminal(socket, dir);
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

  /** The screen (and scrollback). */
  async screen(): Promise<string> {
    const { stdout } = await run('tmux', ['-L', this.socket, 'capture-pane', '-p', '-J', '-S', '-500', '-t', '0']);
    return stdout;
  }

  /** Polls the screen until `pattern` matches; returns the screen. */
  async waitFor(pattern: RegExp): Promise<string> {
    for (;;) {
      const screen = await this.screen();
      if (pattern.test(screen)) return screen;
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async kill(): Promise<void> {
    await run('tmux', ['-L', this.socket, 'kill-server']).catch(() => undefined);
  }
}

/** The last non-empty line of a screen. */
function lastLine(screen: string): string {
  const lines = screen.split('\n').filter((l) => l.trim() !== '');
  return lines[lines.length - 1] ?? '';
}

describe('shell: quadlog shell at a terminal (tmux)', function () {
  this.timeout(120_000);
  let dir: ReturnType<typeof tempDir>;
  let terminal: Terminal | undefined;

  before(async function () {
    this.timeout(600_000);
    await ensureTmux();
  });
  beforeEach(() => {
    dir = tempDir('quadlog-shell-tty-');
  });
  afterEach(async () => {
    await terminal?.kill();
    terminal = undefined;
    dir.remove();
  });

  it('edits lines, completes commands, stores and prefixes, and runs what is typed', async () => {
    const t = (terminal = await Terminal.start(dir.path, join(dir.path, 'history')));
    await t.type('dst');
    await t.keys(['Tab']);
    await t.waitFor(/> dstore $/m);
    await t.type('create family');
    await t.keys(['Enter']);
    await t.waitFor(/data store 'family' created and made active\nfamily> $/m);
    await t.type('prefix ex: <http://example.com/>');
    await t.keys(['Enter']);
    await t.waitFor(/^prefix ex: <http:\/\/example\.com\/>\nfamily> $/m);
    await t.type('active fa');
    await t.keys(['Tab']);
    await t.waitFor(/family> active family $/m);
    await t.keys(['Enter']);
    await t.waitFor(/data store 'family' is active\nfamily> $/m);
    await t.type('import ! ex:a ex:p ex:b .');
    await t.keys(['Enter']);
    await t.waitFor(/1 fact \(1 new\) in [\d.]+ s\nfamily> $/m);
    // a query over two lines, a prefix completed in it
    await t.type('SELECT ?x WHERE { ?x e');
    await t.keys(['Tab']);
    await t.waitFor(/family> SELECT \?x WHERE \{ \?x ex:$/m);
    await t.type('p ?y } \\');
    await t.keys(['Enter']);
    await t.waitFor(/^\.\.\. $/m);
    await t.type('ORDER BY ?x');
    await t.keys(['Enter']);
    const screen = await t.waitFor(/1 answer in [\d.]+ s\nfamily> $/m);
    expect(screen).to.contain(' ?x\n------\n ex:a\n');
    // line editing: move left and insert
    await t.type('echo wrld');
    await t.keys(['Left', 'Left', 'Left']);
    await t.type('o');
    await t.keys(['Enter']);
    await t.waitFor(/^ewrld\n|^world\n/m).then((s) => expect(s).to.match(/^world$/m));
  });

  it('keeps a history across sessions, recalled with the Up key', async () => {
    const history = join(dir.path, 'history');
    let t = (terminal = await Terminal.start(dir.path, history));
    await t.type('echo first command');
    await t.keys(['Enter']);
    await t.waitFor(/^first command\n> $/m);
    await t.type('role create secretive password hidden');
    await t.keys(['Enter']);
    await t.waitFor(/role 'secretive' created\n> $/m);
    await t.type('quit');
    await t.keys(['Enter']);
    await t.waitFor(/\[exited 0\]/);
    await t.kill();
    const saved = readFileSync(history, 'utf8');
    expect(saved).to.contain('echo first command\n').and.to.contain('quit\n');
    // lines carrying a password stay out of the file
    expect(saved).to.not.contain('hidden');
    t = terminal = await Terminal.start(dir.path, history);
    await t.keys(['Up', 'Up']);
    await t.waitFor(/> echo first command$/m);
    await t.keys(['Enter']);
    await t.waitFor(/^first command\n> $/m);
  });

  it('interrupts a long query with Ctrl-C, and the shell goes on; Ctrl-C at the prompt clears the line', async () => {
    let facts = '';
    for (let i = 0; i < 1000; i++) facts += `<http://e.com/n${i}> <http://e.com/p> <http://e.com/n${i + 1}> .\n`;
    writeFileSync(join(dir.path, 'chain.nt'), facts);
    const t = (terminal = await Terminal.start(dir.path, join(dir.path, 'history')));
    await t.type('dstore create s');
    await t.keys(['Enter']);
    await t.type('import chain.nt');
    await t.keys(['Enter']);
    await t.waitFor(/1,000 facts \(1,000 new\) in [\d.]+ s\ns> $/m);
    await t.type('SELECT (COUNT(*) AS ?n) WHERE { ?a ?p ?b . ?c ?q ?d . ?e ?r ?f }');
    await t.keys(['Enter']);
    // the query is running once the line is taken and no prompt follows it
    for (;;) {
      const screen = await t.screen();
      if (lastLine(screen).endsWith('?f }')) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    await t.keys(['C-c']);
    await t.waitFor(/column 1: SELECT: InterruptedError: [^\n]*\ns> $/m);
    await t.type('echo this is not run');
    await t.keys(['C-c']);
    await t.waitFor(/\^C\ns> $/m);
    await t.type('echo still here');
    await t.keys(['Enter']);
    const screen = await t.waitFor(/^still here\ns> $/m);
    expect(screen).to.not.contain('this is not run\n');
    expect(lastLine(screen)).to.equal('s> ');
  });
});
