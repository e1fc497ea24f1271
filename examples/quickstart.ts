// quadlog quick start: a server, a data store, a small import, counts and an export.
import { ConnectionFactory, Server } from '../lib/index.js';

const server = await Server.create({ roleName: 'admin', password: 'admin-secret' });
const sc = await ConnectionFactory.newServerConnection('local', 'admin', 'admin-secret');
sc.createDataStore('family');
const ds = sc.newDataStoreConnection('family');

// The store's prefixes apply to imports: `ex:` needs no @prefix line in the data.
await ds.setPrefix('ex:', 'http://example.com/family#');
const result = await ds.importData('ADD', `
  ex:alice a ex:Person ; ex:name "Alice" ; ex:parentOf ex:bob .
  ex:bob a ex:Person ; ex:name "Bob"@en .
  ex:census2020 { ex:bob ex:age 42 }
`);
console.log('import notifications:');
process.stdout.write(result.text);

console.log(`\nfacts in the store: ${await ds.countFacts()}`);
console.log('\nexport as TriG:\n');
console.log(await ds.exportDataToString('application/trig'));

ds.close();
sc.close();
server.shutdown();
