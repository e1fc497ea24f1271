/**
 * The PostgreSQL tables of replication (`lib/persistence/pg-database.ts`): the lease and the
 * fencing of appends by its term.
 */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { PgDatabase } from '../../lib/persistence/pg-database.js';
import { usePostgres } from '../helpers/postgres.js';

describe('PostgreSQL replication tables', function () {
  const pg = usePostgres();

  it('lets only the holder of the current term append; a deposed writer is refused', async () => {
    const schema = `f_${randomBytes(4).toString('hex')}`;
    const a = await PgDatabase.open({ connectionString: pg.connectionString }, schema);
    const b = await PgDatabase.open({ connectionString: pg.connectionString }, schema);
    try {
      const termA = await a.takeLease('a', 'http://a', 60_000);
      expect(termA).to.equal(1);
      expect(await b.takeLease('b', 'http://b', 60_000), 'an unexpired lease was taken').to.equal(undefined);
      await a.append(termA!, 'a', 'store', 'ds', 1, [new Uint8Array([1, 2, 3])]);
      // the lease expires (a stalled writer), and b takes it
      await pg.sql(`UPDATE ${schema}.lease SET expires_at = now() - interval '1 second'`);
      const termB = await b.takeLease('b', 'http://b', 60_000);
      expect(termB).to.equal(2);
      const refused = await a.append(termA!, 'a', 'store', 'ds', 2, [new Uint8Array([4])]).then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      expect(refused?.name).to.equal('ReplicationError');
      expect(refused?.message).to.include('no longer holds the writer lease').and.include("'b'");
      expect(await a.renewLease('a', termA!, 'http://a', 60_000)).to.equal(false);
      await b.append(termB!, 'b', 'store', 'ds', 2, [new Uint8Array([5])]);
      const rows = await b.readLog('store', 0, 10);
      expect(rows.map((r) => [r.version, r.term, [...r.body]])).to.deep.equal([
        [1, 1, [1, 2, 3]],
        [2, 2, [5]],
      ]);
      // a version appended twice is refused, whoever appends it
      const twice = await b.append(termB!, 'b', 'store', 'ds', 2, [new Uint8Array([6])]).then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      expect(twice?.message).to.include('already in the log');
    } finally {
      await a.close();
      await b.close();
    }
  });
});
