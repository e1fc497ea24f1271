/**
 * Writing a query's answer in a media type as it is produced: SELECT and ASK through the
 * answer writers (SPARQL JSON, XML, CSV, TSV, result-set Turtle, -abbrev variants, null),
 * CONSTRUCT and DESCRIBE as Turtle, N-Triples, N-Quads, TriG, JSON-LD or RDF/XML (each triple written as the
 * evaluator sends it). The SPARQL evaluator knows only its {@link AnswerSink} interface; this
 * module, in the server layer, is the glue that picks the writer from `formats/` for a media
 * type and puts it behind that interface.
 * @module
 */
import type * as RDF from '@rdfjs/types/data-model.js';
import {
  ANSWER_MEDIA_TYPES,
  answerMediaType,
  createAnswerWriter,
  createTsvByteWriter,
  GraphAnswerWriter,
  graphMediaType,
  supportsBoolean,
  type AnswerWriter,
} from '../formats/answers/index.js';
import { BadRequestError } from '../model/errors.js';
import type { AnswerSink } from '../sparql/types.js';

/**
 * An answer sink that writes `mediaType` text to `write`; reports the number of answers (rows,
 * or triples). The triples of CONSTRUCT and DESCRIBE are written as they come
 * ({@link AnswerSink.quad}); a whole graph given to {@link AnswerSink.quads} is written the same way.
 */
export function answerWriterSink(
  mediaType: string,
  write: (chunk: string) => void,
  options: { readonly prefixes: ReadonlyMap<string, string>; readonly baseIRI: string },
): AnswerSink & { readonly count: () => number } {
  const tableType = answerMediaType(mediaType);
  const graphType = graphMediaType(mediaType);
  let writer: AnswerWriter | undefined;
  let graph: GraphAnswerWriter | undefined;
  let count = 0;
  const needTable = (what: string): AnswerWriter => {
    if (!tableType) {
      throw new BadRequestError(`${what} answers cannot be written as '${mediaType}': use one of ${ANSWER_MEDIA_TYPES.join(', ')}`);
    }
    return (writer ??= createAnswerWriter(tableType, write, options));
  };
  const beginGraph = (): GraphAnswerWriter => {
    if (!graphType) {
      throw new BadRequestError(`CONSTRUCT and DESCRIBE answers cannot be written as '${mediaType}': use text/turtle, application/n-triples, application/n-quads, application/trig, application/ld+json or application/rdf+xml`);
    }
    return (graph ??= new GraphAnswerWriter(graphType, write, options.prefixes));
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
    graphBegin: () => void beginGraph(),
    quad: (quad: RDF.Quad) => {
      count++;
      graph!.quad(quad);
    },
    quads: (quads: readonly RDF.Quad[]) => {
      const g = beginGraph();
      for (const quad of quads) g.quad(quad);
      count = quads.length;
      g.end();
    },
    end(): void {
      if (graph) graph.end();
      else writer?.end();
    },
  };
}

/** How many characters of text are gathered before they are encoded as one chunk of bytes. */
const TEXT_BATCH = 64 * 1024;

/**
 * As {@link answerWriterSink}, but the answer goes to `write` as UTF-8 bytes: a TSV answer
 * (plain or `-abbrev`) is written from the rows' term ids, stored terms copied from the
 * dictionary where their TSV text is their canonical form; every other type is the text of
 * {@link answerWriterSink}, encoded about 64 KiB at a time. The bytes are those of the text.
 */
export function answerByteSink(
  mediaType: string,
  write: (chunk: Uint8Array) => void,
  options: { readonly prefixes: ReadonlyMap<string, string>; readonly baseIRI: string },
): AnswerSink & { readonly count: () => number } {
  const tsv = createTsvByteWriter(mediaType, options);
  if (tsv === undefined) {
    let parts: string[] = [];
    let size = 0;
    const flush = (): void => {
      if (size > 0) write(Buffer.from(parts.length === 1 ? parts[0]! : parts.join(''), 'utf8'));
      parts = [];
      size = 0;
    };
    const text = answerWriterSink(
      mediaType,
      (chunk) => {
        parts.push(chunk);
        size += chunk.length;
        if (size >= TEXT_BATCH) flush();
      },
      options,
    );
    return {
      ...text,
      boolean: (value) => {
        text.boolean(value);
        flush();
      },
      quads: (quads) => {
        text.quads(quads);
        flush();
      },
      end: () => {
        text.end();
        flush();
      },
    };
  }
  // the errors of ASK, CONSTRUCT and DESCRIBE answers in TSV are those of the text sink (a
  // graph is refused at its beginning, so no triple reaches quad())
  const refusals = answerWriterSink(mediaType, () => undefined, options);
  let count = 0;
  const flush = (): void => {
    for (const chunk of tsv.take()) write(chunk);
  };
  return {
    count: () => count,
    variables: (names) => {
      tsv.begin(names);
      flush();
    },
    row: (values) => {
      count++;
      tsv.row(values);
      flush();
    },
    rowIds: (ids, terms) => {
      count++;
      tsv.rowIds(ids, terms);
      flush();
    },
    boolean: (value) => refusals.boolean(value),
    graphBegin: () => refusals.graphBegin!(),
    quad: (quad) => refusals.quad!(quad),
    quads: (quads) => refusals.quads(quads),
    end: () => {
      tsv.end();
      flush();
    },
  };
}
