/**
 * The bound parameters of a SPARQL protocol request: `$name=<term>` parameters (the form
 * RDF4J's protocol uses), each an N-Triples term — `<http://…>`, `"text"`, `"text"@en`,
 * `"5"^^<http://www.w3.org/2001/XMLSchema#integer>`, `_:label` — given as a value for the
 * variable `?name` of the query or update (see "Bound parameters" in docs/sparql.md).
 * @module
 */
import type * as RDF from '@rdfjs/types/data-model.js';
import { Parser } from 'n3';
import { BadRequestError } from '../index.js';

/** The prefix of a bound parameter's name. */
const SIGIL = '$';

/** Whether a request parameter is a bound parameter. */
export function isBoundParameter(name: string): boolean {
  return name.startsWith(SIGIL) && name.length > SIGIL.length;
}

/** The one term of an N-Triples term text, or a BadRequestError naming the parameter. */
function termOf(name: string, text: string): RDF.Term {
  const problem = (): BadRequestError =>
    new BadRequestError(`the value of parameter '${name}' is not one N-Triples term (an IRI in <…>, a quoted literal with an optional @language or ^^<datatype>, or a blank node _:label)`);
  if (text.trim() === '' || /[\r\n]/.test(text)) throw problem();
  let quads: RDF.Quad[];
  try {
    // blank-node labels are kept as written (a label from an earlier answer names that node)
    quads = new Parser({ format: 'N-Triples', blankNodePrefix: '' }).parse(`<urn:x-quadlog:s> <urn:x-quadlog:p> ${text} .`);
  } catch {
    throw problem();
  }
  if (quads.length !== 1) throw problem();
  return quads[0]!.object;
}

/** The bound parameters among a request's parameters, by variable name (undefined when there are none). */
export function boundParameterValues(params: URLSearchParams): Record<string, RDF.Term> | undefined {
  let out: Record<string, RDF.Term> | undefined;
  for (const name of new Set(params.keys())) {
    if (!isBoundParameter(name)) continue;
    const values = params.getAll(name);
    if (values.length > 1) throw new BadRequestError(`parameter '${name}' is given ${values.length} times: a variable takes one value`);
    (out ??= {})[name.slice(SIGIL.length)] = termOf(name, values[0]!);
  }
  return out;
}
