/**
 * Saved queries of a server replicated through PostgreSQL (`persistence=postgresql`): a query
 * saved (and one deleted) on the writer reaches a replica, a replica refuses to save, and a
 * node started again on the database has them. They travel with the store's catalogue; with
 * `persistence-replicate-derived=true` the replica applies the records without reasoning, and
 * they reach it all the same.
 */
import { expect } from 'chai';
import { ConnectionFactory } from '../../lib/index.js';
import { usePostgres } from '../helpers/postgres.js';
import { REPLICA_PASSWORD as PASSWORD, REPLICA_ROLE as ROLE, useReplicatedServers } from '../helpers/replicated-servers.js';

const PEOPLE = 'PREFIX ex: <http://example.com/>\nSELECT ?p WHERE { ?p a ex:Person }';

describe('saved queries replicated through PostgreSQL', function () {
  const pg = usePostgres();
  const replicated = useReplicatedServers(pg, 'sq');
  const { node, store, until, stop } = replicated;

  for (const derived of [false, true]) {
    it(`reach a replica, which refuses to save, and are there on a node started again${derived ? ' (persistence-replicate-derived)' : ''}`, async () => {
      const extra: Record<string, string> = derived ? { 'persistence-replicate-derived': 'true' } : {};
      const a = await node('a', extra);
      const b = await node('b', extra);
      const admin = await ConnectionFactory.newServerConnection(a.url, ROLE, PASSWORD);
      admin.createDataStore('ds');
      const ds = admin.newDataStoreConnection('ds');
      await ds.importData('ADD', '<http://example.com/a> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://example.com/Person> .', { mediaType: 'application/n-triples' });
      await ds.saveQuery('people', PEOPLE);
      await ds.saveQuery('gone', 'ASK { ?s ?p ?o }');
      await ds.deleteSavedQuery('gone');
      const version = ds.dataStoreVersion;
      await until(() => b.dataStoreNames().includes('ds'), 'the store on the replica');
      const replica = await store(b);
      await replica.awaitVersion(version, 10_000);
      const listed = await replica.listSavedQueries();
      expect(listed.map((q) => [q.name, q.text, q.savedBy])).to.deep.equal([['people', PEOPLE, ROLE]]);
      const error = await replica.saveQuery('mine', PEOPLE).then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      expect(error?.name).to.equal('ReplicaWriteError');
      replica.close();
      ds.close();
      admin.close();
      await stop(b);
      await stop(a);
      const again = await node('c', extra);
      await until(() => again.dataStoreNames().includes('ds'), 'the store on the new node');
      const reloaded = await store(again);
      expect(await reloaded.listSavedQueries()).to.deep.equal(listed);
      reloaded.close();
    });
  }
});
