/**
 * IRI reference resolution (RFC 3986 §5.2) for IRI()/URI(), and the check that a string is a
 * valid IRI.
 * @module
 */

const REFERENCE = /^(?:([A-Za-z][A-Za-z0-9+.-]*):)?(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/s;

interface Parts {
  scheme: string | undefined;
  authority: string | undefined;
  path: string;
  query: string | undefined;
  fragment: string | undefined;
}

function parse(ref: string): Parts {
  const m = REFERENCE.exec(ref)!;
  return { scheme: m[1], authority: m[2], path: m[3] ?? '', query: m[4], fragment: m[5] };
}

/** RFC 3986 §5.2.4 remove_dot_segments. */
export function removeDotSegments(path: string): string {
  let input = path;
  const output: string[] = [];
  while (input.length > 0) {
    if (input.startsWith('../')) input = input.slice(3);
    else if (input.startsWith('./')) input = input.slice(2);
    else if (input.startsWith('/./')) input = input.slice(2);
    else if (input === '/.') input = '/';
    else if (input.startsWith('/../')) {
      input = input.slice(3);
      output.pop();
    } else if (input === '/..') {
      input = '/';
      output.pop();
    } else if (input === '.' || input === '..') input = '';
    else {
      const next = input.indexOf('/', input.startsWith('/') ? 1 : 0);
      const segment = next < 0 ? input : input.slice(0, next);
      output.push(segment);
      input = next < 0 ? '' : input.slice(next);
    }
  }
  return output.join('');
}

/** Whether a string has a scheme (is an absolute IRI, possibly with a fragment). */
export function hasScheme(ref: string): boolean {
  return parse(ref).scheme !== undefined;
}

/** Resolves a reference against an absolute base IRI (RFC 3986 §5.2.2). */
export function resolveIri(ref: string, base: string): string {
  const r = parse(ref);
  if (r.scheme !== undefined) return ref;
  const b = parse(base);
  let authority: string | undefined;
  let path: string;
  let query: string | undefined;
  if (r.authority !== undefined) {
    authority = r.authority;
    path = removeDotSegments(r.path);
    query = r.query;
  } else {
    authority = b.authority;
    if (r.path === '') {
      path = b.path;
      query = r.query ?? b.query;
    } else {
      if (r.path.startsWith('/')) path = removeDotSegments(r.path);
      else {
        const merged = b.authority !== undefined && b.path === '' ? `/${r.path}` : b.path.slice(0, b.path.lastIndexOf('/') + 1) + r.path;
        path = removeDotSegments(merged);
      }
      query = r.query;
    }
  }
  let out = `${b.scheme ?? ''}:`;
  if (authority !== undefined) out += `//${authority}`;
  out += path;
  if (query !== undefined) out += `?${query}`;
  if (r.fragment !== undefined) out += `#${r.fragment}`;
  return out;
}

const INVALID_IRI_CHAR = /[<>"{}|^`\\]/;

/** Whether a string can be an IRI (absolute, without spaces, controls or the characters IRIs exclude). */
export function isValidIri(iri: string): boolean {
  if (!hasScheme(iri) || INVALID_IRI_CHAR.test(iri)) return false;
  for (let i = 0; i < iri.length; i++) if (iri.charCodeAt(i) <= 0x20) return false;
  return true;
}
