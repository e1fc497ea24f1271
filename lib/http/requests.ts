/**
 * Request management (variant B): the registry of running requests.
 *
 * Every request is given an ID: the value of its `Service-Request-ID` header, or a generated
 * UUID. Several physical requests may share one ID; they then form one logical request that
 * is listed and cancelled together. A request is registered while its handler runs and
 * removed when it ends.
 *
 * Requests on `/requests` itself and on `/health` are not registered: they are bookkeeping,
 * not work, and a listing that always contained itself would only be noise. They still get an
 * ID in the response header.
 *
 * Visibility: a role sees (and may cancel) its own requests; read on `|requests` lets it see
 * every request, write on `|requests` cancel every request.
 * Cancelling is best effort: it interrupts every connection the request is running a call on
 * (the call stops at its next check and its transaction is rolled back), and a request that
 * has not reached a connection yet fails as soon as it tries.
 *
 * The resources (variant B; the paths are unknown in variant A): `/requests` lists the running
 * requests the role may see (`RequestID`, `StartTime` as an xsd:dateTime in ISO 8601,
 * `RoleName`, `Method`, `Target`); `/requests/<id>` gives `Property`, `Value` rows
 * (request-id, start-time, role-name, method, target) for every physical request with that ID,
 * and DELETE cancels them (204, best effort). An ID with no visible running request is a 404.
 * @module
 */
import { randomUUID } from 'node:crypto';
import type * as RDF from '@rdfjs/types/data-model.js';
import { type ConnectionBase, UnknownResourceError } from '../index.js';
import { dateTimeTerm, type Exchange, type Handler, httpExchange, stringTerm } from './exchange.js';

/** One physical request being served. */
export class RunningRequest {
  /** When the request started. */
  readonly startTime = new Date();
  private readonly active = new Set<ConnectionBase>();
  private cancelledFlag = false;
  private readonly cancelListeners: Array<() => void> = [];

  /** Creates the record of a request. */
  constructor(
    /** The request ID (shared by the physical requests of one logical request). */
    readonly requestId: string,
    /** The role the request acts as. */
    readonly roleName: string,
    /** The HTTP method. */
    readonly method: string,
    /** The request target (path and query string). */
    readonly target: string,
  ) {}

  /** Whether the request was cancelled. */
  get cancelled(): boolean {
    return this.cancelledFlag;
  }

  /** Records that a call of the request runs on `connection` until the returned function is called. */
  attach(connection: ConnectionBase): () => void {
    this.active.add(connection);
    if (this.cancelledFlag) connection.interrupt();
    return () => void this.active.delete(connection);
  }

  /** Calls `listener` when the request is cancelled. */
  onCancel(listener: () => void): void {
    this.cancelListeners.push(listener);
  }

  /** Cancels the request: interrupts the calls it runs and makes later calls fail. */
  cancel(): void {
    if (this.cancelledFlag) return;
    this.cancelledFlag = true;
    for (const connection of this.active) connection.interrupt();
    for (const listener of this.cancelListeners.splice(0)) listener();
  }
}

/** The running requests of one endpoint. */
export class RequestRegistry {
  private readonly running = new Set<RunningRequest>();

  /** The ID of a request: the trimmed `Service-Request-ID` header value, else a new UUID. */
  static requestIdOf(header: string | string[] | undefined): string {
    const value = (Array.isArray(header) ? header[0] : header)?.trim();
    return value ? value : randomUUID();
  }

  /** Registers a request; call the returned record's removal when it ends. */
  register(request: RunningRequest): () => void {
    this.running.add(request);
    return () => void this.running.delete(request);
  }

  /** The running requests `roleName` may see (all of them when `seesAll`), oldest first. */
  visible(roleName: string, seesAll: boolean): RunningRequest[] {
    return [...this.running].filter((r) => seesAll || r.roleName === roleName);
  }

  /** The visible physical requests with an ID. */
  withId(requestId: string, roleName: string, seesAll: boolean): RunningRequest[] {
    return this.visible(roleName, seesAll).filter((r) => r.requestId === requestId);
  }

  /** Cancels every running request (endpoint shutdown). */
  cancelAll(): void {
    for (const r of this.running) r.cancel();
  }
}

/** Serves `/requests`: GET the running requests. */
export const handleRequests: Handler = async (exchange: Exchange): Promise<void> => {
  const ex = httpExchange(exchange);
  const running = ex.context.requests.visible(ex.roleName, ex.principal.root.hasAccess(['requests'], 'read'));
  await exchange.sendTable(
    ['RequestID', 'StartTime', 'RoleName', 'Method', 'Target'],
    running.map((r) => [stringTerm(r.requestId), dateTimeTerm(r.startTime), stringTerm(r.roleName), stringTerm(r.method), stringTerm(r.target)]),
  );
};

function requestsWithId(exchange: Exchange, id: string): RunningRequest[] {
  const ex = httpExchange(exchange);
  const access = exchange.method === 'DELETE' ? 'write' : 'read';
  const found = ex.context.requests.withId(id, ex.roleName, ex.principal.root.hasAccess(['requests'], access));
  if (found.length === 0) throw new UnknownResourceError(`no running request has ID '${id}'`);
  return found;
}

/** Serves `/requests/<id>`: GET its physical requests, DELETE cancels them. */
export const handleRequest: Handler = async (exchange: Exchange, id: string): Promise<void> => {
  const found = requestsWithId(exchange, id);
  if (exchange.method === 'DELETE') {
    for (const r of found) r.cancel();
    exchange.sendStatus(204);
    return;
  }
  const rows: RDF.Term[][] = [];
  for (const r of found) {
    rows.push(
      [stringTerm('request-id'), stringTerm(r.requestId)],
      [stringTerm('start-time'), dateTimeTerm(r.startTime)],
      [stringTerm('role-name'), stringTerm(r.roleName)],
      [stringTerm('method'), stringTerm(r.method)],
      [stringTerm('target'), stringTerm(r.target)],
    );
  }
  await exchange.sendTable(['Property', 'Value'], rows);
};
