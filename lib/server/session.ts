/**
 * A session: one role's work on one data store, as a connection carries it out. The session owns
 * the connection's transaction (a read-only snapshot or the store's write transaction), the
 * role's access to the store's facts, the interrupter and limits of its calls, and the one
 * reasoning policy: reads inside a read/write transaction see the materialisation of its
 * changes; a commit reasons, runs the commit procedure and publishes; an update, and dropping
 * the rules, reason first. Every operation runs through {@link StoreSession.read} or
 * {@link StoreSession.write}, which open and settle implicit transactions and savepoints.
 *
 * The api's `DataStoreConnection` checks privileges and forwards here; it never touches a
 * transaction, the store's tables or its reasoner.
 * @module
 */
import { BadRequestError, ConstraintViolationError, DuplicateResourceError, TransactionError, UnknownResourceError } from '../model/errors.js';
import { type Interrupter, withDeadline } from '../model/control.js';
import type { ImportResult, NotificationRow } from '../model/import-result.js';
import type { ByteCounter } from '../formats/byte-source.js';
import { ImportReport } from '../formats/notifications.js';
import type { Catalogue } from '../storage/catalogue.js';
import { storesFacts, unstoredFactsText } from '../storage/catalogue.js';
import { readableFacts, type FactAccess } from '../storage/fact-access.js';
import { DEFAULT_TRIPLES_ID, QUADS_ID, type Snapshot, type StoreState, type WriteTransaction } from '../storage/fact-store.js';
import { factDomainMask } from '../storage/tuple-table.js';
import { type AnswerSink, type EvaluationOptions, evaluateQuery, explainQuery, type QueryAnswer, type QueryOptions, type QueryRun, runQuery } from '../sparql/query.js';
import { parseUpdate } from '../sparql/update.js';
import type { DataStore, PropertyRow, TupleTableRow } from './data-store.js';
import { type ExportCounters, type ExportDestination, type ExportParameters, exportFacts } from './export.js';
import { type Explanation, explainFact, type ExplanationOptions } from './explanation.js';
import { storeAccess } from './fact-access.js';
import { type ImportOptions, type ImportSource, importInto, type UpdateType } from './import.js';
import type { Server } from './server.js';
import { QuadReader } from './quad-reader.js';
import type { BoundParameters } from '../sparql/types.js';
import { commitValidationOf } from './shacl-commit-options.js';
import { mayReadGraphs, ShaclViolationError, type ValidationOptions, type ValidationReport } from './shacl-report.js';
import { reportMediaType, reportText } from './shacl-report-output.js';
import { checkValidationAccess, reportInTerms, validateState } from './shacl-validation.js';
import { shaclTables } from './shacl-tables.js';
import { type SavedQuery, savedQueriesOf, savedQueryOf, withoutSavedQuery, withSavedQuery } from './saved-queries.js';

export type { AnswerSink, QueryAnswer, QueryOptions } from '../sparql/query.js';
export type { QueryTerm } from '../sparql/query-terms.js';

/** The kinds of transaction. */
export type TransactionType = 'read-only' | 'read-write';

/** The lock timeout of implicit transactions, in milliseconds. */
export const IMPLICIT_LOCK_TIMEOUT_MS = 2000;

/** The options of an update run by a session: the protocol's USING graphs and the evaluation's limits. */
export interface SessionUpdateOptions {
  /** Base IRI for relative IRIs (default: the store's). */
  readonly baseIRI?: string | undefined;
  /** Graphs forming the default graph of every WHERE clause. */
  readonly usingGraphs?: readonly string[] | undefined;
  /** Named graphs of every WHERE clause. */
  readonly usingNamedGraphs?: readonly string[] | undefined;
  /** The time limit of the WHERE clauses (milliseconds). */
  readonly timeLimitMs?: number | undefined;
  /** The memory limit of the WHERE clauses (estimated bytes). */
  readonly memoryLimitBytes?: number | undefined;
  /** Values for variables of the update (bound-parameters.ts). */
  readonly bindings?: BoundParameters | undefined;
}

/** What an import has read of one source: bytes so far, and the source's size when known. */
export interface ImportCounter {
  /** Bytes read so far. */
  readonly read: number;
  /** The source's size in bytes, when known. */
  readonly size: number | undefined;
}

/**
 * What an import reports while it runs, for progress: bytes read of the sources, their sizes
 * when known, facts read.
 * @internal
 */
export interface ImportWatch {
  /** Called with each error, warning or prefix row as soon as it is found. */
  readonly onNotification?: ((row: NotificationRow) => void) | undefined;
  /** Called once the sources are open: their byte counters and the facts read so far. */
  readonly onStart?: ((counters: readonly ImportCounter[], facts: () => number) => void) | undefined;
  /** Called when the import is read and its implicit transaction's reasoning begins. */
  readonly onReasoning?: ((derived: () => number) => void) | undefined;
}

/** Options of {@link StoreSession.countFacts}. */
export interface SessionCountOptions {
  /** `explicit`, `derived` or `all` (default). */
  readonly factDomain?: string | undefined;
  /** Count only this tuple table (default: the default graph and all named graphs). */
  readonly tupleTable?: string | undefined;
}

type TransactionState = { readonly type: 'read-only'; readonly snapshot: Snapshot } | { readonly type: 'read-write'; readonly tx: WriteTransaction };

/** The result of an import from its report (a failed import changed nothing: no counter says otherwise). */
function resultOf(report: ImportReport, prefixes: ReadonlyMap<string, string>): ImportResult {
  if (report.errors > 0) {
    report.changedFacts = 0;
    report.changedRules = 0;
    report.changedAxioms = 0;
  }
  // the rows and the text are made when first read (a small import's caller often reads neither)
  let rows: NotificationRow[] | undefined;
  let text: string | undefined;
  return {
    get rows(): NotificationRow[] {
      return (rows ??= report.rows());
    },
    errors: report.errors,
    warnings: report.warnings,
    processedFacts: report.processedFacts,
    changedFacts: report.changedFacts,
    processedRules: report.processedRules,
    changedRules: report.changedRules,
    processedAxioms: report.processedAxioms,
    changedAxioms: report.changedAxioms,
    prefixes,
    get text(): string {
      return (text ??= report.toText());
    },
  };
}

/** The facts added to the fact tables of a write transaction since this call (what reasoning has derived so far). */
function derivedSince(state: StoreState): () => number {
  const rows = (): number => state.table(DEFAULT_TRIPLES_ID).rowCount + state.table(QUADS_ID).rowCount;
  const start = rows();
  return () => Math.max(0, rows() - start);
}

/**
 * One role's work on one data store (see the module's header).
 * @internal
 */
export class StoreSession {
  private transaction: TransactionState | undefined;
  /** The role database's generation when the role was last seen to hold every privilege in the store. */
  private unrestrictedAt = -1;

  /** Opens a session of `roleName` on `store`; `interrupter` stops its calls. */
  constructor(
    private readonly server: Server,
    private readonly store: DataStore,
    /** The role the session acts for. */
    readonly roleName: string,
    private readonly interrupter: Interrupter,
  ) {}

  /** The name of the data store. */
  get storeName(): string {
    return this.store.name;
  }

  /** The store's unique id. */
  get uniqueId(): string {
    return this.store.uniqueId;
  }

  /** The store's type. */
  get storeType(): string {
    return this.store.type;
  }

  /** Waits until the store has published at least `version` (see {@link Server.awaitVersion}). */
  awaitVersion(version: number, timeoutMs: number): Promise<number> {
    return this.server.awaitVersion(this.store, version, timeoutMs);
  }

  /** Whether the store was deleted. */
  get storeDeleted(): boolean {
    return this.store.isDeleted;
  }

  /** The version of the store's latest commit. */
  get committedVersion(): number {
    return this.store.facts.committed.version;
  }

  /** The open transaction's type, or undefined. */
  get transactionType(): TransactionType | undefined {
    return this.transaction?.type;
  }

  /** A session of the same role on the same store (for a duplicate connection). */
  duplicate(interrupter: Interrupter): StoreSession {
    return new StoreSession(this.server, this.store, this.roleName, interrupter);
  }

  // ---- transactions ----

  /** Starts an explicit transaction. */
  async begin(type: TransactionType, lockTimeoutMs = IMPLICIT_LOCK_TIMEOUT_MS): Promise<void> {
    if (this.transaction) throw new TransactionError(`a ${this.transaction.type} transaction is already open on this connection`);
    if (type === 'read-only') this.transaction = { type, snapshot: this.store.facts.read() };
    else if (type === 'read-write') this.transaction = { type, tx: await this.store.beginWrite(lockTimeoutMs) };
    else throw new BadRequestError(`unknown transaction type '${String(type)}' (expected read-only or read-write)`);
  }

  /**
   * Commits the open transaction (a read-only one just ends): reasoning, the commit procedure,
   * then publication; on failure the transaction is rolled back, except that constraint
   * violations leave it open as it was before the commit. `onReasoning` gets a count of
   * the facts derived so far.
   */
  async commit(onReasoning?: (derived: () => number) => void): Promise<void> {
    const t = this.transaction;
    if (!t) throw new TransactionError('no transaction is open on this connection');
    this.transaction = undefined;
    if (t.type === 'read-only') {
      this.store.facts.release(t.snapshot);
      return;
    }
    onReasoning?.(derivedSince(t.tx));
    try {
      await this.publish(t.tx, true);
    } catch (e) {
      // the transaction stays open as it was: the data can be fixed and the commit tried again
      if (e instanceof ConstraintViolationError) this.transaction = t;
      throw e;
    }
  }

  /** Rolls back the open transaction: none of its changes remain. */
  rollback(): void {
    if (!this.transaction) throw new TransactionError('no transaction is open on this connection');
    this.end();
  }

  /** Ends the session: its open transaction, if any, is rolled back. */
  close(): void {
    if (this.transaction) this.end();
  }

  private end(): void {
    const t = this.transaction!;
    this.transaction = undefined;
    if (t.type === 'read-only') this.store.facts.release(t.snapshot);
    else this.store.rollback(t.tx);
  }

  /**
   * Reasons, runs the commit procedure and publishes `tx`; the commit acts for the store, not
   * the role. A commit refused by SHACL validation tells its report only to a role that may
   * read the graphs it is about, one refused by constraint violations their properties only to
   * a role that may read the default graph; with `recoverable`, the latter leaves `tx` open.
   */
  private async publish(tx: WriteTransaction, recoverable = false): Promise<void> {
    const access = tx.access;
    tx.access = undefined;
    const catalogue = tx.catalogue;
    try {
      // a constraint violation's properties are facts of the default graph: shown when the role may read it
      await this.store.commit(tx, this.interrupter, { recoverable, showViolations: () => mayReadGraphs(this.access(catalogue), {}) });
    } catch (e) {
      if (recoverable && e instanceof ConstraintViolationError) tx.access = access;
      if (e instanceof ShaclViolationError && e.report !== undefined && !mayReadGraphs(this.access(catalogue), commitValidationOf(this.store.parameters) ?? {})) {
        throw new ShaclViolationError(e.report, false);
      }
      throw e;
    }
  }

  /** Fails when a transaction is open (for the non-transactional operations). */
  noTransaction(what: string): void {
    if (this.transaction) throw new TransactionError(`${what} is not transactional and cannot run while the connection has an open transaction`);
  }

  /** The catalogue the session's next operation sees. */
  catalogue(): Catalogue {
    return this.transaction?.type === 'read-write' ? this.transaction.tx.catalogue : this.transaction?.type === 'read-only' ? this.transaction.snapshot.catalogue : this.store.facts.committed.catalogue;
  }

  /** The role's access to the store's facts (undefined: unrestricted). */
  access(catalogue: Catalogue): FactAccess | undefined {
    const generation = this.server.roles.generation;
    if (this.unrestrictedAt === generation) return undefined;
    const access = storeAccess(this.server.roles, this.roleName, this.store.name, catalogue, this.store.facts.dictionary);
    if (access === undefined) this.unrestrictedAt = generation;
    return access;
  }

  /**
   * Runs `fn` on the state of the open transaction (a read/write one brought up to date by
   * reasoning first), or of an implicit read-only one.
   */
  async read<T>(fn: (state: StoreState) => Promise<T> | T): Promise<T> {
    if (this.transaction?.type === 'read-only') return fn(this.transaction.snapshot);
    if (this.transaction) {
      const tx = this.transaction.tx;
      await this.reasonInTransaction(tx);
      return fn(tx);
    }
    const snapshot = this.store.facts.read();
    try {
      return await fn(snapshot);
    } finally {
      this.store.facts.release(snapshot);
    }
  }

  /**
   * Runs `fn` in the open read/write transaction (undoing just its changes when it fails or
   * when `failed` says so), or in an implicit one that is committed on success and rolled
   * back otherwise. Inside `fn` the transaction carries the role's access.
   */
  async write<T>(fn: (tx: WriteTransaction) => Promise<T> | T, failed: (result: T) => boolean = () => false): Promise<T> {
    const store = this.store;
    if (this.transaction) {
      if (this.transaction.type !== 'read-write') throw new TransactionError('the open transaction is read-only: this operation needs a read-write transaction');
      const tx = this.transaction.tx;
      tx.access = this.access(tx.catalogue);
      const sp = store.savepoint(tx);
      try {
        const result = await fn(tx);
        if (failed(result)) store.rollbackTo(tx, sp);
        return result;
      } catch (e) {
        store.rollbackTo(tx, sp);
        throw e;
      }
    }
    const tx = await store.beginWrite(IMPLICIT_LOCK_TIMEOUT_MS);
    tx.access = this.access(tx.catalogue);
    let result: T;
    try {
      result = await fn(tx);
    } catch (e) {
      store.rollback(tx);
      throw e;
    }
    if (failed(result)) store.rollback(tx);
    else await this.publish(tx);
    return result;
  }

  /** Runs pending reasoning inside a read/write transaction; on failure only that work is undone. */
  private async reasonInTransaction(tx: WriteTransaction): Promise<void> {
    if (!this.store.reasoner.requiresReasoning) return;
    const sp = this.store.savepoint(tx);
    try {
      await this.store.reasoner.reason(tx, this.interrupter);
    } catch (e) {
      this.store.rollbackTo(tx, sp);
      throw e;
    }
  }

  // ---- SHACL ----

  /**
   * Validates the store's data graph against the shapes of its shapes graph (see
   * DataStoreConnection.validate), as the role may: it must read both graphs (and every graph
   * when the shapes hold SHACL-SPARQL constraints). The server's `query-time-limit` bounds it.
   */
  async validate(options: ValidationOptions): Promise<ValidationReport> {
    const dictionary = this.store.facts.dictionary;
    const { timeLimitMs } = this.server.queryLimits();
    const interrupter = withDeadline(this.interrupter, timeLimitMs === undefined ? Infinity : performance.now() + timeLimitMs, 'the validation exceeded the time limit of queries (query-time-limit)');
    return this.read(async (state) => {
      checkValidationAccess(this.access(state.catalogue), state, dictionary, options);
      return reportInTerms(await validateState(state, dictionary, options, interrupter), dictionary);
    });
  }

  /** The report of {@link StoreSession.validate} as RDF text of `mediaType`, with the store's prefixes. */
  async validateAsText(options: ValidationOptions, mediaType: string): Promise<string> {
    reportMediaType(mediaType);
    const report = await this.validate(options);
    return reportText(report, mediaType, await this.getPrefixes());
  }

  // ---- import and export ----

  /** Imports content (see DataStoreConnection.importData); the result says what was read and changed. */
  async importData(updateType: UpdateType, source: ImportSource, options: ImportOptions, watch: ImportWatch = {}): Promise<ImportResult> {
    const report = new ImportReport();
    const prefixes = new Map<string, string>();
    report.onRow = (row) => {
      if (row.type === 'prefix') prefixes.set(row.description, row.value);
      watch.onNotification?.(row);
    };
    const counters: ByteCounter[] | undefined = watch.onStart ? [] : undefined;
    if (counters) watch.onStart!(counters, () => report.processedFacts);
    await this.write(
      async (tx) => {
        await importInto({ store: this.store, tx, interrupter: this.interrupter, report, counters }, updateType, source, options);
        // what follows in an implicit transaction is the reasoning of its commit
        watch.onReasoning?.(derivedSince(tx));
      },
      () => report.errors > 0,
    );
    return resultOf(report, prefixes);
  }

  /** Writes the store's facts (or rules) to `destination` as `mediaType`, as the role may read them. */
  exportTo(destination: ExportDestination, mediaType: string, parameters: ExportParameters, counters?: ExportCounters): Promise<void> {
    return this.read((state) =>
      exportFacts({ state, dictionary: this.store.facts.dictionary, interrupter: this.interrupter, access: this.access(state.catalogue), counters }, destination, mediaType, parameters),
    );
  }

  /** Reads OWL axioms from triples into the axioms of a graph (see DataStoreConnection.importAxiomsFromTriples). */
  async importAxioms(options: { sourceGraph?: string | undefined; destinationGraph?: string | undefined; assertions: boolean; deleting: boolean }): Promise<ImportResult> {
    const report = new ImportReport();
    // the OWL translator loads with the first axioms read, not when quadlog is imported
    const { importAxioms } = await import('./axioms.js');
    await this.write(
      (tx) => importAxioms(this.store, tx, options, report),
      () => report.errors > 0,
    );
    return resultOf(report, new Map());
  }

  // ---- queries, updates, explanation ----

  /**
   * An evaluation on `state` by the session's role: the options with the limits the server
   * sets and the role's access, stopped by `interrupter`, pausing for `pause`.
   */
  private queryRun(state: StoreState, options: QueryOptions, interrupter = this.interrupter, pause?: () => Promise<void> | undefined): QueryRun {
    const access = this.access(state.catalogue);
    const limited = { ...options, ...this.server.queryLimits(options) };
    const computedTables = shaclTables(state, this.store.facts.dictionary, access, interrupter);
    const evaluation: EvaluationOptions = access === undefined ? { ...limited, agent: this.roleName, computedTables } : { ...limited, access, agent: this.roleName, computedTables };
    return { state, dictionary: this.store.facts.dictionary, options: evaluation, interrupter, pause };
  }

  /** Evaluates a query and returns its whole answer. */
  evaluateQuery(query: string, options: QueryOptions): Promise<QueryAnswer> {
    return this.read((state) => evaluateQuery(this.queryRun(state, options), query));
  }

  /**
   * Evaluates a query into `sink`; `sinkFor` may make the sink from the state the query reads
   * (its prefixes and base IRI); `pause` is awaited between batches (backpressure).
   */
  runQuery(query: string, options: QueryOptions, sinkFor: (state: StoreState) => AnswerSink, pause?: () => Promise<void> | undefined): Promise<void> {
    return this.read((state) => runQuery(this.queryRun(state, options, this.interrupter, pause), query, sinkFor(state)));
  }

  /**
   * Evaluates a cursor's query into `sink`. Inside a read/write transaction the answers are
   * taken at once (the transaction changes under the cursor); otherwise the run reads the
   * open read-only transaction's snapshot or its own, is stopped by `interrupter`, and pauses
   * for `pause`.
   */
  async runCursorQuery(query: string, options: QueryOptions, sink: AnswerSink, interrupter: Interrupter, pause: () => Promise<void> | undefined): Promise<void> {
    if (this.transaction?.type === 'read-write') return this.runQuery(query, options, () => sink);
    // a cursor may outlive the read-only transaction it was opened in: it holds its snapshot as a reader of its own
    const facts = this.store.facts;
    const state = this.transaction?.type === 'read-only' ? facts.retain(this.transaction.snapshot) : facts.read();
    try {
      await runQuery(this.queryRun(state, options, interrupter, pause), query, sink);
    } finally {
      facts.release(state);
    }
  }

  /**
   * A reader of quads on a snapshot it holds until released: the open read-only transaction's
   * (held as a reader of its own, so it may outlive the transaction), or the latest version's.
   * Undefined inside a read/write transaction, whose state changes under a reader: see
   * {@link StoreSession.readQuads}.
   */
  openQuadReader(): QuadReader | undefined {
    if (this.transaction?.type === 'read-write') return undefined;
    const facts = this.store.facts;
    const state = this.transaction?.type === 'read-only' ? facts.retain(this.transaction.snapshot) : facts.read();
    return new QuadReader(state, facts.dictionary, this.access(state.catalogue), () => facts.release(state));
  }

  /** Runs `fn` on a reader of the state the session's next read sees (a read/write transaction's after reasoning). */
  readQuads<T>(fn: (reader: QuadReader) => T): Promise<T> {
    return this.read((state) => fn(new QuadReader(state, this.store.facts.dictionary, this.access(state.catalogue))));
  }

  /** The plan of a query as text. */
  explainQuery(query: string, options: QueryOptions): Promise<string> {
    return this.read((state) => explainQuery(this.queryRun(state, options), query));
  }

  /** Explains why a fact holds, showing only what the role may read. */
  explain(fact: string, options: ExplanationOptions): Promise<Explanation> {
    return this.read((state) => explainFact(state, this.store.facts.dictionary, fact, options, this.access(state.catalogue)));
  }

  /** Runs a SPARQL update as one transaction (or as part of the open read/write one), after reasoning. */
  evaluateUpdate(update: string, options: SessionUpdateOptions): Promise<void> {
    return this.write(async (tx) => {
      await this.store.reasoner.reason(tx, this.interrupter);
      await this.store.runUpdate(tx, update, options.baseIRI ?? tx.catalogue.baseIRI, this.interrupter, options, this.server.queryLimits(options), options.bindings);
    });
  }

  // ---- reasoning ----

  /** Rebuilds the compiled rules and checks the commit procedure. */
  recompile(): Promise<void> {
    return this.write((tx) => this.store.recompile(tx));
  }

  /** Deletes every fact, rule and axiom. */
  clear(): Promise<void> {
    return this.write((tx) => this.store.clear(tx));
  }

  /** Drops every rule and makes every fact explicit (after bringing reasoning up to date). */
  clearRulesExplicateFacts(): Promise<void> {
    return this.write(async (tx) => {
      await this.store.reasoner.reason(tx, this.interrupter);
      this.store.clearRulesExplicateFacts(tx);
    });
  }

  /** Recomputes the materialisation from scratch; `onReasoning` gets a count of the facts derived so far. */
  recomputeMaterialization(onReasoning?: (derived: () => number) => void): Promise<void> {
    return this.write(async (tx) => {
      onReasoning?.(derivedSince(tx));
      this.store.reasoner.requestRecompute();
      await this.store.reasoner.reason(tx, this.interrupter);
    });
  }

  /** Brings the materialisation up to date inside the open read/write transaction. */
  async updateMaterialization(onReasoning?: (derived: () => number) => void): Promise<void> {
    if (this.transaction?.type !== 'read-write') throw new TransactionError('update-materialization needs an open read-write transaction');
    const tx = this.transaction.tx;
    onReasoning?.(derivedSince(tx));
    await this.reasonInTransaction(tx);
  }

  /** Reclaims the space of deleted facts that no reader can still see (not transactional). */
  async compact(): Promise<void> {
    this.noTransaction('compact');
    await this.store.compact(IMPLICIT_LOCK_TIMEOUT_MS);
  }

  // ---- facts ----

  /** Counts facts of the default graph and named graphs (or of one tuple table) that the role may read. */
  countFacts(options: SessionCountOptions): Promise<number> {
    return this.read((state) => {
      const mask = factDomainMask(options.factDomain, 'all');
      const info = options.tupleTable !== undefined ? this.store.tableInfo(state, options.tupleTable) : undefined;
      if (info && !storesFacts(info)) throw new BadRequestError(`tuple table '${info.name}' ${unstoredFactsText(info, 'counted', 'its facts are computed, not stored,')}`);
      const ids = info ? [info.id] : [DEFAULT_TRIPLES_ID, QUADS_ID];
      const access = this.access(state.catalogue);
      let n = 0;
      for (const id of ids) {
        const table = state.table(id);
        const readable = readableFacts(access, id);
        table.forEachVisibleRow(state.view(id), mask, (row) => {
          if (readable === undefined || readable((c) => table.get(row, c))) n++;
        });
      }
      return n;
    });
  }

  /** The names of the tuple tables that store facts (built-in ones compute theirs). */
  factTables(): string[] {
    return [...this.catalogue().tupleTables.values()].filter(storesFacts).map((info) => info.name);
  }

  // ---- statistics ----

  /** The statistics objects (Name, Parameters in query-string form). */
  listStatistics(): Promise<Array<{ name: string; parameters: string }>> {
    return this.read((state) => [...state.catalogue.statistics].map(([name, p]) => ({ name, parameters: new URLSearchParams(p).toString() })));
  }

  /** Creates a statistics object (`column-counts`, without parameters). */
  createStatistics(name: string, parameters: Readonly<Record<string, string>>): Promise<void> {
    return this.write((tx) => {
      if (name !== 'column-counts') throw new BadRequestError(`unknown statistics '${name}' (known: column-counts)`);
      if (Object.keys(parameters).length > 0) throw new BadRequestError(`statistics '${name}' takes no parameters`);
      if (tx.catalogue.statistics.has(name)) throw new DuplicateResourceError(`statistics '${name}' already exist`);
      tx.catalogue = tx.catalogue.set('statistics', tx.catalogue.statistics.set(name, {}));
    });
  }

  /** Deletes a statistics object. */
  deleteStatistics(name: string): Promise<void> {
    return this.write((tx) => {
      if (!tx.catalogue.statistics.has(name)) throw new UnknownResourceError(`statistics '${name}' do not exist`);
      tx.catalogue = tx.catalogue.set('statistics', tx.catalogue.statistics.delete(name));
    });
  }

  /** Checks that a statistics object exists (column counts are always up to date). */
  updateStatistics(name: string | undefined): Promise<void> {
    return this.read((state) => {
      if (name !== undefined && !state.catalogue.statistics.has(name)) throw new UnknownResourceError(`statistics '${name}' do not exist`);
    });
  }

  // ---- catalogue ----

  /** The axioms of the store: destination graph ('' = default graph) and axiom text. */
  listAxioms(): Promise<Array<{ graph: string; axiom: string }>> {
    return this.read((state) => [...state.catalogue.axioms.values()].map((a) => ({ graph: a.destination, axiom: a.key })));
  }

  /** The commit procedure, if any. */
  getCommitProcedure(): Promise<string | undefined> {
    return this.read((state) => state.catalogue.commitProcedure || undefined);
  }

  /** Sets the commit procedure (it must parse as a SPARQL update); returns whether it changed. */
  setCommitProcedure(update: string): Promise<boolean> {
    return this.write((tx) => {
      parseUpdate(update, tx.catalogue.prefixes, tx.catalogue.baseIRI);
      if (tx.catalogue.commitProcedure === update) return false;
      tx.catalogue = tx.catalogue.set('commitProcedure', update);
      return true;
    });
  }

  /** Removes the commit procedure; returns whether there was one. */
  deleteCommitProcedure(): Promise<boolean> {
    return this.write((tx) => {
      if (tx.catalogue.commitProcedure === '') return false;
      tx.catalogue = tx.catalogue.set('commitProcedure', '');
      return true;
    });
  }

  /** The data store's properties (no reasoning first: requires-incremental-reasoning reports the pending work itself). */
  properties(): Promise<PropertyRow[]> {
    if (this.transaction?.type === 'read-write') return Promise.resolve(this.store.properties(this.transaction.tx));
    return this.read((state) => this.store.properties(state));
  }

  /** The base IRI. */
  getBaseIRI(): Promise<string> {
    return this.read((state) => state.catalogue.baseIRI);
  }

  /** Sets the base IRI; returns whether it changed. */
  setBaseIRI(iri: string): Promise<boolean> {
    return this.write((tx) => this.store.setBaseIRI(tx, iri));
  }

  /** The prefixes (name with colon → IRI), in definition order. */
  getPrefixes(): Promise<Map<string, string>> {
    return this.read((state) => new Map(state.catalogue.prefixes));
  }

  /** Replaces all prefixes. */
  setPrefixes(prefixes: ReadonlyMap<string, string> | Readonly<Record<string, string>>): Promise<void> {
    return this.write((tx) => this.store.setPrefixes(tx, prefixes));
  }

  /** Sets one prefix; returns whether anything changed. */
  setPrefix(name: string, iri: string): Promise<boolean> {
    return this.write((tx) => this.store.setPrefix(tx, name, iri));
  }

  /** Removes one prefix; returns whether it existed. */
  unsetPrefix(name: string): Promise<boolean> {
    return this.write((tx) => this.store.unsetPrefix(tx, name));
  }

  // ---- saved queries ----

  /** The saved queries, by name. */
  listSavedQueries(): Promise<SavedQuery[]> {
    return this.read((state) => savedQueriesOf(state.catalogue));
  }

  /** The saved query `name` (UnknownResourceError when there is none). */
  getSavedQuery(name: string): Promise<SavedQuery> {
    return this.read((state) => savedQueryOf(state.catalogue, name));
  }

  /** Saves `text` under `name` for the session's role (create or replace); returns whether the name was new. */
  saveQuery(name: string, text: string): Promise<boolean> {
    return this.write(async (tx) => {
      const { catalogue, created } = await withSavedQuery(tx.catalogue, name, text, this.roleName, new Date(), this.interrupter);
      tx.catalogue = catalogue;
      return created;
    });
  }

  /** Deletes the saved query `name` (UnknownResourceError when there is none). */
  deleteSavedQuery(name: string): Promise<void> {
    return this.write((tx) => {
      tx.catalogue = withoutSavedQuery(tx.catalogue, name);
    });
  }

  /** The tuple tables (Name, Type, ID, MinArity, MaxArity). */
  listTupleTables(): Promise<TupleTableRow[]> {
    return this.read((state) => this.store.listTupleTables(state));
  }

  /** Property/Value rows describing a tuple table. */
  describeTupleTable(name: string): Promise<Array<{ property: string; value: string }>> {
    return this.read((state) => this.store.describeTupleTable(state, name));
  }

  /** Creates an in-memory tuple table (not transactional). */
  async createTupleTable(name: string, parameters: Readonly<Record<string, string>>): Promise<void> {
    this.noTransaction('creating a tuple table');
    await this.store.createTupleTable(name, parameters, IMPLICIT_LOCK_TIMEOUT_MS);
  }

  /** Deletes a user tuple table and its facts (not transactional). */
  async deleteTupleTable(name: string): Promise<void> {
    this.noTransaction('deleting a tuple table');
    await this.store.deleteTupleTable(name, IMPLICIT_LOCK_TIMEOUT_MS);
  }

  /** The store's data sources (registration, description and samples are not transactional). */
  get dataSources(): DataStore['dataSources'] {
    return this.store.dataSources;
  }
}

