/**
 * RDFox's delta-query commands of the shell, on the active data store: `deltaquery` (list,
 * show, register, deregister, and quadlog's own `watch`, which prints each version's changes as
 * they are computed) and `deltaqueryanswer` (the answers a query keeps, per version and type).
 * Answers print as the shell prints query answers: a table, or the answer format
 * `query.answer-format` names.
 * @module
 */
import { ANSWER_MEDIA_TYPES, createTableWriter, type DataStoreConnection, type DeltaQueryOptions, type DeltaQueryRow, type DeltaQueryVersionAnswer } from '../index.js';
import { isKeyword } from './arguments.js';
import { type CommandContext, CommandError } from './base.js';
import type { Command } from './commands.js';
import { listing, plural, TablePrinter, TermFormatter } from './output.js';
import type { Word } from './words.js';

const DELTAQUERY_SYNTAX =
  'deltaquery list | show <name> | register <name> [<answer-format>] [<parameter> <value>]... {! <query> | <file>} | deregister <name> | watch [<changes>] {<name> | ! <query>}';

const DELTAQUERYANSWER_SYNTAX = 'deltaqueryanswer list [name <name> | from <version> | to <version> | type <answer-type>]... | show <name> <version> <answer-type>';

/** The largest size `unlimited` stands for. */
const UNLIMITED = Number.MAX_SAFE_INTEGER;

function noMore(ctx: CommandContext, index: number, syntax: string): void {
  const extra = ctx.args[index];
  if (extra) throw new CommandError(`unexpected argument '${extra.text}' (syntax: ${syntax})`, extra);
}

function needed(ctx: CommandContext, index: number, what: string, syntax: string): Word {
  const word = ctx.args[index];
  if (!word) throw new CommandError(`${what} is missing (syntax: ${syntax})`, ctx.args[index - 1]);
  return word;
}

/** A size parameter: a number, `none` (0) or `unlimited`. */
function size(word: Word): number {
  const text = word.text.toLowerCase();
  if (text === 'none') return 0;
  if (text === 'unlimited') return UNLIMITED;
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text))) throw new CommandError(`'${word.text}' is not a size (a number, none or unlimited)`, word);
  return Number(text);
}

function sizeText(n: number): string {
  return n >= UNLIMITED ? 'unlimited' : String(n);
}

/** The answer types: quadlog's names, and RDFox's singular ones. */
function answerType(word: Word): DeltaQueryVersionAnswer['type'] {
  switch (word.text.toLowerCase()) {
    case 'snapshot':
    case 'snapshots':
      return 'snapshot';
    case 'addition':
    case 'additions':
      return 'additions';
    case 'deletion':
    case 'deletions':
      return 'deletions';
    default:
      throw new CommandError(`unknown answer type '${word.text}' (snapshot, additions or deletions)`, word);
  }
}

function version(word: Word): number {
  if (!/^\d+$/.test(word.text)) throw new CommandError(`'${word.text}' is not a data store version`, word);
  return Number(word.text);
}

/** Prints rows of an answer as the shell prints query answers (a table, or `query.answer-format`). */
class AnswerPrinter {
  private constructor(
    private readonly ctx: CommandContext,
    private readonly format: string,
    private readonly prefixes: ReadonlyMap<string, string>,
  ) {}

  /** A printer for the active store's prefixes and the shell's answer format. */
  static async of(ctx: CommandContext, ds: DataStoreConnection): Promise<AnswerPrinter> {
    const format = ctx.shell.variable('query.answer-format') ?? 'table';
    if (format !== 'table' && !ANSWER_MEDIA_TYPES.includes(format)) {
      throw new CommandError(`query.answer-format '${format}' is not an answer format (table, or one of ${ANSWER_MEDIA_TYPES.join(', ')})`);
    }
    const prefixes = await ds.getPrefixes();
    return new AnswerPrinter(ctx, format, prefixes);
  }

  /** Prints an answer: its variables and rows. */
  async answer(variables: readonly string[], rows: readonly DeltaQueryRow[]): Promise<void> {
    if (this.format === 'table') {
      const formatter = new TermFormatter(this.prefixes);
      const printer = new TablePrinter(formatter.header(variables));
      await this.ctx.out(printer.page(rows.map((row) => formatter.row(row))));
      return;
    }
    let text = '';
    const writer = createTableWriter(this.format, (chunk) => (text += chunk), { prefixes: this.prefixes });
    writer.begin(variables);
    for (const row of rows) writer.row(row);
    writer.end();
    await this.ctx.out(text);
  }

  /** Prints a change: as a table, one row per added (`+`) or removed (`-`) row; else the additions and the deletions as two answers. */
  async change(variables: readonly string[], additions: readonly DeltaQueryRow[], deletions: readonly DeltaQueryRow[]): Promise<void> {
    if (this.format === 'table') {
      const formatter = new TermFormatter(this.prefixes);
      const printer = new TablePrinter(['', ...formatter.header(variables)]);
      const rows = [...additions.map((row) => ['+', ...formatter.row(row)]), ...deletions.map((row) => ['-', ...formatter.row(row)])];
      await this.ctx.out(printer.page(rows));
      return;
    }
    await this.ctx.out('additions:\n');
    await this.answer(variables, additions);
    await this.ctx.out('deletions:\n');
    await this.answer(variables, deletions);
  }
}

/** The options of `register` from its `<parameter> <value>` pairs. */
function registerOptions(words: readonly Word[]): DeltaQueryOptions {
  const options: { -readonly [K in keyof DeltaQueryOptions]: DeltaQueryOptions[K] } = {};
  const seen = new Set<string>();
  for (let i = 0; i < words.length; i += 2) {
    const key = words[i]!;
    const value = words[i + 1];
    const name = key.text.toLowerCase();
    if (!value) throw new CommandError(`parameter '${key.text}' has no value (give <parameter> <value> pairs, then ! and the query, or a file)`, key);
    if (seen.has(name)) throw new CommandError(`parameter '${key.text}' is given twice`, key);
    seen.add(name);
    switch (name) {
      case 'snapshots-max-size':
        options.snapshotsMaxSize = size(value);
        break;
      case 'additions-max-size':
        options.additionsMaxSize = size(value);
        break;
      case 'deletions-max-size':
        options.deletionsMaxSize = size(value);
        break;
      case 'evaluation-mode': {
        const mode = value.text.toLowerCase();
        if (mode !== 'delta' && mode !== 'snapshot') throw new CommandError(`unknown evaluation mode '${value.text}' (delta or snapshot)`, value);
        options.evaluationMode = mode;
        break;
      }
      case 'fact-domain':
        options.factDomain = value.text;
        break;
      case 'base-iri':
        options.baseIRI = value.text;
        break;
      default:
        throw new CommandError(
          `unknown parameter '${key.text}' (snapshots-max-size, additions-max-size, deletions-max-size, evaluation-mode, fact-domain or base-iri)`,
          key,
        );
    }
  }
  return options;
}

/** The query of `register` or `watch`: after `!`, or read from a file (relative names in dir.queries). */
async function queryText(ctx: CommandContext, source: Word, syntax: string): Promise<string> {
  if (isKeyword(source, '!')) {
    const text = ctx.rest(source).trim();
    if (text === '') throw new CommandError('the query after ! is missing', source);
    return text;
  }
  const index = ctx.args.indexOf(source);
  noMore(ctx, index + 1, syntax);
  const shell = ctx.shell;
  if (!shell.files) throw new CommandError(`${ctx.name} reads a query file, and ${shell.remote ? 'a remote shell' : 'this shell'} has no file access (give the query after !)`, source);
  const path = shell.resolvePath(source.text, 'dir.queries', source);
  try {
    return await shell.files.readText(path);
  } catch (e) {
    throw new CommandError(`cannot read the query file '${path}': ${(e as Error).message}`, source);
  }
}

async function register(ctx: CommandContext, ds: DataStoreConnection): Promise<void> {
  const name = needed(ctx, 1, 'the name of the delta query', DELTAQUERY_SYNTAX);
  let i = 2;
  const format = ctx.args[i];
  // RDFox names the format answers are kept in; quadlog keeps rows of terms and prints them in query.answer-format
  if (format && !format.quoted && format.text.includes('/') && ctx.args[i + 1]) {
    if (!ANSWER_MEDIA_TYPES.includes(format.text)) throw new CommandError(`'${format.text}' is not an answer format (one of ${ANSWER_MEDIA_TYPES.join(', ')})`, format);
    i++;
  }
  const bang = ctx.args.findIndex((w, j) => j >= i && isKeyword(w, '!'));
  const end = bang >= 0 ? bang : ctx.args.length - 1;
  if (end < i) throw new CommandError(`give the query after !, or a file holding it (syntax: ${DELTAQUERY_SYNTAX})`, ctx.args[end] ?? name);
  if ((end - i) % 2 !== 0 && bang < 0) throw new CommandError(`parameter '${ctx.args[end - 1]!.text}' has no value, or the query is missing (give <parameter> <value> pairs, then ! and the query, or a file)`, ctx.args[end - 1]);
  const options = registerOptions(ctx.args.slice(i, end));
  const text = await queryText(ctx, ctx.args[end]!, DELTAQUERY_SYNTAX);
  ctx.blame = name;
  const description = await ds.registerDeltaQuery(name.text, text, options);
  const how = description.computation === 'incremental' ? 'computed from the change log' : `computed by re-running it (${description.rerunReason ?? 'not incremental'})`;
  await ctx.note(`delta query '${name.text}' registered: its answer's changes are ${how}\n`);
}

async function show(ctx: CommandContext, ds: DataStoreConnection): Promise<void> {
  const name = needed(ctx, 1, 'the name of the delta query', DELTAQUERY_SYNTAX);
  noMore(ctx, 2, DELTAQUERY_SYNTAX);
  ctx.blame = name;
  // the description once the changes of the commits made so far are computed
  await ds.getDeltaQueryAnswers(name.text);
  const d = await ds.describeDeltaQuery(name.text);
  const rows: string[][] = [
    ['name', d.name],
    ['query', d.query.replace(/\s+/g, ' ').trim()],
    ['role', d.role],
    ['variables', d.variables.map((v) => `?${v}`).join(' ')],
    ['computation', d.computation],
  ];
  if (d.rerunReason !== undefined) rows.push(['rerun-reason', d.rerunReason]);
  rows.push(
    ['fact-domain', d.factDomain],
    ['evaluation-mode', d.evaluationMode],
    ['snapshots-max-size', sizeText(d.snapshotsMaxSize)],
    ['additions-max-size', sizeText(d.additionsMaxSize)],
    ['deletions-max-size', sizeText(d.deletionsMaxSize)],
    ['registered-at', d.registeredAt === undefined ? '' : String(d.registeredAt)],
    ['version', d.version === undefined ? '' : String(d.version)],
  );
  if (d.error !== undefined) rows.push(['error', d.error]);
  await ctx.out(listing(['Property', 'Value'], rows));
}

async function watch(ctx: CommandContext, ds: DataStoreConnection): Promise<void> {
  let i = 1;
  let limit: number | undefined;
  const first = ctx.args[1];
  if (first && /^\d+$/.test(first.text) && ctx.args[2]) {
    limit = Number(first.text);
    i = 2;
  }
  const source = needed(ctx, i, 'the name of the delta query, or ! and a query', DELTAQUERY_SYNTAX);
  let query: string;
  if (isKeyword(source, '!')) query = await queryText(ctx, source, DELTAQUERY_SYNTAX);
  else {
    noMore(ctx, i + 1, DELTAQUERY_SYNTAX);
    // a name that is not registered is an error here, not a query text
    ctx.blame = source;
    await ds.describeDeltaQuery(source.text);
    query = source.text;
  }
  const printer = await AnswerPrinter.of(ctx, ds);
  const shell = ctx.shell;
  ctx.blame = source;
  const factDomain = shell.variable('query.fact-domain');
  const events = isKeyword(source, '!') && factDomain !== undefined ? ds.watch(query, { query: { factDomain } }) : ds.watch(query);
  let changes = 0;
  try {
    await shell.onInterrupt(
      () => events.close(),
      async () => {
        if (limit === 0) return;
        for await (const event of events) {
          if (event.kind === 'answer') {
            const missed = event.missedFrom !== undefined ? ` (resynchronised: the changes from version ${event.missedFrom} on were missed)` : '';
            await ctx.out(`answer at version ${event.version}: ${plural(event.rows.length, 'row')}${missed}\n`);
            await printer.answer(event.variables, event.rows);
            if (event.missedFrom !== undefined) changes++;
          } else {
            await ctx.out(`version ${event.version}: ${event.additions.length} added, ${event.deletions.length} removed\n`);
            await printer.change(event.variables, event.additions, event.deletions);
            changes++;
          }
          if (limit !== undefined && changes >= limit) break;
        }
      },
    );
  } finally {
    events.close();
  }
  shell.checkInterrupted();
  await ctx.note(`watch ended after ${plural(changes, 'change')}\n`);
}

/** `deltaquery`: the delta queries of the active data store. */
export const deltaquery: Command = {
  name: 'deltaquery',
  syntax: DELTAQUERY_SYNTAX,
  summary: "list, describe, register and deregister the active data store's delta queries, or watch one's answer change",
  details:
    'register: parameters snapshots-max-size, additions-max-size, deletions-max-size (a number, none or unlimited; each 1 when not given), evaluation-mode (delta or snapshot), fact-domain (all, explicit or derived) and base-iri; ' +
    "RDFox's <answer-format> (a media type after the name) is accepted, and answers print in query.answer-format. After `!`, the rest of the command is the query; a file name is read by the shell (relative names in dir.queries). " +
    'watch prints the whole answer, then each later version\'s added (+) and removed (-) rows as they are computed, until <changes> versions were printed or Ctrl-C; after `!`, a query text is watched without registering it. ' +
    'deltaqueryanswer prints the answers a query keeps. See docs/delta-queries.md.',
  keywords: ['list', 'show', 'register', 'deregister', 'watch'],
  completes: 'deltaqueries',
  async run(ctx) {
    const sub = ctx.args[0];
    if (!sub) throw new CommandError(`deltaquery needs a subcommand: list, show, register, deregister or watch (syntax: ${DELTAQUERY_SYNTAX})`);
    const ds = ctx.shell.store();
    switch (sub.text.toLowerCase()) {
      case 'list': {
        noMore(ctx, 1, DELTAQUERY_SYNTAX);
        const names = (await ds.listDeltaQueries()).sort();
        await ctx.out(names.length > 0 ? names.map((n) => `${n}\n`).join('') : 'no delta queries\n');
        return;
      }
      case 'show':
        return show(ctx, ds);
      case 'register':
        return register(ctx, ds);
      case 'deregister': {
        const name = needed(ctx, 1, 'the name of the delta query', DELTAQUERY_SYNTAX);
        noMore(ctx, 2, DELTAQUERY_SYNTAX);
        ctx.blame = name;
        await ds.deregisterDeltaQuery(name.text);
        await ctx.note(`delta query '${name.text}' deregistered\n`);
        return;
      }
      case 'watch':
        return watch(ctx, ds);
      default:
        throw new CommandError(`unknown subcommand '${sub.text}' (list, show, register, deregister or watch)`, sub);
    }
  },
};

/** The criteria of `deltaqueryanswer list`. */
interface AnswerCriteria {
  name?: string;
  from?: number;
  to?: number;
  type?: DeltaQueryVersionAnswer['type'];
}

function criteria(ctx: CommandContext): AnswerCriteria {
  const out: AnswerCriteria = {};
  const seen = new Set<string>();
  for (let i = 1; i < ctx.args.length; i += 2) {
    const key = ctx.args[i]!;
    const value = ctx.args[i + 1];
    const k = key.text.toLowerCase();
    if (!['name', 'from', 'to', 'type'].includes(k)) throw new CommandError(`unknown criterion '${key.text}' (name, from, to or type)`, key);
    if (!value) throw new CommandError(`criterion '${key.text}' has no value`, key);
    if (seen.has(k)) throw new CommandError(`criterion '${key.text}' is given twice`, key);
    seen.add(k);
    if (k === 'name') out.name = value.text;
    else if (k === 'from') out.from = version(value);
    else if (k === 'to') out.to = version(value);
    else out.type = answerType(value);
  }
  return out;
}

/** `deltaqueryanswer`: the answers the active data store's delta queries keep. */
export const deltaqueryanswer: Command = {
  name: 'deltaqueryanswer',
  syntax: DELTAQUERYANSWER_SYNTAX,
  summary: "list the answers the active data store's delta queries keep (per version: additions, deletions, snapshot), or print one",
  details:
    "Answer types are snapshot, additions and deletions (RDFox's addition and deletion too). How many versions are kept is the query's *-max-size parameters. show prints the rows as query answers are printed (query.answer-format).",
  keywords: ['list', 'show'],
  completes: 'deltaqueries',
  async run(ctx) {
    const sub = ctx.args[0];
    if (!sub) throw new CommandError(`deltaqueryanswer needs a subcommand: list or show (syntax: ${DELTAQUERYANSWER_SYNTAX})`);
    const ds = ctx.shell.store();
    switch (sub.text.toLowerCase()) {
      case 'list': {
        const c = criteria(ctx);
        const names = c.name !== undefined ? [c.name] : (await ds.listDeltaQueries()).sort();
        const rows: string[][] = [];
        for (const name of names) {
          if (c.name !== undefined) ctx.blame = ctx.args.find((w) => w.text === c.name);
          for (const a of await ds.getDeltaQueryAnswers(name)) {
            if ((c.from !== undefined && a.version < c.from) || (c.to !== undefined && a.version > c.to) || (c.type !== undefined && a.type !== c.type)) continue;
            rows.push([name, String(a.version), a.type, String(a.rows.length)]);
          }
        }
        await ctx.out(rows.length > 0 ? listing(['Name', 'Version', 'Type', 'Rows'], rows) : 'no delta query answers\n');
        return;
      }
      case 'show': {
        const name = needed(ctx, 1, 'the name of the delta query', DELTAQUERYANSWER_SYNTAX);
        const at = version(needed(ctx, 2, 'the version', DELTAQUERYANSWER_SYNTAX));
        const typeWord = needed(ctx, 3, 'the answer type (snapshot, additions or deletions)', DELTAQUERYANSWER_SYNTAX);
        const type = answerType(typeWord);
        noMore(ctx, 4, DELTAQUERYANSWER_SYNTAX);
        ctx.blame = name;
        const answers = await ds.getDeltaQueryAnswers(name.text);
        const found = answers.find((a) => a.version === at && a.type === type);
        if (!found) {
          const kept = answers.filter((a) => a.type === type).map((a) => a.version);
          throw new CommandError(
            `delta query '${name.text}' keeps no ${type} at version ${at} (${kept.length > 0 ? `it keeps ${type} at ${kept.join(', ')}` : `it keeps no ${type}`})`,
            ctx.args[2],
          );
        }
        const { variables } = await ds.describeDeltaQuery(name.text);
        const printer = await AnswerPrinter.of(ctx, ds);
        await printer.answer(variables, found.rows);
        if (ctx.shell.variable('query.print-summary') !== 'false') await ctx.note(`${plural(found.rows.length, 'answer')}\n`);
        return;
      }
      default:
        throw new CommandError(`unknown subcommand '${sub.text}' (list or show)`, sub);
    }
  },
};
