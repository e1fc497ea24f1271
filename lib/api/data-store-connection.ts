/**
 * A connection to one data store: transactions, import and export, prefixes, base IRI,
 * saved queries, tuple tables, properties and component information.
 *
 * Every call needs read access to the store (`|datastores|<ds>`) and checks the other
 * privileges it needs before it changes anything: write on the store for its prefixes,
 * base IRI, saved queries, statistics and maintenance; on `|rules`, `|axioms`, `|commitprocedure`,
 * `|tupletables[|t]` and `|datasources[|s]` for those; on a tuple table (and a named graph)
 * for its facts. Named graphs the role may not read are invisible to its queries and exports.
 * @module
 */
import type * as RDF from '@rdfjs/types/data-model.js';
import { AccessDeniedError, ImportError, InvalidConnectionError, BadRequestError, TransactionError } from '../model/errors.js';
import type { ImportResult, NotificationRow } from '../model/import-result.js';
import { iriKey } from '../model/terms.js';
import type { PropertyRow, TupleTableRow } from '../server/data-store.js';
import { type ComponentInfoRow, componentRows, readableStoreComponent } from '../server/component-info.js';
import type { DataSourceColumnRow, DataSourceRow, DataSourceSample, DataSourceTableRow } from '../server/data-sources.js';
import { type ByteExportOutput, type ChunkWritable, emitChunk, type ExportCounters, type ExportDestination, type ExportOutput, type ExportParameters, exportsRules } from '../server/export.js';
import { type ImportOptions, type ImportSource, UPDATE_TYPES, type UpdateType } from '../server/import.js';
import type { Server } from '../server/server.js';
import { ConnectionBase } from './connection-base.js';
import { specifiersOf, storeAccess } from '../server/fact-access.js';
import { type AccessFor, deltaQueriesOf, type DeltaQueryDescription, type DeltaQueryOptions, type DeltaQueryRegistry, type DeltaQueryVersionAnswer, type DeltaQueryWatch, type WatchOptions } from '../server/delta-queries.js';
import { type ResourcePath, storeResources } from '../server/resource-specifiers.js';
import { AnswerBindings, type AnswerRow, Cursor, rowsInto } from './cursor.js';
import { type AnswerSink, type ImportCounter, IMPLICIT_LOCK_TIMEOUT_MS, type QueryAnswer, type QueryOptions, type QueryTerm, StoreSession, type TransactionType } from '../server/session.js';
import { answerByteSink, answerWriterSink } from '../server/answer-output.js';
import { type Explanation, type ExplanationOptions } from '../server/explanation.js';
import { AnswerChannel } from './answer-channel.js';
import type { SavedQuery } from '../server/saved-queries.js';
import { Interrupter } from '../model/control.js';
import { checkValidationOptions, type ValidationOptions, type ValidationReport } from '../server/shacl-report.js';
import { monitored, ProgressMonitor, type ProgressOptions, type ProgressSample } from './progress.js';
import { eagerQuadStream, failedQuadStream, lazyQuadStream, type PatternTerm, type QuadStream, type Releasable, type SnapshotDataset, snapshotDataset } from './rdfjs-source.js';

export { IMPLICIT_LOCK_TIMEOUT_MS, type TransactionType } from '../server/session.js';
export type { SavedQuery } from '../server/saved-queries.js';

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
  /**
   * Values for variables of the text, by name (without `?`): each is put into the update as a
   * term wherever its variable occurs, never as text, so no value can change the update's
   * meaning (see "Bound parameters" in docs/sparql.md). A name the text does not use, or a
   * variable the text binds itself (BIND, VALUES, a SELECT expression of a subquery), is refused.
   */
  readonly bindings?: Readonly<Record<string, RDF.Term>>;
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

/** What an import has read so far, for progress reports. */
function importSample(counters: readonly ImportCounter[], facts: number): ProgressSample {
  let bytes = 0;
  let total: number | undefined = 0;
  for (const c of counters) {
    bytes += c.read;
    total = total === undefined || c.size === undefined ? undefined : total + c.size;
  }
  if (counters.length === 0) total = undefined;
  return { operation: 'import', bytes, totalBytes: total, facts, fraction: total ? Math.min(1, bytes / total) : undefined };
}

/** What reasoning has derived so far, for progress reports. */
function reasoningSample(derived: number): ProgressSample {
  return { operation: 'reasoning', bytes: 0, totalBytes: undefined, facts: derived, fraction: undefined };
}

/** A progress monitor of reasoning, started when the session says reasoning begins. */
function reasoningProgress(options: ProgressOptions): { readonly start: (derived: () => number) => void; finish(): void } {
  let monitor: ProgressMonitor | undefined;
  return {
    start: (derived) => {
      monitor = ProgressMonitor.start(options, () => reasoningSample(derived()));
    },
    finish: () => monitor?.finish(),
  };
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
  /** The session that carries out this connection's calls (its transaction, access and reasoning). */
  private readonly session: StoreSession;
  /** The channels of cursors whose queries may still be running (stopped when the connection closes). */
  private readonly cursorRuns = new Set<AnswerChannel<AnswerRow>>();
  /** The match() streams and dataset views whose snapshots are held (let go when the connection closes). */
  private readonly snapshotReaders = new Set<Releasable>();
  /** The role database's generation when read access to the store was last confirmed. */
  private readCheckedAt = -1;

  /** @internal `openSession` opens the connection's session, whose calls the connection's interrupter stops. */
  constructor(server: Server, openSession: (interrupter: Interrupter) => StoreSession, roleName: string, incarnation: number) {
    super(server, roleName, incarnation);
    this.session = openSession(this.interrupter);
  }

  /** The name of the data store. */
  get dataStoreName(): string {
    return this.session.storeName;
  }

  /** The store's unique id. */
  get uniqueId(): string {
    this.checkUsable();
    return this.session.uniqueId;
  }

  /** The store's type. */
  get type(): string {
    this.checkUsable();
    return this.session.storeType;
  }

  /** The open transaction's type, or undefined. */
  get transactionType(): TransactionType | undefined {
    return this.session.transactionType;
  }

  /**
   * The store's last published (committed) version: after a commit on this connection, at
   * least that commit's version. On a replica (`persistence=postgresql`), the version it has
   * applied so far.
   */
  get dataStoreVersion(): number {
    this.checkUsable();
    return this.session.committedVersion;
  }

  /**
   * Read-your-writes on a replica (`persistence=postgresql`): resolves, with the version
   * reached, once the store has published at least `version` (e.g. a version the writer
   * reported for a commit), waiting at most `timeoutMs` (default 10 s). On any other server it
   * resolves at once when the store has that version.
   * @throws VersionTimeoutError when the version is not reached in time.
   */
  async awaitVersion(version: number, timeoutMs = 10_000): Promise<number> {
    if (!Number.isSafeInteger(version) || version < 0) throw new BadRequestError(`invalid version ${String(version)}: a non-negative integer is required`);
    if (!Number.isFinite(timeoutMs) || timeoutMs < 0) throw new BadRequestError(`invalid timeout ${String(timeoutMs)}: a non-negative number of milliseconds is required`);
    return this.guard('awaitVersion', () => this.session.awaitVersion(version, timeoutMs));
  }

  /** A second connection to the same store with the same role. */
  duplicate(): DataStoreConnection {
    this.checkUsable();
    return new DataStoreConnection(this.server, (interrupter) => this.session.duplicate(interrupter), this.roleName, this.incarnation);
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
    this.session.close();
    for (const channel of this.cursorRuns) channel.cancel();
    this.cursorRuns.clear();
    for (const reader of [...this.snapshotReaders]) reader.close();
    super.close();
  }

  // ---- transactions ----

  /** Starts an explicit transaction; every later call runs inside it until commit or rollback. */
  async beginTransaction(type: TransactionType = 'read-write', options: BeginTransactionOptions = {}): Promise<void> {
    await this.guard('beginTransaction', () => this.session.begin(type, options.lockTimeoutMs ?? IMPLICIT_LOCK_TIMEOUT_MS));
  }

  /**
   * Commits the open transaction (a read-only one just ends). Reasoning brings the
   * materialisation up to date first; if it fails or is interrupted, the transaction is
   * rolled back. When the result has instances of `rdfox:ConstraintViolation` in the default
   * graph, the commit fails with `ConstraintViolationError` and the transaction stays
   * open as it was before the commit, so that the data can be fixed and the commit tried
   * again. `options.onProgress` reports the reasoning's progress.
   */
  async commitTransaction(options: MaterializationOptions = {}): Promise<void> {
    const progress = reasoningProgress(options);
    await monitored(progress, () => this.guard('commitTransaction', () => this.session.commit(progress.start)));
  }

  /** Rolls back the open transaction: none of its changes remain. */
  async rollbackTransaction(): Promise<void> {
    await this.guard('rollbackTransaction', () => this.session.rollback());
  }

  /** @internal Also checks that the store exists and that the role may read it. */
  protected override checkUsable(): void {
    super.checkUsable();
    if (this.session.storeDeleted) throw new InvalidConnectionError(`data store '${this.session.storeName}' was deleted: this connection can no longer be used (close it)`);
    const generation = this.server.roles.generation;
    if (this.readCheckedAt !== generation) {
      this.require(storeResources.store(this.session.storeName), 'read');
      this.readCheckedAt = generation;
    }
  }

  /** Checks a privilege on the store itself (`[]`) or one of its children (`['rules']`, `['tupletables', t]`). */
  private requireOn(child: readonly string[], access: 'read' | 'write'): void {
    this.require([...storeResources.store(this.session.storeName), ...child] as ResourcePath, access);
  }

  /** Runs `fn` once the role holds a privilege on the store or one of its children. */
  private checked<T>(child: readonly string[], access: 'read' | 'write', fn: () => T): T {
    this.requireOn(child, access);
    return fn();
  }

  /** Checks write access to everything `clear` may change: facts of every table and graph, rules, and (optionally) axioms. */
  private requireWriteAll(axioms: boolean): void {
    this.requireOn([], 'write');
    this.requireOn(['rules'], 'write');
    if (axioms) this.requireOn(['axioms'], 'write');
    // built-in tables (SKOLEM) hold no facts to clear
    for (const table of this.session.factTables()) this.requireOn(['tupletables', table], 'write');
    const graphs = specifiersOf(this.session.storeName).allGraphs;
    if (!this.server.roles.allowsAll(this.roleName, graphs, 'write')) throw new AccessDeniedError(`role '${this.roleName}' has no write access to every named graph ('${graphs.text}')`);
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
   * cannot be read with ParsingError); a `{ path }` source is read as named. RDF/JS quads (an
   * array, an iterable, an async iterable or an object-mode stream of them, from any DataFactory)
   * are taken term by term, with no text in between; the blank nodes of an addition are the
   * call's own (`_:b` of two calls are two nodes, as in SPARQL's INSERT DATA), while a deletion
   * names stored blank nodes by label (those match() gives). A quad that cannot be stored (a
   * literal as subject, a variable, not a quad at all) is an error naming its index.
   */
  async importData(updateType: UpdateType, source: ImportSource, options: ImportDataOptions = {}): Promise<ImportResult> {
    return this.guard('importData', async () => {
      if (!UPDATE_TYPES.includes(updateType)) throw new BadRequestError(`unknown update type '${String(updateType)}' (expected ${UPDATE_TYPES.join(', ')})`);
      let monitor: ProgressMonitor | undefined;
      const result = await monitored({ finish: () => monitor?.finish() }, () =>
        this.session.importData(updateType, source, options, {
          onNotification: options.onNotification,
          onStart: options.onProgress ? (counters, facts) => (monitor = ProgressMonitor.start(options, () => importSample(counters, facts()))) : undefined,
          onReasoning: (derived) => monitor?.phase(() => reasoningSample(derived())),
        }),
      );
      return settle(result, options.rejectOnError, 'import');
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
      this.guard(operation, () => {
        if (exportsRules(mediaType)) this.requireOn(['rules'], 'read');
        return this.session.exportTo(out, mediaType, parameters, counters);
      }),
    );
  }

  /** Exports to a string (convenient for small stores). */
  async exportDataToString(mediaType: string, parameters: ExportParameters = {}, options: ExportOptions = {}): Promise<string> {
    const parts: string[] = [];
    await this.exportData((chunk) => void parts.push(chunk), mediaType, parameters, options);
    return parts.join('');
  }

  /**
   * Validates a data graph of the store (option `dataGraph`: a named graph's IRI; the default
   * graph when absent) against the SHACL shapes of a graph of the store (`shapesGraph`,
   * likewise), reading the data graph's explicit and derived facts (`factDomain: 'all'`, the
   * default), its explicit ones, or its derived ones (`derived`); the shapes graph is read
   * whole. SHACL Core and SHACL-SPARQL (see docs/shacl.md). The role must be able to read both
   * graphs, and every graph of the store when the shapes hold SHACL-SPARQL constraints
   * (AccessDeniedError). Inside a read/write transaction it validates the transaction's state,
   * reasoned. The server's `query-time-limit` bounds it.
   * @throws BadRequestError for a bad option; ShaclShapeError for an ill-formed shape;
   * InterruptedError past the time limit.
   */
  async validate(options: ValidationOptions = {}): Promise<ValidationReport> {
    return this.guard('validate', () => {
      checkValidationOptions(options);
      return this.session.validate(options);
    });
  }

  /**
   * The report of {@link DataStoreConnection.validate} as RDF text in `mediaType` (Turtle,
   * N-Triples, N-Quads, TriG, JSON-LD or RDF/XML, or their short names), written with the
   * store's prefixes and `sh:`.
   */
  async validateToString(mediaType: string, options: ValidationOptions = {}): Promise<string> {
    return this.guard('validateToString', () => {
      checkValidationOptions(options);
      return this.session.validateAsText(options, mediaType);
    });
  }

  /**
   * Evaluates a SPARQL 1.1 query (SELECT, ASK, CONSTRUCT, DESCRIBE) over the store's facts,
   * explicit and derived (option factDomain), with the store's prefixes and base IRI as
   * defaults. Syntax errors fail with QueryCompilationError.
   */
  async evaluateQuery(query: string, options: QueryOptions = {}): Promise<QueryAnswer> {
    return this.guard('evaluateQuery', () => this.session.evaluateQuery(query, options));
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
    return this.queryTo('evaluateQueryTo', query, options, (catalogue, pass: (chunk: string) => void) => answerWriterSink(mediaType, pass, catalogue), write);
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
    return this.queryTo('evaluateQueryToBytes', query, options, (catalogue, pass: (chunk: Uint8Array) => void) => answerByteSink(mediaType, pass, catalogue), write);
  }

  /** The body of the two evaluateQueryTo calls: `sinkFor` makes the answer sink that writes through its `pass`, with the store's prefixes and base IRI. */
  private queryTo<C>(
    operation: string,
    query: string,
    options: QueryOptions,
    sinkFor: (catalogue: { prefixes: ReadonlyMap<string, string>; baseIRI: string }, pass: (chunk: C) => void) => AnswerSink & { readonly count: () => number },
    write: (chunk: C) => void | boolean | Promise<void>,
  ): Promise<number> {
    return this.guard(operation, async () => {
      let waiting: Promise<void> | undefined;
      let sink: (AnswerSink & { readonly count: () => number }) | undefined;
      const pause = (): Promise<void> | undefined => {
        const wait = waiting;
        waiting = undefined;
        return wait;
      };
      await this.session.runQuery(
        query,
        options,
        (state) =>
          (sink = sinkFor({ prefixes: state.catalogue.prefixes, baseIRI: state.catalogue.baseIRI }, (chunk) => {
            const wait = write(chunk);
            if (wait instanceof Promise) waiting = wait;
          })),
        pause,
      );
      if (waiting) await waiting;
      return sink!.count();
    });
  }

  /**
   * The plan of a query as text: its algebra and the join order chosen for each basic graph
   * pattern. The query is evaluated to find the orders (they depend on the bindings that
   * reach each pattern); the text ends with the number of answers and the time taken.
   */
  async explainQuery(query: string, options: QueryOptions = {}): Promise<string> {
    return this.guard('explainQuery', () => this.session.explainQuery(query, options));
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
    return this.guard('explain', () => this.session.explain(fact, options));
  }

  /**
   * Runs a SPARQL 1.1 update as one transaction (or as part of the open read/write one): a
   * failed update changes nothing. The changes are explicit facts; reasoning follows. LOAD
   * reads what the server parameters `allowed-url-schemes-on-import` and `sandbox-directory`
   * allow, like an `{ iris }` import.
   */
  async evaluateUpdate(update: string, options: UpdateOptions = {}): Promise<void> {
    await this.guard('evaluateUpdate', () => this.session.evaluateUpdate(update, options));
  }

  /**
   * Rebuilds the compiled rules and checks the commit procedure against the current catalogue
   * and statistics (RDFox's recompile / recompile-rules). Join plans are also chosen afresh
   * from the current counts at every reasoning run.
   */
  async recompile(): Promise<void> {
    await this.guard('recompile', () => {
      this.requireOn([], 'write');
      return this.session.recompile();
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
      // refused before the WHERE clause runs
      graphBegin: () => notSelect('a CONSTRUCT or DESCRIBE'),
      quad: () => notSelect('a CONSTRUCT or DESCRIBE'),
      quads: () => notSelect('a CONSTRUCT or DESCRIBE'),
    };
    const running = this.guard('evaluateQueryIterator', () => this.session.runQuery(query, options, () => sink, channel.pause));
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
   * rows, `advance(limit)` the next ones; rows are produced as they are asked for. Every page
   * is the answer on the state the cursor was opened on: outside a transaction, the committed
   * version of that moment (writes committed between pages do not show), in a read-only
   * transaction its snapshot, and in a read/write transaction the transaction's state at the
   * opening (the answers are taken at once). Outside a read/write transaction the connection
   * stays free for other calls between pages. Closing the cursor, reading it to its end,
   * opening it again or closing the connection stops its query and releases its snapshot.
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
          // a read/write transaction changes under the cursor: its answers are taken at once, as a
          // call of the connection that opening the cursor waits for
          const eager = this.session.transactionType === 'read-write';
          const run = (): Promise<void> =>
            eager
              ? this.guard('openCursor', () => this.session.runCursorQuery(query, options, sink, interrupter, channel.pause))
              : this.session.runCursorQuery(query, options, sink, interrupter, channel.pause);
          this.cursorRuns.add(channel);
          const settled = run()
            .then(
              () => channel.end(),
              (e: unknown) => channel.end(e),
            )
            .finally(() => this.cursorRuns.delete(channel));
          return { channel, variables: () => variables, settled, eager };
        },
        checkUsable: () => this.checkUsable(),
      },
      query,
    );
  }

  // ---- RDF/JS source ----

  /**
   * The quads matching a pattern as an RDF/JS `Stream` (a Node `Readable` in object mode; an
   * async iterable too), so that the connection is an RDF/JS `Source` (Comunica's
   * `@comunica/query-sparql-rdfjs` takes it as a source). A term left out (undefined, null or a
   * variable) matches anything; the graph `defaultGraph()` is the default graph, and no graph
   * means every graph. Explicit and derived quads are read from one snapshot, taken now, as the
   * role may read them (named graphs it may not read are invisible); bound terms are index
   * lookups, and the quads are read as the stream is read. Read the stream to its end, or
   * `destroy()` it, to release the snapshot (closing the connection does too). Inside a
   * read/write transaction the quads are the transaction's, taken at once. Failures (a closed
   * connection, a role that may not read the store) are the stream's `error` event.
   */
  match(subject?: PatternTerm, predicate?: PatternTerm, object?: PatternTerm, graph?: PatternTerm): QuadStream {
    const pattern = [subject, predicate, object, graph] as const;
    let reader: ReturnType<StoreSession['openQuadReader']>;
    try {
      this.checkUsable();
      reader = this.session.openQuadReader();
    } catch (e) {
      return failedQuadStream(e instanceof Error ? e : new Error(String(e)));
    }
    if (reader === undefined) {
      return eagerQuadStream(() =>
        this.guard('match', () =>
          this.session.readQuads((r) => {
            const quads: Array<Parameters<SnapshotDataset['has']>[0]> = [];
            const step = r.matcher(subject, predicate, object, graph, (q) => void quads.push(q));
            while (!step(Infinity));
            return quads;
          }),
        ),
      );
    }
    const entry: Releasable = { close: () => stream.destroy() };
    const stream = lazyQuadStream(reader, pattern, () => this.snapshotReaders.delete(entry));
    this.snapshotReaders.add(entry);
    return stream;
  }

  /**
   * The number of quads {@link DataStoreConnection.match} would give for a pattern (what an
   * RDF/JS source's `countQuads` gives Comunica for its join plans), counted on the latest
   * state (or the open transaction's). Outside a read/write transaction several counts (and
   * match() streams) may run at once on one connection.
   */
  async countQuads(subject?: PatternTerm, predicate?: PatternTerm, object?: PatternTerm, graph?: PatternTerm): Promise<number> {
    // outside a read/write transaction a count reads a snapshot of its own: several may run at once, as a query engine asks them
    this.checkUsable();
    const reader = this.session.openQuadReader();
    if (reader === undefined) return this.guard('countQuads', () => this.session.readQuads((r) => r.count(subject, predicate, object, graph)));
    try {
      return reader.count(subject, predicate, object, graph);
    } finally {
      reader.release();
    }
  }

  /**
   * A read-only RDF/JS `DatasetCore` view of a snapshot of the store taken now (the open
   * read-only transaction's, or the latest version): `has`, `match`, `size` and iteration, as
   * the role may read the store; `add` and `delete` throw. It holds the snapshot until it is
   * closed: `await using ds = await conn.dataset()` or `view.close()` (closing the connection
   * closes it too). Not available inside a read/write transaction (use `match()`, or commit first).
   */
  async dataset(): Promise<SnapshotDataset> {
    return this.guard('dataset', () => {
      const reader = this.session.openQuadReader();
      if (reader === undefined) throw new TransactionError('a dataset view reads a snapshot, and a read/write transaction is open on this connection: use match(), or commit first');
      const view = snapshotDataset(reader, () => this.snapshotReaders.delete(view));
      this.snapshotReaders.add(view);
      return view;
    });
  }

  // ---- statistics ----

  /** The statistics objects (Name, Parameters in query-string form). */
  async listStatistics(): Promise<Array<{ name: string; parameters: string }>> {
    return this.guard('listStatistics', () => this.session.listStatistics());
  }

  /**
   * Creates a statistics object. `column-counts` (per tuple table and column, the number of
   * facts per term) is the one the planners use; quadlog keeps these counts up to date with
   * every change, so the object has no parameters and never goes stale.
   */
  async createStatistics(name: string, parameters: Readonly<Record<string, string>> = {}): Promise<void> {
    await this.guard('createStatistics', () => this.checked([], 'write', () => this.session.createStatistics(name, parameters)));
  }

  /** Deletes a statistics object. */
  async deleteStatistics(name: string): Promise<void> {
    await this.guard('deleteStatistics', () => this.checked([], 'write', () => this.session.deleteStatistics(name)));
  }

  /** Brings statistics up to date (one, or all when no name is given); column counts always are. */
  async updateStatistics(name?: string): Promise<void> {
    await this.guard('updateStatistics', () => this.checked([], 'write', () => this.session.updateStatistics(name)));
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
      if (sourceGraph === undefined) this.requireOn(['tupletables', 'DefaultTriples'], 'read');
      else {
        this.requireOn(['tupletables', 'Quads'], 'read');
        this.requireOn(['namedgraphs', iriKey(sourceGraph)], 'read');
      }
      const result = await this.session.importAxioms({ sourceGraph, destinationGraph, assertions: translateAssertions, deleting: updateType === 'DELETE' });
      return settle(result, options.rejectOnError, 'axiom import');
    });
  }

  /** The axioms of the store: destination graph ('' = default graph) and axiom text. */
  async listAxioms(): Promise<Array<{ graph: string; axiom: string }>> {
    return this.guard('listAxioms', () => this.checked(['axioms'], 'read', () => this.session.listAxioms()));
  }

  // ---- commit procedure ----

  /** The commit procedure (a SPARQL update run inside every write transaction before commit), if any. */
  async getCommitProcedure(): Promise<string | undefined> {
    return this.guard('getCommitProcedure', () => this.checked(['commitprocedure'], 'read', () => this.session.getCommitProcedure()));
  }

  /**
   * Sets the commit procedure; returns whether it changed. It must parse as a SPARQL update.
   * From the next commit on it runs inside every write transaction, just before reasoning;
   * its changes are part of the transaction, and if it fails the commit fails.
   */
  async setCommitProcedure(update: string): Promise<boolean> {
    return this.guard('setCommitProcedure', () => this.checked(['commitprocedure'], 'write', () => this.session.setCommitProcedure(update)));
  }

  /** Removes the commit procedure; returns whether there was one. */
  async deleteCommitProcedure(): Promise<boolean> {
    return this.guard('deleteCommitProcedure', () => this.checked(['commitprocedure'], 'write', () => this.session.deleteCommitProcedure()));
  }

  /** Counts facts of the default graph and named graphs (or of one tuple table). */
  async countFacts(options: FactCountOptions = {}): Promise<number> {
    return this.guard('countFacts', () => this.session.countFacts(options));
  }

  /** Deletes every fact (and, once they exist, every rule and axiom). */
  async clear(): Promise<void> {
    await this.guard('clear', () => {
      this.requireWriteAll(true);
      return this.session.clear();
    });
  }

  /** Drops every rule and makes every fact (explicit or derived) explicit. */
  async clearRulesExplicateFacts(): Promise<void> {
    await this.guard('clearRulesExplicateFacts', () => {
      this.requireWriteAll(false);
      return this.session.clearRulesExplicateFacts();
    });
  }

  /**
   * Recomputes the materialisation from scratch (from the explicit facts and the rules).
   * `options.onProgress` reports the facts derived so far.
   */
  async recomputeMaterialization(options: MaterializationOptions = {}): Promise<void> {
    const progress = reasoningProgress(options);
    await monitored(progress, () => this.guard('recomputeMaterialization', () => this.checked([], 'write', () => this.session.recomputeMaterialization(progress.start))));
  }

  /**
   * Brings the materialisation up to date inside the open read/write transaction.
   * `options.onProgress` reports the facts derived so far.
   */
  async updateMaterialization(options: MaterializationOptions = {}): Promise<void> {
    const progress = reasoningProgress(options);
    await monitored(progress, () => this.guard('updateMaterialization', () => this.checked([], 'write', () => this.session.updateMaterialization(progress.start))));
  }

  /** Reclaims the space of deleted facts that no reader can still see. */
  async compact(): Promise<void> {
    await this.guard('compact', () => this.checked([], 'write', () => this.session.compact()));
  }

  // ---- properties, prefixes, base IRI ----

  /** The data store's properties (Property, Value, Mutable). */
  async getDataStoreProperties(): Promise<PropertyRow[]> {
    return this.guard('getDataStoreProperties', () => this.session.properties());
  }

  /** The base IRI. */
  async getBaseIRI(): Promise<string> {
    return this.guard('getBaseIRI', () => this.session.getBaseIRI());
  }

  /** Sets the base IRI; returns whether it changed. */
  async setBaseIRI(iri: string): Promise<boolean> {
    return this.guard('setBaseIRI', () => this.checked([], 'write', () => this.session.setBaseIRI(iri)));
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
    return this.guard('getPrefixes', () => this.session.getPrefixes());
  }

  /** Replaces all prefixes. */
  async setPrefixes(prefixes: ReadonlyMap<string, string> | Readonly<Record<string, string>>): Promise<void> {
    await this.guard('setPrefixes', () => this.checked([], 'write', () => this.session.setPrefixes(prefixes)));
  }

  /** Sets one prefix (`ex:` → IRI); returns whether anything changed. */
  async setPrefix(name: string, iri: string): Promise<boolean> {
    return this.guard('setPrefix', () => this.checked([], 'write', () => this.session.setPrefix(name, iri)));
  }

  /** Removes one prefix; returns whether it existed. */
  async unsetPrefix(name: string): Promise<boolean> {
    return this.guard('unsetPrefix', () => this.checked([], 'write', () => this.session.unsetPrefix(name)));
  }

  // ---- saved queries ----

  /**
   * The queries saved in the store, by name: each with its SPARQL text, the role that saved
   * it and when (ISO 8601). Saved queries are shared: every role that may read the store
   * sees them. Needs read access to the store.
   */
  async listSavedQueries(): Promise<SavedQuery[]> {
    return this.guard('listSavedQueries', () => this.session.listSavedQueries());
  }

  /**
   * The saved query `name`. Needs read access to the store.
   * @throws UnknownResourceError when the store has no query of that name.
   */
  async getSavedQuery(name: string): Promise<SavedQuery> {
    return this.guard('getSavedQuery', () => this.session.getSavedQuery(name));
  }

  /**
   * Saves a SPARQL query (or update) under `name`, replacing a query saved under that name;
   * returns true when the name was new. The name has 1 to 100 characters: letters, digits,
   * spaces and `_ - . ( ) , : @ + #`, starting with a letter or digit and ending with a
   * letter, digit or `)`. The text must parse with the store's prefixes and base IRI. Saved
   * queries belong to the store's catalogue: saving is a change of the store (it commits a
   * new version, or joins the open read/write transaction), is persisted with the store and
   * reaches its replicas. Needs write access to the store.
   * @throws BadRequestError for an invalid name or an empty text, QueryCompilationError (with
   * the line and column) for a text that does not parse.
   */
  async saveQuery(name: string, text: string): Promise<boolean> {
    return this.guard('saveQuery', () => this.checked([], 'write', () => this.session.saveQuery(name, text)));
  }

  /**
   * Deletes the saved query `name`. Needs write access to the store.
   * @throws UnknownResourceError when the store has no query of that name.
   */
  async deleteSavedQuery(name: string): Promise<void> {
    await this.guard('deleteSavedQuery', () => this.checked([], 'write', () => this.session.deleteSavedQuery(name)));
  }

  // ---- tuple tables ----

  /** The tuple tables (Name, Type, ID, MinArity, MaxArity). */
  async listTupleTables(): Promise<TupleTableRow[]> {
    return this.guard('listTupleTables', () => this.checked(['tupletables'], 'read', () => this.session.listTupleTables()));
  }

  /** Property/Value rows describing a tuple table. */
  async describeTupleTable(name: string): Promise<Array<{ property: string; value: string }>> {
    return this.guard('describeTupleTable', () => this.checked(['tupletables', name], 'read', () => this.session.describeTupleTable(name)));
  }

  /** Creates an in-memory tuple table (parameters: `arity`, or `min-arity` = `max-arity`; `type=memory`). Not transactional. */
  async createTupleTable(name: string, parameters: Readonly<Record<string, string>>): Promise<void> {
    await this.guard('createTupleTable', () => this.checked(['tupletables'], 'write', () => this.session.createTupleTable(name, parameters)));
  }

  /** Deletes a user tuple table and its facts. Not transactional. */
  async deleteTupleTable(name: string): Promise<void> {
    await this.guard('deleteTupleTable', () => {
      this.requireOn(['tupletables'], 'write');
      this.requireOn(['tupletables', name], 'write');
      return this.session.deleteTupleTable(name);
    });
  }

  // ---- data sources ----

  /** The registered data sources (Name, Type, Parameters, NumberOfTables). */
  async listDataSources(): Promise<DataSourceRow[]> {
    return this.guard('listDataSources', () => this.checked(['datasources'], 'read', () => this.session.dataSources.list()));
  }

  /**
   * Registers a data source of a known type with its parameters. Not transactional: it takes
   * effect at once and fails while the connection has an open transaction.
   */
  async registerDataSource(name: string, type: string, parameters: Readonly<Record<string, string>> = {}): Promise<void> {
    await this.guard('registerDataSource', async () => {
      this.requireOn(['datasources'], 'write');
      this.session.noTransaction('registering a data source');
      await this.session.dataSources.register(name, type, parameters);
    });
  }

  /** Deregisters a data source on which no tuple table is mounted. Not transactional. */
  async deregisterDataSource(name: string): Promise<void> {
    await this.guard('deregisterDataSource', () => {
      this.requireOn(['datasources'], 'write');
      this.requireOn(['datasources', name], 'write');
      this.session.noTransaction('deregistering a data source');
      this.session.dataSources.deregister(name);
    });
  }

  /** Property/Value rows describing a data source. Not transactional: fails while a transaction is open. */
  async describeDataSource(name: string): Promise<Array<{ property: string; value: string }>> {
    return this.guard('describeDataSource', () => this.checked(['datasources', name], 'read', () => {
      this.session.noTransaction('describing a data source');
      return this.session.dataSources.describe(name);
    }));
  }

  /** The tables of a data source (Name, NumberOfColumns, Columns). Fails while a transaction is open. */
  async listDataSourceTables(source: string): Promise<DataSourceTableRow[]> {
    return this.guard('listDataSourceTables', () => this.checked(['datasources', source], 'read', () => {
      this.session.noTransaction('listing the tables of a data source');
      return this.session.dataSources.tables(source);
    }));
  }

  /** The columns of a data source table (Column, Name, Datatype). Fails while a transaction is open. */
  async describeDataSourceTable(source: string, table: string): Promise<DataSourceColumnRow[]> {
    return this.guard('describeDataSourceTable', () => this.checked(['datasources', source], 'read', () => {
      this.session.noTransaction('describing a data source table');
      return this.session.dataSources.columns(source, table);
    }));
  }

  /** Up to `limit` rows of a data source table, read directly from the source; fails while a transaction is open. */
  async getDataSourceTableData(source: string, table: string, limit: number): Promise<DataSourceSample> {
    return this.guard('getDataSourceTableData', () => this.checked(['datasources', source], 'read', () => {
      this.session.noTransaction('sampling a data source table');
      return this.session.dataSources.sample(source, table, limit);
    }));
  }

  // ---- delta queries ----

  /** The store's delta-query registry. */
  private get deltaQueries(): DeltaQueryRegistry {
    return deltaQueriesOf(this.server.dataStore(this.session.storeName));
  }

  /** The role's fact access to the store, for the answers of a query it registers or watches. */
  private accessForRole(): AccessFor {
    const roles = this.server.roles;
    const { roleName } = this;
    const ds = this.session.storeName;
    return (catalogue, dictionary) => storeAccess(roles, roleName, ds, catalogue, dictionary);
  }

  /**
   * Registers a SELECT query under `name` (write on `|datastores|<ds>|deltaqueries|<name>`):
   * from the current version on, the changes of its answer at every commit are computed in the
   * background and kept (options: RDFox's `snapshots-max-size`, `additions-max-size`,
   * `deletions-max-size`, evaluation mode `delta` or `snapshot`, fact domain). Its answers obey
   * this role's privileges. See docs/delta-queries.md.
   */
  async registerDeltaQuery(name: string, query: string, options: DeltaQueryOptions = {}): Promise<DeltaQueryDescription> {
    return this.guard('registerDeltaQuery', () =>
      this.checked(['deltaqueries', name], 'write', () => this.deltaQueries.registerDurably(name, query, this.roleName, this.accessForRole(), options)),
    );
  }

  /** The description of a delta query (read on `|datastores|<ds>|deltaqueries|<name>`). */
  async describeDeltaQuery(name: string): Promise<DeltaQueryDescription> {
    return this.guard('describeDeltaQuery', () => this.checked(['deltaqueries', name], 'read', () => this.deltaQueries.describe(name)));
  }

  /** The names of the store's delta queries (read on `|datastores|<ds>|deltaqueries`). */
  async listDeltaQueries(): Promise<string[]> {
    return this.guard('listDeltaQueries', () => this.checked(['deltaqueries'], 'read', () => this.deltaQueries.list()));
  }

  /** Deregisters a delta query (write on `|datastores|<ds>|deltaqueries|<name>`): its watches end. */
  async deregisterDeltaQuery(name: string): Promise<void> {
    return this.guard('deregisterDeltaQuery', () => this.checked(['deltaqueries', name], 'write', () => this.deltaQueries.deregister(name)));
  }

  /**
   * The answers a delta query keeps (read on its resource), oldest first: per version, its
   * additions and deletions, and in `snapshot` mode its whole answer, as many versions as its
   * size parameters allow. Waits for the changes of the commits made so far to be computed.
   */
  async getDeltaQueryAnswers(name: string): Promise<DeltaQueryVersionAnswer[]> {
    return this.guard('getDeltaQueryAnswers', async () => {
      this.requireOn(['deltaqueries', name], 'read');
      await this.deltaQueries.idle();
      return this.deltaQueries.answers(name);
    });
  }

  /**
   * Watches a query's answer: `for await (const event of ds.watch(query))`. `query` is the name
   * of a registered delta query (read on its resource) or a SELECT query's text (registered for
   * this watch alone, with this role's privileges). The first event is the whole answer
   * (`kind: 'answer'`), then one `change` per version whose answer changed
   * (`{ version, additions, deletions }`). A consumer that falls behind by more than
   * `highWaterMark` events never slows commits: its buffered events are dropped and it receives
   * the whole answer again, with `missedFrom` naming the first version it missed. With `after`
   * (a version whose answer the consumer has), the watch resumes: the kept changes of every
   * later version if the query keeps them all, else the whole answer with `missedFrom`. Leaving
   * the loop (or `close()`) ends the watch.
   */
  watch(query: string, options: WatchOptions & { readonly query?: DeltaQueryOptions } = {}): DeltaQueryWatch {
    return this.guardSync('watch', () => {
      const registry = this.deltaQueries;
      const watchOptions = options.highWaterMark !== undefined ? { highWaterMark: options.highWaterMark } : {};
      const resumed = options.after !== undefined ? { ...watchOptions, after: options.after } : watchOptions;
      if (registry.list().includes(query)) {
        this.requireOn(['deltaqueries', query], 'read');
        return registry.watch({ name: query }, resumed);
      }
      return registry.watch({ text: query, role: this.roleName, accessFor: this.accessForRole(), options: options.query }, resumed);
    });
  }

  // ---- diagnostics ----

  /**
   * Component information of the store (ComponentID, Property, Value), as the role may see it:
   * a tuple table it may not read shows only its name, counts leave out the facts of named
   * graphs it may not read, and figures of the whole store (rows, terms, bytes) are left out
   * once anything is hidden.
   */
  async getComponentInfo(extended = false): Promise<ComponentInfoRow[]> {
    return this.guard('getComponentInfo', () =>
      this.session.read((state) => {
        const store = this.server.dataStore(this.session.storeName);
        return componentRows(readableStoreComponent(store.component(state, extended), state, this.session.access(state.catalogue)));
      }),
    );
  }
}
