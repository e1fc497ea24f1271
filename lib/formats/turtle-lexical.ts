/**
 * Lexical pieces of Turtle shared by every writer (N-Triples, Turtle, TSV, Datalog): the name
 * grammar (prefix names, local parts of prefixed names, blank node labels, variable names) and
 * quoted strings with their escapes.
 * @module
 */

// The name grammar of Turtle and SPARQL as pieces of regular expression source (for the `u`
// flag): the character class bodies are meant to go inside `[…]`, the others are groups.

/** `PN_CHARS_BASE` as the body of a character class. */
export const PN_CHARS_BASE =
  'A-Za-z\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u02FF\\u0370-\\u037D\\u037F-\\u1FFF\\u200C-\\u200D' +
  '\\u2070-\\u218F\\u2C00-\\u2FEF\\u3001-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFFD\\u{10000}-\\u{EFFFF}';
/** `PN_CHARS_U` (PN_CHARS_BASE and `_`) as the body of a character class. */
export const PN_CHARS_U = `${PN_CHARS_BASE}_`;
/** `PN_CHARS` without the combining diacritical marks (which have a group of their own) as the body of a character class. */
export const PN_CHARS_NC = `${PN_CHARS_U}\\-0-9\\u00B7\\u203F-\\u2040`;
/** The combining diacritical marks of `PN_CHARS`, as a character class. */
export const COMBINING = '[\\u0300-\\u036F]';
const PERCENT = '%[0-9A-Fa-f]{2}';
/** One `PN_CHARS` character, as a group. */
export const PN_CHARS = `(?:[${PN_CHARS_NC}]|${COMBINING})`;
/** One `PN_CHARS` character or `.`, as a group. */
export const PN_CHARS_OR_DOT = `(?:[${PN_CHARS_NC}.]|${COMBINING})`;
/** `VARNAME` (a variable name without `?`), as a sequence. */
export const VARNAME = `[${PN_CHARS_U}0-9](?:[${PN_CHARS_U}0-9\\u00B7\\u203F-\\u2040]|${COMBINING})*`;

/** A prefix name with its colon (`PNAME_NS`), `:` included. */
export const PREFIX_NAME_RE = new RegExp(`^(?:[${PN_CHARS_BASE}](?:${PN_CHARS_OR_DOT}*${PN_CHARS})?)?:$`, 'u');

/** The local part of a prefixed name (`PN_LOCAL` without backslash escapes). */
export const LOCAL_RE = new RegExp(
  `^(?:(?:[${PN_CHARS_U}:0-9]|${PERCENT})(?:(?:[${PN_CHARS_NC}.:]|${COMBINING}|${PERCENT})*(?:[${PN_CHARS_NC}:]|${COMBINING}|${PERCENT}))?)?$`,
  'u',
);

/** A blank node label (`BLANK_NODE_LABEL` without `_:`). */
export const BNODE_LABEL_RE = new RegExp(`^[${PN_CHARS_U}0-9](?:${PN_CHARS_OR_DOT}*${PN_CHARS})?$`, 'u');

/** A variable name (`VARNAME` of SPARQL, without `?`). */
export const VARNAME_RE = new RegExp(`^${VARNAME}$`, 'u');

const STRING_ESCAPES: Readonly<Record<string, string>> = {
  '\\': '\\\\',
  '"': '\\"',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\b': '\\b',
  '\f': '\\f',
};

// control characters, `"`, `\`, DEL and the noncharacters U+FFFE and U+FFFF (escaped in canonical N-Triples 1.2)
// eslint-disable-next-line no-control-regex
const STRING_SPECIAL_RE = /[\u0000-\u001f"\\\u007f\ufffe\uffff]/;
// eslint-disable-next-line no-control-regex
const STRING_SPECIAL_G = /[\u0000-\u001f"\\\u007f\ufffe\uffff]/g;

/** `\uXXXX` for a control character or a noncharacter (each a single UTF-16 code unit). */
function controlEscape(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** The content of a quoted string: `"`, `\`, control characters and U+FFFE, U+FFFF escaped. */
function escapeString(value: string): string {
  return STRING_SPECIAL_RE.test(value) ? value.replace(STRING_SPECIAL_G, (c) => STRING_ESCAPES[c] ?? controlEscape(c)) : value;
}

/** A string in double quotes, as Turtle, N-Triples and Datalog write it. */
export function turtleString(value: string): string {
  return `"${escapeString(value)}"`;
}
