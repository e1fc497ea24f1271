/**
 * `quadlog shell`: the shell at a terminal (line editing, history, completion, Ctrl-C
 * interrupting the running command), or running a script (`-f <file>`, or standard input when
 * it is not a terminal). It runs a server in this process unless `--endpoint` names a remote
 * quadlog endpoint.
 * @module
 */
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { dirname, resolve } from 'node:path';
import { LineAssembler, type CommandText, type ShellIO, splitScript } from '../commands/index.js';
import { TerminalProgress } from './progress-bar.js';
import { LocalSession, RemoteSession, type SessionStatus, type ShellSession } from './session.js';
import { readScriptFile, scriptText } from './script-text.js';
import { interactive } from './terminal.js';

/** Usage text of `quadlog shell`. */
export const SHELL_USAGE = `usage: quadlog shell [-f SCRIPT [ARGUMENT]...] [--role NAME]
                     [--sandbox-directory DIR] [--allowed-url-schemes LIST]
       quadlog shell --endpoint URL --role NAME [--password PW] [-f SCRIPT]

Without -f, the shell reads commands from the terminal (or runs standard input as a script
when it is not a terminal). 'help' lists the commands.

By default the shell runs a server of its own in this process; its first role is --role (or
QUADLOG_ROLE, else 'admin') with a random password that is never shown or needed: the server
has no endpoint, so only this process can reach it. Imports read files and URLs through that
server's read policy: by default every file you can read (sandbox directory /) and file,
http and https IRIs; --sandbox-directory and --allowed-url-schemes narrow it.

With --endpoint, commands run in a shell of that quadlog endpoint as --role, with --password
(or QUADLOG_PASSWORD); files named in commands are then files of the server's machine, under
its read policy.`;

/** What `quadlog shell` was asked to do. */
export interface ShellCommandOptions {
  /** The script to run, if any. */
  readonly script: string | undefined;
  /** Its arguments ($(1), $(2), …). */
  readonly args: readonly string[];
  /** The role. */
  readonly role: string;
  /** The password (remote only). */
  readonly password: string | undefined;
  /** The remote endpoint, if any. */
  readonly endpoint: string | undefined;
  /** Server parameters of the in-process server (its read policy). */
  readonly parameters: Readonly<Record<string, string>>;
}

/** Parses the arguments of `quadlog shell` (after the command name); throws with a message naming the problem. */
export function parseShellArguments(args: readonly string[], env: NodeJS.ProcessEnv = process.env): ShellCommandOptions {
  const { values, positionals } = parseArgs({
    args: [...args],
    options: {
      file: { type: 'string', short: 'f' },
      role: { type: 'string' },
      password: { type: 'string' },
      endpoint: { type: 'string' },
      'sandbox-directory': { type: 'string' },
      'allowed-url-schemes': { type: 'string' },
    },
    strict: true,
    allowPositionals: true,
  });
  if (positionals.length > 0 && values.file === undefined) throw new Error(`unexpected argument '${positionals[0]!}' (script arguments follow -f SCRIPT)`);
  const endpoint = values.endpoint;
  if (endpoint !== undefined) {
    let url: URL;
    try {
      url = new URL(endpoint);
    } catch {
      throw new Error(`invalid --endpoint '${endpoint}': a URL such as http://localhost:12110 is required`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`invalid --endpoint '${endpoint}': an http or https URL is required`);
    if (values['sandbox-directory'] !== undefined || values['allowed-url-schemes'] !== undefined) throw new Error('--sandbox-directory and --allowed-url-schemes set the read policy of the in-process server; a remote endpoint has its own');
  } else if (values.password !== undefined) throw new Error('--password is for --endpoint (the in-process server needs none)');
  const role = values.role ?? env.QUADLOG_ROLE ?? 'admin';
  const password = values.password ?? env.QUADLOG_PASSWORD;
  if (endpoint !== undefined && (password === undefined || password === '')) throw new Error('--endpoint needs the password of the role: --password, or QUADLOG_PASSWORD');
  const parameters: Record<string, string> = {
    'sandbox-directory': values['sandbox-directory'] ?? '/',
    'allowed-url-schemes-on-import': values['allowed-url-schemes'] ?? 'file,http,https',
  };
  return { script: values.file, args: positionals, role: role === '' ? 'admin' : role, password, endpoint, parameters };
}

/** The exit code of a session's end: 0 when it completed or quit, 1 when a failure stopped it. */
function exitCode(status: SessionStatus): number {
  return status === 'completed' || status === 'quit' ? 0 : 1;
}

/** Output to standard output and errors to standard error, waiting when they are slow. */
function processIO(): ShellIO {
  const write = (stream: NodeJS.WriteStream) => (text: string): Promise<void> | undefined => (stream.write(text) ? undefined : new Promise<void>((resolve) => stream.once('drain', resolve)));
  return { write: write(process.stdout), error: write(process.stderr), progress: process.stdout.isTTY ? new TerminalProgress(process.stdout) : undefined };
}

/** Runs `quadlog shell`; resolves with the exit code. */
export async function runShell(options: ShellCommandOptions): Promise<number> {
  const io = processIO();
  const terminal = options.script === undefined && process.stdin.isTTY;
  // a script read whole is read before the session starts: a malformed one runs nothing
  let script: Script | undefined;
  try {
    script = await readWholeScript(options, terminal);
  } catch (e) {
    process.stderr.write(`quadlog shell: ${(e as Error).message}\n`);
    return 1;
  }
  let session: ShellSession;
  if (options.endpoint !== undefined) {
    const remote = new RemoteSession({ endpoint: options.endpoint, role: options.role, password: options.password ?? '', write: (text) => io.write(text) });
    await remote.connect();
    session = remote;
  } else {
    const local = await LocalSession.start({ role: options.role, parameters: options.parameters, io, root: process.cwd() });
    session = local;
  }
  try {
    if (terminal) {
      await interactive(session, io);
      return 0;
    }
    return exitCode(await runScript(session, options, script));
  } finally {
    await session.close();
  }
}

/** A script read whole: its text and its name in messages. */
interface Script {
  readonly text: string;
  readonly source: string;
}

/**
 * The script `quadlog shell` runs whole: the file of `-f`, or standard input for a remote
 * endpoint (sent in one request); undefined when commands come from a terminal or run from
 * standard input as they arrive.
 * @throws Error naming the script when it cannot be read or is not UTF-8.
 */
async function readWholeScript(options: ShellCommandOptions, terminal: boolean): Promise<Script | undefined> {
  if (options.script !== undefined) {
    try {
      return { text: await readScriptFile(resolve(options.script)), source: options.script };
    } catch (e) {
      throw new Error(`cannot read the script '${options.script}': ${(e as Error).message}`, { cause: e });
    }
  }
  if (options.endpoint === undefined || terminal) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  try {
    return { text: scriptText(Buffer.concat(chunks)), source: 'stdin' };
  } catch (e) {
    throw new Error(`cannot read standard input: ${(e as Error).message}`, { cause: e });
  }
}

/** Runs a script read whole, or standard input command by command; Ctrl-C interrupts (twice: exits). */
async function runScript(session: ShellSession, options: ShellCommandOptions, script: Script | undefined): Promise<SessionStatus> {
  let interrupts = 0;
  const onSigint = (): void => {
    if (++interrupts > 1) process.exit(130);
    session.interrupt();
  };
  process.on('SIGINT', onSigint);
  try {
    if (script !== undefined) {
      if (session instanceof LocalSession && options.script !== undefined) {
        const path = resolve(options.script);
        return (await session.shell.run(script.text, { source: script.source, args: options.args, directory: dirname(path) })).status;
      }
      return session.run(splitScript(script.text), { interactive: false, source: script.source });
    }
    // standard input, a command at a time as it arrives
    const lines = createInterface({ input: process.stdin, terminal: false, crlfDelay: Infinity });
    const assembler = new LineAssembler();
    const run = async (command: CommandText | undefined): Promise<SessionStatus | undefined> => {
      if (!command) return undefined;
      const status = await session.run([command], { interactive: false, source: 'stdin' });
      return status === 'completed' ? undefined : status;
    };
    for await (const line of lines) {
      const ended = await run(assembler.push(line));
      if (ended) {
        lines.close();
        return ended;
      }
    }
    return (await run(assembler.flush())) ?? 'completed';
  } finally {
    process.off('SIGINT', onSigint);
  }
}
