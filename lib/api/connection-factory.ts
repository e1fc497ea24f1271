/**
 * Opening connections by server URL, role name and password. The URL is {@link Server.url}:
 * the `url` the server was created with, or the unique one it got without.
 * @module
 */
import { GUEST_ROLE } from '../server/roles.js';
import { Server } from '../server/server.js';
import { DataStoreConnection } from './data-store-connection.js';
import { ServerConnection } from './server-connection.js';

/**
 * Opens server and data store connections, by the URL of a server in this process and the
 * credentials of one of its roles.
 *
 * ```ts
 * const server = await Server.create({ roleName: 'admin', password: 'secret' });
 * const sc = await ConnectionFactory.newServerConnection(server.url, 'admin', 'secret');
 * sc.createDataStore('family');
 * const ds = await ConnectionFactory.newDataStoreConnection(server.url, 'family', 'admin', 'secret');
 * ```
 */
export class ConnectionFactory {
  private constructor() {}

  /**
   * Opens a server connection to the server at `serverURL` (its {@link Server.url}); wrong
   * credentials (or a role without a password) fail with AuthenticationError. A password the
   * server has already checked or set costs no hash (so opening a connection of the first
   * role right after {@link Server.create} is cheap); any other check costs one hash at the
   * cost the role's hash was made with.
   */
  static async newServerConnection(serverURL: string, roleName: string, password: string): Promise<ServerConnection> {
    const server = Server.lookup(serverURL);
    return new ServerConnection(server, roleName, await server.roles.authenticate(roleName, password));
  }

  /**
   * Opens a server connection as the `guest` role, as a request without credentials does.
   * Fails with AuthenticationError when the server has no guest role.
   */
  static newGuestConnection(serverURL: string): ServerConnection {
    const server = Server.lookup(serverURL);
    return new ServerConnection(server, GUEST_ROLE, server.roles.guest());
  }

  /** Opens a connection to one data store directly (read access to the store is needed). */
  static async newDataStoreConnection(serverURL: string, dataStoreName: string, roleName: string, password: string): Promise<DataStoreConnection> {
    const server = await ConnectionFactory.newServerConnection(serverURL, roleName, password);
    try {
      return server.newDataStoreConnection(dataStoreName);
    } finally {
      server.close();
    }
  }
}
