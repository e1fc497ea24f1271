/**
 * Test helper: a Server-Sent Events client on node:http (one socket of its own), which can
 * pause reading (a slow consumer), read events one by one, and go away.
 * @module
 */
import { get, type IncomingMessage, type ClientRequest } from 'node:http';

/** One event as received. */
export interface ReceivedEvent {
  /** The `id:` field, if any. */
  readonly id: string | undefined;
  /** The `event:` field. */
  readonly event: string;
  /** The `data:` field, parsed as JSON. */
  readonly data: Record<string, unknown>;
}

/** A Server-Sent Events subscription. */
export class EventStreamClient {
  private pending: string[] = [];
  private readonly events: ReceivedEvent[] = [];
  private waiter: (() => void) | undefined;
  private ended = false;
  /** How many comment lines arrived. */
  comments = 0;

  private constructor(
    private readonly request: ClientRequest,
    /** The response. */
    readonly response: IncomingMessage,
  ) {
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => {
      // an event may span many chunks (a whole answer of megabytes): they are kept apart and
      // joined once its end arrives, never searched again
      let rest = chunk;
      for (;;) {
        const last = this.pending[this.pending.length - 1];
        if (last !== undefined && last.endsWith('\n') && rest.startsWith('\n')) {
          // the blank line ending the event is split between two chunks
          this.flush('');
          rest = rest.slice(1);
          continue;
        }
        const end = rest.indexOf('\n\n');
        if (end < 0) break;
        this.flush(rest.slice(0, end + 1));
        rest = rest.slice(end + 2);
      }
      if (rest !== '') this.pending.push(rest);
      this.wake();
    });
    const done = (): void => {
      this.ended = true;
      this.wake();
    };
    response.on('end', done);
    response.on('close', done);
    response.on('error', done);
  }

  /** Opens a subscription; resolves with the response headers received. */
  static open(url: string, headers: Record<string, string>): Promise<EventStreamClient> {
    return new Promise((resolve, reject) => {
      const request = get(url, { headers: { accept: 'text/event-stream', ...headers }, agent: false }, (response) => resolve(new EventStreamClient(request, response)));
      request.on('error', reject);
    });
  }

  /** The status code. */
  get status(): number {
    return this.response.statusCode ?? 0;
  }

  /** The next event; undefined when the stream ended first. */
  async next(): Promise<ReceivedEvent | undefined> {
    for (;;) {
      const event = this.events.shift();
      if (event) return event;
      if (this.ended) return undefined;
      await new Promise<void>((resolve) => (this.waiter = resolve));
    }
  }

  /** Stops reading from the socket (the server's writes back up). */
  pause(): void {
    this.response.pause();
  }

  /** Reads on. */
  resume(): void {
    this.response.resume();
  }

  /** Goes away (closes the socket). */
  close(): void {
    this.request.destroy();
  }

  /** Ends the pending event with `tail` (which ends with its last line's newline). */
  private flush(tail: string): void {
    this.pending.push(tail);
    const block = this.pending.join('');
    this.pending = [];
    this.parse(block.slice(0, -1));
  }

  private parse(block: string): void {
    let id: string | undefined;
    let event = 'message';
    let data = '';
    let any = false;
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) {
        this.comments++;
        continue;
      }
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      any = true;
      if (field === 'id') id = value;
      else if (field === 'event') event = value;
      else if (field === 'data') data += value;
    }
    if (any) this.events.push({ id, event, data: JSON.parse(data) as Record<string, unknown> });
  }

  private wake(): void {
    const w = this.waiter;
    this.waiter = undefined;
    w?.();
  }
}
