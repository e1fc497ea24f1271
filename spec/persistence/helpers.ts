/**
 * Test helpers of the persistence specs: a unique temporary directory per test (removed
 * afterwards), bit flips and truncated copies of files, and an optional tiny tmpfs for real
 * "disk full" errors.
 */
import { execFileSync } from 'node:child_process';
import { copyFile, mkdtemp, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh directory under the system's temporary directory for each test, removed after it. */
export function useTempDir(prefix = 'quadlog-persistence-'): { readonly path: string } {
  const state = { path: '' };
  beforeEach(async () => {
    state.path = await mkdtemp(join(tmpdir(), prefix));
  });
  afterEach(async () => {
    await rm(state.path, { recursive: true, force: true });
  });
  return state;
}

/** Flips bit `bit` of byte `offset` of a file, in place. */
export async function flipBit(path: string, offset: number, bit: number): Promise<void> {
  const bytes = await readFile(path);
  bytes[offset] = bytes[offset]! ^ (1 << bit);
  await writeFile(path, bytes);
}

/** Copies `from` to `to` and truncates the copy to `length` bytes. */
export async function truncatedCopy(from: string, to: string, length: number): Promise<void> {
  await copyFile(from, to);
  await truncate(to, length);
}

/** Copies `from` to `to` with bit `bit` of byte `offset` flipped. */
export async function flippedCopy(from: string, to: string, offset: number, bit: number): Promise<void> {
  const bytes = await readFile(from);
  bytes[offset] = bytes[offset]! ^ (1 << bit);
  await writeFile(to, bytes);
}

/**
 * Mounts a tmpfs of `bytes` bytes at `directory` (which must exist), for real ENOSPC errors.
 * Returns false where that is not possible (not Linux, not root, no mount permission).
 */
export function mountTinyTmpfs(directory: string, bytes: number): boolean {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return false;
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${bytes}`, 'tmpfs', directory], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Unmounts what {@link mountTinyTmpfs} mounted (lazily, so that it never fails a test). */
export function unmount(directory: string): void {
  try {
    execFileSync('umount', ['-l', directory], { stdio: 'ignore' });
  } catch {
    // already gone
  }
}

/** Random bytes from a fixed seed (xorshift), so that failures reproduce. */
export function seededBytes(length: number, seed = 1): Uint8Array {
  const out = new Uint8Array(length);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out[i] = x & 0xff;
  }
  return out;
}
