/**
 * State beside the facts that a persistent server keeps across restarts: the arguments of
 * SKOLEM terms (so that a term made before can be unpacked after), the data store version and
 * the role database's generation (which never go backwards), and the replay of a log onto a
 * materialised snapshot (incremental, with the same derived facts as from scratch).
 */
import { expect } from 'chai';
import { join } from 'node:path';
import { ConnectionFactory } from '../../lib/api/connection-factory.js';
import type { DataStoreConnection } from '../../lib/api/data-store-connection.js';
import { Server, type ServerOptions } from '../../lib/server/server.js';
import type { RecoveryEvent } from '../../lib/server/recovery.js';
import { useTempDir } from './helpers.js';

const EX = 'http://example.com/';

function options(directory: string, extra: Partial<ServerOptions> = {}): ServerOptions {
  return { roleName: 'admin', password: 'secret', parameters: { 'password-hashing': 'fast', persistence: 'file', 'server-directory': directory }, ...extra };
}

async function rows(ds: DataStoreConnection, query: string): Promise<string[]> {
  const answer = await ds.evaluateQuery(query);
  if (answer.type !== 'bindings') throw new Error('a SELECT query was expected');
  return answer.rows.map((r) => r.map((t) => (t === undefined ? '' : t.value)).join(' ')).sort();
}

async function version(ds: DataStoreConnection): Promise<number> {
  return Number((await ds.getDataStoreProperties()).find((r) => r.property === 'data-store-version')!.value);
}

/** Runs `body` on store `s` of a server started on `dir` (creating the store with `create`), then shuts it down. */
async function session<T>(dir: string, body: (ds: DataStoreConnection, server: Server) => Promise<T>, extra: Partial<ServerOptions> = {}, create = false): Promise<T> {
  const server = await Server.create(options(dir, extra));
  try {
    if (create) {
      using sc = await ConnectionFactory.newServerConnection(server.url, 'admin', 'secret');
      sc.createDataStore('s');
    }
    using ds = await ConnectionFactory.newDataStoreConnection(server.url, 's', 'admin', 'secret');
    return await body(ds, server);
  } finally {
    await server.shutdown();
  }
}

const EMPLOYMENT_RULES = `[?e, <http://www.w3.org/1999/02/22-rdf-syntax-ns#type>, <${EX}Employment>] :- [?p, <${EX}worksFor>, ?c], SKOLEM("Employment", ?p, ?c, ?e) .`;
const UNPACK = `SELECT ?t ?p ?c WHERE { ?e a <${EX}Employment> . TT SKOLEM { ?t ?p ?c ?e } }`;

describe('persistence: state kept beside the facts', function () {
  const tmp = useTempDir('quadlog-restart-state-');

  it('SKOLEM terms made by a rule before a compaction (and after it) unpack into their inputs after a restart', async () => {
    const dir = join(tmp.path, 'server');
    await session(
      dir,
      async (ds) => {
        await ds.importData('ADD', `<${EX}peter> <${EX}worksFor> <${EX}acme> .`);
        await ds.importData('ADD', EMPLOYMENT_RULES, { mediaType: 'application/x.datalog' });
        expect(await rows(ds, UNPACK)).to.deep.equal([`Employment ${EX}peter ${EX}acme`]);
        await ds.compact();
        // made after the snapshot: its inputs are in the log
        await ds.importData('ADD', `<${EX}anna> <${EX}worksFor> <${EX}zeta> .`);
      },
      {},
      true,
    );
    const expected = [`Employment ${EX}anna ${EX}zeta`, `Employment ${EX}peter ${EX}acme`];
    await session(dir, async (ds) => {
      expect(await rows(ds, UNPACK)).to.deep.equal(expected);
      await ds.compact();
    });
    // both from the snapshot alone
    await session(dir, async (ds) => {
      expect(await rows(ds, UNPACK)).to.deep.equal(expected);
    });
  });

  it('SKOLEM terms stored by an update (no rules) unpack after a restart from the log', async () => {
    const dir = join(tmp.path, 'server');
    await session(
      dir,
      async (ds) => {
        await ds.evaluateUpdate(`INSERT { ?e a <${EX}Employment> } WHERE { VALUES (?p ?c) { (<${EX}peter> <${EX}acme>) } TT SKOLEM { "Employment" ?p ?c ?e } }`);
        expect(await rows(ds, UNPACK)).to.deep.equal([`Employment ${EX}peter ${EX}acme`]);
      },
      {},
      true,
    );
    await session(dir, async (ds) => {
      expect(await rows(ds, UNPACK)).to.deep.equal([`Employment ${EX}peter ${EX}acme`]);
    });
  });

  it('the data store version never goes backwards across restarts, with and without a snapshot', async () => {
    const dir = join(tmp.path, 'server');
    const seen: number[] = [];
    await session(
      dir,
      async (ds) => {
        await ds.importData('ADD', `<${EX}a> <${EX}p> <${EX}b> .`);
        await ds.importData('ADD', `<${EX}b> <${EX}p> <${EX}c> .`);
        // a transaction that changes nothing still publishes a version
        await ds.beginTransaction('read-write');
        await ds.commitTransaction();
        seen.push(await version(ds));
      },
      {},
      true,
    );
    await session(dir, async (ds) => {
      seen.push(await version(ds));
      await ds.importData('ADD', `<${EX}c> <${EX}p> <${EX}d> .`);
      seen.push(await version(ds));
      await ds.compact();
    });
    await session(dir, async (ds) => {
      seen.push(await version(ds));
      await ds.importData('ADD', `<${EX}d> <${EX}p> <${EX}e> .`);
      seen.push(await version(ds));
    });
    await session(dir, async (ds) => {
      seen.push(await version(ds));
    });
    for (let i = 1; i < seen.length; i++) expect(seen[i], `versions seen: ${seen.join(', ')}`).to.be.at.least(seen[i - 1]!);
    expect(seen[2]).to.be.greaterThan(seen[1]!);
    expect(seen[4]).to.be.greaterThan(seen[3]!);
  });

  it("the role database's generation never goes backwards across a restart", async () => {
    const dir = join(tmp.path, 'server');
    let before: number;
    {
      const server = await Server.create(options(dir));
      using sc = await ConnectionFactory.newServerConnection(server.url, 'admin', 'secret');
      await sc.createRole('r1', 'pw1');
      await sc.createRole('r2', 'pw2');
      sc.grantPrivileges('r1', '>datastores', ['read']);
      before = server.roles.generation;
      await server.shutdown();
    }
    const server = await Server.create(options(dir));
    try {
      expect(server.roles.generation).to.be.at.least(before);
      using sc = await ConnectionFactory.newServerConnection(server.url, 'admin', 'secret');
      sc.deleteRole('r2');
      expect(server.roles.generation).to.be.greaterThan(before);
    } finally {
      await server.shutdown();
    }
  });

  it('replays a log onto a materialised snapshot incrementally: the derived facts equal a from-scratch materialisation', async () => {
    const dir = join(tmp.path, 'server');
    const rules = `[?x, <${EX}ancestor>, ?y] :- [?x, <${EX}parent>, ?y] . [?x, <${EX}ancestor>, ?z] :- [?x, <${EX}ancestor>, ?y], [?y, <${EX}parent>, ?z] .`;
    await session(
      dir,
      async (ds) => {
        await ds.importData('ADD', `<${EX}a> <${EX}parent> <${EX}b> .\n<${EX}b> <${EX}parent> <${EX}c> .\n<${EX}c> <${EX}parent> <${EX}d> .`);
        await ds.importData('ADD', rules, { mediaType: 'application/x.datalog' });
        await ds.compact();
        // after the snapshot: a deletion, an addition and a new rule
        await ds.evaluateUpdate(`DELETE DATA { <${EX}b> <${EX}parent> <${EX}c> } ; INSERT DATA { <${EX}b> <${EX}parent> <${EX}e> . <${EX}e> <${EX}parent> <${EX}f> }`);
        await ds.importData('ADD', `[?y, <${EX}descendant>, ?x] :- [?x, <${EX}ancestor>, ?y] .`, { mediaType: 'application/x.datalog' });
      },
      {},
      true,
    );
    const events: RecoveryEvent[] = [];
    const derived = await session(
      dir,
      async (ds) => {
        const all = await rows(ds, 'SELECT ?s ?p ?o WHERE { ?s ?p ?o }');
        // the same store reasoned from scratch
        await ds.recomputeMaterialization();
        return { all, again: await rows(ds, 'SELECT ?s ?p ?o WHERE { ?s ?p ?o }') };
      },
      { onRecovery: (e) => events.push(e) },
    );
    const loaded = events.find((e) => e.kind === 'loaded');
    expect(loaded?.kind === 'loaded' && loaded.report).to.include({ snapshot: true, records: 2, rematerialised: false, maintained: true });
    expect(derived.all).to.include(`${EX}a ${EX}ancestor ${EX}f`);
    expect(derived.all).to.include(`${EX}f ${EX}descendant ${EX}b`);
    expect(derived.all).to.not.include(`${EX}a ${EX}ancestor ${EX}c`);
    expect(derived.all).to.deep.equal(derived.again);
  });
});
