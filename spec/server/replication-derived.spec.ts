/**
 * Replication with the derived changes carried in the record (`persistence-replicate-derived`):
 * a writer that carries them, a replica that applies them without reasoning and a replica that
 * reasons, in one process on one PostgreSQL database. A property test: random small
 * transactions over a store with rules (recursive, with negation and SKOLEM, and rules added
 * and removed) leave the three stores with exactly the same facts and statuses after each commit.
 */
import { expect } from 'chai';
import { ConnectionFactory, type DataStoreConnection, Server } from '../../lib/index.js';
import { parseServeArguments } from '../../lib/shell/serve.js';
import { usePostgres } from '../helpers/postgres.js';
import { REPLICA_PASSWORD as PASSWORD, REPLICA_ROLE as ROLE, useReplicatedServers } from '../helpers/replicated-servers.js';

const EX = 'http://ex/';
const DATALOG = { mediaType: 'application/x.datalog' };

/** The rules of the store; some are removed and added again along the way. */
const RULES = [
  `[?x, <${EX}q>, ?y] :- [?x, <${EX}p>, ?y] .`,
  `[?x, <${EX}q>, ?z] :- [?x, <${EX}q>, ?y], [?y, <${EX}q>, ?z] .`,
  `[?x, a, <${EX}C>] :- [?x, <${EX}q>, ?y] .`,
  `[?x, a, <${EX}D>] :- [?x, a, <${EX}C>], NOT [?x, <${EX}p>, <${EX}n0>] .`,
  `[?x, <${EX}has>, ?n] :- [?x, <${EX}p>, ?y], SKOLEM("n", ?x, ?y, ?n) .`,
];

/** A seeded pseudo-random generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('replication with carried derived changes (persistence-replicate-derived)', function () {
  const pg = usePostgres();
  const replicated = useReplicatedServers(pg, 'rd');
  const { store, until } = replicated;
  const node = (id: string, derived: 'true' | 'false'): Promise<Server> => replicated.node(id, { 'persistence-replicate-derived': derived });

  /** The store's facts of a domain, sorted (default graph and named graphs). */
  async function facts(ds: DataStoreConnection, factDomain: string): Promise<string[]> {
    const answer = await ds.evaluateQuery('SELECT ?s ?p ?o ?g WHERE { { ?s ?p ?o } UNION { GRAPH ?g { ?s ?p ?o } } }', { factDomain });
    const rows = (answer as unknown as { rows: ReadonlyArray<ReadonlyArray<{ value: string; termType?: string } | undefined>> }).rows;
    return rows.map((r) => r.map((t) => (t === undefined ? '-' : `${t.termType ?? ''}:${t.value}`)).join(' ')).sort();
  }

  /** Every domain's facts: equal domains mean equal statuses of every fact. */
  async function state(ds: DataStoreConnection): Promise<{ explicit: string[]; derived: string[]; all: string[] }> {
    return { explicit: await facts(ds, 'explicit'), derived: await facts(ds, 'derived'), all: await facts(ds, 'all') };
  }

  it('refuses an invalid value and the parameter without persistence=postgresql', async () => {
    const bad = await Server.create({ roleName: ROLE, password: PASSWORD, parameters: { 'password-hashing': 'fast', 'persistence-replicate-derived': 'true' } }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((bad as Error).message).to.match(/persistence-replicate-derived' needs persistence=postgresql/);
    const invalid = await node('x', 'yes' as 'true').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((invalid as Error).message).to.match(/invalid value 'yes' for server parameter 'persistence-replicate-derived': true or false/);
  });

  it('quadlog serve --persistence-replicate-derived sets the parameter, with --persistence postgresql only', () => {
    const base = ['--persistence', 'postgresql', '--persistence-connection-string', 'postgresql://x@h/db'];
    expect(parseServeArguments([...base, '--persistence-replicate-derived']).parameters?.['persistence-replicate-derived']).to.equal('true');
    expect(parseServeArguments(base).parameters?.['persistence-replicate-derived']).to.equal(undefined);
    expect(() => parseServeArguments(['--persistence-replicate-derived'])).to.throw(/--persistence-replicate-derived needs --persistence postgresql/);
  });

  it('random transactions leave the writer and both replicas (carried and reasoning) with the same facts and statuses', async () => {
    const writer = await node('w', 'true');
    const carried = await node('c', 'true');
    const reasoning = await node('r', 'false');
    expect(writer.replicationRole).to.equal('writer');
    const admin = await ConnectionFactory.newServerConnection(writer.url, ROLE, PASSWORD);
    admin.createDataStore('ds');
    const ds = admin.newDataStoreConnection('ds');
    await ds.importData('ADD', RULES.join('\n'), DATALOG);
    await until(() => carried.dataStoreNames().includes('ds') && reasoning.dataStoreNames().includes('ds'), 'the store on the replicas');
    const onCarried = await store(carried);
    const onReasoning = await store(reasoning);
    const next = random(36);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
    const nodes = ['n0', 'n1', 'n2', 'n3', 'n4'];
    const triple = (): string => {
      const s = `<${EX}${pick(nodes)}>`;
      const r = next();
      if (r < 0.45) return `${s} <${EX}p> <${EX}${pick(nodes)}> .`;
      if (r < 0.7) return `${s} <${EX}q> <${EX}${pick(nodes)}> .`;
      if (r < 0.85) return `${s} a <${EX}${pick(['C', 'D'])}> .`;
      return `GRAPH <${EX}g> { ${s} <${EX}p> <${EX}${pick(nodes)}> }`;
    };
    const present = new Set<string>();
    const removedRules = new Set<string>();
    let carriedBefore = 0;
    for (let round = 0; round < 60; round++) {
      const r = next();
      if (r < 0.15) {
        // a rule change: remove one, or add back one removed
        const back = [...removedRules];
        if (back.length > 0 && next() < 0.5) {
          const rule = pick(back);
          await ds.importData('ADD', rule, DATALOG);
          removedRules.delete(rule);
        } else {
          const rule = pick(RULES.filter((x) => !removedRules.has(x)));
          await ds.importData('DELETE', rule, DATALOG);
          removedRules.add(rule);
        }
      } else {
        // inserts and deletes in one update: explicit facts that are also derived gain and lose either status
        const inserts = Array.from({ length: 1 + Math.floor(next() * 3) }, triple);
        const deletes = Array.from({ length: Math.floor(next() * 3) }, () => (present.size > 0 && next() < 0.7 ? pick([...present]) : triple()));
        const update = `${deletes.length > 0 ? `DELETE DATA { ${deletes.join(' ')} } ;\n` : ''}INSERT DATA { ${inserts.join(' ')} }`;
        await ds.evaluateUpdate(update);
        for (const d of deletes) present.delete(d);
        for (const i of inserts) if (!deletes.includes(i)) present.add(i);
      }
      const version = ds.dataStoreVersion;
      await onCarried.awaitVersion(version, 15_000);
      await onReasoning.awaitVersion(version, 15_000);
      const expected = await state(ds);
      expect(await state(onCarried), `round ${round}: the carrying replica`).to.deep.equal(expected);
      expect(await state(onReasoning), `round ${round}: the reasoning replica`).to.deep.equal(expected);
      const applied = carried.replicationStatus().stores.find((s) => s.name === 'ds')!;
      expect(applied.recordsCarried!, `round ${round}: records applied without reasoning`).to.be.greaterThan(carriedBefore);
      expect(applied.recordsReasoned, `round ${round}`).to.equal(0);
      carriedBefore = applied.recordsCarried!;
    }
    // the store did reason: derived facts, SKOLEM terms, and facts both explicit and derived
    const final = await state(ds);
    expect(final.derived.length).to.be.greaterThan(0);
    expect(final.explicit.filter((f) => final.derived.includes(f)).length, 'facts both explicit and derived').to.be.greaterThan(0);
    expect(reasoning.replicationStatus().stores.find((s) => s.name === 'ds')!.recordsCarried).to.equal(0);
    expect(reasoning.replicationStatus().replicateDerived).to.equal(false);
    // the carrying replica can take over: its reasoning state goes on from the carried facts
    const nodeCount = (await facts(ds, 'all')).length;
    await replicated.stop(writer);
    await until(() => carried.replicationStatus().role === 'writer' || reasoning.replicationStatus().role === 'writer', 'a take-over', 20_000);
    const newWriter = carried.replicationStatus().role === 'writer' ? onCarried : onReasoning;
    const other = newWriter === onCarried ? onReasoning : onCarried;
    await until(async () => {
      try {
        await newWriter.evaluateUpdate(`INSERT DATA { <${EX}n9> <${EX}p> <${EX}n0> . <${EX}n0> <${EX}p> <${EX}n9> }`);
        return true;
      } catch (e) {
        if ((e as Error).name === 'ReplicaWriteError') return false;
        throw e;
      }
    }, 'the new writer to accept writes', 20_000);
    await other.awaitVersion(newWriter.dataStoreVersion, 15_000);
    const after = await state(newWriter);
    expect(after.all.length).to.be.greaterThan(nodeCount);
    expect(await state(other)).to.deep.equal(after);
    ds.close();
    onCarried.close();
    onReasoning.close();
  });
});
