/**
 * The writer of RDF graph answers (CONSTRUCT and DESCRIBE) as Turtle, N-Triples, N-Quads or
 * TriG, streaming: each triple is handed to the sink as text when it is given (n3's Writer over
 * an output that passes its text on), so an answer is never held whole.
 *
 * - Turtle and TriG declare every prefix given, first (and an empty line after them); a run of
 *   triples with the same subject (and predicate) is abbreviated with `;` (and `,`), which needs
 *   only the triple before, so these formats stream too. A statement's closing ` .` is written
 *   with the next triple, or by {@link GraphAnswerWriter.end}. There is no grouping of triples
 *   that are not adjacent (no writer here collects the graph).
 * - N-Triples and N-Quads are one line per triple, in canonical form.
 *
 * The text is that of n3's Writer given the same triples in one call.
 * @module
 */
import type * as RDF from '@rdfjs/types/data-model.js';
import { Writer } from 'n3';
import { canonicalMediaType, RDF_FORMATS } from '../media-types.js';
import { AnswerFormatError } from './answer-writer.js';

/** The media type of graph answers that `contentType` names (aliases and parameters allowed), or undefined. */
export function graphMediaType(contentType: string): string | undefined {
  const type = canonicalMediaType(contentType);
  return type !== undefined && RDF_FORMATS.includes(type) ? type : undefined;
}

/** Writes the triples of a graph answer to a sink of text as they are given. */
export class GraphAnswerWriter {
  /** The media type written (canonical, without parameters). */
  readonly mediaType: string;
  private readonly writer: Writer;
  private ended = false;

  /**
   * A writer of `mediaType` (one of the RDF formats, aliases allowed) to `sink`; Turtle and TriG
   * declare `prefixes` (name with colon → namespace IRI) at once.
   * @throws AnswerFormatError when `mediaType` is not an RDF format.
   */
  constructor(mediaType: string, sink: (chunk: string) => void, prefixes: ReadonlyMap<string, string> = new Map<string, string>()) {
    const type = graphMediaType(mediaType);
    if (type === undefined) throw new AnswerFormatError(mediaType, `'${mediaType}' is not an RDF format for graph answers (${RDF_FORMATS.join(', ')})`);
    this.mediaType = type;
    const declared: Record<string, string> = {};
    for (const [name, namespace] of prefixes) declared[name.slice(0, -1)] = namespace;
    const output = {
      write: (chunk: string): boolean => {
        if (chunk !== '') sink(chunk);
        return true;
      },
      end: (): void => undefined,
    };
    this.writer = new Writer(output, { format: type, prefixes: declared });
  }

  /** Writes one triple (its graph is written too in N-Quads and TriG). */
  quad(quad: RDF.Quad): void {
    if (this.ended) throw new Error('quad() called after the answer ended');
    this.writer.addQuad(quad);
  }

  /** Ends the answer: the last statement's end is written. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.writer.end();
  }
}
