/**
 * Exporting a data store's facts in an RDF format (or its rules as Datalog), streamed to an
 * output as strings or as UTF-8 bytes.
 * @module
 */
import { type FactAccess, readableFacts } from '../storage/fact-access.js';
import type { Interrupter } from '../model/control.js';
import { BadRequestError } from '../model/errors.js';
import { canonicalMediaType, DATALOG, JSON_LD, RDF_FORMATS, unsupportedMediaTypeMessage } from '../formats/media-types.js';
import { createRdfByteWriter, createRdfWriter, type RdfWriterOptions } from '../formats/rdf-serialize.js';
import { DEFAULT_TRIPLES_ID, QUADS_ID, type StoreState } from '../storage/fact-store.js';
import { factDomainMask } from '../storage/tuple-table.js';
import type { TermDictionary } from '../model/dictionary.js';
import type { Rule } from '../datalog/ast.js';
import { DEFAULT_BASE_IRI } from '../storage/catalogue.js';
import { writeDatalog } from '../formats/datalog-writer.js';

/**
 * A writable stream as an export uses it: Node's writable streams (a file, a socket,
 * `process.stdout`) are such streams. Declared here so that the published types need nothing
 * from Node's type package.
 */
export interface ChunkWritable {
  /** Writes a chunk; false asks the writer to wait for `drain`. */
  write(chunk: string | Uint8Array): boolean;
  /** Calls `listener` once, when the stream can take more after a write returned false. */
  once(event: 'drain', listener: () => void): unknown;
}

/** Where exported text goes: a writable stream or a function (which may return a promise). */
export type ExportOutput = ChunkWritable | ((chunk: string) => void | Promise<void>);

/**
 * Where exported bytes (UTF-8) go: a writable stream or a function (which may return a
 * promise). Each chunk is the receiver's to keep: the exporter never writes to it again.
 */
export type ByteExportOutput = ChunkWritable | ((chunk: Uint8Array) => void | Promise<void>);

/** An export's output and the kind of chunks it takes: strings or UTF-8 bytes. */
export type ExportDestination = { readonly chunks: 'text'; readonly output: ExportOutput } | { readonly chunks: 'bytes'; readonly output: ByteExportOutput };

/** Hands a chunk to an output: a function is called (and awaited), a stream written to (waiting for it to drain when it asks). */
export async function emitChunk<C extends string | Uint8Array>(output: ChunkWritable | ((chunk: C) => void | Promise<void>), chunk: C): Promise<void> {
  if (chunk.length === 0) return;
  if (typeof output === 'function') {
    await output(chunk);
    return;
  }
  if (!output.write(chunk)) await new Promise<void>((resolve) => output.once('drain', resolve));
}

/** Statements going out to a destination: written by a text or a byte writer, handed on by flush. */
interface StatementOutput {
  statement(s: number, p: number, o: number, g: number): void;
  /** Hands on what the writer has ready (everything, after `end`). */
  flush(): Promise<void>;
  end(): void;
}

/** The writer of `mediaType` for a destination, with the way its chunks leave. */
function statementOutput(destination: ExportDestination, mediaType: string, dictionary: TermDictionary, options: RdfWriterOptions): StatementOutput {
  if (destination.chunks === 'text') {
    const writer = createRdfWriter(mediaType, dictionary, options);
    return { statement: (s, p, o, g) => writer.statement(s, p, o, g), flush: () => emitChunk(destination.output, writer.take()), end: () => writer.end() };
  }
  const writer = createRdfByteWriter(mediaType, dictionary, options);
  return {
    statement: (s, p, o, g) => writer.statement(s, p, o, g),
    flush: async () => {
      for (const chunk of writer.take()) await emitChunk(destination.output, chunk);
    },
    end: () => writer.end(),
  };
}

/** Hands a whole text to a destination (as UTF-8 for bytes). */
function emitText(destination: ExportDestination, text: string): Promise<void> {
  return destination.chunks === 'text' ? emitChunk(destination.output, text) : emitChunk(destination.output, Buffer.from(text, 'utf8'));
}

/** What an export has done so far, for progress reports: facts written, rows scanned of all rows. */
export interface ExportCounters {
  /** Facts written. */
  facts: number;
  /** Rows scanned. */
  scanned: number;
  /** Rows to scan. */
  total: number;
}

/** Parameters of an export. */
export interface ExportParameters {
  /** For the RDF formats: `explicit` (default), `derived` or `all`. */
  readonly 'fact-domain'?: string;
  /** For application/x.datalog: `user` (default), `axioms`, `internal` or `all`. */
  readonly 'rule-domain'?: string;
  /**
   * For JSON-LD: the context to write and compact IRIs with, as the text of a JSON object
   * (`{"ex": "http://example.com/"}`); default: one made of the store's prefixes.
   */
  readonly context?: string;
}

/** The JSON-LD context an export is given, as an object. */
function exportContext(text: string | undefined, type: string): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  if (type !== JSON_LD) throw new BadRequestError(`parameter 'context' applies to JSON-LD exports only, not to ${type}`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new BadRequestError(`parameter 'context' is not valid JSON: ${(e as Error).message}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new BadRequestError("parameter 'context' must be a JSON object of terms (a remote context cannot be given: the export does not fetch it)");
  }
  return value as Record<string, unknown>;
}

/** Whether an export in `mediaType` writes the store's rules (Datalog) rather than its facts. */
export function exportsRules(mediaType: string): boolean {
  return canonicalMediaType(mediaType) === DATALOG;
}

/**
 * One export's context: the state it reads, the store's dictionary, the interrupter that stops
 * it, the role's access (only what the role may read is written: facts of named graphs it may
 * not read are left out; undefined: everything) and counters kept up to date as it goes (for
 * progress reports). A session builds one for each export.
 */
export interface ExportRun {
  /** The store state exported. */
  readonly state: StoreState;
  /** The store's term dictionary. */
  readonly dictionary: TermDictionary;
  /** Stops the export. */
  readonly interrupter: Interrupter;
  /** The role's access (undefined: unrestricted). */
  readonly access?: FactAccess | undefined;
  /** Progress counters, when wanted. */
  readonly counters?: ExportCounters | undefined;
}

/** Writes the facts (or, for Datalog, the rules) of the run's state as `mediaType` to `destination`. */
export async function exportFacts(run: ExportRun, destination: ExportDestination, mediaType: string, parameters: ExportParameters): Promise<void> {
  const { state, dictionary, interrupter, access, counters } = run;
  const type = canonicalMediaType(mediaType);
  if (type === DATALOG) {
    for (const key of Object.keys(parameters)) {
      if (key !== 'rule-domain') throw new BadRequestError(`unknown parameter '${key}' for exporting rules (only rule-domain applies)`);
    }
    await emitText(destination, exportRules(state, parameters['rule-domain']));
    return;
  }
  if (!type || !RDF_FORMATS.includes(type)) throw new BadRequestError(unsupportedMediaTypeMessage(mediaType));
  for (const key of Object.keys(parameters)) {
    if (key !== 'fact-domain' && key !== 'context') throw new BadRequestError(`unknown parameter '${key}' for exporting facts (fact-domain applies, and context to JSON-LD)`);
  }
  const context = exportContext(parameters.context, type);
  const mask = factDomainMask(parameters['fact-domain'], 'explicit');
  // the base IRI every store starts with is not the user's: no @base, IRIs written in full
  const baseIRI = state.catalogue.baseIRI === DEFAULT_BASE_IRI ? undefined : state.catalogue.baseIRI;
  const writer = statementOutput(destination, type, dictionary, { prefixes: state.catalogue.prefixes, ...(baseIRI !== undefined ? { baseIRI } : {}), context });
  const tables: Array<[number, number]> = [
    [DEFAULT_TRIPLES_ID, 3],
    [QUADS_ID, 4],
  ];
  let pending = 0;
  const filters = new Map(tables.map(([id]) => [id, readableFacts(access, id)]));
  if (counters) for (const [id] of tables) counters.total += state.view(id).limit;
  for (const [id, arity] of tables) {
    const table = state.table(id);
    const view = state.view(id);
    const scannedBefore = counters?.scanned ?? 0;
    const readable = filters.get(id);
    for (let row = 0; row < view.limit; row++) {
      if (!table.visible(row, view) || (table.statusIn(row, view) & mask) === 0) continue;
      if (readable !== undefined && !readable((c) => table.get(row, c))) continue;
      writer.statement(table.get(row, 0), table.get(row, 1), table.get(row, 2), arity === 4 ? table.get(row, 3) : -1);
      if (++pending >= 4096) {
        if (counters) {
          counters.facts += pending;
          counters.scanned = scannedBefore + row + 1;
        }
        pending = 0;
        await writer.flush();
        await interrupter.maybeYield();
      }
    }
    if (counters) counters.scanned = scannedBefore + view.limit;
  }
  if (counters) counters.facts += pending;
  writer.end();
  await writer.flush();
}

/** The rule domains. */
export const RULE_DOMAINS = ['user', 'axioms', 'internal'] as const;

/** The rules of a domain (`user` by default, or `all`) as Datalog text with the store's prefixes. */
export function exportRules(state: StoreState, domain: string | undefined): string {
  const d = domain ?? 'user';
  if (d !== 'all' && !(RULE_DOMAINS as readonly string[]).includes(d)) throw new BadRequestError(`invalid rule-domain '${d}' (expected user, axioms, internal or all)`);
  const rules = [...state.catalogue.rules.values()].filter((r) => d === 'all' || r.domain === d).map((r) => r.rule as Rule);
  return writeDatalog({ rules }, { prefixes: state.catalogue.prefixes });
}
