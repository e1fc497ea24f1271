/**
 * Parameters of query strings and application/x-www-form-urlencoded bodies, parsed as
 * `URLSearchParams` parses them (pairs split at `&` and the first `=`, `+` for a space, a `%`
 * not followed by two hex digits kept as it is) except that a name or value whose
 * percent-decoded bytes are not UTF-8 is refused with a ParsingError (400) naming the
 * parameter and the byte offset, instead of getting U+FFFD.
 * @module
 */
import { utf8Text } from './utf8-text.js';

const HEX = /^[0-9A-Fa-f]{2}$/;

/** The bytes of a component with its percent-escapes decoded (other characters as UTF-8). */
function percentDecoded(component: string): Buffer {
  const parts: Buffer[] = [];
  let from = 0;
  for (let p = component.indexOf('%'); p >= 0; p = component.indexOf('%', p + 1)) {
    const hex = component.slice(p + 1, p + 3);
    if (!HEX.test(hex)) continue;
    parts.push(Buffer.from(component.slice(from, p), 'utf8'), Buffer.from([Number.parseInt(hex, 16)]));
    from = p + 3;
    p += 2;
  }
  parts.push(Buffer.from(component.slice(from), 'utf8'));
  return Buffer.concat(parts);
}

/**
 * One name or value, decoded.
 * @throws ParsingError when its bytes are not UTF-8; `what` names it in the message.
 */
function decodeComponent(raw: string, what: () => string): string {
  const component = raw.includes('+') ? raw.replace(/\+/g, ' ') : raw;
  if (!component.includes('%')) return component;
  try {
    return decodeURIComponent(component);
  } catch {
    // a '%' without two hex digits (kept as it is), or bytes that are not UTF-8
    return utf8Text(percentDecoded(component), what());
  }
}

/**
 * Adds the pairs of form-encoded text (a query string without `?`, or a form body) to `params`.
 * @throws ParsingError for a name or value that is not UTF-8 once percent-decoded.
 */
export function appendFormParameters(params: URLSearchParams, text: string, where: string): void {
  if (text === '') return;
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const rawName = eq < 0 ? pair : pair.slice(0, eq);
    const rawValue = eq < 0 ? '' : pair.slice(eq + 1);
    const name = decodeComponent(rawName, () => `a parameter name ${where} (percent-decoded)`);
    params.append(name, decodeComponent(rawValue, () => `parameter '${name}' ${where} (percent-decoded)`));
  }
}

/**
 * The parameters of a query string (`URL.search`, with or without its `?`).
 * @throws ParsingError for a name or value that is not UTF-8 once percent-decoded.
 */
export function queryParameters(search: string): URLSearchParams {
  const params = new URLSearchParams();
  appendFormParameters(params, search.startsWith('?') ? search.slice(1) : search, 'in the query string');
  return params;
}

/**
 * Adds the pairs of a form body to `params`.
 * @throws ParsingError when the body, or a name or value once percent-decoded, is not UTF-8.
 */
export function appendFormBody(params: URLSearchParams, body: Buffer): void {
  appendFormParameters(params, utf8Text(body, 'the form body'), 'in the form body');
}
