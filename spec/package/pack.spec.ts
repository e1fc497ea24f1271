/**
 * The package as a consumer gets it: `npm pack` on a copy of the working tree (without
 * node_modules, dist or .git, like a clean clone; prepack builds dist/), then the tarball
 * installed into temporary consumer projects, once with npm's default (hoisted) layout and once
 * with `--install-strategy=linked`, where a dependency the package uses but does not declare
 * cannot be found. In each, a plain JavaScript ESM script uses `quadlog` and `quadlog/http`,
 * and a strict TypeScript file using the public API type-checks with `skipLibCheck: false`.
 *
 * Everything happens under one fresh directory from `mkdtemp` (so two runs of the suite do not
 * meet), removed afterwards; the repository's dist/ and node_modules are left alone (the copy
 * links to node_modules for the build's compiler and type packages, and the type-checks use
 * the repository's TypeScript by its path).
 */
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import ts from 'typescript';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

/** Top-level entries of the working tree that a clean clone would not have (or a pack would not need). */
const NOT_COPIED = new Set(['node_modules', '.git', 'dist', 'coverage', '.scratch', 'tmp-scratch', 'test-data']);

/**
 * The environment of child npm and node processes: ours without npm's script variables (so
 * that `npm test` does not steer the child npm) and without coverage collection (under c8, the
 * children would only record coverage of dist/ and of the compiler).
 */
function childEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^npm_/i.test(key) && key !== 'NODE_V8_COVERAGE') env[key] = value;
  }
  return env;
}

interface RunResult {
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a command in `cwd`; a failure carries its output. */
function run(command: string, args: readonly string[], cwd: string): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd, env: childEnv(), maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) {
        reject(new Error(`${command} ${args.join(' ')} (in ${cwd}) failed: ${error.message}\n--- stdout\n${stdout}\n--- stderr\n${stderr}`));
      } else {
        resolve({ stdout, stderr });
      }
    });
  });
}

const INSTALL_FLAGS = ['--no-audit', '--no-fund', '--prefer-offline', '--no-update-notifier'];

/** A plain JavaScript consumer: prints a JSON summary of what it did. */
const SMOKE_JS = `import { ConnectionFactory, Server, VERSION, QuadlogError, UnknownResourceError } from 'quadlog';
import { startEndpoint } from 'quadlog/http';

const server = await Server.create({ roleName: 'admin', password: 'secret', url: 'consumer://smoke' });
const sc = await ConnectionFactory.newServerConnection('consumer://smoke', 'admin', 'secret');
sc.createDataStore('family');
const ds = sc.newDataStoreConnection('family');
const imported = await ds.importData('ADD', \`
  <http://example.com/alice> <http://example.com/parentOf> <http://example.com/bob> .
  <http://example.com/bob> <http://example.com/parentOf> <http://example.com/carol> .
  <http://example.com/bob> <http://example.com/name> "Bob"@en .
\`);
const rules = await ds.importData('ADD', \`
  [?x, <http://example.com/ancestorOf>, ?y] :- [?x, <http://example.com/parentOf>, ?y] .
  [?x, <http://example.com/ancestorOf>, ?z] :- [?x, <http://example.com/ancestorOf>, ?y], [?y, <http://example.com/parentOf>, ?z] .
\`);
const answer = await ds.evaluateQuery('SELECT ?d WHERE { <http://example.com/alice> <http://example.com/ancestorOf> ?d } ORDER BY ?d');
let unknown = '';
try {
  sc.newDataStoreConnection('missing');
} catch (e) {
  unknown = e instanceof UnknownResourceError && e instanceof QuadlogError ? e.name : String(e);
}
const endpoint = await startEndpoint(server, { port: 0 });
let health = 0;
let csv = '';
let consolePage = '';
try {
  health = (await fetch(endpoint.url + '/health')).status;
  const page = await fetch(endpoint.url + '/console/');
  consolePage = page.status + ' ' + page.headers.get('content-type') + ' ' + ((await page.text()).includes('<script type="module"') ? 'script' : 'no script');
  const query = encodeURIComponent('SELECT ?o WHERE { <http://example.com/bob> <http://example.com/name> ?o }');
  const res = await fetch(endpoint.url + '/datastores/family/sparql?query=' + query, {
    headers: { accept: 'text/csv', authorization: 'Basic ' + Buffer.from('admin:secret').toString('base64') },
  });
  csv = await res.text();
} finally {
  await endpoint.close();
}
ds.close();
sc.close();
server.shutdown();
console.log(JSON.stringify({
  version: VERSION,
  errors: imported.errors,
  changedFacts: imported.changedFacts,
  changedRules: rules.changedRules,
  type: answer.type,
  rows: answer.type === 'bindings' ? answer.rows.map((row) => row.map((term) => term?.value ?? null)) : null,
  unknown,
  health,
  csv,
  consolePage,
  port: endpoint.port,
}));
`;

/**
 * A consumer of the short path: open(), a query, a query long enough to be parsed on the
 * worker thread (whose modules the bundle must still find), and the store served by
 * quadlog/http (which works only if it shares quadlog's modules: it finds the server by URL).
 */
const OPEN_JS = `import { open, EmbeddedStore, DataStoreConnection } from 'quadlog';
import { startEndpoint } from 'quadlog/http';

const store = await open();
await store.importData('ADD', '<http://example.com/a> <http://example.com/p> "x" . <http://example.com/b> <http://example.com/p> "y" .');
const answer = await store.evaluateQuery('SELECT ?o WHERE { ?s <http://example.com/p> ?o } ORDER BY ?o');
const values = Array.from({ length: 3000 }, (_, i) => '<http://example.com/' + (i % 2 === 0 ? 'a' : 'n' + i) + '>').join(' ');
const long = await store.evaluateQuery('SELECT ?s ?o WHERE { VALUES ?s { ' + values + ' } ?s <http://example.com/p> ?o }');
const endpoint = await startEndpoint(store.server, { port: 0 });
const query = encodeURIComponent('SELECT ?o WHERE { <http://example.com/b> <http://example.com/p> ?o }');
const res = await fetch(endpoint.url + '/datastores/default/sparql?query=' + query, {
  headers: { accept: 'text/csv', authorization: 'Basic ' + Buffer.from(store.roleName + ':' + store.password).toString('base64') },
});
const csv = await res.text();
await store.close(); // the endpoint closes with it
console.log(JSON.stringify({
  connection: store instanceof EmbeddedStore && store instanceof DataStoreConnection,
  rows: answer.type === 'bindings' ? answer.rows.map((row) => row[0]?.value ?? null) : null,
  longRows: long.type === 'bindings' ? long.rows.length : null,
  longLength: values.length,
  status: res.status,
  csv,
}));
`;

/**
 * A consumer that reaches every part of the package loaded on first use rather than at import
 * (the SPARQL libraries, the regular expression engine, csv-parse, zlib, the JSON-LD and
 * RDF/XML parsers, the OWL translator, the update and delta-query evaluators, the server directory's code), so that
 * the bundle is shown to find each from where it is loaded.
 */
const LAZY_JS = `import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { open } from 'quadlog';

const dir = mkdtempSync(join(tmpdir(), 'quadlog-lazy-'));
writeFileSync(join(dir, 'people.csv'), 'id,name\\n1,Ann\\n2,Bob\\n');
const options = { directory: join(dir, 'server'), serverParameters: { 'sandbox-directory': dir, 'allowed-url-schemes-on-import': 'file' } };
const out = {};
try {
  let store = await open(options);
  const watch = store.watch('SELECT ?s WHERE { ?s a <http://example.com/C> }');
  const first = watch[Symbol.asyncIterator]();
  await first.next();
  await store.importData('ADD', gzipSync('<http://example.com/a> a <http://example.com/C> .'));
  out.watched = (await first.next()).value.kind;
  watch.close();
  await store.importData('ADD', '{ "@id": "http://example.com/b", "http://example.com/p": "jsonld" }', { format: 'application/ld+json' });
  await store.importData('ADD', '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="http://example.com/c"><p xmlns="http://example.com/">xml</p></rdf:Description></rdf:RDF>', { format: 'application/rdf+xml' });
  await store.evaluateUpdate('INSERT DATA { <http://example.com/d> <http://example.com/p> "update" }');
  await store.importData('ADD', '<http://example.com/C> <http://www.w3.org/2000/01/rdf-schema#subClassOf> <http://example.com/D> .');
  await store.importAxiomsFromTriples();
  out.derived = (await store.evaluateQuery('ASK { <http://example.com/a> a <http://example.com/D> }')).value;
  const regex = await store.evaluateQuery('SELECT ?o WHERE { ?s <http://example.com/p> ?o FILTER(REGEX(?o, "^(json|x)")) } ORDER BY ?o');
  out.regex = regex.rows.map((row) => row[0].value);
  await store.registerDataSource('people', 'delimitedFile', { file: 'people.csv', header: 'true' });
  out.csv = (await store.getDataSourceTableData('people', 'records', 5)).rows.map((row) => row[1].value);
  await store.close();
  store = await open(options);
  out.reopened = (await store.evaluateQuery('SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }')).rows[0][0].value;
  await store.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log(JSON.stringify(out));
`;

/** A TypeScript consumer of the public API, type-checked strictly. */
const CHECK_TS = `import {
  ConnectionFactory,
  Server,
  AnswerBindings,
  QuadlogError,
  ParsingError,
  QueryCompilationError,
  AccessDeniedError,
  UnknownResourceError,
  LockTimeoutError,
  type CursorPage,
  type DataStoreConnection,
  type ImportResult,
  type NotificationRow,
  type QueryAnswer,
  type QueryOptions,
  type QueryTerm,
  type ServerConnection,
  type ServerOptions,
} from 'quadlog';
import { startEndpoint, type EndpointHandle, type EndpointOptions } from 'quadlog/http';

/** true when T is \`any\` (an unresolved type would silently become one). */
type IsAny<T> = 0 extends 1 & T ? true : false;
const queryTermIsNotAny: IsAny<QueryTerm> = false;
const answerIsNotAny: IsAny<QueryAnswer> = false;
const serverIsNotAny: IsAny<Server> = false;
const endpointIsNotAny: IsAny<EndpointHandle> = false;
const bindingsGetIsNotAny: IsAny<ReturnType<AnswerBindings['get']>> = false;
export const notAny = [queryTermIsNotAny, answerIsNotAny, serverIsNotAny, endpointIsNotAny, bindingsGetIsNotAny];

function describeTerm(term: QueryTerm | undefined): string {
  if (term === undefined) return 'unbound';
  switch (term.termType) {
    case 'NamedNode':
      return '<' + term.value + '>';
    case 'BlankNode':
      return '_:' + term.value;
    case 'Literal':
      return JSON.stringify(term.value) + '^^<' + term.datatype.value + '>' + (term.language ? '@' + term.language : '');
    case 'Quad':
      // a triple term (RDF 1.2)
      return '<<( ' + describeTerm(term.subject as QueryTerm) + ' ' + describeTerm(term.predicate as QueryTerm) + ' ' + describeTerm(term.object as QueryTerm) + ' )>>';
  }
}

function describeAnswer(answer: QueryAnswer): string[] {
  switch (answer.type) {
    case 'bindings':
      return answer.rows.map((row) => answer.variables.map((name, i) => name + '=' + describeTerm(row[i])).join(' '));
    case 'boolean':
      return [String(answer.value)];
    case 'quads':
      return answer.quads.map((quad) => quad.subject.value + ' ' + quad.predicate.value + ' ' + quad.object.value);
  }
}

function describeError(e: unknown): string {
  if (e instanceof ParsingError || e instanceof QueryCompilationError) return 'syntax: ' + e.message;
  if (e instanceof AccessDeniedError || e instanceof UnknownResourceError || e instanceof LockTimeoutError) return e.name;
  if (e instanceof QuadlogError) return 'quadlog: ' + e.message;
  return String(e);
}

export async function main(): Promise<void> {
  const options: ServerOptions = { roleName: 'admin', password: 'secret', parameters: { 'create-guest-role': 'true' } };
  const server: Server = await Server.create(options);
  // @ts-expect-error: internal members are not part of the published types
  server.createDataStore('hidden');
  const sc: ServerConnection = await ConnectionFactory.newServerConnection(server.url, 'admin', 'secret');
  sc.createDataStore('typed');
  const ds: DataStoreConnection = sc.newDataStoreConnection('typed');
  const notifications: NotificationRow[] = [];
  const result: ImportResult = await ds.importData('ADD', '<http://e/a> <http://e/p> "x" .', { onNotification: (row) => notifications.push(row) });
  const changed: number = result.changedFacts;
  const prefixes: ReadonlyMap<string, string> = result.prefixes;
  const queryOptions: QueryOptions = { timeLimitMs: 1000, factDomain: 'all' };
  const answer: QueryAnswer = await ds.evaluateQuery('SELECT * WHERE { ?s ?p ?o }', queryOptions);
  const lines: string[] = describeAnswer(answer);
  for await (const bindings of ds.evaluateQueryIterator('SELECT ?s WHERE { ?s ?p ?o }')) {
    const s = bindings.get('s');
    lines.push(s === undefined ? 'unbound' : s.termType + ' ' + s.value);
  }
  const cursor = ds.createCursor('SELECT ?o WHERE { ?s ?p ?o }');
  const page: CursorPage = await cursor.open(10);
  const first = page.rows[0]?.[0];
  lines.push(describeTerm(first));
  cursor.close();
  try {
    await ds.evaluateQuery('SELECT WHERE');
  } catch (e) {
    lines.push(describeError(e));
  }
  const endpointOptions: EndpointOptions = { port: 0, host: '127.0.0.1' };
  const endpoint: EndpointHandle = await startEndpoint(server, endpointOptions);
  const url: string = endpoint.url;
  await endpoint.close();
  ds.close();
  sc.close();
  server.shutdown();
  console.log(changed, prefixes.size, notifications.length, lines, url);
}
`;

/**
 * A TypeScript consumer of the main entry that has no type package of Node's (no
 * \`@types/node\`, no DOM library): the published types of \`quadlog\` need neither. It uses
 * nothing of Node itself, so it shows what the package's declarations need.
 */
const BARE_CHECK_TS = `import { AnswerBindings, ConnectionFactory, Server, type ChunkWritable, type ContentSource, type QueryAnswer } from 'quadlog';

export async function main(): Promise<string[]> {
  await using server = await Server.create({ roleName: 'admin', password: 'secret' });
  using sc = await ConnectionFactory.newServerConnection(server.url, 'admin', 'secret');
  sc.createDataStore('bare');
  using ds = sc.newDataStoreConnection('bare');
  const source: ContentSource = '<http://e/a> <http://e/p> "x" .';
  await ds.importData('ADD', source);
  const answer: QueryAnswer = await ds.evaluateQuery('SELECT * WHERE { ?s ?p ?o }');
  const lines: string[] = [answer.type];
  for await (const row of ds.evaluateQueryIterator('SELECT ?s WHERE { ?s ?p ?o }')) {
    const bindings: AnswerBindings = row;
    lines.push(bindings.get('s')?.value ?? 'unbound');
  }
  const sink: ChunkWritable = { write: (chunk) => { lines.push(typeof chunk === 'string' ? chunk : String(chunk.length)); return true; }, once: () => undefined };
  await ds.exportData(sink, 'application/n-triples');
  return lines;
}
`;

/** The strict compiler options of the consumer without Node's types. */
const BARE_TSCONFIG = {
  compilerOptions: {
    target: 'ES2023',
    lib: ['ES2023'],
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: false,
    noEmit: true,
  },
  files: ['check.ts'],
};

const CONSUMER_PACKAGE = { name: 'quadlog-consumer', version: '0.0.0', private: true, type: 'module' };

const CONSUMER_TSCONFIG = {
  compilerOptions: {
    target: 'ES2023',
    lib: ['ES2023'],
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    types: ['node'],
    strict: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: false,
    noEmit: true,
  },
  files: ['check.ts'],
};

interface PackedFile {
  readonly path: string;
}

interface PackResult {
  readonly filename: string;
  readonly size: number;
  readonly entryCount: number;
  readonly files: readonly PackedFile[];
}

interface SmokeSummary {
  readonly version: string;
  readonly errors: number;
  readonly changedFacts: number;
  readonly changedRules: number;
  readonly type: string;
  readonly rows: Array<Array<string | null>> | null;
  readonly unknown: string;
  readonly health: number;
  readonly csv: string;
  readonly consolePage: string;
  readonly port: number;
}

/**
 * References between the declaration files under `dist` that point at nothing: a name imported
 * or re-exported from a sibling module that does not export it (say, because it is
 * `@internal` and was stripped). Only binds the files, so it is quick.
 */
function danglingReferences(dist: string): string[] {
  const options: ts.CompilerOptions = {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2023,
    types: [],
    noEmit: true,
  };
  const files = ts.sys.readDirectory(dist, ['.d.ts']);
  const program = ts.createProgram(files, options);
  const checker = program.getTypeChecker();
  const problems: string[] = [];
  const exportsOf = (from: ts.SourceFile, specifier: string): ReadonlySet<string> | undefined => {
    const resolved = ts.resolveModuleName(specifier, from.fileName, options, ts.sys).resolvedModule;
    const target = resolved && program.getSourceFile(resolved.resolvedFileName);
    const symbol = target && checker.getSymbolAtLocation(target);
    return symbol && new Set(checker.getExportsOfModule(symbol).map((e) => e.name));
  };
  for (const file of files) {
    const source = program.getSourceFile(file);
    if (!source) continue;
    const visit = (node: ts.Node): void => {
      let specifier: string | undefined;
      let names: string[] = [];
      if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
        specifier = node.moduleSpecifier.text;
        const bindings = ts.isImportDeclaration(node) ? node.importClause?.namedBindings : node.exportClause;
        if (bindings && (ts.isNamedImports(bindings) || ts.isNamedExports(bindings))) {
          names = bindings.elements.map((e) => (e.propertyName ?? e.name).text);
        }
      } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
        specifier = node.argument.literal.text;
        let qualifier = node.qualifier;
        while (qualifier && ts.isQualifiedName(qualifier)) qualifier = qualifier.left;
        if (qualifier) names = [qualifier.text];
      }
      if (specifier?.startsWith('.')) {
        const where = relative(dist, file);
        const exported = exportsOf(source, specifier);
        if (!exported) problems.push(`${where}: cannot resolve ${specifier}`);
        else for (const name of names) if (!exported.has(name)) problems.push(`${where}: ${specifier} has no export ${name}`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return problems;
}

/** Creates a consumer project and installs the tarball (and @types/node) into it. */
async function installConsumer(dir: string, tarball: string, linked: boolean): Promise<void> {
  await mkdir(dir);
  await writeFile(join(dir, 'package.json'), `${JSON.stringify(CONSUMER_PACKAGE, null, 2)}\n`);
  await writeFile(join(dir, 'smoke.mjs'), SMOKE_JS);
  await writeFile(join(dir, 'open.mjs'), OPEN_JS);
  await writeFile(join(dir, 'lazy.mjs'), LAZY_JS);
  await writeFile(join(dir, 'check.ts'), CHECK_TS);
  await writeFile(join(dir, 'tsconfig.json'), `${JSON.stringify(CONSUMER_TSCONFIG, null, 2)}\n`);
  const strategy = linked ? ['--install-strategy=linked'] : [];
  await run('npm', ['install', ...INSTALL_FLAGS, ...strategy, tarball, '@types/node@20'], dir);
}

/** Creates a consumer project without Node's types and installs only the tarball into it. */
async function installBareConsumer(dir: string, tarball: string, linked: boolean): Promise<void> {
  await mkdir(dir);
  await writeFile(join(dir, 'package.json'), `${JSON.stringify(CONSUMER_PACKAGE, null, 2)}\n`);
  await writeFile(join(dir, 'check.ts'), BARE_CHECK_TS);
  await writeFile(join(dir, 'tsconfig.json'), `${JSON.stringify(BARE_TSCONFIG, null, 2)}\n`);
  const strategy = linked ? ['--install-strategy=linked'] : [];
  await run('npm', ['install', ...INSTALL_FLAGS, ...strategy, tarball], dir);
}

describe('package: the packed tarball in a consumer project', function () {
  this.timeout(300_000);

  let version = '';
  let work = '';
  let source = '';
  let packed: PackResult | undefined;
  /** Work started in `before` and awaited by the tests (and by `after`, before removing the files). */
  const started: Array<Promise<unknown>> = [];
  const typeChecks = new Map<string, Promise<RunResult>>();

  /** Starts something now; its failure is reported by whoever awaits it. */
  function start<T>(task: Promise<T>): Promise<T> {
    started.push(task);
    task.catch(() => undefined);
    return task;
  }

  const hoisted = (): string => join(work, 'consumer-hoisted');
  const linked = (): string => join(work, 'consumer-linked');
  const bareHoisted = (): string => join(work, 'bare-hoisted');
  const bareLinked = (): string => join(work, 'bare-linked');

  before(async function () {
    this.timeout(300_000);
    version = (JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    work = await mkdtemp(join(tmpdir(), 'quadlog-pack-'));
    source = join(work, 'source');
    await cp(ROOT, source, {
      recursive: true,
      filter: (from) => {
        const rel = relative(ROOT, from);
        const top = rel.split(sep)[0] ?? '';
        return !NOT_COPIED.has(top) && rel !== join('docs', 'api');
      },
    });
    // The build (prepack) needs the compiler and the type packages; nothing writes through this link.
    await symlink(join(ROOT, 'node_modules'), join(source, 'node_modules'), 'dir');
    const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', work], source);
    const results = JSON.parse(stdout) as PackResult[];
    expect(results).to.have.length(1);
    packed = results[0];
    const tarball = join(work, packed!.filename);
    // The two installs share npm's cache; run them side by side. The type-checks (the slow
    // part) then run in the background while the other tests run.
    await Promise.all([
      installConsumer(hoisted(), tarball, false),
      installConsumer(linked(), tarball, true),
      installBareConsumer(bareHoisted(), tarball, false),
      installBareConsumer(bareLinked(), tarball, true),
    ]);
    for (const dir of [hoisted(), linked(), bareHoisted(), bareLinked()]) {
      typeChecks.set(dir, start(run(process.execPath, [TSC, '-p', 'tsconfig.json'], dir)));
    }
  });

  after(async () => {
    await Promise.allSettled(started);
    if (!work) return;
    await unlink(join(source, 'node_modules')).catch(() => undefined);
    await rm(work, { recursive: true, force: true });
  });

  it('ships dist/, LICENSE, README.md (with the pictures it shows), CHANGELOG.md and package.json, nothing else', async () => {
    const paths = packed!.files.map((f) => f.path);
    const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
    const pictures = [...readme.matchAll(/!\[[^\]]*\]\(([^)]+)\)/g)].map((m) => m[1]!).filter((url) => !/^https?:/.test(url));
    expect(pictures.length).to.be.greaterThan(0);
    expect(paths).to.include.members(pictures);
    const outside = paths.filter((p) => !p.startsWith('dist/') && !pictures.includes(p) && !['LICENSE', 'README.md', 'CHANGELOG.md', 'package.json'].includes(p));
    expect(outside).to.deep.equal([]);
    for (const p of ['LICENSE', 'README.md', 'CHANGELOG.md', 'package.json', 'dist/THIRD-PARTY-LICENSES.txt', 'dist/index.js', 'dist/index.d.ts', 'dist/http/index.js', 'dist/http/index.d.ts', 'dist/shell/cli.js', 'dist/console/index.html', 'dist/console/licenses.txt']) {
      expect(paths, p).to.include(p);
    }
    // The JavaScript is a bundle (scripts/bundle-package.ts): the entry points and a few
    // chunks, not a module per source file
    const scripts = paths.filter((p) => p.endsWith('.js') && !p.startsWith('dist/console/'));
    expect(scripts.filter((p) => !p.startsWith('dist/chunks/')).sort()).to.deep.equal(['dist/http/index.js', 'dist/index.js', 'dist/shell/cli.js']);
    expect(scripts).to.include.members(['dist/chunks/parse.js', 'dist/chunks/json-slices.js']);
    expect(scripts.length).to.be.below(40);
    // No source maps (they would point at lib/*.ts, which is not shipped).
    expect(paths.filter((p) => p.endsWith('.map'))).to.deep.equal([]);
    // The web console: its page, one hashed script and stylesheet, the icon and the licences.
    expect(paths.filter((p) => p.startsWith('dist/console/')).map((p) => p.replace(/-[A-Z2-7]{8}\./, '-HASH.')).sort()).to.deep.equal(
      ['dist/console/console-HASH.css', 'dist/console/icon-HASH.svg', 'dist/console/index.html', 'dist/console/licenses.txt', 'dist/console/main-HASH.js'],
    );
    expect(packed!.entryCount).to.equal(paths.length);
  });

  it('strips @internal declarations from the published types, leaving no reference to them', async () => {
    const dist = join(hoisted(), 'node_modules', 'quadlog', 'dist');
    const server = await readFile(join(dist, 'server', 'server.d.ts'), 'utf8');
    expect(server).to.contain('class Server');
    expect(server).not.to.contain('createDataStore');
    expect(server).not.to.contain('@internal');
    expect(danglingReferences(dist)).to.deep.equal([]);
  });

  for (const [layout, dir] of [['hoisted', hoisted], ['linked', linked]] as const) {
    describe(`installed ${layout === 'linked' ? 'with --install-strategy=linked' : 'with the default layout'}`, () => {
      it('runs a JavaScript ESM consumer of quadlog and quadlog/http', async () => {
        const { stdout } = await run(process.execPath, ['smoke.mjs'], dir());
        const summary = JSON.parse(stdout) as SmokeSummary;
        expect(summary).to.include({ errors: 0, changedFacts: 3, changedRules: 2, type: 'bindings', unknown: 'UnknownResourceError', health: 204 });
        expect(summary.version).to.equal(version);
        expect(summary.rows).to.deep.equal([['http://example.com/bob'], ['http://example.com/carol']]);
        expect(summary.csv.split(/\r?\n/)).to.include.members(['o', 'Bob']);
        expect(summary.consolePage).to.equal('200 text/html; charset=UTF-8 script');
        expect(summary.port).to.be.above(0);
      });

      it('opens a store with open(), answers queries (one parsed on the worker thread) and serves it with quadlog/http', async () => {
        const { stdout } = await run(process.execPath, ['open.mjs'], dir());
        const summary = JSON.parse(stdout) as { connection: boolean; rows: string[] | null; longRows: number | null; longLength: number; status: number; csv: string };
        expect(summary.longLength).to.be.above(32 * 1024);
        expect(summary).to.deep.equal({ connection: true, rows: ['x', 'y'], longRows: 1500, longLength: summary.longLength, status: 200, csv: 'o\r\ny\r\n' });
      });

      it('reaches every part loaded on first use: regular expressions, csv-parse, gzip, JSON-LD, RDF/XML, OWL axioms, updates, delta queries, a server directory', async () => {
        const { stdout } = await run(process.execPath, ['lazy.mjs'], dir());
        expect(JSON.parse(stdout)).to.deep.equal({ watched: 'change', derived: true, regex: ['jsonld', 'xml'], csv: ['Ann', 'Bob'], reopened: '6' });
      });

      it('links the quadlog command', async () => {
        const { stdout } = await run(join(dir(), 'node_modules', '.bin', 'quadlog'), ['version'], dir());
        expect(stdout.trim()).to.equal(version);
      });

      it('type-checks a strict TypeScript consumer (skipLibCheck: false)', async () => {
        const check = typeChecks.get(dir());
        if (!check) throw new Error('the type-check was not started');
        await check;
      });
    });
  }

  for (const [layout, dir] of [['hoisted', bareHoisted], ['linked', bareLinked]] as const) {
    it(`type-checks a strict consumer of quadlog without @types/node or the DOM library (${layout} layout)`, async () => {
      const check = typeChecks.get(dir());
      if (!check) throw new Error('the type-check was not started');
      await check;
    });
  }
});
