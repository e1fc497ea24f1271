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
 *
 * Requests are authenticated before their bodies are read. A request whose connection may be
 * named in a form body still to be read (`connection=` in an application/x-www-form-urlencoded
 * body) is authenticated from its header alone: Basic credentials and the guest role as they
 * are, a Service token as the token of the connection or shell it belongs to (found by the
 * token, see `token-index.ts`); once the body has been read, {@link Authenticator.checkNamed}
 * checks the connection it names.
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
  /** The connection or shell whose token authenticated the request (scheme `service`). */
  readonly tokenOf?: RegisteredConnection | RegisteredShell;
}

/** Options of {@link Authenticator.authenticate}. */
export interface AuthenticateOptions {
  /**
   * True when the request may still name its connection (or shell) in a body that has not
   * been read: a Service token is then authenticated as the token of whichever connection or
   * shell it belongs to, and {@link Authenticator.checkNamed} must be called once the body has
   * been read.
   */
  readonly namedLater?: boolean;
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
  async authenticate(authorization: string | undefined, named: RegisteredConnection | RegisteredShell | undefined, options: AuthenticateOptions = {}): Promise<Principal> {
    const header = authorization?.trim() ?? '';
    const what = named?.kind === 'shell' ? 'shell' : 'connection';
    let principal: Principal;
    if (header === '') {
      principal = { roleName: GUEST_ROLE, scheme: 'guest', root: ConnectionFactory.newGuestConnection(this.serverURL) };
    } else {
      const space = header.indexOf(' ');
      const scheme = (space < 0 ? header : header.slice(0, space)).toLowerCase();
      const credentials = space < 0 ? '' : header.slice(space + 1).trim();
      if (scheme === 'basic') {
        const decoded = decodeBasicCredentials(credentials);
        const colon = decoded?.indexOf(':') ?? -1;
        if (decoded === undefined || credentials === '' || colon < 0) throw new AuthenticationError('malformed Basic credentials: expected base64 of role-name:password (UTF-8)');
        principal = await this.verified(header, decoded.slice(0, colon), decoded.slice(colon + 1));
      } else if (scheme === 'service') {
        let target = named;
        if (!target) {
          if (options.namedLater !== true) throw new AuthenticationError(SERVICE_NEEDS_CONNECTION);
          target = credentials === '' ? undefined : (this.connections.findByToken(credentials) ?? this.shells?.findByToken(credentials));
          if (!target) throw new AuthenticationError('invalid authentication token: it is the token of no open connection or shell (name the connection with connection=<id>)');
        } else {
          const valid = target.kind === 'shell' ? (this.shells?.checkToken(target.id, credentials) ?? false) : this.connections.checkToken(target.id, credentials);
          if (credentials === '' || !valid) throw new AuthenticationError(`invalid authentication token for ${what} '${target.id}'`);
        }
        if (!target.root.isUsable) throw new AuthenticationError(`${target.kind === 'shell' ? 'shell' : 'connection'} '${target.id}' can no longer be used: its role was deleted`);
        principal = { roleName: target.roleName, scheme: 'service', root: target.root, tokenOf: target };
      } else {
        throw new AuthenticationError(`unsupported authorization scheme '${header.slice(0, space < 0 ? header.length : space)}' (use Basic or Service)`);
      }
    }
    if (options.namedLater !== true || named) this.checkNamed(principal, named);
    return principal;
  }

  /**
   * Checks that an authenticated request may act on the connection (or shell) it names: one
   * of its role, and for a Service token the one the token belongs to; a Service token needs a
   * named connection.
   * @throws AuthenticationError (401) for a token that is not the named connection's, a Service
   *   token without a named connection, or a guest request naming another role's connection;
   *   AccessDeniedError (403) for Basic credentials of another role.
   */
  checkNamed(principal: Principal, named: RegisteredConnection | RegisteredShell | undefined): void {
    const what = named?.kind === 'shell' ? 'shell' : 'connection';
    switch (principal.scheme) {
      case 'guest':
        if (named && named.roleName !== GUEST_ROLE) {
          throw new AuthenticationError(`${what} '${named.id}' belongs to another role: authenticate with that role's credentials (Basic) or the ${what}'s token (Service)`);
        }
        return;
      case 'basic':
        if (named && named.roleName !== principal.roleName) throw new AccessDeniedError(`${what} '${named.id}' belongs to another role than '${principal.roleName}'`);
        return;
      case 'service':
        if (!named) throw new AuthenticationError(SERVICE_NEEDS_CONNECTION);
        if (principal.tokenOf !== named) throw new AuthenticationError(`invalid authentication token for ${what} '${named.id}'`);
        return;
    }
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

/** The error text of a Service token on a request that names no connection. */
const SERVICE_NEEDS_CONNECTION = 'the Service authentication scheme is for requests on a connection: name the connection with connection=<id>';

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The text of base64 Basic credentials, or undefined when their bytes are not UTF-8. */
function decodeBasicCredentials(credentials: string): string | undefined {
  try {
    return UTF8.decode(Buffer.from(credentials, 'base64'));
  } catch {
    return undefined;
  }
}
