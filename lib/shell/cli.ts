#!/usr/bin/env node
/**
 * The `quadlog` command: `quadlog serve …` starts a server with its HTTP endpoint, `quadlog
 * shell …` runs the shell (see `quadlog help`).
 * @module
 */
import { parseServeArguments, serve, SERVE_USAGE } from './serve.js';
import { parseShellArguments, runShell, SHELL_USAGE } from './shell-command.js';
import { VERSION } from '../index.js';

const USAGE = `quadlog ${VERSION}

commands:
  quadlog serve [options]   run a server with the HTTP management interface
  quadlog shell [options]   the shell: commands typed at a terminal, or a script
  quadlog version           print the version
  quadlog help              this text

${SERVE_USAGE}

${SHELL_USAGE}`;

async function main(args: readonly string[]): Promise<number> {
  const [command, ...rest] = args;
  switch (command) {
    case 'serve': {
      let options;
      try {
        options = parseServeArguments(rest);
      } catch (e) {
        process.stderr.write(`quadlog serve: ${(e as Error).message}\n${SERVE_USAGE}\n`);
        return 2;
      }
      if (options.help === true) {
        process.stdout.write(`${SERVE_USAGE}\n`);
        return 0;
      }
      let running;
      try {
        running = await serve(options);
      } catch (e) {
        // a failure to start (wrong credentials on a restart, a file of --import, a locked directory) is one line
        process.stderr.write(`quadlog serve: ${e instanceof Error ? (e.name === 'Error' ? e.message : `${e.name}: ${e.message}`) : String(e)}\n`);
        return 1;
      }
      // listening before the banner says how to stop: a signal right after it stops gracefully
      const stopped = new Promise<void>((resolve) => {
        const stop = (): void => {
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          resolve();
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
      });
      process.stdout.write(`${running.banner}\n`);
      await stopped;
      await running.stop();
      return 0;
    }
    case 'shell': {
      let options;
      try {
        options = parseShellArguments(rest);
      } catch (e) {
        process.stderr.write(`quadlog shell: ${(e as Error).message}\n${SHELL_USAGE}\n`);
        return 2;
      }
      return runShell(options);
    }
    case 'version':
    case '--version':
      process.stdout.write(`${VERSION}\n`);
      return 0;
    case undefined:
    case 'help':
    case '--help':
      process.stdout.write(`${USAGE}\n`);
      return 0;
    default:
      process.stderr.write(`quadlog: unknown command '${command}'\n${USAGE}\n`);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (e: unknown) => {
    process.stderr.write(`quadlog: ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}\n`);
    process.exitCode = 1;
  },
);
