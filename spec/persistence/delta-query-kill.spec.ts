/**
 * The kill -9 spec of delta queries: a child process (fixtures/delta-kill-workload.ts) commits
 * a stream of single-triple changes to a store with two registered delta queries and is
 * killed with SIGKILL at random points; after each kill the directory is opened again and
 * checked: both registrations are there, without error, and every answer the queries report
 * is exact — compared with the answers recomputed from the facts of each version, which the
 * workload's acknowledgements give — and, from `completeFrom` on (or registration when it is
 * undefined), no version whose answer changed is missing. `QUADLOG_KILL_POINTS=<n>` runs n
 * kill points (default 3).
 */
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConnectionFactory } from '../../lib/api/connection-factory.js';
import type { DeltaQueryVersionAnswer } from '../../lib/server/delta-queries.js';
import { Server } from '../../lib/server/server.js';
import { useTempDir } from './helpers.js';

const FIXTURE = fileURLToPath(new URL('fixtures/delta-kill-workload.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const KILL_POINTS = Number(process.env.QUADLOG_KILL_POINTS ?? '3');

interface Change {
  readonly remove: boolean;
  readonly pair: string;
}

/** What a run acknowledged: the setup's version (first run), the changes with their versions, the change in flight. */
async function runAndKill(directory: string, run: number, acks: number, delayMs: number): Promise<{ setup: number | undefined; acknowledged: Array<{ change: Change; version: number }>; inFlight: Change | undefined }> {
  const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE, directory, String(run), String(run * 7919 + 17)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let setup: number | undefined;
  const acknowledged: Array<{ change: Change; version: number }> = [];
  let inFlight: Change | undefined;
  let buffer = '';
  let stderr = '';
  let done: (() => void) | undefined;
  const line = (text: string): void => {
    if (text.startsWith('setup ')) setup = Number(text.slice(6));
    else if (text.startsWith('begin ')) inFlight = JSON.parse(text.slice(6)) as Change;
    else if (text.startsWith('ack ') && inFlight) {
      acknowledged.push({ change: inFlight, version: Number(text.slice(4)) });
      inFlight = undefined;
      if (acknowledged.length === acks) done?.();
    }
  };
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    done = () => setTimeout(resolve, delayMs);
    child.on('exit', (code, signal) => reject(new Error(`the workload exited early (${code ?? signal}): ${stderr}`)));
    child.stdout.on('data', (d: Buffer) => {
      buffer += d.toString();
      let nl;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const text = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        line(text);
      }
    });
  });
  child.kill('SIGKILL');
  await exited;
  for (const text of buffer.split('\n')) line(text);
  return { setup, acknowledged, inFlight };
}

/** The `p` pairs of each version (versions not listed have those of the closest one before). */
class History {
  private readonly states = new Map<number, ReadonlySet<string>>([[0, new Set()]]);
  last = 0;

  apply(version: number, change: Change): void {
    const next = new Set(this.at(version - 1));
    if (change.remove) next.delete(change.pair);
    else next.add(change.pair);
    this.states.set(version, next);
    this.last = Math.max(this.last, version);
  }

  at(version: number): ReadonlySet<string> {
    for (let v = version; v >= 0; v--) {
      const s = this.states.get(v);
      if (s) return s;
    }
    return new Set();
  }
}

const minus = (a: Iterable<string>, b: ReadonlySet<string>): string[] => [...a].filter((x) => !b.has(x)).sort();

function counts(pairs: ReadonlySet<string>): Set<string> {
  const n = new Map<string, number>();
  for (const p of pairs) {
    const x = p.split(' ')[0]!;
    n.set(x, (n.get(x) ?? 0) + 1);
  }
  return new Set([...n].map(([x, c]) => `${x} ${c}`));
}

const rowsOf = (a: DeltaQueryVersionAnswer): string[] => a.rows.map((r) => r.map((t) => t?.value ?? '-').join(' ')).sort();

/** Opens the directory and checks the queries' registrations and every answer they report. */
async function check(directory: string, history: History, run: number): Promise<number> {
  const server = await Server.create({ roleName: 'admin', password: 'secret', parameters: { 'password-hashing': 'fast', persistence: 'file', 'server-directory': directory } });
  try {
    expect([...server.offlineDataStores().keys()]).to.deep.equal([]);
    const ds = await ConnectionFactory.newDataStoreConnection(server.url, 'main', 'admin', 'secret');
    expect((await ds.listDeltaQueries()).sort(), `run ${run}`).to.deep.equal(['counts', 'pairs']);
    const version = Number((await ds.getDataStoreProperties()).find((r) => r.property === 'data-store-version')!.value);
    for (const [name, of] of [['pairs', (s: ReadonlySet<string>) => s], ['counts', counts]] as const) {
      const answers = await ds.getDeltaQueryAnswers(name);
      const described = await ds.describeDeltaQuery(name);
      expect(described, `run ${run}: ${name}`).to.include({ error: undefined, role: 'admin', version });
      for (const a of answers) {
        const now = of(history.at(a.version));
        const before = of(history.at(a.version - 1));
        const expected = a.type === 'snapshot' ? [...now].sort() : a.type === 'additions' ? minus(now, before) : minus(before, now);
        expect(rowsOf(a), `run ${run}: ${name} ${a.type} at version ${a.version}`).to.deep.equal(expected);
      }
      const from = described.completeFrom ?? described.registeredAt! + 1;
      for (let v = from; v <= version; v++) {
        const changed = minus(of(history.at(v)), of(history.at(v - 1))).length + minus(of(history.at(v - 1)), of(history.at(v))).length > 0;
        if (changed) expect(answers.some((a) => a.version === v && a.type === 'additions'), `run ${run}: ${name} keeps the changes of version ${v}`).to.equal(true);
      }
    }
    return version;
  } finally {
    await server.shutdown();
  }
}

describe('persistence: kill -9 during a stream of commits with delta queries', function () {
  this.timeout(60_000 + KILL_POINTS * 20_000);
  const tmp = useTempDir('quadlog-dq-kill-');

  it(`keeps the registrations and reports only exact answers (${KILL_POINTS} kill points)`, async () => {
    const directory = join(tmp.path, 'server');
    const history = new History();
    let seed = 4242;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let run = 1; run <= KILL_POINTS; run++) {
      const { setup, acknowledged, inFlight } = await runAndKill(directory, run, 5 + random(40), random(10));
      if (setup !== undefined) history.last = setup;
      for (const { change, version } of acknowledged) history.apply(version, change);
      const before = history.last;
      // the change in flight committed when the store's version is past the last acknowledged one
      const probe = await Server.create({ roleName: 'admin', password: 'secret', parameters: { 'password-hashing': 'fast', persistence: 'file', 'server-directory': directory } });
      const ds = await ConnectionFactory.newDataStoreConnection(probe.url, 'main', 'admin', 'secret');
      const recovered = Number((await ds.getDataStoreProperties()).find((r) => r.property === 'data-store-version')!.value);
      await probe.shutdown();
      if (inFlight && recovered === before + 1) history.apply(before + 1, inFlight);
      expect(await check(directory, history, run)).to.equal(history.last);
    }
  });
});
