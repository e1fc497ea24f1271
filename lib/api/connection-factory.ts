/**
 * Opening connections by server URL, role name and password.
 * @module
 */
import { GUEST_ROLE } from '../server/roles.js';
import { Server } from '../server/server.js';
import { DataStoreConnection } from './data-store-connection.js';
import { ServerConnection } from './server-connection.js';

/** Opens server and data store connections. */
export class ConnectionFactory {
  private constructor() {}

  /**
   * Opens a server connection; wrong credentials (or a role without a password) fail with
   * AuthenticationError.
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
