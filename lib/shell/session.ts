/**
 * What `quadlog shell` talks to: a shell of a server in this process, or a shell of a remote
 * endpoint reached over HTTP (`/shells` and `/commands`).
 * @module
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { access } from 'node:fs/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { ConnectionFactory, Server } from '../index.js';
import { CommandError, type CommandText, complete, type ShellEndpoint, type ShellEndpointParameters, type ShellFiles, type ShellIO, Shell, SHELL_VARIABLES } from '../commands/index.js';
import { type EndpointHandle, startEndpoint } from '../http/index.js';
import { readScriptFile } from './script-text.js';

/** How a run of commands ended. */
export type SessionStatus = 'completed' | 'quit' | 'aborted' | 'interrupted';

/** A shell `quadlog shell` runs commands in. */
export interface ShellSession {
  /** Runs commands: typed ones (`interactive`), or a script's. */
  run(commands: readonly CommandText[], options: { readonly interactive: boolean; readonly source?: string | undefined }): Promise<SessionStatus>;
  /** Interrupts the running command. */
  interrupt(): void;
  /** Completions of a line (readline's completer form). */
  complete(line: string): Promise<[string[], string]>;
  /** The active data store, for the prompt. */
  readonly activeDataStore: string | undefined;
  /** The shell's `pager` variable: auto, builtin or off. */
  readonly pager: string;
  /** Whether the shell runs in this process (its `cls` clears this terminal). */
  readonly local: boolean;
  /** Whether `quit` ended the shell. */
  readonly hasQuit: boolean;
  /** Ends the session (and its server, when it has one). */
  close(): Promise<void>;
}

/** The files of this machine, for exec (scripts must be UTF-8), export and output files. */
export const LOCAL_FILES: ShellFiles = {
  readText: readScriptFile,
  async createWriter(path) {
    const stream = createWriteStream(path);
    await new Promise<void>((resolve, reject) => {
      stream.once('open', () => resolve());
      stream.once('error', reject);
    });
    return {
      write: (text) => (stream.write(text) ? undefined : new Promise<void>((resolve) => stream.once('drain', resolve))),
      close: () => new Promise<void>((resolve, reject) => stream.end((e?: Error | null) => (e ? reject(e) : resolve()))),
    };
  },
  exists: (path) => access(path).then(
    () => true,
    () => false,
  ),
};

/** The HTTP endpoint of a server, started and stopped by the shell's `endpoint` command. */
export function endpointOf(server: Server): ShellEndpoint {
  let handle: EndpointHandle | undefined;
  return {
    get url() {
      return handle?.url;
    },
    async start(parameters: ShellEndpointParameters) {
      if (handle) throw new Error(`the endpoint is running already at ${handle.url}`);
      // what the shell's own user may read is not for everyone who signs in to the endpoint
      if (server.readPolicy.sandboxDirectory === '/') {
        throw new CommandError('the endpoint is not started: this shell\'s server reads every file you can read (sandbox directory /), and so would anyone who signs in to the endpoint; start the shell with --sandbox-directory DIR (and --allowed-url-schemes, default file,http,https) to serve it');
      }
      handle = await startEndpoint(server, {
        ...(parameters.port !== undefined ? { port: parameters.port } : {}),
        ...(parameters.host !== undefined ? { host: parameters.host } : {}),
        ...(parameters.variant !== undefined ? { variant: parameters.variant } : {}),
        ...(parameters.objectKeepAliveTime !== undefined ? { objectKeepAliveTime: parameters.objectKeepAliveTime } : {}),
        ...(parameters.maxContentBytes !== undefined ? { maxContentBytes: parameters.maxContentBytes } : {}),
        ...(parameters.console !== undefined ? { console: parameters.console } : {}),
      });
      return handle.url;
    },
    async stop() {
      const running = handle;
      handle = undefined;
      if (!running) return false;
      await running.close();
      return true;
    },
  };
}

/** Options of a local session. */
export interface LocalSessionOptions {
  /** The name of the in-process server's first role (the shell's role). */
  readonly role: string;
  /** Server parameters (the read policy). */
  readonly parameters: Readonly<Record<string, string>>;
  /** Output and questions. */
  readonly io: ShellIO;
  /** The directory relative file names are resolved against. */
  readonly root: string;
}

/**
 * A shell of a server created in this process for the session. Its first role gets a random
 * password that is never shown: the shell logs in with it in-process, and the server has no
 * endpoint, so nothing outside the process can reach it.
 */
export class LocalSession implements ShellSession {
  private constructor(
    private readonly server: Server,
    /** The shell. */
    readonly shell: Shell,
  ) {}

  /** Starts the server and the shell. */
  static async start(options: LocalSessionOptions): Promise<LocalSession> {
    const password = randomBytes(18).toString('base64url');
    const server = await Server.create({ roleName: options.role, password, parameters: options.parameters });
    try {
      const connection = await ConnectionFactory.newServerConnection(server.url, options.role, password);
      const shell = new Shell({ connection, io: options.io, files: LOCAL_FILES, variables: { 'dir.root': options.root }, endpoint: endpointOf(server) });
      return new LocalSession(server, shell);
    } catch (e) {
      await server.shutdown();
      throw e;
    }
  }

  async run(commands: readonly CommandText[], options: { readonly interactive: boolean; readonly source?: string | undefined }): Promise<SessionStatus> {
    return (await this.shell.runCommands(commands, options)).status;
  }

  interrupt(): void {
    this.shell.interrupt();
  }

  complete(line: string): Promise<[string[], string]> {
    return complete(this.shell, line);
  }

  get activeDataStore(): string | undefined {
    return this.shell.activeDataStore;
  }

  get pager(): string {
    return this.shell.variable('pager') ?? 'auto';
  }

  readonly local = true;

  get hasQuit(): boolean {
    return this.shell.hasQuit;
  }

  async close(): Promise<void> {
    await this.shell.close();
    await this.server.shutdown();
  }
}

/** Where a remote session connects, and as whom. */
export interface RemoteOptions {
  /** The endpoint's base URL (`http://host:port`, or with the path it is mounted under). */
  readonly endpoint: string;
  /** The role. */
  readonly role: string;
  /** Its password. */
  readonly password: string;
  /** Where output goes. */
  readonly write: (text: string) => void | Promise<void>;
}

interface Answer {
  readonly status: number;
  readonly headers: IncomingMessage['headers'];
  readonly trailers: NodeJS.Dict<string>;
  readonly body: string;
}

/** One HTTP request; the body of a 200 answer is streamed to `stream` when given. */
function send(url: URL, method: string, headers: Record<string, string>, body: string | undefined, stream?: (text: string) => void | Promise<void>): Promise<Answer> {
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<Answer>((resolve, reject) => {
    const req = request(url, { method, headers: body !== undefined ? { ...headers, 'content-length': String(Buffer.byteLength(body)) } : headers }, (res) => {
      res.setEncoding('utf8');
      let text = '';
      const streaming = stream !== undefined && res.statusCode === 200;
      res.on('data', (chunk: string) => {
        if (!streaming) {
          text += chunk;
          return;
        }
        const wait = stream(chunk);
        if (wait instanceof Promise) {
          res.pause();
          void wait.then(() => res.resume());
        }
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, trailers: res.trailers, body: text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

function failure(answer: Answer, what: string): Error {
  return new Error(`${what} failed: HTTP ${answer.status}${answer.body.trim() !== '' ? `: ${answer.body.trim()}` : ''}`);
}

/** A command's text as a script line (its continuation lines marked again). */
function scriptOf(commands: readonly CommandText[]): string {
  return commands.map((c) => c.text.replace(/\n/g, '\\\n')).join('\n') + '\n';
}

/** Values of a `text/csv` listing (no quoting beyond what simple values need). */
function csvRows(text: string): string[][] {
  return text
    .split(/\r?\n/)
    .slice(1)
    .filter((l) => l !== '')
    .map((l) => l.split(',').map((v) => v.replace(/^"|"$/g, '')));
}

/**
 * A shell of a remote endpoint: typed commands go to a shell created with `POST /shells`
 * (`POST /commands?shell=<id>`), a script to `POST /commands` in one request; output is
 * streamed as the server produces it, and Ctrl-C sends `PATCH /shells/<id>?operation=interrupt`.
 */
export class RemoteSession implements ShellSession {
  private shellPath: string | undefined;
  private token: string | undefined;
  private active: string | undefined;
  private quit = false;
  private running = false;
  private pagerMode = 'auto';
  private readonly base: string;
  private readonly basic: string;

  /** Creates the session (nothing is sent until the first command). */
  constructor(private readonly options: RemoteOptions) {
    this.base = options.endpoint.replace(/\/+$/, '');
    this.basic = `Basic ${Buffer.from(`${options.role}:${options.password}`).toString('base64')}`;
  }

  private url(path: string): URL {
    return new URL(this.base + path);
  }

  /** Checks the endpoint and the credentials. */
  async connect(): Promise<void> {
    const answer = await send(this.url('/'), 'GET', { authorization: this.basic, accept: 'text/csv' }, undefined);
    if (answer.status !== 200) throw failure(answer, `connecting to ${this.base}`);
  }

  private async shellId(): Promise<string> {
    if (this.shellPath) return this.shellPath;
    const answer = await send(this.url('/shells'), 'POST', { authorization: this.basic }, '');
    const location = answer.headers.location;
    const token = answer.headers['service-authentication-token'];
    if (answer.status !== 201 || typeof location !== 'string' || typeof token !== 'string') throw failure(answer, 'creating a shell');
    this.shellPath = location.slice(location.lastIndexOf('/shells/'));
    this.token = token;
    return this.shellPath;
  }

  private auth(): string {
    return this.token !== undefined ? `Service ${this.token}` : this.basic;
  }

  async run(commands: readonly CommandText[], options: { readonly interactive: boolean; readonly source?: string | undefined }): Promise<SessionStatus> {
    // the pager is this terminal's: its variable, set in the remote shell, is followed here too
    for (const c of commands) {
      const set = /^\s*(set|unset)\s+pager(?:\s+(auto|builtin|off))?\s*$/.exec(c.text);
      if (set) this.pagerMode = set[1] === 'unset' ? 'auto' : (set[2] ?? this.pagerMode);
    }
    this.running = true;
    try {
      let path = '/commands';
      if (options.interactive) path += `?shell=${encodeURIComponent((await this.shellId()).slice('/shells/'.length))}`;
      const answer = await send(this.url(path), 'POST', { authorization: this.auth(), 'content-type': 'text/plain; charset=utf-8', te: 'trailers' }, scriptOf(commands), this.options.write);
      if (answer.status !== 200) {
        await this.options.write(`${answer.body.trim()}\n`);
        return 'aborted';
      }
      const status = answer.trailers['service-shell-status'] ?? 'running';
      if (status === 'quit') this.quit = true;
      if (options.interactive) await this.refresh();
      return status === 'running' ? 'completed' : status === 'quit' ? 'quit' : 'aborted';
    } finally {
      this.running = false;
    }
  }

  /** Reads the active store of the remote shell (for the prompt). */
  private async refresh(): Promise<void> {
    if (!this.shellPath || this.quit) return;
    const answer = await send(this.url(this.shellPath), 'GET', { authorization: this.auth(), accept: 'text/csv' }, undefined);
    if (answer.status !== 200) return;
    const row = csvRows(answer.body).find((r) => r[0] === 'active-data-store');
    this.active = row?.[1] ? row[1] : undefined;
  }

  interrupt(): void {
    if (!this.running || !this.shellPath) return;
    void send(this.url(`${this.shellPath}?operation=interrupt`), 'PATCH', { authorization: this.auth() }, '').catch(() => undefined);
  }

  async complete(line: string): Promise<[string[], string]> {
    const names = async (): Promise<string[]> => {
      const answer = await send(this.url('/datastores'), 'GET', { authorization: this.basic, accept: 'text/csv' }, undefined).catch(() => undefined);
      return answer?.status === 200 ? csvRows(answer.body).map((r) => r[0]!) : [];
    };
    const prefixes = async (): Promise<string[]> => {
      if (this.active === undefined) return [];
      const answer = await send(this.url(`/datastores/${encodeURIComponent(this.active)}/prefixes`), 'GET', { authorization: this.basic, accept: 'text/csv' }, undefined).catch(() => undefined);
      return answer?.status === 200 ? csvRows(answer.body).map((r) => r[0]!) : [];
    };
    return complete({ dataStoreNames: names, prefixNames: prefixes, variableNames: () => SHELL_VARIABLES.map((v) => v.name) }, line);
  }

  get activeDataStore(): string | undefined {
    return this.active;
  }

  get pager(): string {
    return this.pagerMode;
  }

  readonly local = false;

  get hasQuit(): boolean {
    return this.quit;
  }

  async close(): Promise<void> {
    if (this.shellPath && !this.quit) await send(this.url(this.shellPath), 'DELETE', { authorization: this.auth() }, undefined).catch(() => undefined);
    this.shellPath = undefined;
  }
}
