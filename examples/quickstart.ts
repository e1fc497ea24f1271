// quadlog quick start: a server, a data store, a small import, rules, a query, counts and an export.
import { ConnectionFactory, Server } from '../lib/index.js';

const server = await Server.create({ roleName: 'admin', password: 'admin-secret' });
const sc = await ConnectionFactory.newServerConnection(server.url, 'admin', 'admin-secret');
sc.createDataStore('family');
const ds = sc.newDataStoreConnection('family');

// The store's prefixes apply to imports, rules and queries: `ex:` needs no declaration.
await ds.setPrefix('ex:', 'http://example.com/family#');
const result = await ds.importData('ADD', `
  ex:alice a ex:Person ; ex:name "Alice" ; ex:parentOf ex:bob .
  ex:bob a ex:Person ; ex:name "Bob"@en ; ex:parentOf ex:carol .
  ex:census2020 { ex:bob ex:age 42 }
`);
console.log('import notifications:');
process.stdout.write(result.text);

// Datalog rules: their consequences are materialised at commit and kept up to date.
await ds.importData('ADD', `
  [?x, ex:ancestorOf, ?y] :- [?x, ex:parentOf, ?y] .
  [?x, ex:ancestorOf, ?z] :- [?x, ex:ancestorOf, ?y], [?y, ex:parentOf, ?z] .
`);

console.log('\nalice is an ancestor of (SPARQL, as CSV):');
await ds.evaluateQueryTo('SELECT ?d WHERE { ex:alice ex:ancestorOf ?d } ORDER BY ?d', 'text/csv', (chunk) => process.stdout.write(chunk));

console.log(`\nfacts: ${await ds.countFacts()} (explicit ${await ds.countFacts({ factDomain: 'explicit' })}, derived ${await ds.countFacts({ factDomain: 'derived' })})`);
console.log('\nexplicit facts as TriG:\n');
console.log(await ds.exportDataToString('application/trig'));

ds.close();
sc.close();
await server.shutdown();
