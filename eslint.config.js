// @ts-check
import { defineConfig, globalIgnores } from 'eslint/config';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * The layers of `lib/` (docs/architecture.md, "Layers"): each folder → what it may import from
 * the other folders of `lib/`, as folders (`model`) or single modules without extension
 * (`datalog/ast`); `index` is the package entry `lib/index.ts`. Imports within a folder are
 * free. Type-only imports count like any other. `spec/architecture/layers.spec.ts` checks that
 * this table is the one the architecture page shows and that the code keeps to it.
 * @type {Readonly<Record<string, readonly string[]>>}
 */
export const layers = {
  model: [],
  storage: ['model'],
  planner: ['model'],
  persistence: ['model'],
  expressions: ['model'],
  datalog: ['model', 'storage', 'expressions', 'planner'],
  formats: ['model', 'expressions', 'datalog/ast'],
  owl: ['model', 'expressions', 'datalog'],
  sparql: ['model', 'storage', 'expressions', 'datalog', 'planner'],
  datasources: ['model', 'storage', 'expressions'],
  shacl: ['model', 'storage', 'expressions', 'planner', 'sparql'],
  server: ['model', 'storage', 'planner', 'persistence', 'expressions', 'datalog', 'formats', 'owl', 'sparql', 'datasources', 'shacl'],
  api: ['model', 'server'],
  index: ['model', 'storage', 'planner', 'persistence', 'expressions', 'datalog', 'formats', 'owl', 'sparql', 'datasources', 'shacl', 'server', 'api'],
  commands: ['index'],
  http: ['index', 'commands'],
  shell: ['index', 'http', 'commands'],
};

/**
 * Imports that break the table but are waiting for a fix: module (relative to `lib/`) → the
 * folders or modules it may still import. Empty when the code keeps to the table.
 * @type {Readonly<Record<string, readonly string[]>>}
 */
export const pendingExceptions = {};

/** Escapes a text for a regular expression. */
const escape = (/** @type {string} */ text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** How deep below its folder a module of `lib/` may lie for the layer rules to see it. */
const DEPTHS = [1, 2, 3, 4];

/**
 * The `no-restricted-imports` patterns of the modules of a folder at a depth (1 = directly in
 * it, 0 = the package entry): one per folder (or module) of `lib/` they may not import, matching
 * the relative specifiers that climb exactly to `lib/` (`../x/…` at depth 1, `../../x/…` at depth
 * 2, `./x/…` from the package entry) and go on into that folder.
 * @param {string} folder
 * @param {number} depth
 * @param {readonly string[]} extra what the modules may import besides the folder's table row
 */
function restrictedPatterns(folder, depth, extra = []) {
  const allowed = [...(layers[folder] ?? []), ...extra];
  const up = depth === 0 ? '\\./' : '\\.\\./'.repeat(depth);
  const row = allowed.length === 0 ? 'nothing else in lib/' : allowed.join(', ');
  /** @type {{ regex: string, message: string }[]} */
  const patterns = [];
  for (const other of Object.keys(layers)) {
    if (other === folder || allowed.includes(other)) continue;
    const modules = allowed.filter((a) => a.startsWith(`${other}/`)).map((a) => a.slice(other.length + 1));
    const except = modules.length > 0 ? `(?!(?:${modules.map(escape).join('|')})\\.js$)` : '';
    const target = other === 'index' ? 'index\\.js$' : `${escape(other)}/${except}`;
    const what = other === 'index' ? 'the package entry lib/index.ts' : `lib/${other}/${modules.length > 0 ? ` (except ${modules.join(', ')})` : ''}`;
    patterns.push({
      regex: `^${up}${target}`,
      message: `Layers (docs/architecture.md): ${folder === 'index' ? 'the package entry' : `lib/${folder}/`} may not import ${what}; it may import ${row}.`,
    });
  }
  return patterns;
}

/** The `no-restricted-imports` setting of modules of a folder at a depth. */
const restriction = (/** @type {string} */ folder, /** @type {number} */ depth, /** @type {readonly string[]} */ extra = []) => ({
  'no-restricted-imports': /** @type {const} */ (['error', { patterns: [...restrictedPatterns(folder, depth, extra), ...(depth > 0 ? seamPatterns(folder, depth) : [])] }]),
});

/**
 * The seams of a transaction (docs/architecture.md, "A session"): names that a folder may not
 * import from a module it may otherwise import, as `no-restricted-imports` patterns of that
 * folder's modules at a depth. The api forwards to a session (`server/session.ts`): it holds no
 * data store, reasoner or write transaction of its own.
 * @type {Readonly<Record<string, ReadonlyArray<{ module: string, names: readonly string[], why: string }>>>}
 */
export const seams = {
  api: [
    { module: 'server/data-store', names: ['DataStore'], why: 'the api reaches a store only through its session (server/session.ts)' },
    { module: 'server/reasoning', names: ['StoreReasoner', 'ruleKey'], why: 'when to reason is decided by the session (server/session.ts)' },
  ],
};

/** The `no-restricted-imports` patterns of the seams of a folder's modules at a depth. */
function seamPatterns(/** @type {string} */ folder, /** @type {number} */ depth) {
  const up = '\\.\\./'.repeat(depth);
  return (seams[folder] ?? []).map(({ module, names, why }) => ({
    regex: `^${up}${escape(module)}\\.js$`,
    importNames: [...names],
    message: `Seams (docs/architecture.md): lib/${folder}/ may not import ${names.join(', ')} from lib/${module}.ts: ${why}.`,
  }));
}

/**
 * Modules of one folder that may not import each other although the layers allow it, to keep a
 * cycle from coming back: module → the modules it may not import (both relative to `lib/`,
 * without extension, in the same folder). The data store and the importer: the server gives
 * each store its loader for SPARQL LOAD (docs/architecture.md, the import walk).
 * @type {Readonly<Record<string, readonly string[]>>}
 */
export const apart = {
  'server/data-store': ['server/import'],
  'server/import': ['server/data-store'],
};

/** The `no-restricted-imports` setting of a module of {@link apart}: its folder's, and the modules it may not import. */
function apartRestriction(/** @type {string} */ module) {
  const [folder = '', ...rest] = module.split('/');
  const depth = rest.length;
  const patterns = (apart[module] ?? []).map((other) => ({
    regex: `^\\./${escape(other.split('/').slice(1).join('/'))}\\.js$`,
    message: `Cycles (eslint.config.js, apart): lib/${module}.ts may not import lib/${other}.ts; they meet through what the server gives them.`,
  }));
  return { 'no-restricted-imports': /** @type {const} */ (['error', { patterns: [...restrictedPatterns(folder, depth), ...seamPatterns(folder, depth), ...patterns] }]) };
}

/**
 * Who may open a write transaction: the session; the data store, for its non-transactional
 * catalogue changes; the store's persistence, for the replay of its log at start-up and for
 * compaction (the store's own work, for no role).
 */
const WRITERS = ['lib/server/session.ts', 'lib/server/data-store.ts', 'lib/server/store-persistence.ts', 'lib/storage/**'];

/** One config block per folder of `lib/` and depth (and the package entry), then one per pending exception. */
const layerRules = [
  { name: 'quadlog/layers/index', files: ['lib/index.ts'], rules: restriction('index', 0) },
  ...Object.keys(layers)
    .filter((folder) => folder !== 'index')
    .flatMap((folder) =>
      DEPTHS.map((depth) => ({
        name: `quadlog/layers/${folder}/${depth}`,
        files: [`lib/${folder}/${'*/'.repeat(depth - 1)}*.ts`],
        rules: restriction(folder, depth),
      })),
    ),
  ...Object.entries(pendingExceptions).map(([module, extra]) => ({
    name: `quadlog/layers/pending/${module}`,
    files: [`lib/${module}`],
    rules: restriction(module.split('/')[0] ?? module, module.split('/').length - 1, extra),
  })),
  ...Object.keys(apart).map((module) => ({ name: `quadlog/apart/${module}`, files: [`lib/${module}.ts`], rules: apartRestriction(module) })),
];

export default defineConfig(
  globalIgnores(['dist/**', 'docs/**', 'coverage/**']),
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  { languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } } },
  { files: ['**/*.js'], extends: [tseslint.configs.disableTypeChecked] },
  ...layerRules,
  {
    name: 'quadlog/seams/writers',
    files: ['lib/**/*.ts'],
    ignores: WRITERS,
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='beginWrite']",
          message: 'Seams (docs/architecture.md): only the session (lib/server/session.ts) opens write transactions; go through StoreSession.write.',
        },
      ],
    },
  },
);
