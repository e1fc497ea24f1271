/**
 * The layers of `lib/` hold: the lint rule rejects an import of a higher layer (type-only
 * imports too) and accepts one of a lower layer, the modules of `lib/` import only what the
 * layer table allows, and the table in `eslint.config.js` is the one docs/architecture.md shows.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from 'chai';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { importsOfSource, type LayerTable, layerImports, ROOT, violations } from './layer-imports.js';

/** The table and the pending exceptions as `eslint.config.js` exports them. */
interface LayerConfig {
  readonly layers: LayerTable;
  readonly pendingExceptions: LayerTable;
}

const config = (await import(pathToFileURL(join(ROOT, 'eslint.config.js')).href)) as LayerConfig;

/** ESLint with the project's configuration, without type information (the fixtures are not files). */
const eslint = new ESLint({ cwd: ROOT, overrideConfig: [tseslint.configs.disableTypeChecked] });

/** The messages of the layer rule on a source placed at `path` (relative to the root). */
async function layerMessages(path: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: join(ROOT, path) });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

/** The layer table of docs/architecture.md: folder → the folders and modules in backticks of its last column. */
function documentedLayers(): Record<string, string[]> {
  const markdown = readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8');
  const section = markdown.slice(markdown.indexOf('## Layers'), markdown.indexOf('\n## ', markdown.indexOf('## Layers') + 1));
  const table: Record<string, string[]> = {};
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    const name = /^`([a-z]+)(?:\/|\.ts)`$/.exec(cells[1] ?? '')?.[1];
    if (name === undefined) continue;
    const imports = cells[cells.length - 2] ?? '';
    table[name] = [...imports.matchAll(/`([a-z/]+?)\/?`/g)].map((m) => m[1]!.replace(/\.ts$/, ''));
  }
  return table;
}

describe('architecture: layers', function () {
  this.timeout(60_000);

  describe('the lint rule', () => {
    it('rejects an import of a higher layer', async () => {
      const messages = await layerMessages('lib/storage/x.ts', "import { Server } from '../server/server.js';\nexport const s = Server;\n");
      expect(messages).to.have.length(1);
      expect(messages[0]).to.contain('lib/storage/ may not import lib/server/');
    });

    it('rejects a type-only import and a re-export of a higher layer', async () => {
      const source = "import type { Server } from '../server/server.js';\nexport type { Query } from '../sparql/query.js';\nexport type S = Server;\n";
      expect(await layerMessages('lib/storage/x.ts', source)).to.have.length(2);
    });

    it('accepts an import of a lower layer and of its own folder', async () => {
      const source = "import { TermDictionary } from '../model/dictionary.js';\nimport { TupleTable } from './tuple-table.js';\nexport const d = [TermDictionary, TupleTable];\n";
      expect(await layerMessages('lib/storage/x.ts', source)).to.deep.equal([]);
    });

    it('sees modules in subfolders, and single modules a layer may import', async () => {
      expect(await layerMessages('lib/formats/answers/x.ts', "export type { Rule } from '../../datalog/ast.js';\n")).to.deep.equal([]);
      expect(await layerMessages('lib/formats/answers/x.ts', "export { compileProgram } from '../../datalog/program.js';\n")).to.have.length(1);
      expect(await layerMessages('lib/formats/answers/x.ts', "export { Server } from '../../server/server.js';\n")).to.have.length(1);
    });

    it('keeps the api on the server layer and the shell on the package entry', async () => {
      expect(await layerMessages('lib/api/x.ts', "export { FactStore } from '../storage/fact-store.js';\n")).to.have.length(1);
      expect(await layerMessages('lib/api/x.ts', "export { Server } from '../server/server.js';\n")).to.deep.equal([]);
      expect(await layerMessages('lib/shell/x.ts', "export { Server } from '../server/server.js';\n")).to.have.length(1);
      expect(await layerMessages('lib/shell/x.ts', "export * from '../index.js';\n")).to.deep.equal([]);
      expect(await layerMessages('lib/index.ts', "export * from './shell/cli.js';\n")).to.have.length(1);
    });

    it('keeps the seams of a transaction: the api reaches a store only through its session, and only the session opens write transactions', async () => {
      expect(await layerMessages('lib/api/x.ts', "import type { DataStore } from '../server/data-store.js';\nexport type S = DataStore;\n")).to.have.length(1);
      expect(await layerMessages('lib/api/x.ts', "import { StoreReasoner } from '../server/reasoning.js';\nexport { StoreReasoner };\n")).to.have.length(1);
      expect(await layerMessages('lib/api/x.ts', "import type { PropertyRow } from '../server/data-store.js';\nexport type R = PropertyRow;\n")).to.deep.equal([]);
      expect(await layerMessages('lib/api/x.ts', "export { StoreSession } from '../server/session.js';\n")).to.deep.equal([]);
      const writers = async (path: string): Promise<number> => {
        const [result] = await eslint.lintText('export async function f(s: { beginWrite(n: number): Promise<void> }): Promise<void> {\n  await s.beginWrite(1);\n}\n', { filePath: join(ROOT, path) });
        return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-syntax').length;
      };
      expect(await writers('lib/server/import.ts')).to.equal(1);
      expect(await writers('lib/api/x.ts')).to.equal(1);
      expect(await writers('lib/server/session.ts')).to.equal(0);
    });
  });

  describe('the code', () => {
    it('has a row of the table for every folder of lib/', () => {
      const folders = readdirSync(join(ROOT, 'lib'), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
      expect(folders.filter((f) => config.layers[f] === undefined)).to.deep.equal([]);
    });

    it('imports no higher layer, except the pending exceptions, each still needed', () => {
      const bad = violations(config.layers);
      const excused = (i: (typeof bad)[number]): boolean => (config.pendingExceptions[i.from] ?? []).some((a) => a === i.toLayer || a === i.to.replace(/\.js$/, ''));
      expect(bad.filter((i) => !excused(i)).map((i) => `lib/${i.from}:${i.line} → ${i.specifier}`)).to.deep.equal([]);
      const used = new Set(bad.map((i) => i.from));
      expect(Object.keys(config.pendingExceptions).filter((m) => !used.has(m))).to.deep.equal([]);
    });

    it('finds the imports of every kind the lint rule sees', () => {
      const source = [
        "import { a } from '../model/terms.js';",
        "import type { B } from '../server/server.js';",
        "import { type C, type D } from '../formats/answers/index.js';",
        "export * from '../datalog/ast.js';",
        "export type { E } from '../sparql/query.js';",
        "import {\n  f,\n} from '../storage/fact-store.js';",
        "import { g } from './same-folder.js';",
        "import { h } from 'n3';",
      ].join('\n');
      const found = importsOfSource(source, 'owl/x.ts').map((i) => `${i.line} ${i.toLayer} ${i.to}${i.typeOnly ? ' type' : ''}`);
      expect(found).to.deep.equal([
        '1 model model/terms.js',
        '2 server server/server.js type',
        '3 formats formats/answers/index.js type',
        '4 datalog datalog/ast.js',
        '5 sparql sparql/query.js type',
        '6 storage storage/fact-store.js',
      ]);
      const imports = layerImports();
      expect(imports.some((i) => i.typeOnly)).to.equal(true);
      expect(imports.some((i) => i.fromLayer === 'index')).to.equal(true);
    });
  });

  it('is the table of docs/architecture.md', () => {
    expect(documentedLayers()).to.deep.equal(Object.fromEntries(Object.entries(config.layers).map(([k, v]) => [k, [...v]])));
  });
});
