/**
 * The name grammar of Turtle (and SPARQL, Datalog): prefix names, local parts of prefixed
 * names, blank node labels and variable names, as regular expressions.
 * @module
 */

const PN_CHARS_BASE =
  'A-Za-z\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u02FF\\u0370-\\u037D\\u037F-\\u1FFF\\u200C-\\u200D' +
  '\\u2070-\\u218F\\u2C00-\\u2FEF\\u3001-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFFD\\u{10000}-\\u{EFFFF}';
const PN_CHARS_U = `${PN_CHARS_BASE}_`;
/** PN_CHARS without the combining diacritical marks, which have a class of their own. */
const PN_CHARS_NC = `${PN_CHARS_U}\\-0-9\\u00B7\\u203F-\\u2040`;
const COMBINING = '[\\u0300-\\u036F]';
const PERCENT = '%[0-9A-Fa-f]{2}';
const PN_CHARS = `(?:[${PN_CHARS_NC}]|${COMBINING})`;
const PN_CHARS_OR_DOT = `(?:[${PN_CHARS_NC}.]|${COMBINING})`;

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
export const VARNAME_RE = new RegExp(`^[${PN_CHARS_U}0-9](?:[${PN_CHARS_U}0-9\\u00B7\\u203F-\\u2040]|${COMBINING})*$`, 'u');
