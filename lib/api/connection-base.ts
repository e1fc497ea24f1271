/**
 * What server and data store connections share: the one-call-at-a-time guard, the closed
 * state and the interrupt flag.
 * @module
 */
import '../model/disposable.js';
import { Interrupter } from '../model/control.js';
import { InvalidConnectionError, ResourceInUseError } from '../model/errors.js';
import type { ResourcePath } from '../server/resource-specifiers.js';
import type { AccessType } from '../server/roles.js';
import type { Server } from '../server/server.js';

/**
 * Base of {@link ServerConnection} and {@link DataStoreConnection}. A connection is disposable:
 * `using connection = …` closes it at the end of the block.
 */
export abstract class ConnectionBase implements Disposable, AsyncDisposable {
  /** @internal */
  protected readonly interrupter = new Interrupter();
  private busy: string | undefined;
  private closed = false;

  /** @internal */
  protected constructor(
    /** @internal */
    protected readonly server: Server,
    /** The role the connection acts as. */
    readonly roleName: string,
    /** @internal Which role of that name (a role deleted and created again is another). */
    protected readonly incarnation: number,
  ) {}

  /** Whether {@link ConnectionBase.close} was called. */
  get isClosed(): boolean {
    return this.closed;
  }

  /** Whether the connection can serve calls: not closed, and its role (and store) still exist. */
  get isUsable(): boolean {
    try {
      this.checkUsable();
      return true;
    } catch {
      return false;
    }
  }

  /** Asks the call running on this connection to stop at its next yield (InterruptedError). */
  interrupt(): void {
    this.interrupter.interrupt();
  }

  /** Checks a password of the connection's role; a wrong one fails with AuthenticationError. */
  async checkPassword(password: string): Promise<void> {
    this.checkUsable();
    await this.server.roles.authenticate(this.roleName, password);
  }

  /** Closes the connection. Later calls fail; closing twice is harmless. */
  close(): void {
    this.closed = true;
    this.interrupter.interrupt();
  }

  /** Closes the connection, for `using connection = …`: see {@link ConnectionBase.close}. */
  [Symbol.dispose](): void {
    this.close();
  }

  /** Closes the connection, for `await using connection = …`: see {@link ConnectionBase.close}. */
  [Symbol.asyncDispose](): Promise<void> {
    this.close();
    return Promise.resolve();
  }

  /** @internal Throws when the connection cannot serve a call (closed, or its role deleted). */
  protected checkUsable(): void {
    if (this.closed) throw new InvalidConnectionError('the connection is closed');
    if (!this.server.roles.isCurrent(this.roleName, this.incarnation)) throw new InvalidConnectionError(`role '${this.roleName}' was deleted: this connection can no longer be used (close it)`);
  }

  /** @internal Checks that the connection's role holds a privilege (AccessDeniedError otherwise). */
  protected require(resource: ResourcePath, access: AccessType): void {
    this.server.roles.require(this.roleName, resource, access);
  }

  /** @internal Runs one call, failing at once when another call is in flight. */
  protected async guard<T>(operation: string, fn: () => Promise<T> | T): Promise<T> {
    this.checkUsable();
    if (this.busy !== undefined) throw new ResourceInUseError(`the connection is busy with another call (${this.busy}): a connection serves one call at a time; use another connection for concurrent work`);
    this.busy = operation;
    this.interrupter.reset();
    try {
      return await fn();
    } finally {
      this.busy = undefined;
    }
  }

  /** @internal Runs a synchronous call with the same checks. */
  protected guardSync<T>(operation: string, fn: () => T): T {
    this.checkUsable();
    if (this.busy !== undefined) throw new ResourceInUseError(`the connection is busy with another call (${this.busy}): a connection serves one call at a time; use another connection for concurrent work`);
    return fn();
  }
}
