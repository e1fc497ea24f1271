/**
 * Test helper: the web console's bundle, built into dist/console/ (where the endpoint looks
 * for it when it runs from the sources) once per test process, so that the specs always load
 * the console of the sources they test. esbuild takes a second or two.
 * @module
 */
import { buildConsole, type ConsoleBuild } from '../../console/build.js';

let bundle: Promise<ConsoleBuild> | undefined;

/** Builds the console bundle into dist/console/ (once per process); resolves with what was written. */
export function consoleBundle(): Promise<ConsoleBuild> {
  bundle ??= buildConsole();
  return bundle;
}
