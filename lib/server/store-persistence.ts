/**
 * The persistence of one data store in a server directory (see `lib/persistence/layout.ts`):
 * its snapshot (dictionary with the arguments of its SKOLEM terms, explicit and derived facts
 * per tuple table, catalogue as JSON, the store's version) and its transaction log (one record
 * per committed transaction: the new dictionary terms, the new SKOLEM terms' arguments, the
 * net change of explicit facts, the whole catalogue when it changed, and the version the
 * transaction published).
 *
 * Loading reads the snapshot and replays the log in one write transaction. When the snapshot
 * holds the materialisation (or there is no snapshot: the store started empty), the replayed
 * explicit and rule changes are followed by one incremental maintenance run over their union;
 * only a snapshot without that mark is rematerialised from scratch. The store's version then
 * continues from the last one logged.
 *
 * Compaction holds the store's write lock only to fix its point: it takes a reader of the
 * committed version (which keeps that version's rows visible, see `storage/fact-store.ts`),
 * notes the dictionary's size, and seals the log (renames it to `transactions.<n>.qlog`) and
 * starts a new one after it, so that the commits that follow go to the new log. Then, while
 * writers go on, it writes the snapshot of exactly that version from the reader's views, a
 * slice at a time (yielding to the event loop every few milliseconds), installs it (temporary
 * file, fsync, rename, fsync of the directory) and deletes the sealed logs. A crash at any
 * step leaves files that load whole: before the install the old snapshot, the sealed logs
 * and the new log; after it the new snapshot and the new log (sealed logs left over hold
 * nothing newer than the snapshot and are deleted). Loading replays every transaction once:
 * it skips the records at or below what the snapshot and the logs read before hold.
 * @module
 */
import type { StoreLoadReport } from './recovery.js';
import { randomBytes } from 'node:crypto';
import { stat, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { OrderedMap } from 'immutable';
import { parseDatalog } from '../formats/datalog-parser.js';
import { Interrupter } from '../model/control.js';
import { CorruptFileError, errorCode } from '../persistence/errors.js';
import { fsyncDirectory } from '../persistence/atomic-file.js';
import { listSealedLogs, sealedLogFile, type StoreLayout } from '../persistence/layout.js';
import { type Durability, type LogFileIO, type LogRecord, readLogBase, TransactionLog } from '../persistence/log.js';
import { type LoadedSnapshot, readSnapshot, type SnapshotSection, writeSnapshot } from '../persistence/snapshot.js';
import { applyTerms, type CatalogueOperation, collectTerms, decodeTransaction, encodeTransaction, type JsonValue, type NewTerms, type TableChanges, type TransactionRecord } from '../persistence/transaction-record.js';
import { type AxiomEntry, Catalogue, MEMORY_TABLE_TYPE, type SavedQuery, type TupleTableInfo } from '../storage/catalogue.js';
import type { TransactionChanges } from '../storage/change-log.js';
import type { Snapshot, WriteTransaction } from '../storage/fact-store.js';
import type { TermDictionary } from '../model/dictionary.js';
import { DERIVED, EXPLICIT } from '../storage/tuple-table.js';
import type { DataStore } from './data-store.js';
import type { StoreLog } from './persistence-target.js';
import type { AccessFor, SavedDeltaQuery } from './delta-queries.js';
import { DELTA_QUERY_DIRECTORY, DeltaQueryFiles } from './delta-query-persistence.js';
import { join } from 'node:path';

/** How a persistent server writes its stores. */
export interface PersistenceSettings {
  /** `sync`: a commit returns after its record is flushed; `relaxed`: once it is written (see `log.ts`). */
  readonly durability: Durability;
  /** Compact a store when its log grows past this many bytes (and past its snapshot's size). */
  readonly compactThreshold: number;
  /** @internal A test seam wrapping the log's file operations (to inject write failures). */
  readonly wrapLogIO?: ((io: LogFileIO) => LogFileIO) | undefined;
}

/** The catalogue as the log and snapshots keep it. */
interface CatalogueJson {
  readonly nextTableId: number;
  readonly tables: readonly TupleTableInfo[];
  readonly prefixes: ReadonlyArray<readonly [string, string]>;
  readonly baseIRI: string;
  readonly rules: ReadonlyArray<{ readonly key: string; readonly domain: string }>;
  readonly commitProcedure: string;
  readonly axioms: ReadonlyArray<readonly [string, AxiomEntry]>;
  readonly statistics: ReadonlyArray<readonly [string, Readonly<Record<string, string>>]>;
  /** The saved queries, in their order; absent when there are none (and in catalogues written before they existed). */
  readonly savedQueries?: readonly SavedQuery[];
}

/** The JSON form of a catalogue. */
export function catalogueToJson(catalogue: Catalogue, nextTableId: number): JsonValue {
  const value: CatalogueJson = {
    nextTableId,
    tables: [...catalogue.tupleTables.values()],
    prefixes: [...catalogue.prefixes.entries()],
    baseIRI: catalogue.baseIRI,
    rules: [...catalogue.rules.values()].map((r) => ({ key: r.key, domain: r.domain })),
    commitProcedure: catalogue.commitProcedure,
    axioms: [...catalogue.axioms.entries()],
    statistics: [...catalogue.statistics.entries()],
    // left out when empty: the catalogue of a store without saved queries is written as before they existed
    ...(catalogue.savedQueries.size > 0 ? { savedQueries: [...catalogue.savedQueries.values()] } : {}),
  };
  return value as unknown as JsonValue;
}

/** A catalogue read back from its JSON form, with the physical tables it needs (id → arity). */
export function catalogueFromJson(value: unknown, where: { path: string; offset: number }): { catalogue: Catalogue; nextTableId: number; tables: Map<number, number> } {
  const bad = (why: string): never => {
    throw new CorruptFileError(where.path, where.offset, `invalid catalogue: ${why}`);
  };
  if (typeof value !== 'object' || value === null) return bad('not an object');
  const v = value as Partial<CatalogueJson>;
  if (!Array.isArray(v.tables) || !Array.isArray(v.prefixes) || !Array.isArray(v.rules) || !Array.isArray(v.axioms) || !Array.isArray(v.statistics)) return bad('a list is missing');
  if (typeof v.baseIRI !== 'string' || typeof v.commitProcedure !== 'string' || typeof v.nextTableId !== 'number') return bad('a field is missing');
  const infos: readonly TupleTableInfo[] = v.tables;
  const tables = new Map<number, number>();
  // in-memory tables hold facts; built-in and mounted ones hold none here
  for (const t of infos) if (t.type === MEMORY_TABLE_TYPE) tables.set(t.id, t.maxArity);
  const rules = OrderedMap<string, { key: string; rule: unknown; domain: string }>().withMutations((m) => {
    for (const { key, domain } of v.rules!) {
      const parsed = parseDatalog(key);
      const rule = parsed.document.rules[0];
      if (parsed.errors.length > 0 || rule === undefined) bad(`rule ${JSON.stringify(key)} does not parse`);
      m.set(key, { key, rule, domain });
    }
  });
  const catalogue = Catalogue({
    tupleTables: OrderedMap(infos.map((t) => [t.name, t] as [string, TupleTableInfo])),
    prefixes: OrderedMap(v.prefixes.map(([k, i]) => [k, i] as [string, string])),
    baseIRI: v.baseIRI,
    rules,
    commitProcedure: v.commitProcedure,
    axioms: OrderedMap(v.axioms.map(([k, a]) => [k, a] as [string, AxiomEntry])),
    statistics: OrderedMap(v.statistics.map(([k, p]) => [k, p] as [string, Readonly<Record<string, string>>])),
    savedQueries: savedQueriesFromJson(v.savedQueries, bad),
  });
  return { catalogue, nextTableId: v.nextTableId, tables };
}

/** The saved queries of a catalogue's JSON form (none when the field is absent), each checked to be four strings. */
function savedQueriesFromJson(value: unknown, bad: (why: string) => never): OrderedMap<string, SavedQuery> {
  if (value === undefined) return OrderedMap();
  if (!Array.isArray(value)) return bad('the saved queries are not a list');
  return OrderedMap<string, SavedQuery>().withMutations((m) => {
    for (const [i, q] of (value as unknown[]).entries()) {
      if (typeof q !== 'object' || q === null) return bad(`saved query ${i} is not an object`);
      const { name, text, savedBy, savedAt } = q as Partial<Record<keyof SavedQuery, unknown>>;
      if (typeof name !== 'string' || typeof text !== 'string' || typeof savedBy !== 'string' || typeof savedAt !== 'string') return bad(`saved query ${i} lacks its name, text, savedBy or savedAt`);
      if (m.has(name)) return bad(`saved query ${JSON.stringify(name)} appears twice`);
      m.set(name, { name, text, savedBy, savedAt });
    }
  });
}

const OP_CATALOGUE = 'catalogue';
/** Log operation: the version the transaction published (`version`). */
const OP_VERSION = 'version';
/** Log operation: SKOLEM terms made by the transaction (`entries`, as {@link TermDictionary.exportSkolems} gives them). */
const OP_SKOLEMS = 'skolems';
/** Snapshot section: the store's state beside its facts (`version`, `materialised`). */
export const STATE_SECTION = 'state';
/** Snapshot section: the SKOLEM terms' arguments (see {@link TermDictionary.exportSkolems}). */
const SKOLEMS_SECTION = 'skolems';

/** The JSON of the snapshot's {@link STATE_SECTION}. */
interface SnapshotState {
  /** The version of the store the snapshot was taken at. */
  readonly version: number;
  /** Whether the snapshot holds the derived facts of its rules (a committed state always does). */
  readonly materialised: boolean;
}

/** A version number read from a file, checked. */
function versionOf(value: unknown, where: { path: string; offset: number }): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw new CorruptFileError(where.path, where.offset, `invalid store version ${JSON.stringify(value)}`);
  return value;
}

/** @internal The files of one persistent store and the operations on them (works on the internal DataStore). */
export class StorePersistence implements StoreLog {
  /** Terms of the dictionary already in the snapshot or the log. */
  private loggedTerms = 0;
  /** SKOLEM terms of the dictionary whose arguments are already in the snapshot or the log. */
  private loggedSkolems = 0;
  private snapshotBytes = 0;
  /** Whether the snapshot holds the materialisation of the committed state of its version. */
  private snapshotMaterialised = false;
  /** Sealed logs that the snapshot does not cover yet (a compaction under way, or failed). */
  private sealed: string[] = [];
  /** Their bytes. */
  private sealedBytes = 0;
  private compacting: Promise<void> | undefined;

  private constructor(
    /** The store's files. */
    readonly layout: StoreLayout,
    private readonly settings: PersistenceSettings,
    private log: TransactionLog,
    /** The files of the store's delta queries (`delta-query-persistence.ts`). */
    readonly deltaQueries: DeltaQueryFiles = new DeltaQueryFiles(join(layout.directory, DELTA_QUERY_DIRECTORY)),
  ) {}

  /** Starts the files of a new, empty store (its directory must exist and be empty). */
  static async create(layout: StoreLayout, settings: PersistenceSettings): Promise<StorePersistence> {
    const log = await TransactionLog.create(layout.logFile, 0, { durability: settings.durability, wrapIO: settings.wrapLogIO });
    return new StorePersistence(layout, settings, log);
  }

  /**
   * Loads a store's snapshot and log into `store` (new and empty) and returns its persistence.
   * When the store has delta queries, the log records after the lowest version they had all
   * computed (and that the log still holds) are held back from the one replay transaction:
   * the store is loaded up to that version, its delta queries are registered again
   * (`roleAccess` gives the access of the role that registered each, undefined when the role
   * is gone), and then each held-back record is committed on its own, so that the queries
   * compute each version's changes as they did before the restart.
   * @throws FileFormatError (path and offset) when a file is damaged beyond a torn log tail.
   */
  static async load(store: DataStore, layout: StoreLayout, settings: PersistenceSettings, roleAccess: (role: string) => AccessFor | undefined = () => undefined): Promise<{ persistence: StorePersistence; report: StoreLoadReport }> {
    const facts = store.facts;
    // damaged delta-query files never stop the store: their queries carry the error
    const { files: deltaQueryFiles, saved } = await DeltaQueryFiles.read(layout.directory);
    const held: HeldRecord[] = [];
    const tx = await facts.beginWrite(0);
    let committed = false;
    let active: TransactionLog | undefined;
    // sealed logs still needed, and those the snapshot covers (deleted once loaded)
    const kept: string[] = [];
    const redundant: string[] = [];
    let keptBytes = 0;
    try {
      let base = 0;
      let hasSnapshot = false;
      let snapshotBytes = 0;
      let version = 0;
      // an empty store is trivially materialised; a snapshot says whether it is
      let materialised = true;
      try {
        const snap = await readSnapshot(layout.snapshotFile);
        hasSnapshot = true;
        base = snap.sequence;
        snapshotBytes = snap.size;
        ({ version, materialised } = restoreSnapshot(store, tx, snap));
      } catch (e) {
        if (errorCode(e) !== 'ENOENT') throw e;
      }
      let records = 0;
      const baseRules = tx.catalogue.rules;
      // with a materialised base, replayed changes are followed incrementally
      // (without rules there is nothing to follow until a replayed record adds some)
      const changeLog = store.changeLog(tx);
      if (!materialised) changeLog.applyAtOnce();
      else if (baseRules.size > 0) changeLog.track();
      // the transactions replayed so far: the snapshot's, then each log's (a record at or
      // below it is in the snapshot or in a log read before, and is skipped)
      let applied = base;
      // the records after this version are committed one by one for the delta queries
      const holdAfter = lowestComputedVersion(saved, version);
      const replayFrom = (path: string) => (record: LogRecord): void => {
        if (record.sequence <= applied) return;
        const origin = { path, offset: record.offset };
        const decoded = decodeTransaction(record.body, origin);
        const logged = loggedVersion(decoded, origin);
        if (held.length > 0 || (holdAfter !== undefined && logged !== undefined && logged > holdAfter)) held.push({ record: decoded, origin, version: logged });
        else {
          replay(store, tx, decoded, origin);
          if (logged !== undefined) version = Math.max(version, logged);
        }
        applied = record.sequence;
        records++;
      };
      const follows = (path: string, logBase: number): void => {
        if (logBase > applied) throw new CorruptFileError(path, 0, `the log follows transaction ${logBase}, but the snapshot${applied > base ? ' and the logs before it hold' : ' holds'} transactions up to ${applied} only (transactions are missing)`);
      };
      // sealed logs (a compaction was under way or failed), in the order of their bases
      const sealed = await Promise.all((await listSealedLogs(layout)).map(async (path) => ({ path, base: await readLogBase(path) })));
      sealed.sort((a, b) => a.base - b.base);
      let activeBase: number | undefined;
      try {
        activeBase = await readLogBase(layout.logFile);
      } catch (e) {
        // without a log, sealed logs mean a crash between sealing the log and starting the next
        if (errorCode(e) !== 'ENOENT' || sealed.length === 0) throw e;
      }
      const cuts: string[] = [];
      for (let i = 0; i < sealed.length; i++) {
        const { path, base: logBase } = sealed[i]!;
        const next = i + 1 < sealed.length ? sealed[i + 1]!.base : activeBase;
        // every transaction of this log is in the snapshot: the install of the snapshot was not followed by the deletion
        if (next !== undefined && next <= base) {
          redundant.push(path);
          continue;
        }
        follows(path, logBase);
        const { log, report } = await TransactionLog.open(path, { durability: settings.durability, onRecord: replayFrom(path) });
        await log.close();
        if (report.cut !== undefined) cuts.push(report.cut);
        kept.push(path);
        keptBytes += log.size;
      }
      let log: TransactionLog;
      if (activeBase === undefined) {
        log = await TransactionLog.create(layout.logFile, applied, { durability: settings.durability, wrapIO: settings.wrapLogIO });
      } else {
        follows(layout.logFile, activeBase);
        const opened = await TransactionLog.open(layout.logFile, { durability: settings.durability, wrapIO: settings.wrapLogIO, onRecord: replayFrom(layout.logFile) });
        log = opened.log;
        if (opened.report.cut !== undefined) cuts.push(opened.report.cut);
      }
      active = log;
      // mounted tables read their sources while reasoning
      const mounted = await store.attachMountedTables(tx.catalogue);
      const rules = tx.catalogue.rules.size > 0;
      let rematerialise = false;
      let maintained = false;
      if (materialised) {
        if (tx.catalogue.rules.size > 0 || baseRules.size > 0) store.reasoner.recompile(tx);
        store.reasoner.noteRuleChanges(tx, baseRules);
        maintained = (await store.reasoner.reason(tx, new Interrupter())) !== undefined;
      } else if (rules) {
        // the snapshot does not say it holds the derived facts: reason from scratch
        rematerialise = true;
        store.reasoner.recompile(tx);
        store.reasoner.requestRecompute(tx);
        await store.reasoner.reason(tx, new Interrupter());
      }
      if (held.length === 0) mounted.loaded();
      if (held.length > 0 && !hasSnapshot && records === held.length) {
        // nothing before the held-back records: the store stays at its empty version 0, which the first of them follows
        store.rollback(tx);
      } else {
        facts.commit(tx);
        store.reasoner.committedTransaction(tx);
      }
      committed = true;
      facts.restoreVersion(version);
      const lastVersion = held.reduce((v, h) => Math.max(v, h.version ?? v), version);
      if (saved.length > 0) store.deltaQueries.restore(saved, deltaQueryFiles, roleAccess, lastVersion);
      if (held.length > 0) {
        for (const h of held) await commitHeld(store, h);
        mounted.loaded();
        facts.restoreVersion(lastVersion);
      }
      const persistence = new StorePersistence(layout, settings, log, deltaQueryFiles);
      persistence.loggedTerms = facts.dictionary.size;
      persistence.loggedSkolems = facts.dictionary.skolemCount;
      persistence.snapshotBytes = snapshotBytes;
      persistence.snapshotMaterialised = hasSnapshot && materialised;
      persistence.sealed = kept;
      persistence.sealedBytes = keptBytes;
      await removeFiles(redundant);
      const cut = cuts.length === 0 ? undefined : cuts.join('; ');
      return { persistence, report: { snapshot: hasSnapshot, records, rematerialised: rematerialise, maintained, cut, unavailableSources: mounted.unavailable, recommitted: held.length } };
    } catch (e) {
      if (committed) await active?.close().catch(() => undefined);
      await deltaQueryFiles.close().catch(() => undefined);
      throw e;
    } finally {
      if (!committed) {
        store.rollback(tx);
        await active?.close().catch(() => undefined);
      }
    }
  }

  /**
   * The record of a transaction about to be committed: new terms, `explicit` (its explicit
   * changes, as its change log gives them to the commit feed too), catalogue.
   */
  private recordOf(store: DataStore, tx: WriteTransaction, explicit: TransactionChanges): TransactionRecord {
    return transactionRecord(store, tx, explicit, this.loggedTerms, this.loggedSkolems);
  }

  /**
   * Appends the transaction's record to the log (durably, with `sync`); `explicit` are its
   * explicit changes ({@link ChangeLog.changes} with EXPLICIT). A transaction that changed
   * nothing is logged too (its record holds the version it publishes).
   * @throws StorageWriteError when the write or flush fails (the log is then as it was).
   */
  async append(store: DataStore, tx: WriteTransaction, explicit: TransactionChanges): Promise<void> {
    const record = this.recordOf(store, tx, explicit);
    await this.log.append(encodeTransaction(record));
    this.loggedTerms = store.facts.dictionary.size;
    this.loggedSkolems = store.facts.dictionary.skolemCount;
  }

  /** Whether the log has grown past the compaction threshold. */
  get wantsCompaction(): boolean {
    return this.log.size > Math.max(this.settings.compactThreshold, this.snapshotBytes);
  }

  /** Bytes of the snapshot and the logs. */
  get bytesOnDisk(): number {
    return this.snapshotBytes + this.sealedBytes + this.log.size;
  }

  /**
   * Writes a new snapshot of the committed state and starts a new log after it (see the
   * module documentation). Takes the store's write lock (`timeoutMs` to get it) only to fix
   * the version and seal the log; the snapshot is written while writers go on.
   */
  compact(store: DataStore, timeoutMs: number): Promise<void> {
    this.compacting ??= this.compactNow(store, timeoutMs).finally(() => (this.compacting = undefined));
    return this.compacting;
  }

  private async compactNow(store: DataStore, timeoutMs: number): Promise<void> {
    const facts = store.facts;
    const tx = await facts.beginWrite(timeoutMs);
    let point: CompactionPoint | undefined;
    let sealed: TransactionLog | undefined;
    try {
      // nothing was committed since the snapshot, which holds the materialisation: it is up to date
      if (this.log.lastSequence === this.log.baseSequence && this.sealed.length === 0 && this.snapshotMaterialised) return;
      if (this.log.lastSequence > this.log.baseSequence) {
        const path = await this.sealedPathFor(this.log.baseSequence);
        const next = await this.log.rotate(path, { durability: this.settings.durability, wrapIO: this.settings.wrapLogIO });
        sealed = this.log;
        this.sealed.push(path);
        this.sealedBytes += sealed.size;
        this.log = next;
      }
      // the log now starts at the point: every transaction up to it is in the committed version
      point = { view: facts.read(), terms: facts.dictionary.size, skolems: facts.dictionary.skolemCount, nextTableId: facts.nextTableIdentifier, sequence: this.log.baseSequence };
    } finally {
      facts.rollback(tx);
    }
    try {
      // the sealed log's appends were flushed (relaxed commits); the snapshot is to hold them anyway
      await sealed?.close().catch(() => undefined);
      const pacer = new Pacer();
      const sections = await snapshotSections(facts.dictionary, point, pacer);
      const { bytes } = await writeSnapshot(this.layout.snapshotFile, sections, { sequence: point.sequence, durable: true, pause: () => pacer.pause() });
      this.snapshotBytes = bytes;
      this.snapshotMaterialised = true;
      // the snapshot holds every transaction of the sealed logs
      const doomed = this.sealed;
      this.sealed = [];
      this.sealedBytes = 0;
      await removeFiles(doomed);
    } finally {
      facts.release(point.view);
    }
  }

  /** The path to seal the log under (a fresh name, should one of that base be left over). */
  private async sealedPathFor(base: number): Promise<string> {
    const path = sealedLogFile(this.layout, base);
    try {
      await stat(path);
    } catch (e) {
      if (errorCode(e) === 'ENOENT') return path;
      throw e;
    }
    return sealedLogFile(this.layout, base, randomBytes(4).toString('hex'));
  }

  /** Flushes and closes the log and the delta queries' files. */
  async close(): Promise<void> {
    await this.compacting?.catch(() => undefined);
    await this.deltaQueries.close();
    await this.log.close();
  }
}

/**
 * The record of a transaction about to be committed: the dictionary's terms from
 * `loggedTerms` on, the SKOLEM terms from `loggedSkolems` on, `explicit` (its explicit changes),
 * the catalogue when it changed, and the version it publishes; with `derived` (the net change
 * of its derived facts, as `transactionChanges(tx, DERIVED)` reads it once reasoning is done)
 * also those (a codec version 2 record: written for replicas only, never to a server directory).
 * @internal
 */
export function transactionRecord(store: DataStore, tx: WriteTransaction, explicit: TransactionChanges, loggedTerms: number, loggedSkolems: number, derived?: TransactionChanges): TransactionRecord {
  const facts = store.facts;
  const tables: TableChanges[] = [];
  for (const [tableId, { arity, added, removed }] of explicit) tables.push({ tableId, arity, added, removed });
  const operations: CatalogueOperation[] = [];
  if (tx.catalogue !== tx.base.catalogue) operations.push({ op: OP_CATALOGUE, catalogue: catalogueToJson(tx.catalogue, facts.nextTableIdentifier) });
  if (facts.dictionary.skolemCount > loggedSkolems) operations.push({ op: OP_SKOLEMS, entries: [...facts.dictionary.exportSkolems(loggedSkolems)] });
  // every commit publishes a version, also one that changed nothing: it is logged, so that versions never go backwards
  operations.push({ op: OP_VERSION, version: tx.version });
  const record: TransactionRecord = { firstTermId: loggedTerms, terms: collectTerms(facts.dictionary, loggedTerms, facts.dictionary.size), tables, operations };
  if (derived === undefined) return record;
  const derivedTables: TableChanges[] = [];
  for (const [tableId, { arity, added, removed }] of derived) derivedTables.push({ tableId, arity, added, removed });
  return { ...record, derived: derivedTables };
}

/** How {@link replay} applies a record's facts. */
export type ReplayMode =
  /** Explicit changes through the change log, for a reasoning run after (log replay, a reasoning replica). */
  | 'reason'
  /**
   * Explicit and derived changes written to the tables as they are, no reasoning to follow:
   * the record must carry its derived changes (a replica with `persistence-replicate-derived`).
   */
  | 'carried';

/**
 * Applies one log record to the replay transaction; returns the version it logged, if any.
 * In mode `reason` (the default) the explicit changes go through the change log: onto a
 * materialised state it records them for one incremental run (see `load`), otherwise it
 * applies them at once; derived changes a record may carry are not read. In mode `carried`
 * the record's explicit and derived changes are set on the facts' status bits directly, each
 * checked to change the status it names (a record that does not follow this state is refused).
 * @internal
 */
export function replay(store: DataStore, tx: WriteTransaction, record: TransactionRecord, origin: { path: string; offset: number }, mode: ReplayMode = 'reason'): number | undefined {
  const facts = store.facts;
  applyTerms(facts.dictionary, record, origin);
  let version: number | undefined;
  for (const op of record.operations) {
    if (op.op === OP_VERSION) {
      version = versionOf(op.version, origin);
    } else if (op.op === OP_SKOLEMS) {
      const entries = op.entries;
      if (!Array.isArray(entries) || !entries.every((n) => typeof n === 'number' && Number.isInteger(n) && n >= 0)) throw new CorruptFileError(origin.path, origin.offset, 'invalid SKOLEM entries');
      try {
        facts.dictionary.restoreSkolems(entries as number[]);
      } catch (e) {
        throw new CorruptFileError(origin.path, origin.offset, `the SKOLEM terms: ${(e as Error).message}`);
      }
    } else if (op.op === OP_CATALOGUE) {
      const restored = catalogueFromJson(op.catalogue, origin);
      facts.restoreTables(restored.tables, restored.nextTableId);
      tx.catalogue = restored.catalogue;
      store.changeLog(tx).forgetTables((id) => restored.tables.has(id));
    } else throw new CorruptFileError(origin.path, origin.offset, `unknown catalogue operation '${op.op}'`);
  }
  const size = facts.dictionary.size;
  const tableOf = (change: TableChanges) => {
    let table;
    try {
      table = tx.table(change.tableId);
    } catch {
      throw new CorruptFileError(origin.path, origin.offset, `the record changes tuple table #${change.tableId}, which does not exist`);
    }
    if (table.arity !== change.arity) throw new CorruptFileError(origin.path, origin.offset, `the record gives tuple table #${change.tableId} arity ${change.arity}, not ${table.arity}`);
    return table;
  };
  const each = (change: TableChanges, rows: Uint32Array, f: (tuple: Uint32Array) => void): void => {
    const tuple = new Uint32Array(change.arity);
    for (let i = 0; i < rows.length; i += change.arity) {
      for (let c = 0; c < change.arity; c++) {
        const id = rows[i + c]!;
        if (id >= size) throw new CorruptFileError(origin.path, origin.offset, `the record uses term id ${id}, but the dictionary has ${size} terms`);
        tuple[c] = id;
      }
      f(tuple);
    }
  };
  if (mode === 'carried') {
    if (record.derived === undefined) throw new CorruptFileError(origin.path, origin.offset, 'the record carries no derived changes');
    // the status bits are independent: each list changes one bit of facts that had (or lacked) it
    const apply = (changes: readonly TableChanges[], status: number, what: string): void => {
      for (const change of changes) {
        const table = tableOf(change);
        const differs = (tuple: Uint32Array, how: string): never => {
          throw new CorruptFileError(origin.path, origin.offset, `the record ${how} the ${what} fact (${tuple.join(' ')}) of tuple table #${change.tableId}, which it ${how === 'adds' ? 'already is' : 'is not'} (the record does not follow this state)`);
        };
        each(change, change.removed, (tuple) => table.remove(tuple, status, tx.version) || differs(tuple, 'removes'));
        each(change, change.added, (tuple) => table.add(tuple, status, tx.version) || differs(tuple, 'adds'));
      }
    };
    apply(record.tables, EXPLICIT, 'explicit');
    apply(record.derived, DERIVED, 'derived');
    return version;
  }
  for (const change of record.tables) {
    tableOf(change);
    const log = store.changeLog(tx);
    each(change, change.removed, (tuple) => log.removeExplicit(change.tableId, tuple));
    each(change, change.added, (tuple) => log.addExplicit(change.tableId, tuple));
  }
  return version;
}

/**
 * Opens the write transaction of a log replay: a store loaded from its log, a record a
 * replica applies, or the fixing of a snapshot's point (`pg-store-log.ts` replays through
 * here: this module is the seam of replay, see docs/architecture.md).
 * @internal
 */
export function beginReplay(store: DataStore, timeoutMs: number): Promise<WriteTransaction> {
  return store.facts.beginWrite(timeoutMs);
}

/**
 * Restores a snapshot into the (empty) store's replay transaction `tx`: catalogue, dictionary,
 * SKOLEM terms and rows; returns the version it was taken at and whether it holds the
 * materialisation.
 * @throws CorruptFileError naming the snapshot's path.
 * @internal
 */
export function restoreSnapshot(store: DataStore, tx: WriteTransaction, snap: LoadedSnapshot): { version: number; materialised: boolean } {
  const facts = store.facts;
  const layout = { snapshotFile: snap.path };
  let version = 0;
  let materialised: boolean;
  const meta = snap.json('catalogue');
  const restored = catalogueFromJson(meta, { path: layout.snapshotFile, offset: 0 });
  facts.restoreTables(restored.tables, restored.nextTableId);
  tx.catalogue = restored.catalogue;
  const ends = snap.array('terms.ends', Uint32Array);
  const bytes = snap.array('terms.bytes', Uint8Array);
  try {
    facts.dictionary.restore(bytes, ends, snap.has('terms.hashes') ? snap.array('terms.hashes', Uint32Array) : undefined);
  } catch (e) {
    throw new CorruptFileError(layout.snapshotFile, 0, `the dictionary: ${(e as Error).message}`);
  }
  const size = facts.dictionary.size;
  if (snap.has(SKOLEMS_SECTION)) {
    try {
      facts.dictionary.restoreSkolems(snap.array(SKOLEMS_SECTION, Uint32Array));
    } catch (e) {
      throw new CorruptFileError(layout.snapshotFile, 0, `the SKOLEM terms: ${(e as Error).message}`);
    }
  }
  if (snap.has(STATE_SECTION)) {
    const state = snap.json(STATE_SECTION) as Partial<SnapshotState> | null;
    version = versionOf(state?.version, { path: layout.snapshotFile, offset: 0 });
    materialised = state?.materialised === true;
  } else materialised = false;
  for (const id of restored.tables.keys()) {
    const data = snap.array(`t${id}.data`, Uint32Array);
    const flags = snap.array(`t${id}.flags`, Uint8Array);
    for (let i = 0; i < data.length; i++) if (data[i]! >= size) throw new CorruptFileError(layout.snapshotFile, 0, `tuple table #${id} uses term id ${data[i]}, but the dictionary has ${size} terms`);
    try {
      tx.table(id).restoreRows(data, flags);
    } catch (e) {
      throw new CorruptFileError(layout.snapshotFile, 0, `tuple table #${id}: ${(e as Error).message}`);
    }
  }
  return { version, materialised };
}

/** A log record held back from the replay transaction, to be committed on its own (see `load`). */
interface HeldRecord {
  /** The decoded record. */
  readonly record: TransactionRecord;
  /** Where it was read. */
  readonly origin: { path: string; offset: number };
  /** The version it logged (undefined for a record without one). */
  readonly version: number | undefined;
}

/** The version a log record published, if it holds one. */
export function loggedVersion(record: TransactionRecord, origin: { path: string; offset: number }): number | undefined {
  const op = record.operations.find((o) => o.op === OP_VERSION);
  return op === undefined ? undefined : versionOf(op.version, origin);
}

/**
 * The lowest version that a saved delta query had computed up to (or was registered at,
 * before its first answer) among those at or after `loaded` (the snapshot's version: older
 * versions are no longer in the log); undefined when there is none.
 */
function lowestComputedVersion(saved: readonly SavedDeltaQuery[], loaded: number): number | undefined {
  let lowest: number | undefined;
  for (const s of saved) {
    if (s.registration === undefined) continue;
    const last = s.records[s.records.length - 1];
    const at = last !== undefined && last.registeredAt !== undefined ? last.version : s.registration.version;
    if (at >= loaded && (lowest === undefined || at < lowest)) lowest = at;
  }
  return lowest;
}

/** Commits a held-back log record on its own, at the version it logged (see `load`). */
async function commitHeld(store: DataStore, held: HeldRecord): Promise<void> {
  const facts = store.facts;
  if (held.version !== undefined) facts.restoreVersion(held.version - 1);
  const tx = await facts.beginWrite(0);
  try {
    const rules = tx.catalogue.rules;
    replay(store, tx, held.record, held.origin);
    store.reasoner.noteRuleChanges(tx, rules);
  } catch (e) {
    store.rollback(tx);
    throw e;
  }
  await store.commitReplayed(tx, new Interrupter());
}

/** What a compaction fixes while it holds the write lock. */
export interface CompactionPoint {
  /** A reader of the committed version (released when the snapshot is written). */
  readonly view: Snapshot;
  /** The dictionary's size. */
  readonly terms: number;
  /** The SKOLEM terms remembered. */
  readonly skolems: number;
  /** The next table id. */
  readonly nextTableId: number;
  /** The last transaction in the version (the new log's base). */
  readonly sequence: number;
}

/** The longest a compaction works before it yields to the event loop, in milliseconds. */
const SLICE_MS = 8;
/** Rows or terms handled between two looks at the clock. */
const STEP = 1 << 13;
/** Bytes copied between two looks at the clock. */
const BYTES_STEP = 1 << 20;

/** Yields to the event loop once {@link SLICE_MS} have passed since it last did. */
export class Pacer {
  private since = performance.now();

  /** Yields if the slice is used up. */
  async pause(): Promise<void> {
    if (performance.now() - this.since < SLICE_MS) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.since = performance.now();
  }
}

/** The sections of the snapshot of a compaction point, built a slice at a time. */
export async function snapshotSections(dictionary: TermDictionary, point: CompactionPoint, pacer: Pacer): Promise<SnapshotSection[]> {
  const { view } = point;
  const catalogue = view.catalogue;
  const sections: SnapshotSection[] = [{ name: 'catalogue', json: catalogueToJson(catalogue, point.nextTableId) }];
  const terms = await termsUpTo(dictionary, point.terms, pacer);
  sections.push({ name: 'terms.ends', array: terms.ends }, { name: 'terms.bytes', array: terms.bytes }, { name: 'terms.hashes', array: dictionary.exportHashes().subarray(0, point.terms) });
  const state: SnapshotState = { version: view.version, materialised: true };
  sections.push({ name: STATE_SECTION, json: state as unknown as JsonValue }, { name: SKOLEMS_SECTION, array: firstSkolems(dictionary.exportSkolems(), point.skolems) });
  await pacer.pause();
  for (const info of catalogue.tupleTables.values()) {
    if (info.type !== MEMORY_TABLE_TYPE) continue;
    const { data, flags } = await rowsAt(view, info.id, pacer);
    sections.push({ name: `t${info.id}.data`, array: data }, { name: `t${info.id}.flags`, array: flags });
  }
  return sections;
}

/** The first `count` terms of a dictionary as {@link collectTerms} gives them (the dictionary may grow meanwhile). */
async function termsUpTo(dictionary: TermDictionary, count: number, pacer: Pacer): Promise<NewTerms> {
  if (dictionary.tripleTerms.size > 0) return canonicalTermsUpTo(dictionary, count, pacer);
  const ends = new Uint32Array(count);
  if (count === 0) return { ends, bytes: new Uint8Array(0) };
  const start = dictionary.startOf(0);
  for (let from = 0; from < count; from += STEP) {
    const to = Math.min(count, from + STEP);
    for (let id = from; id < to; id++) ends[id] = dictionary.endOf(id) - start;
    await pacer.pause();
  }
  const length = ends[count - 1]!;
  const bytes = new Uint8Array(length);
  for (let at = 0; at < length; at += BYTES_STEP) {
    // the arena is replaced when it grows, with the same bytes below the point
    bytes.set(dictionary.arenaBytes.subarray(start + at, start + Math.min(length, at + BYTES_STEP)), at);
    await pacer.pause();
  }
  return { ends, bytes };
}

/**
 * {@link termsUpTo} for a dictionary holding triple terms, whose keys are written out from the
 * ids of their parts: {@link TermDictionary.canonicalTerms} a step at a time.
 */
async function canonicalTermsUpTo(dictionary: TermDictionary, count: number, pacer: Pacer): Promise<NewTerms> {
  const ends = new Uint32Array(count);
  const parts: Uint8Array[] = [];
  let length = 0;
  for (let from = 0; from < count; from += STEP) {
    const to = Math.min(count, from + STEP);
    const step = dictionary.canonicalTerms(from, to);
    for (let i = 0; i < step.ends.length; i++) ends[from + i] = length + step.ends[i]!;
    parts.push(step.bytes);
    length += step.bytes.length;
    await pacer.pause();
  }
  const bytes = Buffer.concat(parts, length);
  return { ends, bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length) };
}

/** The first `count` entries of an {@link TermDictionary.exportSkolems} array. */
function firstSkolems(flat: Uint32Array, count: number): Uint32Array {
  let at = 0;
  for (let i = 0; i < count && at < flat.length; i++) at += 2 + flat[at + 1]!;
  return flat.subarray(0, at);
}

/** The rows of a table at a reader's version, with their status then, a slice at a time. */
async function rowsAt(view: Snapshot, id: number, pacer: Pacer): Promise<{ data: Uint32Array; flags: Uint8Array }> {
  for (;;) {
    const table = view.table(id);
    // a compaction of the table's rows (FactStore.compact) renumbers them: start over then
    const epoch = table.compactions;
    const limit = view.view(id).limit;
    const data = new Uint32Array(limit * table.arity);
    const flags = new Uint8Array(limit);
    let n = 0;
    for (let from = 0; from < limit && table.compactions === epoch; from += STEP) {
      n += table.exportVisibleRows(view.view(id), from, from + STEP, data, flags, n);
      await pacer.pause();
    }
    if (table.compactions === epoch) return { data: data.subarray(0, n * table.arity), flags: flags.subarray(0, n) };
  }
}

/** Deletes files (sealed logs the snapshot covers) and flushes their directory; failures are left for the next load. */
async function removeFiles(paths: readonly string[]): Promise<void> {
  if (paths.length === 0) return;
  for (const path of paths) await unlink(path).catch(() => undefined);
  await fsyncDirectory(dirname(paths[0]!)).catch(() => undefined);
}
