/**
 * Installing a Debian package the tests need (PostgreSQL's binaries, Chromium) on a fresh
 * machine: `apt-get update`, then `apt-get install -y --no-install-recommends`, as root or
 * through `sudo -n`. Two copies of the suite may install at once: apt's locks are waited for
 * (`DPkg::Lock::Timeout`) and a run that still finds them held is tried again, for up to ten
 * minutes, so the second copy uses what the first installed instead of failing.
 * @module
 */
import { execFile } from 'node:child_process';

/** How long to keep trying while another apt-get holds its locks. */
const LOCK_WAIT_MS = 10 * 60 * 1000;

function run(command: string, args: readonly string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${command} ${args.join(' ')} failed: ${error.message}\n${stdout}\n${stderr}`));
      else resolve();
    });
  });
}

/** Runs apt-get with the arguments, waiting out another apt-get's locks. */
async function aptGet(args: readonly string[]): Promise<void> {
  const root = process.getuid?.() === 0;
  const full = ['-o', 'DPkg::Lock::Timeout=300', ...args];
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      await (root ? run('apt-get', full) : run('sudo', ['-n', 'apt-get', ...full]));
      return;
    } catch (e) {
      if (!/Could not get lock|Unable to lock/.test((e as Error).message) || Date.now() > deadline) throw e;
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  }
}

let updated: Promise<void> | undefined;

/**
 * Installs Debian packages (once `apt-get update` has run in this process).
 * @throws when apt-get fails for another reason than a held lock, or the locks stay held.
 */
export async function installDebianPackages(...packages: readonly string[]): Promise<void> {
  updated ??= aptGet(['update']);
  await updated;
  await aptGet(['install', '-y', '--no-install-recommends', ...packages]);
}
