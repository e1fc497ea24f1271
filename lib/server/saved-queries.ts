/**
 * Saved queries: SPARQL texts a store keeps under a name, shared with every role that may read
 * the store. They live in the store's catalogue (`storage/catalogue.ts`), so they are changed
 * in write transactions, persisted with the catalogue (server directory and PostgreSQL) and
 * reach replicas like the prefixes do. This module checks names and texts and edits the
 * catalogue's map.
 * @module
 */
import { BadRequestError, QueryCompilationError, UnknownResourceError } from '../model/errors.js';
import type { Catalogue, SavedQuery } from '../storage/catalogue.js';
import type { Interrupter } from '../model/control.js';
import { compileQueryOffThread, parseUpdateOffThread } from '../sparql/parse-off-thread.js';

export type { SavedQuery } from '../storage/catalogue.js';

/** The longest name of a saved query, in characters. */
export const MAX_SAVED_QUERY_NAME = 100;

/** The longest text of a saved query, in characters. */
export const MAX_SAVED_QUERY_TEXT = 1_000_000;

/** Letters, digits, and inside a name also spaces and `_ - . ( ) , : @ + #`; a name starts and ends with a letter or digit. */
const NAME = /^[\p{L}\p{N}](?:[\p{L}\p{N} _\-.(),:@+#]*[\p{L}\p{N})])?$/u;

/**
 * Checks the name of a saved query.
 * @throws BadRequestError saying what a name may hold.
 */
export function checkSavedQueryName(name: string): void {
  if (typeof name !== 'string' || name === '') throw new BadRequestError('the name of a saved query must not be empty');
  if (name.length > MAX_SAVED_QUERY_NAME) throw new BadRequestError(`the name of a saved query may have at most ${MAX_SAVED_QUERY_NAME} characters (got ${name.length})`);
  if (!NAME.test(name)) {
    throw new BadRequestError(`invalid saved query name ${JSON.stringify(name)}: use letters, digits, spaces and _ - . ( ) , : @ + #, starting with a letter or digit and ending with a letter, digit or ')'`);
  }
}

/**
 * Checks that a text parses as a SPARQL query or update with the catalogue's prefixes and
 * base IRI (a long text on the parsing thread, as queries are).
 * @throws QueryCompilationError with the line and column of the syntax error (of the query
 * reading, unless the text is an update), BadRequestError for an empty or too long text.
 */
export async function checkSavedQueryText(text: string, catalogue: Catalogue, interrupter: Interrupter): Promise<void> {
  if (typeof text !== 'string' || text.trim() === '') throw new BadRequestError('the text of a saved query must not be empty');
  if (text.length > MAX_SAVED_QUERY_TEXT) throw new BadRequestError(`the text of a saved query may have at most ${MAX_SAVED_QUERY_TEXT} characters (got ${text.length})`);
  const prefixes = catalogue.prefixes;
  const stop = { interrupter, deadline: Infinity };
  try {
    await compileQueryOffThread(text, prefixes, catalogue.baseIRI, stop);
  } catch (e) {
    // an update is saved too; any other failure is the query's syntax error
    if (!(e instanceof QueryCompilationError) || !/found an update/.test(e.message)) throw e;
    await parseUpdateOffThread(text, prefixes, catalogue.baseIRI, undefined, stop);
  }
}

/** The saved queries of a catalogue, by name (in code-point order). */
export function savedQueriesOf(catalogue: Catalogue): SavedQuery[] {
  return [...catalogue.savedQueries.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * The saved query `name` of a catalogue.
 * @throws UnknownResourceError when there is none.
 */
export function savedQueryOf(catalogue: Catalogue, name: string): SavedQuery {
  const query = catalogue.savedQueries.get(name);
  if (query === undefined) throw new UnknownResourceError(`saved query ${JSON.stringify(name)} does not exist`);
  return query;
}

/**
 * The catalogue with `text` saved under `name` by `role` at `at` (replacing a query of that
 * name), and whether the name was new. Checks the name and the text first.
 */
export async function withSavedQuery(catalogue: Catalogue, name: string, text: string, role: string, at: Date, interrupter: Interrupter): Promise<{ catalogue: Catalogue; created: boolean }> {
  checkSavedQueryName(name);
  await checkSavedQueryText(text, catalogue, interrupter);
  const before = catalogue.savedQueries.get(name);
  const query: SavedQuery = { name, text, savedBy: role, savedAt: at.toISOString() };
  return { catalogue: catalogue.set('savedQueries', catalogue.savedQueries.set(name, query)), created: before === undefined };
}

/**
 * The catalogue without the saved query `name`.
 * @throws UnknownResourceError when there is none.
 */
export function withoutSavedQuery(catalogue: Catalogue, name: string): Catalogue {
  savedQueryOf(catalogue, name);
  return catalogue.set('savedQueries', catalogue.savedQueries.delete(name));
}
