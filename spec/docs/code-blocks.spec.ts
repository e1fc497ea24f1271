/**
 * Every ```ts and ```js code block of the README and of the guides under docs/ is a complete
 * program that runs as written: each is written to a temporary directory (imports of
 * `quadlog` and `quadlog/http` pointed at the sources; the directory lies in the repository's
 * `node_modules/.cache`, so that other packages a page imports, which a reader installs beside
 * quadlog, resolve to the repository's copies), run in a child process with tsx, and
 * must exit with status 0. A block that is not meant to run is written as ```text.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '..', '..');
/** tsx's loader, named by its path. */
const TSX = pathToFileURL(join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;

/** The documents whose code blocks are checked. */
function documents(): string[] {
  const docs = readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => join('docs', f));
  return ['README.md', ...docs];
}

/** The runnable code blocks of a Markdown text, with the line each starts on. */
export function codeBlocks(markdown: string): Array<{ line: number; code: string }> {
  const blocks: Array<{ line: number; code: string }> = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(ts|js|typescript|javascript)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && !/^```\s*$/.test(lines[end]!)) end++;
    blocks.push({ line: start + 1, code: lines.slice(start, end).join('\n') });
    i = end;
  }
  return blocks;
}

/** The code with `quadlog` imports pointed at the sources. */
function localised(code: string): string {
  const index = pathToFileURL(join(ROOT, 'lib', 'index.ts')).href;
  const http = pathToFileURL(join(ROOT, 'lib', 'http', 'index.ts')).href;
  return code.replace(/from '(quadlog(?:\/http)?)'/g, (_m, name: string) => `from '${name === 'quadlog' ? index : http}'`);
}

describe('documentation: every code block runs as written', function () {
  this.timeout(60_000);
  let dir: string;
  before(() => {
    mkdirSync(join(ROOT, 'node_modules', '.cache'), { recursive: true });
    dir = mkdtempSync(join(ROOT, 'node_modules', '.cache', 'quadlog-docs-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('finds code blocks in the README', () => {
    expect(codeBlocks(readFileSync(join(ROOT, 'README.md'), 'utf8')).length).to.be.greaterThan(2);
  });

  for (const document of documents()) {
    const blocks = codeBlocks(readFileSync(join(ROOT, document), 'utf8'));
    blocks.forEach(({ line, code }, n) => {
      it(`${document}, the block at line ${line}`, async () => {
        const file = join(dir, `${document.replace(/[^\w]/g, '_')}-${n}.mts`);
        writeFileSync(file, localised(code));
        try {
          await run(process.execPath, ['--import', TSX, file], { cwd: dir, timeout: 50_000, env: { ...process.env, NODE_NO_WARNINGS: '1' } });
        } catch (e) {
          const failure = e as Error & { stdout?: string; stderr?: string };
          expect.fail(`${document}:${line} does not run:\n${failure.stderr ?? ''}${failure.stdout ?? ''}${failure.message}`);
        }
      });
    });
  }
});
