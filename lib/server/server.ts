/**
 * The server: roles, server properties and the registry of data stores. Servers are
 * registered under a URL (`local` by default) so connections can be opened by URL.
 * @module
 */
import { availableParallelism, totalmem } from 'node:os';
import { Map as IMap } from 'immutable';
import { BadRequestError, DuplicateResourceError, UnknownResourceError } from '../model/errors.js';
import { componentRows, type ComponentInfoRow } from './component-info.js';
import { DataStore, type PropertyRow } from './data-store.js';
import { GUEST_ROLE, RoleDatabase } from './roles.js';
import { GIT_SHA, VERSION } from './version.js';
import { type ReadPolicy, readPolicyOf } from './read-policy.js';

/** How to create a server. */
export interface ServerOptions {
  /** Name of the first role, which holds every privilege (`full` on `>`). */
  readonly roleName: string;
  /** Its password. */
  readonly password: string;
  /**
   * Server parameters, listed as `parameters.<name>` properties. `create-guest-role=true`
   * creates the role `guest` (no password, no privileges) that requests without credentials
   * act as; without it such requests are refused.
   */
  readonly parameters?: Readonly<Record<string, string>>;
  /** The URL connections name this server by (default `local`). */
  readonly url?: string;
}

const registry = new Map<string, Server>();

/** A quadlog server holding named data stores. */
export class Server {
  /** @internal The roles of the server, their privileges and memberships. */
  readonly roles = new RoleDatabase();
  private stores = IMap<string, DataStore>();
  private maxMemory = totalmem();
  private numThreads = availableParallelism();
  private readonly parameters: Readonly<Record<string, string>>;
  private closed = false;
  /**
   * @internal What imports by IRI may read (text/uri-list bodies, SPARQL LOAD, `{ iris }`
   * sources): from the server parameters `sandbox-directory` and
   * `allowed-url-schemes-on-import`, checked when the server is created.
   */
  readonly readPolicy: ReadPolicy;

  private constructor(
    /** The URL of the server in this process. */
    readonly url: string,
    options: ServerOptions,
  ) {
    this.parameters = { ...(options.parameters ?? {}) };
    this.readPolicy = readPolicyOf(this.parameters);
  }

  /** Creates and registers a server with a first role (and the guest role when the parameters ask for it). */
  static async create(options: ServerOptions): Promise<Server> {
    const url = options.url ?? 'local';
    if (registry.has(url)) throw new DuplicateResourceError(`a server is already registered at '${url}'`);
    if (!options.roleName || options.roleName === GUEST_ROLE) throw new BadRequestError(`the first role needs a name other than '${GUEST_ROLE}'`);
    const guest = options.parameters?.['create-guest-role'] ?? 'false';
    if (guest !== 'true' && guest !== 'false') throw new BadRequestError(`invalid value '${guest}' for server parameter 'create-guest-role': true or false`);
    const server = new Server(url, options);
    registry.set(url, server);
    try {
      await server.roles.createFirst(options.roleName, options.password);
      if (guest === 'true') server.roles.createUnchecked(GUEST_ROLE);
    } catch (e) {
      registry.delete(url);
      throw e;
    }
    return server;
  }

  /** The server registered at a URL. */
  static lookup(url: string): Server {
    const server = registry.get(url);
    if (!server) throw new UnknownResourceError(`no server is running at '${url}' (create one with Server.create)`);
    return server;
  }

  /** Unregisters the server and deletes its stores. */
  shutdown(): void {
    if (this.closed) return;
    this.closed = true;
    for (const store of this.stores.values()) store.markDeleted();
    this.stores = IMap();
    registry.delete(this.url);
  }

  /** @internal Server properties (Property, Value, Mutable). */
  properties(): PropertyRow[] {
    const used = process.memoryUsage().rss;
    const rows: PropertyRow[] = [
      { property: 'version', value: VERSION, mutable: false },
      { property: 'git-SHA', value: GIT_SHA, mutable: false },
      { property: 'max-memory', value: String(this.maxMemory), mutable: true },
      { property: 'available-memory', value: String(Math.max(0, this.maxMemory - used)), mutable: false },
      { property: 'num-threads', value: String(this.numThreads), mutable: true },
    ];
    for (const [k, v] of Object.entries(this.parameters)) rows.push({ property: `parameters.${k}`, value: v, mutable: false });
    return rows;
  }

  /** @internal Sets a mutable server property (max-memory, num-threads). */
  setProperty(name: string, value: string): void {
    const known = this.properties().find((r) => r.property === name);
    if (!known) throw new BadRequestError(`unknown server property '${name}'`);
    if (!known.mutable) throw new BadRequestError(`server property '${name}' cannot be changed`);
    if (!/^\d+$/.test(value)) throw new BadRequestError(`invalid value '${value}' for '${name}': a positive integer is required`);
    const n = Number(value);
    if (name === 'num-threads') {
      if (n < 1 || n > 1024) throw new BadRequestError(`invalid value '${value}' for 'num-threads': from 1 to 1024`);
      this.numThreads = n;
    } else {
      if (n < 1 << 24) throw new BadRequestError(`invalid value '${value}' for 'max-memory': at least 16777216 bytes`);
      this.maxMemory = n;
    }
  }

  /** @internal Creates a data store. */
  createDataStore(name: string, type: string | undefined, parameters: Readonly<Record<string, string>>): DataStore {
    if (this.stores.has(name)) throw new DuplicateResourceError(`data store '${name}' already exists`);
    const store = new DataStore(name, type, parameters, this.readPolicy);
    this.stores = this.stores.set(name, store);
    return store;
  }

  /** @internal Deletes a data store; its connections become invalid. */
  deleteDataStore(name: string): void {
    const store = this.dataStore(name);
    store.markDeleted();
    this.stores = this.stores.delete(name);
  }

  /** @internal The data store with a name. */
  dataStore(name: string): DataStore {
    const store = this.stores.get(name);
    if (!store) throw new UnknownResourceError(`data store '${name}' does not exist`);
    return store;
  }

  /** @internal Names of the data stores, in creation order. */
  dataStoreNames(): string[] {
    return [...this.stores.keys()];
  }

  /** @internal Component information of the server (its stores as children). */
  componentInfo(extended: boolean): ComponentInfoRow[] {
    const stores = [...this.stores.values()].map((s) => s.component(s.facts.committed, extended));
    return componentRows({
      name: 'Server',
      properties: [
        ['Version', VERSION],
        ['Number of data stores', stores.length],
        ...(extended ? ([['Heap bytes used', process.memoryUsage().heapUsed]] as Array<[string, number]>) : []),
      ],
      children: stores,
    });
  }
}
