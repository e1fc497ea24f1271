/**
 * Cursors of a data store connection (`/datastores/<name>/connections/<id>/cursors`):
 *
 * - POST with `query` (query string or form) or a body of type application/sparql-query:
 *   201 with the `Location` of the new cursor; the query is checked at once (a malformed query
 *   or an update is a 400). Optional `base` sets the base IRI.
 * - GET lists the cursors: `CursorID`, `Query`, `Position` (rows delivered so far), `Opened`.
 * - GET on one cursor: `Property`, `Value` rows cursor-id, query, position, opened, more.
 * - PATCH operation=open (evaluates the query; first `limit` rows) or operation=advance (the
 *   next `limit` rows); `limit` is a non-negative integer, all remaining rows when absent. The
 *   answer is the rows in the negotiated answer format; the header
 *   `Service-Cursor-Position` gives the 0-based index of the first row sent, and
 *   `Service-Cursor-More` whether rows remain. A CONSTRUCT or DESCRIBE cursor gives rows with
 *   the columns subject, predicate and object; an ASK cursor a table with no columns and one row
 *   when true.
 * - DELETE closes the cursor: 204.
 *
 * Cursors live on the connection in the path (authenticated as for any request on it); they
 * see the connection's transaction, and every page of a cursor is the answer on the state it
 * was opened on: writes committed between pages do not show (see `Cursor`).
 * @module
 */
import { randomBytes } from 'node:crypto';
import { BadRequestError, sparqlOperationType, UnknownResourceError } from '../../index.js';
import type { RegisteredCursor } from '../connections.js';
import { UnsupportedMediaTypeError } from '../errors.js';
import { booleanTerm, type Exchange, type Handler, httpExchange, integerTerm, resourcePath, stringTerm } from '../exchange.js';
import { SPARQL_QUERY_TYPE } from '../negotiation.js';

function cursorOf(exchange: Exchange, id: string): RegisteredCursor {
  const cursor = httpExchange(exchange).named!.cursors.get(id);
  if (!cursor) throw new UnknownResourceError(`cursor '${id}' does not exist on this connection`);
  return cursor;
}

function parseLimit(value: string | null): number {
  if (value === null || value === '') return Infinity;
  if (!/^\d+$/.test(value)) throw new BadRequestError(`invalid limit '${value}' (expected a non-negative integer)`);
  return Number(value);
}

/** Serves `.../connections/<id>/cursors`: GET the list, POST a new cursor. */
export const handleCursors: Handler = async (exchange: Exchange, dataStore: string, connectionId: string): Promise<void> => {
  const ex = httpExchange(exchange);
  const cursors = ex.named!.cursors;
  if (exchange.method === 'GET') {
    await exchange.sendTable(
      ['CursorID', 'Query', 'Position', 'Opened'],
      [...cursors.values()].map((c) => [stringTerm(c.id), stringTerm(c.query), integerTerm(c.position), booleanTerm(c.opened)]),
    );
    return;
  }
  let query = exchange.params.get('query');
  if (query === null) {
    if (ex.contentType !== SPARQL_QUERY_TYPE) {
      throw new (ex.contentType === '' ? BadRequestError : UnsupportedMediaTypeError)(`give the query as parameter 'query' or as a body of type ${SPARQL_QUERY_TYPE}`);
    }
    query = await ex.readText();
  }
  const base = exchange.params.get('base') ?? undefined;
  if (sparqlOperationType(query) === 'UPDATE') throw new BadRequestError('a cursor needs a query (SELECT, ASK, CONSTRUCT or DESCRIBE), not an update');
  const text = query;
  const cursor = await exchange.withDataStoreConnection(dataStore, (c) => Promise.resolve(c.createCursor(text, base !== undefined ? { baseIRI: base } : {})));
  let id: string;
  do id = randomBytes(8).toString('hex');
  while (cursors.has(id));
  cursors.set(id, { id, cursor, query: text, position: 0, opened: false, more: false });
  exchange.sendStatus(201, { Location: resourcePath('datastores', dataStore, 'connections', connectionId, 'cursors', id) });
};

/** Serves `.../cursors/<id>`: GET, PATCH operation=open|advance, DELETE. */
export const handleCursor: Handler = async (exchange: Exchange, dataStore: string, _connectionId: string, cursorId: string): Promise<void> => {
  const registered = cursorOf(exchange, cursorId);
  switch (exchange.method) {
    case 'GET':
      await exchange.sendTable(
        ['Property', 'Value'],
        [
          [stringTerm('cursor-id'), stringTerm(registered.id)],
          [stringTerm('query'), stringTerm(registered.query)],
          [stringTerm('position'), integerTerm(registered.position)],
          [stringTerm('opened'), booleanTerm(registered.opened)],
          [stringTerm('more'), booleanTerm(registered.more)],
        ],
      );
      return;
    case 'DELETE':
      registered.cursor.close();
      httpExchange(exchange).named!.cursors.delete(cursorId);
      exchange.sendStatus(204);
      return;
    default: {
      const operation = exchange.params.get('operation');
      if (operation !== 'open' && operation !== 'advance') {
        throw new BadRequestError(operation === null ? "parameter 'operation' is required (open or advance)" : `unknown cursor operation '${operation}' (open or advance)`);
      }
      const limit = parseLimit(exchange.params.get('limit'));
      exchange.answerType();
      const page = await exchange.withDataStoreConnection(dataStore, () => (operation === 'open' ? registered.cursor.open(limit) : registered.cursor.advance(limit)));
      registered.opened = true;
      registered.position = page.position + page.rows.length;
      registered.more = page.more;
      await exchange.sendTable(page.variables, page.rows, {
        headers: { 'Service-Cursor-Position': String(page.position), 'Service-Cursor-More': String(page.more) },
      });
    }
  }
};
