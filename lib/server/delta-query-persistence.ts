/**
 * The files of the delta queries of a persistent store, in `stores/<store>/deltaqueries/`:
 * per query, its registration (`<encoded name>.qdoc`: name, text, role, base IRI, the prefixes
 * it was compiled with, every option, and the version it was registered at), written
 * atomically and flushed before the registration returns; and its kept answers
 * (`<encoded name>.qans`): a log of checksummed records framed as the transaction log is
 * (`persistence/log.ts`), one record per version whose changes were computed (its additions,
 * deletions and snapshot as kept, the version, the answer variables), appended in the
 * background without a flush as the registry computes them. When the records appended since
 * the last rewrite outgrow the kept answers, the file is rewritten (temporary file, rename)
 * with one `whole` record holding everything kept.
 *
 * Deregistration removes the registration first (flushing the directory), then the answers:
 * an answers file without a registration is the remainder of an interrupted deregistration
 * and is deleted when the store loads. Nothing of these files stops a store from loading: a
 * registration that cannot be read gives a query in error; an answers file that ends in a torn
 * or damaged record is cut at its last whole record (answers after it are computed again
 * from the store's log where it still holds their versions, see `delta-queries.ts`); one that
 * cannot be read at all is replaced.
 *
 * Terms are written as their canonical keys (`<iri>`, `_:b`, `"lexical"^^<datatype>`), not
 * as dictionary ids, so that an answers file never depends on the dictionary of the store.
 * @module
 */
import { mkdir, readdir, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { keyToTerm, termToKey } from '../model/terms.js';
import { fsyncDirectory, removeTemporaryFiles, writeFileAtomically } from '../persistence/atomic-file.js';
import { errorCode } from '../persistence/errors.js';
import { DELTA_ANSWERS_FILE, encodeFileHeader, encodeRecord } from '../persistence/framing.js';
import { decodeStoreName, encodeStoreName, readDocument, writeDocument } from '../persistence/layout.js';
import { TransactionLog } from '../persistence/log.js';
import type { DeltaQueryProgress, DeltaQueryRegistration, DeltaQueryRow, DeltaQuerySink, DeltaQueryVersionAnswer, SavedDeltaQuery } from './delta-queries.js';

/** The directory of a store's delta queries, under the store's directory. */
export const DELTA_QUERY_DIRECTORY = 'deltaqueries';
/** The file extension of a registration. */
const REGISTRATION = '.qdoc';
/** The file extension of kept answers. */
const ANSWERS = '.qans';
/** An answers file is rewritten once its records since the last rewrite pass this many bytes and twice the kept answers. */
const REWRITE_BYTES = 64 * 1024;

/** The JSON of one kept answer. */
interface AnswerJson {
  readonly v: number;
  readonly t: DeltaQueryVersionAnswer['type'];
  readonly r: ReadonlyArray<ReadonlyArray<string | null>>;
}

/** The JSON of one record of an answers file. */
interface ProgressJson {
  readonly whole: boolean;
  readonly version: number;
  readonly variables: readonly string[];
  readonly registeredAt: number | null;
  readonly completeFrom: number | null;
  readonly answers: readonly AnswerJson[];
}

function encodeRows(rows: readonly DeltaQueryRow[]): Array<Array<string | null>> {
  return rows.map((row) => row.map((t) => (t === undefined ? null : termToKey(t))));
}

function encodeProgress(p: DeltaQueryProgress): Uint8Array {
  const json: ProgressJson = {
    whole: p.whole,
    version: p.version,
    variables: p.variables,
    registeredAt: p.registeredAt ?? null,
    completeFrom: p.completeFrom ?? null,
    answers: p.answers.map((a) => ({ v: a.version, t: a.type, r: encodeRows(a.rows) })),
  };
  return Buffer.from(JSON.stringify(json), 'utf8');
}

const isVersion = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const orUndefined = (v: unknown): number | undefined => (isVersion(v) ? v : undefined);

/** A record of an answers file read back, or a reason why it cannot be. */
function decodeProgress(body: Uint8Array): DeltaQueryProgress | string {
  let value: Partial<ProgressJson>;
  try {
    value = JSON.parse(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8')) as Partial<ProgressJson>;
  } catch {
    return 'a record is not valid JSON';
  }
  if (typeof value !== 'object' || value === null || !isVersion(value.version) || !Array.isArray(value.variables) || !Array.isArray(value.answers)) return 'a record lacks its version, variables or answers';
  const answers: DeltaQueryVersionAnswer[] = [];
  for (const a of value.answers as unknown[]) {
    const { v, t, r } = (a ?? {}) as Partial<AnswerJson>;
    if (!isVersion(v) || (t !== 'additions' && t !== 'deletions' && t !== 'snapshot') || !Array.isArray(r)) return 'a record holds an invalid answer';
    const rows: DeltaQueryRow[] = [];
    for (const row of r as unknown[]) {
      if (!Array.isArray(row)) return 'a record holds an invalid row';
      rows.push(row.map((k: unknown) => (typeof k === 'string' && k !== '' ? keyToTerm(k) : undefined)));
    }
    answers.push({ version: v, type: t, rows });
  }
  return {
    whole: value.whole === true,
    version: value.version,
    variables: (value.variables as unknown[]).map(String),
    registeredAt: orUndefined(value.registeredAt),
    completeFrom: orUndefined(value.completeFrom),
    answers,
  };
}

/** A registration read back, or a reason why it cannot be used. */
function checkRegistration(value: unknown): DeltaQueryRegistration | string {
  const v = (value ?? {}) as Partial<Record<keyof DeltaQueryRegistration, unknown>>;
  if (typeof v.name !== 'string' || typeof v.text !== 'string' || typeof v.role !== 'string' || typeof v.baseIRI !== 'string' || !isVersion(v.version)) return 'the registration lacks its name, text, role, base IRI or version';
  if (!Array.isArray(v.prefixes) || !v.prefixes.every((p: unknown) => Array.isArray(p) && p.length === 2 && typeof p[0] === 'string' && typeof p[1] === 'string')) return 'the registration has invalid prefixes';
  if (typeof v.options !== 'object' || v.options === null) return 'the registration has no options';
  return v as DeltaQueryRegistration;
}

/** One query's answers file, open for appending. */
interface AnswersFile {
  /** The open log (undefined until the registration's write has made it, or while it is rewritten). */
  log: TransactionLog | undefined;
  /** Bytes of records appended since the last whole record. */
  appended: number;
  /** Bytes of the last whole record. */
  whole: number;
  /** An append failed: the next save rewrites the whole file. */
  broken: boolean;
}

/** The files of a persistent store's delta queries: see the module documentation. */
export class DeltaQueryFiles implements DeltaQuerySink {
  private queue: Promise<unknown> = Promise.resolve();
  private readonly answers = new Map<string, AnswersFile>();
  private closed = false;

  /** `directory` is the store's `deltaqueries` directory; `exists` whether it was found. */
  constructor(
    readonly directory: string,
    private exists = false,
  ) {}

  /**
   * Reads the delta queries a store kept (its directory is the store's): every registration
   * with its answers records. Never throws for a damaged file: the query then carries the
   * error (an unreadable registration) or a recovery note (answers cut or dropped).
   */
  static async read(storeDirectory: string): Promise<{ files: DeltaQueryFiles; saved: SavedDeltaQuery[] }> {
    const directory = join(storeDirectory, DELTA_QUERY_DIRECTORY);
    let names: string[];
    try {
      names = await readdir(directory);
    } catch (e) {
      if (errorCode(e) === 'ENOENT') return { files: new DeltaQueryFiles(directory, false), saved: [] };
      throw e;
    }
    const files = new DeltaQueryFiles(directory, true);
    await removeTemporaryFiles(directory);
    names = await readdir(directory);
    const stems = new Set(names.filter((n) => n.endsWith(REGISTRATION)).map((n) => n.slice(0, -REGISTRATION.length)));
    // answers without a registration: a deregistration was interrupted
    for (const n of names) if (n.endsWith(ANSWERS) && !stems.has(n.slice(0, -ANSWERS.length))) await unlink(join(directory, n)).catch(() => undefined);
    const saved: SavedDeltaQuery[] = [];
    for (const stem of [...stems].sort()) {
      const path = join(directory, stem + REGISTRATION);
      let registration: DeltaQueryRegistration | undefined;
      let error: string | undefined;
      try {
        const doc = await readDocument(path);
        const checked = checkRegistration(doc?.value);
        if (typeof checked === 'string') error = `${checked} (${path})`;
        else if (encodeStoreName(checked.name) !== stem) error = `the registration in ${path} names another delta query ('${checked.name}')`;
        else registration = checked;
      } catch (e) {
        error = (e as Error).message;
      }
      const name = registration?.name ?? decodeStoreName(stem) ?? stem;
      if (registration === undefined) {
        saved.push({ name, registration: undefined, error: `the registration of delta query '${name}' cannot be read: ${error ?? 'unknown'}`, records: [], recovery: undefined });
        continue;
      }
      const { records, recovery } = await files.openAnswers(name, join(directory, stem + ANSWERS));
      saved.push({ name, registration, error: undefined, records, recovery });
    }
    return { files, saved };
  }

  /** Opens a query's answers file, reading its records (cut at a torn or damaged one). */
  private async openAnswers(name: string, path: string): Promise<{ records: DeltaQueryProgress[]; recovery: string | undefined }> {
    const records: DeltaQueryProgress[] = [];
    let bad: string | undefined;
    const entry: AnswersFile = { log: undefined, appended: 0, whole: 0, broken: false };
    this.answers.set(name, entry);
    try {
      const { log, report } = await TransactionLog.open(path, {
        kind: DELTA_ANSWERS_FILE,
        durability: 'relaxed',
        repair: true,
        onRecord: (r) => {
          if (bad !== undefined) return;
          const p = decodeProgress(r.body);
          if (typeof p === 'string') bad = `${p} at byte ${r.offset} of ${path}: the records from there on were dropped`;
          else {
            records.push(p);
            if (p.whole) {
              entry.whole = r.body.byteLength;
              entry.appended = 0;
            } else entry.appended += r.body.byteLength;
          }
        },
      });
      entry.log = log;
      // a record that does not decode is followed by nothing usable: rewritten at the restore
      if (bad !== undefined) entry.broken = true;
      return { records, recovery: bad ?? report.cut };
    } catch (e) {
      entry.broken = true;
      if (errorCode(e) === 'ENOENT') return { records: [], recovery: undefined };
      return { records: [], recovery: `its answers file cannot be read and was replaced (${(e as Error).message})` };
    }
  }

  /** Runs `work` after every file operation queued before it. */
  private enqueue<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private registrationPath(name: string): string {
    return join(this.directory, encodeStoreName(name) + REGISTRATION);
  }

  private answersPath(name: string): string {
    return join(this.directory, encodeStoreName(name) + ANSWERS);
  }

  /** Creates the directory of the store's delta queries if it is missing (flushing the store's directory). */
  private async ensureDirectory(): Promise<void> {
    if (this.exists) return;
    await mkdir(this.directory, { recursive: true, mode: 0o700 });
    await fsyncDirectory(dirname(this.directory));
    this.exists = true;
  }

  /** Writes a registration (flushed) and starts its empty answers file (the query's saves queue after it). */
  register(registration: DeltaQueryRegistration): Promise<void> {
    const previous = this.answers.get(registration.name);
    const entry: AnswersFile = { log: undefined, appended: 0, whole: 0, broken: false };
    this.answers.set(registration.name, entry);
    return this.enqueue(async () => {
      await previous?.log?.close().catch(() => undefined);
      if (this.closed) return;
      await this.ensureDirectory();
      await writeDocument(this.registrationPath(registration.name), registration, { mode: 0o600 });
      entry.log = await TransactionLog.create(this.answersPath(registration.name), 0, { kind: DELTA_ANSWERS_FILE, durability: 'relaxed', replace: true });
    });
  }

  /** Removes a registration (flushed) and then its answers. */
  deregister(name: string): Promise<void> {
    const entry = this.answers.get(name);
    this.answers.delete(name);
    return this.enqueue(async () => {
      await entry?.log?.close().catch(() => undefined);
      if (this.closed) return;
      try {
        await unlink(this.registrationPath(name));
        await fsyncDirectory(this.directory);
      } catch (e) {
        if (errorCode(e) !== 'ENOENT') throw e;
      }
      await unlink(this.answersPath(name)).catch(() => undefined);
    });
  }

  /**
   * Appends a query's progress (in the background, in call order); rewrites the file with
   * `state` (everything the query keeps) instead when the file has grown past the kept
   * answers, when an earlier write failed, or when `progress` is whole itself.
   */
  save(name: string, progress: DeltaQueryProgress, state: () => DeltaQueryProgress): void {
    if (this.closed) return;
    const entry = this.answers.get(name) ?? { log: undefined, appended: 0, whole: 0, broken: true };
    this.answers.set(name, entry);
    let body = encodeProgress(progress);
    let whole = progress.whole || entry.broken;
    if (!whole && entry.appended + body.byteLength > Math.max(REWRITE_BYTES, 2 * entry.whole)) {
      whole = true;
    }
    if (whole && !progress.whole) body = encodeProgress(state());
    // the decision and the sizes are taken now, in call order; the writes follow in the queue
    if (whole) {
      entry.whole = body.byteLength;
      entry.appended = 0;
      entry.broken = false;
    } else entry.appended += body.byteLength;
    void this.enqueue(async () => {
      if (this.closed || this.answers.get(name) !== entry) return;
      try {
        if (whole) await this.rewrite(name, entry, body);
        else if (entry.log === undefined) throw new Error('its answers file is not open');
        else await entry.log.append(body);
      } catch (e) {
        entry.broken = true;
        process.emitWarning(`could not save the answers of delta query '${name}' (they are saved whole at its next version): ${(e as Error).message}`);
      }
    });
  }

  /** Replaces a query's answers file with one whole record (temporary file, rename), then reopens it for appending. */
  private async rewrite(name: string, entry: AnswersFile, body: Uint8Array): Promise<void> {
    const path = this.answersPath(name);
    await entry.log?.close().catch(() => undefined);
    entry.log = undefined;
    const sequence = new Uint8Array(8);
    new DataView(sequence.buffer).setBigUint64(0, 1n, true);
    await this.ensureDirectory();
    await writeFileAtomically(path, [encodeFileHeader(DELTA_ANSWERS_FILE, 0), ...encodeRecord(1, [sequence, body])], { durable: false, mode: 0o600, what: `the answers of delta query '${name}'` });
    entry.log = (await TransactionLog.open(path, { kind: DELTA_ANSWERS_FILE, durability: 'relaxed' })).log;
  }

  /** Resolves once every write queued so far has finished. */
  settled(): Promise<void> {
    return this.enqueue(() => Promise.resolve());
  }

  /** Waits for the queued writes and closes the answers files (idempotent). */
  async close(): Promise<void> {
    await this.settled();
    this.closed = true;
    for (const entry of this.answers.values()) await entry.log?.close().catch(() => undefined);
    this.answers.clear();
  }
}
