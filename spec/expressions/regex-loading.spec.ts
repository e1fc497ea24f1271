/**
 * A regression guard for cold start, without timing anything: importing quadlog must not load
 * the regular expression engine (re2js, about 30 ms); the first pattern compiled does. Checked
 * in a fresh `node --import tsx` process through `require.cache` (lib/expressions/regex.ts
 * loads re2js's CommonJS build with `require`), and no module of lib/ imports re2js otherwise.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The child's script: whether re2js is loaded after importing lib/index.ts, then after a REGEX. */
const SCRIPT = `
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const loaded = () => Object.keys(require.cache).some((f) => f.includes('/node_modules/re2js/'));
await import('./lib/index.ts');
const afterImport = loaded();
const { regexMatches } = await import('./lib/expressions/regex.ts');
const matched = regexMatches('abc', 'b+', '');
process.stdout.write(JSON.stringify({ afterImport, afterRegex: loaded(), matched }) + '\\n');
`;

interface ChildOutput {
  readonly afterImport: boolean;
  readonly afterRegex: boolean;
  readonly matched: boolean;
}

function run(): Promise<ChildOutput> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', SCRIPT], { cwd: ROOT, timeout: 60_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`the child failed: ${error.message}\n${stderr}`));
      else resolve(JSON.parse(stdout.trim().split('\n').pop()!) as ChildOutput);
    });
  });
}

/** The TypeScript files under a directory, recursively. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

describe('expressions: the regular expression engine is loaded on first use', function () {
  this.timeout(60_000);

  it('importing quadlog does not load re2js; compiling a pattern does', async () => {
    expect(await run()).to.deep.equal({ afterImport: false, afterRegex: true, matched: true });
  });

  it('no module of lib/ imports re2js but for its types', () => {
    const importing = sources(join(ROOT, 'lib')).filter((f) => /^import(?! type)[^;]*from 're2js'/m.test(readFileSync(f, 'utf8')));
    expect(importing).to.deep.equal([]);
  });
});
