/**
 * Authentication of HTTP requests.
 *
 * - `Authorization: Basic <base64 role:password>` authenticates a role; the API is stateless,
 *   so every request carries it. Checking a password is deliberately slow (scrypt), so a
 *   successful check is remembered for {@link BASIC_CACHE_MS} under the SHA-256 of the header
 *   (never the header itself); failed checks are never remembered.
 * - No Authorization header: the request acts as the role `guest` with the guest password;
 *   when that role no longer exists (or its password changed), the request is refused (401).
 * - `Authorization: Service <token>` authenticates a request on a connection (named by
 *   `connection=<id>` or by the path) with the token returned when it was created.
 *
 * A request that names a connection must be authenticated as that connection's role: another
 * role's valid credentials give 403, a wrong or foreign token 401.
 * @module
 */
import { createHash } from 'node:crypto';
import { AccessDeniedError, AuthenticationError, ConnectionFactory, type ServerConnection } from '../index.js';
import type { ConnectionRegistry, RegisteredConnection } from './connections.js';

/** The role used for requests without an Authorization header. */
export const GUEST_ROLE = 'guest';

/** How long a successful Basic (or guest) verification is remembered, in milliseconds. */
export const BASIC_CACHE_MS = 60_000;

const CACHE_LIMIT = 10_000;

/** How a request was authenticated. */
export type AuthenticationScheme = 'basic' | 'guest' | 'service';

/** The authenticated identity of a request. */
export interface Principal {
  /** The role the request acts as. */
  readonly roleName: string;
  /** How the role was authenticated. */
  readonly scheme: AuthenticationScheme;
  /**
   * A server connection of the role, used only to open temporary connections for the
   * request (it never runs a call itself, so it is never busy).
   */
  readonly root: ServerConnection;
}

interface CacheEntry {
  readonly principal: Principal;
  readonly expires: number;
}

/** Authenticates the requests of one endpoint. */
export class Authenticator {
  private readonly cache = new Map<string, CacheEntry>();
  /** Verifications in progress, so that concurrent requests with one header hash once. */
  private readonly pending = new Map<string, Promise<Principal>>();

  /** Creates an authenticator for the server at `serverURL` and the endpoint's connections. */
  constructor(
    private readonly serverURL: string,
    private readonly connections: ConnectionRegistry,
    private readonly cacheMs: number = BASIC_CACHE_MS,
  ) {}

  /**
   * The principal of a request from its Authorization header; `named` is the connection the
   * request names (by `connection=` or its path), if any.
   * @throws AuthenticationError (401) for missing, malformed or wrong credentials;
   * AccessDeniedError (403) when valid credentials are not those of the named connection's role.
   */
  async authenticate(authorization: string | undefined, named: RegisteredConnection | undefined): Promise<Principal> {
    const header = authorization?.trim() ?? '';
    if (header === '') {
      const principal = await this.verified('\0guest', GUEST_ROLE, GUEST_ROLE, 'guest');
      if (named && named.roleName !== GUEST_ROLE) {
        throw new AuthenticationError(`connection '${named.id}' belongs to another role: authenticate with that role's credentials (Basic) or the connection's token (Service)`);
      }
      return principal;
    }
    const space = header.indexOf(' ');
    const scheme = (space < 0 ? header : header.slice(0, space)).toLowerCase();
    const credentials = space < 0 ? '' : header.slice(space + 1).trim();
    if (scheme === 'basic') {
      const decoded = Buffer.from(credentials, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (credentials === '' || colon < 0) throw new AuthenticationError('malformed Basic credentials: expected base64 of role-name:password');
      const roleName = decoded.slice(0, colon);
      const principal = await this.verified(createHash('sha256').update(header).digest('hex'), roleName, decoded.slice(colon + 1), 'basic');
      if (named && named.roleName !== principal.roleName) {
        throw new AccessDeniedError(`connection '${named.id}' belongs to another role than '${principal.roleName}'`);
      }
      return principal;
    }
    if (scheme === 'service') {
      if (!named) throw new AuthenticationError('the Service authentication scheme is for requests on a connection: name the connection with connection=<id>');
      if (credentials === '' || !this.connections.checkToken(named.id, credentials)) throw new AuthenticationError(`invalid authentication token for connection '${named.id}'`);
      return { roleName: named.roleName, scheme: 'service', root: named.root };
    }
    throw new AuthenticationError(`unsupported authorization scheme '${header.slice(0, space < 0 ? header.length : space)}' (use Basic or Service)`);
  }

  /** Forgets every remembered verification. */
  clear(): void {
    this.cache.clear();
  }

  private async verified(key: string, roleName: string, password: string, scheme: AuthenticationScheme): Promise<Principal> {
    const hit = this.cache.get(key);
    if (hit && hit.expires > Date.now()) return hit.principal;
    if (hit) this.cache.delete(key);
    const running = this.pending.get(key);
    if (running) return running;
    const verification = this.verify(key, roleName, password, scheme);
    this.pending.set(key, verification);
    try {
      return await verification;
    } finally {
      this.pending.delete(key);
    }
  }

  private async verify(key: string, roleName: string, password: string, scheme: AuthenticationScheme): Promise<Principal> {
    let root: ServerConnection;
    try {
      root = await ConnectionFactory.newServerConnection(this.serverURL, roleName, password);
    } catch (e) {
      if (scheme === 'guest' && e instanceof AuthenticationError) {
        throw new AuthenticationError('anonymous access is disabled (the guest role does not exist or its password was changed): send Basic credentials');
      }
      throw e;
    }
    const now = Date.now();
    const principal: Principal = { roleName, scheme, root };
    if (this.cache.size >= CACHE_LIMIT) {
      for (const [k, v] of this.cache) if (v.expires <= now) this.cache.delete(k);
      if (this.cache.size >= CACHE_LIMIT) this.cache.delete(this.cache.keys().next().value!);
    }
    this.cache.set(key, { principal, expires: now + this.cacheMs });
    return principal;
  }
}
