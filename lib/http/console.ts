/**
 * The web console's server side: the files of the console (a single-page application built by
 * `npm run build` into `dist/console/`) served under `/console/` of the interface, without
 * authentication (the page holds no data; it signs in with the management interface itself).
 *
 * - `GET /console` redirects (301) to `/console/`; `GET /console/` and `/console/index.html`
 *   answer the page; every other file of the bundle is at `/console/<name>`; anything else
 *   under `/console/` is a 404. GET and HEAD only (405 with `Allow` otherwise).
 * - Files whose names carry esbuild's content hash (`main-ABCD2345.js`) are cached for a year
 *   (`immutable`); the unhashed files are `no-cache` (revalidated by `ETag`), and the page is
 *   `no-store`: each answer of it carries a fresh nonce (see below).
 * - Every answer carries a strict Content-Security-Policy (scripts, styles, images and
 *   requests from the same origin only; no inline script, no frames, no forms, no plugins, no
 *   `<base>`, Trusted Types required for every HTML sink), `X-Content-Type-Options: nosniff`,
 *   `Referrer-Policy: no-referrer`, `X-Frame-Options: DENY` and same-origin opener and
 *   resource policies. No cookie is ever set and no CORS header is sent. The page's policy
 *   also allows the `<style>` elements that carry its answer's nonce: the editor (CodeMirror)
 *   puts its stylesheet in one, and the page's script reads the nonce from its own
 *   `<link nonce>` (a nonce is hidden from CSS selectors and attribute reads).
 * - Text files are sent gzip-compressed to clients that accept it.
 *
 * The files are read once, at the first request, and kept in memory (the bundle is a few
 * hundred KiB). When no bundle is found the console answers 503 naming the missing build.
 * @module
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { abortResponse } from './errors.js';

/** The path of the console, relative to the interface. */
export const CONSOLE_PATH = '/console';

/** The Content-Security-Policy of every console answer but the page (see {@link consolePolicy}). */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "object-src 'none'",
  "require-trusted-types-for 'script'",
  "trusted-types 'none'",
].join('; ');

/**
 * The Content-Security-Policy of the console's page, given the nonce of its answer: the
 * editor (CodeMirror) adds its stylesheet as a `<style>` element carrying that nonce.
 */
export function consolePolicy(styleNonce?: string): string {
  return CONSOLE_CSP.replace("style-src 'self'", `style-src 'self'${styleNonce === undefined ? '' : ` 'nonce-${styleNonce}'`}`);
}

/** Headers of every console answer (besides the CSP). */
const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONSOLE_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=UTF-8',
  '.js': 'text/javascript; charset=UTF-8',
  '.css': 'text/css; charset=UTF-8',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=UTF-8',
  '.json': 'application/json',
  '.png': 'image/png',
};

/** esbuild's content hash in a file name (`[name]-[hash]`: 8 characters of base 32). */
const HASHED_NAME = /-[A-Z2-7]{8}\.[a-z]+$/;

/** The cache lifetime of hashed files, in seconds (a year). */
const IMMUTABLE_MAX_AGE = 31_536_000;

/** The placeholder of the page's style nonce, replaced in every answer. */
const NONCE_PLACEHOLDER = '%NONCE%';

/** One file of the bundle, ready to send. */
interface Asset {
  readonly body: Buffer;
  /** Whether the body holds the nonce placeholder (the page: answered anew each time, never cached). */
  readonly template: boolean;
  readonly gzip: Buffer | undefined;
  readonly type: string;
  readonly etag: string;
  readonly immutable: boolean;
}

/**
 * The directory of the console's bundle: `dist/console/` beside the compiled adapter (in the
 * package, `dist/http/` → `dist/console/`), else `dist/console/` of the source tree (when the
 * adapter runs from `lib/http/`), else undefined.
 */
export function consoleDirectory(): string | undefined {
  for (const candidate of ['../console/', '../../dist/console/']) {
    const directory = fileURLToPath(new URL(candidate, import.meta.url));
    if (existsSync(join(directory, 'index.html'))) return directory;
  }
  return undefined;
}

async function loadAssets(directory: string): Promise<ReadonlyMap<string, Asset>> {
  const assets = new Map<string, Asset>();
  for (const entry of await readdir(directory, { withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const dot = entry.name.lastIndexOf('.');
    const type = dot < 0 ? undefined : CONTENT_TYPES[entry.name.slice(dot)];
    if (type === undefined) continue;
    const body = await readFile(join(directory, entry.name));
    const template = type.startsWith('text/html') && body.includes(NONCE_PLACEHOLDER);
    const compressible = !template && type !== 'image/png' && body.length > 1024;
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
    assets.set(entry.name, { body, template, gzip: compressible ? gzipSync(body, { level: 9 }) : undefined, type, etag, immutable: HASHED_NAME.test(entry.name) });
  }
  if (!assets.has('index.html')) throw new Error(`the console bundle in ${directory} has no index.html`);
  return assets;
}

/** Whether an Accept-Encoding header accepts gzip (a `q=0` refuses it). */
function acceptsGzip(header: string | undefined): boolean {
  if (header === undefined) return false;
  for (const part of header.split(',')) {
    const [coding, ...parameters] = part.trim().toLowerCase().split(';');
    if (coding !== 'gzip' && coding !== '*') continue;
    const q = parameters.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  }
  return false;
}

function sendText(res: ServerResponse, status: number, text: string, headers: Readonly<Record<string, string>> = {}): void {
  const body = `${text}\n`;
  res.writeHead(status, { ...SECURITY_HEADERS, ...headers, 'Cache-Control': 'no-store', 'Content-Type': 'text/plain; charset=UTF-8', 'Content-Length': String(Buffer.byteLength(body)) });
  res.end(body);
}

/**
 * The console's request listener for an interface mounted under `prefix`: it answers the
 * requests whose path (relative to the interface) is `/console` or below it and returns true,
 * and returns false for every other request, leaving it alone. `directory` is where the
 * bundle is (default: {@link consoleDirectory}).
 */
export function createConsoleListener(prefix: string, directory?: string): (req: IncomingMessage, res: ServerResponse, relativeTarget: string) => boolean {
  let loading: Promise<ReadonlyMap<string, Asset>> | undefined;
  const assets = (): Promise<ReadonlyMap<string, Asset>> => {
    if (!loading) {
      const found = directory ?? consoleDirectory();
      loading = found === undefined ? Promise.reject(new Error('no console bundle found')) : loadAssets(found);
      // a failed load is tried again at the next request (the bundle may be built meanwhile)
      loading.catch(() => (loading = undefined));
    }
    return loading;
  };

  const serveFile = async (req: IncomingMessage, res: ServerResponse, name: string): Promise<void> => {
    let files: ReadonlyMap<string, Asset>;
    try {
      files = await assets();
    } catch {
      sendText(res, 503, 'ServiceUnavailableError: the web console is not built: run `npm run build` (it writes dist/console/)');
      return;
    }
    const asset = files.get(name);
    if (!asset) {
      sendText(res, 404, `UnknownResourceError: no file '${name}' in the web console`);
      return;
    }
    if (asset.template) {
      // a fresh nonce for every answer of the page, so it is never cached or revalidated
      const nonce = randomBytes(18).toString('base64');
      const body = Buffer.from(asset.body.toString('utf8').replaceAll(NONCE_PLACEHOLDER, nonce));
      res.writeHead(200, { ...SECURITY_HEADERS, 'Content-Security-Policy': consolePolicy(nonce), 'Content-Type': asset.type, 'Cache-Control': 'no-store', 'Content-Length': String(body.length) });
      res.end(req.method === 'HEAD' ? undefined : body);
      return;
    }
    const headers: Record<string, string> = {
      ...SECURITY_HEADERS,
      'Content-Type': asset.type,
      'Cache-Control': asset.immutable ? `public, max-age=${IMMUTABLE_MAX_AGE}, immutable` : 'no-cache',
      ETag: asset.etag,
    };
    if (asset.gzip) headers['Vary'] = 'Accept-Encoding';
    const match = req.headers['if-none-match'];
    if (match !== undefined && match.split(',').some((tag) => tag.trim().replace(/^W\//, '') === asset.etag)) {
      res.writeHead(304, headers);
      res.end();
      return;
    }
    const body = asset.gzip && acceptsGzip(req.headers['accept-encoding']) ? asset.gzip : asset.body;
    if (body !== asset.body) headers['Content-Encoding'] = 'gzip';
    headers['Content-Length'] = String(body.length);
    res.writeHead(200, headers);
    res.end(req.method === 'HEAD' ? undefined : body);
  };

  return (req, res, relativeTarget) => {
    const end = relativeTarget.search(/[?#]/);
    const path = end < 0 ? relativeTarget : relativeTarget.slice(0, end);
    if (path !== CONSOLE_PATH && !path.startsWith(`${CONSOLE_PATH}/`)) return false;
    const method = (req.method ?? 'GET').toUpperCase();
    if (method !== 'GET' && method !== 'HEAD') {
      req.resume();
      sendText(res, 405, `MethodNotAllowedError: method ${method} is not supported on ${prefix}${path} (allowed: GET, HEAD)`, { Allow: 'GET, HEAD' });
      return true;
    }
    if (path === CONSOLE_PATH) {
      const query = end < 0 ? '' : relativeTarget.slice(end).replace(/#.*$/, '');
      res.writeHead(301, { ...SECURITY_HEADERS, Location: `${prefix}${CONSOLE_PATH}/${query}`, 'Content-Length': '0' });
      res.end();
      return true;
    }
    const name = path.slice(CONSOLE_PATH.length + 1);
    const file = name === '' ? 'index.html' : name;
    if (file.includes('/') || file.includes('%') || file.startsWith('.')) {
      sendText(res, 404, `UnknownResourceError: no file '${file}' in the web console`);
      return true;
    }
    serveFile(req, res, file).catch((e: unknown) => {
      if (!res.headersSent) sendText(res, 500, `Error: ${e instanceof Error ? e.message : String(e)}`);
      else abortResponse(res);
    });
    return true;
  };
}
