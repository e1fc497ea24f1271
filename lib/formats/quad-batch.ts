/**
 * Batches of parsed statements as term ids: what the RDF parsers hand down to whoever applies
 * them. A batch is a reused buffer of s, p, o, g quadruples, so that parsing allocates nothing
 * per statement.
 * @module
 */

/**
 * Statements as term ids: statement `i` is `quads[4i]`, `quads[4i + 1]`, `quads[4i + 2]`,
 * `quads[4i + 3]` (subject, predicate, object, graph) for `i < count`. The graph is -1 for the
 * default graph; a term a lookup-only `TermIds` does not know is `ABSENT_TERM`. A batch is
 * valid until the next one is asked for: its buffer is reused.
 */
export interface QuadBatch {
  /** The quadruples, four entries a statement (entries from `4 * count` on are not statements). */
  readonly quads: Int32Array;
  /** The number of statements. */
  readonly count: number;
}

/** A small first size: a transaction of a few statements makes little garbage (the buffer doubles as it fills). */
const INITIAL_STATEMENTS = 64;

/** A {@link QuadBatch} being filled: statements are pushed, the batch handed out, then cleared for the next. */
export class QuadBuffer implements QuadBatch {
  quads = new Int32Array(4 * INITIAL_STATEMENTS);
  count = 0;

  /** Appends one statement (`g` -1 for the default graph). */
  push(s: number, p: number, o: number, g: number): void {
    const at = this.count << 2;
    if (at === this.quads.length) this.grow();
    const quads = this.quads;
    quads[at] = s;
    quads[at + 1] = p;
    quads[at + 2] = o;
    quads[at + 3] = g;
    this.count++;
  }

  /** Empties the batch, keeping its buffer. */
  clear(): void {
    this.count = 0;
  }

  private grow(): void {
    const larger = new Int32Array(this.quads.length * 2);
    larger.set(this.quads);
    this.quads = larger;
  }
}
