/**
 * Importing content into a data store inside a write transaction: opening the sources
 * (in parallel for IRI lists), parsing them into term ids, adding or deleting the facts,
 * counting, and updating prefixes for ADDITION_UPDATE_PREFIXES.
 * @module
 */
import type { Interrupter } from '../model/control.js';
import { BadRequestError, ParsingError, RuleCompilationError } from '../model/errors.js';
import { iriKey, termToKey } from '../model/terms.js';
import { DataFactory } from 'n3';
import { ByteCounter, openSource } from '../formats/byte-source.js';
import type { ContentSource, OpenedSource } from '../formats/content-source.js';
import { canonicalMediaType, DATALOG, JSON_LD, mediaTypeOfFileName, N_QUADS, N_TRIPLES, TRIG, TURTLE, unsupportedMediaTypeMessage } from '../formats/media-types.js';
import { ImportReport } from '../formats/notifications.js';
import { ABSENT_TERM, parseLineBytes, parseRdf, type QuadBatch, readText, sniffContent, type TermIds } from '../formats/rdf-parse.js';
import { type JsonLdOrder, JsonLdOrderError } from '../formats/jsonld-parse.js';
import { parseDatalog } from '../formats/datalog-parser.js';
import { quadBatches, type QuadSource, splitQuadSource } from '../formats/rdfjs-quads.js';
import { InvalidUtf8Error } from '../formats/utf8-validation.js';
import { RULE_NOT_SHOWN, TUPLE_TABLE_NOT_SHOWN } from '../formats/hidden-content.js';
import { DEFAULT_TRIPLES, DEFAULT_TRIPLES_ID, QUADS, QUADS_ID, type WriteTransaction } from '../storage/fact-store.js';
import { storesFacts, unstoredFactsText } from '../storage/catalogue.js';
import type { ChangeLog } from '../storage/change-log.js';
import type { TermDictionary } from '../model/dictionary.js';
import type { Rule } from '../datalog/ast.js';
import type { ReasoningSavepoint, StoreReasoner } from './reasoning.js';
import { checkIri, openIriUnder, type ReadPolicy } from './read-policy.js';
import { builtinRuleSet, isBuiltinRuleSet } from './builtin-rules.js';
import { jsonLdContextLoader } from './jsonld-contexts.js';

/**
 * @internal What an import writes to: the part of a data store it needs (the server's `DataStore` is
 * one; this module does not import it, and the store reaches the importer only through what
 * the server gives it, see {@link loadIri}).
 */
export interface ImportTarget {
  /** The store's facts: their term dictionary. */
  readonly facts: { readonly dictionary: TermDictionary };
  /** The change log of a write transaction: every fact goes through it. */
  changeLog(tx: WriteTransaction): ChangeLog<Rule>;
  /** Refuses an operation that adds to memory when the process is past the server's max-memory (undefined: no check). */
  readonly memoryGuard: ((what: string) => void) | undefined;
  /** What imports by IRI may read. */
  readonly readPolicy: ReadPolicy;
  /** A fresh, store-unique blank node label. */
  freshBlankNodeLabel(): string;
  /** Adds and removes rules. */
  readonly reasoner: Pick<StoreReasoner, 'addRules' | 'removeRules'>;
  /** A savepoint of the transaction (a JSON-LD document read again returns to it). */
  savepoint(tx: WriteTransaction): ReasoningSavepoint;
  /** Returns the transaction to a savepoint. */
  rollbackTo(tx: WriteTransaction, savepoint: ReasoningSavepoint): void;
}

/** How an import changes the store. */
export type UpdateType = 'ADD' | 'DELETE' | 'ADDITION_UPDATE_PREFIXES';

/** The update types. */
export const UPDATE_TYPES: readonly UpdateType[] = ['ADD', 'DELETE', 'ADDITION_UPDATE_PREFIXES'];

/**
 * A list of IRIs (file:, http:, https:) whose contents are imported in parallel. Which of them
 * may be read is up to the server parameters `allowed-url-schemes-on-import` (default
 * `https`) and `sandbox-directory` (file IRIs must lie inside it; none may be read without it).
 * An IRI of a built-in rule set (`rdfox:TBoxReasoning`) is not read: its rules are added to
 * (or, when deleting, removed from) the `internal` rule domain.
 */
export interface IriListSource {
  /** The IRIs; at least one. */
  readonly iris: readonly string[];
}

/**
 * Anything importData accepts: content (text, bytes, a stream of them, a file), a list of
 * IRIs, or RDF/JS quads (an array, an iterable, an async iterable or object-mode stream).
 */
export type ImportSource = ContentSource | IriListSource | QuadSource;

/** Options of an import. */
export interface ImportOptions {
  /** The media type of the content (for an IRI list: forced on every item); detected when absent. */
  readonly mediaType?: string | undefined;
  /** Triples meant for the default graph go to this named graph instead. */
  readonly defaultGraph?: string | undefined;
  /** Base IRI for relative IRIs; the store's base IRI when absent. */
  readonly baseIRI?: string | undefined;
  /**
   * @internal What a JSON-LD document out of streaming order gets (see {@link JsonLdOrder});
   * when absent, {@link importInto} chooses: a source it can read again is read again, buffered.
   */
  readonly jsonLdOrder?: JsonLdOrder | undefined;
}

function isIriList(source: ImportSource): source is IriListSource {
  return typeof source === 'object' && source !== null && 'iris' in source && Array.isArray((source).iris);
}

/** Resolves a stated media type, rejecting unknown ones. */
export function statedMediaType(mediaType: string | undefined): string | undefined {
  if (mediaType === undefined || mediaType.trim() === '') return undefined;
  const canonical = canonicalMediaType(mediaType);
  if (!canonical) throw new BadRequestError(unsupportedMediaTypeMessage(mediaType));
  return canonical;
}

/** @internal A write by an importer: the store written, its write transaction, and the interrupter that stops the work. */
export interface ImportWrite {
  /** The store written. */
  readonly store: ImportTarget;
  /** The write transaction the import changes. */
  readonly tx: WriteTransaction;
  /** Stops the import. */
  readonly interrupter: Interrupter;
}

/**
 * @internal One import's context: its write, the report that records its errors, warnings, prefixes and
 * counts, and, when progress is wanted, a list that gets a counter of the bytes read of each
 * source opened. A session builds one for each import.
 */
export interface ImportRun extends ImportWrite {
  /** Where errors, warnings, prefix rows and counts go. */
  readonly report: ImportReport;
  /** Gets a byte counter for every source opened (for progress), when given. */
  readonly counters?: ByteCounter[] | undefined;
}

/**
 * Imports content into the run's transaction. Errors are recorded in the run's report (not
 * thrown); the caller rolls back when `report.errors > 0`. Interrupts and source failures throw.
 * @internal
 */
export async function importInto(run: ImportRun, updateType: UpdateType, source: ImportSource, options: ImportOptions): Promise<void> {
  // a JSON-LD document is read in streaming order first; one that is not, when its source can
  // be read again (not a stream of the caller's), is read again with the parser buffering it
  const readAgain = options.jsonLdOrder === undefined && !isStream(source) && mayBeJsonLd(source, statedMediaType(options.mediaType));
  if (!readAgain) return importOnce(run, updateType, source, { ...options, jsonLdOrder: options.jsonLdOrder ?? 'refuse' });
  const savepoint = run.store.savepoint(run.tx);
  const { processedFacts, changedFacts } = run.report;
  try {
    await importOnce(run, updateType, source, { ...options, jsonLdOrder: 'retry' });
  } catch (e) {
    if (!(e instanceof JsonLdOrderError)) throw e;
    run.store.rollbackTo(run.tx, savepoint);
    run.report.processedFacts = processedFacts;
    run.report.changedFacts = changedFacts;
    await importOnce(run, updateType, source, { ...options, jsonLdOrder: 'buffer' });
  }
}

/**
 * Whether a source that can be read again may hold JSON-LD (so that its import needs a
 * savepoint to return to): JSON-LD stated, or no type stated and text or bytes that start as a
 * JSON value does (or gzip'd bytes), or a file or IRI, whose type is known only once opened.
 */
function mayBeJsonLd(source: ImportSource, stated: string | undefined): boolean {
  if (stated !== undefined) return stated === JSON_LD;
  if (typeof source === 'string') return /^\s*[[{]/.test(source.slice(0, 4096));
  if (source instanceof Uint8Array) {
    let i = 0;
    while (i < source.length && (source[i] === 0x20 || source[i] === 0x09 || source[i] === 0x0a || source[i] === 0x0d || source[i] === 0xef || source[i] === 0xbb || source[i] === 0xbf)) i++;
    return source[i] === 0x7b || source[i] === 0x5b || (source[0] === 0x1f && source[1] === 0x8b);
  }
  return typeof source === 'object' && source !== null && ('path' in source || isIriList(source));
}

/** Whether a source is a stream (an async iterable of chunks, or of RDF/JS quads): it can be read only once. */
function isStream(source: ImportSource): boolean {
  return typeof source === 'object' && source !== null && Symbol.asyncIterator in source;
}

/** The longest text (in UTF-16 code units) {@link importOnce} parses in one go when its type is N-Triples or N-Quads. */
const SHORT_TEXT = 1 << 16;

/** {@link importInto}, one reading of the source. */
async function importOnce(run: ImportRun, updateType: UpdateType, source: ImportSource, options: ImportOptions): Promise<void> {
  const { store, tx, interrupter, report, counters } = run;
  const mediaType = statedMediaType(options.mediaType);
  const dictionary = store.facts.dictionary;
  const deleting = updateType === 'DELETE';
  // deleting needs no new terms: a statement with a term the store lacks is not stored
  const absentIfNew = (id: number): number => (id < 0 ? ABSENT_TERM : id);
  const ids: TermIds = deleting
    ? { internBytes: (bytes, start, end) => absentIfNew(dictionary.lookupBytes(bytes, start, end)), intern: (key) => absentIfNew(dictionary.lookup(key)) }
    : dictionary;
  const defaultGraph = options.defaultGraph ? ids.intern(iriKey(options.defaultGraph)) : -1;
  // every fact goes through the transaction's change log
  const log = store.changeLog(tx);
  const triple = new Uint32Array(3);
  const quad = new Uint32Array(4);
  // the server's max-memory: checked before anything is read, then every 65,536 facts
  const memoryGuard = store.memoryGuard;
  memoryGuard?.('the import');
  const apply = (tableId: number, tuple: Uint32Array): void => {
    if (memoryGuard && (report.processedFacts & 0xffff) === 0xffff) memoryGuard('the import');
    report.processedFacts++;
    const changed = deleting ? log.removeExplicit(tableId, tuple) : log.addExplicit(tableId, tuple);
    if (changed) report.changedFacts++;
  };
  // the statements of one batch of parsed RDF (see QuadBatch)
  const applyBatch = (batch: QuadBatch): void => {
    const quads = batch.quads;
    for (let i = 0, end = batch.count << 2; i < end; i += 4) {
      const s = quads[i]!;
      const p = quads[i + 1]!;
      const o = quads[i + 2]!;
      let g = quads[i + 3]!;
      if (g === -1) g = defaultGraph;
      if (s === ABSENT_TERM || p === ABSENT_TERM || o === ABSENT_TERM || g === ABSENT_TERM) {
        report.processedFacts++;
        continue;
      }
      if (g < 0) {
        triple[0] = s;
        triple[1] = p;
        triple[2] = o;
        apply(DEFAULT_TRIPLES_ID, triple);
      } else {
        quad[0] = s;
        quad[1] = p;
        quad[2] = o;
        quad[3] = g;
        apply(QUADS_ID, quad);
      }
    }
  };
  // RDF/JS quads: their terms straight to ids; blank nodes of an addition are the call's own
  const split = isIriList(source) ? { content: source } : await splitQuadSource(source);
  if ('quads' in split) {
    const freshBlankNode = deleting ? undefined : (): string => store.freshBlankNodeLabel();
    for await (const batch of quadBatches(split.quads, ids, report, { freshBlankNode, interrupter })) applyBatch(batch);
    if (report.processedFacts >= 100_000) tx.bulk = true;
    return;
  }
  // a short text of a stated line-based type is parsed in one go: no source to open, nothing to sniff
  if (typeof split.content === 'string' && (mediaType === N_TRIPLES || mediaType === N_QUADS) && counters === undefined && split.content.length <= SHORT_TEXT) {
    interrupter.check();
    applyBatch(parseLineBytes(Buffer.from(split.content, 'utf8'), mediaType, ids, report, true));
    return;
  }
  // IRIs of built-in rule sets are not read: their rules go to (or leave) the internal domain
  let toOpen: ContentSource | IriListSource | undefined = split.content as ContentSource | IriListSource;
  if (isIriList(source) && source.iris.some(isBuiltinRuleSet)) {
    importBuiltinRuleSets(store, tx, source.iris.filter(isBuiltinRuleSet), deleting, report);
    const others = source.iris.filter((i) => !isBuiltinRuleSet(i) && i.trim() !== '' && !i.trim().startsWith('#'));
    toOpen = others.length > 0 ? { iris: others } : undefined;
  }
  const sources = toOpen === undefined ? [] : await openAll(toOpen, mediaType, store.readPolicy, counters);
  const prefixes = new Map(tx.catalogue.prefixes);
  const baseIRI = options.baseIRI ?? tx.catalogue.baseIRI;
  const definedPrefixes = new Map<string, string>();
  // what is read by IRI is not the caller's own text: its errors quote none of it (see showContent)
  const showContent = toOpen === undefined || !isIriList(toOpen);
  const importOne = async (opened: OpenedSource): Promise<void> => {
    // what the origin says (HTTP Content-Type, file extension): forced on the items of lists
    const declared = (opened.declaredType !== undefined ? canonicalMediaType(opened.declaredType) : undefined) ?? mediaTypeOfFileName(opened.name);
    const forced = mediaType ?? declared;
    const stated = sources.length > 1 || isIriList(source) ? forced : mediaType;
    const content = await sniffContent(opened.chunks);
    if ((stated ?? content.recognized) === DATALOG) {
      let text: string;
      try {
        text = await readText(content.chunks, interrupter);
      } catch (e) {
        if (!(e instanceof InvalidUtf8Error)) throw e;
        report.error(e.description, e.line, e.column);
        return;
      }
      importDatalog(store, tx, text, { baseIRI, prefixes, deleting, defaultGraph, showContent }, report, apply, definedPrefixes);
      return;
    }
    const parsed = parseRdf(content, ids, report, {
      mediaType: stated,
      baseIRI,
      prefixes,
      freshBlankNode: () => store.freshBlankNodeLabel(),
      interrupter,
      // content only guessed to be N-Triples/N-Quads may be Turtle/TriG, unless its origin says otherwise
      fallBackToTurtle: stated === undefined && (declared === undefined || declared === TURTLE || declared === TRIG),
      showContent,
      // remote JSON-LD contexts are read only as the store's read policy allows imports by IRI
      loadContext: jsonLdContextLoader(store.readPolicy),
      jsonLdOrder: options.jsonLdOrder,
    });
    for await (const batch of parsed) applyBatch(batch);
    for (const [name, iri] of parsed.definedPrefixes) definedPrefixes.set(name, iri);
  };
  // when one source fails, the others are closed (files and responses not read to the end are
  // released, and their parsing stops); the first failure is thrown once every source is done
  const closeAll = (): Promise<void> => closeSources(sources);
  let failure: { readonly error: unknown } | undefined;
  await Promise.allSettled(
    sources.map(async (opened) => {
      try {
        await importOne(opened);
      } catch (e) {
        failure ??= { error: e };
        await closeAll();
      }
    }),
  );
  await closeAll();
  if (failure) throw failure.error;
  if (report.processedFacts >= 100_000) tx.bulk = true;
    if (updateType === 'ADDITION_UPDATE_PREFIXES' && report.errors === 0 && definedPrefixes.size > 0) {
    let draft = tx.catalogue.prefixes;
    for (const [name, iri] of definedPrefixes) draft = draft.set(name, iri);
    tx.catalogue = tx.catalogue.set('prefixes', draft);
  }
}

/**
 * SPARQL LOAD: imports the RDF at `iri` into the write's transaction, its triples into `graph` when given (the
 * default graph otherwise). Errors in the content fail the load with a ParsingError naming the
 * first; nothing of it is then kept in `tx` by the caller.
 * @internal
 */
export async function loadIri(write: ImportWrite, iri: string, graph: string | undefined): Promise<void> {
  const report = new ImportReport();
  await importInto({ ...write, report }, 'ADD', { iris: [iri] }, { defaultGraph: graph });
  if (report.errors > 0) {
    const first = report.notifications.find((r) => r.type === 'error');
    const at = first?.line !== undefined ? `line ${first.line}${first.column !== undefined ? `, column ${first.column}` : ''}: ` : '';
    throw new ParsingError(`LOAD <${iri}> failed: ${at}${first?.description ?? 'errors in the content'}`);
  }
}

/**
 * Opens the sources; the IRIs of a list as `policy` allows, every one checked before any is
 * opened. For IRI lists, checks a forced type against each item's declared type. When one
 * fails, those opened are closed and the error of the first failing item is thrown.
 */
async function openAll(source: ContentSource | IriListSource, forced: string | undefined, policy: ReadPolicy, counters: ByteCounter[] | undefined): Promise<OpenedSource[]> {
  const counter = (): ByteCounter | undefined => {
    if (counters === undefined) return undefined;
    const c = new ByteCounter();
    counters.push(c);
    return c;
  };
  if (!isIriList(source)) return [openSource(source, counter())];
  const iris = source.iris.map((i) => i.trim()).filter((i) => i !== '' && !i.startsWith('#'));
  if (iris.length === 0) throw new BadRequestError('the list of IRIs to import is empty: at least one IRI is required');
  for (const iri of iris) checkIri(policy, iri);
  const settled = await Promise.allSettled(iris.map((iri) => openIriUnder(iri, policy, { counter: counter() })));
  const opened = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  try {
    for (const s of settled) if (s.status === 'rejected') throw s.reason;
    if (forced !== undefined) {
      for (const o of opened) {
        const declared = (o.declaredType !== undefined ? canonicalMediaType(o.declaredType) : undefined) ?? mediaTypeOfFileName(o.name);
        if (declared !== undefined && declared !== forced) {
          throw new ParsingError(`'${o.name}' has content type ${declared}, which does not match the forced type ${forced}: nothing was imported`);
        }
      }
    }
  } catch (e) {
    await closeSources(opened);
    throw e;
  }
  return opened;
}

/** Releases what opened sources hold (see {@link OpenedSource.close}). */
async function closeSources(sources: readonly OpenedSource[]): Promise<void> {
  await Promise.all(sources.flatMap((s) => (s.close ? [s.close()] : [])));
}

/** Adds (or removes) the rules of built-in rule sets named by IRI, in the `internal` domain. */
function importBuiltinRuleSets(store: ImportTarget, tx: WriteTransaction, iris: readonly string[], deleting: boolean, report: ImportReport): void {
  tx.access?.checkRules();
  for (const iri of iris) {
    const rules = builtinRuleSet(iri)!;
    report.processedRules += rules.length;
    try {
      report.changedRules += deleting ? store.reasoner.removeRules(tx, rules, 'internal') : store.reasoner.addRules(tx, rules, 'internal');
    } catch (e) {
      if (!(e instanceof RuleCompilationError)) throw e;
      report.error(`${iri.trim()}: ${e.message}`);
    }
  }
}

/** Splits a `line N: column N: message` error text into its parts. */
function positioned(message: string): { message: string; line?: number; column?: number } {
  const m = /^line (\d+): column (\d+): ([\s\S]*)$/.exec(message);
  return m ? { line: Number(m[1]), column: Number(m[2]), message: m[3]! } : { message };
}

/**
 * Imports Datalog text: facts like any other facts, rules into (or out of) the user domain.
 * With `showContent` false (text read by IRI), no error row quotes the text (a tuple table's
 * name, a rule), and prefix rows are reported only when the text has no error.
 */
function importDatalog(
  store: ImportTarget,
  tx: WriteTransaction,
  text: string,
  options: { baseIRI: string; prefixes: ReadonlyMap<string, string>; deleting: boolean; defaultGraph: number; showContent: boolean },
  report: ImportReport,
  apply: (tableId: number, tuple: Uint32Array) => void,
  definedPrefixes: Map<string, string>,
): void {
  const { document, errors } = parseDatalog(text, { baseIRI: options.baseIRI, prefixes: options.prefixes, showContent: options.showContent });
  for (const e of errors) report.error(e.message, e.line, e.column);
  for (const [name, iri] of document.prefixes) {
    if (options.showContent) report.prefix(name, iri);
    definedPrefixes.set(name, iri);
  }
  if (errors.length > 0) return;
  const errorsBefore = report.errors;
  const named = (table: string): string => (options.showContent ? `tuple table '${table}'` : TUPLE_TABLE_NOT_SHOWN);
  const dictionary = store.facts.dictionary;
  for (const fact of document.facts) {
    let table = fact.table;
    let args = fact.args;
    if (table === DEFAULT_TRIPLES && options.defaultGraph >= 0) {
      table = QUADS;
      args = [...args, { kind: 'const', term: DataFactory.namedNode(dictionary.keyOf(options.defaultGraph).slice(1, -1)) }];
    }
    const info = tx.catalogue.tupleTables.get(table);
    const at = fact.position;
    if (!info) {
      report.error(`${named(table)} does not exist`, at.line, at.column);
      continue;
    }
    if (!storesFacts(info)) {
      report.error(`${named(table)} ${unstoredFactsText(info, options.deleting ? 'deleted' : 'imported')}`, at.line, at.column);
      continue;
    }
    if (args.length < info.minArity || args.length > info.maxArity) {
      report.error(`${named(table)} takes ${info.maxArity} arguments, not ${args.length}`, at.line, at.column);
      continue;
    }
    const tuple = new Uint32Array(args.length);
    let ground = true;
    args.forEach((t, i) => {
      if (t.kind !== 'const') ground = false;
      else tuple[i] = dictionary.intern(termToKey(t.term));
    });
    if (!ground) {
      report.error('a fact must not contain variables', at.line, at.column);
      continue;
    }
    apply(info.id, tuple);
  }
  if (document.rules.length > 0) {
    report.processedRules += document.rules.length;
    try {
      report.changedRules += options.deleting ? store.reasoner.removeRules(tx, document.rules) : store.reasoner.addRules(tx, document.rules, 'user');
    } catch (e) {
      if (!(e instanceof RuleCompilationError)) throw e;
      const p = positioned(e.message);
      report.error(options.showContent ? p.message : RULE_NOT_SHOWN, p.line, p.column);
    }
  }
  if (!options.showContent && report.errors === errorsBefore) for (const [name, iri] of document.prefixes) report.prefix(name, iri);
}
