/**
 * The transaction of a data store connection
 * (`/datastores/<name>/connections/<id>/transaction`):
 *
 * - POST operation=begin-read-only | begin-read-write | commit | rollback: 204;
 * - GET: `Property`, `Value` with the row `transaction-state` = none, read-only or
 *   read-write.
 *
 * The connection is the one in the path; the request must be authenticated for it (Basic of
 * its role or `Authorization: Service <token>`). Every later request naming the connection
 * with `connection=<id>` runs inside the transaction until commit or rollback.
 * @module
 */
import { BadRequestError } from '../../index.js';
import { type Exchange, type Handler, stringTerm } from '../exchange.js';

const OPERATIONS = ['begin-read-only', 'begin-read-write', 'commit', 'rollback'] as const;

/** Serves `.../connections/<id>/transaction`: GET the state, POST operation=…. */
export const handleTransaction: Handler = async (exchange: Exchange, dataStore: string): Promise<void> => {
  if (exchange.method === 'GET') {
    const state = await exchange.withDataStoreConnection(dataStore, (c) => Promise.resolve(c.transactionType ?? 'none'));
    await exchange.sendTable(['Property', 'Value'], [[stringTerm('transaction-state'), stringTerm(state)]]);
    return;
  }
  const operation = exchange.params.get('operation');
  await exchange.withDataStoreConnection(dataStore, (c) => {
    switch (operation) {
      case 'begin-read-only':
        return c.beginTransaction('read-only');
      case 'begin-read-write':
        return c.beginTransaction('read-write');
      case 'commit':
        return c.commitTransaction();
      case 'rollback':
        return c.rollbackTransaction();
      default:
        throw new BadRequestError(
          operation === null ? `parameter 'operation' is required (${OPERATIONS.join(', ')})` : `unknown transaction operation '${operation}' (${OPERATIONS.join(', ')})`,
        );
    }
  });
  exchange.sendStatus(204);
};
