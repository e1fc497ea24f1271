/**
 * Authentication of HTTP requests.
 *
 * - `Authorization: Basic <base64 role:password>` authenticates a role; the API is stateless,
 *   so every request carries it. The server's role database remembers successful checks
 *   for as long as the role keeps that password, so a changed password or a deleted role
 *   takes effect on the next request. Concurrent requests with one header share one check.
 * - No Authorization header: the request acts as the role `guest` if the server has one
 *   (server parameter `create-guest-role`); otherwise it is refused (401).
 * - `Authorization: Service <token>` authenticates a request on a connection (named by
 *   `connection=<id>` or by the path) with the token returned when it was created.
 *
 * A request that names a connection must be authenticated as that connection's role: another
 * role's valid credentials give 403, a wrong or foreign token 401.
 * @module
 */
import { AccessDeniedError, AuthenticationError, ConnectionFactory, GUEST_ROLE, type ServerConnection } from '../index.js';
import type { ConnectionRegistry, RegisteredConnection } from './connections.js';
import type { RegisteredShell, ShellRegistry } from './shells.js';

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

/** Authenticates the requests of one endpoint. */
export class Authenticator {
  /** Verifications in progress, so that concurrent requests with one header hash once. */
  private readonly pending = new Map<string, Promise<Principal>>();

  /** Creates an authenticator for the server at `serverURL` and the endpoint's connections (and shells). */
  constructor(
    private readonly serverURL: string,
    private readonly connections: ConnectionRegistry,
    private readonly shells?: ShellRegistry,
  ) {}

  /**
   * The principal of a request from its Authorization header; `named` is the connection (or
   * shell) the request names (by `connection=`, `shell=` or its path), if any.
   * @throws AuthenticationError (401) for missing, malformed or wrong credentials;
   * AccessDeniedError (403) when valid credentials are not those of the named connection's role.
   */
  async authenticate(authorization: string | undefined, named: RegisteredConnection | RegisteredShell | undefined): Promise<Principal> {
    const header = authorization?.trim() ?? '';
    const what = named?.kind === 'shell' ? 'shell' : 'connection';
    if (header === '') {
      const principal: Principal = { roleName: GUEST_ROLE, scheme: 'guest', root: ConnectionFactory.newGuestConnection(this.serverURL) };
      if (named && named.roleName !== GUEST_ROLE) {
        throw new AuthenticationError(`${what} '${named.id}' belongs to another role: authenticate with that role's credentials (Basic) or the ${what}'s token (Service)`);
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
      const principal = await this.verified(header, roleName, decoded.slice(colon + 1));
      if (named && named.roleName !== principal.roleName) {
        throw new AccessDeniedError(`${what} '${named.id}' belongs to another role than '${principal.roleName}'`);
      }
      return principal;
    }
    if (scheme === 'service') {
      if (!named) throw new AuthenticationError('the Service authentication scheme is for requests on a connection: name the connection with connection=<id>');
      const valid = named.kind === 'shell' ? (this.shells?.checkToken(named.id, credentials) ?? false) : this.connections.checkToken(named.id, credentials);
      if (credentials === '' || !valid) throw new AuthenticationError(`invalid authentication token for ${what} '${named.id}'`);
      if (!named.root.isUsable) throw new AuthenticationError(`${what} '${named.id}' can no longer be used: its role was deleted`);
      return { roleName: named.roleName, scheme: 'service', root: named.root };
    }
    throw new AuthenticationError(`unsupported authorization scheme '${header.slice(0, space < 0 ? header.length : space)}' (use Basic or Service)`);
  }

  private async verified(key: string, roleName: string, password: string): Promise<Principal> {
    const running = this.pending.get(key);
    if (running) return running;
    const verification = ConnectionFactory.newServerConnection(this.serverURL, roleName, password).then((root): Principal => ({ roleName, scheme: 'basic', root }));
    this.pending.set(key, verification);
    try {
      return await verification;
    } finally {
      this.pending.delete(key);
    }
  }
}
