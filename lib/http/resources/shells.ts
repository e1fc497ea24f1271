/**
 * The shell over HTTP: `POST /commands` runs a script of shell commands, `/shells` keeps a
 * shell across requests.
 *
 * - `POST /commands` with a `text/plain` body (the script): a fresh shell of the request's
 *   role runs it, unless `shell=<id>` names a shell of `/shells` (authenticated with the
 *   creator's Basic credentials or `Authorization: Service <token>`). The answer is always
 *   `200 text/plain` for a well-formed request, the output streamed as the commands produce
 *   it; errors are printed in it. With `TE: trailers`, the trailers `Service-Shell-Status`
 *   (`running`, `quit`, `aborted-duplicate` or `aborted-non-duplicate`),
 *   `Service-Final-Status-Code` (200, or the status of the error that stopped the script) and
 *   `Service-Error` (its message) follow. A failure stops the script (unless `on-error` says
 *   otherwise) and rolls back its open transaction; a fresh shell's open transaction is
 *   rolled back at the end. Commands that would prompt (confirmations, passwords) are refused
 *   unless given `force` or the value; commands that read or write files of the server's
 *   machine other than imports (exec, export to a file, set output to a file) are refused.
 *   Cancelling the request (DELETE /requests/<id>, a client that goes away) interrupts it.
 * - `GET /shells`: the identifiers (column `Name`) of the role's shells (all, for a role that
 *   may read the roles). `POST /shells`: 201 with `Location: /shells/<id>` and
 *   `Service-Authentication-Token`.
 * - `GET /shells/<id>`: `Property`, `Value` rows (role-name, active-data-store, busy).
 *   `PATCH /shells/<id>?operation=interrupt`: 204, interrupts the commands it runs. `DELETE`:
 *   204, closes it (rolling back its open transactions). Idle shells are closed after the
 *   endpoint's object-keep-alive-time.
 * @module
 */
import { BadRequestError, type ServerConnection } from '../../index.js';
import { Shell, type ShellIO, type ShellRunResult } from '../../commands/index.js';
import { UnsupportedMediaTypeError } from '../errors.js';
import { booleanTerm, type Exchange, type Handler, type HttpExchange, httpExchange, resourcePath, stringTerm } from '../exchange.js';
import type { RegisteredShell } from '../shells.js';

const TOKEN_HEADER = 'Service-Authentication-Token';
/** The trailers of a `/commands` answer. */
const TRAILERS = ['Service-Shell-Status', 'Service-Final-Status-Code', 'Service-Error'];
/** How many characters of output are gathered before a write (smaller pieces go out on the next turn). */
const WRITE_SIZE = 64 * 1024;

/** A header value: printable ASCII only, everything else escaped as \uXXXX. */
function headerValue(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The variables of a shell of the endpoint: dir.root is the server's sandbox directory, when the role may see it. */
function remoteVariables(root: ServerConnection): Record<string, string> {
  try {
    const sandbox = root.getServerProperties().find((r) => r.property === 'parameters.sandbox-directory')?.value;
    return sandbox ? { 'dir.root': sandbox } : {};
  } catch {
    return {};
  }
}

/** A new shell of the request's role, writing through `io`. */
function newShell(ex: HttpExchange, io: ShellIO): Shell {
  const connection = ex.principal.root.duplicate();
  return new Shell({ connection, io, remote: true, variables: remoteVariables(connection) });
}

/** Output of a shell into a response: gathered for a moment, then written, with backpressure. */
class StreamedOutput implements ShellIO {
  private parts: string[] = [];
  private size = 0;
  private scheduled = false;
  private draining: Promise<void> | undefined;

  constructor(private readonly ex: HttpExchange) {}

  write(text: string): Promise<void> | undefined {
    this.parts.push(text);
    this.size += text.length;
    if (this.size >= WRITE_SIZE) return this.flush();
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => void this.flush());
    }
    return this.draining;
  }

  flush(): Promise<void> | undefined {
    this.scheduled = false;
    if (this.parts.length === 0) return this.draining;
    const body = this.parts.join('');
    this.parts = [];
    this.size = 0;
    const res = this.ex.res;
    if (res.destroyed || res.writableEnded) return undefined;
    if (res.write(body)) return this.draining;
    return (this.draining ??= new Promise<void>((resolve) => {
      const done = (): void => {
        res.off('drain', done);
        res.off('close', done);
        this.draining = undefined;
        resolve();
      };
      res.on('drain', done);
      res.on('close', done);
    }));
  }
}

/** The value of `Service-Shell-Status` for the result of a run. */
function shellStatus(result: ShellRunResult, quit: boolean): string {
  if (quit || result.status === 'quit') return 'quit';
  if (result.status === 'aborted' || result.status === 'interrupted') return result.failure?.duplicate ? 'aborted-duplicate' : 'aborted-non-duplicate';
  return 'running';
}

/** Serves `POST /commands`: runs a script in a fresh shell or in the shell named by `shell=`. */
export const handleCommands: Handler = async (exchange: Exchange): Promise<void> => {
  const ex = httpExchange(exchange);
  const type = ex.contentType;
  if (type !== '' && type !== 'text/plain') throw new UnsupportedMediaTypeError(`POST /commands takes the script as text/plain, not '${type}'`);
  const shellId = ex.params.get('shell');
  if (shellId === '') throw new BadRequestError("parameter 'shell' is empty: give the identifier of a shell");
  const registered = shellId === null ? undefined : ex.context.shells.find(shellId);
  const script = await ex.readText();
  const output = new StreamedOutput(ex);
  if (registered) ex.context.shells.acquire(registered);
  let shell: Shell;
  try {
    shell = registered ? registered.shell : newShell(ex, output);
  } catch (e) {
    if (registered) ex.context.shells.release(registered);
    throw e;
  }
  // a registered shell writes into whichever request runs it
  const io = registered ? rebind(registered, output) : undefined;
  const trailers = /\btrailers\b/i.test(String(ex.req.headers.te ?? ''));
  ex.res.writeHead(200, { 'Content-Type': 'text/plain; charset=UTF-8', 'X-Content-Type-Options': 'nosniff', ...(trailers ? { Trailer: TRAILERS.join(', ') } : {}) });
  ex.request.onCancel(() => shell.interrupt());
  let result: ShellRunResult;
  try {
    if (ex.request.cancelled) shell.interrupt();
    result = await shell.run(script);
  } finally {
    io?.restore();
    if (registered) ex.context.shells.release(registered);
  }
  const quit = shell.hasQuit;
  if (!registered) await shell.close();
  else if (quit) await ex.context.shells.remove(registered.id);
  await output.flush();
  if (trailers) {
    const failure = result.status === 'completed' || result.status === 'quit' ? undefined : result.failure;
    ex.res.addTrailers({
      'Service-Shell-Status': shellStatus(result, quit),
      'Service-Final-Status-Code': String(failure?.status ?? 200),
      ...(failure ? { 'Service-Error': headerValue(failure.message) } : {}),
    });
  }
  ex.res.end();
};

/** Points a registered shell's output at this request's response until restored. */
function rebind(registered: RegisteredShell, output: StreamedOutput): { restore(): void } {
  const io = shellOutputs.get(registered.shell);
  if (io) io.current = output;
  return {
    restore: () => {
      if (io) io.current = undefined;
    },
  };
}

/** The output of registered shells: whichever request runs them now. */
class ForwardingOutput implements ShellIO {
  current: StreamedOutput | undefined;
  write(text: string): Promise<void> | undefined {
    return this.current?.write(text);
  }
}

const shellOutputs = new WeakMap<Shell, ForwardingOutput>();

/** Serves `/shells`: GET lists the shells, POST creates one. */
export const handleShells: Handler = async (exchange: Exchange): Promise<void> => {
  const ex = httpExchange(exchange);
  const { roleName, root } = ex.principal;
  if (exchange.method === 'GET') {
    const ids = ex.context.shells.list((s) => s.roleName === roleName || root.hasAccess(['roles', s.roleName], 'read'));
    await exchange.sendTable(['Name'], ids.map((id) => [stringTerm(id)]));
    return;
  }
  const output = new ForwardingOutput();
  const connection = root.duplicate();
  const shell = new Shell({ connection, io: output, remote: true, variables: remoteVariables(connection) });
  shellOutputs.set(shell, output);
  // the shell's own server connection for authenticating its token: independent of the request's
  const { registered, token } = ex.context.shells.add(shell, root.duplicate());
  exchange.sendStatus(201, { Location: resourcePath('shells', registered.id), [TOKEN_HEADER]: token });
};

/** Serves `/shells/<id>`: GET describes it, PATCH operation=interrupt, DELETE closes it. */
export const handleShell: Handler = async (exchange: Exchange, id: string): Promise<void> => {
  const ex = httpExchange(exchange);
  const registered = ex.context.shells.find(id);
  switch (exchange.method) {
    case 'GET':
      await exchange.sendTable(
        ['Property', 'Value'],
        [
          [stringTerm('role-name'), stringTerm(registered.roleName)],
          [stringTerm('active-data-store'), stringTerm(registered.shell.activeDataStore ?? '')],
          [stringTerm('busy'), booleanTerm(registered.busy)],
        ],
      );
      return;
    case 'DELETE':
      await ex.context.shells.remove(registered.id);
      exchange.sendStatus(204);
      return;
    default: {
      const operation = ex.params.get('operation');
      if (operation !== 'interrupt') throw new BadRequestError(operation === null ? "parameter 'operation' is required (interrupt)" : `unknown shell operation '${operation}' (interrupt)`);
      registered.shell.interrupt();
      exchange.sendStatus(204);
    }
  }
};
