/**
 * `/datastores/<ds>/sparql`: the W3C SPARQL 1.1 Protocol (see sparql-request.ts for how a
 * request carries its operation).
 *
 * A query's answer is streamed in the format the Accept header chooses: SELECT among the SPARQL
 * answer formats (text/csv when Accept is absent or `*\/*`), ASK among those that can hold a
 * boolean (application/sparql-results+json by default, since CSV and TSV cannot), CONSTRUCT
 * and DESCRIBE among text/turtle (the default), application/n-triples, application/n-quads,
 * application/trig, application/ld+json and application/rdf+xml; 406 when Accept names none of
 * them. The form of the query is found before it is evaluated, from the keyword after its
 * prologue (a query may use the store's prefixes
 * undeclared).
 * The first 16 KiB of an answer are held back, so that a failure early in the evaluation (a
 * syntax error, a time limit, a cancelled request) still gets an error response; after that the
 * answer streams in large writes, pausing the evaluation while the client is slow to read. A successful update
 * answers 204. Syntax errors answer 400 with the parser's message. A query past its time
 * limit answers 409 (InterruptedError), past its memory limit 422 (MemoryLimitError), when
 * either happens before the answer starts streaming.
 * A SELECT query asked for with `Accept: text/event-stream` is answered live instead: its
 * whole answer, then its changes at every commit, as Server-Sent Events (see event-stream.ts).
 *
 * The plan of a query: with the parameter `explain=true` (as the shell's `query.explain`), a
 * query is answered by its plan as `text/plain` (see {@link DataStoreConnection.explainQuery}:
 * its algebra, the join order of each basic graph pattern, the number of answers and the time
 * taken; the query is evaluated to find the orders, and its answers are not sent). An update
 * with `explain=true` is refused (400); `explain=false` is the usual request.
 * @module
 */
import { ANSWER_MEDIA_TYPES, BadRequestError, createTableWriter, JSON_LD, N_QUADS, N_TRIPLES, type QueryOptions, RDF_XML, sparqlOperationType, supportsBooleanAnswers, TRIG, TURTLE } from '../../index.js';
import type { Exchange, Handler } from '../exchange.js';
import { acceptsEventStream, LAST_EVENT_ID_PARAMETER, resumeVersion, streamWatch } from '../event-stream.js';
import { negotiateOrThrow } from '../negotiation.js';
import { ResponseStream } from '../response-stream.js';
import { readSparqlRequest, type SparqlRequest } from '../sparql-request.js';

/** The formats of CONSTRUCT and DESCRIBE answers, the default first. */
const GRAPH_TYPES: readonly string[] = [TURTLE, N_TRIPLES, N_QUADS, TRIG, JSON_LD, RDF_XML];

/** The answer formats of ASK (those that can hold a boolean). */
const BOOLEAN_TYPES: readonly string[] = ANSWER_MEDIA_TYPES.filter((t) => supportsBooleanAnswers(t));

/** How much of an answer is held back before the response starts (characters). */
const HELD_BYTES = 16 * 1024;

/**
 * How much is held back for an HTTP/1.0 client: its answer has no chunked encoding, so once
 * started it ends with the connection, and a failure later on could look like a whole answer
 * to it; held back, an answer up to this size that fails is still an error response.
 */
const HELD_BYTES_HTTP_1_0 = 16 * 1024 * 1024;

/** The default format of ASK answers. */
const DEFAULT_BOOLEAN_TYPE = 'application/sparql-results+json';

/** The limits a request gives (`query-time-limit`, `query-memory-limit`) and its bound parameters, as options. */
function limitsOf(request: SparqlRequest): { timeLimitMs?: number; memoryLimitBytes?: number; bindings?: SparqlRequest['bindings'] & object } {
  return {
    ...(request.timeLimitMs !== undefined ? { timeLimitMs: request.timeLimitMs } : {}),
    ...(request.memoryLimitBytes !== undefined ? { memoryLimitBytes: request.memoryLimitBytes } : {}),
    ...(request.bindings !== undefined ? { bindings: request.bindings } : {}),
  };
}

/** The parameter that asks for a query's plan instead of its answer. */
export const EXPLAIN_PARAMETER = 'explain';

/** The media type of a query plan. */
const PLAN_TYPE = 'text/plain';

/**
 * Whether a request asks for the plan (`explain=true`); takes the parameter out of the
 * request's parameters, so that the protocol's reading of them does not see it.
 */
function takeExplain(exchange: Exchange): boolean {
  const values = exchange.params.getAll(EXPLAIN_PARAMETER);
  if (values.length === 0) return false;
  exchange.params.delete(EXPLAIN_PARAMETER);
  if (values.length > 1) throw new BadRequestError(`parameter '${EXPLAIN_PARAMETER}' is given ${values.length} times: a request carries one ${EXPLAIN_PARAMETER}`);
  const value = values[0]!;
  if (value !== 'true' && value !== 'false') throw new BadRequestError(`invalid value '${value}' for parameter '${EXPLAIN_PARAMETER}': true or false`);
  return value === 'true';
}

/** Serves `/datastores/<ds>/sparql`. */
export const handleSparql: Handler = async (exchange: Exchange, dataStore: string): Promise<void> => {
  const explain = takeExplain(exchange);
  const request = await readSparqlRequest(exchange);
  if (explain && request.kind === 'update') throw new BadRequestError(`'${EXPLAIN_PARAMETER}=true' gives the plan of a query; an update has none`);
  await exchange.withDataStoreConnection(dataStore, async (connection) => {
    const form = sparqlOperationType(request.text, request.kind);
    if (request.kind === 'update') {
      if (form !== 'UPDATE') throw new BadRequestError(`the 'update' parameter holds a ${form} query: send queries as 'query'`);
      await connection.evaluateUpdate(request.text, {
        ...(request.baseIRI !== undefined ? { baseIRI: request.baseIRI } : {}),
        ...(request.usingGraphs.length > 0 ? { usingGraphs: request.usingGraphs } : {}),
        ...(request.usingNamedGraphs.length > 0 ? { usingNamedGraphs: request.usingNamedGraphs } : {}),
        ...limitsOf(request),
      });
      exchange.sendStatus(204);
      return;
    }
    if (form === 'UPDATE') throw new BadRequestError("the 'query' parameter holds an update: send updates with POST as 'update' or as an application/sparql-update body");
    const accept = exchange.req.headers.accept;
    if (explain) {
      negotiateOrThrow(accept, [PLAN_TYPE], PLAN_TYPE);
      const plan = await connection.explainQuery(request.text, {
        ...(request.baseIRI !== undefined ? { baseIRI: request.baseIRI } : {}),
        ...(request.defaultGraphs.length > 0 ? { defaultGraphs: request.defaultGraphs } : {}),
        ...(request.namedGraphs.length > 0 ? { namedGraphs: request.namedGraphs } : {}),
        ...limitsOf(request),
      });
      const body = Buffer.from(plan, 'utf8');
      exchange.res.writeHead(200, { 'Content-Type': `${PLAN_TYPE}; charset=UTF-8`, 'Content-Length': String(body.length), Vary: 'Accept' });
      exchange.res.end(body);
      return;
    }
    if (form === 'SELECT' && acceptsEventStream(accept)) {
      // a live answer: the query is watched (registered for this stream alone) until the client goes
      if (request.defaultGraphs.length > 0 || request.namedGraphs.length > 0) throw new BadRequestError('a live answer (text/event-stream) takes no default-graph-uri or named-graph-uri: write FROM / FROM NAMED in the query');
      const after = resumeVersion(exchange.req.headers['last-event-id'], exchange.params.get(LAST_EVENT_ID_PARAMETER));
      const watch = connection.watch(request.text, {
        ...(after !== undefined ? { after } : {}),
        ...(request.baseIRI !== undefined ? { query: { baseIRI: request.baseIRI } } : {}),
      });
      await streamWatch(exchange.res, watch);
      return;
    }
    let mediaType: string;
    if (form === 'SELECT') mediaType = exchange.answerType();
    else if (form === 'ASK') mediaType = negotiateOrThrow(accept, BOOLEAN_TYPES, DEFAULT_BOOLEAN_TYPE);
    else mediaType = negotiateOrThrow(accept, GRAPH_TYPES, TURTLE);
    const options: QueryOptions = {
      ...(request.baseIRI !== undefined ? { baseIRI: request.baseIRI } : {}),
      ...(request.defaultGraphs.length > 0 ? { defaultGraphs: request.defaultGraphs } : {}),
      ...(request.namedGraphs.length > 0 ? { namedGraphs: request.namedGraphs } : {}),
      ...limitsOf(request),
    };
    const contentType = form === 'SELECT' || form === 'ASK' ? createTableWriter(mediaType, () => undefined).contentType : `${mediaType}; charset=UTF-8`;
    const res = exchange.res;
    // the first bytes are held back, so that an error early in the evaluation (a time limit, a
    // cancelled request) is still an error response; then the answer streams in large writes,
    // with backpressure. A failure after the start cuts the response short (see sendError).
    const stream = new ResponseStream(
      res,
      (body) => {
        const headers: Record<string, string> = { 'Content-Type': contentType, Vary: 'Accept' };
        if (body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(body));
        res.writeHead(200, headers);
      },
      exchange.req.httpVersion === '1.0' ? HELD_BYTES_HTTP_1_0 : HELD_BYTES,
    );
    // UTF-8 chunks go to the socket as they are (a TSV answer's are copied from the dictionary)
    await connection.evaluateQueryToBytes(request.text, mediaType, (chunk) => stream.write(chunk), options);
    stream.end();
  });
};
