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
 * continues from the last one logged. Compaction writes a new snapshot (write, fsync, rename)
 * and then starts a new, empty log that follows it.
 * @module
 */
import type { StoreLoadReport } from './recovery.js';
import { OrderedMap } from 'immutable';
import { parseDatalog } from '../formats/datalog-parser.js';
import { Interrupter } from '../model/control.js';
import { CorruptFileError, errorCode } from '../persistence/errors.js';
import { type StoreLayout } from '../persistence/layout.js';
import { type Durability, type LogFileIO, TransactionLog } from '../persistence/log.js';
import { readSnapshot, type SnapshotSection, writeSnapshot } from '../persistence/snapshot.js';
import { applyTerms, type CatalogueOperation, collectTerms, decodeTransaction, encodeTransaction, type JsonValue, type TableChanges, type TransactionRecord } from '../persistence/transaction-record.js';
import { type AxiomEntry, Catalogue, MEMORY_TABLE_TYPE, type TupleTableInfo } from '../storage/catalogue.js';
import type { TransactionChanges } from '../storage/change-log.js';
import type { WriteTransaction } from '../storage/fact-store.js';
import type { DataStore } from './data-store.js';

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
  });
  return { catalogue, nextTableId: v.nextTableId, tables };
}


const OP_CATALOGUE = 'catalogue';
/** Log operation: the version the transaction published (`version`). */
const OP_VERSION = 'version';
/** Log operation: SKOLEM terms made by the transaction (`entries`, as {@link TermDictionary.exportSkolems} gives them). */
const OP_SKOLEMS = 'skolems';
/** Snapshot section: the store's state beside its facts (`version`, `materialised`). */
const STATE_SECTION = 'state';
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
export class StorePersistence {
  /** Terms of the dictionary already in the snapshot or the log. */
  private loggedTerms = 0;
  /** SKOLEM terms of the dictionary whose arguments are already in the snapshot or the log. */
  private loggedSkolems = 0;
  private snapshotBytes = 0;
  private compacting: Promise<void> | undefined;

  private constructor(
    /** The store's files. */
    readonly layout: StoreLayout,
    private readonly settings: PersistenceSettings,
    private log: TransactionLog,
  ) {}

  /** Starts the files of a new, empty store (its directory must exist and be empty). */
  static async create(layout: StoreLayout, settings: PersistenceSettings): Promise<StorePersistence> {
    const log = await TransactionLog.create(layout.logFile, 0, { durability: settings.durability, wrapIO: settings.wrapLogIO });
    return new StorePersistence(layout, settings, log);
  }

  /**
   * Loads a store's snapshot and log into `store` (new and empty) and returns its persistence.
   * @throws FileFormatError (path and offset) when a file is damaged beyond a torn log tail.
   */
  static async load(store: DataStore, layout: StoreLayout, settings: PersistenceSettings): Promise<{ persistence: StorePersistence; report: StoreLoadReport }> {
    const facts = store.facts;
    const tx = await facts.beginWrite(0);
    let committed = false;
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
      const { log, report } = await TransactionLog.open(layout.logFile, {
        durability: settings.durability,
        wrapIO: settings.wrapLogIO,
        onRecord: (record) => {
          if (record.sequence <= base) return;
          const origin = { path: layout.logFile, offset: record.offset };
          const decoded = decodeTransaction(record.body, origin);
          const logged = replay(store, tx, decoded, origin);
          if (logged !== undefined) version = Math.max(version, logged);
          records++;
        },
      });
      if (report.baseSequence > base) {
        await log.close();
        throw new CorruptFileError(layout.logFile, 0, `the log follows transaction ${report.baseSequence}, but the snapshot holds transactions up to ${base} only (transactions are missing)`);
      }
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
      mounted.loaded();
      facts.commit(tx);
      store.reasoner.committedTransaction(tx);
      committed = true;
      facts.restoreVersion(version);
      const persistence = new StorePersistence(layout, settings, log);
      persistence.loggedTerms = facts.dictionary.size;
      persistence.loggedSkolems = facts.dictionary.skolemCount;
      persistence.snapshotBytes = snapshotBytes;
      return { persistence, report: { snapshot: hasSnapshot, records, rematerialised: rematerialise, maintained, cut: report.cut, unavailableSources: mounted.unavailable } };
    } finally {
      if (!committed) store.rollback(tx);
    }
  }

  /**
   * The record of a transaction about to be committed: new terms, `explicit` (its explicit
   * changes, as its change log gives them to the commit feed too), catalogue.
   */
  private recordOf(store: DataStore, tx: WriteTransaction, explicit: TransactionChanges): TransactionRecord {
    const facts = store.facts;
    const tables: TableChanges[] = [];
    for (const [tableId, { arity, added, removed }] of explicit) tables.push({ tableId, arity, added, removed });
    const operations: CatalogueOperation[] = [];
    if (tx.catalogue !== tx.base.catalogue) operations.push({ op: OP_CATALOGUE, catalogue: catalogueToJson(tx.catalogue, facts.nextTableIdentifier) });
    if (facts.dictionary.skolemCount > this.loggedSkolems) operations.push({ op: OP_SKOLEMS, entries: [...facts.dictionary.exportSkolems(this.loggedSkolems)] });
    // every commit publishes a version, also one that changed nothing: it is logged, so that versions never go backwards
    operations.push({ op: OP_VERSION, version: tx.version });
    return { firstTermId: this.loggedTerms, terms: collectTerms(facts.dictionary, this.loggedTerms, facts.dictionary.size), tables, operations };
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

  /** Bytes of the snapshot and the log. */
  get bytesOnDisk(): number {
    return this.snapshotBytes + this.log.size;
  }

  /**
   * Writes a new snapshot of the committed state and starts a new log after it. Takes the
   * store's write lock for the time it takes (`timeoutMs` to get it).
   */
  compact(store: DataStore, timeoutMs: number): Promise<void> {
    this.compacting ??= this.compactNow(store, timeoutMs).finally(() => (this.compacting = undefined));
    return this.compacting;
  }

  private async compactNow(store: DataStore, timeoutMs: number): Promise<void> {
    const facts = store.facts;
    const tx = await facts.beginWrite(timeoutMs);
    try {
      const catalogue = facts.committed.catalogue;
      const sections: SnapshotSection[] = [{ name: 'catalogue', json: catalogueToJson(catalogue, facts.nextTableIdentifier) }];
      const terms = collectTerms(facts.dictionary, 0, facts.dictionary.size);
      sections.push({ name: 'terms.ends', array: terms.ends }, { name: 'terms.bytes', array: terms.bytes }, { name: 'terms.hashes', array: facts.dictionary.exportHashes() });
      const state: SnapshotState = { version: facts.committed.version, materialised: true };
      sections.push({ name: STATE_SECTION, json: state as unknown as JsonValue }, { name: SKOLEMS_SECTION, array: facts.dictionary.exportSkolems() });
      for (const info of catalogue.tupleTables.values()) {
        if (info.type !== MEMORY_TABLE_TYPE) continue;
        const table = facts.table(info.id);
        const { data, flags } = table.exportRows();
        sections.push({ name: `t${info.id}.data`, array: data }, { name: `t${info.id}.flags`, array: flags });
      }
      const sequence = this.log.lastSequence;
      const { bytes } = await writeSnapshot(this.layout.snapshotFile, sections, { sequence, durable: true });
      this.snapshotBytes = bytes;
      const old = this.log;
      await old.close();
      this.log = await TransactionLog.create(this.layout.logFile, sequence, { durability: this.settings.durability, wrapIO: this.settings.wrapLogIO, replace: true });
      this.loggedTerms = facts.dictionary.size;
      this.loggedSkolems = facts.dictionary.skolemCount;
    } finally {
      facts.rollback(tx);
    }
  }

  /** Flushes and closes the log. */
  async close(): Promise<void> {
    await this.compacting?.catch(() => undefined);
    await this.log.close();
  }
}

/**
 * Applies one log record to the replay transaction through its change log; returns the
 * version it logged, if any. Onto a materialised state the log records the explicit changes
 * for one incremental run (see `load`); otherwise it applies them at once.
 */
function replay(store: DataStore, tx: WriteTransaction, record: TransactionRecord, origin: { path: string; offset: number }): number | undefined {
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
  for (const change of record.tables) {
    let table;
    try {
      table = tx.table(change.tableId);
    } catch {
      throw new CorruptFileError(origin.path, origin.offset, `the record changes tuple table #${change.tableId}, which does not exist`);
    }
    if (table.arity !== change.arity) throw new CorruptFileError(origin.path, origin.offset, `the record gives tuple table #${change.tableId} arity ${change.arity}, not ${table.arity}`);
    const tuple = new Uint32Array(change.arity);
    const each = (rows: Uint32Array, f: () => void): void => {
      for (let i = 0; i < rows.length; i += change.arity) {
        for (let c = 0; c < change.arity; c++) {
          const id = rows[i + c]!;
          if (id >= size) throw new CorruptFileError(origin.path, origin.offset, `the record uses term id ${id}, but the dictionary has ${size} terms`);
          tuple[c] = id;
        }
        f();
      }
    };
    const log = store.changeLog(tx);
    each(change.removed, () => log.removeExplicit(change.tableId, tuple));
    each(change.added, () => log.addExplicit(change.tableId, tuple));
  }
  return version;
}
