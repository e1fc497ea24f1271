/**
 * A data store of the server: its identity, parameters and facts, and the operations the
 * connections run on it (inside the transaction the connection provides).
 * @module
 */
import { randomUUID } from 'node:crypto';
import { OrderedMap } from 'immutable';
import { BadRequestError, ConstraintViolationError, DuplicateResourceError, ResourceInUseError, UnknownResourceError } from '../model/errors.js';
import { FactStore, DEFAULT_TRIPLES, QUADS, skolemTableInfo, type StoreState, type WriteTransaction } from '../storage/fact-store.js';
import { attachMountedReader, DATA_SOURCE_TABLE_TYPE, storesFacts, type TupleTableInfo } from '../storage/catalogue.js';
import { SKOLEM_TABLE } from '../model/skolem.js';
import { DERIVED, EXPLICIT } from '../storage/tuple-table.js';
import { ChangeLog } from '../storage/change-log.js';
import type { Interrupter } from '../model/control.js';
import type { Snapshot } from '../storage/fact-store.js';
import { equalityRules, type ReasoningSavepoint, ruleKey, StoreReasoner } from './reasoning.js';
import { executeUpdate, parseUpdate, type UpdateDataset } from '../sparql/update.js';
import { parseUpdateOffThread } from '../sparql/parse-off-thread.js';
import type { EvaluationLimits } from '../sparql/query-budget.js';
import type { ReadPolicy } from './read-policy.js';
import { PREFIX_NAME_RE } from '../formats/turtle-lexical.js';
import type { BodyLiteral, Rule } from '../datalog/ast.js';

/** Whether a rule mentions a tuple table. */
function ruleUsesTable(rule: Rule, table: string): boolean {
  const inBody = (l: BodyLiteral): boolean =>
    l.kind === 'atom' ? l.table === table : l.kind === 'not' ? l.atoms.some((a) => a.table === table) : l.kind === 'aggregate' ? l.body.some(inBody) : false;
  return rule.head.some((h) => h.table === table) || rule.body.some(inBody);
}
import { DataSourceRegistry } from './data-sources.js';
import { type Component, componentRows, type ComponentInfoRow, REASONING_RUN } from './component-info.js';
import { type DataStoreType, resolveDataStoreParameters, resolveDataStoreType } from './data-store-parameters.js';
import type { StoreLog } from './persistence-target.js';
import { recoveryComponent, type StoreRecovery } from './recovery.js';
import type { Catalogue } from '../storage/catalogue.js';
import { CommitFeed, type CommitRecord, type CommitSubscription, type CommitSubscriptionOptions } from './commit-feed.js';
import { deltaQueriesOf, type DeltaQueryRegistry } from './delta-queries.js';
import { commitValidationOf, type CommitValidation } from './shacl-commit-options.js';
import { checkConstraints } from './constraint-violations.js';
import { validateCommit } from './shacl-commit.js';
import { SHACL_TABLES, shaclTableInfo, shaclTables } from './shacl-tables.js';
import type { ValidationOptions } from './shacl-report.js';
import { bindParameters } from '../sparql/bound-parameters.js';
import type { BoundParameters } from '../sparql/types.js';

/** One row of a Property/Value/Mutable listing. */
export interface PropertyRow {
  /** Property name. */
  readonly property: string;
  /** Its value as text. */
  readonly value: string;
  /** Whether it can be set. */
  readonly mutable: boolean;
}

/** One row of the tuple table listing. */
export interface TupleTableRow {
  /** Table name. */
  readonly name: string;
  /** Table type (`memory`, or `builtin` for built-in tables such as SKOLEM). */
  readonly type: string;
  /** Unique id within the store. */
  readonly id: number;
  /** Minimum atom arity. */
  readonly minArity: number;
  /** Maximum atom arity (4294967295, `UNBOUNDED_ARITY` of the catalogue, for any number of arguments). */
  readonly maxArity: number;
}

/** The tables every store has and keeps: they cannot be deleted. */
const PERMANENT_TABLES = new Set([DEFAULT_TRIPLES, QUADS]);

/**
 * The built-in tables (type `builtin`, content determined by the store) by name, with the
 * catalogue entry each gets for an id. Every new store has them; they can be deleted, and
 * creating a table of that name with no parameters recreates them.
 */
const BUILT_IN_TABLES: ReadonlyMap<string, (id: number) => TupleTableInfo> = new Map([[SKOLEM_TABLE, skolemTableInfo], ...[...SHACL_TABLES.keys()].map((name) => [name, shaclTableInfo(name)] as const)]);

/** Checks a prefix name (`ex:` or `:`) and an IRI. */
export function checkPrefix(name: string, iri?: string): void {
  if (!PREFIX_NAME_RE.test(name)) {
    throw new BadRequestError(`invalid prefix name '${name}': it must be a Turtle prefix name ending with ':' (e.g. 'ex:' or ':')`);
  }
  if (iri !== undefined) checkIri(iri, `prefix '${name}'`);
}

/** Checks an absolute IRI. */
export function checkIri(iri: string, what: string): void {
  // eslint-disable-next-line no-control-regex
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:[^\u0000-\u0020<>"{}|^`\\]*$/.test(iri)) throw new BadRequestError(`invalid IRI '${iri}' for ${what}: it must be an absolute IRI`);
}

/**
 * @internal Reads the RDF at an IRI into a transaction of a store, its triples into `graph` when given
 * (SPARQL LOAD). The server gives each store its loader (the importer, `server/import.ts`),
 * which this module does not import.
 */
export type IriLoader = (store: DataStore, tx: WriteTransaction, iri: string, graph: string | undefined, interrupter: Interrupter) => Promise<void>;

/** @internal A named data store. */
export class DataStore {
  /** Its facts, versions and transactions. */
  readonly facts: FactStore;
  /** A unique id assigned at creation (kept in the server directory of a persistent server). */
  readonly uniqueId: string;
  /**
   * The store's files when it persists (`persistence=file`): every commit appends its record
   * to the log before it is published. `files` settles once the files exist (a new store's
   * directory is created in the background); a commit waits for it. `compactAfter` is called
   * after each commit (it compacts in the background when the log has grown large).
   */
  persistence: { readonly files: Promise<StoreLog>; readonly compactAfter: (store: DataStore) => void } | undefined = undefined;
  /** The store type. */
  readonly type: DataStoreType;
  /** Creation parameters with defaults filled in. */
  readonly parameters: Readonly<Record<string, string>>;
  /** Rules and materialisation. */
  readonly reasoner: StoreReasoner;
  /** The external sources tuple tables can be mounted on (not transactional). */
  readonly dataSources: DataSourceRegistry;
  /** Number of times the store's content was cleared. */
  generationCounter = 0;
  /**
   * Refuses an operation that adds to memory (`what`, e.g. "the import") when the process is
   * past the server's `max-memory` (set by the server; undefined: no check).
   */
  memoryGuard: ((what: string) => void) | undefined = undefined;
  /**
   * The store's last load from the server directory (set by the server at start-up), shown as
   * the `recovery` property and the `Recovery` component; undefined for a store created since.
   */
  recovery: StoreRecovery | undefined = undefined;
  private deleted = false;
  private blankCounter = 0;
  /** The subscriptions to the store's commits. */
  private readonly feed = new CommitFeed();
  /** The store's delta queries (delta-queries.ts): told of every commit as it publishes its version. */
  readonly deltaQueries: DeltaQueryRegistry = deltaQueriesOf(this);

  /** Creates an empty store (validating type and parameters). */
  constructor(
    /** The store name. */
    readonly name: string,
    type: string | undefined,
    parameters: Readonly<Record<string, string>>,
    /** What imports by IRI and SPARQL LOAD may read (the server's sandbox and URL schemes). */
    readonly readPolicy: ReadPolicy,
    /** How SPARQL LOAD reads the RDF at an IRI into a transaction (the server's importer). */
    private readonly loader: IriLoader,
    uniqueId: string = randomUUID(),
    /** Whether the server keeps its stores in a server directory (persistence=file is then allowed). */
    persistentServer: boolean | 'postgresql' = false,
  ) {
    this.uniqueId = uniqueId;
    if (!/^[A-Za-z0-9_.~-]+$/.test(name)) throw new BadRequestError(`invalid data store name '${name}': use letters, digits, '_', '-', '.' and '~'`);
    this.type = resolveDataStoreType(type);
    this.parameters = resolveDataStoreParameters(parameters, persistentServer);
    this.shaclOnCommit = commitValidationOf(this.parameters);
    this.facts = new FactStore(`data store '${name}'`);
    this.dataSources = new DataSourceRegistry(name, (source) =>
      [...this.facts.committed.catalogue.tupleTables.values()].filter((t) => t.parameters['data-source-name'] === source).map((t) => t.name),
      readPolicy,
      (source) => this.remount(source),
    );
    this.reasoner = new StoreReasoner(this.facts, () => ({
      useDRed: this.parameters['use-DRed'] === 'true',
      byLevels: this.parameters['by-levels'] !== 'false',
      equality: this.parameters.equality ?? 'off',
    }));
    // RDFox's SHACL tables (shacl-tables.ts), after SKOLEM
    this.facts.initialiseCatalogue((c) => c.set('tupleTables', c.tupleTables.withMutations((m) => {
      for (const name of SHACL_TABLES.keys()) m.set(name, shaclTableInfo(name)(this.facts.allocateTableId()));
    })));
    const internal = equalityRules(this.parameters.equality ?? 'off');
    if (internal.length > 0) {
      this.facts.initialiseCatalogue((c) => c.set('rules', c.rules.withMutations((m) => {
        for (const rule of internal) {
          const key = ruleKey(rule);
          m.set(key, { key, rule, domain: 'internal' });
        }
      })));
    }
  }

  // ---- transaction lifecycle (facts plus pending reasoning) ----

  /**
   * Called before every write transaction and catalogue change a caller starts (not the
   * store's own replay), with the caller's lock timeout; throws (or rejects) to refuse it (a
   * replica refuses writes: `ReplicaWriteError`), and may wait (a writer still catching up).
   */
  writeGuard: ((timeoutMs: number) => void | Promise<void>) | undefined = undefined;

  /** Starts the read/write transaction (refused by {@link DataStore.writeGuard}). */
  async beginWrite(timeoutMs: number): Promise<WriteTransaction> {
    await this.writeGuard?.(timeoutMs);
    return this.facts.beginWrite(timeoutMs);
  }

  /**
   * The change log of the write transaction `tx`: the only way its explicit facts are
   * written, and what persistence and the commit feed read its changes from.
   */
  changeLog(tx: WriteTransaction): ChangeLog<Rule> {
    return this.reasoner.changeLog(tx);
  }

  /**
   * Adds (`add`) or removes (`remove`) an explicit fact in `tx` through its change log,
   * checking the role's write access; returns whether the fact's explicit status changed.
   */
  writeExplicit(tx: WriteTransaction, tableId: number, tuple: ArrayLike<number>, change: 'add' | 'remove'): boolean {
    const log = this.reasoner.changeLog(tx);
    return change === 'add' ? log.addExplicit(tableId, tuple) : log.removeExplicit(tableId, tuple);
  }

  /**
   * Subscribes to the store's commits: from now on every commit publishes its
   * {@link CommitRecord} to the subscription, in commit order (see `commit-feed.ts` for
   * buffering and the end of a subscription whose consumer falls behind).
   */
  subscribeCommits(options?: CommitSubscriptionOptions): CommitSubscription {
    return this.feed.subscribe(options);
  }

  /**
   * Brings the materialisation up to date (running the commit procedure), checks the result's
   * constraints (`constraint-violations.ts`) and SHACL shapes (when validated on commit),
   * appends the transaction's record to the log when the store persists, publishes the
   * transaction and hands its {@link CommitRecord} to the commit feed's subscriptions. On
   * failure the transaction is rolled back, except that with `recoverable` a
   * {@link ConstraintViolationError} leaves it open as it was before the commit.
   * `showViolations` says whether that error may show the violations' properties (default: yes).
   */
  async commit(tx: WriteTransaction, interrupter: Interrupter, options: { readonly recoverable?: boolean; readonly showViolations?: () => boolean } = {}): Promise<Snapshot> {
    let record: CommitRecord | undefined;
    const sp = options.recoverable === true ? this.reasoner.savepoint(tx) : undefined;
    try {
      const procedure = tx.catalogue.commitProcedure;
      if (procedure !== '') {
        await this.reasoner.reason(tx, interrupter);
        await this.runUpdate(tx, procedure, tx.catalogue.baseIRI, interrupter);
      }
      await this.reasoner.reason(tx, interrupter);
      checkConstraints(tx, this.facts.dictionary, options.showViolations ?? (() => true));
      if (this.shaclOnCommit) await this.validateCommit(tx, interrupter);
      record = await this.logCommit(this.reasoner.changeLog(tx));
    } catch (e) {
      if (sp !== undefined && e instanceof ConstraintViolationError) this.reasoner.rollbackTo(tx, sp);
      else this.rollback(tx);
      throw e;
    }
    const snapshot = this.facts.commit(tx);
    this.reasoner.committedTransaction(tx);
    if (record) this.publish(snapshot, record);
    this.persistence?.compactAfter(this);
    return snapshot;
  }

  /** What a commit validates with SHACL (`shacl-validation-on-commit=on`), or undefined. */
  private readonly shaclOnCommit: ValidationOptions | undefined;

  /** Validates the result of `tx` with SHACL (shacl-commit.ts); throws ShaclViolationError when it does not conform. */
  private async validateCommit(tx: WriteTransaction, interrupter: Interrupter): Promise<void> {
    this.lastCommitValidation = await validateCommit(this.shaclOnCommit!, tx, this.facts.dictionary, this.reasoner.changeLog(tx).changes(EXPLICIT | DERIVED), interrupter);
  }

  /** @internal What the last validation on commit did (for tests). */
  lastCommitValidation: CommitValidation | undefined = undefined;

  /**
   * @internal Commits a transaction replayed from the store's log at start-up, after the
   * versions its delta queries had computed (see `store-persistence.ts`): brings the
   * materialisation up to date and publishes the version to the delta queries, so that they
   * compute its changes as they did before the restart. Neither runs the commit procedure (its
   * changes are in the record) nor appends to the log (the record is there).
   */
  async commitReplayed(tx: WriteTransaction, interrupter: Interrupter): Promise<void> {
    let record: CommitRecord | undefined;
    try {
      await this.reasoner.reason(tx, interrupter);
      const log = this.reasoner.changeLog(tx);
      if (this.deltaQueries.active) record = { version: tx.version, explicit: log.changes(EXPLICIT), all: log.changes(EXPLICIT | DERIVED), catalogueChanged: log.catalogueChanged };
    } catch (e) {
      this.rollback(tx);
      throw e;
    }
    const snapshot = this.facts.commit(tx);
    this.reasoner.committedTransaction(tx);
    if (record) this.deltaQueries.committed(snapshot, record);
  }

  /**
   * @internal Commits a transaction a replica applies from the writer's log (see
   * `pg-store-log.ts`): brings the materialisation up to date and publishes the version to
   * the commit feed and the delta queries, as the writer's commit did. Neither runs the
   * commit procedure (its changes are in the record) nor logs (the record is logged).
   */
  async commitFollowed(tx: WriteTransaction, interrupter: Interrupter): Promise<Snapshot> {
    let record: CommitRecord | undefined;
    try {
      await this.reasoner.reason(tx, interrupter);
      const log = this.reasoner.changeLog(tx);
      if (this.feed.listening || this.deltaQueries.active) record = { version: tx.version, explicit: log.changes(EXPLICIT), all: log.changes(EXPLICIT | DERIVED), catalogueChanged: log.catalogueChanged };
    } catch (e) {
      this.rollback(tx);
      throw e;
    }
    const snapshot = this.facts.commit(tx);
    this.reasoner.committedTransaction(tx);
    if (record) this.publish(snapshot, record);
    return snapshot;
  }

  /**
   * The last step of a commit before its version is published: appends the transaction's
   * record to the log when the store persists, and returns the record for the commit feed
   * when anyone listens (decided after the append, so that a subscription made meanwhile
   * gets it). Both take the explicit changes from the change log, computed once.
   */
  private async logCommit(log: ChangeLog<Rule>): Promise<CommitRecord | undefined> {
    const listening = this.feed.listening || this.deltaQueries.active;
    let explicit = this.persistence || listening ? log.changes(EXPLICIT) : undefined;
    if (this.persistence) await (await this.persistence.files).append(this, log.tx, explicit!);
    if (!this.feed.listening && !this.deltaQueries.active) return undefined;
    explicit ??= log.changes(EXPLICIT);
    return { version: log.tx.version, explicit, all: log.changes(EXPLICIT | DERIVED), catalogueChanged: log.catalogueChanged };
  }

  /**
   * Runs a non-transactional catalogue change (tuple table creation and deletion): takes the
   * write lock, applies `change`, logs the new catalogue when the store persists, publishes
   * (also to the commit feed).
   */
  private async alterCatalogue(timeoutMs: number, change: (catalogue: Catalogue) => Catalogue): Promise<void> {
    await this.writeGuard?.(timeoutMs);
    // a new store's files are waited for before the lock is taken
    if (this.persistence) await this.persistence.files;
    const tx = await this.facts.beginWrite(timeoutMs);
    let record: CommitRecord | undefined;
    try {
      tx.catalogue = change(tx.catalogue);
      // no fact is written: the transaction's own log only reads its (empty) changes
      record = await this.logCommit(new ChangeLog<Rule>(tx));
    } catch (e) {
      this.facts.rollback(tx);
      throw e;
    }
    const snapshot = this.facts.commit(tx);
    if (record) this.publish(snapshot, record);
  }

  /** Hands a commit's record to the commit feed and the delta queries (right after the version is published). */
  private publish(snapshot: Snapshot, record: CommitRecord): void {
    this.feed.publish(record);
    this.deltaQueries.committed(snapshot, record);
  }

  /**
   * Reclaims deleted rows and, when the store persists, writes a new snapshot and starts a
   * new log (see `store-persistence.ts`).
   */
  async compact(timeoutMs: number): Promise<void> {
    await this.facts.compact(timeoutMs);
    if (this.persistence) await (await this.persistence.files).compact(this, timeoutMs);
  }

  /** Recompiles the rules and checks the commit procedure against the current catalogue. */
  recompile(tx: WriteTransaction): void {
    this.reasoner.recompile(tx);
    const procedure = tx.catalogue.commitProcedure;
    if (procedure !== '') parseUpdate(procedure, tx.catalogue.prefixes, tx.catalogue.baseIRI);
  }

  /**
   * Runs a SPARQL update in the transaction (its changes are explicit facts); `dataset` is the
   * protocol's USING graphs; `limits` bound its WHERE clauses. LOAD reads what the store's
   * read policy allows.
   */
  async runUpdate(tx: WriteTransaction, update: string, baseIRI: string, interrupter: Interrupter, dataset?: UpdateDataset, limits?: EvaluationLimits, bindings?: BoundParameters): Promise<void> {
    // a long text is parsed on the parsing thread; the time limit covers parsing too
    const deadline = limits?.timeLimitMs !== undefined ? performance.now() + limits.timeLimitMs : Infinity;
    const op = bindParameters(await parseUpdateOffThread(update, tx.catalogue.prefixes, baseIRI, dataset, { interrupter, deadline }), bindings);
    await executeUpdate(
      op,
      {
        tx,
        dictionary: this.facts.dictionary,
        interrupter,
        limits,
        addFact: (tableId, tuple) => this.writeExplicit(tx, tableId, tuple, 'add'),
        removeFact: (tableId, tuple) => this.writeExplicit(tx, tableId, tuple, 'remove'),
        load: (iri, graph) => this.loader(this, tx, iri, graph, interrupter),
        computedTables: shaclTables(tx, this.facts.dictionary, tx.access, interrupter),
      },
      baseIRI,
    );
  }

  /** Discards the transaction. */
  rollback(tx: WriteTransaction): void {
    this.facts.rollback(tx);
    this.reasoner.rolledBackTransaction();
  }

  /** A savepoint of the transaction. */
  savepoint(tx: WriteTransaction): ReasoningSavepoint {
    return this.reasoner.savepoint(tx);
  }

  /** Returns to a savepoint; the transaction stays open. */
  rollbackTo(tx: WriteTransaction, sp: ReasoningSavepoint): void {
    this.reasoner.rollbackTo(tx, sp);
  }

  /** Whether the store was deleted (its connections are then invalid). */
  get isDeleted(): boolean {
    return this.deleted;
  }

  /** Marks the store deleted (its commit subscriptions end). */
  markDeleted(): void {
    this.deleted = true;
    this.dataSources.closeAll();
    this.feed.closeAll();
    this.deltaQueries.closeAll();
  }

  /** A blank node label not used in the store yet (for anonymous blank nodes of imports). */
  freshBlankNodeLabel(): string {
    for (;;) {
      const label = `anon${++this.blankCounter}`;
      if (this.facts.dictionary.lookup(`_:${label}`) < 0) return label;
    }
  }

  /** Property rows (columns Property, Value, Mutable). */
  properties(state: StoreState): PropertyRow[] {
    const rows: PropertyRow[] = [
      { property: 'name', value: this.name, mutable: false },
      { property: 'unique-id', value: this.uniqueId, mutable: false },
      { property: 'data-store-version', value: String(this.facts.committed.version), mutable: false },
    ];
    for (const [k, v] of Object.entries(this.parameters)) rows.push({ property: `parameters.${k}`, value: v, mutable: false });
    rows.push(
      { property: 'concurrent', value: String(this.type !== 'parallel-nn'), mutable: false },
      { property: 'equality-axiomatization', value: this.parameters.equality ?? 'off', mutable: false },
      { property: 'generation-counter', value: String(this.generationCounter), mutable: false },
      { property: 'base-iri', value: state.catalogue.baseIRI, mutable: true },
      { property: 'requires-incremental-reasoning', value: String(state.writable && this.reasoner.requiresReasoning), mutable: false },
    );
    // a store of a server directory: the torn log tail its last load cut, empty when none
    if (this.persistence !== undefined) rows.push({ property: 'recovery', value: this.recovery?.report.cut ?? '', mutable: false });
    return rows;
  }

  /** Sets base-iri in a transaction; returns whether it changed. */
  setBaseIRI(tx: WriteTransaction, iri: string): boolean {
    checkIri(iri, 'the base IRI');
    if (tx.catalogue.baseIRI === iri) return false;
    tx.catalogue = tx.catalogue.set('baseIRI', iri);
    return true;
  }

  /** Replaces every prefix. */
  setPrefixes(tx: WriteTransaction, prefixes: ReadonlyMap<string, string> | Readonly<Record<string, string>>): void {
    const entries: Array<[string, string]> = prefixes instanceof Map ? [...(prefixes as ReadonlyMap<string, string>)] : Object.entries(prefixes as Readonly<Record<string, string>>);
    for (const [name, iri] of entries) checkPrefix(name, iri);
    tx.catalogue = tx.catalogue.set('prefixes', OrderedMap<string, string>(entries));
  }

  /** Sets one prefix; returns whether anything changed. */
  setPrefix(tx: WriteTransaction, name: string, iri: string): boolean {
    checkPrefix(name, iri);
    if (tx.catalogue.prefixes.get(name) === iri) return false;
    tx.catalogue = tx.catalogue.set('prefixes', tx.catalogue.prefixes.set(name, iri));
    return true;
  }

  /** Removes one prefix; returns whether it existed. */
  unsetPrefix(tx: WriteTransaction, name: string): boolean {
    checkPrefix(name);
    if (!tx.catalogue.prefixes.has(name)) return false;
    tx.catalogue = tx.catalogue.set('prefixes', tx.catalogue.prefixes.delete(name));
    return true;
  }

  /**
   * Deletes every fact of every table, every rule and every axiom. The facts go through the
   * change log, at once (no reasoning is left to do: the rules are gone with their facts).
   */
  clear(tx: WriteTransaction): void {
    tx.catalogue = tx.catalogue.set('rules', tx.catalogue.rules.filter((r) => r.domain === 'internal')).set('axioms', tx.catalogue.axioms.clear());
    this.reasoner.changeLog(tx).deleteAllFacts();
    this.generationCounter++;
  }

  /**
   * Drops every rule and makes every fact explicit, through the change log, at once (call
   * after reasoning is up to date).
   */
  clearRulesExplicateFacts(tx: WriteTransaction): void {
    tx.catalogue = tx.catalogue.set('rules', tx.catalogue.rules.filter((r) => r.domain === 'internal')).set('axioms', tx.catalogue.axioms.clear());
    this.reasoner.changeLog(tx).explicateDerivedFacts();
  }

  /** The tuple table listing. */
  listTupleTables(state: StoreState): TupleTableRow[] {
    return [...state.catalogue.tupleTables.values()].map((t) => ({ name: t.name, type: t.type, id: t.id, minArity: t.minArity, maxArity: t.maxArity }));
  }

  /** The description of one tuple table (Property/Value rows). */
  describeTupleTable(state: StoreState, name: string): Array<{ property: string; value: string }> {
    const t = this.tableInfo(state, name);
    const rows = [
      { property: 'name', value: t.name },
      { property: 'type', value: t.type },
      { property: 'ID', value: String(t.id) },
      { property: 'min-arity', value: String(t.minArity) },
      { property: 'max-arity', value: String(t.maxArity) },
    ];
    if (storesFacts(t)) rows.push({ property: 'facts', value: String(state.table(t.id).liveCount) });
    for (const [k, v] of Object.entries(t.parameters)) rows.push({ property: `parameters.${k}`, value: v });
    return rows;
  }

  /** A table's catalogue entry, or UnknownResourceError. */
  tableInfo(state: StoreState, name: string): TupleTableInfo {
    const t = state.catalogue.tupleTables.get(name);
    if (!t) throw new UnknownResourceError(`tuple table '${name}' does not exist in data store '${this.name}'`);
    return t;
  }

  /**
   * Creates an in-memory tuple table, or with the name of a deleted built-in table and no
   * parameters recreates that table (non-transactional: published at once). The name of a
   * built-in table cannot be used for any other table.
   */
  async createTupleTable(name: string, parameters: Readonly<Record<string, string>>, lockTimeoutMs: number): Promise<TupleTableInfo> {
    if (!/^[A-Za-z_][\w.-]*$/.test(name)) throw new BadRequestError(`invalid tuple table name '${name}'`);
    const builtIn = BUILT_IN_TABLES.get(name);
    if (builtIn) return this.recreateBuiltInTable(name, builtIn, parameters, lockTimeoutMs);
    if (parameters['data-source-name'] !== undefined) return this.mountTupleTable(name, parameters, lockTimeoutMs);
    let type = 'memory';
    let arity: number | undefined;
    for (const [key, value] of Object.entries(parameters)) {
      if (key === 'type') {
        if (value !== 'memory') throw new BadRequestError(`unknown tuple table type '${value}' (this version supports type=memory)`);
        type = value;
      } else if (key === 'arity' || key === 'min-arity' || key === 'max-arity') {
        const n = Number(value);
        if (!/^\d+$/.test(value) || n < 1 || n > 31) throw new BadRequestError(`invalid ${key} '${value}': an integer from 1 to 31 is required`);
        if (arity !== undefined && arity !== n) throw new BadRequestError('an in-memory tuple table has one arity: min-arity and max-arity must be equal');
        arity = n;
      } else throw new BadRequestError(`unknown tuple table parameter '${key}' (known: type, arity, min-arity, max-arity)`);
    }
    if (arity === undefined) throw new BadRequestError(`tuple table '${name}' needs an arity (parameter arity, or min-arity and max-arity)`);
    let info: TupleTableInfo | undefined;
    await this.alterCatalogue(lockTimeoutMs, (catalogue) => {
      if (catalogue.tupleTables.has(name)) throw new DuplicateResourceError(`tuple table '${name}' already exists in data store '${this.name}'`);
      const id = this.facts.createTable(arity);
      info = { name, id, type, minArity: arity, maxArity: arity, parameters: { ...parameters } };
      return catalogue.set('tupleTables', catalogue.tupleTables.set(name, info));
    });
    return info!;
  }

  /** Creates a tuple table mounted on a data source (type `dataSource`; its facts are read from the source). */
  private async mountTupleTable(name: string, parameters: Readonly<Record<string, string>>, lockTimeoutMs: number): Promise<TupleTableInfo> {
    const mounted = await this.dataSources.mount(name, parameters);
    let info: TupleTableInfo | undefined;
    await this.alterCatalogue(lockTimeoutMs, (catalogue) => {
      if (catalogue.tupleTables.has(name)) throw new DuplicateResourceError(`tuple table '${name}' already exists in data store '${this.name}'`);
      info = { name, id: this.facts.allocateTableId(), type: DATA_SOURCE_TABLE_TYPE, minArity: mounted.arity, maxArity: mounted.arity, parameters: { ...parameters } };
      attachMountedReader(info, mounted);
      return catalogue.set('tupleTables', catalogue.tupleTables.set(name, info));
    });
    return info!;
  }

  /**
   * Attaches a newly registered source to the tuple tables the catalogue mounts on its name
   * (restored from disk). A table whose parameters no longer fit the source stays detached:
   * reading it fails with an error naming the table and the source.
   */
  private async remount(source: string): Promise<void> {
    for (const info of this.facts.committed.catalogue.tupleTables.values()) {
      if (info.type !== DATA_SOURCE_TABLE_TYPE || info.parameters['data-source-name'] !== source) continue;
      try {
        attachMountedReader(info, await this.dataSources.mount(info.name, info.parameters));
      } catch {
        // left detached (see above)
      }
    }
  }

  /**
   * @internal Attaches the tuple tables `catalogue` mounts to their registered sources (a store
   * loaded from disk, whose registrations were restored first). A table whose source is not
   * registered, could not be opened or no longer fits cannot be read: the store starts all the
   * same. Until `loaded` is called (the reasoning of the load) such a table reads as empty, as
   * a source whose rows are gone would; from then on reading it fails with an error naming its
   * source and the cause, until the source is registered again.
   * @returns the names of the sources that cannot be read, and `loaded`.
   */
  async attachMountedTables(catalogue: Catalogue): Promise<{ unavailable: string[]; loaded: () => void }> {
    let loading = true;
    const unavailable = new Set<string>();
    for (const info of catalogue.tupleTables.values()) {
      if (info.type !== DATA_SOURCE_TABLE_TYPE) continue;
      const source = info.parameters['data-source-name'] ?? '';
      try {
        attachMountedReader(info, await this.dataSources.mount(info.name, info.parameters));
      } catch (e) {
        unavailable.add(source);
        const why = e instanceof Error ? e.message : String(e);
        attachMountedReader(info, {
          scan: () => {
            if (loading) return false;
            throw new Error(`tuple table '${info.name}' is mounted on data source '${source}', which cannot be read: ${why}`);
          },
        });
      }
    }
    return { unavailable: [...unavailable], loaded: () => (loading = false) };
  }

  /** Creates the built-in table `name` again after it was deleted (it takes no parameters). */
  private async recreateBuiltInTable(name: string, entry: (id: number) => TupleTableInfo, parameters: Readonly<Record<string, string>>, lockTimeoutMs: number): Promise<TupleTableInfo> {
    let info: TupleTableInfo | undefined;
    await this.alterCatalogue(lockTimeoutMs, (catalogue) => {
      if (catalogue.tupleTables.has(name)) throw new DuplicateResourceError(`tuple table '${name}' already exists in data store '${this.name}'`);
      if (Object.keys(parameters).length > 0) {
        throw new BadRequestError(`'${name}' is the name of a built-in tuple table and cannot be used for another tuple table; create it with no parameters to recreate the built-in table`);
      }
      info = entry(this.facts.allocateTableId());
      return catalogue.set('tupleTables', catalogue.tupleTables.set(name, info));
    });
    return info!;
  }

  /** Deletes a user tuple table and its facts, or a built-in table (non-transactional). */
  async deleteTupleTable(name: string, lockTimeoutMs: number): Promise<void> {
    if (PERMANENT_TABLES.has(name)) throw new ResourceInUseError(`tuple table '${name}' is built in and cannot be deleted`);
    let id = -1;
    await this.alterCatalogue(lockTimeoutMs, (catalogue) => {
      const t = catalogue.tupleTables.get(name);
      if (!t) throw new UnknownResourceError(`tuple table '${name}' does not exist in data store '${this.name}'`);
      const user = [...catalogue.rules.values()].find((r) => ruleUsesTable(r.rule as Rule, name));
      if (user) throw new ResourceInUseError(`tuple table '${name}' is used by the rule ${user.key}: delete the rule first`);
      id = storesFacts(t) ? t.id : -1;
      return catalogue.set('tupleTables', catalogue.tupleTables.delete(name));
    });
    if (id >= 0) this.facts.dropTable(id);
  }

  /** The component tree of the store. */
  component(state: StoreState, extended: boolean): Component {
    const tables: Component[] = [];
    let facts = 0;
    for (const info of state.catalogue.tupleTables.values()) {
      // built-in tables hold no facts and take no memory
      if (!storesFacts(info)) continue;
      const table = state.table(info.id);
      const view = state.view(info.id);
      let explicit = 0;
      let derived = 0;
      let all = 0;
      table.forEachVisibleRow(view, EXPLICIT | DERIVED, (row) => {
        all++;
        const s = table.statusIn(row, view);
        if (s & EXPLICIT) explicit++;
        if (s & DERIVED) derived++;
      });
      facts += all;
      const properties: Array<[string, string | number | boolean]> = [
        ['Name', info.name],
        ['Type', info.type],
        ['Arity', info.maxArity],
        ['Number of facts', all],
        ['Number of explicit facts', explicit],
        ['Number of derived facts', derived],
      ];
      if (extended) properties.push(['Rows (including deleted, not yet compacted)', table.rowCount], ['Bytes', table.byteSize]);
      tables.push({ name: 'Tuple table', properties, children: [] });
    }
    const parameters: Component = { name: 'Parameters', properties: Object.entries(this.parameters), children: [] };
    const dictionary: Component = {
      name: 'Dictionary',
      properties: extended ? [['Number of terms', this.facts.dictionary.size], ['Bytes', this.facts.dictionary.byteSize]] : [['Number of terms', this.facts.dictionary.size]],
      children: [],
    };
    const rootProps: Array<[string, string | number | boolean]> = [
      ['Name', this.name],
      ['Unique ID', this.uniqueId],
      ['Type', this.type],
      ['Data store version', state.version],
      ['Number of facts', facts],
    ];
    if (extended) rootProps.push(['Bytes', this.facts.byteSize]);
    const recovery = this.recovery !== undefined ? [recoveryComponent(this.recovery)] : [];
    const run = this.reasoner.lastRun;
    const reasoning: Component[] =
      run === undefined
        ? []
        : [
            {
              name: REASONING_RUN,
              properties: [
                ['Facts derived anew', run.inserted],
                ['Facts deleted', run.deleted],
                // every rule instance whose head was stored or found counts (a fact may be derived many times)
                ['Derivations', run.derivations],
                ['Derivations per new fact', run.inserted > 0 ? Math.round((run.derivations / run.inserted) * 100) / 100 : 0],
                ['Seconds', Math.round(run.seconds * 1000) / 1000],
              ],
              children: [],
            },
          ];
    return { name: 'Data store', properties: rootProps, children: [parameters, dictionary, ...tables, ...reasoning, ...recovery] };
  }

  /** Component information rows. */
  componentInfo(state: StoreState, extended: boolean): ComponentInfoRow[] {
    return componentRows(this.component(state, extended));
  }
}
