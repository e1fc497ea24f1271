/**
 * `/datastores/<ds>/content`: the whole content of a data store (the graph store protocol
 * over every graph, plus rules and axioms). Its `default` and `graph` parameters are ignored.
 *
 * - GET exports in the format Accept chooses: text/turtle (the default), application/n-triples,
 *   application/n-quads, application/trig, application/ld+json or application/rdf+xml (the
 *   default graph only, as Turtle) with parameter `fact-domain` (default explicit),
 *   or application/x.datalog (the rules) with `rule-domain` (default user); 406 otherwise.
 *   The export is streamed to the response as the bytes the exporter writes (no string between).
 * - PATCH `operation=` add-content, add-content-update-prefixes, delete-content (parameter
 *   `default-graph`), add-axioms, delete-axioms (`source-graph`, `destination-graph`,
 *   `assertions`). POST adds its body like add-content (the graph store protocol's POST
 *   merges). PUT clears every fact, rule and axiom and adds its body, in one transaction: when
 *   the body has an error nothing changes (inside a transaction the client opened, that
 *   transaction is rolled back, since the clearing cannot be undone alone). DELETE clears
 *   every fact, rule and axiom (204).
 *
 * Bodies are streamed into the import as they arrive (see content-body.ts); answers are the
 * import's notifications (see content-notifications.ts). Statuses of updates follow RDFox's
 * documentation of its content API: a successful add-content answers **200 with the summary**
 * (the information rows are always reported, so an addition always has something to report);
 * delete-content answers 200 with the summary in variant B and 204 in variant A; PUT answers
 * 204; in each case 400 with the rows when the input had an error, and 200 with the rows when
 * a 204 operation had warnings. The axiom operations answer 200 with #processed-axioms and
 * #changed-axioms.
 * @module
 */
import { BadRequestError, DATALOG, type DataStoreConnection, type ImportResult, N_QUADS, N_TRIPLES, TRIG, TURTLE, type UpdateType } from '../../index.js';
import { statusOf } from '../errors.js';
import type { Exchange, Handler } from '../exchange.js';
import { negotiateOrThrow } from '../negotiation.js';
import { ResponseStream } from '../response-stream.js';
import { contentBody, drainRequest, notifyImmediately, refuseForm } from './content-body.js';
import { type AnswerShape, NotificationAnswer, notificationMediaType } from './content-notifications.js';

/** Graph store protocol parameters that the whole-store content resource ignores. */
const IGNORED = ['default', 'graph'];

/** Export formats, the default first. */
const EXPORT_TYPES: readonly string[] = [TURTLE, N_TRIPLES, N_QUADS, TRIG, 'application/ld+json', 'application/rdf+xml', DATALOG];

/** The content updates of PATCH and the import update type of each. */
const CONTENT_OPERATIONS: Readonly<Record<string, UpdateType>> = {
  'add-content': 'ADD',
  'add-content-update-prefixes': 'ADDITION_UPDATE_PREFIXES',
  'delete-content': 'DELETE',
};

const AXIOM_OPERATIONS: readonly string[] = ['add-axioms', 'delete-axioms'];

/** Serves `/datastores/<ds>/content`. */
export const handleContent: Handler = async (exchange: Exchange, dataStore: string): Promise<void> => {
  switch (exchange.method) {
    case 'GET':
      return exportContent(exchange, dataStore);
    case 'PATCH':
      return withBody(exchange, () => patchContent(exchange, dataStore));
    case 'POST':
      return withBody(exchange, () => updateContent(exchange, dataStore, 'ADD', 'summary', 'POST'));
    case 'PUT':
      return withBody(exchange, () => replaceContent(exchange, dataStore));
    case 'DELETE':
      parametersOf(exchange, [], 'DELETE');
      return exchange.withDataStoreConnection(dataStore, async (connection) => {
        await connection.clear();
        exchange.sendStatus(204);
      });
    default:
      throw new BadRequestError(`method ${exchange.method} is not supported on the content of a data store`);
  }
};

/**
 * Runs a request that may carry a body; when it fails, the body is read to its end before the
 * error is answered (see {@link drainRequest}), unless it is too large: that answer goes out at
 * once, and the router drops the rest of the body (`unread-body.ts`).
 */
async function withBody(exchange: Exchange, serve: () => Promise<void>): Promise<void> {
  try {
    await serve();
  } catch (e) {
    if (statusOf(e) !== 413) await drainRequest(exchange.req);
    throw e;
  }
}

/**
 * The parameters of a request other than `operation`, `connection`, `filter` and the ignored
 * graph store protocol ones, checked against those allowed.
 * @throws BadRequestError naming a parameter that is not allowed.
 */
function parametersOf(exchange: Exchange, allowed: readonly string[], what: string): Record<string, string> {
  const parameters = exchange.genericParameters(['operation', ...IGNORED]);
  for (const key of Object.keys(parameters)) {
    if (!allowed.includes(key)) {
      throw new BadRequestError(`unknown parameter '${key}' for ${what}${allowed.length > 0 ? ` (allowed: ${allowed.join(', ')})` : ' (it takes none)'}`);
    }
  }
  return parameters;
}

/** GET: streams the content in the negotiated format. */
async function exportContent(exchange: Exchange, dataStore: string): Promise<void> {
  const mediaType = negotiateOrThrow(exchange.req.headers.accept, EXPORT_TYPES, TURTLE);
  const parameters = exchange.genericParameters(IGNORED);
  const res = exchange.res;
  const stream = new ResponseStream(res, () => res.writeHead(200, { 'Content-Type': `${mediaType}; charset=UTF-8` }), 0);
  // the export's UTF-8 chunks go to the socket as they are, without a string between
  await exchange.withDataStoreConnection(dataStore, (connection) => connection.exportDataAsBytes((chunk) => stream.write(chunk), mediaType, parameters));
  stream.end();
}

/** PATCH: the operation named by `operation`. */
async function patchContent(exchange: Exchange, dataStore: string): Promise<void> {
  const operation = exchange.params.get('operation');
  if (operation === null || operation === '') {
    throw new BadRequestError(`parameter 'operation' is required (one of ${[...Object.keys(CONTENT_OPERATIONS), ...AXIOM_OPERATIONS].join(', ')})`);
  }
  const updateType = CONTENT_OPERATIONS[operation];
  if (updateType !== undefined) {
    const shape: AnswerShape = updateType === 'DELETE' && exchange.variant === 'A' ? 'quiet' : 'summary';
    return updateContent(exchange, dataStore, updateType, shape, `operation ${operation}`);
  }
  if (AXIOM_OPERATIONS.includes(operation)) return updateAxioms(exchange, dataStore, operation === 'delete-axioms' ? 'DELETE' : 'ADD');
  throw new BadRequestError(`unknown content operation '${operation}' (expected one of ${[...Object.keys(CONTENT_OPERATIONS), ...AXIOM_OPERATIONS].join(', ')})`);
}

/**
 * Imports the request's content and answers with its notifications. `run` performs the
 * import in the request's connection, given the import call itself.
 */
async function importBody(
  exchange: Exchange,
  dataStore: string,
  updateType: UpdateType,
  shape: AnswerShape,
  what: string,
  run: (connection: DataStoreConnection, importData: () => Promise<ImportResult>) => Promise<ImportResult>,
): Promise<void> {
  refuseForm(exchange);
  const parameters = parametersOf(exchange, ['default-graph'], what);
  const answer = new NotificationAnswer(exchange.res, notificationMediaType(exchange.req.headers.accept), notifyImmediately(exchange.req));
  const body = await contentBody(exchange);
  let outcome: { readonly result: ImportResult } | { readonly error: unknown };
  try {
    // a failed import is answered with its rows (400), not as an error
    const options = { mediaType: body.mediaType, defaultGraph: parameters['default-graph'], onNotification: answer.onNotification, rejectOnError: false };
    outcome = { result: await exchange.withDataStoreConnection(dataStore, (connection) => run(connection, () => connection.importData(updateType, body.source, options))) };
  } catch (e) {
    outcome = { error: e };
  }
  // whatever the import did not read is read and dropped before the answer ends; a body over
  // the limit is answered at once (the router drops the rest, see unread-body.ts)
  body.stream?.discardRest();
  if ('error' in outcome && statusOf(outcome.error) === 413 && !answer.started) throw outcome.error;
  await drainRequest(exchange.req);
  if ('result' in outcome) answer.finish(outcome.result, shape);
  else if (!answer.abort(outcome.error)) throw outcome.error;
}

/** PATCH add-content, add-content-update-prefixes, delete-content, and POST: one import, its own transaction. */
function updateContent(exchange: Exchange, dataStore: string, updateType: UpdateType, shape: AnswerShape, what: string): Promise<void> {
  return importBody(exchange, dataStore, updateType, shape, what, (_connection, importData) => importData());
}

/**
 * PUT: clears every fact, rule and axiom, then adds the body, in one transaction (the
 * connection's open read/write transaction, or one begun for the request): when the import
 * fails, the transaction is rolled back and nothing changes.
 */
function replaceContent(exchange: Exchange, dataStore: string): Promise<void> {
  return importBody(exchange, dataStore, 'ADD', 'quiet', 'PUT', async (connection, importData) => {
    const own = connection.transactionType === undefined;
    if (own) await connection.beginTransaction('read-write');
    let result: ImportResult;
    try {
      await connection.clear();
      result = await importData();
      if (result.errors > 0) await connection.rollbackTransaction();
      // (a commit refused for constraint violations leaves the transaction open: it is rolled back below)
      else if (own) await connection.commitTransaction();
    } catch (e) {
      if (connection.transactionType !== undefined) await connection.rollbackTransaction();
      throw e;
    }
    return result;
  });
}

/** PATCH add-axioms and delete-axioms: axioms from the triples of a graph. */
async function updateAxioms(exchange: Exchange, dataStore: string, updateType: 'ADD' | 'DELETE'): Promise<void> {
  const operation = updateType === 'ADD' ? 'add-axioms' : 'delete-axioms';
  const parameters = parametersOf(exchange, ['source-graph', 'destination-graph', 'assertions'], `operation ${operation}`);
  const assertions = parameters['assertions'];
  if (assertions !== undefined && assertions !== 'true' && assertions !== 'false') {
    throw new BadRequestError(`invalid value '${assertions}' of parameter 'assertions' (expected true or false)`);
  }
  const answer = new NotificationAnswer(exchange.res, notificationMediaType(exchange.req.headers.accept), false);
  const graph = (name: string): string | undefined => (parameters[name] === undefined || parameters[name] === '' ? undefined : parameters[name]);
  const result = await exchange.withDataStoreConnection(dataStore, (connection) =>
    connection.importAxiomsFromTriples(graph('source-graph'), assertions === 'true', graph('destination-graph'), updateType, { rejectOnError: false }),
  );
  answer.finish(result, 'axioms');
}
