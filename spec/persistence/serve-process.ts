/**
 * `quadlog serve` as a child process for the persistence specs: started under tsx from
 * `lib/shell/cli.ts`, it is ready once its banner is on standard output (or it has exited);
 * it is stopped with SIGTERM (as Ctrl-C stops it) or killed with SIGKILL.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { CLI, TSX } from '../shell/helpers.js';

/** How a child process ended. */
export interface Exit {
  /** The exit code (null when a signal ended it). */
  readonly code: number | null;
  /** The signal that ended it, if any. */
  readonly signal: NodeJS.Signals | null;
}

/** A `quadlog serve` child process. */
export interface ServeProcess {
  /** The process. */
  readonly child: ChildProcess;
  /** The endpoint's URL from the banner; undefined when the process exited before serving. */
  readonly url: string | undefined;
  /** Everything it wrote to standard output so far. */
  stdout(): string;
  /** Everything it wrote to standard error so far. */
  stderr(): string;
  /** Settles when the process has exited. */
  readonly exited: Promise<Exit>;
  /** Sends SIGTERM (the graceful stop) and waits for the exit. */
  stop(): Promise<Exit>;
  /** Sends SIGKILL (kill -9) and waits for the exit. */
  kill(): Promise<Exit>;
}

/** The line that ends the banner of `quadlog serve`. */
const BANNER_END = 'stop with Ctrl-C';

/**
 * Starts `quadlog serve <args>` and resolves once it prints its banner or exits. The
 * environment has no QUADLOG_ROLE or QUADLOG_PASSWORD unless `env` sets them.
 */
export function startServe(args: readonly string[], env: Readonly<Record<string, string>> = {}): Promise<ServeProcess> {
  const base = { ...process.env };
  delete base.QUADLOG_ROLE;
  delete base.QUADLOG_PASSWORD;
  const child = spawn(process.execPath, ['--import', TSX, CLI, 'serve', ...args], { env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (c: string) => (stderr += c));
  const exited = new Promise<Exit>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const end = async (signal: NodeJS.Signals): Promise<Exit> => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    return exited;
  };
  const make = (url: string | undefined): ServeProcess => ({ child, url, stdout: () => stdout, stderr: () => stderr, exited, stop: () => end('SIGTERM'), kill: () => end('SIGKILL') });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.stdout.on('data', (c: string) => {
      stdout += c;
      if (stdout.includes(BANNER_END)) resolve(make(/ at (http:\/\/\S+)/.exec(stdout)?.[1]));
    });
    void exited.then(() => resolve(make(undefined)));
  });
}

