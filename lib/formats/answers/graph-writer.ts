/**
 * The writer of RDF graph answers (CONSTRUCT and DESCRIBE) as Turtle, N-Triples, N-Quads,
 * TriG, JSON-LD or RDF/XML, streaming (JSON-LD and RDF/XML through the export's writers,
 * `jsonld-writer.ts` and `rdfxml-writer.ts`, one node for each run of triples with the same
 * subject): each triple is handed to the sink as text when it is given (n3's Writer over
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
import { termToKey } from '../../model/terms.js';
import { JsonLdWriter } from '../jsonld-writer.js';
import { canonicalMediaType, JSON_LD, RDF_FORMATS, RDF_XML } from '../media-types.js';
import type { RdfWriter } from '../rdf-serialize.js';
import { RdfXmlWriter } from '../rdfxml-writer.js';
import { AnswerFormatError } from './answer-writer.js';

/**
 * Term ids for the quads of one answer, for the writers that work on ids (JSON-LD, RDF/XML):
 * the same term gets the same id while the table is small; past 65,536 terms it starts over
 * (a term met again then gets a new id, and at worst a node is written in two parts, which
 * both formats merge).
 */
class AnswerTerms {
  private readonly ids = new Map<string, number>();
  private readonly keys = new Map<number, string>();
  private next = 0;

  /** Makes room when the table is full; called before the terms of a quad are given ids. */
  room(): void {
    if (this.ids.size < 65_536) return;
    this.ids.clear();
    this.keys.clear();
  }

  id(term: RDF.Term): number {
    const key = termToKey(term);
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.next++;
      this.ids.set(key, id);
      this.keys.set(id, key);
    }
    return id;
  }

  keyOf(id: number): string {
    return this.keys.get(id)!;
  }
}

/** The media type of graph answers that `contentType` names (aliases and parameters allowed), or undefined. */
export function graphMediaType(contentType: string): string | undefined {
  const type = canonicalMediaType(contentType);
  return type !== undefined && RDF_FORMATS.includes(type) ? type : undefined;
}

/** Writes the triples of a graph answer to a sink of text as they are given. */
export class GraphAnswerWriter {
  /** The media type written (canonical, without parameters). */
  readonly mediaType: string;
  private readonly writer: Writer | undefined;
  /** The writer of JSON-LD and RDF/XML, with the ids it works on, and where its text goes. */
  private readonly byIds: { readonly writer: RdfWriter; readonly terms: AnswerTerms; readonly sink: (chunk: string) => void } | undefined;
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
    if (type === JSON_LD || type === RDF_XML) {
      const terms = new AnswerTerms();
      const writer = type === JSON_LD ? new JsonLdWriter(terms, { prefixes }) : new RdfXmlWriter(terms, { prefixes });
      this.byIds = { writer, terms, sink };
      return;
    }
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
    if (this.byIds) {
      const { writer, terms, sink } = this.byIds;
      terms.room();
      const g = quad.graph.termType === 'DefaultGraph' ? -1 : terms.id(quad.graph);
      writer.statement(terms.id(quad.subject), terms.id(quad.predicate), terms.id(quad.object), g);
      const text = writer.take();
      if (text !== '') sink(text);
      return;
    }
    this.writer!.addQuad(quad);
  }

  /** Ends the answer: the last statement's end is written. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.byIds) {
      this.byIds.writer.end();
      this.byIds.sink(this.byIds.writer.take());
      return;
    }
    this.writer!.end();
  }
}
