/**
 * Builds the web console: bundles `console/src/main.ts` and its stylesheet with esbuild
 * (minified, content-hashed names, no source maps), writes `index.html` pointing at them, the
 * icon, and `licenses.txt` with the licence of every package in the bundle.
 *
 * `npm run build` runs it after the compiler (`tsx console/build.ts`) and writes
 * `dist/console/`, which the package ships and the HTTP adapter serves (lib/http/console.ts).
 * The new bundle is written to a temporary directory beside the target and then put in its
 * place, so that a reader never sees half a bundle.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..');
const SOURCE = join(HERE, 'src');

/** Where `npm run build` writes the console. */
export const CONSOLE_DIST = join(ROOT, 'dist', 'console');

/** What {@link buildConsole} wrote. */
export interface ConsoleBuild {
  /** The directory of the bundle. */
  readonly directory: string;
  /** The file names written (index.html, the hashed script and stylesheet, …). */
  readonly files: readonly string[];
  /** The packages bundled, with their versions. */
  readonly packages: readonly string[];
}

/** The package a bundled input file belongs to (`node_modules/@scope/name/…`), if any. */
function packageOf(input: string): string | undefined {
  const m = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
  return m?.[1];
}

async function licenceText(name: string): Promise<string> {
  const directory = join(ROOT, 'node_modules', name);
  const manifest = JSON.parse(await readFile(join(directory, 'package.json'), 'utf8')) as { version?: string; license?: string };
  for (const file of ['LICENSE', 'LICENSE.md', 'LICENSE.txt', 'license', 'LICENCE']) {
    if (existsSync(join(directory, file))) {
      return `${name}@${manifest.version ?? '?'} (${manifest.license ?? 'see below'})\n\n${(await readFile(join(directory, file), 'utf8')).trim()}\n`;
    }
  }
  return `${name}@${manifest.version ?? '?'} (${manifest.license ?? 'licence not stated'})\n`;
}

/**
 * Builds the console into `outDir` (default `dist/console/`), replacing what was there.
 * @throws when esbuild reports an error.
 */
export async function buildConsole(outDir: string = CONSOLE_DIST): Promise<ConsoleBuild> {
  const target = resolve(outDir);
  await mkdir(dirname(target), { recursive: true });
  const staging = join(dirname(target), `.${basename(target)}-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    const result = await build({
      entryPoints: { main: join(SOURCE, 'main.ts'), console: join(SOURCE, 'console.css'), icon: join(SOURCE, 'icon.svg') },
      bundle: true,
      format: 'esm',
      platform: 'browser',
      target: ['es2022', 'chrome110', 'firefox115', 'safari16'],
      minify: true,
      sourcemap: false,
      legalComments: 'none',
      entryNames: '[name]-[hash]',
      loader: { '.svg': 'copy' },
      outdir: staging,
      metafile: true,
      logLevel: 'silent',
      absWorkingDir: ROOT,
    });
    const outputs = Object.keys(result.metafile.outputs).map((file) => relative(staging, resolve(ROOT, file)));
    const find = (pattern: RegExp): string => {
      const name = outputs.find((file) => pattern.test(file));
      if (name === undefined) throw new Error(`the console build wrote no file like ${String(pattern)} (wrote ${outputs.join(', ')})`);
      return name;
    };
    const names = { script: find(/^main-\w+\.js$/), style: find(/^console-\w+\.css$/), icon: find(/^icon-\w+\.svg$/) };
    const template = await readFile(join(SOURCE, 'index.html'), 'utf8');
    const html = template.replace(/%(SCRIPT|STYLE|ICON)%/g, (_m, key: string) => names[key.toLowerCase() as keyof typeof names]);
    await writeFile(join(staging, 'index.html'), html);

    const packages = new Set<string>();
    for (const input of Object.keys(result.metafile.inputs)) {
      const name = packageOf(input);
      if (name !== undefined) packages.add(name);
    }
    const sorted = [...packages].sort();
    const licences = await Promise.all(sorted.map((name) => licenceText(name)));
    await writeFile(
      join(staging, 'licenses.txt'),
      `The web console of quadlog bundles these packages; their licences follow.\n\n${licences.join(`\n${'-'.repeat(72)}\n\n`)}`,
    );
    // the new bundle replaces the old one in two renames
    const old = `${staging}-old`;
    if (existsSync(target)) await rename(target, old);
    await rename(staging, target);
    await rm(old, { recursive: true, force: true });
    return { directory: target, files: ['index.html', 'licenses.txt', ...outputs].sort(), packages: sorted };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outDir = process.argv[2];
  buildConsole(outDir === undefined ? undefined : resolve(outDir)).then(
    // on standard error: `npm pack --json` reads the standard output of prepack as its JSON
    (built) => console.error(`web console: ${built.files.length} files in ${relative(process.cwd(), built.directory) || '.'}`),
    (e: unknown) => {
      console.error(e instanceof Error ? e.message : e);
      process.exitCode = 1;
    },
  );
}
