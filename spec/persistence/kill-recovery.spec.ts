/**
 * The kill -9 spec: a child process runs a mixed write workload on a persistent server
 * (fixtures/kill-workload.ts) and is killed with SIGKILL at random points; after each kill
 * the server directory is opened again and checked: every acknowledged operation is there,
 * the one in flight is there whole or not at all, and the derived facts equal those of a
 * fresh in-memory store given the same explicit facts and rules.
 *
 * CI runs a few kill points; `QUADLOG_KILL_POINTS=<n>` runs n of them (the long form), and
 * `QUADLOG_KILL_DURABILITY=relaxed` runs the workload with relaxed commits (a killed process
 * loses nothing acknowledged either way: the kernel holds what was written).
 */
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConnectionFactory } from '../../lib/api/connection-factory.js';
import type { DataStoreConnection } from '../../lib/api/data-store-connection.js';
import { parseDatalog } from '../../lib/formats/datalog-parser.js';
import { ruleKey } from '../../lib/server/reasoning.js';
import { Server } from '../../lib/server/server.js';
import { useTempDir } from './helpers.js';

const FIXTURE = fileURLToPath(new URL('fixtures/kill-workload.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const EX = 'http://example.com/';
const KILL_POINTS = Number(process.env.QUADLOG_KILL_POINTS ?? '4');
const DURABILITY = process.env.QUADLOG_KILL_DURABILITY ?? 'sync';

type Operation =
  | { readonly op: 'add'; readonly k: string }
  | { readonly op: 'update'; readonly remove: string; readonly k: string }
  | { readonly op: 'rule'; readonly rule: string }
  | { readonly op: 'create'; readonly name: string }
  | { readonly op: 'delete'; readonly name: string };

interface State {
  readonly triples: ReadonlySet<string>;
  readonly rules: ReadonlySet<string>;
  readonly stores: ReadonlySet<string>;
}

const batch = (k: string): string[] => [0, 1, 2].map((j) => `${EX}s${k}_${j} ${EX}p ${EX}o${k}`);

function canonicalRule(text: string): string {
  const rule = parseDatalog(text).document.rules[0];
  if (rule === undefined) throw new Error(`not a rule: ${text}`);
  return ruleKey(rule);
}

function apply(state: State, op: Operation): State {
  const triples = new Set(state.triples);
  const rules = new Set(state.rules);
  const stores = new Set(state.stores);
  if (op.op === 'add') for (const t of batch(op.k)) triples.add(t);
  else if (op.op === 'update') {
    for (const t of batch(op.remove)) triples.delete(t);
    for (const t of batch(op.k)) triples.add(t);
  } else if (op.op === 'rule') rules.add(canonicalRule(op.rule));
  else if (op.op === 'create') stores.add(op.name);
  else stores.delete(op.name);
  return { triples, rules, stores };
}

const same = (a: ReadonlySet<string>, b: ReadonlySet<string>): boolean => a.size === b.size && [...a].every((x) => b.has(x));
const sameState = (a: State, b: State): boolean => same(a.triples, b.triples) && same(a.rules, b.rules) && same(a.stores, b.stores);

/** Runs the workload until `acks` operations are acknowledged (plus a random few ms), then kills it. */
async function runAndKill(directory: string, run: number, acks: number, delayMs: number): Promise<{ acknowledged: Operation[]; inFlight: Operation | undefined }> {
  const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE, directory, String(run), String(run * 7919 + 17), DURABILITY], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const acknowledged: Operation[] = [];
  let inFlight: Operation | undefined;
  let buffer = '';
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.on('exit', (code, signal) => reject(new Error(`the workload exited early (${code ?? signal}): ${stderr}`)));
    child.stdout.on('data', (d: Buffer) => {
      buffer += d.toString();
      let nl;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        if (line.startsWith('begin ')) inFlight = JSON.parse(line.slice(6)) as Operation;
        else if (line === 'ack' && inFlight) {
          acknowledged.push(inFlight);
          inFlight = undefined;
          if (acknowledged.length === acks) setTimeout(resolve, delayMs);
        }
      }
    });
  });
  child.kill('SIGKILL');
  await exited;
  // lines written before the kill may still be unread: read what is left
  for (const line of buffer.split('\n')) {
    if (line.startsWith('begin ')) inFlight = JSON.parse(line.slice(6)) as Operation;
    else if (line === 'ack' && inFlight) {
      acknowledged.push(inFlight);
      inFlight = undefined;
    }
  }
  return { acknowledged, inFlight };
}

async function triplesOf(ds: DataStoreConnection, factDomain: string): Promise<Set<string>> {
  const answer = await ds.evaluateQuery('SELECT ?s ?p ?o WHERE { ?s ?p ?o }', { factDomain });
  if (answer.type !== 'bindings') throw new Error('bindings expected');
  return new Set(answer.rows.map((r) => r.map((t) => t?.value ?? '').join(' ')));
}

/** Opens the directory, reads the recovered state and checks the derived facts against a fresh materialisation. */
async function recover(directory: string): Promise<State> {
  const server = await Server.create({ roleName: 'admin', password: 'secret', parameters: { 'password-hashing': 'fast', persistence: 'file', 'server-directory': directory } });
  try {
    expect([...server.offlineDataStores().keys()]).to.deep.equal([]);
    const sc = await ConnectionFactory.newServerConnection(server.url, 'admin', 'secret');
    const ds = await ConnectionFactory.newDataStoreConnection(server.url, 'main', 'admin', 'secret');
    const explicit = await triplesOf(ds, 'explicit');
    const all = await triplesOf(ds, 'all');
    const rules = new Set(server.dataStore('main').facts.committed.catalogue.rules.keys());
    const fresh = await Server.create({ roleName: 'admin', password: 'secret', parameters: { 'password-hashing': 'fast' } });
    try {
      const fsc = await ConnectionFactory.newServerConnection(fresh.url, 'admin', 'secret');
      fsc.createDataStore('check');
      const check = await ConnectionFactory.newDataStoreConnection(fresh.url, 'check', 'admin', 'secret');
      const nt = [...explicit].map((t) => `${t.split(' ').map((iri) => `<${iri}>`).join(' ')} .`).join('\n');
      if (nt !== '') await check.importData('ADD', nt, { mediaType: 'application/n-triples' });
      if (rules.size > 0) await check.importData('ADD', [...rules].join('\n'), { mediaType: 'application/x.datalog' });
      expect([...all].sort()).to.deep.equal([...(await triplesOf(check, 'all'))].sort());
    } finally {
      await fresh.shutdown();
    }
    return { triples: explicit, rules, stores: new Set(sc.listDataStores().filter((n) => n !== 'main')) };
  } finally {
    await server.shutdown();
  }
}

describe('persistence: kill -9 during a mixed write workload', function () {
  this.timeout(60_000 + KILL_POINTS * 15_000);
  const tmp = useTempDir('quadlog-kill-');

  it(`keeps every acknowledged transaction and none in part (${KILL_POINTS} kill points, ${DURABILITY} commits)`, async () => {
    const directory = join(tmp.path, 'server');
    let state: State = { triples: new Set(), rules: new Set(), stores: new Set() };
    let seed = 12345;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let run = 1; run <= KILL_POINTS; run++) {
      const { acknowledged, inFlight } = await runAndKill(directory, run, 2 + random(25), random(15));
      let expected = state;
      for (const op of acknowledged) expected = apply(expected, op);
      const recovered = await recover(directory);
      const withInFlight = inFlight ? apply(expected, inFlight) : expected;
      const matches = sameState(recovered, expected) || sameState(recovered, withInFlight);
      if (!matches) {
        const missing = [...expected.triples].filter((t) => !recovered.triples.has(t));
        const extra = [...recovered.triples].filter((t) => !withInFlight.triples.has(t));
        expect.fail(`run ${run}: the recovered state is neither the acknowledged one nor it plus the operation in flight (${JSON.stringify(inFlight)}); missing ${JSON.stringify(missing.slice(0, 5))}, extra ${JSON.stringify(extra.slice(0, 5))}, stores ${JSON.stringify([...recovered.stores])} vs ${JSON.stringify([...expected.stores])}`);
      }
      state = recovered;
    }
  });
});
