/**
 * The demo data store `quadlog serve` creates: a small family graph with a few rules, so that
 * the first queries against a fresh endpoint show reasoning at work.
 * @module
 */
import type { ServerConnection } from '../index.js';

/** The name of the demo data store. */
export const DEMO_STORE = 'demo';

/** The demo store's prefix for its vocabulary and individuals. */
export const DEMO_PREFIX = 'http://example.com/family#';

const DATA = `
ex:alice a ex:Person ; ex:name "Alice" ; ex:parentOf ex:bob .
ex:bob a ex:Person ; ex:name "Bob" ; ex:parentOf ex:carol ; ex:marriedTo ex:dana .
ex:carol a ex:Person ; ex:name "Carol" .
ex:dana a ex:Person ; ex:name "Dana" .
`;

const RULES = `
[?x, ex:ancestorOf, ?y] :- [?x, ex:parentOf, ?y] .
[?x, ex:ancestorOf, ?z] :- [?x, ex:ancestorOf, ?y], [?y, ex:parentOf, ?z] .
[?y, ex:marriedTo, ?x] :- [?x, ex:marriedTo, ?y] .
ex:Parent[?x] :- [?x, ex:parentOf, ?y] .
`;

/** Creates the demo store (prefix `ex:`, a few people, rules for ancestors, marriage and parents). */
export async function createDemoStore(connection: ServerConnection): Promise<void> {
  connection.createDataStore(DEMO_STORE);
  const ds = connection.newDataStoreConnection(DEMO_STORE);
  try {
    await ds.setPrefix('ex:', DEMO_PREFIX);
    // a failed import rejects with ImportError, naming the line
    for (const [text, mediaType] of [[DATA, 'text/turtle'], [RULES, 'application/x.datalog']] as const) await ds.importData('ADD', text, { mediaType });
  } finally {
    ds.close();
  }
}
