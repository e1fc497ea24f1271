/**
 * The wording of mistakes that several parsers and paths report, so that one mistake reads
 * the same whichever path finds it (Turtle and TriG import, Datalog, SPARQL); it lives in the
 * lowest layer so that formats and sparql both use it.
 * @module
 */

/** What to do about an unknown prefix. */
export const UNKNOWN_PREFIX_ADVICE = "declare it in the input or add it to the store's prefixes";

/**
 * The message of a prefixed name whose prefix is not declared: `unknown prefix 'ex:'`, then
 * the position when the path reports positions in its messages (`at` is placed as given,
 * e.g. `at line 2, column 5`), then the advice. Paths that report the position apart from
 * the message (the Line and Column of import notification rows) give no `at`:
 * `unknown prefix 'ex:': declare it in the input or add it to the store's prefixes`.
 *
 * @param prefix The prefix name, with or without its colon (`ex` and `ex:` give the same).
 * @param at The position as the path words positions, if it puts them in the message.
 */
export function unknownPrefixMessage(prefix: string, at?: string): string {
  const name = prefix.endsWith(':') ? prefix : `${prefix}:`;
  return `unknown prefix '${name}'${at ? ` ${at}` : ''}: ${UNKNOWN_PREFIX_ADVICE}`;
}
