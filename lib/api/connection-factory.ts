/**
 * Opening connections by server URL, role name and password.
 * @module
 */
import { Server } from '../server/server.js';
import { DataStoreConnection } from './data-store-connection.js';
import { ServerConnection } from './server-connection.js';

/** Opens server and data store connections. */
export class ConnectionFactory {
  private constructor() {}

  /** Opens a server connection; wrong credentials fail with AuthenticationError. */
  static async newServerConnection(serverURL: string, roleName: string, password: string): Promise<ServerConnection> {
    const server = Server.lookup(serverURL);
    await server.roles.verify(roleName, password);
    return new ServerConnection(server, roleName);
  }

  /** Opens a connection to one data store directly. */
  static async newDataStoreConnection(serverURL: string, dataStoreName: string, roleName: string, password: string): Promise<DataStoreConnection> {
    const server = Server.lookup(serverURL);
    await server.roles.verify(roleName, password);
    return new DataStoreConnection(server, server.dataStore(dataStoreName), roleName);
  }
}
