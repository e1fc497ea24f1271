/**
 * The soak test of `npm run soak` (bench/soak.ts) in a CI-sized form: 20 HTTP clients for 5
 * seconds (`QUADLOG_SOAK_SECONDS` and `QUADLOG_SOAK_CLIENTS` change that) against an endpoint
 * on the loopback interface. No request may answer 5xx, every error must be a documented one,
 * the store must equal the replay of the acknowledged writes, and the heap must come back near
 * its level before the run. Nothing here depends on how fast the machine is.
 * @module
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { expect } from 'chai';
import { formatReport, runSoak } from '../../bench/soak.js';

describe('soak: concurrent HTTP clients (CI-sized)', function () {
  this.timeout(180_000);
  const holder = globalThis as { gc?: () => void };
  let installedGc = false;

  before(() => {
    // a forced gc for the heap figures, when mocha was not started with --expose-gc
    if (typeof holder.gc !== 'function') {
      setFlagsFromString('--expose-gc');
      holder.gc = runInNewContext('gc') as () => void;
      installedGc = true;
    }
  });
  after(() => {
    if (installedGc) delete holder.gc;
  });

  it('mixes every operation without a 5xx, the store equals the replay, and the heap comes back', async () => {
    const report = await runSoak({
      seconds: Number(process.env.QUADLOG_SOAK_SECONDS) || 5,
      clients: Number(process.env.QUADLOG_SOAK_CLIENTS) || 20,
      seed: Number(process.env.QUADLOG_SOAK_SEED) || 1,
      objectKeepAliveTime: 3000,
      warmupSeconds: 2,
    });
    const text = formatReport(report);
    if (process.env.QUADLOG_FUZZ_VERBOSE) console.log(text);
    expect(report.undocumentedCount, text).to.equal(0);
    expect(report.storeMatchesReplay, text).to.equal(true);
    expect(report.acknowledgedWrites, text).to.be.above(0);
    for (const key of Object.keys(report.documentedErrors)) expect(key, text).to.match(/^(423 LockTimeoutError|409 \w+Error)$/);
    // every kind of operation ran at least once (the clients' choices are seeded)
    const kinds = report.operations.map((o) => o.operation);
    for (const kind of ['query', 'cursor', 'import', 'update', 'rule-add', 'transaction-commit', 'transaction-rollback', 'connection-expire', 'connection-delete']) {
      expect(kinds, text).to.include(kind);
    }
    expect(report.heapMB.gcAvailable).to.equal(true);
    expect(report.heapMB.afterCleanup, text).to.be.at.most(Math.max(report.heapMB.before + 32, report.heapMB.before * 1.5));
  });
});
