/**
 * Query cursors: the answers of a query read page by page. Every page of a cursor comes from
 * the state of the store the cursor was opened on, whatever is committed meanwhile; the
 * cursor holds that state until it is closed, read to its end or opened again.
 * @module
 */
import '../model/disposable.js';
import type * as RDF from '@rdfjs/types/data-model.js';
import { BadRequestError, TransactionError } from '../model/errors.js';
import type { AnswerSink, QueryTerm } from '../server/session.js';
import type { AnswerChannel } from './answer-channel.js';

/** One page of a cursor. */
export interface CursorPage {
  /** The answer variables (for CONSTRUCT and DESCRIBE: subject, predicate, object). */
  readonly variables: readonly string[];
  /** The rows of this page; undefined = unbound. */
  readonly rows: ReadonlyArray<ReadonlyArray<QueryTerm | undefined>>;
  /** Index (0-based) of the first row of this page among all answers. */
  readonly position: number;
  /** Whether more rows follow. */
  readonly more: boolean;
}

/** One answer row; undefined = unbound. */
export type AnswerRow = ReadonlyArray<QueryTerm | undefined>;

/** One evaluation of a cursor's query. */
export interface CursorRun {
  /** The answer rows. */
  readonly channel: AnswerChannel<AnswerRow>;
  /** The answer variables, once a row has arrived or the channel has ended. */
  readonly variables: () => readonly string[];
  /** Settles (never rejects) when the evaluation has ended and let go of the state it read. */
  readonly settled: Promise<void>;
  /** Whether the evaluation takes every answer at once (in a read/write transaction): opening waits for it to end. */
  readonly eager: boolean;
}

/** The source of a cursor's answers. */
export interface CursorSource {
  /**
   * Starts evaluating the query on the state the connection reads now (and keeps reading it
   * until the run ends); its rows arrive in `channel`, and `variables()` gives the answer
   * variables once a row has arrived or the channel has ended.
   */
  start(): CursorRun;
  /** Throws when the cursor's connection can no longer serve it (closed, or its store deleted). */
  checkUsable(): void;
}

/**
 * An answer sink putting every kind of answer into a channel of rows: SELECT rows as they
 * are; ASK as no variables and one empty row when true; CONSTRUCT and DESCRIBE as subject,
 * predicate, object rows.
 */
export function rowsInto(channel: AnswerChannel<AnswerRow>, setVariables: (names: readonly string[]) => void): AnswerSink {
  return {
    variables: (names) => setVariables(names),
    row: (values) => channel.push(values),
    boolean: (value) => {
      setVariables([]);
      if (value) channel.push([]);
    },
    // a CONSTRUCT's or DESCRIBE's triples stream as rows (the channel's pause holds the query)
    graphBegin: () => setVariables(['subject', 'predicate', 'object']),
    quad: (q) => channel.push([q.subject, q.predicate, q.object] as QueryTerm[]),
    quads: (quads) => {
      setVariables(['subject', 'predicate', 'object']);
      for (const q of quads) channel.push([q.subject, q.predicate, q.object] as QueryTerm[]);
    },
    end: () => undefined,
  };
}

/**
 * A cursor over the answers of one query, read page by page; `using cursor = …` closes it at
 * the end of the block. All pages are the answer on the state the cursor was opened on: a
 * write committed between two pages changes neither the rows nor their number (RDFox instead
 * raises a stale-cursor error when a cursor used outside a transaction is advanced after a
 * change). The query pauses between pages on that state, which the store keeps until the
 * cursor is closed, read to its end or opened again.
 *
 * ```ts
 * using cursor = ds.createCursor('SELECT ?s WHERE { ?s ?p ?o }');
 * let page = await cursor.open(1000);
 * while (page.more) page = await cursor.advance(1000);
 * ```
 */
export class Cursor implements Disposable, AsyncDisposable {
  private run: CursorRun | undefined;
  private position = 0;
  private opened = false;
  private closed = false;

  /** @internal */
  constructor(
    private readonly source: CursorSource,
    /** The query text. */
    readonly query: string,
  ) {}

  /** Starts the query (again, if it was open) and returns the first `limit` rows (all when omitted). */
  async open(limit = Infinity): Promise<CursorPage> {
    this.check(false);
    this.run?.channel.cancel();
    this.run = this.source.start();
    this.position = 0;
    this.opened = true;
    if (this.run.eager) await this.run.settled;
    return this.page(limit);
  }

  /** The next `limit` rows (all remaining when omitted). */
  async advance(limit = Infinity): Promise<CursorPage> {
    this.check(true);
    return this.page(limit);
  }

  /** Stops the query and releases what it holds. */
  close(): void {
    this.closed = true;
    this.run?.channel.cancel();
    this.run = undefined;
  }

  /** Closes the cursor, for `using cursor = …`: see {@link Cursor.close}. */
  [Symbol.dispose](): void {
    this.close();
  }

  /**
   * Closes the cursor, for `await using cursor = …`: see {@link Cursor.close}; resolves once
   * its query has stopped and let go of the state it read.
   */
  async [Symbol.asyncDispose](): Promise<void> {
    const settled = this.run?.settled;
    this.close();
    await settled;
  }

  private check(mustBeOpen: boolean): void {
    if (this.closed) throw new TransactionError('the cursor is closed');
    this.source.checkUsable();
    if (mustBeOpen && !this.opened) throw new TransactionError('the cursor is not open: call open() first');
  }

  private async page(limit: number): Promise<CursorPage> {
    if (!(limit >= 0)) throw new BadRequestError(`invalid cursor limit ${Number.isNaN(limit) ? '(not a number)' : String(limit)}: expected a non-negative number of rows, or Infinity for all`);
    const run = this.run!;
    const rows = await run.channel.take(limit, true);
    const start = this.position;
    this.position += rows.length;
    return { variables: run.variables(), rows, position: start, more: run.channel.buffered > 0 };
  }
}

/**
 * Bindings of another RDF/JS library as {@link AnswerBindings} reads them: its pairs, size and
 * lookup (what the `Bindings` interface of the RDF/JS query spec offers). Declared here so that
 * quadlog's published types need nothing from Node's type package, which the spec's own module
 * pulls in.
 */
export interface BindingsLike extends Iterable<[RDF.Variable, RDF.Term]> {
  /** Number of bound variables. */
  readonly size: number;
  /** The term of a variable. */
  get(key: RDF.Variable | string): RDF.Term | undefined;
}

/**
 * RDF/JS bindings of one answer row: the `Bindings` interface of the RDF/JS query spec
 * (assignable to `Bindings` of `@rdfjs/types`).
 */
export class AnswerBindings implements BindingsLike {
  /** Always `bindings`. */
  readonly type = 'bindings' as const;
  private readonly entries: Map<string, RDF.Term>;

  /** Creates bindings from variable names and terms. */
  constructor(entries: Iterable<[string, RDF.Term]>) {
    this.entries = new Map(entries);
  }

  /** Number of bound variables. */
  get size(): number {
    return this.entries.size;
  }

  /** Whether a variable is bound. */
  has(key: RDF.Variable | string): boolean {
    return this.entries.has(typeof key === 'string' ? key : key.value);
  }

  /** The term of a variable. */
  get(key: RDF.Variable | string): RDF.Term | undefined {
    return this.entries.get(typeof key === 'string' ? key : key.value);
  }

  /** A copy with one more binding. */
  set(key: RDF.Variable | string, value: RDF.Term): AnswerBindings {
    const m = new Map(this.entries);
    m.set(typeof key === 'string' ? key : key.value, value);
    return new AnswerBindings(m);
  }

  /** A copy without a binding. */
  delete(key: RDF.Variable | string): AnswerBindings {
    const m = new Map(this.entries);
    m.delete(typeof key === 'string' ? key : key.value);
    return new AnswerBindings(m);
  }

  /** The bound variables. */
  keys(): Iterable<RDF.Variable> {
    return [...this.entries.keys()].map((k) => ({ termType: 'Variable', value: k, equals: (o?: RDF.Term | null) => o?.termType === 'Variable' && o.value === k }));
  }

  /** The bound terms. */
  values(): Iterable<RDF.Term> {
    return this.entries.values();
  }

  /** Calls `fn` per binding. */
  forEach(fn: (value: RDF.Term, key: RDF.Variable) => unknown): void {
    const keys = [...this.keys()];
    [...this.entries.values()].forEach((v, i) => fn(v, keys[i]!));
  }

  /** Variable–term pairs. */
  [Symbol.iterator](): Iterator<[RDF.Variable, RDF.Term]> {
    const keys = [...this.keys()];
    return [...this.entries.values()].map((v, i): [RDF.Variable, RDF.Term] => [keys[i]!, v])[Symbol.iterator]();
  }

  /** Whether two bindings hold the same terms. */
  equals(other: BindingsLike | null | undefined): boolean {
    if (!other || other.size !== this.size) return false;
    for (const [k, v] of this.entries) if (!other.get(k)?.equals(v)) return false;
    return true;
  }

  /** The bindings whose entries pass `fn`. */
  filter(fn: (value: RDF.Term, key: RDF.Variable) => boolean): AnswerBindings {
    return new AnswerBindings([...this].filter(([k, v]) => fn(v, k)).map(([k, v]) => [k.value, v]));
  }

  /** The bindings with every term mapped. */
  map(fn: (value: RDF.Term, key: RDF.Variable) => RDF.Term): AnswerBindings {
    return new AnswerBindings([...this].map(([k, v]) => [k.value, fn(v, k)]));
  }

  /** The union of two compatible bindings, or undefined when they disagree. */
  merge(other: BindingsLike): AnswerBindings | undefined {
    const m = new Map(this.entries);
    for (const [k, v] of other) {
      const mine = m.get(k.value);
      if (mine && !mine.equals(v)) return undefined;
      m.set(k.value, v);
    }
    return new AnswerBindings(m);
  }

  /** The union of two bindings; `merger` settles conflicts. */
  mergeWith(merger: (self: RDF.Term, other: RDF.Term, key: RDF.Variable) => RDF.Term, other: BindingsLike): AnswerBindings {
    const m = new Map(this.entries);
    for (const [k, v] of other) {
      const mine = m.get(k.value);
      m.set(k.value, mine && !mine.equals(v) ? merger(mine, v, k) : v);
    }
    return new AnswerBindings(m);
  }
}
