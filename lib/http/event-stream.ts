/**
 * Live answers over HTTP: a watch of a delta query (or of a SELECT text) sent as Server-Sent
 * Events (`text/event-stream`).
 *
 * Each event names the data store version it brings the client to (`id: <version>`), its kind
 * (`event: answer | change | error`) and one line of JSON (`data: …`): the whole answer
 * (`{"version","head":{"vars"},"results":{"bindings"}}`, with `missedFrom` after a
 * resynchronisation), a version's change (`{"version","head","additions":{"bindings"},
 * "deletions":{"bindings"}}`), or a failure (`{"message"}`, after which the stream ends).
 * Bindings are SPARQL 1.1 JSON results binding objects. A comment line `: keep-alive` is sent
 * every {@link KEEP_ALIVE_MS} while nothing else is.
 *
 * The stream never buffers without bound: when the socket does not take an event, the next one
 * is read from the watch only once it has drained, so a slow client fills the watch's own
 * buffer, and the watch resynchronises it with a whole answer. A client that goes away ends the
 * watch (a watch of a query text is then deregistered).
 *
 * A client resumes with `Last-Event-ID: <version>` (or the parameter `last-event-id`).
 * @module
 */
import type { ServerResponse } from 'node:http';
import { BadRequestError, type DeltaQueryEvent, type DeltaQueryRow, type DeltaQueryWatch, type QueryTerm } from '../index.js';
import { parseAccept } from './negotiation.js';

/** The media type of Server-Sent Events. */
export const EVENT_STREAM_TYPE = 'text/event-stream';

/** How long a stream may stay silent before a keep-alive comment is sent (ms). */
export const KEEP_ALIVE_MS = 15_000;

/** The parameter that stands in for the Last-Event-ID header (for clients that cannot set headers). */
export const LAST_EVENT_ID_PARAMETER = 'last-event-id';

/** Whether an Accept header asks for Server-Sent Events (names `text/event-stream` with a quality above 0). */
export function acceptsEventStream(accept: string | undefined): boolean {
  if (accept === undefined) return false;
  return parseAccept(accept).some((r) => r.type === 'text' && r.subtype === 'event-stream' && r.q > 0);
}

/**
 * The version a client resumes after: the Last-Event-ID header, else the `last-event-id`
 * parameter; undefined when neither is given.
 * @throws BadRequestError when it is not a non-negative integer.
 */
export function resumeVersion(header: string | string[] | undefined, parameter: string | null): number | undefined {
  const raw = (Array.isArray(header) ? header[0] : header) ?? parameter ?? undefined;
  if (raw === undefined || raw.trim() === '') return undefined;
  const text = raw.trim();
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text))) throw new BadRequestError(`invalid Last-Event-ID '${text}': the version of an event (a non-negative integer) is required`);
  return Number(text);
}

/** A term in SPARQL JSON results (SPARQL 1.2: a triple term is `{ "type": "triple", "value": { "subject": …, … } }`). */
interface JsonTerm {
  readonly type: string;
  readonly value: string | { readonly subject: JsonTerm; readonly predicate: JsonTerm; readonly object: JsonTerm };
  readonly datatype?: string;
  readonly 'xml:lang'?: string;
  readonly 'its:dir'?: string;
}

type Binding = Record<string, JsonTerm>;

const XSD_STRING = 'http://www.w3.org/2001/XMLSchema#string';
const RDF_LANG_STRING = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#langString';

/** The SPARQL 1.1 JSON results binding objects of rows (unbound variables absent). */
function bindingsOf(variables: readonly string[], rows: readonly DeltaQueryRow[]): Binding[] {
  return rows.map((row) => {
    const binding: Binding = {};
    variables.forEach((name, i) => {
      const term = row[i];
      if (term !== undefined) binding[name] = jsonTerm(term);
    });
    return binding;
  });
}

/** The SPARQL JSON results form of a term. */
function jsonTerm(term: QueryTerm): JsonTerm {
  if (term.termType === 'NamedNode') return { type: 'uri', value: term.value };
  if (term.termType === 'BlankNode') return { type: 'bnode', value: term.value };
  if (term.termType === 'Quad') {
    return { type: 'triple', value: { subject: jsonTerm(term.subject as QueryTerm), predicate: jsonTerm(term.predicate as QueryTerm), object: jsonTerm(term.object as QueryTerm) } };
  }
  if (term.language !== '') {
    // RDF 1.2's base direction (RDF/JS `direction`)
    const direction = (term as { readonly direction?: string }).direction ?? '';
    return direction ? { type: 'literal', value: term.value, 'xml:lang': term.language, 'its:dir': direction } : { type: 'literal', value: term.value, 'xml:lang': term.language };
  }
  if (term.datatype.value === XSD_STRING || term.datatype.value === RDF_LANG_STRING) return { type: 'literal', value: term.value };
  return { type: 'literal', value: term.value, datatype: term.datatype.value };
}

/** The text of one event of a watch. */
export function formatEvent(event: DeltaQueryEvent): string {
  const head = { vars: event.variables };
  const data =
    event.kind === 'answer'
      ? { version: event.version, head, results: { bindings: bindingsOf(event.variables, event.rows) }, ...(event.missedFrom !== undefined ? { missedFrom: event.missedFrom } : {}) }
      : { version: event.version, head, additions: { bindings: bindingsOf(event.variables, event.additions) }, deletions: { bindings: bindingsOf(event.variables, event.deletions) } };
  return `id: ${event.version}\nevent: ${event.kind}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** The text of an error event (no id: it brings the client to no version). */
export function formatError(message: string): string {
  return `event: error\ndata: ${JSON.stringify({ message })}\n\n`;
}

/** Settles when a response can take more (drain) or is gone (close). */
function writable(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/**
 * Sends a watch's events as Server-Sent Events until the watch ends (the query is
 * deregistered or fails) or the client goes away; the watch is closed either way.
 */
export async function streamWatch(res: ServerResponse, watch: DeltaQueryWatch, keepAliveMs: number = KEEP_ALIVE_MS): Promise<void> {
  let gone = false;
  const onClose = (): void => {
    gone = true;
    watch.close();
  };
  res.on('close', onClose);
  if (res.destroyed) onClose();
  res.writeHead(200, { 'Content-Type': `${EVENT_STREAM_TYPE}; charset=utf-8`, 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no' });
  res.flushHeaders();
  let quiet = true;
  const timer = setInterval(() => {
    if (quiet && !gone && !res.writableNeedDrain) res.write(': keep-alive\n\n');
    quiet = true;
  }, keepAliveMs);
  timer.unref();
  try {
    for await (const event of watch) {
      if (gone) break;
      quiet = false;
      // the next event is taken from the watch only once the socket took this one
      if (!res.write(formatEvent(event))) await writable(res);
    }
  } catch (e) {
    if (!gone) res.write(formatError(e instanceof Error ? e.message : String(e)));
  } finally {
    clearInterval(timer);
    res.off('close', onClose);
    watch.close();
    if (!res.writableEnded) res.end();
  }
}
