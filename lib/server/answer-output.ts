/**
 * Writing a query's answer in a media type as it is produced: SELECT and ASK through the
 * answer writers (SPARQL JSON, XML, CSV, TSV, result-set Turtle, -abbrev variants, null),
 * CONSTRUCT and DESCRIBE as Turtle, N-Triples, N-Quads or TriG. The SPARQL evaluator knows only
 * its {@link AnswerSink} interface; this module, in the server layer, is the glue that picks
 * the writer from `formats/` for a media type and puts it behind that interface.
 * @module
 */
import type * as RDF from '@rdfjs/types';
import { Writer } from 'n3';
import { ANSWER_MEDIA_TYPES, answerMediaType, createAnswerWriter, supportsBoolean, type AnswerWriter } from '../formats/answers/index.js';
import { canonicalMediaType, RDF_FORMATS } from '../formats/media-types.js';
import { BadRequestError } from '../model/errors.js';
import type { AnswerSink } from '../sparql/types.js';

/** An answer sink that writes `mediaType` text to `write`; reports the number of answers. */
export function answerWriterSink(
  mediaType: string,
  write: (chunk: string) => void,
  options: { readonly prefixes: ReadonlyMap<string, string>; readonly baseIRI: string },
): AnswerSink & { readonly count: () => number } {
  const tableType = answerMediaType(mediaType);
  const graphType = canonicalMediaType(mediaType);
  let writer: AnswerWriter | undefined;
  let count = 0;
  const needTable = (what: string): AnswerWriter => {
    if (!tableType) {
      throw new BadRequestError(`${what} answers cannot be written as '${mediaType}': use one of ${ANSWER_MEDIA_TYPES.join(', ')}`);
    }
    return (writer ??= createAnswerWriter(tableType, write, options));
  };
  return {
    count: () => count,
    variables: (names) => needTable('SELECT').begin(names),
    row: (values) => {
      count++;
      writer!.row(values);
    },
    boolean: (value) => {
      const w = needTable('ASK');
      if (!supportsBoolean(tableType!)) throw new BadRequestError(`ASK answers cannot be written as '${mediaType}'`);
      count = 1;
      w.boolean(value);
    },
    quads: (quads: readonly RDF.Quad[]) => {
      if (!graphType || !RDF_FORMATS.includes(graphType)) {
        throw new BadRequestError(`CONSTRUCT and DESCRIBE answers cannot be written as '${mediaType}': use text/turtle, application/n-triples, application/n-quads or application/trig`);
      }
      const prefixes: Record<string, string> = {};
      for (const [k, v] of options.prefixes) prefixes[k.slice(0, -1)] = v;
      const n3 = new Writer({ format: graphType, prefixes });
      n3.addQuads([...quads]);
      count = quads.length;
      n3.end((error, text: string) => {
        if (error) throw error;
        write(text);
      });
    },
    end(): void {
      writer?.end();
    },
  };
}
