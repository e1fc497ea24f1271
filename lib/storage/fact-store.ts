/**
 * The versioned facts of one data store: the term dictionary, the tuple tables, the
 * published versions (snapshots) and the read/write transaction.
 *
 * A commit publishes a new {@link Snapshot}: its version number, each table's row limit at
 * that moment and the catalogue. Readers keep the snapshot they started with and see exactly
 * that state however many commits follow. One {@link WriteTransaction} at a time holds the
 * write lock; it sees its own changes, and rollback truncates every table (and the
 * dictionary) back to where the transaction began.
 *
 * The store, its snapshots and transactions are generic in the type `R` of the rules their
 * catalogue holds (see storage/catalogue.ts), `unknown` unless the owner of the store says.
 * @module
 */
import type { FactAccess } from './fact-access.js';
import { OrderedMap } from 'immutable';
import { TermDictionary } from '../model/dictionary.js';
import { TransactionError, UnknownResourceError } from '../model/errors.js';
import { BUILTIN_TABLE_TYPE, Catalogue, DEFAULT_BASE_IRI, DEFAULT_PREFIXES, type TupleTableInfo, UNBOUNDED_ARITY } from './catalogue.js';
import { SKOLEM_TABLE } from '../model/skolem.js';
import { TupleTable, type TableSavepoint, type TableView } from './tuple-table.js';
import { WriteLock } from './write-lock.js';

/** Id of the default-graph triple table. */
export const DEFAULT_TRIPLES_ID = 1;
/** Id of the named-graph quad table. */
export const QUADS_ID = 2;
/** Name of the default-graph triple table. */
export const DEFAULT_TRIPLES = 'DefaultTriples';
/** Name of the named-graph quad table. */
export const QUADS = 'Quads';
/** Id of the built-in SKOLEM table in a new store (it holds no stored facts). */
export const SKOLEM_ID = 3;

/** The catalogue entry of the built-in SKOLEM table (arity 1 and up) with an id. */
export function skolemTableInfo(id: number): TupleTableInfo {
  return { name: SKOLEM_TABLE, id, type: BUILTIN_TABLE_TYPE, minArity: 1, maxArity: UNBOUNDED_ARITY, parameters: {} };
}

/** A point inside a write transaction (see {@link FactStore.savepoint}). */
export interface StoreSavepoint<R = unknown> {
  /** Dictionary size. */
  readonly terms: number;
  /** Catalogue draft. */
  readonly catalogue: Catalogue<R>;
  /** Per-table savepoints by table id. */
  readonly tables: ReadonlyMap<number, TableSavepoint>;
}

/** What every reader of a store state offers: a version, the catalogue and table views. */
export interface StoreState<R = unknown> {
  /** Version number this state reads at (the pending number, for a writer). */
  readonly version: number;
  /** The catalogue as of this state. */
  readonly catalogue: Catalogue<R>;
  /** The table with an id. */
  table(id: number): TupleTable;
  /** The view of a table for this state (taken fresh: a writer's limit grows). */
  view(id: number): TableView;
  /** Whether this state belongs to a read/write transaction. */
  readonly writable: boolean;
  /** Whether the tables' running counts (countOf, liveCount) describe exactly this state. */
  readonly countsExact: boolean;
}

/** An immutable published version of a store. */
export class Snapshot<R = unknown> implements StoreState<R> {
  /** Always false: snapshots are read-only. */
  readonly writable = false;
  /** @internal */
  constructor(
    private readonly store: FactStore<R>,
    /** The version number. */
    readonly version: number,
    /** The catalogue of this version. */
    readonly catalogue: Catalogue<R>,
    /** Row limit per table id (mutated only by compaction, which preserves content). */
    readonly limits: Map<number, number>,
  ) {}

  /** The table with an id (also one dropped after this version, which this version still lists). */
  table(id: number): TupleTable {
    return this.store.tableAt(id, this.version);
  }

  /** True for the latest version while no write transaction is open. */
  get countsExact(): boolean {
    return this.store.committed === this && this.store.activeWriter === null;
  }

  /**
   * The view of a table at this version: one object per table, which a compaction renumbering
   * the table's rows updates in place, so that a reader keeping it across pauses (a query
   * paused between the pages of a cursor) never sees rows appended after the compaction.
   */
  view(id: number): TableView {
    let view = this.views.get(id);
    if (view === undefined) {
      view = { version: this.version, limit: this.limits.get(id) ?? 0 };
      this.views.set(id, view);
    }
    return view;
  }

  /** @internal Compaction renumbered the rows of table `id`: maps this version's limit (and its view) to the new numbering. */
  remap(id: number, remap: (limit: number) => number): void {
    const limit = this.limits.get(id);
    if (limit === undefined) return;
    const renumbered = remap(limit);
    this.limits.set(id, renumbered);
    const view = this.views.get(id);
    if (view !== undefined) view.limit = renumbered;
  }

  /** The views handed out, by table id (mutable here for {@link Snapshot.remap}). */
  private readonly views = new Map<number, { readonly version: number; limit: number }>();
}

/** The open read/write transaction of a store. */
export class WriteTransaction<R = unknown> implements StoreState<R> {
  /** Always true. */
  readonly writable = true;
  /** The catalogue draft; replaced by edits, published at commit. */
  catalogue: Catalogue<R>;
  /** The pending version number. */
  readonly version: number;
  /** Set by bulk loads: commit then releases the spare capacity of tables and dictionary. */
  bulk = false;
  /** What the role running the current call may read and write (undefined: everything). */
  access: FactAccess | undefined = undefined;
  private open = true;

  /** @internal */
  constructor(
    private readonly store: FactStore<R>,
    /** The snapshot the transaction started from. */
    readonly base: Snapshot<R>,
    /** Dictionary size at the start (rollback truncates to it). */
    readonly termMark: number,
  ) {
    this.version = base.version + 1;
    this.catalogue = base.catalogue;
  }

  /** Whether commit or rollback has not happened yet. */
  get active(): boolean {
    return this.open;
  }

  /** The table with an id. */
  table(id: number): TupleTable {
    return this.store.table(id);
  }

  /** Always true: the running counts follow the writer's changes. */
  get countsExact(): boolean {
    return true;
  }

  /** The writer's view of a table: everything appended so far. */
  view(id: number): TableView {
    return { version: this.version, limit: this.store.table(id).rowCount };
  }

  /** @internal */
  close(): void {
    this.open = false;
  }
}

/** Facts, versions and transactions of one data store. */
export class FactStore<R = unknown> {
  /** The term dictionary. */
  readonly dictionary = new TermDictionary();
  private readonly tables = new Map<number, TupleTable>();
  private current: Snapshot<R>;
  private readonly lock = new WriteLock();
  private writer: WriteTransaction<R> | null = null;
  private readonly readers = new Map<number, number>(); // version → open readers
  private readonly liveSnapshots = new Map<number, Snapshot<R>>();
  /**
   * Tables dropped while a reader of an older version (whose catalogue still lists them) was
   * open, by id, with the first version that does not have them; kept until no such reader is left.
   */
  private readonly retiredTables = new Map<number, { readonly table: TupleTable; readonly droppedAt: number }>();
  private nextTableId = SKOLEM_ID + 1;

  /** Creates a store holding the tables DefaultTriples and Quads, the built-in SKOLEM, and the default prefixes. */
  constructor(private readonly label = 'the data store') {
    const tables = OrderedMap<string, TupleTableInfo>([
      [DEFAULT_TRIPLES, { name: DEFAULT_TRIPLES, id: DEFAULT_TRIPLES_ID, type: 'memory', minArity: 3, maxArity: 3, parameters: {} }],
      [QUADS, { name: QUADS, id: QUADS_ID, type: 'memory', minArity: 4, maxArity: 4, parameters: {} }],
      [SKOLEM_TABLE, skolemTableInfo(SKOLEM_ID)],
    ]);
    this.tables.set(DEFAULT_TRIPLES_ID, new TupleTable(3));
    this.tables.set(QUADS_ID, new TupleTable(4));
    const catalogue = Catalogue<R>({ tupleTables: tables, prefixes: OrderedMap(DEFAULT_PREFIXES.map(([k, v]) => [k, v] as [string, string])), baseIRI: DEFAULT_BASE_IRI });
    this.current = new Snapshot(this, 0, catalogue, this.limits());
  }

  /**
   * Changes the catalogue of a new store before any transaction (for what its creation
   * parameters imply, such as the internal rules of equality).
   */
  initialiseCatalogue(change: (catalogue: Catalogue<R>) => Catalogue<R>): void {
    if (this.current.version !== 0 || this.writer) throw new TransactionError('the catalogue can only be initialised before the first transaction');
    this.current = new Snapshot(this, 0, change(this.current.catalogue), this.limits());
  }

  /**
   * Continues the version numbers from `version` (the last version of the store before a
   * restart), so that they never go backwards: the latest version is renumbered when it is
   * lower. Only while no transaction is open.
   */
  restoreVersion(version: number): void {
    if (this.writer) throw new TransactionError('the version can only be restored while no transaction is open');
    const previous = this.current;
    if (version <= previous.version) return;
    this.current = new Snapshot(this, version, previous.catalogue, new Map(previous.limits));
    if (!this.readers.has(previous.version)) this.liveSnapshots.delete(previous.version);
    this.liveSnapshots.set(version, this.current);
  }

  /** The latest committed version. */
  get committed(): Snapshot<R> {
    return this.current;
  }

  /** The open write transaction, if any. */
  get activeWriter(): WriteTransaction<R> | null {
    return this.writer;
  }

  /** The table with an id (throws if it was deleted). */
  table(id: number): TupleTable {
    const t = this.tables.get(id);
    if (!t) throw new UnknownResourceError(`tuple table #${id} does not exist`);
    return t;
  }

  /**
   * The table with an id as a reader of `version` sees it: a table dropped after that version
   * stays readable while such a reader is open (throws if it is gone).
   */
  tableAt(id: number, version: number): TupleTable {
    const t = this.tables.get(id);
    if (t) return t;
    const retired = this.retiredTables.get(id);
    if (retired && version < retired.droppedAt) return retired.table;
    throw new UnknownResourceError(`tuple table #${id} does not exist`);
  }

  /** Every table with its id. */
  allTables(): ReadonlyMap<number, TupleTable> {
    return this.tables;
  }

  /** Starts a read-only transaction at the latest version; pair with {@link FactStore.release}. */
  read(): Snapshot<R> {
    const s = this.current;
    this.readers.set(s.version, (this.readers.get(s.version) ?? 0) + 1);
    this.liveSnapshots.set(s.version, s);
    return s;
  }

  /**
   * Registers one more reader of `snapshot`, which must be held by a reader already (or be the
   * latest version): it stays readable, and compaction keeps its rows and view, until the
   * matching {@link FactStore.release} (for a cursor that outlives the read-only transaction
   * it was opened in).
   */
  retain(snapshot: Snapshot<R>): Snapshot<R> {
    if (snapshot !== this.current && !this.readers.has(snapshot.version)) throw new TransactionError(`version ${snapshot.version} of the store is no longer held by any reader`);
    this.readers.set(snapshot.version, (this.readers.get(snapshot.version) ?? 0) + 1);
    this.liveSnapshots.set(snapshot.version, snapshot);
    return snapshot;
  }

  /** Ends a read-only transaction. */
  release(snapshot: Snapshot<R>): void {
    const n = (this.readers.get(snapshot.version) ?? 0) - 1;
    if (n > 0) this.readers.set(snapshot.version, n);
    else {
      this.readers.delete(snapshot.version);
      if (snapshot !== this.current) this.liveSnapshots.delete(snapshot.version);
      this.forgetRetiredTables();
    }
  }

  /** Starts the read/write transaction, waiting up to `timeoutMs` for the write lock. */
  async beginWrite(timeoutMs: number): Promise<WriteTransaction<R>> {
    await this.lock.acquire(timeoutMs, this.label);
    const tx = new WriteTransaction(this, this.current, this.dictionary.size);
    for (const t of this.tables.values()) t.beginWrite();
    this.writer = tx;
    return tx;
  }

  /** Publishes the transaction's changes as the next version. */
  commit(tx: WriteTransaction<R>): Snapshot<R> {
    this.checkWriter(tx);
    // the in-place status changes only readers of older versions need (often none) are forgotten
    let oldest = tx.version;
    for (const v of this.readers.keys()) oldest = Math.min(oldest, v);
    for (const t of this.tables.values()) {
      t.endWrite();
      t.forgetStatusChanges(oldest);
      if (tx.bulk) t.shrink();
    }
    if (tx.bulk) this.dictionary.shrink();
    const previous = this.current;
    this.current = new Snapshot(this, tx.version, tx.catalogue, this.limits());
    if (!this.readers.has(previous.version)) this.liveSnapshots.delete(previous.version);
    this.liveSnapshots.set(this.current.version, this.current);
    this.finish(tx);
    return this.current;
  }

  /** A point inside the open transaction to return to with {@link FactStore.rollbackTo}. */
  savepoint(tx: WriteTransaction<R>): StoreSavepoint<R> {
    this.checkWriter(tx);
    const tables = new Map<number, TableSavepoint>();
    for (const [id, t] of this.tables) tables.set(id, t.savepoint());
    return { terms: this.dictionary.size, catalogue: tx.catalogue, tables };
  }

  /** Undoes the transaction's changes made after a savepoint; the transaction stays open. */
  rollbackTo(tx: WriteTransaction<R>, sp: StoreSavepoint<R>): void {
    this.checkWriter(tx);
    for (const [id, t] of this.tables) {
      const tsp = sp.tables.get(id);
      if (tsp) t.rollbackTo(tsp);
    }
    this.dictionary.truncate(sp.terms);
    tx.catalogue = sp.catalogue;
  }

  /** Discards the transaction's changes. */
  rollback(tx: WriteTransaction<R>): void {
    this.checkWriter(tx);
    for (const t of this.tables.values()) t.rollback();
    this.dictionary.truncate(tx.termMark);
    this.finish(tx);
  }

  /**
   * Runs a non-transactional catalogue change (tuple table creation and deletion): it takes
   * the write lock, applies `change` to the committed catalogue and publishes it at once.
   */
  async alterCatalogue(timeoutMs: number, change: (catalogue: Catalogue<R>) => Catalogue<R>): Promise<void> {
    const tx = await this.beginWrite(timeoutMs);
    try {
      tx.catalogue = change(tx.catalogue);
    } catch (e) {
      this.rollback(tx);
      throw e;
    }
    this.commit(tx);
  }

  /** Creates the physical table for a new in-memory tuple table; returns its id. */
  createTable(arity: number): number {
    const id = this.nextTableId++;
    const table = new TupleTable(arity);
    this.tables.set(id, table);
    return id;
  }

  /** A new table id with no physical table (for a built-in table, which stores nothing). */
  allocateTableId(): number {
    return this.nextTableId++;
  }

  /**
   * Restores the physical tables of a persisted store: `tables` maps ids to arities (tables
   * not listed are dropped) and `nextTableId` is the next id to allocate. Only before any
   * transaction or inside the open one (used by start-up recovery).
   */
  restoreTables(tables: ReadonlyMap<number, number>, nextTableId: number): void {
    for (const id of [...this.tables.keys()]) if (!tables.has(id)) this.tables.delete(id);
    for (const [id, arity] of tables) {
      if (this.tables.get(id)?.arity === arity) continue;
      const table = new TupleTable(arity);
      if (this.writer) table.beginWrite();
      this.tables.set(id, table);
    }
    this.nextTableId = Math.max(this.nextTableId, nextTableId);
  }

  /** The next table id to be allocated (persisted with the catalogue). */
  get nextTableIdentifier(): number {
    return this.nextTableId;
  }

  /**
   * Drops the physical table (the catalogue entry is removed by the caller, who has committed
   * the catalogue without it): open readers of older versions keep reading it until they end.
   */
  dropTable(id: number): void {
    const table = this.tables.get(id);
    if (!table) return;
    this.tables.delete(id);
    this.retiredTables.set(id, { table, droppedAt: this.current.version });
    this.forgetRetiredTables();
  }

  /** Lets go of the dropped tables that no open reader's version lists any more. */
  private forgetRetiredTables(): void {
    if (this.retiredTables.size === 0) return;
    let oldest = Infinity;
    for (const v of this.readers.keys()) oldest = Math.min(oldest, v);
    for (const [id, { droppedAt }] of this.retiredTables) if (oldest >= droppedAt) this.retiredTables.delete(id);
  }

  /**
   * Reclaims rows deleted before every live reader's version. Needs the write lock, so it
   * waits for an open read/write transaction to finish (up to `timeoutMs`).
   */
  async compact(timeoutMs: number): Promise<void> {
    const tx = await this.beginWrite(timeoutMs);
    try {
      let oldest = this.current.version;
      for (const v of this.readers.keys()) oldest = Math.min(oldest, v);
      for (const [id, table] of this.tables) {
        table.endWrite();
        const remap = table.compact(oldest);
        for (const snap of this.liveSnapshots.values()) snap.remap(id, remap);
      }
    } finally {
      this.finish(tx);
    }
  }

  /** Bytes held by dictionary and tables. */
  get byteSize(): number {
    let n = this.dictionary.byteSize;
    for (const t of this.tables.values()) n += t.byteSize;
    return n;
  }

  private limits(): Map<number, number> {
    const m = new Map<number, number>();
    for (const [id, t] of this.tables) m.set(id, t.rowCount);
    return m;
  }

  private checkWriter(tx: WriteTransaction<R>): void {
    if (this.writer !== tx || !tx.active) throw new TransactionError('the transaction is no longer active');
  }

  private finish(tx: WriteTransaction<R>): void {
    tx.close();
    this.writer = null;
    this.lock.release();
  }
}
