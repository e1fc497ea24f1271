/**
 * The shell at a terminal: node:readline line editing, a history kept in a file under the
 * home directory (`~/.quadlog_history`, or `QUADLOG_HISTORY`; in memory only when the file
 * cannot be written), tab completion, a prompt naming the active data store, `\` continuation
 * lines, and Ctrl-C interrupting the running command (at the prompt it clears the line; Ctrl-D
 * or `quit` ends the shell). Output longer than the screen goes through a pager (see pager.ts,
 * variable `pager`); keys typed while a command runs are shown and kept for the next prompt
 * (see typeahead.ts); `cls` and Ctrl-L clear the screen.
 * @module
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { clearScreenDown, createInterface, cursorTo, type Interface } from 'node:readline';
import { VERSION } from '../index.js';
import { LineAssembler, type ShellIO } from '../commands/index.js';
import { externalPager, PagedOutput, type PagerTerminal } from './pager.js';
import type { ShellSession } from './session.js';
import { TypeAhead } from './typeahead.js';

/** How many lines the history keeps. */
const HISTORY_SIZE = 1000;

/** Lines that carry a password are not kept in the history file. */
const SECRET = /\b(password|hash)\s+\S/i;

/** The history file: QUADLOG_HISTORY, else ~/.quadlog_history. */
export function historyPath(env: NodeJS.ProcessEnv = process.env): string {
  return env.QUADLOG_HISTORY !== undefined && env.QUADLOG_HISTORY !== '' ? env.QUADLOG_HISTORY : join(homedir(), '.quadlog_history');
}

function loadHistory(path: string): string[] {
  try {
    return readFileSync(path, 'utf8').split('\n').filter((l) => l !== '').slice(-HISTORY_SIZE).reverse();
  } catch {
    return [];
  }
}

/** Asks a question on the terminal; with `secret`, what is typed is not shown (nor kept in the history). */
function ask(rl: Interface, question: string, secret: boolean): Promise<string> {
  const internals = rl as unknown as { _writeToOutput: (text: string) => void; history?: string[] };
  const write = internals._writeToOutput.bind(rl);
  return new Promise<string>((resolve) => {
    if (secret) {
      internals._writeToOutput = (text: string) => {
        // the question itself is shown, the answer is not
        if (text.startsWith(question) || text === '\r\n' || text === '\n') write(text.startsWith(question) ? question : text);
      };
    }
    rl.question(question, (answer) => {
      if (secret) {
        internals._writeToOutput = write;
        if (internals.history?.[0] === answer) internals.history.shift();
      }
      resolve(answer);
    });
  });
}

/** Clears the screen and puts the cursor at its top (what Ctrl-L does at the prompt). */
function clearScreen(): void {
  cursorTo(process.stdout, 0, 0);
  clearScreenDown(process.stdout);
}

/** A typed `cls`, run here for a shell that is not in this process. */
const CLS = /^\s*cls\s*$/;

/** Runs the shell at the terminal until `quit` or Ctrl-D. */
export async function interactive(session: ShellSession, io: ShellIO): Promise<void> {
  const file = historyPath();
  let persist = true;
  const rl = createInterface({
    input: process.stdin,
    output: process.stdout,
    terminal: true,
    history: loadHistory(file),
    historySize: HISTORY_SIZE,
    removeHistoryDuplicates: true,
    completer: (line: string, callback: (error: Error | null, result: [string[], string]) => void) => {
      session.complete(line).then(
        (result) => callback(null, result),
        () => callback(null, [[], line]),
      );
    },
  });
  // keys typed while a command runs are shown, and kept for the next prompt
  const typeahead = new TypeAhead(process.stdin, (text) => void process.stdout.write(text), () => session.interrupt());
  const write = io.write.bind(io);
  const writeError = (io.error ?? io.write).bind(io);
  let page: PagedOutput | undefined;
  /** A question is asked on a clean line, with the keyboard back to the line editor. */
  const asking = async <T>(fn: () => Promise<T>): Promise<T> => {
    await page?.flush();
    const capturing = typeahead.active;
    typeahead.closeLine();
    typeahead.stop();
    try {
      return await fn();
    } finally {
      if (capturing) typeahead.start();
    }
  };
  io.confirm = (question) => asking(async () => /^\s*y(es)?\s*$/i.test(await ask(rl, `${question} [y/N] `, false)));
  io.askPassword = (question) => asking(() => ask(rl, question, true));
  io.clearScreen = clearScreen;
  const terminal: PagerTerminal = {
    write: (text) => write(text),
    size: () => ({ rows: process.stdout.rows ?? 24, columns: process.stdout.columns ?? 80 }),
    nextKey: () => typeahead.nextKey(),
    pauseInput: () => rl.pause(),
    resumeInput: () => rl.resume(),
    interrupt: () => session.interrupt(),
    beforeOutput: () => typeahead.closeLine(),
  };
  const assembler = { current: new LineAssembler() };
  let busy = false;
  const prompt = (): string => (assembler.current.pending ? '... ' : `${session.activeDataStore ?? ''}> `);
  rl.on('SIGINT', () => {
    if (busy) {
      session.interrupt();
      return;
    }
    // at the prompt: drop what was typed (and an unfinished command), as a shell does
    rl.write(null, { ctrl: true, name: 'e' });
    rl.write(null, { ctrl: true, name: 'u' });
    assembler.current = new LineAssembler();
    process.stdout.write('^C\n');
    rl.setPrompt(prompt());
    rl.prompt();
  });
  process.stdout.write(`quadlog ${VERSION} shell: 'help' lists the commands, 'quit' ends; Ctrl-C interrupts a running command\n`);
  rl.setPrompt(prompt());
  rl.prompt();
  for await (const line of rl) {
    if (persist && line.trim() !== '' && !SECRET.test(line)) {
      try {
        appendFileSync(file, line + '\n', { mode: 0o600 });
      } catch {
        persist = false;
        process.stderr.write(`(the history is kept in memory only: ${file} cannot be written)\n`);
      }
    }
    const command = assembler.current.push(line);
    if (command && !session.local && CLS.test(command.text)) clearScreen();
    else if (command) {
      busy = true;
      const mode = session.pager;
      // output sent to a file or a pipe is never paged
      const paged = mode === 'off' || !process.stdout.isTTY ? undefined : new PagedOutput(terminal, mode === 'builtin' ? undefined : externalPager());
      page = paged;
      if (paged) {
        io.write = (text) => paged.write(text);
        io.error = (text) => paged.error(text, writeError);
      }
      typeahead.start();
      try {
        await session.run([command], { interactive: true });
      } catch (e) {
        typeahead.closeLine();
        process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
      } finally {
        await paged?.end().catch(() => undefined);
        page = undefined;
        io.write = write;
        io.error = writeError;
        typeahead.stop();
        busy = false;
      }
      if (session.hasQuit) break;
    }
    rl.setPrompt(prompt());
    rl.prompt();
    typeahead.replay();
  }
  rl.close();
  process.stdout.write('\n');
}
