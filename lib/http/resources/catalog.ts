/**
 * The catalogue of a data store: data sources (`/datasources…`), tuple tables
 * (`/tupletables…`) and statistics (`/stats…`), wired to the DataStoreConnection methods.
 *
 * Data source and tuple table changes are not transactional: they take effect at once and
 * fail (409) on a connection with an open transaction (the API enforces it). Creation answers
 * 201 with the `Location` of the new resource, deletion 204.
 *
 * Data source table samples (`.../tables/<table>/data`) take `limit` (a non-negative integer,
 * default {@link DEFAULT_SAMPLE_LIMIT}; the API caps it). Statistics: GET `/stats` lists
 * Name, Parameters; PUT `/stats` brings all statistics up to date, PUT `/stats/<name>` one of
 * them (204); GET `/stats/<name>` gives `Property`, `Value` (name and each parameter as
 * `parameters.<key>`).
 * @module
 */
import { BadRequestError, UnknownResourceError } from '../../index.js';
import { type Exchange, type Handler, integerTerm, iriTerm, resourcePath, stringTerm } from '../exchange.js';

/** Rows sampled from a data source table when `limit` is absent. */
export const DEFAULT_SAMPLE_LIMIT = 10;

function propertyValueRows(rows: ReadonlyArray<{ readonly property: string; readonly value: string }>): ReturnType<typeof stringTerm>[][] {
  return rows.map((r) => [stringTerm(r.property), stringTerm(r.value)]);
}

/** Serves `/datastores/<ds>/datasources`: GET Name, Type, Parameters, NumberOfTables. */
export const handleDataSources: Handler = async (exchange: Exchange, dataStore: string): Promise<void> => {
  const rows = await exchange.withDataStoreConnection(dataStore, (c) => c.listDataSources());
  await exchange.sendTable(
    ['Name', 'Type', 'Parameters', 'NumberOfTables'],
    rows.map((r) => [stringTerm(r.name), stringTerm(r.type), stringTerm(r.parameters), integerTerm(r.numberOfTables)]),
  );
};

/** Serves `/datastores/<ds>/datasources/<name>`: GET (Property, Value), POST (register), DELETE. */
export const handleDataSource: Handler = async (exchange: Exchange, dataStore: string, name: string): Promise<void> => {
  switch (exchange.method) {
    case 'GET': {
      const rows = await exchange.withDataStoreConnection(dataStore, (c) => c.describeDataSource(name));
      await exchange.sendTable(['Property', 'Value'], propertyValueRows(rows));
      return;
    }
    case 'POST': {
      const type = exchange.params.get('type');
      if (type === null || type === '') throw new BadRequestError("parameter 'type' is required to register a data source (e.g. type=DelimitedFile)");
      const parameters = exchange.genericParameters(['type']);
      await exchange.withDataStoreConnection(dataStore, (c) => c.registerDataSource(name, type, parameters));
      exchange.sendStatus(201, { Location: resourcePath('datastores', dataStore, 'datasources', name) });
      return;
    }
    default:
      await exchange.withDataStoreConnection(dataStore, (c) => c.deregisterDataSource(name));
      exchange.sendStatus(204);
  }
};

/** Serves `.../datasources/<name>/tables`: GET Name, NumberOfColumns, Columns. */
export const handleDataSourceTables: Handler = async (exchange: Exchange, dataStore: string, source: string): Promise<void> => {
  const rows = await exchange.withDataStoreConnection(dataStore, (c) => c.listDataSourceTables(source));
  await exchange.sendTable(
    ['Name', 'NumberOfColumns', 'Columns'],
    rows.map((r) => [stringTerm(r.name), integerTerm(r.numberOfColumns), stringTerm(r.columns)]),
  );
};

/** Serves `.../tables/<table>`: GET Column, Name, Datatype. */
export const handleDataSourceTable: Handler = async (exchange: Exchange, dataStore: string, source: string, table: string): Promise<void> => {
  const rows = await exchange.withDataStoreConnection(dataStore, (c) => c.describeDataSourceTable(source, table));
  await exchange.sendTable(
    ['Column', 'Name', 'Datatype'],
    rows.map((r) => [integerTerm(r.column), stringTerm(r.name), /^[a-z][a-z0-9+.-]*:/i.test(r.datatype) ? iriTerm(r.datatype) : stringTerm(r.datatype)]),
  );
};

/** Serves `.../tables/<table>/data?limit=<n>`: one column per table column. */
export const handleDataSourceTableData: Handler = async (exchange: Exchange, dataStore: string, source: string, table: string): Promise<void> => {
  const text = exchange.params.get('limit');
  if (text !== null && !/^\d+$/.test(text)) throw new BadRequestError(`invalid limit '${text}' (expected a non-negative integer)`);
  const limit = text === null ? DEFAULT_SAMPLE_LIMIT : Number(text);
  const sample = await exchange.withDataStoreConnection(dataStore, (c) => c.getDataSourceTableData(source, table, limit));
  await exchange.sendTable(sample.variables, sample.rows);
};

/** Serves `/datastores/<ds>/tupletables`: GET Name, Type, ID, MinArity, MaxArity. */
export const handleTupleTables: Handler = async (exchange: Exchange, dataStore: string): Promise<void> => {
  const rows = await exchange.withDataStoreConnection(dataStore, (c) => c.listTupleTables());
  await exchange.sendTable(
    ['Name', 'Type', 'ID', 'MinArity', 'MaxArity'],
    rows.map((r) => [stringTerm(r.name), stringTerm(r.type), integerTerm(r.id), integerTerm(r.minArity), integerTerm(r.maxArity)]),
  );
};

/** Serves `/datastores/<ds>/tupletables/<name>`: GET (Property, Value), POST (create), DELETE. */
export const handleTupleTable: Handler = async (exchange: Exchange, dataStore: string, name: string): Promise<void> => {
  switch (exchange.method) {
    case 'GET': {
      const rows = await exchange.withDataStoreConnection(dataStore, (c) => c.describeTupleTable(name));
      await exchange.sendTable(['Property', 'Value'], propertyValueRows(rows));
      return;
    }
    case 'POST': {
      const parameters = exchange.genericParameters([]);
      await exchange.withDataStoreConnection(dataStore, (c) => c.createTupleTable(name, parameters));
      exchange.sendStatus(201, { Location: resourcePath('datastores', dataStore, 'tupletables', name) });
      return;
    }
    default:
      await exchange.withDataStoreConnection(dataStore, (c) => c.deleteTupleTable(name));
      exchange.sendStatus(204);
  }
};

/** Serves `/datastores/<ds>/stats`: GET Name, Parameters; PUT updates every statistics object. */
export const handleStatistics: Handler = async (exchange: Exchange, dataStore: string): Promise<void> => {
  if (exchange.method === 'PUT') {
    await exchange.withDataStoreConnection(dataStore, (c) => c.updateStatistics());
    exchange.sendStatus(204);
    return;
  }
  const rows = await exchange.withDataStoreConnection(dataStore, (c) => c.listStatistics());
  await exchange.sendTable(['Name', 'Parameters'], rows.map((r) => [stringTerm(r.name), stringTerm(r.parameters)]));
};

/** Serves `/datastores/<ds>/stats/<name>`: GET, PUT (update), POST (create), DELETE. */
export const handleStatistic: Handler = async (exchange: Exchange, dataStore: string, name: string): Promise<void> => {
  switch (exchange.method) {
    case 'GET': {
      const rows = await exchange.withDataStoreConnection(dataStore, (c) => c.listStatistics());
      const found = rows.find((r) => r.name === name);
      if (!found) throw new UnknownResourceError(`statistics '${name}' do not exist`);
      const properties = [{ property: 'name', value: found.name }, ...[...new URLSearchParams(found.parameters)].map(([k, v]) => ({ property: `parameters.${k}`, value: v }))];
      await exchange.sendTable(['Property', 'Value'], propertyValueRows(properties));
      return;
    }
    case 'PUT':
      await exchange.withDataStoreConnection(dataStore, (c) => c.updateStatistics(name));
      exchange.sendStatus(204);
      return;
    case 'POST': {
      const parameters = exchange.genericParameters([]);
      await exchange.withDataStoreConnection(dataStore, (c) => c.createStatistics(name, parameters));
      exchange.sendStatus(201, { Location: resourcePath('datastores', dataStore, 'stats', name) });
      return;
    }
    default:
      await exchange.withDataStoreConnection(dataStore, (c) => c.deleteStatistics(name));
      exchange.sendStatus(204);
  }
};
