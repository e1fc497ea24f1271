/**
 * Tab completion for the shell: command names, subcommands and keywords, data store names,
 * variable names and the prefix names of the active data store.
 * @module
 */
import { COMMANDS, findCommand } from './commands.js';

/** What completion needs to know: a {@link Shell}, or a client of a remote one. */
export interface CompletionSource {
  /** The data stores that can be named. */
  dataStoreNames(): string[] | Promise<string[]>;
  /** The prefix names (with colon) of the active data store. */
  prefixNames(): Promise<string[]>;
  /** The names of the variables. */
  variableNames(): string[];
  /** The names of the delta queries of the active data store (none when not given). */
  deltaQueryNames?(): Promise<string[]>;
}

/** Whether the word being completed names a delta query: after show, deregister, watch [<n>], or deltaqueryanswer's name. */
function deltaQuerySlot(before: readonly string[]): boolean {
  const position = before.length;
  const sub = (before[1] ?? '').toLowerCase();
  if (position === 2) return /^(show|deregister|watch)$/.test(sub);
  if (position === 3 && sub === 'watch') return /^\d+$/.test(before[2]!);
  return position >= 3 && sub === 'list' && before[position - 1]!.toLowerCase() === 'name';
}

const SPARQL_WORDS = ['SELECT', 'ASK', 'CONSTRUCT', 'DESCRIBE', 'INSERT', 'DELETE', 'PREFIX', 'WHERE', 'FILTER', 'OPTIONAL', 'GRAPH', 'DATA'];

function matching(candidates: Iterable<string>, partial: string, suffix = ''): string[] {
  const lower = partial.toLowerCase();
  return [...new Set(candidates)].filter((c) => c.toLowerCase().startsWith(lower)).sort().map((c) => c + suffix);
}

/**
 * The completions of the last word of `line` (as Node's readline completer returns them:
 * the candidates and the part of the line they replace).
 */
export async function complete(shell: CompletionSource, line: string): Promise<[string[], string]> {
  const words = line.split(/\s+/);
  if (words[0] === '') words.shift();
  const partial = /\s$/.test(line) || words.length === 0 ? '' : words[words.length - 1]!;
  const before = /\s$/.test(line) ? words.filter((w) => w !== '') : words.slice(0, -1);
  if (before.length === 0) {
    const upper = partial !== '' && partial === partial.toUpperCase() && /[A-Z]/.test(partial);
    const names = COMMANDS.flatMap((c) => [c.name, ...(c.aliases ?? [])]);
    const sparql = SPARQL_WORDS.slice(0, 7).map((w) => (upper ? w : w.toLowerCase()));
    return [matching(upper ? sparql : [...names, ...sparql], partial, ' '), partial];
  }
  const command = findCommand(before[0]!);
  const position = before.length;
  const candidates: string[] = [];
  if (command) {
    if (position === 1 && command.keywords) candidates.push(...command.keywords);
    const storeSlot = command.completes === 'stores' && (command.name === 'active' ? position === 1 : position === 2 && /^(delete|info|show)$/i.test(before[1] ?? ''));
    if (storeSlot) candidates.push(...(await shell.dataStoreNames()));
    if (command.completes === 'variables' && position === 1) candidates.push(...shell.variableNames());
    if (command.completes === 'commands') candidates.push(...COMMANDS.map((c) => c.name));
    if (command.completes === 'deltaqueries' && shell.deltaQueryNames && deltaQuerySlot(before)) candidates.push(...(await shell.deltaQueryNames()));
    if (candidates.length > 0) return [matching(candidates, partial, ' '), partial];
  }
  // anything else: prefix names of the active store (in SPARQL, imports, graph names…)
  if (partial.includes(':') || partial.includes('<') || partial.startsWith('?') || partial.startsWith('$')) return [[], partial];
  const tail = /[A-Za-z][\w.-]*$/.exec(partial)?.[0] ?? '';
  if (tail !== partial && !/[\s{(.,;^/|!]$/.test(partial.slice(0, partial.length - tail.length))) return [[], partial];
  const head = partial.slice(0, partial.length - tail.length);
  const keywords = command ? [] : SPARQL_WORDS.filter(() => /^[A-Z]/.test(tail));
  return [matching([...(await shell.prefixNames()), ...keywords], tail).map((c) => head + c), partial];
}
