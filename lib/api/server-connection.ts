/**
 * A connection to the server: server properties, data store management and component info.
 * @module
 */
import type { ComponentInfoRow } from '../server/component-info.js';
import type { PropertyRow } from '../server/data-store.js';
import type { Server } from '../server/server.js';
import { ConnectionBase } from './connection-base.js';
import { DataStoreConnection } from './data-store-connection.js';

/** A connection to a server, acting as one role. Serves one call at a time. */
export class ServerConnection extends ConnectionBase {
  /** @internal */
  constructor(server: Server, roleName: string) {
    super(server, roleName);
  }

  /** The URL of the server. */
  get serverURL(): string {
    return this.server.url;
  }

  /** A second connection to the server with the same role. */
  duplicate(): ServerConnection {
    this.checkUsable();
    return new ServerConnection(this.server, this.roleName);
  }

  /** Server properties (Property, Value, Mutable). */
  getServerProperties(): PropertyRow[] {
    return this.guardSync('getServerProperties', () => this.server.properties());
  }

  /** Sets a mutable server property (`max-memory`, `num-threads`). */
  setServerProperty(name: string, value: string | number): void {
    this.guardSync('setServerProperty', () => this.server.setProperty(name, String(value)));
  }

  /** The number of threads the server may use. */
  getNumberOfThreads(): number {
    return Number(this.getServerProperties().find((r) => r.property === 'num-threads')!.value);
  }

  /** Sets the number of threads (1 to 1024). */
  setNumberOfThreads(n: number): void {
    this.setServerProperty('num-threads', n);
  }

  /** Names of the data stores. */
  listDataStores(): string[] {
    return this.guardSync('listDataStores', () => this.server.dataStoreNames());
  }

  /**
   * Creates a data store. Type `parallel-nn` (default), `parallel-nw` or `parallel-ww` (older
   * names such as `par-complex-nn` are accepted); parameters such as `by-levels`, `use-DRed`,
   * `equality`.
   */
  createDataStore(name: string, type?: string, parameters: Readonly<Record<string, string>> = {}): void {
    this.guardSync('createDataStore', () => this.server.createDataStore(name, type, parameters));
  }

  /** Deletes a data store; its connections become invalid (and must still be closed). */
  deleteDataStore(name: string): void {
    this.guardSync('deleteDataStore', () => this.server.deleteDataStore(name));
  }

  /** Opens a connection to a data store with this connection's role. */
  newDataStoreConnection(name: string): DataStoreConnection {
    return this.guardSync('newDataStoreConnection', () => new DataStoreConnection(this.server, this.server.dataStore(name), this.roleName));
  }

  /** Component information of the server (ComponentID, Property, Value). */
  getComponentInfo(extended = false): ComponentInfoRow[] {
    return this.guardSync('getComponentInfo', () => this.server.componentInfo(extended));
  }
}
