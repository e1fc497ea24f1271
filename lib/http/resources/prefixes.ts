/**
 * The prefixes of a data store (`/datastores/<name>/prefixes`):
 *
 * - GET: columns `PrefixName` (with its colon) and `PrefixIRI`;
 * - PUT: replaces all prefixes with those declared in the body, which holds prefix
 *   declarations only (Turtle/TriG/Datalog `@prefix p: <iri> .` or SPARQL-style
 *   `PREFIX p: <iri>`); a body holding facts, rules or anything else is a 400; 204;
 * - PATCH operation=set&prefix-name=<p:>&prefix-iri=<iri>: 200 with `Changed`;
 * - PATCH operation=unset&prefix-name=<p:>: 200 with `Changed`.
 * @module
 */
import { Parser } from 'n3';
import { BadRequestError, DATALOG, N_QUADS, N_TRIPLES, ParsingError, TRIG, TURTLE, unsupportedMediaTypeMessage } from '../../index.js';
import { UnsupportedMediaTypeError } from '../errors.js';
import { type Exchange, type Handler, httpExchange, iriTerm, stringTerm } from '../exchange.js';

/** Body media types PUT accepts (besides none). */
const PREFIX_BODY_TYPES: ReadonlySet<string> = new Set([TURTLE, TRIG, N_TRIPLES, N_QUADS, DATALOG, 'text/plain']);

/**
 * The prefixes declared in a text that must hold nothing but prefix declarations.
 * @throws ParsingError when the text has anything else, or is malformed.
 */
export function parsePrefixDeclarations(text: string): Map<string, string> {
  const prefixes = new Map<string, string>();
  let quads: unknown[];
  try {
    quads = new Parser({ format: 'application/trig' }).parse(text, null, (prefix, iri) => {
      prefixes.set(`${prefix}:`, iri.value);
    });
  } catch (e) {
    throw new ParsingError(`the body must hold prefix declarations only (@prefix p: <iri> . or PREFIX p: <iri>): ${(e as Error).message}`);
  }
  if (quads.length > 0) throw new ParsingError('the body must hold prefix declarations only: it also holds facts');
  return prefixes;
}

/** Serves `/datastores/<name>/prefixes`: GET, PUT, PATCH operation=set|unset. */
export const handlePrefixes: Handler = async (exchange: Exchange, dataStore: string): Promise<void> => {
  switch (exchange.method) {
    case 'GET': {
      const prefixes = await exchange.withDataStoreConnection(dataStore, (c) => c.getPrefixes());
      await exchange.sendTable(['PrefixName', 'PrefixIRI'], [...prefixes].map(([name, iri]) => [stringTerm(name), iriTerm(iri)]));
      return;
    }
    case 'PUT': {
      const ex = httpExchange(exchange);
      const type = ex.contentType;
      if (type !== '' && !PREFIX_BODY_TYPES.has(type)) {
        throw new UnsupportedMediaTypeError(`${unsupportedMediaTypeMessage(type, [...PREFIX_BODY_TYPES], 'a prefix body')}; a body without Content-Type is read as prefix declarations too`);
      }
      if (ex.bodyConsumed) throw new BadRequestError('PUT on prefixes takes the prefix declarations as the request body, not as a form');
      const prefixes = parsePrefixDeclarations(await ex.readText());
      await exchange.withDataStoreConnection(dataStore, (c) => c.setPrefixes(prefixes));
      exchange.sendStatus(204);
      return;
    }
    default: {
      const operation = exchange.params.get('operation');
      const name = exchange.params.get('prefix-name');
      if (operation !== 'set' && operation !== 'unset') {
        throw new BadRequestError(operation === null ? "parameter 'operation' is required (set or unset)" : `unknown prefix operation '${operation}' (set or unset)`);
      }
      if (name === null) throw new BadRequestError(`operation=${operation} needs parameter 'prefix-name' (e.g. prefix-name=ex:)`);
      if (operation === 'set') {
        const iri = exchange.params.get('prefix-iri');
        if (iri === null) throw new BadRequestError("operation=set needs parameter 'prefix-iri'");
        await exchange.sendChanged(await exchange.withDataStoreConnection(dataStore, (c) => c.setPrefix(name, iri)));
      } else {
        await exchange.sendChanged(await exchange.withDataStoreConnection(dataStore, (c) => c.unsetPrefix(name)));
      }
    }
  }
};
