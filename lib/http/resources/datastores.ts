/**
 * Data stores: the list (`/datastores`), and one store (`/datastores/<name>`): create (POST
 * with `type` and creation parameters; without `type`, the default type), delete, properties or component information (GET) and
 * the operations of PATCH:
 *
 * | operation | API call | response |
 * |---|---|---|
 * | clear | clear() | 204 |
 * | clear-rules-explicate-facts | clearRulesExplicateFacts() | 204 |
 * | compact | compact() | 204 |
 * | recompile-rules (A) / recompile (B) | recompile() | 204; the other variant's name is a 400 |
 * | recompute-materialization | recomputeMaterialization() | 204 |
 * | update-materialization | updateMaterialization() (inside a transaction: use `connection=`) | 204 |
 * | set (`base-iri=<iri>`) | setDataStoreProperty() | A: 204; B: 200 with `Changed` |
 * @module
 */
import { BadRequestError, type DataStoreConnection } from '../../index.js';
import { type Exchange, type Handler, propertyRows, resourcePath, stringTerm } from '../exchange.js';
import { componentInfoLevel, sendComponentInfo } from './server.js';

/** Serves `/datastores`: GET the names (column Name). */
export const handleDataStores: Handler = async (exchange: Exchange): Promise<void> => {
  const names = await exchange.withServerConnection((c) => Promise.resolve(c.listDataStores()));
  await exchange.sendTable(['Name'], names.map((n) => [stringTerm(n)]));
};

const OPERATIONS: Readonly<Record<string, (c: DataStoreConnection) => Promise<void>>> = {
  clear: (c) => c.clear(),
  'clear-rules-explicate-facts': (c) => c.clearRulesExplicateFacts(),
  compact: (c) => c.compact(),
  'recompute-materialization': (c) => c.recomputeMaterialization(),
  'update-materialization': (c) => c.updateMaterialization(),
};

/** The operations of PATCH on a data store in a variant. */
export function dataStoreOperations(variant: 'A' | 'B'): string[] {
  return ['clear', 'clear-rules-explicate-facts', 'compact', variant === 'A' ? 'recompile-rules' : 'recompile', 'recompute-materialization', 'set', 'update-materialization'];
}

/** Serves `/datastores/<name>`: GET, POST (create), DELETE, PATCH operation=…. */
export const handleDataStore: Handler = async (exchange: Exchange, name: string): Promise<void> => {
  switch (exchange.method) {
    case 'GET': {
      const extended = componentInfoLevel(exchange);
      if (extended !== undefined) {
        const rows = await exchange.withDataStoreConnection(name, (c) => c.getComponentInfo(extended));
        await sendComponentInfo(exchange, rows);
        return;
      }
      const rows = await exchange.withDataStoreConnection(name, (c) => c.getDataStoreProperties());
      await exchange.sendTable(['Property', 'Value', 'Mutable'], propertyRows(rows, true));
      return;
    }
    case 'POST': {
      // without `type` (or with an empty one), the default type, as createDataStore in-process
      const type = exchange.params.get('type') || undefined;
      const parameters = exchange.genericParameters(['type']);
      await exchange.withServerConnection((c) => Promise.resolve(c.createDataStore(name, type, parameters)));
      exchange.sendStatus(201, { Location: resourcePath('datastores', name) });
      return;
    }
    case 'DELETE':
      await exchange.withServerConnection((c) => Promise.resolve(c.deleteDataStore(name)));
      exchange.sendStatus(204);
      return;
    default:
      await patchDataStore(exchange, name);
  }
};

async function patchDataStore(exchange: Exchange, name: string): Promise<void> {
  const operation = exchange.params.get('operation');
  const known = dataStoreOperations(exchange.variant);
  if (operation === null || operation === '') throw new BadRequestError(`parameter 'operation' is required (one of ${known.join(', ')})`);
  if (operation === 'recompile-rules' || operation === 'recompile') {
    const own = exchange.variant === 'A' ? 'recompile-rules' : 'recompile';
    if (operation !== own) {
      throw new BadRequestError(`operation '${operation}' belongs to variant ${exchange.variant === 'A' ? 'B' : 'A'} of the interface; this endpoint speaks variant ${exchange.variant}: use operation=${own}`);
    }
    await exchange.withDataStoreConnection(name, (c) => c.recompile());
    exchange.sendStatus(204);
    return;
  }
  if (operation === 'set') {
    const settings = Object.entries(exchange.genericParameters(['operation']));
    if (settings.length === 0) throw new BadRequestError('operation=set needs a <property>=<value> parameter (e.g. base-iri=<iri>)');
    const changed = await exchange.withDataStoreConnection(name, async (c) => {
      let any = false;
      for (const [property, value] of settings) if (await c.setDataStoreProperty(property, value)) any = true;
      return any;
    });
    if (exchange.variant === 'B') await exchange.sendChanged(changed);
    else exchange.sendStatus(204);
    return;
  }
  const run = Object.hasOwn(OPERATIONS, operation) ? OPERATIONS[operation] : undefined;
  if (!run) throw new BadRequestError(`unknown data store operation '${operation}' (one of ${known.join(', ')})`);
  await exchange.withDataStoreConnection(name, run);
  exchange.sendStatus(204);
}
