/**
 * Cold-start benchmark: how long a fresh Node process takes to import the package and to answer
 * a first query, against n3 and oxigraph, measured side by side.
 *
 * Usage: `npm run bench:cold-start -- [--runs N] [--baseline DIR]` (default 15 runs).
 * `--baseline DIR` adds rows for another built copy of quadlog (a checkout with `dist/` built,
 * e.g. of an earlier commit, with `node_modules` reachable from it), measured in the same run.
 *
 * Every measurement runs in a fresh child process (`node --input-type=module -e …`, started in
 * the repository, so that `import('quadlog')` resolves to the BUILT package, `dist/`, through
 * the package's own `exports`). The runs of the cases are interleaved (run 1 of every case,
 * then run 2, …), so that a change in the machine's load touches every case alike. When
 * `dist/` is missing or older than a file of `lib/`, `npm run build` runs first.
 *
 * Cases:
 * - (a) `import('quadlog')`, `import('n3')` and `import('oxigraph')`: the time of the dynamic
 *   import alone, measured inside the child, and the wall time of the whole child process as
 *   the parent sees it (Node's own start included);
 * - (b) import, then a data store (quadlog's short path, `open()`; a baseline without it
 *   creates a server, a role and a store), 100 triples of Turtle loaded and one SELECT
 *   answered, quadlog against oxigraph (`new oxigraph.Store()`, `store.load`, `store.query`):
 *   the time from before the import to the answer, inside the child, with the phases of
 *   quadlog's run, and the wall time of the child process.
 *
 * The figures are medians over the runs, in milliseconds.
 * @module
 */
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

const { values } = parseArgs({ options: { runs: { type: 'string', default: '15' }, baseline: { type: 'string' } } });
const RUNS = Number(values.runs);
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error(`--runs: expected a positive integer, got '${values.runs}'`);
const BASELINE = values.baseline === undefined ? undefined : resolve(values.baseline);
if (BASELINE !== undefined && newest(join(BASELINE, 'dist'), '.js') === 0) throw new Error(`--baseline: ${BASELINE} has no dist/ (build it first)`);

// ---------------------------------------------------------------- the build

/** The newest modification time (ms) of the files under `dir` whose names end with `suffix`; 0 if none. */
function newest(dir: string, suffix: string): number {
  let latest = 0;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory()) latest = Math.max(latest, newest(path, suffix));
    else if (e.name.endsWith(suffix)) latest = Math.max(latest, statSync(path).mtimeMs);
  }
  return latest;
}

const built = newest(join(ROOT, 'dist'), '.js');
if (built === 0 || built < newest(join(ROOT, 'lib'), '.ts')) {
  process.stdout.write(built === 0 ? 'dist/ is missing: npm run build\n' : 'dist/ is older than lib/: npm run build\n');
  const build = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  // tsc emits despite type errors: measure what it emitted, but say so
  if (build.status !== 0 && newest(join(ROOT, 'dist'), '.js') === 0) throw new Error(`npm run build failed (exit code ${build.status})`);
  if (build.status !== 0) process.stdout.write(`npm run build reported errors (exit code ${build.status}); measuring the dist/ it emitted\n`);
}

// ---------------------------------------------------------------- the cases

/** 100 triples of Turtle: 25 people with a type, a name, an age and a friend. */
const TURTLE = [
  '@prefix ex: <http://example.com/people#> .',
  ...Array.from({ length: 25 }, (_, i) => `ex:p${i} a ex:Person ; ex:name "Person ${i}" ; ex:age ${20 + i} ; ex:knows ex:p${(i + 1) % 25} .`),
].join('\n');

/** The first query: 10 answers. */
const SELECT = 'PREFIX ex: <http://example.com/people#> SELECT ?name ?age WHERE { ?p a ex:Person ; ex:name ?name ; ex:age ?age FILTER(?age >= 35) } ORDER BY ?name';
const ANSWERS = 10;

/**
 * A child's script: it prints one JSON object of named spans (ms, measured with
 * performance.now()). `body` runs between the marks `start` and the last mark it sets.
 */
function script(body: string): string {
  return `const marks = {}; const t0 = performance.now(); const mark = (name) => { marks[name] = performance.now() - t0; };\n${body}\nprocess.stdout.write(JSON.stringify(marks));`;
}

interface Case {
  /** What the row is called. */
  readonly label: string;
  /** The child's script. */
  readonly script: string;
  /** Where the child runs (which copy of quadlog `import('quadlog')` finds); default the repository. */
  readonly cwd?: string;
  /** The spans shown, as [column, mark]: the mark's time since the start of the script. */
  readonly spans: ReadonlyArray<readonly [string, string]>;
}

const importCases: Case[] = [
  { label: "import('quadlog')", script: script("await import('quadlog'); mark('import');"), spans: [['import', 'import']] },
  { label: "import('n3')", script: script("await import('n3'); mark('import');"), spans: [['import', 'import']] },
  { label: "import('oxigraph')", script: script("await import('oxigraph'); mark('import');"), spans: [['import', 'import']] },
];

const firstQueryCases: Case[] = [
  {
    label: 'quadlog',
    script: script(`
      const quadlog = await import('quadlog');
      mark('import');
      // the short path, open(); a baseline without it takes the long one
      const ds = quadlog.open ? await quadlog.open() : await (async () => {
        const server = await quadlog.Server.create({ roleName: 'admin', password: 'cold-start', url: 'local' });
        const sc = await quadlog.ConnectionFactory.newServerConnection('local', 'admin', 'cold-start');
        sc.createDataStore('cold');
        return Object.assign(sc.newDataStoreConnection('cold'), { close: () => server.shutdown() });
      })();
      mark('server');
      await ds.importData('ADD', ${JSON.stringify(TURTLE)});
      mark('load');
      const answer = await ds.evaluateQuery(${JSON.stringify(SELECT)});
      mark('query');
      if (answer.type !== 'bindings' || answer.rows.length !== ${ANSWERS}) throw new Error('unexpected answer: ' + JSON.stringify(answer));
      await ds.close();`),
    spans: [['import', 'import'], ['+ store', 'server'], ['+ load', 'load'], ['+ query', 'query']],
  },
  {
    label: 'oxigraph',
    script: script(`
      const { default: oxigraph } = await import('oxigraph');
      mark('import');
      const store = new oxigraph.Store();
      mark('server');
      store.load(${JSON.stringify(TURTLE)}, { format: 'text/turtle' });
      mark('load');
      const rows = [...store.query(${JSON.stringify(SELECT)})];
      mark('query');
      if (rows.length !== ${ANSWERS}) throw new Error('unexpected answer: ' + rows.length + ' rows');`),
    spans: [['import', 'import'], ['+ store', 'server'], ['+ load', 'load'], ['+ query', 'query']],
  },
];

/** The quadlog rows again, for the copy at `--baseline`. */
function withBaseline(cases: readonly Case[]): Case[] {
  if (BASELINE === undefined) return [...cases];
  const out: Case[] = [];
  for (const c of cases) {
    out.push(c);
    if (c.label.includes('quadlog')) out.push({ ...c, label: `${c.label} (baseline)`, cwd: BASELINE });
  }
  return out;
}

// ---------------------------------------------------------------- running

/** One run of a case: its marks and the wall time of the child process (ms). */
interface Run {
  readonly marks: Readonly<Record<string, number>>;
  readonly processMs: number;
}

function runOnce(c: Case): Promise<Run> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, ['--input-type=module', '-e', c.script], { cwd: c.cwd ?? ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const processMs = performance.now() - start;
      if (code !== 0) reject(new Error(`${c.label}: exit code ${code}\n${err}`));
      else resolve({ marks: JSON.parse(out) as Record<string, number>, processMs });
    });
  });
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

async function measure(cases: readonly Case[]): Promise<Run[][]> {
  const runs: Run[][] = cases.map(() => []);
  // one unmeasured run of each case warms the file system cache
  for (const c of cases) await runOnce(c);
  for (let i = 0; i < RUNS; i++) for (const [k, c] of cases.entries()) runs[k]!.push(await runOnce(c));
  return runs;
}

function table(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]): string => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

function report(title: string, cases: readonly Case[], runs: readonly Run[][]): void {
  const columns = cases[0]!.spans.map(([name]) => name);
  const rows = cases.map((c, k) => [
    c.label,
    ...c.spans.map(([, mark]) => median(runs[k]!.map((r) => r.marks[mark]!)).toFixed(1)),
    median(runs[k]!.map((r) => r.processMs)).toFixed(1),
  ]);
  process.stdout.write(`\n${title}\n\n${table(['case', ...columns, 'process'], rows)}\n`);
}

process.stdout.write(`cold start: medians of ${RUNS} fresh processes per case, ms (node ${process.version}, ${process.platform}/${process.arch})\n`);
process.stdout.write('columns: time since the start of the script up to the end of each step, inside the child; process = wall time of the whole child process\n');
if (BASELINE !== undefined) process.stdout.write(`baseline: ${BASELINE}\n`);
const imports = withBaseline(importCases);
report('(a) import', imports, await measure(imports));
const firstQueries = withBaseline(firstQueryCases);
report('(b) import + store + 100 triples of Turtle + one SELECT', firstQueries, await measure(firstQueries));
