/**
 * The commit procedure of a data store (variant B only; `/datastores/<name>/commitprocedure`
 * is unknown in variant A):
 *
 * - GET: 204 when none is set, else 200 with the SPARQL update (application/sparql-update);
 * - PUT: body = a SPARQL update with Content-Type application/sparql-update (or none): 200
 *   with `Changed`; a body that is not an update is a 400;
 * - DELETE: 200 with `Changed` (false when there was none).
 * @module
 */
import { BadRequestError } from '../../index.js';
import { UnsupportedMediaTypeError } from '../errors.js';
import { type Exchange, type Handler, httpExchange } from '../exchange.js';
import { SPARQL_UPDATE_TYPE } from '../negotiation.js';

/** The media type of SPARQL updates. */

/** Serves `/datastores/<name>/commitprocedure`: GET, PUT, DELETE. */
export const handleCommitProcedure: Handler = async (exchange: Exchange, dataStore: string): Promise<void> => {
  switch (exchange.method) {
    case 'GET': {
      const text = await exchange.withDataStoreConnection(dataStore, (c) => c.getCommitProcedure());
      if (text === undefined) {
        exchange.sendStatus(204);
        return;
      }
      exchange.res.writeHead(200, { 'Content-Type': `${SPARQL_UPDATE_TYPE}; charset=UTF-8`, 'Content-Length': String(Buffer.byteLength(text)) });
      exchange.res.end(text);
      return;
    }
    case 'PUT': {
      const ex = httpExchange(exchange);
      if (ex.contentType !== '' && ex.contentType !== SPARQL_UPDATE_TYPE) {
        throw new UnsupportedMediaTypeError(`the commit procedure must be sent with Content-Type ${SPARQL_UPDATE_TYPE} (got '${ex.contentType}')`);
      }
      const text = await ex.readText();
      if (text.trim() === '') throw new BadRequestError('the commit procedure is empty: send a SPARQL update (use DELETE to remove the commit procedure)');
      await exchange.sendChanged(await exchange.withDataStoreConnection(dataStore, (c) => c.setCommitProcedure(text)));
      return;
    }
    default:
      await exchange.sendChanged(await exchange.withDataStoreConnection(dataStore, (c) => c.deleteCommitProcedure()));
  }
};
