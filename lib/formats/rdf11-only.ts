/**
 * The terms the RDF 1.1-only writers (JSON-LD, RDF/XML) cannot write: RDF 1.2's triple terms
 * and literals with a base direction. Writing them as something else would change the data, so
 * the export fails with an error naming the term and the formats that can write it.
 * @module
 */
import { BadRequestError } from '../model/errors.js';
import { KIND_LITERAL, KIND_TRIPLE } from '../model/terms.js';

/** Throws when the canonical key is a triple term or a literal with a base direction. */
export function requireRdf11(key: string, format: string): void {
  const kind = key.charCodeAt(0);
  let what: string | undefined;
  if (kind === KIND_TRIPLE) what = 'a triple term (RDF 1.2)';
  else if (kind === KIND_LITERAL) {
    const close = key.lastIndexOf('"');
    if (key.charCodeAt(close + 1) === 0x40 && key.includes('--', close + 2)) what = 'a literal with a base direction (RDF 1.2)';
  }
  if (what !== undefined) throw new BadRequestError(`${format} cannot write ${what}: export as N-Triples, N-Quads, Turtle or TriG`);
}
