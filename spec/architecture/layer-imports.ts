/**
 * Which `lib/` folders each `lib/` folder imports: every static `import … from`, `import type …`,
 * `export … from` and `import x = require(…)` of every module under `lib/` whose specifier is
 * relative and lands in another folder of `lib/` (or on the package entry `lib/index.ts`).
 *
 * Run it with `npx tsx spec/architecture/layer-imports.ts` for a table of folder → imported folders, with
 * the imports that break the layer table of `docs/architecture.md` (as `eslint.config.js` states
 * it) listed below; `spec/architecture/layers.spec.ts` uses it to assert there are none.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

/** The repository root. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** One import of one module of `lib/` that lands in a different part of `lib/`. */
export interface LayerImport {
  /** The importing module, relative to `lib/` with `/` separators (`sparql/query.ts`). */
  readonly from: string;
  /** The imported module, relative to `lib/`, with the extension as written (`formats/answers/json.js`). */
  readonly to: string;
  /** The importing folder (`sparql`), or `index` for the package entry. */
  readonly fromLayer: string;
  /** The imported folder, or `index` for the package entry. */
  readonly toLayer: string;
  /** The specifier as written. */
  readonly specifier: string;
  /** Whether only types are imported (`import type …`, `export type … from`). */
  readonly typeOnly: boolean;
  /** The 1-based line of the statement. */
  readonly line: number;
}

/** The folder (layer) of a module path relative to `lib/`; `index` for a module at the top. */
export function layerOf(path: string): string {
  const slash = path.indexOf('/');
  return slash < 0 ? path.replace(/\.[cm]?[jt]s$/, '') : path.slice(0, slash);
}

/** The `.ts` modules under a folder, recursively, as absolute paths. */
function modules(folder: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) found.push(...modules(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) found.push(path);
  }
  return found.sort();
}

/** Whether an import or export declaration brings in types only. */
function typeOnly(statement: ts.Statement): boolean {
  if (ts.isImportDeclaration(statement)) {
    const clause = statement.importClause;
    if (!clause) return false;
    if (clause.isTypeOnly) return true;
    const bindings = clause.namedBindings;
    return !clause.name && bindings !== undefined && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly);
  }
  if (ts.isExportDeclaration(statement)) {
    if (statement.isTypeOnly) return true;
    const clause = statement.exportClause;
    return clause !== undefined && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((e) => e.isTypeOnly);
  }
  return false;
}

/** The module specifier of a top-level statement that imports or re-exports, if it has one. */
function specifierOf(statement: ts.Statement): string | undefined {
  if ((ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) && statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)) {
    return statement.moduleSpecifier.text;
  }
  if (ts.isImportEqualsDeclaration(statement) && ts.isExternalModuleReference(statement.moduleReference)) {
    const expression = statement.moduleReference.expression;
    return ts.isStringLiteral(expression) ? expression.text : undefined;
  }
  return undefined;
}

/** The imports of one module's source that leave its folder, the module named relative to `lib/`. */
export function importsOfSource(source: string, module: string): LayerImport[] {
  const file = ts.createSourceFile(module, source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const found: LayerImport[] = [];
  for (const statement of file.statements) {
    const specifier = specifierOf(statement);
    if (specifier === undefined || !specifier.startsWith('.')) continue;
    const target = join(dirname(module), specifier).split(sep).join('/');
    if (target.startsWith('..')) continue;
    const fromLayer = layerOf(module);
    const toLayer = layerOf(target);
    if (fromLayer === toLayer) continue;
    const line = file.getLineAndCharacterOfPosition(statement.getStart(file)).line + 1;
    found.push({ from: module, to: target, fromLayer, toLayer, specifier, typeOnly: typeOnly(statement), line });
  }
  return found;
}

/** Every import under `lib/` that lands in another folder of `lib/`. */
export function layerImports(root: string = ROOT): LayerImport[] {
  const lib = join(root, 'lib');
  return modules(lib).flatMap((path) => importsOfSource(readFileSync(path, 'utf8'), relative(lib, path).split(sep).join('/')));
}

/** Folder → the folders it imports, sorted, from a list of imports. */
export function folderGraph(imports: readonly LayerImport[]): Map<string, string[]> {
  const graph = new Map<string, Set<string>>();
  for (const i of imports) {
    const targets = graph.get(i.fromLayer) ?? new Set<string>();
    targets.add(i.toLayer);
    graph.set(i.fromLayer, targets);
  }
  return new Map([...graph].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, [...v].sort()]));
}

/**
 * What each folder may import: folder → the folders (`model`) or single modules without
 * extension (`datalog/ast`) below it. `index` stands for the package entry `lib/index.ts`.
 */
export type LayerTable = Readonly<Record<string, readonly string[]>>;

/** Whether the table lets `i` through. */
export function allowed(table: LayerTable, i: LayerImport): boolean {
  const allowedTargets = table[i.fromLayer];
  if (allowedTargets === undefined) return false;
  const target = i.to.replace(/\.[cm]?[jt]s$/, '');
  return allowedTargets.some((a) => a === i.toLayer || a === target);
}

/** The imports the table does not allow. */
export function violations(table: LayerTable, imports: readonly LayerImport[] = layerImports()): LayerImport[] {
  return imports.filter((i) => !allowed(table, i));
}

/** The layer table as `eslint.config.js` exports it. */
export async function configuredLayers(root: string = ROOT): Promise<LayerTable> {
  const config = (await import(pathToFileURL(join(root, 'eslint.config.js')).href)) as { layers: LayerTable };
  return config.layers;
}

/** Prints the folder graph and the violations of the configured table. */
async function main(): Promise<void> {
  const imports = layerImports();
  for (const [folder, targets] of folderGraph(imports)) console.log(`${folder.padEnd(12)} → ${targets.join(', ')}`);
  const bad = violations(await configuredLayers(), imports);
  console.log(`\n${bad.length} import(s) break the layer table:`);
  for (const i of bad) console.log(`  lib/${i.from}:${i.line} → ${i.specifier}${i.typeOnly ? ' (types only)' : ''}`);
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
