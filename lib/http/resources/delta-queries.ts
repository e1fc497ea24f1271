/**
 * Delta queries over HTTP (RDFox's `/deltaqueries` and `/deltaqueryanswers`), wired to the
 * DataStoreConnection methods, and their live answers as Server-Sent Events.
 *
 * - `GET /datastores/<ds>/deltaqueries`: Name, Query, Computation, Version (all but Name
 *   unbound for a query the role may not read).
 * - `POST /datastores/<ds>/deltaqueries/<name>`: registers the SELECT query sent as an
 *   `application/sparql-query` body or as the `query` parameter, with the parameters
 *   `format-name`, `evaluation-mode` (`delta` | `snapshot`), `fact-domain`,
 *   `snapshots-max-size`, `additions-max-size`, `deletions-max-size` and `base`; 201 with its
 *   `Location`.
 * - `GET /datastores/<ds>/deltaqueries/<name>`: Property, Value; with
 *   `Accept: text/event-stream`, the query's live answer (see event-stream.ts).
 * - `DELETE /datastores/<ds>/deltaqueries/<name>`: deregisters it (204).
 * - `GET /datastores/<ds>/deltaqueryanswers[/<name>]`: the kept answers, QueryName, Version,
 *   Type (`additions`, `deletions`, `snapshot`), NumberOfAnswers, oldest first.
 * - `GET /datastores/<ds>/deltaqueryanswers/<name>/<version>/<type>`: one kept answer's rows,
 *   in the query's `format-name` when Accept is absent or `*\/*`, else in the answer format
 *   Accept chooses.
 *
 * Unknown query 404, duplicate name 409, bad parameter 400, missing privilege 403.
 * @module
 */
import type * as RDF from '@rdfjs/types/data-model.js';
import { AccessDeniedError, ANSWER_MEDIA_TYPES, BadRequestError, createTableWriter, type DeltaQueryDescription, type DeltaQueryOptions, UnknownResourceError } from '../../index.js';
import { acceptsEventStream, LAST_EVENT_ID_PARAMETER, resumeVersion, streamWatch } from '../event-stream.js';
import { type Exchange, type Handler, httpExchange, integerTerm, resourcePath, stringTerm, valueTerm } from '../exchange.js';
import { negotiateOrThrow, SPARQL_QUERY_TYPE } from '../negotiation.js';

/** The largest query text a registration reads from its body (bytes). */
const MAX_QUERY_BYTES = 1024 * 1024;

/** The registration parameters and the option each sets (sizes are integers). */
const REGISTRATION_PARAMETERS: Readonly<Record<string, keyof DeltaQueryOptions>> = {
  'format-name': 'formatName',
  'evaluation-mode': 'evaluationMode',
  'fact-domain': 'factDomain',
  'snapshots-max-size': 'snapshotsMaxSize',
  'additions-max-size': 'additionsMaxSize',
  'deletions-max-size': 'deletionsMaxSize',
  base: 'baseIRI',
};

const SIZE_OPTIONS: ReadonlySet<string> = new Set(['snapshotsMaxSize', 'additionsMaxSize', 'deletionsMaxSize']);

/** The types of kept answers. */
const ANSWER_TYPES: readonly string[] = ['additions', 'deletions', 'snapshot'];

/** The options of a registration from its parameters. */
function registrationOptions(exchange: Exchange): DeltaQueryOptions {
  const options: Record<string, string | number> = {};
  for (const [key, value] of exchange.params) {
    if (key === 'query' || key === 'connection') continue;
    const option = Object.hasOwn(REGISTRATION_PARAMETERS, key) ? REGISTRATION_PARAMETERS[key] : undefined;
    if (option === undefined) throw new BadRequestError(`unknown delta query parameter '${key}' (known: ${Object.keys(REGISTRATION_PARAMETERS).join(', ')}, query)`);
    if (SIZE_OPTIONS.has(option)) {
      if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value))) throw new BadRequestError(`invalid ${key} '${value}': a non-negative integer is required`);
      options[option] = Number(value);
    } else options[option] = value;
  }
  return options;
}

/** The text of a registration: an application/sparql-query body, or the `query` parameter. */
async function registrationText(exchange: Exchange): Promise<string> {
  const parameter = exchange.params.get('query');
  const ex = httpExchange(exchange);
  if (ex.contentType === SPARQL_QUERY_TYPE) {
    if (parameter !== null) throw new BadRequestError("the query is given twice: as an application/sparql-query body and as the 'query' parameter");
    const text = await ex.readText(MAX_QUERY_BYTES);
    if (text.trim() === '') throw new BadRequestError('the application/sparql-query body is empty: send the SELECT query of the delta query');
    return text;
  }
  if (parameter === null || parameter.trim() === '') throw new BadRequestError("a delta query needs its SELECT query: as an application/sparql-query body or as the 'query' parameter");
  return parameter;
}

/** The Property/Value rows of a description. */
function descriptionRows(d: DeltaQueryDescription): RDF.Term[][] {
  const rows: Array<[string, string | number | undefined]> = [
    ['name', d.name],
    ['query', d.query],
    ['role', d.role],
    ['variables', d.variables.join(' ')],
    ['computation', d.computation],
    ['rerun-reason', d.rerunReason],
    ['fact-domain', d.factDomain],
    ['evaluation-mode', d.evaluationMode],
    ['format-name', d.formatName],
    ['snapshots-max-size', d.snapshotsMaxSize],
    ['additions-max-size', d.additionsMaxSize],
    ['deletions-max-size', d.deletionsMaxSize],
    ['registered-at', d.registeredAt],
    ['version', d.version],
    ['error', d.error],
  ];
  return rows.filter((r): r is [string, string | number] => r[1] !== undefined).map(([p, v]) => [stringTerm(p), valueTerm(v)]);
}

/** Serves `/datastores/<ds>/deltaqueries`: GET Name, Query, Computation, Version. */
export const handleDeltaQueries: Handler = async (exchange: Exchange, dataStore: string): Promise<void> => {
  const rows = await exchange.withDataStoreConnection(dataStore, async (c) => {
    const names = await c.listDeltaQueries();
    const listed: Array<Array<RDF.Term | undefined>> = [];
    for (const name of names) {
      let d: DeltaQueryDescription | undefined;
      try {
        d = await c.describeDeltaQuery(name);
      } catch (e) {
        // deregistered meanwhile, or not readable by this role: the name alone
        if (!(e instanceof AccessDeniedError) && !(e instanceof UnknownResourceError)) throw e;
      }
      listed.push([stringTerm(name), d && stringTerm(d.query), d && stringTerm(d.computation), d?.version === undefined ? undefined : integerTerm(d.version)]);
    }
    return listed;
  });
  await exchange.sendTable(['Name', 'Query', 'Computation', 'Version'], rows);
};

/** Serves `/datastores/<ds>/deltaqueries/<name>`: GET (Property, Value, or Server-Sent Events), POST (register), DELETE. */
export const handleDeltaQuery: Handler = async (exchange: Exchange, dataStore: string, name: string): Promise<void> => {
  switch (exchange.method) {
    case 'GET': {
      if (acceptsEventStream(exchange.req.headers.accept)) {
        const after = resumeVersion(exchange.req.headers['last-event-id'], exchange.params.get(LAST_EVENT_ID_PARAMETER));
        await exchange.withDataStoreConnection(dataStore, async (c) => {
          await c.describeDeltaQuery(name); // 404 for an unknown query, 403 without read on it
          await streamWatch(exchange.res, c.watch(name, after !== undefined ? { after } : {}));
        });
        return;
      }
      const d = await exchange.withDataStoreConnection(dataStore, (c) => c.describeDeltaQuery(name));
      await exchange.sendTable(['Property', 'Value'], descriptionRows(d));
      return;
    }
    case 'POST': {
      const text = await registrationText(exchange);
      const options = registrationOptions(exchange);
      await exchange.withDataStoreConnection(dataStore, (c) => c.registerDeltaQuery(name, text, options));
      exchange.sendStatus(201, { Location: resourcePath('datastores', dataStore, 'deltaqueries', name) });
      return;
    }
    default:
      await exchange.withDataStoreConnection(dataStore, (c) => c.deregisterDeltaQuery(name));
      exchange.sendStatus(204);
  }
};

/** The listing rows of one query's kept answers. */
function answerRows(name: string, answers: ReadonlyArray<{ readonly version: number; readonly type: string; readonly rows: readonly unknown[] }>): RDF.Term[][] {
  return answers.map((a) => [stringTerm(name), integerTerm(a.version), stringTerm(a.type), integerTerm(a.rows.length)]);
}

const ANSWER_COLUMNS = ['QueryName', 'Version', 'Type', 'NumberOfAnswers'];

/** Serves `/datastores/<ds>/deltaqueryanswers`: GET the kept answers of every query the role may read. */
export const handleDeltaQueryAnswerList: Handler = async (exchange: Exchange, dataStore: string): Promise<void> => {
  const rows = await exchange.withDataStoreConnection(dataStore, async (c) => {
    const all: RDF.Term[][] = [];
    for (const name of await c.listDeltaQueries()) {
      try {
        all.push(...answerRows(name, await c.getDeltaQueryAnswers(name)));
      } catch (e) {
        if (!(e instanceof AccessDeniedError) && !(e instanceof UnknownResourceError)) throw e;
      }
    }
    return all;
  });
  await exchange.sendTable(ANSWER_COLUMNS, rows);
};

/** Serves `/datastores/<ds>/deltaqueryanswers/<name>`: GET the query's kept answers. */
export const handleDeltaQueryAnswers: Handler = async (exchange: Exchange, dataStore: string, name: string): Promise<void> => {
  const answers = await exchange.withDataStoreConnection(dataStore, (c) => c.getDeltaQueryAnswers(name));
  await exchange.sendTable(ANSWER_COLUMNS, answerRows(name, answers));
};

/** Serves `/datastores/<ds>/deltaqueryanswers/<name>/<version>/<type>`: GET one kept answer's rows. */
export const handleDeltaQueryAnswer: Handler = async (exchange: Exchange, dataStore: string, name: string, versionText: string, type: string): Promise<void> => {
  if (!/^\d+$/.test(versionText)) throw new BadRequestError(`invalid version '${versionText}': a non-negative integer is required`);
  if (!ANSWER_TYPES.includes(type)) throw new BadRequestError(`invalid answer type '${type}' (expected ${ANSWER_TYPES.join(', ')})`);
  const version = Number(versionText);
  const { description, answer } = await exchange.withDataStoreConnection(dataStore, async (c) => {
    const answers = await c.getDeltaQueryAnswers(name);
    return { description: await c.describeDeltaQuery(name), answer: answers.find((a) => a.version === version && a.type === type) };
  });
  if (!answer) throw new UnknownResourceError(`delta query '${name}' keeps no ${type} at version ${version}`);
  const mediaType = negotiateOrThrow(exchange.req.headers.accept, ANSWER_MEDIA_TYPES, description.formatName);
  let body = '';
  const writer = createTableWriter(mediaType, (chunk) => {
    body += chunk;
  });
  writer.begin(description.variables);
  for (const row of answer.rows) writer.row(row);
  writer.end();
  exchange.res.writeHead(200, { 'Content-Type': writer.contentType, 'Content-Length': String(Buffer.byteLength(body)), Vary: 'Accept' });
  exchange.res.end(body);
};
