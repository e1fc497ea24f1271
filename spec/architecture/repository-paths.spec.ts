/**
 * The repository stands alone: no file of `lib/`, `spec/`, `bench/`, `examples/` or `console/`
 * names a path outside it, so that a clone anywhere (with nothing beside it) runs its tests and
 * benchmarks. Each TypeScript file is read with the compiler's parser and two kinds of path are
 * refused:
 *
 * - an absolute path into where a machine keeps its own files (`/work/…`, `/home/…`, `/srv/…`,
 *   `/tmp/…`, a Windows drive, …) or a `../shared` folder beside the repository, in any string
 *   or template text; the system's own programs and devices (`/usr/bin/chromium`,
 *   `/usr/lib/postgresql`, `/dev/null`, `/etc/passwd` named to be refused) are not data of the
 *   repository and stay allowed;
 * - a path built from the module's own location (`new URL('…', import.meta.url)`, or
 *   `join`/`resolve` of the module's folder with literal parts) that climbs above the
 *   repository's root.
 *
 * The documentation (`docs/`, `README.md`) is held to the first rule too. And the data the
 * suites read (`spec/helpers/test-data.ts`) is checked to be inside the repository.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { expect } from 'chai';
import ts from 'typescript';
import { LUBM, REPOSITORY_ROOT, TEST_DATA_DIR, lubmQuery, w3cPath } from '../helpers/test-data.js';

/** The folders whose code is checked. */
const CODE_FOLDERS = ['lib', 'spec', 'bench', 'examples', 'console'];
/** Folders never looked into. */
const SKIPPED = new Set(['node_modules', 'dist', '.git', 'coverage', 'test-data', 'api']);

/**
 * Absolute paths of a particular machine: the top folders where machines keep users' and
 * projects' files (not the system's programs), a Windows drive, or the `shared/` folder that
 * lies beside the repository on the team's machines.
 */
const MACHINE_PATH = /(?:^|[\s'"`(=:,[])(?:\/(?:work|home|root|srv|opt|mnt|media|data|Users|Volumes|private|shared|tmp|workspace)\/[^\s'"`)]*|[A-Za-z]:\\\\?[A-Za-z][^\s'"`)]*)|\.\.\/shared(?:\/|$)/;

/** One place that names a path outside the repository. */
export interface OutsidePath {
  /** The file, relative to the repository's root. */
  readonly file: string;
  /** The line (1-based). */
  readonly line: number;
  /** What is wrong. */
  readonly problem: string;
}

/** The files below a folder with one of the extensions, skipping {@link SKIPPED}. */
function filesBelow(folder: string, extensions: readonly string[], out: string[] = []): string[] {
  if (!existsSync(folder)) return out;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (SKIPPED.has(entry.name)) continue;
    const path = join(folder, entry.name);
    if (entry.isDirectory()) filesBelow(path, extensions, out);
    else if (extensions.some((e) => entry.name.endsWith(e))) out.push(path);
  }
  return out;
}

/** True when `path` is the root or lies below it. */
function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** True when an expression mentions the module's own location. */
function mentionsModuleLocation(node: ts.Node, source: ts.SourceFile): boolean {
  const text = node.getText(source);
  return text.includes('import.meta.url') || text.includes('__dirname') || text.includes('import.meta.dirname');
}

/**
 * The paths outside `root` that the TypeScript (or JavaScript) text of `file` names, by the two
 * rules of this spec.
 */
export function outsidePaths(root: string, file: string, text: string): OutsidePath[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: OutsidePath[] = [];
  const where = relative(root, file);
  const report = (node: ts.Node, problem: string): void => {
    found.push({ file: where, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1, problem });
  };
  const literal = (node: ts.Node): string | undefined =>
    ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) ? node.text : undefined;
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
      const match = MACHINE_PATH.exec(node.text);
      if (match) report(node, `names a path of a particular machine: ${match[0].trim()}`);
    }
    // new URL('…', import.meta.url)
    if (ts.isNewExpression(node) && node.expression.getText(source) === 'URL' && node.arguments?.length === 2) {
      const [first, second] = node.arguments;
      const value = first && literal(first);
      if (value !== undefined && second && mentionsModuleLocation(second, source) && !/^[a-z][a-z0-9+.-]*:/i.test(value)) {
        const target = fileURLToPath(new URL(value, pathToFileURL(file)));
        if (!inside(root, target)) report(node, `climbs above the repository: new URL('${value}', import.meta.url)`);
      }
    }
    // join(dirname(fileURLToPath(import.meta.url)), '..', …) and resolve(…) alike
    if (ts.isCallExpression(node) && /(^|\.)(join|resolve)$/.test(node.expression.getText(source)) && node.arguments.length > 1) {
      const [base, ...rest] = node.arguments;
      if (base && mentionsModuleLocation(base, source)) {
        const parts: string[] = [];
        for (const part of rest) {
          const value = literal(part);
          if (value === undefined) break;
          parts.push(value);
        }
        const baseText = base.getText(source);
        const start = baseText.startsWith('dirname(') || baseText.includes('__dirname') || baseText.includes('import.meta.dirname') ? dirname(file) : file;
        const target = join(start, ...parts);
        if (parts.length > 0 && !inside(root, target)) report(node, `climbs above the repository: ${node.getText(source)}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('architecture: the repository stands alone', () => {
  it('finds machine paths and climbs above the root where they are (the checker itself)', () => {
    const root = REPOSITORY_ROOT;
    const file = join(root, 'spec', 'x', 'y.spec.ts');
    const problems = (text: string): string[] => outsidePaths(root, file, text).map((p) => p.problem);
    // (the folder's name spelled apart, so that nothing reading this file as text takes it for a path)
    const shared = ['sha', 'red'].join('');
    expect(problems(`const a = '/work/${shared}/lubm/lubm1.nt.gz';`)).to.have.length(1);
    expect(problems('const a = `/home/me/data/${name}.ttl`;')).to.have.length(1);
    expect(problems(`const a = join(ROOT, '../${shared}/w3c');`)).to.have.length(1);
    expect(problems("const a = 'C:\\\\Users\\\\me\\\\x.ttl';")).to.have.length(1);
    expect(problems(`const a = fileURLToPath(new URL('../../../${shared}/w3c', import.meta.url));`)).to.have.length(2);
    expect(problems("const a = fileURLToPath(new URL('../../../elsewhere', import.meta.url));")).to.have.length(1);
    expect(problems("const a = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'x');")).to.have.length(1);
    // inside the repository, or not a path of this machine's files
    expect(problems("const a = fileURLToPath(new URL('../../test-data/w3c', import.meta.url));")).to.deep.equal([]);
    expect(problems("const a = join(dirname(fileURLToPath(import.meta.url)), '..', '..');")).to.deep.equal([]);
    expect(problems("const a = new URL('https://example.com/', import.meta.url);")).to.deep.equal([]);
    expect(problems("fetch('/datastores/x/content'); spawn('/usr/bin/chromium'); open('/etc/passwd'); iri('../g');")).to.deep.equal([]);
  });

  it('no file of lib/, spec/, bench/, examples/ or console/ names a path outside the repository', () => {
    // this spec's own fixtures (above) are the one place that writes such paths on purpose
    const self = fileURLToPath(import.meta.url);
    const files = CODE_FOLDERS.flatMap((f) => filesBelow(join(REPOSITORY_ROOT, f), ['.ts', '.js', '.mjs', '.cjs'])).filter((f) => f !== self);
    expect(files.length).to.be.greaterThan(100);
    const found = files.flatMap((file) => outsidePaths(REPOSITORY_ROOT, file, readFileSync(file, 'utf8')));
    expect(found.map((p) => `${p.file}:${p.line}: ${p.problem}`)).to.deep.equal([]);
  });

  it('the documentation names no path of a particular machine', () => {
    const files = [join(REPOSITORY_ROOT, 'README.md'), ...filesBelow(join(REPOSITORY_ROOT, 'docs'), ['.md']), ...filesBelow(join(REPOSITORY_ROOT, 'examples'), ['.md'])];
    const found: string[] = [];
    for (const file of files) {
      readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
        const match = MACHINE_PATH.exec(line);
        if (match) found.push(`${relative(REPOSITORY_ROOT, file)}:${i + 1}: ${match[0].trim()}`);
      });
    }
    expect(found).to.deep.equal([]);
  });

  it('the data the suites read is in the repository, with its provenance and licences', () => {
    const paths = [LUBM.lubm1, LUBM.lubm10, LUBM.ontology, LUBM.answers, ...Array.from({ length: 14 }, (_, i) => lubmQuery(i + 1)),
      w3cPath('LICENSE.md'), w3cPath('rdf/rdf11/rdf-n-triples/manifest.ttl'), w3cPath('rdf/rdf11/rdf-turtle/LICENSE'),
      w3cPath('sparql/sparql10/LICENSE'), w3cPath('sparql/sparql11/manifest-all.ttl'), join(TEST_DATA_DIR, 'README.md')];
    for (const path of paths) {
      if (process.env.QUADLOG_W3C_DIR === undefined && process.env.QUADLOG_LUBM_DIR === undefined) expect(inside(REPOSITORY_ROOT, path), path).to.equal(true);
      expect(existsSync(path), path).to.equal(true);
    }
  });
});
