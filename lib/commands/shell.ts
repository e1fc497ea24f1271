/**
 * The shell: one interpreter of the command language, a client of the public API. It holds a
 * server connection, a data store connection per store it has used, the active store and the
 * variables, and runs commands one at a time: typed at a terminal, from a script, or sent
 * over HTTP. How it reaches the outside world (output, prompts, files, progress display) is up
 * to whoever embeds it ({@link ShellOptions}).
 * @module
 */
import {
  DuplicateResourceError,
  InterruptedError,
  type DataStoreConnection,
  type ProgressReport,
  QuadlogError,
  type ServerConnection,
  UnknownResourceError,
} from '../index.js';
import { CommandError, type CommandContext, SHELL_VARIABLES } from './base.js';
import { COMMANDS, findCommand, isSparqlStart, runSparql, type Command } from './commands.js';
import { progressLine } from './output.js';
import { type CommandText, commandName, CommandSyntaxError, positionOf, splitScript, splitWords, type Word } from './words.js';

/** Where a shell's output goes, and how it asks questions. */
export interface ShellIO {
  /**
   * Writes output: answers, listings and messages. A returned promise is awaited before more
   * is written (backpressure).
   */
  write(text: string): void | Promise<void>;
  /** Writes an error message (a whole line with its line break); default: {@link ShellIO.write}. */
  error?(text: string): void | Promise<void>;
  /**
   * Shows the progress of long operations (a terminal's progress bar); without it, progress
   * is written as a plain line every `log-frequency` seconds.
   */
  readonly progress?: ProgressDisplay | undefined;
  /**
   * Asks a yes/no question (deleting a store or a role, clearing a store). Without it, a
   * command that would ask is refused unless it is given `force`.
   */
  confirm?(question: string): Promise<boolean>;
  /** Asks for a password without echoing it. Without it, commands that would ask are refused. */
  askPassword?(question: string): Promise<string>;
  /** Clears the screen (`cls`); without it (scripts, HTTP), `cls` does nothing. */
  clearScreen?(): void | Promise<void>;
}

/** A live display of progress (for terminals). */
export interface ProgressDisplay {
  /** The operation named `label` has progressed. */
  update(label: string, report: ProgressReport): void;
  /** The operation has ended (the display should be removed or completed). */
  end(label: string, report: ProgressReport): void;
}

/** A file being written by the shell (exports, `set output <file>`). */
export interface ShellFileWriter {
  /** Writes text; a returned promise is awaited before more is written. */
  write(text: string): void | Promise<void>;
  /** Finishes the file. */
  close(): Promise<void>;
}

/**
 * The files of the machine the shell runs for: scripts for `exec`, files for `export` and
 * `set output`. Imports never use it: they read through the server, under its read policy.
 */
export interface ShellFiles {
  /**
   * Reads a text file (a script) as UTF-8. A file holding a malformed byte sequence is an error
   * (whose message says where) rather than text with U+FFFD in place of the bytes.
   */
  readText(path: string): Promise<string>;
  /** Creates (or truncates) a file for writing. */
  createWriter(path: string): Promise<ShellFileWriter>;
  /** Whether a file exists (to find a rule file in dir.dlog when dir.facts has none). */
  exists?(path: string): Promise<boolean>;
}

/** How to create a {@link Shell}. */
export interface ShellOptions {
  /** The server connection the shell acts through (its role is the shell's); the shell closes it. */
  readonly connection: ServerConnection;
  /** Output and questions. */
  readonly io: ShellIO;
  /**
   * Local files, for `exec`, `export <file>` and `set output <file>`. Without it (shells of
   * the HTTP endpoint), those commands are refused.
   */
  readonly files?: ShellFiles | undefined;
  /** Initial values of variables (e.g. `dir.root`). */
  readonly variables?: Readonly<Record<string, string>> | undefined;
  /** Whether the shell runs inside a server for a remote client (named in messages). */
  readonly remote?: boolean | undefined;
  /**
   * The HTTP endpoint of the shell's server, for `endpoint start` and `endpoint stop`.
   * Without it (shells of the HTTP endpoint, shells of a remote server), `endpoint` is refused.
   */
  readonly endpoint?: ShellEndpoint | undefined;
}

/** Parameters of {@link ShellEndpoint.start}, from the shell's `endpoint.*` variables. */
export interface ShellEndpointParameters {
  /** The TCP port (0: any free port). */
  readonly port?: number | undefined;
  /** The host or address to listen on. */
  readonly host?: string | undefined;
  /** The variant of the management interface (A or B). */
  readonly variant?: 'A' | 'B' | undefined;
  /** How long connections and shells opened over HTTP live without a request (ms). */
  readonly objectKeepAliveTime?: number | undefined;
  /** The largest request body accepted, in bytes. */
  readonly maxContentBytes?: number | undefined;
  /** Whether the web console is served at `/console/`. */
  readonly console?: boolean | undefined;
}

/** The HTTP endpoint a shell may start and stop (see {@link ShellOptions.endpoint}). */
export interface ShellEndpoint {
  /** The URL of the running endpoint, or undefined when it is stopped. */
  readonly url: string | undefined;
  /**
   * Starts the endpoint; resolves with its URL.
   * @throws Error when it runs already or the port cannot be bound.
   */
  start(parameters: ShellEndpointParameters): Promise<string>;
  /** Stops the endpoint; resolves with false when it was not running. */
  stop(): Promise<boolean>;
}

/** A data store connection of a shell, as `dsconn list` shows it. */
export interface DataStoreConnectionInfo {
  /** The connection's name. */
  readonly name: string;
  /** The data store it is connected to. */
  readonly dataStore: string;
  /** The role it acts as. */
  readonly role: string;
  /** Its open transaction, if any. */
  readonly transaction: string | undefined;
}

/** How {@link Shell.run} runs a script. */
export interface RunOptions {
  /** The name of the script in error messages (a file name); none for typed commands. */
  readonly source?: string | undefined;
  /**
   * Typed at a prompt: a failed command is reported and the shell goes on, whatever
   * `on-error` says (it governs scripts).
   */
  readonly interactive?: boolean | undefined;
  /** The script's arguments, as the variables $(1), $(2), … while it runs. */
  readonly args?: readonly string[] | undefined;
  /** The directory of the script file (the variable dir.executing-script while it runs). */
  readonly directory?: string | undefined;
}

/** A command that failed, as reported. */
export interface ShellFailure {
  /** The command's name. */
  readonly command: string;
  /** The error's class name (`ParsingError`, …). */
  readonly name: string;
  /** The whole message printed. */
  readonly message: string;
  /** The HTTP status the error maps to. */
  readonly status: number;
  /** Whether the error was that a resource to be created already exists. */
  readonly duplicate: boolean;
}

/** How a run of commands ended. */
export interface ShellRunResult {
  /**
   * `completed`: every command ran (failures that `on-error` let pass are counted in
   * `errors`); `quit`: a `quit` command ended the shell; `aborted`: a failure stopped the
   * script; `interrupted`: the shell was interrupted.
   */
  readonly status: 'completed' | 'quit' | 'aborted' | 'interrupted';
  /** The number of commands that failed. */
  readonly errors: number;
  /** The failure that stopped the script, or the last one. */
  readonly failure?: ShellFailure | undefined;
}

/** A data store connection the shell holds: the connection, its store and the server connection it came from. */
interface HeldStore {
  ds: DataStoreConnection;
  readonly store: string;
  readonly server: string;
}

/** What `on-error` says to do after a failure. */
type OnError = 'stop' | 'continue' | 'continue-if-exists';

const CHOICES: Readonly<Record<string, readonly string[]>> = {
  'on-error': ['stop', 'continue', 'continue-if-exists'],
  'query.fact-domain': ['explicit', 'derived', 'all'],
  'query.print-summary': ['true', 'false'],
  'query.explain': ['true', 'false'],
  pager: ['auto', 'builtin', 'off'],
  'import.monitor': ['off', 'progress', 'summary'],
  'export.monitor': ['off', 'progress', 'summary'],
  'reason.monitor': ['off', 'progress', 'summary'],
};

/** Other names of the shell's own variables: `query.plan` is RDFox's `query.explain`. */
const ALIASES: Readonly<Record<string, string>> = { 'query.plan': 'query.explain' };

/** Raised to end a run at `quit`. */
class QuitSignal extends Error {}

/** A script stopped by a failure (carries it up through `exec`). */
class ScriptAborted extends Error {
  constructor(readonly failure: ShellFailure) {
    super(failure.message);
  }
}

/** A shell: see the module documentation. */
export class Shell {
  /** @internal */
  readonly io: ShellIO;
  /** @internal */
  readonly files: ShellFiles | undefined;
  /** Whether the shell runs in a server for a remote client. */
  readonly remote: boolean;
  /** @internal */
  readonly endpoint: ShellEndpoint | undefined;
  private readonly variables = new Map<string, string>();
  private readonly servers = new Map<string, ServerConnection>();
  private activeServer = 'sc1';
  private readonly initialRole: string;
  private readonly stores = new Map<string, HeldStore>();
  private active: string | undefined;
  private interruptRequested = false;
  private readonly interruptListeners = new Set<() => void>();
  private output: { readonly name: string; readonly writer: ShellFileWriter } | undefined;
  private closed = false;
  private running = false;
  private quitRequested = false;
  private depth = 0;

  /** Creates a shell (see {@link ShellOptions}). */
  constructor(options: ShellOptions) {
    this.servers.set('sc1', options.connection);
    this.initialRole = options.connection.roleName;
    this.endpoint = options.endpoint;
    this.io = options.io;
    this.files = options.files;
    this.remote = options.remote ?? false;
    for (const v of SHELL_VARIABLES) this.variables.set(v.name, v.initial);
    for (const [name, value] of Object.entries(options.variables ?? {})) this.variables.set(name, value);
  }

  /** The role the shell acts as (that of the active server connection). */
  get roleName(): string {
    return this.servers.get(this.activeServer)?.roleName ?? this.initialRole;
  }

  /**
   * @internal The active server connection.
   * @throws CommandError when the connection of that name has been closed.
   */
  get sc(): ServerConnection {
    const held = this.servers.get(this.activeServer);
    if (!held || held.isClosed) {
      throw new CommandError(`the active server connection '${this.activeServer}' is not open: open one with 'srvconn open' or choose another with 'srvconn active <name>'`);
    }
    return held;
  }

  /** The name of the active data store, if any. */
  get activeDataStore(): string | undefined {
    return this.active;
  }

  /** The names of the data stores the shell's role may read (none when they cannot be listed now). */
  dataStoreNames(): string[] {
    try {
      return this.sc.listDataStores();
    } catch {
      return [];
    }
  }

  /** The prefix names (with colon) of the active data store (none when they cannot be read now). */
  async prefixNames(): Promise<string[]> {
    if (this.active === undefined || this.running) return [];
    try {
      return [...(await this.connectionTo(this.active).getPrefixes()).keys()];
    } catch {
      return [];
    }
  }

  /** The names of the delta queries of the active data store (none when they cannot be listed now). */
  async deltaQueryNames(): Promise<string[]> {
    if (this.active === undefined || this.running) return [];
    try {
      return await this.connectionTo(this.active).listDeltaQueries();
    } catch {
      return [];
    }
  }

  /** Whether a `quit` command has ended the shell. */
  get hasQuit(): boolean {
    return this.quitRequested;
  }

  /** Whether the shell is running a command. */
  get busy(): boolean {
    return this.running;
  }

  /** The value of a variable, or undefined. */
  variable(name: string): string | undefined {
    name = ALIASES[name] ?? name;
    if (name === 'role') return this.roleName;
    if (name === 'active' || name === 'active-data-store-connection') return this.active ?? '';
    if (name === 'active-server-connection') return this.activeServer;
    return this.variables.get(name);
  }

  /** The names of the variables that are set. */
  variableNames(): string[] {
    return [...this.variables.keys(), 'active-data-store-connection', 'active-server-connection'].sort();
  }

  /**
   * Sets a variable, checking the values of the shell's own.
   * @throws CommandError for a read-only variable or an invalid value.
   */
  async setVariable(name: string, value: string, word?: Word): Promise<void> {
    name = ALIASES[name] ?? name;
    const known = SHELL_VARIABLES.find((v) => v.name === name);
    if (known?.readOnly || name === 'role' || name === 'active' || /^\d+$/.test(name)) throw new CommandError(`variable '${name}' cannot be set`, word);
    if (name === 'active-data-store-connection') return this.activate(value);
    if (name === 'active-server-connection') return this.activateServer(value);
    const choices = CHOICES[name];
    if (choices && !choices.includes(value)) throw new CommandError(`invalid value '${value}' for '${name}' (expected ${choices.join(', ')})`, word);
    if (name === 'query.time-limit' && value !== 'none' && !/^\d+$/.test(value)) throw new CommandError(`invalid value '${value}' for 'query.time-limit' (expected a number of milliseconds, or none)`, word);
    if (name === 'query.memory-limit' && value !== 'none' && !(/^\d+$/.test(value) && Number(value) > 0)) throw new CommandError(`invalid value '${value}' for 'query.memory-limit' (expected a positive number of bytes, or none)`, word);
    if (name === 'log-frequency' && !(/^\d+(\.\d+)?$/.test(value) && Number(value) > 0)) throw new CommandError(`invalid value '${value}' for 'log-frequency' (expected a positive number of seconds)`, word);
    if (name === 'output') await this.redirect(value, word);
    this.variables.set(name, value);
  }

  /** Unsets a user variable (the shell's own are reset to their initial values). */
  unsetVariable(name: string, word?: Word): void {
    name = ALIASES[name] ?? name;
    const known = SHELL_VARIABLES.find((v) => v.name === name);
    if (known) {
      if (known.readOnly) throw new CommandError(`variable '${name}' cannot be unset`, word);
      this.variables.set(name, known.initial);
    } else if (!this.variables.delete(name)) throw new CommandError(`variable '${name}' is not set`, word);
  }

  /**
   * Runs a script (or one typed command): its commands one after another. A failed command
   * is reported with its position; typed commands go on after it, scripts do what
   * `on-error` says (default: stop). A script that stops on a failure never leaves a
   * transaction open: the shell's open transactions are rolled back (and said so).
   */
  async run(script: string, options: RunOptions = {}): Promise<ShellRunResult> {
    return this.runCommands(splitScript(script), options);
  }

  /** Runs commands already split (see {@link Shell.run}). */
  async runCommands(commands: readonly CommandText[], options: RunOptions = {}): Promise<ShellRunResult> {
    if (this.closed) throw new InterruptedError('the shell is closed');
    if (this.running) throw new QuadlogError('the shell is running another command');
    this.running = true;
    this.interruptRequested = false;
    for (const [i, a] of (options.args ?? []).entries()) this.variables.set(String(i + 1), a);
    if (options.directory !== undefined) this.variables.set('dir.executing-script', options.directory);
    let errors = 0;
    let last: ShellFailure | undefined;
    try {
      for (const command of commands) {
        if (this.quitRequested) return { status: 'quit', errors, failure: last };
        try {
          await this.execute(command, options.source);
        } catch (e) {
          if (e instanceof QuitSignal) return { status: 'quit', errors, failure: last };
          const aborted = e instanceof ScriptAborted;
          const failure = aborted ? e.failure : await this.report(e, command, options.source, options.interactive === true);
          errors++;
          last = failure;
          const interrupted = failure.name === 'InterruptedError';
          if (options.interactive) {
            // a script run by exec that stopped leaves no transaction open; a typed command may
            if (aborted) await this.rollbackAll('the script stopped');
            continue;
          }
          if (interrupted || !this.goesOn(failure)) {
            await this.rollbackAll('the script stopped');
            return { status: interrupted ? 'interrupted' : 'aborted', errors, failure };
          }
        }
      }
      return { status: this.quitRequested ? 'quit' : 'completed', errors, failure: last };
    } finally {
      this.running = false;
      this.interruptRequested = false;
    }
  }

  /** Whether the script goes on after a failure, by `on-error`. */
  private goesOn(failure: ShellFailure): boolean {
    const policy = (this.variables.get('on-error') ?? 'stop') as OnError;
    return policy === 'continue' || (policy === 'continue-if-exists' && failure.duplicate);
  }

  /**
   * Interrupts the running command: the API call it makes stops at its next check
   * (InterruptedError), and a running script stops. Harmless when nothing runs.
   */
  interrupt(): void {
    if (!this.running) return;
    this.interruptRequested = true;
    for (const sc of this.servers.values()) sc.interrupt();
    for (const held of this.stores.values()) held.ds.interrupt();
    for (const listener of [...this.interruptListeners]) listener();
  }

  /** @internal Calls `listener` on interrupt while `fn` runs (closing a cursor, ending a sleep). */
  async onInterrupt<T>(listener: () => void, fn: () => Promise<T>): Promise<T> {
    this.interruptListeners.add(listener);
    try {
      return await fn();
    } finally {
      this.interruptListeners.delete(listener);
    }
  }

  /** @internal Throws InterruptedError when the shell was interrupted. */
  checkInterrupted(): void {
    if (this.interruptRequested) throw new InterruptedError('interrupted');
  }

  /**
   * Ends the shell: rolls back open transactions (saying so), closes the output file and
   * every connection. Calling it again is harmless.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.interrupt();
    await this.rollbackAll('the shell ended').catch(() => undefined);
    this.closed = true;
    for (const held of this.stores.values()) held.ds.close();
    this.stores.clear();
    await this.closeOutput().catch(() => undefined);
    for (const sc of this.servers.values()) sc.close();
    this.servers.clear();
  }

  /** Rolls back the open transactions of the shell's connections, with a note for each. */
  private async rollbackAll(why: string): Promise<void> {
    for (const [name, held] of this.stores) {
      const ds = held.ds;
      if (ds.transactionType === undefined || ds.isClosed) continue;
      try {
        await ds.rollbackTransaction();
        const connection = name === held.store ? '' : ` (connection '${name}')`;
        await this.message(`transaction on data store '${held.store}'${connection} rolled back: ${why} without commit\n`);
      } catch {
        ds.close();
        this.stores.delete(name);
      }
    }
  }

  // ---- connections ----

  /** @internal The connection to the active data store. */
  store(): DataStoreConnection {
    if (this.active === undefined) throw new CommandError("no data store is active: create one with 'dstore create <name>' or choose one with 'active <name>'");
    return this.connectionTo(this.active);
  }

  /**
   * @internal The data store connection of a name: the shell's connection of that name
   * (reopened when it is no longer usable), else a new connection, named after the store, to
   * the data store of that name through the active server connection.
   */
  connectionTo(name: string): DataStoreConnection {
    const held = this.stores.get(name);
    if (held) {
      if (held.ds.isUsable) return held.ds;
      held.ds.close();
      const server = this.servers.get(held.server);
      if (!server || server.isClosed) {
        this.stores.delete(name);
        throw new CommandError(`the data store connection '${name}' was closed, and its server connection '${held.server}' is closed too: open it again with 'dsconn open'`);
      }
      held.ds = server.newDataStoreConnection(held.store);
      return held.ds;
    }
    const ds = this.sc.newDataStoreConnection(name);
    this.stores.set(name, { ds, store: name, server: this.activeServer });
    return ds;
  }

  /** @internal Makes a data store connection active (opening one to the store of that name when there is none). */
  activate(name: string): void {
    this.connectionTo(name);
    this.active = name;
  }

  /** @internal Forgets every connection to a data store (after the store was deleted). */
  forget(store: string): void {
    for (const [name, held] of [...this.stores]) {
      if (held.store !== store) continue;
      held.ds.close();
      this.stores.delete(name);
      if (this.active === name) this.active = undefined;
    }
    if (this.active === store) this.active = undefined;
  }

  /** @internal The data store connections of the shell, by name. */
  dataStoreConnections(): DataStoreConnectionInfo[] {
    return [...this.stores]
      .map(([name, held]) => ({ name, dataStore: held.store, role: held.ds.roleName, transaction: held.ds.isClosed ? undefined : held.ds.transactionType }))
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  /**
   * @internal Opens a data store connection named `name` (by default the store's name, or
   * `ds<n>` when that is taken) to a store, through `server` (default: the active server
   * connection); returns its name.
   */
  openDataStoreConnection(name: string | undefined, store: string, server?: { readonly name: string; readonly connection: ServerConnection }): string {
    if (name !== undefined && this.stores.has(name)) throw new DuplicateResourceError(`a data store connection named '${name}' is open already`);
    let chosen = name ?? store;
    for (let i = 1; this.stores.has(chosen); i++) chosen = `ds${i}`;
    const via = server ?? { name: this.activeServer, connection: this.sc };
    const ds = via.connection.newDataStoreConnection(store);
    this.stores.set(chosen, { ds, store, server: via.name });
    return chosen;
  }

  /**
   * @internal Closes a data store connection (an open transaction is rolled back, and said so);
   * false when there is none of that name.
   */
  async closeDataStoreConnection(name: string): Promise<boolean> {
    const held = this.stores.get(name);
    if (!held) return false;
    if (held.ds.transactionType !== undefined && !held.ds.isClosed) {
      await held.ds.rollbackTransaction().catch(() => undefined);
      await this.message(`transaction on data store '${held.store}' rolled back: its connection '${name}' was closed without commit\n`);
    }
    held.ds.close();
    this.stores.delete(name);
    if (this.active === name) this.active = undefined;
    return true;
  }

  /** @internal The server connections of the shell: name, role, and whether it is the active one. */
  serverConnections(): Array<{ readonly name: string; readonly role: string; readonly active: boolean }> {
    return [...this.servers]
      .map(([name, sc]) => ({ name, role: sc.roleName, active: name === this.activeServer }))
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  /** @internal The name of the active server connection. */
  get activeServerConnection(): string {
    return this.activeServer;
  }

  /** @internal Adds a server connection under a name (default `sc<n>`); returns the name. */
  addServerConnection(name: string | undefined, connection: ServerConnection): string {
    if (name !== undefined && this.servers.has(name)) {
      connection.close();
      throw new DuplicateResourceError(`a server connection named '${name}' is open already`);
    }
    let chosen = name ?? 'sc1';
    for (let i = 1; this.servers.has(chosen); i++) chosen = `sc${i}`;
    this.servers.set(chosen, connection);
    return chosen;
  }

  /** @internal Makes a server connection active. */
  activateServer(name: string): void {
    if (!this.servers.has(name)) throw new UnknownResourceError(`no server connection is named '${name}' (srvconn list shows them)`);
    this.activeServer = name;
  }

  /** @internal Closes a server connection; false when there is none of that name. */
  closeServerConnection(name: string): boolean {
    const sc = this.servers.get(name);
    if (!sc) return false;
    sc.close();
    this.servers.delete(name);
    return true;
  }

  // ---- output ----

  /** @internal Writes a result to the `output` target. */
  async result(text: string): Promise<void> {
    if (text === '') return;
    const target = this.variables.get('output') ?? 'out';
    if (target === 'null') return;
    if (this.output) await this.output.writer.write(text);
    else await this.io.write(text);
  }

  /** @internal Writes a message to the shell's output. */
  async message(text: string): Promise<void> {
    if (text !== '') await this.io.write(text);
  }

  private async redirect(value: string, word?: Word): Promise<void> {
    await this.closeOutput();
    if (value === 'out' || value === 'null') return;
    if (!this.files) throw new CommandError(`output to a file is not available in ${this.remote ? 'a remote shell' : 'this shell'}: set output to out or null`, word);
    const path = this.resolvePath(value, 'dir.output', word);
    this.output = { name: path, writer: await this.files.createWriter(path) };
  }

  private async closeOutput(): Promise<void> {
    const o = this.output;
    this.output = undefined;
    if (o) await o.writer.close();
  }

  /**
   * @internal An absolute path for a file name: absolute names as they are, relative ones
   * against the directory variable `dirVariable` (itself relative to dir.root).
   */
  resolvePath(name: string, dirVariable: string, word?: Word): string {
    if (isAbsolutePath(name)) return normalisePath(name);
    const root = this.variables.get('dir.root') ?? '';
    const dir = this.variables.get(dirVariable) ?? '';
    const base = isAbsolutePath(dir) ? dir : root === '' ? '' : joinPath(root, dir);
    if (base === '' || !isAbsolutePath(base)) {
      throw new CommandError(`cannot resolve the relative file name '${name}': ${dirVariable} and dir.root give no absolute directory (set dir.root, or give an absolute path)`, word);
    }
    return normalisePath(joinPath(base, name));
  }

  // ---- progress ----

  /**
   * @internal The progress callback for an operation watched by the monitor variable
   * (`import.monitor`, …), or undefined when it is off. Call `done` when the operation ends.
   */
  progress(monitor: string, label: string): { readonly onProgress: ((report: ProgressReport) => void) | undefined; done(): Promise<void> } {
    const mode = this.variables.get(monitor) ?? 'progress';
    if (mode === 'off') return { onProgress: undefined, done: () => Promise.resolve() };
    const display = this.io.progress;
    const every = Number(this.variables.get('log-frequency') ?? '5') * 1000;
    let shown = false;
    let nextLine = every;
    let last: ProgressReport | undefined;
    const lastOf = new Map<string, ProgressReport>();
    const pending: string[] = [];
    const name = (report: ProgressReport): string => (report.operation === 'reasoning' && !label.startsWith('reason') ? `${label} (reasoning)` : label);
    const onProgress = (report: ProgressReport): void => {
      last = report;
      lastOf.set(report.operation, report);
      if (report.finished) return;
      if (display) {
        // a bar only for operations that take a while
        if (report.elapsedMs >= 1000 || shown) {
          shown = true;
          display.update(name(report), report);
        }
      } else if (report.elapsedMs >= nextLine) {
        nextLine = report.elapsedMs + every;
        pending.push(progressLine(name(report), report) + '\n');
        void this.flushProgress(pending);
      }
    };
    return {
      onProgress,
      done: async () => {
        if (display && shown && last) display.end(name(last), last);
        await this.flushProgress(pending);
        if (mode === 'summary') for (const report of lastOf.values()) await this.message(progressLine(`${name(report)} done`, report) + '\n');
      },
    };
  }

  private async flushProgress(pending: string[]): Promise<void> {
    while (pending.length > 0) await this.message(pending.shift()!);
  }

  // ---- running commands ----

  private async execute(command: CommandText, source: string | undefined): Promise<void> {
    this.checkInterrupted();
    const { name, end } = commandName(command.text);
    if (isSparqlStart(command.text, name)) {
      const ctx = this.context(command, name, []);
      await runSparql(ctx, command.text.slice(command.text.indexOf(name)));
      return;
    }
    const found = findCommand(name);
    if (!found) throw new CommandError(`unknown command '${name}' (help lists the commands)`);
    const args = splitWords(command.text, (v) => this.variable(v), end);
    await found.run(this.context(command, name, args, source));
    this.checkInterrupted();
  }

  private context(command: CommandText, name: string, args: readonly Word[], source?: string): CommandContext {
    const ctx: CommandContext & { source: string | undefined } = {
      shell: this,
      name,
      command,
      args,
      blame: undefined,
      source,
      rest: (after: Word): string => expandRest(command.text.slice(after.end), (v) => this.variable(v), after.end),
      out: (text) => this.result(text),
      note: (text) => this.message(text),
    };
    this.lastContext = ctx;
    return ctx;
  }

  private lastContext: (CommandContext & { source: string | undefined }) | undefined;

  /** Reports a failure of a command and describes it. */
  private async report(e: unknown, command: CommandText, source: string | undefined, interactive: boolean): Promise<ShellFailure> {
    const { name, start } = commandName(command.text);
    const ctx = this.lastContext?.command === command ? this.lastContext : undefined;
    let offset = start;
    let about = '';
    const word = e instanceof CommandError && e.word ? e.word : ctx?.blame;
    if (e instanceof CommandSyntaxError) offset = e.offset;
    else if (word) {
      offset = word.start;
      const index = ctx ? ctx.args.indexOf(word) : -1;
      about = index >= 0 ? `, argument ${index + 1} '${word.raw}'` : ` '${word.raw}'`;
    }
    const at = positionOf(command, offset);
    // a typed command's positions count from its own first line
    const where =
      source !== undefined
        ? `${source}:${at.line}:${at.column}`
        : interactive
          ? at.line === command.line
            ? `column ${at.column}`
            : `line ${at.line - command.line + 1}, column ${at.column}`
          : `line ${at.line}, column ${at.column}`;
    const errorName = e instanceof Error ? (e instanceof CommandError || e instanceof CommandSyntaxError ? 'error' : e.name) : 'Error';
    const text = e instanceof Error ? e.message : String(e);
    const message = `${where}: ${name}${about}: ${errorName}: ${text}`;
    const line = `${message}\n`;
    if (this.io.error) await this.io.error(line);
    else await this.io.write(line);
    return {
      command: name,
      name: e instanceof Error ? e.name : 'Error',
      message,
      status: e instanceof QuadlogError ? e.status : e instanceof CommandSyntaxError ? 400 : 500,
      duplicate: e instanceof DuplicateResourceError,
    };
  }

  /** @internal Runs a script from `exec`: its own `on-error` and positional variables. */
  async runNested(script: string, source: string, directory: string, args: readonly string[]): Promise<void> {
    if (this.depth >= 32) throw new CommandError('scripts nest too deeply (32 levels of exec)');
    const saved = new Map<string, string | undefined>();
    const scoped = ['on-error', 'dir.executing-script', ...args.map((_, i) => String(i + 1))];
    for (let i = 1; this.variables.has(String(i)); i++) scoped.push(String(i));
    for (const name of new Set(scoped)) saved.set(name, this.variables.get(name));
    for (let i = 1; this.variables.has(String(i)); i++) this.variables.delete(String(i));
    args.forEach((a, i) => this.variables.set(String(i + 1), a));
    this.variables.set('dir.executing-script', directory);
    this.depth++;
    try {
      for (const command of splitScript(script)) {
        if (this.quitRequested) throw new QuitSignal();
        try {
          await this.execute(command, source);
        } catch (e) {
          if (e instanceof QuitSignal) throw e;
          if (e instanceof ScriptAborted) throw e;
          const failure = await this.report(e, command, source, false);
          if (failure.name === 'InterruptedError' || !this.goesOn(failure)) throw new ScriptAborted(failure);
        }
      }
    } finally {
      this.depth--;
      for (const [name, value] of saved) {
        if (value === undefined) this.variables.delete(name);
        else this.variables.set(name, value);
      }
    }
  }

  /** @internal Ends the shell after the running command (`quit`). */
  quit(): never {
    this.quitRequested = true;
    throw new QuitSignal();
  }

  /** The names of the commands (for completion and help). */
  static get commandNames(): string[] {
    return COMMANDS.flatMap((c: Command) => [c.name, ...(c.aliases ?? [])]).sort();
  }
}

/** Expands variables in raw text, reporting positions from `base`. */
function expandRest(text: string, lookup: (name: string) => string | undefined, base: number): string {
  if (!text.includes('$(')) return text;
  return text.replace(/\$\(([^()\s]*)\)/g, (whole, name: string, index: number) => {
    const value = lookup(name);
    if (value === undefined) throw new CommandSyntaxError(`variable '${name}' is not set (used as ${whole})`, base + index);
    return value;
  });
}

function isAbsolutePath(p: string): boolean {
  return p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p);
}

function joinPath(a: string, b: string): string {
  if (b === '') return a;
  if (isAbsolutePath(b)) return b;
  return a.endsWith('/') || a.endsWith('\\') ? a + b : `${a}/${b}`;
}

/** Removes `.` and `..` segments of an absolute POSIX path (Windows paths are left as they are). */
function normalisePath(p: string): string {
  if (!p.startsWith('/')) return p;
  const out: string[] = [];
  for (const segment of p.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') out.pop();
    else out.push(segment);
  }
  return '/' + out.join('/');
}
