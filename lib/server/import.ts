/**
 * Importing content into a data store inside a write transaction: opening the sources
 * (in parallel for IRI lists), parsing them into term ids, adding or deleting the facts,
 * counting, and updating prefixes for ADDITION_UPDATE_PREFIXES.
 * @module
 */
import type { Interrupter } from '../model/control.js';
import { BadRequestError, ParsingError } from '../model/errors.js';
import { iriKey } from '../model/terms.js';
import { type ContentSource, type OpenedSource, openIri, openSource } from '../formats/byte-source.js';
import { canonicalMediaType, mediaTypeOfFileName } from '../formats/media-types.js';
import type { ImportReport } from '../formats/notifications.js';
import { parseRdf } from '../formats/rdf-parse.js';
import { DEFAULT_TRIPLES_ID, QUADS_ID, type WriteTransaction } from '../storage/fact-store.js';
import { EXPLICIT } from '../storage/tuple-table.js';
import type { DataStore } from './data-store.js';

/** How an import changes the store. */
export type UpdateType = 'ADD' | 'DELETE' | 'ADDITION_UPDATE_PREFIXES';

/** The update types. */
export const UPDATE_TYPES: readonly UpdateType[] = ['ADD', 'DELETE', 'ADDITION_UPDATE_PREFIXES'];

/** A list of IRIs (file:, http:, https:) whose contents are imported in parallel. */
export interface IriListSource {
  /** The IRIs; at least one. */
  readonly iris: readonly string[];
}

/** Anything importData accepts. */
export type ImportSource = ContentSource | IriListSource;

/** Options of an import. */
export interface ImportOptions {
  /** The media type of the content (for an IRI list: forced on every item); detected when absent. */
  readonly mediaType?: string | undefined;
  /** Triples meant for the default graph go to this named graph instead. */
  readonly defaultGraph?: string | undefined;
  /** Base IRI for relative IRIs; the store's base IRI when absent. */
  readonly baseIRI?: string | undefined;
}

function isIriList(source: ImportSource): source is IriListSource {
  return typeof source === 'object' && source !== null && 'iris' in source && Array.isArray((source).iris);
}

/** Resolves a stated media type, rejecting unknown ones. */
export function statedMediaType(mediaType: string | undefined): string | undefined {
  if (mediaType === undefined || mediaType.trim() === '') return undefined;
  const canonical = canonicalMediaType(mediaType);
  if (!canonical) throw new BadRequestError(`unknown content type '${mediaType}'`);
  return canonical;
}

/**
 * Imports content into `tx`. Errors are recorded in `report` (not thrown); the caller rolls
 * back when `report.errors > 0`. Interrupts and source failures throw.
 */
export async function importInto(
  store: DataStore,
  tx: WriteTransaction,
  updateType: UpdateType,
  source: ImportSource,
  options: ImportOptions,
  report: ImportReport,
  interrupter: Interrupter,
): Promise<void> {
  const mediaType = statedMediaType(options.mediaType);
  const dictionary = store.facts.dictionary;
  const triples = tx.table(DEFAULT_TRIPLES_ID);
  const quads = tx.table(QUADS_ID);
  const defaultGraph = options.defaultGraph ? dictionary.intern(iriKey(options.defaultGraph)) : -1;
  const version = tx.version;
  const deleting = updateType === 'DELETE';
  const triple = new Uint32Array(3);
  const quad = new Uint32Array(4);
  const sink = {
    statement(s: number, p: number, o: number, g: number): void {
      report.processedFacts++;
      if (g < 0) g = defaultGraph;
      let changed: boolean;
      if (g < 0) {
        triple[0] = s;
        triple[1] = p;
        triple[2] = o;
        changed = deleting ? triples.remove(triple, EXPLICIT, version) : triples.add(triple, EXPLICIT, version);
      } else {
        quad[0] = s;
        quad[1] = p;
        quad[2] = o;
        quad[3] = g;
        changed = deleting ? quads.remove(quad, EXPLICIT, version) : quads.add(quad, EXPLICIT, version);
      }
      if (changed) report.changedFacts++;
    },
  };
  const sources = await openAll(source, mediaType);
  const prefixes = new Map(tx.catalogue.prefixes);
  const baseIRI = options.baseIRI ?? tx.catalogue.baseIRI;
  const definedPrefixes = new Map<string, string>();
  await Promise.all(
    sources.map(async (opened) => {
      const forced = mediaType ?? (opened.declaredType !== undefined ? canonicalMediaType(opened.declaredType) : undefined) ?? mediaTypeOfFileName(opened.name);
      const outcome = await parseRdf(opened.chunks, dictionary, sink, report, {
        mediaType: sources.length > 1 || isIriList(source) ? forced : mediaType,
        baseIRI,
        prefixes,
        freshBlankNode: () => store.freshBlankNodeLabel(),
        interrupter,
      });
      for (const [name, iri] of outcome.definedPrefixes) definedPrefixes.set(name, iri);
    }),
  );
  if (updateType === 'ADDITION_UPDATE_PREFIXES' && report.errors === 0 && definedPrefixes.size > 0) {
    let draft = tx.catalogue.prefixes;
    for (const [name, iri] of definedPrefixes) draft = draft.set(name, iri);
    tx.catalogue = tx.catalogue.set('prefixes', draft);
  }
}

/** Opens the sources; for IRI lists, checks a forced type against each item's declared type. */
async function openAll(source: ImportSource, forced: string | undefined): Promise<OpenedSource[]> {
  if (!isIriList(source)) return [openSource(source)];
  const iris = source.iris.map((i) => i.trim()).filter((i) => i !== '' && !i.startsWith('#'));
  if (iris.length === 0) throw new BadRequestError('the list of IRIs to import is empty: at least one IRI is required');
  const opened = await Promise.all(iris.map((iri) => openIri(iri)));
  if (forced !== undefined) {
    for (const o of opened) {
      const declared = (o.declaredType !== undefined ? canonicalMediaType(o.declaredType) : undefined) ?? mediaTypeOfFileName(o.name);
      if (declared !== undefined && declared !== forced) {
        throw new ParsingError(`'${o.name}' has content type ${declared}, which does not match the forced type ${forced}: nothing was imported`);
      }
    }
  }
  return opened;
}
