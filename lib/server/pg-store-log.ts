/**
 * One store of a replicated server (`persistence=postgresql`) and its log in PostgreSQL:
 *
 * - {@link PgStoreLog}: the writer's side. Each commit appends its record (the format of
 *   `persistence/transaction-record.ts`, as a server directory's log holds it) in one
 *   PostgreSQL transaction fenced by the writer's term; the commit is published only after
 *   PostgreSQL committed it. Past `persistence-compact-threshold` bytes of log since the last
 *   snapshot, the writer writes a snapshot (the format of `persistence/snapshot.ts`, built a
 *   slice at a time while writers go on) and trims the log it covers.
 * - {@link bootstrapStore}: a node's start (or a new store seen by a replica): the latest
 *   snapshot, then every record after it, in one replay transaction with one incremental
 *   reasoning run, as a server directory is loaded.
 * - {@link applyRecord}: a replica follows the log: each record is applied in a transaction of
 *   its own at the version it logged (its explicit changes, then reasoning, as on log replay),
 *   and published (commit feed, delta queries) as the writer's commit was. A record whose
 *   version is not the next one is refused ({@link LogGapError}): the store is then loaded again.
 *
 * With `persistence-replicate-derived=true` the writer's records also carry the commit's net
 * change of derived facts (read from the tables' undo information once reasoning is done),
 * and a replica with the same setting applies a record that carries them without reasoning:
 * the explicit and derived status bits are set as the record says, the catalogue (rules
 * included) is taken as it is and the rules recompiled, so the replica's facts and statuses
 * are the writer's. A commit that changed rules is carried the same way (its derived changes
 * are the whole effect of the rule change). {@link bootstrapStore} reasons once whatever the
 * records carry.
 * @module
 */
import { Interrupter } from '../model/control.js';
import type { PgDatabase } from '../persistence/pg-database.js';
import { decodeSnapshot, encodeSnapshotPaced } from '../persistence/snapshot.js';
import { decodeTransaction, encodeTransaction } from '../persistence/transaction-record.js';
import { type TransactionChanges, transactionChanges } from '../storage/change-log.js';
import { DERIVED } from '../storage/tuple-table.js';
import type { WriteTransaction } from '../storage/fact-store.js';
import type { DataStore } from './data-store.js';
import type { StoreLog } from './persistence-target.js';
import type { StoreLoadReport } from './recovery.js';
import { beginReplay, type CompactionPoint, loggedVersion, Pacer, replay, restoreSnapshot, snapshotSections, transactionRecord } from './store-persistence.js';

/** What a store's log needs from the node (see `replication.ts`). */
export interface LogContext {
  /** The tables. */
  readonly db: PgDatabase;
  /** This node's id. */
  readonly nodeId: string;
  /** The term to append under. @throws ReplicaWriteError when this node is not the writer. */
  writerTerm(): number;
  /** Log bytes since the last snapshot past which a snapshot is written. */
  readonly compactThreshold: number;
  /** The highest version of a store the log may be trimmed to (the least a live replica applied). */
  trimLimit(storeId: string): number;
  /** Whether records carry their derived changes, and records that carry them are applied without reasoning. */
  readonly replicateDerived: boolean;
}

/** Records read from PostgreSQL at a time. */
const READ_BATCH = 256;

/** A record's version does not follow the store's (records were trimmed meanwhile): the store is loaded again. */
export class LogGapError extends Error {
  /** Creates the error. */
  constructor(store: string, have: number, next: number) {
    super(`data store '${store}' is at version ${have}, but the next record in the log is version ${next} (older records were trimmed after a snapshot): it is loaded again from the snapshot`);
    this.name = 'LogGapError';
  }
}

/** @internal The log of one store in PostgreSQL (works on the internal DataStore). */
export class PgStoreLog implements StoreLog {
  /** Terms of the dictionary already in the snapshot or the log. */
  private loggedTerms = 0;
  /** SKOLEM terms whose arguments are already in the snapshot or the log. */
  private loggedSkolems = 0;
  /** Bytes appended since the last snapshot (as far as this node knows). */
  private logBytes = 0;
  private compacting: Promise<void> | undefined;
  private closed = false;

  constructor(
    private readonly context: LogContext,
    /** The store's unique id (the key of its rows). */
    readonly storeId: string,
  ) {}

  /** Notes that the store's dictionary is wholly logged (after a load, or records applied). */
  noteLogged(store: DataStore, bytes = 0): void {
    this.loggedTerms = store.facts.dictionary.size;
    this.loggedSkolems = store.facts.dictionary.skolemCount;
    this.logBytes += bytes;
  }

  /** Appends the transaction's record under the writer's term; resolves once PostgreSQL committed it. */
  async append(store: DataStore, tx: WriteTransaction, explicit: TransactionChanges): Promise<void> {
    const term = this.context.writerTerm();
    // reasoning is done when a commit is logged: the derived changes are final
    const derived = this.context.replicateDerived ? transactionChanges(tx, DERIVED) : undefined;
    const body = encodeTransaction(transactionRecord(store, tx, explicit, this.loggedTerms, this.loggedSkolems, derived));
    await this.context.db.append(term, this.context.nodeId, this.storeId, store.name, tx.version, body);
    let bytes = 0;
    for (const b of body) bytes += b.length;
    this.noteLogged(store, bytes);
  }

  /** Whether the log has grown past the threshold since the last snapshot. */
  get wantsCompaction(): boolean {
    return !this.closed && this.logBytes > this.context.compactThreshold;
  }

  /** Writes a snapshot of the committed state to PostgreSQL and trims the log it covers (writer only). */
  compact(store: DataStore, timeoutMs: number): Promise<void> {
    this.compacting ??= this.snapshotNow(store, timeoutMs).finally(() => (this.compacting = undefined));
    return this.compacting;
  }

  private async snapshotNow(store: DataStore, timeoutMs: number): Promise<void> {
    const term = this.context.writerTerm();
    const facts = store.facts;
    // the write lock only fixes the point: a reader of the committed version and the dictionary's size
    const tx = await beginReplay(store, timeoutMs);
    let point: CompactionPoint;
    try {
      point = { view: facts.read(), terms: facts.dictionary.size, skolems: facts.dictionary.skolemCount, nextTableId: facts.nextTableIdentifier, sequence: facts.committed.version };
    } finally {
      facts.rollback(tx);
    }
    const covered = this.logBytes;
    try {
      const pacer = new Pacer();
      const sections = await snapshotSections(facts.dictionary, point, pacer);
      const { chunks, size } = await encodeSnapshotPaced(sections, point.view.version, () => pacer.pause());
      const bytes = new Uint8Array(size);
      let at = 0;
      for (const c of chunks) {
        bytes.set(c, at);
        at += c.length;
        await pacer.pause();
      }
      const version = point.view.version;
      await this.context.db.writeSnapshot(term, this.context.nodeId, this.storeId, store.name, version, bytes, this.context.trimLimit(this.storeId));
      this.logBytes = Math.max(0, this.logBytes - covered);
    } finally {
      facts.release(point.view);
    }
  }

  /** Waits for a snapshot under way. */
  async close(): Promise<void> {
    this.closed = true;
    await this.compacting?.catch(() => undefined);
  }
}

/**
 * Loads a store (new and empty) from PostgreSQL: its latest snapshot, then every record after
 * it in one replay transaction, reasoning once over the whole (as a server directory is
 * loaded). Returns what was loaded; the store is then at the last logged version.
 * @internal
 */
export async function bootstrapStore(store: DataStore, db: PgDatabase, storeId: string): Promise<StoreLoadReport> {
  const facts = store.facts;
  const snapshot = await db.readSnapshot(storeId);
  const tx = await beginReplay(store, 0);
  let committed = false;
  try {
    let version = 0;
    let materialised = true;
    if (snapshot !== undefined) {
      const snap = await decodeSnapshot(`snapshot of data store '${store.name}' (PostgreSQL)`, snapshot.bytes);
      ({ version, materialised } = restoreSnapshot(store, tx, snap));
    }
    const baseRules = tx.catalogue.rules;
    const changeLog = store.changeLog(tx);
    if (!materialised) changeLog.applyAtOnce();
    else if (baseRules.size > 0) changeLog.track();
    let records = 0;
    for (;;) {
      const rows = await db.readLog(storeId, version, READ_BATCH);
      for (const row of rows) {
        if (row.version !== version + 1) throw new LogGapError(store.name, version, row.version);
        const origin = { path: `log of data store '${store.name}' (PostgreSQL)`, offset: row.version };
        const record = decodeTransaction(row.body, origin);
        replay(store, tx, record, origin);
        version = loggedVersion(record, origin) ?? row.version;
        records++;
      }
      if (rows.length < READ_BATCH) break;
    }
    const mounted = await store.attachMountedTables(tx.catalogue);
    let rematerialised = false;
    let maintained = false;
    if (materialised) {
      if (tx.catalogue.rules.size > 0 || baseRules.size > 0) store.reasoner.recompile(tx);
      store.reasoner.noteRuleChanges(tx, baseRules);
      maintained = (await store.reasoner.reason(tx, new Interrupter())) !== undefined;
    } else if (tx.catalogue.rules.size > 0) {
      rematerialised = true;
      store.reasoner.recompile(tx);
      store.reasoner.requestRecompute(tx);
      await store.reasoner.reason(tx, new Interrupter());
    }
    mounted.loaded();
    if (version === 0) {
      // nothing logged yet: the store stays at its empty version 0, which the first record follows
      store.rollback(tx);
    } else {
      facts.commit(tx);
      store.reasoner.committedTransaction(tx);
    }
    committed = true;
    facts.restoreVersion(version);
    return { snapshot: snapshot !== undefined, records, rematerialised, maintained, cut: undefined, unavailableSources: mounted.unavailable, recommitted: 0 };
  } finally {
    if (!committed) store.rollback(tx);
  }
}

/** How a replica applied a record ({@link applyRecord}). */
export type AppliedHow = 'skipped' | 'reasoned' | 'carried';

/**
 * Applies one record of the writer's log to a replica's store, in a transaction of its own
 * at the version it logged, and publishes it. `timeoutMs` bounds the wait for the write lock.
 * With `useCarried`, a record that carries its derived changes is applied without reasoning;
 * otherwise (or for a record without them) its explicit changes are applied and reasoning
 * runs. Returns how the record was applied ('skipped' when the store has it already).
 * @throws LogGapError when the record does not follow the store's version.
 * @internal
 */
export async function applyRecord(store: DataStore, row: { readonly version: number; readonly body: Uint8Array }, timeoutMs: number, useCarried = false): Promise<AppliedHow> {
  const facts = store.facts;
  if (row.version <= facts.committed.version) return 'skipped';
  const tx = await beginReplay(store, timeoutMs);
  let how: AppliedHow;
  try {
    // checked under the write lock: the writer's own commit of this version may have just been published
    const have = facts.committed.version;
    if (row.version <= have) {
      facts.rollback(tx);
      return 'skipped';
    }
    if (row.version !== have + 1) throw new LogGapError(store.name, have, row.version);
    const origin = { path: `log of data store '${store.name}' (PostgreSQL)`, offset: row.version };
    const record = decodeTransaction(row.body, origin);
    const rules = tx.catalogue.rules;
    how = useCarried && record.derived !== undefined ? 'carried' : 'reasoned';
    replay(store, tx, record, origin, how === 'carried' ? 'carried' : 'reason');
    // carried: the derived changes are the rule change's whole effect, nothing is left to reason
    if (how === 'reasoned') store.reasoner.noteRuleChanges(tx, rules);
    if (tx.catalogue.rules !== rules) store.reasoner.recompile(tx);
  } catch (e) {
    if (facts.activeWriter === tx) store.rollback(tx);
    throw e;
  }
  await store.commitFollowed(tx, new Interrupter());
  return how;
}
