/**
 * RDFox's `TT` operator in SPARQL text: `TT name { t1 … tn }` is an atom over the tuple table
 * `name`. sparqljs does not parse it, so before parsing it is written in the form RDFox also
 * accepts and sparqljs does parse: the arguments as an RDF collection that is the subject of
 * the reserved property `rdfox:TT` with the table name as a string,
 * `(t1 … tn) <https://rdfox.com/vocabulary#TT> "name"`. The evaluator reads that collection as
 * the atom (see tuple-table-access.ts). The rewrite is a list of edits, so parse errors are
 * still reported at their place in the text as written.
 * @module
 */
import { forEachSignificant, type TextEdit } from './syntax.js';

/** RDFox's vocabulary namespace (`rdfox:`). */
export const RDFOX_NS = 'https://rdfox.com/vocabulary#';

/** The reserved property linking the collection of a tuple table atom's arguments to the table's name. */
export const RDFOX_TT = `${RDFOX_NS}TT`;

/** `TT`, white space, a tuple table name, then the opening brace (sticky; case-insensitive like SPARQL keywords). */
const TT_HEAD = /TT\s+([A-Za-z_](?:[\w.-]*[\w-])?)\s*\{/iy;

/** Characters that can end a prefixed name or variable (a `TT` after them is part of that name). */
const NAME_CHAR = /[\p{L}\p{N}_\-:?$\u00B7]/u;

/**
 * The edits that turn every `TT name { t1 … tn }` of a SPARQL text (outside strings, IRIs and
 * comments) into `(t1 … tn) <https://rdfox.com/vocabulary#TT> "name"`. A `TT` whose braces
 * hold another brace, or whose closing brace is missing, is left for the parser to reject.
 */
export function tupleTableEdits(text: string): TextEdit[] {
  if (!/TT/i.test(text)) return [];
  const chars: number[] = [];
  forEachSignificant(text, (i, kind) => {
    if (kind === 'char') chars.push(i);
  });
  const edits: TextEdit[] = [];
  for (let k = 0; k < chars.length; k++) {
    const i = chars[k]!;
    if (text[i] !== 'T' && text[i] !== 't') continue;
    // a word of its own: not the end of a name, variable or prefixed name
    if (i > 0) {
      const before = text[i - 1]!;
      if (NAME_CHAR.test(before)) continue;
      if (before === '.' && i > 1 && NAME_CHAR.test(text[i - 2]!)) continue;
    }
    TT_HEAD.lastIndex = i;
    const head = TT_HEAD.exec(text);
    if (!head) continue;
    const open = TT_HEAD.lastIndex - 1;
    // the closing brace: the next significant brace after the opening one
    let m = k + 1;
    while (m < chars.length && chars[m]! <= open) m++;
    while (m < chars.length && text[chars[m]!] !== '}' && text[chars[m]!] !== '{') m++;
    if (m >= chars.length || text[chars[m]!] !== '}') continue;
    const close = chars[m]!;
    edits.push({ start: i, end: open + 1, replacement: '(' });
    edits.push({ start: close, end: close + 1, replacement: `) <${RDFOX_TT}> "${head[1]!}"` });
    k = m;
  }
  return edits;
}
