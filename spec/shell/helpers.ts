/**
 * What the shell specs share: the command list every way in runs (scripts, standard input,
 * `POST /commands`, `/shells`, the remote CLI), its expected output, running `quadlog` as a
 * child process, and HTTP requests that read trailers.
 * @module
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export const ROOT = resolve(import.meta.dirname, '..', '..');
/** tsx's loader by path, so that the CLI runs from any directory. */
export const TSX = pathToFileURL(join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
export const CLI = join(ROOT, 'lib', 'shell', 'cli.ts');

/**
 * The command list: stores, prefixes, imports of text, rules, a continued SPARQL query, ASK,
 * a transaction, answer formats, variables, roles and privileges, an export.
 */
export const COMMAND_LIST = `# the shared command list of the shell specs
dstore create family
prefix ex: <http://example.com/>
import ! ex:alice ex:parentOf ex:bob . ex:bob ex:parentOf ex:carol .
import ! [?x, ex:ancestorOf, ?y] :- [?x, ex:parentOf, ?y] . [?x, ex:ancestorOf, ?z] :- [?x, ex:ancestorOf, ?y], [?y, ex:parentOf, ?z] .
SELECT ?x ?y WHERE { \\
  ?x ex:ancestorOf ?y \\
} ORDER BY ?x ?y
ASK { ex:alice ex:ancestorOf ex:carol }
begin
INSERT DATA { ex:carol ex:parentOf ex:dan }
commit
set query.answer-format text/csv
SELECT ?y WHERE { ex:alice ex:ancestorOf ?y } ORDER BY ?y
set query.answer-format table
set greeting hello
echo $(greeting) from $(active)
role create reader password secret
grant privileges read >datastores|family to reader
role list
export - application/n-triples
`;

/** What the command list prints (timings shown as <t>; see {@link normalise}). */
export const EXPECTED_OUTPUT = `data store 'family' created and made active
prefix ex: <http://example.com/>
2 facts (2 new) in <t>
0 facts (0 new), 2 rules (2 new) in <t>
 ?x       | ?y
----------+----------
 ex:alice | ex:bob
 ex:alice | ex:carol
 ex:bob   | ex:carol
3 answers in <t>
true
read-write transaction started on 'family'
update done in <t>
transaction committed in <t>
y
http://example.com/bob
http://example.com/carol
http://example.com/dan
3 answers in <t>
hello from family
role 'reader' created
granted read on >datastores|family to role 'reader'
admin
reader
<http://example.com/alice> <http://example.com/parentOf> <http://example.com/bob> .
<http://example.com/bob> <http://example.com/parentOf> <http://example.com/carol> .
<http://example.com/carol> <http://example.com/parentOf> <http://example.com/dan> .
`;

/**
 * A script that fails inside a transaction: the failure names the command, the argument and
 * the position; the transaction is rolled back; what follows does not run.
 */
export const FAILING_LIST = `dstore create s
begin
import ! <http://e.com/a> <http://e.com/p> 1 .
import > nosuch:graph ! <http://e.com/b> <http://e.com/p> 2 .
echo not reached
`;

/** Timings replaced by <t>, CRLF by LF. */
export function normalise(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(/\d+\.\d+ s\b/g, '<t>');
}

/** A fresh temporary directory, and its removal. */
export function tempDir(prefix: string): { readonly path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** The result of running `quadlog`. */
export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `quadlog <args>` in `cwd` with `input` on standard input (not a terminal). */
export function runCli(args: readonly string[], options: { readonly cwd: string; readonly input?: string; readonly env?: NodeJS.ProcessEnv }): Promise<CliResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, ['--import', TSX, CLI, ...args], { cwd: options.cwd, env: { ...process.env, ...options.env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

/** Whether a command is on the PATH. */
export function which(command: string): Promise<boolean> {
  return new Promise((resolvePromise) => execFile('which', [command], (error) => resolvePromise(error === null)));
}

/** An HTTP answer with its trailers. */
export interface HttpAnswer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly trailers: Record<string, string | undefined>;
  readonly body: string;
}

/** One HTTP request (asking for trailers). */
export function http(url: string, method: string, headers: Record<string, string>, body?: string): Promise<HttpAnswer> {
  return new Promise((resolvePromise, reject) => {
    const req = request(url, { method, headers: { te: 'trailers', ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolvePromise({ status: res.statusCode ?? 0, headers: res.headers, trailers: res.trailers, body: text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The Basic authorization header of a role. */
export function basic(role: string, password: string): string {
  return `Basic ${Buffer.from(`${role}:${password}`).toString('base64')}`;
}
