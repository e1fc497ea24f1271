/**
 * The registry of shells that live across requests (`/shells`).
 *
 * Like a connection, each shell has an opaque random identifier (its path segment) and a
 * 128-bit random token (base64url), returned once when it is created and compared in constant
 * time afterwards; it serves one request at a time (a second concurrent one fails with 409)
 * and is closed when no request has used it for the endpoint's `objectKeepAliveTime` (the
 * timer does not keep the process alive). Closing a shell rolls back its open transactions.
 * @module
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { ResourceInUseError, type ServerConnection, UnknownResourceError } from '../index.js';
import type { Shell } from '../commands/index.js';
import { TokenIndex } from './token-index.js';

/** A shell opened over HTTP. */
export interface RegisteredShell {
  /** Always `shell` (tells it apart from a registered connection). */
  readonly kind: 'shell';
  /** The identifier (path segment). */
  readonly id: string;
  /** The shell. */
  readonly shell: Shell;
  /** The role of the shell. */
  readonly roleName: string;
  /** A server connection of the role, for authenticating requests made with the shell's token. */
  readonly root: ServerConnection;
  /** Whether a request is using the shell. */
  busy: boolean;
}

interface Entry {
  readonly shell: RegisteredShell;
  readonly token: Buffer;
  timer: NodeJS.Timeout | undefined;
}

/** The shells of one endpoint. */
export class ShellRegistry {
  private readonly entries = new Map<string, Entry>();
  private readonly tokens = new TokenIndex();
  private closed = false;

  /** Creates a registry whose shells expire after `keepAliveMs` without a request. */
  constructor(private readonly keepAliveMs: number) {}

  /** Registers a shell; returns its record and its token (to be sent once). */
  add(shell: Shell, root: ServerConnection): { registered: RegisteredShell; token: string } {
    let id: string;
    do id = randomBytes(10).toString('hex');
    while (this.entries.has(id));
    const tokenBytes = randomBytes(16);
    const registered: RegisteredShell = { kind: 'shell', id, shell, roleName: shell.roleName, root, busy: false };
    const entry: Entry = { shell: registered, token: Buffer.from(tokenBytes.toString('base64url')), timer: undefined };
    this.entries.set(id, entry);
    this.tokens.add(tokenBytes.toString('base64url'), id);
    this.schedule(entry);
    return { registered, token: tokenBytes.toString('base64url') };
  }

  /**
   * The shell with an identifier.
   * @throws UnknownResourceError when there is none.
   */
  find(id: string): RegisteredShell {
    const found = this.entries.get(id)?.shell;
    if (!found) throw new UnknownResourceError(`shell '${id}' does not exist (it may have expired)`);
    return found;
  }

  /**
   * The shell whose token is `token`, if any (for a request that names its shell only in a
   * body not read yet).
   */
  findByToken(token: string): RegisteredShell | undefined {
    const id = this.tokens.find(token);
    return id === undefined ? undefined : this.entries.get(id)?.shell;
  }

  /** Whether `token` is the token of the shell `id` (constant-time comparison). */
  checkToken(id: string, token: string): boolean {
    const entry = this.entries.get(id);
    const given = Buffer.from(token);
    if (!entry || given.length !== entry.token.length) {
      timingSafeEqual(given, given);
      return false;
    }
    return timingSafeEqual(given, entry.token);
  }

  /** Identifiers of the shells that `visible` accepts. */
  list(visible: (shell: RegisteredShell) => boolean): string[] {
    return [...this.entries.values()].map((e) => e.shell).filter(visible).map((s) => s.id);
  }

  /**
   * Marks a shell busy for one request; its expiry clock stops until {@link release}.
   * @throws ResourceInUseError when another request is using it.
   */
  acquire(shell: RegisteredShell): void {
    const entry = this.entries.get(shell.id);
    if (!entry) throw new UnknownResourceError(`shell '${shell.id}' does not exist (it may have expired)`);
    if (shell.busy) throw new ResourceInUseError(`shell '${shell.id}' is running commands of another request: a shell serves one request at a time`);
    shell.busy = true;
    if (entry.timer) clearTimeout(entry.timer);
    entry.timer = undefined;
  }

  /** Ends a request's use of a shell and restarts its expiry clock. */
  release(shell: RegisteredShell): void {
    shell.busy = false;
    const entry = this.entries.get(shell.id);
    if (entry) this.schedule(entry);
  }

  /** Restarts a shell's expiry clock (any request naming it counts as use). */
  touch(shell: RegisteredShell): void {
    const entry = this.entries.get(shell.id);
    if (entry && !shell.busy) this.schedule(entry);
  }

  /** Removes and closes a shell; false when it did not exist. */
  async remove(id: string): Promise<boolean> {
    const entry = this.entries.get(id);
    if (!entry) return false;
    this.entries.delete(id);
    this.tokens.remove(id);
    if (entry.timer) clearTimeout(entry.timer);
    await entry.shell.shell.close();
    entry.shell.root.close();
    return true;
  }

  /** Closes every shell; later additions are closed at once. */
  async closeAll(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.entries.keys()].map((id) => this.remove(id)));
  }

  /** Number of registered shells. */
  get size(): number {
    return this.entries.size;
  }

  private schedule(entry: Entry): void {
    if (entry.timer) clearTimeout(entry.timer);
    if (this.closed) {
      void this.remove(entry.shell.id);
      return;
    }
    entry.timer = setTimeout(() => {
      if (!entry.shell.busy) void this.remove(entry.shell.id);
    }, this.keepAliveMs);
    entry.timer.unref();
  }
}
