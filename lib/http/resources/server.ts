/**
 * The server resource (`/`): its properties or component information (GET) and setting
 * mutable properties (PATCH operation=set), and the unauthenticated health check (`/health`).
 * @module
 */
import { BadRequestError } from '../../index.js';
import { dateTimeTerm, type Exchange, type Handler, integerTerm, propertyRows, stringTerm, valueTerm } from '../exchange.js';

/** The value of the `component-info` parameter as the API's `extended` flag, or undefined when absent. */
export function componentInfoLevel(exchange: Exchange): boolean | undefined {
  const level = exchange.params.get('component-info');
  if (level === null) return undefined;
  if (level === 'short') return false;
  if (level === 'extended') return true;
  throw new BadRequestError(`invalid value '${level}' of parameter 'component-info' (expected short or extended)`);
}

/** Sends component information rows (ComponentID, Property, Value). */
export async function sendComponentInfo(exchange: Exchange, rows: ReadonlyArray<{ readonly componentId: number; readonly property: string; readonly value: string | number | boolean }>): Promise<void> {
  await exchange.sendTable(
    ['ComponentID', 'Property', 'Value'],
    rows.map((r) => [integerTerm(r.componentId), stringTerm(r.property), valueTerm(r.value)]),
  );
}

/** Serves `/`: GET properties (or component-info=short|extended), PATCH operation=set. */
export const handleServer: Handler = async (exchange: Exchange): Promise<void> => {
  if (exchange.method === 'GET') {
    const extended = componentInfoLevel(exchange);
    if (extended !== undefined) {
      const rows = await exchange.withServerConnection((c) => Promise.resolve(c.getComponentInfo(extended)));
      await sendComponentInfo(exchange, rows);
      return;
    }
    const rows = await exchange.withServerConnection((c) => Promise.resolve(c.getServerProperties()));
    await exchange.sendTable(['Property', 'Value', 'Mutable'], propertyRows(rows, true));
    return;
  }
  const operation = exchange.params.get('operation');
  if (operation !== 'set') {
    throw new BadRequestError(operation === null ? "parameter 'operation' is required (PATCH / supports operation=set)" : `unknown operation '${operation}' on the server (PATCH / supports operation=set)`);
  }
  const settings = Object.entries(exchange.genericParameters(['operation']));
  if (settings.length === 0) throw new BadRequestError('operation=set needs at least one <property>=<value> parameter');
  await exchange.withServerConnection((c) => {
    const known = new Map(c.getServerProperties().map((r) => [r.property, r.mutable]));
    for (const [name] of settings) {
      if (!known.has(name)) throw new BadRequestError(`unknown server property '${name}'`);
      if (!known.get(name)) throw new BadRequestError(`server property '${name}' cannot be changed`);
    }
    for (const [name, value] of settings) c.setServerProperty(name, value);
    return Promise.resolve();
  });
  exchange.sendStatus(204);
};

/** Serves `/health`: 204 without authentication while the endpoint is listening. */
// eslint-disable-next-line @typescript-eslint/require-await
export const handleHealth: Handler = async (exchange: Exchange): Promise<void> => {
  exchange.sendStatus(204);
};

/**
 * Serves `GET /replication`: the replication status of the node answering, one row per node
 * seen recently (`persistence=postgresql`; a server that does not replicate shows itself alone
 * as `standalone`): NodeID, URL, Role, Term, LastHeartbeat, HeartbeatAgeMs, Self (whether the
 * row is the answering node), Writer (whether it holds the lease as the answering node knows
 * it), and per store of the answering node (columns DataStore, Version, LagVersions, LagMs;
 * empty on other nodes' rows, whose applied versions are in StoreVersions as `name=version`
 * pairs separated by spaces).
 */
export const handleReplication: Handler = async (exchange: Exchange): Promise<void> => {
  const status = await exchange.withServerConnection((c) => Promise.resolve(c.getReplicationStatus()));
  const columns = ['NodeID', 'URL', 'Role', 'Term', 'Self', 'Writer', 'LastHeartbeat', 'HeartbeatAgeMs', 'StoreVersions', 'DataStore', 'Version', 'LagVersions', 'LagMs'];
  const rows: Array<Array<ReturnType<typeof stringTerm> | undefined>> = [];
  for (const s of status.stores.length > 0 ? status.stores : [undefined]) {
    rows.push([
      stringTerm(status.nodeId),
      stringTerm(status.url),
      stringTerm(status.role),
      integerTerm(status.term),
      valueTerm(true),
      valueTerm(status.role === 'writer'),
      undefined,
      undefined,
      stringTerm(status.stores.map((x) => `${x.name}=${x.version}`).join(' ')),
      s === undefined ? undefined : stringTerm(s.name),
      s === undefined ? undefined : integerTerm(s.version),
      s === undefined ? undefined : integerTerm(s.lagVersions),
      s === undefined ? undefined : integerTerm(Math.round(s.lagMs)),
    ]);
  }
  for (const n of status.nodes) {
    if (n.nodeId === status.nodeId) {
      // this node's heartbeat goes on its own rows
      for (const row of rows) {
        row[6] = dateTimeTerm(n.lastHeartbeat);
        row[7] = integerTerm(Math.round(n.heartbeatAgeMs));
      }
      continue;
    }
    rows.push([
      stringTerm(n.nodeId),
      stringTerm(n.url),
      stringTerm(n.role),
      integerTerm(n.term),
      valueTerm(false),
      valueTerm(n.nodeId === status.writerId),
      dateTimeTerm(n.lastHeartbeat),
      integerTerm(Math.round(n.heartbeatAgeMs)),
      stringTerm(n.stores.map((x) => `${x.name}=${x.version}`).join(' ')),
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  }
  await exchange.sendTable(columns, rows);
};
