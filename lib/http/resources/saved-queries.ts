/**
 * The saved queries of a data store (`/datastores/<name>/saved-queries`), shared with every
 * role that may read the store:
 *
 * - GET `/saved-queries`: columns `Name`, `Query`, `SavedBy`, `SavedAt` (xsd:dateTime), one row
 *   per saved query in name order, in the negotiated listing format;
 * - GET `/saved-queries/<name>`: 200 with the text (application/sparql-query) and
 *   `Last-Modified` (when it was saved); 404 when there is none;
 * - PUT `/saved-queries/<name>`: body = the SPARQL text (Content-Type
 *   application/sparql-query, application/sparql-update, text/plain or none): 201 with its
 *   `Location` when the name is new, 204 when it replaced a query; 400 for an invalid name or a
 *   text that does not parse (the message gives the line and column);
 * - DELETE `/saved-queries/<name>`: 204; 404 when there is none.
 *
 * Reading needs read access to the store, saving and deleting write access.
 * @module
 */
import { BadRequestError } from '../../index.js';
import { UnsupportedMediaTypeError } from '../errors.js';
import { dateTimeTerm, type Exchange, type Handler, httpExchange, resourcePath, stringTerm } from '../exchange.js';
import { SPARQL_QUERY_TYPE, SPARQL_UPDATE_TYPE } from '../negotiation.js';

/** The media types a saved query's text may be sent with (besides none). */
const TEXT_TYPES: ReadonlySet<string> = new Set([SPARQL_QUERY_TYPE, SPARQL_UPDATE_TYPE, 'text/plain']);

/** Serves `/datastores/<name>/saved-queries`: GET, the listing. */
export const handleSavedQueries: Handler = async (exchange: Exchange, dataStore: string): Promise<void> => {
  const queries = await exchange.withDataStoreConnection(dataStore, (c) => c.listSavedQueries());
  await exchange.sendTable(
    ['Name', 'Query', 'SavedBy', 'SavedAt'],
    queries.map((q) => [stringTerm(q.name), stringTerm(q.text), stringTerm(q.savedBy), dateTimeTerm(new Date(q.savedAt))]),
  );
};

/** Serves `/datastores/<name>/saved-queries/<query>`: GET, PUT, DELETE. */
export const handleSavedQuery: Handler = async (exchange: Exchange, dataStore: string, name: string): Promise<void> => {
  switch (exchange.method) {
    case 'GET': {
      const query = await exchange.withDataStoreConnection(dataStore, (c) => c.getSavedQuery(name));
      exchange.res.writeHead(200, {
        'Content-Type': `${SPARQL_QUERY_TYPE}; charset=UTF-8`,
        'Content-Length': String(Buffer.byteLength(query.text)),
        'Last-Modified': new Date(query.savedAt).toUTCString(),
      });
      exchange.res.end(query.text);
      return;
    }
    case 'PUT': {
      const ex = httpExchange(exchange);
      const type = ex.contentType;
      if (type !== '' && !TEXT_TYPES.has(type)) {
        throw new UnsupportedMediaTypeError(`a saved query is sent as its SPARQL text, with Content-Type ${[...TEXT_TYPES].join(', ')} or none (got '${type}')`);
      }
      if (ex.bodyConsumed) throw new BadRequestError('PUT on a saved query takes the SPARQL text as the request body, not as a form');
      const text = await ex.readText();
      const created = await exchange.withDataStoreConnection(dataStore, (c) => c.saveQuery(name, text));
      if (created) exchange.sendStatus(201, { Location: resourcePath('datastores', dataStore, 'saved-queries', name) });
      else exchange.sendStatus(204);
      return;
    }
    default:
      await exchange.withDataStoreConnection(dataStore, (c) => c.deleteSavedQuery(name));
      exchange.sendStatus(204);
  }
};
