/**
 * The registry of server and data store connections opened over HTTP.
 *
 * Each connection has an opaque random identifier (it appears in the connection's path) and a
 * 128-bit random authentication token (base64url), returned once when the connection is
 * created and compared in constant time afterwards (and indexed by their SHA-256 digest, see
 * `token-index.ts`). Tokens are never logged, listed or returned again. A connection serves
 * one request at a time (a second concurrent request fails with 409) and is deleted when no
 * request has used it for the endpoint's `objectKeepAliveTime` (the timer does not keep the
 * process alive).
 * @module
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { type Cursor, type DataStoreConnection, ResourceInUseError, type ServerConnection, UnknownResourceError } from '../index.js';
import { TokenIndex } from './token-index.js';

/** Whether a registered connection is a server or a data store connection. */
export type ConnectionKind = 'server' | 'datastore';

/** A cursor opened over HTTP on a data store connection. */
export interface RegisteredCursor {
  /** The cursor's identifier (unique within its connection). */
  readonly id: string;
  /** The API cursor. */
  readonly cursor: Cursor;
  /** The query text. */
  readonly query: string;
  /** Rows delivered so far. */
  position: number;
  /** Whether `open` was called. */
  opened: boolean;
  /** Whether the last page said more rows follow. */
  more: boolean;
}

/** A connection opened over HTTP. */
export interface RegisteredConnection {
  /** The identifier (path segment). */
  readonly id: string;
  /** Server or data store connection. */
  readonly kind: ConnectionKind;
  /** The data store of a data store connection. */
  readonly dataStore: string | undefined;
  /** The API connection. */
  readonly connection: ServerConnection | DataStoreConnection;
  /** The role of the connection. */
  readonly roleName: string;
  /** A server connection of the same role, used only to open further connections (never busy). */
  readonly root: ServerConnection;
  /** The cursors opened on the connection. */
  readonly cursors: Map<string, RegisteredCursor>;
  /** Whether a request is using the connection. */
  busy: boolean;
}

interface Entry {
  readonly connection: RegisteredConnection;
  readonly token: Buffer;
  timer: NodeJS.Timeout | undefined;
}

/** The connections of one endpoint. */
export class ConnectionRegistry {
  private readonly entries = new Map<string, Entry>();
  private readonly tokens = new TokenIndex();
  private closed = false;

  /** Creates a registry whose connections expire after `keepAliveMs` without a request. */
  constructor(private readonly keepAliveMs: number) {}

  /**
   * Registers a new connection; returns its record and its token (to be sent once, in the
   * `Service-Authentication-Token` header).
   */
  add(kind: ConnectionKind, connection: ServerConnection | DataStoreConnection, root: ServerConnection, dataStore?: string): { registered: RegisteredConnection; token: string } {
    let id: string;
    do id = randomBytes(10).toString('hex');
    while (this.entries.has(id));
    const tokenBytes = randomBytes(16);
    const registered: RegisteredConnection = { id, kind, dataStore, connection, roleName: connection.roleName, root, cursors: new Map(), busy: false };
    const entry: Entry = { connection: registered, token: Buffer.from(tokenBytes.toString('base64url')), timer: undefined };
    this.entries.set(id, entry);
    this.tokens.add(tokenBytes.toString('base64url'), id);
    this.schedule(entry);
    return { registered, token: tokenBytes.toString('base64url') };
  }

  /** The connection with an identifier, or undefined. */
  get(id: string): RegisteredConnection | undefined {
    return this.entries.get(id)?.connection;
  }

  /**
   * The connection of a kind (and data store) with an identifier.
   * @throws UnknownResourceError when there is none.
   */
  find(kind: ConnectionKind, id: string, dataStore?: string): RegisteredConnection {
    const found = this.entries.get(id)?.connection;
    if (!found || found.kind !== kind || (kind === 'datastore' && found.dataStore !== dataStore)) {
      throw new UnknownResourceError(kind === 'server' ? `server connection '${id}' does not exist (it may have expired)` : `data store connection '${id}' of data store '${dataStore ?? ''}' does not exist (it may have expired)`);
    }
    return found;
  }

  /**
   * The connection whose token is `token`, if any (for a request that names its connection only in a
   * body not read yet).
   */
  findByToken(token: string): RegisteredConnection | undefined {
    const id = this.tokens.find(token);
    return id === undefined ? undefined : this.entries.get(id)?.connection;
  }

  /** Whether `token` is the token of the connection `id` (constant-time comparison). */
  checkToken(id: string, token: string): boolean {
    const entry = this.entries.get(id);
    const given = Buffer.from(token);
    if (!entry) {
      // compare anyway so that timing does not tell which identifiers exist
      timingSafeEqual(given, given);
      return false;
    }
    if (given.length !== entry.token.length) {
      timingSafeEqual(entry.token, entry.token);
      return false;
    }
    return timingSafeEqual(given, entry.token);
  }

  /** Identifiers of the connections of a kind (and data store) that `visible` accepts. */
  list(kind: ConnectionKind, dataStore: string | undefined, visible: (connection: RegisteredConnection) => boolean): string[] {
    const ids: string[] = [];
    for (const { connection } of this.entries.values()) {
      if (connection.kind === kind && (kind === 'server' || connection.dataStore === dataStore) && visible(connection)) ids.push(connection.id);
    }
    return ids;
  }

  /**
   * Marks a connection busy for one request; the expiry clock stops until {@link release}.
   * @throws ResourceInUseError when another request is using it.
   */
  acquire(connection: RegisteredConnection): void {
    const entry = this.entries.get(connection.id);
    if (!entry) throw new UnknownResourceError(`connection '${connection.id}' does not exist (it may have expired)`);
    if (connection.busy) throw new ResourceInUseError(`connection '${connection.id}' is serving another request: a connection serves one request at a time; use another connection for concurrent requests`);
    connection.busy = true;
    if (entry.timer) clearTimeout(entry.timer);
    entry.timer = undefined;
  }

  /** Ends a request's use of a connection and restarts its expiry clock. */
  release(connection: RegisteredConnection): void {
    connection.busy = false;
    const entry = this.entries.get(connection.id);
    if (entry) this.schedule(entry);
  }

  /** Restarts a connection's expiry clock (any request naming it counts as use). */
  touch(connection: RegisteredConnection): void {
    const entry = this.entries.get(connection.id);
    if (entry && !connection.busy) this.schedule(entry);
  }

  /** Removes and closes a connection (and its cursors); false when it did not exist. */
  remove(id: string): boolean {
    const entry = this.entries.get(id);
    if (!entry) return false;
    this.entries.delete(id);
    this.tokens.remove(id);
    if (entry.timer) clearTimeout(entry.timer);
    for (const c of entry.connection.cursors.values()) c.cursor.close();
    entry.connection.cursors.clear();
    entry.connection.connection.close();
    return true;
  }

  /** Closes every connection; later additions are closed at once. */
  closeAll(): void {
    this.closed = true;
    for (const id of [...this.entries.keys()]) this.remove(id);
  }

  /** Number of registered connections. */
  get size(): number {
    return this.entries.size;
  }

  private schedule(entry: Entry): void {
    if (entry.timer) clearTimeout(entry.timer);
    if (this.closed) {
      this.remove(entry.connection.id);
      return;
    }
    entry.timer = setTimeout(() => {
      if (entry.connection.busy) return;
      this.remove(entry.connection.id);
    }, this.keepAliveMs);
    entry.timer.unref();
  }
}
