/**
 * The delta queries of a data store: registered SELECT queries whose answer changes are
 * computed after every commit that changed the store, kept per version, and pushed to watches.
 *
 * The store tells the registry of each commit synchronously, as the commit publishes its
 * version ({@link DeltaQueryRegistry.committed}); the registry then holds that version's
 * snapshot (and the one before it) until the commit's changes are computed, in the background,
 * one commit after another: a commit never waits for delta queries, and delta queries always
 * read exactly the versions before and after each commit.
 *
 * How the changes are computed depends on the query's shape (delta-query-shape.ts):
 * incremental queries from the commit's change log (solutions that use an added fact on the
 * new version, solutions that use a removed fact on the old one); others by evaluating the
 * query again and comparing with the answer kept from the previous version. A commit that
 * changed the catalogue (rules, axioms, …) is compared by evaluating every query on both
 * versions. Answers obey the registering role's privileges (its fact access, taken at each
 * commit).
 * @module
 */
import { createRequire } from 'node:module';
import { Interrupter } from '../model/control.js';
import type { TermDictionary } from '../model/dictionary.js';
import { BadRequestError, DuplicateResourceError, UnknownResourceError } from '../model/errors.js';
import { termToKey } from '../model/terms.js';
import { type CompiledQuery, compileQuery } from '../sparql/parse.js';
import { loadedAsCommonJS } from '../sparql/lazy-load.js';
import type { Catalogue } from '../storage/catalogue.js';
import type { FactAccess } from '../storage/fact-access.js';
import type { Snapshot, StoreState } from '../storage/fact-store.js';
import type { CommitRecord } from './commit-feed.js';
import { deltaQueryShape, type DeltaQueryShape } from './delta-query-shape.js';
import { DEFAULT_WATCH_BUFFER, type DeltaQueryAnswer, type DeltaQueryChange, type DeltaQueryRow, type DeltaQueryWatch, Watcher, type WatchOptions } from './delta-query-watch.js';

export type { DeltaQueryAnswer, DeltaQueryChange, DeltaQueryEvent, DeltaQueryRow, DeltaQueryWatch, WatchOptions } from './delta-query-watch.js';

/** How a delta query's answers are kept: its changes per version (`delta`), or its whole answer per version too (`snapshot`). */
export type DeltaQueryEvaluationMode = 'delta' | 'snapshot';

/** Options of a delta query (RDFox's parameters, in camel case). */
export interface DeltaQueryOptions {
  /** `all` (default), `explicit` or `derived`. */
  readonly factDomain?: string;
  /** Base IRI of the query text (default: the store's). */
  readonly baseIRI?: string;
  /** `delta` (default): keep additions and deletions per version; `snapshot`: keep the whole answer per version as well. */
  readonly evaluationMode?: DeltaQueryEvaluationMode;
  /** How many versions' whole answers are kept (`snapshot` mode; default 1). */
  readonly snapshotsMaxSize?: number;
  /** How many versions' additions are kept (default 1). */
  readonly additionsMaxSize?: number;
  /** How many versions' deletions are kept (default 1). */
  readonly deletionsMaxSize?: number;
}

/** A kept answer of a delta query at a version. */
export interface DeltaQueryVersionAnswer {
  /** The data store version. */
  readonly version: number;
  /** `snapshot` (the whole answer), `additions` or `deletions`. */
  readonly type: 'snapshot' | 'additions' | 'deletions';
  /** The rows. */
  readonly rows: readonly DeltaQueryRow[];
}

/** The description of a delta query. */
export interface DeltaQueryDescription {
  /** Its name. */
  readonly name: string;
  /** Its text. */
  readonly query: string;
  /** The role that registered it (answers obey its privileges). */
  readonly role: string;
  /** Its answer variables. */
  readonly variables: readonly string[];
  /** `incremental` (from the change log) or `rerun` (evaluated again and compared). */
  readonly computation: 'incremental' | 'rerun';
  /** Why it re-runs (undefined when incremental). */
  readonly rerunReason: string | undefined;
  /** The fact domain. */
  readonly factDomain: string;
  /** The evaluation mode. */
  readonly evaluationMode: DeltaQueryEvaluationMode;
  /** RDFox's size parameters. */
  readonly snapshotsMaxSize: number;
  /** How many versions' additions are kept. */
  readonly additionsMaxSize: number;
  /** How many versions' deletions are kept. */
  readonly deletionsMaxSize: number;
  /** The version its answer was first computed at. */
  readonly registeredAt: number | undefined;
  /** The last version whose changes are computed. */
  readonly version: number | undefined;
  /** Why it stopped (an evaluation failed, e.g. the role lost a privilege); undefined while it works. */
  readonly error: string | undefined;
}

/** What the registry needs of its store. */
export interface DeltaQueryStore {
  /** The store's name. */
  readonly name: string;
  /** Its facts: versions, snapshots, dictionary. */
  readonly facts: {
    readonly dictionary: TermDictionary;
    read(): Snapshot;
    retain(snapshot: Snapshot): Snapshot;
    release(snapshot: Snapshot): void;
  };
}

/** The access of the registering role for a catalogue (undefined: everything). */
export type AccessFor = (catalogue: Catalogue, dictionary: TermDictionary) => FactAccess | undefined;

/** A bag of rows by key. */
type Bag = Map<string, { values: DeltaQueryRow; count: number }>;

function rowKey(values: DeltaQueryRow): string {
  let key = '';
  for (const v of values) key += `${v === undefined ? '' : termToKey(v)}\u0000`;
  return key;
}

function bagOf(rows: readonly DeltaQueryRow[]): Bag {
  const bag: Bag = new Map();
  for (const values of rows) {
    const key = rowKey(values);
    const entry = bag.get(key);
    if (entry) entry.count++;
    else bag.set(key, { values, count: 1 });
  }
  return bag;
}

function rowsOf(bag: Bag): DeltaQueryRow[] {
  const rows: DeltaQueryRow[] = [];
  for (const { values, count } of bag.values()) for (let i = 0; i < count; i++) rows.push(values);
  return rows;
}

/** Rows of `after` beyond those of `before` (with multiplicity). */
function bagMinus(after: Bag, before: Bag): DeltaQueryRow[] {
  const rows: DeltaQueryRow[] = [];
  for (const [key, { values, count }] of after) {
    const n = count - (before.get(key)?.count ?? 0);
    for (let i = 0; i < n; i++) rows.push(values);
  }
  return rows;
}

function applyTo(bag: Bag, additions: readonly DeltaQueryRow[], deletions: readonly DeltaQueryRow[]): void {
  for (const values of deletions) {
    const key = rowKey(values);
    const entry = bag.get(key);
    if (entry && --entry.count === 0) bag.delete(key);
  }
  for (const values of additions) {
    const key = rowKey(values);
    const entry = bag.get(key);
    if (entry) entry.count++;
    else bag.set(key, { values, count: 1 });
  }
}

let seeded: Promise<typeof import('./delta-query-evaluation.js')> | undefined;

/** The seeded evaluator, loaded on first use (it loads the SPARQL evaluator). */
function loadSeeded(): Promise<typeof import('./delta-query-evaluation.js')> {
  return (seeded ??= loadedAsCommonJS
    ? Promise.resolve(createRequire(import.meta.url)('./delta-query-evaluation.js') as typeof import('./delta-query-evaluation.js'))
    : import('./delta-query-evaluation.js'));
}

function checkSize(name: string, value: number | undefined, fallback: number): number {
  const n = value ?? fallback;
  if (!Number.isSafeInteger(n) || n < 0) throw new BadRequestError(`invalid ${name} ${String(value)}: a non-negative integer is required`);
  return n;
}

/** One registered query. */
class DeltaQuery {
  readonly factDomain: string;
  readonly mode: DeltaQueryEvaluationMode;
  readonly sizes: { readonly snapshots: number; readonly additions: number; readonly deletions: number };
  variables: readonly string[] = [];
  /** The answer at {@link DeltaQuery.version}, kept where needed (re-run queries, snapshot mode, watches of an incremental query need none). */
  current: Bag | undefined;
  version: number | undefined;
  registeredAt: number | undefined;
  error: Error | undefined;
  readonly kept: DeltaQueryVersionAnswer[] = [];
  readonly watchers = new Set<Watcher>();

  constructor(
    readonly name: string,
    readonly text: string,
    readonly role: string,
    readonly baseIRI: string,
    /** The query parsed and translated at registration (with the prefixes of then). */
    readonly compiled: CompiledQuery,
    readonly shape: DeltaQueryShape,
    readonly accessFor: AccessFor,
    options: DeltaQueryOptions,
    /** Registered by a watch of a query text: ends with its last watch, not listed. */
    readonly anonymous: boolean,
  ) {
    this.factDomain = options.factDomain ?? 'all';
    if (!['all', 'explicit', 'derived'].includes(this.factDomain)) throw new BadRequestError(`unknown fact domain '${this.factDomain}' (expected all, explicit or derived)`);
    this.mode = options.evaluationMode ?? 'delta';
    if (this.mode !== 'delta' && this.mode !== 'snapshot') throw new BadRequestError(`unknown evaluation mode '${String(this.mode)}' (expected delta or snapshot)`);
    this.sizes = {
      snapshots: checkSize('snapshots-max-size', options.snapshotsMaxSize, 1),
      additions: checkSize('additions-max-size', options.additionsMaxSize, 1),
      deletions: checkSize('deletions-max-size', options.deletionsMaxSize, 1),
    };
  }

  /** Whether the whole answer is kept from version to version. */
  get keepsAnswer(): boolean {
    return this.shape.kind === 'rerun' || this.mode === 'snapshot';
  }

  /** Keeps a version's answers within the size parameters. */
  keep(entry: DeltaQueryVersionAnswer): void {
    const limit = entry.type === 'snapshot' ? this.sizes.snapshots : entry.type === 'additions' ? this.sizes.additions : this.sizes.deletions;
    if (limit === 0) return;
    this.kept.push(entry);
    const same = this.kept.filter((e) => e.type === entry.type);
    if (same.length > limit) this.kept.splice(this.kept.indexOf(same[0]!), 1);
  }

  describe(): DeltaQueryDescription {
    return {
      name: this.name,
      query: this.text,
      role: this.role,
      variables: this.variables,
      computation: this.shape.kind,
      rerunReason: this.shape.kind === 'rerun' ? this.shape.reason : undefined,
      factDomain: this.factDomain,
      evaluationMode: this.mode,
      snapshotsMaxSize: this.sizes.snapshots,
      additionsMaxSize: this.sizes.additions,
      deletionsMaxSize: this.sizes.deletions,
      registeredAt: this.registeredAt,
      version: this.version,
      error: this.error?.message,
    };
  }
}

/** A commit waiting for its changes to be computed: the snapshot it published (held) and its record. */
interface PendingCommit {
  readonly snapshot: Snapshot;
  readonly record: CommitRecord;
}

/** The delta queries of one data store. */
export class DeltaQueryRegistry {
  private readonly queries = new Map<string, DeltaQuery>();
  /** The snapshot of the last version whose changes are computed (held while the registry is active). */
  private processed: Snapshot | undefined;
  private readonly pending: PendingCommit[] = [];
  /** The serial queue of work (commits, registrations, watches). */
  private tail: Promise<void> = Promise.resolve();
  private anonymousCount = 0;
  private readonly interrupter = new Interrupter();

  /** Creates the registry of a store. */
  constructor(private readonly store: DeltaQueryStore) {}

  /** Whether any query is registered (commits are then recorded and told to the registry). */
  get active(): boolean {
    return this.queries.size > 0;
  }

  /** Settles when every commit told so far and every registration has been processed (for tests and shutdown). */
  idle(): Promise<void> {
    return this.tail;
  }

  /**
   * Called by the store as a commit publishes its version (synchronously, so that `snapshot` is
   * still the latest version): holds the snapshot and queues the computation of the changes.
   */
  committed(snapshot: Snapshot, record: CommitRecord): void {
    if (!this.active || this.processed === undefined) return;
    this.pending.push({ snapshot: this.store.facts.retain(snapshot), record });
    this.enqueue(() => this.processCommit());
  }

  /** Registers a query (its answer is computed at the current version, in the background). */
  register(name: string, text: string, role: string, accessFor: AccessFor, options: DeltaQueryOptions = {}, anonymous = false): DeltaQueryDescription {
    if (!anonymous && !/^[A-Za-z0-9_.~-]+$/.test(name)) throw new BadRequestError(`invalid delta query name '${name}': use letters, digits, '_', '-', '.' and '~'`);
    if (this.queries.has(name)) throw new DuplicateResourceError(`delta query '${name}' already exists in data store '${this.store.name}'`);
    const fresh = this.processed === undefined;
    // the version the registry reads from: held from now on when the registry was idle
    const snapshot = this.processed ?? this.store.facts.read();
    let query: DeltaQuery;
    try {
      const baseIRI = options.baseIRI ?? snapshot.catalogue.baseIRI;
      const compiled = compileQuery(text, snapshot.catalogue.prefixes, baseIRI);
      if (compiled.parsed.type !== 'query' || compiled.parsed.queryType !== 'SELECT') throw new BadRequestError('a delta query must be a SELECT query');
      query = new DeltaQuery(name, text, role, baseIRI, compiled, deltaQueryShape(compiled.algebra, options.factDomain ?? 'all'), accessFor, options, anonymous);
    } catch (e) {
      if (fresh) this.store.facts.release(snapshot);
      throw e;
    }
    this.processed = snapshot;
    this.queries.set(name, query);
    this.enqueue(() => this.initialise(query));
    return query.describe();
  }

  /** The names of the registered queries. */
  list(): string[] {
    return [...this.queries.values()].filter((q) => !q.anonymous).map((q) => q.name);
  }

  /** A query's description. */
  describe(name: string): DeltaQueryDescription {
    return this.query(name).describe();
  }

  /** A query's kept answers (oldest first). */
  answers(name: string): DeltaQueryVersionAnswer[] {
    return [...this.query(name).kept];
  }

  /** Deregisters a query: its watches end. */
  deregister(name: string): void {
    const query = this.query(name);
    this.remove(query);
  }

  /**
   * Watches a registered query (`name`), or a query text registered for the watch alone (it
   * goes when the watch ends). The first event is the whole answer at the version the watch
   * starts from.
   */
  watch(target: { readonly name: string } | { readonly text: string; readonly role: string; readonly accessFor: AccessFor; readonly options?: DeltaQueryOptions }, options: WatchOptions = {}): DeltaQueryWatch {
    let query: DeltaQuery;
    if ('name' in target) query = this.query(target.name);
    else {
      const name = `\u0000watch-${++this.anonymousCount}`;
      this.register(name, target.text, target.role, target.accessFor, target.options, true);
      query = this.queries.get(name)!;
    }
    const watcher = new Watcher(options.highWaterMark ?? DEFAULT_WATCH_BUFFER, (w) => {
      query.watchers.delete(w);
      if (query.anonymous && query.watchers.size === 0) this.remove(query);
    });
    query.watchers.add(watcher);
    this.enqueue(async () => {
      if (watcher.closed || !this.queries.has(query.name) || query.error) {
        if (query.error) watcher.fail(query.error);
        return;
      }
      const answer = await this.wholeAnswer(query, this.processed!);
      watcher.answer({ kind: 'answer', version: this.processed!.version, variables: query.variables, rows: rowsOf(answer) });
    });
    return watcher;
  }

  /** Deregisters everything (the store is deleted). */
  closeAll(): void {
    for (const q of [...this.queries.values()]) this.remove(q);
  }

  private query(name: string): DeltaQuery {
    const q = this.queries.get(name);
    if (!q || q.anonymous) throw new UnknownResourceError(`delta query '${name}' does not exist in data store '${this.store.name}'`);
    return q;
  }

  private remove(query: DeltaQuery): void {
    if (this.queries.get(query.name) !== query) return;
    this.queries.delete(query.name);
    for (const w of [...query.watchers]) w.close();
    if (!this.active) this.enqueue(() => this.releaseAll());
  }

  /** Lets go of every held snapshot once no query is registered. */
  private releaseAll(): void {
    if (this.active) return;
    for (const p of this.pending.splice(0)) this.store.facts.release(p.snapshot);
    if (this.processed) this.store.facts.release(this.processed);
    this.processed = undefined;
  }

  private enqueue(work: () => Promise<void> | void): void {
    this.tail = this.tail.then(work).catch(() => undefined);
  }

  /** The whole answer of a query on a state, as a bag. */
  private async wholeAnswer(query: DeltaQuery, state: StoreState): Promise<Bag> {
    const dictionary = this.store.facts.dictionary;
    const evaluation = await loadSeeded();
    const answer = await evaluation.wholeAnswer(state, dictionary, query.compiled, query.factDomain, query.accessFor(state.catalogue, dictionary), query.role, this.interrupter);
    query.variables = answer.variables;
    return bagOf(answer.rows);
  }

  /** Computes a new query's answer at the processed version. */
  private async initialise(query: DeltaQuery): Promise<void> {
    if (!this.queries.has(query.name) || !this.processed) return;
    const state = this.processed;
    try {
      const answer = await this.wholeAnswer(query, state);
      if (query.keepsAnswer) query.current = answer;
      query.version = query.registeredAt = state.version;
      if (query.mode === 'snapshot') query.keep({ version: state.version, type: 'snapshot', rows: rowsOf(answer) });
    } catch (e) {
      this.failed(query, e);
    }
  }

  private failed(query: DeltaQuery, e: unknown): void {
    query.error = e instanceof Error ? e : new Error(String(e));
    query.current = undefined;
    for (const w of [...query.watchers]) w.fail(query.error);
  }

  /** Computes the changes of the oldest pending commit for every query. */
  private async processCommit(): Promise<void> {
    const next = this.pending.shift();
    if (!next) return;
    const old = this.processed;
    try {
      if (old) for (const query of [...this.queries.values()]) await this.processQuery(query, old, next);
    } finally {
      this.processed = next.snapshot;
      if (old) this.store.facts.release(old);
    }
  }

  private async processQuery(query: DeltaQuery, old: Snapshot, { snapshot, record }: PendingCommit): Promise<void> {
    if (query.error || query.version === undefined || query.version >= record.version || !this.queries.has(query.name)) return;
    try {
      const changes = query.factDomain === 'explicit' ? record.explicit : record.all;
      let additions: DeltaQueryRow[];
      let deletions: DeltaQueryRow[];
      const shape = query.shape;
      if (shape.kind === 'incremental' && !record.catalogueChanged) {
        if (![...shape.tables].some((t) => changes.has(t))) {
          query.version = record.version;
          return;
        }
        const evaluation = await loadSeeded();
        const dictionary = this.store.facts.dictionary;
        const added = await evaluation.seededSolutions(snapshot, dictionary, shape, changes, 'added', query.factDomain, query.accessFor(snapshot.catalogue, dictionary), this.interrupter);
        const removed = await evaluation.seededSolutions(old, dictionary, shape, changes, 'removed', query.factDomain, query.accessFor(old.catalogue, dictionary), this.interrupter);
        additions = [...added.values()].map((r) => r.values);
        deletions = [...removed.values()].map((r) => r.values);
        query.variables = shape.variables;
        if (query.current) applyTo(query.current, additions, deletions);
      } else {
        if (!record.catalogueChanged && record.all.size === 0 && record.explicit.size === 0) {
          query.version = record.version;
          return;
        }
        const before = query.current ?? (await this.wholeAnswer(query, old));
        const after = await this.wholeAnswer(query, snapshot);
        additions = bagMinus(after, before);
        deletions = bagMinus(before, after);
        query.current = query.keepsAnswer ? after : undefined;
      }
      query.version = record.version;
      if (additions.length === 0 && deletions.length === 0) return;
      query.keep({ version: record.version, type: 'additions', rows: additions });
      query.keep({ version: record.version, type: 'deletions', rows: deletions });
      if (query.mode === 'snapshot' && query.current) query.keep({ version: record.version, type: 'snapshot', rows: rowsOf(query.current) });
      const change: DeltaQueryChange = { kind: 'change', version: record.version, variables: query.variables, additions, deletions };
      let resync: DeltaQueryAnswer | undefined;
      for (const w of [...query.watchers]) {
        w.push(change);
        if (w.missedFrom !== undefined) {
          const missedFrom = w.missedFrom;
          resync ??= { kind: 'answer', version: record.version, variables: query.variables, rows: rowsOf(query.current ?? (await this.wholeAnswer(query, snapshot))) };
          w.answer({ ...resync, missedFrom });
        }
      }
    } catch (e) {
      this.failed(query, e);
    }
  }
}

const registries = new WeakMap<DeltaQueryStore, DeltaQueryRegistry>();

/** The delta-query registry of a store (made on first use; the store tells it of its commits). */
export function deltaQueriesOf(store: DeltaQueryStore): DeltaQueryRegistry {
  let registry = registries.get(store);
  if (!registry) registries.set(store, (registry = new DeltaQueryRegistry(store)));
  return registry;
}
