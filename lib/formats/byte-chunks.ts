/**
 * Output of the byte writers (N-Triples from `ntriples-byte-writer.ts`, TSV answers from
 * `answers/tsv-byte-writer.ts`): chunks of about {@link BYTE_CHUNK_SIZE} bytes, each handed out
 * once and never written to again (so a consumer may keep it, as a socket write does), filled
 * with bytes copied from the dictionary's arena four at a time.
 * @module
 */

/** The size of the chunks handed out (a piece reserved whole that is longer gets a chunk of its own size). */
export const BYTE_CHUNK_SIZE = 64 * 1024;

const NONE: readonly Uint8Array[] = [];

/**
 * The chunk being filled (`chunk`, written up to `at`) and the completed ones. A writer that
 * knows how much room a piece needs reserves it once and then writes into `chunk` directly,
 * so that a piece (a line) is never split between chunks.
 */
export class ByteChunks {
  /** The chunk being filled. */
  chunk: Buffer = Buffer.allocUnsafe(BYTE_CHUNK_SIZE);
  /** How many bytes of `chunk` are written. */
  at = 0;
  private view = new DataView(this.chunk.buffer, this.chunk.byteOffset, this.chunk.length);
  private ready: Uint8Array[] = [];
  /** The array `fromView` views (compared by identity: reading a typed array's `.buffer` is slow). */
  private from: Uint8Array | undefined;
  private fromView: DataView<ArrayBufferLike> = new DataView(new ArrayBuffer(0));

  /** Makes room for `size` more bytes in `chunk`, completing it first when they do not fit. */
  reserve(size: number): void {
    if (this.at + size > this.chunk.length) this.next(Math.max(BYTE_CHUNK_SIZE, size));
  }

  /** Writes one byte. */
  byte(b: number): void {
    this.reserve(1);
    this.chunk[this.at++] = b;
  }

  /** Writes bytes. */
  bytes(b: Uint8Array): void {
    this.reserve(b.length);
    this.chunk.set(b, this.at);
    this.at += b.length;
  }

  /** Writes from[start, end). */
  copy(from: Uint8Array, start: number, end: number): void {
    this.reserve(end - start);
    this.at = this.copyAt(from, start, end, this.at);
  }

  /** Copies from[start, end) to `chunk` at `at`, which the caller has reserved room for; returns the position after it. */
  copyAt(from: Uint8Array, start: number, end: number, at: number): number {
    const out = this.chunk;
    let i = start;
    if (end - start >= 8) {
      if (this.from !== from) {
        this.from = from;
        this.fromView = new DataView(from.buffer, from.byteOffset, from.byteLength);
      }
      const source = this.fromView;
      const target = this.view;
      for (const stop = end - 3; i < stop; i += 4, at += 4) target.setUint32(at, source.getUint32(i, true), true);
    }
    for (; i < end; i++) out[at++] = from[i]!;
    return at;
  }

  /** Takes the chunks completed so far (none empty); the chunk being filled stays until {@link ByteChunks.end}. */
  take(): readonly Uint8Array[] {
    if (this.ready.length === 0) return NONE;
    const ready = this.ready;
    this.ready = [];
    return ready;
  }

  /** Completes the chunk being filled, so that the next {@link ByteChunks.take} hands out the rest. */
  end(): void {
    this.next(1);
  }

  /** Completes the chunk being filled and starts one with room for `size` bytes. */
  private next(size: number): void {
    if (this.at > 0) this.ready.push(this.chunk.subarray(0, this.at));
    this.chunk = Buffer.allocUnsafe(size);
    this.view = new DataView(this.chunk.buffer, this.chunk.byteOffset, this.chunk.length);
    this.at = 0;
  }
}
