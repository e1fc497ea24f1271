/**
 * The first use of Unicode general categories as ranges, in a fresh process: what the first
 * regular expression that needs class arithmetic on categories (`[\p{L}-[\p{Lu}]]`, a negated
 * class holding `\w`) holds the event loop for, on top of compiling the pattern.
 *
 * Usage: `node --import tsx bench/regex-categories.ts [--runs N] [--baseline DIR]` (default 5
 * runs). `--baseline DIR` adds the same cases for another checkout of quadlog (its `lib/` run
 * through tsx, with `node_modules` reachable from it), e.g. of an earlier commit, measured in the
 * same run; the runs are interleaved (run 1 of every case and build, then run 2, …) so that a
 * change of the machine's load touches both builds alike.
 *
 * Each measurement is a fresh child (`node --import tsx`) that loads the modules and compiles a
 * pattern without categories (so that re2js is loaded), then times, wall clock and CPU:
 * - a category name (`L`, `Lu`, …): `categoryRanges([name])`, its first call;
 * - a pattern: `compileRegex(pattern)` (the ranges, the translation and re2js's compilation), and
 *   then a second pattern that needs the same categories (`pattern` + `x`), which shows what the
 *   compilation costs without them.
 * The figures are medians over the runs, with the least and greatest, in milliseconds.
 * @module
 */
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { cpus, loadavg } from 'node:os';
import type * as Categories from '../lib/expressions/unicode-categories.js';
import type * as Regex from '../lib/expressions/regex.js';
import { runChild, table } from './lib/harness.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The categories timed alone: every one-letter group and a few categories. */
const CATEGORIES = ['L', 'C', 'N', 'P', 'S', 'Z', 'M', 'Lu', 'Ll', 'Lo', 'Nd', 'Po', 'Mn', 'Cn'];

/** The patterns timed, by name. */
const PATTERNS: Readonly<Record<string, string>> = {
  'negated \\w': '[^\\w]',
  'negated \\w\\d': '[^\\w\\d]',
  'L minus Lu': '[\\p{L}-[\\p{Lu}]]',
};

/** What a child prints. */
interface ChildResult {
  readonly wallMs: number;
  readonly cpuMs: number;
  /** For a pattern: the second pattern's compilation, wall ms. */
  readonly againMs?: number;
}

/** Child mode: one case against the `lib/` of `root`. */
async function child(root: string, name: string): Promise<void> {
  // the modules of the build measured, typed as this build's
  const load = async <T>(module: string): Promise<T> => (await import(pathToFileURL(join(root, 'lib', 'expressions', module)).href)) as T;
  const { categoryRanges } = await load<typeof Categories>('unicode-categories.ts');
  const { compileRegex } = await load<typeof Regex>('regex.ts');
  compileRegex('[a-z]+\\d{2,3}(x|y)', 'i');
  const pattern = PATTERNS[name];
  const cpu = process.cpuUsage();
  const start = performance.now();
  if (pattern === undefined) categoryRanges([name]);
  else compileRegex(pattern, '');
  const wallMs = performance.now() - start;
  const used = process.cpuUsage(cpu);
  let againMs: number | undefined;
  if (pattern !== undefined) {
    const again = performance.now();
    compileRegex(`${pattern}x`, '');
    againMs = performance.now() - again;
  }
  process.stdout.write(`${JSON.stringify({ wallMs, cpuMs: (used.user + used.system) / 1000, againMs } satisfies ChildResult)}\n`);
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Median with the least and greatest. */
function spread(xs: readonly number[]): string {
  if (xs.length === 0) return '-';
  const f = (x: number): string => (x >= 10 ? x.toFixed(0) : x.toFixed(1));
  return `${f(median(xs))} (${f(Math.min(...xs))}–${f(Math.max(...xs))})`;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' }, baseline: { type: 'string' }, one: { type: 'string' }, root: { type: 'string' } } });
  if (values.one !== undefined) return child(values.root ?? ROOT, values.one);
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs: expected a positive integer, got '${values.runs}'`);
  const builds: (readonly [string, string])[] = [['this', ROOT]];
  if (values.baseline !== undefined) builds.unshift(['baseline', resolve(values.baseline)]);
  const cases = [...CATEGORIES, ...Object.keys(PATTERNS)];
  const script = fileURLToPath(import.meta.url);
  const cpu = cpus();
  console.log(`first use of Unicode category ranges, a fresh process per measurement, ${runs} runs`);
  console.log(`node ${process.version} (Unicode ${process.versions.unicode}), ${cpu.length} × ${cpu[0]?.model ?? '?'}, load average at start ${loadavg()[0]!.toFixed(2)}`);
  const results = new Map<string, ChildResult[]>();
  for (let run = 0; run < runs; run++) {
    for (const name of cases) {
      for (const [build, root] of builds) {
        const r = await runChild<ChildResult>(script, ['--one', name, '--root', root], `${build} ${name}`, []);
        const key = `${build} ${name}`;
        results.set(key, [...(results.get(key) ?? []), r]);
      }
    }
    process.stderr.write(`  run ${run + 1}/${runs}\n`);
  }
  const header = ['case'];
  for (const [build] of builds) header.push(`${build}: wall`, `${build}: CPU`, `${build}: pattern again`);
  const rows = cases.map((name) => {
    const row = [name in PATTERNS ? `${name}: ${PATTERNS[name]}` : `\\p{${name}}`];
    for (const [build] of builds) {
      const rs = results.get(`${build} ${name}`)!;
      row.push(spread(rs.map((r) => r.wallMs)), spread(rs.map((r) => r.cpuMs)), spread(rs.flatMap((r) => (r.againMs === undefined ? [] : [r.againMs]))));
    }
    return row;
  });
  console.log(table(header, rows, ['case']));
  console.log(`\n  ms, median (least–greatest); load average at end ${loadavg()[0]!.toFixed(2)}`);
}

await main();
