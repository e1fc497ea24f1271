/**
 * Reading a request of the W3C SPARQL 1.1 Protocol: which operation it carries (a query or
 * an update), its text, and its dataset and base parameters.
 *
 * - GET: `query=` in the query string (an update over GET is refused).
 * - POST with an application/x-www-form-urlencoded body: `query=` or `update=` among the body's
 *   (and the query string's) parameters.
 * - POST with an application/sparql-query or application/sparql-update body: the body is the
 *   text (UTF-8; another charset is refused); the other parameters are in the query string.
 * - POST without a Content-Type and without a body: `query=` or `update=` in the query string.
 *
 * Exactly one query or one update per request; the query's dataset is given by
 * `default-graph-uri` and `named-graph-uri` (each may repeat), an update's by
 * `using-graph-uri` and `using-named-graph-uri`; `base` sets the base IRI.
 * `query-time-limit` (milliseconds) and `query-memory-limit` (bytes) set the limits of this
 * request's query or update; the server refuses values above its own unless it allows
 * overrides (see "Limits" in docs/sparql.md). `$name=<N-Triples term>` gives the variable
 * `?name` a value (bound-parameter-values.ts).
 * @module
 */
import type * as RDF from '@rdfjs/types/data-model.js';
import { BadRequestError, baseMediaType } from '../index.js';
import { boundParameterValues, isBoundParameter } from './bound-parameter-values.js';
import { UnsupportedMediaTypeError } from './errors.js';
import { httpExchange, type Exchange } from './exchange.js';
import { FORM_TYPE, SPARQL_QUERY_TYPE, SPARQL_UPDATE_TYPE } from './negotiation.js';

/** A request of the SPARQL protocol. */
export interface SparqlRequest {
  /** Whether the request carries a query or an update. */
  readonly kind: 'query' | 'update';
  /** The query or update text. */
  readonly text: string;
  /** `default-graph-uri` values (queries). */
  readonly defaultGraphs: readonly string[];
  /** `named-graph-uri` values (queries). */
  readonly namedGraphs: readonly string[];
  /** `using-graph-uri` values (updates). */
  readonly usingGraphs: readonly string[];
  /** `using-named-graph-uri` values (updates). */
  readonly usingNamedGraphs: readonly string[];
  /** `base`, if given. */
  readonly baseIRI: string | undefined;
  /** `query-time-limit` (milliseconds), if given. */
  readonly timeLimitMs: number | undefined;
  /** `query-memory-limit` (bytes), if given. */
  readonly memoryLimitBytes: number | undefined;
  /** The `$name` parameters: values of variables, if any are given. */
  readonly bindings: Record<string, RDF.Term> | undefined;
}

/** The parameters the SPARQL endpoint understands. */
const KNOWN = ['query', 'update', 'default-graph-uri', 'named-graph-uri', 'using-graph-uri', 'using-named-graph-uri', 'base', 'query-time-limit', 'query-memory-limit', 'explain'];

/** The value of a limit parameter (a positive integer), if given. */
function limit(params: URLSearchParams, name: string, unit: string): number | undefined {
  const value = single(params, name);
  if (value === undefined) return undefined;
  const n = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n) || n <= 0) throw new BadRequestError(`invalid value '${value}' for parameter '${name}': a positive integer (${unit})`);
  return n;
}

/** Refuses a charset other than UTF-8 in a Content-Type. */
function checkCharset(contentType: string): void {
  for (const parameter of contentType.split(';').slice(1)) {
    const eq = parameter.indexOf('=');
    if (eq < 0 || parameter.slice(0, eq).trim().toLowerCase() !== 'charset') continue;
    const charset = parameter.slice(eq + 1).trim().replace(/^"|"$/g, '').toLowerCase();
    if (charset !== 'utf-8' && charset !== 'utf8') throw new UnsupportedMediaTypeError(`the SPARQL text must be UTF-8 encoded, not ${charset}`);
  }
}

/** The single value of a parameter that may be given at most once. */
function single(params: URLSearchParams, name: string): string | undefined {
  const values = params.getAll(name);
  if (values.length > 1) throw new BadRequestError(`parameter '${name}' is given ${values.length} times: a request carries one ${name}`);
  return values[0];
}

/**
 * Reads the operation of a request to the SPARQL endpoint (reading a direct POST body).
 * @throws BadRequestError for a request with no operation, with both a query and an update,
 *   with several of either, an update over GET, dataset parameters of the other kind of
 *   operation, or an unknown parameter; UnsupportedMediaTypeError (415) for a POST body that is
 *   neither a form nor SPARQL, or that is not UTF-8.
 */
export async function readSparqlRequest(exchange: Exchange): Promise<SparqlRequest> {
  const params = exchange.params;
  for (const key of Object.keys(exchange.genericParameters(KNOWN))) {
    if (isBoundParameter(key)) continue;
    throw new BadRequestError(`unknown parameter '${key}' for the SPARQL endpoint (known: ${KNOWN.join(', ')})`);
  }
  let query = single(params, 'query');
  let update = single(params, 'update');
  if (exchange.method === 'POST' && !exchange.bodyConsumed) {
    const header = exchange.req.headers['content-type'] ?? '';
    const type = baseMediaType(header);
    if (type === SPARQL_QUERY_TYPE || type === SPARQL_UPDATE_TYPE) {
      checkCharset(header);
      if (query !== undefined || update !== undefined) {
        throw new BadRequestError(`a POST with a ${type} body must not also give 'query' or 'update' in the query string`);
      }
      const text = await httpExchange(exchange).readText();
      if (type === SPARQL_QUERY_TYPE) query = text;
      else update = text;
    } else {
      const body = await httpExchange(exchange).readBody();
      if (type !== '' || body.length > 0) {
        throw new UnsupportedMediaTypeError(
          `a POST to the SPARQL endpoint needs Content-Type ${FORM_TYPE}, ${SPARQL_QUERY_TYPE} or ${SPARQL_UPDATE_TYPE}${type === '' ? ' (the body has none)' : `, not ${type}`}`,
        );
      }
    }
  } else if (exchange.bodyConsumed) {
    checkCharset(exchange.req.headers['content-type'] ?? '');
  }
  if (query !== undefined && update !== undefined) throw new BadRequestError("a request carries either a query or an update, not both ('query' and 'update' are given)");
  if (query === undefined && update === undefined) throw new BadRequestError("the request has no 'query' or 'update' parameter");
  const kind = query !== undefined ? 'query' : 'update';
  if (kind === 'update' && exchange.method === 'GET') throw new BadRequestError('an update must be sent with POST, not GET');
  const defaultGraphs = params.getAll('default-graph-uri');
  const namedGraphs = params.getAll('named-graph-uri');
  const usingGraphs = params.getAll('using-graph-uri');
  const usingNamedGraphs = params.getAll('using-named-graph-uri');
  if (kind === 'query' && usingGraphs.length + usingNamedGraphs.length > 0) {
    throw new BadRequestError("using-graph-uri and using-named-graph-uri apply to updates; a query's dataset is given by default-graph-uri and named-graph-uri");
  }
  if (kind === 'update' && defaultGraphs.length + namedGraphs.length > 0) {
    throw new BadRequestError("default-graph-uri and named-graph-uri apply to queries; an update's dataset is given by using-graph-uri and using-named-graph-uri");
  }
  const base = single(params, 'base');
  const timeLimitMs = limit(params, 'query-time-limit', 'milliseconds');
  const memoryLimitBytes = limit(params, 'query-memory-limit', 'bytes');
  return {
    timeLimitMs,
    memoryLimitBytes,
    bindings: boundParameterValues(params),
    kind,
    text: (query ?? update)!,
    defaultGraphs,
    namedGraphs,
    usingGraphs,
    usingNamedGraphs,
    baseIRI: base === undefined || base === '' ? undefined : base,
  };
}
