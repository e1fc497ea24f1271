/**
 * The shell's administration commands, with RDFox's names and argument forms: `tupletable`
 * (the tuple tables of the active store), `stats` (its statistics), `dsource` (its data
 * sources), `password` (the shell role's password) and `tstamp` (time stamps). Like every
 * command they act through the public API only.
 * @module
 */
import { type DataStoreConnection, UnknownResourceError } from '../index.js';
import { type CommandContext, CommandError } from './base.js';
import type { Command } from './commands.js';
import { confirmed, isKeyword, pairs } from './arguments.js';
import { listing, plural, TablePrinter, TermFormatter } from './output.js';
import type { Word } from './words.js';

// ---- argument helpers ----

/** The argument at `index`, or an error naming what is missing and the command's syntax. */
function need(ctx: CommandContext, syntax: string, index: number, what: string): Word {
  const word = ctx.args[index];
  if (!word) throw new CommandError(`${what} is missing (syntax: ${syntax})`, ctx.args[index - 1]);
  return word;
}

/** Refuses arguments from `index` on. */
function noMore(ctx: CommandContext, syntax: string, index: number): void {
  const extra = ctx.args[index];
  if (extra) throw new CommandError(`unexpected argument '${extra.text}' (syntax: ${syntax})`, extra);
}

/** `[force]` at `index` and nothing after it: whether it was given. */
function forceAt(ctx: CommandContext, syntax: string, index: number): boolean {
  const word = ctx.args[index];
  if (word && !isKeyword(word, 'force')) throw new CommandError(`unexpected argument '${word.text}' (syntax: ${syntax})`, word);
  noMore(ctx, syntax, index + 1);
  return word !== undefined;
}

/** The subcommand (first argument), lower-cased, or an error listing the choices. */
function subcommand(ctx: CommandContext, syntax: string, choices: readonly string[]): { readonly word: Word; readonly name: string } {
  const word = ctx.args[0];
  if (!word) throw new CommandError(`${ctx.name} needs a subcommand: ${choices.join(', ')} (syntax: ${syntax})`);
  return { word, name: word.text.toLowerCase() };
}

function unknownSubcommand(word: Word, choices: readonly string[]): CommandError {
  return new CommandError(`unknown subcommand '${word.text}' (${choices.join(', ')})`, word);
}

/** A Property/Value listing. */
function properties(rows: ReadonlyArray<{ readonly property: string; readonly value: string }>): string {
  return listing(['Property', 'Value'], rows.map((r) => [r.property, r.value]));
}

// ---- tupletable ----

const TUPLETABLE_SYNTAX = 'tupletable list | show <name> | create <name> [<parameter> <value>]... | delete <name> [force]';
const TUPLETABLE_SUBCOMMANDS = ['list', 'show', 'create', 'delete'];

/** `tupletable`: the tuple tables of the active data store. */
export const tupletable: Command = {
  name: 'tupletable',
  syntax: TUPLETABLE_SYNTAX,
  summary: 'list, describe, create and delete the tuple tables of the active data store',
  details:
    '`show` (or `info`) lists a table\'s properties. `create` makes an in-memory table (`arity <n>`, or `min-arity` and `max-arity`) or mounts a table on a data source (`data-source-name <source>` with its column parameters). `delete` asks for confirmation unless `force` is given. Creating and deleting tables is not transactional: both are refused inside a transaction.',
  keywords: [...TUPLETABLE_SUBCOMMANDS, 'info', 'force'],
  async run(ctx) {
    const sub = subcommand(ctx, TUPLETABLE_SYNTAX, TUPLETABLE_SUBCOMMANDS);
    const ds = ctx.shell.store();
    switch (sub.name) {
      case 'list': {
        noMore(ctx, TUPLETABLE_SYNTAX, 1);
        const rows = await ds.listTupleTables();
        await ctx.out(listing(['Name', 'Type', 'ID', 'MinArity', 'MaxArity'], rows.map((t) => [t.name, t.type, String(t.id), String(t.minArity), String(t.maxArity)])));
        return;
      }
      case 'show':
      case 'info': {
        const name = need(ctx, TUPLETABLE_SYNTAX, 1, 'the name of the tuple table');
        noMore(ctx, TUPLETABLE_SYNTAX, 2);
        ctx.blame = name;
        await ctx.out(properties(await ds.describeTupleTable(name.text)));
        return;
      }
      case 'create': {
        const name = need(ctx, TUPLETABLE_SYNTAX, 1, 'the name of the tuple table');
        const parameters = pairs(ctx, 2);
        ctx.blame = name;
        await ds.createTupleTable(name.text, parameters);
        await ctx.note(`tuple table '${name.text}' created in data store '${ds.dataStoreName}'\n`);
        return;
      }
      case 'delete': {
        const name = need(ctx, TUPLETABLE_SYNTAX, 1, 'the name of the tuple table');
        const force = forceAt(ctx, TUPLETABLE_SYNTAX, 2);
        if (!(await confirmed(ctx, `delete tuple table '${name.text}' and its facts?`, force))) return;
        ctx.blame = name;
        await ds.deleteTupleTable(name.text);
        await ctx.note(`tuple table '${name.text}' deleted from data store '${ds.dataStoreName}'\n`);
        return;
      }
      default:
        throw unknownSubcommand(sub.word, TUPLETABLE_SUBCOMMANDS);
    }
  },
};

// ---- stats ----

const STATS_SYNTAX = 'stats list | show <name> | create <name> [<parameter> <value>]... | delete <name> [force] | update [<name>]';
const STATS_SUBCOMMANDS = ['list', 'show', 'create', 'delete', 'update'];

/** The statistics object of that name, or UnknownResourceError. */
async function statisticsNamed(ds: DataStoreConnection, name: string): Promise<{ name: string; parameters: string }> {
  const found = (await ds.listStatistics()).find((s) => s.name === name);
  if (!found) throw new UnknownResourceError(`statistics '${name}' do not exist in data store '${ds.dataStoreName}'`);
  return found;
}

/** `stats`: the statistics of the active data store. */
export const stats: Command = {
  name: 'stats',
  syntax: STATS_SYNTAX,
  summary: 'list, describe, create, delete and update the statistics of the active data store',
  details:
    'quadlog keeps one kind of statistics, `column-counts` (what the query and rule planners use); it takes no parameters and is kept up to date with every change, so `update` only checks that the statistics exist. `delete` asks for confirmation unless `force` is given.',
  keywords: [...STATS_SUBCOMMANDS, 'info', 'force', 'column-counts'],
  async run(ctx) {
    const sub = subcommand(ctx, STATS_SYNTAX, STATS_SUBCOMMANDS);
    const ds = ctx.shell.store();
    switch (sub.name) {
      case 'list': {
        noMore(ctx, STATS_SYNTAX, 1);
        const rows = await ds.listStatistics();
        await ctx.out(rows.length > 0 ? listing(['Name', 'Parameters'], rows.map((s) => [s.name, s.parameters])) : 'no statistics\n');
        return;
      }
      case 'show':
      case 'info': {
        const name = need(ctx, STATS_SYNTAX, 1, 'the name of the statistics');
        noMore(ctx, STATS_SYNTAX, 2);
        ctx.blame = name;
        const found = await statisticsNamed(ds, name.text);
        const rows = [{ property: 'name', value: found.name }];
        for (const [key, value] of new URLSearchParams(found.parameters)) rows.push({ property: `parameters.${key}`, value });
        await ctx.out(properties(rows));
        return;
      }
      case 'create': {
        const name = need(ctx, STATS_SYNTAX, 1, 'the name of the statistics');
        const parameters = pairs(ctx, 2);
        ctx.blame = name;
        await ds.createStatistics(name.text, parameters);
        await ctx.note(`statistics '${name.text}' created in data store '${ds.dataStoreName}'\n`);
        return;
      }
      case 'delete': {
        const name = need(ctx, STATS_SYNTAX, 1, 'the name of the statistics');
        const force = forceAt(ctx, STATS_SYNTAX, 2);
        if (!(await confirmed(ctx, `delete statistics '${name.text}'?`, force))) return;
        ctx.blame = name;
        await ds.deleteStatistics(name.text);
        await ctx.note(`statistics '${name.text}' deleted from data store '${ds.dataStoreName}'\n`);
        return;
      }
      case 'update': {
        const name = ctx.args[1];
        noMore(ctx, STATS_SYNTAX, 2);
        ctx.blame = name;
        await ds.updateStatistics(name?.text);
        await ctx.note(name ? `statistics '${name.text}' up to date\n` : 'statistics up to date\n');
        return;
      }
      default:
        throw unknownSubcommand(sub.word, STATS_SUBCOMMANDS);
    }
  },
};

// ---- dsource ----

const DSOURCE_SYNTAX =
  'dsource list | show <source> [<table>] | tables <source> | register <source> type <type> [<parameter> <value>]... | sample <source> <table> [<size>] | deregister <source>';
const DSOURCE_SUBCOMMANDS = ['list', 'show', 'tables', 'register', 'sample', 'deregister'];
/** Rows `dsource sample` shows when no size is given. */
const DEFAULT_SAMPLE_SIZE = 10;

/** `dsource`: the data sources of the active data store. */
export const dsource: Command = {
  name: 'dsource',
  syntax: DSOURCE_SYNTAX,
  summary: 'list, describe, register, sample and deregister the data sources of the active data store',
  details: `\`show <source>\` (or \`info\`) lists a source's properties, \`show <source> <table>\` the columns of one of its tables, \`tables\` its tables. \`register\` takes the source's parameters as key/value pairs, \`type\` among them (for example: dsource register people type delimitedFile file people.csv header true); file names are read by the server under its read policy. \`sample\` prints up to <size> rows of a table (default ${DEFAULT_SAMPLE_SIZE}). Registering and deregistering are not transactional: both are refused inside a transaction; a source with mounted tuple tables cannot be deregistered.`,
  keywords: [...DSOURCE_SUBCOMMANDS, 'info', 'type'],
  async run(ctx) {
    const sub = subcommand(ctx, DSOURCE_SYNTAX, DSOURCE_SUBCOMMANDS);
    const ds = ctx.shell.store();
    switch (sub.name) {
      case 'list': {
        noMore(ctx, DSOURCE_SYNTAX, 1);
        const rows = await ds.listDataSources();
        await ctx.out(
          rows.length > 0 ? listing(['Name', 'Type', 'Parameters', 'NumberOfTables'], rows.map((s) => [s.name, s.type, s.parameters, String(s.numberOfTables)])) : 'no data sources\n',
        );
        return;
      }
      case 'show':
      case 'info': {
        const source = need(ctx, DSOURCE_SYNTAX, 1, 'the name of the data source');
        const table = ctx.args[2];
        noMore(ctx, DSOURCE_SYNTAX, 3);
        ctx.blame = source;
        if (!table) {
          await ctx.out(properties(await ds.describeDataSource(source.text)));
          return;
        }
        ctx.blame = table;
        const columns = await ds.describeDataSourceTable(source.text, table.text);
        await ctx.out(listing(['Column', 'Name', 'Datatype'], columns.map((c) => [String(c.column), c.name, c.datatype])));
        return;
      }
      case 'tables': {
        const source = need(ctx, DSOURCE_SYNTAX, 1, 'the name of the data source');
        noMore(ctx, DSOURCE_SYNTAX, 2);
        ctx.blame = source;
        const tables = await ds.listDataSourceTables(source.text);
        await ctx.out(listing(['Name', 'NumberOfColumns', 'Columns'], tables.map((t) => [t.name, String(t.numberOfColumns), t.columns])));
        return;
      }
      case 'register': {
        const source = need(ctx, DSOURCE_SYNTAX, 1, 'the name of the data source');
        const parameters = pairs(ctx, 2);
        const type = parameters['type'];
        if (type === undefined) throw new CommandError(`the data source's type is missing: give 'type <type>' among the parameters (syntax: ${DSOURCE_SYNTAX})`, source);
        delete parameters['type'];
        // errors about the source (an unknown type, a bad parameter) name the source
        ctx.blame = source;
        await ds.registerDataSource(source.text, type, parameters);
        await ctx.note(`data source '${source.text}' registered in data store '${ds.dataStoreName}'\n`);
        return;
      }
      case 'sample': {
        const source = need(ctx, DSOURCE_SYNTAX, 1, 'the name of the data source');
        const table = need(ctx, DSOURCE_SYNTAX, 2, 'the name of the table');
        const size = ctx.args[3];
        noMore(ctx, DSOURCE_SYNTAX, 4);
        if (size && !/^\d+$/.test(size.text)) throw new CommandError(`the sample size '${size.text}' is not a number of rows`, size);
        ctx.blame = source;
        const sample = await ds.getDataSourceTableData(source.text, table.text, size ? Number(size.text) : DEFAULT_SAMPLE_SIZE);
        const formatter = new TermFormatter(await ds.getPrefixes());
        formatter.header(sample.variables);
        const printer = new TablePrinter(sample.variables);
        await ctx.out(printer.page(sample.rows.map((row) => formatter.row(row))));
        await ctx.note(`${plural(sample.rows.length, 'row')}\n`);
        return;
      }
      case 'deregister': {
        const source = need(ctx, DSOURCE_SYNTAX, 1, 'the name of the data source');
        noMore(ctx, DSOURCE_SYNTAX, 2);
        ctx.blame = source;
        await ds.deregisterDataSource(source.text);
        await ctx.note(`data source '${source.text}' deregistered from data store '${ds.dataStoreName}'\n`);
        return;
      }
      default:
        throw unknownSubcommand(sub.word, DSOURCE_SUBCOMMANDS);
    }
  },
};

// ---- password ----

const PASSWORD_SYNTAX = 'password [<old-password> <new-password>]';

/** `password`: changes the password of the shell's role. */
export const password: Command = {
  name: 'password',
  syntax: PASSWORD_SYNTAX,
  summary: "change the password of the shell's role",
  details:
    'Without arguments it asks for the current password and the new one (twice), without echoing them; where the shell cannot ask (scripts, shells of the HTTP endpoint) give both. A password typed in a command stays in the script; the terminal keeps such lines out of its history. The shell stays logged in. (The in-process server of a local `quadlog shell` gives its role a random password nobody knows: the command is for shells of a remote endpoint.)',
  async run(ctx) {
    const sc = ctx.shell.sc;
    let oldPassword: string;
    let newPassword: string;
    const first = ctx.args[0];
    if (!first) {
      const io = ctx.shell.io;
      if (!io.askPassword) throw new CommandError(`'password' asks for the passwords, and this shell cannot ask: give them (syntax: ${PASSWORD_SYNTAX})`);
      oldPassword = await io.askPassword(`current password of role '${sc.roleName}': `);
      newPassword = await io.askPassword('new password: ');
      const again = await io.askPassword('again: ');
      if (newPassword !== again) throw new CommandError('the new passwords differ: the password was not changed');
    } else {
      const second = need(ctx, PASSWORD_SYNTAX, 1, 'the new password');
      noMore(ctx, PASSWORD_SYNTAX, 2);
      oldPassword = first.text;
      newPassword = second.text;
      // a wrong current password is the first argument's fault; an empty new one the second's
      ctx.blame = newPassword === '' ? second : first;
    }
    if (newPassword === '') throw new CommandError('the new password must not be empty: the password was not changed', ctx.args[1]);
    await sc.changeRolePassword(oldPassword, newPassword);
    await ctx.note(`password of role '${sc.roleName}' changed\n`);
  },
};

// ---- tstamp ----

const TSTAMP_SYNTAX = 'tstamp [<variable>]';

/** `tstamp`: prints the current time, or keeps it in a variable. */
export const tstamp: Command = {
  name: 'tstamp',
  syntax: TSTAMP_SYNTAX,
  summary: 'print the current time stamp, or store it in a variable',
  details: 'The time stamp is the UTC time in ISO 8601 form with milliseconds (2026-01-31T12:00:00.000Z). With a variable name, nothing is printed: `tstamp start` … `echo started $(start)`.',
  completes: 'variables',
  async run(ctx) {
    const name = ctx.args[0];
    noMore(ctx, TSTAMP_SYNTAX, 1);
    const now = new Date().toISOString();
    if (!name) {
      await ctx.out(`${now}\n`);
      return;
    }
    await ctx.shell.setVariable(name.text, now, name);
  },
};

/** The administration commands, for the shell's command list. */
export const ADMIN_COMMANDS: readonly Command[] = [dsource, password, stats, tstamp, tupletable];
