/**
 * A regression guard for cold start, without timing anything: importing quadlog must not load
 * the SPARQL parsing stack (sparqljs, sparqlalgebrajs) nor the evaluator; the first query
 * loads them. Checked in a fresh `node --import tsx` process that records the modules loaded:
 * ES modules through a loader hook, CommonJS ones (the two libraries) through `require.cache`.
 * Also: the constants that stand for sparqlalgebrajs's enumerations (so that telling algebra
 * nodes apart loads nothing) have the enumerations' values.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { Algebra as SparqlAlgebra } from 'sparqlalgebrajs';
import { Algebra } from '../../lib/expressions/sparql-libraries.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The loader hook: posts the URL of every module loaded to the port it is given. */
const HOOK = `
let port;
export function initialize(data) { port = data.port; }
export async function load(url, context, next) {
  const result = await next(url, context);
  port.postMessage(url);
  return result;
}`;

/**
 * The child's script: the modules loaded after importing lib/index.ts, then after a first
 * query, as one JSON line. A data: module imported after each step and waited for marks the
 * end of the step's hook messages (the hook posts in load order).
 */
const SCRIPT = `
import { createRequire, register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';
const { port1, port2 } = new MessageChannel();
const loaded = [];
let waiting;
port1.on('message', (url) => {
  loaded.push(url);
  if (waiting && url === waiting.url) waiting.resolve();
});
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(HOOK)}), { data: { port: port2 }, transferList: [port2] });
const require = createRequire(import.meta.url);
let step = 0;
async function snapshot() {
  const url = 'data:text/javascript,export default ' + ++step;
  const seen = new Promise((resolve) => (waiting = { url, resolve }));
  await import(url);
  await seen;
  return { esm: loaded.filter((u) => u.startsWith('file:')), cjs: Object.keys(require.cache) };
}
const lib = await import('./lib/index.ts');
const afterImport = await snapshot();
const server = await lib.Server.create({ roleName: 'admin', password: 'lazy-loading', url: 'local' });
const sc = await lib.ConnectionFactory.newServerConnection('local', 'admin', 'lazy-loading');
sc.createDataStore('s');
const ds = sc.newDataStoreConnection('s');
await ds.evaluateQuery('SELECT * WHERE { ?s ?p ?o }');
const afterQuery = await snapshot();
ds.close();
sc.close();
await server.shutdown();
port1.close();
process.stdout.write(JSON.stringify({ afterImport, afterQuery }) + '\\n');
`;

interface Loaded {
  readonly esm: readonly string[];
  readonly cjs: readonly string[];
}

function run(): Promise<{ afterImport: Loaded; afterQuery: Loaded }> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', SCRIPT], { cwd: ROOT, timeout: 60_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`the child failed: ${error.message}\n${stderr}`));
      else resolve(JSON.parse(stdout.trim().split('\n').pop()!) as { afterImport: Loaded; afterQuery: Loaded });
    });
  });
}

const PACKAGES = ['sparqljs', 'sparqlalgebrajs'];
const EVALUATOR = ['lib/sparql/evaluation.ts', 'lib/sparql/engine.ts', 'lib/sparql/paths.ts', 'lib/sparql/update-execution.ts'];

/** The packages of `PACKAGES` and the modules of `EVALUATOR` among the modules loaded. */
function heavy(loaded: Loaded): string[] {
  const all = [...loaded.esm.map((u) => fileURLToPath(u)), ...loaded.cjs];
  return [
    ...PACKAGES.filter((p) => all.some((f) => f.includes(`/node_modules/${p}/`))),
    ...EVALUATOR.filter((m) => all.some((f) => f === `${ROOT}${m}`)),
  ];
}

describe('sparql: lazy loading', function () {
  this.timeout(60_000);

  it('importing quadlog loads neither sparqljs, sparqlalgebrajs nor the evaluator; the first query does', async () => {
    const { afterImport, afterQuery } = await run();
    expect(afterImport.esm.some((u) => u.endsWith('/lib/index.ts')), 'the hook sees lib/index.ts').to.equal(true);
    expect(heavy(afterImport), 'loaded by the import').to.deep.equal([]);
    expect(heavy(afterQuery), 'loaded by the first query').to.deep.equal(['sparqljs', 'sparqlalgebrajs', 'lib/sparql/evaluation.ts', 'lib/sparql/engine.ts', 'lib/sparql/paths.ts']);
  });

  it('names the node types of the algebra with the values of sparqlalgebrajs\'s enumerations', () => {
    expect({ ...Algebra.types }).to.deep.equal({ ...SparqlAlgebra.types });
    expect({ ...Algebra.expressionTypes }).to.deep.equal({ ...SparqlAlgebra.expressionTypes });
  });
});
