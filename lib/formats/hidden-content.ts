/**
 * What error messages say in place of content that is not shown. Content read by IRI (SPARQL
 * LOAD, IRI lists, `importData(type, { iris })`) is not the caller's own text: it may be a page
 * or file the caller could not read otherwise, so the errors of its import name the rule broken
 * and the position, but never quote it. The parsers take a `showContent` option for that; these
 * are the texts they put where a quotation would be.
 * @module
 */

/** The note that ends a message whose quotation was left out. */
export const NOT_SHOWN_NOTE = 'it was read by IRI';

/** An unknown prefix, unnamed. */
export const UNKNOWN_PREFIX_NOT_SHOWN = `unknown prefix: declare it in the input or add it to the store's prefixes (the prefix is not shown: ${NOT_SHOWN_NOTE})`;

/** A Datalog statement whose error would quote it. */
export const DATALOG_STATEMENT_NOT_SHOWN = `the statement is not valid Datalog (its text is not shown: ${NOT_SHOWN_NOTE})`;

/** A rule that cannot be compiled, unnamed. */
export const RULE_NOT_SHOWN = `a rule cannot be compiled (the rule is not shown: ${NOT_SHOWN_NOTE})`;

/** A tuple table, unnamed. */
export const TUPLE_TABLE_NOT_SHOWN = `the tuple table (its name is not shown: ${NOT_SHOWN_NOTE})`;
