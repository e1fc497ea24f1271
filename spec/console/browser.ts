/**
 * Test helper of the browser specs: headless Chromium (Debian's `chromium` package, driven by
 * playwright-core). It lives beside them, under spec/console/ with its own tsconfig.json
 * (playwright's types need the DOM library, which the rest of the project does without).
 *
 * {@link ensureChromium} finds the browser (`QUADLOG_CHROMIUM`, else Debian's paths) and, when
 * it is absent, installs the package with apt-get (as root, else with `sudo -n`): the browser
 * specs are never skipped, so a machine without the browser gets it. playwright-core
 * downloads no browser of its own.
 * @module
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { installDebianPackages } from '../helpers/debian.js';

/** Where Debian's package puts the browser: the binary, then its wrapper script. */
const CHROMIUM_PATHS = ['/usr/lib/chromium/chromium', '/usr/bin/chromium'];

function found(): string | undefined {
  const override = process.env['QUADLOG_CHROMIUM'];
  if (override !== undefined && override !== '') return override;
  return CHROMIUM_PATHS.find((p) => existsSync(p));
}

let installing: Promise<string> | undefined;

/**
 * The path of the Chromium binary, installing Debian's `chromium` package first when it is
 * missing (`apt-get update`, then `apt-get install -y chromium`; a few minutes).
 * @throws when it cannot be installed (the message says how to install it by hand).
 */
export function ensureChromium(): Promise<string> {
  installing ??= (async () => {
    const path = found();
    if (path !== undefined) return path;
    try {
      await installDebianPackages('chromium');
    } catch (e) {
      throw new Error(`Chromium is not installed and installing it failed; install it with 'apt-get install -y chromium' (or set QUADLOG_CHROMIUM to a Chromium binary): ${(e as Error).message}`, { cause: e });
    }
    const installed = found();
    if (installed === undefined) throw new Error(`apt-get installed chromium but none of ${CHROMIUM_PATHS.join(', ')} exists`);
    return installed;
  })();
  return installing;
}

/** Launches headless Chromium (without the sandbox when running as root, which it refuses). */
export async function launchChromium(): Promise<Browser> {
  const executablePath = await ensureChromium();
  return chromium.launch({
    executablePath,
    headless: true,
    args: [...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), '--disable-dev-shm-usage', '--disable-gpu', '--no-first-run', '--disable-extensions'],
  });
}
