import { expect } from 'chai';
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DirectoryLock, encodeOwner, type LockOwner, ownerStatus, processStartToken, takeoverMarkerPath } from '../../lib/persistence/directory-lock.js';
import { DirectoryLockedError, PersistenceError } from '../../lib/persistence/errors.js';
import { useTempDir } from './helpers.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FIXTURE = fileURLToPath(new URL('fixtures/hold-lock.ts', import.meta.url));

/** A child process running fixtures/hold-lock.ts. */
interface Holder {
  readonly child: ChildProcessWithoutNullStreams;
  /** Its report: `acquired <pid> <n>` or `refused <pid> <message>`. */
  readonly report: Promise<string>;
  /** Settles when the process has exited (and was reaped). */
  readonly exited: Promise<void>;
}

const children = new Set<ChildProcessWithoutNullStreams>();

function startHolder(directory: string): Holder {
  const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE, directory], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  children.add(child);
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const report = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const end = out.indexOf('\n');
      if (end >= 0) resolve(out.slice(0, end));
    });
    child.on('exit', (code, signal) => reject(new Error(`the lock holder exited (${code ?? signal}) before reporting: ${err}`)));
  });
  report.catch(() => undefined);
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  exited.then(() => children.delete(child), () => undefined);
  return { child, report, exited };
}

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  const pid = child.pid!;
  await new Promise((resolve) => child.on('exit', resolve));
  return pid;
}

function owner(fields: Partial<LockOwner>): LockOwner {
  return { pid: process.pid, host: hostname(), token: processStartToken(process.pid) ?? '', acquired: '2020-01-01T00:00:00.000Z', ...fields };
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (e) {
    return e as Error;
  }
  expect.fail('expected a rejection');
}

describe('persistence directory lock', function () {
  this.timeout(60_000);
  const tmp = useTempDir();
  const lockFile = (): string => join(tmp.path, 'lock');

  afterEach(() => {
    for (const child of children) child.kill('SIGKILL');
    children.clear();
  });

  it('is taken, refused to a second taker in the same process, and released', async () => {
    const lock = await DirectoryLock.acquire(tmp.path);
    expect(lock.path).to.equal(lockFile());
    expect(lock.tookOver).to.deep.equal([]);
    expect(JSON.parse(await readFile(lockFile(), 'utf8'))).to.include({ pid: process.pid, host: hostname() });
    const e = await rejection(DirectoryLock.acquire(tmp.path));
    expect(e).to.be.instanceOf(DirectoryLockedError);
    expect(e.message).to.include(tmp.path).and.include('this process');
    await lock.release();
    await lock.release();
    expect(await readdir(tmp.path)).to.deep.equal([]);
    const again = await DirectoryLock.acquire(tmp.path);
    again.releaseSync();
    expect(await readdir(tmp.path)).to.deep.equal([]);
  });

  it('refuses a second process while the first holds the lock, naming the directory and its pid', async () => {
    const holder = startHolder(tmp.path);
    const report = await holder.report;
    expect(report).to.equal(`acquired ${holder.child.pid} 0`);
    const e = await rejection(DirectoryLock.acquire(tmp.path));
    expect(e).to.be.instanceOf(DirectoryLockedError);
    expect((e as DirectoryLockedError).pid).to.equal(holder.child.pid);
    expect(e.message).to.include(tmp.path).and.include(`process ${holder.child.pid}`);
    // a second child is refused the same way
    const second = startHolder(tmp.path);
    expect(await second.report).to.match(new RegExp(`^refused ${second.child.pid} .*in use by process ${holder.child.pid}`));
    second.child.stdin.end();
    await second.exited;
    // the holder releases the lock as it ends
    holder.child.stdin.end();
    await holder.exited;
    const lock = await DirectoryLock.acquire(tmp.path);
    expect(lock.tookOver).to.deep.equal([]);
    await lock.release();
  });

  it('takes over the lock of a process killed with SIGKILL', async () => {
    const holder = startHolder(tmp.path);
    expect(await holder.report).to.match(/^acquired /);
    holder.child.kill('SIGKILL');
    await holder.exited;
    const stale = JSON.parse(await readFile(lockFile(), 'utf8')) as LockOwner;
    expect(stale.pid).to.equal(holder.child.pid);
    const lock = await DirectoryLock.acquire(tmp.path);
    expect(lock.tookOver.map((t) => t.owner.pid)).to.deep.equal([holder.child.pid]);
    expect(JSON.parse(await readFile(lockFile(), 'utf8'))).to.include({ pid: process.pid });
    await lock.release();
    expect(await readdir(tmp.path)).to.deep.equal([]);
  });

  it('lets exactly one of several racing processes take over a stale lock', async () => {
    await writeFile(lockFile(), encodeOwner(owner({ pid: await deadPid() })));
    const holders = Array.from({ length: 4 }, () => startHolder(tmp.path));
    const reports = await Promise.all(holders.map((h) => h.report));
    const winners = reports.filter((r) => r.startsWith('acquired'));
    expect(winners, reports.join('\n')).to.have.length(1);
    const winner = Number(winners[0]!.split(' ')[1]);
    for (const r of reports.filter((r) => r.startsWith('refused'))) expect(r).to.include(`in use by process ${winner}`);
    expect(JSON.parse(await readFile(lockFile(), 'utf8'))).to.include({ pid: winner });
    for (const h of holders) h.child.stdin.end();
    await Promise.all(holders.map((h) => h.exited));
    expect(await readdir(tmp.path)).to.deep.equal([]);
  });

  it('lets exactly one of several concurrent takers in one process have a stale lock', async () => {
    await writeFile(lockFile(), encodeOwner(owner({ pid: await deadPid() })));
    const outcomes = await Promise.allSettled(Array.from({ length: 8 }, () => DirectoryLock.acquire(tmp.path)));
    const won = outcomes.filter((o) => o.status === 'fulfilled');
    expect(won).to.have.length(1);
    for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).to.be.instanceOf(DirectoryLockedError);
    await won[0]!.value.release();
    expect(await readdir(tmp.path)).to.deep.equal([]);
  });

  it('takes over a lock whose pid is not running', async () => {
    const pid = await deadPid();
    await writeFile(lockFile(), encodeOwner(owner({ pid })));
    expect(ownerStatus(owner({ pid }))).to.equal('dead');
    const lock = await DirectoryLock.acquire(tmp.path);
    expect(lock.tookOver.map((t) => t.owner.pid)).to.deep.equal([pid]);
    await lock.release();
  });

  it('takes over a lock whose pid now belongs to another process (start token differs), or from before a reboot', async function () {
    const token = processStartToken(process.pid);
    if (token === undefined || token === '') this.skip();
    const [boot] = token.split(':');
    for (const stale of [owner({ token: `${boot}:1` }), owner({ token: 'another-boot:1' })]) {
      expect(ownerStatus(stale)).to.equal('dead');
      await writeFile(lockFile(), encodeOwner(stale));
      const lock = await DirectoryLock.acquire(tmp.path);
      expect(lock.tookOver).to.have.length(1);
      await lock.release();
    }
  });

  it('refuses a lock taken on another host, telling what to do', async () => {
    await writeFile(lockFile(), encodeOwner(owner({ host: 'elsewhere.invalid', pid: 4242 })));
    const e = await rejection(DirectoryLock.acquire(tmp.path));
    expect(e).to.be.instanceOf(DirectoryLockedError);
    expect(e.message).to.include('process 4242 on host elsewhere.invalid').and.include(`delete ${lockFile()}`);
  });

  it('refuses a lock file that is not a lock', async () => {
    await writeFile(lockFile(), 'something else');
    const e = await rejection(DirectoryLock.acquire(tmp.path));
    expect(e).to.be.instanceOf(PersistenceError);
    expect(e.message).to.include(lockFile()).and.include('not a quadlog lock');
    expect(await readFile(lockFile(), 'utf8')).to.equal('something else');
  });

  it('gets past what a takeover killed half-way left behind', async () => {
    const stale = owner({ pid: await deadPid() });
    await writeFile(lockFile(), encodeOwner(stale));
    // a process that died while taking over: its marker and an unlinked pending file remain
    const deadTaker = owner({ pid: await deadPid(), acquired: '2021-01-01T00:00:00.000Z' });
    await writeFile(takeoverMarkerPath(lockFile(), stale), encodeOwner(deadTaker));
    await writeFile(join(tmp.path, `lock.pending-${deadTaker.pid}-0123456789ab`), encodeOwner(deadTaker));
    const lock = await DirectoryLock.acquire(tmp.path);
    expect(lock.tookOver.map((t) => t.owner.pid)).to.deep.equal([stale.pid]);
    expect(await readdir(tmp.path)).to.deep.equal(['lock']);
    await lock.release();
  });

  it('waits for a live process that is taking over the same stale lock, then re-reads the lock', async () => {
    const stale = owner({ pid: await deadPid() });
    await writeFile(lockFile(), encodeOwner(stale));
    // this process is "taking over" (a marker of a live owner), and never finishes
    await writeFile(takeoverMarkerPath(lockFile(), stale), encodeOwner(owner({ acquired: new Date().toISOString() })));
    const e = await rejection(DirectoryLock.acquire(tmp.path, { takeoverTimeoutMs: 50 }));
    expect(e).to.be.instanceOf(DirectoryLockedError);
    expect(e.message).to.include('is being taken over by process');
    expect(JSON.parse(await readFile(lockFile(), 'utf8'))).to.include({ pid: stale.pid });
  });
});
