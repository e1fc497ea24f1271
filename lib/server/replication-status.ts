/**
 * The replication status a node reports (`persistence=postgresql`): its role, term and writer,
 * its stores' applied versions and lag, and the nodes seen recently. Types only, apart from
 * the replication code, so that the public types of the package do not reach it.
 * @module
 */

/** A node's role. */
export type ReplicationRole = 'writer' | 'replica';

/** One store as a node has it. */
export interface ReplicatedStoreStatus {
  /** The store's name. */
  readonly name: string;
  /** The version this node has applied (published). */
  readonly version: number;
  /** The last version in the log when this node last looked. */
  readonly logVersion: number;
  /** How many versions this node is behind the log. */
  readonly lagVersions: number;
  /** Milliseconds since this node was last caught up with the store (0 when it is). */
  readonly lagMs: number;
  /** Records this node applied from the log (since it started) by reasoning after their explicit changes (absent without replication). */
  readonly recordsReasoned?: number;
  /** Records this node applied with the derived changes they carry, without reasoning (`persistence-replicate-derived`; absent without replication). */
  readonly recordsCarried?: number;
}

/** A node as its heartbeats describe it. */
export interface ReplicationNodeStatus {
  /** Its id. */
  readonly nodeId: string;
  /** The URL it recorded. */
  readonly url: string;
  /** Its role at its last heartbeat. */
  readonly role: string;
  /** The term it knew. */
  readonly term: number;
  /** When its last heartbeat was written. */
  readonly lastHeartbeat: Date;
  /** Milliseconds between its last heartbeat and this node's last look (PostgreSQL's clock). */
  readonly heartbeatAgeMs: number;
  /** The version of each store it had applied. */
  readonly stores: ReadonlyArray<{ readonly name: string; readonly version: number }>;
}

/** What a node of a replicated server reports (component info, `GET /replication`). */
export interface ReplicationStatus {
  /** This node's id. */
  readonly nodeId: string;
  /** This node's URL (as recorded). */
  readonly url: string;
  /** `writer`, `replica`, or `standalone` for a server that does not replicate. */
  readonly role: ReplicationRole | 'standalone';
  /** The term of the lease as this node last saw it. */
  readonly term: number;
  /** The writer's node id, when a node holds the lease. */
  readonly writerId: string | undefined;
  /** The writer's URL. */
  readonly writerUrl: string | undefined;
  /** Whether this node carries derived changes in its records and applies them (`persistence-replicate-derived`). */
  readonly replicateDerived?: boolean;
  /** This node's stores. */
  readonly stores: readonly ReplicatedStoreStatus[];
  /** The nodes seen recently (this one included). */
  readonly nodes: readonly ReplicationNodeStatus[];
}
