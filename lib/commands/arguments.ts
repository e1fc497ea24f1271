/**
 * What commands share in reading their input: keywords (unquoted words in any case),
 * `<key> <value>` pairs, with errors that point at the word at fault, and the confirmation a
 * destructive command asks for.
 * @module
 */
import { type CommandContext, CommandError } from './base.js';
import type { Word } from './words.js';

/** Whether a word is one of the keywords (unquoted, not an IRI, any case). */
export function isKeyword(word: Word | undefined, ...values: string[]): boolean {
  return word !== undefined && !word.quoted && !word.iri && values.includes(word.text.toLowerCase());
}

/** `<key> <value>` pairs from argument `from` on; a key without a value or given twice is an error. */
export function pairs(ctx: CommandContext, from: number): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = from; i < ctx.args.length; i += 2) {
    const key = ctx.args[i]!;
    const value = ctx.args[i + 1];
    if (!value) throw new CommandError(`parameter '${key.text}' has no value (give <key> <value> pairs)`, key);
    if (Object.hasOwn(out, key.text)) throw new CommandError(`parameter '${key.text}' is given twice`, key);
    out[key.text] = value.text;
  }
  return out;
}

/** Asks a yes/no question unless `force`; refuses where the shell cannot ask. */
export async function confirmed(ctx: CommandContext, question: string, force: boolean): Promise<boolean> {
  if (force) return true;
  const io = ctx.shell.io;
  if (!io.confirm) throw new CommandError(`'${ctx.name}' asks for confirmation, and this shell cannot ask: add 'force'`);
  const yes = await io.confirm(question);
  if (!yes) await ctx.note('cancelled\n');
  return yes;
}

/** A graph given as `<iri>`, a prefixed name, or `UNDEF` (the default graph: undefined). */
export async function graphName(ctx: CommandContext, word: Word): Promise<string | undefined> {
  if (word.iri) return word.text;
  if (word.text === 'UNDEF') return undefined;
  const m = /^([^:<>"\s]*:)(.*)$/.exec(word.text);
  if (m) {
    const iri = (await ctx.shell.store().getPrefixes()).get(m[1]!);
    if (iri !== undefined) return iri + m[2]!;
    if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(word.text)) throw new CommandError(`unknown prefix '${m[1]!}' in graph name '${word.text}'`, word);
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(word.text)) return word.text;
  throw new CommandError(`'${word.text}' is not a graph name (give <IRI>, a prefixed name, or UNDEF)`, word);
}
