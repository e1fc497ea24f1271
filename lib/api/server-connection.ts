/**
 * A connection to the server: server properties, data store management, component info, and
 * the role database (roles, passwords, privileges, memberships). Every call checks the
 * privilege it needs first (AccessDeniedError otherwise) and changes nothing when refused.
 * @module
 */
import { type Component, type ComponentInfoRow, componentRows, componentTree, readableStoreComponent } from '../server/component-info.js';
import { storeAccess } from '../server/fact-access.js';
import type { PropertyRow } from '../server/data-store.js';
import { storeResources } from '../server/resource-specifiers.js';
import { type AccessType, parseAccessTypes, type PasswordSpecificationType, type Privilege, type RoleDescription } from '../server/roles.js';
import type { Server } from '../server/server.js';
import type { ReplicationStatus } from '../server/replication-status.js';
import { StoreSession } from '../server/session.js';
import { ConnectionBase } from './connection-base.js';
import { DataStoreConnection } from './data-store-connection.js';

/** A connection to a server, acting as one role. Serves one call at a time. */
export class ServerConnection extends ConnectionBase {
  /** @internal */
  constructor(server: Server, roleName: string, incarnation: number) {
    super(server, roleName, incarnation);
  }

  /** The URL of the server. */
  get serverURL(): string {
    return this.server.url;
  }

  /** A second connection to the server with the same role. */
  duplicate(): ServerConnection {
    this.checkUsable();
    return new ServerConnection(this.server, this.roleName, this.incarnation);
  }

  /** Server properties (Property, Value, Mutable); read on `|`. */
  getServerProperties(): PropertyRow[] {
    return this.guardSync('getServerProperties', () => {
      this.require([], 'read');
      return this.server.properties();
    });
  }

  /** Sets a mutable server property (`max-memory`, `num-threads`); write on `|`. */
  setServerProperty(name: string, value: string | number): void {
    this.guardSync('setServerProperty', () => {
      this.require([], 'write');
      this.server.setProperty(name, String(value));
    });
  }

  /** The number of threads the server may use. */
  getNumberOfThreads(): number {
    return Number(this.getServerProperties().find((r) => r.property === 'num-threads')!.value);
  }

  /** Sets the number of threads (1 to 1024). */
  setNumberOfThreads(n: number): void {
    this.setServerProperty('num-threads', n);
  }

  /** Names of the data stores the role may read (read on `|datastores` is needed to list). */
  listDataStores(): string[] {
    return this.guardSync('listDataStores', () => {
      this.require(storeResources.list, 'read');
      return this.server.dataStoreNames().filter((name) => this.server.roles.allows(this.roleName, storeResources.store(name), 'read'));
    });
  }

  /**
   * Creates a data store. Type `parallel-nn` (default), `parallel-nw` or `parallel-ww` (older
   * names such as `par-complex-nn` are accepted); parameters such as `by-levels`, `use-DRed`,
   * `equality`. Needs write on `|datastores`.
   */
  createDataStore(name: string, type?: string, parameters: Readonly<Record<string, string>> = {}): void {
    this.guardSync('createDataStore', () => {
      this.require(storeResources.list, 'write');
      this.server.createDataStore(name, type, parameters);
    });
  }

  /**
   * Deletes a data store; its connections become invalid (and must still be closed). Needs
   * write on `|datastores` and on the store.
   */
  deleteDataStore(name: string): void {
    this.guardSync('deleteDataStore', () => {
      this.require(storeResources.list, 'write');
      this.require(storeResources.store(name), 'write');
      this.server.deleteDataStore(name);
    });
  }

  /** Opens a connection to a data store with this connection's role (read on the store). */
  newDataStoreConnection(name: string): DataStoreConnection {
    return this.guardSync('newDataStoreConnection', () => {
      this.require(storeResources.store(name), 'read');
      const store = this.server.dataStore(name);
      return new DataStoreConnection(this.server, (interrupter) => new StoreSession(this.server, store, this.roleName, interrupter), this.roleName, this.incarnation);
    });
  }

  /**
   * The replication status (`persistence=postgresql`): this node's id, URL, role (`writer` or
   * `replica`), term, the writer's id and URL, the applied version and lag of each store, and
   * every node seen recently with its last heartbeat. A server that does not replicate reports
   * `standalone`. Needs read access to the server.
   */
  getReplicationStatus(): ReplicationStatus {
    return this.guardSync('getReplicationStatus', () => {
      this.require([], 'read');
      return this.server.replicationStatus();
    });
  }

  /**
   * Component information of the server (ComponentID, Property, Value); read on `|`. Each data
   * store appears as the role may see it: only its name for a store it may not read, else as
   * {@link DataStoreConnection.getComponentInfo} shows it.
   */
  getComponentInfo(extended = false): ComponentInfoRow[] {
    return this.guardSync('getComponentInfo', () => {
      this.require([], 'read');
      const rows = this.server.componentInfo(extended);
      const roles = this.server.roles;
      const root = componentTree(rows);
      const children = root.children.map((child): Component => {
        if (child.name !== 'Data store') return child;
        const name = String(child.properties.find(([p]) => p === 'Name')?.[1] ?? '');
        if (!roles.allows(this.roleName, storeResources.store(name), 'read')) return { name: child.name, properties: [['Name', name]], children: [] };
        const store = this.server.dataStore(name);
        const state = store.facts.committed;
        return readableStoreComponent(child, state, storeAccess(roles, this.roleName, name, state.catalogue, store.facts.dictionary));
      });
      return componentRows({ ...root, children });
    });
  }

  // ---- roles ----

  /**
   * Whether this connection's role holds an access type on a resource, given by its segments
   * below the server (`[]` is the server, `['datastores', 'ds', 'rules']`, `['requests']`), directly or
   * through its memberships.
   */
  hasAccess(resource: readonly string[], access: AccessType): boolean {
    return this.guardSync('hasAccess', () => this.server.roles.allows(this.roleName, resource, access));
  }

  /** Names of the roles (read on `|roles`). */
  listRoles(): string[] {
    return this.guardSync('listRoles', () => this.server.roles.list(this.roleName));
  }

  /**
   * Creates a role (write on `|roles`). `password` is the password (type `password`, the
   * default when one is given), a hash as {@link ServerConnection.describeRole} exports it
   * (type `password-hash`), or absent (type `none`: the role cannot log in; it holds
   * privileges for its members).
   */
  async createRole(name: string, password?: string, type: PasswordSpecificationType = password === undefined ? 'none' : 'password'): Promise<void> {
    await this.guard('createRole', () => this.server.roles.create(this.roleName, name, password, type));
  }

  /** Deletes a role (write on `|roles` and on the role); its connections stop working. */
  deleteRole(name: string): void {
    this.guardSync('deleteRole', () => this.server.roles.delete(this.roleName, name));
  }

  /** A role's name and password hash (read on the role). */
  describeRole(name: string): RoleDescription {
    return this.guardSync('describeRole', () => this.server.roles.describe(this.roleName, name));
  }

  /**
   * Changes the password of this connection's role: `oldPassword` must be its current one.
   * Takes effect at once: the old password no longer authenticates anywhere.
   */
  async changeRolePassword(oldPassword: string, newPassword: string): Promise<void> {
    await this.guard('changeRolePassword', () => this.server.roles.changePassword(this.roleName, oldPassword, newPassword));
  }

  /** The privileges granted to a role directly (read on the role). */
  listPrivileges(roleName: string): Privilege[] {
    return this.guardSync('listPrivileges', () => this.server.roles.privileges(this.roleName, roleName));
  }

  /**
   * Grants access types (`read`, `write`, `grant`, `full`; an array or comma-separated) on a
   * resource specifier (`|datastores|ds`, `>datastores|*`, …) to a role; returns whether
   * anything changed. Needs grant on every resource the specifier names and write on the role.
   */
  grantPrivileges(roleName: string, resourceSpecifier: string, accessTypes: string | readonly AccessType[]): boolean {
    return this.guardSync('grantPrivileges', () => this.server.roles.grant(this.roleName, roleName, resourceSpecifier, parseAccessTypes(accessTypes)));
  }

  /** Revokes explicitly granted access types; returns whether anything changed. */
  revokePrivileges(roleName: string, resourceSpecifier: string, accessTypes: string | readonly AccessType[]): boolean {
    return this.guardSync('revokePrivileges', () => this.server.roles.revoke(this.roleName, roleName, resourceSpecifier, parseAccessTypes(accessTypes)));
  }

  /** The roles a role is a direct member of (read on the role). */
  listRoleMemberships(roleName: string): string[] {
    return this.guardSync('listRoleMemberships', () => this.server.roles.memberships(this.roleName, roleName));
  }

  /** The roles that are direct members of a role (read on the role). */
  listRoleMembers(roleName: string): string[] {
    return this.guardSync('listRoleMembers', () => this.server.roles.members(this.roleName, roleName));
  }

  /**
   * Makes `roleName` a member of `superRoleName`: it inherits every privilege of it,
   * transitively. Returns whether anything changed. Needs grant on the super role and write
   * on the member; a cycle of memberships is refused.
   */
  grantRole(roleName: string, superRoleName: string): boolean {
    return this.guardSync('grantRole', () => this.server.roles.grantMembership(this.roleName, roleName, superRoleName));
  }

  /** Ends a direct membership; returns whether there was one. */
  revokeRole(roleName: string, superRoleName: string): boolean {
    return this.guardSync('revokeRole', () => this.server.roles.revokeMembership(this.roleName, roleName, superRoleName));
  }
}
