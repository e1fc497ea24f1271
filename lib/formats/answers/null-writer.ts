/**
 * `application/x.sparql-results+null`: answers are counted and discarded (RDFox's format for
 * measuring query speed without the cost of writing answers).
 * @module
 */
import { AnswerWriterBase } from './answer-writer.js';

/** Writes nothing; counts the rows. */
export class NullAnswerWriter extends AnswerWriterBase {
  protected readonly booleanSupported = true;
  /** The number of rows given so far. */
  rowCount = 0;

  /** A writer that never calls `sink`, reporting `mediaType` as its content type. */
  constructor(sink: (chunk: string) => void, mediaType: string) {
    super(sink, mediaType, false);
  }

  protected writeBegin(): void {}

  protected writeRow(): void {
    this.rowCount++;
  }

  protected writeEnd(): void {}

  protected writeBoolean(): void {}
}
