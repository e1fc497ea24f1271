/**
 * Streaming a long answer into an HTTP response in large writes.
 *
 * The answer writers hand over one small string per row; writing each to the socket makes one
 * chunk of the chunked encoding and one system call per row (about 8 MB/s for a 100,000-row
 * answer). A {@link ResponseStream} gathers the strings and writes them in pieces of about
 * {@link WRITE_SIZE} characters, and tells the producer to pause (by a promise) while the
 * client is slow to read. It can hold back the start of the answer, so that a failure early in
 * the evaluation is still sent as an error response instead of a cut-off 200.
 *
 * It takes UTF-8 bytes too (an export's chunks): those are written as they are, never copied or
 * decoded; the byte chunks gathered for one write go out in one corked batch.
 * @module
 */
import type { ServerResponse } from 'node:http';

/** How many characters (or bytes) are gathered before one write to the response. */
export const WRITE_SIZE = 64 * 1024;

/** The most byte chunks written as they are in one batch; more are copied into one write. */
const MAX_BATCH = 8;

/** A piece of an answer: text, or UTF-8 bytes (the stream's to keep until written). */
export type ResponseChunk = string | Uint8Array;

/** Gathers strings or byte chunks and writes them to a response in large pieces, with backpressure. */
export class ResponseStream {
  private parts: ResponseChunk[] = [];
  private size = 0;
  private draining: Promise<void> | undefined;
  private started = false;

  /**
   * @param res the response.
   * @param start sends the head (status and headers) before the first write; it gets the whole
   *   body when the answer ends within the held-back part (to set Content-Length), else undefined.
   * @param holdBack how many characters (or bytes) are held before the response starts (0: start at once).
   */
  constructor(
    private readonly res: ServerResponse,
    private readonly start: (body: ResponseChunk | undefined) => void,
    private readonly holdBack: number = WRITE_SIZE,
  ) {}

  /**
   * Adds a string or a chunk of UTF-8 bytes (which must not change afterwards). Returns a
   * promise while the client is slow to read (the producer should wait for it before producing
   * much more), otherwise undefined.
   */
  write(chunk: ResponseChunk): Promise<void> | undefined {
    this.parts.push(chunk);
    this.size += chunk.length;
    if (this.size < (this.started ? WRITE_SIZE : Math.max(this.holdBack, 1))) return this.draining;
    return this.flush();
  }

  /** Writes what is gathered; returns a promise while the response does not drain. */
  private flush(): Promise<void> | undefined {
    if (!this.started) {
      this.started = true;
      this.start(undefined);
    }
    if (!this.writeParts() && !this.res.destroyed) {
      this.draining ??= new Promise<void>((resolve) => {
        const done = (): void => {
          this.res.off('drain', done);
          this.res.off('close', done);
          this.draining = undefined;
          resolve();
        };
        this.res.on('drain', done);
        this.res.on('close', done);
      });
    }
    return this.draining;
  }

  /** Ends the response with what is gathered (a response never started gets its whole body at once). */
  end(): void {
    const body = this.whole();
    if (!this.started) {
      this.started = true;
      this.start(body);
      this.res.end(body);
      return;
    }
    this.res.end(body.length === 0 ? undefined : body);
  }

  /**
   * Writes the gathered parts: strings joined into one write, a few byte chunks as they are (in
   * one corked batch), many small ones copied into one. Returns false when the response asks
   * the writer to wait.
   */
  private writeParts(): boolean {
    const parts = this.parts;
    this.parts = [];
    this.size = 0;
    if (parts.every((part) => typeof part === 'string')) {
      const text = parts.join('');
      return text === '' || this.res.write(text);
    }
    if (parts.length === 1) return this.res.write(parts[0]!);
    // many small pieces are copied into one (one chunk of the chunked encoding); a few large
    // ones go out as they are, in one corked batch
    if (parts.length > MAX_BATCH) return this.res.write(concat(parts));
    let ok = true;
    this.res.cork();
    for (const part of runs(parts)) ok = this.res.write(part);
    this.res.uncork();
    return ok;
  }

  /** The gathered parts (less than one write's worth) as one body, text when they are all text; empties the stream. */
  private whole(): ResponseChunk {
    const parts = this.parts;
    this.parts = [];
    this.size = 0;
    if (parts.every((part) => typeof part === 'string')) return parts.join('');
    if (parts.length === 1) return parts[0]!;
    return concat(parts);
  }
}

/** The parts as one buffer (strings as UTF-8). */
function concat(parts: readonly ResponseChunk[]): Buffer {
  return Buffer.concat(runs(parts).map((part) => (typeof part === 'string' ? Buffer.from(part, 'utf8') : part)));
}

/** The parts with each run of neighbouring strings joined into one. */
function runs(parts: readonly ResponseChunk[]): ResponseChunk[] {
  const out: ResponseChunk[] = [];
  for (const part of parts) {
    const last = out.length - 1;
    if (typeof part === 'string' && last >= 0 && typeof out[last] === 'string') out[last] += part;
    else out.push(part);
  }
  return out;
}
