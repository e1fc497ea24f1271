/**
 * quadlog as an RDF/JS source: the stream of quads `DataStoreConnection.match()` returns (an
 * RDF/JS `Stream`, https://rdf.js.org/stream-spec/) and the read-only `DatasetCore` view of a
 * snapshot `DataStoreConnection.dataset()` returns (https://rdf.js.org/dataset-spec/). Both
 * read through a server-side quad reader: bound terms are index lookups, graphs the role may
 * not read are invisible, and quads are made as they are asked for.
 *
 * The types here are structural, so that the published declarations need neither Node's types
 * nor those of `@rdfjs/types`' stream module (which need Node's): a {@link QuadStream} is a
 * Node `Readable` in object mode, and fits `RDF.Stream<RDF.Quad>`.
 * @module
 */
import { Readable } from 'node:stream';
import type * as RDF from '@rdfjs/types/data-model.js';
import '../model/disposable.js';
import { BadRequestError, InvalidConnectionError } from '../model/errors.js';
import type { PatternTerm, QuadReader } from '../server/quad-reader.js';

export type { PatternTerm } from '../server/quad-reader.js';

/** A listener of the events of a {@link QuadStream}. */
export type QuadStreamListener = (...args: never[]) => void;

/**
 * An RDF/JS `Stream` of quads: `read()` pulls one (null when none is buffered); the events
 * are `readable`, `data` (a quad), `end` and `error`. It is a Node `Readable` in object mode,
 * and an async iterable of quads (`for await`). A stream read to its end, or destroyed
 * (`destroy()`), releases the snapshot it reads.
 */
export interface QuadStream extends AsyncIterable<RDF.Quad> {
  /** The next buffered quad, or null when none is buffered. */
  read(): RDF.Quad | null;
  /** Adds a listener of an event (`data`, `end`, `error`, `readable`, `close`). */
  on(event: string | symbol, listener: QuadStreamListener): this;
  /** Adds a listener called at the next event only. */
  once(event: string | symbol, listener: QuadStreamListener): this;
  /** Adds a listener (the same as `on`). */
  addListener(event: string | symbol, listener: QuadStreamListener): this;
  /** Adds a listener before the others. */
  prependListener(event: string | symbol, listener: QuadStreamListener): this;
  /** Adds a listener before the others, called at the next event only. */
  prependOnceListener(event: string | symbol, listener: QuadStreamListener): this;
  /** Removes a listener. */
  off(event: string | symbol, listener: QuadStreamListener): this;
  /** Removes a listener (the same as `off`). */
  removeListener(event: string | symbol, listener: QuadStreamListener): this;
  /** Removes every listener (of one event). */
  removeAllListeners(event?: string | symbol): this;
  /** Emits an event. */
  emit(event: string | symbol, ...args: unknown[]): boolean;
  /** The listeners of an event. */
  listeners(event: string | symbol): QuadStreamListener[];
  /** The listeners of an event, wrappers of `once` included. */
  rawListeners(event: string | symbol): QuadStreamListener[];
  /** The number of listeners of an event. */
  listenerCount(event: string | symbol): number;
  /** The events with listeners. */
  eventNames(): Array<string | symbol>;
  /** Sets how many listeners of one event are allowed before a warning. */
  setMaxListeners(n: number): this;
  /** How many listeners of one event are allowed before a warning. */
  getMaxListeners(): number;
  /** Stops the stream and releases its snapshot; with an error, emits it. */
  destroy(error?: Error): this;
}

/** How many stored rows one `read()` of a stream visits at most before it hands out what it found. */
const ROWS_A_READ = 512;

/** @internal Something to let go when the connection closes. */
export interface Releasable {
  /** Lets go (a stream is destroyed, a dataset view closed). */
  close(): void;
}

/**
 * @internal A stream of the quads matching a pattern, read lazily from `reader`'s snapshot: each
 * `read()` of the Readable scans at most {@link ROWS_A_READ} rows. The reader is released when
 * the stream ends or is destroyed; `onClose` is then called too.
 */
export function lazyQuadStream(reader: QuadReader, pattern: readonly PatternTerm[], onClose: () => void): QuadStream {
  let step: ((budget: number) => boolean) | undefined;
  let found = false;
  const stream: Readable = new Readable({
    objectMode: true,
    read(): void {
      try {
        step ??= reader.matcher(pattern[0], pattern[1], pattern[2], pattern[3], (quad) => {
          found = true;
          stream.push(quad);
        });
        found = false;
        let over = false;
        while (!found && !over) over = step(ROWS_A_READ);
        if (over) stream.push(null);
      } catch (e) {
        stream.destroy(e instanceof Error ? e : new Error(String(e)));
      }
    },
    destroy(error, callback): void {
      reader.release();
      onClose();
      callback(error);
    },
  });
  return stream as unknown as QuadStream;
}

/** @internal A stream of the quads `collect` gives (all at once), or of its failure. */
export function eagerQuadStream(collect: () => Promise<readonly RDF.Quad[]>): QuadStream {
  return Readable.from(
    (async function* quads(): AsyncGenerator<RDF.Quad> {
      yield* await collect();
    })(),
  ) as unknown as QuadStream;
}

/** @internal A stream that fails with `error` as soon as it is listened to (before anything is read). */
export function failedQuadStream(error: Error): QuadStream {
  const stream = new Readable({ objectMode: true, read: () => undefined });
  process.nextTick(() => stream.destroy(error));
  return stream as unknown as QuadStream;
}

/** Whether two terms of patterns are the same term (both bound). */
function sameTerm(a: RDF.Term, b: RDF.Term): boolean {
  return a.termType === b.termType && a.value === b.value && (a.termType !== 'Literal' || (b.termType === 'Literal' && a.language.toLowerCase() === b.language.toLowerCase() && a.datatype.value === b.datatype.value));
}

/** Whether a pattern term is bound. */
function bound(term: PatternTerm): term is RDF.Term {
  return term !== undefined && term !== null && term.termType !== 'Variable';
}

/** The state a dataset view and the views made from it share: the reader, and whether it was closed. */
interface SharedSnapshot {
  readonly reader: QuadReader;
  readonly onClose: () => void;
}

/**
 * A read-only RDF/JS `DatasetCore` view of one snapshot of a store, as the role that made it
 * may read it: `has`, `match` (a view of the quads matching a pattern, on the same snapshot),
 * `size` and iteration (lazy: quads are made as the iteration goes). `add` and `delete` throw:
 * change the store through its connection. The view holds its snapshot until `close()` (or
 * `await using` / `using`) on it or on any view made from it; the views are then no longer
 * usable. Closing the connection closes it too.
 */
export class SnapshotDataset implements Iterable<RDF.Quad> {
  private sizeCache: number | undefined;

  /** @internal A view of the quads of `shared`'s snapshot that match `pattern` (`empty`: none). */
  constructor(
    private readonly shared: SharedSnapshot,
    private readonly pattern: readonly PatternTerm[],
    private readonly empty = false,
  ) {}

  /** Fails when the snapshot was let go. */
  private checkOpen(): void {
    if (this.shared.reader.isReleased) throw new InvalidConnectionError('this dataset view was closed (or its connection was): it can no longer be read');
  }

  /** The number of quads of the view (counted once). */
  get size(): number {
    this.checkOpen();
    if (this.empty) return 0;
    this.sizeCache ??= this.shared.reader.count(this.pattern[0], this.pattern[1], this.pattern[2], this.pattern[3]);
    return this.sizeCache;
  }

  /** Whether the view holds `quad`. */
  has(quad: RDF.Quad): boolean {
    this.checkOpen();
    if (this.empty) return false;
    const terms = [quad.subject, quad.predicate, quad.object, quad.graph];
    for (let i = 0; i < 4; i++) {
      const mine = this.pattern[i];
      if (bound(mine) && !sameTerm(mine, terms[i]!)) return false;
    }
    return this.shared.reader.has(quad);
  }

  /**
   * A view of the quads of this one matching a pattern (undefined, null or a variable matches
   * anything), on the same snapshot.
   */
  match(subject?: PatternTerm, predicate?: PatternTerm, object?: PatternTerm, graph?: PatternTerm): SnapshotDataset {
    this.checkOpen();
    const asked = [subject, predicate, object, graph];
    let empty = this.empty;
    const pattern = this.pattern.map((mine, i) => {
      const other = asked[i];
      if (!bound(other)) return mine;
      if (bound(mine) && !sameTerm(mine, other)) empty = true;
      return other;
    });
    return new SnapshotDataset(this.shared, pattern, empty);
  }

  /** Refused: the view is read-only. */
  add(quad: RDF.Quad): this {
    throw new BadRequestError(`a dataset view of a snapshot is read-only: add quads (${quad.subject.value} …) with importData on the connection`);
  }

  /** Refused: the view is read-only. */
  delete(quad: RDF.Quad): this {
    throw new BadRequestError(`a dataset view of a snapshot is read-only: delete quads (${quad.subject.value} …) with importData('DELETE', …) on the connection`);
  }

  /** The quads of the view, made as the iteration goes. */
  *[Symbol.iterator](): Iterator<RDF.Quad> {
    this.checkOpen();
    if (this.empty) return;
    const buffer: RDF.Quad[] = [];
    const step = this.shared.reader.matcher(this.pattern[0], this.pattern[1], this.pattern[2], this.pattern[3], (quad) => void buffer.push(quad));
    let over = false;
    while (!over || buffer.length > 0) {
      if (buffer.length === 0) {
        over = step(ROWS_A_READ);
        continue;
      }
      yield* buffer.splice(0);
    }
  }

  /** Lets the snapshot go (for this view and every view made from the same one); harmless when done already. */
  close(): void {
    if (this.shared.reader.isReleased) return;
    this.shared.reader.release();
    this.shared.onClose();
  }

  /** Closes the view (`using`). */
  [Symbol.dispose](): void {
    this.close();
  }

  /** Closes the view (`await using`). */
  [Symbol.asyncDispose](): Promise<void> {
    this.close();
    return Promise.resolve();
  }
}

/** @internal A dataset view of all the quads of `reader`'s snapshot. */
export function snapshotDataset(reader: QuadReader, onClose: () => void): SnapshotDataset {
  return new SnapshotDataset({ reader, onClose }, [undefined, undefined, undefined, undefined]);
}
