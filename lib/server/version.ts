/**
 * The server's version string and build revision.
 * @module
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

function readJsonVersion(): string {
  try {
    return (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}

function readGitSha(): string {
  if (process.env.QUADLOG_GIT_SHA) return process.env.QUADLOG_GIT_SHA;
  try {
    const head = readFileSync(join(root, '.git', 'HEAD'), 'utf8').trim();
    if (!head.startsWith('ref: ')) return head;
    const ref = head.slice(5);
    try {
      return readFileSync(join(root, '.git', ref), 'utf8').trim();
    } catch {
      const packed = readFileSync(join(root, '.git', 'packed-refs'), 'utf8');
      const line = packed.split('\n').find((l) => l.endsWith(` ${ref}`));
      return line ? line.split(' ')[0]! : 'unknown';
    }
  } catch {
    return 'unknown';
  }
}

/** The package version, e.g. `0.1.0`. */
export const VERSION = readJsonVersion();

/** The build revision (git commit), or `unknown`. */
export const GIT_SHA = readGitSha();
