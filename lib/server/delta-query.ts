/**
 * One registered delta query and the types that describe it: its options (RDFox's parameters),
 * the answers it keeps per version within its size parameters, its description, and what the
 * registry needs of its store and of the store's files.
 * @module
 */
import { ANSWER_MEDIA_TYPES, answerMediaType } from '../formats/answers/index.js';
import type { TermDictionary } from '../model/dictionary.js';
import { BadRequestError } from '../model/errors.js';
import type { CompiledQuery } from '../sparql/parse.js';
import type { Catalogue } from '../storage/catalogue.js';
import type { FactAccess } from '../storage/fact-access.js';
import type { Snapshot } from '../storage/fact-store.js';
import type { Bag } from './delta-query-bags.js';
import type { DeltaQueryShape } from './delta-query-shape.js';
import type { DeltaQueryRow, Watcher } from './delta-query-watch.js';

/** How a delta query's answers are kept: its changes per version (`delta`), or its whole answer per version too (`snapshot`). */
export type DeltaQueryEvaluationMode = 'delta' | 'snapshot';

/** Options of a delta query (RDFox's parameters, in camel case). */
export interface DeltaQueryOptions {
  /** `all` (default), `explicit` or `derived`. */
  readonly factDomain?: string;
  /** Base IRI of the query text (default: the store's). */
  readonly baseIRI?: string;
  /** `delta` (default): keep additions and deletions per version; `snapshot`: keep the whole answer per version as well. */
  readonly evaluationMode?: DeltaQueryEvaluationMode;
  /** How many versions' whole answers are kept (`snapshot` mode; default 1). */
  readonly snapshotsMaxSize?: number;
  /** How many versions' additions are kept (default 1). */
  readonly additionsMaxSize?: number;
  /** How many versions' deletions are kept (default 1). */
  readonly deletionsMaxSize?: number;
  /** RDFox's format-name: the answer format the kept answers are read in by default (a SPARQL answer media type; default text/csv). */
  readonly formatName?: string;
}

/** A kept answer of a delta query at a version. */
export interface DeltaQueryVersionAnswer {
  /** The data store version. */
  readonly version: number;
  /** `snapshot` (the whole answer), `additions` or `deletions`. */
  readonly type: 'snapshot' | 'additions' | 'deletions';
  /** The rows. */
  readonly rows: readonly DeltaQueryRow[];
}

/** The description of a delta query. */
export interface DeltaQueryDescription {
  /** Its name. */
  readonly name: string;
  /** Its text. */
  readonly query: string;
  /** The role that registered it (answers obey its privileges). */
  readonly role: string;
  /** Its answer variables. */
  readonly variables: readonly string[];
  /** `incremental` (from the change log) or `rerun` (evaluated again and compared). */
  readonly computation: 'incremental' | 'rerun';
  /** Why it re-runs (undefined when incremental). */
  readonly rerunReason: string | undefined;
  /** The fact domain. */
  readonly factDomain: string;
  /** The evaluation mode. */
  readonly evaluationMode: DeltaQueryEvaluationMode;
  /** RDFox's size parameters. */
  readonly snapshotsMaxSize: number;
  /** How many versions' additions are kept. */
  readonly additionsMaxSize: number;
  /** How many versions' deletions are kept. */
  readonly deletionsMaxSize: number;
  /** The answer format the kept answers are read in by default (RDFox's format-name). */
  readonly formatName: string;
  /** The version its answer was first computed at. */
  readonly registeredAt: number | undefined;
  /** The last version whose changes are computed. */
  readonly version: number | undefined;
  /** Why it stopped (an evaluation failed, e.g. the role lost a privilege); undefined while it works. */
  readonly error: string | undefined;
  /**
   * Undefined unless a restart of a persistent store lost the changes of some versions (the
   * process stopped before computing them and the store's log no longer held those versions):
   * then the first version from which every version's changes are kept again. Answers kept
   * for earlier versions are exact; the versions in between have none.
   */
  readonly completeFrom: number | undefined;
  /** What the last restart found in the query's files (a torn record cut, a damaged file replaced); undefined when nothing. */
  readonly recovery: string | undefined;
}

/** What the registry needs of its store. */
export interface DeltaQueryStore {
  /** The store's name. */
  readonly name: string;
  /** Its facts: versions, snapshots, dictionary. */
  readonly facts: {
    readonly dictionary: TermDictionary;
    read(): Snapshot;
    retain(snapshot: Snapshot): Snapshot;
    release(snapshot: Snapshot): void;
  };
}

/** The access of the registering role for a catalogue (undefined: everything). */
export type AccessFor = (catalogue: Catalogue, dictionary: TermDictionary) => FactAccess | undefined;

/** A registration as a persistent store keeps it (`delta-query-persistence.ts`). */
export interface DeltaQueryRegistration {
  /** The query's name. */
  readonly name: string;
  /** Its text. */
  readonly text: string;
  /** The role that registered it. */
  readonly role: string;
  /** The base IRI it was compiled with. */
  readonly baseIRI: string;
  /** The store's prefixes when it was registered (its text is compiled with them again). */
  readonly prefixes: ReadonlyArray<readonly [string, string]>;
  /** Its options as given. */
  readonly options: DeltaQueryOptions;
  /** The version the registry read from when it was registered (its answer is first computed there). */
  readonly version: number;
}

/** A query's progress as a persistent store keeps it: one version's kept answers, or everything kept (`whole`). */
export interface DeltaQueryProgress {
  /** Everything kept (replaces what came before), or the answers kept at `version` alone. */
  readonly whole: boolean;
  /** The last version whose changes are computed. */
  readonly version: number;
  /** The answer variables. */
  readonly variables: readonly string[];
  /** The version its answer was first computed at. */
  readonly registeredAt: number | undefined;
  /** See {@link DeltaQueryDescription.completeFrom}. */
  readonly completeFrom: number | undefined;
  /** The answers (of `version`, or all kept when whole), oldest first. */
  readonly answers: readonly DeltaQueryVersionAnswer[];
}

/** Where a persistent store's registry keeps its registrations and answers (`delta-query-persistence.ts`). */
export interface DeltaQuerySink {
  /** Keeps a registration; resolves once it is on disk. */
  register(registration: DeltaQueryRegistration): Promise<void>;
  /** Removes a registration and its answers; resolves once the registration is gone from disk. */
  deregister(name: string): Promise<void>;
  /** Keeps a query's progress, in the background; `state` gives everything it keeps, should the file be rewritten. */
  save(name: string, progress: DeltaQueryProgress, state: () => DeltaQueryProgress): void;
}

/** A query a persistent store kept, as read at start-up. */
export interface SavedDeltaQuery {
  /** Its name. */
  readonly name: string;
  /** Its registration (undefined when it cannot be read: `error` says why). */
  readonly registration: DeltaQueryRegistration | undefined;
  /** Why it cannot be registered again. */
  readonly error: string | undefined;
  /** Its progress records, in the order they were written. */
  readonly records: readonly DeltaQueryProgress[];
  /** What reading its answers found (a cut, a replaced file). */
  readonly recovery: string | undefined;
}

function checkSize(name: string, value: number | undefined, fallback: number): number {
  const n = value ?? fallback;
  if (!Number.isSafeInteger(n) || n < 0) throw new BadRequestError(`invalid ${name} ${String(value)}: a non-negative integer is required`);
  return n;
}

/** The default answer format of a delta query's kept answers. */
const DEFAULT_FORMAT_NAME = 'text/csv';

function checkFormatName(value: string | undefined): string {
  if (value === undefined) return DEFAULT_FORMAT_NAME;
  const type = answerMediaType(value);
  if (type === undefined) throw new BadRequestError(`invalid format-name '${value}': a SPARQL answer format is required (${ANSWER_MEDIA_TYPES.join(', ')})`);
  return type;
}

/** @internal One registered query. */
export class DeltaQuery {
  readonly factDomain: string;
  readonly mode: DeltaQueryEvaluationMode;
  readonly formatName: string;
  readonly sizes: { readonly snapshots: number; readonly additions: number; readonly deletions: number };
  variables: readonly string[] = [];
  /** The answer at {@link DeltaQuery.version}, kept where needed (re-run queries, snapshot mode, watches of an incremental query need none). */
  current: Bag | undefined;
  version: number | undefined;
  registeredAt: number | undefined;
  error: Error | undefined;
  readonly kept: DeltaQueryVersionAnswer[] = [];
  readonly watchers = new Set<Watcher>();
  /** Its registration as a persistent store keeps it (undefined for a store in memory and for watches). */
  registration: DeltaQueryRegistration | undefined;
  /** Settles once its registration is on disk (rejects when it could not be written). */
  saved: Promise<void> = Promise.resolve();
  /** The last version whose progress was handed to the store's files. */
  savedVersion = -1;
  /** See {@link DeltaQueryDescription.completeFrom}. */
  completeFrom: number | undefined;
  /** See {@link DeltaQueryDescription.recovery}. */
  recovery: string | undefined;
  /**
   * Restored at start-up, what it still needs once the registry reaches its version: `init`
   * its first answer (never computed), `resume` its answer after versions it lost, `answer`
   * the answer it keeps between versions.
   */
  restoring: 'init' | 'resume' | 'answer' | undefined;

  constructor(
    readonly name: string,
    readonly text: string,
    readonly role: string,
    readonly baseIRI: string,
    /** The query parsed and translated at registration (with the prefixes of then). */
    readonly compiled: CompiledQuery,
    readonly shape: DeltaQueryShape,
    readonly accessFor: AccessFor,
    options: DeltaQueryOptions,
    /** Registered by a watch of a query text: ends with its last watch, not listed. */
    readonly anonymous: boolean,
  ) {
    this.factDomain = options.factDomain ?? 'all';
    if (!['all', 'explicit', 'derived'].includes(this.factDomain)) throw new BadRequestError(`unknown fact domain '${this.factDomain}' (expected all, explicit or derived)`);
    this.mode = options.evaluationMode ?? 'delta';
    if (this.mode !== 'delta' && this.mode !== 'snapshot') throw new BadRequestError(`unknown evaluation mode '${String(this.mode)}' (expected delta or snapshot)`);
    this.formatName = checkFormatName(options.formatName);
    this.sizes = {
      snapshots: checkSize('snapshots-max-size', options.snapshotsMaxSize, 1),
      additions: checkSize('additions-max-size', options.additionsMaxSize, 1),
      deletions: checkSize('deletions-max-size', options.deletionsMaxSize, 1),
    };
  }

  /** Whether the whole answer is kept from version to version. */
  get keepsAnswer(): boolean {
    return this.shape.kind === 'rerun' || this.mode === 'snapshot';
  }

  /** Keeps a version's answers within the size parameters. */
  keep(entry: DeltaQueryVersionAnswer): void {
    const limit = entry.type === 'snapshot' ? this.sizes.snapshots : entry.type === 'additions' ? this.sizes.additions : this.sizes.deletions;
    if (limit === 0) return;
    this.kept.push(entry);
    const same = this.kept.filter((e) => e.type === entry.type);
    if (same.length > limit) this.kept.splice(this.kept.indexOf(same[0]!), 1);
  }

  describe(): DeltaQueryDescription {
    return {
      name: this.name,
      query: this.text,
      role: this.role,
      variables: this.variables,
      computation: this.shape.kind,
      rerunReason: this.shape.kind === 'rerun' ? this.shape.reason : undefined,
      factDomain: this.factDomain,
      evaluationMode: this.mode,
      snapshotsMaxSize: this.sizes.snapshots,
      additionsMaxSize: this.sizes.additions,
      deletionsMaxSize: this.sizes.deletions,
      formatName: this.formatName,
      registeredAt: this.registeredAt,
      version: this.version,
      error: this.error?.message,
      completeFrom: this.completeFrom,
      recovery: this.recovery,
    };
  }
}
