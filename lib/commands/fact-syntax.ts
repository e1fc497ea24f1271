/**
 * The fact `explain` takes: a Datalog atom (`[ex:a, ex:p, ex:b]`, `ex:Person[ex:ann]`,
 * `T(ex:a, ex:b)`, optionally with a graph after a triple atom) or, as in Turtle, three terms
 * (`ex:a ex:p ex:b`, `a` standing for rdf:type) with an optional fourth naming the graph and an
 * optional final `.`; the second form is rewritten as the first.
 * @module
 */

const RDF_TYPE = '<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>';

/** The terms of a text written as Turtle terms separated by blanks, or undefined when it is not one. */
function terms(text: string): string[] | undefined {
  const out: string[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const start = i;
    if (c === '<') {
      const close = text.indexOf('>', i);
      if (close < 0) return undefined;
      i = close + 1;
    } else if (c === '"' || c === "'") {
      const long = text.startsWith(c.repeat(3), i);
      const quote = long ? c.repeat(3) : c;
      i += quote.length;
      while (i < n && !text.startsWith(quote, i)) i += text[i] === '\\' ? 2 : 1;
      if (i >= n) return undefined;
      i += quote.length;
      // a language tag or a datatype
      if (text[i] === '@') while (i < n && /[A-Za-z0-9@-]/.test(text[i]!)) i++;
      else if (text.startsWith('^^', i)) {
        i += 2;
        if (text[i] === '<') {
          const close = text.indexOf('>', i);
          if (close < 0) return undefined;
          i = close + 1;
        } else while (i < n && !/[\s,[\]()]/.test(text[i]!)) i++;
      }
    } else {
      while (i < n && !/[\s,[\]()]/.test(text[i]!)) i++;
      if (i === start) return undefined;
    }
    if (i < n && !/\s/.test(text[i]!)) return undefined;
    out.push(text.slice(start, i));
  }
  return out;
}

/**
 * The fact as a Datalog atom: three (or four, the last the graph) Turtle terms become a triple
 * atom; anything else is returned as it is, for the Datalog parser to read (or to reject).
 */
export function factAtom(text: string): string {
  let body = text.trim();
  if (body.startsWith('[') || /^[^\s[(]+\s*[[(]/.test(body)) return body;
  if (body.endsWith('.')) {
    // a final '.' ends the fact (as in Turtle, `1.` at the end is the number 1 and the '.')
    const cut = body.slice(0, -1).trimEnd();
    const count = terms(cut)?.length;
    if (count === 3 || count === 4) body = cut;
  }
  const parts = terms(body);
  if (!parts || (parts.length !== 3 && parts.length !== 4)) return text.trim();
  const [s, p, o, g] = parts as [string, string, string, string | undefined];
  const atom = `[${s}, ${p === 'a' ? RDF_TYPE : p}, ${o}]`;
  return g !== undefined ? `${atom} ${g}` : atom;
}
