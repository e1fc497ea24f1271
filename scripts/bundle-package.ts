/**
 * Bundles the compiled package for a fast cold start: `npm run build` runs it after the compiler
 * (`tsc -p tsconfig.build.json` writes `dist/` one JavaScript file per module of `lib/`) and
 * before the console build. It replaces the JavaScript of `dist/` (the declarations stay) with
 * an esbuild bundle of the entry points, so that `import('quadlog')` reads a few files instead
 * of some two hundred modules of its own and of its dependencies:
 *
 * - `dist/index.js` (`quadlog`), `dist/http/index.js` (`quadlog/http`) and
 *   `dist/shell/cli.js` (the `quadlog` command) are the entry points. They share their code
 *   through chunks in `dist/chunks/` (code splitting), so `quadlog/http` works on the same
 *   classes and servers as `quadlog`; what quadlog loads on first use (`import()`: the SPARQL
 *   evaluator, the update executor, the delta-query evaluator) stays in chunks of its own,
 *   loaded then.
 * - Every chunk sits one directory below `dist/`, as the compiled modules did, so the paths the
 *   code finds from `import.meta.url` hold: the package root two levels up (version.ts), the
 *   console in `../console/` (http/console.ts).
 * - The worker that parses large queries off the main thread (sparql/parse-off-thread.ts)
 *   imports `./parse.js` and `./json-slices.js` beside the module that starts it: they are
 *   entry points too, written to `dist/chunks/`.
 * - The dependencies are bundled, except `pg`, which the worker of PostgreSQL data sources
 *   requires by the path `require.resolve('pg')` gives. A package's ES module build is
 *   preferred, so that what quadlog does not use of it is left out, and the bundle honours the
 *   packages' `sideEffects` fields. The CommonJS libraries that quadlog loads on first use
 *   with `createRequire` (the SPARQL parser and algebra translator, re2js, csv-parse) are
 *   bundled into CommonJS files of their own in `dist/chunks/` (see {@link LAZY_LIBRARIES}),
 *   which are neither read nor compiled until first needed. The licences of the bundled
 *   packages go to `dist/THIRD-PARTY-LICENSES.txt`.
 * - The output is minified (white space, comments and syntax; names stay) in lines of at most
 *   160 characters, so that the source line Node prints with an uncaught error stays short.
 *
 * The bundle is written to a temporary directory and checked (every entry point and worker
 * module written) before the compiled JavaScript is removed and the bundle put in its place.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(ROOT, 'dist');

/** The entry points: output name (under dist/, without .js) → the compiled module. */
const ENTRIES: Readonly<Record<string, string>> = {
  index: 'index.js',
  'http/index': 'http/index.js',
  'shell/cli': 'shell/cli.js',
  // the parse worker's modules, beside the chunks (parse-off-thread.ts imports them from there)
  'chunks/parse': 'sparql/parse.js',
  'chunks/json-slices': 'sparql/json-slices.js',
};

/** Packages left out of the bundle: loaded by path at run time. */
const EXTERNAL = ['pg', 'pg-*'];

/**
 * Bundled CommonJS code calls `require` (Node's built-in modules, its own files): ES modules
 * have none, so every output file starts by making one.
 */
const BANNER = "import { createRequire as __quadlogCreateRequire } from 'node:module'; const require = __quadlogCreateRequire(import.meta.url);";

/**
 * The modules that load CommonJS libraries on first use through `createRequire`
 * (`requireLibrary('sparqljs')`), which a bundler cannot follow (see {@link LAZY_LIBRARIES}).
 */
const LAZY_REQUIRES = /[\\/]dist[\\/](expressions[\\/](sparql-libraries|regex)|sparql[\\/]sparql12|datasources[\\/]delimited-file)\.js$/;

/**
 * The libraries that quadlog loads on first use, by the specifier `requireLibrary` is called
 * with, and the CommonJS file of `dist/chunks/` that holds each: the libraries of one file
 * are bundled into it (esbuild, CommonJS), and the rewritten call requires that file by its
 * path. So their code is neither read nor compiled when quadlog is imported (the SPARQL
 * parser and algebra translator are about a third of the package's JavaScript), and loading
 * them stays synchronous. The parser and the translator share a file: every parse needs both.
 */
const LAZY_LIBRARIES: Readonly<Record<string, string>> = {
  sparqljs: 'library-sparql.cjs',
  'sparqlalgebrajs/lib/sparqlAlgebra.js': 'library-sparql.cjs',
  re2js: 'library-re2js.cjs',
  'csv-parse': 'library-csv-parse.cjs',
  // the SPARQL 1.2 parser and translator (traqula), loaded only for texts sparqljs refuses
  '@traqula/parser-sparql-1-2': 'library-sparql12.cjs',
  '@traqula/algebra-sparql-1-2': 'library-sparql12.cjs',
};

/**
 * The esbuild plugin that turns the lazy `requireLibrary('<specifier>')` calls into
 * `require('./<file>')['<specifier>']`, the file left out of the bundle (it is built apart,
 * see {@link bundleLazyLibraries}) and found beside the chunk that requires it.
 */
const lazyRequires: Plugin = {
  name: 'quadlog-lazy-requires',
  setup(build) {
    build.onLoad({ filter: LAZY_REQUIRES }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      const rewritten = text.replace(/\brequireLibrary\((['"])([^'"]+)\1\)/g, (_call, _quote: string, specifier: string) => {
        const file = LAZY_LIBRARIES[specifier];
        if (file === undefined) throw new Error(`${relative(ROOT, args.path)} loads '${specifier}' on first use: add it to LAZY_LIBRARIES in scripts/bundle-package.ts`);
        return `require(${JSON.stringify(`./${file}`)})[${JSON.stringify(specifier)}]`;
      });
      if (rewritten === text) throw new Error(`${relative(ROOT, args.path)} calls requireLibrary('…') no more: update LAZY_REQUIRES in scripts/bundle-package.ts`);
      return { contents: rewritten, loader: 'js' };
    });
    build.onResolve({ filter: /^\.\/library-[a-z0-9-]+\.cjs$/ }, (args) => ({ path: args.path, external: true }));
  },
};

/**
 * Builds the files of {@link LAZY_LIBRARIES} into `directory`: each a CommonJS bundle whose
 * exports are its libraries by specifier. Returns the bundled inputs (for the licences).
 */
async function bundleLazyLibraries(directory: string): Promise<string[]> {
  const inputs: string[] = [];
  const files = new Map<string, string[]>();
  for (const [specifier, file] of Object.entries(LAZY_LIBRARIES)) files.set(file, [...(files.get(file) ?? []), specifier]);
  for (const [file, specifiers] of files) {
    const result = await build({
      stdin: {
        contents: `module.exports = {\n${specifiers.map((s) => `  ${JSON.stringify(s)}: require(${JSON.stringify(s)}),`).join('\n')}\n};\n`,
        resolveDir: ROOT,
        sourcefile: file,
        loader: 'js',
      },
      bundle: true,
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      minify: true,
      legalComments: 'none',
      outfile: join(directory, 'chunks', file),
      metafile: true,
      logLevel: 'silent',
      absWorkingDir: ROOT,
    });
    for (const warning of result.warnings) process.stderr.write(`bundle: ${file}: ${warning.text}\n`);
    inputs.push(...Object.keys(result.metafile.inputs));
  }
  return inputs;
}

/** The directory of the package a bundled input belongs to (the innermost `node_modules/<name>/`), if any. */
function packageDirectory(input: string): string | undefined {
  const parts = input.split(/[\\/]/);
  const at = parts.lastIndexOf('node_modules');
  if (at < 0 || at + 1 >= parts.length) return undefined;
  const length = parts[at + 1]!.startsWith('@') ? 2 : 1;
  return resolve(ROOT, parts.slice(0, at + 1 + length).join(sep));
}

/** The licence notice of a bundled package: name, version, licence and the text of its licence file. */
async function licenceText(directory: string): Promise<string> {
  const manifest = JSON.parse(await readFile(join(directory, 'package.json'), 'utf8')) as { name?: string; version?: string; license?: string };
  const head = `${manifest.name ?? relative(ROOT, directory)}@${manifest.version ?? '?'} (${manifest.license ?? 'licence not stated'})`;
  const files = await readdir(directory);
  const file = files.find((f) => /^(licen[cs]e|copying)(\.(md|txt))?$/i.test(f));
  return file === undefined ? `${head}\n` : `${head}\n\n${(await readFile(join(directory, file), 'utf8')).trim()}\n`;
}

/** Every `.js` file under a directory (relative paths). */
async function javascriptFiles(directory: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(directory, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith('.js')) out.push(relative(directory, join(entry.parentPath, entry.name)));
  }
  return out;
}

/** Bundles `dist/` in place. @throws when esbuild reports an error or an entry point is missing. */
export async function bundlePackage(): Promise<{ readonly files: readonly string[]; readonly packages: readonly string[] }> {
  for (const module of Object.values(ENTRIES)) {
    if (!existsSync(join(DIST, module))) throw new Error(`dist/${module} is missing: run the compiler (tsc -p tsconfig.build.json) first`);
  }
  if ((await readFile(join(DIST, 'index.js'), 'utf8')).includes('__quadlogCreateRequire')) throw new Error('dist/ is bundled already: build it again from the compiler (npm run build)');
  // chunks of an earlier bundle (the compiler wrote the modules again, not these)
  await rm(join(DIST, 'chunks'), { recursive: true, force: true });
  const staging = join(ROOT, `.dist-bundle-${process.pid}-${randomBytes(4).toString('hex')}`);
  await mkdir(staging);
  try {
    const result = await build({
      entryPoints: Object.fromEntries(Object.entries(ENTRIES).map(([out, module]) => [out, join(DIST, module)])),
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      external: EXTERNAL,
      banner: { js: BANNER },
      plugins: [lazyRequires],
      chunkNames: 'chunks/[name]-[hash]',
      // a package's "module" build (ES modules) before its "main" one: esbuild leaves out
      // what quadlog does not use of it (of n3: its streams, and with them readable-stream)
      mainFields: ['module', 'main'],
      // comments and white space go, names stay (stack traces and classes read as written)
      minifyWhitespace: true,
      minifySyntax: true,
      // short lines: a stack trace's source line stays readable
      lineLimit: 160,
      legalComments: 'none',
      sourcemap: false,
      outdir: staging,
      metafile: true,
      logLevel: 'silent',
      absWorkingDir: ROOT,
    });
    for (const warning of result.warnings) process.stderr.write(`bundle: ${warning.text}\n`);
    const files = Object.keys(result.metafile.outputs).map((file) => relative(staging, resolve(ROOT, file)));
    // the rewritten calls require their files beside the module that makes them: in chunks/
    for (const file of files) {
      if (!file.startsWith(`chunks${sep}`) && /library-[a-z0-9-]+\.cjs/.test(await readFile(join(staging, file), 'utf8'))) {
        throw new Error(`${file} loads a library of LAZY_LIBRARIES but is not in chunks/: it would not find it`);
      }
    }
    const libraryInputs = await bundleLazyLibraries(staging);
    files.push(...[...new Set(Object.values(LAZY_LIBRARIES))].map((file) => join('chunks', file)));
    for (const out of Object.keys(ENTRIES)) {
      if (!files.includes(`${out}.js`)) throw new Error(`the bundle has no ${out}.js (wrote ${files.join(', ')})`);
    }
    const directories = new Set<string>();
    for (const input of [...Object.keys(result.metafile.inputs), ...libraryInputs]) {
      const directory = packageDirectory(input);
      if (directory !== undefined) directories.add(directory);
    }
    const packages = [...directories].sort((a, b) => relative(ROOT, a).localeCompare(relative(ROOT, b)));
    const licences = await Promise.all(packages.map((directory) => licenceText(directory)));
    await writeFile(
      join(staging, 'THIRD-PARTY-LICENSES.txt'),
      `The JavaScript of quadlog in dist/ bundles these packages; their licences follow.\n\n${licences.join(`\n${'-'.repeat(72)}\n\n`)}`,
    );
    // the compiled JavaScript goes (the declarations stay), the bundle takes its place
    for (const file of await javascriptFiles(DIST)) {
      if (!file.startsWith(`console${sep}`)) await rm(join(DIST, file));
    }
    for (const file of [...files, 'THIRD-PARTY-LICENSES.txt']) {
      await mkdir(dirname(join(DIST, file)), { recursive: true });
      await rename(join(staging, file), join(DIST, file));
    }
    return { files, packages: packages.map((directory) => relative(ROOT, directory)) };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { files, packages } = await bundlePackage();
  // to stderr: `npm pack --json` (prepack builds) keeps stdout for its JSON
  process.stderr.write(`bundle: ${files.length} files in dist/ (${packages.length} packages bundled)\n`);
}
