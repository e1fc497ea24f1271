/**
 * Connections opened over HTTP: `/connections` (server connections) and
 * `/datastores/<name>/connections` (data store connections), with identical behaviour.
 *
 * - POST creates a connection for the authenticated role: 201 with `Location` (its path) and
 *   `Service-Authentication-Token` (its secret token, sent only here).
 * - GET lists the identifiers (column `Name`): a role sees its own connections, the server's
 *   first role sees all.
 * - GET on one connection: `Property`, `Value`, `Mutable` with the single property `role-name`.
 * - DELETE closes it (204).
 * - PATCH operation=check-password (body: the password as text, or a `password` form field):
 *   204 when it is the role's password, else 401; operation=interrupt: 204, interrupts the
 *   request running on it; operation=duplicate: 204 with the `Location` of a new connection of
 *   the same role (and its own `Service-Authentication-Token`).
 *
 * Requests on one connection are authenticated for it by the router (Basic of its role or its
 * token); these handlers do not mark it busy, so that interrupt and delete work while another
 * request runs on it.
 * @module
 */
import { BadRequestError } from '../../index.js';
import type { RegisteredConnection } from '../connections.js';
import { booleanTerm, type Exchange, type Handler, httpExchange, resourcePath, stringTerm } from '../exchange.js';

const TOKEN_HEADER = 'Service-Authentication-Token';

function connectionPath(connection: RegisteredConnection): string {
  return connection.kind === 'server' ? resourcePath('connections', connection.id) : resourcePath('datastores', connection.dataStore ?? '', 'connections', connection.id);
}

async function listConnections(exchange: Exchange, dataStore: string | undefined): Promise<void> {
  const ex = httpExchange(exchange);
  const { roleName, root } = ex.principal;
  // opening (and closing) a connection checks that the store exists and may be read
  if (dataStore !== undefined) root.newDataStoreConnection(dataStore).close();
  // a role sees its own connections, and those of the roles it may read
  const ids = ex.context.connections.list(dataStore === undefined ? 'server' : 'datastore', dataStore, (c) => c.roleName === roleName || root.hasAccess(['roles', c.roleName], 'read'));
  await exchange.sendTable(['Name'], ids.map((id) => [stringTerm(id)]));
}

function createConnection(exchange: Exchange, dataStore: string | undefined): void {
  const ex = httpExchange(exchange);
  const root = ex.principal.root;
  const connection = dataStore === undefined ? root.duplicate() : root.newDataStoreConnection(dataStore);
  const { registered, token } = ex.context.connections.add(dataStore === undefined ? 'server' : 'datastore', connection, root, dataStore);
  exchange.sendStatus(201, { Location: connectionPath(registered), [TOKEN_HEADER]: token });
}

async function serveConnection(exchange: Exchange): Promise<void> {
  const ex = httpExchange(exchange);
  const named = ex.named!;
  switch (exchange.method) {
    case 'GET':
      await exchange.sendTable(['Property', 'Value', 'Mutable'], [[stringTerm('role-name'), stringTerm(named.roleName), booleanTerm(false)]]);
      return;
    case 'DELETE':
      ex.context.connections.remove(named.id);
      exchange.sendStatus(204);
      return;
    default:
      await patchConnection(ex, named);
  }
}

async function patchConnection(ex: ReturnType<typeof httpExchange>, named: RegisteredConnection): Promise<void> {
  const operation = ex.params.get('operation');
  switch (operation) {
    case 'check-password': {
      const password = ex.bodyConsumed ? ex.params.get('password') : await ex.readText(64 * 1024);
      if (password === null) throw new BadRequestError("operation=check-password needs the password: as the request body, or as the form field 'password'");
      await named.connection.checkPassword(password);
      ex.sendStatus(204);
      return;
    }
    case 'interrupt':
      named.connection.interrupt();
      ex.sendStatus(204);
      return;
    case 'duplicate': {
      const copy = named.connection.duplicate();
      const { registered, token } = ex.context.connections.add(named.kind, copy, named.root, named.dataStore);
      ex.sendStatus(204, { Location: connectionPath(registered), [TOKEN_HEADER]: token });
      return;
    }
    default:
      throw new BadRequestError(
        operation === null ? "parameter 'operation' is required (check-password, interrupt or duplicate)" : `unknown connection operation '${operation}' (check-password, interrupt or duplicate)`,
      );
  }
}

/** Serves `/connections`: GET the list, POST a new server connection. */
export const handleServerConnections: Handler = async (exchange: Exchange): Promise<void> => {
  if (exchange.method === 'GET') await listConnections(exchange, undefined);
  else createConnection(exchange, undefined);
};

/** Serves `/connections/<id>`: GET, PATCH, DELETE. */
export const handleServerConnection: Handler = (exchange: Exchange): Promise<void> => serveConnection(exchange);

/** Serves `/datastores/<name>/connections`: GET the list, POST a new data store connection. */
export const handleDataStoreConnections: Handler = async (exchange: Exchange, dataStore: string): Promise<void> => {
  if (exchange.method === 'GET') await listConnections(exchange, dataStore);
  else createConnection(exchange, dataStore);
};

/** Serves `/datastores/<name>/connections/<id>`: GET, PATCH, DELETE. */
export const handleDataStoreConnection: Handler = (exchange: Exchange): Promise<void> => serveConnection(exchange);
