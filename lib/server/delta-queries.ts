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
import { BadRequestError, DuplicateResourceError, InterruptedError, UnknownResourceError } from '../model/errors.js';
import { compileQuery } from '../sparql/parse.js';
import { loadedAsCommonJS } from '../sparql/lazy-load.js';
import type { Snapshot, StoreState } from '../storage/fact-store.js';
import type { CommitRecord } from './commit-feed.js';
import { addTo, applyTo, BAG_SLICE, type Bag, bagMinus, rowsOf } from './delta-query-bags.js';
import { type AccessFor, DeltaQuery, type DeltaQueryDescription, type DeltaQueryOptions, type DeltaQueryProgress, type DeltaQueryRegistration, type DeltaQuerySink, type DeltaQueryStore, type DeltaQueryVersionAnswer, type SavedDeltaQuery } from './delta-query.js';
import { deltaQueryShape } from './delta-query-shape.js';
import { DEFAULT_WATCH_BUFFER, type DeltaQueryAnswer, type DeltaQueryChange, type DeltaQueryRow, type DeltaQueryWatch, Watcher, type WatchOptions } from './delta-query-watch.js';

export type { AccessFor, DeltaQueryDescription, DeltaQueryEvaluationMode, DeltaQueryOptions, DeltaQueryProgress, DeltaQueryRegistration, DeltaQuerySink, DeltaQueryStore, DeltaQueryVersionAnswer, SavedDeltaQuery } from './delta-query.js';
export type { DeltaQueryAnswer, DeltaQueryChange, DeltaQueryEvent, DeltaQueryRow, DeltaQueryWatch, WatchOptions } from './delta-query-watch.js';

/** The time limit of an evaluation: the limit in milliseconds (undefined: none) and its deadline (a performance.now() value). */
interface Bound {
  readonly limitMs: number | undefined;
  readonly deadline: number;
}

/** No time limit. */
const NO_BOUND: Bound = { limitMs: undefined, deadline: Infinity };

let seeded: Promise<typeof import('./delta-query-evaluation.js')> | undefined;

/** The seeded evaluator, loaded on first use (it loads the SPARQL evaluator). */
function loadSeeded(): Promise<typeof import('./delta-query-evaluation.js')> {
  return (seeded ??= loadedAsCommonJS
    ? Promise.resolve(createRequire(import.meta.url)('./delta-query-evaluation.js') as typeof import('./delta-query-evaluation.js'))
    : import('./delta-query-evaluation.js'));
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
  /** Where a persistent store keeps registrations and answers (undefined in memory). */
  private sink: Promise<DeltaQuerySink> | undefined;

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
    if (!anonymous) this.keepRegistration(query, options, snapshot);
    this.enqueue(() => this.initialise(query));
    return query.describe();
  }

  /**
   * Registers a query as {@link DeltaQueryRegistry.register} does and, in a persistent store,
   * resolves once its registration is on disk.
   * @throws StorageWriteError when the registration cannot be written (the query is then not registered).
   */
  async registerDurably(name: string, text: string, role: string, accessFor: AccessFor, options: DeltaQueryOptions = {}): Promise<DeltaQueryDescription> {
    const description = this.register(name, text, role, accessFor, options);
    await this.queries.get(name)?.saved;
    return description;
  }

  /** @internal Keeps registrations and answers in the store's files from now on (a persistent store). */
  persistTo(sink: Promise<DeltaQuerySink>): void {
    sink.catch(() => undefined);
    this.sink = sink;
  }

  /** Writes a new query's registration to the store's files (a query that cannot be written is deregistered). */
  private keepRegistration(query: DeltaQuery, options: DeltaQueryOptions, snapshot: Snapshot): void {
    const registration: DeltaQueryRegistration = {
      name: query.name,
      text: query.text,
      role: query.role,
      baseIRI: query.baseIRI,
      prefixes: [...snapshot.catalogue.prefixes.entries()],
      options: { ...options },
      // its first answer is computed after the commits waiting now: at the last of them
      version: this.pending.at(-1)?.snapshot.version ?? snapshot.version,
    };
    query.registration = registration;
    const sink = this.sink;
    if (!sink) return;
    query.saved = sink
      .then((s) => s.register(registration))
      .catch((e: unknown) => {
        if (this.queries.get(query.name) === query) this.remove(query);
        throw e;
      });
    query.saved.catch(() => undefined);
  }

  /**
   * Hands a query's progress at its version to the store's files: the answers kept at that
   * version, or everything it keeps (`whole`).
   */
  private save(query: DeltaQuery, whole: boolean): void {
    const sink = this.sink;
    const version = query.version;
    if (!sink || !query.registration || query.error || version === undefined || this.queries.get(query.name) !== query) return;
    const progress = (all: boolean): DeltaQueryProgress => ({
      whole: all,
      version,
      variables: query.variables,
      registeredAt: query.registeredAt,
      completeFrom: query.completeFrom,
      answers: all ? [...query.kept] : query.kept.filter((e) => e.version === version),
    });
    const now = progress(whole);
    const state = whole ? now : progress(true);
    query.savedVersion = version;
    void sink.then((s) => s.save(query.name, now, () => state), () => undefined);
  }

  /**
   * After a commit's changes are computed: saves the progress of the queries that reached its
   * version. A version that kept nothing is saved only when no commit waits (a later record
   * carries the version on; after a crash the versions in between are computed again).
   */
  private saveProgress(version: number): void {
    if (!this.sink) return;
    for (const query of this.queries.values()) {
      if (query.version !== version || query.savedVersion >= version) continue;
      if (this.pending.length > 0 && !query.kept.some((e) => e.version === version)) continue;
      this.save(query, false);
    }
  }

  /**
   * @internal Registers again the queries a persistent store kept (at start-up, once the store
   * is loaded up to the version `processed` stands for: the last version every query that can
   * catch up had computed). Each query goes on from the last version it computed; the log
   * records after that version are then committed one by one by the loader (up to
   * `lastVersion`), so that their changes are computed as they were before. A query whose
   * versions are no longer in the log resumes at the loaded version, with `completeFrom`
   * saying from where its answers are complete. A query whose role is gone, or whose
   * registration cannot be read or compiled, is registered in error.
   */
  restore(saved: readonly SavedDeltaQuery[], sink: DeltaQuerySink, roleAccess: (role: string) => AccessFor | undefined, lastVersion: number): void {
    this.sink = Promise.resolve(sink);
    if (saved.length === 0) return;
    const snapshot = this.processed ?? this.store.facts.read();
    this.processed = snapshot;
    for (const s of saved) {
      const query = this.restored(s, snapshot, roleAccess, lastVersion);
      this.queries.set(s.name, query);
      // the file then holds what the query holds (answers of lost versions dropped, a damaged file replaced)
      this.save(query, true);
    }
    this.enqueue(async () => {
      const state = this.processed;
      if (state) for (const query of [...this.queries.values()]) await this.restoreAt(query, state);
    });
  }

  /** A saved query registered again (see {@link DeltaQueryRegistry.restore}). */
  private restored(s: SavedDeltaQuery, state: Snapshot, roleAccess: (role: string) => AccessFor | undefined, lastVersion: number): DeltaQuery {
    const base = state.version;
    const r = s.registration;
    const broken = (text: string, role: string, why: string): DeltaQuery => {
      const compiled = compileQuery('SELECT * WHERE {}', new Map(), state.catalogue.baseIRI);
      const q = new DeltaQuery(s.name, text, role, state.catalogue.baseIRI, compiled, deltaQueryShape(compiled.algebra, 'all'), () => undefined, {}, false);
      q.registration = r;
      q.recovery = s.recovery;
      q.error = new Error(why);
      return q;
    };
    if (r === undefined) return broken('', '', s.error ?? `the registration of delta query '${s.name}' cannot be read`);
    const access = roleAccess(r.role);
    let query: DeltaQuery;
    try {
      const compiled = compileQuery(r.text, new Map(r.prefixes), r.baseIRI);
      query = new DeltaQuery(r.name, r.text, r.role, r.baseIRI, compiled, deltaQueryShape(compiled.algebra, r.options.factDomain ?? 'all'), access ?? (() => undefined), r.options, false);
    } catch (e) {
      return broken(r.text, r.role, `delta query '${r.name}' cannot be registered again: ${(e as Error).message}`);
    }
    query.registration = r;
    query.recovery = s.recovery;
    if (access === undefined) {
      query.error = new Error(`the role '${r.role}' that registered delta query '${r.name}' no longer exists`);
      return query;
    }
    let version: number | undefined;
    let registeredAt: number | undefined;
    for (const p of s.records) {
      if (p.whole) query.kept.length = 0;
      for (const a of p.answers) query.keep(a);
      version = p.version;
      registeredAt = p.registeredAt;
      query.variables = p.variables;
      query.completeFrom = p.completeFrom;
    }
    if (registeredAt === undefined || version === undefined || registeredAt > lastVersion) {
      // its first answer was never computed (or at a version the restart lost): at its registration's version if the log holds it
      query.kept.length = 0;
      query.version = r.version < base ? base : Math.min(r.version, lastVersion);
      if (r.version < base) query.completeFrom = base + 1;
      query.restoring = 'init';
    } else if (version < base) {
      // the versions after it are no longer in the log
      query.registeredAt = registeredAt;
      query.version = base;
      query.completeFrom = base + 1;
      query.restoring = 'resume';
    } else {
      query.registeredAt = registeredAt;
      // answers of versions the restart lost (relaxed durability and a crash of the machine) go
      const at = Math.min(version, lastVersion);
      for (let i = query.kept.length - 1; i >= 0; i--) if (query.kept[i]!.version > at) query.kept.splice(i, 1);
      query.version = at;
      query.restoring = query.keepsAnswer ? 'answer' : undefined;
    }
    return query;
  }

  /** Gives a restored query what it still needs once the registry stands at its version (see {@link DeltaQuery.restoring}). */
  private async restoreAt(query: DeltaQuery, state: Snapshot): Promise<void> {
    const need = query.restoring;
    if (need === undefined || query.error || query.version !== state.version || this.queries.get(query.name) !== query) return;
    query.restoring = undefined;
    try {
      const answer = await this.wholeAnswer(query, state);
      if (query.keepsAnswer) query.current = answer;
      if (need === 'answer') return;
      if (need === 'init') query.registeredAt = state.version;
      if (query.mode === 'snapshot') query.keep({ version: state.version, type: 'snapshot', rows: rowsOf(answer) });
      this.save(query, false);
    } catch (e) {
      this.failed(query, e);
    }
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

  /** Deregisters a query: its watches end; in a persistent store, resolves once its registration is gone from disk. */
  deregister(name: string): Promise<void> {
    const query = this.query(name);
    this.remove(query);
    const sink = this.sink;
    if (!sink || !query.registration) return Promise.resolve();
    return query.saved.then(
      () => sink.then((s) => s.deregister(name)),
      () => undefined,
    );
  }

  /**
   * Watches a registered query (`name`), or a query text registered for the watch alone (it
   * goes when the watch ends). The first event is the whole answer at the version the watch
   * starts from; a watch resumed with `after` (the version whose answer the consumer has)
   * starts instead with the kept changes of every later version when the query keeps them all,
   * else with the whole answer, `missedFrom` = `after + 1`.
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
      const after = options.after;
      if (after !== undefined) {
        const missed = this.keptChangesAfter(query, after);
        if (missed) {
          watcher.resume(missed);
          return;
        }
      }
      let answer: Bag;
      try {
        answer = await this.wholeAnswer(query, this.processed!);
      } catch (e) {
        // (a time limit, a privilege lost): the watch ends with the error rather than waiting for ever
        watcher.fail(e instanceof Error ? e : new Error(String(e)));
        return;
      }
      const missedFrom = after !== undefined ? { missedFrom: after + 1 } : {};
      watcher.answer({ kind: 'answer', version: this.processed!.version, variables: query.variables, rows: rowsOf(answer), ...missedFrom });
    });
    return watcher;
  }

  /**
   * The version after which a query keeps the changes of every version (up to the last one
   * computed): its registration, or, for additions or deletions that reached their size limit,
   * the version before the oldest kept (older ones may have been dropped); never before the
   * version a restart could not compute again (`completeFrom`).
   */
  private completeAfter(query: DeltaQuery): number {
    let after = Math.max(query.registeredAt ?? Number.POSITIVE_INFINITY, query.completeFrom === undefined ? Number.NEGATIVE_INFINITY : query.completeFrom - 1);
    for (const [type, limit] of [['additions', query.sizes.additions], ['deletions', query.sizes.deletions]] as const) {
      const kept = query.kept.filter((e) => e.type === type);
      if (kept.length < limit) continue; // none dropped yet
      after = Math.max(after, kept.length === 0 ? (query.version ?? Number.POSITIVE_INFINITY) : kept[0]!.version - 1);
    }
    return after;
  }

  /** The changes of every version after `after` from a query's kept answers (oldest first); undefined when some may be missing. */
  private keptChangesAfter(query: DeltaQuery, after: number): DeltaQueryChange[] | undefined {
    const version = query.version;
    if (version === undefined || !Number.isSafeInteger(after) || after > version || after < this.completeAfter(query)) return undefined;
    const byVersion = new Map<number, { additions: readonly DeltaQueryRow[]; deletions: readonly DeltaQueryRow[] }>();
    for (const entry of query.kept) {
      if (entry.version <= after || entry.type === 'snapshot') continue;
      const change = byVersion.get(entry.version) ?? { additions: [], deletions: [] };
      byVersion.set(entry.version, entry.type === 'additions' ? { ...change, additions: entry.rows } : { ...change, deletions: entry.rows });
    }
    return [...byVersion.entries()]
      .sort(([a], [b]) => a - b)
      .map(([v, { additions, deletions }]) => ({ kind: 'change', version: v, variables: query.variables, additions, deletions }));
  }

  /** Deregisters everything (the store is deleted, or the server shuts down: the store's files keep its queries). */
  closeAll(): void {
    this.sink = undefined;
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

  /**
   * Bounds every evaluation of these delta queries by a time limit: `timeLimitMs` gives the
   * server's `query-time-limit` in milliseconds (undefined: none), asked at each evaluation.
   */
  limitEvaluations(timeLimitMs: () => number | undefined): void {
    this.timeLimitMs = timeLimitMs;
  }

  /** The time limit of evaluations (see {@link DeltaQueryRegistry.limitEvaluations}). */
  private timeLimitMs: () => number | undefined = () => undefined;

  /** The time limit of an evaluation starting now: the limit (undefined: none) and the deadline (a performance.now() value). */
  private bound(): Bound {
    const limitMs = this.timeLimitMs();
    return { limitMs, deadline: limitMs === undefined ? Infinity : performance.now() + limitMs };
  }

  /** What a query fails with: an evaluation stopped by the time limit says so, naming the query, the version and the limit. */
  private stopped(query: DeltaQuery, e: unknown, { limitMs, deadline }: Bound, version: number): unknown {
    if (!(e instanceof InterruptedError) || limitMs === undefined || performance.now() < deadline) return e;
    return new InterruptedError(
      `delta query '${query.name}' was stopped at version ${version}: its evaluation ran past the server's query-time-limit of ${limitMs} ms (the other delta queries go on; deregister it and register it again to start afresh)`,
    );
  }

  /** The whole answer of a query on a state, as a bag (built a slice at a time, yielding to the event loop between slices). */
  private async wholeAnswer(query: DeltaQuery, state: StoreState, deadline?: number): Promise<Bag> {
    const dictionary = this.store.facts.dictionary;
    const evaluation = await loadSeeded();
    deadline ??= this.bound().deadline;
    const answer = await evaluation.wholeAnswer(state, dictionary, query.compiled, query.factDomain, query.accessFor(state.catalogue, dictionary), query.role, this.interrupter, deadline);
    query.variables = answer.variables;
    const bag: Bag = new Map();
    for (let at = 0; at < answer.rows.length; at += BAG_SLICE) {
      if (at > 0) await this.interrupter.maybeYield();
      addTo(bag, answer.rows, at, Math.min(answer.rows.length, at + BAG_SLICE));
    }
    return bag;
  }

  /** Computes a new query's answer at the processed version. */
  private async initialise(query: DeltaQuery): Promise<void> {
    if (!this.queries.has(query.name) || !this.processed) return;
    const state = this.processed;
    let bound = NO_BOUND;
    try {
      // the evaluator's first load does not count against the time limit
      await loadSeeded();
      bound = this.bound();
      const answer = await this.wholeAnswer(query, state, bound.deadline);
      if (query.keepsAnswer) query.current = answer;
      query.version = query.registeredAt = state.version;
      if (query.mode === 'snapshot') query.keep({ version: state.version, type: 'snapshot', rows: rowsOf(answer) });
      this.save(query, false);
    } catch (e) {
      this.failed(query, this.stopped(query, e, bound, state.version));
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
      if (old) for (const query of [...this.queries.values()]) if (query.restoring) await this.restoreAt(query, old);
      if (old) for (const query of [...this.queries.values()]) await this.processQuery(query, old, next);
      for (const query of [...this.queries.values()]) if (query.restoring) await this.restoreAt(query, next.snapshot);
      this.saveProgress(next.record.version);
    } finally {
      this.processed = next.snapshot;
      if (old) this.store.facts.release(old);
    }
  }

  private async processQuery(query: DeltaQuery, old: Snapshot, { snapshot, record }: PendingCommit): Promise<void> {
    if (query.error || query.version === undefined || query.version >= record.version || !this.queries.has(query.name)) return;
    let bound = NO_BOUND;
    try {
      // one time limit for all the evaluations of this query at this commit (the evaluator's first load aside)
      await loadSeeded();
      bound = this.bound();
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
        // facts that match none of the query's patterns are set aside before any evaluation
        const added = await evaluation.seededSolutions(snapshot, dictionary, shape, changes, 'added', query.factDomain, () => query.accessFor(snapshot.catalogue, dictionary), this.interrupter, bound.deadline);
        const removed = await evaluation.seededSolutions(old, dictionary, shape, changes, 'removed', query.factDomain, () => query.accessFor(old.catalogue, dictionary), this.interrupter, bound.deadline);
        additions = [...added.values()].map((r) => r.values);
        deletions = [...removed.values()].map((r) => r.values);
        query.variables = shape.variables;
        if (query.current) applyTo(query.current, additions, deletions);
      } else {
        if (!record.catalogueChanged && record.all.size === 0 && record.explicit.size === 0) {
          query.version = record.version;
          return;
        }
        const before = query.current ?? (await this.wholeAnswer(query, old, bound.deadline));
        const after = await this.wholeAnswer(query, snapshot, bound.deadline);
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
          resync ??= { kind: 'answer', version: record.version, variables: query.variables, rows: rowsOf(query.current ?? (await this.wholeAnswer(query, snapshot, bound.deadline))) };
          w.answer({ ...resync, missedFrom });
        }
      }
    } catch (e) {
      this.failed(query, this.stopped(query, e, bound, record.version));
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
