/**
 * The form of a SPARQL text (SELECT, ASK, CONSTRUCT, DESCRIBE or an update), told from the
 * keyword after its prologue without parsing it, so that an answer format can be chosen before
 * the text is evaluated. A text that has no such keyword fails with the message the parser
 * gives the same mistake (see errors.ts).
 * @module
 */
import { sparqlSyntaxError } from './errors.js';

/** The form of a SPARQL text. */
export type SparqlOperationType = 'SELECT' | 'ASK' | 'CONSTRUCT' | 'DESCRIBE' | 'UPDATE';

const UPDATE_KEYWORDS: ReadonlySet<string> = new Set(['INSERT', 'DELETE', 'LOAD', 'CLEAR', 'DROP', 'CREATE', 'ADD', 'MOVE', 'COPY', 'WITH']);

/**
 * Whether a SPARQL text is a SELECT, ASK, CONSTRUCT or DESCRIBE query or an update, from the
 * keyword after its prologue (BASE and PREFIX declarations, comments), to choose an answer
 * format before evaluating it; the text is not parsed further (evaluation reports its other
 * syntax errors). A prologue alone is an empty update.
 *
 * Anything else fails with QueryCompilationError, worded as evaluating the text would word it:
 * `syntax error in the SPARQL query at line 1, column 1: unexpected 'SELEC'`. `kind` is what
 * the text was sent as, which the message names (default `query`).
 */
export function sparqlOperationType(text: string, kind: 'query' | 'update' = 'query'): SparqlOperationType {
  const token = /\s+|#[^\n\r]*|<[^>]*>|[A-Za-z][\w.-]*:?|:|\S/y;
  let expect: 'keyword' | 'prefix-name' | 'iri' = 'keyword';
  for (let m = token.exec(text); m !== null; m = token.exec(text)) {
    const t = m[0];
    if (/^\s/.test(t) || t.startsWith('#')) continue;
    if (expect === 'prefix-name') {
      if (!t.endsWith(':')) throw sparqlSyntaxError(kind, text, m.index);
      expect = 'iri';
    } else if (expect === 'iri') {
      if (!t.startsWith('<')) throw sparqlSyntaxError(kind, text, m.index);
      expect = 'keyword';
    } else {
      const word = t.toUpperCase();
      if (word === 'PREFIX') expect = 'prefix-name';
      else if (word === 'BASE') expect = 'iri';
      else if (word === 'SELECT' || word === 'ASK' || word === 'CONSTRUCT' || word === 'DESCRIBE') return word;
      else if (UPDATE_KEYWORDS.has(word)) return 'UPDATE';
      else throw sparqlSyntaxError(kind, text, m.index);
    }
  }
  if (expect !== 'keyword') throw sparqlSyntaxError(kind, text, text.length);
  return 'UPDATE';
}
