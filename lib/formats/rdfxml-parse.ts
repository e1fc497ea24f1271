/**
 * Reading RDF/XML into term ids, streamed through `rdfxml-streaming-parser` (see
 * `stream-parse.ts` for how its quads become batches). Blank nodes are scoped as in the other
 * formats (`blank-node-labels.ts`): an `rdf:nodeID` keeps its label, a node without one gets a
 * fresh store-unique label. The namespaces the root element declares (`xmlns:ex="…"`) are the
 * content's prefixes. RDF 1.2 additions the store cannot hold (triple terms, `rdf:annotation`,
 * literals with a base direction from `its:dir`) are refused with an error rather than dropped.
 * The first error ends the input; it has the line and column the XML parser reports.
 * @module
 */
import type * as RDF from '@rdfjs/types/data-model.js';
import type * as RdfXmlStreaming from 'rdfxml-streaming-parser';
import { libraryExports } from './library-exports.js';
import { termToKey } from '../model/terms.js';
import { BlankNodeLabels } from './blank-node-labels.js';
import { NOT_SHOWN_NOTE } from './hidden-content.js';
import type { ImportReport } from './notifications.js';
import type { QuadBatch } from './quad-batch.js';
import type { ParseOptions, TermIds } from './rdf-parse.js';
import { inputDataFactory, parseWithStream, RefusedTerm } from './stream-parse.js';
import type { DescribedError } from './turtle-errors.js';

/** The message of an RDF/XML error in content that is not shown. */
const INVALID_NOT_SHOWN = `the content is not valid RDF/XML (the parser's message is not shown: ${NOT_SHOWN_NOTE})`;

/** The part of saxes (the XML parser under `rdfxml-streaming-parser`) used to learn the root element's namespaces. */
interface SaxHooks {
  on(event: 'opentagstart', handler: () => void): void;
  on(event: 'attribute', handler: (attribute: { readonly prefix: string; readonly local: string; readonly name: string; readonly value: string }) => void): void;
}

let rdfXmlStreaming: Promise<typeof RdfXmlStreaming> | undefined;

/**
 * The id of a term of RDF/XML or JSON-LD input, refusing what the store's RDF 1.1 terms cannot
 * hold (a triple term, a literal with a base direction).
 * @internal
 */
export function rdf11TermIds(dictionary: TermIds): (term: RDF.Term) => number {
  return (term) => {
    if (term.termType === 'Quad') throw new RefusedTerm('triple terms (RDF 1.2: rdf:parseType="Triple", rdf:annotation, rdf:reifies) cannot be stored: the store holds RDF 1.1 terms');
    if (term.termType === 'Literal' && (term as { readonly direction?: string | null }).direction) {
      throw new RefusedTerm('literals with a base direction (RDF 1.2) cannot be stored: the store holds RDF 1.1 terms');
    }
    return dictionary.intern(termToKey(term));
  };
}

/** An error of the RDF/XML parser as it is reported: its message, line and column. */
export function describeRdfXmlError(error: Error, showContent: boolean): DescribedError {
  // rdfxml-streaming-parser: `Line 3 column 5: …`; saxes: `3:5: …` (both 1-based)
  const m = /^(?:Line (\d+) column (\d+)|(?:[^:\n]*:)?(\d+):(\d+)): ([\s\S]*)$/.exec(error.message);
  if (!m) return { message: showContent ? error.message : INVALID_NOT_SHOWN };
  const line = Number(m[1] ?? m[3]);
  const column = Number(m[2] ?? m[4]);
  return { message: showContent ? m[5]! : INVALID_NOT_SHOWN, line, column };
}

/**
 * Parses RDF/XML content into batches of term ids; the root element's namespace declarations go
 * to `defined` (and `report`). The parser (and its dependencies) loads with the first RDF/XML
 * import, not with the package: the bundle keeps it in a chunk of its own.
 */
export async function* parseRdfXml(
  chunks: AsyncIterable<Uint8Array>,
  dictionary: TermIds,
  report: ImportReport,
  options: ParseOptions,
  defined: Map<string, string>,
): AsyncGenerator<QuadBatch, void, undefined> {
  rdfXmlStreaming ??= import('rdfxml-streaming-parser').then((m) => libraryExports<typeof RdfXmlStreaming>(m));
  yield* parseWith(await rdfXmlStreaming, chunks, dictionary, report, options, defined);
}

/** {@link parseRdfXml} with the parser's library loaded. */
function parseWith(
  library: typeof RdfXmlStreaming,
  chunks: AsyncIterable<Uint8Array>,
  dictionary: TermIds,
  report: ImportReport,
  options: ParseOptions,
  defined: Map<string, string>,
): AsyncGenerator<QuadBatch, void, undefined> {
  const labels = new BlankNodeLabels(options.freshBlankNode);
  const parser = new library.RdfXmlParser({ dataFactory: inputDataFactory(labels), baseIRI: options.baseIRI, trackPosition: true });
  const showContent = options.showContent !== false;
  // the namespaces of the root element are the content's prefixes
  const sax = (parser as unknown as { readonly saxParser: SaxHooks }).saxParser;
  let elements = 0;
  sax.on('opentagstart', () => void elements++);
  sax.on('attribute', (attribute) => {
    if (elements !== 1) return;
    const name = attribute.prefix === 'xmlns' ? `${attribute.local}:` : attribute.name === 'xmlns' ? ':' : undefined;
    if (name === undefined || defined.has(name)) return;
    defined.set(name, attribute.value);
    if (showContent) report.prefix(name, attribute.value);
  });
  const errorsBefore = report.errors;
  async function* batches(): AsyncGenerator<QuadBatch, void, undefined> {
    yield* parseWithStream(parser, chunks, {
      dictionary,
      report,
      interrupter: options.interrupter,
      text: true,
      term: rdf11TermIds(dictionary),
      describe: (error) => describeRdfXmlError(error, showContent),
    });
    // the namespaces of content that is not shown are part of what it holds: reported only when it imports
    if (!showContent && report.errors === errorsBefore) for (const [name, iri] of defined) report.prefix(name, iri);
  }
  return batches();
}
