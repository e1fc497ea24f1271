/**
 * A connection to one data store: transactions, import and export, prefixes, base IRI,
 * tuple tables, properties and component information.
 *
 * Every call needs read access to the store (`|datastores|<ds>`) and checks the other
 * privileges it needs before it changes anything: write on the store for its prefixes,
 * base IRI, statistics and maintenance; on `|rules`, `|axioms`, `|commitprocedure`,
 * `|tupletables[|t]` and `|datasources[|s]` for those; on a tuple table (and a named graph)
 * for its facts. Named graphs the role may not read are invisible to its queries and exports.
 * @module
 */
import { AccessDeniedError, ImportError, InvalidConnectionError, TransactionError, BadRequestError, DuplicateResourceError, UnknownResourceError } from '../model/errors.js';
import type { ImportResult, NotificationRow } from '../model/import-result.js';
import { canonicalMediaType, DATALOG, ImportReport } from '../server/import-formats.js';
import type { Snapshot, StoreState, WriteTransaction } from '../server/store-state.js';
import { DEFAULT_TRIPLES, DEFAULT_TRIPLES_ID, QUADS, QUADS_ID } from '../server/store-state.js';
import { iriKey } from '../model/terms.js';
import type { DataStore, PropertyRow, TupleTableRow } from '../server/data-store.js';
import type { ComponentInfoRow } from '../server/component-info.js';
import type { DataSourceColumnRow, DataSourceRow, DataSourceSample, DataSourceTableRow } from '../server/data-sources.js';
import { type ByteExportOutput, type ChunkWritable, emitChunk, type ExportDestination, type ExportOutput, type ExportParameters, exportFacts } from '../server/export.js';
import { factDomainMask } from '../server/store-state.js';
import { type ImportOptions, type ImportSource, importInto, UPDATE_TYPES, type UpdateType } from '../server/import.js';
import type { Server } from '../server/server.js';
import { ConnectionBase } from './connection-base.js';
import { readableFacts, specifiersOf, storeAccess } from '../server/fact-access.js';
import { type Catalogue, type FactAccess, storesFacts } from '../server/store-state.js';
import { type ResourcePath, storeResources } from '../server/resource-specifiers.js';
import { importAxioms } from '../server/axioms.js';
import { AnswerBindings, type AnswerRow, Cursor, rowsInto } from './cursor.js';
import { type AnswerSink, type EvaluationOptions, evaluateQuery as evaluateSparql, explainQuery as explainSparql, type QueryAnswer, type QueryOptions, type QueryTerm, runQuery } from '../server/queries.js';
import { answerByteSink, answerWriterSink } from '../server/answer-output.js';
import { parseUpdate } from '../server/updates.js';
import { type Explanation, explainFact, type ExplanationOptions } from '../server/explanation.js';
import { AnswerChannel } from './answer-channel.js';
import { Interrupter } from '../model/control.js';
import type { ByteCounter } from '../server/import-formats.js';
import type { ExportCounters } from '../server/export.js';
import { monitored, ProgressMonitor, type ProgressOptions, type ProgressSample } from './progress.js';

/** The kinds of transaction. */
export type TransactionType = 'read-only' | 'read-write';

/** The lock timeout of implicit transactions, in milliseconds. */
export const IMPLICIT_LOCK_TIMEOUT_MS = 2000;

export type { ImportResult } from '../model/import-result.js';

/** Options of {@link DataStoreConnection.importData}. */
export interface ImportDataOptions extends ImportOptions, ProgressOptions {
  /** Called with each error, warning or prefix row as soon as it is found. */
  readonly onNotification?: (row: NotificationRow) => void;
  /**
   * Whether an import whose input has errors rejects with {@link ImportError} (default true).
   * With `false` it resolves with the result instead, whose `errors` is then non-zero. Either
   * way a failed import changes nothing.
   */
  readonly rejectOnError?: boolean;
}

/**
 * Options of {@link DataStoreConnection.exportData}: `onProgress` reports the facts written,
 * the bytes of output and the part of the store scanned.
 */
export type ExportOptions = ProgressOptions;

/**
 * Options of the calls that reason ({@link DataStoreConnection.commitTransaction},
 * {@link DataStoreConnection.recomputeMaterialization},
 * {@link DataStoreConnection.updateMaterialization}): `onProgress` reports the facts derived
 * so far (operation `reasoning`).
 */
export type MaterializationOptions = ProgressOptions;

/** Options of {@link DataStoreConnection.importAxiomsFromTriples}. */
export interface ImportAxiomsOptions {
  /**
   * Whether an import of axioms that has errors rejects with {@link ImportError} (default
   * true); with `false` it resolves with the result. Either way a failed import changes nothing.
   */
  readonly rejectOnError?: boolean;
}

/** Options of {@link DataStoreConnection.evaluateUpdate}. */
export interface UpdateOptions {
  /** Base IRI for relative IRIs (default: the store's). */
  readonly baseIRI?: string;
  /**
   * Graphs forming the default graph of every WHERE clause (the protocol's using-graph-uri);
   * an update with its own USING, USING NAMED or WITH is then refused.
   */
  readonly usingGraphs?: readonly string[];
  /** Named graphs of every WHERE clause (the protocol's using-named-graph-uri). */
  readonly usingNamedGraphs?: readonly string[];
  /**
   * Stop with InterruptedError when a WHERE clause is still being evaluated this many
   * milliseconds after the update's operations began (one deadline for all of them); default:
   * the server parameter `query-time-limit`.
   */
  readonly timeLimitMs?: number;
  /**
   * Stop with MemoryLimitError when a WHERE clause holds more (estimated bytes); default: the
   * server parameter `query-memory-limit`.
   */
  readonly memoryLimitBytes?: number;
}

/** Options of {@link DataStoreConnection.beginTransaction}. */
export interface BeginTransactionOptions {
  /** How long to wait for the write lock (read-write only); default 2000 ms. */
  readonly lockTimeoutMs?: number;
}

/** Fact counts of a store. */
export interface FactCountOptions {
  /** `explicit`, `derived` or `all` (default). */
  readonly factDomain?: string;
  /** Count only this tuple table (default: the default graph and all named graphs). */
  readonly tupleTable?: string;
}

type TransactionState = { readonly type: 'read-only'; readonly snapshot: Snapshot } | { readonly type: 'read-write'; readonly tx: WriteTransaction };

/** The result of an import from its report (a failed import changed nothing: no counter says otherwise). */
function resultOf(report: ImportReport, prefixes: ReadonlyMap<string, string>): ImportResult {
  if (report.errors > 0) {
    report.changedFacts = 0;
    report.changedRules = 0;
    report.changedAxioms = 0;
  }
  return {
    rows: report.rows(),
    errors: report.errors,
    warnings: report.warnings,
    processedFacts: report.processedFacts,
    changedFacts: report.changedFacts,
    processedRules: report.processedRules,
    changedRules: report.changedRules,
    processedAxioms: report.processedAxioms,
    changedAxioms: report.changedAxioms,
    prefixes,
    text: report.toText(),
  };
}

/** What an import has read so far, for progress reports. */
function importSample(counters: readonly ByteCounter[], report: ImportReport): ProgressSample {
  let bytes = 0;
  let total: number | undefined = 0;
  for (const c of counters) {
    bytes += c.read;
    total = total === undefined || c.size === undefined ? undefined : total + c.size;
  }
  if (counters.length === 0) total = undefined;
  return { operation: 'import', bytes, totalBytes: total, facts: report.processedFacts, fraction: total ? Math.min(1, bytes / total) : undefined };
}

/** A sampler of the reasoning in a write transaction: the rows added to the fact tables since it started. */
function reasoningSampler(state: StoreState): () => ProgressSample {
  const rows = (): number => state.table(DEFAULT_TRIPLES_ID).rowCount + state.table(QUADS_ID).rowCount;
  const start = rows();
  return () => ({ operation: 'reasoning', bytes: 0, totalBytes: undefined, facts: Math.max(0, rows() - start), fraction: undefined });
}

/** An export destination that counts the bytes written through it (the UTF-8 length of text). */
function countingDestination(destination: ExportDestination, count: (bytes: number) => void): ExportDestination {
  const pass = <C extends string | Uint8Array>(output: ChunkWritable | ((chunk: C) => void | Promise<void>), size: (chunk: C) => number) => (chunk: C) => {
    count(size(chunk));
    return emitChunk(output, chunk);
  };
  if (destination.chunks === 'text') return { chunks: 'text', output: pass(destination.output, (chunk) => Buffer.byteLength(chunk)) };
  return { chunks: 'bytes', output: pass(destination.output, (chunk) => chunk.byteLength) };
}

/**
 * The result of a finished import, or (unless `rejectOnError` is false) an ImportError
 * carrying it when the import had errors.
 */
function settle(result: ImportResult, rejectOnError: boolean | undefined, operation: string): ImportResult {
  if (result.errors > 0 && rejectOnError !== false) throw new ImportError(result, operation);
  return result;
}

/**
 * A connection to one data store. Serves one call at a time; close it when done (or
 * `await using ds = sc.newDataStoreConnection(…)`).
 *
 * ```ts
 * const ds = sc.newDataStoreConnection('family');
 * await ds.setPrefix('ex:', 'http://example.com/');
 * await ds.importData('ADD', 'ex:ann ex:parentOf ex:bob .');
 * await ds.importData('ADD', '[?x, ex:ancestorOf, ?y] :- [?x, ex:parentOf, ?y] .');
 * const answer = await ds.evaluateQuery('SELECT ?y WHERE { ex:ann ex:ancestorOf ?y }');
 * await ds.beginTransaction('read-write');
 * await ds.evaluateUpdate('DELETE DATA { ex:ann ex:parentOf ex:bob }');
 * await ds.commitTransaction();
 * ds.close();
 * ```
 */
export class DataStoreConnection extends ConnectionBase {
  private transaction: TransactionState | undefined;
  /** The channels of cursors whose queries may still be running (stopped when the connection closes). */
  private readonly cursorRuns = new Set<AnswerChannel<AnswerRow>>();
  /** The role database's generation when read access to the store was last confirmed. */
  private readCheckedAt = -1;
  /** The generation when the role was last seen to hold every privilege in the store. */
  private unrestrictedAt = -1;

  /** @internal */
  constructor(
    server: Server,
    /** @internal */
    private readonly store: DataStore,
    roleName: string,
    incarnation: number,
  ) {
    super(server, roleName, incarnation);
  }

  /** The name of the data store. */
  get dataStoreName(): string {
    return this.store.name;
  }

  /** The store's unique id. */
  get uniqueId(): string {
    this.checkUsable();
    return this.store.uniqueId;
  }

  /** The store's type. */
  get type(): string {
    this.checkUsable();
    return this.store.type;
  }

  /** The open transaction's type, or undefined. */
  get transactionType(): TransactionType | undefined {
    return this.transaction?.type;
  }

  /** A second connection to the same store with the same role. */
  duplicate(): DataStoreConnection {
    this.checkUsable();
    return new DataStoreConnection(this.server, this.store, this.roleName, this.incarnation);
  }

  /**
   * Asks the call running on this connection to stop (InterruptedError), a cursor's page being
   * read included: that cursor's query stops, and the cursor must be opened again.
   */
  override interrupt(): void {
    super.interrupt();
    for (const channel of this.cursorRuns) channel.interrupt();
  }

  /** Closes the connection, rolling back its open transaction. */
  override close(): void {
    if (this.transaction) this.endTransaction();
    for (const channel of this.cursorRuns) channel.cancel();
    this.cursorRuns.clear();
    super.close();
  }

  // ---- transactions ----

  /** Starts an explicit transaction; every later call runs inside it until commit or rollback. */
  async beginTransaction(type: TransactionType = 'read-write', options: BeginTransactionOptions = {}): Promise<void> {
    await this.guard('beginTransaction', async () => {
      if (this.transaction) throw new TransactionError(`a ${this.transaction.type} transaction is already open on this connection`);
      if (type === 'read-only') this.transaction = { type, snapshot: this.store.facts.read() };
      else if (type === 'read-write') this.transaction = { type, tx: await this.store.facts.beginWrite(options.lockTimeoutMs ?? IMPLICIT_LOCK_TIMEOUT_MS) };
      else throw new BadRequestError(`unknown transaction type '${String(type)}' (expected read-only or read-write)`);
    });
  }

  /**
   * Commits the open transaction (a read-only one just ends). Reasoning brings the
   * materialisation up to date first; if it fails or is interrupted, the transaction is
   * rolled back. `options.onProgress` reports the reasoning's progress.
   */
  async commitTransaction(options: MaterializationOptions = {}): Promise<void> {
    await this.guard('commitTransaction', async () => {
      const t = this.transaction;
      if (!t) throw new TransactionError('no transaction is open on this connection');
      this.transaction = undefined;
      if (t.type === 'read-only') this.store.facts.release(t.snapshot);
      else {
        // the commit procedure and reasoning act for the store, not for the role
        t.tx.access = undefined;
        const monitor = ProgressMonitor.start(options, reasoningSampler(t.tx));
        await monitored(monitor, () => this.store.commit(t.tx, this.interrupter));
      }
    });
  }

  /** Rolls back the open transaction: none of its changes remain. */
  async rollbackTransaction(): Promise<void> {
    await this.guard('rollbackTransaction', () => {
      if (!this.transaction) throw new TransactionError('no transaction is open on this connection');
      this.endTransaction();
    });
  }

  private endTransaction(): void {
    const t = this.transaction!;
    this.transaction = undefined;
    if (t.type === 'read-only') this.store.facts.release(t.snapshot);
    else this.store.rollback(t.tx);
  }

  /** @internal Also checks that the store exists and that the role may read it. */
  protected override checkUsable(): void {
    super.checkUsable();
    if (this.store.isDeleted) throw new InvalidConnectionError(`data store '${this.store.name}' was deleted: this connection can no longer be used (close it)`);
    const generation = this.server.roles.generation;
    if (this.readCheckedAt !== generation) {
      this.require(storeResources.store(this.store.name), 'read');
      this.readCheckedAt = generation;
    }
  }

  /** The role's access to the store's facts for this call (undefined: unrestricted). */
  private access(catalogue: Catalogue): FactAccess | undefined {
    const generation = this.server.roles.generation;
    if (this.unrestrictedAt === generation) return undefined;
    const access = storeAccess(this.server.roles, this.roleName, this.store.name, catalogue, this.store.facts.dictionary);
    if (access === undefined) this.unrestrictedAt = generation;
    return access;
  }

  /** Checks a privilege on the store itself (`[]`) or one of its children (`['rules']`, `['tupletables', t]`). */
  private requireOn(child: readonly string[], access: 'read' | 'write'): void {
    this.require([...storeResources.store(this.store.name), ...child] as ResourcePath, access);
  }

  /** Runs `fn` once the role holds a privilege on the store or one of its children. */
  private checked<T>(child: readonly string[], access: 'read' | 'write', fn: () => T): T {
    this.requireOn(child, access);
    return fn();
  }

  /** Checks write access to the store (`[]`) or one of its children, then runs `fn` as {@link DataStoreConnection.write} does. */
  private writeTo<T>(child: readonly string[], fn: (tx: WriteTransaction) => Promise<T> | T): Promise<T> {
    this.requireOn(child, 'write');
    return this.write(fn);
  }

  /** Checks write access to everything `clear` may change: facts of every table and graph, rules, and (optionally) axioms. */
  private requireWriteAll(axioms: boolean): void {
    const catalogue = this.transaction?.type === 'read-write' ? this.transaction.tx.catalogue : this.store.facts.committed.catalogue;
    this.requireOn([], 'write');
    this.requireOn(['rules'], 'write');
    if (axioms) this.requireOn(['axioms'], 'write');
    // built-in tables (SKOLEM) hold no facts to clear
    for (const info of catalogue.tupleTables.values()) if (storesFacts(info)) this.requireOn(['tupletables', info.name], 'write');
    const graphs = specifiersOf(this.store.name).allGraphs;
    if (!this.server.roles.allowsAll(this.roleName, graphs, 'write')) throw new AccessDeniedError(`role '${this.roleName}' has no write access to every named graph ('${graphs.text}')`);
  }

  /** Runs `fn` on the state of the open transaction, or of an implicit read-only one. */
  private async read<T>(fn: (state: StoreState) => Promise<T> | T): Promise<T> {
    if (this.transaction?.type === 'read-only') return fn(this.transaction.snapshot);
    if (this.transaction) {
      // reads inside a read/write transaction see the materialisation of its changes
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
   * back otherwise.
   */
  private async write<T>(fn: (tx: WriteTransaction) => Promise<T> | T, failed: (result: T) => boolean = () => false): Promise<T> {
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
    else {
      tx.access = undefined;
      await store.commit(tx, this.interrupter);
    }
    return result;
  }

  /** Runs pending reasoning inside the explicit transaction; on failure only that work is undone. */
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

  /** Fails when a transaction is open (for the non-transactional operations). */
  private noTransaction(what: string): void {
    if (this.transaction) throw new TransactionError(`${what} is not transactional and cannot run while the connection has an open transaction`);
  }

  // ---- import and export ----

  /**
   * Imports content: ADD adds the facts, DELETE deletes them, ADDITION_UPDATE_PREFIXES adds
   * them and then sets the store's prefixes to include those the input defines. When the
   * input has errors nothing is changed and the call rejects with {@link ImportError}, which
   * carries the whole result (its message names the first error and its position); with
   * `rejectOnError: false` the call resolves with that result instead. The IRIs
   * of an `{ iris }` source are read as the server parameters `allowed-url-schemes-on-import`
   * and `sandbox-directory` allow (an IRI they refuse fails with AccessDeniedError, one that
   * cannot be read with ParsingError); a `{ path }` source is read as named.
   */
  async importData(updateType: UpdateType, source: ImportSource, options: ImportDataOptions = {}): Promise<ImportResult> {
    return this.guard('importData', async () => {
      if (!UPDATE_TYPES.includes(updateType)) throw new BadRequestError(`unknown update type '${String(updateType)}' (expected ${UPDATE_TYPES.join(', ')})`);
      const report = new ImportReport();
      const prefixes = new Map<string, string>();
      report.onRow = (row) => {
        if (row.type === 'prefix') prefixes.set(row.description, row.value);
        options.onNotification?.(row);
      };
      const counters: ByteCounter[] | undefined = options.onProgress ? [] : undefined;
      const monitor = ProgressMonitor.start(options, () => importSample(counters ?? [], report));
      await monitored(monitor, () =>
        this.write(
          async (tx) => {
            await importInto(this.store, tx, updateType, source, options, report, this.interrupter, counters);
            // what follows in an implicit transaction is the reasoning of its commit
            monitor?.phase(reasoningSampler(tx));
          },
          () => report.errors > 0,
        ),
      );
      return settle(resultOf(report, prefixes), options.rejectOnError, 'import');
    });
  }

  /**
   * Writes the store's facts to `output` in an RDF media type (parameter fact-domain), or
   * its rules as Datalog, as strings: a function gets each piece of text, a writable stream
   * has them written to it. `options.onProgress` reports the facts and bytes written and the
   * part of the store scanned. {@link DataStoreConnection.exportDataAsBytes} writes the same
   * as UTF-8 bytes, faster for a file or a socket.
   */
  exportData(output: ExportOutput, mediaType: string, parameters: ExportParameters = {}, options: ExportOptions = {}): Promise<void> {
    return this.exportTo('exportData', { chunks: 'text', output }, mediaType, parameters, options);
  }

  /**
   * Like {@link DataStoreConnection.exportData}, but hands out the output as UTF-8 bytes: the
   * same text, byte for byte, in chunks of about 64 KiB (lines are not split between chunks
   * of N-Triples and N-Quads). N-Triples and N-Quads are copied straight from the store's term
   * dictionary, with no string built per term. Each chunk is the receiver's to keep: it is never
   * written to again, so it may be queued (as a socket write does) without a copy.
   */
  exportDataAsBytes(output: ByteExportOutput, mediaType: string, parameters: ExportParameters = {}, options: ExportOptions = {}): Promise<void> {
    return this.exportTo('exportDataAsBytes', { chunks: 'bytes', output }, mediaType, parameters, options);
  }

  /** The body of the two exports, `operation` naming the call. */
  private async exportTo(operation: string, destination: ExportDestination, mediaType: string, parameters: ExportParameters, options: ExportOptions): Promise<void> {
    const counters: ExportCounters | undefined = options.onProgress ? { facts: 0, scanned: 0, total: 0 } : undefined;
    let bytes = 0;
    const monitor = ProgressMonitor.start(options, () => ({
      operation: 'export',
      bytes,
      totalBytes: undefined,
      facts: counters?.facts ?? 0,
      fraction: counters && counters.total > 0 ? Math.min(1, counters.scanned / counters.total) : undefined,
    }));
    const out = monitor ? countingDestination(destination, (n) => (bytes += n)) : destination;
    await monitored(monitor, () =>
      this.guard(operation, () =>
        this.read((state) => {
          if (canonicalMediaType(mediaType) === DATALOG) this.requireOn(['rules'], 'read');
          return exportFacts(state, this.store.facts.dictionary, out, mediaType, parameters, this.interrupter, this.access(state.catalogue), counters);
        }),
      ),
    );
  }

  /** Exports to a string (convenient for small stores). */
  async exportDataToString(mediaType: string, parameters: ExportParameters = {}, options: ExportOptions = {}): Promise<string> {
    const parts: string[] = [];
    await this.exportData((chunk) => void parts.push(chunk), mediaType, parameters, options);
    return parts.join('');
  }

  /**
   * Evaluates a SPARQL 1.1 query (SELECT, ASK, CONSTRUCT, DESCRIBE) over the store's facts,
   * explicit and derived (option factDomain), with the store's prefixes and base IRI as
   * defaults. Syntax errors fail with QueryCompilationError.
   */
  async evaluateQuery(query: string, options: QueryOptions = {}): Promise<QueryAnswer> {
    return this.guard('evaluateQuery', () => this.read((state) => evaluateSparql(state, this.store.facts.dictionary, query, this.withAccess(state, options), this.interrupter)));
  }

  /**
   * Evaluates a query and writes its answer as `mediaType` to `write`, row by row: SELECT
   * and ASK in a SPARQL answer format (application/sparql-results+json, …+xml, text/csv,
   * text/tab-separated-values, the x. formats), CONSTRUCT and DESCRIBE in an RDF format.
   * A format that does not fit the query type fails with BadRequestError. When `write`
   * returns a promise (say, until an HTTP response drains), the evaluation pauses at its next
   * batch until it settles. Returns the number of answers.
   */
  async evaluateQueryTo(query: string, mediaType: string, write: (chunk: string) => void | boolean | Promise<void>, options: QueryOptions = {}): Promise<number> {
    return this.queryTo('evaluateQueryTo', query, options, (state, pass: (chunk: string) => void) =>
      answerWriterSink(mediaType, pass, { prefixes: state.catalogue.prefixes, baseIRI: state.catalogue.baseIRI }), write);
  }

  /**
   * Like {@link DataStoreConnection.evaluateQueryTo}, but hands out the answer as UTF-8 bytes:
   * the same text, byte for byte, in chunks the receiver may keep (never written to again). A
   * SELECT answer in TSV (`text/tab-separated-values` and its `-abbrev` variant) is written
   * from the rows' term ids, copying stored terms from the dictionary where their TSV text is
   * their canonical form, in chunks of about 64 KiB; other formats are their text, encoded
   * about 64 KiB at a time. Returns the number of answers.
   */
  async evaluateQueryToBytes(query: string, mediaType: string, write: (chunk: Uint8Array) => void | boolean | Promise<void>, options: QueryOptions = {}): Promise<number> {
    return this.queryTo('evaluateQueryToBytes', query, options, (state, pass: (chunk: Uint8Array) => void) =>
      answerByteSink(mediaType, pass, { prefixes: state.catalogue.prefixes, baseIRI: state.catalogue.baseIRI }), write);
  }

  /** The body of the two evaluateQueryTo calls: `sinkFor` makes the answer sink that writes through its `pass`. */
  private queryTo<C>(
    operation: string,
    query: string,
    options: QueryOptions,
    sinkFor: (state: StoreState, pass: (chunk: C) => void) => AnswerSink & { readonly count: () => number },
    write: (chunk: C) => void | boolean | Promise<void>,
  ): Promise<number> {
    return this.guard(operation, () =>
      this.read(async (state) => {
        let waiting: Promise<void> | undefined;
        const sink = sinkFor(state, (chunk) => {
          const wait = write(chunk);
          if (wait instanceof Promise) waiting = wait;
        });
        const pause = (): Promise<void> | undefined => {
          const wait = waiting;
          waiting = undefined;
          return wait;
        };
        await runQuery(state, this.store.facts.dictionary, query, this.withAccess(state, options), this.interrupter, sink, undefined, pause);
        if (waiting) await waiting;
        return sink.count();
      }),
    );
  }

  /**
   * The plan of a query as text: its algebra and the join order chosen for each basic graph
   * pattern. The query is evaluated to find the orders (they depend on the bindings that
   * reach each pattern); the text ends with the number of answers and the time taken.
   */
  async explainQuery(query: string, options: QueryOptions = {}): Promise<string> {
    return this.guard('explainQuery', () => this.read((state) => explainSparql(state, this.store.facts.dictionary, query, this.withAccess(state, options), this.interrupter)));
  }

  /**
   * Explains why a fact holds: `fact` is one fact in Datalog (the store's prefixes apply, e.g.
   * `:A[:a]`, `[:a, :p, :b] :g` or `T(:a, :b)`), in any tuple table. The answer lists the rule
   * instances that derive it and, recursively, its body facts, read from one state of the store
   * (the open transaction's, or the latest version). A fact that does not hold gets a root of
   * type `false`. A fact that does not parse, names an unknown tuple table or has variables
   * fails with ParsingError or BadRequestError naming the position.
   */
  async explain(fact: string, options: ExplanationOptions = {}): Promise<Explanation> {
    return this.guard('explain', () => this.read((state) => explainFact(state, this.store.facts.dictionary, fact, options, this.access(state.catalogue))));
  }

  /**
   * Runs a SPARQL 1.1 update as one transaction (or as part of the open read/write one): a
   * failed update changes nothing. The changes are explicit facts; reasoning follows. LOAD
   * reads what the server parameters `allowed-url-schemes-on-import` and `sandbox-directory`
   * allow, like an `{ iris }` import.
   */
  async evaluateUpdate(update: string, options: UpdateOptions = {}): Promise<void> {
    await this.guard('evaluateUpdate', () =>
      this.write(async (tx) => {
        await this.store.reasoner.reason(tx, this.interrupter);
        await this.store.runUpdate(tx, update, options.baseIRI ?? tx.catalogue.baseIRI, this.interrupter, options, this.server.queryLimits(options));
      }),
    );
  }

  /** The options of an evaluation by this connection's role, with the limits the server sets. */
  private withAccess(state: StoreState, options: QueryOptions): EvaluationOptions {
    const access = this.access(state.catalogue);
    const limited = { ...options, ...this.server.queryLimits(options) };
    return access === undefined ? { ...limited, agent: this.roleName } : { ...limited, access, agent: this.roleName };
  }

  /**
   * Rebuilds the compiled rules and checks the commit procedure against the current catalogue
   * and statistics (RDFox's recompile / recompile-rules). Join plans are also chosen afresh
   * from the current counts at every reasoning run.
   */
  async recompile(): Promise<void> {
    await this.guard('recompile', () => {
      this.requireOn([], 'write');
      return this.write((tx) => this.store.recompile(tx));
    });
  }

  /**
   * The answers of a SELECT query as an async iterator of RDF/JS bindings (unbound
   * variables are left out of each row's bindings). Answers are produced as they are read:
   * the query pauses while enough rows wait, and stops when the loop ends early. The
   * connection serves no other call until the iteration ends.
   */
  async *evaluateQueryIterator(query: string, options: QueryOptions = {}): AsyncGenerator<AnswerBindings> {
    const channel = new AnswerChannel<AnswerRow>();
    let variables: readonly string[] = [];
    const notSelect = (what: string): never => {
      throw new BadRequestError(`only SELECT queries give bindings (this is ${what} query)`);
    };
    const sink: AnswerSink = {
      ...rowsInto(channel, (names) => (variables = names)),
      boolean: () => notSelect('an ASK'),
      quads: () => notSelect('a CONSTRUCT or DESCRIBE'),
    };
    const running = this.guard('evaluateQueryIterator', () =>
      this.read((state) => runQuery(state, this.store.facts.dictionary, query, this.withAccess(state, options), this.interrupter, sink, undefined, channel.pause)),
    );
    running.then(
      () => channel.end(),
      (e: unknown) => channel.end(e),
    );
    try {
      for (;;) {
        const [row] = await channel.take(1);
        if (!row) return;
        const entries: Array<[string, QueryTerm]> = [];
        row.forEach((t, i) => {
          if (t !== undefined) entries.push([variables[i]!, t]);
        });
        yield new AnswerBindings(entries);
      }
    } finally {
      channel.cancel();
      await running.catch(() => undefined);
    }
  }

  /**
   * A cursor over a query's answers: `open(limit)` starts the query and returns the first
   * rows, `advance(limit)` the next ones; rows are produced as they are asked for. Outside a
   * read/write transaction the cursor reads its own snapshot and the connection stays free
   * for other calls. Using it after the store changed fails (stale cursor). Closing the cursor,
   * or the connection, stops its query and releases its snapshot.
   */
  createCursor(query: string, options: QueryOptions = {}): Cursor {
    this.checkUsable();
    return new Cursor(
      {
        start: () => {
          this.checkUsable();
          // the run's own interrupter stops it when the cursor closes, and when the connection is
          // interrupted while a page is being read (an aggregate hands over no row to pause at)
          const interrupter = new Interrupter();
          const channel = new AnswerChannel<AnswerRow>(undefined, () => interrupter.interrupt());
          let variables: readonly string[] = [];
          const sink = rowsInto(channel, (names) => (variables = names));
          const dictionary = this.store.facts.dictionary;
          const run = async (): Promise<void> => {
            // a read/write transaction changes under the cursor: its answers are taken at once
            if (this.transaction?.type === 'read-write') {
              await this.guard('openCursor', () => this.read((state) => runQuery(state, dictionary, query, this.withAccess(state, options), this.interrupter, sink)));
              return;
            }
            const own = this.transaction?.type === 'read-only' ? undefined : this.store.facts.read();
            const state = own ?? (this.transaction as { snapshot: Snapshot }).snapshot;
            try {
              await runQuery(state, dictionary, query, this.withAccess(state, options), interrupter, sink, undefined, channel.pause);
            } finally {
              if (own) this.store.facts.release(own);
            }
          };
          this.cursorRuns.add(channel);
          run().then(
            () => channel.end(),
            (e: unknown) => channel.end(e),
          ).finally(() => this.cursorRuns.delete(channel));
          return { channel, variables: () => variables };
        },
        version: () => this.store.facts.committed.version,
        checkUsable: () => this.checkUsable(),
      },
      query,
    );
  }

  // ---- statistics ----

  /** The statistics objects (Name, Parameters in query-string form). */
  async listStatistics(): Promise<Array<{ name: string; parameters: string }>> {
    return this.guard('listStatistics', () =>
      this.read((state) => [...state.catalogue.statistics].map(([name, p]) => ({ name, parameters: new URLSearchParams(p).toString() }))),
    );
  }

  /**
   * Creates a statistics object. `column-counts` (per tuple table and column, the number of
   * facts per term) is the one the planners use; quadlog keeps these counts up to date with
   * every change, so the object has no parameters and never goes stale.
   */
  async createStatistics(name: string, parameters: Readonly<Record<string, string>> = {}): Promise<void> {
    await this.guard('createStatistics', () =>
      this.writeTo([], (tx) => {
        if (name !== 'column-counts') throw new BadRequestError(`unknown statistics '${name}' (known: column-counts)`);
        if (Object.keys(parameters).length > 0) throw new BadRequestError(`statistics '${name}' takes no parameters`);
        if (tx.catalogue.statistics.has(name)) throw new DuplicateResourceError(`statistics '${name}' already exist`);
        tx.catalogue = tx.catalogue.set('statistics', tx.catalogue.statistics.set(name, {}));
      }),
    );
  }

  /** Deletes a statistics object. */
  async deleteStatistics(name: string): Promise<void> {
    await this.guard('deleteStatistics', () =>
      this.writeTo([], (tx) => {
        if (!tx.catalogue.statistics.has(name)) throw new UnknownResourceError(`statistics '${name}' do not exist`);
        tx.catalogue = tx.catalogue.set('statistics', tx.catalogue.statistics.delete(name));
      }),
    );
  }

  /** Brings statistics up to date (one, or all when no name is given); column counts always are. */
  async updateStatistics(name?: string): Promise<void> {
    await this.guard('updateStatistics', () =>
      this.read((state) => {
        this.requireOn([], 'write');
        if (name !== undefined && !state.catalogue.statistics.has(name)) throw new UnknownResourceError(`statistics '${name}' do not exist`);
      }),
    );
  }

  // ---- OWL axioms ----

  /**
   * Reads OWL axioms from the triples of `sourceGraph` (default graph when omitted) and adds
   * them to (ADD) or removes them from (DELETE) the axioms of `destinationGraph` (default
   * graph when omitted), compiled to rules of the `axioms` domain and maintained like other
   * rules. With `translateAssertions`, ABox assertions are added or removed as facts too.
   * Parts of axioms outside OWL 2 RL are dropped with a warning row naming the axiom. When
   * the import has errors nothing is changed and the call rejects with {@link ImportError}
   * (with `options.rejectOnError: false`, it resolves with the result instead).
   */
  async importAxiomsFromTriples(
    sourceGraph?: string,
    translateAssertions = false,
    destinationGraph?: string,
    updateType: 'ADD' | 'DELETE' = 'ADD',
    options: ImportAxiomsOptions = {},
  ): Promise<ImportResult> {
    return this.guard('importAxiomsFromTriples', async () => {
      this.requireOn(['axioms'], 'write');
      if (sourceGraph === undefined) this.requireOn(['tupletables', DEFAULT_TRIPLES], 'read');
      else {
        this.requireOn(['tupletables', QUADS], 'read');
        this.requireOn(['namedgraphs', iriKey(sourceGraph)], 'read');
      }
      const report = new ImportReport();
      await this.write(
        (tx) => importAxioms(this.store, tx, { sourceGraph, destinationGraph, assertions: translateAssertions, deleting: updateType === 'DELETE' }, report),
        () => report.errors > 0,
      );
      return settle(resultOf(report, new Map()), options.rejectOnError, 'axiom import');
    });
  }

  /** The axioms of the store: destination graph ('' = default graph) and axiom text. */
  async listAxioms(): Promise<Array<{ graph: string; axiom: string }>> {
    return this.guard('listAxioms', () => this.read((state) => this.checked(['axioms'], 'read', () => [...state.catalogue.axioms.values()].map((a) => ({ graph: a.destination, axiom: a.key })))));
  }

  // ---- commit procedure ----

  /** The commit procedure (a SPARQL update run inside every write transaction before commit), if any. */
  async getCommitProcedure(): Promise<string | undefined> {
    return this.guard('getCommitProcedure', () => this.read((state) => this.checked(['commitprocedure'], 'read', () => state.catalogue.commitProcedure || undefined)));
  }

  /**
   * Sets the commit procedure; returns whether it changed. It must parse as a SPARQL update.
   * From the next commit on it runs inside every write transaction, just before reasoning;
   * its changes are part of the transaction, and if it fails the commit fails.
   */
  async setCommitProcedure(update: string): Promise<boolean> {
    return this.guard('setCommitProcedure', () =>
      this.writeTo(['commitprocedure'], (tx) => {
        parseUpdate(update, tx.catalogue.prefixes, tx.catalogue.baseIRI);
        if (tx.catalogue.commitProcedure === update) return false;
        tx.catalogue = tx.catalogue.set('commitProcedure', update);
        return true;
      }),
    );
  }

  /** Removes the commit procedure; returns whether there was one. */
  async deleteCommitProcedure(): Promise<boolean> {
    return this.guard('deleteCommitProcedure', () =>
      this.writeTo(['commitprocedure'], (tx) => {
        if (tx.catalogue.commitProcedure === '') return false;
        tx.catalogue = tx.catalogue.set('commitProcedure', '');
        return true;
      }),
    );
  }

  /** Counts facts of the default graph and named graphs (or of one tuple table). */
  async countFacts(options: FactCountOptions = {}): Promise<number> {
    return this.guard('countFacts', () =>
      this.read((state) => {
        const mask = factDomainMask(options.factDomain, 'all');
        const info = options.tupleTable !== undefined ? this.store.tableInfo(state, options.tupleTable) : undefined;
        if (info && !storesFacts(info)) throw new BadRequestError(`tuple table '${info.name}' is built in: its facts are computed, not stored, and cannot be counted`);
        const ids = info ? [info.id] : [DEFAULT_TRIPLES_ID, QUADS_ID];
        const access = this.access(state.catalogue);
        const filters = ids.map((id) => readableFacts(access, id));
        let n = 0;
        ids.forEach((id, i) => {
          const table = state.table(id);
          const view = state.view(id);
          const readable = filters[i];
          table.forEachVisibleRow(view, mask, (row) => {
            if (readable === undefined || readable((c) => table.get(row, c))) n++;
          });
        });
        return n;
      }),
    );
  }

  /** Deletes every fact (and, once they exist, every rule and axiom). */
  async clear(): Promise<void> {
    await this.guard('clear', () => {
      this.requireWriteAll(true);
      return this.write((tx) => this.store.clear(tx));
    });
  }

  /** Drops every rule and makes every fact (explicit or derived) explicit. */
  async clearRulesExplicateFacts(): Promise<void> {
    await this.guard('clearRulesExplicateFacts', () => {
      this.requireWriteAll(false);
      return this.write(async (tx) => {
        await this.store.reasoner.reason(tx, this.interrupter);
        this.store.clearRulesExplicateFacts(tx);
      });
    });
  }

  /**
   * Recomputes the materialisation from scratch (from the explicit facts and the rules).
   * `options.onProgress` reports the facts derived so far.
   */
  async recomputeMaterialization(options: MaterializationOptions = {}): Promise<void> {
    const progress: { monitor?: ProgressMonitor | undefined } = {};
    await monitored(
      { finish: () => progress.monitor?.finish() },
      () =>
        this.guard('recomputeMaterialization', () =>
          this.writeTo([], async (tx) => {
            progress.monitor = ProgressMonitor.start(options, reasoningSampler(tx));
            this.store.reasoner.requestRecompute();
            await this.store.reasoner.reason(tx, this.interrupter);
          }),
        ),
    );
  }

  /**
   * Brings the materialisation up to date inside the open read/write transaction.
   * `options.onProgress` reports the facts derived so far.
   */
  async updateMaterialization(options: MaterializationOptions = {}): Promise<void> {
    await this.guard('updateMaterialization', async () => {
      this.requireOn([], 'write');
      if (this.transaction?.type !== 'read-write') throw new TransactionError('update-materialization needs an open read-write transaction');
      const tx = this.transaction.tx;
      await monitored(ProgressMonitor.start(options, reasoningSampler(tx)), () => this.reasonInTransaction(tx));
    });
  }

  /** Reclaims the space of deleted facts that no reader can still see. */
  async compact(): Promise<void> {
    await this.guard('compact', async () => {
      this.requireOn([], 'write');
      this.noTransaction('compact');
      await this.store.compact(IMPLICIT_LOCK_TIMEOUT_MS);
    });
  }

  // ---- properties, prefixes, base IRI ----

  /** The data store's properties (Property, Value, Mutable). */
  async getDataStoreProperties(): Promise<PropertyRow[]> {
    return this.guard('getDataStoreProperties', () => {
      // no reasoning first: requires-incremental-reasoning reports the pending work itself
      if (this.transaction?.type === 'read-write') return this.store.properties(this.transaction.tx);
      return this.read((state) => this.store.properties(state));
    });
  }

  /** The base IRI. */
  async getBaseIRI(): Promise<string> {
    return this.guard('getBaseIRI', () => this.read((state) => state.catalogue.baseIRI));
  }

  /** Sets the base IRI; returns whether it changed. */
  async setBaseIRI(iri: string): Promise<boolean> {
    return this.guard('setBaseIRI', () => this.writeTo([], (tx) => this.store.setBaseIRI(tx, iri)));
  }

  /** Sets a mutable data store property (base-iri); returns whether it changed. */
  async setDataStoreProperty(name: string, value: string): Promise<boolean> {
    if (name !== 'base-iri') {
      const known = await this.getDataStoreProperties();
      throw new BadRequestError(known.some((r) => r.property === name) ? `data store property '${name}' cannot be changed` : `unknown data store property '${name}'`);
    }
    return this.setBaseIRI(value);
  }

  /** The prefixes (name with colon → IRI), in definition order. */
  async getPrefixes(): Promise<Map<string, string>> {
    return this.guard('getPrefixes', () => this.read((state) => new Map(state.catalogue.prefixes)));
  }

  /** Replaces all prefixes. */
  async setPrefixes(prefixes: ReadonlyMap<string, string> | Readonly<Record<string, string>>): Promise<void> {
    await this.guard('setPrefixes', () => this.writeTo([], (tx) => this.store.setPrefixes(tx, prefixes)));
  }

  /** Sets one prefix (`ex:` → IRI); returns whether anything changed. */
  async setPrefix(name: string, iri: string): Promise<boolean> {
    return this.guard('setPrefix', () => this.writeTo([], (tx) => this.store.setPrefix(tx, name, iri)));
  }

  /** Removes one prefix; returns whether it existed. */
  async unsetPrefix(name: string): Promise<boolean> {
    return this.guard('unsetPrefix', () => this.writeTo([], (tx) => this.store.unsetPrefix(tx, name)));
  }

  // ---- tuple tables ----

  /** The tuple tables (Name, Type, ID, MinArity, MaxArity). */
  async listTupleTables(): Promise<TupleTableRow[]> {
    return this.guard('listTupleTables', () => this.read((state) => this.checked(['tupletables'], 'read', () => this.store.listTupleTables(state))));
  }

  /** Property/Value rows describing a tuple table. */
  async describeTupleTable(name: string): Promise<Array<{ property: string; value: string }>> {
    return this.guard('describeTupleTable', () => this.read((state) => this.checked(['tupletables', name], 'read', () => this.store.describeTupleTable(state, name))));
  }

  /** Creates an in-memory tuple table (parameters: `arity`, or `min-arity` = `max-arity`; `type=memory`). Not transactional. */
  async createTupleTable(name: string, parameters: Readonly<Record<string, string>>): Promise<void> {
    await this.guard('createTupleTable', async () => {
      this.requireOn(['tupletables'], 'write');
      this.noTransaction('creating a tuple table');
      await this.store.createTupleTable(name, parameters, IMPLICIT_LOCK_TIMEOUT_MS);
    });
  }

  /** Deletes a user tuple table and its facts. Not transactional. */
  async deleteTupleTable(name: string): Promise<void> {
    await this.guard('deleteTupleTable', async () => {
      this.requireOn(['tupletables'], 'write');
      this.requireOn(['tupletables', name], 'write');
      this.noTransaction('deleting a tuple table');
      await this.store.deleteTupleTable(name, IMPLICIT_LOCK_TIMEOUT_MS);
    });
  }

  // ---- data sources ----

  /** The registered data sources (Name, Type, Parameters, NumberOfTables). */
  async listDataSources(): Promise<DataSourceRow[]> {
    return this.guard('listDataSources', () => this.checked(['datasources'], 'read', () => this.store.dataSources.list()));
  }

  /**
   * Registers a data source of a known type with its parameters. Not transactional: it takes
   * effect at once and fails while the connection has an open transaction.
   */
  async registerDataSource(name: string, type: string, parameters: Readonly<Record<string, string>> = {}): Promise<void> {
    await this.guard('registerDataSource', async () => {
      this.requireOn(['datasources'], 'write');
      this.noTransaction('registering a data source');
      await this.store.dataSources.register(name, type, parameters);
    });
  }

  /** Deregisters a data source on which no tuple table is mounted. Not transactional. */
  async deregisterDataSource(name: string): Promise<void> {
    await this.guard('deregisterDataSource', () => {
      this.requireOn(['datasources'], 'write');
      this.requireOn(['datasources', name], 'write');
      this.noTransaction('deregistering a data source');
      this.store.dataSources.deregister(name);
    });
  }

  /** Property/Value rows describing a data source. Not transactional: fails while a transaction is open. */
  async describeDataSource(name: string): Promise<Array<{ property: string; value: string }>> {
    return this.guard('describeDataSource', () => this.checked(['datasources', name], 'read', () => {
      this.noTransaction('describing a data source');
      return this.store.dataSources.describe(name);
    }));
  }

  /** The tables of a data source (Name, NumberOfColumns, Columns). Fails while a transaction is open. */
  async listDataSourceTables(source: string): Promise<DataSourceTableRow[]> {
    return this.guard('listDataSourceTables', () => this.checked(['datasources', source], 'read', () => {
      this.noTransaction('listing the tables of a data source');
      return this.store.dataSources.tables(source);
    }));
  }

  /** The columns of a data source table (Column, Name, Datatype). Fails while a transaction is open. */
  async describeDataSourceTable(source: string, table: string): Promise<DataSourceColumnRow[]> {
    return this.guard('describeDataSourceTable', () => this.checked(['datasources', source], 'read', () => {
      this.noTransaction('describing a data source table');
      return this.store.dataSources.columns(source, table);
    }));
  }

  /** Up to `limit` rows of a data source table, read directly from the source; fails while a transaction is open. */
  async getDataSourceTableData(source: string, table: string, limit: number): Promise<DataSourceSample> {
    return this.guard('getDataSourceTableData', () => this.checked(['datasources', source], 'read', () => {
      this.noTransaction('sampling a data source table');
      return this.store.dataSources.sample(source, table, limit);
    }));
  }

  // ---- diagnostics ----

  /** Component information of the store (ComponentID, Property, Value). */
  async getComponentInfo(extended = false): Promise<ComponentInfoRow[]> {
    return this.guard('getComponentInfo', () => this.read((state) => this.store.componentInfo(state, extended)));
  }
}
