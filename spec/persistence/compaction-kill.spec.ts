/**
 * `kill -9` in the middle of a compaction: a child process (fixtures/compaction-kill.ts) seals
 * the log, is held before the snapshot is written, commits more transactions to the new log
 * and is killed. Opening the directory again must find every acknowledged transaction, also
 * after a second such crash (two sealed logs), and a compaction then leaves one log.
 */
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConnectionFactory } from '../../lib/api/connection-factory.js';
import { encodeStoreName } from '../../lib/persistence/layout.js';
import { Server } from '../../lib/server/server.js';
import { useTempDir } from './helpers.js';

const FIXTURE = fileURLToPath(new URL('fixtures/compaction-kill.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const EX = 'http://example.com/';

/** Runs the fixture until `after` batches are acknowledged past the sealing, then kills it; returns the acknowledged batches. */
async function runAndKill(directory: string, run: number, after: number): Promise<{ acknowledged: string[]; inFlight: string | undefined }> {
  const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE, directory, String(run)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const acknowledged: string[] = [];
  let inFlight: string | undefined;
  let sealedAt = -1;
  let buffer = '';
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const line = (text: string): boolean => {
    if (text.startsWith('begin ')) inFlight = text.slice(6);
    else if (text === 'ack' && inFlight !== undefined) {
      acknowledged.push(inFlight);
      inFlight = undefined;
    } else if (text === 'sealed') sealedAt = acknowledged.length;
    return sealedAt >= 0 && acknowledged.length >= sealedAt + after;
  };
  await new Promise<void>((resolve, reject) => {
    child.on('exit', (code, signal) => reject(new Error(`the fixture exited early (${code ?? signal}): ${stderr}`)));
    child.stdout.on('data', (d: Buffer) => {
      buffer += d.toString();
      let nl;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const text = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        if (line(text)) resolve();
      }
    });
  });
  child.kill('SIGKILL');
  await exited;
  for (const text of buffer.split('\n')) line(text);
  return { acknowledged, inFlight };
}

async function subjects(directory: string, compact = false): Promise<Set<string>> {
  const server = await Server.create({ roleName: 'admin', password: 'secret', parameters: { 'password-hashing': 'fast', persistence: 'file', 'server-directory': directory } });
  try {
    expect([...server.offlineDataStores().keys()]).to.deep.equal([]);
    const ds = await ConnectionFactory.newDataStoreConnection(server.url, 'main', 'admin', 'secret');
    const answer = await ds.evaluateQuery('SELECT ?o WHERE { ?s ?p ?o }');
    if (answer.type !== 'bindings') throw new Error('bindings expected');
    if (compact) await ds.compact();
    return new Set(answer.rows.map((r) => (r[0]?.value ?? '').slice(EX.length + 1)));
  } finally {
    await server.shutdown();
  }
}

describe('persistence: kill -9 during a compaction', function () {
  this.timeout(120_000);
  const tmp = useTempDir('quadlog-compaction-kill-');

  it('keeps the transactions committed before the point and after it, through two crashes', async () => {
    const directory = join(tmp.path, 'server');
    const storeDir = join(directory, 'stores', encodeStoreName('main'));
    const expected = new Set<string>();
    for (let run = 1; run <= 2; run++) {
      const { acknowledged, inFlight } = await runAndKill(directory, run, 3);
      for (const k of acknowledged) expected.add(k);
      const logs = (await readdir(storeDir)).filter((n) => n.endsWith('.qlog'));
      // killed between the sealing and the install: a sealed log per crash beside the new log
      expect(logs).to.have.length(run + 1);
      const found = await subjects(directory);
      const extra = [...found].filter((k) => !expected.has(k) && k !== inFlight);
      expect([...expected].filter((k) => !found.has(k)), 'acknowledged batches lost').to.deep.equal([]);
      expect(extra, 'batches never begun').to.deep.equal([]);
      if (inFlight !== undefined && found.has(inFlight)) expected.add(inFlight);
    }
    const compacted = await subjects(directory, true);
    expect([...compacted].sort()).to.deep.equal([...expected].sort());
    expect((await readdir(storeDir)).filter((n) => n.endsWith('.qlog'))).to.deep.equal(['transactions.qlog']);
    expect([...(await subjects(directory))].sort()).to.deep.equal([...expected].sort());
  });
});
