/**
 * A node of a replicated server (`persistence=postgresql`): whether it is the writer or a
 * replica, and the work that keeps it so.
 *
 * - **The lease.** Every `persistence-lease-time` / 3 the writer renews its lease (a row of
 *   `lease` holding the term, the holder and an expiry on PostgreSQL's clock). A replica that
 *   finds the lease expired (or free) takes it with the term raised by one, catches up with
 *   the whole log and the catalogue, and only then accepts writes. A writer that cannot renew
 *   (the lease moved on, or PostgreSQL cannot be reached for a lease time) becomes a replica.
 *   Whatever the timers do, a deposed writer never appends: every append checks the term in
 *   the same PostgreSQL transaction (`persistence/pg-database.ts`).
 * - **Following.** LISTEN wakes the node at every append and catalogue change, and a poll
 *   every lease time / 6 (at most 1 s) covers lost notifications. A replica applies each
 *   store's new records in version order, exactly once (`pg-store-log.ts` `applyRecord`), and
 *   follows the catalogue (stores created and deleted) and the role database. The writer only
 *   looks for records it did not publish (a commit whose acknowledgement was lost after
 *   PostgreSQL committed it) and applies them too.
 * - **Heartbeats and status.** Each node writes its role, term and applied version per store
 *   to `nodes` with every lease tick; {@link Replication.status} gives this node's view and
 *   every node seen within the last 10 lease times.
 * @module
 */
import { ReplicaWriteError } from '../model/errors.js';
import type { PgDatabase, NodeRow } from '../persistence/pg-database.js';
import type { DataStore } from './data-store.js';
import type { PostgresSettings } from './persistence-parameters.js';
import { applyRecord, LogGapError, type LogContext, type PgStoreLog } from './pg-store-log.js';

export type { ReplicatedStoreStatus, ReplicationNodeStatus, ReplicationRole, ReplicationStatus } from './replication-status.js';
import type { ReplicatedStoreStatus, ReplicationNodeStatus, ReplicationRole, ReplicationStatus } from './replication-status.js';

/** What the node needs of its server. @internal */
export interface ReplicatedServer {
  /** The server's stores. */
  stores(): Iterable<DataStore>;
  /** The log of a store (undefined before it is attached). */
  logOf(store: DataStore): PgStoreLog | undefined;
  /** Makes the server's stores and roles those of PostgreSQL (a replica, or a new writer). */
  syncFromDatabase(): Promise<void>;
  /** Loads a store again from its snapshot and log (it missed trimmed records). */
  reloadStore(store: DataStore): Promise<void>;
}

/** Nodes whose heartbeat is older than this many lease times are not shown or waited for. */
const SEEN_LEASES = 10;

/** The role of a replicated server's node, its lease and its following of the log. @internal */
export class Replication implements LogContext {
  private roleNow: ReplicationRole = 'replica';
  /** Whether the writer has caught up since it took the lease (writes are refused until then). */
  private ready = false;
  /** Writes waiting for the node to be ready (see {@link Replication.awaitWritable}). */
  private readonly readyWaiters: Array<() => void> = [];
  private termNow = 0;
  private writer: { id: string | undefined; url: string | undefined } = { id: undefined, url: undefined };
  private lastRenewal = 0;
  private generation = -1;
  private timers: NodeJS.Timeout[] = [];
  private polling: Promise<void> | undefined;
  private pollAgain = false;
  private stopListening: (() => Promise<void>) | undefined;
  private listening: Promise<void> | undefined;
  private closed = false;
  private seen: readonly NodeRow[] = [];
  /** Per store unique id: the last logged version seen, and since when the node lags it. */
  private readonly lag = new Map<string, { logVersion: number; since: number | undefined }>();
  /** Per store unique id: records applied by reasoning and with carried derived changes. */
  private readonly applied = new Map<string, { reasoned: number; carried: number }>();
  private server: ReplicatedServer | undefined;
  /** The last error of the background work (shown in component info), if any. */
  lastError: string | undefined;

  constructor(
    /** The tables. */
    readonly db: PgDatabase,
    private readonly settings: PostgresSettings,
    private url: string,
  ) {}

  /** This node's id. */
  get nodeId(): string {
    return this.settings.nodeId;
  }

  /** Log bytes since the last snapshot past which the writer writes a snapshot. */
  get compactThreshold(): number {
    return this.settings.compactThreshold;
  }

  /** Whether records carry derived changes (as the writer) and are applied without reasoning (as a replica). */
  get replicateDerived(): boolean {
    return this.settings.replicateDerived;
  }

  /** The node's role now. */
  get role(): ReplicationRole {
    return this.roleNow;
  }

  /** Whether the node accepts writes: it holds the lease and has caught up. */
  get writable(): boolean {
    return this.roleNow === 'writer' && this.ready && !this.closed;
  }

  /** Sets the URL recorded for this node (written with the next heartbeat and lease renewal). */
  setUrl(url: string): void {
    this.url = url;
  }

  /** The URL recorded for this node. */
  get nodeUrl(): string {
    return this.url;
  }

  /** The term to append under. @throws ReplicaWriteError when this node does not accept writes. */
  writerTerm(): number {
    this.checkWritable();
    return this.termNow;
  }

  /**
   * Resolves once the node accepts writes. A node that holds the lease but is still catching
   * up with the log (just after it took over) is waited for, at most `timeoutMs`.
   * @throws ReplicaWriteError when the node does not accept writes by then (naming the writer).
   */
  async awaitWritable(timeoutMs: number): Promise<void> {
    if (this.writable) return;
    if (this.roleNow === 'writer' && !this.closed) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, timeoutMs);
        this.readyWaiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    this.checkWritable();
  }

  /** Sets whether the node is ready for writes, and wakes the writes waiting for it (either way). */
  private setReady(ready: boolean): void {
    this.ready = ready;
    for (const wake of this.readyWaiters.splice(0)) wake();
  }

  /** @throws ReplicaWriteError when this node does not accept writes (naming the writer). */
  checkWritable(): void {
    if (this.writable) return;
    if (this.roleNow === 'writer') throw new ReplicaWriteError(this.nodeId, { id: this.nodeId, url: this.url }, { cause: new Error('the writer is catching up with the log') });
    throw new ReplicaWriteError(this.nodeId, this.writer);
  }

  /**
   * Tries to take the lease at start-up (free or expired); returns the role taken. The node
   * is not ready for writes until {@link Replication.start} (its stores loaded).
   */
  async claim(): Promise<ReplicationRole> {
    const term = await this.db.takeLease(this.nodeId, this.url, this.settings.leaseTimeMs);
    if (term !== undefined) {
      this.roleNow = 'writer';
      this.termNow = term;
      this.lastRenewal = performance.now();
      this.writer = { id: this.nodeId, url: this.url };
    } else await this.readLease();
    return this.roleNow;
  }

  private async readLease(): Promise<void> {
    const lease = await this.db.lease();
    this.termNow = Math.max(this.termNow, lease.term);
    this.writer = lease.holder !== undefined && (lease.remainingMs ?? 0) > 0 ? { id: lease.holder, url: lease.url } : { id: undefined, url: undefined };
  }

  /** Starts the lease ticks, the polls and LISTEN, once the server's stores are loaded. */
  async start(server: ReplicatedServer, generation: number): Promise<void> {
    this.server = server;
    this.generation = generation;
    if (this.roleNow === 'writer') this.setReady(true);
    const lease = this.settings.leaseTimeMs;
    this.timers.push(setInterval(() => void this.tick(), Math.max(30, Math.floor(lease / 3))));
    this.timers.push(setInterval(() => this.wake(), Math.min(1000, Math.max(20, Math.floor(lease / 6)))));
    for (const t of this.timers) t.unref();
    await this.heartbeat().catch((e: unknown) => this.noteError(e));
    this.listen();
  }

  /** Keeps a LISTEN connection open (reconnecting after a failure, at the next tick). */
  private listen(): void {
    if (this.closed || this.listening !== undefined || this.stopListening !== undefined) return;
    this.listening = this.db
      .listen(
        () => this.wake(),
        () => {
          this.stopListening = undefined;
        },
      )
      .then(
        (stop) => {
          if (this.closed) void stop();
          else this.stopListening = stop;
        },
        (e: unknown) => this.noteError(e),
      )
      .finally(() => (this.listening = undefined));
  }

  private noteError(e: unknown): void {
    this.lastError = e instanceof Error ? e.message : String(e);
  }

  /** The lease tick: renew (writer) or look for an expired lease (replica), then the heartbeat. */
  private async tick(): Promise<void> {
    if (this.closed) return;
    try {
      if (this.roleNow === 'writer') {
        let renewed: boolean;
        try {
          renewed = await this.db.renewLease(this.nodeId, this.termNow, this.url, this.settings.leaseTimeMs);
        } catch (e) {
          // PostgreSQL out of reach: past a lease time another node may hold the lease
          if (performance.now() - this.lastRenewal > this.settings.leaseTimeMs) this.stepDown();
          throw e;
        }
        if (renewed) this.lastRenewal = performance.now();
        else {
          this.stepDown();
          await this.readLease();
        }
      } else {
        await this.readLease();
        if (this.writer.id === undefined) await this.takeOver();
      }
      await this.heartbeat();
      this.lastError = undefined;
      this.listen();
    } catch (e) {
      this.noteError(e);
    }
  }

  private stepDown(): void {
    if (this.roleNow !== 'writer') return;
    this.roleNow = 'replica';
    this.setReady(false);
  }

  /** Takes an expired lease: term + 1, then catches up before accepting writes. */
  private async takeOver(): Promise<void> {
    const term = await this.db.takeLease(this.nodeId, this.url, this.settings.leaseTimeMs);
    if (term === undefined) return;
    this.roleNow = 'writer';
    this.ready = false;
    this.termNow = term;
    this.lastRenewal = performance.now();
    this.writer = { id: this.nodeId, url: this.url };
    // the whole log up to now: the old writer can append nothing more (its term is past)
    this.generation = -1;
    await this.pollNow();
    if (this.roleNow === 'writer' && this.termNow === term) this.setReady(true);
  }

  private async heartbeat(): Promise<void> {
    const stores: Array<{ name: string; id: string; version: number }> = [];
    for (const s of this.server?.stores() ?? []) stores.push({ name: s.name, id: s.uniqueId, version: s.facts.committed.version });
    await this.db.heartbeat(this.nodeId, this.url, this.roleNow, this.termNow, { stores });
    this.seen = await this.db.nodes(this.settings.leaseTimeMs * SEEN_LEASES);
  }

  /** Asks for a poll (coalesced with one under way). */
  private wake(): void {
    if (this.closed) return;
    if (this.polling) {
      this.pollAgain = true;
      return;
    }
    void this.pollNow().catch((e: unknown) => this.noteError(e));
  }

  /** Runs polls until none is asked for; resolves when the last ends. */
  private pollNow(): Promise<void> {
    if (this.polling) {
      this.pollAgain = true;
      return this.polling;
    }
    this.polling = (async () => {
      try {
        do {
          this.pollAgain = false;
          await this.poll();
        } while (this.pollAgain && !this.closed);
      } finally {
        this.polling = undefined;
      }
    })();
    return this.polling;
  }

  /** One look at PostgreSQL: catalogue and roles (not on a ready writer), then each store's new records. */
  private async poll(): Promise<void> {
    const server = this.server;
    if (server === undefined || this.closed) return;
    if (!this.writable) {
      const generation = await this.db.generation();
      if (generation !== this.generation) {
        await server.syncFromDatabase();
        this.generation = generation;
      }
    }
    const last = await this.db.lastVersions();
    for (const store of server.stores()) {
      const logVersion = last.get(store.uniqueId) ?? 0;
      let entry = this.lag.get(store.uniqueId);
      if (entry === undefined) this.lag.set(store.uniqueId, (entry = { logVersion, since: undefined }));
      entry.logVersion = Math.max(entry.logVersion, logVersion);
      if (store.facts.committed.version >= logVersion) {
        entry.since = undefined;
        continue;
      }
      entry.since ??= Date.now();
      await this.follow(store, logVersion);
      if (store.facts.committed.version >= entry.logVersion) entry.since = undefined;
    }
  }

  /** Applies a store's records up to `until`. */
  private async follow(store: DataStore, until: number): Promise<void> {
    const server = this.server!;
    while (store.facts.committed.version < until && !this.closed && !store.isDeleted) {
      const rows = await this.db.readLog(store.uniqueId, store.facts.committed.version, 256);
      if (rows.length === 0) return;
      try {
        for (const row of rows) {
          const how = await applyRecord(store, row, 60_000, this.settings.replicateDerived);
          if (how === 'skipped') continue;
          let counts = this.applied.get(store.uniqueId);
          if (counts === undefined) this.applied.set(store.uniqueId, (counts = { reasoned: 0, carried: 0 }));
          counts[how]++;
        }
      } catch (e) {
        if (!(e instanceof LogGapError)) throw e;
        await server.reloadStore(store);
        return;
      }
      server.logOf(store)?.noteLogged(store);
    }
  }

  /** Waits until `store` has published at least `version`, polling PostgreSQL meanwhile; false on timeout. */
  async awaitVersion(store: DataStore, version: number, timeoutMs: number): Promise<boolean> {
    const deadline = performance.now() + timeoutMs;
    while (store.facts.committed.version < version) {
      if (performance.now() >= deadline || this.closed) return false;
      this.wake();
      await new Promise((resolve) => setTimeout(resolve, Math.min(10, Math.max(1, deadline - performance.now()))));
    }
    return true;
  }

  /** The highest version of a store its log may be trimmed to: the least any live node has applied. */
  trimLimit(storeId: string): number {
    let limit = Number.MAX_SAFE_INTEGER;
    for (const node of this.seen) {
      if (node.nodeId === this.nodeId || node.heartbeatAgeMs > this.settings.leaseTimeMs * 3) continue;
      const stores = (node.status as { stores?: Array<{ id?: unknown; version?: unknown }> } | null)?.stores ?? [];
      const mine = stores.find((s) => s.id === storeId);
      if (mine !== undefined && typeof mine.version === 'number') limit = Math.min(limit, mine.version);
    }
    return limit;
  }

  /** This node's view of the cluster. */
  status(): ReplicationStatus {
    const stores: ReplicatedStoreStatus[] = [];
    for (const s of this.server?.stores() ?? []) {
      const version = s.facts.committed.version;
      const entry = this.lag.get(s.uniqueId);
      const logVersion = Math.max(version, entry?.logVersion ?? 0);
      const counts = this.applied.get(s.uniqueId);
      stores.push({ name: s.name, version, logVersion, lagVersions: logVersion - version, lagMs: entry?.since === undefined || logVersion === version ? 0 : Date.now() - entry.since, recordsReasoned: counts?.reasoned ?? 0, recordsCarried: counts?.carried ?? 0 });
    }
    const nodes: ReplicationNodeStatus[] = this.seen.map((n) => ({
      nodeId: n.nodeId,
      url: n.url,
      role: n.role,
      term: n.term,
      lastHeartbeat: n.heartbeat,
      heartbeatAgeMs: n.heartbeatAgeMs,
      stores: ((n.status as { stores?: Array<{ name: string; version: number }> } | null)?.stores ?? []).map((x) => ({ name: x.name, version: x.version })),
    }));
    return { nodeId: this.nodeId, url: this.url, role: this.roleNow, term: this.termNow, writerId: this.writer.id, writerUrl: this.writer.url, replicateDerived: this.settings.replicateDerived, stores, nodes };
  }

  /** Stops the work; a writer gives up its lease so that a replica takes it at once. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.setReady(false);
    for (const t of this.timers) clearInterval(t);
    await this.polling?.catch(() => undefined);
    await this.listening?.catch(() => undefined);
    await this.stopListening?.();
    if (this.roleNow === 'writer') await this.db.releaseLease(this.nodeId, this.termNow);
    this.roleNow = 'replica';
    await this.db.close();
  }
}
