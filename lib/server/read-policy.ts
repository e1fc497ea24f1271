/**
 * What a server may read when it is given IRIs to import (text/uri-list bodies, SPARQL LOAD,
 * `importData(type, { iris })`): the server parameters `sandbox-directory`,
 * `allowed-url-schemes-on-import`, `max-fetch-size` (bytes a fetched body may have, 1 GiB by
 * default) and `fetch-timeout` (milliseconds a fetch may wait for the network, headers and body
 * together, 5 minutes by default; time spent importing what arrived does not count), and the
 * opening of an IRI under them.
 *
 * - A `file:` IRI is read only when `file` is an allowed scheme and the file lies, after every
 *   symbolic link and `..` is resolved, inside the sandbox directory. The file is opened, and
 *   then the file actually opened is checked again (on Linux through `/proc/self/fd`), so that
 *   a link swapped in between the check and the open is caught.
 * - `http:` and `https:` IRIs are fetched when their scheme is allowed (`https` by default);
 *   redirects are followed by hand and every target must have an allowed scheme too (never
 *   `file:`).
 *
 * A refused IRI is a {@link SourceRefusedError} (an AccessDeniedError, HTTP 403) naming the IRI and the rule it
 * breaks, and nothing is read. A permitted IRI that cannot be read is a {@link ParsingError}
 * (HTTP 400): a missing file or a directory in the sandbox says so; a failed fetch says only
 * that the resource could not be retrieved, the same text whatever the cause. No error ever
 * holds any of the content.
 *
 * Paths a program names itself (`importData(type, { path })`) are not IRIs and are not
 * restricted.
 * @module
 */
import { constants, statSync } from 'node:fs';
import { type FileHandle, open, readlink, realpath, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BadRequestError, ParsingError } from '../model/errors.js';
import { SourceRefusedError } from '../model/source-refusal.js';
import { type IriChecks, type OpenIriOptions, openIri } from '../formats/byte-source.js';
import type { OpenedSource } from '../formats/content-source.js';

/** The server parameter naming the directory that file IRIs must lie in. */
export const SANDBOX_DIRECTORY = 'sandbox-directory';

/** The server parameter listing the URL schemes that imports by IRI may read. */
export const ALLOWED_URL_SCHEMES_ON_IMPORT = 'allowed-url-schemes-on-import';

/** The server parameter bounding the size of a fetched body, in bytes (or `none`). */
export const MAX_FETCH_SIZE = 'max-fetch-size';

/** The server parameter bounding the time a fetch may wait for the network, in milliseconds (or `none`). */
export const FETCH_TIMEOUT = 'fetch-timeout';

/** The default of `max-fetch-size`: 1 GiB. */
export const DEFAULT_MAX_FETCH_SIZE = 2 ** 30;

/** The default of `fetch-timeout`: 5 minutes. */
export const DEFAULT_FETCH_TIMEOUT_MS = 300_000;

/** The schemes that `allowed-url-schemes-on-import` may list. */
export type ImportScheme = 'file' | 'http' | 'https';

/** The schemes that can be allowed, in the order they are listed. */
export const IMPORT_SCHEMES: readonly ImportScheme[] = ['file', 'http', 'https'];

/** What imports by IRI may read. */
export interface ReadPolicy {
  /**
   * The absolute path of the directory file IRIs must lie in (as configured; it is resolved
   * to its real path whenever a file is opened), or undefined when no file IRI may be read.
   */
  readonly sandboxDirectory: string | undefined;
  /** The URL schemes (without colon) IRIs may have. */
  readonly allowedSchemes: ReadonlySet<ImportScheme>;
  /** The most bytes a fetched body may have (`max-fetch-size`; undefined: the default, Infinity: none). */
  readonly maxFetchBytes?: number | undefined;
  /** The most milliseconds a fetch may wait for the network (`fetch-timeout`; undefined: the default, Infinity: none). */
  readonly fetchTimeoutMs?: number | undefined;
}

/** A positive integer or `none` (Infinity) of a server parameter, or `fallback` when it is absent. */
function limitOf(parameters: Readonly<Record<string, string>>, name: string, unit: string, fallback: number): number {
  const value = parameters[name];
  if (value === undefined) return fallback;
  if (value === 'none') return Infinity;
  if (!/^\d+$/.test(value) || Number(value) < 1 || !Number.isSafeInteger(Number(value))) {
    throw new BadRequestError(`invalid value '${value}' for server parameter '${name}': a positive integer (${unit}) or 'none'`);
  }
  return Number(value);
}

/** The policy when none is given: `https` only, no file IRI. */
export const STRICT_READ_POLICY: ReadPolicy = Object.freeze({ sandboxDirectory: undefined, allowedSchemes: new Set<ImportScheme>(['https']) });

/** How many symbolic links a path may go through. */
const MAX_LINKS = 40;

/**
 * The read policy of a server's parameters.
 * @throws BadRequestError naming the value when `allowed-url-schemes-on-import` lists anything
 *   other than file, http and https (or an empty item), or when `sandbox-directory` is not an
 *   existing directory.
 */
export function readPolicyOf(parameters: Readonly<Record<string, string>>): ReadPolicy {
  const schemesValue = parameters[ALLOWED_URL_SCHEMES_ON_IMPORT];
  const allowedSchemes = new Set<ImportScheme>();
  if (schemesValue === undefined) allowedSchemes.add('https');
  else {
    for (const item of schemesValue.split(',')) {
      const scheme = item.trim().toLowerCase();
      if (!(IMPORT_SCHEMES as readonly string[]).includes(scheme)) {
        throw new BadRequestError(
          `invalid value '${schemesValue}' for server parameter '${ALLOWED_URL_SCHEMES_ON_IMPORT}': ${scheme === '' ? 'it has an empty item' : `'${item.trim()}' is not a scheme that can be allowed`} (a comma-separated list of ${IMPORT_SCHEMES.join(', ')})`,
        );
      }
      allowedSchemes.add(scheme as ImportScheme);
    }
  }
  const directory = parameters[SANDBOX_DIRECTORY] ?? '';
  let sandboxDirectory: string | undefined;
  if (directory !== '') {
    sandboxDirectory = resolve(directory);
    let isDirectory: boolean;
    try {
      isDirectory = statSync(sandboxDirectory).isDirectory();
    } catch {
      isDirectory = false;
    }
    if (!isDirectory) throw new BadRequestError(`invalid value '${directory}' for server parameter '${SANDBOX_DIRECTORY}': it is not an existing directory`);
  }
  const maxFetchBytes = limitOf(parameters, MAX_FETCH_SIZE, 'bytes', DEFAULT_MAX_FETCH_SIZE);
  const fetchTimeoutMs = limitOf(parameters, FETCH_TIMEOUT, 'milliseconds', DEFAULT_FETCH_TIMEOUT_MS);
  return Object.freeze({ sandboxDirectory, allowedSchemes, maxFetchBytes, fetchTimeoutMs });
}

/** The value of `allowed-url-schemes-on-import` a policy stands for, as messages show it. */
export function allowedSchemesText(policy: ReadPolicy): string {
  return IMPORT_SCHEMES.filter((s) => policy.allowedSchemes.has(s)).join(',');
}

/**
 * Refuses an IRI, or a redirect target of one, whose scheme the policy does not allow, and a
 * file IRI when the policy has no sandbox directory.
 * @throws AccessDeniedError naming the IRI and the rule.
 * @internal
 */
export function checkUrl(policy: ReadPolicy, url: URL, iri: string, redirectedFrom?: URL): void {
  const scheme = url.protocol.slice(0, -1).toLowerCase();
  const rule = `${ALLOWED_URL_SCHEMES_ON_IMPORT} is '${allowedSchemesText(policy)}'`;
  if (redirectedFrom !== undefined) {
    if (scheme === 'file') throw new SourceRefusedError(`cannot import from '${iri}': it redirects to a file IRI, and redirects to files are never followed`);
    if (scheme !== 'http' && scheme !== 'https') throw new SourceRefusedError(`cannot import from '${iri}': it redirects to a URL of scheme '${scheme}', which is not supported on import`);
    if (!policy.allowedSchemes.has(scheme)) throw new SourceRefusedError(`cannot import from '${iri}': it redirects to a URL of scheme '${scheme}', which is not allowed on import (${rule})`);
    return;
  }
  if (!(IMPORT_SCHEMES as readonly string[]).includes(scheme)) {
    throw new SourceRefusedError(`cannot import from '${iri}': the scheme '${scheme}' is not supported on import (only ${IMPORT_SCHEMES.join(', ')} can be allowed)`);
  }
  if (!policy.allowedSchemes.has(scheme as ImportScheme)) throw new SourceRefusedError(`cannot import from '${iri}': the scheme '${scheme}' is not allowed on import (${rule})`);
  if (scheme === 'file' && policy.sandboxDirectory === undefined) {
    throw new SourceRefusedError(`cannot import from '${iri}': file IRIs are not allowed because the server parameter ${SANDBOX_DIRECTORY} is not set`);
  }
}

/**
 * Checks an IRI against the policy without reading anything: its syntax, its scheme, and
 * that file IRIs have a sandbox.
 * @throws ParsingError when it is not an absolute IRI; AccessDeniedError when it is refused.
 */
export function checkIri(policy: ReadPolicy, iri: string): void {
  let url: URL;
  try {
    url = new URL(iri);
  } catch {
    throw new ParsingError(`'${iri}' is not an absolute IRI`);
  }
  checkUrl(policy, url, iri);
}

/**
 * Opens an IRI as the policy allows (see the module documentation).
 * @throws AccessDeniedError for an IRI the policy refuses; ParsingError for a permitted one that
 *   cannot be read.
 * @internal
 */
export function openIriUnder(iri: string, policy: ReadPolicy, options: OpenIriOptions = {}): Promise<OpenedSource> {
  const checks: IriChecks = {
    checkUrl: (url, name, redirectedFrom) => checkUrl(policy, url, name, redirectedFrom),
    openFile: (url, name) => openSandboxedFile(policy, url, name),
  };
  return openIri(iri, checks, {
    maxBytes: policy.maxFetchBytes ?? DEFAULT_MAX_FETCH_SIZE,
    waitLimitMs: policy.fetchTimeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS,
    limitNames: { size: `the server's ${MAX_FETCH_SIZE}`, time: `the server's ${FETCH_TIMEOUT}` },
    ...options,
  });
}

/** Whether `path` is `root` or lies below it (both absolute and normalised). */
function inside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

function outsideSandbox(iri: string): SourceRefusedError {
  return new SourceRefusedError(`cannot import from '${iri}': the file is outside the sandbox directory (server parameter ${SANDBOX_DIRECTORY})`);
}

function errorCode(e: unknown): string | undefined {
  return (e as NodeJS.ErrnoException | undefined)?.code;
}

/** Whether a file system error means that (part of) a path does not exist. */
function missing(e: unknown): boolean {
  const code = errorCode(e);
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP';
}

/**
 * Where a path really leads: its real path when it exists; otherwise the real path of its
 * deepest existing ancestor with the rest appended, following a dangling symbolic link to
 * where it points (so that a missing file behind a link is judged by where the link leads).
 */
async function realLocation(path: string, iri: string, links = 0): Promise<{ readonly path: string; readonly exists: boolean }> {
  try {
    return { path: await realpath(path), exists: true };
  } catch (e) {
    if (!missing(e)) throw new ParsingError(`cannot import from '${iri}': the file cannot be read`);
  }
  const parent = dirname(path);
  if (parent === path) return { path, exists: false };
  const up = await realLocation(parent, iri, links);
  const candidate = join(up.path, basename(path));
  if (!up.exists) return { path: candidate, exists: false };
  let target: string;
  try {
    target = await readlink(candidate);
  } catch {
    return { path: candidate, exists: false };
  }
  if (links >= MAX_LINKS) throw new ParsingError(`cannot import from '${iri}': it goes through too many symbolic links`);
  return realLocation(resolve(up.path, target), iri, links + 1);
}

/** The path of the file an open descriptor reads: from /proc on Linux, else by realpath (checked to be the same file). */
async function openedPath(handle: FileHandle, path: string): Promise<string | undefined> {
  try {
    return await readlink(`/proc/self/fd/${handle.fd}`);
  } catch {
    // no /proc: the path must still lead to the very file that is open
  }
  try {
    const real = await realpath(path);
    const [now, opened] = await Promise.all([stat(real), handle.stat()]);
    return now.dev === opened.dev && now.ino === opened.ino ? real : undefined;
  } catch {
    return undefined;
  }
}

/** Opens the file of a file IRI inside the policy's sandbox directory, or throws. */
async function openSandboxedFile(policy: ReadPolicy, url: URL, iri: string): Promise<FileHandle> {
  const sandbox = policy.sandboxDirectory;
  if (sandbox === undefined) throw new SourceRefusedError(`cannot import from '${iri}': file IRIs are not allowed because the server parameter ${SANDBOX_DIRECTORY} is not set`);
  let path: string;
  try {
    path = resolve(fileURLToPath(url));
  } catch {
    throw new SourceRefusedError(`cannot import from '${iri}': a file IRI must name a local path (no host, no encoded '/')`);
  }
  let root: string;
  try {
    root = await realpath(sandbox);
  } catch {
    throw new SourceRefusedError(`cannot import from '${iri}': the sandbox directory (server parameter ${SANDBOX_DIRECTORY}) cannot be read`);
  }
  // a path that does not name the sandbox may still lead into it through links; when where it
  // leads cannot be found out, it is refused as outside, whatever the reason (so that nothing
  // about files elsewhere shows)
  const namedInside = inside(path, sandbox) || inside(path, root);
  let location: { readonly path: string; readonly exists: boolean };
  try {
    location = await realLocation(path, iri);
  } catch (e) {
    if (!namedInside) throw outsideSandbox(iri);
    throw e;
  }
  if (!inside(location.path, root)) throw outsideSandbox(iri);
  if (!location.exists) throw new ParsingError(`cannot import from '${iri}': there is no such file in the sandbox directory`);
  let handle: FileHandle;
  try {
    // O_NONBLOCK: a FIFO does not block the open (it is refused below); O_NOFOLLOW: a link put
    // in place of the file since it was resolved is not followed
    handle = await open(location.path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch (e) {
    if (missing(e)) throw new ParsingError(`cannot import from '${iri}': the file changed while it was being opened`);
    throw new ParsingError(`cannot import from '${iri}': the file cannot be read`);
  }
  try {
    const opened = await openedPath(handle, location.path);
    if (opened === undefined || !inside(opened, root)) throw outsideSandbox(iri);
    const info = await handle.stat();
    if (info.isDirectory()) throw new ParsingError(`cannot import from '${iri}': it names a directory, not a file`);
    if (!info.isFile()) throw new ParsingError(`cannot import from '${iri}': it is not a regular file`);
    return handle;
  } catch (e) {
    await handle.close();
    throw e;
  }
}
