/**
 * A SHACL validation report as RDF text in any of the RDF media types (Turtle, N-Triples,
 * N-Quads, TriG, JSON-LD, RDF/XML): its quads are interned in a dictionary of their own (the
 * report's blank nodes are not the store's terms) and written by the writers the exports use,
 * with the store's prefixes and `sh:`.
 * @module
 */
import { TermDictionary } from '../model/dictionary.js';
import { BadRequestError } from '../model/errors.js';
import { termToKey } from '../model/terms.js';
import { canonicalMediaType, RDF_FORMATS, unsupportedMediaTypeMessage } from '../formats/media-types.js';
import { createRdfWriter } from '../formats/rdf-serialize.js';
import { SH, type ValidationReport } from './shacl-report.js';

/** The canonical RDF media type of `mediaType` (a content type or a short name such as `turtle`). */
export function reportMediaType(mediaType: string): string {
  const type = canonicalMediaType(mediaType);
  if (!type || !RDF_FORMATS.includes(type)) throw new BadRequestError(unsupportedMediaTypeMessage(mediaType, RDF_FORMATS, 'a SHACL validation report'));
  return type;
}

/**
 * The quads of a validation report as text of `mediaType` (an RDF media type or its short
 * name), abbreviated with `prefixes` (name with colon → IRI) and `sh:`.
 * @throws BadRequestError for a media type that is not an RDF format.
 */
export function reportText(report: ValidationReport, mediaType: string, prefixes: ReadonlyMap<string, string>): string {
  const type = reportMediaType(mediaType);
  const dictionary = new TermDictionary();
  const all = new Map(prefixes);
  if (![...all.values()].includes(SH) && !all.has('sh:')) all.set('sh:', SH);
  const writer = createRdfWriter(type, dictionary, { prefixes: all });
  const id = (t: Parameters<typeof termToKey>[0]): number => dictionary.intern(termToKey(t));
  for (const q of report.quads) writer.statement(id(q.subject), id(q.predicate), id(q.object), q.graph.termType === 'DefaultGraph' ? -1 : id(q.graph));
  writer.end();
  return writer.take();
}
