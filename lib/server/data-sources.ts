/**
 * The data sources of a data store: external tables (delimited files, SQL databases, …) that
 * tuple tables can be mounted on. Each kind of source is a {@link DataSourceKind} registered
 * by type name; registering, deregistering and sampling are not transactional.
 *
 * A persistent server keeps the registrations with their real parameters (passwords
 * included, in a file of mode 0600): {@link DataSourceRegistry.exportRegistrations} and
 * {@link DataSourceRegistry.onChange} give them to it, {@link DataSourceRegistry.restore}
 * registers them again at start-up. A source that cannot be opened then stays registered as
 * unavailable: using it fails with an error naming it and the cause, and registering it again
 * (with the same name) replaces it.
 * @module
 */
import { closeSync, constants, fstatSync, openSync, readlinkSync, realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { BadRequestError, ParsingError, DuplicateResourceError, ResourceInUseError, UnknownResourceError } from '../model/errors.js';
import { SourceRefusedError } from '../model/source-refusal.js';
import { DELIMITED_FILE_TYPE, delimitedFileKind } from '../datasources/delimited-file.js';
import { maskConnectionString } from '../datasources/libpq-conninfo.js';
import { MountedTable } from '../datasources/mounted-table.js';
import { POSTGRESQL_TYPE, postgresqlKind } from '../datasources/postgresql.js';
import type { DataSource, DataSourceColumnRow, DataSourceKind, DataSourceRow, DataSourceSample, DataSourceTableRow, SourceContext } from '../datasources/source.js';
import { checkIri, openIriUnder, type ReadPolicy, SANDBOX_DIRECTORY, STRICT_READ_POLICY } from './read-policy.js';

export type { DataSource, DataSourceColumnRow, DataSourceKind, DataSourceRow, DataSourceSample, DataSourceTableRow } from '../datasources/source.js';

/** The kinds of data source this build can open, by type name. */
export const DATA_SOURCE_KINDS = new Map<string, DataSourceKind>([
  [DELIMITED_FILE_TYPE, delimitedFileKind],
  [POSTGRESQL_TYPE, postgresqlKind],
]);

/** The most rows a sample returns, whatever limit is asked for. */
export const MAX_SAMPLE_ROWS = 10_000;

/**
 * How a data source opens the files its parameters name: as an import opens a file IRI, under
 * the server's read policy (the `file` scheme allowed, the file inside the sandbox directory).
 * A path that is not a `file:` IRI is taken relative to the sandbox directory.
 */
export function sourceContextOf(policy: ReadPolicy): SourceContext {
  const iriOf = (file: string): string => {
    if (/^file:/i.test(file)) return file;
    const base = policy.sandboxDirectory ?? process.cwd();
    return pathToFileURL(isAbsolute(file) ? file : resolve(base, file)).href;
  };
  return {
    openFile: (file) => openIriUnder(iriOf(file), policy),
    openFileSync: (file) => openSandboxedFileSync(policy, iriOf(file)),
  };
}

/** Whether `path` is `root` or lies below it (both absolute). */
function inside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/**
 * Opens a file IRI synchronously under the read policy: the same decision as imports make
 * (scheme allowed, sandbox set, the real file inside it, the opened file checked again).
 */
function openSandboxedFileSync(policy: ReadPolicy, iri: string): number {
  checkIri(policy, iri);
  const sandbox = policy.sandboxDirectory!;
  const outside = (): SourceRefusedError => new SourceRefusedError(`cannot import from '${iri}': the file is outside the sandbox directory (server parameter ${SANDBOX_DIRECTORY})`);
  let path: string;
  try {
    path = resolve(fileURLToPath(iri));
  } catch {
    throw new SourceRefusedError(`cannot import from '${iri}': a file IRI must name a local path`);
  }
  const root = realpathSync(sandbox);
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    if (!inside(path, sandbox) && !inside(path, root)) throw outside();
    throw new ParsingError(`cannot import from '${iri}': there is no such file in the sandbox directory`);
  }
  if (!inside(real, root)) throw outside();
  let fd: number;
  try {
    fd = openSync(real, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch {
    throw new ParsingError(`cannot import from '${iri}': the file cannot be read`);
  }
  try {
    let opened = real;
    try {
      opened = readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      // no /proc: the real path was checked
    }
    if (!inside(opened, root)) throw outside();
    if (!fstatSync(fd).isFile()) throw new ParsingError(`cannot import from '${iri}': it is not a regular file`);
    return fd;
  } catch (e) {
    closeSync(fd);
    throw e;
  }
}

/**
 * Parameters as listings show them: a password inside a connection string (`user:pw@` or
 * `?password=` in a URI, the value of `password=` in keyword/value form, quoted or not) is
 * replaced by `***` (see datasources/libpq-conninfo.ts).
 */
export function shownParameters(parameters: Readonly<Record<string, string>>): Record<string, string> {
  const shown: Record<string, string> = {};
  for (const [k, v] of Object.entries(parameters)) shown[k] = k === 'connection-string' ? maskConnectionString(v) : v;
  return shown;
}

/** A data source registration as a persistent server keeps it (parameters as given, passwords included). */
export interface DataSourceRegistration {
  /** The source's name. */
  readonly name: string;
  /** Its type (a key of {@link DATA_SOURCE_KINDS}). */
  readonly type: string;
  /** Its parameters, as they were registered. */
  readonly parameters: Readonly<Record<string, string>>;
}

interface Entry {
  readonly type: string;
  readonly parameters: Readonly<Record<string, string>>;
  /** The open source, or undefined when it could not be opened at start-up (see `error`). */
  readonly source: DataSource | undefined;
  /** Why a restored source could not be opened. */
  readonly error?: Error;
}

/** Whether a value read from a file is a list of registrations. */
export function isRegistrationList(value: unknown): value is DataSourceRegistration[] {
  return (
    Array.isArray(value) &&
    value.every((r: unknown) => {
      const e = r as Partial<DataSourceRegistration> | null;
      return typeof e?.name === 'string' && typeof e.type === 'string' && typeof e.parameters === 'object' && e.parameters !== null && Object.values(e.parameters).every((v) => typeof v === 'string');
    })
  );
}

/** The data sources registered with one data store. */
export class DataSourceRegistry {
  private readonly sources = new Map<string, Entry>();

  /**
   * Called after every registration and deregistration (a persistent server saves
   * {@link DataSourceRegistry.exportRegistrations} from it); a registration returns once the
   * promise it returns settles.
   */
  onChange: (() => Promise<void> | void) | undefined = undefined;

  constructor(
    /** The store's name (for messages). */
    private readonly storeName: string,
    /** The names of the tuple tables mounted on the named source. */
    private readonly mounted: (source: string) => readonly string[],
    /** What files sources may read. */
    private readonly readPolicy: ReadPolicy = STRICT_READ_POLICY,
    /**
     * Called once a source is registered, to attach it to the tuple tables the catalogue
     * already mounts on its name (tables restored from disk, whose source was registered again).
     */
    private readonly registered: (source: string) => Promise<void> = () => Promise.resolve(),
  ) {}

  /** The listing. */
  list(): DataSourceRow[] {
    return [...this.sources].map(([name, e]) => ({ name, type: e.type, parameters: new URLSearchParams(shownParameters(e.parameters)).toString(), numberOfTables: e.source?.tables().length ?? 0 }));
  }

  /** Every registration with its real parameters (passwords included), in registration order. */
  exportRegistrations(): DataSourceRegistration[] {
    return [...this.sources].map(([name, e]) => ({ name, type: e.type, parameters: { ...e.parameters } }));
  }

  /**
   * Registers sources read from the server directory again, before the store's mounted
   * tables are attached. A source that cannot be opened (a file gone, a database down) is
   * kept as unavailable, so that the store starts: see the module documentation.
   */
  async restore(registrations: readonly DataSourceRegistration[]): Promise<void> {
    for (const { name, type, parameters } of registrations) {
      const kind = DATA_SOURCE_KINDS.get(type);
      try {
        if (!kind) throw new BadRequestError(`unknown data source type '${type}'`);
        const source = await kind.open(name, parameters, sourceContextOf(this.readPolicy));
        this.sources.set(name, { type, parameters: { ...parameters }, source });
      } catch (e) {
        const error = e instanceof Error ? e : new Error(String(e));
        this.sources.set(name, { type, parameters: { ...parameters }, source: undefined, error });
      }
    }
  }

  /** Registers a source of a known type. */
  async register(name: string, type: string | undefined, parameters: Readonly<Record<string, string>>): Promise<void> {
    if (!/^[A-Za-z_][\w.-]*$/.test(name)) throw new BadRequestError(`invalid data source name '${name}'`);
    if (type === undefined || type === '') throw new BadRequestError(`data source '${name}' needs a type (parameter type)`);
    if (this.sources.get(name)?.source !== undefined) throw new DuplicateResourceError(`data source '${name}' already exists in data store '${this.storeName}'`);
    const kind = DATA_SOURCE_KINDS.get(type);
    if (!kind) {
      const known = [...DATA_SOURCE_KINDS.keys()];
      throw new BadRequestError(`unknown data source type '${type}' (${known.length > 0 ? `known: ${known.join(', ')}` : 'this build has no data source kinds'})`);
    }
    const source = await kind.open(name, parameters, sourceContextOf(this.readPolicy));
    if (this.sources.get(name)?.source !== undefined) {
      await source.close();
      throw new DuplicateResourceError(`data source '${name}' already exists in data store '${this.storeName}'`);
    }
    // (an unavailable source of that name, restored at start-up, is replaced)
    const replaced = this.sources.get(name);
    this.sources.set(name, { type, parameters: { ...parameters }, source });
    try {
      await this.onChange?.();
    } catch (e) {
      // not saved: the registration is undone
      if (replaced) this.sources.set(name, replaced);
      else this.sources.delete(name);
      await source.close();
      throw e;
    }
    await this.registered(name);
  }

  /** Deregisters a source on which no tuple table is mounted. */
  deregister(name: string): void {
    const e = this.sources.get(name);
    if (!e) throw this.unknown(name);
    const tables = this.mounted(name);
    if (tables.length > 0) throw new ResourceInUseError(`data source '${name}' has mounted tuple tables (${tables.join(', ')}): delete them first`);
    this.sources.delete(name);
    void e.source?.close();
    void Promise.resolve(this.onChange?.()).catch((err: unknown) => process.emitWarning(`could not save the data sources of data store '${this.storeName}': ${String(err)}`));
  }

  /** Property/Value rows of a source. */
  describe(name: string): Array<{ property: string; value: string }> {
    const e = this.sources.get(name);
    if (!e) throw this.unknown(name);
    const rows = [
      { property: 'name', value: name },
      { property: 'type', value: e.type },
      { property: 'tables', value: String(e.source?.tables().length ?? 0) },
    ];
    if (e.error) rows.push({ property: 'unavailable', value: e.error.message });
    for (const [k, v] of Object.entries(shownParameters(e.parameters))) rows.push({ property: `parameters.${k}`, value: v });
    return [...rows, ...(e.source?.describe() ?? [])];
  }

  /** The tables of a source. */
  tables(name: string): DataSourceTableRow[] {
    return this.entry(name).source.tables();
  }

  /** The columns of a table of a source. */
  columns(name: string, table: string): DataSourceColumnRow[] {
    return this.entry(name).source.columns(table);
  }

  /** Up to `limit` (at most {@link MAX_SAMPLE_ROWS}) rows of a table of a source. */
  sample(name: string, table: string, limit: number): Promise<DataSourceSample> {
    if (!Number.isInteger(limit) || limit < 0) throw new BadRequestError(`invalid limit '${limit}': a non-negative integer is required`);
    return this.entry(name).source.sample(table, Math.min(limit, MAX_SAMPLE_ROWS));
  }

  /**
   * Describes a tuple table mounted on a registered source, checking its parameters against
   * the source (see datasources/mounted-table.ts).
   */
  mount(table: string, parameters: Readonly<Record<string, string>>): Promise<MountedTable> {
    const source = parameters['data-source-name'] ?? '';
    return MountedTable.create(table, source, this.entry(source).source, parameters);
  }

  /** Closes every source (the store is deleted). */
  closeAll(): void {
    for (const e of this.sources.values()) void e.source?.close();
    this.sources.clear();
  }

  private unknown(name: string): UnknownResourceError {
    return new UnknownResourceError(`data source '${name}' does not exist in data store '${this.storeName}'`);
  }

  /** The entry of an open source. @throws UnknownResourceError, or Error naming an unavailable source and why. */
  private entry(name: string): Entry & { readonly source: DataSource } {
    const e = this.sources.get(name);
    if (!e) throw this.unknown(name);
    if (e.source === undefined) {
      throw new Error(`data source '${name}' of data store '${this.storeName}' could not be opened when the server started: ${e.error?.message ?? 'unknown cause'} (register it again to replace it)`);
    }
    return e as Entry & { readonly source: DataSource };
  }
}
