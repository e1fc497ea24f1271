import { expect } from 'chai';
import { LockTimeoutError } from '../../lib/model/errors.js';
import { WriteLock } from '../../lib/storage/write-lock.js';

/** Lets every pending promise callback run. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('WriteLock', () => {
  it('is acquired at once when free and freed by release', async () => {
    const lock = new WriteLock();
    expect(lock.locked).to.equal(false);
    await lock.acquire(0);
    expect(lock.locked).to.equal(true);
    lock.release();
    expect(lock.locked).to.equal(false);
    await lock.acquire(Infinity);
    expect(lock.locked).to.equal(true);
    lock.release();
  });

  it('serves waiters first come, first served; release hands over without freeing', async () => {
    const lock = new WriteLock();
    await lock.acquire(1000);
    const order: string[] = [];
    const waiters = ['a', 'b', 'c', 'd'].map((name, i) =>
      lock.acquire(i % 2 === 0 ? Infinity : 10_000).then(() => {
        order.push(name);
      }),
    );
    await settle();
    expect(order).to.deep.equal([]);
    for (let i = 0; i < 4; i++) {
      lock.release();
      await settle();
      expect(order).to.deep.equal(['a', 'b', 'c', 'd'].slice(0, i + 1));
      expect(lock.locked).to.equal(true); // held by the waiter just served
    }
    await Promise.all(waiters);
    lock.release();
    expect(lock.locked).to.equal(false);
  });

  it('a newcomer does not overtake queued waiters after a release', async () => {
    const lock = new WriteLock();
    await lock.acquire(1000);
    const order: string[] = [];
    const first = lock.acquire(10_000).then(() => order.push('first'));
    lock.release();
    const late = lock.acquire(10_000).then(() => order.push('late'));
    await first;
    await settle();
    expect(order).to.deep.equal(['first']);
    lock.release();
    await late;
    expect(order).to.deep.equal(['first', 'late']);
    lock.release();
    expect(lock.locked).to.equal(false);
  });

  it('rejects with LockTimeoutError when the wait times out and removes the waiter from the queue', async () => {
    const lock = new WriteLock();
    await lock.acquire(1000);
    const order: string[] = [];
    const impatient = lock.acquire(5, 'store Y');
    const patient = lock.acquire(Infinity).then(() => order.push('patient'));
    let error: unknown;
    try {
      await impatient;
    } catch (e) {
      error = e;
    }
    expect(error).to.be.instanceOf(LockTimeoutError);
    expect((error as Error).message).to.contain('store Y');
    expect(lock.locked).to.equal(true);
    // the timed-out waiter is gone: the next release goes to the patient one
    lock.release();
    await patient;
    expect(order).to.deep.equal(['patient']);
    expect(lock.locked).to.equal(true);
    lock.release();
    expect(lock.locked).to.equal(false);
  });

  it('a timeout of 0 fails at once while the lock is held', async () => {
    const lock = new WriteLock();
    await lock.acquire(0);
    let error: unknown;
    await lock.acquire(0).catch((e: unknown) => {
      error = e;
    });
    expect(error).to.be.instanceOf(LockTimeoutError);
    lock.release();
    expect(lock.locked).to.equal(false);
  });

  it('a waiter served before its timeout is not rejected later', async () => {
    const lock = new WriteLock();
    await lock.acquire(0);
    let rejected = false;
    const waiter = lock.acquire(20).catch(() => {
      rejected = true;
    });
    lock.release();
    await waiter;
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(rejected).to.equal(false);
    expect(lock.locked).to.equal(true);
    lock.release();
    expect(lock.locked).to.equal(false);
  });
});
